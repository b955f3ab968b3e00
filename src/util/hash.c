/* FNV-1a, 64 bits: the hash of shards' partition and fingerprints and of
 * export's file-name table. */
#include "util/util.h"

uint64_t cr_fnv1a(uint64_t h, const void *bytes, size_t len)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < len; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}
