/*
 * Tests for the compare source (source_compare.c) over real recording
 * files written with the recorder:
 *  - two recordings of rw_cp (two runs each, 10 samples each): the first
 *    step delivers all 20 samples in time order, B's first sample at least
 *    ten intervals after A's last; the run log holds four runs labelled
 *    "A rw_cp", "A rw_cp", "B rw_cp", "B rw_cp" whose copy starts are
 *    shifted with their samples; B's samples name B's runs (2, 3); every
 *    result is announced once; a second step says the end (-1).
 *  - the comparison is of the unprefixed label: one row rw_cp, 2 + 2 OK
 *    runs, B/A ratio 2 (B's runs took twice as long).
 *  - a recording without a finished run and a single recording are refused
 *    with a sentence, and nothing is delivered.
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
#include <unistd.h>

#include "model/compare.h"
#include "recording/record.h"
#include "model/runlog.h"
#include "source/source.h"
#include "runs/strategy.h"
#include "testutil.h"

#define N  10
#define DT 250000000ull

struct seen {
	int samples, results, disorder;
	uint64_t t[2 * N];
	int run[2 * N];
};

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct seen *k = ctx;
	if (k->samples && s->t_ns <= k->t[k->samples - 1])
		k->disorder++;
	if (k->samples < 2 * N) {
		k->t[k->samples] = s->t_ns;
		k->run[k->samples] = s->run;
	}
	k->samples++;
}
static void on_result(void *ctx, const struct run_result *r)
{
	(void)r;
	((struct seen *)ctx)->results++;
}

static char dir[64], pa[128], pb[128], pm[128];

/* N samples from t0; two rw_cp runs of elapsed secs (samples 1-4, 5-8),
 * or none (runs 0). */
static void write_recording(const char *path, uint64_t t0, double secs, int runs)
{
	struct record_header h;
	char err[512];
	record_header_init(&h);
	strcpy(h.version, "test");
	strcpy(h.kernel, "6.18.44");
	h.interval_s = 0.25;
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);
	for (int i = 0; i < N; i++) {
		struct sample s;
		memset(&s, 0, sizeof(s));
		s.t_ns = t0 + (uint64_t)i * DT;
		s.have = SAMPLE_HAVE_MEM;
		s.mem_total = 1000;
		int run = !runs ? -1 : i >= 1 && i <= 4 ? 0 : i >= 5 && i <= 8 ? 1 : -1;
		s.run = (int16_t)run;
		assert_int_equal(recorder_sample(r, &s, NULL, err, sizeof(err)), 0);
		if (runs && (i == 1 || i == 5)) {
			struct run_event e = {
			    .t_ns = s.t_ns + 1, .run = (int16_t)run, .phase = PHASE_COPY};
			assert_int_equal(recorder_event(r, &e, err, sizeof(err)), 0);
		}
		if (runs && (i == 4 || i == 8)) {
			struct run_event e = {
			    .t_ns = s.t_ns + 1, .run = (int16_t)run, .phase = PHASE_IDLE};
			assert_int_equal(recorder_event(r, &e, err, sizeof(err)), 0);
			struct run_result res;
			memset(&res, 0, sizeof(res));
			snprintf(res.strategy, sizeof(res.strategy), "rw_cp");
			res.cmd = -1;
			strcpy(res.name, "rw_cp");
			res.repeat = run + 1;
			res.finished = res.ok = 1;
			res.verified = -1;
			res.bytes = 1 << 20;
			res.elapsed_s = secs;
			res.mbs = 1.0 / secs;
			res.t_start_ns = res.t_copy_ns = t0 + (uint64_t)(i - 3) * DT + 1;
			res.t_end_ns = e.t_ns;
			assert_int_equal(recorder_result(r, &res, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tu_tmpdir(dir, sizeof(dir), "cmpsrc"), 0);
	snprintf(pa, sizeof(pa), "%s/a.jsonl", dir);
	snprintf(pb, sizeof(pb), "%s/b.jsonl", dir);
	snprintf(pm, sizeof(pm), "%s/m.jsonl", dir);
	/* B was recorded earlier on its own clock: the shift must not care */
	write_recording(pa, 50000000000ull, 1.0, 1);
	write_recording(pb, 1000000000ull, 2.0, 1);
	write_recording(pm, 1000000000ull, 1.0, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tu_rmtree(dir);
}

static void test_two(void **state)
{
	(void)state;
	struct seen k;
	memset(&k, 0, sizeof(k));
	struct source_sink sink = {.ctx = &k, .sample = on_sample, .result = on_result};
	struct runlog *log = runlog_new();
	char err[512] = "";
	const char *paths[] = {pa, pb};
	struct source *src = source_compare_new(paths, 2, log, &sink, NULL, err, sizeof(err));
	assert_non_null(src);
	assert_true(source_is_compare(src));
	assert_int_equal(source_compare_samples(src), 2 * N);
	assert_true(fabs(source_compare_interval(src) - 0.25) < 1e-9);
	assert_int_equal(k.samples, 0); /* nothing before the first step */
	assert_int_equal(source_step(src), 0);
	assert_int_equal(k.samples, 2 * N);
	assert_int_equal(k.disorder, 0);
	assert_int_equal(k.results, 4);
	/* B starts ten intervals after A's last sample */
	assert_true(k.t[N] >= k.t[N - 1] + 10 * DT);
	assert_int_equal(log->nresults, 4);
	assert_string_equal(log->results[0].name, "A rw_cp");
	assert_string_equal(log->results[1].name, "A rw_cp");
	assert_string_equal(log->results[2].name, "B rw_cp");
	assert_string_equal(log->results[3].name, "B rw_cp");
	/* B's samples name B's runs, and B's copies start among them */
	assert_int_equal(k.run[N + 1], 2);
	assert_int_equal(k.run[N + 5], 3);
	assert_int_equal(k.run[N], -1);
	assert_true(log->results[2].t_copy_ns > k.t[N] && log->results[2].t_copy_ns < k.t[N + 2]);
	assert_true(log->results[0].t_copy_ns > k.t[0] && log->results[0].t_copy_ns < k.t[2]);
	assert_int_equal(log->nevents, 8);
	assert_int_equal(log->events[4].run, 2);
	struct run_progress p;
	source_progress(src, &p);
	assert_int_equal(p.state, RUNS_FINISHED);
	/* the comparison is of the recordings' own labels */
	const struct compare *c = source_compare_result(src);
	assert_non_null(c);
	assert_int_equal(c->nrec, 2);
	assert_int_equal(c->nrows, 1);
	assert_string_equal(c->rows[0].name, "rw_cp");
	assert_int_equal(c->rows[0].cell[0].ok, 2);
	assert_int_equal(c->rows[0].cell[1].ok, 2);
	assert_true(fabs(c->rows[0].cell[1].ratio - 2.0) < 1e-9);
	assert_non_null(strstr(c->label[0], "a.jsonl"));
	assert_non_null(strstr(c->label[1], "b.jsonl"));
	assert_null(source_compare_warning(src));
	/* the end */
	assert_int_equal(source_step(src), -1);
	assert_int_equal(k.samples, 2 * N);
	source_free(src);
	runlog_free(log);
}

static void test_refused(void **state)
{
	(void)state;
	struct seen k;
	memset(&k, 0, sizeof(k));
	struct source_sink sink = {.ctx = &k, .sample = on_sample, .result = on_result};
	struct runlog *log = runlog_new();
	char err[512] = "";
	const char *paths[] = {pa, pm};
	assert_null(source_compare_new(paths, 2, log, &sink, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "m.jsonl: no finished run"));
	err[0] = '\0';
	assert_null(source_compare_new(paths, 1, log, &sink, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "needs 2 to"));
	assert_int_equal(k.samples, 0);
	assert_int_equal(log->nresults, 0);
	runlog_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_two),
	    cmocka_unit_test(test_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
