/* Reference rw_fadv_cp: rw_cp.c with both source hints. */
#define FADVISE 1
#include "rw_cp.c"
