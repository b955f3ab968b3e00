/* Memory: arrays that grow, and the machine's memory and the descriptors
 * a process may still open, asked of the system. */
#include "util/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

int cr_grow(void **buf, size_t *cap, size_t need, size_t size, size_t first)
{
    if (need <= *cap)
        return 0;
    size_t most = size ? SIZE_MAX / size : SIZE_MAX; /* elements whose bytes a size_t counts */
    if (need > most)
        return CR_ENOMEM;
    size_t grown = *cap ? *cap : first ? first : 1;
    while (grown < need)
        grown = grown > most / 2 ? most : 2 * grown;
    void *bigger = realloc(*buf, grown * size);
    if (!bigger)
        return CR_ENOMEM;
    *buf = bigger;
    *cap = grown;
    return 0;
}

size_t cr_physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || page <= 0)
        return 0;
    return (size_t)pages > SIZE_MAX / (size_t)page ? SIZE_MAX : (size_t)pages * (size_t)page;
}

int cr_files_spare(int count)
{
    /* pipes need no file system and leave nothing behind */
    int fds[64], opened = 0;
    if (count > (int)(sizeof fds / sizeof *fds))
        count = (int)(sizeof fds / sizeof *fds);
    while (opened < count) {
        if (opened > 0 && count - opened == 1) {
            if ((fds[opened] = dup(fds[0])) < 0)
                break;
            opened++;
        } else if (pipe(fds + opened) == 0) {
            opened += 2;
        } else {
            break;
        }
    }
    int spare = opened >= count;
    while (opened > 0)
        close(fds[--opened]);
    return spare;
}
