/* Fuzz target: the values parser (util/util.h), as eval, every reader
 * and the store use it.
 *
 * Contract: a row it accepts has a value or more, and its JSON reads back
 * to the same values and is written the same (the text the store keeps);
 * one value read alone is the row of that one value; a NUL byte is always
 * refused, saying so; a refusal is CR_EINVAL (or CR_ENOMEM) with a message,
 * valid UTF-8 whenever the input is. */
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    int has_nul = memchr(text, '\0', size) != NULL, utf8 = fuzz_utf8(text, size);
    cr_coins coins = {0};
    cr_error err = {0};
    int rc = cr_coins_parse(&coins, text, size, &err);
    if (rc == 0) {
        FUZZ_CHECK(coins.n >= 1, "a row with no values was accepted");
        FUZZ_CHECK(!has_nul, "a NUL byte was accepted");
        fuzz_check_json(coins.json, coins.json_len, coins.v, coins.n);
    } else {
        FUZZ_CHECK(rc == CR_EINVAL || rc == CR_ENOMEM, "code %d", rc);
        FUZZ_CHECK(err.msg[0] != '\0', "a refusal without a message");
        FUZZ_CHECK(!utf8 || fuzz_utf8_text(err.msg), "the message '%s' is not UTF-8", err.msg);
        FUZZ_CHECK(!has_nul || strstr(err.msg, "NUL byte"), "a NUL refused as '%s'", err.msg);
    }
    int64_t one;
    cr_error one_err = {0};
    if (cr_coin_parse(&one, text, size, 1, &one_err) == 0) {
        FUZZ_CHECK(rc == 0 && coins.n == 1 && coins.v[0] == one, "one value read alone is not that row");
    } else {
        FUZZ_CHECK(one_err.msg[0] != '\0', "a refusal without a message");
        FUZZ_CHECK(!utf8 || fuzz_utf8_text(one_err.msg), "the message '%s' is not UTF-8", one_err.msg);
    }
    cr_coins_free(&coins);
    return 0;
}
