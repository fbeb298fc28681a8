/*
 * Tests for sweep (issue 17 item 1): sweep_parse over lists and geometric
 * ranges (sorted, rounded to exact labels, HI always run) and every bad
 * input the CLI refuses (empty, unknown parameter, LO > HI, xF <= 1, too
 * many values, below a parameter's least); sweep_until_parse; the label
 * suffix and the base label; sweep_table_build on hand-built runs (medians
 * per value and strategy, failed runs out of the medians, the interval only
 * from two OK runs); the bisection step by step on runs whose condition
 * flips, and its ALWAYS / NEVER / FAILED ends; a run's own setting
 * (sweep_run_setting); a column for every label a live queue can have
 * (the batch table and the picture), and the labels past the columns said.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "runs/run_config.h"
#include "runs/strategy.h"
#include "output/svg.h"
#include "model/sweep.h"

#define M (1ull << 20)

static int parse(const char *arg, struct sweep_spec *sp, char *err)
{
	memset(sp, 0, sizeof(*sp));
	err[0] = '\0';
	return sweep_parse(arg, parse_size, sp, err, 256);
}

static void test_parse_list(void **state)
{
	(void)state;
	struct sweep_spec sp;
	char err[256];
	assert_int_equal(parse("bs=1M,4K,64K", &sp, err), 0);
	assert_int_equal(sp.param, SWEEP_BS);
	assert_int_equal(sp.n, 3);
	assert_true(sp.v[0] == 4096 && sp.v[1] == 65536 && sp.v[2] == M);
	assert_true(sp.factor == 0);
	assert_int_equal(parse("size=64M", &sp, err), 0);
	assert_int_equal(sp.n, 1);
}

static void test_parse_range(void **state)
{
	(void)state;
	struct sweep_spec sp;
	char err[256];
	assert_int_equal(parse("mem-limit=24M..96M:x2", &sp, err), 0);
	assert_int_equal(sp.param, SWEEP_MEM_LIMIT);
	assert_int_equal(sp.n, 3);
	assert_true(sp.v[0] == 24 * M && sp.v[1] == 48 * M && sp.v[2] == 96 * M);
	/* 16 32 64 then 100: HI is run (the bisection's other end) */
	assert_int_equal(parse("mem-limit=16M..100M:x2", &sp, err), 0);
	assert_int_equal(sp.n, 4);
	assert_true(sp.v[3] == 100 * M);
	/* x1.5 from 24M: 36M 54M 81M, each an exact label */
	assert_int_equal(parse("disk-limit=24M..81M:x1.5", &sp, err), 0);
	assert_int_equal(sp.n, 4);
	assert_true(sp.v[1] == 36 * M && sp.v[2] == 54 * M && sp.v[3] == 81 * M);
	for (int i = 0; i < sp.n; i++) {
		char s[24];
		sweep_value_str(s, sizeof(s), sp.v[i]);
		assert_true(strchr(s, '.') == NULL);
	}
	assert_int_equal(parse("size=1M..1M:x2", &sp, err), 0);
	assert_int_equal(sp.n, 1);
}

static void test_parse_bad(void **state)
{
	(void)state;
	static const char *const bad[] = {
	    "mem-limit=",
	    "mem-limit",
	    "colour=1M,2M",
	    "=1M",
	    "mem-limit=96M..24M:x2",
	    "mem-limit=24M..96M:x1",
	    "mem-limit=24M..96M:x0.5",
	    "mem-limit=24M..96M",
	    "mem-limit=24M..96M:2",
	    "bs=4K..1T:x1.01",
	    "mem-limit=1M,8M",
	    "disk-limit=512K",
	    "bs=2G",
	    "bs=4K,,8K",
	    "bs=4K,4K",
	    "bs=1X",
	    "mem-limit=24M..96M:xabc",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct sweep_spec sp;
		char err[256];
		if (parse(bad[i], &sp, err) != -1 || !strstr(err, "--sweep ") ||
		    strchr(err, '\n')) {
			print_error("%s: not refused as it should be (\"%s\")\n", bad[i], err);
			fail();
		}
	}
	struct sweep_spec sp;
	char err[256];
	assert_int_equal(parse("mem-limit=4M..1T:x1.01", &sp, err), -1);
	assert_non_null(strstr(err, "more than 64"));
	assert_int_equal(parse("mem-limit=96M..24M:x2", &sp, err), -1);
	assert_non_null(strstr(err, "LO is above HI"));
}

static void test_until(void **state)
{
	(void)state;
	struct sweep_cond c;
	char err[256];
	assert_int_equal(sweep_until_parse("bursts>=1", &c, err, sizeof(err)), 0);
	assert_true(c.set && c.metric == SWEEP_BURSTS && c.op == SWEEP_GE && c.threshold == 1);
	assert_int_equal(sweep_until_parse(" elapsed < 2.5 ", &c, err, sizeof(err)), 0);
	assert_true(c.metric == SWEEP_ELAPSED && c.op == SWEEP_LT && c.threshold == 2.5);
	assert_string_equal(c.text, "elapsed<2.5");
	assert_int_equal(sweep_until_parse("rdcv>0.5", &c, err, sizeof(err)), 0);
	assert_true(c.metric == SWEEP_RDCV && c.op == SWEEP_GT);
	static const char *const bad[] = {"",	      "bursts",	    "bursts>=",	  "speed>1",
					  "bursts=1", "bursts>=1x", "bursts>=-1", "bursts>=inf"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(sweep_until_parse(bad[i], &c, err, sizeof(err)), -1);
}

static void test_labels(void **state)
{
	(void)state;
	char b[32];
	sweep_suffix(b, sizeof(b), SWEEP_MEM_LIMIT, 32 * M);
	assert_string_equal(b, "@m32M");
	sweep_suffix(b, sizeof(b), SWEEP_BS, 65536);
	assert_string_equal(b, "@b64K");
	sweep_suffix(b, sizeof(b), SWEEP_SIZE, 1ull << 30);
	assert_string_equal(b, "@s1G");
	sweep_suffix(b, sizeof(b), SWEEP_DISK_LIMIT, 1536 * 1024);
	assert_string_equal(b, "@d1536K");
	struct run_result r = {.sweep_param = SWEEP_MEM_LIMIT, .sweep_value = 32 * M};
	strcpy(r.name, "rw_cp@30M@m32M");
	sweep_base_label(b, sizeof(b), &r);
	assert_string_equal(b, "rw_cp@30M");
	assert_int_equal(sweep_param_find("disk-limit"), SWEEP_DISK_LIMIT);
	assert_int_equal(sweep_param_find("colour"), SWEEP_NONE);
}

/* A finished run of name at value v. */
static struct run_result run(const char *name, uint64_t v, int ok, double el, int bursts)
{
	struct run_result r = {.finished = 1,
			       .ok = ok,
			       .elapsed_s = el,
			       .bursts = bursts,
			       .read_cv = 0.5,
			       .sweep_param = SWEEP_MEM_LIMIT,
			       .sweep_value = v};
	char suf[32];
	sweep_suffix(suf, sizeof(suf), SWEEP_MEM_LIMIT, v);
	snprintf(r.name, sizeof(r.name), "%s%s", name, suf);
	return r;
}

static void test_table(void **state)
{
	(void)state;
	struct run_result r[8];
	size_t n = 0;
	r[n++] = run("a", 32 * M, 1, 3.0, 4);
	r[n++] = run("b", 32 * M, 1, 1.0, 0);
	r[n++] = run("a", 64 * M, 1, 2.0, 1);
	r[n++] = run("b", 64 * M, 0, 9.0, 9); /* failed: out of the medians */
	r[n++] = run("a", 32 * M, 1, 5.0, 6);
	r[n++] = run("b", 32 * M, 1, 1.4, 0);
	static struct sweep_table t;
	assert_int_equal(sweep_table_build(&t, NULL, r, n, 1), n);
	assert_int_equal(t.param, SWEEP_MEM_LIMIT);
	assert_int_equal(t.nv, 2);
	assert_int_equal(t.ns, 2);
	assert_string_equal(t.strat[0], "a");
	assert_true(t.v[0] == 32 * M);
	assert_true(t.cell[0][0].elapsed_med == 4.0 && t.cell[0][0].bursts_med == 5.0);
	assert_int_equal(t.cell[0][0].runs, 2);
	/* two OK runs: an interval around the median, within the values */
	assert_true(t.cell[0][0].ci_lo >= 3.0 && t.cell[0][0].ci_hi <= 5.0);
	assert_true(t.cell[0][0].ci_lo <= 4.0 && t.cell[0][0].ci_hi >= 4.0);
	assert_true(isnan(t.cell[1][0].ci_lo)); /* one run */
	assert_int_equal(t.cell[1][1].runs, 1);
	assert_int_equal(t.cell[1][1].ok, 0);
	assert_true(isnan(t.cell[1][1].elapsed_med));
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	sweep_table_print(f, &t);
	fclose(f);
	assert_non_null(strstr(txt, "sweep of mem-limit"));
	assert_non_null(strstr(txt, "\n32M "));
	assert_non_null(strstr(txt, "(0/1 ok)"));
	free(txt);
}

/* The bisection over 8 values where the condition holds from index 5 on
 * (bursts >= 1 below ... as an increasing run): it asks both ends, then
 * halves, and ends on the adjacent pair [4, 5]. */
static void test_bisect(void **state)
{
	(void)state;
	struct sweep_spec sp;
	char err[256];
	assert_int_equal(parse("mem-limit=8M..1G:x2", &sp, err), 0);
	assert_int_equal(sp.n, 8);
	struct sweep_cond c;
	assert_int_equal(sweep_until_parse("bursts>=1", &c, err, sizeof(err)), 0);
	static struct run_result r[64];
	size_t n = 0;
	static struct sweep_table t;
	int next[2], k, steps = 0;
	struct sweep_bracket b;
	sweep_table_build(&t, &sp, r, n, 0);
	assert_int_equal(sweep_bisect_next(&t, -1, &c, 1, next, &b), 2);
	for (;;) {
		sweep_table_build(&t, &sp, r, n, 0);
		int col = t.ns ? 0 : -1;
		k = sweep_bisect_next(&t, col, &c, 1, next, &b);
		if (!k)
			break;
		for (int j = 0; j < k; j++)
			r[n++] = run("a", sp.v[next[j]], 1, 1.0, next[j] >= 5 ? 3 : 0);
		assert_true(++steps < 10);
	}
	assert_int_equal(b.kind, SWEEP_BRACKET);
	assert_true(b.no_v == sp.v[4] && b.yes_v == sp.v[5]);
	assert_true(n <= 5); /* 2 ends + log2(8) halvings */
	char line[256];
	sweep_bracket_str(line, sizeof(line), &t, 0, &c, &b);
	assert_non_null(strstr(line, "bracket [128M, 256M]"));

	/* decreasing: holds at the small end; the bracket is [no, yes] still */
	n = 0;
	for (steps = 0;; steps++) {
		sweep_table_build(&t, &sp, r, n, 0);
		k = sweep_bisect_next(&t, t.ns ? 0 : -1, &c, 1, next, &b);
		if (!k)
			break;
		for (int j = 0; j < k; j++)
			r[n++] = run("a", sp.v[next[j]], 1, 1.0, next[j] <= 2 ? 3 : 0);
	}
	assert_int_equal(b.kind, SWEEP_BRACKET);
	assert_true(b.no_v == sp.v[3] && b.yes_v == sp.v[2]);

	/* both ends alike, and a failed end */
	n = 0;
	r[n++] = run("a", sp.v[0], 1, 1.0, 0);
	r[n++] = run("a", sp.v[7], 1, 1.0, 0);
	sweep_table_build(&t, &sp, r, n, 0);
	assert_int_equal(sweep_bisect_next(&t, 0, &c, 1, next, &b), 0);
	assert_int_equal(b.kind, SWEEP_NEVER);
	r[1] = run("a", sp.v[7], 0, 1.0, 0);
	sweep_table_build(&t, &sp, r, n, 0);
	assert_int_equal(sweep_bisect_next(&t, 0, &c, 1, next, &b), 0);
	assert_int_equal(b.kind, SWEEP_FAILED);
	/* --repeat 2: one run at a value is not yet an answer */
	r[1] = run("a", sp.v[7], 1, 1.0, 0);
	sweep_table_build(&t, &sp, r, n, 0);
	assert_int_equal(sweep_bisect_next(&t, 0, &c, 2, next, &b), 2);
}

/* A run's own setting: its sweep's value in place of the option it
 * sweeps, the session's limits for the rest (and for a run outside a
 * sweep, or a parameter this build does not know). */
static void test_run_setting(void **state)
{
	(void)state;
	struct run_result r = run("a", 8 * M, 1, 1.0, 0);
	struct run_setting set;
	sweep_run_setting(&r, 64 * M, 30 * M, &set);
	assert_true(set.mem_limit == 8 * M && set.disk_limit == 30 * M);
	assert_true(set.param == SWEEP_MEM_LIMIT && set.value == 8 * M);
	r.sweep_param = SWEEP_DISK_LIMIT;
	sweep_run_setting(&r, 64 * M, 0, &set);
	assert_true(set.mem_limit == 64 * M && set.disk_limit == 8 * M);
	r.sweep_param = SWEEP_BS;
	sweep_run_setting(&r, 64 * M, 30 * M, &set);
	assert_true(set.mem_limit == 64 * M && set.disk_limit == 30 * M);
	assert_true(set.param == SWEEP_BS && set.value == 8 * M);
	r.sweep_param = SWEEP_NONE;
	sweep_run_setting(&r, 64 * M, 30 * M, &set);
	assert_true(set.param == SWEEP_NONE && set.value == 0 && set.mem_limit == 64 * M);
	r.sweep_param = SWEEP_NPARAM;
	sweep_run_setting(&r, 64 * M, 30 * M, &set);
	assert_true(set.param == SWEEP_NONE && set.mem_limit == 64 * M);
}

/* Every label of a live queue has a column: the 13 strategies and every
 * --cmd, -s all with four --cmds the 17 of issue 26 finding 6 (the 17th
 * was dropped with no word, and --sweep-until never bracketed it). */
static void test_columns_queue(void **state)
{
	(void)state;
	assert_true(strategy_count() + RUN_CONFIG_MAX_CMDS <= SWEEP_MAX_STRATEGIES);
	static struct run_result r[2 * (SWEEP_MAX_STRATEGIES + 8)];
	size_t n = 0;
	for (size_t i = 0; i < strategy_count(); i++)
		r[n++] = run(strategy_at(i)->name, 8 * M, 1, 1.0 + (double)i, 0);
	for (int c = 1; c <= 4; c++) {
		char name[8];
		snprintf(name, sizeof(name), "c%d", c);
		r[n++] = run(name, 8 * M, 1, 2.0, 0);
	}
	static struct sweep_table t;
	sweep_table_build(&t, NULL, r, n, 0);
	assert_int_equal(t.ns, (int)strategy_count() + 4);
	assert_int_equal(t.dropped, 0);
	assert_string_equal(t.strat[t.ns - 1], "c4");
	assert_true(t.cell[0][t.ns - 1].elapsed_med == 2.0);
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	sweep_table_print(f, &t);
	fclose(f);
	assert_non_null(strstr(txt, "  c4 "));
	assert_null(strstr(txt, "not shown"));
	free(txt);
	struct svg_input in = {.runs = r, .nruns = n, .host = "h", .kernel = "k"};
	struct svg_opts so = {.view = SVG_SWEEP, .run = -1};
	txt = NULL;
	f = open_memstream(&txt, &len);
	char err[256];
	assert_int_equal(svg_write(f, &in, &so, err, sizeof(err)), 0);
	fclose(f);
	for (size_t i = 0; i < strategy_count(); i++) {
		char want[48];
		snprintf(want, sizeof(want), ">%s</text>", strategy_at(i)->name);
		assert_non_null(strstr(txt, want));
	}
	assert_non_null(strstr(txt, ">c4</text>"));
	assert_null(strstr(txt, "not shown"));
	/* the 9th on: a colour again, with dashes */
	assert_non_null(strstr(txt, "stroke-dasharray="));
	free(txt);
}

/* A recording with more labels than the table has columns: as many as
 * it holds, and the rest said (each counted once), in the batch table
 * and the picture. */
static void test_columns_dropped(void **state)
{
	(void)state;
	static struct run_result r[2 * (SWEEP_MAX_STRATEGIES + 8)];
	size_t n = 0;
	for (int rep = 0; rep < 2; rep++)
		for (int i = 0; i < SWEEP_MAX_STRATEGIES + 8; i++) {
			char name[8];
			snprintf(name, sizeof(name), "s%02d", i);
			r[n++] = run(name, (8 * M) << rep, 1, 1.0, 0);
		}
	static struct sweep_table t;
	sweep_table_build(&t, NULL, r, n, 0);
	assert_int_equal(t.ns, SWEEP_MAX_STRATEGIES);
	assert_int_equal(t.dropped, 8);
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	sweep_table_print(f, &t);
	fclose(f);
	assert_non_null(strstr(txt, "(8 more strategies not shown"));
	free(txt);
	struct svg_input in = {.runs = r, .nruns = n, .host = "h", .kernel = "k"};
	struct svg_opts so = {.view = SVG_SWEEP, .run = -1};
	txt = NULL;
	f = open_memstream(&txt, &len);
	char err[256];
	assert_int_equal(svg_write(f, &in, &so, err, sizeof(err)), 0);
	fclose(f);
	assert_non_null(strstr(txt, ">s31</text>"));
	assert_null(strstr(txt, ">s32</text>"));
	assert_non_null(strstr(txt, ">8 more not shown</text>"));
	free(txt);
}

/* sweep_values_most, the bound the session refuses a too-big bisection
 * by, against the bisection itself: for every grid of 2 to 64 values and
 * every place the condition could start to hold (or none), the values
 * sweep_bisect_next asks for are at most the bound, and for some place
 * exactly it.  Without --sweep-until every value runs. */
static void test_values_most(void **state)
{
	(void)state;
	static struct run_result r[SWEEP_MAX_VALUES];
	static struct sweep_table t;
	char arg[512], err[256];
	struct sweep_cond c;
	assert_int_equal(sweep_until_parse("bursts>=1", &c, err, sizeof(err)), 0);
	for (int nv = 2; nv <= SWEEP_MAX_VALUES; nv++) {
		size_t l = (size_t)snprintf(arg, sizeof(arg), "mem-limit=");
		for (int i = 0; i < nv; i++)
			l += (size_t)snprintf(arg + l, sizeof(arg) - l, "%s%dM", i ? "," : "",
					      4 + i);
		struct sweep_spec sp;
		assert_int_equal(parse(arg, &sp, err), 0);
		assert_int_equal(sp.n, nv);
		assert_int_equal(sweep_values_most(&sp), nv);
		sp.until = c;
		int most = sweep_values_most(&sp), seen = 0;
		for (int from = 0; from <= nv; from++) {
			size_t n = 0;
			int next[2], k;
			struct sweep_bracket b;
			for (;;) {
				sweep_table_build(&t, &sp, r, n, 0);
				k = sweep_bisect_next(&t, t.ns ? 0 : -1, &c, 1, next, &b);
				if (!k)
					break;
				for (int j = 0; j < k; j++) {
					assert_true(n < SWEEP_MAX_VALUES);
					r[n++] = run("a", sp.v[next[j]], 1, 1.0,
						     next[j] >= from ? 3 : 0);
				}
			}
			if ((int)n > most)
				fail_msg("%d values, holding from %d: %zu runs, bound %d", nv, from,
					 n, most);
			seen = (int)n > seen ? (int)n : seen;
		}
		assert_int_equal(seen, most);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_list),	  cmocka_unit_test(test_parse_range),
	    cmocka_unit_test(test_parse_bad),	  cmocka_unit_test(test_until),
	    cmocka_unit_test(test_labels),	  cmocka_unit_test(test_table),
	    cmocka_unit_test(test_bisect),	  cmocka_unit_test(test_run_setting),
	    cmocka_unit_test(test_columns_queue), cmocka_unit_test(test_columns_dropped),
	    cmocka_unit_test(test_values_most),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
