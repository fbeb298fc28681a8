/*
 * Tests for --export-json and --export-markdown (export_results.h,
 * export_json.h, export_markdown.h) on run logs with the awkward cases a
 * real run rarely gives on demand: a failed run before its copy (unknown
 * times), a cancelled run, a strategy with one OK run (no σ), a --cmd label
 * with '|' and a control character, probe figures with too few reads for
 * a p99.  The JSON is parsed back with jansson; the Markdown rows are
 * counted and split.  The files: made new and whole, an existing one
 * refused (and left as it was), the same file twice refused.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/export.h"
#include "output/export_json.h"
#include "output/export_markdown.h"
#include "output/export_results.h"
#include "model/runlog.h"
#include "model/stats.h"
#include "runs/strategy.h"
#include "model/sweep.h"

#include "testutil.h"

TU_TMPDIR_SUITE("xjson")

static struct run_result *add(struct runlog *l, const char *name, int ok, double el)
{
	struct run_result *r = &l->results[l->nresults++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->strategy, sizeof(r->strategy), "%s", strategy_find(name) ? name : "");
	r->cmd = r->strategy[0] ? -1 : 0;
	r->finished = 1;
	r->ok = ok;
	r->elapsed_s = el;
	r->user_s = el / 10;
	r->sys_s = el / 5;
	r->mbs = el > 0 ? 32.0 / el : 0;
	r->read_cv = r->write_cv = r->read_at_burst = NAN;
	r->bytes = 32u << 20;
	r->inblock = 65536; /* rd/cp 1: the 32 MiB read once */
	r->verified = -1;
	int rep = 0;
	for (size_t i = 0; i < l->nresults; i++)
		rep += !strcmp(l->results[i].name, name);
	r->repeat = rep;
	return r;
}

static struct runlog *sample_log(void)
{
	struct runlog *l = runlog_new();
	add(l, "rw_cp", 1, 1.0)->bursts = 0;
	struct run_result *mm = add(l, "mm_sync_cp", 1, 2.0);
	mm->bursts = 4;
	mm->inblock = 2 * 65536; /* rd/cp 2 */
	add(l, "rw_cp", 1, 1.5);
	struct run_result *f = add(l, "mm_sync_cp", 0, 0); /* failed before its copy */
	snprintf(f->message, sizeof(f->message), "mm_sync_cp #2: SIGBUS");
	f->exit_code = 1;
	add(l, "mm_sync_cp", 0, 1.0)->exit_code = 137; /* killed during its copy: timed */
	add(l, "rw_cp", 1, 2.0);
	struct run_result *x = add(l, "mm_sync_cp", 0, 1.0);
	x->cancelled = 1;
	x->exit_code = -1; /* stopped while it drained: no worker ran */
	struct run_result *c = add(l, "a|b\x1b", 1, 3.0); /* a --cmd label */
	snprintf(c->probe.mode, sizeof(c->probe.mode), "cold");
	c->probe.n = 50; /* p50 known, p99 not */
	c->probe.p50_ns = 2000000;
	c->probe.p99_ns = 9000000;
	c->probe.max_ns = 12000000;
	snprintf(l->baseline, sizeof(l->baseline), "rw_cp");
	l->mem_limit = 64u << 20;
	return l;
}

static struct export_side side_of(const struct runlog *l)
{
	return (struct export_side){
	    .host = "box",
	    .kernel = "6.18.0",
	    .disk = "vda",
	    .disk_kind = "virtio",
	    .mem_limit = l->mem_limit,
	    .baseline = l->baseline,
	    .runs = l->results,
	    .nruns = l->nresults,
	};
}

static json_t *result_named(json_t *doc, const char *cmd)
{
	size_t i;
	json_t *r;
	json_array_foreach(json_object_get(doc, "results"), i, r)
	{
		if (!strcmp(json_string_value(json_object_get(r, "command")), cmd))
			return r;
	}
	fail_msg("no result %s", cmd);
	return NULL;
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	assert_non_null(v);
	return json_is_null(v) ? NAN : json_number_value(v);
}

static void test_json(void **state)
{
	(void)state;
	struct runlog *l = sample_log();
	struct export_side sd = side_of(l);
	size_t len = 0;
	char *text = export_json_text(&sd, 1, NULL, &len);
	assert_non_null(text);
	assert_int_equal(len, strlen(text));
	assert_int_equal(text[len - 1], '\n');
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	assert_int_equal(json_array_size(json_object_get(doc, "results")), 3);

	json_t *rw = result_named(doc, "rw_cp");
	json_t *times = json_object_get(rw, "times");
	assert_int_equal(json_array_size(times), 3);
	assert_true(num(rw, "median") == 1.5 && num(rw, "min") == 1.0 && num(rw, "max") == 2.0);
	assert_true(fabs(num(rw, "mean") - 1.5) < 1e-12);
	assert_true(fabs(num(rw, "stddev") - 0.5) < 1e-12); /* n - 1 */
	assert_true(fabs(num(rw, "user") - 0.15) < 1e-12);
	assert_true(num(rw, "relative") == 1.0);
	assert_string_equal(json_string_value(json_object_get(rw, "relative_to")), "baseline");
	assert_true(num(rw, "mem_limit_bytes") == 64 << 20);

	/* mm_sync_cp: one OK run of four.  As hyperfine -i: the run killed
	 * during its copy is in times and exit_codes (128 + 9) and in mean,
	 * median, min and max; the one that failed before its copy (no time)
	 * and the cancelled one are only in runs.  lrutop's relative stays a
	 * ratio of the OK runs' medians. */
	json_t *mm = result_named(doc, "mm_sync_cp");
	json_t *mt = json_object_get(mm, "times"), *mc = json_object_get(mm, "exit_codes");
	assert_int_equal(json_array_size(mt), 2);
	assert_int_equal(json_array_size(mc), 2);
	assert_true(json_real_value(json_array_get(mt, 0)) == 2.0 &&
		    json_real_value(json_array_get(mt, 1)) == 1.0);
	assert_true(json_integer_value(json_array_get(mc, 0)) == 0 &&
		    json_integer_value(json_array_get(mc, 1)) == 137);
	assert_true(num(mm, "mean") == 1.5 && num(mm, "median") == 1.5);
	assert_true(num(mm, "min") == 1.0 && num(mm, "max") == 2.0);
	assert_true(fabs(num(mm, "stddev") - sqrt(0.5)) < 1e-12);
	assert_true(fabs(num(mm, "user") - 0.15) < 1e-12);
	assert_true(fabs(num(mm, "relative") - 2.0 / 1.5) < 1e-12);
	assert_true(num(mm, "n_runs") == 4 && num(mm, "n_ok") == 1 && num(mm, "bursts") == 4);
	/* rd/cp: the median over the OK runs, each run's own; none for a
	 * run that never copied */
	assert_true(num(mm, "read_ratio") == 2.0 && num(rw, "read_ratio") == 1.0);
	json_t *runs = json_object_get(mm, "runs");
	assert_int_equal(json_array_size(runs), 4);
	assert_true(num(json_array_get(runs, 1), "exit_code") == 1);
	assert_true(num(json_array_get(runs, 2), "exit_code") == 137);
	assert_true(isnan(num(json_array_get(runs, 3), "exit_code"))); /* cancelled: none */
	assert_true(num(json_array_get(runs, 0), "read_ratio") == 2.0);
	json_t *failed = json_array_get(runs, 1);
	assert_true(json_is_null(json_object_get(failed, "elapsed_s")));
	assert_true(json_is_null(json_object_get(failed, "read_ratio")));
	assert_string_equal(json_string_value(json_object_get(failed, "verified")), "failed");
	assert_string_equal(json_string_value(json_object_get(failed, "message")),
			    "mm_sync_cp #2: SIGBUS");
	assert_string_equal(json_string_value(json_object_get(json_array_get(runs, 3), "verified")),
			    "cancelled");
	assert_true(json_is_null(json_object_get(mm, "probe")));

	/* the --cmd: null strategy; its probe's p99 of 50 reads is unknown */
	json_t *cmd = result_named(doc, "a|b\x1b");
	assert_true(json_is_null(json_object_get(cmd, "strategy")));
	json_t *pr = json_object_get(json_array_get(json_object_get(cmd, "runs"), 0), "probe");
	assert_true(num(pr, "p50_ms") == 2.0 && isnan(num(pr, "p99_ms")));
	assert_true(num(json_object_get(cmd, "probe"), "runs") == 1);

	json_t *m = json_object_get(doc, "machine");
	assert_string_equal(json_string_value(json_object_get(m, "kernel")), "6.18.0");
	assert_true(json_is_null(json_object_get(m, "recording_file")));
	json_decref(doc);
	free(text);
	runlog_free(l);
}

/* Splits a Markdown row into its cells (outer pipes off, "\|" kept). */
static int cells(const char *line, char out[][64], int max)
{
	int n = 0;
	const char *p = line + 1;
	while (*p && n < max) {
		const char *q = p;
		while (*q && !(*q == '|' && q[-1] != '\\'))
			q++;
		if (!*q)
			break;
		int w = (int)(q - p);
		while (w > 0 && p[w - 1] == ' ')
			w--;
		while (*p == ' ' && w > 0)
			p++, w--;
		snprintf(out[n++], 64, "%.*s", w, p);
		p = q + 1;
	}
	return n;
}

static void test_markdown(void **state)
{
	(void)state;
	struct runlog *l = sample_log();
	struct export_side sd = side_of(l);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(export_markdown_write(f, &sd, 1, NULL), 0);
	fclose(f);
	assert_null(strchr(buf, '\x1b')); /* no escape reaches a paste */
	int rows = 0, probe_rows = 0, nhead = 0;
	char head[16][64], c[16][64];
	for (char *line = strtok(buf, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] != '|')
			continue;
		if (!strncmp(line, "| Command | Mean [s]", 20)) {
			nhead = cells(line, head, 16);
			continue;
		}
		if (!strncmp(line, "| Command | Probe", 17) || !strncmp(line, "|:---", 5))
			continue;
		int n = cells(line, c, 16);
		if (n == 9) { /* the probe table */
			assert_string_equal(c[0], "`a\\|b?`");
			assert_string_equal(c[3], "2.00");
			assert_string_equal(c[4], "-");
			probe_rows++;
			continue;
		}
		assert_int_equal(n, nhead);
		rows++;
		if (!strcmp(c[0], "`rw_cp`")) {
			assert_string_equal(c[1], "1.500 ± 0.500");
			assert_string_equal(c[2], "1.000");
			assert_string_equal(c[3], "2.000");
			assert_string_equal(c[4], "1.00");
			assert_string_equal(c[6], "3/3");
			assert_string_equal(head[10], "rd/cp");
			assert_string_equal(c[10], "1.00"); /* read its 32 MiB once */
		} else if (!strcmp(c[0], "`mm_sync_cp`")) {
			/* hyperfine's columns over the timed runs, failed too */
			assert_string_equal(c[1], "1.500 ± 0.707");
			assert_string_equal(c[2], "1.000");
			assert_string_equal(c[3], "2.000");
			assert_string_equal(c[5], "2.000"); /* lrutop's median: the OK run's */
			assert_string_equal(c[6], "1/4");
			assert_string_equal(c[10], "2.00");
		} else {
			assert_string_equal(c[0], "`a\\|b?`"); /* '|' escaped: still one row */
		}
	}
	assert_int_equal(nhead, 14);
	assert_int_equal(rows, 3);
	assert_int_equal(probe_rows, 1);
	free(buf);
	runlog_free(l);
}

/* A --sweep of mem-limit: the run log's limit is one value (live the
 * largest, a replay's the first cgroup's), each result says its own
 * (issue 26 finding 3: every result said the session's one).  A sweep of
 * disk-limit beside a --mem-limit: the limit every run had stays. */
static struct runlog *sweep_log(int param, uint64_t common)
{
	static const uint64_t v[3] = {8u << 20, 16u << 20, 32u << 20};
	static const char *const lab[3] = {"8M", "16M", "32M"};
	struct runlog *l = runlog_new();
	for (int rep = 0; rep < 2; rep++)
		for (int i = 0; i < 3; i++) {
			char name[32];
			snprintf(name, sizeof(name), "rw_cp@%c%s",
				 param == SWEEP_MEM_LIMIT ? 'm' : 'd', lab[i]);
			struct run_result *r = add(l, name, 1, 1.0 + i);
			snprintf(r->strategy, sizeof(r->strategy), "rw_cp");
			r->cmd = -1;
			r->sweep_param = param;
			r->sweep_value = v[i];
		}
	snprintf(l->baseline, sizeof(l->baseline), "rw_cp@m8M");
	l->mem_limit = param == SWEEP_MEM_LIMIT ? 32u << 20 : common;
	return l;
}

static void test_sweep_settings(void **state)
{
	(void)state;
	static const char *const names[3] = {"rw_cp@m8M", "rw_cp@m16M", "rw_cp@m32M"};
	struct runlog *l = sweep_log(SWEEP_MEM_LIMIT, 0);
	struct export_side sd = side_of(l);
	size_t len = 0;
	char *text = export_json_text(&sd, 1, NULL, &len);
	assert_non_null(text);
	json_error_t je;
	json_t *doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	for (int i = 0; i < 3; i++) {
		json_t *r = result_named(doc, names[i]);
		assert_true(num(r, "mem_limit_bytes") == (double)((8u << 20) << i));
		assert_true(isnan(num(r, "disk_limit_bytes_per_s")));
		json_t *sw = json_object_get(r, "sweep");
		assert_string_equal(json_string_value(json_object_get(sw, "param")), "mem-limit");
		assert_true(num(sw, "value") == (double)((8u << 20) << i));
	}
	json_decref(doc);
	free(text);

	char *buf = NULL;
	len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(export_markdown_write(f, &sd, 1, NULL), 0);
	fclose(f);
	/* no one limit for all in the line above the table; a column */
	assert_null(strstr(buf, "memory limit"));
	assert_non_null(strstr(buf, ", a sweep of mem-limit"));
	assert_non_null(strstr(buf, "| Command | mem-limit | Mean [s] |"));
	assert_non_null(strstr(buf, "| `rw_cp@m8M` | 8M | 1.000 ± 0.000 |"));
	assert_non_null(strstr(buf, "| `rw_cp@m16M` | 16M | 2.000 ± 0.000 |"));
	assert_non_null(strstr(buf, "| `rw_cp@m32M` | 32M | 3.000 ± 0.000 |"));
	int cols = 0;
	for (const char *p = strstr(buf, "|:---"); p && *p != '\n'; p++)
		cols += *p == '|';
	assert_int_equal(cols, 16); /* 15 columns, the sweep's and rd/cp among them */
	free(buf);
	runlog_free(l);

	/* disk-limit swept under -m 64M: each its rate, all the same memory */
	l = sweep_log(SWEEP_DISK_LIMIT, 64u << 20);
	sd = side_of(l);
	text = export_json_text(&sd, 1, NULL, &len);
	doc = json_loads(text, 0, &je);
	assert_non_null(doc);
	json_t *r = result_named(doc, "rw_cp@d16M");
	assert_true(num(r, "disk_limit_bytes_per_s") == 16u << 20);
	assert_true(num(r, "mem_limit_bytes") == 64u << 20);
	json_decref(doc);
	free(text);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(export_markdown_write(f, &sd, 1, NULL), 0);
	fclose(f);
	assert_non_null(strstr(buf, ", memory limit 64M, a sweep of disk-limit"));
	assert_null(strstr(buf, "disk limit "));
	assert_non_null(strstr(buf, "| `rw_cp@d16M` | 16M/s |"));
	free(buf);
	runlog_free(l);
}

static void test_files(void **state)
{
	(void)state;
	struct runlog *l = sample_log();
	struct export_side sd = side_of(l);
	char j[128], m[128], err[512];
	snprintf(j, sizeof(j), "%s/r.json", dir);
	snprintf(m, sizeof(m), "%s/r.md", dir);
	assert_int_equal(export_results_check(j, m, NULL, err, sizeof(err)), 0);
	assert_int_equal(export_results_check(j, j, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "the same file"));
	const char *others[3] = {NULL, j, NULL};
	assert_int_equal(export_results_check(j, NULL, others, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "--export-json"));
	assert_non_null(strstr(err, "--csv"));
	assert_int_equal(export_results_save(j, m, &sd, 1, NULL, err, sizeof(err)), 0);
	assert_int_equal(access(j, F_OK), 0);
	assert_int_equal(access(m, F_OK), 0);
	/* again: both exist now */
	assert_int_equal(export_results_check(NULL, m, NULL, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "already exists"));
	FILE *f = fopen(j, "r");
	char first[8] = "";
	assert_non_null(fgets(first, sizeof(first), f));
	fclose(f);
	assert_int_equal(export_results_save(j, NULL, &sd, 1, NULL, err, sizeof(err)),
			 EXPORT_INPUT);
	assert_non_null(strstr(err, "already exists"));
	f = fopen(j, "r");
	char again[8] = "";
	assert_non_null(fgets(again, sizeof(again), f));
	fclose(f);
	assert_string_equal(first, again);
	runlog_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_json),
	    cmocka_unit_test(test_markdown),
	    cmocka_unit_test(test_sweep_settings),
	    cmocka_unit_test_setup_teardown(test_files, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
