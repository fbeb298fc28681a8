/*
 * Tests for compare (part 5: --compare A B [C…]): the percentile bootstrap
 * of the ratio of median elapsed and the Mann–Whitney p-value, checked
 * against known values and against an independent python3 computation of
 * the same method (the same splitmix64 stream, an enumeration by
 * itertools); compare_compute on hand-built recordings — identical samples,
 * B = 2×A with noise, one run each, no common strategy, a strategy only in
 * A, failed runs, three recordings, determinism — the labels, the notes
 * and the table (key cells recomputed here, the width for two recordings,
 * a write error on /dev/full).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/compare.h"
#include "runs/session.h"
#include "runs/strategy.h"
#include "testutil.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static struct run_result mk(const char *name, int ok, double elapsed, double mbs)
{
	struct run_result r;
	memset(&r, 0, sizeof(r));
	snprintf(r.strategy, sizeof(r.strategy), "%s", strategy_find(name) ? name : "");
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.repeat = 1;
	r.finished = 1;
	r.ok = ok;
	r.elapsed_s = elapsed;
	r.mbs = mbs;
	r.bursts = 3;
	r.majflt = 7;
	r.refault_file = 120;
	r.peak_active_file_kb = 61 * 1024;
	return r;
}

/* n runs of name with elapsed base * (1 + noise[i]) */
static size_t add(struct run_result *v, size_t k, const char *name, double base, int n)
{
	static const double noise[] = {0.00, 0.03, -0.02, 0.05, -0.04, 0.01, -0.01, 0.02};
	for (int i = 0; i < n; i++) {
		double e = base * (1 + noise[i % 8]);
		v[k++] = mk(name, 1, e, 512.0 / e);
	}
	return k;
}

static const struct compare_row *row(const struct compare *c, const char *name)
{
	for (int i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].name, name))
			return &c->rows[i];
	print_error("no row %s\n", name);
	fail();
	return NULL;
}

static int has_note(const struct compare *c, const char *want)
{
	char buf[256];
	for (int k = 0; compare_note(c, k, buf, sizeof(buf)); k++)
		if (strstr(buf, want))
			return 1;
	return 0;
}

static void two(struct compare *c, const struct run_result *a, size_t na,
		const struct run_result *b, size_t nb)
{
	struct compare_input in[2] = {{"A: 6.1 (a.jsonl)", a, na}, {"B: 6.2 (b.jsonl)", b, nb}};
	char err[128];
	assert_int_equal(compare_compute(c, in, 2, err, sizeof(err)), 0);
}

/* The table as text (open_memstream). */
static char *table(const struct compare *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(compare_table(f, c), 0);
	fclose(f);
	return buf;
}

static struct compare cmp; /* large: not on the stack */

static void identical(void **state)
{
	(void)state;
	struct run_result a[8];
	size_t n = add(a, 0, "rw_cp", 2.0, 5);
	two(&cmp, a, n, a, n);
	const struct compare_cell *e = &row(&cmp, "rw_cp")->cell[1];
	assert_true(e->ratio == 1.0);
	assert_true(e->ci_lo <= 1.0 && e->ci_hi >= 1.0);
	assert_int_equal(e->verdict, COMPARE_SAME);
	assert_true(e->p == 1.0);
	assert_int_equal(cmp.ncommon, 1);
	char *t = table(&cmp);
	assert_non_null(strstr(t, "no significant difference"));
	free(t);
}

static void shifted(void **state)
{
	(void)state;
	struct run_result a[8], b[8];
	size_t na = add(a, 0, "mm_sync_cp", 1.5, 5);
	size_t nb = add(b, 0, "mm_sync_cp", 3.0, 5); /* B = 2×A, other noise order below */
	for (size_t i = 0; i < nb; i++)
		b[i].elapsed_s = 3.0 * (1 + 0.03 * ((double)((i * 3) % 5) - 2) / 2);
	two(&cmp, a, na, b, nb);
	const struct compare_cell *e = &row(&cmp, "mm_sync_cp")->cell[1];
	assert_true(e->ci_lo > 1.0);
	assert_true(e->ci_lo < 2.0 && e->ci_hi > 2.0);
	assert_true(e->ratio > 1.9 && e->ratio < 2.1);
	assert_int_equal(e->verdict, COMPARE_SLOWER);
	assert_true(e->p_exact);
	assert_true(fabs(e->p - 2.0 / 252) < 1e-12); /* complete separation, 5 + 5 */
	assert_false(has_note(&cmp, "too few"));
	char *t = table(&cmp);
	assert_non_null(strstr(t, "B slower"));
	assert_null(strstr(t, "no significant difference"));
	free(t);
	/* the other way round: A faster, the interval brackets 1/2 */
	two(&cmp, b, nb, a, na);
	e = &row(&cmp, "mm_sync_cp")->cell[1];
	assert_int_equal(e->verdict, COMPARE_FASTER);
	assert_true(e->ci_hi < 1.0 && e->ci_lo < 0.5 && e->ci_hi > 0.5);
}

/* --probe: each strategy's median probe p99 and its ratio to A's with the
 * bootstrap interval; recordings without the probe print no such table. */
static void probe_p99(void **state)
{
	(void)state;
	struct run_result a[8], b[8];
	size_t na = add(a, 0, "mm_sync_cp", 1.5, 5);
	size_t nb = add(b, 0, "mm_sync_cp", 1.5, 5);
	two(&cmp, a, na, b, nb);
	char *t = table(&cmp);
	assert_null(strstr(t, "neighbours"));
	free(t);
	assert_int_equal(row(&cmp, "mm_sync_cp")->cell[1].probe_runs, 0);
	for (size_t i = 0; i < 5; i++) {
		a[i].probe.n = b[i].probe.n = 400;
		snprintf(a[i].probe.mode, sizeof(a[i].probe.mode), "cold");
		snprintf(b[i].probe.mode, sizeof(b[i].probe.mode), "cold");
		a[i].probe.p99_ns = (uint64_t)((10.0 + (double)i * 0.2) * 1e6); /* 10.0 .. 10.8 ms */
		b[i].probe.p99_ns = (uint64_t)((30.0 + (double)((i * 3) % 5) * 0.5) * 1e6);
	}
	a[4].probe.n = 0; /* a run without the probe does not count */
	a[4].probe.p99_ns = 500000000;
	two(&cmp, a, na, b, nb);
	const struct compare_row *w = row(&cmp, "mm_sync_cp");
	assert_int_equal(w->cell[0].probe_runs, 4);
	assert_int_equal(w->cell[1].probe_runs, 5);
	assert_true(fabs(w->cell[0].probe_p99 - 10.3) < 1e-9);
	assert_true(fabs(w->cell[1].probe_p99 - 31.0) < 1e-9);
	assert_true(isnan(w->cell[0].probe_ratio));
	const struct compare_cell *e = &w->cell[1];
	assert_true(fabs(e->probe_ratio - 31.0 / 10.3) < 1e-9);
	assert_true(e->probe_lo > 1.0 && e->probe_lo <= e->probe_ratio && e->probe_hi >= e->probe_ratio);
	t = table(&cmp);
	assert_non_null(strstr(t, "the neighbours' latency: probe p99"));
	assert_non_null(strstr(t, "31.00"));
	assert_non_null(strstr(t, "   runs       n      p99 "));
	assert_true(fabs(e->probe_n - 400) < 1e-9);
	free(t);
	/* 50 reads a run in B: no p99 there, "-" beside the count */
	for (size_t i = 0; i < 5; i++)
		b[i].probe.n = 50;
	two(&cmp, a, na, b, nb);
	e = &row(&cmp, "mm_sync_cp")->cell[1];
	assert_int_equal(e->probe_runs, 5);
	assert_true(fabs(e->probe_n - 50) < 1e-9);
	assert_true(isnan(e->probe_p99) && isnan(e->probe_ratio) && isnan(e->probe_lo));
	t = table(&cmp);
	assert_non_null(strstr(t, "      5      50        -       -  -\n"));
	free(t);
}

static void one_run_each(void **state)
{
	(void)state;
	struct run_result a[1] = {mk("rw_cp", 1, 2.0, 256)}, b[1] = {mk("rw_cp", 1, 2.2, 232)};
	two(&cmp, a, 1, b, 1);
	const struct compare_cell *e = &row(&cmp, "rw_cp")->cell[1];
	assert_true(fabs(e->ratio - 1.1) < 1e-12);
	assert_true(isnan(e->ci_lo) && isnan(e->ci_hi) && isnan(e->p));
	assert_int_equal(e->verdict, COMPARE_NO_CI);
	assert_true(has_note(&cmp, "rw_cp: one run each: no confidence interval"));
	char *t = table(&cmp);
	assert_non_null(strstr(t, "one run each: no confidence interval"));
	free(t);
	/* one run in B only */
	struct run_result a3[4];
	size_t n = add(a3, 0, "rw_cp", 2.0, 3);
	two(&cmp, a3, n, b, 1);
	assert_int_equal(row(&cmp, "rw_cp")->cell[1].verdict, COMPARE_NO_CI);
	assert_true(has_note(&cmp, "rw_cp: one run in B: no confidence interval"));
}

static void no_common(void **state)
{
	(void)state;
	struct run_result a[4], b[4];
	size_t na = add(a, 0, "rw_cp", 2.0, 2);
	size_t nb = add(b, 0, "mw_cp", 2.0, 2);
	two(&cmp, a, na, b, nb);
	assert_int_equal(cmp.ncommon, 0);
	assert_int_equal(cmp.nrows, 2);
	assert_true(has_note(&cmp, "no common strategy"));
	assert_true(has_note(&cmp, "rw_cp: only in A"));
	assert_true(has_note(&cmp, "mw_cp: only in B"));
	char *t = table(&cmp);
	assert_non_null(strstr(t, "no common strategy"));
	free(t);
	/* no runs at all */
	two(&cmp, a, 0, b, 0);
	assert_int_equal(cmp.nrows, 0);
	assert_true(has_note(&cmp, "no common strategy"));
	t = table(&cmp);
	free(t);
}

static void only_in_a(void **state)
{
	(void)state;
	struct run_result a[8], b[8];
	size_t na = add(a, 0, "rw_cp", 2.0, 3);
	na = add(a, na, "mm_mun_cp", 4.0, 3);
	size_t nb = add(b, 0, "rw_cp", 2.0, 3);
	two(&cmp, a, na, b, nb);
	assert_int_equal(cmp.ncommon, 1);
	const struct compare_row *w = row(&cmp, "mm_mun_cp");
	assert_false(w->common);
	assert_false(w->cell[1].present);
	assert_int_equal(w->cell[1].verdict, COMPARE_NONE);
	assert_true(isnan(w->cell[1].ratio));
	assert_true(has_note(&cmp, "mm_mun_cp: only in A"));
	assert_false(has_note(&cmp, "rw_cp: only"));
	assert_false(has_note(&cmp, "no common strategy"));
}

static void failed_ignored(void **state)
{
	(void)state;
	struct run_result a[8], b[8], b2[10];
	size_t na = add(a, 0, "rw_cp", 2.0, 4);
	size_t nb = add(b, 0, "rw_cp", 2.5, 4);
	memcpy(b2, b, sizeof(b[0]) * nb);
	b2[nb] = mk("rw_cp", 0, 90.0, 5); /* failed: slow, must not count */
	b2[nb + 1] = mk("rw_cp", 0, 0.01, 50000);
	b2[nb + 1].finished = 0; /* still running: not even counted */
	two(&cmp, a, na, b, nb);
	struct compare_cell clean = row(&cmp, "rw_cp")->cell[1];
	two(&cmp, a, na, b2, nb + 2);
	const struct compare_cell *e = &row(&cmp, "rw_cp")->cell[1];
	assert_int_equal(e->runs, 5);
	assert_int_equal(e->ok, 4);
	assert_true(e->elapsed_med == clean.elapsed_med && e->mbs_med == clean.mbs_med);
	assert_true(e->ci_lo == clean.ci_lo && e->ci_hi == clean.ci_hi && e->p == clean.p);
	assert_true(has_note(&cmp, "rw_cp: 4 of 5 runs in B succeeded"));
	/* no OK run at all in B: not common, no ratio */
	struct run_result bad[2] = {mk("rw_cp", 0, 1, 1), mk("rw_cp", 0, 1, 1)};
	two(&cmp, a, na, bad, 2);
	assert_int_equal(cmp.ncommon, 0);
	assert_true(isnan(row(&cmp, "rw_cp")->cell[1].ratio));
	assert_true(has_note(&cmp, "rw_cp: 0 of 2 runs in B succeeded"));
}

static void deterministic(void **state)
{
	(void)state;
	struct run_result a[16], b[16], b2[16];
	size_t na = add(a, 0, "rw_cp", 2.0, 6);
	size_t nb = add(b, 0, "rw_cp", 2.1, 7);
	two(&cmp, a, na, b, nb);
	struct compare_cell one = row(&cmp, "rw_cp")->cell[1];
	two(&cmp, a, na, b, nb);
	struct compare_cell again = row(&cmp, "rw_cp")->cell[1];
	assert_memory_equal(&one.ci_lo, &again.ci_lo, sizeof(double));
	assert_memory_equal(&one.ci_hi, &again.ci_hi, sizeof(double));
	/* another strategy in front changes nothing: the seed is per label */
	size_t k = add(b2, 0, "mw_cp", 9.0, 3);
	memcpy(b2 + k, b, sizeof(b[0]) * nb);
	two(&cmp, a, na, b2, k + nb);
	struct compare_cell other = row(&cmp, "rw_cp")->cell[1];
	assert_true(other.ci_lo == one.ci_lo && other.ci_hi == one.ci_hi);
	/* a different seed gives a (slightly) different interval: the seed is used */
	double xa[16], xb[16], lo, hi;
	for (size_t i = 0; i < na; i++)
		xa[i] = a[i].elapsed_s;
	for (size_t i = 0; i < nb; i++)
		xb[i] = b[i].elapsed_s;
	assert_int_equal(compare_bootstrap(xa, na, xb, nb, compare_seed("rw_cp", 1), &lo, &hi), 0);
	assert_true(lo == one.ci_lo && hi == one.ci_hi);
	int differ = 0;
	for (int s = 1; s < 20 && !differ; s++) {
		double l2, h2;
		assert_int_equal(compare_bootstrap(xa, na, xb, nb, (uint64_t)s, &l2, &h2), 0);
		differ = l2 != lo || h2 != hi;
	}
	assert_true(differ);
	assert_int_equal(compare_bootstrap(xa, 1, xb, nb, 1, &lo, &hi), -1);
}

static void mann_whitney_known(void **state)
{
	(void)state;
	double a[20], b[20];
	int exact;
	for (int i = 0; i < 20; i++) {
		a[i] = 1 + i * 0.01;
		b[i] = 2 + i * 0.01;
	}
	/* complete separation: 2 / C(n, k) */
	assert_true(fabs(compare_mann_whitney(a, 3, b, 3, &exact) - 0.1) < 1e-12 && exact);
	assert_true(fabs(compare_mann_whitney(a, 4, b, 4, &exact) - 2.0 / 70) < 1e-12);
	assert_true(fabs(compare_mann_whitney(b, 3, a, 4, &exact) - 2.0 / 35) < 1e-12);
	/* all equal: p = 1 */
	assert_true(compare_mann_whitney(a, 4, a, 4, &exact) == 1.0);
	/* by hand: 1 2 4 7 | 3 5 6 8 9 has U = 0 + 0 + 1 + 3 = 4 (pairs with
	 * y < x); the splits of C(9,4) = 126 with U = 0..4 number 1, 1, 2, 3, 5
	 * (partitions of u into at most 4 parts of at most 5), so the exact
	 * two-sided p = 2 * 12 / 126 */
	double x[] = {1, 2, 4, 7}, y[] = {3, 5, 6, 8, 9};
	assert_true(fabs(compare_mann_whitney(x, 4, y, 5, &exact) - 24.0 / 126) < 1e-12);
	assert_true(fabs(compare_mann_whitney(y, 5, x, 4, &exact) - 24.0 / 126) < 1e-12);
	/* 20 + 20: C(40, 20) splits, the normal approximation:
	 * z = (200 - 0.5) / sqrt(20*20*41/12) */
	double p = compare_mann_whitney(a, 20, b, 20, &exact);
	assert_false(exact);
	double z = 199.5 / sqrt(20.0 * 20 * 41 / 12);
	assert_true(fabs(p - erfc(z / sqrt(2.0))) < 1e-15);
	assert_true(p > 6e-8 && p < 8e-8);
	assert_true(isnan(compare_mann_whitney(a, 0, b, 3, &exact)));
}

/* The same bootstrap and the exact test in python3, from the numbers alone. */
static const char py[] = "import sys, itertools\n"
			 "M = (1 << 64) - 1\n"
			 "def sm(s):\n"
			 "    s = (s + 0x9e3779b97f4a7c15) & M\n"
			 "    z = s\n"
			 "    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M\n"
			 "    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M\n"
			 "    return s, z ^ (z >> 31)\n"
			 "def med(v):\n"
			 "    v = sorted(v); n = len(v)\n"
			 "    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0\n"
			 "def seed(name, rec):\n"
			 "    h = 0xcbf29ce484222325\n"
			 "    for ch in name.encode():\n"
			 "        h = ((h ^ ch) * 0x100000001b3) & M\n"
			 "    return 0x6c72757470303035 ^ h ^ rec\n"
			 "a = [float(x) for x in sys.argv[2].split(',')]\n"
			 "b = [float(x) for x in sys.argv[3].split(',')]\n"
			 "s = seed(sys.argv[1], 1)\n"
			 "r = []\n"
			 "for i in range(10000):\n"
			 "    d = []\n"
			 "    for v in (a, b):\n"
			 "        x = []\n"
			 "        for j in range(len(v)):\n"
			 "            s, z = sm(s); x.append(v[z % len(v)])\n"
			 "        d.append(med(x))\n"
			 "    r.append(d[1] / d[0])\n"
			 "r.sort()\n"
			 "pool = a + b; n = len(pool)\n"
			 "order = sorted(range(n), key=lambda i: pool[i])\n"
			 "rank = [0.0] * n; i = 0\n"
			 "while i < n:\n"
			 "    j = i\n"
			 "    while j + 1 < n and pool[order[j + 1]] == pool[order[i]]: j += 1\n"
			 "    for k in range(i, j + 1): rank[order[k]] = (i + j + 2) / 2.0\n"
			 "    i = j + 1\n"
			 "mean = len(a) * (n + 1) / 2.0\n"
			 "dev = abs(sum(rank[:len(a)]) - mean)\n"
			 "tot = ext = 0\n"
			 "for c in itertools.combinations(range(n), len(a)):\n"
			 "    tot += 1; ext += abs(sum(rank[k] for k in c) - mean) >= dev - 1e-9\n"
			 "print(repr(r[249]), repr(r[9749]), repr(ext / tot))\n";

static void against_python(void **state)
{
	(void)state;
	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		print_message("python3 not installed: no independent computation\n");
		skip();
	}
	char script[] = "/tmp/lrutop-test-compare.XXXXXX";
	int fd = mkstemp(script);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, py, sizeof(py) - 1), (ssize_t)(sizeof(py) - 1));
	close(fd);
	/* ties on purpose (2.0 twice, 2.2 in both) and uneven counts */
	struct run_result a[8], b[8];
	const double ea[] = {2.0, 2.1, 2.0, 2.4, 1.9, 2.2}, eb[] = {2.2, 2.6, 2.5, 2.3, 2.8};
	for (int i = 0; i < 6; i++)
		a[i] = mk("mm_sync_madv_cp", 1, ea[i], 1);
	for (int i = 0; i < 5; i++)
		b[i] = mk("mm_sync_madv_cp", 1, eb[i], 1);
	two(&cmp, a, 6, b, 5);
	const struct compare_cell *e = &row(&cmp, "mm_sync_madv_cp")->cell[1];
	char cmd[512];
	snprintf(cmd, sizeof(cmd),
		 "python3 %s mm_sync_madv_cp %.17g,%.17g,%.17g,%.17g,%.17g,%.17g "
		 "%.17g,%.17g,%.17g,%.17g,%.17g",
		 script, ea[0], ea[1], ea[2], ea[3], ea[4], ea[5], eb[0], eb[1], eb[2], eb[3],
		 eb[4]);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	double lo, hi, pv;
	int got = fscanf(p, "%lf %lf %lf", &lo, &hi, &pv);
	int rc = pclose(p);
	unlink(script);
	assert_int_equal(rc, 0);
	assert_int_equal(got, 3);
	print_message("python: CI [%.6f, %.6f] p %.6f; lrutop: [%.6f, %.6f] p %.6f\n", lo, hi, pv,
		      e->ci_lo, e->ci_hi, e->p);
	assert_true(lo == e->ci_lo); /* the same stream of draws: bit for bit */
	assert_true(hi == e->ci_hi);
	assert_true(fabs(pv - e->p) < 1e-12);
	assert_true(e->p_exact);
}

static void labels(void **state)
{
	(void)state;
	char l[4][COMPARE_LABEL_MAX];
	struct compare_origin o[3] = {{"6.18.44", "box", "/tmp/r1.jsonl"},
				      {"6.19.0-rc3", "box", "r2.jsonl.gz"},
				      {"6.18.44", "box", "x/r1.jsonl"}};
	compare_labels(l, o, 2);
	assert_string_equal(l[0], "A: 6.18.44 (r1.jsonl)");
	assert_string_equal(l[1], "B: 6.19.0-rc3 (r2.jsonl.gz)");
	/* the same base name twice: a parent each; hosts differ: shown */
	o[0].path = "/data/old/r1.jsonl";
	o[1].path = "/data/new/r1.jsonl";
	o[1].host = "srv2";
	compare_labels(l, o, 2);
	assert_string_equal(l[0], "A: 6.18.44 box (old/r1.jsonl)");
	assert_string_equal(l[1], "B: 6.19.0-rc3 srv2 (new/r1.jsonl)");
	/* the same file twice: the letters tell them apart */
	o[1] = o[0];
	compare_labels(l, o, 2);
	assert_string_equal(l[0], "A: 6.18.44 (r1.jsonl)");
	assert_string_equal(l[1], "B: 6.18.44 (r1.jsonl)");
	/* nothing known but the file; very long parts are shortened in the
	 * middle, the label fits, and the table shows only its letter */
	struct compare_origin q[2] = {
	    {NULL, NULL, "a.jsonl"},
	    {"6.1.0-18-cloud-amd64-with-a-long-suffix", NULL,
	     "/some/where/a-very-long-recording-file-name-of-a-kernel-test.jsonl"}};
	compare_labels(l, q, 2);
	assert_string_equal(l[0], "A: a.jsonl");
	assert_int_equal(l[1][strlen(l[1]) - 1], ')');
	assert_true(strlen(l[1]) < COMPARE_LABEL_MAX);
	assert_true(strncmp(l[1], "B: 6.1.0", 8) == 0);
	assert_non_null(strstr(l[1], "test.jsonl)"));
	assert_non_null(strstr(l[1], "\xe2\x80\xa6"));
	struct run_result a[2] = {mk("rw_cp", 1, 1, 1), mk("rw_cp", 1, 1.1, 1)};
	struct compare_input in[2] = {{l[0], a, 2}, {l[1], a, 2}};
	char err[128];
	assert_int_equal(compare_compute(&cmp, in, 2, err, sizeof(err)), 0);
	char *t = table(&cmp);
	assert_non_null(strstr(t, " ------------------- B -------------------\n"));
	assert_non_null(strstr(t, "\nB: 6.1.0"));
	free(t);
	/* no file name (a pipe, say): no empty parentheses */
	struct compare_origin np[2] = {{"6.1", "h1", NULL}, {"6.2", "h2", ""}};
	compare_labels(l, np, 2);
	assert_string_equal(l[0], "A: 6.1 h1");
	assert_string_equal(l[1], "B: 6.2 h2");
}

static void errors(void **state)
{
	(void)state;
	struct compare_input in[COMPARE_MAX_RECORDINGS + 1];
	memset(in, 0, sizeof(in));
	char err[128];
	assert_int_equal(compare_compute(&cmp, in, 1, err, sizeof(err)), -1);
	assert_string_equal(err, "--compare needs at least two recordings");
	assert_int_equal(compare_compute(&cmp, in, COMPARE_MAX_RECORDINGS + 1, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "at most 8"));
	assert_int_equal(compare_compute(&cmp, in, 2, err, sizeof(err)), 0);
}

/* Few runs: the bootstrap can exclude 1 where no test can: a note. */
static void few_runs(void **state)
{
	(void)state;
	struct run_result a[4], b[4];
	size_t na = add(a, 0, "rw_cp", 1.0, 3), nb = add(b, 0, "rw_cp", 2.0, 3);
	two(&cmp, a, na, b, nb);
	const struct compare_cell *e = &row(&cmp, "rw_cp")->cell[1];
	assert_int_equal(e->verdict, COMPARE_SLOWER);
	assert_true(fabs(e->p_min - 0.1) < 1e-12);
	assert_true(has_note(&cmp, "rw_cp: 3 and 3 runs (A, B): too few"));
}

static void three(void **state)
{
	(void)state;
	struct run_result a[8], b[8], c3[8];
	size_t na = add(a, 0, "rw_cp", 2.0, 5), nb = add(b, 0, "rw_cp", 2.0, 5);
	size_t nc = add(c3, 0, "rw_cp", 3.0, 5);
	struct compare_input in[3] = {{"A: x", a, na}, {"B: y", b, nb}, {"C: z", c3, nc}};
	char err[128];
	assert_int_equal(compare_compute(&cmp, in, 3, err, sizeof(err)), 0);
	const struct compare_row *w = row(&cmp, "rw_cp");
	assert_int_equal(w->cell[0].verdict, COMPARE_NONE);
	assert_int_equal(w->cell[1].verdict, COMPARE_SAME);
	assert_int_equal(w->cell[2].verdict, COMPARE_SLOWER);
	char *t = table(&cmp);
	assert_non_null(strstr(t, "rw_cp           B/A"));
	assert_non_null(strstr(t, "rw_cp           C/A"));
	assert_non_null(strstr(t, "C slower"));
	free(t);
	/* one scale for all: the slowest run of C, the fastest of A or B */
	double em, mm;
	compare_scale(in, 3, &em, &mm);
	assert_true(em == 3.0 * 1.05 && mm == 512.0 / (2.0 * 0.96));
	/* a strategy B lacks: "missing in B" with three recordings */
	size_t na2 = add(a, na, "mw_cp", 1.0, 2);
	nc = add(c3, nc, "mw_cp", 1.0, 2);
	in[0].nruns = na2;
	in[2].nruns = nc;
	assert_int_equal(compare_compute(&cmp, in, 3, err, sizeof(err)), 0);
	assert_true(has_note(&cmp, "mw_cp: missing in B"));
	assert_int_equal(row(&cmp, "mw_cp")->cell[2].verdict, COMPARE_SAME);
	assert_int_equal(row(&cmp, "mw_cp")->cell[1].verdict, COMPARE_NONE);
}

static void golden(void **state)
{
	(void)state;
	struct run_result a[16], b[16];
	size_t na = add(a, 0, "rw_cp", 2.0, 4);
	na = add(a, na, "mm_sync_madv_cp", 6.0, 4);
	size_t nb = add(b, 0, "rw_cp", 2.4, 4);
	nb = add(b, nb, "mm_sync_madv_cp", 6.0, 4);
	b[0].refault_file = b[1].refault_file = 9000; /* B's refault median: 4560 */
	two(&cmp, a, na, b, nb);
	char *t = table(&cmp);
	print_message("%s", t);
	/* every line fits 100 columns for two recordings */
	for (char *l = t, *e; *l; l = e + 1) {
		e = strchr(l, '\n');
		assert_non_null(e);
		assert_true(e - l <= 100);
	}
	/* header lines */
	assert_true(strncmp(t, "A: 6.1 (a.jsonl)\nB: 6.1", 22) == 0 ||
		    strncmp(t, "A: 6.1 (a.jsonl)\nB: 6.2 (b.jsonl)\n", 34) == 0);
	assert_non_null(strstr(t, " A: 6.1 (a.jsonl) "));
	assert_non_null(strstr(t, "strategy        elapsed MiB/s bursts  peak refault majflt"
				  " elapsed MiB/s bursts  peak refault majflt\n"));
	/* the rw_cp medians row, rebuilt from the runs */
	double ea[4], eb[4], ma[4], mb[4], rf[4];
	for (int i = 0; i < 4; i++) {
		ea[i] = a[i].elapsed_s;
		eb[i] = b[i].elapsed_s;
		ma[i] = a[i].mbs;
		mb[i] = b[i].mbs;
		rf[i] = (double)b[i].refault_file;
	}
	char want[256];
	snprintf(want, sizeof(want),
		 "\nrw_cp           %6.2fs %5.0f %6.1f %5s %7.0f %6d %6.2fs %5.0f %6.1f %5s %7.0f "
		 "%6d\n",
		 tu_median(ea, 4), tu_median(ma, 4), 3.0, "61M", 120.0, 7, tu_median(eb, 4),
		 tu_median(mb, 4), 3.0, "61M", tu_median(rf, 4), 7);
	if (!strstr(t, want)) {
		print_error("missing row:%s", want);
		fail();
	}
	/* the ratio row: the cells from the computed CI and p */
	const struct compare_cell *e = &row(&cmp, "rw_cp")->cell[1];
	assert_true(fabs(e->ratio - tu_median(eb, 4) / tu_median(ea, 4)) < 1e-12);
	char ci[40];
	snprintf(ci, sizeof(ci), "[%.3f, %.3f]", e->ci_lo, e->ci_hi);
	snprintf(want, sizeof(want),
		 "\nrw_cp           B/A       4+4   %.3f  %-16s %6.3f  B slower\n", e->ratio, ci,
		 e->p);
	if (!strstr(t, want)) {
		print_error("missing row:%s", want);
		fail();
	}
	assert_non_null(strstr(t, "mm_sync_madv_cp B/A       4+4   1.000  "));
	assert_non_null(strstr(t, "no significant difference\n"));
	free(t);
}

static void write_error(void **state)
{
	(void)state;
	struct run_result a[8];
	size_t n = add(a, 0, "rw_cp", 2.0, 3);
	two(&cmp, a, n, a, n);
	FILE *f = fopen("/dev/full", "w");
	if (!f) {
		print_message("/dev/full: %s\n", strerror(errno));
		skip();
	}
	errno = 0;
	assert_int_equal(compare_table(f, &cmp), -1);
	assert_int_equal(errno, ENOSPC);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(identical),      cmocka_unit_test(shifted),
	    cmocka_unit_test(one_run_each),   cmocka_unit_test(no_common),
	    cmocka_unit_test(only_in_a),      cmocka_unit_test(failed_ignored),
	    cmocka_unit_test(deterministic),  cmocka_unit_test(mann_whitney_known),
	    cmocka_unit_test(against_python), cmocka_unit_test(labels),
	    cmocka_unit_test(errors),	      cmocka_unit_test(few_runs),
	    cmocka_unit_test(three),	      cmocka_unit_test(golden),
	    cmocka_unit_test(write_error),    cmocka_unit_test(probe_p99),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
