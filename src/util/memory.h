/* What the machine has, for the budgets the layers above the core set. */
#ifndef CR_UTIL_MEMORY_H
#define CR_UTIL_MEMORY_H

#include <stddef.h>

/* The machine's physical memory in bytes; 0 when the system does not say. */
size_t cr_physical_memory(void);

#endif
