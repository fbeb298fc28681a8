/* The Runs view: small multiples.  One block per finished run (or per
 * strategy: its median run), all aligned at the start of the copy and
 * drawn on one time scale and one scale per strip, so the eye compares
 * shapes; the statistics table underneath.
 *
 * A block, top to bottom: a row of burst marks (when the block has room),
 * the disk rate strip (read, write stacked above it), the active(file)
 * strip, a blank row between blocks (when there is room).  The two strips
 * never share a cell, each has its scale at the right edge; both are
 * stacked areas (chart_stack), so with blocks the active list's climb and
 * drop reads in eighths of a cell.  Blocks share the height left by the
 * table (RUN_MIN_ROWS .. RUN_MAX_ROWS rows each); the runs that do not fit
 * scroll (up / down, ui.runs_scroll). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/compare.h"
#include "model/rates.h"
#include "model/runlog.h"
#include "model/sawtooth.h"
#include "model/stats.h"
#include "model/phase.h"
#include "model/plot.h"
#include "runs/strategy.h"
#include "model/sweep.h"
#include "base/util.h"
#include "screen/views.h"

#define LABEL_W	     25
#define RMARGIN	     6 /* the strips' scale and name, right of the plot */
#define RUN_MIN_ROWS 2 /* a rate strip and an active strip of one row */
#define RUN_MAX_ROWS 16

static void empty(struct grid *g, int y)
{
	grid_text(g, 2, y + 1, -1, ROLE_DIM, "No finished runs yet.");
	grid_text(g, 2, y + 2, -1, ROLE_DIM,
		  "Press r to pick strategies, or start lrutop with -s LIST (e.g. -s copybench).");
}

/* The table's columns in the order shown; prio: which go first when the
 * screen is narrow (0 stays longest).  runs, the n behind the medians,
 * stays with them; vs base (the /base ratio as a percentage) is among the
 * first to go.  The sawtooth in numbers outranks the fault counters, rd/cp
 * (sawtooth.h: it separates the strategies at every interval) first, then
 * rd@burst and rdCV. */
enum {
	C_NAME,
	C_RUNS,
	C_EMED,
	C_EMM,
	C_MBS,
	C_RATIO,
	C_VS,
	C_MAJ,
	C_BURSTS,
	C_RDCP,
	C_RCV,
	C_WCV,
	C_RAB,
	C_PEAK,
	C_REF,
	C_N
};
static const struct {
	const char *group, *label;
	int w, prio;
} tcols[C_N] = {
    [C_NAME] = {"", "strategy", 16, 0},	    [C_RUNS] = {"", "runs", 4, 1},
    [C_EMED] = {"elapsed", "median", 8, 0}, [C_EMM] = {"", "min - max", 17, 13},
    [C_MBS] = {"MiB/s", "median", 7, 1},    [C_RATIO] = {"", "/fastest", 8, 2},
    [C_VS] = {"", "vs base", 7, 8},	    [C_MAJ] = {"", "majflt", 7, 12},
    [C_BURSTS] = {"", "bursts", 6, 5},	    [C_RDCP] = {"", "rd/cp", 5, 2},
    [C_RCV] = {"", "rdCV", 5, 4},
    [C_WCV] = {"", "wrCV", 5, 7},	    [C_RAB] = {"", "rd@burst", 8, 3},
    [C_PEAK] = {"", "peakAct", 8, 10},	    [C_REF] = {"", "refault", 8, 11},
};

/* A column's width: the name column is as wide as the longest label
 * (rw_cp@32M, mm_sync_madv_cp@32M: the --disk-limit suffix is part of
 * the name), at least its own. */
static int col_w(int c, int namew)
{
	return c == C_NAME && namew > tcols[c].w ? namew : tcols[c].w;
}

/* Which columns fit in width w (each takes its width and a space); the
 * "noisy" mark after the last only if it fits too. */
static void table_fit(int w, int namew, int *on, int *noisy_mark)
{
	int used = 0;
	memset(on, 0, sizeof(int) * C_N);
	for (int p = 0; p <= 13; p++)
		for (int c = 0; c < C_N; c++)
			if (tcols[c].prio == p && used + col_w(c, namew) + (c ? 1 : 0) <= w) {
				on[c] = 1;
				used += col_w(c, namew) + (c ? 1 : 0);
			}
	*noisy_mark = used + 6 <= w;
}

/* One table line from the cells of the columns that are on: the name left
 * aligned, the figures right aligned, one space between. */
static void table_line(struct grid *g, int y, enum role role, const int *on, int namew,
		       const char *const cell[C_N], const char *tail)
{
	char line[256];
	size_t len = 0;
	for (int c = 0; c < C_N; c++) {
		if (!on[c])
			continue;
		int k = snprintf(line + len, sizeof(line) - len, c ? " %*.*s" : "%-*.*s",
				 col_w(c, namew), col_w(c, namew), cell[c]);
		if (k > 0 && (size_t)k < sizeof(line) - len)
			len += (size_t)k;
	}
	snprintf(line + len, sizeof(line) - len, "%s", tail);
	grid_text(g, 1, y, g->w - 2, role, line);
}

static void table(struct grid *g, int y, const struct strategy_stats *st, int ns)
{
	int on[C_N], mark, namew = 0;
	for (int i = 0; i < ns; i++)
		if ((int)strlen(st[i].name) > namew)
			namew = (int)strlen(st[i].name);
	table_fit(g->w - 2, namew, on, &mark);
	/* hyperfine's labels: the figures under "elapsed" and "MiB/s" are medians */
	const char *groups[C_N], *labels[C_N];
	for (int c = 0; c < C_N; c++) {
		groups[c] = tcols[c].group;
		labels[c] = tcols[c].label;
	}
	/* to the baseline when it has an OK run (its row 1.00x), else to the
	 * fastest: the label says which */
	int by_base = stats_by_base(st, ns);
	labels[C_RATIO] = STATS_RATIO_LABEL(by_base);
	table_line(g, y++, ROLE_AXIS, on, namew, groups, "");
	table_line(g, y++, ROLE_AXIS, on, namew, labels, "");
	int noisy = 0;
	for (int i = 0; i < ns && y < g->h - 2; i++, y++) {
		const struct strategy_stats *s = &st[i];
		char c[C_N][40]; /* a strategy name is at most 31 bytes */
		const char *cell[C_N];
		stats_cells(s, c[C_VS], sizeof(c[C_VS]), c[C_PEAK], sizeof(c[C_PEAK]));
		snprintf(c[C_NAME], sizeof(c[C_NAME]), "%s", s->name);
		snprintf(c[C_RUNS], sizeof(c[C_RUNS]), s->ok == s->runs ? "%d" : "%d/%d", s->ok,
			 s->runs);
		if (s->ok)
			snprintf(c[C_EMM], sizeof(c[C_EMM]), "%.2f - %.2fs", s->elapsed_min,
				 s->elapsed_max);
		else
			snprintf(c[C_EMM], sizeof(c[C_EMM]), "-");
		stats_num(c[C_EMED], sizeof(c[C_EMED]), "%.2fs", s->elapsed_med);
		stats_num(c[C_MBS], sizeof(c[C_MBS]), "%.1f", s->mbs_med);
		stats_ratio_cell(s, by_base, c[C_RATIO], sizeof(c[C_RATIO]));
		stats_num(c[C_MAJ], sizeof(c[C_MAJ]), "%.0f", s->majflt_med);
		stats_num(c[C_BURSTS], sizeof(c[C_BURSTS]), "%.1f", s->bursts_med);
		stats_num(c[C_REF], sizeof(c[C_REF]), "%.0f", s->refault_med);
		stats_num(c[C_RDCP], sizeof(c[C_RDCP]), "%.2f", s->read_ratio_med);
		stats_num(c[C_RCV], sizeof(c[C_RCV]), "%.2f", s->read_cv_med);
		stats_num(c[C_WCV], sizeof(c[C_WCV]), "%.2f", s->write_cv_med);
		stats_num(c[C_RAB], sizeof(c[C_RAB]), "%.2f", s->read_at_burst_med);
		for (int k = 0; k < C_N; k++)
			cell[k] = c[k];
		enum role role = s->fastest ? ROLE_SELECT : ROLE_DEFAULT;
		table_line(g, y, role, on, namew, cell, s->noisy && mark ? " noisy" : "");
		if (s->fastest)
			grid_paint(g, 1, y, g->w - 2, 1, ROLE_SELECT);
		noisy |= s->noisy;
	}
	char note[96];
	for (int k = 0; y < g->h - 2 && stats_note(st, ns, k, note, sizeof(note)); k++)
		grid_text(g, 1, y++, -1, ROLE_WARN, note);
	if (noisy && y < g->h - 2)
		grid_text(g, 1, y, -1, ROLE_WARN,
			  "noisy: elapsed min-max spread above 10% - consider --repeat 5");
}

/* --compare: the table batch prints (compare_table), line by line; the
 * number of lines it takes. */
static int compare_lines(const struct model *m, struct grid *g, int y)
{
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	if (!f)
		return 0;
	compare_table(f, m->compare);
	fclose(f);
	int n = 0;
	for (char *line = txt, *nl; line && *line; line = nl + 1, n++) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		enum role role = ROLE_DEFAULT;
		if (strstr(line, "slower") || strstr(line, "faster"))
			role = ROLE_WARN;
		else if (n < m->compare->nrec + 1) /* the labels and a blank */
			role = ROLE_TITLE;
		if (g && y + n < g->h - 1)
			grid_text(g, 1, y + n, -1, role, line);
		if (!nl)
			break;
	}
	free(txt);
	return n;
}

/* --sweep: the sweep table in place of the statistics (whose rows would
 * be strategies x values): a title, two header lines, a row per value
 * that has runs; as many strategies as the width holds, a note for the
 * rest.  The number of lines it takes (g NULL: only count). */
#define SW_VAL_W  9
#define SW_CELL_W 19 /* " 12.34s 12.0  0.45" */
static int sweep_lines(const struct sweep_table *t, struct grid *g, int y)
{
	int used = 0;
	for (int vi = 0; vi < t->nv; vi++)
		used += sweep_row_used(t, vi);
	if (!g)
		return 3 + used;
	int fit = (g->w - 2 - SW_VAL_W) / (SW_CELL_W + 2);
	int ns = t->ns < fit ? t->ns : fit > 0 ? fit : 0;
	char line[512], note[96] = "";
	size_t l;
	int all = t->ns + t->dropped; /* dropped: a recording past the table's columns */
	if (t->dropped)
		snprintf(note, sizeof(note), " (%d of %d strategies: %d more not shown)", ns, all,
			 all - ns);
	else if (ns < t->ns)
		snprintf(note, sizeof(note), " (%d of %d strategies: a wider terminal shows more)",
			 ns, t->ns);
	l = (size_t)snprintf(line, sizeof(line), "Sweep of %s: median elapsed, bursts, rdCV%s",
			     sweep_param_name(t->param), note[0] ? note : " per value");
	if (note[0] && l > (size_t)(g->w - 2)) /* the note whole: the heads say the rest */
		snprintf(line, sizeof(line), "Sweep of %s%s", sweep_param_name(t->param), note);
	grid_text(g, 1, y++, g->w - 2, ROLE_TITLE, line);
	l = (size_t)snprintf(line, sizeof(line), "%-*s", SW_VAL_W, sweep_param_name(t->param));
	for (int s = 0; s < ns && l < sizeof(line); s++)
		l += (size_t)snprintf(line + l, sizeof(line) - l, "  %-*.*s", SW_CELL_W, SW_CELL_W,
				      t->strat[s]);
	grid_text(g, 1, y++, g->w - 2, ROLE_AXIS, line);
	l = (size_t)snprintf(line, sizeof(line), "%-*s", SW_VAL_W, "");
	for (int s = 0; s < ns && l < sizeof(line); s++)
		l += (size_t)snprintf(line + l, sizeof(line) - l, "  %8s %4s %5s", "elapsed", "brst",
				      "rdCV");
	grid_text(g, 1, y++, g->w - 2, ROLE_AXIS, line);
	for (int vi = 0; vi < t->nv && y < g->h - 1; vi++) {
		if (!sweep_row_used(t, vi))
			continue;
		char v[24];
		sweep_value_str(v, sizeof(v), t->v[vi]);
		l = (size_t)snprintf(line, sizeof(line), "%-*s", SW_VAL_W, v);
		for (int s = 0; s < ns && l < sizeof(line); s++) {
			const struct sweep_cell *c = &t->cell[vi][s];
			char el[16], bu[16], cv[16];
			stats_num(el, sizeof(el), "%.2fs", c->elapsed_med);
			stats_num(bu, sizeof(bu), "%.1f", c->bursts_med);
			stats_num(cv, sizeof(cv), "%.2f", c->rdcv_med);
			l += (size_t)snprintf(line + l, sizeof(line) - l, "  %8s %4s %5s", el, bu, cv);
		}
		grid_text(g, 1, y++, g->w - 2, ROLE_DEFAULT, line);
	}
	return 3 + used;
}

static void draw_table(const struct model *m, struct grid *g, int y,
		       const struct strategy_stats *st, int ns, const struct sweep_table *sw)
{
	if (m->compare)
		compare_lines(m, g, y);
	else if (sw)
		sweep_lines(sw, g, y);
	else
		table(g, y, st, ns);
}

/* A strip's scale at the right edge: its top value on the top row, its
 * name on the bottom row (the name only, in a strip of one row). */
static void strip_scale(struct grid *g, int x, int y, int rows, const char *top, const char *name,
			enum role role)
{
	if (rows >= 2)
		grid_text(g, x, y, RMARGIN - 1, ROLE_AXIS, top);
	grid_text(g, x, y + rows - 1, RMARGIN - 1, role, name);
	for (int j = 0; j < rows; j++)
		grid_put(g, x - 1, y + j, 0x2502, ROLE_AXIS);
}

/* One strip of a block: v as an area of eighth blocks (chart_stack: one
 * series a cell, so nothing else shares its cells), its scale at the right. */
static void strip(struct grid *g, int pw, int y, int rows, enum chart_glyphs gl, const double *v,
		  enum role role, double ymax, const char *top, const char *name)
{
	if (rows <= 0)
		return;
	const enum role roles[1] = {role};
	const double *const vals[1] = {v};
	chart_stack(g, LABEL_W, y, pw, rows, gl, vals, roles, 1, ymax);
	strip_scale(g, LABEL_W + pw + 1, y, rows, top, name, role);
}

/* The label column of a block: the run, then its figures, as far as the
 * block's rows go. */
static void block_label(struct grid *g, int y, int rows, const struct run_result *r, int fastest,
			const char *lim)
{
	char buf[96], a[16], b[16], name[40];
	/* a --disk-limit every run shares is in the header: the name goes
	 * without it, so mm_sync_madv_cp fits its 15 characters */
	snprintf(name, sizeof(name), "%.*s", runlog_label_len(r, lim), r->name);
	if (r->ok)
		snprintf(buf, sizeof(buf), "%-15.15s#%-2d%5.1fs", name, r->repeat, r->elapsed_s);
	else
		snprintf(buf, sizeof(buf), "%-15.15s#%-2d %s", name, r->repeat,
			 r->cancelled ? "cncl" : "FAIL");
	grid_text(g, 0, y, LABEL_W - 1,
		  fastest ? ROLE_SELECT
		  : r->ok ? ROLE_TITLE
			  : ROLE_WARN,
		  buf);
	if (rows >= 2) {
		snprintf(buf, sizeof(buf), "  %d burst%s, %.0f MiB/s%s", r->bursts,
			 r->bursts == 1 ? "" : "s", r->mbs,
			 r->ok && r->verified == RUN_UNVERIFIABLE ? ", unverified" : "");
		grid_text(g, 0, y + 1, LABEL_W - 1, ROLE_DIM, buf);
	}
	/* the sawtooth: rd/cp first, it means the same at every interval */
	if (rows >= 3) {
		double ratio = sawtooth_read_ratio(r);
		snprintf(a, sizeof(a), isnan(ratio) ? "-" : "%.2f", ratio);
		snprintf(b, sizeof(b), isnan(r->read_cv) ? "-" : "%.2f", r->read_cv);
		snprintf(buf, sizeof(buf), "  rd/cp %s  rdCV %s", a, b);
		grid_text(g, 0, y + 2, LABEL_W - 1, ROLE_DIM, buf);
	}
	if (rows >= 4) {
		snprintf(a, sizeof(a), isnan(r->write_cv) ? "-" : "%.2f", r->write_cv);
		snprintf(b, sizeof(b), isnan(r->read_at_burst) ? "-" : "%.2f", r->read_at_burst);
		snprintf(buf, sizeof(buf), "  wrCV %s  rd@b %s", a, b);
		grid_text(g, 0, y + 3, LABEL_W - 1, ROLE_DIM, buf);
	}
	for (int j = 0; j < rows; j++)
		grid_put(g, LABEL_W - 1, y + j, 0x2502, ROLE_AXIS);
}

/* The legend row: what each colour is and the scales, the pieces that fit. */
/* wr_s NULL: no write strip */
static void legend_row(struct grid *g, int y, const char *rd_s, const char *wr_s, const char *af_s)
{
	char buf[64];
	int x = 1;
	int with_write = wr_s != NULL;
	struct {
		uint32_t glyph;
		enum role role;
		const char *fmt, *arg;
	} items[] = {
	    {0x2588, ROLE_READ, " read 0-%s MiB/s", rd_s},
	    {0x2588, ROLE_WRITE, " write 0-%s MiB/s", wr_s ? wr_s : ""},
	    {0x2584, ROLE_ACTIVE, " active(file) 0-%s", af_s},
	    {0x25bc, ROLE_BURST, " burst", ""},
	};
	for (size_t i = 0; i < ARRAY_LEN(items); i++) {
		if (items[i].role == ROLE_WRITE && !with_write)
			continue;
		snprintf(buf, sizeof(buf), items[i].fmt, items[i].arg);
		int l = 1 + (int)strlen(buf);
		if (x + l > g->w - 1)
			continue;
		grid_put(g, x, y, items[i].glyph, items[i].role);
		grid_text(g, x + 1, y, -1, ROLE_AXIS, buf);
		x += l + 3;
	}
}

void runs_draw(struct runs_view *rv, const struct model *m, const struct ui *u, struct grid *g,
	       int y0, int h)
{
	const struct runlog *s = m->log;
	if (m->compare)
		grid_text(g, 1, y0, -1, ROLE_TITLE,
			  u->runs_by_strategy
			      ? "Compare: median run of each recording's strategies (a: every run)"
			      : "Compare: every run of every recording, one scale (a: medians)");
	else
		grid_text(g, 1, y0, -1, ROLE_TITLE,
			  u->runs_by_strategy ? "Runs: median run of each strategy (a: every run)"
					      : "Runs: every finished run (a: one per strategy)");
	if (!s->nresults) {
		empty(g, y0);
		return;
	}
	const struct strategy_stats *st = m->stats;
	int ns = m->nstats;
	/* which runs get a block */
	size_t shown[RUNLOG_MAX_RUNS];
	size_t nshown = 0;
	if (u->runs_by_strategy) {
		for (int i = 0; i < ns; i++)
			if (st[i].median_run != SIZE_MAX)
				shown[nshown++] = st[i].median_run;
	} else {
		for (size_t i = 0; i < s->nresults; i++)
			if (s->results[i].finished && s->results[i].t_copy_ns)
				shown[nshown++] = i;
	}
	if (!nshown) {
		empty(g, y0);
		return;
	}
	int noisy = 0;
	for (int i = 0; i < ns; i++)
		noisy |= st[i].noisy;
	char note[96];
	int notes = 0;
	while (stats_note(st, ns, notes, note, sizeof(note)))
		notes++;
	/* a sweep's runs: its table (medians per value, no intervals: those
	 * resample, which is for the batch's end, not every tick) */
	struct sweep_table swt;
	const struct sweep_table *sw =
	    !m->compare && sweep_table_build(&swt, NULL, s->results, s->nresults, 0) ? &swt : NULL;
	int table_rows = m->compare ? compare_lines(m, NULL, 0)
			 : sw	    ? sweep_lines(sw, NULL, 0)
				    : 2 + ns + notes + noisy; /* two header lines */
	int chart_rows = h - 1 - table_rows - 2; /* title; time axis, legend */
	if (chart_rows < RUN_MIN_ROWS) {
		draw_table(m, g, y0 + 1, st, ns, sw);
		return;
	}
	/* the blocks share the rows; the runs that do not fit scroll, the
	 * latest shown first */
	size_t fit = (size_t)(chart_rows / RUN_MIN_ROWS), rows = nshown < fit ? nshown : fit;
	size_t back = nshown - rows, scroll = (size_t)(u->runs_scroll > 0 ? u->runs_scroll : 0);
	size_t skip = back - (scroll < back ? scroll : back);
	int per = chart_rows / (int)rows;
	if (per > RUN_MAX_ROWS)
		per = RUN_MAX_ROWS;
	int gap = per >= 8;				/* a blank row between blocks */
	int burst_row = per - gap >= 5;			/* the burst marks on a row of their own */
	int act_rows = (per - gap - burst_row + 1) / 2; /* the active strip: the signal */
	int io_rows = per - gap - burst_row - act_rows;
	int wr_rows =
	    io_rows >= 4 ? io_rows / 3 : 0; /* write: a strip under read's, room allowing */
	int rd_rows = io_rows - wr_rows;
	int pw = g->w - LABEL_W - RMARGIN; /* plot width, cells */
	if (pw < 1)
		pw = 1;
	/* every block's columns and the scales they share, from the plot
	 * model (as the SVG's Runs view): read and write each on their own
	 * scale, the same for every block (the blocks compare) — the read
	 * strip is the sawtooth, and a flush's write-back (150 MiB/s beside
	 * reads throttled to 32) would flatten it on a shared one */
	struct plot_runs *pr = &rv->plot;
	const char *disk_lim = runlog_common_limit(s->results, s->nresults);
	plot_runs_build(pr, m->series, m->interval, s->results, shown + skip, rows,
			(double)s->mem_limit / 1024.0, pw);
	uint64_t span = pr->span;
	double rd_max = pr->read_max, wr_max = wr_rows ? pr->write_max : 0, af_max = pr->af_max;
	char io_s[16], wr_s[16], af_s[16];
	fmt_num(io_s, sizeof(io_s), rd_max);
	fmt_num(wr_s, sizeof(wr_s), wr_max);
	fmt_mem_axis(af_s, sizeof(af_s), af_max, pr->af_unit); /* the SVG's unit too */

	int y = y0 + 1;
	for (size_t row = 0; row < rows; row++, y += per) {
		const struct run_result *r = &s->results[shown[skip + row]];
		double *v[PLOT_RUN_NROW];
		for (int k = 0; k < PLOT_RUN_NROW; k++)
			v[k] = plot_runs_row(pr, row, k);
		int io_y = y + burst_row, wr_y = io_y + rd_rows, af_y = io_y + io_rows;
		strip(g, pw, io_y, rd_rows, u->glyphs, v[PLOT_RUN_READ], ROLE_READ, rd_max, io_s,
		      "read");
		strip(g, pw, wr_y, wr_rows, u->glyphs, v[PLOT_RUN_WRITE], ROLE_WRITE, wr_max, wr_s,
		      "write");
		strip(g, pw, af_y, act_rows, u->glyphs, v[PLOT_RUN_AF], ROLE_ACTIVE, af_max, af_s,
		      "act");
		view_burst_bands(g, v[PLOT_RUN_BURST], burst_row ? y : -1, LABEL_W, pw, 1, io_y,
				 af_y + act_rows, NULL, 0);
		int fastest = 0;
		for (int i = 0; i < ns; i++)
			if (st[i].fastest && !strcmp(st[i].name, r->name))
				fastest = 1;
		block_label(g, y, per - gap, r, fastest, disk_lim);
	}
	y -= gap; /* the axis right under the last block */
	/* the shared axes: time since the copy started, the scales */
	char buf[48];
	grid_text(g, LABEL_W, y, -1, ROLE_AXIS, "0s");
	snprintf(buf, sizeof(buf), "%.1fs", (double)span / 1e9);
	grid_text(g, LABEL_W + pw - (int)strlen(buf), y, -1, ROLE_AXIS, buf);
	if (rows < nshown)
		grid_printf(g, 0, y, ROLE_DIM, "%zu of %zu runs (\xe2\x86\x91 \xe2\x86\x93)", rows,
			    nshown);
	legend_row(g, y + 1, io_s, wr_rows > 0 ? wr_s : NULL, af_s);
	/* the table at the bottom: the rows the blocks could not divide
	 * among themselves go between the legend and the table */
	int ty = y0 + h - table_rows;
	draw_table(m, g, ty > y + 2 ? ty : y + 2, st, ns, sw);
}
