/*
 * Tests for the log-linear histogram (histogram.h): quantiles against a
 * sorted reference (nearest rank) within 1 % on several distributions —
 * uniform over six decades, a heavy tail like a disk beside a copy
 * (lognormal plus rare 100-500 ms stalls), a constant, small exact values —
 * merge equals adding both, the edge cases (empty, one value, q = 1, values
 * past the last bucket), the >100 ms count, and the probe's figures.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/histogram.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static double unif(void)
{
	return ((double)(rnd() >> 11) + 0.5) / 9007199254740992.0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t ref_quantile(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);
	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_against_sorted(uint64_t *v, size_t n)
{
	static struct histogram h; /* big: not on the stack */
	hist_reset(&h);
	for (size_t i = 0; i < n; i++)
		hist_add(&h, v[i]);
	qsort(v, n, sizeof(*v), cmp_u64);
	assert_int_equal(h.count, n);
	assert_int_equal(h.min, v[0]);
	assert_int_equal(h.max, v[n - 1]);
	static const double qs[] = {0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1.0};
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		double want = (double)ref_quantile(v, n, qs[i]);
		double got = (double)hist_quantile(&h, qs[i]);
		if (fabs(got - want) > 0.01 * want) {
			print_error("q %.3f: got %.0f, sorted reference %.0f\n", qs[i], got, want);
			fail();
		}
	}
}

#define N 200000
static uint64_t vals[N];

static void test_uniform_decades(void **state)
{
	(void)state;
	for (size_t i = 0; i < N; i++) /* 1 µs .. 1 s, log-uniform */
		vals[i] = (uint64_t)(1000.0 * pow(10.0, 6.0 * unif()));
	check_against_sorted(vals, N);
}

static void test_heavy_tail(void **state)
{
	(void)state;
	for (size_t i = 0; i < N; i++) {
		/* lognormal around 150 µs, and one read in 500 stalls 100-500 ms */
		double z = sqrt(-2 * log(unif())) * cos(6.283185307179586 * unif());
		double ns = 150000.0 * exp(0.6 * z);
		if (rnd() % 500 == 0)
			ns = 1e8 + 4e8 * unif();
		vals[i] = (uint64_t)ns;
	}
	check_against_sorted(vals, N);
}

static void test_small_exact(void **state)
{
	(void)state;
	/* below 128 every value is its own bucket: exact */
	static struct histogram h;
	hist_reset(&h);
	for (uint64_t v = 0; v < 100; v++)
		hist_add(&h, v);
	assert_int_equal(hist_quantile(&h, 0.5), 49);
	assert_int_equal(hist_quantile(&h, 0.99), 98);
	assert_int_equal(hist_quantile(&h, 1.0), 99);
	assert_int_equal(hist_quantile(&h, 0.0001), 0);
	for (size_t i = 0; i < 1000; i++)
		vals[i] = rnd() % 5000;
	check_against_sorted(vals, 1000);
}

static void test_edges(void **state)
{
	(void)state;
	static struct histogram h;
	hist_reset(&h);
	assert_int_equal(hist_quantile(&h, 0.5), 0); /* empty */
	assert_int_equal(hist_count_above(&h, 0), 0);
	hist_add(&h, 123456789);
	/* one value: every quantile is it, exactly (clamped to min..max) */
	assert_int_equal(hist_quantile(&h, 0.01), 123456789);
	assert_int_equal(hist_quantile(&h, 0.999), 123456789);
	/* a constant: exact too */
	for (int i = 0; i < 999; i++)
		hist_add(&h, 123456789);
	assert_int_equal(hist_quantile(&h, 0.5), 123456789);
	/* past the last bucket: max stays exact, p100 is it */
	hist_reset(&h);
	hist_add(&h, 1000);
	hist_add(&h, UINT64_MAX / 2);
	assert_int_equal(hist_quantile(&h, 1.0), UINT64_MAX / 2);
	assert_int_equal(hist_quantile(&h, 0.5), 1000);
	assert_int_equal(hist_count_above(&h, PROBE_SLOW_NS), 1);
	/* q above 1 or at 0 stays inside */
	assert_int_equal(hist_quantile(&h, 2.0), UINT64_MAX / 2);
	assert_int_equal(hist_quantile(&h, 0.0), 1000);
}

static void test_count_above(void **state)
{
	(void)state;
	static struct histogram h;
	hist_reset(&h);
	for (int i = 0; i < 50; i++)
		hist_add(&h, 20000000); /* 20 ms */
	for (int i = 0; i < 7; i++)
		hist_add(&h, 150000000); /* 150 ms */
	hist_add(&h, 99000000); /* 99 ms: not slow */
	hist_add(&h, 2000000000); /* 2 s */
	assert_int_equal(hist_count_above(&h, PROBE_SLOW_NS), 8);
}

static void test_merge(void **state)
{
	(void)state;
	static struct histogram a, b, both;
	hist_reset(&a);
	hist_reset(&b);
	hist_reset(&both);
	for (int i = 0; i < 5000; i++) {
		uint64_t v = rnd() % 10000000;
		hist_add(i % 3 ? &a : &b, v);
		hist_add(&both, v);
	}
	hist_merge(&a, &b);
	assert_memory_equal(&a, &both, sizeof(a));
	static struct histogram empty;
	hist_reset(&empty);
	hist_merge(&a, &empty);
	assert_memory_equal(&a, &both, sizeof(a));
	hist_merge(&empty, &both);
	assert_memory_equal(&empty, &both, sizeof(a));
}

static void test_probe_figures(void **state)
{
	(void)state;
	static struct histogram run, idle;
	hist_reset(&run);
	hist_reset(&idle);
	struct probe_figures f;
	memset(&f, 0, sizeof(f));
	probe_figures_fill(&f, &run, &idle);
	assert_int_equal(f.n, 0);
	assert_true(isnan(probe_figures_rise_ms(&f)));
	for (int i = 1; i <= 1000; i++) {
		hist_add(&run, (uint64_t)i * 1000000); /* 1..1000 ms */
		hist_add(&idle, 200000);	       /* 0.2 ms */
	}
	probe_figures_fill(&f, &run, &idle);
	assert_int_equal(f.n, 1000);
	assert_int_equal(f.max_ns, 1000000000);
	assert_true(fabs((double)f.p50_ns - 500e6) <= 5e6);
	assert_true(fabs((double)f.p99_ns - 990e6) <= 9.9e6);
	assert_true(fabs((double)f.p999_ns - 999e6) <= 9.99e6);
	/* 101..1000 ms are over 100 ms; 100 ms itself shares a bucket */
	assert_true(f.slow >= 899 && f.slow <= 900);
	assert_int_equal(f.idle_n, 1000);
	assert_int_equal(f.idle_p99_ns, 200000);
	assert_true(fabs(probe_figures_rise_ms(&f) - 989.8) < 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_decades), cmocka_unit_test(test_heavy_tail),
		cmocka_unit_test(test_small_exact),	cmocka_unit_test(test_edges),
		cmocka_unit_test(test_count_above),	cmocka_unit_test(test_merge),
		cmocka_unit_test(test_probe_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
