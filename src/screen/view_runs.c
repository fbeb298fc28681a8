/* The Runs view: small multiples.  One compact chart per finished run (or
 * per strategy: its median run), all aligned at the start of the copy and
 * drawn on one time scale and one rate scale, so the eye compares shapes;
 * the statistics table underneath. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "burst.h"
#include "compare.h"
#include "rates.h"
#include "runlog.h"
#include "stats.h"
#include "strategy.h"
#include "util.h"
#include "views.h"

#define LABEL_W 25


static uint64_t run_span_ns(const struct run_result *r)
{
	return (uint64_t)(r->elapsed_s * 1e9);
}

/* Fills io[] (read+write MiB/s) and af[] (active_file KiB) for n dot
 * columns covering [t_copy, t_copy + span]; marks burst columns. */
static void run_columns(const struct model *m, const struct run_result *r, int run_index,
			uint64_t span, int n, double *io, double *af, uint8_t *burst)
{
	uint64_t end = r->t_copy_ns + run_span_ns(r);
	for (int i = 0; i < n; i++) {
		uint64_t t = r->t_copy_ns + (uint64_t)((double)span * (i + 1) / n);
		io[i] = af[i] = NAN;
		burst[i] = 0;
		if (t > end + (uint64_t)(m->interval * 1e9))
			continue; /* the sample that holds the end still counts */
		long b = series_find(m->series, t);
		if (b < 1)
			continue;
		const struct sample *sb = series_at(m->series, (size_t)b);
		const struct sample *sa = series_at(m->series, (size_t)b - 1);
		/* only the copy itself: not the verify pass that follows */
		if (sb->run != run_index || (sb->phase != PHASE_COPY && sb->phase != PHASE_FLUSH &&
					     sb->phase != PHASE_DONE))
			continue;
		struct rates rt;
		rates_compute(sa, sb, &rt);
		if (!isnan(rt.read_mbs) && !isnan(rt.write_mbs))
			io[i] = rt.read_mbs + rt.write_mbs;
		af[i] = (sb->have & SAMPLE_HAVE_CG) ? (double)sb->cg_active_file / 1024.0
						     : (double)sb->active_file;
		burst[i] = (uint8_t)burst_between(sa, sb);
	}
}

static void ensure(struct runs_view *rv, int n)
{
	if (n <= rv->cap)
		return;
	free(rv->buf);
	rv->cap = n;
	rv->buf = xmalloc((sizeof(double) * 2 + 1) * (size_t)n);
}

static void empty(struct grid *g, int y)
{
	grid_text(g, 2, y + 1, -1, ROLE_DIM, "No finished runs yet.");
	grid_text(g, 2, y + 2, -1, ROLE_DIM,
		  "Press r to pick strategies, or start lrutop with -s LIST (e.g. -s copybench).");
}

static void table(struct grid *g, int y, const struct strategy_stats *st, int ns)
{
	int wide = g->w >= 110;
	/* hyperfine's labels: the figures under "elapsed" and "MiB/s" are medians */
	grid_printf(g, 1, y++, ROLE_AXIS, wide ? "%-16s %4s %8s %17s %7s" : "%-16s %4s %8s %7s", "",
		    "", "elapsed", wide ? "" : "MiB/s", "MiB/s");
	grid_printf(g, 1, y++, ROLE_AXIS, wide ? "%-16s %4s %8s %17s %7s %6s %7s %7s %6s %8s %8s"
					       : "%-16s %4s %8s %7s %6s %7s %6s %8s",
		    "strategy", "runs", "median", wide ? "min - max" : "median", wide ? "median" : "ratio",
		    wide ? "ratio" : "vs base", wide ? "vs base" : "bursts", wide ? "majflt" : "peakAct",
		    "bursts", "peakAct", "refault");
	int noisy = 0;
	for (int i = 0; i < ns && y < g->h - 2; i++, y++) {
		const struct strategy_stats *s = &st[i];
		char vs[16], peak[16], mm[40], runs[16], c[6][24];
		stats_cells(s, vs, sizeof(vs), peak, sizeof(peak));
		if (s->ok)
			snprintf(mm, sizeof(mm), "%.2f - %.2fs", s->elapsed_min, s->elapsed_max);
		else
			snprintf(mm, sizeof(mm), "-");
		snprintf(runs, sizeof(runs), s->ok == s->runs ? "%d" : "%d/%d", s->ok, s->runs);
		stats_num(c[0], sizeof(c[0]), "%.2fs", s->elapsed_med);
		stats_num(c[1], sizeof(c[1]), "%.1f", s->mbs_med);
		stats_num(c[2], sizeof(c[2]), "%.2fx", s->ratio);
		stats_num(c[3], sizeof(c[3]), "%.0f", s->majflt_med);
		stats_num(c[4], sizeof(c[4]), "%.1f", s->bursts_med);
		stats_num(c[5], sizeof(c[5]), "%.0f", s->refault_med);
		enum role role = s->fastest ? ROLE_SELECT : ROLE_DEFAULT;
		if (wide)
			grid_printf(g, 1, y, role, "%-16s %4s %8s %17s %7s %6s %7s %7s %6s %8s %8s%s",
				    s->name, runs, c[0], mm, c[1], c[2], vs, c[3], c[4], peak, c[5],
				    s->noisy ? " noisy" : "");
		else
			grid_printf(g, 1, y, role, "%-16s %4s %8s %7s %6s %7s %6s %8s%s", s->name,
				    runs, c[0], c[1], c[2], vs, c[4], peak, s->noisy ? " noisy" : "");
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

static void draw_table(const struct model *m, struct grid *g, int y,
		       const struct strategy_stats *st, int ns)
{
	if (m->compare)
		compare_lines(m, g, y);
	else
		table(g, y, st, ns);
}

void runs_draw(struct runs_view *rv, const struct model *m, const struct ui *u, struct grid *g, int y0, int h)
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
	/* which runs get a chart row */
	size_t shown[SESSION_MAX_RUNS];
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
	int table_rows = m->compare ? compare_lines(m, NULL, 0)
				    : 2 + ns + notes + noisy; /* two header lines */
	int chart_rows = h - 1 - table_rows - 2; /* title, time axis, a blank */
	if (chart_rows < 1) {
		draw_table(m, g, y0 + 1, st, ns);
		return;
	}
	int per = chart_rows / (int)nshown;
	size_t skip = 0;
	if (per < 1) { /* more runs than rows: the latest ones */
		per = 1;
		skip = nshown - (size_t)chart_rows;
	}
	if (per > 6)
		per = 6;
	int pw = g->w - LABEL_W - 1;
	canvas_reset(&rv->canvas, u->glyphs, pw, per);
	int n = rv->canvas.dw;
	/* every row's columns, computed once: the scale needs them all
	 * before the first row is drawn */
	size_t rows = nshown - skip;
	ensure(rv, n * (int)rows);
	double *io_all = rv->buf, *af_all = rv->buf + (size_t)n * rows;
	uint8_t *burst_all = (uint8_t *)(rv->buf + 2 * (size_t)n * rows);

	/* one time scale and one rate scale for every row */
	uint64_t span = 0;
	double io_max = 1, af_max = 1;
	for (size_t k = skip; k < nshown; k++) {
		const struct run_result *r = &s->results[shown[k]];
		uint64_t sp = run_span_ns(r);
		span = sp > span ? sp : span;
		double lim = (double)s->mem_limit / 1024.0;
		af_max = fmax(af_max, fmax(lim, (double)r->peak_active_file_kb));
	}
	if (!span)
		span = 1;
	for (size_t k = skip; k < nshown; k++) {
		size_t row = k - skip;
		double *io = io_all + row * (size_t)n;
		run_columns(m, &s->results[shown[k]], (int)shown[k], span, n, io,
			    af_all + row * (size_t)n, burst_all + row * (size_t)n);
		for (int i = 0; i < n; i++)
			if (!isnan(io[i]))
				io_max = fmax(io_max, io[i]);
	}
	io_max = nice_ceil(io_max);

	int y = y0 + 1;
	char buf[96];
	for (size_t k = skip; k < nshown; k++, y += per) {
		const struct run_result *r = &s->results[shown[k]];
		size_t row = k - skip;
		const double *io = io_all + row * (size_t)n, *af = af_all + row * (size_t)n;
		const uint8_t *burst = burst_all + row * (size_t)n;
		canvas_reset(&rv->canvas, u->glyphs, pw, per);
		rv->canvas.top_wins = 1; /* the active(file) line over the I/O area */
		int band = rv->canvas.dh;
		canvas_plot(&rv->canvas, io, n, io_max, ROLE_WRITE, CHART_AREA, band - 1, -1, band);
		canvas_plot(&rv->canvas, af, n, af_max, ROLE_ACTIVE, CHART_LINE, band - 1, -1, band);
		canvas_render(&rv->canvas, g, LABEL_W, y);
		for (int cx = 0; cx < pw; cx++)
			for (int d = 0; d < rv->canvas.xdots; d++)
				if (burst[cx * rv->canvas.xdots + d]) {
					grid_put(g, LABEL_W + cx, y, 0x25bc, ROLE_BURST);
					break;
				}
		int fastest = 0;
		for (int i = 0; i < ns; i++)
			if (st[i].fastest && !strcmp(st[i].name, r->name))
				fastest = 1;
		if (r->ok)
			snprintf(buf, sizeof(buf), "%-15.15s#%-2d%5.1fs", r->name, r->repeat,
				 r->elapsed_s);
		else
			snprintf(buf, sizeof(buf), "%-15.15s#%-2d %s", r->name, r->repeat,
				 r->cancelled ? "cncl" : "FAIL");
		grid_text(g, 0, y, LABEL_W - 1, fastest ? ROLE_SELECT : r->ok ? ROLE_TITLE : ROLE_WARN,
			  buf);
		if (per >= 2) {
			snprintf(buf, sizeof(buf), "  %d burst%s, %.0f MiB/s", r->bursts,
				 r->bursts == 1 ? "" : "s", r->mbs);
			grid_text(g, 0, y + 1, LABEL_W - 1, ROLE_DIM, buf);
		}
		if (per >= 3) {
			char rcv[16], rab[16];
			snprintf(rcv, sizeof(rcv), isnan(r->read_cv) ? "-" : "%.2f", r->read_cv);
			snprintf(rab, sizeof(rab), isnan(r->read_at_burst) ? "-" : "%.2f",
				 r->read_at_burst);
			snprintf(buf, sizeof(buf), "  rdCV %s rd@b %s", rcv, rab);
			grid_text(g, 0, y + 2, LABEL_W - 1, ROLE_DIM, buf);
		}
		grid_put(g, LABEL_W - 1, y, 0x2502, ROLE_AXIS);
		for (int j = 1; j < per; j++)
			grid_put(g, LABEL_W - 1, y + j, 0x2502, ROLE_AXIS);
	}
	/* the shared axes: time since the copy started, the scales */
	char io_s[16], af_s[16];
	fmt_num(io_s, sizeof(io_s), io_max);
	fmt_size(af_s, sizeof(af_s), (uint64_t)(af_max * 1024.0));
	snprintf(buf, sizeof(buf), "0s");
	grid_text(g, LABEL_W, y, -1, ROLE_AXIS, buf);
	snprintf(buf, sizeof(buf), "%.1fs", (double)span / 1e9);
	grid_text(g, g->w - 1 - (int)strlen(buf), y, -1, ROLE_AXIS, buf);
	int lx = LABEL_W + 6;
	grid_put(g, lx, y, 0x25a0, ROLE_WRITE);
	snprintf(buf, sizeof(buf), " read+write 0-%s MiB/s   ", io_s);
	lx += 1 + grid_text(g, lx + 1, y, -1, ROLE_AXIS, buf);
	grid_put(g, lx, y, 0x25a0, ROLE_ACTIVE);
	snprintf(buf, sizeof(buf), " active(file) 0-%s   ", af_s);
	lx += 1 + grid_text(g, lx + 1, y, -1, ROLE_AXIS, buf);
	grid_put(g, lx, y, 0x25bc, ROLE_BURST);
	grid_text(g, lx + 1, y, -1, ROLE_AXIS, " burst");
	if (skip)
		grid_printf(g, 0, y, ROLE_DIM, "+%zu earlier (a)", skip);
	draw_table(m, g, y + 2, st, ns);
}
