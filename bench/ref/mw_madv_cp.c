/* Reference mw_madv_cp: mw_cp.c with MADV_SEQUENTIAL. */
#define MADVISE 1
#include "mw_cp.c"
