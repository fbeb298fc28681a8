/* Reference mm_sync_madv_cp: mm_sync_cp.c with MADV_SEQUENTIAL. */
#define MADVISE 1
#include "mm_sync_cp.c"
