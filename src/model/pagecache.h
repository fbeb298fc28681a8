/*
 * pagecache — what the residency block of the samples (SAMPLE_HAVE_RES,
 * residency.h) says, in the units the views and results show: shares of
 * each file that are cached, dirty, under writeback, and the counts of
 * pages reclaim took from the run's files; the per-run figures.
 *
 * Invariants: pure functions of samples.  A share of a file that was not
 * read, is empty, or whose figure the reader cannot see (mincore sees only
 * resident pages) is NAN — "no data", never 0.
 */
#ifndef LRUTOP_PAGECACHE_H
#define LRUTOP_PAGECACHE_H

#include "sampling/residency.h"
#include "model/runlog.h"
#include "sampling/sample.h"
#include "model/series.h"

struct pagecache_pct {
	double src_cached;		      /* % of the source's pages */
	double dst_cached, dst_dirty, dst_wb; /* % of the destination's pages */
	double evicted, recent;		      /* pages of both files: evicted, recently evicted */
};

/* Fills out from s (everything NAN when s is NULL or has no residency). */
void pagecache_pct(const struct sample *s, struct pagecache_pct *out);
/* The reader that filled s ("cachestat", "mincore"; the weaker of the
 * two files'), or NULL when s has no residency. */
const char *pagecache_method(const struct sample *s);
/* The run's figures from its samples (run: its index in the run log, the
 * samples' run field) taken in [t0, t1]: the destination's peak dirty
 * pages (as KiB), the source's cached pages and size and the recently evicted
 * pages of both files at its last sample with residency in the copy,
 * flush or done phase (the verify drops and re-reads both files; a run
 * that never got so far: its last sample).  Sets
 * r->res_have (0 when no sample had any). */
void pagecache_run_figures(const struct series *ser, int run, uint64_t t0, uint64_t t1,
			   struct run_result *r);
/* The source's cached share at the copy's end, %: NAN without residency
 * or with an empty source. */
double pagecache_src_cached_end_pct(const struct run_result *r);

/* The map of one file (residency.h) as w cells, vmtouch -v's picture: cell
 * i covers ranges [i*n/w, (i+1)*n/w) (one at least, so a map narrower
 * than w repeats ranges).  A cell is dirty or under writeback when any of
 * its pages is (the larger of the two wins), else cached when all of its
 * pages are ("O"), some when any is ("o"), evicted when none is but
 * reclaim took some (cachestat's shadow entries), else empty; none for a
 * file without a map. */
enum pagecache_cell {
	PCELL_NONE,
	PCELL_EMPTY,
	PCELL_EVICTED,
	PCELL_SOME,
	PCELL_CACHED,
	PCELL_DIRTY,
	PCELL_WB,
};
void pagecache_map_cells(const struct residency_map_file *f, int w, unsigned char *cells);

#endif
