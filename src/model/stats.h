/*
 * stats — per-strategy statistics over finished runs, like hyperfine's
 * summary but on kernel metrics too: median, min and max of elapsed and
 * MiB/s; medians of faults, bursts, peak active_file and refaults; each
 * strategy's median elapsed relative to the fastest and to a baseline.
 * The tables' ratio column is to the baseline when it has an OK run (the
 * base row reads 1.00x, "vs base" the same as a percentage) and is then
 * labelled "/base"; otherwise to the fastest, labelled "/fastest"
 * (hyperfine's convention).  A probe quantile is a median over the runs
 * with enough reads for it (probe_quantile_known), beside their count.
 *
 * Invariants: only runs that finished OK count (a cancelled or failed run
 * says nothing about speed; a strategy without one has NAN figures, printed
 * as "-"); strategies keep the order of their first run;
 * the median of an even count is the mean of the two middle values.
 */
#ifndef LRUTOP_STATS_H
#define LRUTOP_STATS_H

#include <stddef.h>
#include <stdio.h>

#include "model/runlog.h"

/* min–max spread of elapsed above this fraction of the minimum: "noisy" */
#define STATS_NOISY 0.10

struct strategy_stats {
	char name[32];
	char strategy[32]; /* its runs' strategy name, "" for a --cmd */
	int runs, ok;	/* finished runs, of which OK */
	double elapsed_med, elapsed_min, elapsed_max;
	double mbs_med, mbs_min, mbs_max;
	double majflt_med, minflt_med, bursts_med, peak_af_med, refault_med, write_cv_med;
	double read_cv_med, read_at_burst_med; /* the sawtooth in numbers (the Runs view) */
	double read_ratio_med;		       /* rd/cp (sawtooth.h) */
	/* page-cache residency, medians over the OK runs that had it (NAN
	 * none): the destination's peak dirty KiB, the source's cached % and
	 * the recently evicted pages at the copy's end */
	double res_dirty_med, res_src_cached_med, res_recent_med;
	double ratio;	    /* elapsed_med / the fastest strategy's elapsed_med */
	double ratio_base;  /* elapsed_med / the baseline's, NAN without its OK run */
	double vs_base_pct; /* (elapsed_med / the baseline's - 1) * 100, NAN without one */
	int noisy, fastest, baseline;
	size_t median_run;  /* index of the run whose elapsed is nearest the median */
	/* --probe: medians over the OK runs the probe read beside (ms), NAN
	 * without; rise: p99 over the idle baseline's p99 */
	int probe_runs;
	char probe_mode[8];
	double probe_p50, probe_p99, probe_p999, probe_max, probe_slow, probe_idle_p99,
	    probe_rise;
	double probe_n; /* reads per run, median */
};

/* Fills out[0..return) (at most max entries); runs group by their label
 * (name), baseline is a label or NULL. */
int stats_compute(const struct run_result *runs, size_t n, const char *baseline,
		  struct strategy_stats *out, int max);
/* Median of v[0..n) (v is reordered); NAN for n == 0. */
double stats_median(double *v, size_t n);
/* qsort's comparison of two doubles, ascending. */
int stats_cmp_double(const void *a, const void *b);
/* The "vs base" and peak active(file) cells, as both tables print them:
 * "base" (a baseline with a successful run), "-" or "+12.3%"; "61M" or
 * "-" (no successful run). */
void stats_cells(const struct strategy_stats *s, char *vs, size_t vslen, char *peak,
		 size_t peaklen);
/* Whether the tables' ratio is to the baseline (it has an OK run) or to
 * the fastest; the column's label and a row's cell ("1.02x", "-"). */
int stats_by_base(const struct strategy_stats *st, int n);
#define STATS_RATIO_LABEL(by_base) ((by_base) ? "/base" : "/fastest")
void stats_ratio_cell(const struct strategy_stats *s, int by_base, char *buf, size_t len);
/* One number cell: fmt applied to v, or "-" when v is NAN (a strategy
 * without a successful run has no statistics). */
void stats_num(char *buf, size_t len, const char *fmt, double v);
/* The k-th (0-based) note printed under a table: "mm_sync_cp: 0 of 2 runs
 * succeeded" for each strategy with failed runs, then "baseline rw_cp has
 * no successful run".  0 when there is no k-th note. */
int stats_note(const struct strategy_stats *st, int n, int k, char *buf, size_t len);
/* The table printed after the per-run rows in batch mode: a group line
 * ("elapsed", "MiB/s") over "median min max" column labels, one row per
 * strategy, then the notes. */
void stats_table(FILE *f, const struct strategy_stats *st, int n);
/* --probe: the neighbours' latency per strategy (medians of p50, p99,
 * p99.9, max, reads over 100 ms, the idle p99 and the p99's rise over it);
 * nothing when no run had the probe. */
void stats_probe_table(FILE *f, const struct strategy_stats *st, int n);

#endif
