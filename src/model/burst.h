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

#include "sampling/sample.h"
#include "model/series.h"

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
 *    limit besides the cgroup's dirty and writeback pages, with
 *    inactive_file growing by at least half the fall (pages went to the
 *    inactive list, not freed by a truncate or an unlink).  The dirty ones
 *    are left out because a cgroup's reclaim puts the dirty and writeback
 *    pages it meets on the active list itself, to skip them while they are
 *    written back, and drops them back later: a stall of the disk, not
 *    pages promoted for being used;
 *  - no cgroup: /proc/vmstat pgdeactivate, size = MemTotal.
 * The figures (64M limit, 0.25 s ticks, kernel 6.18): a quiet `lrutop
 * --batch -s mm_sync_cp,rw_cp --size 2G --mem-limit 64M --csv` gave
 * mm_sync_cp 17 bursts by the old rule (system pgdeactivate while the
 * cgroup's active_file shrank) and 17 by the fall alone, every fall from
 * an active list of 35-79% of the limit; rw_cp 0 and 0.  Beside a
 * neighbour (a second lrutop running mm_sync_cp under 64M on a 2 GiB
 * --src), rw_cp on a 1 GiB --src got 6 and 2 bursts by the old rule:
 * sampled every 10 ms, its active list jumped by 4-27 MiB and fell back
 * within ~60 ms, each time with 25-45 MiB of the cgroup dirty or under
 * writeback.  Sampled by the real sampler (dirty and writeback read too),
 * old rule / fall from a held list / this rule: mm_sync_cp alone 12/11/10,
 * 29/28/28 and 13/12/12; four rw_cp runs beside the neighbour 2/1/0,
 * 0/0/0, 4/3/0 and 1/0/0.  The tests repeat both: tests/unit/test_burst.c
 * computes the old and this rule over one real sampled 1 GiB mm_sync_cp
 * series, and tests/sh/neighbour.sh runs rw_cp beside the neighbour (the
 * old rule from its --csv, this rule 0). */
#define BURST_PER_S   0.25
#define BURST_V1_HELD 0.25
/* Under MGLRU (SAMPLE_HAVE_MGLRU on both samples) nothing is deactivated:
 * pgdeactivate stays 0 and the kernel's active(file) is the two youngest
 * generations.  Its mass demotion is aging: a new youngest generation
 * (max_seq + 1) turns the second youngest into the third, so what the
 * lists call active falls at once by that generation's pages.  A burst:
 *  - the file pages of the two youngest generations fell by at least
 *    BURST_MGLRU_PER_S of the watched memory per second (the run's
 *    cgroup: its limit; none: MemTotal), and
 *  - with the generations (debugfs lru_gen, SAMPLE_HAVE_GEN; the run's
 *    own memcg with a cgroup, both samples of the same run): max_seq
 *    advanced (gen_seq grew: aging happened in the interval);
 *    without them: the older generations (inactive_file) grew by at least
 *    half the fall (the pages went to them, not freed by a truncate).
 * The youngest generations are not where eviction takes pages from, so
 * only aging, a truncate or an unlink makes them fall.  See docs/mglru.md
 * for the figures measured in the VM. */
#define BURST_MGLRU_PER_S 0.25
int burst_between(const struct sample *a, const struct sample *b);

/* The spreads' buckets.  Under a disk limit the throttle (v1 blkio, v2
 * io.max alike) lets a stream's reads through one read-ahead window at a
 * time, so a flat copy's bytes come in steps of the window, one every
 * window/limit seconds.  A sample interval holding k windows' time holds
 * floor(k) or ceil(k) of them: a CV of sqrt(f (1 - f)) / k from that
 * alone (f: k's fraction), 0 where k is whole.  So rdCV, wrCV and
 * rd@burst are taken over buckets of consecutive whole sample intervals,
 * each the fewest that hold at least one window's time with that CV at
 * most BURST_ALIAS_CV: one sample where limit x interval is a whole number
 * of windows (32 MiB/s at 0.25 s with 8 MiB windows: as before), 8
 * samples (0.8 s: 3 windows) at 30 MiB/s and 0.1 s, 4 (1 s: 3.75, CV
 * 0.115) at 0.25 s, 1 at 1 s.  Never more than about four windows' time
 * and a sample: a longer bucket would average away a copy's real stalls,
 * which under the throttle last under a second (mm_sync_cp's own read
 * rate at 30 MiB/s, 40M cgroup, 320 MiB, over buckets of 0.25/0.5/1/1.6 s:
 * CV 0.81, 0.38, 0.14, 0.08; rw_cp's 0.28, 0.16, 0.11, 0.08).  Without a
 * limit (or a window known) each interval is its own bucket.  Measured,
 * rw_cp at 30 MiB/s, per sample: rdCV 1.32 at 0.1 s, 0.29 at 0.25 s,
 * 0.11 at 1 s; over these buckets 0.07-0.18. */
#define BURST_ALIAS_CV 0.125
/* The time between the throttle's windows, ns: read_ahead bytes at
 * limit_bps bytes/s; 0 (no buckets) when either is 0. */
uint64_t burst_window_ns(uint64_t read_ahead, uint64_t limit_bps);

/* Figures of one copy from the samples taken in (t_copy_ns, t_end_ns]:
 * bursts, peak and counters over all of them; the CVs and rd@burst over
 * the intervals that lie wholly in the copy, the read figures only up to
 * t_flush_ns (the flush phase's start: the copy has read all it will;
 * 0: t_end_ns).  Those intervals are taken in buckets for window_ns
 * (burst_window_ns; the rule follows the measured times, so a change of
 * -i during the run is followed), a bucket's rate its bytes over its
 * measured time; a remainder too short for a bucket joins the last one.
 * window_ns 0: each interval is a bucket (what recordings made before
 * stored). */
struct run_figures {
	double read_cv, write_cv; /* NAN with fewer than two buckets */
	uint64_t peak_active_file_kb, pgdeactivate, refault_file;
	int bursts;
	/* rd@burst: the mean read rate over the buckets in which a burst
	 * happened (any of its intervals), relative to the mean over the
	 * others: < 1 when the reads slow down in the buckets the active list
	 * is demoted in, which mm_sync_cp's did on the unthrottled disk
	 * (median 0.75 at -i 0.25 and 1) and not under a throttle (median
	 * 1.02-1.08: docs/output.md; the number that tells mm_sync_cp from
	 * rw_cp is rd/cp, sawtooth.h); NAN without both */
	double read_at_burst;
	/* the read buckets' mean length, s (NAN without a read bucket), and
	 * how many there were: what the results' note names */
	double bucket_s;
	int read_buckets;
};
void burst_run_figures_in(const struct series *ser, uint64_t t_copy_ns, uint64_t t_flush_ns,
			  uint64_t t_end_ns, uint64_t window_ns, struct run_figures *out);
/* burst_run_figures_in with each interval its own bucket. */
void burst_run_figures(const struct series *ser, uint64_t t_copy_ns, uint64_t t_flush_ns,
		       uint64_t t_end_ns, struct run_figures *out);

#endif
