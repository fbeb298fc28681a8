/* Reference mm_mun_madv_cp: mm_sync_cp.c with munmap + fsync and MADV_SEQUENTIAL. */
#define MUNMAP	1
#define MADVISE 1
#include "mm_sync_cp.c"
