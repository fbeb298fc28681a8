/* The overview: disk MB/s (read up, write down), memory lists, reclaim rates,
 * one shared time axis.  Values per dot column are computed from the series
 * each draw into buffers owned by struct overview. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/rates.h"
#include "model/runlog.h"
#include "model/phase.h"
#include "model/plot.h"
#include "screen/strip_probe.h"
#include "base/util.h"
#include "screen/views.h"

#define YLAB 7 /* y-axis label column: 6 characters and the axis line */

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

/* A y label: v as a number, or (unit: the plot's memory unit) KiB in it. */
static void ylabel(struct grid *g, int y, double v, const struct mem_unit *unit)
{
	char buf[16];
	if (unit)
		fmt_mem_axis(buf, sizeof(buf), v, unit);
	else
		fmt_num(buf, sizeof(buf), v);
	grid_printf(g, 0, y, ROLE_AXIS, "%*s", YLAB - 1, buf);
}

static void yaxis(struct grid *g, int y, int rows)
{
	for (int j = 0; j < rows; j++)
		grid_put(g, YLAB - 1, y + j, 0x2502, ROLE_AXIS);
}

/* Clipped columns (plot.c: a value above the chart's scale) marked on
 * the chart's far edge, row y: an arrow (↑, or ↓ for the write half that
 * grows down; ^ v in ASCII) in the cell of any clipped dot column, in
 * role, or (role ROLE_COUNT) in the role of the series the mark names
 * (1 + its enum plot_series, the reclaim chart's). */
static void clip_marks(struct grid *g, const double *clip, int n, int xdots, int x0, int y,
		       enum chart_glyphs gl, int down, enum role role)
{
	static const enum role reclaim_roles[] = {ROLE_DEACT, ROLE_ACT, ROLE_SCAN, ROLE_REFAULT};
	uint32_t ch = gl == CHART_ASCII ? (down ? 'v' : '^') : (down ? 0x2193 : 0x2191);
	int xd = xdots > 0 ? xdots : 1;
	for (int i = 0; i < n; i++) {
		if (!(clip[i] > 0))
			continue;
		enum role r = role;
		if (role == ROLE_COUNT) {
			int s = (int)clip[i] - 1 - PLOT_DEACT;
			r = s >= 0 && s < 4 ? reclaim_roles[s] : ROLE_WARN;
		}
		grid_put(g, x0 + i / xd, y, ch, r);
	}
}

/* Scratch for the memory stack (5 rows of cells) and the probe strip
 * (4 values a column). */
static double *scratch(struct overview *ov, int n)
{
	if (5 * n > ov->cap) {
		free(ov->buf);
		ov->cap = 5 * n;
		ov->buf = xmalloc(sizeof(double) * (size_t)ov->cap);
	}
	return ov->buf;
}

/* Phase markers down through the charts, and their labels on row y (a row
 * of their own: nothing else writes there): run names first (they say
 * whose phases follow), then phase names in the gaps; a label that finds
 * no room is left out (its marker line stays). */
static void phase_labels(const struct plot *p, const struct model *m, struct grid *g, int y,
			 int x0, int cw, int xdots, int chart_top, int chart_bottom,
			 const int *skip_rows, int nskip)
{
	char used[1024] = {0};
	if (cw > (int)sizeof(used))
		cw = (int)sizeof(used);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < p->nmarks; i++) {
			const struct plot_mark *e = &p->marks[i];
			if ((e->phase == PHASE_PREPARE) != (pass == 0))
				continue;
			int cx = e->col / xdots;
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
			const char *buf = pass == 0 ? m->log->results[e->run].name : phase_label(e->phase);
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

/* Time labels under the charts, at the plot's ticks: fitted, seconds since
 * the first run started, left to right; else seconds back, right to left
 * from "now" (only when the newest sample is shown). */
static void time_axis(const struct plot *p, const struct model *m, struct grid *g, int y,
		      int x0, int cw)
{
	int newest_shown = p->end == (long)series_len(m->series) - 1;
	int last_label_x = x0 + cw, next_free = x0;
	if (!p->fit && newest_shown && p->col_ns > 0) {
		grid_text(g, x0 + cw - 3, y, -1, ROLE_AXIS, "now");
		last_label_x = x0 + cw - 4;
	}
	for (int i = 0; i < p->nticks; i++) {
		int cx = p->ticks[i].cell;
		long secs = p->ticks[i].secs < 0 ? -p->ticks[i].secs : p->ticks[i].secs;
		char buf[24];
		if (secs % 60 == 0 && secs >= 120)
			snprintf(buf, sizeof(buf), "%s%ldm", p->fit ? "" : "-", secs / 60);
		else
			snprintf(buf, sizeof(buf), "%s%lds", p->fit ? "" : "-", secs);
		int l = (int)strlen(buf);
		int lx = x0 + cx - l + 1;
		if (p->fit) {
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
	canvas_reset(&ov->reclaim, gl, pw, rec_rows);
	int n = ov->disk.dw;
	double *tmp = scratch(ov, n);
	long end = view_end(m, u);
	struct plot *p = &ov->plot;
	struct plot_opts po = {.zoom = u->zoom,
			       .no_fit = u->no_fit,
			       .scrolled = u->paused && u->scroll,
			       .mem_system = u->mem_system,
			       .frozen = frozen,
			       .xdots = ov->disk.xdots,
			       .jumps = m->jumps};
	plot_build(p, m, &po, end, n);
	const struct sample *now = end >= 0 ? series_at(m->series, (size_t)end) : NULL;
	int cg = p->cg;

	/* --- disk: read grows up from the middle, write down --- */
	int y = y0;
	/* the scales, the split and what the disk scale follows: plot.c */
	int split = p->split;
	double dscale = p->read_max, wscale = p->write_max;
	char title[96];
	snprintf(title, sizeof(title), split && !compact ? "Disk %s MiB/s (read, write: own scales)"
							  : "Disk %s MiB/s",
		 m->disk[0] ? m->disk : "(none)");
	/* while runs are shown: the run's own read/write in front, the
	 * device's total behind (plot.h: own_read, own_write) */
	int own_r = p->own_read, own_w = p->own_write;
	struct legend_item dl[4] = {
		{ROLE_READ, own_r ? "\xe2\x96\xb2 run read" : "\xe2\x96\xb2 read",
		 "\xe2\x96\xb2rd", plot_last(p, PLOT_READ), NULL, 0},
		{ROLE_WRITE, own_w ? "\xe2\x96\xbc run write" : "\xe2\x96\xbc write",
		 "\xe2\x96\xbcwr", plot_last(p, PLOT_WRITE), NULL, 0},
	};
	int ndl = 2;
	if (own_r)
		dl[ndl++] = (struct legend_item){ROLE_DISK_READ, "disk read", "dsk\xe2\x96\xb2",
						 plot_last(p, PLOT_READ_DEV), NULL, 0};
	if (own_w)
		dl[ndl++] = (struct legend_item){ROLE_DISK_WRITE, "disk write", "dsk\xe2\x96\xbc",
						 plot_last(p, PLOT_WRITE_DEV), NULL, 0};
	legend(g, y, title, dl, ndl, compact);
	if (!m->disk[0])
		grid_text(g, YLAB + 2, y + 1 + disk_rows / 2, -1, ROLE_DIM,
			  "no disk watched (use -d NAME)");
	y++;
	int strip_y = y;
	y += strip;
	int disk_top = y;
	int half = ov->disk.dh / 2;
	/* the device's total as a line (its top edge) behind the run's area:
	 * a cell the run's area fills is the run's, the line shows above it
	 * (at the edge when a neighbour's reads are beyond the scale) */
	if (own_r)
		canvas_plot(&ov->disk, plot_col(p, PLOT_READ_DEV), n, dscale, ROLE_DISK_READ,
			    CHART_LINE, half - 1, -1, half);
	if (own_w)
		canvas_plot(&ov->disk, plot_col(p, PLOT_WRITE_DEV), n, wscale, ROLE_DISK_WRITE,
			    CHART_LINE, half, +1, ov->disk.dh - half);
	canvas_plot(&ov->disk, plot_col(p, PLOT_READ), n, dscale, ROLE_READ, CHART_AREA, half - 1, -1,
		    half);
	canvas_plot(&ov->disk, plot_col(p, PLOT_WRITE), n, wscale, ROLE_WRITE, CHART_AREA, half, +1,
		    ov->disk.dh - half);
	canvas_render(&ov->disk, g, YLAB, y);
	clip_marks(g, plot_col(p, PLOT_CLIP_READ), n, ov->disk.xdots, YLAB, y, gl, 0, ROLE_READ);
	clip_marks(g, plot_col(p, PLOT_CLIP_WRITE), n, ov->disk.xdots, YLAB, y + disk_rows - 1, gl,
		   1, ROLE_WRITE);
	yaxis(g, y, disk_rows);
	ylabel(g, y, dscale, NULL);
	if (disk_rows >= 4)
		ylabel(g, y + disk_rows / 2 - 1, 0, NULL);
	ylabel(g, y + disk_rows - 1, wscale, NULL);
	y += disk_rows;

	int mem_title = y;
	/* --- memory lists on the plot's memory scale: the limit or MemTotal,
	 * or cut below it (p->mem_cut: a ≈ on the axis, free as a number) --- */
	double total = p->mem_total, top = p->mem_top;
	int cut = p->mem_cut;
	char mt[16];
	fmt_size(mt, sizeof(mt), isnan(total) ? 0 : (uint64_t)(total * 1024.0));
	if (cg)
		snprintf(title, sizeof(title),
			 compact ? "Mem cgroup/%s"
			 : cut ? "Memory (run's cgroup, limit %s, axis cut \xe2\x89\x88, m: system)"
			       : "Memory (run's cgroup, limit %s, m: system)",
			 mt);
	else
		snprintf(title, sizeof(title),
			 compact ? "Memory /%s"
			 : cut	 ? "Memory (system, of %s, axis cut \xe2\x89\x88)"
				 : "Memory (system, of %s)",
			 mt);
	/* MGLRU with debugfs: the generations themselves, youngest at the
	 * bottom, when any shown column has them */
	int gens = p->gens;
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
		 m->mglru ? "act(gen)" : "act", plot_last(p, PLOT_AF), NULL, 1},
		{ROLE_INACTIVE, "inactive(file)", "inact", plot_last(p, PLOT_IF), NULL, 1},
		{ROLE_ANON, cg ? "other" : "anon", cg ? "oth" : "anon", plot_last(p, PLOT_ANON), NULL, 1},
		{ROLE_FREE, cg ? "headroom" : "free", "free", plot_last(p, PLOT_FREE), NULL, 1},
	};
	struct legend_item gl_items[] = {
		{ROLE_GEN0, "gen0", "g0", plot_last(p, PLOT_G0), NULL, 1},
		{ROLE_GEN1, "gen1", "g1", plot_last(p, PLOT_G1), NULL, 1},
		{ROLE_GEN2, "gen2", "g2", plot_last(p, PLOT_G2), NULL, 1},
		{ROLE_GEN3, "gen3", "g3", plot_last(p, PLOT_G3), NULL, 1},
		ml[2],
		ml[3],
	};
	if (gens)
		legend(g, y, title, gl_items, 6, compact);
	else
		legend(g, y, title, ml, 4, compact);
	y++;
	if (!isnan(top) && top > 0) {
		/* a stacked area: active(file) at the bottom, then inactive(file),
		 * other/anon; headroom/free is the space left up to the limit.
		 * One value per cell: its last dot column. */
		int xd = ov->disk.xdots, cells = pw; /* chart_stack draws cells, no canvas */
		static const enum plot_series which[3] = {PLOT_AF, PLOT_IF, PLOT_ANON};
		static const enum plot_series gwhich[5] = {PLOT_G0, PLOT_G1, PLOT_G2, PLOT_G3,
							   PLOT_ANON};
		/* the buffers hold 2n >= 2 cells values a column: B_TMP..B_TMP3
		 * six rows of cells */
		double *cv[5];
		for (int k = 0; k < 5; k++)
			cv[k] = tmp + (size_t)k * (size_t)cells;
		int ns = gens ? 5 : 3, cap = cells;
		for (int k = 0; k < ns; k++) {
			for (int i = 0; i < cap; i++)
				cv[k][i] = plot_col(p, gens ? gwhich[k] : which[k])[i * xd + xd - 1];
		}
		static const enum role sroles[3] = {ROLE_ACTIVE, ROLE_INACTIVE, ROLE_ANON};
		static const enum role groles[5] = {ROLE_GEN0, ROLE_GEN1, ROLE_GEN2, ROLE_GEN3,
						    ROLE_ANON};
		const double *const cvc[5] = {cv[0], cv[1], cv[2], cv[3], cv[4]};
		chart_stack(g, YLAB, y, cap, mem_rows, gl, cvc, gens ? groles : sroles, ns, top);
		ylabel(g, y, top, p->mem_unit);
		ylabel(g, y + mem_rows - 1, 0, NULL);
	}
	yaxis(g, y, mem_rows);
	if (cut && mem_rows >= 2) /* ≈: the axis stops short of the total */
		grid_put(g, YLAB - 1, y, 0x2248, ROLE_AXIS);
	y += mem_rows;

	/* --- reclaim rates, pages/s, and PSI in the legend --- */
	double rscale = p->reclaim_max, dcscale = p->deact_max;
	double psi_m = now && (now->have & SAMPLE_HAVE_PSI_MEM) ? now->psi_mem_some : NAN;
	double psi_io = now && (now->have & SAMPLE_HAVE_PSI_IO) ? now->psi_io_some : NAN;
	struct legend_item rl[] = {
		{ROLE_DEACT, "deactivate", "deact", plot_last(p, PLOT_DEACT), NULL, 0},
		{ROLE_ACT, "activate", "act", plot_last(p, PLOT_ACT), NULL, 0},
		{ROLE_SCAN, "scan", "scan", plot_last(p, PLOT_SCAN), NULL, 0},
		{ROLE_REFAULT, "refault", "rflt", plot_last(p, PLOT_REFAULT), NULL, 0},
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
	canvas_plot(&ov->reclaim, plot_col(p, PLOT_DEACT), n, dcscale, ROLE_DEACT, CHART_AREA, band - 1,
		    -1, band);
	for (int b = PLOT_REFAULT; b >= PLOT_ACT; b--) {
		static const enum role roles[] = {ROLE_DEACT, ROLE_ACT, ROLE_SCAN, ROLE_REFAULT};
		canvas_plot(&ov->reclaim, plot_col(p, b), n, rscale, roles[b - PLOT_DEACT], CHART_LINE,
			    band - 1, -1, band);
	}
	canvas_render(&ov->reclaim, g, YLAB, y);
	clip_marks(g, plot_col(p, PLOT_CLIP_RECLAIM), n, ov->reclaim.xdots, YLAB, y, gl, 0,
		   ROLE_COUNT);
	yaxis(g, y, rec_rows);
	ylabel(g, y, rscale, NULL);
	ylabel(g, y + rec_rows - 1, 0, NULL);
	y += rec_rows;
	int res_title = res_rows ? y : -1;
	if (end >= 0)
		y += strip_residency_draw(&ov->res, m, p->hi, n, gl, g, YLAB, y, pw, res_rows, compact);
	/* the map's rows are not on the time axis: no marks cross them */
	int map_top = res_rows ? res_title + res_rows - STRIP_RESIDENCY_MAP_ROWS : -1;
	int probe_title = probe_rows ? y : -1;
	if (probe_rows) { /* tmp holds 4n values, free by now */
		strip_probe_draw(&ov->probe, m, p->lo, p->hi, n, tmp, gl, g, YLAB, y,
				 probe_rows, compact);
		y += probe_rows;
	}

	if (end >= 0) {
		time_axis(p, m, g, y, YLAB, pw);
		int titles[] = {mem_title, rec_title, res_title, probe_title, map_top,
				map_top < 0 ? -1 : map_top + 1};
		if (strip)
			view_burst_bands(g, plot_col(p, PLOT_BURST), strip_y + 1, YLAB, pw,
					 ov->disk.xdots, disk_top, y, titles, 6);
		if (strip)
			phase_labels(p, m, g, strip_y, YLAB, pw, ov->disk.xdots, disk_top, y, titles, 6);
	}
}
