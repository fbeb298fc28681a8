/*
 * Tests for the replay source (source_replay.c) over a real recording file
 * written with the recorder:
 *  - played to the end at full speed, the sink gets every sample (with its
 *    disk table), the events and the result in the written order, the run
 *    log holds the run under its recorded name and the progress says
 *    finished; a further step says the end (-1).
 *  - a backward seek resets the sink once, empties the run log and
 *    delivers exactly the samples and events up to the new position; a
 *    forward seek adds without a reset; the progress follows (running in
 *    the copy phase, then idle after the run's end).
 *  - ] / [ find the sample an event was written after; index_at maps
 *    seconds to the first sample at or after them.
 *  - the pace: at speed 16 the timerfd becomes readable within a deadline
 *    (polled, no sleep), paused it stays silent.
 *  - a header-only recording and a missing file are refused with the path.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recording/record.h"
#include "model/runlog.h"
#include "source/source.h"
#include "runs/strategy.h"
#include "testutil.h"

#define N 10
#define T0 1000000000ull
#define DT 250000000ull

struct seen {
	int samples, with_disks, events, results, resets;
	uint64_t last_t;
	char order[64]; /* s e r, in delivery order */
	size_t olen;
};

static void add(struct seen *k, char c)
{
	if (k->olen + 1 < sizeof(k->order))
		k->order[k->olen++] = c;
}
static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct seen *k = ctx;
	k->samples++;
	k->with_disks += t != NULL;
	k->last_t = s->t_ns;
	add(k, 's');
}
static void on_event(void *ctx, const struct run_event *e)
{
	(void)e;
	((struct seen *)ctx)->events++;
	add(ctx, 'e');
}
static void on_result(void *ctx, const struct run_result *r)
{
	(void)r;
	((struct seen *)ctx)->results++;
	add(ctx, 'r');
}
static void on_reset(void *ctx)
{
	struct seen *k = ctx;
	k->resets++;
	k->samples = k->events = k->results = 0;
	k->olen = 0;
}

static char dir[64], path[128];

/* 10 samples; run 0: prepare after sample 3, copy after 5, its end and
 * result after 8. */
/* The run's label (a --disk-limit run is "rw_cp@32M"). */
static const char *label = "rw_cp";

static void write_recording(void)
{
	struct record_header h;
	char err[512];
	record_header_init(&h);
	strcpy(h.version, "test");
	h.interval_s = 0.25;
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);
	struct disktab tab;
	memset(&tab, 0, sizeof(tab));
	tab.n = 1;
	strcpy(tab.dev[0].name, "vda");
	tab.dev[0].is_disk = 1;
	for (int i = 0; i < N; i++) {
		struct sample s;
		memset(&s, 0, sizeof(s));
		s.t_ns = T0 + (uint64_t)i * DT;
		s.have = SAMPLE_HAVE_MEM;
		s.mem_total = 1000;
		s.run = i > 3 && i <= 8 ? 0 : -1;
		tab.t_ns = s.t_ns;
		tab.dev[0].rd_ios = (uint64_t)i;
		assert_int_equal(recorder_sample(r, &s, &tab, err, sizeof(err)), 0);
		struct run_event e = {.t_ns = s.t_ns + 1000000, .run = 0};
		if (i == 3)
			e.phase = PHASE_PREPARE;
		else if (i == 5)
			e.phase = PHASE_COPY;
		else if (i == 8)
			e.phase = PHASE_IDLE;
		if (i == 3 || i == 5 || i == 8)
			assert_int_equal(recorder_event(r, &e, err, sizeof(err)), 0);
		if (i == 8) {
			struct run_result res;
			memset(&res, 0, sizeof(res));
			snprintf(res.strategy, sizeof(res.strategy), "rw_cp");
			res.cmd = -1;
			snprintf(res.name, sizeof(res.name), "%s", label);
			res.repeat = 1;
			res.finished = res.ok = 1;
			res.verified = 1;
			res.bytes = 1 << 20;
			res.t_start_ns = T0 + 3 * DT + 1000000;
			res.t_end_ns = e.t_ns;
			assert_int_equal(recorder_result(r, &res, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tu_tmpdir(dir, sizeof(dir), "replay"), 0);
	snprintf(path, sizeof(path), "%s/r.jsonl", dir);
	write_recording();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tu_rmtree(dir);
}

static struct source *open_replay(double speed, struct runlog *log, struct seen *k)
{
	struct source_sink sink = {
	    .ctx = k, .sample = on_sample, .event = on_event, .result = on_result, .reset = on_reset,
	};
	char err[512];
	struct source *src = source_replay_new(path, speed, log, &sink, NULL, err, sizeof(err));
	assert_non_null(src);
	return src;
}

static void test_play_to_end(void **state)
{
	(void)state;
	struct runlog *log = runlog_new();
	struct seen k = {0};
	struct source *src = open_replay(0, log, &k);
	assert_true(source_is_replay(src));
	assert_null(source_replay_warning(src));
	struct run_progress p;
	source_progress(src, &p);
	assert_int_equal(p.state, RUNS_IDLE);
	int steps = 0;
	while (source_step(src) == 0)
		steps++;
	assert_int_equal(steps, N);
	assert_int_equal(k.samples, N);
	assert_int_equal(k.with_disks, N);
	assert_int_equal(k.events, 3);
	assert_int_equal(k.results, 1);
	k.order[k.olen] = '\0';
	assert_string_equal(k.order, "ssssessesssers");
	assert_int_equal(log->nresults, 1);
	assert_string_equal(log->results[0].name, "rw_cp");
	assert_true(log->results[0].finished);
	assert_string_equal(log->baseline, "rw_cp");
	assert_int_equal(log->disk_limit, 0); /* no "@" label */
	assert_int_equal(log->nevents, 3);
	source_progress(src, &p);
	assert_int_equal(p.state, RUNS_FINISHED);
	assert_int_equal(source_pending(src), 0);
	assert_int_equal(source_step(src), -1);
	struct replay_pos rp;
	source_replay_pos(src, &rp);
	assert_int_equal(rp.pos, N);
	assert_true(rp.at_end);
	assert_true(rp.len_s > 2.24 && rp.len_s < 2.26);
	source_free(src);
	runlog_free(log);
}

/* A recording of --disk-limit runs ("rw_cp@32M"): the replay's run log
 * has the limit, as the live one had (the Overview splits the disk
 * scales on it). */
static void test_disk_limit(void **state)
{
	(void)state;
	char keep[sizeof(path)];
	strcpy(keep, path);
	snprintf(path, sizeof(path), "%s/l.jsonl", dir);
	label = "rw_cp@32M";
	write_recording();
	label = "rw_cp";
	struct runlog *log = runlog_new();
	struct seen k = {0};
	struct source *src = open_replay(0, log, &k);
	assert_int_equal(log->disk_limit, 32ull << 20);
	source_free(src);
	runlog_free(log);
	unlink(path);
	strcpy(path, keep);
}

static void test_seek(void **state)
{
	(void)state;
	struct runlog *log = runlog_new();
	struct seen k = {0};
	struct source *src = open_replay(0, log, &k);
	source_replay_seek(src, N - 1);
	assert_int_equal(k.resets, 0);
	assert_int_equal(k.samples, N);
	/* backwards: a reset, then samples 0..2 again and nothing of the run */
	source_replay_seek(src, 2);
	assert_int_equal(k.resets, 1);
	assert_int_equal(k.samples, 3);
	assert_int_equal(k.events, 0);
	assert_int_equal(log->nresults, 0);
	assert_int_equal(log->nevents, 0);
	assert_int_equal(k.last_t, T0 + 2 * DT);
	/* forwards to 5: prepare and copy, no reset */
	source_replay_seek(src, 5);
	assert_int_equal(k.resets, 1);
	assert_int_equal(k.samples, 6);
	assert_int_equal(k.events, 2);
	struct run_progress p;
	source_progress(src, &p);
	assert_int_equal(p.state, RUNS_RUNNING);
	assert_int_equal(p.phase, PHASE_COPY);
	assert_int_equal(p.current, 0);
	assert_false(log->results[0].finished);
	assert_string_equal(log->results[0].name, "rw_cp"); /* known before its result */
	/* events: the next one was written after sample 8, the previous after 3 */
	assert_int_equal(source_replay_event_index(src, +1), 8);
	assert_int_equal(source_replay_event_index(src, -1), 3);
	source_replay_seek(src, 8);
	source_progress(src, &p);
	assert_int_equal(p.current, -1);
	assert_true(log->results[0].finished);
	assert_int_equal(source_replay_event_index(src, +1), -1);
	assert_int_equal(source_replay_index_at(src, 0), 0);
	assert_int_equal(source_replay_index_at(src, 1.0), 4);
	assert_int_equal(source_replay_index_at(src, 0.9), 4);
	assert_int_equal(source_replay_index_at(src, 99), N - 1);
	source_free(src);
	runlog_free(log);
}

static int readable(int fd, int ms)
{
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	return poll(&pfd, 1, ms) == 1;
}

static void test_pace(void **state)
{
	(void)state;
	struct runlog *log = runlog_new();
	struct seen k = {0};
	struct source *src = open_replay(16, log, &k);
	assert_int_equal(source_step(src), 0);
	/* 0.25 s at 16x: due in about 16 ms */
	assert_true(readable(source_fd(src), 2000));
	assert_int_equal(source_ready(src), 1);
	assert_int_equal(source_step(src), 0);
	source_replay_pause(src, 1);
	assert_false(readable(source_fd(src), 100));
	source_replay_pause(src, 0);
	assert_true(readable(source_fd(src), 2000));
	source_free(src);
	runlog_free(log);
}

static void test_refused(void **state)
{
	(void)state;
	char p[160], err[512];
	snprintf(p, sizeof(p), "%s/h.jsonl", dir);
	FILE *in = fopen(path, "r"), *out = fopen(p, "w");
	assert_non_null(in);
	assert_non_null(out);
	char line[4096];
	assert_non_null(fgets(line, sizeof(line), in));
	fputs(line, out);
	fclose(in);
	fclose(out);
	struct runlog *log = runlog_new();
	struct source_sink sink = {0};
	assert_null(source_replay_new(p, 0, log, &sink, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "h.jsonl: no samples"));
	snprintf(p, sizeof(p), "%s/none.jsonl", dir);
	assert_null(source_replay_new(p, 0, log, &sink, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "none.jsonl"));
	runlog_free(log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_play_to_end),
	    cmocka_unit_test(test_seek),
	    cmocka_unit_test(test_pace),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_disk_limit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
