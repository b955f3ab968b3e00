/* FNV-1a, 64 bits: the hash of sets' fingerprints and of
 * export's file-name table. */
#include "util/util.h"

uint64_t cr_fnv1a(uint64_t h, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}

uint64_t cr_instance_digest(const char *ext_id, size_t ext_id_len, const char *coins_json, size_t coins_json_len)
{
    static const char zero = '\0';
    uint64_t h = cr_fnv1a(CR_FNV1A_BASIS, ext_id, ext_id_len);
    return cr_fnv1a(cr_fnv1a(h, &zero, 1), coins_json, coins_json_len);
}
