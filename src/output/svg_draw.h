/*
 * svg_draw — what the SVG export's views draw with (svg.h's picture seen
 * from inside): the checked writer, escaping, text measuring and cutting,
 * the elements (text, lines, ▼, and a series' line or band as one path
 * thinned to the picture's grid), the axes and legends, and the runs'
 * labels.  Shared by svg.c (the page
 * and its header), svg_overview.c and svg_runs.c; not for other modules.
 *
 * Invariants: every string reaches the file through svg_put_esc; the
 * first failed write is kept in svg_out.err and later writes are skipped;
 * geometry is in px, text sizes in px scaled by svg_ctx.u (1 at 1920 px
 * wide).  Nothing here decides a scale: the plot model does (plot.h).
 * A series is one <path> whatever its length, and a reduced picture's
 * path has at most two points a px: an export's size is bounded by its
 * width, not by the signal (a dense one made a path a px and 1.5 MB).
 */
#ifndef LRUTOP_SVG_DRAW_H
#define LRUTOP_SVG_DRAW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "output/svg.h"

#define SVG_SANS    "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
#define SVG_MONO    "DejaVu Sans Mono, Liberation Mono, Courier New, monospace"
#define SVG_MONO_EM 0.602 /* advance of DejaVu Sans Mono (and Liberation Mono: 0.600) */
#define SVG_SANS_EM 0.62  /* a generous average for sans text (legend layout) */

/* ---- checked output ------------------------------------------------------ */

struct svg_out {
	FILE *f;
	int err; /* errno of the first failed write, 0 */
};

__attribute__((format(printf, 2, 3))) void svg_put(struct svg_out *w, const char *fmt, ...);
/* Text content or attribute value: the five XML specials escaped, control
 * characters (not allowed in XML 1.0) and invalid UTF-8 bytes as '?'. */
void svg_put_esc(struct svg_out *w, const char *s);

/* Cuts s (UTF-8) after at most max characters, ending it with "…" when
 * it was longer; never inside a character. */
void svg_utf8_cut(char *s, size_t size, size_t max);
/* Width of s in sans text of size font_px (an estimate: SVG_SANS_EM). */
double svg_sans_width(const char *s, double font_px);

/* ---- the picture being drawn --------------------------------------------- */

struct svg_ctx {
	struct svg_out w;
	const struct svg_input *in;
	const struct svg_theme *th;
	double W, H, u;	 /* size, and px per px-at-1920 */
	double L, R;	 /* plot area left and right edges */
	uint64_t t0, t1; /* time range drawn (Overview) */
	size_t i0, i1;	 /* samples in it: [i0, i1] */
	int clip;	 /* clipPath ids given out */
	int reduced;	 /* svg_input.reduced: a px a column, marks merged */
};

/* The views (svg.c calls them after the page's header): 0, or -1 + a
 * sentence in err (the Runs view: no finished run to draw). */
int svg_overview(struct svg_ctx *c, const struct svg_opts *o);
int svg_runs_view(struct svg_ctx *c, const struct svg_opts *o, char *err, size_t errlen);

/* ---- elements ------------------------------------------------------------ */

void svg_text(struct svg_ctx *c, double x, double y, double size, const char *anchor,
	      const char *weight, uint32_t colour, const char *family, const char *s);
/* An axis title turned upright, centred on y. */
void svg_vtext(struct svg_ctx *c, double x, double y, double size, const char *s);
void svg_line(struct svg_ctx *c, double x1, double y1, double x2, double y2, uint32_t colour,
	      double width, const char *dash);
void svg_rect(struct svg_ctx *c, double x, double y, double w, double h, uint32_t colour);
/* A ▼ whose tip is at (x, y). */
void svg_triangle(struct svg_ctx *c, double x, double y, double size, uint32_t colour);
/* The ▼ of a reduced picture's px: n bursts (data-n). */
void svg_triangle_n(struct svg_ctx *c, double x, double y, double size, uint32_t colour,
		    unsigned n);
/* The clipped columns' marks (clipped[k] > 0 at xs[k]): a small upward
 * wedge whose tip is at (xs[k], y), an element each; a reduced picture's
 * are one element, a wedge a px, whose data-n counts the columns. */
void svg_clip_marks(struct svg_ctx *c, const double *xs, const double *clipped, size_t n, double y,
		    uint32_t colour);
/* Opens a group clipped to a plot rectangle (values above the scale are
 * clipped, never wrapped, as on screen); the caller closes it ("</g>"). */
void svg_clip_begin(struct svg_ctx *c, double x, double y, double w, double h);
/* A polyline through (xs[i], ys[i]), xs ascending, as one <path>: of the
 * points in a column of the grid (half a px; a reduced picture's: a px)
 * the first, lowest, highest and last are drawn (a reduced picture's:
 * the lowest and highest), so the line reaches every column's extremes.
 * A column without a valid y breaks it (a gap: a new subpath); a NAN
 * among valid values of its column does not. */
void svg_polyline(struct svg_ctx *c, const double *xs, const double *ys, size_t n, uint32_t colour,
		  double width);
/* The band between lo[i] and hi[i], as one <path> of a polygon a stretch
 * (hi forward, lo back); a column where every point has a NAN in either
 * breaks it, as svg_polyline's.  The points kept are chosen by the upper
 * edge. */
void svg_band(struct svg_ctx *c, const double *xs, const double *lo, const double *hi, size_t n,
	      uint32_t colour, double opacity);

/* ---- axes and legends ---------------------------------------------------- */

/* A tick label: "0", "2.5", "23.54", "12k". */
void svg_fmt_tick(char *buf, size_t len, double v);
/* Horizontal grid lines and y tick labels of a linear chart at (top, h). */
void svg_y_ticks(struct svg_ctx *c, double top, double h, double scale, double step);

struct svg_legend_item {
	uint32_t colour;
	const char *name;
	int kind; /* 0 box, 1 line, 2 ▼ */
};
/* A legend, right-aligned to x_right, on the baseline y, in at most
 * 26 px-at-1920 text; smaller (down to 18) where it would reach left of
 * x_left (the chart's title). */
void svg_legend(struct svg_ctx *c, double x_left, double x_right, double y,
		const struct svg_legend_item *it, int n);
/* A chart's title at the left of its head line; returns where it ends
 * (bold text is wider than the average). */
double svg_chart_title(struct svg_ctx *c, double y, const char *s);
/* The x of time t in the Overview's range [t0, t1]. */
double svg_x_of(const struct svg_ctx *c, uint64_t t);
/* The y of v on a linear chart at (top, h) from 0 to scale (below 0: the
 * floor); NAN for NAN. */
double svg_map_lin(double v, double top, double h, double scale);
/* Time ticks under a chart ending at y: seconds from 0 to span, where
 * the plot model puts them (plot_time_ticks). */
void svg_time_axis(struct svg_ctx *c, double y, double span_s, double top, const char *title);
/* Axis lines of a plot rectangle: left and bottom. */
void svg_frame(struct svg_ctx *c, double top, double h);

/* ---- the runs' labels ---------------------------------------------------- */

/* Run i is drawn in the Runs view: finished with a copy, and the one
 * asked for (o->run) if any. */
int svg_run_shown(const struct svg_input *in, const struct svg_opts *o, size_t i);
/* The run label: "rw_cp #2" when the label has several runs; at most
 * max characters (0: any), the name shortened, never the "#2". */
void svg_run_label(const struct svg_input *in, size_t i, char *buf, size_t len, size_t max);

#endif
