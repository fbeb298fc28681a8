/* The Runs view drawn headless into a grid (as test_overview.c does the
 * overview) from three synthetic finished runs sampled every 50 ms: a flat
 * rw_cp-like copy of 4 s, a 10 s mm_sync_cp-like copy whose cgroup active
 * list climbs for 0.55 s and is demoted in one sample, again and again,
 * and a flat 6 s mm_sync_madv_cp-like copy. */
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
#include "model/stats.h"
#include "runs/strategy.h"
#include "model/sweep.h"
#include "screen/ui.h"
#include "screen/views.h"
#include "gridtest.h"
#include "modelfix.h"

#define MIB   (1024ull * 1024)
#define T0    100000000000ull /* 100 s */
#define DT    50000000ull     /* 50 ms */
#define TOOTH 11	      /* 0.55 s */
#define NRUNS 3
#define SAW   1 /* the sawtooth run */

static const char *const names[NRUNS] = {"rw_cp", "mm_sync_cp", "mm_sync_madv_cp"};
static const int samples[NRUNS] = {80, 200, 120}; /* 4 s, 10 s, 6 s */
static const char *label_suffix = ""; /* "@32M": the runs' --disk-limit label */
static int write_mib = 20;	      /* MiB written a sample (160: a flush's write-back) */

struct fixture {
	struct model m;
	struct runlog *log;
	struct strategy_stats st[MODEL_MAX_STRATEGIES];
	struct ui u;
	struct views v;
	struct grid g;
	int bursts; /* of the sawtooth run */
};

static void build(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	mf_model(&f->m, &f->log, 4096, 0.05, "vda");
	uint64_t rd = 0, wr = 0, t = T0;
	for (int run = 0; run < NRUNS; run++) {
		struct run_result *r = &f->log->results[f->log->nresults++];
		snprintf(r->name, sizeof(r->name), "%s%s", names[run], label_suffix);
		r->cmd = -1;
		r->repeat = 1;
		r->finished = r->ok = 1;
		r->t_start_ns = r->t_copy_ns = t;
		size_t first = series_len(f->m.series);
		for (int i = 0; i < samples[run]; i++, t += DT) {
			struct sample s;
			mf_sample(&s, t, 2ull << 20, 0);
			s.have |= SAMPLE_HAVE_CG;
			s.run = (int16_t)run;
			s.phase = PHASE_COPY;
			s.cg_limit = 64 * MIB;
			uint64_t af = run == SAW
					  ? 8 * MIB + (uint64_t)(i % TOOTH) * 3 * MIB /* 8 .. 38 */
					  : 20 * MIB;
			s.cg_active_file = af;
			s.cg_inactive_file = 56 * MIB - af;
			s.cg_usage = 60 * MIB;
			rd +=
			    (run == SAW && i % TOOTH == 0 ? 10 : 20) * 2048; /* sectors a sample */
			wr += (uint64_t)write_mib * 2048;
			s.rd_sectors = rd;
			s.wr_sectors = wr;
			series_push(f->m.series, &s);
		}
		r->t_end_ns = t - DT;
		r->elapsed_s = (double)(r->t_end_ns - r->t_copy_ns) / 1e9;
		struct run_figures fig;
		burst_run_figures(f->m.series, r->t_copy_ns, 0, r->t_end_ns, &fig);
		r->read_cv = fig.read_cv;
		r->write_cv = fig.write_cv;
		r->read_at_burst = fig.read_at_burst;
		r->bursts = fig.bursts;
		r->peak_active_file_kb = fig.peak_active_file_kb;
		r->mbs = 400;
		/* rd/cp: the sawtooth run read its 100 MiB twice */
		r->bytes = 100 * MIB;
		r->inblock = (run == SAW ? 2 : 1) * 100 * 2048;
		if (run == SAW)
			for (size_t i = first + 1; i < series_len(f->m.series); i++)
				f->bursts += burst_between(series_at(f->m.series, i - 1),
							   series_at(f->m.series, i));
		runlog_add_event(f->log, r->t_copy_ns, PHASE_COPY);
		runlog_add_event(f->log, r->t_end_ns, PHASE_IDLE);
	}
	f->log->mem_limit = 64 * MIB;
	f->m.stats = f->st;
	f->m.nstats =
	    stats_compute(f->log->results, f->log->nresults, NULL, f->st, MODEL_MAX_STRATEGIES);
	f->m.runs.state = RUNS_FINISHED;
	f->m.runs.current = -1;
	f->m.runs.queue_len = f->m.runs.queue_next = NRUNS;
	f->u.glyphs = CHART_BLOCK;
	f->u.view = VIEW_RUNS;
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
	grid_done(&f->g);
	grid_init(&f->g, w, h);
	views_draw(&f->v, &f->m, &f->u, &f->g);
	if (getenv("RUNS_DUMP")) {
		char *d = grid_dump(&f->g);
		fprintf(stderr, "%dx%d\n%s\n", w, h, d);
		free(d);
	}
}

static const struct cell *at(const struct grid *g, int x, int y)
{
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

/* The row of a block's label ("mm_sync_cp     #1" at the left edge), or
 * of a table row (" mm_sync_cp   1 ..."): -1 when none. */
/* The first row that begins with prefix, -1 when none. */
static int find_prefix(const struct grid *g, const char *prefix)
{
	for (int y = 0; y < g->h; y++) {
		char *t = row_text(g, y);
		int hit = !strncmp(t, prefix, strlen(prefix));
		free(t);
		if (hit)
			return y;
	}
	return -1;
}

static int find_run(const struct grid *g, const char *name, int table)
{
	size_t l = strlen(name);
	for (int y = 0; y < g->h; y++) {
		char *t = row_text(g, y), *p = t + (table ? 1 : 0);
		int hit = (!table || t[0] == ' ') && !strncmp(p, name, l);
		p += hit ? l : 0;
		while (hit && *p == ' ')
			p++;
		hit = hit && (table ? *p >= '0' && *p <= '9' : *p == '#');
		free(t);
		if (hit)
			return y;
	}
	return -1;
}

/* A chart cell (not text, not a marker line) of the role. */
static int chart_cell(const struct cell *c, enum role r)
{
	return c->role == r && c->ch >= 0x2580 && c->ch <= 0x28ff;
}

/* The rows of each run's block: its label row to the next one's (the
 * last: to the first row without a chart cell). */
static void blocks(const struct grid *g, int *top, int *bottom)
{
	for (int k = 0; k < NRUNS; k++) {
		top[k] = find_run(g, names[k], 0);
		assert_true(top[k] > 0); /* the label, whole */
	}
	for (int k = 0; k + 1 < NRUNS; k++)
		bottom[k] = top[k + 1];
	/* the last: up to the time axis ("0s" under the plot's left edge) */
	bottom[NRUNS - 1] = -1;
	for (int y = top[NRUNS - 1] + 1; y < g->h && bottom[NRUNS - 1] < 0; y++) {
		char *t = row_text(g, y);
		if (strstr(t, " 0s "))
			bottom[NRUNS - 1] = y;
		free(t);
	}
	assert_true(bottom[NRUNS - 1] > top[NRUNS - 1]);
}

static const int sizes[][2] = {{80, 24}, {100, 30}, {160, 45}};

/* The blocks take >= 80 % of the rows the table leaves them (between the
 * title and the table's header: the time axis and the legend), and the
 * table ends near the bottom: blocks and table fill the screen. */
static void test_rows_fill(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct fixture f;
		build(&f);
		draw(&f, sizes[i][0], sizes[i][1]);
		int title = find_row(&f.g, "Runs:"), head = find_prefix(&f.g, " strategy ");
		assert_true(title > 0 && head > title);
		int avail = (head - 1) - title - 1 - 2; /* the group row; axis, legend */
		int top[NRUNS], bottom[NRUNS];
		blocks(&f.g, top, bottom);
		int used = bottom[NRUNS - 1] - top[0];
		assert_true(avail > 0);
		if (used * 10 < avail * 8)
			fail_msg("%dx%d: the blocks take %d of %d rows", sizes[i][0], sizes[i][1],
				 used, avail);
		/* the table's last strategy, within the last 4 rows (status lines) */
		int y = find_run(&f.g, "mm_sync_madv_cp", 1);
		assert_true(y > head && y >= f.g.h - 4);
		done(&f);
	}
}

/* In each block the rate area and the active area lie in rows of their
 * own: their bounding boxes share no cell. */
static void test_areas_apart(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int gl = 0; gl < 2; gl++) {
			struct fixture f;
			build(&f);
			f.u.glyphs = gl ? CHART_BRAILLE : CHART_BLOCK;
			draw(&f, sizes[i][0], sizes[i][1]);
			int top[NRUNS], bottom[NRUNS];
			blocks(&f.g, top, bottom);
			for (int k = 0; k < NRUNS; k++) {
				int a0 = 1 << 20, a1 = -1, r0 = 1 << 20, r1 = -1, ax0 = 1 << 20,
				    ax1 = -1, rx0 = 1 << 20, rx1 = -1;
				for (int y = top[k]; y < bottom[k]; y++)
					for (int x = 0; x < f.g.w; x++) {
						const struct cell *c = at(&f.g, x, y);
						if (chart_cell(c, ROLE_ACTIVE)) {
							a0 = y < a0 ? y : a0, a1 = y > a1 ? y : a1;
							ax0 = x < ax0 ? x : ax0,
							ax1 = x > ax1 ? x : ax1;
						}
						if (chart_cell(c, ROLE_READ) ||
						    chart_cell(c, ROLE_WRITE)) {
							r0 = y < r0 ? y : r0, r1 = y > r1 ? y : r1;
							rx0 = x < rx0 ? x : rx0,
							rx1 = x > rx1 ? x : rx1;
						}
					}
				assert_true(a1 >= 0 && r1 >= 0); /* both drawn */
				int rows_meet = !(a1 < r0 || r1 < a0),
				    cols_meet = !(ax1 < rx0 || rx1 < ax0);
				assert_false(rows_meet && cols_meet);
			}
			done(&f);
		}
	}
}

/* The header row: rd/cp, rdCV and rd@burst at every width, wrCV at 100
 * columns and more, every label whole (a word between spaces), nothing
 * past the edge; at 80 columns the labels that fit are whole too.  The
 * sawtooth run's block says its rd/cp. */
static int has_word(const char *line, const char *w)
{
	size_t l = strlen(w);
	for (const char *p = strstr(line, w); p; p = strstr(p + 1, w))
		if ((p == line || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0'))
			return 1;
	return 0;
}

static void test_table_header(void **state)
{
	(void)state;
	static const int widths[] = {80, 100, 120, 160};
	static const char *const always[] = {"strategy", "runs",  "median",
					     "/fastest", "rd/cp", "rdCV", "rd@burst"};
	static const char *const wide[] = {"wrCV", "bursts", "vs base"};
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct fixture f;
		build(&f);
		draw(&f, widths[i], 30);
		int y = find_prefix(&f.g, " strategy ");
		assert_true(y > 0);
		char *t = row_text(&f.g, y);
		assert_true((int)strlen(t) <= widths[i] - 1);
		for (size_t k = 0; k < sizeof(always) / sizeof(always[0]); k++)
			assert_true(has_word(t, always[k]));
		if (widths[i] >= 100)
			for (size_t k = 0; k < sizeof(wide) / sizeof(wide[0]); k++)
				assert_true(has_word(t, wide[k]));
		free(t);
		t = row_text(&f.g, y - 1); /* the group row */
		assert_true(has_word(t, "elapsed") && has_word(t, "MiB/s"));
		free(t);
		/* the sawtooth run's figures under them: rd@burst 0.50, rd/cp 2.00 */
		t = row_text(&f.g, find_run(&f.g, "mm_sync_cp", 1));
		assert_non_null(strstr(t, "0.50"));
		assert_non_null(strstr(t, " 2.00 "));
		free(t);
		assert_true(find_row(&f.g, "  rd/cp 2.00  rdCV ") >= 0);
		assert_true(find_row(&f.g, "  rd/cp 1.00  rdCV ") >= 0);
		done(&f);
	}
}

/* At 120 columns the sawtooth run's active strip drops once per burst,
 * and its burst marks sit on a row of their own, off the labels. */
static void test_sawtooth_drops(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	assert_true(f.bursts >= 15); /* the fixture's own sanity: one per tooth */
	draw(&f, 120, 40);
	int top[NRUNS], bottom[NRUNS];
	blocks(&f.g, top, bottom);
	int hgt[120], mx = 0, drops = 0;
	for (int x = 0; x < 120; x++) {
		hgt[x] = 0;
		for (int y = top[SAW]; y < bottom[SAW]; y++) {
			const struct cell *c = at(&f.g, x, y);
			if (c->role == ROLE_ACTIVE && c->ch >= 0x2581 && c->ch <= 0x2588)
				hgt[x] += (int)(c->ch - 0x2580);
		}
		mx = hgt[x] > mx ? hgt[x] : mx;
	}
	assert_true(mx >= 16); /* the band climbs at least two cells */
	for (int x = 1; x < 120; x++)
		if (hgt[x] > 0 && hgt[x - 1] - hgt[x] >= mx / 3)
			drops++;
	assert_int_equal(drops, f.bursts);
	/* an area, so the climb reads: in every column, full blocks from the
	 * strip's bottom row up to one eighth block on top, nothing above */
	int base = -1, broken = 0, cols = 0;
	for (int y = top[SAW]; y < bottom[SAW]; y++)
		for (int x = 0; x < 120; x++)
			if (chart_cell(at(&f.g, x, y), ROLE_ACTIVE))
				base = y;
	for (int x = 0; x < 120; x++) {
		if (!hgt[x])
			continue;
		cols++;
		int y = base;
		while (y >= top[SAW] && at(&f.g, x, y)->ch == 0x2588 &&
		       at(&f.g, x, y)->role == ROLE_ACTIVE)
			y--;
		if (y >= top[SAW] && chart_cell(at(&f.g, x, y), ROLE_ACTIVE))
			y--; /* the top of the band */
		for (; y >= top[SAW]; y--)
			broken += chart_cell(at(&f.g, x, y), ROLE_ACTIVE);
		broken += !chart_cell(at(&f.g, x, base), ROLE_ACTIVE);
	}
	assert_true(cols >= 80); /* the 10 s run spans the plot */
	assert_int_equal(broken, 0);
	/* the burst marks: on a row with no label text over the plot */
	int marks = 0, mark_row = -1;
	for (int y = top[SAW]; y < bottom[SAW]; y++)
		for (int x = 0; x < 120; x++)
			if (at(&f.g, x, y)->ch == 0x25bc) {
				marks++;
				mark_row = y;
			}
	assert_true(marks > 0);
	assert_int_equal(find_run(&f.g, "mm_sync_cp", 0), mark_row); /* the label beside, intact */
	done(&f);
}

/* More runs than rows: the latest shown, up scrolls to the earlier. */
static void test_scroll(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	draw(&f, 80, 15); /* room for two blocks of two rows */
	assert_int_equal(find_run(&f.g, "rw_cp", 0), -1);
	assert_true(find_run(&f.g, "mm_sync_madv_cp", 0) > 0);
	f.u.runs_scroll = 5; /* clamped: the first runs */
	draw(&f, 80, 15);
	assert_true(find_run(&f.g, "rw_cp", 0) > 0);
	assert_int_equal(find_run(&f.g, "mm_sync_madv_cp", 0), -1);
	done(&f);
}

/* The table's rdCV and rd@burst are medians over a strategy's runs; a run
 * without the figure (no burst: rd@burst unknown) is left out, not a NAN
 * that poisons the median. */
/* The --disk-limit suffix is part of a run's label (mm_sync_madv_cp@32M,
 * 19 characters): the table shows it whole, figures after it, at 100 and
 * 160 columns (it was cut to "mm_sync_madv_cp@"); the blocks, whose label
 * column has 15 characters for the name, drop the suffix every run shares. */
static void test_long_label(void **state)
{
	(void)state;
	static const int widths[] = {100, 160};
	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		struct fixture f;
		label_suffix = "@32M";
		build(&f);
		label_suffix = "";
		draw(&f, widths[i], 30);
		int y = find_run(&f.g, "mm_sync_madv_cp@32M", 1);
		assert_true(y > 0);
		char *t = row_text(&f.g, y);
		assert_true((int)strlen(t) <= widths[i]);
		free(t);
		/* the blocks' labels go without the shared limit (the header
		 * has it): the whole name, then "#1" */
		assert_true(find_run(&f.g, "rw_cp", 0) > 0 && find_run(&f.g, "mm_sync_cp", 0) > 0);
		done(&f);
	}
}

/* Write-back at 8x the read rate (a throttled read beside an unthrottled
 * flush): the read strip keeps its own scale, so rw_cp's flat read fills
 * it (a row of full blocks across the plot) instead of lying on the floor
 * of a write scale; the legend gives both ranges. */
static double num(const char *p) /* "500", "4.0k" (fmt_num) */
{
	char *e;
	double v = strtod(p, &e);
	return *e == 'k' ? v * 1e3 : *e == 'M' ? v * 1e6 : v;
}

static void test_own_read_scale(void **state)
{
	(void)state;
	struct fixture f;
	write_mib = 160;
	build(&f);
	write_mib = 20;
	draw(&f, 160, 45);
	int top[NRUNS], bottom[NRUNS];
	blocks(&f.g, top, bottom);
	int full_rows = 0, pw = 0;
	for (int y = top[0]; y < bottom[0]; y++) {
		int n = 0, cells = 0;
		for (int x = 0; x < f.g.w; x++) {
			const struct cell *c = at(&f.g, x, y);
			cells += c->role == ROLE_READ;
			n += c->role == ROLE_READ && c->ch == 0x2588;
		}
		pw = cells > pw ? cells : pw;
		full_rows += cells > 0 && n >= cells * 8 / 10 && n > 40;
	}
	assert_true(full_rows >= 1);
	int y = find_row(&f.g, " read 0-");
	assert_true(y > 0);
	char *t = row_text(&f.g, y);
	char *r = strstr(t, " read 0-"), *w = strstr(t, " write 0-");
	assert_non_null(w);
	assert_true(num(r + 8) > 0 && num(w + 9) > 4 * num(r + 8));
	free(t);
	done(&f);
}

static void test_medians(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	struct run_result *r = &f.log->results[f.log->nresults++];
	*r = f.log->results[SAW]; /* mm_sync_cp #2: no bursts, rdCV 0.35 */
	r->repeat = 2;
	r->read_at_burst = NAN;
	r->read_cv = 0.35;
	struct strategy_stats st[MODEL_MAX_STRATEGIES];
	int n = stats_compute(f.log->results, f.log->nresults, NULL, st, MODEL_MAX_STRATEGIES);
	assert_int_equal(n, NRUNS);
	assert_string_equal(st[SAW].name, "mm_sync_cp");
	assert_true(fabs(st[SAW].read_at_burst_med - f.log->results[SAW].read_at_burst) < 1e-9);
	assert_true(fabs(st[SAW].read_cv_med - (f.log->results[SAW].read_cv + 0.35) / 2) < 1e-9);
	assert_true(isnan(st[0].read_at_burst_med)); /* rw_cp: never a burst */
	done(&f);
}

/* --sweep: the sweep table in place of the statistics, a row per value,
 * a column per strategy, inside the width at 80x24 and 160x45; the
 * blocks keep their rows above it. */
static void test_sweep_table(void **state)
{
	(void)state;
	static const uint64_t val[NRUNS] = {32 * MIB, 32 * MIB, 64 * MIB};
	static const int sz[][2] = {{80, 24}, {160, 45}};
	for (size_t i = 0; i < sizeof(sz) / sizeof(sz[0]); i++) {
		struct fixture f;
		build(&f);
		for (int k = 0; k < NRUNS; k++) {
			struct run_result *r = &f.log->results[k];
			r->sweep_param = SWEEP_MEM_LIMIT;
			r->sweep_value = val[k];
			snprintf(r->name, sizeof(r->name), "%s@m%lluM", names[k],
				 (unsigned long long)(val[k] / MIB));
		}
		draw(&f, sz[i][0], sz[i][1]);
		int y = find_row(&f.g, "Sweep of mem-limit");
		assert_true(y > 0);
		char *t = row_text(&f.g, y + 1);
		assert_true(strstr(t, "mem-limit") && strstr(t, "rw_cp") && strstr(t, "mm_sync_cp"));
		free(t);
		int y32 = find_prefix(&f.g, " 32M "), y64 = find_prefix(&f.g, " 64M ");
		assert_true(y32 == y + 3 && y64 == y + 4);
		t = row_text(&f.g, y32);
		assert_non_null(strstr(t, "3.95s")); /* rw_cp at 32M: 79 intervals of 50 ms */
		free(t);
		assert_int_equal(find_prefix(&f.g, " strategy "), -1); /* no statistics table */
		/* every strategy's three cells fit, the last one whole */
		t = row_text(&f.g, y + 2);
		int heads = 0;
		for (char *p = t; (p = strstr(p, "rdCV")); p++)
			heads++;
		assert_int_equal(heads, NRUNS);
		free(t);
		assert_true(find_run(&f.g, "mm_sync_cp@m32M", 0) > 0); /* its block */
		done(&f);
	}
}

/* Extra finished sweep runs labelled L00, L01, ... at 32M, results only
 * (no samples: no blocks), after the fixture's three. */
static void more_labels(struct fixture *f, int n)
{
	for (int k = 0; k < NRUNS; k++) {
		struct run_result *r = &f->log->results[k];
		r->sweep_param = SWEEP_MEM_LIMIT;
		r->sweep_value = 32 * MIB;
		snprintf(r->name, sizeof(r->name), "%s@m32M", names[k]);
	}
	for (int i = 0; i < n; i++) {
		struct run_result *r = &f->log->results[f->log->nresults++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "L%02d@m32M", i);
		r->cmd = 0;
		r->repeat = 1;
		r->finished = r->ok = 1;
		r->elapsed_s = 1;
		r->read_cv = r->write_cv = r->read_at_burst = NAN;
		r->sweep_param = SWEEP_MEM_LIMIT;
		r->sweep_value = 32 * MIB;
	}
}

/* 13 strategies and four --cmds: the title counts all 17 at 80 columns,
 * where three fit, and says it whole (issue 26 finding 6: the 17th was
 * dropped with no word); a recording past the table's columns says how
 * many it could not show. */
static void test_sweep_many(void **state)
{
	(void)state;
	struct fixture f;
	build(&f);
	more_labels(&f, 14);
	draw(&f, 80, 24);
	int y = find_row(&f.g, "Sweep of mem-limit");
	assert_true(y > 0);
	char *t = row_text(&f.g, y);
	assert_non_null(strstr(t, "(3 of 17 strategies: a wider terminal shows more)"));
	free(t);
	draw(&f, 400, 60); /* 18 fit: all 17, no note */
	y = find_row(&f.g, "Sweep of mem-limit");
	t = row_text(&f.g, y);
	assert_null(strstr(t, " of 17 "));
	free(t);
	t = row_text(&f.g, y + 1);
	assert_non_null(strstr(t, "L13"));
	free(t);
	done(&f);

	build(&f);
	more_labels(&f, SWEEP_MAX_STRATEGIES + 5);
	draw(&f, 80, 24);
	y = find_row(&f.g, "Sweep of mem-limit");
	t = row_text(&f.g, y);
	char want[96];
	snprintf(want, sizeof(want), "(3 of %d strategies: %d more not shown)",
		 NRUNS + SWEEP_MAX_STRATEGIES + 5, NRUNS + SWEEP_MAX_STRATEGIES + 2);
	assert_non_null(strstr(t, want));
	free(t);
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_fill),	 cmocka_unit_test(test_areas_apart),
	    cmocka_unit_test(test_table_header), cmocka_unit_test(test_sawtooth_drops),
	    cmocka_unit_test(test_scroll),	 cmocka_unit_test(test_medians),
	    cmocka_unit_test(test_long_label),
	    cmocka_unit_test(test_own_read_scale),
	    cmocka_unit_test(test_sweep_table),	 cmocka_unit_test(test_sweep_many),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
