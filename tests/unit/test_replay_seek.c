/*
 * Tests for the replay's seek by the offset index (source_replay.c with a
 * window, record_read.c's marks), over real recording files written with
 * the recorder, plain and gzip: 5000 samples (five marks apart), a disk
 * table whose second device changes every 7th sample only (its row is a
 * delta the mark must carry) and which gains a third device at sample 2500
 * (a new "dkn"), four runs with their events and results.
 *  - after each seek (End, Home, the middle, one back, either side of a
 *    mark, a step forwards, a jump forwards) the newest sample delivered is
 *    the one asked for, the history holds exactly the window's samples up
 *    to it, in order, and the last disk table is that sample's;
 *  - the run log and the progress equal those of a replay without a window
 *    seeking to the same sample (every item read from the top);
 *  - a step forwards within the window delivers on, without a reset.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recording/record.h"
#include "model/runlog.h"
#include "model/series.h"
#include "source/source.h"
#include "runs/strategy.h"
#include "testutil.h"

#define NS 5000
/* the window: 300 (inside a mark's 1024: most jumps read the JSON), 3000
 * (across marks: most of it comes from the spool) */
static size_t W = 300;
#define T0 1000000000ull
#define DT 100000000ull

static char dir[64], plain[128], gz[128];

/* run r: prepare after sample 100 + 1000 r, copy 10 later, its end and
 * result 500 later */
static int run_at(int i, int *phase)
{
	int r = (i - 100) / 1000, pos = (i - 100) % 1000;
	if (i < 100 || r > 3)
		return -1;
	*phase = pos == 0 ? PHASE_PREPARE : pos == 10 ? PHASE_COPY : pos == 500 ? PHASE_IDLE : -1;
	return pos <= 500 ? r : -1;
}

static void write_recording(const char *path, enum record_compress z)
{
	struct record_header h;
	char err[512];
	record_header_init(&h);
	strcpy(h.version, "test");
	h.interval_s = 0.1;
	struct recorder *r = recorder_open(path, z, &h, err, sizeof(err));
	assert_non_null(r);
	struct disktab tab;
	memset(&tab, 0, sizeof(tab));
	strcpy(tab.dev[0].name, "vda");
	strcpy(tab.dev[1].name, "loop0");
	strcpy(tab.dev[2].name, "sdb");
	tab.dev[0].is_disk = tab.dev[2].is_disk = 1;
	for (int i = 0; i < NS; i++) {
		struct sample s;
		memset(&s, 0, sizeof(s));
		s.t_ns = T0 + (uint64_t)i * DT;
		s.have = SAMPLE_HAVE_MEM;
		s.mem_total = 100000;
		s.mem_free = (uint64_t)i; /* which sample it is */
		int phase = -1, run = run_at(i, &phase);
		s.run = (int16_t)(run >= 0 && phase != PHASE_IDLE ? run : -1);
		tab.n = i >= 2500 ? 3 : 2;
		tab.t_ns = s.t_ns;
		tab.dev[0].rd_ios = (uint64_t)i;
		tab.dev[1].rd_ios = (uint64_t)(i / 7 * 7);
		tab.dev[2].wr_ios = (uint64_t)(i / 3);
		assert_int_equal(recorder_sample(r, &s, &tab, err, sizeof(err)), 0);
		if (run >= 0 && phase >= 0) {
			struct run_event e = {
			    .t_ns = s.t_ns + 1000, .run = (int16_t)run, .phase = (int8_t)phase};
			assert_int_equal(recorder_event(r, &e, err, sizeof(err)), 0);
		}
		if (run >= 0 && phase == PHASE_IDLE) {
			struct run_result res;
			memset(&res, 0, sizeof(res));
			snprintf(res.strategy, sizeof(res.strategy), "rw_cp");
			res.cmd = -1;
			snprintf(res.name, sizeof(res.name), "rw_cp #%d", run + 1);
			res.repeat = run + 1;
			res.finished = res.ok = res.verified = 1;
			res.bytes = 1 << 20;
			res.t_start_ns = s.t_ns - 500 * DT;
			res.t_end_ns = s.t_ns + 1000;
			assert_int_equal(recorder_result(r, &res, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tu_tmpdir(dir, sizeof(dir), "seek"), 0);
	snprintf(plain, sizeof(plain), "%s/r.jsonl", dir);
	snprintf(gz, sizeof(gz), "%s/r.jsonl.gz", dir);
	write_recording(plain, RECORD_PLAIN);
	write_recording(gz, RECORD_GZIP);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tu_rmtree(dir);
}

/* The TUI's model as a seek sees it: a history of cap samples and the last
 * disk table. */
struct model {
	struct series *ser;
	size_t cap;
	struct disktab disks;
	int resets;
};

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct model *m = ctx;
	series_push(m->ser, s);
	/* a jump delivers most of the window from the spool, without tables;
	 * the last two samples come with theirs (check_at compares the last) */
	if (t)
		m->disks = *t;
}

static void on_reset(void *ctx)
{
	struct model *m = ctx;
	series_free(m->ser);
	m->ser = series_new(m->cap);
	m->resets++;
}

static struct source *open_model(const char *path, struct model *m, struct runlog *log, size_t cap)
{
	memset(m, 0, sizeof(*m));
	m->cap = cap;
	m->ser = series_new(cap);
	struct source_sink sink = {.ctx = m, .sample = on_sample, .reset = on_reset};
	char err[512];
	struct source *src = source_replay_new(path, 0, log, &sink, NULL, err, sizeof(err));
	assert_non_null(src);
	return src;
}

static void close_pair(struct source *src, struct source *ref, struct model *m, struct model *rm,
		       struct runlog *log, struct runlog *rlog)
{
	source_free(src);
	source_free(ref);
	series_free(m->ser);
	series_free(rm->ser);
	runlog_free(log);
	runlog_free(rlog);
}

/* The state after a seek to idx, against what the recording holds and what
 * a replay read from the top (ref) has. */
static void check_at(struct source *src, const struct model *m, const struct runlog *log,
		     struct source *ref, const struct runlog *rlog, size_t idx, int jumped)
{
	struct replay_pos q;
	source_replay_pos(src, &q);
	assert_int_equal(q.pos, idx + 1);
	/* a jump whose window reaches back past a mark took those samples
	 * from the spool (none of them is the last two) */
	size_t s0 = idx + 1 > W ? idx + 1 - W : 0, mk = idx >= 1 ? (idx - 1) / 1024 * 1024 : 0;
	if (jumped)
		assert_int_equal(q.spooled, mk > s0 ? mk - s0 : 0);
	size_t len = idx + 1 < W ? idx + 1 : W;
	assert_int_equal(series_len(m->ser), len);
	for (size_t i = 0; i < len; i++) {
		const struct sample *s = series_at(m->ser, i);
		assert_int_equal(s->mem_free, idx + 1 - len + i);
		assert_int_equal(s->t_ns, T0 + (idx + 1 - len + i) * DT);
	}
	assert_int_equal(m->disks.n, idx >= 2500 ? 3 : 2);
	assert_int_equal(m->disks.dev[0].rd_ios, idx);
	assert_string_equal(m->disks.dev[1].name, "loop0");
	assert_int_equal(m->disks.dev[1].rd_ios, idx / 7 * 7);
	if (idx >= 2500)
		assert_int_equal(m->disks.dev[2].wr_ios, idx / 3);

	source_replay_seek(ref, idx);
	assert_int_equal(log->nevents, rlog->nevents);
	assert_int_equal(log->nresults, rlog->nresults);
	assert_memory_equal(log->events, rlog->events, log->nevents * sizeof(log->events[0]));
	for (size_t i = 0; i < log->nresults; i++) {
		assert_string_equal(log->results[i].name, rlog->results[i].name);
		assert_int_equal(log->results[i].finished, rlog->results[i].finished);
		assert_int_equal(log->results[i].t_start_ns, rlog->results[i].t_start_ns);
	}
	struct run_progress a, b;
	source_progress(src, &a);
	source_progress(ref, &b);
	assert_int_equal(a.state, b.state);
	assert_int_equal(a.current, b.current);
	assert_int_equal(a.phase, b.phase);
}

static void seeks(const char *path)
{
	struct runlog *log = runlog_new(), *rlog = runlog_new();
	struct model m, rm;
	struct source *src = open_model(path, &m, log, W);
	struct source *ref = open_model(path, &rm, rlog, NS);
	source_replay_set_window(src, W);
	/* End, Home, the middle (the third device's first sample), one back
	 * from the end, either side of the second mark, a run's copy phase */
	static const size_t at[] = {NS - 1, 0,	  2500,	 NS - 2, 1023, 1024, 1025,
				    2047,   2048, 299,    300,	 1110, 2600, 2999, 3000, 4097, 599};
	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		int r0 = m.resets;
		source_replay_seek(src, at[i]);
		check_at(src, &m, log, ref, rlog, at[i], m.resets != r0);
	}
	/* a step forwards within the window: delivered on, no reset */
	int resets = m.resets;
	source_replay_seek(src, 599 + W / 2);
	assert_int_equal(m.resets, resets);
	check_at(src, &m, log, ref, rlog, 599 + W / 2, 0);
	/* forwards by more than the window: a jump (a wide window reaches
	 * 3999 by delivering on) */
	source_replay_seek(src, 3999);
	assert_int_equal(m.resets, resets + (3999 - (599 + W / 2) > W));
	check_at(src, &m, log, ref, rlog, 3999, m.resets != resets);
	/* and the playback goes on from there, sample by sample */
	assert_int_equal(source_step(src), 0);
	check_at(src, &m, log, ref, rlog, 4000, 0);
	close_pair(src, ref, &m, &rm, log, rlog);
}

static void test_seek_plain(void **state)
{
	(void)state;
	seeks(plain);
}

static void test_seek_gzip(void **state)
{
	(void)state;
	seeks(gz);
}

static void test_seek_wide(void **state)
{
	(void)state;
	W = 3000;
	/* End from the start: 3000 - 2 samples back to mark 4096 */
	struct runlog *log = runlog_new();
	struct model m;
	struct source *src = open_model(plain, &m, log, W);
	source_replay_set_window(src, W);
	source_replay_seek(src, NS - 1);
	struct replay_pos q;
	source_replay_pos(src, &q);
	assert_int_equal(q.spooled, 4096 - (NS - W));
	source_free(src);
	series_free(m.ser);
	runlog_free(log);
	seeks(plain);
	seeks(gz);
	W = 300;
}

/* A samples-only playback (the spool) delivers the samples, events and
 * results a playback of the JSON does, in the same order, byte for byte. */
static void samples_only(const char *path)
{
	struct runlog *log = runlog_new(), *rlog = runlog_new();
	struct model m, rm;
	struct source *src = open_model(path, &m, log, NS);
	struct source *ref = open_model(path, &rm, rlog, NS);
	assert_int_equal(source_replay_samples_only(src), 0);
	size_t steps = 0;
	while (source_step(src) == 0) {
		assert_int_equal(source_step(ref), 0);
		steps++;
		/* the events so far, as they came */
		assert_int_equal(log->nevents, rlog->nevents);
		assert_int_equal(log->nresults, rlog->nresults);
	}
	assert_int_equal(source_step(ref), -1);
	assert_int_equal(steps, NS);
	assert_int_equal(series_len(m.ser), NS);
	for (size_t i = 0; i < NS; i++)
		assert_memory_equal(series_at(m.ser, i), series_at(rm.ser, i), sizeof(struct sample));
	assert_memory_equal(log->events, rlog->events, log->nevents * sizeof(log->events[0]));
	for (size_t i = 0; i < log->nresults; i++)
		assert_memory_equal(&log->results[i], &rlog->results[i], sizeof(log->results[i]));
	/* only before the first step */
	assert_int_equal(source_replay_samples_only(ref), -1);
	close_pair(src, ref, &m, &rm, log, rlog);
}

static void test_samples_only(void **state)
{
	(void)state;
	samples_only(plain);
	samples_only(gz);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seek_plain),
	    cmocka_unit_test(test_seek_gzip),
	    cmocka_unit_test(test_seek_wide),
	    cmocka_unit_test(test_samples_only),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
