/*
 * alloc_count — counts the heap allocations a stretch of code makes, for
 * bench/tick's "0 allocations a tick" (docs/style.md rule 4).  Linked into
 * the benches that ask for it (the Makefile: bench/tick), never into
 * lrutop: it replaces glibc's malloc family for the whole process —
 * libproc2, ncurses and libc call the replacement too — so it lives in a
 * unit of its own, not in the file that measures.
 *
 * Counting is off where it cannot be trusted: under ASan (which replaces
 * the allocator itself) and off glibc; alloc_count_off says why, and the
 * bench prints it instead of a figure.
 */
#ifndef LRUTOP_ALLOC_COUNT_H
#define LRUTOP_ALLOC_COUNT_H

/* NULL when counting works here, else why not (one phrase). */
const char *alloc_count_off(void);
/* Zeroes the counts and counts from now (alloc_count_stop: not any more). */
void alloc_count_start(void);
void alloc_count_stop(void);
/* Calls of malloc, calloc, realloc, reallocarray, posix_memalign,
 * aligned_alloc, memalign and valloc since the start, and the bytes they
 * asked for; free is not counted. */
unsigned long long alloc_count_calls(void);
unsigned long long alloc_count_bytes(void);

#endif
