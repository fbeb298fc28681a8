/*
 * Tests for openmetrics (openmetrics.h): label values escaped as the text
 * formats want them, the table's names valid, the recording's start time
 * read, and the text's shape on real samples from the real sampler: every
 * family once and its lines together, one point a second per series (the
 * count is worked out here from the samples' own times), integer
 * timestamps, "# EOF" last; the text-file style without timestamps, units
 * or "# EOF"; a write error (/dev/full) reported.  promtool itself checks
 * the same text in tests/sh/openmetrics.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "output/openmetrics.h"
#include "model/phase.h"
#include "sampling/sampler.h"
#include "model/series.h"
#include "base/util.h"

#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static char *escaped(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	om_label_value(f, s);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_label_escaping(void **state)
{
	(void)state;
	char *e = escaped("a\\b\"c\nd\x01"
			  "e\x7f"
			  "f");
	assert_string_equal(e, "a\\\\b\\\"c\\nd?e?f");
	free(e);
	e = escaped("mm_sync_cp@m32M");
	assert_string_equal(e, "mm_sync_cp@m32M");
	free(e);
	e = escaped("");
	assert_true(!e || !e[0]);
	free(e);
}

static void test_names(void **state)
{
	(void)state;
	size_t n = 0;
	for (const char *name; (name = om_metric_name(n)); n++) {
		assert_true(om_name_valid(name));
		assert_int_equal(strncmp(name, "lrutop_", 7), 0);
	}
	assert_true(n > 40);
	assert_true(om_name_valid("a:b_1"));
	assert_true(om_name_valid("_x"));
	assert_false(om_name_valid(""));
	assert_false(om_name_valid("1a"));
	assert_false(om_name_valid("a-b"));
	assert_false(om_name_valid("a b"));
	assert_false(om_name_valid("lrutop_é"));
}

static void test_wall_parse(void **state)
{
	(void)state;
	assert_true(fabs(om_wall_parse("1970-01-01T00:00:01.5Z") - 1.5) < 1e-9);
	struct tm tm = {
	    .tm_year = 126, .tm_mon = 11, .tm_mday = 1, .tm_hour = 9, .tm_min = 10, .tm_sec = 42};
	double want = (double)timegm(&tm) + 0.123;
	assert_true(fabs(om_wall_parse("2026-12-01T09:10:42.123Z") - want) < 1e-6);
	assert_true(om_wall_parse("2026-12-01T09:10:42") < 0);
	assert_true(om_wall_parse("yesterday") < 0);
	assert_true(om_wall_parse("") < 0);
}

/* Real samples 50 ms apart: a run from the third to the seventh. */
static struct series *real_series(int n)
{
	char err[256];
	struct sampler *sm = sampler_new(NULL, err, sizeof err);
	assert_non_null(sm);
	struct series *ser = series_new((size_t)n);
	uint64_t next = mono_ns();
	for (int i = 0; i < n; i++) {
		while (mono_ns() < next)
			poll(NULL, 0, (int)((next - mono_ns()) / 1000000u) + 1);
		next += 50000000ull;
		struct sample s;
		sampler_read(sm, &s);
		s.run = (int16_t)(i >= 2 && i < 7 ? 0 : -1);
		s.phase = (int8_t)(s.run >= 0 ? PHASE_COPY : PHASE_IDLE);
		series_push(ser, &s);
	}
	sampler_free(sm);
	return ser;
}

static char *write_text(const struct om_input *in, enum om_style style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(om_write(f, in, style, NULL), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static size_t count(const char *text, const char *prefix)
{
	size_t n = 0, pl = strlen(prefix);
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		n += strncmp(l, prefix, pl) == 0;
		if (!strchr(l, '\n'))
			break;
	}
	return n;
}

static void two_runs(struct run_result runs[2], uint64_t t_end)
{
	memset(runs, 0, 2 * sizeof(runs[0]));
	for (int i = 0; i < 2; i++) {
		runs[i].finished = 1;
		runs[i].ok = 1;
		runs[i].repeat = 1;
		runs[i].elapsed_s = 1.5 + i;
		runs[i].bytes = 1u << 20;
		runs[i].bursts = 2;
		runs[i].read_cv = i ? NAN : 0.25;
		runs[i].inblock = (i + 1) * 2048; /* rd/cp 1 and 2 of the 1 MiB */
		runs[i].t_end_ns = t_end;
	}
	snprintf(runs[0].name, sizeof runs[0].name, "a\"b");
	snprintf(runs[1].name, sizeof runs[1].name, "rw_cp");
	/* --probe beside the first: 150 reads tell p50 and p99, not p99.9 */
	snprintf(runs[0].probe.mode, sizeof runs[0].probe.mode, "cold");
	runs[0].probe.n = 150;
	runs[0].probe.p50_ns = 250000;
	runs[0].probe.p99_ns = 4000000;
	runs[0].probe.p999_ns = 9000000;
	runs[0].probe.max_ns = 12000000;
}

static void test_export_shape(void **state)
{
	(void)state;
	struct series *ser = real_series(30);
	size_t n = series_len(ser);
	struct run_result runs[2];
	two_runs(runs, series_at(ser, n - 1)->t_ns);
	struct om_input in = {
	    .ser = ser,
	    .runs = runs,
	    .nruns = 2,
	    .host = "h\"x",
	    .session = "s1",
	    .kernel = "6.1",
	    .device = "vda",
	    .wall0_s = 1700000000.75,
	    .mono0_ns = series_at(ser, 0)->t_ns,
	};
	char *t = write_text(&in, OM_EXPORT);
	/* the seconds the samples fall in, worked out here */
	long seconds = 0, last = -1;
	for (size_t i = 0; i < n; i++) {
		long s =
		    (long)floor(in.wall0_s + (double)(series_at(ser, i)->t_ns - in.mono0_ns) / 1e9);
		seconds += s != last;
		last = s;
	}
	assert_true(seconds >= 2);
	assert_int_equal(count(t, "lrutop_memory_free_bytes{host=\"h\\\"x\",session=\"s1\"} "),
			 (size_t)seconds);
	assert_int_equal(count(t, "# TYPE lrutop_memory_free_bytes gauge"), 1);
	assert_int_equal(count(t, "# UNIT lrutop_memory_free_bytes bytes"), 1);
	assert_int_equal(count(t, "# TYPE lrutop_vmstat_pgscan_total counter"), 1);
	/* the run label and its escaped strategy; no NaN written */
	assert_int_equal(
	    count(t,
		  "lrutop_run_info{host=\"h\\\"x\",session=\"s1\",run=\"1\",strategy=\"a\\\"b\","),
	    1);
	assert_int_equal(count(t, "lrutop_run_read_cv_ratio{"), 1);
	/* rd/cp of both runs, in its family with the unit its name ends in */
	assert_int_equal(count(t, "# UNIT lrutop_run_read_copy_ratio ratio"), 1);
	assert_int_equal(count(t, "lrutop_run_read_copy_ratio{"), 2);
	assert_int_equal(
	    count(t, "lrutop_run_read_copy_ratio{host=\"h\\\"x\",session=\"s1\",run=\"2\","
		     "strategy=\"rw_cp\",mem_limit=\"\",disk_limit=\"\"} 2 "),
	    1);
	assert_int_equal(
	    count(t, "lrutop_bursts_total{host=\"h\\\"x\",session=\"s1\",strategy=\"rw_cp\"} 2 "),
	    1);
	assert_null(strstr(t, "lrutop_up")); /* the live file's, not a recording's */
	assert_null(strstr(t, "NaN"));
	assert_null(strstr(t, "nan"));
	/* every family once, its lines right after its header, in one block;
	 * each sample line ends in an integer timestamp, non-decreasing per
	 * series */
	char fam[128] = "", type[16] = "", seen[8192] = " ";
	char prev_series[512] = "";
	long prev_ts = 0;
	const char *l = t;
	for (; *l; l = strchr(l, '\n') + 1) {
		const char *nl = strchr(l, '\n');
		assert_non_null(nl);
		if (!strncmp(l, "# TYPE ", 7)) {
			assert_int_equal(sscanf(l + 7, "%127s %15s", fam, type), 2);
			char key[132];
			snprintf(key, sizeof key, " %s ", fam);
			assert_null(strstr(seen, key));
			strncat(seen, key + 1, sizeof(seen) - strlen(seen) - 1);
		} else if (l[0] != '#') {
			assert_int_equal(strncmp(l, fam, strlen(fam)), 0);
			const char *after = l + strlen(fam);
			if (!strcmp(type, "summary") && !strncmp(after, "_count", 6))
				after += 6; /* a summary's own suffix */
			assert_true(*after == '{' || *after == ' ');
			/* a quantile is a summary's label, nothing else's */
			if (strcmp(type, "summary"))
				assert_null(memmem(l, (size_t)(nl - l), "quantile=", 9));
			const char *sp = nl;
			while (sp > l && sp[-1] != ' ')
				sp--;
			char *end;
			long ts = strtol(sp, &end, 10);
			assert_ptr_equal(end, nl);
			const char *brace = strchr(l, '}');
			assert_non_null(brace);
			char series[512];
			snprintf(series, sizeof series, "%.*s", (int)(brace - l), l);
			if (!strcmp(series, prev_series))
				assert_true(ts >= prev_ts);
			snprintf(prev_series, sizeof prev_series, "%s", series);
			prev_ts = ts;
		}
		if (!strcmp(nl + 1, ""))
			break;
	}
	assert_string_equal(l, "# EOF\n");
	free(t);
	series_free(ser);
}

static void test_textfile_shape(void **state)
{
	(void)state;
	struct series *ser = real_series(3);
	struct run_result runs[2];
	two_runs(runs, 0);
	snprintf(runs[0].name, sizeof runs[0].name, "mm_sync_cp");
	struct om_input in = {.ser = ser,
			      .runs = runs,
			      .nruns = 2,
			      .host = "h",
			      .session = "s1",
			      .kernel = "6.1",
			      .device = "vda",
			      .mem_limit = 64u << 20,
			      .disk_limit = 1536u << 20,
			      .probe_reads = 7};
	char *t = write_text(&in, OM_TEXTFILE);
	assert_null(strstr(t, "# UNIT"));
	assert_null(strstr(t, "# EOF"));
#define HS "{host=\"h\",session=\"s1\""
	/* the newest sample only, no timestamp: NAME VALUE */
	assert_int_equal(count(t, "lrutop_up" HS "} 1\n"), 1);
	assert_int_equal(count(t, "lrutop_memory_free_bytes" HS "} "), 1);
	/* the third sample is in run 1 */
	assert_int_equal(count(t, "lrutop_run_current" HS "} 1\n"), 1);
	assert_int_equal(count(t, "lrutop_runs_total" HS ",strategy=\"rw_cp\"} 1\n"), 1);
	/* the limits as the options take them, exact: 1536M, not 1.5G */
	assert_int_equal(count(t, "lrutop_run_elapsed_seconds" HS ",run=\"2\",strategy=\"rw_cp\","
				  "mem_limit=\"64M\",disk_limit=\"1536M\"} 2.5\n"),
			 1);
	for (const char *l = t; *l; l = strchr(l, '\n') + 1) {
		if (l[0] != '#') {
			const char *nl = strchr(l, '\n'), *end = memchr(l, '}', (size_t)(nl - l));
			end = end ? end + 1 : strchr(l, ' ');
			assert_non_null(end);
			assert_int_equal(*end, ' ');
			assert_null(memchr(end + 1, ' ', (size_t)(nl - end - 1)));
		}
		if (!strchr(l, '\n')[1])
			break;
	}
	free(t);
	/* the file left at exit: lrutop_up 0, the runs and the machine's
	 * info, no value of the moment (it would be served as current) */
	in.ended = 1;
	t = write_text(&in, OM_TEXTFILE);
	assert_int_equal(count(t, "lrutop_up" HS "} 0\n"), 1);
	assert_int_equal(count(t, "lrutop_run_elapsed_seconds" HS ",run=\"2\","), 1);
	assert_int_equal(count(t, "lrutop_runs_total" HS ",strategy=\"rw_cp\"} 1\n"), 1);
	assert_int_equal(count(t, "lrutop_recording_info" HS ",kernel=\"6.1\""), 1);
	assert_null(strstr(t, "lrutop_memory_"));
	assert_null(strstr(t, "lrutop_run_current"));
	assert_null(strstr(t, "lrutop_probe_reads_total"));
	free(t);
	series_free(ser);
#undef HS
}

/* The probe's figures of a run are a summary (issue 26 finding 4: a
 * gauge with a "quantile" label, which promtool check metrics refuses):
 * the quantiles its reads tell, 1.0 the maximum, then _count, the reads,
 * a run's lines together; the export's and the text file's alike. */
static void test_probe_summary(void **state)
{
	(void)state;
	struct series *ser = real_series(2);
	struct run_result runs[2];
	two_runs(runs, series_at(ser, 1)->t_ns);
	runs[1].probe = runs[0].probe;
	runs[1].probe.n = 20; /* p50 only */
	struct om_input in = {.ser = ser,
			      .runs = runs,
			      .nruns = 2,
			      .host = "h",
			      .session = "s1",
			      .kernel = "6.1",
			      .device = "vda",
			      .wall0_s = 1700000000,
			      .mono0_ns = series_at(ser, 0)->t_ns};
	for (int style = 0; style < 2; style++) {
		char *t = write_text(&in, style ? OM_TEXTFILE : OM_EXPORT);
		const char *h = "host=\"h\",session=\"s1\",";
		char want[256];
		assert_int_equal(count(t, "# TYPE lrutop_run_probe_latency_seconds summary\n"), 1);
		assert_int_equal(count(t, "# TYPE lrutop_run_probe_latency_seconds gauge"), 0);
		snprintf(want, sizeof want,
			 "lrutop_run_probe_latency_seconds{%srun=\"1\",strategy=\"a\\\"b\","
			 "mem_limit=\"\",disk_limit=\"\",quantile=\"",
			 h);
		assert_int_equal(count(t, want), 3); /* 0.5, 0.99, 1.0: 150 reads tell no p99.9 */
		snprintf(want, sizeof want,
			 "lrutop_run_probe_latency_seconds{%srun=\"1\",strategy=\"a\\\"b\","
			 "mem_limit=\"\",disk_limit=\"\",quantile=\"1.0\"} 0.012",
			 h);
		assert_int_equal(count(t, want), 1);
		snprintf(want, sizeof want,
			 "lrutop_run_probe_latency_seconds_count{%srun=\"1\",strategy=\"a\\\"b\","
			 "mem_limit=\"\",disk_limit=\"\"} 150",
			 h);
		assert_int_equal(count(t, want), 1);
		snprintf(want, sizeof want,
			 "lrutop_run_probe_latency_seconds{%srun=\"2\",strategy=\"rw_cp\","
			 "mem_limit=\"\",disk_limit=\"\",quantile=",
			 h);
		assert_int_equal(count(t, want), 2); /* 0.5 and 1.0 of 20 reads */
		/* a run's points together: run 1's _count before run 2's first */
		snprintf(want, sizeof want, "lrutop_run_probe_latency_seconds_count{%srun=\"1\"",
			 h);
		const char *c1 = strstr(t, want);
		snprintf(want, sizeof want, "lrutop_run_probe_latency_seconds{%srun=\"2\"", h);
		const char *q2 = strstr(t, want);
		assert_true(c1 && q2 && c1 < q2);
		assert_null(strstr(t, "quantile=\"1\""));
		free(t);
	}
	series_free(ser);
}

/* A --sweep's runs in lrutop_run_info: each its own limit and the value
 * its sweep set, not the run log's one limit (issue 26 finding 3). */
static void test_run_info_sweep(void **state)
{
	(void)state;
	struct series *ser = real_series(2);
	struct run_result runs[2];
	two_runs(runs, series_at(ser, 1)->t_ns);
	for (int i = 0; i < 2; i++) {
		runs[i].sweep_param = 1; /* SWEEP_MEM_LIMIT */
		runs[i].sweep_value = (8u << 20) << i;
	}
	struct om_input in = {.ser = ser,
			      .runs = runs,
			      .nruns = 2,
			      .host = "h",
			      .session = "s1",
			      .kernel = "6.1",
			      .device = "vda",
			      .mem_limit = 16u << 20, /* the session's: the largest */
			      .disk_limit = 0};
	char *t = write_text(&in, OM_TEXTFILE);
	assert_int_equal(
	    count(t, "lrutop_run_info{host=\"h\",session=\"s1\",run=\"1\",strategy=\"a\\\"b\","
		     "mem_limit=\"8M\",disk_limit=\"\",repeat=\"1\",sweep=\"mem-limit=8388608\","),
	    1);
	assert_int_equal(
	    count(t,
		  "lrutop_run_info{host=\"h\",session=\"s1\",run=\"2\",strategy=\"rw_cp\","
		  "mem_limit=\"16M\",disk_limit=\"\",repeat=\"1\",sweep=\"mem-limit=16777216\","),
	    1);
	/* every run series says the run's own limit */
	assert_int_equal(count(t, "lrutop_run_elapsed_seconds{host=\"h\",session=\"s1\",run=\"1\","
				  "strategy=\"a\\\"b\",mem_limit=\"8M\",disk_limit=\"\"} 1.5\n"),
			 1);
	free(t);
	/* a run outside a sweep: the session's limit, no sweep label */
	runs[0].sweep_param = runs[1].sweep_param = 0;
	in.disk_limit = 30u << 20;
	t = write_text(&in, OM_TEXTFILE);
	assert_int_equal(
	    count(t, "lrutop_run_info{host=\"h\",session=\"s1\",run=\"1\","
		     "strategy=\"a\\\"b\",mem_limit=\"16M\",disk_limit=\"30M\",repeat=\"1\","
		     "kernel="),
	    1);
	assert_null(strstr(t, "sweep="));
	free(t);
	series_free(ser);
}

static void test_write_error(void **state)
{
	(void)state;
	FILE *f = fopen("/dev/full", "w");
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	struct series *ser = real_series(2);
	struct om_input in = {.ser = ser,
			      .host = "h",
			      .kernel = "k",
			      .device = "",
			      .wall0_s = 1e9,
			      .mono0_ns = series_at(ser, 0)->t_ns};
	assert_int_equal(om_write(f, &in, OM_EXPORT, NULL), -1);
	fclose(f);
	series_free(ser);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_label_escaping), cmocka_unit_test(test_names),
	    cmocka_unit_test(test_wall_parse),	   cmocka_unit_test(test_export_shape),
	    cmocka_unit_test(test_textfile_shape), cmocka_unit_test(test_probe_summary),
	    cmocka_unit_test(test_run_info_sweep), cmocka_unit_test(test_write_error),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
