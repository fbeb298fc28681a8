/*
 * compare — the statistics of `--compare A B [C…]`: the same strategies
 * recorded on different kernels, machines or settings, side by side.  Per
 * strategy and recording the medians stats_compute gives (elapsed, MiB/s,
 * bursts, peak active(file), refaults, major faults); per strategy and
 * recording after the first, the ratio of median elapsed to the first
 * recording's (B/A, C/A, …) with a 95 % confidence interval and a
 * Mann–Whitney U p-value.
 *
 * Method (the man page's COMPARE section says the same):
 *  - ratio: median elapsed of B's OK runs / median elapsed of A's OK runs.
 *  - 95 % CI: percentile bootstrap over the repeats.  COMPARE_RESAMPLES
 *    times, A's and B's elapsed times are each resampled with replacement
 *    (as many draws as runs) and the ratio of the two resample medians is
 *    kept; the interval runs from the 250th to the 9 750th of the 10 000
 *    sorted ratios.  The PRNG is splitmix64 with a fixed seed mixed with
 *    the strategy's label and B's index (FNV-1a), so the same input always
 *    gives the same interval, whatever other strategies are in the files.
 *    A draw is `next() % n` (its bias, n / 2^64, is far below anything
 *    printed).
 *  - verdict: "no significant difference" when the interval holds 1,
 *    otherwise B is slower (interval above 1) or faster (below 1).
 *  - Mann–Whitney U (two-sided, on elapsed, midranks for ties): an exact
 *    permutation p-value over every split of the pooled runs when there are
 *    at most COMPARE_EXACT_MAX splits, else the normal approximation with
 *    tie and continuity correction.  It is printed beside the interval as a
 *    second opinion that assumes nothing about medians: with few repeats
 *    the percentile bootstrap is optimistic (with 3 runs each it can exclude
 *    1 while no test on 3 + 3 values can reach p < 0.05 — the smallest
 *    exact p is 2 / C(6,3) = 0.1), and a note says so.
 *  - no interval and no p-value when either recording has fewer than two
 *    OK runs of the strategy ("one run each: no confidence interval").
 *
 * Invariants: only runs that finished OK count, as in stats; strategies
 * keep the order of their first appearance (recording A first, then
 * strategies only B has, …); the input arrays are only read; nothing here
 * allocates per strategy beyond the resample buffers, freed before return.
 */
#ifndef LRUTOP_COMPARE_H
#define LRUTOP_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/runlog.h"

#define COMPARE_MAX_RECORDINGS 8
#define COMPARE_MAX_STRATEGIES RUNLOG_MAX_STRATEGIES
#define COMPARE_LABEL_MAX      64
#define COMPARE_RESAMPLES      10000
#define COMPARE_SEED	       UINT64_C(0x6c72757470303035) /* "lrutp005" */
/* permutation p-value exactly up to this many splits of the pooled runs */
#define COMPARE_EXACT_MAX 200000

/* What a recording's header says about where it was made; any field may
 * be NULL or "" when unknown. */
struct compare_origin {
	const char *kernel; /* uname -r */
	const char *host;
	const char *path; /* the recording's file name as given */
};

/* One recording: its label (compare_labels) and its runs, grouped by
 * run_result.name. */
struct compare_input {
	const char *label;
	const struct run_result *runs;
	size_t nruns;
};

enum compare_verdict {
	COMPARE_NONE,	/* the first recording, or the strategy is missing here or in A */
	COMPARE_NO_CI,	/* fewer than two OK runs here or in A: a ratio, no interval */
	COMPARE_SAME,	/* the interval holds 1: no significant difference */
	COMPARE_SLOWER, /* the interval lies above 1 */
	COMPARE_FASTER, /* the interval lies below 1 */
};

/* One strategy in one recording. */
struct compare_cell {
	int present;  /* the recording has finished runs of the strategy */
	int runs, ok; /* finished runs, of which OK */
	double elapsed_med, mbs_med, bursts_med, peak_af_med, refault_med, majflt_med;
	/* relative to the first recording (NAN / COMPARE_NONE in it) */
	double ratio, ci_lo, ci_hi; /* ratio of median elapsed and its 95 % CI */
	double p;		    /* Mann–Whitney two-sided p-value, NAN without one */
	int p_exact;		    /* p from the exact permutation distribution */
	double p_min;		    /* the smallest p the exact test could give these counts */
	enum compare_verdict verdict;
	/* --probe: the median of the runs' probe p99 (ms) and, after the first
	 * recording, its ratio to the first's with the same bootstrap 95 % CI;
	 * NAN without (probe_runs 0) */
	int probe_runs;
	double probe_n; /* reads per run, median; the p99 only of runs with 100 */
	double probe_p99, probe_ratio, probe_lo, probe_hi;
};

struct compare_row {
	char name[32];
	int common; /* OK runs in every recording */
	struct compare_cell cell[COMPARE_MAX_RECORDINGS];
};

struct compare {
	int nrec;
	char label[COMPARE_MAX_RECORDINGS][COMPARE_LABEL_MAX];
	int nrows, ncommon;
	struct compare_row rows[COMPARE_MAX_STRATEGIES];
};

/* Short unique labels for n recordings: "A: 6.18.44 (r1.jsonl)", a letter,
 * the kernel release, the host when the hosts differ, and the file's base
 * name (with as many parent directories as make it unique) in parentheses
 * ("A: 6.18.44 box (old/r.jsonl)"; "A: r1.jsonl" when nothing else is
 * known); a part longer than fits is shortened in the middle with "…".
 * The letter alone keeps labels unique (the same file given twice).
 * labels[i] gets recording i's. */
void compare_labels(char (*labels)[COMPARE_LABEL_MAX], const struct compare_origin *o, int n);

/* Computes the comparison of in[0..n) into c (the first recording is the
 * reference).  -1 + err for fewer than 2 or more than
 * COMPARE_MAX_RECORDINGS recordings; a strategy table that would overflow
 * keeps the first COMPARE_MAX_STRATEGIES labels. */
int compare_compute(struct compare *c, const struct compare_input *in, int n, char *err,
		    size_t errlen);

/* The percentile-bootstrap 95 % interval of median(b) / median(a), as
 * compare_compute uses it (seed: see above).  -1 when na or nb is below 2
 * or a median is not positive. */
int compare_bootstrap(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
		      double *lo, double *hi);
/* Two-sided Mann–Whitney U p-value of a against b; *exact says which way
 * it was computed.  NAN when na or nb is 0. */
double compare_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact);
/* The bootstrap seed of a strategy label and a recording index. */
uint64_t compare_seed(const char *name, int rec);

/* One time and one rate scale for every recording's runs (the Runs view
 * of a comparison): the longest elapsed and the highest MiB/s of the OK
 * runs in in[0..n), 0 without any. */
void compare_scale(const struct compare_input *in, int n, double *elapsed_max, double *mbs_max);

/* The k-th note under the comparison (0-based): strategies missing from a
 * recording, with fewer than two OK runs, too few runs for the test, no
 * common strategy at all.  0 when there is no k-th note. */
int compare_note(const struct compare *c, int k, char *buf, size_t len);

/* Prints the labels, the medians table (one column group per recording;
 * under 100 columns for two recordings), the ratio table (a row per
 * strategy and recording after the first: ratio, 95 % CI, p, verdict) and
 * the notes; flushes f.  -1 when a write fails (errno says why). */
int compare_table(FILE *f, const struct compare *c);

#endif
