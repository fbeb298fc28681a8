/*
 * burst — what counts as a demotion burst between two samples, and the
 * per-run figures taken from the samples of a copy (CV of the disk rates,
 * peak active_file, deactivations, refaults, bursts).
 *
 * Invariants: pure functions of samples; the overview, the Runs view and
 * the results all use this one definition, so a ▼ on screen and a count in
 * the table always agree.
 */
#ifndef LRUTOP_BURST_H
#define LRUTOP_BURST_H

#include <stdint.h>

#include "sample.h"
#include "series.h"

/* Demotion burst: between two samples, pages were deactivated (moved from
 * the active to the inactive LRU list) at a rate of at least BURST_PER_S of
 * the watched memory per second.  A rate, so the count does not depend on
 * the sampling interval.  Only the run's own counters are used once it has
 * a cgroup, so another workload on the machine cannot put bursts on it:
 *  - a run's cgroup v2: its own memory.stat pgdeactivate, size = the limit;
 *  - a run's cgroup v1, whose memory.stat has no pgdeactivate (kernel 6.18:
 *    only pgpgin/pgpgout/pgfault/pgmajfault and workingset_refault_*): the
 *    fall of the cgroup's own active_file, at least BURST_PER_S of the limit
 *    per second, from an active list holding at least BURST_V1_HELD of the
 *    limit, with inactive_file growing by at least half the fall (pages
 *    went to the inactive list, not freed by a truncate or an unlink);
 *  - no cgroup: /proc/vmstat pgdeactivate, size = MemTotal.
 * Why these figures for v1 (64M limit, 0.25 s ticks, kernel 6.18, a 2 GiB
 * scratch source): a quiet `lrutop --batch -s mm_sync_cp,rw_cp --size 2G
 * --mem-limit 64M --csv` gave mm_sync_cp 17 bursts by the old rule (system
 * pgdeactivate while the cgroup's active_file shrank) and 17 by this one,
 * every fall from an active list of 35-79% of the limit; rw_cp 0 and 0.
 * With a neighbour (a second lrutop running mm_sync_cp under 64M on a
 * 2 GiB --src) a 1 GiB rw_cp got 6 and 2 bursts by the old rule, 3 and 0
 * by the fall alone, 0 by this rule: its active list jumped by exactly
 * 8 MiB (12.5% of the limit) and fell back within ~60 ms — dirty pages
 * that reclaim activates while the shared disk is slow to write them back.
 * The tests repeat both: tests/unit/test_burst.c computes both rules over
 * one real sampled 1 GiB mm_sync_cp series (9 and 9 here), and
 * tests/sh/neighbour.sh runs rw_cp beside the neighbour (old rule 2-3 from
 * its --csv, this rule 0). */
#define BURST_PER_S   0.25
#define BURST_V1_HELD 0.25
int burst_between(const struct sample *a, const struct sample *b);

/* Figures of one copy from the samples taken in (t_copy_ns, t_end_ns]. */
struct run_figures {
	double read_cv, write_cv; /* NAN with fewer than two rate samples */
	uint64_t peak_active_file_kb, pgdeactivate, refault_file;
	int bursts;
};
void burst_run_figures(const struct series *ser, uint64_t t_copy_ns, uint64_t t_end_ns,
		       struct run_figures *out);

#endif
