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
#include "util.h"
#include "views.h"

#define YLAB 7 /* y-axis label column: 6 characters and the axis line */

enum { B_READ, B_WRITE, B_AF, B_IF, B_ANON, B_FREE, B_DEACT, B_ACT, B_SCAN, B_REFAULT, B_RUN, B_N };

struct legend_item {
	enum role role;
	const char *name, *short_name;
	double value;
	const char *unit; /* appended to the value */
	int bytes;	  /* value is KiB: print as a size */
};

/* Title and legend on one line: "Disk vda MiB/s  ▲ read 12  ▼ write 40". */
static void legend(struct grid *g, int y, const char *title, const struct legend_item *it,
		   int n, int compact)
{
	int x = 1 + grid_text(g, 1, y, -1, ROLE_TITLE, title) + 2;
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
		grid_put(g, x, y, 0x25a0, it[i].role); /* ■ in the series' colour */
		x += 2;
		x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf) + 2;
	}
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
	ov->cap = n;
	ov->buf = xmalloc(sizeof(double) * B_N * (size_t)n);
}

static double *col(struct overview *ov, int which)
{
	return ov->buf + (size_t)which * (size_t)ov->cap;
}

/* Fills the value columns: n dot columns ending at series index `end`.
 * cg: memory columns from the run's cgroup (KiB), NAN where a sample has
 * none, so a chart never mixes two scales. */
static void gather(struct overview *ov, const struct model *m, long end, int n, int cg)
{
	for (int i = 0; i < n; i++) {
		long idx = end - (n - 1 - i);
		const struct sample *b = idx >= 0 ? series_at(m->series, (size_t)idx) : NULL;
		const struct sample *a = idx >= 1 ? series_at(m->series, (size_t)idx - 1) : NULL;
		struct rates r;
		rates_compute(a, b, &r);
		col(ov, B_READ)[i] = r.read_mbs;
		col(ov, B_WRITE)[i] = r.write_mbs;
		col(ov, B_DEACT)[i] = r.pgdeactivate_s;
		col(ov, B_ACT)[i] = r.pgactivate_s;
		col(ov, B_SCAN)[i] = r.pgscan_s;
		col(ov, B_REFAULT)[i] = r.refault_file_s;
		col(ov, B_RUN)[i] = b && b->run >= 0 ? 1.0 : 0.0;
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

/* Phase markers down through the charts, and their labels on row y: run
 * names first (they say whose phases follow), then phase names in the
 * gaps; a label that finds no room is left out (its marker line stays). */
static void phase_labels(const struct model *m, struct grid *g, int y, int x0, int cw, int xdots,
			 long first, long end, int chart_top, int chart_bottom,
			 const int *skip_rows, int nskip)
{
	const struct runlog *s = m->log;
	if (!s->nevents)
		return;
	char used[1024] = {0};
	if (cw > (int)sizeof(used))
		cw = (int)sizeof(used);
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < s->nevents; i++) {
			const struct run_event *e = &s->events[i];
			if ((e->phase == PHASE_PREPARE) != (pass == 0))
				continue;
			long idx = series_find(m->series, e->t_ns);
			if (idx < 0 || idx < first || idx > end)
				continue;
			int cx = (int)((idx - first) / xdots);
			if (pass == 0 || e->phase != PHASE_IDLE)
				for (int yy = chart_top; yy < chart_bottom; yy++) {
					int title = 0;
					for (int k = 0; k < nskip; k++)
						title |= skip_rows[k] == yy;
					struct cell *c = title ? NULL : grid_at(g, x0 + cx, yy);
					if (c && (!c->ch || c->ch == ' ')) {
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

/* The event strip above the disk chart: phase labels where runs changed
 * phase (row y), and a burst mark over every column with a demotion burst
 * (row burst_y: its own row when the terminal is tall enough, else the
 * same row, where a burst wins over a label).  Phase markers also run down
 * through the charts (on empty cells only). */
static void event_strip(const struct model *m, struct grid *g, int y, int burst_y, int x0,
			int cw, int xdots, long end, int chart_top, int chart_bottom,
			const int *skip_rows, int nskip)
{
	long first = end - (long)cw * xdots + 1;
	phase_labels(m, g, y, x0, cw, xdots, first, end, chart_top, chart_bottom, skip_rows, nskip);
	for (int cx = 0; cx < cw; cx++) {
		for (int k = 0; k < xdots; k++) {
			long idx = first + (long)cx * xdots + k;
			if (idx < 1)
				continue;
			if (burst_between(series_at(m->series, (size_t)idx - 1),
					     series_at(m->series, (size_t)idx))) {
				grid_put(g, x0 + cx, burst_y, 0x25bc, ROLE_BURST); /* ▼ */
				break;
			}
		}
	}
}
static double max_of(const double *v, int n)
{
	double mx = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > mx)
			mx = v[i];
	return mx;
}

/* The largest value in columns that belong to a copy run, or -1 when no
 * visible column does. */
static double max_in_runs(const double *v, const double *run, int n)
{
	double mx = -1;
	for (int i = 0; i < n; i++)
		if (run[i] > 0 && !isnan(v[i]) && v[i] > mx)
			mx = v[i];
	return mx;
}

static double last_of(const double *v, int n)
{
	return n > 0 ? v[n - 1] : NAN;
}

static const int nice_steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200};

/* Time labels under the charts: seconds before the newest shown sample. */
static void time_axis(const struct model *m, struct grid *g, int y, int x0, int cw, int xdots,
		      long end)
{
	const struct sample *last = series_at(m->series, (size_t)end);
	const struct sample *first = NULL;
	long first_idx = end - (long)cw * xdots + 1;
	first = series_at(m->series, (size_t)(first_idx < 0 ? 0 : first_idx));
	if (!last || !first)
		return;
	double span = (double)(last->t_ns - first->t_ns) / 1e9;
	double want = span / ((double)cw / 12.0);
	int step = nice_steps[ARRAY_LEN(nice_steps) - 1];
	for (size_t i = 0; i < ARRAY_LEN(nice_steps); i++)
		if (nice_steps[i] >= want) {
			step = nice_steps[i];
			break;
		}
	grid_text(g, x0 + cw - 3, y, -1, ROLE_AXIS, "now");
	int last_label_x = x0 + cw - 4;
	long prev_bucket = -1;
	for (int cx = cw - 1; cx >= 0; cx--) {
		long idx = end - (long)(cw - 1 - cx) * xdots;
		const struct sample *s = idx >= 0 ? series_at(m->series, (size_t)idx) : NULL;
		if (!s)
			break;
		double back = (double)(last->t_ns - s->t_ns) / 1e9;
		long bucket = (long)(back / step);
		if (prev_bucket >= 0 && bucket != prev_bucket) {
			char buf[24];
			long secs = bucket * step;
			if (secs % 60 == 0 && secs >= 120)
				snprintf(buf, sizeof(buf), "-%ldm", secs / 60);
			else
				snprintf(buf, sizeof(buf), "-%lds", secs);
			int l = (int)strlen(buf);
			int lx = x0 + cx - l + 1;
			if (lx + l + 1 < last_label_x && lx >= x0) {
				grid_text(g, lx, y, -1, ROLE_AXIS, buf);
				last_label_x = lx;
			}
		}
		prev_bucket = bucket;
	}
}

void overview_draw(struct overview *ov, const struct model *m, const struct ui *u, struct grid *g, int y0, int h)
{
	int pw = g->w - YLAB - 1; /* plot width in cells */
	/* event strip: run phases and demotion bursts (bursts of a whole big
	 * machine are rare; without runs the row goes to the charts) */
	int strip = m->runs.state == RUNS_NONE ? 0 : h - 4 >= 28 ? 2 : 1;
	int plot_rows = h - 4 - strip; /* three title lines, one time axis */
	int disk_rows = plot_rows * 40 / 100, mem_rows = plot_rows * 33 / 100;
	if (disk_rows % 2 && disk_rows > 2) { /* an even split: read and write halves */
		disk_rows--;
		mem_rows++;
	}
	int rec_rows = plot_rows - disk_rows - mem_rows;
	int compact = g->w < 110;
	enum chart_glyphs gl = u->glyphs;

	canvas_reset(&ov->disk, gl, pw, disk_rows);
	canvas_reset(&ov->mem, gl, pw, mem_rows);
	canvas_reset(&ov->reclaim, gl, pw, rec_rows);
	int n = ov->disk.dw;
	ensure_buffers(ov, n);
	long end = view_end(m, u);
	const struct sample *now = end >= 0 ? series_at(m->series, (size_t)end) : NULL;
	/* The memory chart shows a run's cgroup while any visible sample has
	 * one (so a finished run stays readable on its own scale), unless m
	 * asked for the system. */
	const struct sample *cg_ref = NULL;
	for (int i = n - 1; i >= 0 && end - (n - 1 - i) >= 0 && !u->mem_system && !cg_ref; i--) {
		const struct sample *smp = series_at(m->series, (size_t)(end - (n - 1 - i)));
		if ((smp->have & SAMPLE_HAVE_CG) && smp->cg_limit)
			cg_ref = smp;
	}
	int cg = cg_ref != NULL;
	if (end >= 0)
		gather(ov, m, end, n, cg);
	else
		for (int i = 0; i < B_N * n; i++)
			ov->buf[i] = NAN;

	/* --- disk: read grows up from the middle, write down, one scale --- */
	int y = y0;
	/* While runs are on screen the disk scale follows their traffic: a
	 * burst outside them (writing back the scratch source at several GB/s
	 * into a VM host's cache) would otherwise flatten every copy; such
	 * spikes clip at the top edge instead. */
	double dmax = max_in_runs(col(ov, B_READ), col(ov, B_RUN), n);
	double wmax = max_in_runs(col(ov, B_WRITE), col(ov, B_RUN), n);
	if (dmax < 0 && wmax < 0) {
		dmax = max_of(col(ov, B_READ), n);
		wmax = max_of(col(ov, B_WRITE), n);
	}
	double dscale = autoscale_update(&ov->disk_scale, dmax > wmax ? dmax : wmax, 1.0, 40);
	char title[96];
	snprintf(title, sizeof(title), "Disk %s MiB/s", m->disk[0] ? m->disk : "(none)");
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
	canvas_plot(&ov->disk, col(ov, B_WRITE), n, dscale, ROLE_WRITE, CHART_AREA, half, +1,
		    ov->disk.dh - half);
	canvas_render(&ov->disk, g, YLAB, y);
	yaxis(g, y, disk_rows);
	ylabel(g, y, dscale, 0);
	if (disk_rows >= 4)
		ylabel(g, y + disk_rows / 2 - 1, 0, 0);
	ylabel(g, y + disk_rows - 1, dscale, 0);
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
	struct legend_item ml[] = {
		{ROLE_ACTIVE, "active(file)", "act", last_of(col(ov, B_AF), n), NULL, 1},
		{ROLE_INACTIVE, "inactive(file)", "inact", last_of(col(ov, B_IF), n), NULL, 1},
		{ROLE_ANON, cg ? "other" : "anon", cg ? "oth" : "anon", last_of(col(ov, B_ANON), n), NULL, 1},
		{ROLE_FREE, cg ? "headroom" : "free", "free", last_of(col(ov, B_FREE), n), NULL, 1},
	};
	legend(g, y, title, ml, 4, compact);
	y++;
	if (!isnan(total) && total > 0) {
		int band = ov->mem.dh;
		canvas_plot(&ov->mem, col(ov, B_FREE), n, total, ROLE_FREE, CHART_LINE, band - 1, -1,
			    band);
		canvas_plot(&ov->mem, col(ov, B_ANON), n, total, ROLE_ANON, CHART_LINE, band - 1, -1,
			    band);
		canvas_plot(&ov->mem, col(ov, B_IF), n, total, ROLE_INACTIVE, CHART_LINE, band - 1,
			    -1, band);
		canvas_plot(&ov->mem, col(ov, B_AF), n, total, ROLE_ACTIVE, CHART_LINE, band - 1, -1,
			    band);
		canvas_render(&ov->mem, g, YLAB, y);
		ylabel(g, y, total, 1);
		ylabel(g, y + mem_rows - 1, 0, 0);
	}
	yaxis(g, y, mem_rows);
	y += mem_rows;

	/* --- reclaim rates, pages/s, and PSI in the legend --- */
	double rmax = 0;
	for (int b = B_DEACT; b <= B_REFAULT; b++) {
		double v = max_of(col(ov, b), n);
		rmax = v > rmax ? v : rmax;
	}
	double rscale = autoscale_update(&ov->reclaim_scale, rmax, 10.0, 40);
	double psi_m = now && (now->have & SAMPLE_HAVE_PSI_MEM) ? now->psi_mem_some : NAN;
	double psi_io = now && (now->have & SAMPLE_HAVE_PSI_IO) ? now->psi_io_some : NAN;
	struct legend_item rl[] = {
		{ROLE_DEACT, "deactivate", "deact", last_of(col(ov, B_DEACT), n), NULL, 0},
		{ROLE_ACT, "activate", "act", last_of(col(ov, B_ACT), n), NULL, 0},
		{ROLE_SCAN, "scan", "scan", last_of(col(ov, B_SCAN), n), NULL, 0},
		{ROLE_REFAULT, "refault", "rflt", last_of(col(ov, B_REFAULT), n), NULL, 0},
		{ROLE_PSI, "PSI mem", "psi-m", psi_m, "%", 0},
		{ROLE_PSI, "PSI io", "psi-io", psi_io, "%", 0},
	};
	int rec_title = y;
	legend(g, y, compact ? "Reclaim pg/s" : "Reclaim pages/s", rl, 6, compact);
	y++;
	int band = ov->reclaim.dh;
	for (int b = B_REFAULT; b >= B_DEACT; b--) {
		static const enum role roles[] = {ROLE_DEACT, ROLE_ACT, ROLE_SCAN, ROLE_REFAULT};
		canvas_plot(&ov->reclaim, col(ov, b), n, rscale, roles[b - B_DEACT], CHART_LINE,
			    band - 1, -1, band);
	}
	canvas_render(&ov->reclaim, g, YLAB, y);
	yaxis(g, y, rec_rows);
	ylabel(g, y, rscale, 0);
	ylabel(g, y + rec_rows - 1, 0, 0);
	y += rec_rows;

	if (end >= 0) {
		time_axis(m, g, y, YLAB, pw, ov->disk.xdots, end);
	}
	if (end >= 0 && strip) {
		int titles[] = {mem_title, rec_title};
		event_strip(m, g, strip_y, strip_y + strip - 1, YLAB, pw, ov->disk.xdots, end, disk_top,
			    y, titles, 2);
	}
}
