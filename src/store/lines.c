/* How schema versions 4 to 6 kept a line of play, one bit per turn, for
 * the upgrades that go through them (schema/004_results.sql packs the lines
 * of version 3, 007_lines_as_text.sql turns them back into text).  The
 * bits, read as one big-endian number, are a 1 followed by the turns (1 for
 * R), so the last turn is the lowest bit of the last byte and the 1 in the
 * first byte tells where the line starts.
 *
 * Whole bytes are packed and unpacked eight turns at a time, as one 64-bit
 * word of letters: an upgrade turns every line of a database. */
#include "store/sql.h"

#include <string.h>

#define EACH_BYTE(b) (0x0101010101010101u * (b))

/* Eight letters as one word, the first in the lowest byte, and back. */
static uint64_t load_letters(const char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static void store_letters(char *p, uint64_t w)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    memcpy(p, &w, sizeof w);
}

/* The byte of eight turns (the first in the highest bit); -1 when a letter
 * is neither L nor R. */
static int pack_byte(const char *turns)
{
    uint64_t w = load_letters(turns);
    uint64_t r = w >> 1 & EACH_BYTE(1); /* 'R' is 0x52, 'L' 0x4C: bit 1 tells them apart */
    if (w != EACH_BYTE('L') + 6 * r)
        return -1;
    /* each letter's bit to its place: the multiplier's terms never collide */
    return (int)(r * 0x8040201008040201u >> 56);
}

static void unpack_byte(char *turns, unsigned byte)
{
    uint64_t bits = EACH_BYTE(byte) & 0x0102040810204080u; /* letter i keeps bit 7 - i */
    uint64_t r = (bits + EACH_BYTE(0x7f)) >> 7 & EACH_BYTE(1);
    store_letters(turns, EACH_BYTE('L') + 6 * r);
}

size_t cr_store__line_bytes(size_t n) { return n / 8 + 1; }

int cr_store__line_pack(unsigned char *out, const char *line, size_t n)
{
    size_t head = n % 8; /* turns in the first byte, below its 1 */
    unsigned first = 1u << head;
    for (size_t k = 0; k < head; k++) {
        if (line[k] != 'L' && line[k] != 'R')
            return -1;
        first |= (unsigned)(line[k] == 'R') << (head - 1 - k);
    }
    out[0] = (unsigned char)first;
    for (size_t b = 1, k = head; k < n; b++, k += 8) {
        int byte = pack_byte(line + k);
        if (byte < 0)
            return -1;
        out[b] = (unsigned char)byte;
    }
    return 0;
}

int cr_store__line_length(size_t *out, const unsigned char *bits, size_t bytes)
{
    if (bytes == 0 || bits[0] == 0)
        return -1;
    int top = 7;
    while (!(bits[0] >> top & 1))
        top--;
    *out = 8 * (bytes - 1) + (size_t)top;
    return 0;
}

void cr_store__line_unpack(char *out, const unsigned char *bits, size_t n)
{
    size_t head = n % 8;
    for (size_t k = 0; k < head; k++)
        out[k] = bits[0] >> (head - 1 - k) & 1 ? 'R' : 'L';
    for (size_t b = 1, k = head; k < n; b++, k += 8)
        unpack_byte(out + k, bits[b]);
    out[n] = '\0';
}

/* coinrow_pack_line(text): the packed line; NULL for NULL and for a text
 * that is not all L and R (whose rows the upgrade then keeps whole). */
static void pack_line_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL)
        return; /* NULL */
    const char *line = (const char *)sqlite3_value_text(argv[0]);
    size_t n = (size_t)sqlite3_value_bytes(argv[0]);
    unsigned char *bits = line ? sqlite3_malloc64(cr_store__line_bytes(n)) : NULL;
    if (!bits) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    if (cr_store__line_pack(bits, line, n) != 0) {
        sqlite3_free(bits);
        return; /* NULL */
    }
    sqlite3_result_blob64(ctx, bits, cr_store__line_bytes(n), sqlite3_free);
}

/* coinrow_line_text(blob): the line as text, as the views of versions 4 to 6 showed
 * any blob: NULL for NULL and for an empty blob; else the bits after the
 * first 1 (none: the empty text), as L and R.  A value that is not a blob
 * is read as its bytes, as their hex() read it. */
static void line_text_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
    (void)argc;
    const unsigned char *bits = sqlite3_value_blob(argv[0]);
    size_t bytes = (size_t)sqlite3_value_bytes(argv[0]), n = 0;
    if (!bits || bytes == 0)
        return; /* NULL */
    while (bytes > 0 && bits[0] == 0)
        bits++, bytes--;
    if (bytes == 0) {
        sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
        return;
    }
    (void)cr_store__line_length(&n, bits, bytes); /* the first byte is not 0 */
    char *line = sqlite3_malloc64(n + 1);
    if (!line) {
        sqlite3_result_error_nomem(ctx);
        return;
    }
    cr_store__line_unpack(line, bits, n);
    sqlite3_result_text64(ctx, line, n, sqlite3_free, SQLITE_UTF8);
}

int cr_store__lines_register(cr_store *s, cr_error *err)
{
    /* direct only: coinrow's own statements call them, never the schema */
    int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY;
    if (sqlite3_create_function(s->db, "coinrow_pack_line", 1, flags, NULL, pack_line_sql, NULL, NULL) != SQLITE_OK ||
        sqlite3_create_function(s->db, "coinrow_line_text", 1, flags, NULL, line_text_sql, NULL, NULL) != SQLITE_OK)
        return cr_store__fail(s, "setting it up", err);
    return 0;
}
