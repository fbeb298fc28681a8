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
 * the sampling interval.  The counter depends on the scope:
 *  - a run's cgroup v2: its own memory.stat pgdeactivate, size = the limit;
 *  - a run's cgroup v1 (no per-cgroup pgdeactivate): /proc/vmstat
 *    pgdeactivate, size = the limit, counted only while the cgroup's own
 *    active_file shrank, so another workload's reclaim is not taken for
 *    the run's (active_file alone is not enough: with rw_cp it was seen
 *    to fall by 16 MiB in 0.1 s while pgdeactivate did not move);
 *  - no cgroup: /proc/vmstat pgdeactivate, size = MemTotal. */
#define BURST_PER_S 0.25
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
