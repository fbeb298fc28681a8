/* The SVG export's Runs view (svg.h, SVG_RUNS): a row per run's copy on
 * one time and rate scale.  The blocks and their shared scales are the
 * plot model's (plot_runs_build, as the TUI's Runs view), a column a
 * sample of the longest run: this only places them.  The rate drawn is
 * the run's read (its io cgroup's bytes where the samples have them, else
 * the disk's): the 2008 thread's iostat figure.  Writes are left out: a
 * flush's write-back would stand in for the sawtooth (rw_cp's is a comb
 * of 150 MiB/s spikes under a 32 MiB/s read). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/plot.h"
#include "output/svg_draw.h"
#include "base/util.h"

/* The rows the Runs view has room for at height H (px-at-1920 u). */
static size_t runs_fit(double H, double u)
{
	double top = 185 * u, bottom_axis = 100 * u, gap = 22 * u;
	double avail = H - top - bottom_axis;
	return (size_t)((avail + gap) / (70 * u + gap));
}

size_t svg_runs_rows(const struct svg_opts *o)
{
	double W = o->width ? o->width : 1920, H = o->height ? o->height : 1080;
	return runs_fit(H, fmin(W / 1920.0, H / 1080.0));
}

int svg_runs_view(struct svg_ctx *c, const struct svg_opts *o, char *err, size_t errlen)
{
	const struct svg_input *in = c->in;
	const struct series *ser = in->ser;
	const struct svg_theme *th = c->th;
	double u = c->u;
	size_t *rows = xcalloc(in->nruns ? in->nruns : 1, sizeof(*rows));
	size_t nrows = 0;
	for (size_t i = 0; i < in->nruns; i++)
		if (svg_run_shown(in, o, i))
			rows[nrows++] = i;
	if (!nrows) {
		free(rows);
		if (o->run >= 0)
			return errf(err, errlen, "run %d has no finished copy to draw", o->run + 1);
		return errf(err, errlen, "no finished run to draw");
	}
	double top = 185 * u, bottom_axis = 100 * u, gap = 22 * u, label_w = 520 * u;
	double avail = c->H - top - bottom_axis;
	size_t fit = runs_fit(c->H, u);
	size_t skip = nrows > fit && fit > 0 ? nrows - fit : 0;
	size_t shown = nrows - skip;
	double rh = (avail - gap * (double)(shown - 1)) / (double)shown;
	c->L = label_w + 40 * u;
	c->R = c->W - 130 * u;
	struct plot_runs pr;
	plot_runs_init(&pr);
	plot_runs_build(&pr, ser, plot_series_interval(ser), in->runs, rows + skip, shown,
			(double)in->mem_limit / 1024.0, 0);
	double span = (double)pr.span / 1e9;
	/* the active axis is the model's (plot.h af_max: the limit, or the
	 * largest list), in its unit, as the TUI's */
	const struct mem_unit *au = pr.af_unit;
	double io_scale = pr.read_max, af_scale = pr.af_max / au->kib;
	char af_name[48];
	snprintf(af_name, sizeof(af_name), "active(file) %s (right axis)", au->name);

	struct svg_legend_item lg[] = {{th->io, "read MiB/s, the run's own (left axis)", 0},
				       {th->active, af_name, 1},
				       {th->burst, "demotion burst", 2}};
	svg_legend(c, c->L, c->R, top - 24 * u, lg, 3);
	if (skip) {
		char more[64];
		snprintf(more, sizeof(more), "+%zu earlier runs not shown", skip);
		svg_text(c, 40 * u, top - 22 * u, 24 * u, "start", "normal", th->dim, SVG_SANS,
			 more);
	}
	double fs = 24 * u;
	/* the label column ends where the row's rate labels begin */
	double tfs = fmin(fs, rh * 0.4);
	char t1[32], t2[48], io_top[48];
	svg_fmt_tick(t1, sizeof(t1), io_scale);
	snprintf(io_top, sizeof(io_top), "%s MiB/s", t1);
	double col_w = c->L - 8 * u - svg_sans_width(io_top, tfs) - 16 * u - 40 * u;
	size_t cap = (size_t)pr.n;
	double *xs = xmalloc(sizeof(double) * cap * 4), *yio = xs + cap, *ybase = xs + 2 * cap,
	       *yaf = xs + 3 * cap;
	for (size_t k = 0; k < shown; k++) {
		size_t ri = rows[skip + k];
		const struct run_result *r = &in->runs[ri];
		double y = top + (double)k * (rh + gap);
		/* the label column: name, then its figures */
		char name[64], fig[96];
		double lfs = fmin(28 * u, rh * 0.45);
		svg_run_label(in, ri, name, sizeof(name),
			      (size_t)(col_w / (lfs * SVG_SANS_EM * 1.1))); /* bold is wider */
		int two = rh >= 2.4 * lfs;
		svg_text(c, 40 * u, y + (two ? rh / 2 - lfs * 0.15 : rh / 2 + lfs * 0.35), lfs,
			 "start", "bold", th->text, SVG_SANS, name);
		if (two) {
			if (r->ok)
				snprintf(fig, sizeof(fig),
					 "%.2f s \xc2\xb7 %.0f MiB/s \xc2\xb7 %d \xe2\x96\xbc",
					 r->elapsed_s, r->mbs, r->bursts);
			else
				snprintf(fig, sizeof(fig), "%s",
					 r->cancelled ? "cancelled" : "FAILED");
			double ffs = fmin(24 * u, lfs), fw = svg_sans_width(fig, ffs);
			if (fw > col_w) { /* smaller, down to 18 px at 1920, then cut */
				double floor_fs = fmin(18 * u, ffs);
				ffs *= col_w / fw;
				if (ffs < floor_fs) {
					ffs = floor_fs;
					svg_utf8_cut(fig, sizeof(fig),
						     (size_t)(col_w / (ffs * SVG_SANS_EM)));
				}
			}
			svg_text(c, 40 * u, y + rh / 2 + lfs * 1.1, ffs, "start", "normal", th->dim,
				 SVG_SANS, fig);
		}
		/* the row's axes: the shared scales, with their units */
		svg_text(c, c->L - 8 * u, y + tfs * 0.8, tfs, "end", "normal", th->text, SVG_SANS,
			 io_top);
		svg_text(c, c->L - 8 * u, y + rh, tfs, "end", "normal", th->text, SVG_SANS, "0");
		svg_fmt_tick(t1, sizeof(t1), af_scale);
		snprintf(t2, sizeof(t2), "%s %s", t1, au->name);
		svg_text(c, c->R + 8 * u, y + tfs * 0.8, tfs, "start", "normal", th->active,
			 SVG_SANS, t2);
		svg_text(c, c->R + 8 * u, y + rh, tfs, "start", "normal", th->active, SVG_SANS,
			 "0");
		svg_line(c, c->L, y, c->R, y, th->grid, 1.2 * u, NULL);

		/* a column's values are its last sample's: a point at its end */
		const double *rd = plot_runs_row(&pr, k, PLOT_RUN_READ),
			     *af = plot_runs_row(&pr, k, PLOT_RUN_AF),
			     *burst = plot_runs_row(&pr, k, PLOT_RUN_BURST);
		size_t m = 0;
		for (int j = 0; j < pr.n; j++) {
			if (isnan(rd[j]) && isnan(af[j]))
				continue;
			xs[m] = c->L + (double)(j + 1) / pr.n * (c->R - c->L);
			yio[m] = svg_map_lin(rd[j], y, rh, io_scale);
			ybase[m] = isnan(rd[j]) ? NAN : y + rh;
			yaf[m] = svg_map_lin(af[j] / au->kib, y, rh, af_scale);
			m++;
		}
		svg_clip_begin(c, c->L, y - 2 * u, c->R - c->L, rh + 2 * u);
		svg_band(c, xs, ybase, yio, m, th->io, 0.55);
		svg_polyline(c, xs, yaf, m, th->active, 4.5 * u);
		svg_put(&c->w, "</g>\n");
		for (int j = 0; j < pr.n; j++)
			if (burst[j] > 0)
				svg_triangle(c, c->L + (double)(j + 1) / pr.n * (c->R - c->L),
					     y + 16 * u, 16 * u, th->burst);
		svg_frame(c, y, rh);
		svg_line(c, c->R, y, c->R, y + rh, th->text, 1.5 * u, NULL);
	}
	svg_time_axis(c, c->H - bottom_axis + 4 * u, span, top, "time since the copy started (s)");
	free(xs);
	free(rows);
	plot_runs_done(&pr);
	return 0;
}
