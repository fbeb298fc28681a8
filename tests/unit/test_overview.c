/* The overview drawn headless into a grid (as bench/tick.c does) from a
 * synthetic run with a known sawtooth: a 10 s mm_sync_cp-like copy sampled
 * every 50 ms whose cgroup active list climbs for 0.55 s and is demoted in
 * one sample, again and again. */
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
#include "model/model.h"
#include "runs/strategy.h"
#include "screen/ui.h"
#include "screen/views.h"
#include "gridtest.h"
#include "modelfix.h"

#define MIB (1024ull * 1024)
#define T0 100000000000ull /* 100 s */
#define DT 50000000ull	   /* 50 ms */
#define RUN_SAMPLES 200	   /* 10 s */
#define TOOTH 11	   /* 0.55 s */
#define IDLE_AFTER 20	   /* 1 s of idle samples (no cgroup) after the run */

struct fixture {
	struct model m;
	struct runlog *log;
	struct ui u;
	struct views v;
	struct grid g;
	int bursts;
};

/* 1: the disk limit's picture: reads of 20-30 MiB/s (throttled) beside
 * write-back at 600 MiB/s (v1 blkio does not throttle it) */
static int throttled;
/* writes at this many times the reads (0: none, as before) */
static double write_x;
/* MGLRU with debugfs: the run's samples carry its memcg's generations
 * (gen0 climbs with the list, gen2 holds the rest) */
static int with_gens;
/* --probe: the fixture's samples carry the probe's figures, 0.25 ms
 * reads in the first half of the run, 120 ms p99 in the second */
static int with_probe;

static void build(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	mf_model(&f->m, &f->log, 4096, 0.05, "vda");
	uint64_t rd = 0, wr = 0;
	for (int i = 0; i < RUN_SAMPLES + IDLE_AFTER; i++) {
		struct sample s;
		mf_sample(&s, T0 + (uint64_t)i * DT, 2ull << 20, 512ull << 10);
		if (i < RUN_SAMPLES) {
			s.have |= SAMPLE_HAVE_CG;
			s.run = 0;
			s.phase = PHASE_COPY;
			s.cg_limit = 64 * MIB;
			uint64_t af = 8 * MIB + (uint64_t)(i % TOOTH) * 3 * MIB; /* 8 .. 38 MiB */
			s.cg_active_file = af;
			s.cg_inactive_file = 56 * MIB - af;
			s.cg_usage = 60 * MIB;
			rd += (i % TOOTH == 0 ? 10 : 20) * 2048; /* sectors: 10 or 20 MiB a sample */
			if (write_x > 0)
				wr += (uint64_t)((i % TOOTH == 0 ? 10 : 20) * 2048 * write_x);
			if (throttled) {
				rd -= (i % TOOTH == 0 ? 10 : 20) * 2048 - (i % TOOTH == 0 ? 2 : 3) * 1024;
				wr += 30 * 2048;
			}
		}
		s.rd_sectors = rd;
		s.wr_sectors = wr;
		if (with_gens && i < RUN_SAMPLES) {
			s.have |= SAMPLE_HAVE_MGLRU | SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG;
			s.gen_n = 4;
			s.gen_file[0] = s.cg_active_file / 4096;
			s.gen_file[1] = 0;
			s.gen_file[2] = s.cg_inactive_file / 4096;
			s.gen_file[3] = 256; /* 1 MiB */
			s.gen_seq = 10 + (uint64_t)(i / TOOTH); /* aging at each tooth */
		}
		if (with_probe) {
			s.have |= SAMPLE_HAVE_PROBE;
			s.probe_n = 2;
			s.probe_p50 = 250000;
			s.probe_p99 = s.probe_max = i >= RUN_SAMPLES / 2 && i < RUN_SAMPLES ? 120000000 : 300000;
		}
		series_push(f->m.series, &s);
	}
	for (size_t i = 1; i < series_len(f->m.series); i++)
		f->bursts += burst_between(series_at(f->m.series, i - 1), series_at(f->m.series, i));
	struct run_result *r = &f->log->results[f->log->nresults++];
	snprintf(r->name, sizeof(r->name), "mm_sync_cp");
	r->cmd = -1;
	r->finished = r->ok = 1;
	r->t_start_ns = T0;
	r->t_copy_ns = T0;
	r->t_end_ns = T0 + (RUN_SAMPLES - 1) * DT;
	runlog_add_event(f->log, T0, PHASE_PREPARE);
	runlog_add_event(f->log, T0 + DT, PHASE_COPY);
	runlog_add_event(f->log, r->t_end_ns, PHASE_IDLE);
	f->m.runs.state = RUNS_FINISHED;
	f->m.runs.current = -1;
	f->m.runs.queue_len = f->m.runs.queue_next = 1;
	f->u.glyphs = CHART_BLOCK;
	views_init(&f->v);
}

static void done(struct fixture *f)
{
	views_done(&f->v);
	grid_done(&f->g);
	mf_model_free(&f->m, f->log);
}

static void draw(struct fixture *f, int w, int h)
{
	grid_init(&f->g, w, h);
	views_draw(&f->v, &f->m, &f->u, &f->g);
}

/* Height of the active band in eighths of a cell, per cell column. */
static void active_heights(const struct grid *g, int *hgt)
{
	for (int x = 0; x < g->w; x++) {
		hgt[x] = 0;
		for (int y = 0; y < g->h; y++) {
			const struct cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			if (c->role == ROLE_ACTIVE && c->ch >= 0x2581 && c->ch <= 0x2588)
				hgt[x] += (int)(c->ch - 0x2580);
		}
	}
}

static void test_sawtooth_teeth(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	assert_true(f.bursts >= 15); /* the fixture's own sanity: one per tooth */
	draw(&f, 120, 40);
	int hgt[120], drops = 0, last_drop = -100, narrow = 0, first = -1, lastx = -1, mx = 0;
	active_heights(&f.g, hgt);
	for (int x = 0; x < 120; x++) {
		mx = hgt[x] > mx ? hgt[x] : mx;
		if (hgt[x] > 0) {
			first = first < 0 ? x : first;
			lastx = x;
		}
	}
	assert_true(mx >= 16); /* the band climbs at least two cells */
	for (int x = 1; x < 120; x++)
		if (hgt[x] > 0 && hgt[x - 1] - hgt[x] >= mx / 3) {
			if (x - last_drop < 2)
				narrow++;
			last_drop = x;
			drops++;
		}
	assert_int_equal(drops, f.bursts);
	assert_int_equal(narrow, 0); /* each tooth >= 2 cells wide */
	/* fit: the run spans >= 80 % of the plot (120 - 8 columns of axis) */
	assert_true(lastx - first + 1 >= (120 - 8) * 8 / 10);
	done(&f);
}

/* Height of the blocks of the probe's roles in column x from row y0 down
 * (eighths of a cell; a p50 line over the p99 area takes the cell). */
static int probe_height(const struct grid *g, int x, int y0, int rows)
{
	int h = 0;
	for (int y = y0; y < y0 + rows && y < g->h; y++) {
		const struct cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
		if ((c->role == ROLE_READ || c->role == ROLE_ACTIVE || c->role == ROLE_PSI) &&
		    c->ch >= 0x2581 && c->ch <= 0x2588)
			h += (int)(c->ch - 0x2580);
	}
	return h;
}

static void test_probe_strip(void **state)
{
	(void)state;
	struct fixture f;
	build(&f); /* no probe figures: no strip */
	draw(&f, 120, 40);
	assert_int_equal(find_row(&f.g, "Probe"), -1);
	done(&f);
	with_probe = 1;
	build(&f);
	with_probe = 0;
	snprintf(f.m.probe_mode, sizeof(f.m.probe_mode), "cold");
	draw(&f, 120, 40);
	if (getenv("OVERVIEW_DUMP")) {
		char *d = grid_dump(&f.g);
		fprintf(stderr, "%s\n", d);
		free(d);
	}
	int y = find_row(&f.g, "Probe cold read latency");
	assert_true(y > 0);
	char *t = row_text(&f.g, y);
	assert_non_null(strstr(t, "p99 0.30ms")); /* the last sample's, idle again */
	free(t);
	assert_true(find_row(&f.g, "probe cold") == 0); /* the header says the mode */
	/* the p99 area stands higher over the run's second half (120 ms) than
	 * over its first (0.3 ms): a log scale, both visible */
	int lo = 0, hi = 0;
	for (int x = 10; x < 30; x++)
		lo += probe_height(&f.g, x, y + 1, 3);
	for (int x = 70; x < 90; x++)
		hi += probe_height(&f.g, x, y + 1, 3);
	assert_true(lo > 0);
	assert_true(hi > 2 * lo);
	done(&f);
}

static void test_labels_and_legend(void **state)
{
	(void)state;
	static const int sizes[][2] = {{100, 30}, {80, 24}, {160, 45}};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct fixture f;
		build(&f);
		draw(&f, sizes[i][0], sizes[i][1]);
		int y = find_row(&f.g, "mm_sync_cp");
		assert_true(y > 0); /* the run label, whole */
		char *t = row_text(&f.g, y);
		assert_null(strstr(t, "\xe2\x96\xbc")); /* no burst mark on the label row */
		free(t);
		t = row_text(&f.g, y + 1); /* bursts on a row of their own, right under */
		assert_non_null(strstr(t, "\xe2\x96\xbc"));
		free(t);
		if (getenv("OVERVIEW_DUMP")) {
			char *d = grid_dump(&f.g);
			fprintf(stderr, "%s\n", d);
			free(d);
		}
		/* after the run, idle samples without a cgroup: the legend keeps the
		 * run's last value, never "-" */
		int my = find_row(&f.g, "Mem");
		assert_true(my > 0);
		t = row_text(&f.g, my);
		assert_null(strstr(t, " -"));
		assert_non_null(strstr(t, "act"));
		free(t);
		done(&f);
	}
}

/* MGLRU with its generations: the memory chart stacks them, youngest at
 * the bottom, and says so; the sawtooth's agings are the bursts. */
static void test_mglru_generations(void **state)
{
	(void)state;
	with_gens = 1;
	struct fixture f;
	build(&f);
	f.m.mglru = 1;
	draw(&f, 120, 36);
	with_gens = 0;
	if (getenv("OVERVIEW_DUMP")) {
		char *d = grid_dump(&f.g);
		fprintf(stderr, "%s\n", d);
		free(d);
	}
	int my = find_row(&f.g, "Memory gens, young\xe2\x86\x92old (cgroup, limit 64M)");
	assert_true(my > 0);
	char *t = row_text(&f.g, my);
	assert_non_null(strstr(t, "gen0 8M"));
	assert_non_null(strstr(t, "gen3 1M"));
	assert_non_null(strstr(t, "headroom"));
	assert_null(strstr(t, "active(file)"));
	free(t);
	int n[ROLE_COUNT] = {0};
	for (int y = my + 1; y < f.g.h; y++)
		for (int x = 0; x < f.g.w; x++)
			n[grid_at(&f.g, x, y)->role]++;
	assert_true(n[ROLE_GEN0] > 0 && n[ROLE_GEN2] > 0);
	assert_int_equal(n[ROLE_ACTIVE], 0);
	/* gen0 sits under gen2 in every column that has both */
	for (int x = 0; x < f.g.w; x++) {
		int y0 = -1, y2 = -1;
		for (int y = my + 1; y < f.g.h; y++) {
			enum role r = grid_at(&f.g, x, y)->role;
			if (r == ROLE_GEN0 && y0 < 0)
				y0 = y;
			if (r == ROLE_GEN2 && y2 < 0)
				y2 = y;
		}
		if (y0 >= 0 && y2 >= 0)
			assert_true(y2 < y0);
	}
	assert_true(f.bursts > 0); /* each tooth: aging and the fall */
	done(&f);

	/* the same run without debugfs: the lists, labelled for MGLRU */
	build(&f);
	f.m.mglru = 1;
	draw(&f, 120, 36);
	my = find_row(&f.g, "active(file)=2 youngest gens");
	assert_true(my > 0);
	assert_int_equal(find_row(&f.g, "Memory gens"), -1);
	done(&f);
}

static void test_paused_axis(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	f.u.no_fit = 1;
	draw(&f, 120, 40);
	int live = find_row(&f.g, " now");
	assert_true(live > 0);
	/* the newest second has no cgroup: the memory legend keeps the run's
	 * last values rather than "-" */
	char *m = row_text(&f.g, find_row(&f.g, "Memory"));
	assert_null(strstr(m, " -"));
	assert_non_null(strstr(m, "active(file) 11M"));
	free(m);
	grid_done(&f.g);
	/* paused 2 s back: the axis says how far back the shown samples are */
	f.u.paused = 1;
	f.u.scroll = 40;
	draw(&f, 120, 40);
	assert_int_equal(find_row(&f.g, " now"), -1);
	int y = find_row(&f.g, "-3s");
	assert_true(y > 0);
	char *t = row_text(&f.g, y);
	assert_null(strstr(t, "-1s")); /* newer than what is shown */
	free(t);
	assert_true(find_row(&f.g, "PAUSED  -2.0s") > 0);
	done(&f);
}

/* Mid-run: the window spans the run's expected end (the right part is
 * still to come), and the ETA stays on the progress line at 80 columns. */
static void test_running(void **state)
{
	(void)state;
	static const int sizes[][2] = {{80, 24}, {100, 30}};
	for (size_t i = 0; i < 2; i++) {
		struct fixture f;
		build(&f);
		f.log->results[0].finished = 0;
		f.log->results[0].t_end_ns = 0;
		f.log->results[0].t_copy_ns = T0;
		f.m.runs.state = RUNS_RUNNING;
		f.m.runs.current = 0;
		f.m.runs.phase = PHASE_COPY;
		f.m.runs.total = 2048 * MIB;
		/* 11 s in (the fixture's newest sample): half done, ETA ~11 s */
		f.m.runs.done = 1024 * MIB;
		draw(&f, sizes[i][0], sizes[i][1]);
		if (getenv("OVERVIEW_DUMP")) {
			char *d = grid_dump(&f.g);
			fprintf(stderr, "%s\n", d);
			free(d);
		}
		int y = find_row(&f.g, "ETA 1");
		assert_true(y > 0);
		assert_true(find_row(&f.g, "mm_sync_cp") > 0);
		/* the active band ends about half way: the rest is the future */
		int hgt[100], lastx = -1;
		active_heights(&f.g, hgt);
		for (int x = 0; x < f.g.w; x++)
			if (hgt[x] > 0)
				lastx = x;
		assert_true(lastx > f.g.w * 3 / 10 && lastx < f.g.w * 7 / 10);
		done(&f);
	}
}

/* rd@burst: the fixture reads 10 MiB in a burst interval, 20 elsewhere */
static void test_read_at_burst(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	struct run_figures fig;
	burst_run_figures(f.m.series, T0, 0, T0 + (RUN_SAMPLES - 1) * DT, &fig);
	assert_int_equal(fig.bursts, f.bursts);
	assert_true(fig.read_at_burst > 0.45 && fig.read_at_burst < 0.55);
	/* rw_cp-like: no burst, no figure */
	burst_run_figures(f.m.series, T0 + RUN_SAMPLES * DT, 0, T0 + (RUN_SAMPLES + 10) * DT, &fig);
	assert_int_equal(fig.bursts, 0);
	assert_true(isnan(fig.read_at_burst));
	done(&f);
}

/* Height in eighths of a cell of the tallest column of role r. */
static int tallest(const struct grid *g, enum role r)
{
	int best = 0;
	for (int x = 0; x < g->w; x++) {
		int h = 0;
		for (int y = 0; y < g->h; y++) {
			const struct cell *c = &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
			if (c->role == r && c->ch >= 0x2581 && c->ch <= 0x2588)
				h += (int)(c->ch - 0x2580);
			else if (c->role == r && c->ch == 0x2588)
				h += 8;
		}
		best = h > best ? h : best;
	}
	return best;
}

/* Throttled reads beside unthrottled write-back: each half of the disk
 * chart gets its own scale, so the 20-30 MiB/s read sawtooth fills its
 * half instead of one row of a 600 MiB/s scale. */
/* A replay's header at 80 columns: the recording's date gives way, the
 * replay clock and the glyph mode stay whole (they were cut at "block"). */
static void test_replay_header_80(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	snprintf(f.m.host, sizeof(f.m.host), "vm");
	snprintf(f.m.kernel, sizeof(f.m.kernel), "6.18.44-fc-v1045");
	f.m.replay.on = 1;
	f.m.replay.at_end = 1;
	f.m.replay.speed = 16;
	f.m.replay.t_s = f.m.replay.len_s = 44.0;
	snprintf(f.m.replay.date, sizeof(f.m.replay.date), "2026-12-01 14:33");
	draw(&f, 80, 24);
	char *h = row_text(&f.g, 0);
	assert_non_null(strstr(h, "REPLAY"));
	assert_non_null(strstr(h, "t = 44.0 s / 44.0 s"));
	assert_non_null(strstr(h, "blocks"));
	free(h);
	grid_done(&f.g);
	/* wide enough: the date is there */
	draw(&f, 160, 45);
	h = row_text(&f.g, 0);
	assert_non_null(strstr(h, "2026-12-01 14:33"));
	assert_non_null(strstr(h, "blocks"));
	free(h);
	done(&f);
}

/* Paused, the picture is drawn again every tick and must not change: a
 * disk scale left high by an earlier spike (its shrink countdown under
 * way) stays put for 60 draws (the countdown is 40); unpaused it comes
 * down to the data.  tui.sh saw the charts move while paused. */
static void test_paused_frozen(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	draw(&f, 120, 40);
	grid_done(&f.g);
	f.v.overview.plot.as_read.max = 5000; /* an old spike's scale */
	f.v.overview.plot.as_read.low_ticks = 30;
	f.u.paused = 1;
	draw(&f, 120, 40);
	char *first = grid_dump(&f.g);
	grid_done(&f.g);
	for (int i = 0; i < 60; i++) {
		draw(&f, 120, 40);
		char *d = grid_dump(&f.g);
		if (strcmp(d, first) != 0)
			fail_msg("paused: draw %d differs from the first", i + 2);
		free(d);
		grid_done(&f.g);
	}
	f.u.paused = 0;
	for (int i = 0; i < 45; i++) {
		draw(&f, 120, 40);
		grid_done(&f.g);
	}
	assert_true(f.v.overview.plot.as_read.max < 5000);
	draw(&f, 120, 40);
	free(first);
	done(&f);
}

static void test_disk_scales_apart(void **state)
{
	(void)state;
	throttled = 1;
	struct fixture f;
	build(&f);
	throttled = 0;
	draw(&f, 120, 40);
	int rows = find_row(&f.g, "Memory") - find_row(&f.g, "Disk") - 3; /* title, labels, bursts */
	assert_true(rows >= 6);
	int read_h = tallest(&f.g, ROLE_READ);
	assert_true(read_h >= (rows / 2) * 8 / 2); /* >= half its half */
	char *t = row_text(&f.g, find_row(&f.g, "Disk"));
	assert_non_null(strstr(t, "own scales"));
	free(t);
	done(&f);
	/* alike rates keep one scale and say nothing: none, or 1.3x */
	for (int k = 0; k < 2; k++) {
		write_x = k ? 1.3 : 0;
		build(&f);
		draw(&f, 120, 40);
		t = row_text(&f.g, find_row(&f.g, "Disk"));
		assert_null(strstr(t, "own scales"));
		free(t);
		done(&f);
	}
	/* under --disk-limit apart whatever the ratio: reads are throttled,
	 * v1 write-back is not */
	write_x = 1.3;
	build(&f);
	write_x = 0;
	f.log->disk_limit = 32ull << 20;
	draw(&f, 120, 40);
	t = row_text(&f.g, find_row(&f.g, "Disk"));
	assert_non_null(strstr(t, "own scales"));
	free(t);
	done(&f);
	/* write-back at 2.5x the reads (the 2008 demo: 32 MiB/s read beside
	 * 150 MiB/s flushes): apart, and the reads fill half their half */
	write_x = 2.5;
	build(&f);
	write_x = 0;
	draw(&f, 120, 40);
	t = row_text(&f.g, find_row(&f.g, "Disk"));
	assert_non_null(strstr(t, "own scales"));
	free(t);
	assert_true(tallest(&f.g, ROLE_READ) >= (rows / 2) * 8 / 2);
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sawtooth_teeth),
	    cmocka_unit_test(test_disk_scales_apart),
	    cmocka_unit_test(test_labels_and_legend),
	    cmocka_unit_test(test_mglru_generations),
	    cmocka_unit_test(test_probe_strip),
	    cmocka_unit_test(test_paused_axis),
	    cmocka_unit_test(test_read_at_burst),
	    cmocka_unit_test(test_running),
	    cmocka_unit_test(test_replay_header_80),
	    cmocka_unit_test(test_paused_frozen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
