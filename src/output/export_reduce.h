/*
 * export_reduce — a recording read for a picture: the replay source's
 * stream, as rec_load_read reads it, but only a bounded subset of its
 * samples pushed into the history, so the memory and the picture are
 * bounded by the picture's columns, not the recording's length.
 *
 * The range drawn (the whole recording, --from/--to, or the runs' ranges)
 * is cut into cols buckets of equal time; of each bucket's raw samples are
 * pushed (series_push, in time order, each once):
 *  - the last one: counters are cumulative, so every rate over a bucket
 *    (counter delta / measured time between pushed samples) is exact;
 *  - both samples of the interval with the highest and of the one with the
 *    lowest read rate (the run's own where the sample has it, else the
 *    disk's, as plot.c draws it): the peaks and dips of a sawtooth;
 *  - both samples of the bucket's first demotion burst (burst_between on
 *    consecutive raw samples), and how many bursts the bucket held
 *    (marks: every burst is counted, none is dropped);
 *  - both samples of the bucket's first and last change of run or phase;
 *  - the first sample of the range, and the last one before it (the rate
 *    of the first column needs it); the recording's first sample when
 *    the range starts with it (the time axis starts there, as rec_load_read's).
 * At most 11 samples a bucket.  A recording of no more samples than cols
 * keeps every sample (reduced 0): the picture is the one of export_load.
 *
 * Invariants: samples are only ever pushed through series_push; the run
 * log (events, results) is the replay source's, whole, as rec_load_read's;
 * nothing is printed, errors come back in err.
 */
#ifndef LRUTOP_EXPORT_REDUCE_H
#define LRUTOP_EXPORT_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "output/export.h"
#include "output/svg.h"

struct reduce_range {
	uint64_t a_ns, b_ns; /* CLOCK_MONOTONIC, inclusive */
};

struct reduce_opts {
	size_t cols; /* buckets over the ranges' total; 0: every sample kept */
	/* the range, seconds from the first sample (< 0: the recording's start,
	 * end); ignored when ranges are given */
	double from_s, to_s;
	const struct reduce_range *ranges; /* sorted, disjoint; NULL: from_s..to_s */
	size_t nranges;
	int no_samples; /* keep none: a first pass for the run log */
};


struct reduce_info {
	uint64_t t_first, t_last; /* the recording's first and last sample */
	size_t n;		  /* its samples */
	size_t in_range;	  /* of them in the ranges */
	uint64_t cg_limit_max;	  /* the largest run cgroup limit a sample carries, bytes */
	int reduced;		  /* 0: every sample was pushed */
	size_t nbursts;		  /* bursts counted in the ranges */
	struct svg_burst *marks; /* reduced only: a bucket's bursts, at the first one's later sample */
	size_t nmarks;
};

/* export_load with the reduction above: r as rec_load_read's (free it with
 * rec_load_done; ap as its), info's marks with export_reduce_done.  -1 +
 * err as export_load's. */
int export_load_reduced(struct rec_load *r, const char *path, const struct record_argv_parser *ap,
			const struct reduce_opts *ro, struct reduce_info *info, char *warn,
			size_t warnlen, char *err, size_t errlen);
void export_reduce_done(struct reduce_info *info);

#endif
