/* Reference mm_mun_cp: mm_sync_cp.c with munmap + fsync. */
#define MUNMAP 1
#include "mm_sync_cp.c"
