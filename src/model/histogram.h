/*
 * histogram — a log-linear latency histogram as fio keeps one: values
 * (nanoseconds) below 2^HIST_SUB_BITS are counted exactly; above, each
 * power of two is split into 2^HIST_SUB_BITS linear sub-buckets, so a
 * bucket is at most 1/128 of its lower bound wide and a quantile read back
 * as the bucket's midpoint is within 0.4 % of the true order statistic.
 * Adding is O(1) and a quantile is one walk over the buckets: no sorting,
 * no allocation (the per-tick path uses it).
 *
 * Invariants: count is the sum of the buckets; min and max are exact;
 * values at or above 2^HIST_MAX_BITS ns (about 69 s) share the last bucket
 * (max still exact, and quantiles are clamped to [min, max]).  A zeroed
 * struct is an empty histogram.
 *
 * Also here: the probe's figures of one run (struct probe_figures), which
 * the run log, the results, the statistics and the recordings carry.
 */
#ifndef LRUTOP_HISTOGRAM_H
#define LRUTOP_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 36
/* exact values [0, SUB), then one group of SUB per power of two */
#define HIST_BUCKETS (HIST_SUB * (HIST_MAX_BITS - HIST_SUB_BITS + 1))

struct histogram {
	uint64_t count;
	uint64_t min, max; /* valid when count > 0 */
	uint32_t bucket[HIST_BUCKETS];
};

void hist_reset(struct histogram *h);
void hist_add(struct histogram *h, uint64_t v);
/* Adds every value of src to dst. */
void hist_merge(struct histogram *dst, const struct histogram *src);
/* The nearest-rank q-quantile (0 < q <= 1): the value of rank ceil(q*count)
 * in sorted order, within 1 %; 0 for an empty histogram. */
uint64_t hist_quantile(const struct histogram *h, double q);
/* How many values are above v, counted by bucket: the values of the
 * buckets wholly above v's own (exact when v is the last value of its
 * bucket; otherwise values less than one bucket width, < 0.8 %, above v
 * are not counted). */
uint64_t hist_count_above(const struct histogram *h, uint64_t v);

/* A read slower than this is "slow" (the results' >100ms column). */
#define PROBE_SLOW_NS 100000000ull

/* The probe's reads during one run (copy to end) and during its prepare
 * phase (the idle baseline).  n == 0: no probe ran. */
struct probe_figures {
	char mode[8]; /* "cold", "direct" */
	uint64_t n;
	uint64_t p50_ns, p99_ns, p999_ns, max_ns;
	uint64_t slow; /* reads over PROBE_SLOW_NS */
	uint64_t idle_n, idle_p99_ns;
	/* the probe died before the run ended: its figures (n 0) are absent,
	 * not the first seconds' passed off as the run's (not recorded) */
	int lost;
};
/* Fills the quantiles of f from run and idle (mode untouched). */
void probe_figures_fill(struct probe_figures *f, const struct histogram *run,
			const struct histogram *idle);
/* Whether n reads tell the q-quantile: at least one read lies beyond it,
 * n * (1 - q) >= 1 (p99 needs 100 reads, p99.9 1000, p50 2).  With fewer
 * the quantile is the maximum or near it, not a measurement: the tables
 * print "-" and the count (their n column), the CSV an empty cell. */
int probe_quantile_known(uint64_t n, double q);
/* p99 rise over the idle baseline, ms; NAN when either is unknown. */
double probe_figures_rise_ms(const struct probe_figures *f);

#endif
