#include "model/histogram.h"

#include <math.h>
#include <string.h>

void hist_reset(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
}

static int top_bit(uint64_t v)
{
	return 63 - __builtin_clzll(v);
}

static unsigned bucket_of(uint64_t v)
{
	if (v < HIST_SUB)
		return (unsigned)v;
	int e = top_bit(v);
	if (e >= HIST_MAX_BITS)
		return HIST_BUCKETS - 1;
	unsigned sub = (unsigned)(v >> (e - HIST_SUB_BITS)) & (HIST_SUB - 1);
	return (unsigned)(e - HIST_SUB_BITS + 1) * HIST_SUB + sub;
}

/* The smallest value of bucket b, and its width. */
static uint64_t bucket_lo(unsigned b, uint64_t *width)
{
	if (b < HIST_SUB) {
		*width = 1;
		return b;
	}
	unsigned g = b / HIST_SUB, sub = b % HIST_SUB; /* g >= 1 */
	int e = (int)g + HIST_SUB_BITS - 1;
	*width = 1ull << (e - HIST_SUB_BITS);
	return (1ull << e) + (uint64_t)sub * *width;
}

void hist_add(struct histogram *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count++;
	h->bucket[bucket_of(v)]++;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	if (!src->count)
		return;
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (!dst->count || src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_quantile(const struct histogram *h, double q)
{
	if (!h->count)
		return 0;
	if (q >= 1)
		return h->max;
	double r = ceil(q * (double)h->count);
	uint64_t rank = r < 1 ? 1 : (uint64_t)r, seen = 0;
	if (rank == 1) /* the extremes are known exactly */
		return h->min;
	if (rank >= h->count)
		return h->max;
	for (unsigned b = 0; b < HIST_BUCKETS; b++) {
		seen += h->bucket[b];
		if (seen < rank)
			continue;
		uint64_t w, lo = bucket_lo(b, &w);
		uint64_t v = lo + w / 2;
		if (v < h->min)
			v = h->min;
		if (v > h->max)
			v = h->max;
		return v;
	}
	return h->max;
}

uint64_t hist_count_above(const struct histogram *h, uint64_t v)
{
	uint64_t n = 0;
	/* v's own bucket may hold values on both sides of it: left out */
	for (unsigned b = bucket_of(v) + 1; b < HIST_BUCKETS; b++)
		n += h->bucket[b];
	return n;
}

void probe_figures_fill(struct probe_figures *f, const struct histogram *run,
			const struct histogram *idle)
{
	f->n = run->count;
	f->p50_ns = hist_quantile(run, 0.50);
	f->p99_ns = hist_quantile(run, 0.99);
	f->p999_ns = hist_quantile(run, 0.999);
	f->max_ns = run->count ? run->max : 0;
	f->slow = hist_count_above(run, PROBE_SLOW_NS);
	f->idle_n = idle->count;
	f->idle_p99_ns = hist_quantile(idle, 0.99);
}

int probe_quantile_known(uint64_t n, double q)
{
	/* 1e-9: 100 * (1 - 0.99) is 0.99999... in doubles */
	return n > 0 && (double)n * (1.0 - q) >= 1.0 - 1e-9;
}

double probe_figures_rise_ms(const struct probe_figures *f)
{
	if (!probe_quantile_known(f->n, 0.99) || !probe_quantile_known(f->idle_n, 0.99))
		return NAN;
	return ((double)f->p99_ns - (double)f->idle_p99_ns) / 1e6;
}
