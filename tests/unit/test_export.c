/*
 * export: --export-svg, --export-csv and --compare over recordings written
 * by the record module from this machine's real samples (sampler_read of
 * /proc), with runs laid over them as a session would record them.  What
 * is checked: a recording loads whole through the replay source; OUT is
 * made new and never overwrites, nothing is created for an input that
 * does not do, a write that fails (RLIMIT_FSIZE) removes OUT again; the
 * CSV is byte for byte what --csv's rows give for the same samples; a
 * comparison tells a slower recording from an equal one.  The options of
 * these modes are parsed here too.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/export.h"
#include "app/options.h"
#include "optparse.h"
#include "output/output.h"
#include "recording/record.h"
#include "sampling/sampler.h"
#include "runs/strategy.h"
#include "testutil.h"
#include "base/util.h"

TU_TMPDIR_SUITE("export")

static void tpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static int exists(const char *p)
{
	struct stat st;
	return lstat(p, &st) == 0;
}

#define NSAMPLES 24

/* The samples of the recordings: real ones, read once. */
static struct sample real[NSAMPLES];
static struct disktab real_disks;

static void read_real(void)
{
	static int done;
	if (done)
		return;
	char err[256];
	struct sampler *sm = sampler_new("", err, sizeof(err));
	assert_non_null(sm);
	for (int i = 0; i < NSAMPLES; i++) {
		assert_int_equal(sampler_read(sm, &real[i]), 0);
		/* back to back they can share a timestamp's microsecond; a
		 * recording wants them apart, a tick as the live loop takes */
		real[i].t_ns = real[0].t_ns + (uint64_t)i * 250000000ull;
	}
	assert_int_equal(sampler_read_disks(sm, &real_disks), 0);
	sampler_free(sm);
	done = 1;
}

/* Writes a recording of NSAMPLES real samples and nruns runs of
 * strategy name, the i-th taking elapsed[i] s: run k starts at sample 6k
 * (prepare, copy, flush, done at 6k+1..6k+4, the end event at 6k+4, its
 * result after it), one after the other. */
static void write_recording(const char *path, const char *name, int nruns, const double *elapsed)
{
	read_real();
	struct record_header h;
	record_header_init(&h);
	strcpy(h.version, "0.1.0-test");
	strcpy(h.device, "vda");
	strcpy(h.device_how, "test");
	h.interval_s = 0.25;
	static char *argv[] = {"lrutop", "--batch", "-s", "rw_cp"};
	h.argc = 4;
	h.argv = argv;
	char err[400];
	struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(w);
	const struct strategy *st = strategy_find(name);
	assert_non_null(st);
	uint8_t st_i = 0;
	for (size_t i = 0; i < strategy_count(); i++)
		if (strategy_at(i) == st)
			st_i = (uint8_t)i;
	for (int i = 0; i < NSAMPLES; i++) {
		struct sample s = real[i];
		int run = i / 6 < nruns && i % 6 >= 1 && i % 6 <= 4 ? i / 6 : -1;
		s.run = (int16_t)run;
		s.phase = run < 0 ? PHASE_IDLE : (int8_t)(i % 6);
		s.strategy = st_i;
		assert_int_equal(
		    recorder_sample(w, &s, i == 0 ? &real_disks : NULL, err, sizeof(err)), 0);
		if (i / 6 < nruns && i % 6 < 5) {
			struct run_event e = {.t_ns = s.t_ns,
					      .run = (int16_t)(i / 6),
					      .phase =
						  (int8_t)(i % 6 + 1 < 5 ? i % 6 + 1 : PHASE_IDLE)};
			assert_int_equal(recorder_event(w, &e, err, sizeof(err)), 0);
		}
		if (i / 6 < nruns && i % 6 == 4) {
			struct run_result r = {.cmd = -1,
					       .repeat = i / 6 + 1,
					       .finished = 1,
					       .ok = 1,
					       .verified = 1};
			snprintf(r.strategy, sizeof(r.strategy), "%s", st->name);
			strcpy(r.name, name);
			r.elapsed_s = elapsed[i / 6];
			r.bytes = 32u << 20;
			r.mbs = 32 / r.elapsed_s;
			r.t_start_ns = real[i - 4].t_ns;
			r.t_copy_ns = real[i - 3].t_ns;
			r.t_end_ns = s.t_ns;
			assert_int_equal(recorder_result(w, &r, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
}

static void test_options(void **state)
{
	(void)state;
	struct options o;
	char err[400];
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--export-svg", "o.svg", "r.jsonl",
				  "--view", "runs", "--run", "2", "--size", "1280x720", "-t",
				  "light", NULL),
			 0);
	assert_int_equal(o.action, OPTA_EXPORT_SVG);
	assert_string_equal(o.export_out, "o.svg");
	assert_int_equal(o.ninputs, 1);
	assert_string_equal(o.inputs[0], "r.jsonl");
	assert_int_equal(o.svg_runs, 1);
	assert_int_equal(o.run, 2);
	assert_int_equal(o.svg_w, 1280);
	assert_int_equal(o.svg_h, 720);
	assert_int_equal(o.size, 0); /* not a scratch size */
	assert_string_equal(o.theme, "light");

	/* --size before --export-svg is still the picture's */
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--size", "640x480", "--from", "1:30",
				  "--to", "100.5", "--export-svg", "o.svg", "r", NULL),
			 0);
	assert_int_equal(o.svg_w, 640);
	assert_true(o.from_s == 90.0 && o.to_s == 100.5);

	assert_int_equal(
	    tu_parse(&o, err, sizeof(err), "--compare", "a", "b", "c", "--batch", NULL), 0);
	assert_int_equal(o.action, OPTA_COMPARE);
	assert_int_equal(o.ninputs, 3);
	assert_string_equal(o.inputs[2], "c");

	assert_int_equal(tu_parse(&o, err, sizeof(err), "--export-csv", "o.csv", "r", NULL), 0);
	assert_int_equal(o.action, OPTA_EXPORT_CSV);

	/* the run option keeps its meaning without an export */
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--size", "64M", "-s", "rw_cp", NULL), 0);
	assert_int_equal(o.size, 64u << 20);

	static const struct {
		const char *a[10], *msg;
	} bad[] = {
	    {{"--export-svg", "o.svg"}, "--export-svg o.svg: needs the recording"},
	    {{"--export-svg", "o.svg", "a", "b"}, "b: unexpected argument"},
	    {{"--export-svg", "o.svg", "a", "-s", "rw_cp"}, "--export-svg: -s does not go with it"},
	    {{"--export-svg", "o.svg", "a", "--size", "1920"}, "--size 1920: not WIDTHxHEIGHT"},
	    {{"--export-svg", "o.svg", "a", "--size", "100x100"}, "--size 100x100: out of range"},
	    {{"--export-svg", "o.svg", "a", "--size", "1920x1080x"}, "not WIDTHxHEIGHT"},
	    {{"--export-svg", "o.svg", "a", "--run", "0"}, "--run 0: must be at least 1"},
	    {{"--export-svg", "o.svg", "a", "--run", "1", "--to", "3"}, "--run 1: not with --from"},
	    {{"--export-svg", "o.svg", "a", "--from", "5", "--to", "2"},
	     "--to 2: not after --from"},
	    {{"--export-svg", "o.svg", "a", "--from", "-1"}, "--from -1: not a time"},
	    {{"--export-svg", "o.svg", "a", "--from", "1:60"}, "--from 1:60: not a time"},
	    {{"--export-svg", "o.svg", "a", "--view", "runs", "--from", "1"},
	     "only for the Overview"},
	    {{"--export-svg", "o.svg", "a", "--view", "iostat"}, "--view iostat: not a view"},
	    {{"--export-svg", "", "a"}, "--export-svg: empty file name"},
	    {{"--export-svg", "o", "a", "--export-csv", "p"},
	     "--export-csv: not with --export-svg"},
	    {{"--export-csv", "o", "a", "--view", "runs"}, "--view: only with --export-svg"},
	    {{"--export-csv", "o", "a", "--size", "640x480"}, "--size: only with --export-svg"},
	    {{"--compare", "a"}, "--compare a: needs at least two recordings"},
	    {{"--compare", "a", "b", "-i", "1"}, "--compare: -i does not go with it"},
	    {{"--compare", "1", "2", "3", "4", "5", "6", "7", "8", "9"}, "at most 8 recordings"},
	    {{"--view", "runs"}, "--view: only with --export-svg"},
	    {{"-s", "rw_cp", "--size", "1920x1080"}, "only with --export-svg (a run's --size"},
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		const char *const *a = bad[i].a;
		err[0] = '\0';
		int rc = tu_parse(&o, err, sizeof(err), a[0], a[1], a[2], a[3], a[4], a[5], a[6],
				  a[7], a[8], a[9], NULL);
		if (rc != -1 || !strstr(err, bad[i].msg))
			fail_msg("case %zu (%s %s ...): rc %d, err '%s', want '%s'", i, a[0], a[1],
				 rc, err, bad[i].msg);
	}
}

static void test_load(void **state)
{
	(void)state;
	char path[128], warn[256], err[400];
	tpath(path, sizeof(path), "load.jsonl");
	double el[3] = {1.0, 1.1, 0.9};
	write_recording(path, "rw_cp", 3, el);
	struct rec_load r;
	assert_int_equal(rec_load_read(&r, path, NULL, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_string_equal(warn, "");
	assert_int_equal(series_len(r.ser), NSAMPLES);
	assert_true(series_at(r.ser, 0)->t_ns == real[0].t_ns);
	assert_true(series_at(r.ser, NSAMPLES - 1)->mem_free == real[NSAMPLES - 1].mem_free);
	assert_int_equal(r.log->nresults, 3);
	assert_string_equal(r.log->results[2].name, "rw_cp");
	assert_true(r.log->results[1].elapsed_s == 1.1);
	assert_int_equal(r.log->nevents, 3 * 5);
	assert_string_equal(r.hdr.device, "vda");
	assert_null(r.hdr.argv);
	rec_load_done(&r);
	rec_load_done(NULL);

	/* not a recording, missing: -1 and a sentence naming the file */
	assert_int_equal(
	    rec_load_read(&r, "/etc/hostname", NULL, warn, sizeof(warn), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "/etc/hostname"));
	tpath(path, sizeof(path), "missing.jsonl");
	assert_int_equal(rec_load_read(&r, path, NULL, warn, sizeof(warn), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "missing.jsonl"));

	/* a cut last line: the prefix loads, with the reader's warning */
	char cut[128];
	tpath(path, sizeof(path), "load.jsonl");
	tpath(cut, sizeof(cut), "cut.jsonl");
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "head -c $(( $(stat -c %%s '%s') - 7 )) '%s' > '%s'", path, path,
		 cut);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(rec_load_read(&r, cut, NULL, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_non_null(strstr(warn, "truncated"));
	rec_load_done(&r);
}

/* What main hands an export: the options' part it reads. */
#define REQ(o) req_of(o)
static const struct export_req *req_of(const struct options *o)
{
	static struct export_req r;
	r = options_export_req(o);
	return &r;
}

static void svg_opts(struct options *o, const char *out, const char *in)
{
	options_init(o);
	o->action = OPTA_EXPORT_SVG;
	o->export_out = out;
	o->inputs[0] = in;
	o->ninputs = 1;
}

static char *slurp(const char *p)
{
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	static char buf[1 << 20];
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_svg(void **state)
{
	(void)state;
	char rec[128], out[128], warn[256], err[400];
	tpath(rec, sizeof(rec), "svg.jsonl");
	double el[2] = {1.0, 1.2};
	write_recording(rec, "mm_sync_cp", 2, el);
	struct options o;

	tpath(out, sizeof(out), "o.svg");
	svg_opts(&o, out, rec);
	assert_int_equal(export_svg(REQ(&o), warn, sizeof(warn), err, sizeof(err)), 0);
	char *s = slurp(out);
	assert_non_null(strstr(s, "<svg"));
	assert_non_null(strstr(s, "</svg>"));
	assert_non_null(strstr(s, "mm_sync_cp"));
	assert_non_null(strstr(s, "width=\"1920\""));

	/* never overwritten: the same OUT again is refused, the file kept */
	char before[64], after[64];
	snprintf(before, sizeof(before), "%zu", strlen(s));
	assert_int_equal(export_svg(REQ(&o), warn, sizeof(warn), err, sizeof(err)), EXPORT_INPUT);
	assert_non_null(strstr(err, "already exists"));
	snprintf(after, sizeof(after), "%zu", strlen(slurp(out)));
	assert_string_equal(before, after);

	/* the Runs view of one run, at another size */
	tpath(out, sizeof(out), "runs.svg");
	svg_opts(&o, out, rec);
	o.svg_runs = 1;
	o.run = 2;
	o.svg_w = 1280;
	o.svg_h = 720;
	assert_int_equal(export_svg(REQ(&o), warn, sizeof(warn), err, sizeof(err)), 0);
	assert_non_null(strstr(slurp(out), "width=\"1280\""));

	/* inputs that do not do: nothing is created */
	tpath(out, sizeof(out), "bad.svg");
	struct {
		long run;
		double from;
		const char *theme, *msg;
	} bad[] = {
	    {3, -1, NULL, "--run 3: "},
	    {0, 1000, NULL, "--from 1000: past the end"},
	    {0, -1, "dark", "-t dark: no such theme"},
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		svg_opts(&o, out, rec);
		o.run = bad[i].run;
		o.from_s = bad[i].from;
		o.theme = bad[i].theme;
		assert_int_equal(export_svg(REQ(&o), warn, sizeof(warn), err, sizeof(err)),
				 EXPORT_INPUT);
		if (!strstr(err, bad[i].msg))
			fail_msg("case %zu: '%s', want '%s'", i, err, bad[i].msg);
		assert_false(exists(out));
	}

	/* a write that fails (the file size limit) removes OUT again */
	struct rlimit old, lim;
	getrlimit(RLIMIT_FSIZE, &old);
	lim = old;
	lim.rlim_cur = 4096;
	signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	svg_opts(&o, out, rec);
	int rc = export_svg(REQ(&o), warn, sizeof(warn), err, sizeof(err));
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	assert_int_equal(rc, EXPORT_WRITE);
	assert_non_null(strstr(err, "write error"));
	assert_false(exists(out));
}

static void test_csv(void **state)
{
	(void)state;
	char rec[128], out[128], want[128], warn[256], err[400];
	tpath(rec, sizeof(rec), "csv.jsonl");
	double el[1] = {1.0};
	write_recording(rec, "rw_cp", 1, el);
	struct options o;
	options_init(&o);
	o.action = OPTA_EXPORT_CSV;
	tpath(out, sizeof(out), "o.csv");
	o.export_out = out;
	o.inputs[0] = rec;
	o.ninputs = 1;
	assert_int_equal(export_csv(REQ(&o), warn, sizeof(warn), err, sizeof(err)), 0);
	/* what --csv writes live for these samples, row by row as app.c does */
	tpath(want, sizeof(want), "want.csv");
	FILE *f = fopen(want, "w");
	assert_non_null(f);
	csv_header(f);
	for (int i = 0; i < NSAMPLES; i++) {
		struct sample s = real[i], p = real[i ? i - 1 : 0];
		int run = i / 6 < 1 && i % 6 >= 1 && i % 6 <= 4 ? 0 : -1;
		s.run = (int16_t)run;
		s.phase = run < 0 ? PHASE_IDLE : (int8_t)(i % 6);
		csv_row(f, i ? &p : NULL, &s, real[0].t_ns, run >= 0 ? "rw_cp" : NULL);
	}
	fclose(f);
	assert_true(tu_files_equal(out, want));
	assert_int_equal(export_csv(REQ(&o), warn, sizeof(warn), err, sizeof(err)), EXPORT_INPUT);
	assert_non_null(strstr(err, "already exists"));
}

static int compare_to(const char *a, const char *b, char *buf, size_t len, char *err, size_t errlen)
{
	struct options o;
	options_init(&o);
	o.action = OPTA_COMPARE;
	o.inputs[0] = a;
	o.inputs[1] = b;
	o.ninputs = 2;
	char warn[256];
	FILE *f = fmemopen(buf, len, "w");
	assert_non_null(f);
	int rc = export_compare(f, REQ(&o), warn, sizeof(warn), err, errlen);
	fclose(f);
	return rc;
}

static void test_compare(void **state)
{
	(void)state;
	char a[128], b[128], one[128], err[400];
	static char out[1 << 16];
	tpath(a, sizeof(a), "a.jsonl");
	tpath(b, sizeof(b), "b.jsonl");
	tpath(one, sizeof(one), "one.jsonl");
	double ea[3] = {1.0, 1.05, 0.95}, eb[3] = {2.0, 2.1, 1.9}, e1[1] = {1.0};
	write_recording(a, "rw_cp", 3, ea);
	write_recording(b, "rw_cp", 3, eb);
	write_recording(one, "rw_cp", 1, e1);

	memset(out, 0, sizeof(out));
	assert_int_equal(compare_to(a, b, out, sizeof(out), err, sizeof(err)), 0);
	assert_non_null(strstr(out, "(a.jsonl)"));
	assert_non_null(strstr(out, "(b.jsonl)"));
	assert_non_null(strstr(out, "B slower"));
	assert_non_null(strstr(out, "2.00")); /* the ratio of the medians */

	memset(out, 0, sizeof(out));
	assert_int_equal(compare_to(a, a, out, sizeof(out), err, sizeof(err)), 0);
	assert_non_null(strstr(out, "no significant difference"));

	/* one run each: a note, not a crash */
	memset(out, 0, sizeof(out));
	assert_int_equal(compare_to(one, one, out, sizeof(out), err, sizeof(err)), 0);
	assert_non_null(strstr(out, "one run each"));

	/* a file that is not a recording, or missing: the input error */
	assert_int_equal(compare_to(a, "/etc/hostname", out, sizeof(out), err, sizeof(err)),
			 EXPORT_INPUT);
	assert_non_null(strstr(err, "/etc/hostname"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options), cmocka_unit_test(test_load),
	    cmocka_unit_test(test_svg),	    cmocka_unit_test(test_csv),
	    cmocka_unit_test(test_compare),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
