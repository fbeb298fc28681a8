/* The plot model (model/plot.c): its policy on synthetic series (scope,
 * scales, the disk split, marks, the column cache), and the two pictures
 * of one real recording (examples/demo-2008.jsonl.gz through the replay
 * source): the TUI's Overview drawn into a grid and the SVG export agree
 * on the disk scale, the burst marks and the phase marks, because both
 * render the same struct plot. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "sampling/kvfile.h"
#include "model/model.h"
#include "model/phase.h"
#include "model/plot.h"
#include "source/source.h"
#include "model/stats.h"
#include "output/svg.h"
#include "screen/ui.h"
#include "base/util.h"
#include "screen/views.h"
#include "gridtest.h"
#include "modelfix.h"

#define MIB (1024ull * 1024)
#define T0  100000000000ull /* 100 s */
#define DT  250000000ull    /* 0.25 s */

/* ---- synthetic series ---------------------------------------------------- */

struct synth {
	struct model m;
	struct runlog *log;
};

/* n samples; copy samples [c0, c1) of run 0 in its cgroup (64 MiB limit)
 * reading rd MiB and writing wr MiB a sample; spike: a sample outside the
 * copy that reads 50 times as much. */
static void synth_make(struct synth *y, int n, int c0, int c1, double rd, double wr, int spike)
{
	memset(y, 0, sizeof(*y));
	mf_model(&y->m, &y->log, 4096, 0.25, NULL);
	uint64_t r = 0, w = 0;
	for (int i = 0; i < n; i++) {
		struct sample s;
		mf_sample(&s, T0 + (uint64_t)i * DT, 2ull << 20, 512ull << 10);
		if (i >= c0 && i < c1) {
			s.run = 0;
			s.phase = PHASE_COPY;
			s.have |= SAMPLE_HAVE_CG;
			s.cg_limit = 64 * MIB;
			s.cg_usage = 60 * MIB;
			s.cg_active_file = 20 * MIB;
			s.cg_inactive_file = 30 * MIB;
			r += (uint64_t)(rd * 2048);
			w += (uint64_t)(wr * 2048);
		} else if (spike && i == spike) {
			r += (uint64_t)(rd * 50 * 2048);
		}
		s.rd_sectors = r;
		s.wr_sectors = w;
		series_push(y->m.series, &s);
	}
	if (c1 > c0) {
		struct run_result *res = &y->log->results[y->log->nresults++];
		snprintf(res->name, sizeof(res->name), "rw_cp");
		res->cmd = -1;
		res->finished = 1;
		res->t_start_ns = T0 + (uint64_t)c0 * DT;
		res->t_end_ns = T0 + (uint64_t)c1 * DT;
		runlog_add_event(y->log, T0 + (uint64_t)c0 * DT, PHASE_PREPARE);
		runlog_add_event(y->log, T0 + (uint64_t)(c0 + 2) * DT, PHASE_COPY);
		runlog_add_event(y->log, T0 + (uint64_t)c1 * DT, PHASE_IDLE);
	}
}

static void synth_free(struct synth *y)
{
	mf_model_free(&y->m, y->log);
}

static const struct plot_opts last_n = {.no_fit = 1, .xdots = 1};

/* p, started, built (last_n) from all of y's samples. */
static void plot_whole(struct plot *p, const struct synth *y)
{
	long n = (long)series_len(y->m.series);
	plot_init(p);
	plot_build(p, &y->m, &last_n, n - 1, (int)n);
}

/* The end of a test on a plot of y. */
static void plot_synth_done(struct plot *p, struct synth *y)
{
	synth_free(y);
	plot_done(p);
}

static void test_split(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	/* alike: one scale for both halves */
	synth_make(&y, 100, 10, 90, 20, 22, 0);
	plot_whole(&p, &y);
	assert_false(p.split);
	assert_true(p.read_max == p.write_max);
	assert_true(p.read_max >= 22 * 4 * 1.2 * 0.999); /* 22 MiB a 0.25 s sample */
	plot_synth_done(&p, &y);
	/* writes at 30 times the reads: scales of their own */
	synth_make(&y, 100, 10, 90, 4, 120, 0);
	plot_whole(&p, &y);
	assert_true(p.split);
	assert_true(p.read_max < p.write_max / 10);
	assert_true(p.read_max >= p.read_level);
	plot_synth_done(&p, &y);
}

/* The disk scale follows the copies: a spike outside them clips. */
static void test_scale_follows_copy(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	synth_make(&y, 100, 10, 90, 20, 20, 95);
	plot_whole(&p, &y);
	assert_true(p.read_max < 20 * 4 * 2);
	assert_true(plot_col(&p, PLOT_READ)[95] > 20 * 4 * 40); /* the spike is there */
	assert_true(plot_col(&p, PLOT_COPY)[50] == 1);
	assert_true(plot_col(&p, PLOT_COPY)[95] == 0);
	/* frozen: the scale state does not move, though the level would */
	struct autoscale before = p.as_read;
	synth_free(&y);
	synth_make(&y, 100, 10, 90, 2, 2, 0);
	struct plot_opts fr = last_n;
	fr.frozen = 1;
	plot_build(&p, &y.m, &fr, 99, 100);
	assert_true(p.as_read.max == before.max);
	assert_int_equal(p.as_read.low_ticks, before.low_ticks);
	plot_synth_done(&p, &y);
}

/* The memory chart's scope: the run's cgroup while a shown sample has
 * one, the system's when asked for or when none has. */
static void test_scope(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	synth_make(&y, 100, 10, 90, 20, 20, 0);
	plot_whole(&p, &y);
	assert_true(p.cg);
	assert_true(p.mem_total == 64.0 * 1024);
	assert_true(plot_col(&p, PLOT_AF)[50] == 20.0 * 1024);
	assert_true(isnan(plot_col(&p, PLOT_AF)[95])); /* no cgroup there: a gap */
	struct plot_opts sys = last_n;
	sys.mem_system = 1;
	plot_build(&p, &y.m, &sys, 99, 100);
	assert_false(p.cg);
	assert_true(p.mem_total == 4.0 * 1024 * 1024);
	assert_true(plot_col(&p, PLOT_AF)[95] == 512.0 * 1024);
	/* a window after the run: no cgroup sample shown */
	plot_build(&p, &y.m, &last_n, 99, 5);
	assert_false(p.cg);
	plot_synth_done(&p, &y);
}

/* Marks sit in the column of the sample at (or after) their time, and
 * fall out of a window that does not reach them. */
static void test_marks(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	synth_make(&y, 100, 10, 90, 20, 20, 0);
	plot_whole(&p, &y);
	assert_int_equal(p.nmarks, 3);
	assert_int_equal(p.marks[0].col, 10);
	assert_int_equal(p.marks[0].phase, PHASE_PREPARE);
	assert_int_equal(p.marks[1].col, 12);
	assert_int_equal(p.marks[2].col, 90);
	plot_build(&p, &y.m, &last_n, 99, 20); /* samples 80..99 */
	assert_int_equal(p.nmarks, 1);
	assert_int_equal(p.marks[0].col, 10);
	assert_int_equal(p.marks[0].phase, PHASE_IDLE);
	/* the same from the export's build */
	struct plot_src src = {y.m.series, y.log->events, y.log->nevents, y.log->results, 1, 0, 0,
			       0};
	plot_build_samples(&p, &src, 5, 50);
	assert_int_equal(p.nmarks, 2);
	assert_int_equal(p.marks[1].col, 7);
	plot_synth_done(&p, &y);
}

/* The window moving on by a sample recomputes one column; the values are
 * those of a build from nothing. */
static void test_cache(void **state)
{
	(void)state;
	struct synth y;
	struct plot p, q;
	plot_init(&p);
	plot_init(&q);
	synth_make(&y, 200, 10, 190, 20, 20, 0);
	plot_build(&p, &y.m, &last_n, 150, 100);
	assert_int_equal(p.computed, 100);
	plot_build(&p, &y.m, &last_n, 150, 100);
	assert_int_equal(p.computed, 0);
	plot_build(&p, &y.m, &last_n, 151, 100);
	assert_int_equal(p.computed, 1);
	plot_build(&q, &y.m, &last_n, 151, 100);
	assert_int_equal(q.computed, 100);
	for (int s = 0; s < PLOT_NSER; s++)
		for (int i = 0; i < 100; i++) {
			double a = plot_col(&p, s)[i], b = plot_col(&q, s)[i];
			assert_true((isnan(a) && isnan(b)) || a == b);
		}
	/* the scope changes: every column again */
	struct plot_opts sys = last_n;
	sys.mem_system = 1;
	plot_build(&p, &y.m, &sys, 151, 100);
	assert_int_equal(p.computed, 100);
	plot_synth_done(&p, &y);
	plot_done(&q);
}

/* A series as the TUI samples it: the times jitter around the interval,
 * the counters move by uneven steps, a run's copy in its cgroup in the
 * middle. */
static void synth_jitter(struct synth *y, int n)
{
	memset(y, 0, sizeof(*y));
	mf_model(&y->m, &y->log, 4096, 0.25, NULL);
	uint64_t r = 0, w = 0, deact = 0, t = T0, x = 12345;
	for (int i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		t += DT - DT / 8 + (x >> 33) % (DT / 4);
		struct sample s;
		mf_sample(&s, t, (2ull << 20) - (uint64_t)i * 64, (512ull << 10) + (x >> 40) % 4096);
		if (i >= n / 3 && i < 2 * n / 3) {
			s.run = 0;
			s.phase = PHASE_COPY;
			s.have |= SAMPLE_HAVE_CG;
			s.cg_limit = 64 * MIB;
			s.cg_usage = 60 * MIB;
			s.cg_active_file = (20 + (x >> 50) % 8) * MIB;
			s.cg_inactive_file = 30 * MIB;
		}
		r += (x >> 20) % 40000;
		w += (x >> 24) % 10000;
		deact += (x >> 28) % 3 == 0 ? 50000 : 10;
		s.rd_sectors = r;
		s.wr_sectors = w;
		s.pgdeactivate = deact;
		series_push(y->m.series, &s);
	}
}

/* Equal, NAN equal to NAN. */
static int same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* p (cached) against q (the same build computed whole): the window,
 * every column of every series, the scales. */
static void assert_same_plot(const struct plot *p, const struct plot *q, int zoom, long end)
{
	assert_int_equal(p->n, q->n);
	assert_true(p->col_ns == q->col_ns && p->t0_ns == q->t0_ns);
	for (int i = 0; i < p->n; i++) {
		assert_int_equal(p->lo[i], q->lo[i]);
		assert_int_equal(p->hi[i], q->hi[i]);
		for (int s = 0; s < PLOT_NSER; s++)
			if (!same(plot_col(p, s)[i], plot_col(q, s)[i]))
				fail_msg("zoom %d end %ld: column %d of series %d: %g, a full "
					 "recompute %g",
					 zoom, end, i, s, plot_col(p, s)[i], plot_col(q, s)[i]);
	}
	assert_true(p->read_max == q->read_max && p->write_max == q->write_max);
	assert_true(p->reclaim_max == q->reclaim_max && p->deact_max == q->deact_max);
	assert_true(same(p->mem_top, q->mem_top));
}

/* The window moved on (by one sample, by several, at every zoom) gives
 * column for column the plot a full recompute of the same builds gives
 * (q forgets its cache before each build, so both have the same scale
 * history), while computing only the new columns. */
static void test_cache_moves(void **state)
{
	(void)state;
	struct synth y;
	synth_jitter(&y, 1200);
	static const int zooms[] = {0, 1, 2, -1};
	static const int steps[] = {1, 1, 1, 3, 1, 2, 1, 1, 7, 1, 1, 1};
	for (size_t z = 0; z < ARRAY_LEN(zooms); z++) {
		struct plot p, q;
		plot_init(&p);
		plot_init(&q);
		struct plot_opts o = {.zoom = zooms[z], .no_fit = 1, .xdots = 2};
		int n = 120, builds = 0;
		long computed = 0, end = 300;
		int cg = -1, rescoped = 0;
		for (int b = 0; b < 60; b++) {
			end += steps[b % (int)ARRAY_LEN(steps)];
			plot_build(&p, &y.m, &o, end, n);
			q.old_valid = 0;
			plot_build(&q, &y.m, &o, end, n);
			int full = 0; /* the columns with samples */
			for (int i = 0; i < n; i++)
				full += q.hi[i] >= 0;
			assert_int_equal(q.computed, full);
			assert_true(full > n / 2);
			assert_same_plot(&p, &q, zooms[z], end);
			/* the memory chart's scope changed: every column again */
			int moved_scope = p.cg != cg;
			cg = p.cg;
			if (b == 0)
				continue;
			if (moved_scope) {
				assert_int_equal(p.computed, full);
				rescoped++;
				continue;
			}
			builds++;
			computed += p.computed;
			/* a move of k samples: k new columns at zoom 0, at most
			 * the newest and the ones the move opened otherwise */
			int k = steps[b % (int)ARRAY_LEN(steps)];
			if (zooms[z] == 0)
				assert_int_equal(p.computed, k);
			else
				assert_true(p.computed <= (zooms[z] > 0 ? 1 + k : 1 + 2 * k));
		}
		assert_true(rescoped <= 2 && builds >= 50);
		assert_true(computed < (long)builds * n / 10);
		/* a jump past the whole window: nothing to reuse */
		plot_build(&p, &y.m, &o, end + 500, n);
		assert_int_equal(p.computed, n);
		plot_done(&p);
		plot_done(&q);
	}
	synth_free(&y);
}

/* The window fitted to a run in progress: its expected end drifts every
 * tick (bytes left at the rate so far), the window's column stays on its
 * ladder step, so a tick computes only the newest columns, and the plot
 * is column for column a full recompute's. */
static void test_cache_fit(void **state)
{
	(void)state;
	struct synth y;
	synth_jitter(&y, 1200);
	struct run_result *r = &y.log->results[y.log->nresults++];
	snprintf(r->name, sizeof(r->name), "rw_cp");
	r->cmd = -1;
	r->t_start_ns = series_at(y.m.series, 400)->t_ns;
	r->t_copy_ns = series_at(y.m.series, 402)->t_ns;
	y.m.runs.state = RUNS_RUNNING;
	y.m.runs.current = 0;
	y.m.runs.total = 1000ull * MIB;
	struct plot p, q;
	plot_init(&p);
	plot_init(&q);
	struct plot_opts o = {.xdots = 2};
	int n = 160, cheap = 0, builds = 0;
	y.m.runs.done = 40 * MIB;
	for (long end = 420; end < 700; end++, builds++) {
		/* a copy at an uneven rate: the expected end moves each tick */
		y.m.runs.done += (2 + (uint64_t)(end % 3)) * MIB;
		plot_build(&p, &y.m, &o, end, n);
		q.old_valid = 0;
		plot_build(&q, &y.m, &o, end, n);
		assert_true(p.fit && q.fit);
		assert_same_plot(&p, &q, 0, end);
		cheap += p.computed <= 2;
	}
	/* the run's span runs from 10 s to 75 s: a few ladder steps */
	assert_true(cheap > builds * 8 / 10);
	plot_done(&p);
	plot_done(&q);
	synth_free(&y);
}

/* A queue far longer than the history holds (a day's replay: thousands
 * of runs, an hour kept): the fitted window is as long as the history
 * (4096 samples at 0.25 s: 1024 s), not the queue's ~14 h, so what is held
 * fills the width; a short queue keeps its fit to the runs. */
static void test_fit_long_queue(void **state)
{
	(void)state;
	struct synth y;
	synth_make(&y, 1200, 400, 600, 10, 10, 0); /* one 50 s run done */
	y.m.runs.state = RUNS_RUNNING;
	y.m.runs.queue_next = 2;
	y.m.runs.queue_len = 1000;
	struct plot p;
	plot_init(&p);
	struct plot_opts o = {.xdots = 2};
	int n = 160;
	plot_build(&p, &y.m, &o, 1199, n);
	double holds = 4096 * 0.25e9, w = p.col_ns * n;
	assert_true(p.fit);
	if (!(w >= holds * 0.9 && w <= holds * 1.25))
		fail_msg("window %.0f s for a history of %.0f s", w / 1e9, holds / 1e9);
	assert_true(p.t0_ns <= T0 + 400 * DT); /* from the run's start on */
	/* three runs queued: fitted to them (less than the history) */
	y.m.runs.queue_len = 3;
	plot_build(&p, &y.m, &o, 1199, n);
	w = p.col_ns * n;
	assert_true(p.fit);
	if (!(w < holds * 0.5))
		fail_msg("window %.0f s for three runs", w / 1e9);
	plot_done(&p);
	synth_free(&y);
}

static void test_phase_table(void **state)
{
	(void)state;
	assert_string_equal(phase_name(PHASE_VERIFY), "verify");
	assert_string_equal(phase_label(PHASE_VERIFY), "vrfy");
	assert_string_equal(phase_label(PHASE_IDLE), "end");
	assert_string_equal(phase_abbrev(PHASE_FLUSH), "fl");
	assert_null(phase_abbrev(PHASE_PREPARE));
	struct sample s = {.run = 1, .phase = PHASE_FLUSH};
	assert_true(sample_in_copy(&s, 1));
	assert_true(sample_in_copy(&s, -1));
	assert_false(sample_in_copy(&s, 0));
	s.phase = PHASE_VERIFY;
	assert_false(sample_in_copy(&s, 1));
	s.phase = PHASE_PREPARE;
	assert_false(sample_in_copy(&s, -1));
}

/* The Runs view's blocks: a run's copy only, and one spike clips. */
static void test_runs_blocks(void **state)
{
	(void)state;
	struct synth y;
	synth_make(&y, 100, 10, 90, 20, 20, 0);
	struct run_result r = y.log->results[0];
	r.t_copy_ns = T0 + 10 * DT;
	r.elapsed_s = 80 * 0.25;
	double v[4][40];
	plot_run_columns(y.m.series, 0.25, &r, 0, 2 * (uint64_t)(r.elapsed_s * 1e9), 40, v[0], v[1],
			 v[2], v[3]);
	assert_true(fabs(v[0][5] - 80) < 1e-6); /* 20 MiB a 0.25 s sample */
	assert_true(v[2][5] == 20.0 * 1024);
	assert_true(isnan(v[0][30])); /* past the run's end: the second half */
	plot_run_columns(y.m.series, 0.25, &r, 1, (uint64_t)(r.elapsed_s * 1e9), 40, v[0], v[1],
			 v[2], v[3]);
	assert_true(isnan(v[0][5])); /* another run's samples */
	double x[100], rates[100], tmp[100];
	for (int i = 0; i < 100; i++)
		x[i] = i == 50 ? 1000 : 10;
	assert_true(plot_rate_scale(x, 100, 1, 100, rates, tmp) == 15); /* 12 → 15, not 1000 */
	synth_free(&y);
}

/* The memory axis' rules on the synthetic run: a 64M limit 60M used is
 * the scale (as before the cut existed); the system's 1 GiB of lists on
 * 4 GiB is cut at the next step in GiB (1.5); a 16 GiB limit over the same
 * 60M is cut at a step above the usage; frozen, the cut holds while the
 * lists shrink, live it shrinks after the autoscale's patience. */
static void test_mem_cut_rules(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	plot_init(&p);
	synth_make(&y, 100, 10, 90, 20, 20, 0);
	plot_build(&p, &y.m, &last_n, 89, 60);
	assert_true(p.cg);
	assert_false(p.mem_cut);
	assert_true(p.mem_top == 64.0 * 1024);
	struct plot_opts sys = last_n;
	sys.mem_system = 1;
	plot_build(&p, &y.m, &sys, 89, 60);
	assert_false(p.cg);
	assert_true(p.mem_cut);
	assert_true(p.mem_top == 1.5 * 1024 * 1024);
	synth_free(&y);

	/* a limit far above the run: cut (60M used, 63 MiB → 80M) */
	struct model m;
	memset(&m, 0, sizeof(m));
	struct runlog *log;
	mf_model(&m, &log, 256, 0.25, NULL);
	for (int i = 0; i < 200; i++) {
		struct sample s;
		memset(&s, 0, sizeof(s));
		s.t_ns = T0 + (uint64_t)i * DT;
		s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_CG;
		s.mem_total = 24ull << 20;
		s.run = 0;
		s.cg_limit = 16ull << 30;
		/* 60M, then from sample 100 on 6M */
		s.cg_usage = (i < 100 ? 60 : 6) * MIB;
		s.cg_active_file = s.cg_usage / 3;
		s.cg_inactive_file = s.cg_usage / 3;
		series_push(m.series, &s);
	}
	struct plot q;
	plot_init(&q);
	plot_build(&q, &m, &last_n, 99, 50);
	assert_true(q.cg);
	assert_true(q.mem_cut);
	assert_true(q.mem_top == 80.0 * 1024);
	/* frozen on the 6M samples: the axis holds */
	struct plot_opts fr = last_n;
	fr.frozen = 1;
	for (int k = 0; k < 60; k++)
		plot_build(&q, &m, &fr, 199, 50);
	assert_true(q.mem_top == 80.0 * 1024);
	/* live: after 40 builds under 40 % it comes down to 8M */
	for (int k = 0; k < 39; k++)
		plot_build(&q, &m, &last_n, 199, 50);
	assert_true(q.mem_top == 80.0 * 1024);
	plot_build(&q, &m, &last_n, 199, 50);
	assert_true(q.mem_top == 8.0 * 1024);
	plot_done(&q);
	mf_model_free(&m, log);
	plot_done(&p);
}

/* ---- one recording, two pictures ----------------------------------------- */

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	series_push(ctx, s);
}

static void on_reset(void *ctx)
{
	(void)ctx;
	fail_msg("no seek in this test");
}

/* The numbers of the SVG's y tick labels between the Disk chart's title
 * and its "MiB/s": their largest. */
static double svg_disk_top(const char *svg)
{
	const char *a = strstr(svg, ">Disk ");
	assert_non_null(a);
	const char *b = strstr(a, ">MiB/s<");
	assert_non_null(b);
	double top = -1;
	for (const char *p = a; (p = strstr(p, "text-anchor=\"end\"")) && p < b; p++) {
		const char *gt = strchr(p, '>');
		double v = strtod(gt + 1, NULL);
		top = v > top ? v : top;
	}
	return top;
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The picture svg_write draws of in and o, in memory (free it). */
static char *svg_of(const struct svg_input *in, const struct svg_opts *o)
{
	char *svg = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&svg, &len);
	assert_non_null(f);
	if (svg_write(f, in, o, err, sizeof(err)) < 0)
		fail_msg("%s", err);
	fclose(f);
	return svg;
}

/* A renderer with one disk axis (the SVG: plot_src.one_disk_axis): where
 * the TUI splits (writes at 15 times the reads) the model gives one scale,
 * the larger half's, and flags the columns clipped against it; the SVG's
 * wedges are those columns. */
static void test_one_disk_axis(void **state)
{
	(void)state;
	struct synth y;
	synth_make(&y, 100, 10, 90, 8, 120, 95); /* 32 and 480 MiB/s, a read of 1600 at 95 */
	struct plot two, one;
	plot_init(&two);
	plot_init(&one);
	struct plot_src src = {y.m.series, y.log->events, y.log->nevents, y.log->results, 1, 0, 0,
			       0};
	plot_build_samples(&two, &src, 0, 99);
	src.one_disk_axis = 1;
	plot_build_samples(&one, &src, 0, 99);
	assert_true(two.split);
	assert_false(one.split);
	assert_true(one.read_max == one.write_max);
	assert_true(one.read_max == fmax(two.read_max, two.write_max));
	assert_int_equal(one.nclip_read, 1);
	assert_true(plot_col(&one, PLOT_CLIP_READ)[95] > 0);
	assert_int_equal(one.nclip_write, 0);

	struct svg_input in = {.ser = y.m.series,
			       .events = y.log->events,
			       .nevents = y.log->nevents,
			       .runs = y.log->results,
			       .nruns = y.log->nresults,
			       .disk = "vda"};
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = svg_of(&in, &o);
	assert_int_equal(count(svg, "class=\"clip\""), one.nclip_read + one.nclip_write);
	free(svg);
	plot_done(&two);
	plot_done(&one);
	synth_free(&y);
}

/* The demo recording, replayed into m (its log in *log). */
static struct source *load_demo(struct model *m, struct runlog **log)
{
	char path[512], err[512];
	snprintf(path, sizeof(path), "%s/examples/demo-2008.jsonl.gz", LRUTOP_SRCDIR);
	memset(m, 0, sizeof(*m));
	mf_model(m, log, 1 << 16, 0.25, "vda");
	struct source_sink sink = {.ctx = m->series, .sample = on_sample, .reset = on_reset};
	struct source *src = source_replay_new(path, 0, *log, &sink, NULL, err, sizeof(err));
	if (!src)
		fail_msg("%s", err);
	while (source_step(src) == 0)
		;
	m->runs.state = RUNS_FINISHED;
	m->runs.current = -1;
	return src;
}

static void test_tui_and_svg_agree(void **state)
{
	(void)state;
	struct model m;
	struct runlog *log;
	struct source *src = load_demo(&m, &log);
	size_t len = series_len(m.series);
	assert_true(len > 170); /* 177 samples, 44 s */
	assert_true(log->nevents > 3);

	/* the window: the last 160 samples (a 168-column ASCII grid: 160
	 * cells of plot, a cell a sample), the recording's three copies */
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.glyphs = CHART_ASCII;
	u.no_fit = 1;
	long end = (long)len - 1;
	struct views v;
	views_init(&v);
	struct grid g;
	grid_init(&g, 168, 50);
	overview_draw(&v.overview, &m, &u, &g, 0, 50);
	const struct plot *p = &v.overview.plot;
	int n = p->n;
	assert_int_equal(n, 160);
	assert_int_equal(p->hi[n - 1], end);
	assert_int_equal(p->lo[0], end - n + 1);
	assert_true(p->nbursts > 0);
	assert_true(p->nmarks > 0);

	struct svg_input in = {.ser = m.series,
			       .events = log->events,
			       .nevents = log->nevents,
			       .runs = log->results,
			       .nruns = log->nresults,
			       .disk = "vda"};
	struct svg_opts o = {.view = SVG_OVERVIEW,
			     .run = -1,
			     .from_ns = series_at(m.series, (size_t)p->lo[0])->t_ns,
			     .to_ns = series_at(m.series, (size_t)end)->t_ns};
	char *svg = svg_of(&in, &o);

	/* the disk scale: the TUI's top (read) and bottom (write) labels,
	 * the SVG's top tick: one number */
	int disk_top = find_row(&g, "Disk vda") + 1 + 2; /* the title, the strip's two rows */
	int mem_title = find_row(&g, "Memory ");
	assert_true(mem_title > disk_top + 2);
	char *top = row_text(&g, disk_top), *bot = row_text(&g, mem_title - 1);
	double tui_read = strtod(top, NULL), tui_write = strtod(bot, NULL);
	free(top);
	free(bot);
	char want[16];
	fmt_num(want, sizeof(want), p->read_max);
	assert_true(fabs(tui_read - strtod(want, NULL)) < 1e-9);
	fmt_num(want, sizeof(want), p->write_max);
	assert_true(fabs(tui_write - strtod(want, NULL)) < 1e-9);
	assert_true(tui_read > 0 && tui_write > 0);
	assert_true(fabs(svg_disk_top(svg) - fmax(tui_read, tui_write)) < 1e-9);

	/* bursts: a ▼ a column on screen, a triangle a sample in the SVG
	 * (and one in its legend) */
	char *strip = row_text(&g, disk_top - 1);
	int tui_bursts = count(strip, "\xe2\x96\xbc");
	free(strip);
	char tri[32];
	snprintf(tri, sizeof(tri), "z\" fill=\"#%06x\"", (unsigned)svg_theme_light.burst);
	assert_int_equal(tui_bursts, p->nbursts);
	assert_int_equal(count(svg, tri) - 1, p->nbursts);

	/* phase marks: a line each in the SVG (every mark inside its time
	 * range), a ┆ column each on screen (run ends draw none) */
	char mk[40];
	snprintf(mk, sizeof(mk), "stroke=\"#%06x\" stroke-width", (unsigned)svg_theme_light.marker);
	int inside = 0, lines = 0;
	char cols[256] = {0};
	for (int i = 0; i < p->nmarks; i++) {
		inside += p->marks[i].t_ns >= o.from_ns && p->marks[i].t_ns <= o.to_ns;
		if (p->marks[i].phase != PHASE_IDLE || p->marks[i].phase == PHASE_PREPARE)
			cols[p->marks[i].col] = 1;
	}
	assert_int_equal(count(svg, mk), inside);
	for (int i = 0; i < n; i++)
		lines += cols[i];
	int tui_lines = 0;
	for (int x = 0; x < g.w; x++) {
		int has = 0;
		for (int yy = disk_top; yy < g.h && !has; yy++) {
			struct cell *c = grid_at(&g, x, yy);
			has = c && c->ch == 0x2506;
		}
		tui_lines += has;
	}
	assert_int_equal(tui_lines, lines);
	/* and the first run's label over its start in both */
	assert_int_equal(find_row(&g, "mm_sync_cp"), disk_top - 2);
	assert_non_null(strstr(svg, ">mm_sync_cp"));

	free(svg);
	grid_done(&g);
	views_done(&v);
	source_free(src);
	mf_model_free(&m, log);
}

/* ---- the memory scale on any machine ------------------------------------- */

/* /proc/meminfo of three machines (the fields the sampler reads, in the
 * kernel's format): a busy 2 GiB VM whose cache fills it, this 24 GiB
 * machine at rest (the figures: Active(file) 20M, Inactive(file)
 * 68M, anon 94M, free 23G), a 1 TiB server with 130 GiB of lists. */
static const char mem_2g[] = "MemTotal:        2030592 kB\n"
			     "MemFree:          180224 kB\n"
			     "MemAvailable:    1460000 kB\n"
			     "Cached:          1400000 kB\n"
			     "Active:          1020000 kB\n"
			     "Inactive:         760000 kB\n"
			     "Active(anon):     200000 kB\n"
			     "Inactive(anon):    60000 kB\n"
			     "Active(file):     820000 kB\n"
			     "Inactive(file):   700000 kB\n"
			     "Dirty:               120 kB\n"
			     "Writeback:             0 kB\n";
static const char mem_24g[] = "MemTotal:       25165824 kB\n"
			      "MemFree:        24210000 kB\n"
			      "MemAvailable:   24600000 kB\n"
			      "Cached:            95000 kB\n"
			      "Active:            90000 kB\n"
			      "Inactive:          96368 kB\n"
			      "Active(anon):      69520 kB\n"
			      "Inactive(anon):    26736 kB\n"
			      "Active(file):      20480 kB\n"
			      "Inactive(file):    69632 kB\n"
			      "Dirty:                 8 kB\n"
			      "Writeback:             0 kB\n";
static const char mem_1t[] = "MemTotal:     1056964608 kB\n"
			     "MemFree:       903000000 kB\n"
			     "MemAvailable:  1000000000 kB\n"
			     "Cached:        105000000 kB\n"
			     "Active:         83886080 kB\n"
			     "Inactive:       52428800 kB\n"
			     "Active(anon):   20971520 kB\n"
			     "Inactive(anon):  10485760 kB\n"
			     "Active(file):   62914560 kB\n"
			     "Inactive(file): 41943040 kB\n"
			     "Dirty:              512 kB\n"
			     "Writeback:             0 kB\n";

/* A sample's memory from a meminfo text, through the key-value parser. */
static void meminfo_sample(const char *text, struct sample *s)
{
	static const char *const keys[] = {
	    "MemTotal:",     "MemFree:",	"MemAvailable:", "Active(file):", "Inactive(file):",
	    "Active(anon):", "Inactive(anon):", "Cached:",	 "Dirty:",	  "Writeback:"};
	uint64_t v[ARRAY_LEN(keys)];
	assert_int_equal(kvfile_parse(text, keys, ARRAY_LEN(keys), v), (int)ARRAY_LEN(keys));
	s->mem_total = v[0];
	s->mem_free = v[1];
	s->mem_avail = v[2];
	s->active_file = v[3];
	s->inactive_file = v[4];
	s->active_anon = v[5];
	s->inactive_anon = v[6];
	s->cached = v[7];
	s->dirty = v[8];
	s->writeback = v[9];
	s->have |= SAMPLE_HAVE_MEM;
}

/* The tallest column of role r in rows y0..y1 (eighths of a cell). */
static int tallest_in(const struct grid *g, enum role r, int y0, int y1)
{
	int best = 0;
	for (int x = 0; x < g->w; x++) {
		int h = 0;
		for (int y = y0; y < y1; y++) {
			const struct cell *c = grid_at((struct grid *)g, x, y);
			if (c && c->role == r && c->ch >= 0x2581 && c->ch <= 0x2588)
				h += (int)(c->ch - 0x2580);
		}
		best = h > best ? h : best;
	}
	return best;
}

/* The SVG memory chart's top tick: the largest label between its title and
 * its unit. */
static double svg_mem_top(const char *svg, const char *unit)
{
	const char *a = strstr(svg, ">Memory");
	assert_non_null(a);
	const char *b = strstr(a, unit);
	assert_non_null(b);
	double top = -1;
	for (const char *p = a; (p = strstr(p, "text-anchor=\"end\"")) && p < b; p++)
		top = fmax(top, strtod(strchr(p, '>') + 1, NULL));
	return top;
}

/* The Overview of m at w×h in block glyphs, into v and g (done by the
 * caller: views_done, grid_done). */
static void draw_blocks(struct views *v, struct grid *g, struct model *m, int w, int h)
{
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.glyphs = CHART_BLOCK;
	views_init(v);
	grid_init(g, w, h);
	views_draw(v, m, &u, g);
}

/* Plain lrutop (no run) on a 2 GiB, a 24 GiB and a 1 TiB machine: the
 * lists take a readable share of the memory chart's rows at 80x24,
 * 100x30 and 160x45; where they are a sliver of MemTotal the axis is cut
 * (≈ at its top, the top a step above the stack) and free is a number in
 * the legend; the SVG export cuts at the same top. */
static void test_mem_any_machine(void **state)
{
	(void)state;
	static const struct {
		const char *text, *top, *svg_title, *svg_unit, *svg_free;
		double svg_top;
		int cut;
	} mc[] = {
	    {mem_2g, "1.9G", "Memory, whole system (1.937 GiB)", ">GiB<", NULL, 1.937, 0},
	    {mem_24g, "200M", "Memory, whole system (24 GiB, axis cut at 200 MiB)", ">MiB<",
	     ">free 23.09 GiB<", 200, 1},
	    {mem_1t, "150G", "Memory, whole system (1008 GiB, axis cut at 150 GiB)", ">GiB<",
	     ">free 861.2 GiB<", 150, 1},
	};
	static const int sizes[][2] = {{80, 24}, {100, 30}, {160, 45}};
	for (size_t k = 0; k < ARRAY_LEN(mc); k++) {
		struct model m;
		memset(&m, 0, sizeof(m));
		struct runlog *log;
		mf_model(&m, &log, 256, 1, "vda");
		for (int i = 0; i < 60; i++) {
			struct sample s;
			memset(&s, 0, sizeof(s));
			s.t_ns = T0 + (uint64_t)i * 1000000000ull;
			s.have = SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK;
			s.run = -1;
			meminfo_sample(mc[k].text, &s);
			series_push(m.series, &s);
		}
		for (size_t z = 0; z < ARRAY_LEN(sizes); z++) {
			struct views v;
			struct grid g;
			draw_blocks(&v, &g, &m, sizes[z][0], sizes[z][1]);
			const struct plot *p = &v.overview.plot;
			assert_false(p->cg);
			assert_int_equal(p->mem_cut, mc[k].cut);
			int t = find_row(&g, "Mem"), r = find_row(&g, "Reclaim");
			assert_true(t > 0 && r > t + 3);
			int rows = r - t - 1;
			/* the tallest list: at least a third of the chart's rows */
			int best = 0;
			static const enum role lists[] = {ROLE_ACTIVE, ROLE_INACTIVE, ROLE_ANON};
			for (size_t j = 0; j < ARRAY_LEN(lists); j++) {
				int h = tallest_in(&g, lists[j], t + 1, r);
				best = h > best ? h : best;
			}
			if (getenv("PLOT_DUMP")) {
				char *d = grid_dump(&g);
				fprintf(stderr, "%s\n", d);
				free(d);
			}
			assert_true(3 * best >= rows * 8);
			/* the top label, and the cut's mark on the axis */
			char *top = row_text(&g, t + 1), *leg = row_text(&g, t);
			if (mc[k].cut) {
				assert_non_null(strstr(top, mc[k].top));
				assert_non_null(strstr(top, "\xe2\x89\x88"));
				char want[32];
				fmt_size(want, sizeof(want),
					 (uint64_t)(plot_last(p, PLOT_FREE) * 1024.0));
				char item[48];
				snprintf(item, sizeof(item), "free %s", want);
				assert_non_null(strstr(leg, item)); /* free: the number */
			} else {
				assert_null(strstr(top, "\xe2\x89\x88"));
				assert_true(p->mem_top == p->mem_total);
			}
			free(top);
			free(leg);
			grid_done(&g);
			views_done(&v);
		}

		/* the export: the same cut, the same top */
		struct svg_input in = {.ser = m.series, .disk = "vda"};
		struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
		char *svg = svg_of(&in, &o);
		if (!strstr(svg, mc[k].svg_title))
			fail_msg("no \"%s\" in the SVG", mc[k].svg_title);
		if (mc[k].svg_free)
			assert_non_null(strstr(svg, mc[k].svg_free));
		assert_true(fabs(svg_mem_top(svg, mc[k].svg_unit) - mc[k].svg_top) <
			    0.005 * mc[k].svg_top);
		free(svg);
		mf_model_free(&m, log);
	}
}

/* The unit of the memory axis: the letter after the TUI's top label
 * ("3.9G": 'G'), its number in *top. */
static char tui_mem_unit(const struct grid *g, double *top)
{
	int t = find_row(g, "Mem");
	assert_true(t >= 0);
	char *row = row_text(g, t + 1), *end;
	*top = strtod(row, &end);
	assert_true(end != row);
	char unit = *end;
	free(row);
	return unit;
}

/* The unit of the SVG's memory axis: its upright title ("GiB"), the
 * largest tick label under it in *top. */
static void svg_mem_unit(const char *svg, char *unit, size_t len, double *top)
{
	const char *a = strstr(svg, ">Memory");
	assert_non_null(a);
	const char *v = strstr(a, "rotate(-90)");
	assert_non_null(v);
	const char *gt = strchr(v, '>'), *lt = strchr(gt, '<');
	snprintf(unit, len, "%.*s", (int)(lt - gt - 1), gt + 1);
	*top = -1;
	for (const char *p = a; (p = strstr(p, "text-anchor=\"end\"")) && p < v; p++)
		*top = fmax(*top, strtod(strchr(p, '>') + 1, NULL));
}

/* One recording, two pictures, one memory unit: at MemTotal 3.9, 4.1 and
 * 1000 GiB, the lists filling 70 % of it (the axis is MemTotal) or 30 %
 * (cut at a step above them), the TUI's top label and the SVG's axis say
 * the same unit and the same top — the plot model's (plot.h mem_unit).
 * The SVG said MiB up to 4 GiB while the TUI said G from 1 GiB. */
static void test_mem_unit_agrees(void **state)
{
	(void)state;
	static const double gib[] = {3.9, 4.1, 1000};
	static const double share[] = {0.7, 0.3};
	for (size_t k = 0; k < ARRAY_LEN(gib); k++)
		for (size_t j = 0; j < ARRAY_LEN(share); j++) {
			struct model m;
			memset(&m, 0, sizeof(m));
			struct runlog *log;
			mf_model(&m, &log, 256, 1, "vda");
			uint64_t total = (uint64_t)(gib[k] * 1048576.0); /* KiB */
			uint64_t used = (uint64_t)((double)total * share[j]);
			for (int i = 0; i < 60; i++) {
				struct sample s;
				memset(&s, 0, sizeof(s));
				s.t_ns = T0 + (uint64_t)i * 1000000000ull;
				s.have = SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK | SAMPLE_HAVE_MEM;
				s.run = -1;
				s.mem_total = total;
				s.active_file = used / 2;
				s.inactive_file = used * 3 / 10;
				s.active_anon = used / 5;
				s.mem_free = total - used;
				series_push(m.series, &s);
			}
			struct views v;
			struct grid g;
			draw_blocks(&v, &g, &m, 100, 30);
			assert_int_equal(v.overview.plot.mem_cut, share[j] < 0.5);
			double tui_top;
			char tui = tui_mem_unit(&g, &tui_top);

			struct svg_input in = {.ser = m.series, .disk = "vda"};
			struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
			char *svg = svg_of(&in, &o);
			char unit[16];
			double svg_top;
			svg_mem_unit(svg, unit, sizeof(unit), &svg_top);
			printf("MemTotal %g GiB, lists %g %%: TUI top %g%c, SVG top %g %s\n",
			       gib[k], share[j] * 100, tui_top, tui, svg_top, unit);
			if (tui != unit[0] || fabs(svg_top - tui_top) > 0.051 * tui_top)
				fail_msg(
				    "MemTotal %g GiB: the TUI's axis says %g%c, the SVG's %g %s",
				    gib[k], tui_top, tui, svg_top, unit);
			free(svg);
			grid_done(&g);
			views_done(&v);
			mf_model_free(&m, log);
		}
}

/* ---- the Runs view, two pictures ----------------------------------------- */

/* The SVG Runs view's active axis: its right-axis top label ("1.5 GiB"). */
static void svg_runs_active(const char *svg, char *unit, size_t len, double *top)
{
	char pat[96];
	snprintf(pat, sizeof(pat), "text-anchor=\"start\" font-weight=\"normal\" fill=\"#%06x\"",
		 (unsigned)svg_theme_light.active);
	const char *p = strstr(svg, pat);
	assert_non_null(p); /* the first block's top label */
	char *end;
	*top = strtod(strchr(p, '>') + 1, &end);
	const char *lt = strchr(end, '<');
	snprintf(unit, len, "%.*s", (int)(lt - end - 1), end + 1);
}

/* What the TUI's Runs view at w×h shows: the read scale's top (the
 * legend's "read 0-N MiB/s"), the active axis' ("active(file) 0-1.5G":
 * 1.5, 'G'), the blocks (label rows: a name, then "#1") and the ▼ burst
 * marks. */
struct tui_runs_seen {
	double read_top, af_top;
	char af_unit;
	int blocks, bursts;
};

static void tui_runs(struct model *m, int w, int h, struct tui_runs_seen *seen)
{
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.glyphs = CHART_BLOCK;
	u.view = VIEW_RUNS;
	struct views v;
	views_init(&v);
	struct grid g;
	grid_init(&g, w, h);
	views_draw(&v, m, &u, &g);
	int y = find_row(&g, " read 0-");
	assert_true(y > 0);
	char *t = row_text(&g, y), *end;
	seen->read_top = strtod(strstr(t, " read 0-") + 8, NULL);
	const char *af = strstr(t, " active(file) 0-");
	assert_non_null(af);
	seen->af_top = strtod(af + 16, &end);
	seen->af_unit = *end;
	free(t);
	seen->blocks = seen->bursts = 0;
	for (int yy = 0; yy < y; yy++) {
		t = row_text(&g, yy);
		seen->blocks += t[0] != ' ' && strlen(t) > 16 && t[15] == '#' && strstr(t, "_cp");
		seen->bursts += count(t, "\xe2\x96\xbc");
		free(t);
	}
	assert_int_equal(v.runs.plot.nrows, (size_t)seen->blocks);
	char want[16];
	fmt_num(want, sizeof(want), v.runs.plot.read_max);
	assert_true(fabs(seen->read_top - strtod(want, NULL)) < 1e-9);
	grid_done(&g);
	views_done(&v);
}

/* The TUI's Runs view (at two widths) and the SVG's Runs view of one
 * recording: one read scale (its top label), a block for each of the
 * three runs, the same burst marks — both render plot_runs_build(). */
static void test_runs_tui_and_svg_agree(void **state)
{
	(void)state;
	struct model m;
	struct runlog *log;
	struct source *src = load_demo(&m, &log);
	struct strategy_stats st[MODEL_MAX_STRATEGIES];
	m.stats = st;
	m.nstats = stats_compute(log->results, log->nresults, NULL, st, MODEL_MAX_STRATEGIES);
	assert_int_equal(log->nresults, 3);

	struct tui_runs_seen wide, narrow;
	tui_runs(&m, 160, 45, &wide);
	tui_runs(&m, 100, 45, &narrow);
	double top_wide = wide.read_top, top_narrow = narrow.read_top;
	int blocks_wide = wide.blocks, blocks_narrow = narrow.blocks, bursts_wide = wide.bursts;
	printf("Runs view: read scale top %g MiB/s (160 and 100 columns), %d blocks, %d bursts\n",
	       top_wide, blocks_wide, bursts_wide);
	assert_true(top_wide > 0);
	/* the scale is the samples', not the terminal's width */
	assert_true(top_wide == top_narrow);
	assert_int_equal(blocks_wide, 3);
	assert_int_equal(blocks_narrow, 3);

	struct svg_input in = {.ser = m.series,
			       .events = log->events,
			       .nevents = log->nevents,
			       .runs = log->results,
			       .nruns = log->nresults,
			       .disk = "vda"};
	struct svg_opts o = {.view = SVG_RUNS, .run = -1};
	char *svg = svg_of(&in, &o);
	/* each block's rate axis: the top label, one a block, the TUI's number */
	char lab[48];
	snprintf(lab, sizeof(lab), ">%g MiB/s</text>", top_wide);
	assert_int_equal(count(svg, " MiB/s</text>"), blocks_wide);
	assert_int_equal(count(svg, lab), blocks_wide);
	/* a name label a block: each run's name, closing its text */
	int names = 0;
	for (size_t i = 0; i < log->nresults; i++) {
		const struct run_result *r = &log->results[i];
		int nl = runlog_label_len(r, runlog_common_limit(log->results, log->nresults));
		snprintf(lab, sizeof(lab), "serif\">%.*s</text>", nl, r->name);
		names += count(svg, lab);
	}
	assert_int_equal(names, blocks_wide);
	/* the bursts: the ▼s of the blocks on screen, the triangles of the
	 * picture (one more: its legend's) */
	char tri[32];
	snprintf(tri, sizeof(tri), "z\" fill=\"#%06x\"", (unsigned)svg_theme_light.burst);
	assert_true(bursts_wide > 0);
	assert_int_equal(count(svg, tri) - 1, bursts_wide);
	/* the active axis: the model's top in its unit, both ways */
	char af_unit[16];
	double af_top;
	svg_runs_active(svg, af_unit, sizeof(af_unit), &af_top);
	assert_int_equal(af_unit[0], wide.af_unit);
	assert_true(fabs(af_top - wide.af_top) <= 0.01 * wide.af_top);

	free(svg);
	source_free(src);
	mf_model_free(&m, log);
}

/* Two runs without a memory limit, their active lists climbing to 300 MiB
 * or 1.5 GiB: the Runs view's active axis is the plot model's (the largest
 * list, plot_runs.af_max, in af_unit) in both pictures.  The SVG rounded
 * it on its own (400 MiB, 2000 MiB) while the TUI said 300M and 1.5G. */
static void test_runs_active_axis_agrees(void **state)
{
	(void)state;
	static const uint64_t peak_mib[] = {300, 1536};
	for (size_t k = 0; k < ARRAY_LEN(peak_mib); k++) {
		struct model m;
		struct runlog *log;
		memset(&m, 0, sizeof(m));
		mf_model(&m, &log, 4096, 0.25, "vda");
		uint64_t t = T0, rd = 0, peak = peak_mib[k] << 10; /* KiB */
		for (int run = 0; run < 2; run++) {
			struct run_result *r = &log->results[log->nresults++];
			snprintf(r->name, sizeof(r->name), "rw_cp");
			r->cmd = -1;
			r->repeat = run + 1;
			r->finished = r->ok = 1;
			r->t_start_ns = r->t_copy_ns = t;
			for (int i = 0; i < 40; i++, t += DT) {
				struct sample s;
				mf_sample(&s, t, 1ull << 20, 0);
				s.mem_total = 8ull << 20;
				s.run = (int16_t)run;
				s.phase = PHASE_COPY;
				s.active_file = peak / 4 + (peak - peak / 4) * (uint64_t)i / 39;
				rd += 20 * 2048;
				s.rd_sectors = rd;
				series_push(m.series, &s);
			}
			r->t_end_ns = t - DT;
			r->elapsed_s = (double)(r->t_end_ns - r->t_copy_ns) / 1e9;
			r->peak_active_file_kb = peak;
			r->mbs = 80;
			runlog_add_event(log, r->t_copy_ns, PHASE_COPY);
			runlog_add_event(log, r->t_end_ns, PHASE_IDLE);
		}
		struct strategy_stats st[MODEL_MAX_STRATEGIES];
		m.stats = st;
		m.nstats =
		    stats_compute(log->results, log->nresults, NULL, st, MODEL_MAX_STRATEGIES);
		m.runs.state = RUNS_FINISHED;
		m.runs.current = -1;
		struct tui_runs_seen seen;
		tui_runs(&m, 160, 45, &seen);
		double tui_top = seen.af_top;
		char tui = seen.af_unit;

		struct svg_input in = {.ser = m.series,
				       .events = log->events,
				       .nevents = log->nevents,
				       .runs = log->results,
				       .nruns = log->nresults};
		struct svg_opts o = {.view = SVG_RUNS, .run = -1};
		char *svg = svg_of(&in, &o);
		char unit[16];
		double svg_top;
		svg_runs_active(svg, unit, sizeof(unit), &svg_top);
		printf("active lists to %llu MiB: TUI 0-%g%c, SVG %g %s\n",
		       (unsigned long long)peak_mib[k], tui_top, tui, svg_top, unit);
		if (tui != unit[0] || fabs(svg_top - tui_top) > 0.01 * tui_top)
			fail_msg(
			    "active lists to %llu MiB: the TUI's axis says %g%c, the SVG's %g %s",
			    (unsigned long long)peak_mib[k], tui_top, tui, svg_top, unit);
		free(svg);
		mf_model_free(&m, log);
	}
}

/* The progress line's and the probe's question: bytes moving (copy,
 * flush), not the run's whole copy (sample_in_copy() holds done too). */
static void test_phase_moves_bytes(void **state)
{
	(void)state;
	assert_true(phase_moves_bytes(PHASE_COPY));
	assert_true(phase_moves_bytes(PHASE_FLUSH));
	assert_false(phase_moves_bytes(PHASE_DONE));
	assert_false(phase_moves_bytes(PHASE_PREPARE));
	assert_false(phase_moves_bytes(PHASE_VERIFY));
	assert_false(phase_moves_bytes(PHASE_IDLE));
	assert_false(phase_moves_bytes(PHASE_COUNT));
	struct sample s = {.run = 0, .phase = PHASE_DONE};
	assert_true(sample_in_copy(&s, 0) && !phase_moves_bytes(s.phase));
}

/* The export's time axes (Overview, Runs) take their ticks here. */
static void test_time_ticks(void **state)
{
	(void)state;
	double t[64];
	int n = plot_time_ticks(19.77, 8, t, 64); /* the demo's longest copy */
	assert_int_equal(n, 4);			  /* 0 5 10 15: a step of 5 */
	assert_true(t[0] == 0 && t[1] == 5 && t[3] == 15);
	n = plot_time_ticks(1.625, 8, t, 64); /* 0.2 s wanted: 0.5 s steps */
	assert_int_equal(n, 4);
	assert_true(t[1] == 0.5 && t[3] == 1.5);
	assert_int_equal(plot_time_ticks(0, 8, t, 64), 1); /* one timestamp */
	assert_int_equal(plot_time_ticks(NAN, 8, t, 64), 1);
	assert_int_equal(plot_time_ticks(1000, 8, t, 3), 3); /* at most max */
}

/* The Runs view's scales are kept while what they read holds: the same
 * as a fresh build's at any width, and taken again for other runs. */
static void test_runs_scale_kept(void **state)
{
	(void)state;
	struct model m;
	struct runlog *log;
	struct source *src = load_demo(&m, &log);
	struct plot_runs p, q;
	plot_runs_init(&p);
	plot_runs_init(&q);
	const size_t all[] = {0, 1, 2}, two[] = {0, 2};
	plot_runs_build(&p, m.series, 0.25, log->results, all, 3, 40 * 1024, 137);
	double rd = p.read_max, wr = p.write_max;
	plot_runs_build(&p, m.series, 0.25, log->results, all, 3, 40 * 1024, 50);
	plot_runs_build(&q, m.series, 0.25, log->results, all, 3, 40 * 1024, 50);
	assert_true(p.read_max == rd && q.read_max == rd && q.write_max == wr);
	for (int j = 0; j < 50; j++) {
		double a = plot_runs_row(&p, 1, PLOT_RUN_READ)[j],
		       b = plot_runs_row(&q, 1, PLOT_RUN_READ)[j];
		assert_true((isnan(a) && isnan(b)) || a == b);
	}
	/* rw_cp and mm_sync_madv_cp: flat reads, a lower top than with the sawtooth */
	plot_runs_build(&p, m.series, 0.25, log->results, two, 2, 40 * 1024, 50);
	plot_runs_done(&q);
	plot_runs_build(&q, m.series, 0.25, log->results, two, 2, 40 * 1024, 50);
	assert_true(p.read_max == q.read_max && p.write_max == q.write_max);
	assert_true(p.read_max < rd);
	plot_runs_done(&p);
	plot_runs_done(&q);
	source_free(src);
	mf_model_free(&m, log);
}

/* ---- a replay's jumps ---------------------------------------------------- */

/* The sink as app.c's: samples into the model's history; a reset (a seek
 * backwards) starts a new history and counts a jump. */
static void jump_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct model *m = ctx;
	series_push(m->series, s);
}

static void jump_reset(void *ctx)
{
	struct model *m = ctx;
	size_t cap = series_capacity(m->series);
	series_free(m->series);
	m->series = series_new(cap);
	m->jumps++;
}

/* The model's runs and replay position after the source moved, as
 * app.c's refresh_runs takes them. */
static void jump_refresh(struct model *m, struct source *src)
{
	struct replay_pos rp;
	source_progress(src, &m->runs);
	source_replay_pos(src, &rp);
	m->replay.paused = rp.paused;
	m->replay.at_end = rp.at_end;
	m->replay.t_s = rp.t_s;
}

/* One frame of the Overview (w×30) as the TUI draws it after the source
 * moved, with the plot v has kept, and again with a new plot: the screen
 * and every scale the same.  Returns the read top. */
static double jump_frame(struct views *v, struct model *m, struct source *src, const struct ui *u,
			 int w, const char *what)
{
	jump_refresh(m, src);
	struct views nv;
	views_init(&nv);
	struct grid g, ng;
	grid_init(&g, w, 30);
	grid_init(&ng, w, 30);
	overview_draw(&v->overview, m, u, &g, 0, 30);
	overview_draw(&nv.overview, m, u, &ng, 0, 30);
	const struct plot *p = &v->overview.plot, *q = &nv.overview.plot;
	char *a = grid_dump(&g), *b = grid_dump(&ng);
	if (strcmp(a, b) != 0)
		fail_msg(
		    "%s (t = %.2f s): the screen is not a new plot's:\n%s\n-- a new plot's:\n%s",
		    what, m->replay.t_s, a, b);
	free(a);
	free(b);
	assert_true(p->n == q->n && p->t0_ns == q->t0_ns && p->col_ns == q->col_ns);
	assert_true(p->fit == q->fit && p->split == q->split && p->cg == q->cg);
	assert_true(p->read_max == q->read_max && p->write_max == q->write_max);
	assert_true(p->reclaim_max == q->reclaim_max && p->deact_max == q->deact_max);
	assert_true(same(p->mem_top, q->mem_top) && p->mem_cut == q->mem_cut);
	assert_true(p->nclip_read == q->nclip_read && p->nclip_write == q->nclip_write &&
		    p->nclip_reclaim == q->nclip_reclaim);
	assert_true(p->own_read == q->own_read && p->own_write == q->own_write);
	double top = p->read_max;
	grid_done(&g);
	grid_done(&ng);
	views_done(&nv);
	return top;
}

/* Frames of the demo recording at w columns, one a sample, while the
 * playback goes on to sample `to` (the scales follow the copies). */
static void jump_play(struct views *v, struct model *m, struct source *src, const struct ui *u,
		      int w, size_t to)
{
	struct grid g;
	grid_init(&g, w, 30);
	source_replay_pause(src, 0);
	while (series_len(m->series) < to && source_step(src) == 0) {
		jump_refresh(m, src);
		overview_draw(&v->overview, m, u, &g, 0, 30);
	}
	assert_int_equal(series_len(m->series), to);
	source_replay_pause(src, 1);
	grid_done(&g);
}

/* The demo recording played (a frame a sample), paused, a jump to the
 * start and a jump back to where it was paused, two frames after each:
 * every one is what a new plot of the same window draws.  Before the fix
 * the start's disk top kept the copies' (the paused frames read the kept
 * autoscale), as replay.sh's Home on a fresh machine did (500 for 1.5).
 * Then on a narrow screen of the last samples (f): played on through
 * mm_sync_cp's bursts, paused, a jump to the end, forwards within the
 * history (no reset): the quiet last copy's deactivate scale, not the
 * bursts' (the count of jumps is what says so: no reset did). */
static void test_jump_is_fresh(void **state)
{
	(void)state;
	char path[512], err[512];
	snprintf(path, sizeof(path), "%s/examples/demo-2008.jsonl.gz", LRUTOP_SRCDIR);
	struct model m;
	struct runlog *log;
	memset(&m, 0, sizeof(m));
	mf_model(&m, &log, 4096, 0.25, "vda");
	struct source_sink sink = {.ctx = &m, .sample = jump_sample, .reset = jump_reset};
	struct source *src = source_replay_new(path, 0, log, &sink, NULL, err, sizeof(err));
	if (!src)
		fail_msg("%s", err);
	source_replay_set_window(src, series_capacity(m.series));
	m.replay.on = 1;
	struct views v;
	views_init(&v);
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.glyphs = CHART_BRAILLE;
	/* played to 30 s: into mm_sync_cp's copy, the second of three */
	size_t at = 120;
	jump_play(&v, &m, src, &u, 100, at);
	double played = v.overview.plot.read_max;
	(void)jump_frame(&v, &m, src, &u, 100, "paused");
	/* Home: the start, a sample of it (a seek backwards: a reset) */
	source_replay_seek(src, 0);
	m.jumps++; /* as app_replay_seek */
	double home = jump_frame(&v, &m, src, &u, 100, "Home");
	assert_true(jump_frame(&v, &m, src, &u, 100, "Home, the next frame") == home);
	if (!(home < played))
		fail_msg("the start's disk top %g, the copies' %g", home, played);
	/* back where it was paused: forwards within the history (no reset) */
	source_replay_seek(src, at - 1);
	m.jumps++;
	assert_int_equal(series_len(m.series), at);
	(void)jump_frame(&v, &m, src, &u, 100, "back");
	(void)jump_frame(&v, &m, src, &u, 100, "back, the next frame");

	/* the last 40 samples (28 columns: 20 cells of plot), played on to
	 * 33 s (mm_sync_cp's end), then End (mm_sync_madv_cp: no bursts) */
	u.no_fit = 1;
	jump_play(&v, &m, src, &u, 28, 132);
	double bursts = v.overview.plot.deact_max;
	size_t len = series_len(m.series);
	source_replay_seek(src, (size_t)-1); /* End: clamped to the last sample */
	m.jumps++;
	assert_true(series_len(m.series) > len); /* read on, not reset */
	(void)jump_frame(&v, &m, src, &u, 28, "End");
	if (!(v.overview.plot.deact_max < bursts))
		fail_msg("the quiet end's deactivate top %g, the bursts' %g",
			 v.overview.plot.deact_max, bursts);
	(void)jump_frame(&v, &m, src, &u, 28, "End, the next frame");
	views_done(&v);
	source_free(src);
	mf_model_free(&m, log);
}

/* ---- the run's own I/O in front, robust scales, clipped marks ------------ */

/* n samples, copy [c0, c1) of run 0 reading own MiB a sample from its
 * cgroup (SAMPLE_HAVE_CG_IO), while a neighbour reads nb MiB a sample
 * from the same disk all along; own_spike: a copy sample whose own read
 * is 50 times as much; deactivate at 400 pages a sample, 4000 every 8th
 * copy sample (the bursts), and flush: a sample after the copy at
 * 500000 (a flush / drop_caches). */
static void synth_io(struct synth *y, int n, int c0, int c1, double own, double nb, int own_spike,
		     int flush)
{
	memset(y, 0, sizeof(*y));
	mf_model(&y->m, &y->log, 4096, 0.25, "vda");
	uint64_t dev = 0, cg = 0, deact = 0;
	for (int i = 0; i < n; i++) {
		struct sample s;
		mf_sample(&s, T0 + (uint64_t)i * DT, 2ull << 20, 512ull << 10);
		dev += (uint64_t)(nb * 2048);
		deact += 400;
		if (i >= c0 && i < c1) {
			s.run = 0;
			s.phase = PHASE_COPY;
			s.have |= SAMPLE_HAVE_CG | SAMPLE_HAVE_CG_IO;
			s.cg_limit = 64 * MIB;
			s.cg_usage = 60 * MIB;
			s.cg_active_file = 20 * MIB;
			s.cg_inactive_file = 30 * MIB;
			s.cg_io_gen = 1;
			double mib = i == own_spike ? own * 50 : own;
			cg += (uint64_t)(mib * MIB);
			dev += (uint64_t)(mib * 2048);
			if ((i - c0) % 8 == 7)
				deact += 3600;
		} else if (i == flush) {
			deact += 500000;
		}
		s.rd_sectors = dev;
		s.cg_rd_bytes = cg;
		s.pgdeactivate = deact;
		series_push(y->m.series, &s);
	}
	struct run_result *res = &y->log->results[y->log->nresults++];
	snprintf(res->name, sizeof(res->name), "mm_sync_cp");
	res->cmd = -1;
	res->finished = 1;
	res->t_start_ns = T0 + (uint64_t)c0 * DT;
	res->t_end_ns = T0 + (uint64_t)c1 * DT;
	runlog_add_event(y->log, T0 + (uint64_t)c0 * DT, PHASE_COPY);
	runlog_add_event(y->log, T0 + (uint64_t)c1 * DT, PHASE_IDLE);
}

/* A neighbour reading 150 MiB a sample (600 MiB/s) beside a run reading
 * 8 (32 MiB/s): the run's own bytes are the read series and set its
 * scale, the device's total is kept behind (and not marked clipped). */
static void test_run_io_in_front(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	synth_io(&y, 100, 10, 90, 8, 150, -1, -1);
	plot_whole(&p, &y);
	assert_true(p.own_read);
	assert_false(p.own_write); /* no v2 write-back bytes: the device's writes */
	const double *rd = plot_col(&p, PLOT_READ), *dev = plot_col(&p, PLOT_READ_DEV);
	assert_true(fabs(rd[50] - 32) < 0.01);
	assert_true(fabs(dev[50] - 632) < 0.01);
	assert_true(isnan(rd[5])); /* outside the run: no run's bytes */
	assert_true(fabs(dev[5] - 600) < 0.01);
	assert_true(p.read_level > 32 && p.read_level < 40);
	assert_true(p.read_max >= p.read_level && p.read_max <= 64); /* <= 2x the limit */
	assert_int_equal(p.nclip_read, 0);
	plot_synth_done(&p, &y);

	/* the same without the cgroup's bytes: the device's read, as before */
	synth_make(&y, 100, 10, 90, 8, 8, 0);
	plot_whole(&p, &y);
	assert_false(p.own_read);
	assert_true(fabs(plot_col(&p, PLOT_READ)[50] - plot_col(&p, PLOT_READ_DEV)[50]) < 1e-9);
	plot_synth_done(&p, &y);
}

/* One own-read spike in the copy and a flush's deactivate spike after it:
 * neither sets its scale, each is one clipped column; the bursts stay on
 * the deactivate scale; the TUI marks both clipped columns at the top
 * edge of their charts and labels the run's read and the disk's. */
static void test_robust_scale_clip_marks(void **state)
{
	(void)state;
	struct synth y;
	struct plot p;
	synth_io(&y, 100, 10, 90, 8, 20, 50, 92);
	plot_whole(&p, &y);
	assert_true(p.read_max < 8 * 4 * 50 / 4); /* the spike (1600) does not set it */
	assert_true(p.read_max >= 32);
	assert_int_equal(p.nclip_read, 1);
	assert_true(plot_col(&p, PLOT_CLIP_READ)[50] > 0);
	assert_true(p.deact_max >= 16000);  /* the bursts: 4000 pages a 0.25 s sample */
	assert_true(p.deact_max < 2000000); /* the flush: 500000 a sample */
	assert_int_equal(p.nclip_reclaim, 1);
	assert_int_equal((int)plot_col(&p, PLOT_CLIP_RECLAIM)[92], 1 + PLOT_DEACT);
	for (int i = 0; i < 100; i++)
		if (i != 92)
			assert_true(plot_col(&p, PLOT_CLIP_RECLAIM)[i] == 0);
	plot_done(&p);

	/* the TUI: a cell a column (ASCII), ^ over the clipped columns */
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.glyphs = CHART_ASCII;
	u.no_fit = 1;
	y.m.runs.state = RUNS_FINISHED;
	y.m.runs.current = -1;
	struct views v;
	views_init(&v);
	struct grid g;
	grid_init(&g, 108, 40);
	overview_draw(&v.overview, &y.m, &u, &g, 0, 40);
	const struct plot *q = &v.overview.plot;
	assert_int_equal(q->n, 100);
	int title = find_row(&g, "Disk vda");
	char *t = row_text(&g, title);
	assert_non_null(strstr(t, "rd")); /* compact: the run's ▲rd, then dsk▲ */
	assert_non_null(strstr(t, "dsk\xe2\x96\xb2"));
	free(t);
	int disk_top = title + 1 + 2;
	assert_int_equal(grid_at(&g, 7 + 50, disk_top)->ch, '^');
	assert_int_equal(grid_at(&g, 7 + 49, disk_top)->ch == '^', 0);
	int rec = find_row(&g, "Reclaim") + 1;
	assert_int_equal(grid_at(&g, 7 + 92, rec)->ch, '^');
	assert_int_equal(grid_at(&g, 7 + 92, rec)->role, ROLE_DEACT);
	int marks = 0;
	for (int x = 7; x < 107; x++)
		marks += grid_at(&g, x, rec)->ch == '^';
	assert_int_equal(marks, 1);
	grid_done(&g);
	views_done(&v);
	synth_free(&y);

	/* under --disk-limit 32M a run reading 96 MiB/s in one sample of
	 * three (the throttle lets read-ahead through): the read scale stays
	 * within twice the limit, those samples clip */
	synth_io(&y, 99, 9, 90, 8, 150, -1, -1);
	y.log->disk_limit = 32 * MIB;
	plot_whole(&p, &y);
	assert_true(p.read_max <= 64 && p.read_max >= 32);
	assert_int_equal(p.nclip_read, 0); /* 32 MiB/s: nothing clips */
	plot_synth_done(&p, &y);
	synth_io(&y, 99, 9, 90, 8, 150, 30, -1); /* one sample at 50 x 32 MiB/s */
	y.log->disk_limit = 32 * MIB;
	plot_whole(&p, &y);
	assert_true(p.read_max <= 64);
	assert_int_equal(p.nclip_read, 1);
	plot_synth_done(&p, &y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_one_disk_axis),
	    cmocka_unit_test(test_scale_follows_copy),
	    cmocka_unit_test(test_scope),
	    cmocka_unit_test(test_marks),
	    cmocka_unit_test(test_cache),
	    cmocka_unit_test(test_cache_moves),
	    cmocka_unit_test(test_cache_fit),
	    cmocka_unit_test(test_fit_long_queue),
	    cmocka_unit_test(test_phase_table),
	    cmocka_unit_test(test_runs_blocks),
	    cmocka_unit_test(test_tui_and_svg_agree),
	    cmocka_unit_test(test_mem_cut_rules),
	    cmocka_unit_test(test_mem_any_machine),
	    cmocka_unit_test(test_mem_unit_agrees),
	    cmocka_unit_test(test_runs_tui_and_svg_agree),
	    cmocka_unit_test(test_runs_active_axis_agrees),
	    cmocka_unit_test(test_phase_moves_bytes),
	    cmocka_unit_test(test_time_ticks),
	    cmocka_unit_test(test_runs_scale_kept),
	    cmocka_unit_test(test_run_io_in_front),
	    cmocka_unit_test(test_robust_scale_clip_marks),
	    cmocka_unit_test(test_jump_is_fresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
