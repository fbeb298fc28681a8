/* The overview: disk MB/s (read up, write down), memory lists, reclaim rates,
 * one shared time axis.  Values per dot column are computed from the series
 * each draw into buffers owned by struct overview. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burst.h"
#include "rates.h"
#include "runlog.h"
#include "strategy.h"
#include "strip_probe.h"
#include "util.h"
#include "views.h"

#define YLAB 7 /* y-axis label column: 6 characters and the axis line */

enum { B_READ, B_WRITE, B_AF, B_IF, B_ANON, B_FREE, B_DEACT, B_ACT, B_SCAN, B_REFAULT, B_RUN,
       B_BURST, B_G0, B_G1, B_G2, B_G3, B_TMP, B_TMP2, B_TMP3, B_N };

struct legend_item {
	enum role role;
	const char *name, *short_name;
	double value;
	const char *unit; /* appended to the value */
	int bytes;	  /* value is KiB: print as a size */
};

/* Legend items from column x on; swatch: each with its ■ (a series the
 * chart draws: palette_charts keeps those apart), or not (a number the
 * chart does not draw, e.g. PSI).  Returns the column after them. */
static int legend_items(struct grid *g, int y, int x, const struct legend_item *it, int n,
			int compact, int swatch)
{
	for (int i = 0; i < n; i++) {
		char val[32];
		if (it[i].bytes && !isnan(it[i].value))
			fmt_size(val, sizeof(val), (uint64_t)(it[i].value * 1024.0));
		else
			fmt_num(val, sizeof(val), it[i].value);
		char buf[96];
		snprintf(buf, sizeof(buf), "%s %s%s", compact ? it[i].short_name : it[i].name, val,
			 it[i].unit ? it[i].unit : "");
		if (x + 2 + (int)strlen(buf) > g->w)
			break;
		if (swatch) {
			grid_put(g, x, y, 0x25a0, it[i].role); /* ■ in the series' colour */
			x += 2;
		}
		x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf) + 2;
	}
	return x;
}

/* Title and legend on one line: "Disk vda MiB/s  ▲ read 12  ▼ write 40";
 * returns the column after it. */
static int legend(struct grid *g, int y, const char *title, const struct legend_item *it,
		  int n, int compact)
{
	int x = 1 + grid_text(g, 1, y, -1, ROLE_TITLE, title) + 2;
	return legend_items(g, y, x, it, n, compact, 1);
}

static void ylabel(struct grid *g, int y, double v, int bytes)
{
	char buf[16];
	if (bytes)
		fmt_size(buf, sizeof(buf), (uint64_t)(v * 1024.0));
	else
		fmt_num(buf, sizeof(buf), v);
	grid_printf(g, 0, y, ROLE_AXIS, "%*s", YLAB - 1, buf);
}

static void yaxis(struct grid *g, int y, int rows)
{
	for (int j = 0; j < rows; j++)
		grid_put(g, YLAB - 1, y + j, 0x2502, ROLE_AXIS);
}

static void ensure_buffers(struct overview *ov, int n)
{
	if (n <= ov->cap)
		return;
	free(ov->buf);
	free(ov->lo);
	free(ov->hi);
	ov->cap = n;
	ov->buf = xmalloc(sizeof(double) * B_N * (size_t)n);
	ov->lo = xmalloc(sizeof(long) * (size_t)n);
	ov->hi = xmalloc(sizeof(long) * (size_t)n);
}

static double *col(struct overview *ov, int which)
{
	return ov->buf + (size_t)which * (size_t)ov->cap;
}

/* The expected end of the runs: the finished ones' end, the current one's
 * from its progress (bytes left at its rate so far), the queued ones at
 * the mean duration of the runs so far. */
static uint64_t runs_expected_end(const struct model *m, uint64_t now)
{
	const struct runlog *l = m->log;
	const struct run_progress *p = &m->runs;
	double sum = 0;
	int nfin = 0;
	uint64_t end = now;
	for (size_t i = 0; i < l->nresults; i++) {
		const struct run_result *r = &l->results[i];
		if (r->finished && r->t_end_ns > r->t_start_ns) {
			sum += (double)(r->t_end_ns - r->t_start_ns);
			nfin++;
			end = r->t_end_ns > end ? r->t_end_ns : end;
		}
	}
	double mean = nfin ? sum / nfin : 0;
	/* all done: the window ends with the last run, so the picture of the
	 * runs stays put while the samples go on (f shows the live ones) */
	if (p->state == RUNS_FINISHED && nfin) {
		uint64_t last = 0;
		for (size_t i = 0; i < l->nresults; i++)
			last = l->results[i].t_end_ns > last ? l->results[i].t_end_ns : last;
		return last;
	}
	if (p->current >= 0 && (size_t)p->current < l->nresults) {
		const struct run_result *r = &l->results[p->current];
		uint64_t e = now;
		if (r->t_copy_ns && now > r->t_copy_ns && p->done > 0 && p->total > p->done) {
			double rate = (double)p->done / (double)(now - r->t_copy_ns);
			e = now + (uint64_t)((double)(p->total - p->done) / rate);
		} else if (mean > 0 && r->t_start_ns + (uint64_t)mean > now) {
			e = r->t_start_ns + (uint64_t)mean;
		}
		if (!(mean > 0) && e > r->t_start_ns)
			mean = (double)(e - r->t_start_ns);
		end = e > end ? e : end;
	}
	if (p->state != RUNS_FINISHED && p->queue_len > p->queue_next)
		end += (uint64_t)((double)(p->queue_len - p->queue_next) * (mean > 0 ? mean : 10e9));
	return end;
}

/* Which samples each of the n dot columns covers, ending at series index
 * `end`.  Fit (the default while runs are shown, not scrolled back): from
 * the first run's start to the runs' expected end, a sample stretched over
 * several columns or several in one (once the queue is done, the window
 * ends with the last run); else the last n samples (zoom 0) or
 * n·2^zoom. */
static void window(struct overview *ov, const struct model *m, const struct ui *u, long end, int n)
{
	const struct sample *e = series_at(m->series, (size_t)end);
	const struct sample *oldest = series_at(m->series, 0);
	uint64_t t_end = e->t_ns;
	ov->fit = 0;
	if (!u->no_fit && !(u->paused && u->scroll) && m->runs.state != RUNS_NONE &&
	    m->log->nresults && m->log->results[0].t_start_ns) {
		uint64_t t0 = m->log->results[0].t_start_ns;
		uint64_t t1 = runs_expected_end(m, t_end);
		/* a little margin on both sides, so the edges read */
		double span = (double)(t1 > t0 ? t1 - t0 : 1) * 1.04 + 1e9 * m->interval;
		t0 = t0 > (uint64_t)(span * 0.01) ? t0 - (uint64_t)(span * 0.01) : 0;
		if (t0 < oldest->t_ns)
			t0 = oldest->t_ns;
		if (t1 > t0) {
			ov->fit = 1;
			ov->t0_ns = t0;
			ov->col_ns = span / n;
		}
	}
	if (!ov->fit && u->zoom == 0) {
		for (int i = 0; i < n; i++)
			ov->lo[i] = ov->hi[i] = end - (n - 1 - i) >= 0 ? end - (n - 1 - i) : -1;
		const struct sample *f = ov->lo[0] >= 0 ? series_at(m->series, (size_t)ov->lo[0]) : oldest;
		ov->col_ns = n > 1 ? (double)(t_end - f->t_ns) / (ov->lo[0] >= 0 ? n - 1 : end + 1) : 1e9;
		if (!(ov->col_ns > 0))
			ov->col_ns = m->interval * 1e9;
		ov->t0_ns = t_end - (uint64_t)(ov->col_ns * (n - 1));
		return;
	}
	if (!ov->fit) {
		double f = u->zoom > 0 ? (double)(1 << u->zoom) : 1.0 / (double)(1 << -u->zoom);
		ov->col_ns = m->interval * 1e9 * f;
		double back = ov->col_ns * (n - 1);
		ov->t0_ns = (double)t_end > back ? t_end - (uint64_t)back : 0;
	}
	long len = (long)series_len(m->series);
	for (int i = 0; i < n; i++) {
		uint64_t a = ov->t0_ns + (uint64_t)(ov->col_ns * i);
		uint64_t b = ov->t0_ns + (uint64_t)(ov->col_ns * (i + 1));
		long lo = series_find(m->series, a);
		long nb = series_find(m->series, b);
		long hi = nb < 0 ? len - 1 : nb - 1;
		if (hi > end)
			hi = end;
		if (a > t_end || b <= oldest->t_ns || hi < 0) {
			ov->lo[i] = ov->hi[i] = -1; /* the future, or before the history */
			continue;
		}
		if (lo < 0 || lo > hi)
			lo = hi; /* no sample in this column: the one before holds */
		ov->lo[i] = lo;
		ov->hi[i] = hi;
	}
}

/* Fills the value columns from the window.  cg: memory columns from the
 * run's cgroup (KiB), NAN where a sample has none, so a chart never mixes
 * two scales.  B_G0..B_G3: MGLRU's generations (file KiB, youngest first)
 * of the same scope — the run's memcg for cg, the system's otherwise —
 * NAN where the sample has none of that scope. */
static void gather(struct overview *ov, const struct model *m, int n, int cg)
{
	for (int i = 0; i < n; i++) {
		long lo = ov->lo[i], hi = ov->hi[i];
		const struct sample *b = hi >= 0 ? series_at(m->series, (size_t)hi) : NULL;
		const struct sample *a = lo >= 1 ? series_at(m->series, (size_t)lo - 1) : NULL;
		struct rates r;
		rates_compute(a, b, &r);
		if (!b) {
			for (int k = 0; k < B_TMP; k++)
				col(ov, k)[i] = NAN;
			col(ov, B_RUN)[i] = 0;
			col(ov, B_BURST)[i] = 0;
			continue;
		}
		col(ov, B_READ)[i] = r.read_mbs;
		col(ov, B_WRITE)[i] = r.write_mbs;
		col(ov, B_DEACT)[i] = r.pgdeactivate_s;
		col(ov, B_ACT)[i] = r.pgactivate_s;
		col(ov, B_SCAN)[i] = r.pgscan_s;
		col(ov, B_REFAULT)[i] = r.refault_file_s;
		/* copying: what the disk scale follows (never a prepare phase) */
		col(ov, B_RUN)[i] = b->run >= 0 && b->phase == PHASE_COPY ? 1.0 : 0.0;
		int burst = 0;
		for (long k = lo > 1 ? lo : 1; k <= hi && !burst; k++)
			burst = burst_between(series_at(m->series, (size_t)k - 1),
					      series_at(m->series, (size_t)k));
		col(ov, B_BURST)[i] = burst;
		uint32_t gbits = b->have & (SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG);
		int gens = cg ? (gbits & SAMPLE_HAVE_GEN_CG) != 0 : gbits == SAMPLE_HAVE_GEN;
		for (int k = 0; k < SAMPLE_GENS; k++) {
			double kib = k < b->gen_n ? (double)b->gen_file[k] * 4.0 : 0;
			col(ov, B_G0 + k)[i] = gens ? kib : NAN;
		}
		if (cg) {
			int have = b && (b->have & SAMPLE_HAVE_CG);
			double used = have ? (double)b->cg_usage : 0;
			double file = have ? (double)b->cg_active_file + (double)b->cg_inactive_file : 0;
			col(ov, B_AF)[i] = have ? (double)b->cg_active_file / 1024.0 : NAN;
			col(ov, B_IF)[i] = have ? (double)b->cg_inactive_file / 1024.0 : NAN;
			col(ov, B_ANON)[i] = have ? (used > file ? used - file : 0) / 1024.0 : NAN;
			col(ov, B_FREE)[i] = have && b->cg_limit > b->cg_usage
						     ? (double)(b->cg_limit - b->cg_usage) / 1024.0
					     : have ? 0 : NAN;
			continue;
		}
		int mem = b && (b->have & SAMPLE_HAVE_MEM);
		col(ov, B_AF)[i] = mem ? (double)b->active_file : NAN;
		col(ov, B_IF)[i] = mem ? (double)b->inactive_file : NAN;
		col(ov, B_ANON)[i] = mem ? (double)(b->active_anon + b->inactive_anon) : NAN;
		col(ov, B_FREE)[i] = mem ? (double)b->mem_free : NAN;
	}
}

static const char *phase_label(int phase)
{
	switch (phase) {
	case PHASE_PREPARE: return "prep";
	case PHASE_COPY: return "copy";
	case PHASE_FLUSH: return "flush";
	case PHASE_DONE: return "done";
	case PHASE_VERIFY: return "vrfy";
	default: return "end";
	}
}

/* The cell column (from the plot's left edge) of series index idx, or -1
 * when no shown column covers it. */
static int cell_of_idx(const struct overview *ov, long idx, int n, int xdots)
{
	for (int i = 0; i < n; i++)
		if (ov->hi[i] >= idx && ov->lo[i] >= 0)
			return ov->lo[i] <= idx || i > 0 ? i / xdots : -1;
	return -1;
}

/* Phase markers down through the charts, and their labels on row y (a row
 * of their own: nothing else writes there): run names first (they say
 * whose phases follow), then phase names in the gaps; a label that finds
 * no room is left out (its marker line stays). */
static void phase_labels(const struct overview *ov, const struct model *m, struct grid *g, int y,
			 int x0, int cw, int xdots, int chart_top, int chart_bottom,
			 const int *skip_rows, int nskip)
{
	const struct runlog *s = m->log;
	if (!s->nevents)
		return;
	char used[1024] = {0};
	if (cw > (int)sizeof(used))
		cw = (int)sizeof(used);
	int n = cw * xdots;
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->nevents; i++) {
			const struct run_event *e = &s->events[i];
			if ((e->phase == PHASE_PREPARE) != (pass == 0))
				continue;
			long idx = series_find(m->series, e->t_ns);
			if (idx < 0)
				continue;
			int cx = cell_of_idx(ov, idx, n, xdots);
			if (cx < 0)
				continue;
			if (pass == 0 || e->phase != PHASE_IDLE)
				for (int yy = chart_top; yy < chart_bottom; yy++) {
					int title = 0;
					for (int k = 0; k < nskip; k++)
						title |= skip_rows[k] == yy;
					struct cell *c = title ? NULL : grid_at(g, x0 + cx, yy);
					if (c && (!c->ch || c->ch == ' ' || c->role == ROLE_BURST)) {
						c->ch = 0x2506; /* ┆ */
						c->role = ROLE_MARKER;
					}
				}
			const char *buf = pass == 0 ? s->results[e->run].name : phase_label(e->phase);
			int l = (int)strlen(buf);
			/* the first free stretch at or just after the marker */
			int lx = -1;
			for (int x = cx; x <= cx + 6 && x + l <= cw; x++) {
				int free_ = 1;
				for (int k = x > 0 ? x - 1 : x; k < x + l + 1 && k < cw; k++)
					free_ &= !used[k];
				if (free_) {
					lx = x;
					break;
				}
			}
			/* by the right edge: end the label there, over its marker */
			if (lx < 0 && cx + l > cw && cw - l >= 0) {
				int x = cw - l, free_ = 1;
				for (int k = x > 0 ? x - 1 : x; k < cw; k++)
					free_ &= !used[k];
				lx = free_ ? x : -1;
			}
			if (lx < 0)
				continue;
			memset(used + lx, 1, (size_t)l);
			grid_text(g, x0 + lx, y, -1, pass == 0 ? ROLE_TITLE : ROLE_MARKER, buf);
		}
	}
}

/* Burst bands: a ▼ on row burst_y over every cell column with a demotion
 * burst, and a thin line down through the charts' empty cells, so the eye
 * lines up the disk with the demotion. */
static void burst_bands(struct overview *ov, struct grid *g, int burst_y, int x0, int cw,
			int xdots, int chart_top, int chart_bottom, const int *skip_rows, int nskip)
{
	view_burst_bands(g, col(ov, B_BURST), burst_y, x0, cw, xdots, chart_top, chart_bottom,
			 skip_rows, nskip);
}

static double max_of(const double *v, int n)
{
	double mx = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > mx)
			mx = v[i];
	return mx;
}

/* The newest shown value: the last column that has one, so a legend
 * never says "-" once the newest columns are empty (after a run, or the
 * future part of a fitted window). */
static double last_of(const double *v, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

/* The disk scale's level: the 98th percentile of the copy columns (all
 * columns when none is a copy), with a fifth of headroom. */
static double disk_level(struct overview *ov, const double *v, int n)
{
	double *tmp = col(ov, B_TMP), *copyv = col(ov, B_TMP2);
	int m = 0;
	const double *run = col(ov, B_RUN);
	for (int i = 0; i < n; i++)
		if (run[i] > 0)
			copyv[m++] = v[i];
	double q = m ? chart_quantile(copyv, m, 0.98, tmp) : chart_quantile(v, n, 0.98, tmp);
	return q > 0 ? q * 1.2 : 0;
}

static const int nice_steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200};

/* Time labels under the charts.  Fitted: seconds since the first run
 * started ("0s 10s 20s").  Else seconds before the newest sample taken
 * (not the newest shown: paused and scrolled back, the labels say how far
 * back the shown samples are), "now" only when the newest is shown. */
static void time_axis(const struct overview *ov, const struct model *m, struct grid *g, int y,
		      int x0, int cw, int xdots, long end)
{
	const struct sample *live = series_back(m->series, 0);
	if (!live || !(ov->col_ns > 0))
		return;
	double cell_s = ov->col_ns * xdots / 1e9;
	double span = cell_s * cw;
	double want = span / ((double)cw / 12.0);
	int step = nice_steps[ARRAY_LEN(nice_steps) - 1];
	for (size_t i = 0; i < ARRAY_LEN(nice_steps); i++)
		if (nice_steps[i] >= want) {
			step = nice_steps[i];
			break;
		}
	int newest_shown = end == (long)series_len(m->series) - 1;
	int last_label_x = x0 + cw, next_free = x0;
	if (!ov->fit && newest_shown) {
		grid_text(g, x0 + cw - 3, y, -1, ROLE_AXIS, "now");
		last_label_x = x0 + cw - 4;
	}
	uint64_t ref = ov->fit ? m->log->results[0].t_start_ns : live->t_ns;
	for (long k = ov->fit ? 0 : 1; k < 100000; k++) {
		uint64_t off = (uint64_t)k * (uint64_t)step * 1000000000ull;
		if (!ov->fit && off > ref)
			break;
		uint64_t t = ov->fit ? ref + off : ref - off;
		if (ov->fit && t > ov->t0_ns + (uint64_t)(ov->col_ns * cw * xdots))
			break;
		if (t < ov->t0_ns) {
			if (ov->fit)
				continue;
			break;
		}
		int cx = (int)((double)(t - ov->t0_ns) / ov->col_ns) / xdots;
		if (cx >= cw)
			continue;
		char buf[24];
		long secs = k * step;
		if (secs % 60 == 0 && secs >= 120)
			snprintf(buf, sizeof(buf), "%s%ldm", ov->fit ? "" : "-", secs / 60);
		else
			snprintf(buf, sizeof(buf), "%s%lds", ov->fit ? "" : "-", secs);
		int l = (int)strlen(buf);
		int lx = x0 + cx - l + 1;
		if (ov->fit) {
			lx = x0 + cx;
			if (lx + l + 1 > x0 + cw || lx < next_free)
				continue;
			grid_put(g, lx, y, 0x2575 /* ╵ */, ROLE_AXIS);
			grid_text(g, lx + 1, y, -1, ROLE_AXIS, buf);
			next_free = lx + l + 2; /* fitted labels go left to right */
			continue;
		}
		if (lx + l + 1 < last_label_x && lx >= x0) {
			grid_text(g, lx, y, -1, ROLE_AXIS, buf);
			last_label_x = lx;
		}
	}
	(void)end;
}

/* A chart's scale from its autoscale state.  A frozen picture (paused, a
 * replay paused or at its end) is drawn again every tick: it takes the
 * scale from a copy of the state, so the shrink countdown does not run
 * and the charts stay as they were (on a speaker's last slide too). */
static double frozen_scale(struct autoscale *a, int frozen, int fine, double level, double floor)
{
	struct autoscale copy = *a, *s = frozen ? &copy : a;
	return fine ? autoscale_update_fine(s, level, floor, 40) : autoscale_update(s, level, floor, 40);
}

void overview_draw(struct overview *ov, const struct model *m, const struct ui *u, struct grid *g, int y0, int h)
{
	int pw = g->w - YLAB - 1; /* plot width in cells */
	/* event strip: run phases and demotion bursts (bursts of a whole big
	 * machine are rare; without runs the row goes to the charts) */
	int strip = m->runs.state == RUNS_NONE ? 0 : 2; /* labels, bursts: a row each */
	int res_rows = strip_residency_rows(m, h - 4 - strip); /* page cache, at the bottom */
	int plot_rows = h - 4 - strip - res_rows; /* three title lines, one time axis */
	int probe_rows = strip_probe_rows(m, plot_rows); /* --probe: its own strip */
	plot_rows -= probe_rows;
	int disk_rows = plot_rows * 40 / 100, mem_rows = plot_rows * 33 / 100;
	if (disk_rows % 2 && disk_rows > 2) { /* an even split: read and write halves */
		disk_rows--;
		mem_rows++;
	}
	int rec_rows = plot_rows - disk_rows - mem_rows;
	int compact = g->w < 110;
	enum chart_glyphs gl = u->glyphs;
	int frozen = u->paused || (m->replay.on && (m->replay.paused || m->replay.at_end));

	canvas_reset(&ov->disk, gl, pw, disk_rows);
	canvas_reset(&ov->mem, gl, pw, mem_rows);
	canvas_reset(&ov->reclaim, gl, pw, rec_rows);
	int n = ov->disk.dw;
	ensure_buffers(ov, 2 * n);
	long end = view_end(m, u);
	if (end >= 0)
		window(ov, m, u, end, n);
	const struct sample *now = end >= 0 ? series_at(m->series, (size_t)end) : NULL;
	/* The memory chart shows a run's cgroup while any visible sample has
	 * one (so a finished run stays readable on its own scale), unless m
	 * asked for the system. */
	const struct sample *cg_ref = NULL;
	for (int i = n - 1; i >= 0 && end >= 0 && !u->mem_system && !cg_ref; i--) {
		const struct sample *smp =
		    ov->hi[i] >= 0 ? series_at(m->series, (size_t)ov->hi[i]) : NULL;
		if (smp && (smp->have & SAMPLE_HAVE_CG) && smp->cg_limit)
			cg_ref = smp;
	}
	int cg = cg_ref != NULL;
	if (end >= 0)
		gather(ov, m, n, cg);
	else
		for (int i = 0; i < B_N * n; i++)
			ov->buf[i] = NAN;

	/* --- disk: read grows up from the middle, write down --- */
	int y = y0;
	/* While runs are on screen the disk scale follows their copies: a
	 * burst outside them (a prepare phase writing back the scratch source
	 * at several GB/s into a VM host's cache) would otherwise flatten
	 * every copy.  And the 98th percentile, not the peak, with headroom:
	 * one spike clips at the top edge instead of setting the scale. */
	/* One scale while read and write are alike; each its own when one is
	 * twice the other (and until they come within 1.5x again, so the
	 * scales do not flip with every sample): under --disk-limit reads
	 * crawl at 32 MiB/s while buffered write-back (which v1 blkio does
	 * not throttle) bursts at 150, and one scale would put the read
	 * sawtooth in the bottom fifth of its half. */
	double dmax = disk_level(ov, col(ov, B_READ), n), wmax = disk_level(ov, col(ov, B_WRITE), n);
	double hi = dmax > wmax ? dmax : wmax, lo = dmax > wmax ? wmax : dmax;
	/* Under --disk-limit always: the reads are throttled and, on v1,
	 * write-back is not, so the two are different regimes by design
	 * (at 100 columns the ratio of the demo's p98s sits near 2). */
	int limited = m->log && m->log->disk_limit;
	int split = lo > 0 && (limited || hi > (ov->disk_split ? 1.5 : 2.0) * lo);
	if (!frozen)
		ov->disk_split = split;
	double dscale = frozen_scale(&ov->disk_scale, frozen, 1, split ? dmax : hi, 1.0);
	double wscale = frozen_scale(&ov->write_scale, frozen, 1, split ? wmax : hi, 1.0);
	if (!split)
		wscale = dscale = dscale > wscale ? dscale : wscale;
	char title[96];
	snprintf(title, sizeof(title), split && !compact ? "Disk %s MiB/s (read, write: own scales)"
							  : "Disk %s MiB/s",
		 m->disk[0] ? m->disk : "(none)");
	struct legend_item dl[] = {
		{ROLE_READ, "\xe2\x96\xb2 read", "\xe2\x96\xb2rd", last_of(col(ov, B_READ), n), NULL, 0},
		{ROLE_WRITE, "\xe2\x96\xbc write", "\xe2\x96\xbcwr", last_of(col(ov, B_WRITE), n), NULL, 0},
	};
	legend(g, y, title, dl, 2, compact);
	if (!m->disk[0])
		grid_text(g, YLAB + 2, y + 1 + disk_rows / 2, -1, ROLE_DIM,
			  "no disk watched (use -d NAME)");
	y++;
	int strip_y = y;
	y += strip;
	int disk_top = y;
	int half = ov->disk.dh / 2;
	canvas_plot(&ov->disk, col(ov, B_READ), n, dscale, ROLE_READ, CHART_AREA, half - 1, -1,
		    half);
	canvas_plot(&ov->disk, col(ov, B_WRITE), n, wscale, ROLE_WRITE, CHART_AREA, half, +1,
		    ov->disk.dh - half);
	canvas_render(&ov->disk, g, YLAB, y);
	yaxis(g, y, disk_rows);
	ylabel(g, y, dscale, 0);
	if (disk_rows >= 4)
		ylabel(g, y + disk_rows / 2 - 1, 0, 0);
	ylabel(g, y + disk_rows - 1, wscale, 0);
	y += disk_rows;

	int mem_title = y;
	/* --- memory lists on a MemTotal (or cgroup limit) scale --- */
	double total = cg ? (double)cg_ref->cg_limit / 1024.0
		       : now && (now->have & SAMPLE_HAVE_MEM) ? (double)now->mem_total : NAN;
	char mt[16];
	fmt_size(mt, sizeof(mt), isnan(total) ? 0 : (uint64_t)(total * 1024.0));
	if (cg)
		snprintf(title, sizeof(title), compact ? "Mem cgroup/%s" : "Memory (run's cgroup, limit %s, m: system)", mt);
	else
		snprintf(title, sizeof(title), compact ? "Memory /%s" : "Memory (system, of %s)", mt);
	/* MGLRU with debugfs: the generations themselves, youngest at the
	 * bottom, when any shown column has them */
	int gens = 0;
	for (int i = 0; i < n && !gens; i++)
		gens = !isnan(col(ov, B_G0)[i]);
	if (gens && cg)
		snprintf(title, sizeof(title),
			 compact ? "Mem gens cg/%s"
				 : "Memory gens, young\xe2\x86\x92old (cgroup, limit %s)",
			 mt);
	else if (gens)
		snprintf(title, sizeof(title),
			 compact ? "Mem gens /%s" : "Memory gens, young\xe2\x86\x92old (system, of %s)",
			 mt);
	struct legend_item ml[] = {
		/* under MGLRU "active" is the two youngest generations (machine.h) */
		{ROLE_ACTIVE, m->mglru ? "active(file)=2 youngest gens" : "active(file)",
		 m->mglru ? "act(gen)" : "act", last_of(col(ov, B_AF), n), NULL, 1},
		{ROLE_INACTIVE, "inactive(file)", "inact", last_of(col(ov, B_IF), n), NULL, 1},
		{ROLE_ANON, cg ? "other" : "anon", cg ? "oth" : "anon", last_of(col(ov, B_ANON), n), NULL, 1},
		{ROLE_FREE, cg ? "headroom" : "free", "free", last_of(col(ov, B_FREE), n), NULL, 1},
	};
	struct legend_item gl_items[] = {
		{ROLE_GEN0, "gen0", "g0", last_of(col(ov, B_G0), n), NULL, 1},
		{ROLE_GEN1, "gen1", "g1", last_of(col(ov, B_G1), n), NULL, 1},
		{ROLE_GEN2, "gen2", "g2", last_of(col(ov, B_G2), n), NULL, 1},
		{ROLE_GEN3, "gen3", "g3", last_of(col(ov, B_G3), n), NULL, 1},
		ml[2],
		ml[3],
	};
	if (gens)
		legend(g, y, title, gl_items, 6, compact);
	else
		legend(g, y, title, ml, 4, compact);
	y++;
	if (!isnan(total) && total > 0) {
		/* a stacked area: active(file) at the bottom, then inactive(file),
		 * other/anon; headroom/free is the space left up to the limit.
		 * One value per cell: its last dot column. */
		int xd = ov->mem.xdots, cells = ov->mem.cw;
		static const int which[3] = {B_AF, B_IF, B_ANON};
		static const int gwhich[5] = {B_G0, B_G1, B_G2, B_G3, B_ANON};
		/* the buffers hold 2n >= 2 cells values a column: B_TMP..B_TMP3
		 * six rows of cells */
		double *cv[5];
		for (int k = 0; k < 5; k++)
			cv[k] = col(ov, B_TMP + k / 2) + (size_t)(k % 2) * (size_t)cells;
		int ns = gens ? 5 : 3, cap = cells;
		for (int k = 0; k < ns; k++) {
			for (int i = 0; i < cap; i++)
				cv[k][i] = col(ov, gens ? gwhich[k] : which[k])[i * xd + xd - 1];
		}
		static const enum role sroles[3] = {ROLE_ACTIVE, ROLE_INACTIVE, ROLE_ANON};
		static const enum role groles[5] = {ROLE_GEN0, ROLE_GEN1, ROLE_GEN2, ROLE_GEN3,
						    ROLE_ANON};
		const double *const cvc[5] = {cv[0], cv[1], cv[2], cv[3], cv[4]};
		chart_stack(g, YLAB, y, cap, mem_rows, gl, cvc, gens ? groles : sroles, ns, total);
		ylabel(g, y, total, 1);
		ylabel(g, y + mem_rows - 1, 0, 0);
	}
	yaxis(g, y, mem_rows);
	y += mem_rows;

	/* --- reclaim rates, pages/s, and PSI in the legend --- */
	double rmax = 0;
	for (int b = B_ACT; b <= B_REFAULT; b++) {
		double v = max_of(col(ov, b), n);
		rmax = v > rmax ? v : rmax;
	}
	double rscale = frozen_scale(&ov->reclaim_scale, frozen, 0, rmax, 10.0);
	/* deactivate, the signal that defines a burst, on a scale of its own
	 * (an area under the other lines): scan at 10M never flattens it */
	double dcscale = frozen_scale(&ov->deact_scale, frozen, 1, max_of(col(ov, B_DEACT), n), 10.0);
	double psi_m = now && (now->have & SAMPLE_HAVE_PSI_MEM) ? now->psi_mem_some : NAN;
	double psi_io = now && (now->have & SAMPLE_HAVE_PSI_IO) ? now->psi_io_some : NAN;
	struct legend_item rl[] = {
		{ROLE_DEACT, "deactivate", "deact", last_of(col(ov, B_DEACT), n), NULL, 0},
		{ROLE_ACT, "activate", "act", last_of(col(ov, B_ACT), n), NULL, 0},
		{ROLE_SCAN, "scan", "scan", last_of(col(ov, B_SCAN), n), NULL, 0},
		{ROLE_REFAULT, "refault", "rflt", last_of(col(ov, B_REFAULT), n), NULL, 0},
	};
	/* not drawn: numbers, without a swatch */
	const struct legend_item psi[] = {
		{ROLE_PSI, "PSI mem", "psi-m", psi_m, "%", 0},
		{ROLE_PSI, "PSI io", "psi-io", psi_io, "%", 0},
	};
	int rec_title = y;
	char dct[64], dcs[16];
	fmt_num(dcs, sizeof(dcs), dcscale);
	snprintf(dct, sizeof(dct), compact ? "Reclaim pg/s (deact/%s)" : "Reclaim pages/s (deactivate to %s)", dcs);
	legend_items(g, y, legend(g, y, dct, rl, 4, compact), psi, 2, compact, 0);
	y++;
	int band = ov->reclaim.dh;
	canvas_plot(&ov->reclaim, col(ov, B_DEACT), n, dcscale, ROLE_DEACT, CHART_AREA, band - 1,
		    -1, band);
	for (int b = B_REFAULT; b >= B_ACT; b--) {
		static const enum role roles[] = {ROLE_DEACT, ROLE_ACT, ROLE_SCAN, ROLE_REFAULT};
		canvas_plot(&ov->reclaim, col(ov, b), n, rscale, roles[b - B_DEACT], CHART_LINE,
			    band - 1, -1, band);
	}
	canvas_render(&ov->reclaim, g, YLAB, y);
	yaxis(g, y, rec_rows);
	ylabel(g, y, rscale, 0);
	ylabel(g, y + rec_rows - 1, 0, 0);
	y += rec_rows;
	int res_title = res_rows ? y : -1;
	if (end >= 0)
		y += strip_residency_draw(&ov->res, m, ov->hi, n, gl, g, YLAB, y, pw, res_rows, compact);
	int probe_title = probe_rows ? y : -1;
	if (probe_rows) { /* col B_TMP: B_TMP and B_TMP2 hold 4n values, free by now */
		strip_probe_draw(&ov->probe, m, ov->lo, ov->hi, n, col(ov, B_TMP), gl, g, YLAB, y,
				 probe_rows, compact);
		y += probe_rows;
	}

	if (end >= 0) {
		time_axis(ov, m, g, y, YLAB, pw, ov->disk.xdots, end);
		int titles[] = {mem_title, rec_title, res_title, probe_title};
		if (strip)
			burst_bands(ov, g, strip_y + 1, YLAB, pw, ov->disk.xdots, disk_top, y, titles, 4);
		if (strip)
			phase_labels(ov, m, g, strip_y, YLAB, pw, ov->disk.xdots, disk_top, y, titles, 4);
	}
}
