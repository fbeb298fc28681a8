/*
 * The ranges of a recording's numbers (issue 26, 7: "mf":-5 became
 * mem_free_kb 18446744073709551611, "pms":1e300 inf, "elapsed_s":1e308
 * "inf ± inf"; a header's interval 0, page size 3, CPUs 0 were taken),
 * from record_format.c's one table: the sample fields' column and the
 * rows of every other number.  Generated from the table — for every row
 * a real line of the writer's (recorder_open ...) with that one number
 * set to each bound (read back as it was), one below and one above (the
 * error, "FILE:LINE: KIND: "KEY": V is out of range (RANGE)") — and, so
 * that a typo in the table fails too, literal cases from the issue.  Also:
 * every number the writer emits has a range, every range a number the
 * writer emits, and each field's range fits its member's type.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/options.h"
#include "model/phase.h"
#include "model/sweep.h"
#include "recording/record.h"
#include "recording/record_format.h"
#include "runs/strategy.h"
#include "base/util.h"

#include "testutil.h"

TU_TMPDIR_SUITE("rrange")

/* The writer's lines of a recording with one line of each kind, every
 * field there: [0] header, [1] sample (with a disk table), [2] pcmap,
 * [3] event, [4] result (with res, probe and sweep). */
enum { L_HEADER, L_SAMPLE, L_MAP, L_EVENT, L_RESULT, NLINES };
static json_t *base[NLINES];

static void write_base(void)
{
	char path[128], err[512];
	snprintf(path, sizeof(path), "%s/base.jsonl", dir);
	struct record_header h;
	record_header_init(&h);
	snprintf(h.version, sizeof(h.version), "range-test");
	h.cgroup_version = 2;
	h.interval_s = 0.25;
	/* the runs' configuration (minor 4), every key: a sweep with its
	 * condition */
	struct run_config rc = {.strategies = "rw_cp,mm_sync_cp",
				.cmds = {"cp {src} {dst}"},
				.names = {"mine"},
				.ncmds = 1,
				.nnames = 1,
				.size = 1 << 30,
				.mem_limit = 64 << 20,
				.disk_limit = 32 << 20,
				.repeat = 3,
				.baseline = "rw_cp",
				.bs = 8192};
	assert_int_equal(sweep_parse("bs=4K,64K", parse_size, &rc.sweep, err, sizeof(err)), 0);
	assert_int_equal(sweep_until_parse("bursts>=1", &rc.sweep.until, err, sizeof(err)), 0);
	record_config_of_run(&h.config, &rc);
	snprintf(h.config.probe, sizeof(h.config.probe), "cold");
	struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(w);
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = 1000000000;
	s.have = HAVE_KNOWN;
	s.run = 0;
	s.phase = PHASE_COPY;
	s.mem_total = 1000000;
	s.gen_n = 2;
	s.res_src.method = s.res_dst.method = RESIDENCY_CACHESTAT;
	static struct disktab tab;
	tab.t_ns = s.t_ns + 1000;
	tab.n = 1;
	snprintf(tab.dev[0].name, sizeof(tab.dev[0].name), "vda");
	tab.dev[0].is_disk = 1;
	assert_int_equal(recorder_sample(w, &s, &tab, err, sizeof(err)), 0);
	static struct residency_map map;
	map.t_ns = s.t_ns;
	map.src.pages = map.dst.pages = 1000;
	map.src.n = map.dst.n = 2;
	map.src.method = map.dst.method = RESIDENCY_CACHESTAT;
	map.src.cached[0] = map.dst.cached[1] = 3;
	assert_int_equal(recorder_map(w, &map, err, sizeof(err)), 0);
	struct run_event ev = {.t_ns = s.t_ns, .run = 0, .phase = PHASE_COPY};
	assert_int_equal(recorder_event(w, &ev, err, sizeof(err)), 0);
	static struct run_result x;
	snprintf(x.name, sizeof(x.name), "rw_cp");
	snprintf(x.strategy, sizeof(x.strategy), "rw_cp");
	x.cmd = -1;
	x.repeat = x.finished = x.ok = 1;
	x.elapsed_s = 1.0, x.read_cv = NAN, x.write_cv = 0.5, x.read_at_burst = 2.0;
	x.res_have = 1;
	x.sweep_param = 1;
	x.sweep_value = 32ull << 20;
	snprintf(x.probe.mode, sizeof(x.probe.mode), "cold");
	x.probe.n = 200;
	assert_int_equal(recorder_result(w, &x, err, sizeof(err)), 0);
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);

	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0;
	for (int i = 0; i < NLINES; i++) {
		assert_true(getline(&line, &cap, f) > 0);
		json_error_t je;
		base[i] = json_loads(line, 0, &je);
		assert_non_null(base[i]);
	}
	assert_true(getline(&line, &cap, f) < 0);
	free(line);
	fclose(f);
	unlink(path);
}

static int setup_all(void **state)
{
	if (setup(state))
		return -1;
	write_base();
	return 0;
}

static int teardown_all(void **state)
{
	for (int i = 0; i < NLINES; i++)
		json_decref(base[i]);
	return teardown(state);
}

static char path[128]; /* the file read_with made last */

/* The base recording with line l (L_*) replaced by o (borrowed), read
 * whole: 0 and the item of line l (the header: recording_header's) in *it,
 * or -1 and the error in err. */
static int read_with(int l, const json_t *o, struct record_item *it, struct record_header *hdr,
		     char *err, size_t errlen)
{
	static int n;
	snprintf(path, sizeof(path), "%s/r%d.jsonl", dir, n++);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	for (int i = 0; i < NLINES; i++) {
		char *s = json_dumps(i == l ? o : base[i], JSON_COMPACT | JSON_REAL_PRECISION(17));
		assert_non_null(s);
		fprintf(f, "%s\n", s);
		free(s);
	}
	assert_int_equal(fclose(f), 0);
	int rc = -1;
	struct recording *r = recording_open(path, err, errlen);
	if (r) {
		if (hdr)
			*hdr = *recording_header(r);
		static struct record_item got;
		rc = 0;
		for (int i = 1; i < NLINES && rc == 0; i++) {
			int k = recording_next(r, &got, err, errlen);
			if (k != 1)
				rc = -1;
			else if (i == l)
				*it = got;
		}
		if (rc == 0 && recording_next(r, &got, err, errlen) != 0)
			rc = -1;
		recording_close(r);
	}
	unlink(path);
	return rc;
}

/* The object key of line l lives in: the line itself, or a sub-object
 * ("result.res" -> the result's "res"; "pcmap.src" -> its "src"). */
static json_t *holder(json_t *o, const char *line)
{
	const char *dot = strchr(line, '.');
	return dot ? json_object_get(o, dot + 1) : o;
}

static int line_of(const char *line)
{
	static const struct {
		const char *name;
		int l;
	} kinds[] = {{"header", L_HEADER}, {"sample", L_SAMPLE}, {"disk", L_SAMPLE},
		     {"pcmap", L_MAP},	   {"event", L_EVENT},	 {"result", L_RESULT}};
	for (size_t i = 0; i < ARRAY_LEN(kinds); i++)
		if (!strncmp(line, kinds[i].name, strlen(kinds[i].name)))
			return kinds[i].l;
	fail_msg("no line kind for %s", line);
	return -1;
}

/* A copy of line l with key (of `line`, a disk row's column for "disk")
 * set to v (stolen). */
static json_t *with_value(const char *line, const char *key, json_t *v)
{
	int l = line_of(line);
	json_t *o = json_deep_copy(base[l]);
	if (!strcmp(line, "disk")) {
		size_t c = 0;
		while (c < NDCOL && strcmp(record_disk_columns[c], key))
			c++;
		assert_true(c < NDCOL);
		json_array_set_new(json_object_get(json_object_get(o, "dk"), "vda"), c, v);
		return o;
	}
	json_t *h = holder(o, line);
	assert_non_null(h);
	if (json_is_array(json_object_get(h, key))) { /* a list of numbers: one */
		json_t *a = json_array();
		json_array_append_new(a, v);
		v = a;
	}
	json_object_set_new(h, key, v);
	if (!strncmp(line, "pcmap.", 6) && (!strcmp(key, "n") || !strcmp(key, "p"))) {
		/* n ranges of p pages: no column (all zero), n at most p */
		const char *cols[] = {"c", "d", "w", "e", "r"};
		for (size_t i = 0; i < ARRAY_LEN(cols); i++)
			json_object_del(h, cols[i]);
		if (!strcmp(key, "p"))
			json_object_set_new(h, "n", json_integer(1));
	}
	return o;
}

/* What the error must say (after "FILE:LINE: ") for the value text. */
static void want_error(char *buf, size_t len, const char *line, const char *key, const char *value,
		       const struct record_range *g)
{
	char kind[64], t[96];
	if (!strcmp(line, "disk"))
		snprintf(kind, sizeof(kind), "sample: device vda");
	else if (!strcmp(line, "result.res"))
		snprintf(kind, sizeof(kind), "result: res");
	else if (!strcmp(line, "result.probe"))
		snprintf(kind, sizeof(kind), "result: probe");
	else if (!strncmp(line, "pcmap.", 6))
		snprintf(kind, sizeof(kind), "pcmap: %s", line + 6);
	else if (!strcmp(line, "header.config"))
		snprintf(kind, sizeof(kind), "header: config");
	else
		snprintf(kind, sizeof(kind), "%s", line);
	record_range_text(g, t, sizeof(t));
	snprintf(buf, len, "%s: \"%s\": %s is out of range (%s)", kind, key, value, t);
}

static void expect_refused(const char *line, const char *key, json_t *v, const char *want)
{
	char err[600];
	static struct record_item it;
	char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	json_t *o = with_value(line, key, v);
	int rc = read_with(line_of(line), o, &it, NULL, err, sizeof(err));
	json_decref(o);
	if (rc == 0)
		fail_msg("%s \"%s\": %s was taken", line, key, text);
	char at[200]; /* FILE:LINE: the line the value is on */
	snprintf(at, sizeof(at), "%s:%d: ", path, line_of(line) + 1);
	if (strncmp(err, at, strlen(at)))
		fail_msg("%s \"%s\": %s: \"%s\" does not start \"%s\"", line, key, text, err, at);
	if (!strstr(err, want))
		fail_msg("%s \"%s\": %s: \"%s\" lacks \"%s\"", line, key, text, err, want);
	free(text);
}

/* Taken; a sample field is read back as it was (its member). */
static void expect_taken(const char *line, const char *key, json_t *v)
{
	char err[600];
	static struct record_item it;
	json_t *o = with_value(line, key, json_incref(v));
	int rc = read_with(line_of(line), o, &it, NULL, err, sizeof(err));
	json_decref(o);
	char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	if (rc != 0)
		fail_msg("%s \"%s\": %s refused: %s", line, key, text, err);
	for (size_t i = 0; !strcmp(line, "sample") && i < record_nfields; i++) {
		const struct field *f = &record_fields[i];
		if (strcmp(f->key, key))
			continue;
		const char *m = (const char *)&it.sample + f->off;
		uint64_t u64;
		uint32_t u32;
		uint8_t u8;
		float x;
		int same = 0;
		if (f->type == F_F32)
			memcpy(&x, m, sizeof(x)), same = x == (float)json_number_value(v);
		else if (f->type == F_U64)
			memcpy(&u64, m, sizeof(u64)), same = u64 == (uint64_t)json_integer_value(v);
		else if (f->type == F_U32)
			memcpy(&u32, m, sizeof(u32)), same = u32 == (uint32_t)json_integer_value(v);
		else
			memcpy(&u8, m, sizeof(u8)), same = u8 == (uint8_t)json_integer_value(v);
		if (!same)
			fail_msg("sample \"%s\": %s read back as another value", key, text);
	}
	free(text);
	json_decref(v);
}

/* One row: each bound taken, one past each refused (when there is a past
 * in the file's int64 / double), null and "inf" refused unless null_ok. */
static void try_range(const char *line, const char *key, const struct record_range *g)
{
	char want[300], n[64];
	if (g->real) {
		expect_taken(line, key, json_real(g->rlo));
		expect_taken(line, key, json_real(g->rhi));
		double below = nextafter(g->rlo, -INFINITY), above = nextafter(g->rhi, INFINITY);
		snprintf(n, sizeof(n), "%g", below);
		want_error(want, sizeof(want), line, key, n, g);
		expect_refused(line, key, json_real(below), want);
		snprintf(n, sizeof(n), "%g", above);
		want_error(want, sizeof(want), line, key, n, g);
		expect_refused(line, key, json_real(above), want);
		want_error(want, sizeof(want), line, key, "inf", g);
		expect_refused(line, key, json_string("inf"), want);
		if (g->null_ok)
			expect_taken(line, key, json_null());
		else
			expect_refused(line, key, json_null(), "null is not a value it can have");
		return;
	}
	expect_taken(line, key, json_integer(g->lo));
	expect_taken(line, key, json_integer(g->hi));
	if (g->lo > INT64_MIN) {
		snprintf(n, sizeof(n), "%lld", (long long)g->lo - 1);
		want_error(want, sizeof(want), line, key, n, g);
		expect_refused(line, key, json_integer(g->lo - 1), want);
	}
	if (g->hi < INT64_MAX) {
		snprintf(n, sizeof(n), "%lld", (long long)g->hi + 1);
		want_error(want, sizeof(want), line, key, n, g);
		expect_refused(line, key, json_integer(g->hi + 1), want);
	}
	if (g->pow2) { /* between two powers of two */
		snprintf(n, sizeof(n), "%lld", (long long)g->lo * 3);
		want_error(want, sizeof(want), line, key, n, g);
		expect_refused(line, key, json_integer(g->lo * 3), want);
		expect_taken(line, key, json_integer(g->lo * 2));
	}
	/* beyond an int64 is no integer for jansson: a real, refused */
	expect_refused(line, key, json_real(1e19), "not an integer");
}

/* Every sample field, each in a line whose have bits are all the format
 * knows (every group there), at and past each bound of its column. */
static void test_sample_fields(void **state)
{
	(void)state;
	for (size_t i = 0; i < record_nfields; i++)
		try_range("sample", record_fields[i].key, &record_fields[i].range);
}

/* Every other number: each row of record_key_ranges. */
static void test_key_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < record_nkey_ranges; i++) {
		const struct record_key_range *k = &record_key_ranges[i];
		if (!strcmp(k->key, "lrutop_record")) /* the version's own sentence */
			continue;
		if (!strcmp(k->line, "sample") && !strcmp(k->key, "ph")) {
			/* at most the header's phases (PHASE_COUNT here): past
			 * that, the list's range, past 127 the table's */
			char want[300];
			want_error(want, sizeof(want), "sample", "ph", "128", &k->range);
			expect_refused("sample", "ph", json_integer(128), want);
			expect_taken("sample", "ph", json_integer(0));
			expect_refused("sample", "ph", json_integer(-1), "out of range (0 to 127)");
			expect_refused("sample", "ph", json_integer(PHASE_COUNT),
				       "out of range (0 to");
			continue;
		}
		try_range(k->line, k->key, &k->range);
	}
	/* the version: 1 and nothing else */
	expect_refused("header", "lrutop_record", json_integer(2),
		       "recording format version 2 is not supported");
	expect_refused("header", "lrutop_record", json_integer(0),
		       "recording format version 0 is not supported");
}

/* The cases, written out: a table typo fails here too. */
static void test_literal_cases(void **state)
{
	(void)state;
	expect_refused("sample", "mf", json_integer(-5),
		       "sample: \"mf\": -5 is out of range (0 to 9223372036854775807)");
	expect_refused("sample", "pms", json_real(1e300),
		       "sample: \"pms\": 1e+300 is out of range (0 to 100)");
	expect_refused("sample", "pis", json_integer(-50),
		       "sample: \"pis\": -50 is out of range (0 to 100)");
	expect_taken("sample", "pis", json_real(100.0));
	expect_refused("sample", "iom", json_integer(3155760000000001LL),
		       "\"iom\": 3155760000000001 is out of range (0 to 3155760000000)");
	expect_refused("sample", "lgn", json_integer(5), "\"lgn\": 5 is out of range (0 to 4)");
	expect_refused("sample", "pcsm", json_integer(3), "\"pcsm\": 3 is out of range (0 to 2)");
	expect_taken("sample", "gli", json_integer(-1)); /* a limit of UINT64_MAX */
	expect_refused("sample", "t", json_integer(-1),
		       "sample: \"t\": -1 is out of range (0 to 3155760000000000000)");
	expect_refused("header", "interval_s", json_integer(0),
		       "header: \"interval_s\": 0 is out of range (0.05 to 60)");
	expect_refused("header", "interval_s", json_integer(-1),
		       "header: \"interval_s\": -1 is out of range (0.05 to 60)");
	expect_refused(
	    "header", "page_size", json_integer(0),
	    "header: \"page_size\": 0 is out of range (a power of two, 4096 to 1048576)");
	expect_refused("header", "page_size", json_integer(3), "\"page_size\": 3 is out of range");
	expect_taken("header", "page_size", json_integer(65536));
	expect_refused("header", "cpus", json_integer(0),
		       "header: \"cpus\": 0 is out of range (1 to 2147483647)");
	expect_refused("header", "mem_total_kb", json_integer(0),
		       "header: \"mem_total_kb\": 0 is out of range");
	expect_refused("header", "minor", json_integer(-1),
		       "header: \"minor\": -1 is out of range (0 to 2147483647)");
	expect_refused("header", "cgroup", json_integer(3),
		       "\"cgroup\": 3 is out of range (0 to 2)");
	expect_refused("header", "page_size", json_string("4096"),
		       "header: \"page_size\" missing or not an integer");
	expect_refused("result", "elapsed_s", json_real(1e308),
		       "result: \"elapsed_s\": 1e+308 is out of range (0 to 3.15576e+09)");
	expect_refused("result", "t_end_ns", json_integer(-1), "\"t_end_ns\": -1 is out of range");
	expect_refused("event", "run", json_integer(-1), "event: \"run\": -1 is out of range");
	expect_refused("disk", "in_flight", json_integer(-1),
		       "sample: device vda: \"in_flight\": -1 is out of range (0 to 4294967295)");
	expect_refused("disk", "rd_ios", json_integer(-1),
		       "sample: device vda: \"rd_ios\": -1 is out of range");
	/* the interval is -i's: the options' own bounds */
	const struct record_range *iv = record_range_of("header", "interval_s");
	assert_non_null(iv);
	assert_true(iv->rlo == INTERVAL_MIN && iv->rhi == INTERVAL_MAX);
	/* a CV's top: ceil(sqrt(a century / the shortest interval)) */
	const struct record_range *cv = record_range_of("result", "read_cv");
	assert_non_null(cv);
	assert_true(cv->rhi == ceil(sqrt(3155760000.0 / INTERVAL_MIN)));
}

/* docs/design.md §5: only an unknown major is refused.  A newer minor is read
 * with the fields this build knows (its new keys and lines skipped); a
 * figure the header does not say is not known (0), one it says must be in
 * range. */
static void test_header_minor_and_missing(void **state)
{
	(void)state;
	char err[600];
	static struct record_item it;
	struct record_header h;
	json_t *o = with_value("header", "minor", json_integer(99));
	json_object_set_new(o, "a_newer_key", json_integer(-5));
	assert_int_equal(read_with(L_HEADER, o, &it, &h, err, sizeof(err)), 0);
	json_decref(o);
	assert_int_equal(h.minor, 99);
	o = json_deep_copy(base[L_HEADER]);
	const char *keys[] = {"minor",	"page_size",  "cpus",	      "mem_total_kb",
			      "cgroup", "interval_s", "start_mono_ns"};
	for (size_t i = 0; i < ARRAY_LEN(keys); i++)
		json_object_del(o, keys[i]);
	if (read_with(L_HEADER, o, &it, &h, err, sizeof(err)) != 0)
		fail_msg("a header without its figures: %s", err);
	json_decref(o);
	assert_int_equal(h.page_size, 0);
	assert_int_equal(h.cpus, 0);
	assert_true(h.mem_total_kb == 0 && h.interval_s == 0 && h.minor == 0);
}

/* The numbers the writer emits, each line parsed by jansson: every one
 * has a range (a sample field's column or a row), every row a number the
 * writer emits, and each field's range fits its member. */
static void collect_numbers(json_t *o, const char *line, int *bad, int *seen)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v)
	{
		if (json_is_object(v) && strcmp(key, "dk")) {
			char sub[64];
			snprintf(sub, sizeof(sub), "%s.%s", line, key);
			collect_numbers(v, sub, bad, seen);
			continue;
		}
		/* a list of numbers ("sweep_values"): each in the key's range */
		if (json_is_array(v) && json_is_number(json_array_get(v, 0)))
			v = json_array_get(v, 0);
		if (!json_is_number(v) && !json_is_null(v))
			continue;
		const struct record_range *g = record_range_of(line, key);
		for (size_t i = 0; !g && !strcmp(line, "sample") && i < record_nfields; i++)
			if (!strcmp(record_fields[i].key, key))
				g = &record_fields[i].range;
		if (!g) {
			print_error("the writer emits %s \"%s\": no range for it\n", line, key);
			++*bad;
		}
		for (size_t i = 0; i < record_nkey_ranges; i++)
			if (!strcmp(record_key_ranges[i].line, line) &&
			    !strcmp(record_key_ranges[i].key, key))
				seen[i] = 1;
	}
}

static void test_every_number_has_a_range(void **state)
{
	(void)state;
	int bad = 0;
	int *seen = calloc(record_nkey_ranges, sizeof(int));
	assert_non_null(seen);
	collect_numbers(base[L_HEADER], "header", &bad, seen);
	collect_numbers(base[L_SAMPLE], "sample", &bad, seen);
	collect_numbers(base[L_MAP], "pcmap", &bad, seen);
	collect_numbers(base[L_EVENT], "event", &bad, seen);
	collect_numbers(base[L_RESULT], "result", &bad, seen);
	/* a disk row's columns, named by the header */
	for (size_t c = 0; c < NDCOL; c++) {
		if (!record_range_of("disk", record_disk_columns[c])) {
			print_error("disk column %s: no range\n", record_disk_columns[c]);
			bad++;
		}
		for (size_t i = 0; i < record_nkey_ranges; i++)
			if (!strcmp(record_key_ranges[i].line, "disk") &&
			    !strcmp(record_key_ranges[i].key, record_disk_columns[c]))
				seen[i] = 1;
	}
	for (size_t i = 0; i < record_nkey_ranges; i++)
		if (!seen[i]) {
			print_error("the range of %s \"%s\": the writer emits no such number\n",
				    record_key_ranges[i].line, record_key_ranges[i].key);
			bad++;
		}
	for (size_t i = 0; i < record_nfields; i++) {
		const struct field *f = &record_fields[i];
		const struct record_range *g = &f->range;
		int fits =
		    f->type == F_F32  ? g->real && g->rlo >= 0
		    : f->type == F_U8 ? !g->real && g->lo >= 0 && g->hi <= UINT8_MAX
		    : f->type == F_U32
			? !g->real && g->lo >= 0 && g->hi <= UINT32_MAX
			: !g->real && (g->lo >= 0 || (g->lo == INT64_MIN && g->hi == INT64_MAX));
		if (!fits) {
			print_error("sample field %s: its range does not fit its type\n", f->key);
			bad++;
		}
		for (size_t k = 0; k < i; k++)
			if (!strcmp(record_fields[k].key, f->key)) {
				print_error("sample field %s twice\n", f->key);
				bad++;
			}
	}
	for (size_t i = 0; i < record_nkey_ranges; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(record_key_ranges[i].line, record_key_ranges[k].line) &&
			    !strcmp(record_key_ranges[i].key, record_key_ranges[k].key)) {
				print_error("range row %s %s twice\n", record_key_ranges[i].line,
					    record_key_ranges[i].key);
				bad++;
			}
	free(seen);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_number_has_a_range),
	    cmocka_unit_test(test_literal_cases),
	    cmocka_unit_test(test_header_minor_and_missing),
	    cmocka_unit_test(test_sample_fields),
	    cmocka_unit_test(test_key_rows),
	};
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
