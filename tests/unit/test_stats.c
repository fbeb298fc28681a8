/*
 * Tests for stats (part 3: side-by-side strategy runs): stats_median (odd,
 * even = mean of the middle two, n = 0 -> NAN, the input is only
 * reordered) and stats_compute on hand-built run_result arrays: grouping by
 * strategy in the order of the first run, medians / min / max checked
 * against values computed here independently, failed and cancelled runs
 * left out of the medians but counted in `runs`, ratio to the fastest
 * median, the fastest flag, the baseline and vs_base_pct, the noisy
 * boundary on both sides, median_run and the `max` limit; and the batch
 * statistics table (stats_table) for the same data.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "output/results.h"
#include "runs/session.h"
#include "model/stats.h"
#include "runs/strategy.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EPS 1e-9

static void assert_near(double got, double want, const char *what)
{
	if (isnan(want) ? !isnan(got) : !(fabs(got - want) <= EPS * fmax(1.0, fabs(want)))) {
		print_error("%s: got %.12g, want %.12g\n", what, got, want);
		fail();
	}
}

static const struct strategy *strat(const char *name)
{
	const struct strategy *s = strategy_find(name);
	if (!s) {
		print_error("strategy_find(\"%s\") returned NULL\n", name);
		fail();
	}
	return s;
}

/* A finished run of `name` (a strategy, or with cmd set a --cmd name). */
static struct run_result mk(const char *name, int cmd, int ok, double elapsed, double mbs)
{
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.strategy, sizeof(r.strategy), "%s", cmd || !strat(name) ? "" : name);
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.repeat = 1;
	r.finished = 1;
	r.ok = ok;
	r.cancelled = !ok;
	r.elapsed_s = elapsed;
	r.mbs = mbs;
	r.verified = ok ? 1 : 0;
	return r;
}

static double ref_min(const double *v, size_t n)
{
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		m = v[i] < m ? v[i] : m;
	return m;
}

static double ref_max(const double *v, size_t n)
{
	double m = v[0];
	for (size_t i = 1; i < n; i++)
		m = v[i] > m ? v[i] : m;
	return m;
}

/* The entry named `name` in st[0..n), failing when absent. */
static const struct strategy_stats *find(const struct strategy_stats *st, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(st[i].name, name))
			return &st[i];
	print_error("no statistics entry for %s\n", name);
	fail();
	return NULL;
}

/* v[0..n) is a permutation of w[0..n) (values distinct or not). */
static int same_multiset(const double *v, const double *w, size_t n)
{
	int used[64] = {0};
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (j < n && (used[j] || v[j] != w[i]))
			j++;
		if (j == n)
			return 0;
		used[j] = 1;
	}
	return 1;
}

/* ---- stats_median ---------------------------------------------------------- */

static void test_median_odd(void **state)
{
	(void)state;
	double one[] = {7.5};
	assert_near(stats_median(one, 1), 7.5, "median of one");
	double v[] = {5, 1, 9, 3, 7};
	double orig[5];
	memcpy(orig, v, sizeof(v));
	assert_near(stats_median(v, 5), 5, "median {5,1,9,3,7}");
	assert_true(same_multiset(v, orig, 5)); /* reordered, nothing lost or changed */
	double w[] = {-2, 10, -2};
	assert_near(stats_median(w, 3), -2, "median {-2,10,-2}");
	/* only the first n elements are looked at */
	double x[] = {3, 1, 2, 100, 100};
	assert_near(stats_median(x, 3), 2, "median of a prefix");
	assert_true(x[3] == 100 && x[4] == 100);
}

static void test_median_even(void **state)
{
	(void)state;
	double two[] = {20, 10};
	assert_near(stats_median(two, 2), 15, "median {20,10}");
	double v[] = {4, 1, 3, 2};
	double orig[4];
	memcpy(orig, v, sizeof(v));
	assert_near(stats_median(v, 4), 2.5, "median {4,1,3,2}");
	assert_true(same_multiset(v, orig, 4));
	double w[] = {1, 100, 2, 3, 50, 4}; /* sorted 1 2 3 4 50 100 */
	assert_near(stats_median(w, 6), 3.5, "median of six");
	double d[] = {2, 2, 9, 2};
	assert_near(stats_median(d, 4), 2, "median with duplicates");
}

static void test_median_empty(void **state)
{
	(void)state;
	double v[] = {42};
	assert_true(isnan(stats_median(v, 0)));
	assert_true(v[0] == 42);
}

static void test_median_reorders(void **state)
{
	(void)state;
	/* a reverse-ordered input must come back reordered (the contract says
	 * v is reordered: a caller cannot rely on its order afterwards) but
	 * with the same values */
	double v[] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
	double orig[9];
	memcpy(orig, v, sizeof(v));
	assert_near(stats_median(v, 9), 5, "median 9..1");
	assert_true(same_multiset(v, orig, 9));
	assert_near(v[4], 5, "the median element sits in the middle");
}

/* ---- stats_compute ------------------------------------------------------- */

/* Grouping follows the first run of each strategy, not the table order
 * and not alphabetical order. */
static void test_compute_grouping(void **state)
{
	(void)state;
	struct run_result r[7];
	r[0] = mk("mw_cp", 0, 1, 2.0, 30);
	r[1] = mk("cfr_cp", 0, 1, 1.0, 60);
	r[2] = mk("rw_cp", 0, 1, 3.0, 20);
	r[3] = mk("mw_cp", 0, 1, 2.2, 28);
	r[4] = mk("cfr_cp", 0, 1, 1.1, 58);
	r[5] = mk("rw_cp", 0, 1, 3.3, 19);
	r[6] = mk("mw_cp", 0, 1, 2.1, 29);
	struct strategy_stats st[8];
	int n = stats_compute(r, 7, NULL, st, 8);
	assert_int_equal(n, 3);
	assert_string_equal(st[0].name, "mw_cp");
	assert_string_equal(st[1].name, "cfr_cp");
	assert_string_equal(st[2].name, "rw_cp");
	assert_string_equal(st[0].strategy, "mw_cp");
	assert_string_equal(st[1].strategy, "cfr_cp");
	assert_string_equal(st[2].strategy, "rw_cp");
	assert_int_equal(st[0].runs, 3);
	assert_int_equal(st[0].ok, 3);
	assert_int_equal(st[1].runs, 2);
	assert_int_equal(st[2].runs, 2);
}

/* Every median, min and max against the reference computed here. */
static void test_compute_medians(void **state)
{
	(void)state;
	/* rw_cp: 5 runs (odd), mm_sync_cp: 4 runs (even), interleaved */
	static const double rw_el[] = {3.10, 2.95, 3.40, 3.02, 2.99};
	static const double rw_mb[] = {330.1, 347.0, 301.2, 339.0, 342.4};
	static const long rw_maj[] = {3, 0, 7, 1, 2};
	static const long rw_min[] = {120, 130, 118, 125, 129};
	static const int rw_bu[] = {0, 0, 1, 0, 0};
	static const uint64_t rw_pk[] = {900000, 910000, 905000, 899000, 930000};
	static const uint64_t rw_rf[] = {10, 0, 5, 3, 8};
	static const double mm_el[] = {4.5, 4.1, 4.9, 4.3};
	static const double mm_mb[] = {227.5, 249.8, 209.0, 238.1};
	static const long mm_maj[] = {100, 90, 140, 95};
	static const long mm_min[] = {8000, 8200, 8100, 7900};
	static const int mm_bu[] = {6, 9, 7, 12};
	static const uint64_t mm_pk[] = {131072, 120000, 125000, 128000};
	static const uint64_t mm_rf[] = {1000, 1500, 1100, 900};
	struct run_result r[9];
	size_t n = 0;
	for (int i = 0; i < 5; i++) {
		r[n] = mk("rw_cp", 0, 1, rw_el[i], rw_mb[i]);
		r[n].repeat = i + 1;
		r[n].majflt = rw_maj[i];
		r[n].minflt = rw_min[i];
		r[n].bursts = rw_bu[i];
		r[n].peak_active_file_kb = rw_pk[i];
		r[n].refault_file = rw_rf[i];
		n++;
		if (i < 4) {
			r[n] = mk("mm_sync_cp", 0, 1, mm_el[i], mm_mb[i]);
			r[n].repeat = i + 1;
			r[n].majflt = mm_maj[i];
			r[n].minflt = mm_min[i];
			r[n].bursts = mm_bu[i];
			r[n].peak_active_file_kb = mm_pk[i];
			r[n].refault_file = mm_rf[i];
			n++;
		}
	}
	struct strategy_stats st[4];
	int ns = stats_compute(r, n, NULL, st, 4);
	assert_int_equal(ns, 2);
	const struct strategy_stats *a = find(st, ns, "rw_cp"), *b = find(st, ns, "mm_sync_cp");
	assert_int_equal(a->runs, 5);
	assert_int_equal(a->ok, 5);
	assert_int_equal(b->runs, 4);
	assert_int_equal(b->ok, 4);

	double t[8];
	assert_near(a->elapsed_med, tu_median(rw_el, 5), "rw elapsed_med");
	assert_near(a->elapsed_med, 3.02, "rw elapsed_med literal");
	assert_near(a->elapsed_min, ref_min(rw_el, 5), "rw elapsed_min");
	assert_near(a->elapsed_max, ref_max(rw_el, 5), "rw elapsed_max");
	assert_near(a->mbs_med, tu_median(rw_mb, 5), "rw mbs_med");
	assert_near(a->mbs_min, ref_min(rw_mb, 5), "rw mbs_min");
	assert_near(a->mbs_max, ref_max(rw_mb, 5), "rw mbs_max");
	for (int i = 0; i < 5; i++)
		t[i] = (double)rw_maj[i];
	assert_near(a->majflt_med, tu_median(t, 5), "rw majflt_med");
	for (int i = 0; i < 5; i++)
		t[i] = (double)rw_min[i];
	assert_near(a->minflt_med, tu_median(t, 5), "rw minflt_med");
	for (int i = 0; i < 5; i++)
		t[i] = rw_bu[i];
	assert_near(a->bursts_med, tu_median(t, 5), "rw bursts_med");
	for (int i = 0; i < 5; i++)
		t[i] = (double)rw_pk[i];
	assert_near(a->peak_af_med, tu_median(t, 5), "rw peak_af_med");
	for (int i = 0; i < 5; i++)
		t[i] = (double)rw_rf[i];
	assert_near(a->refault_med, tu_median(t, 5), "rw refault_med");

	/* even count: the mean of the middle two */
	assert_near(b->elapsed_med, tu_median(mm_el, 4), "mm elapsed_med");
	assert_near(b->elapsed_med, 4.4, "mm elapsed_med literal");
	assert_near(b->elapsed_min, 4.1, "mm elapsed_min");
	assert_near(b->elapsed_max, 4.9, "mm elapsed_max");
	assert_near(b->mbs_med, tu_median(mm_mb, 4), "mm mbs_med");
	assert_near(b->mbs_min, ref_min(mm_mb, 4), "mm mbs_min");
	assert_near(b->mbs_max, ref_max(mm_mb, 4), "mm mbs_max");
	for (int i = 0; i < 4; i++)
		t[i] = (double)mm_maj[i];
	assert_near(b->majflt_med, tu_median(t, 4), "mm majflt_med");
	for (int i = 0; i < 4; i++)
		t[i] = (double)mm_min[i];
	assert_near(b->minflt_med, tu_median(t, 4), "mm minflt_med");
	for (int i = 0; i < 4; i++)
		t[i] = mm_bu[i];
	assert_near(b->bursts_med, tu_median(t, 4), "mm bursts_med");
	assert_near(b->bursts_med, 8, "mm bursts_med literal (6 7 9 12)");
	for (int i = 0; i < 4; i++)
		t[i] = (double)mm_pk[i];
	assert_near(b->peak_af_med, tu_median(t, 4), "mm peak_af_med");
	for (int i = 0; i < 4; i++)
		t[i] = (double)mm_rf[i];
	assert_near(b->refault_med, tu_median(t, 4), "mm refault_med");

	/* the input is left alone (stats_compute takes const runs) */
	assert_near(r[0].elapsed_s, rw_el[0], "runs[0] unchanged");
	assert_near(r[1].elapsed_s, mm_el[0], "runs[1] unchanged");
}

/* A failed or cancelled run counts in `runs`, not in any median, min or
 * max; a run still in progress (finished = 0) is not counted at all. */
static void test_compute_excludes_failed(void **state)
{
	(void)state;
	struct run_result r[7];
	r[0] = mk("rw_cp", 0, 1, 3.0, 300);
	r[1] = mk("rw_cp", 0, 0, 0.2, 9000); /* cancelled early: would be the min */
	r[2] = mk("rw_cp", 0, 1, 5.0, 200);
	r[3] = mk("rw_cp", 0, 0, 60.0, 1); /* failed: would be the max */
	r[3].cancelled = 0;
	r[4] = mk("rw_cp", 0, 1, 4.0, 250);
	r[4].majflt = 9;
	r[1].majflt = 100000;
	r[3].bursts = 500;
	r[5] = mk("rw_cp", 0, 1, 0.1, 1); /* in progress */
	r[5].finished = 0;
	r[6] = mk("mw_cp", 0, 1, 1.0, 100);
	r[6].finished = 0; /* its only run is in progress: no entry */
	struct strategy_stats st[4];
	int ns = stats_compute(r, 7, NULL, st, 4);
	assert_int_equal(ns, 1);
	assert_string_equal(st[0].name, "rw_cp");
	assert_int_equal(st[0].runs, 5);
	assert_int_equal(st[0].ok, 3);
	assert_near(st[0].elapsed_med, 4.0, "elapsed_med of OK runs");
	assert_near(st[0].elapsed_min, 3.0, "elapsed_min of OK runs");
	assert_near(st[0].elapsed_max, 5.0, "elapsed_max of OK runs");
	assert_near(st[0].mbs_med, 250, "mbs_med of OK runs");
	assert_near(st[0].mbs_min, 200, "mbs_min");
	assert_near(st[0].mbs_max, 300, "mbs_max");
	assert_near(st[0].majflt_med, 0, "majflt_med of OK runs (0 0 9)");
	assert_near(st[0].bursts_med, 0, "bursts_med of OK runs");
	/* (5-3)/3 > 0.10: noisy from OK runs alone */
	assert_int_equal(st[0].noisy, 1);
	assert_int_equal(st[0].fastest, 1);
	assert_near(st[0].ratio, 1.0, "ratio of the only strategy");
	/* the median run is an OK one */
	assert_int_equal(st[0].median_run, 4);
}

/* A strategy without one OK run: NAN medians, no ratio, never fastest;
 * it does not disturb the others. */
static void test_compute_no_ok_runs(void **state)
{
	(void)state;
	struct run_result r[4];
	r[0] = mk("rw_cp", 0, 1, 3.0, 300);
	r[1] = mk("mw_cp", 0, 0, 0.5, 900); /* cancelled, fast */
	r[2] = mk("rw_cp", 0, 1, 3.2, 290);
	r[3] = mk("mw_cp", 0, 0, 0.4, 900);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 4, "rw_cp", st, 4);
	assert_int_equal(ns, 2);
	const struct strategy_stats *a = find(st, ns, "rw_cp"), *b = find(st, ns, "mw_cp");
	assert_int_equal(b->runs, 2);
	assert_int_equal(b->ok, 0);
	assert_true(isnan(b->elapsed_med));
	assert_true(isnan(b->mbs_med));
	assert_true(isnan(b->ratio));
	assert_true(isnan(b->vs_base_pct));
	assert_int_equal(b->fastest, 0);
	assert_int_equal(b->noisy, 0);
	assert_int_equal(a->fastest, 1);
	assert_near(a->ratio, 1.0, "rw_cp ratio");
	assert_near(a->elapsed_med, 3.1, "rw_cp median");
	assert_int_equal(a->baseline, 1);
	assert_near(a->vs_base_pct, 0, "baseline vs itself");
}

/* ratio = median / fastest median; exactly one fastest. */
static void test_compute_ratio_fastest(void **state)
{
	(void)state;
	struct run_result r[6];
	r[0] = mk("rw_cp", 0, 1, 4.0, 100);
	r[1] = mk("mw_cp", 0, 1, 2.0, 200);
	r[2] = mk("cfr_cp", 0, 1, 5.0, 80);
	r[3] = mk("rw_cp", 0, 1, 4.2, 95);
	r[4] = mk("mw_cp", 0, 1, 2.2, 190);
	r[5] = mk("cfr_cp", 0, 1, 5.4, 75);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 6, NULL, st, 4);
	assert_int_equal(ns, 3);
	const struct strategy_stats *rw = find(st, ns, "rw_cp"), *mw = find(st, ns, "mw_cp"),
				    *cfr = find(st, ns, "cfr_cp");
	double fastest = fmin(rw->elapsed_med, fmin(mw->elapsed_med, cfr->elapsed_med));
	assert_near(fastest, 2.1, "fastest median");
	assert_near(mw->ratio, 1.0, "mw_cp ratio");
	assert_near(rw->ratio, 4.1 / 2.1, "rw_cp ratio");
	assert_near(cfr->ratio, 5.2 / 2.1, "cfr_cp ratio");
	assert_int_equal(mw->fastest, 1);
	assert_int_equal(rw->fastest, 0);
	assert_int_equal(cfr->fastest, 0);
	/* no baseline given */
	for (int i = 0; i < ns; i++) {
		assert_int_equal(st[i].baseline, 0);
		assert_true(isnan(st[i].vs_base_pct));
	}
}

/* baseline flag and vs_base_pct = (median / base median - 1) * 100. */
static void test_compute_baseline(void **state)
{
	(void)state;
	struct run_result r[6];
	r[0] = mk("rw_cp", 0, 1, 4.0, 100);
	r[1] = mk("mw_cp", 0, 1, 2.0, 200);
	r[2] = mk("cfr_cp", 0, 1, 5.0, 80);
	r[3] = mk("rw_cp", 0, 1, 4.0, 100);
	r[4] = mk("mw_cp", 0, 1, 2.0, 200);
	r[5] = mk("cfr_cp", 0, 1, 6.0, 70);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 6, "rw_cp", st, 4);
	assert_int_equal(ns, 3);
	const struct strategy_stats *rw = find(st, ns, "rw_cp"), *mw = find(st, ns, "mw_cp"),
				    *cfr = find(st, ns, "cfr_cp");
	assert_int_equal(rw->baseline, 1);
	assert_int_equal(mw->baseline, 0);
	assert_int_equal(cfr->baseline, 0);
	assert_near(rw->vs_base_pct, 0, "rw_cp vs itself");
	assert_near(mw->vs_base_pct, (2.0 / 4.0 - 1) * 100, "mw_cp vs rw_cp");
	assert_near(mw->vs_base_pct, -50, "mw_cp vs rw_cp literal");
	assert_near(cfr->vs_base_pct, (5.5 / 4.0 - 1) * 100, "cfr_cp vs rw_cp");
	/* the baseline does not change the ratio: that is to the fastest */
	assert_near(rw->ratio, 2.0, "rw_cp ratio");
	assert_int_equal(mw->fastest, 1);

	/* another baseline: a strategy that is not first */
	ns = stats_compute(r, 6, "cfr_cp", st, 4);
	assert_int_equal(ns, 3);
	rw = find(st, ns, "rw_cp");
	cfr = find(st, ns, "cfr_cp");
	assert_int_equal(cfr->baseline, 1);
	assert_int_equal(rw->baseline, 0);
	assert_near(rw->vs_base_pct, (4.0 / 5.5 - 1) * 100, "rw_cp vs cfr_cp");

	/* a baseline with no runs at all: nobody is "base", no percentages */
	ns = stats_compute(r, 6, "direct_cp", st, 4);
	assert_int_equal(ns, 3);
	for (int i = 0; i < ns; i++) {
		assert_int_equal(st[i].baseline, 0);
		assert_true(isnan(st[i].vs_base_pct));
	}
}

/* noisy: (max - min) / min > 0.10, on both sides of the boundary. */
static void noisy_case(double lo, double mid, double hi, int want)
{
	struct run_result r[3];
	r[0] = mk("rw_cp", 0, 1, mid, 100);
	r[1] = mk("rw_cp", 0, 1, hi, 100);
	r[2] = mk("rw_cp", 0, 1, lo, 100);
	struct strategy_stats st[2];
	assert_int_equal(stats_compute(r, 3, NULL, st, 2), 1);
	if (st[0].noisy != want) {
		print_error("elapsed %g %g %g (spread %.17g): noisy %d, want %d\n", lo, mid, hi,
			    (hi - lo) / lo, st[0].noisy, want);
		fail();
	}
}

static void test_compute_noisy_boundary(void **state)
{
	(void)state;
	/* exactly 10% (10 -> 11: (11-10)/10 == 0.1 in binary too): not noisy */
	noisy_case(10.0, 10.5, 11.0, 0);
	noisy_case(20.0, 20.0, 22.0, 0);
	/* just above 10%: noisy */
	noisy_case(10.0, 10.5, 11.001, 1);
	noisy_case(20.0, 20.0, 22.01, 1);
	/* well below and well above */
	noisy_case(10.0, 10.2, 10.5, 0);
	noisy_case(1.0, 1.0, 2.0, 1);
	/* all equal */
	noisy_case(3.0, 3.0, 3.0, 0);
	/* a single OK run is never noisy, whatever the cancelled ones did */
	struct run_result r[3];
	r[0] = mk("rw_cp", 0, 1, 5.0, 100);
	r[1] = mk("rw_cp", 0, 0, 0.5, 100);
	r[2] = mk("rw_cp", 0, 0, 50.0, 100);
	struct strategy_stats st[2];
	assert_int_equal(stats_compute(r, 3, NULL, st, 2), 1);
	assert_int_equal(st[0].noisy, 0);
}

/* median_run: the index (into runs) of the run nearest the median. */
static void test_compute_median_run(void **state)
{
	(void)state;
	struct run_result r[12];
	r[0] = mk("rw_cp", 0, 1, 3.0, 100);
	r[1] = mk("mw_cp", 0, 1, 1.0, 100);
	r[2] = mk("rw_cp", 0, 1, 1.0, 100);
	r[3] = mk("mw_cp", 0, 1, 4.0, 100);
	r[4] = mk("rw_cp", 0, 1, 2.0, 100); /* rw_cp: 1 2 3 -> 2.0: this one */
	r[5] = mk("mw_cp", 0, 1, 2.0, 100);
	r[6] = mk("mw_cp", 0, 1, 3.3, 100); /* mw_cp: 1 2 3.3 3.5 4 -> 3.3: this one */
	r[7] = mk("cfr_cp", 0, 0, 9.6, 100); /* cancelled at exactly cfr_cp's median */
	r[8] = mk("cfr_cp", 0, 1, 9.0, 100);
	r[9] = mk("cfr_cp", 0, 1, 10.0, 100);
	r[10] = mk("cfr_cp", 0, 1, 9.6, 100); /* cfr_cp: 9 9.6 10 -> 9.6: this one */
	r[11] = mk("mw_cp", 0, 1, 3.5, 100);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 12, NULL, st, 4);
	assert_int_equal(ns, 3);
	const struct strategy_stats *rw = find(st, ns, "rw_cp"), *mw = find(st, ns, "mw_cp"),
				    *cfr = find(st, ns, "cfr_cp");
	assert_int_equal(rw->median_run, 4);
	assert_near(mw->elapsed_med, 3.3, "mw_cp median");
	assert_int_equal(mw->median_run, 6);
	assert_near(cfr->elapsed_med, 9.6, "cfr_cp median");
	assert_int_equal(cfr->median_run, 10); /* the OK one, not the cancelled #7 */

	/* an even count: the median lies between the middle two, which are
	 * equally near; either of them, nothing else */
	struct run_result e[4];
	e[0] = mk("rw_cp", 0, 1, 1.0, 100);
	e[1] = mk("rw_cp", 0, 1, 4.0, 100);
	e[2] = mk("rw_cp", 0, 1, 9.0, 100);
	e[3] = mk("rw_cp", 0, 1, 2.0, 100);
	ns = stats_compute(e, 4, NULL, st, 4);
	assert_int_equal(ns, 1);
	assert_near(st[0].elapsed_med, 3.0, "even median");
	assert_true(st[0].median_run == 1 || st[0].median_run == 3);
}

/* At most `max` entries; entries past it are never written; runs of the
 * strategies that fit are still all counted. */
static void test_compute_max(void **state)
{
	(void)state;
	struct run_result r[6];
	r[0] = mk("rw_cp", 0, 1, 3.0, 100);
	r[1] = mk("mw_cp", 0, 1, 2.0, 150);
	r[2] = mk("cfr_cp", 0, 1, 1.0, 300); /* the fastest overall, but past max */
	r[3] = mk("rw_cp", 0, 1, 3.4, 90);
	r[4] = mk("mw_cp", 0, 1, 2.4, 140);
	r[5] = mk("cfr_cp", 0, 1, 1.2, 280);
	struct strategy_stats st[4];
	memset(st, 0xab, sizeof(st));
	int ns = stats_compute(r, 6, NULL, st, 2);
	assert_int_equal(ns, 2);
	assert_string_equal(st[0].name, "rw_cp");
	assert_string_equal(st[1].name, "mw_cp");
	assert_int_equal(st[0].runs, 2);
	assert_int_equal(st[1].runs, 2);
	assert_near(st[0].elapsed_med, 3.2, "rw_cp median");
	assert_near(st[1].elapsed_med, 2.2, "mw_cp median");
	/* st[2], st[3] untouched */
	unsigned char pattern[sizeof(st[0]) * 2];
	memset(pattern, 0xab, sizeof(pattern));
	assert_memory_equal(&st[2], pattern, sizeof(pattern));
	/* max = 1 and max = 0 */
	memset(st, 0xab, sizeof(st));
	assert_int_equal(stats_compute(r, 6, NULL, st, 1), 1);
	assert_string_equal(st[0].name, "rw_cp");
	assert_int_equal(st[0].runs, 2);
	assert_memory_equal(&st[1], pattern, sizeof(st[0]));
	memset(st, 0xab, sizeof(st));
	assert_int_equal(stats_compute(r, 6, NULL, st, 0), 0);
	assert_memory_equal(&st[0], pattern, sizeof(st[0]));
	/* no runs */
	assert_int_equal(stats_compute(r, 0, NULL, st, 4), 0);
}

/* --cmd runs (strategy NULL) are grouped by name. */
static void test_compute_cmd_runs(void **state)
{
	(void)state;
	struct run_result r[5];
	r[0] = mk("cp", 1, 1, 2.0, 100);
	r[1] = mk("rw_cp", 0, 1, 3.0, 100);
	r[2] = mk("dd", 1, 1, 5.0, 100);
	r[3] = mk("cp", 1, 1, 2.4, 100);
	r[4] = mk("dd", 1, 1, 5.2, 100);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 5, NULL, st, 4);
	assert_int_equal(ns, 3);
	assert_string_equal(st[0].name, "cp");
	assert_string_equal(st[0].strategy, "");
	assert_string_equal(st[1].name, "rw_cp");
	assert_string_equal(st[2].name, "dd");
	assert_int_equal(st[0].runs, 2);
	assert_int_equal(st[2].runs, 2);
	assert_near(st[0].elapsed_med, 2.2, "cp median");
	assert_near(st[2].elapsed_med, 5.1, "dd median");
	assert_int_equal(st[0].fastest, 1);
}

/* A --cmd label can be the baseline; a strategy and a cmd are told apart
 * by label only. */
static void test_compute_cmd_baseline(void **state)
{
	(void)state;
	struct run_result r[4];
	r[0] = mk("rw_cp", 0, 1, 3.0, 100);
	r[1] = mk("cp", 1, 1, 2.0, 100);
	r[2] = mk("rw_cp", 0, 1, 3.0, 100);
	r[3] = mk("cp", 1, 1, 2.0, 100);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 4, "cp", st, 4);
	assert_int_equal(ns, 2);
	assert_string_equal(st[1].name, "cp");
	assert_int_equal(st[1].baseline, 1);
	assert_int_equal(st[0].baseline, 0);
	assert_near(st[0].vs_base_pct, 50.0, "rw_cp vs cp");
}

/* ---- stats_table --------------------------------------------------------- */

static __attribute__((noinline)) char *table_text(const struct strategy_stats *st, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	stats_table(f, st, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The row of `name` (a line starting with it and a space), or NULL. */
static const char *row_of(const char *text, const char *name)
{
	size_t l = strlen(name);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, l) && p[l] == ' ')
			return p;
	return NULL;
}

static int row_has(const char *row, const char *word)
{
	const char *end = strchr(row, '\n');
	size_t n = end ? (size_t)(end - row) : strlen(row);
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)n, row);
	return strstr(line, word) != NULL;
}

static void test_table(void **state)
{
	(void)state;
	struct run_result r[7];
	r[0] = mk("rw_cp", 0, 1, 4.0, 100);
	r[1] = mk("mw_cp", 0, 1, 2.0, 200);
	r[2] = mk("rw_cp", 0, 1, 4.2, 96);
	r[3] = mk("mw_cp", 0, 1, 3.0, 150); /* mw_cp: 2.0 - 3.0: noisy */
	r[4] = mk("rw_cp", 0, 0, 0.3, 0);   /* cancelled */
	r[5] = mk("mw_cp", 0, 1, 2.5, 170);
	r[6] = mk("rw_cp", 0, 1, 4.1, 98);
	struct strategy_stats st[4];
	int ns = stats_compute(r, 7, "rw_cp", st, 4);
	assert_int_equal(ns, 2);
	char *t = table_text(st, ns);
	/* a group line, then hyperfine's labels: medians first, then min, max */
	assert_non_null(strstr(t, " elapsed "));
	const char *hdr = row_of(t, "strategy");
	assert_non_null(hdr);
	assert_true(hdr < strstr(t, "rw_cp"));
	assert_true(row_has(hdr, " runs    median       min       max   median      min      max "));
	assert_false(row_has(hdr, "elapsed"));
	/* the group labels sit over their columns */
	const char *el = strstr(t, "elapsed"), *mb = strstr(t, "MiB/s");
	assert_true(el - t > 22 && el - t < 22 + 29);
	assert_true(mb - t > 22 + 30 && mb - t < 22 + 30 + 26);
	const char *rw = row_of(t, "rw_cp"), *mw = row_of(t, "mw_cp");
	assert_non_null(rw);
	assert_non_null(mw);
	assert_true(rw < mw);
	assert_true(row_has(rw, "3/4"));      /* OK of finished */
	assert_true(row_has(rw, "4.100s"));   /* median */
	assert_true(row_has(rw, "base"));
	/* a named base: the ratio is to it, and says so; its own is 1 */
	assert_true(row_has(hdr, " /base "));
	assert_false(row_has(hdr, "/fastest"));
	assert_true(row_has(rw, "1.00x"));
	assert_false(row_has(rw, "1.64x")); /* 4.1 / 2.5: to the fastest */
	assert_false(row_has(rw, "fastest"));
	assert_true(row_has(mw, "2.500s"));
	assert_true(row_has(mw, "0.61x"));   /* 2.5 / 4.1 */
	assert_true(row_has(mw, "-39.0%"));   /* (2.5/4.1 - 1) * 100 = -39.02 */
	assert_true(row_has(mw, "fastest"));
	assert_true(row_has(mw, "noisy"));
	assert_false(row_has(rw, "noisy"));
	assert_non_null(strstr(t, "\nnoisy:"));
	/* the cancelled run is named under the table */
	assert_non_null(strstr(t, "\nrw_cp: 3 of 4 runs succeeded\n"));
	assert_null(strstr(t, "mw_cp: "));
	assert_null(strstr(t, "nan"));
	free(t);
	/* no base: the ratio is to the fastest, named so */
	ns = stats_compute(r, 7, NULL, st, 4);
	t = table_text(st, ns);
	hdr = row_of(t, "strategy");
	assert_true(row_has(hdr, " /fastest "));
	assert_true(row_has(row_of(t, "rw_cp"), "1.64x"));
	assert_true(row_has(row_of(t, "mw_cp"), "1.00x"));
	free(t);
}

/* A strategy, and then the baseline too, without a successful run: "-"
 * cells instead of nan, and notes saying which failed. */
static void test_table_failed_runs(void **state)
{
	(void)state;
	struct run_result r[5];
	r[0] = mk("rw_cp", 0, 1, 4.0, 100);
	r[1] = mk("mm_sync_cp", 0, 0, 0.1, 0);
	r[2] = mk("rw_cp", 0, 1, 4.2, 96);
	r[3] = mk("mm_sync_cp", 0, 0, 0.2, 0);
	r[4] = mk("mw_cp", 0, 1, 2.0, 200);
	r[1].cancelled = r[3].cancelled = 0; /* failed, not cancelled */
	struct strategy_stats st[4];
	int ns = stats_compute(r, 5, "rw_cp", st, 4);
	assert_int_equal(ns, 3);
	assert_int_equal(st[1].ok, 0);
	assert_true(isnan(st[1].elapsed_med));
	char *t = table_text(st, ns);
	assert_null(strstr(t, "nan"));
	const char *mm = row_of(t, "mm_sync_cp");
	assert_non_null(mm);
	assert_true(row_has(mm, " 0/2 "));
	/* every figure is "-": count the cells of the row */
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)(strchr(mm, '\n') - mm), mm);
	int dashes = 0, words = 0;
	for (char *w = strtok(line, " "); w; w = strtok(NULL, " ")) {
		words++;
		dashes += !strcmp(w, "-");
	}
	assert_int_equal(words, 17); /* name, runs and 15 figures (2 page-cache) */
	assert_int_equal(dashes, 15);
	assert_non_null(strstr(t, "\nmm_sync_cp: 0 of 2 runs succeeded\n"));
	assert_true(row_has(row_of(t, "rw_cp"), "base"));
	assert_null(strstr(t, "baseline"));
	free(t);

	/* now the baseline (rw_cp) fails every run */
	r[0].ok = r[2].ok = 0;
	ns = stats_compute(r, 5, "rw_cp", st, 4);
	assert_int_equal(ns, 3);
	t = table_text(st, ns);
	assert_null(strstr(t, "nan"));
	const char *rw = row_of(t, "rw_cp"), *mw = row_of(t, "mw_cp");
	assert_false(row_has(rw, "base"));
	assert_true(row_has(rw, " 0/2 "));
	/* mw_cp has figures but nothing to compare with: vs base "-" */
	assert_true(row_has(mw, "2.000s"));
	assert_true(row_has(mw, "1.00x"));
	assert_true(row_has(mw, "fastest"));
	assert_false(row_has(mw, "%"));
	assert_true(row_has(mw, "      - ")); /* the vs base cell */
	assert_non_null(strstr(t, "\nrw_cp: 0 of 2 runs succeeded\n"));
	assert_non_null(strstr(t, "\nbaseline rw_cp has no successful run\n"));
	/* the notes come in order: strategies first, then the baseline */
	assert_true(strstr(t, "rw_cp: 0 of 2") < strstr(t, "mm_sync_cp: 0 of 2"));
	assert_true(strstr(t, "mm_sync_cp: 0 of 2") < strstr(t, "baseline rw_cp"));
	char note[96];
	assert_int_equal(stats_note(st, ns, 2, note, sizeof(note)), 1);
	assert_string_equal(note, "baseline rw_cp has no successful run");
	assert_int_equal(stats_note(st, ns, 3, note, sizeof(note)), 0);
	char vs[16], peak[16];
	stats_cells(&st[0], vs, sizeof(vs), peak, sizeof(peak));
	assert_string_equal(vs, "-");
	assert_string_equal(peak, "-");
	free(t);
}

/* ---- results: figures a failed run does not have -------------------------- */

/* noinline: inlined, gcc 12 sees the open_memstream buffer as dangling */
static __attribute__((noinline)) char *results_text(const struct run_result *r, size_t n, int csv)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	if (csv)
		for (size_t i = 0; i < n; i++)
			results_csv_row(f, &r[i]);
	else
		results_table(f, r, n);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* A label longer than 16 (mm_sync_madv_cp@32M: the demo's) widens the
 * label column of both tables; every row's second column ends where the
 * header's does. */
static int col2(const char *line) /* where the second (right-aligned) column ends */
{
	const char *p = strchr(line, ' ');
	while (p && *p == ' ')
		p++;
	while (p && *p && *p != ' ')
		p++;
	return p ? (int)(p - line) : -1;
}

static void test_long_labels_align(void **state)
{
	(void)state;
	struct run_result r[2];
	r[0] = mk("rw_cp", 0, 1, 10.8, 29.7);
	r[1] = mk("mm_sync_madv_cp", 0, 1, 10.5, 30.4);
	snprintf(r[0].name, sizeof(r[0].name), "rw_cp@32M"); /* the --disk-limit label */
	snprintf(r[1].name, sizeof(r[1].name), "mm_sync_madv_cp@32M");
	char *t = results_text(r, 2, 0);
	char *l1 = strchr(t, '\n') + 1, *l2 = strchr(l1, '\n') + 1;
	assert_int_equal(col2(t), col2(l1));
	assert_int_equal(col2(t), col2(l2));
	assert_int_equal(col2(t), (int)strlen("mm_sync_madv_cp@32M") + 1 + 3); /* "%3s" rep */
	free(t);
	struct strategy_stats st[2];
	int ns = stats_compute(r, 2, NULL, st, 2);
	assert_int_equal(ns, 2);
	char *buf = table_text(st, ns);
	char *h = strchr(buf, '\n') + 1; /* the second header line: "strategy runs ..." */
	char *a = strchr(h, '\n') + 1, *b = strchr(a, '\n') + 1;
	assert_true(strncmp(h, "strategy", 8) == 0);
	assert_int_equal(col2(h), col2(a));
	assert_int_equal(col2(h), col2(b));
	free(buf);
}

/* --probe: per-strategy medians of the probe's figures over the OK runs
 * that had it; the results table's and CSV's trailing columns. */
static void test_probe(void **state)
{
	(void)state;
	struct run_result r[5];
	r[0] = mk("rw_cp", 0, 1, 2.0, 100);
	r[1] = mk("rw_cp", 0, 1, 2.1, 100);
	r[2] = mk("rw_cp", 0, 1, 2.2, 100);
	r[3] = mk("rw_cp", 0, 0, 0.0, 0); /* cancelled: does not count */
	r[4] = mk("mm_sync_cp", 0, 1, 5.0, 40);
	static const double p99[] = {20, 10, 30, 900, 40};
	for (int i = 0; i < 5; i++) {
		snprintf(r[i].probe.mode, sizeof(r[i].probe.mode), "direct");
		r[i].probe.n = 100;
		r[i].probe.p50_ns = 250000;
		r[i].probe.p99_ns = (uint64_t)(p99[i] * 1e6);
		r[i].probe.p999_ns = r[i].probe.max_ns = (uint64_t)(p99[i] * 2e6);
		r[i].probe.slow = (uint64_t)i;
		r[i].probe.idle_n = i == 4 ? 0 : 600; /* mm_sync_cp: no idle baseline */
		r[i].probe.idle_p99_ns = 5000000;
	}
	r[4].probe.n = 50; /* mm_sync_cp: too few reads for a p99 */
	struct strategy_stats st[4];
	int n = stats_compute(r, 5, NULL, st, 4);
	assert_int_equal(n, 2);
	const struct strategy_stats *a = find(st, n, "rw_cp"), *b = find(st, n, "mm_sync_cp");
	/* 100 reads a run tell a p99, not a p99.9 */
	assert_true(isnan(a->probe_p999));
	assert_near(a->probe_n, 100, "rw_cp reads");
	assert_true(isnan(b->probe_p99) && isnan(b->probe_p999));
	assert_near(b->probe_p50, 0.25, "mm_sync_cp p50 of 50 reads");
	assert_near(b->probe_max, 80, "mm_sync_cp max");
	assert_int_equal(a->probe_runs, 3);
	assert_string_equal(a->probe_mode, "direct");
	assert_near(a->probe_p99, 20, "rw_cp p99");
	assert_near(a->probe_p50, 0.25, "rw_cp p50");
	assert_near(a->probe_max, 40, "rw_cp max");
	assert_near(a->probe_slow, 1, "rw_cp slow");
	assert_near(a->probe_idle_p99, 5, "rw_cp idle");
	assert_near(a->probe_rise, 15, "rw_cp rise");
	assert_int_equal(b->probe_runs, 1);
	assert_true(isnan(b->probe_rise) && isnan(b->probe_idle_p99));
	/* an idle baseline of enough reads beside a run of too few: its idle
	 * p99, no rise */
	r[4].probe.idle_n = 600;
	struct strategy_stats st2[4];
	int n2 = stats_compute(r, 5, NULL, st2, 4);
	const struct strategy_stats *b2 = find(st2, n2, "mm_sync_cp");
	assert_near(b2->probe_idle_p99, 5, "mm_sync_cp idle p99");
	assert_true(isnan(b2->probe_rise));
	r[4].probe.idle_n = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	stats_probe_table(f, st, n);
	fclose(f);
	assert_non_null(strstr(buf, "probe direct"));
	const char *row = row_of(buf, "rw_cp");
	assert_non_null(row);
	assert_true(row_has(row, "20.00") && row_has(row, "+15.00"));
	/* runs 3, n 100, p50, p99, p99.9 "-" */
	assert_true(row_has(row, "   3     100     0.25    20.00        -"));
	row = row_of(buf, "mm_sync_cp");
	assert_non_null(row);
	assert_true(row_has(row, "   1      50     0.25        -        -     80.0"));
	assert_non_null(strstr(buf, " n      p50      p99    p99.9 "));
	free(buf);
	/* no probe: no table, empty CSV cells, no table columns */
	struct run_result plain[1] = {mk("rw_cp", 0, 1, 2.0, 100)};
	n = stats_compute(plain, 1, NULL, st, 4);
	f = open_memstream(&buf, &len);
	stats_probe_table(f, st, n);
	fclose(f);
	assert_int_equal(len, 0);
	free(buf);
	char *csv = results_text(plain, 1, 1);
	assert_non_null(strstr(csv, ",,,,,,,,,\n"));
	free(csv);
	char *tab = results_text(plain, 1, 0);
	assert_null(strstr(tab, "p99ms"));
	free(tab);
	csv = results_text(r, 1, 1);
	/* 100 reads: no p99.9, an empty cell; the count last */
	assert_non_null(strstr(csv, ",direct,0.250,20.000,,40.000,0,5.000,15.000,100,,\n"));
	free(csv);
	tab = results_text(r, 5, 0);
	assert_non_null(strstr(tab, "(probe direct)"));
	assert_non_null(strstr(tab, "+15.00"));
	/* the run table: n, then "-" for the quantiles 50 reads do not tell */
	assert_non_null(strstr(tab, "       n   p50ms   p99ms p99.9ms"));
	const char *mm = strstr(tab, "mm_sync_cp");
	assert_non_null(mm);
	assert_true(row_has(mm, "      50    0.25       -       -    80.00"));
	free(tab);
}

static void test_results_never_copied(void **state)
{
	(void)state;
	struct run_result r[3];
	/* failed in prepare: no elapsed; its rusage is the prepare's */
	r[0] = mk("rw_cp", 0, 0, 0.0, 0);
	r[0].cancelled = 0;
	r[0].user_s = 0.01, r[0].sys_s = 0.35, r[0].cpu_pct = 0, r[0].minflt = 7;
	snprintf(r[0].message, sizeof(r[0].message), "rw_cp: dst /x/dst: exists");
	/* failed mid-copy: its figures are real */
	r[1] = mk("mm_sync_cp", 0, 0, 0.5, 16);
	r[1].cancelled = 0;
	r[1].user_s = 0.1, r[1].sys_s = 0.2, r[1].cpu_pct = 60, r[1].bytes = 8 << 20;
	r[2] = mk("rw_cp", 0, 1, 2.0, 100);
	r[2].cpu_pct = 40;

	char *t = results_text(r, 3, 0);
	const char *a = row_of(t, "rw_cp"), *b = row_of(t, "mm_sync_cp");
	assert_non_null(a);
	assert_non_null(b);
	char line[512];
	snprintf(line, sizeof(line), "%.*s", (int)(strchr(a, '\n') - a), a);
	/* name, rep, then elapsed user sys %cpu: all "-"; minflt is there */
	char *w[24];
	int nw = 0;
	for (char *x = strtok(line, " "); x && nw < 24; x = strtok(NULL, " "))
		w[nw++] = x;
	assert_int_equal(nw, 23); /* the 3 page-cache cells "-" before ok */
	for (int k = 19; k <= 21; k++)
		assert_string_equal(w[k], "-");
	for (int k = 2; k <= 5; k++)
		assert_string_equal(w[k], "-");
	assert_string_equal(w[7], "7");
	assert_string_equal(w[10], "-"); /* MiB/s */
	assert_string_equal(w[11], "-"); /* rd/cp: no byte copied */
	assert_string_equal(w[22], "FAIL");
	assert_true(row_has(b, "0.50s"));
	assert_true(row_has(b, "60%"));
	assert_true(row_has(b, "16.0"));
	/* the columns stay aligned: every row as wide as the header */
	const char *nl = strchr(t, '\n');
	size_t hw = (size_t)(nl - t);
	assert_int_equal((size_t)(strchr(a, '\n') - a), hw);
	assert_int_equal((size_t)(strchr(b, '\n') - b), hw);
	free(t);

	t = results_text(r, 3, 1);
	assert_true(!strncmp(t, "rw_cp,1,,,,,0,7,0,0,0,,", 23));
	assert_non_null(strstr(t, "\nmm_sync_cp,1,0.5000,0.1000,0.2000,60.0,0,0,0,0,8388608,16.000,"));
	assert_non_null(strstr(t, "\nrw_cp,1,2.0000,"));
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd),
		cmocka_unit_test(test_median_even),
		cmocka_unit_test(test_median_empty),
		cmocka_unit_test(test_median_reorders),
		cmocka_unit_test(test_compute_grouping),
		cmocka_unit_test(test_compute_medians),
		cmocka_unit_test(test_compute_excludes_failed),
		cmocka_unit_test(test_compute_no_ok_runs),
		cmocka_unit_test(test_compute_ratio_fastest),
		cmocka_unit_test(test_compute_baseline),
		cmocka_unit_test(test_compute_noisy_boundary),
		cmocka_unit_test(test_compute_median_run),
		cmocka_unit_test(test_compute_max),
		cmocka_unit_test(test_compute_cmd_runs),
		cmocka_unit_test(test_compute_cmd_baseline),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_table_failed_runs),
		cmocka_unit_test(test_results_never_copied),
		cmocka_unit_test(test_probe),
		cmocka_unit_test(test_long_labels_align),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
