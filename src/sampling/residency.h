/*
 * residency — how much of the run's source and destination is in the page
 * cache, read once per tick from descriptors the monitor opens itself
 * (never the worker's).
 *
 * Two readers: cachestat(2) (Linux >= 6.5), which also counts dirty,
 * writeback and evicted pages and costs one syscall per file whatever its
 * size; and, where the kernel lacks it (ENOSYS) or refuses a file (EPERM),
 * mincore(2) over read-only shared maps of RESIDENCY_CHUNK, which sees
 * only resident pages and costs a page-cache lookup per page (about 44 ms
 * for a 4 GiB file here, bench/residency.c).  To stay inside the tick, the
 * per-tick reader walks a file whole only when it is opened; after that,
 * each tick walks the chunks the file grew by and then the next ones in
 * turn, up to RESIDENCY_BUDGET bytes, and sums the last count of every
 * chunk (a chunk's figure is at most size/RESIDENCY_BUDGET ticks old).
 * LRUTOP_RESIDENCY=mincore in the environment forces the second (tests,
 * benches).
 *
 * Invariants: a file is opened O_RDONLY (the destination O_RDWR only when
 * cachestat refused a read-only descriptor: it is lrutop's own scratch
 * file); a descriptor whose path now names another inode, or nothing, is
 * closed, so an unlinked destination's pages are never kept alive by the
 * monitor.  A read allocates nothing, but for the mincore reader's chunk
 * table when a file is opened or grows past it.
 */
#ifndef LRUTOP_RESIDENCY_H
#define LRUTOP_RESIDENCY_H

#include <stdint.h>

#include "sample.h"

enum residency_method {
	RESIDENCY_NONE,
	RESIDENCY_CACHESTAT,
	RESIDENCY_MINCORE,
};

/* One file's page-cache state, in pages (of the system's page size). */
struct residency_counts {
	uint64_t pages;	 /* the file's size, rounded up to pages */
	uint64_t cached; /* resident */
	uint64_t dirty, writeback, evicted, recently_evicted; /* cachestat only */
	int method; /* enum residency_method that filled it */
};

/* The mincore walk's piece: 64 MiB maps, a 16 KiB vector; and how much of
 * a file one tick walks. */
#define RESIDENCY_CHUNK	 (64ull << 20)
#define RESIDENCY_BUDGET (256ull << 20)

struct residency;

/* Never fails (the vector is allocated here, once). */
struct residency *residency_new(void);
void residency_free(struct residency *r);

/* Reads the source and destination (either may be NULL: not watched) into
 * smp's SAMPLE_HAVE_RES block; opens a file on first sight, re-opens it
 * when its path names another inode, leaves the bit clear when neither can
 * be read (the destination appears only once the worker made it). */
void residency_read(struct residency *r, const char *src, const char *dst, struct sample *smp);
/* Closes both descriptors (between runs). */
void residency_close(struct residency *r);
/* The mincore reader's bytes per tick per file (tests, benches); rounded
 * up to whole chunks, 0 restores RESIDENCY_BUDGET. */
void residency_set_budget(struct residency *r, uint64_t bytes);

/* One file by descriptor, whole: cachestat if allowed (want_cachestat),
 * else mincore over every chunk.  0, or -1 with errno (EPERM: cachestat refused this fd, ENOSYS:
 * the kernel has no cachestat). */
int residency_fd(struct residency *r, int fd, int want_cachestat, struct residency_counts *out);

/* "cachestat", "mincore" or "-". */
const char *residency_method_name(int method);

#endif
