/* The SVG export's Overview (svg.h, SVG_OVERVIEW): disk MiB/s, the memory
 * stack and reclaim on one time axis, the phase lines and run labels over
 * them.  What is shown and on which scales is the plot model's
 * (plot_build_samples, a column a sample, as on screen): this file only
 * places it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/phase.h"
#include "model/plot.h"
#include "model/units.h"
#include "output/svg_draw.h"
#include "base/text.h"
#include "base/util.h"

/* A phase's label over its line (phase.h's table): copy, flush and verify
 * are labelled, shortened where labels crowd. */
static const char *phase_word(int phase, int abbrev)
{
	const char *a = phase_abbrev(phase);
	return !a ? NULL : abbrev ? a : phase_name(phase);
}

#define MAX_LABELS 512

/* Phase lines through the charts (top..bottom) and the labels over them
 * in two lanes: the run labels (at each run's start) and the phases. */
static void events(struct svg_ctx *c, const struct plot *pl, double lane0, double lane1, double top,
		   double bottom)
{
	const struct svg_input *in = c->in;
	static const size_t cap = MAX_LABELS;
	struct svg_label *runs = xcalloc(cap, sizeof(*runs)),
			 *phases = xcalloc(cap, sizeof(*phases));
	char(*rtext)[2][48] = xcalloc(cap, sizeof(*rtext));
	size_t nr = 0, np = 0;
	double fs = 24 * c->u;
	if (c->reduced) /* a path of each kind, a px once */
		for (int start = 1; start >= 0; start--) {
			int n = 0;
			double px = -1;
			for (int i = 0; i < pl->nmarks; i++) {
				const struct plot_mark *e = &pl->marks[i];
				if (e->t_ns < c->t0 || e->t_ns > c->t1 ||
				    (e->phase == PHASE_PREPARE) != start)
					continue;
				n++;
			}
			if (!n)
				continue;
			svg_put(
			    &c->w,
			    "<path class=\"phase\" data-n=\"%d\" fill=\"none\" stroke=\"#%06x\" "
			    "stroke-width=\"%.1f\"%s d=\"",
			    n, (unsigned)c->th->marker, (start ? 2.0 : 1.4) * c->u,
			    start ? "" : " stroke-dasharray=\"6 5\"");
			for (int i = 0; i < pl->nmarks; i++) {
				const struct plot_mark *e = &pl->marks[i];
				if (e->t_ns < c->t0 || e->t_ns > c->t1 ||
				    (e->phase == PHASE_PREPARE) != start)
					continue;
				double x = svg_x_of(c, e->t_ns);
				if (floor(x) == px)
					continue;
				px = floor(x);
				svg_put(&c->w, "M%.1f %.1fV%.1f", x, top, bottom);
			}
			svg_put(&c->w, "\"/>\n");
		}
	for (int i = 0; i < pl->nmarks; i++) {
		const struct plot_mark *e = &pl->marks[i];
		if (e->t_ns < c->t0 || e->t_ns > c->t1)
			continue;
		double x = svg_x_of(c, e->t_ns);
		int start = e->phase == PHASE_PREPARE;
		if (!c->reduced)
			svg_line(c, x, top, x, bottom, c->th->marker, (start ? 2.0 : 1.4) * c->u,
				 start ? NULL : "6 5");
		if (start && e->run >= 0 && (size_t)e->run < in->nruns && nr < cap) {
			svg_run_label(in, (size_t)e->run, rtext[nr][0], sizeof(rtext[nr][0]), 0);
			const char *name = in->runs[e->run].name;
			if (strcmp(rtext[nr][0], name))
				snprintf(rtext[nr][1], sizeof(rtext[nr][1]), "%s", name);
			else if (strlen(name) > 10) {
				snprintf(rtext[nr][1], sizeof(rtext[nr][1]), "%s", name);
				svg_utf8_cut(rtext[nr][1], sizeof(rtext[nr][1]), 8);
			}
			runs[nr].x = x + 4 * c->u;
			runs[nr].text = rtext[nr][0];
			runs[nr].abbrev = rtext[nr][1][0] ? rtext[nr][1] : NULL;
			nr++;
		} else if (phase_word(e->phase, 0) && np < cap) {
			phases[np].x = x + 4 * c->u;
			phases[np].text = phase_word(e->phase, 0);
			phases[np].abbrev = phase_word(e->phase, 1);
			np++;
		}
	}
	svg_place_labels(runs, nr, c->L, c->R, fs);
	/* where phases crowd, the copy is what the audience looks for: its
	 * labels are placed first, then flush, then verify (stable) */
	struct svg_label *order = xcalloc(np ? np : 1, sizeof(*order));
	size_t no = 0;
	static const int prio[] = {PHASE_COPY, PHASE_FLUSH, PHASE_VERIFY};
	for (size_t p = 0; p < ARRAY_LEN(prio); p++)
		for (size_t i = 0; i < np; i++)
			if (phases[i].text == phase_word(prio[p], 0))
				order[no++] = phases[i];
	svg_place_labels(order, no, c->L, c->R, fs);
	memcpy(phases, order, no * sizeof(*order));
	np = no;
	free(order);
	for (size_t i = 0; i < nr; i++)
		if (runs[i].shown)
			svg_text(c, runs[i].left, lane0, fs, "start", "bold", c->th->text, SVG_MONO,
				 runs[i].shown == 1 ? runs[i].text : runs[i].abbrev);
	for (size_t i = 0; i < np; i++)
		if (phases[i].shown)
			svg_text(c, phases[i].left, lane1, fs, "start", "normal", c->th->marker,
				 SVG_MONO,
				 phases[i].shown == 1 ? phases[i].text : phases[i].abbrev);
	free(runs);
	free(phases);
	free(rtext);
}

/* Decades on a log axis: 1, 10, 100, 1k, 10k, ... */
static void fmt_decade(char *buf, size_t len, int e)
{
	static const char *suffix[] = {"", "k", "M", "G", "T"};
	if (e < 0)
		snprintf(buf, len, "%g", pow(10, e));
	else
		snprintf(buf, len, "%.0f%s", pow(10, e % 3), suffix[e / 3 < 4 ? e / 3 : 4]);
}

/* a + (b - a) * t per channel: a paler shade of a towards the background b */
static uint32_t svg_mix(uint32_t a, uint32_t b, double t)
{
	uint32_t out = 0;
	for (int sh = 0; sh <= 16; sh += 8) {
		double x = (double)((a >> sh) & 0xff), y = (double)((b >> sh) & 0xff);
		out |= (uint32_t)lround(x + (y - x) * t) << sh;
	}
	return out;
}

int svg_overview(struct svg_ctx *c, const struct svg_opts *o)
{
	const struct series *ser = c->in->ser;
	const struct svg_theme *th = c->th;
	double u = c->u;
	size_t n = c->i1 - c->i0 + 1;
	/* what is shown and on which scales: the plot model, a column a
	 * sample (plot.h), as on screen; read and write on one axis here */
	struct plot pl;
	plot_init(&pl);
	struct plot_src src = {ser,
			       c->in->events,
			       c->in->nevents,
			       c->in->runs,
			       c->in->nruns,
			       runlog_common_limit(c->in->runs, c->in->nruns) != NULL,
			       0,
			       1};
	plot_build_samples(&pl, &src, c->i0, c->i1);
	double *buf = xmalloc(sizeof(double) * n * 8);
	double *xs = buf, *af = buf + n, *inf = buf + 2 * n, *fr = buf + 3 * n, *y1 = buf + 4 * n,
	       *y2 = buf + 5 * n, *y3 = buf + 6 * n, *y0 = buf + 7 * n;
	const double *rd = plot_col(&pl, PLOT_READ), *wr = plot_col(&pl, PLOT_WRITE),
		     *de = plot_col(&pl, PLOT_DEACT_SCOPE), *sc = plot_col(&pl, PLOT_SCAN),
		     *burst = plot_col(&pl, PLOT_BURST);
	const double *gen[SAMPLE_GENS]; /* MGLRU's generations, KiB, youngest first */
	for (int j = 0; j < SAMPLE_GENS; j++)
		gen[j] = plot_col(&pl, PLOT_G0 + j);
	int cg = pl.cg, gens = pl.gens;
	/* the memory axis' top: every run's limit (or MemTotal), or cut below
	 * it where the lists would be a sliver of it (plot.h mem_cut) */
	double mem_scale_kb = pl.mem_top;
	int mem_cut = pl.mem_cut;
	for (size_t k = 0; k < n; k++) {
		xs[k] = svg_x_of(c, series_t(ser, c->i0 + k));
		af[k] = plot_col(&pl, PLOT_AF)[k];
		inf[k] = plot_col(&pl, PLOT_IF)[k];
		fr[k] = plot_col(&pl, PLOT_FREE)[k];
	}
	double rmax = pl.rate_hi, rmin = pl.rate_lo;
	/* the disk's scale is the model's one axis (plot_src.one_disk_axis):
	 * the larger of the two where the screen splits them */
	double dscale = pl.read_max, dstep = nice_ceil(dscale / 4);

	/* geometry: title, two label lanes, three charts, the time axis */
	double top = 128 * u, lane_h = 34 * u, head = 46 * u, strip = 26 * u;
	double bottom_axis = 96 * u;
	double avail = c->H - top - 2 * lane_h - 3 * head - strip - bottom_axis;
	if (avail < 90 * u)
		avail = 90 * u;
	double dh = avail * 0.30, mh = avail * 0.36, rh = avail - dh - mh;
	double lane0 = top + lane_h * 0.75, lane1 = top + lane_h * 1.75;
	double y_disk = top + 2 * lane_h + head;
	double y_mem = y_disk + dh + head + strip;
	double y_rec = y_mem + mh + head;
	double bottom = y_rec + rh;
	char buf2[160];

	/* --- disk --- */
	snprintf(buf2, sizeof(buf2), "Disk %s",
		 c->in->disk && *c->in->disk ? c->in->disk : "(none watched)");
	double tx = svg_chart_title(c, y_disk - 14 * u, buf2);
	/* while runs are shown the run's own read and write (plot.h) in
	 * front, the device's total behind in a paler line of the same hue */
	uint32_t dev_rd = svg_mix(th->read, th->bg, 0.6), dev_wr = svg_mix(th->write, th->bg, 0.6);
	struct svg_legend_item dl[4] = {{th->read, pl.own_read ? "run read" : "read", 1},
					{th->write, pl.own_write ? "run write" : "write", 1}};
	int ndl = 2;
	if (pl.own_read)
		dl[ndl++] = (struct svg_legend_item){dev_rd, "disk read", 1};
	if (pl.own_write)
		dl[ndl++] = (struct svg_legend_item){dev_wr, "disk write", 1};
	svg_legend(c, tx, c->R, y_disk - 14 * u, dl, ndl);
	svg_y_ticks(c, y_disk, dh, dscale, dstep);
	svg_vtext(c, 36 * u, y_disk + dh / 2, 26 * u, "MiB/s");
	svg_clip_begin(c, c->L, y_disk - 3 * u, c->R - c->L, dh + 3 * u);
	for (int dev = 1; dev >= 0; dev--) {
		const double *r = dev ? plot_col(&pl, PLOT_READ_DEV) : rd,
			     *w = dev ? plot_col(&pl, PLOT_WRITE_DEV) : wr;
		int show_r = !dev || pl.own_read, show_w = !dev || pl.own_write;
		for (size_t k = 0; k < n; k++) {
			y1[k] = show_r ? svg_map_lin(r[k], y_disk, dh, dscale) : NAN;
			y2[k] = show_w ? svg_map_lin(w[k], y_disk, dh, dscale) : NAN;
		}
		if (show_w)
			svg_polyline(c, xs, y2, n, dev ? dev_wr : th->write, (dev ? 2.5 : 4) * u);
		if (show_r)
			svg_polyline(c, xs, y1, n, dev ? dev_rd : th->read, (dev ? 2.5 : 4) * u);
	}
	svg_put(&c->w, "</g>\n");
	svg_frame(c, y_disk, dh);
	/* clipped columns (the model's, above this one axis): a small mark
	 * above the frame in the series' colour */
	svg_clip_marks(c, xs, plot_col(&pl, PLOT_CLIP_READ), n, y_disk - 4 * u, th->read);
	svg_clip_marks(c, xs, plot_col(&pl, PLOT_CLIP_WRITE), n, y_disk - 4 * u, th->write);

	/* --- memory: a stack, active(file) at the bottom --- */
	char lim[32], cutat[32], freenow[32], freelab[96];
	fmt_mib(lim, sizeof(lim), (uint64_t)(pl.mem_peak * 1024.0));
	fmt_mib(cutat, sizeof(cutat), (uint64_t)(mem_scale_kb * 1024.0));
	double fnow = plot_last(&pl, PLOT_FREE);
	fmt_mib(freenow, sizeof(freenow), isnan(fnow) ? 0 : (uint64_t)(fnow * 1024.0));
	if (cg)
		snprintf(buf2, sizeof(buf2), "Memory of the run's cgroup%s%s%s",
			 mem_cut ? ", axis cut at " : "", mem_cut ? cutat : "",
			 gens ? ", MGLRU gens" : "");
	else
		snprintf(buf2, sizeof(buf2), "Memory, whole system (%s%s%s)%s", lim,
			 mem_cut ? ", axis cut at " : "", mem_cut ? cutat : "",
			 gens ? ", MGLRU gens" : "");
	/* cut: free (headroom) runs off the top; its size is a number */
	snprintf(freelab, sizeof(freelab), "%s%s%s", cg ? "free (limit - usage)" : "free",
		 mem_cut ? " " : "", mem_cut ? freenow : "");
	tx = svg_chart_title(c, y_mem - strip - 14 * u, buf2);
	struct svg_legend_item ml[] = {
	    {th->active,
	     c->in->mglru ? "active(file) = the 2 youngest MGLRU generations" : "active(file)", 0},
	    {th->inactive, "inactive(file)", 0},
	    {th->free_, freelab, 0},
	    {th->burst, "demotion burst", 2}};
	/* MGLRU's generations: youngest (the strongest colour) at the bottom,
	 * each older one paler; the lists' legend otherwise */
	uint32_t gcol[SAMPLE_GENS] = {th->active, svg_mix(th->active, th->bg, 0.45), th->inactive,
				      svg_mix(th->inactive, th->bg, 0.5)};
	struct svg_legend_item gl[] = {{gcol[0], "gen0 young", 0}, {gcol[1], "gen1", 0},
				       {gcol[2], "gen2", 0},	   {gcol[3], "gen3 old", 0},
				       {th->free_, freelab, 0},	   {th->burst, "aging", 2}};
	if (gens)
		svg_legend(c, tx, c->R, y_mem - strip - 14 * u, gl, 6);
	else
		svg_legend(c, tx, c->R, y_mem - strip - 14 * u, ml, 4);
	double mscale, mstep;
	/* the axis ends at the limit (or MemTotal): the stack fills it; in
	 * quarters where those are whole (64 MiB: 16, 32, 48); in the model's
	 * unit (plot.h mem_unit), the TUI's */
	double div = pl.mem_unit->kib;
	mscale = mem_scale_kb > 0 ? mem_scale_kb / div : 1;
	mstep = fmod(mscale, 4) == 0 ? mscale / 4 : nice_ceil(mscale / 5);
	for (size_t k = 0; k < n; k++) {
		double a = af[k] / div, b = a + inf[k] / div, f = b + fr[k] / div;
		y0[k] = isnan(a) ? NAN : y_mem + mh;
		y1[k] = svg_map_lin(a, y_mem, mh, mscale);
		y2[k] = svg_map_lin(b, y_mem, mh, mscale);
		y3[k] = svg_map_lin(f, y_mem, mh, mscale);
		if (y3[k] < y_mem) /* cut: free ends at the top, not far above */
			y3[k] = y_mem;
	}
	svg_clip_begin(c, c->L, y_mem, c->R - c->L, mh);
	svg_band(c, xs, y2, y3, n, th->free_, 1.0);
	if (gens) { /* each generation from its stack's bottom: y1 and y2 reused */
		for (int j = SAMPLE_GENS - 1; j >= 0; j--) {
			for (size_t k = 0; k < n; k++) {
				double sum = 0;
				for (int i = 0; i <= j; i++)
					sum += gen[i][k] / div;
				y1[k] = isnan(sum) ? NAN : y_mem + mh;
				y2[k] = svg_map_lin(sum, y_mem, mh, mscale);
			}
			svg_band(c, xs, y1, y2, n, gcol[j], 1.0);
		}
	} else {
		svg_band(c, xs, y1, y2, n, th->inactive, 1.0);
		svg_band(c, xs, y0, y1, n, th->active, 1.0);
	}
	svg_put(&c->w, "</g>\n");
	svg_y_ticks(c, y_mem, mh, mscale, mstep);
	svg_vtext(c, 36 * u, y_mem + mh / 2, 26 * u, pl.mem_unit->name);
	svg_frame(c, y_mem, mh);
	if (mem_cut) /* a break in the axis: two slants across its top */
		for (int j = 0; j < 2; j++)
			svg_line(c, c->L - 12 * u, y_mem + (14 + 10 * j) * u, c->L + 12 * u,
				 y_mem + (6 + 10 * j) * u, th->text, 2.5 * u, NULL);
	if (!c->reduced) {
		for (size_t k = 0; k < n; k++)
			if (burst[k] > 0)
				svg_triangle(c, xs[k], y_mem - 3 * u, 20 * u, th->burst);
	} else { /* every burst counted: the columns' counts, a px a ▼ */
		const struct svg_burst *b = c->in->bursts;
		for (size_t k = 0; k < c->in->nbursts;) {
			if (b[k].t_ns < c->t0 || b[k].t_ns > c->t1) {
				k++;
				continue;
			}
			double x = svg_x_of(c, b[k].t_ns);
			unsigned cnt = 0;
			size_t k2 = k;
			for (; k2 < c->in->nbursts && b[k2].t_ns <= c->t1 &&
			       floor(svg_x_of(c, b[k2].t_ns)) == floor(x);
			     k2++)
				cnt += b[k2].n;
			svg_triangle_n(c, x, y_mem - 3 * u, 20 * u, th->burst, cnt);
			k = k2;
		}
	}

	/* --- reclaim: log scale, so deactivate is not lost beside scan --- */
	int ehi = rmax > 0 ? (int)ceil(log10(rmax * 1.0001)) : 3;
	int elo = rmin < INFINITY ? (int)floor(log10(rmin)) : 0;
	if (elo < 0)
		elo = 0;
	if (ehi < elo + 2)
		ehi = elo + 2;
	tx = svg_chart_title(c, y_rec - 14 * u, "Reclaim (log scale)");
	struct svg_legend_item rl[] = {{th->deact, "deactivate (active \xe2\x86\x92 inactive)", 1},
				       {th->scan, "scanned", 1}};
	svg_legend(c, tx, c->R, y_rec - 14 * u, rl, 2);
	double fs = 24 * u;
	for (int e = elo; e <= ehi; e++) {
		double y = y_rec + rh - (double)(e - elo) / (ehi - elo) * rh;
		char d[24];
		fmt_decade(d, sizeof(d), e);
		if (e == elo && e > 0) { /* 0 and anything below sit on the floor */
			memmove(d + 3, d, strlen(d) + 1);
			memcpy(d, "\xe2\x89\xa4", 3); /* ≤ */
		}
		if (e > elo)
			svg_line(c, c->L, y, c->R, y, th->grid, 1.2 * u, NULL);
		svg_text(c, c->L - 10 * u, y + fs * 0.35, fs, "end", "normal", th->text, SVG_SANS,
			 d);
	}
	svg_vtext(c, 36 * u, y_rec + rh / 2, 26 * u, "pages/s");
	for (size_t k = 0; k < n; k++)
		for (int j = 0; j < 2; j++) {
			double v = j ? sc[k] : de[k];
			double e = isnan(v) ? NAN : v >= pow(10, elo) ? log10(v) : elo;
			(j ? y2 : y1)[k] =
			    isnan(e) ? NAN : y_rec + rh - (e - elo) / (ehi - elo) * rh;
		}
	svg_clip_begin(c, c->L, y_rec - 3 * u, c->R - c->L, rh + 3 * u);
	svg_polyline(c, xs, y2, n, th->scan, 3.5 * u);
	svg_polyline(c, xs, y1, n, th->deact, 4.5 * u);
	svg_put(&c->w, "</g>\n");
	svg_frame(c, y_rec, rh);

	events(c, &pl, lane0, lane1, y_disk - head + 8 * u, bottom);
	svg_time_axis(c, bottom, (double)(c->t1 - c->t0) / 1e9, bottom, "time (s)");
	(void)o;
	free(buf);
	plot_done(&pl);
	return 0;
}
