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
 * The map (residency_map_read): where in each file the cache is, as n
 * ranges of equal size (vmtouch -v's picture) — cachestat(2) per range,
 * or, under the mincore fallback, the per-page vector the per-tick walk
 * keeps (one byte a page of the file: 1 MiB for 4 GiB), so the map costs
 * the fallback no system call of its own.  Kept out of struct sample (the
 * history ring stays small): the caller keeps the latest one.
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

#include "sampling/sample.h"

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

/* The map: at most RESIDENCY_MAP_MAX ranges a file; range k of a file of
 * `pages` pages read in n ranges covers pages [k*pages/n, (k+1)*pages/n)
 * (n <= pages: no range is empty).  Counts in pages, saturated at
 * UINT32_MAX; under mincore only cached is known (the rest 0). */
#define RESIDENCY_MAP_MAX 256
struct residency_map_file {
	uint64_t pages; /* the file's size when read, in pages */
	uint16_t n;	/* ranges; 0: the file was not read */
	uint8_t method; /* enum residency_method */
	uint32_t cached[RESIDENCY_MAP_MAX], dirty[RESIDENCY_MAP_MAX],
	    writeback[RESIDENCY_MAP_MAX], evicted[RESIDENCY_MAP_MAX],
	    recent[RESIDENCY_MAP_MAX]; /* recently evicted */
};
struct residency_map {
	uint64_t t_ns; /* the sample it goes with */
	struct residency_map_file src, dst;
};

/* residency_read, and the map of each file read in n ranges (clamped to
 * 1..RESIDENCY_MAP_MAX and to the file's pages) into map (t_ns: smp's); a
 * file not read, empty, or not walked yet gets n = 0.  Under cachestat the
 * file's counts in smp are the sums of its ranges (no whole-file call). */
void residency_read_map(struct residency *r, const char *src, const char *dst, struct sample *smp,
			int n, struct residency_map *map);
/* First page of range k of n over pages (see above). */
uint64_t residency_range_start(uint64_t pages, int n, int k);

/* 1 when the kernel has cachestat(2) (Linux >= 6.5): tests skip on 0. */
int residency_have_cachestat(void);

/* "cachestat", "mincore" or "-". */
const char *residency_method_name(int method);

#endif
