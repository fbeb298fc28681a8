/* The SVG export's writer and elements (svg_draw.h): checked output,
 * escaping, text measuring, label placement, the elements and axes both
 * views draw with. */
#include "output/svg_draw.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/plot.h"
#include "model/units.h"
#include "base/text.h"
#include "base/util.h"

/* ---- checked output ---------------------------------------------------- */

void svg_put(struct svg_out *w, const char *fmt, ...)
{
	if (w->err)
		return;
	va_list ap;
	va_start(ap, fmt);
	errno = 0;
	if (vfprintf(w->f, fmt, ap) < 0)
		w->err = errno ? errno : EIO;
	va_end(ap);
}

void svg_put_esc(struct svg_out *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p && !w->err) {
		switch (*p) {
		case '&':
			svg_put(w, "&amp;");
			break;
		case '<':
			svg_put(w, "&lt;");
			break;
		case '>':
			svg_put(w, "&gt;");
			break;
		case '"':
			svg_put(w, "&quot;");
			break;
		case '\'':
			svg_put(w, "&apos;");
			break;
		default: {
			size_t n = utf8_len(p);
			if (text_ctrl(*p) || n == 0) {
				svg_put(w, "?");
				p++;
				continue;
			}
			svg_put(w, "%.*s", (int)n, (const char *)p);
			p += n;
			continue;
		}
		}
		p++;
	}
}

void svg_escape(FILE *f, const char *s)
{
	struct svg_out w = {.f = f};
	svg_put_esc(&w, s); /* a failed write stays in ferror(f) */
}

void svg_utf8_cut(char *s, size_t size, size_t max)
{
	size_t chars = 0, i = 0;
	for (; s[i]; i++)
		if (!utf8_cont((unsigned char)s[i]) && ++chars > max)
			break;
	if (!s[i] || max == 0)
		return;
	/* s[i] starts character max+1: back up one more for the "…" */
	i = utf8_floor(s, i - 1);
	if (i + 4 <= size)
		memcpy(s + i, "\xe2\x80\xa6", 4);
	else
		s[i] = '\0';
}

double svg_text_width(const char *s, double font_px)
{
	return (double)utf8_chars(s) * SVG_MONO_EM * font_px;
}

double svg_sans_width(const char *s, double font_px)
{
	return svg_text_width(s, font_px) / SVG_MONO_EM * SVG_SANS_EM;
}

int svg_place_labels(struct svg_label *l, size_t n, double lo, double hi, double font_px)
{
	double gap = 0.6 * font_px;
	int shown = 0;
	for (size_t i = 0; i < n; i++) {
		l[i].shown = 0;
		for (int form = 1; form <= 2 && !l[i].shown; form++) {
			const char *t = form == 1 ? l[i].text : l[i].abbrev;
			if (!t || !*t)
				continue;
			double w = svg_text_width(t, font_px);
			/* at the marker, nudged right by up to two characters,
			 * or ending at the right edge when it would stick out */
			double tries[4] = {l[i].x, l[i].x + 0.6 * font_px, l[i].x + 1.2 * font_px,
					   hi - w};
			for (int k = 0; k < 4 && !l[i].shown; k++) {
				double a = tries[k], b = a + w;
				if (k == 3 && l[i].x + w <= hi)
					break; /* only for labels that stick out */
				if (a < lo || b > hi || (k == 3 && a < l[i].x - 4 * font_px))
					continue;
				int clash = 0;
				for (size_t j = 0; j < i && !clash; j++)
					clash = l[j].shown && a < l[j].right + gap &&
						b + gap > l[j].left;
				if (!clash) {
					l[i].shown = form;
					l[i].left = a;
					l[i].right = b;
				}
			}
		}
		shown += l[i].shown != 0;
	}
	return shown;
}

/* ---- elements ---------------------------------------------------------- */

void svg_text(struct svg_ctx *c, double x, double y, double size, const char *anchor,
	      const char *weight, uint32_t colour, const char *family, const char *s)
{
	svg_put(
	    &c->w,
	    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" font-weight=\"%s\" "
	    "fill=\"#%06x\" font-family=\"%s\">",
	    x, y, size, anchor, weight, (unsigned)colour, family);
	svg_put_esc(&c->w, s);
	svg_put(&c->w, "</text>\n");
}

void svg_vtext(struct svg_ctx *c, double x, double y, double size, const char *s)
{
	svg_put(&c->w,
		"<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"%.1f\" "
		"text-anchor=\"middle\" fill=\"#%06x\" font-family=\"%s\">",
		x, y, size, (unsigned)c->th->text, SVG_SANS);
	svg_put_esc(&c->w, s);
	svg_put(&c->w, "</text>\n");
}

void svg_line(struct svg_ctx *c, double x1, double y1, double x2, double y2, uint32_t colour,
	      double width, const char *dash)
{
	svg_put(&c->w,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#%06x\" "
		"stroke-width=\"%.1f\"%s%s%s/>\n",
		x1, y1, x2, y2, (unsigned)colour, width, dash ? " stroke-dasharray=\"" : "",
		dash ? dash : "", dash ? "\"" : "");
}

void svg_rect(struct svg_ctx *c, double x, double y, double w, double h, uint32_t colour)
{
	svg_put(&c->w,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\"/>\n", x,
		y, w, h, (unsigned)colour);
}

void svg_triangle(struct svg_ctx *c, double x, double y, double size, uint32_t colour)
{
	svg_put(&c->w, "<path d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n", x, y, -size / 2,
		-size * 0.9, size, (unsigned)colour);
}

void svg_triangle_n(struct svg_ctx *c, double x, double y, double size, uint32_t colour, unsigned n)
{
	svg_put(&c->w, "<path data-n=\"%u\" d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n", n,
		x, y, -size / 2, -size * 0.9, size, (unsigned)colour);
}

void svg_clip_marks(struct svg_ctx *c, const double *xs, const double *clipped, size_t n, double y,
		    uint32_t colour)
{
	double s = 7 * c->u;
	if (!c->reduced) {
		for (size_t k = 0; k < n; k++)
			if (clipped[k] > 0)
				svg_put(&c->w,
					"<path class=\"clip\" d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" "
					"fill=\"#%06x\"/>\n",
					xs[k], y, s / 2, s, -s, (unsigned)colour);
		return;
	}
	/* reduced: a wedge a px, all in one element; data-n the columns */
	unsigned cols = 0;
	for (size_t k = 0; k < n; k++)
		cols += clipped[k] > 0;
	if (!cols)
		return;
	svg_put(&c->w, "<path class=\"clip\" data-n=\"%u\" fill=\"#%06x\" d=\"", cols,
		(unsigned)colour);
	double px = -1;
	for (size_t k = 0; k < n; k++) {
		if (!(clipped[k] > 0) || floor(xs[k]) == px)
			continue;
		px = floor(xs[k]);
		svg_put(&c->w, "M%.1f %.1fl%.1f %.1fh%.1fz", xs[k], y, s / 2, s, -s);
	}
	svg_put(&c->w, "\"/>\n");
}

void svg_clip_begin(struct svg_ctx *c, double x, double y, double w, double h)
{
	int id = c->clip++;
	svg_put(
	    &c->w,
	    "<clipPath id=\"clip%d\"><rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>"
	    "</clipPath>\n<g clip-path=\"url(#clip%d)\">\n",
	    id, x, y, w, h, id);
}

/* ---- series: one path each, thinned to the picture's grid -------------- */

/* A break between two stretches in thin()'s list: a gap */
#define GAP SIZE_MAX

/* The points of [0, n) worth drawing, in order, GAP between stretches.
 * The grid is the half px (a reduced series, svg_input.reduced: the whole
 * px); of a column's valid points (ys[i], and also[i] where given, not
 * NAN) the first, the lowest, the highest and the last are kept, so a
 * path has at most 4 points a column whatever the signal (a renderer's
 * libxml2 stops at 10 MB in one attribute) and still shows every spike.
 * A reduced series keeps only the lowest and the highest
 * (and the first and last of each stretch): at most a megabyte at any
 * length.  A column without a valid point is a gap; a NAN among valid
 * points of its column is none (it could not be seen at the grid), so a
 * dense signal with holes is still one stretch, not one a column.  keep
 * holds 2n + 1; returns how many were written. */
static size_t thin(const double *xs, const double *ys, const double *also, size_t n, size_t *keep,
		   int reduced)
{
	size_t m = 0, prev_last = GAP;
	double per = reduced ? 1 : 2;
	int fresh = 1; /* the next column with data starts a stretch */
	for (size_t i = 0; i < n;) {
		double col = floor(xs[i] * per);
		size_t k = i, first = GAP, lo = GAP, hi = GAP, last = GAP;
		for (; k < n && floor(xs[k] * per) == col; k++) {
			if (isnan(ys[k]) || (also && isnan(also[k])))
				continue;
			if (first == GAP)
				first = lo = hi = k;
			if (ys[k] < ys[lo])
				lo = k;
			if (ys[k] > ys[hi])
				hi = k;
			last = k;
		}
		i = k;
		if (first == GAP) { /* a gap: the stretch before it ends */
			if (!fresh) {
				if (reduced && keep[m - 1] < prev_last)
					keep[m++] = prev_last;
				keep[m++] = GAP;
			}
			fresh = 1;
			continue;
		}
		size_t pick[4] = {first, lo < hi ? lo : hi, lo < hi ? hi : lo, last};
		if (reduced) {
			pick[0] = fresh ? first : pick[1];
			pick[3] = pick[2]; /* the stretch's last: at its end */
		}
		for (int p = 0; p < 4; p++)
			if (fresh || keep[m - 1] < pick[p]) {
				keep[m++] = pick[p];
				fresh = 0;
			}
		prev_last = last;
	}
	if (!fresh && reduced && keep[m - 1] < prev_last)
		keep[m++] = prev_last;
	return m;
}

/* A point of path data, in tenths of a px: the grid the numbers are
 * written at.  Far outside the picture (a value clipped by its chart)
 * it is held at 10^8 px, where a line into it is vertical anyway. */
struct svg_pt {
	long x, y;
};

static long tenths(double v)
{
	return lround(fmax(-1e9, fmin(1e9, v * 10)));
}

static struct svg_pt pt_of(double x, double y)
{
	return (struct svg_pt){tenths(x), tenths(y)};
}

/* One number of path data: a decimal only where it is not 0 ("373",
 * "294.4", "-0.5"). */
static void put_num(struct svg_out *w, long t)
{
	unsigned long a = t < 0 ? 0ul - (unsigned long)t : (unsigned long)t;
	if (a % 10)
		svg_put(w, "%s%lu.%lu", t < 0 ? "-" : "", a / 10, a % 10);
	else
		svg_put(w, "%s%lu", t < 0 ? "-" : "", a / 10);
}

/* b lies on the segment a..c, all three on one horizontal or vertical
 * line: drawing a straight to c draws it. */
static int on_segment(struct svg_pt a, struct svg_pt b, struct svg_pt c)
{
	if (a.y == b.y && b.y == c.y)
		return (a.x <= b.x && b.x <= c.x) || (a.x >= b.x && b.x >= c.x);
	if (a.x == b.x && b.x == c.x)
		return (a.y <= b.y && b.y <= c.y) || (a.y >= b.y && b.y >= c.y);
	return 0;
}

/* A subpath through p[0..n): M, then for each point L, or H or V where it
 * keeps a coordinate, points on a straight run left out; the same lines,
 * fewer bytes.  A subpath that comes down to one point is a zero-length
 * line (h0): its round caps draw the dot the two points drew. */
static void put_subpath(struct svg_out *w, const struct svg_pt *p, size_t n)
{
	svg_put(w, "M");
	put_num(w, p[0].x);
	svg_put(w, " ");
	put_num(w, p[0].y);
	struct svg_pt at = p[0];
	int drawn = 0;
	for (size_t k = 1; k < n; k++) {
		if ((p[k].x == at.x && p[k].y == at.y) ||
		    (k + 1 < n && on_segment(at, p[k], p[k + 1])))
			continue;
		if (p[k].x == at.x) {
			svg_put(w, "V");
			put_num(w, p[k].y);
		} else if (p[k].y == at.y) {
			svg_put(w, "H");
			put_num(w, p[k].x);
		} else {
			svg_put(w, "L");
			put_num(w, p[k].x);
			svg_put(w, " ");
			put_num(w, p[k].y);
		}
		at = p[k];
		drawn = 1;
	}
	if (!drawn && n > 1)
		svg_put(w, "h0");
}

/* A series' one <path>: head is its attributes; the stretches of keep[0..m)
 * (GAP between them) become subpaths, each from the points band_pts or
 * line_pts makes of it.  No element where no stretch has two points. */
static void put_series(struct svg_ctx *c, const char *head, const size_t *keep, size_t m,
		       const double *xs, const double *lo, const double *hi, int band)
{
	struct svg_pt *pt = xmalloc(sizeof(*pt) * (2 * m + 1));
	int open = 0;
	for (size_t a = 0; a < m;) {
		size_t b = a;
		while (b < m && keep[b] != GAP)
			b++;
		if (b - a >= 2) {
			size_t np = 0;
			for (size_t k = a; k < b; k++)
				pt[np++] = pt_of(xs[keep[k]], hi[keep[k]]);
			for (size_t k = b; band && k-- > a;) /* back along the lower edge */
				pt[np++] = pt_of(xs[keep[k]], lo[keep[k]]);
			if (!open)
				svg_put(&c->w, "%s d=\"", head);
			open = 1;
			put_subpath(&c->w, pt, np);
			if (band)
				svg_put(&c->w, "z");
		}
		a = b + 1;
	}
	if (open)
		svg_put(&c->w, "\"/>\n");
	free(pt);
}

void svg_polyline(struct svg_ctx *c, const double *xs, const double *ys, size_t n, uint32_t colour,
		  double width)
{
	size_t *keep = xmalloc(sizeof(size_t) * (2 * n + 1));
	size_t m = thin(xs, ys, NULL, n, keep, c->reduced);
	char head[160];
	snprintf(head, sizeof(head),
		 "<path fill=\"none\" stroke=\"#%06x\" stroke-width=\"%.1f\" "
		 "stroke-linejoin=\"round\" stroke-linecap=\"round\"",
		 (unsigned)colour, width);
	put_series(c, head, keep, m, xs, NULL, ys, 0);
	free(keep);
}

void svg_band(struct svg_ctx *c, const double *xs, const double *lo, const double *hi, size_t n,
	      uint32_t colour, double opacity)
{
	size_t *keep = xmalloc(sizeof(size_t) * (2 * n + 1));
	size_t m = thin(xs, hi, lo, n, keep, c->reduced);
	char head[96];
	snprintf(head, sizeof(head), "<path fill=\"#%06x\" fill-opacity=\"%.2f\" stroke=\"none\"",
		 (unsigned)colour, opacity);
	put_series(c, head, keep, m, xs, lo, hi, 1);
	free(keep);
}

void svg_fmt_tick(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (fabs(v) >= 1e4)
		fmt_num(buf, len, v);
	else
		snprintf(buf, len, "%.4g", v); /* nice ticks, or a top like 23.54 */
}

void svg_y_ticks(struct svg_ctx *c, double top, double h, double scale, double step)
{
	double fs = 24 * c->u;
	for (int k = 0; k * step <= scale * 1.0001; k++) {
		double v = k * step, y = top + h - v / scale * h;
		char buf[48];
		svg_fmt_tick(buf, sizeof(buf), v);
		if (k > 0)
			svg_line(c, c->L, y, c->R, y, c->th->grid, 1.2 * c->u, NULL);
		svg_text(c, c->L - 10 * c->u, y + fs * 0.35, fs, "end", "normal", c->th->text,
			 SVG_SANS, buf);
	}
	double last = floor(scale / step + 1e-4) * step;
	if ((scale - last) / scale * h > fs * 1.2) { /* a top like 64 MiB between 60 and 80 */
		char buf[48];
		svg_fmt_tick(buf, sizeof(buf), scale);
		svg_line(c, c->L, top, c->R, top, c->th->grid, 1.2 * c->u, NULL);
		svg_text(c, c->L - 10 * c->u, top + fs * 0.35, fs, "end", "normal", c->th->text,
			 SVG_SANS, buf);
	}
}

void svg_legend(struct svg_ctx *c, double x_left, double x_right, double y,
		const struct svg_legend_item *it, int n)
{
	double fs = 26 * c->u, sw = 30 * c->u, pad = 10 * c->u, sep = 34 * c->u;
	double total = 0;
	for (int i = 0; i < n; i++)
		total += sw + pad + svg_sans_width(it[i].name, fs) + (i ? sep : 0);
	if (total > x_right - x_left) {
		double k = fmax((x_right - x_left) / total, 18.0 / 26.0);
		fs *= k;
		sw *= k;
		pad *= k;
		sep *= k;
		total *= k;
	}
	double x = x_right - total;
	for (int i = 0; i < n; i++) {
		double yc = y - fs * 0.35;
		if (it[i].kind == 0) { /* outlined: a pale swatch stays visible */
			svg_rect(c, x, yc - sw / 2.6, sw, sw / 1.3, it[i].colour);
			svg_put(&c->w,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"none\" "
				"stroke=\"#%06x\" stroke-width=\"%.1f\"/>\n",
				x, yc - sw / 2.6, sw, sw / 1.3, (unsigned)c->th->dim, 1.2 * c->u);
		} else if (it[i].kind == 1)
			svg_line(c, x, yc, x + sw, yc, it[i].colour, 5 * c->u, NULL);
		else
			svg_triangle(c, x + sw / 2, yc + sw * 0.35, sw * 0.75, it[i].colour);
		x += sw + pad;
		svg_text(c, x, y, fs, "start", "normal", c->th->text, SVG_SANS, it[i].name);
		x += svg_sans_width(it[i].name, fs) + sep;
	}
}

double svg_chart_title(struct svg_ctx *c, double y, const char *s)
{
	double fs = 30 * c->u;
	/* a halo of the background: phase lines pass behind the title */
	svg_put(
	    &c->w,
	    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-weight=\"bold\" fill=\"#%06x\" "
	    "stroke=\"#%06x\" stroke-width=\"%.1f\" paint-order=\"stroke\" font-family=\"%s\">",
	    c->L + 6 * c->u, y, fs, (unsigned)c->th->text, (unsigned)c->th->bg, 8 * c->u, SVG_SANS);
	svg_put_esc(&c->w, s);
	svg_put(&c->w, "</text>\n");
	return c->L + svg_sans_width(s, fs) * 1.1 + 30 * c->u;
}

double svg_x_of(const struct svg_ctx *c, uint64_t t)
{
	if (c->t1 <= c->t0)
		return c->L;
	return c->L + (double)(t - c->t0) / (double)(c->t1 - c->t0) * (c->R - c->L);
}

double svg_map_lin(double v, double top, double h, double scale)
{
	return isnan(v) ? NAN : top + h - (v > 0 ? v : 0) / scale * h;
}

void svg_time_axis(struct svg_ctx *c, double y, double span_s, double top, const char *title)
{
	double fs = 24 * c->u, secs[64];
	int nt = plot_time_ticks(span_s, 8, secs, (int)ARRAY_LEN(secs));
	for (int k = 0; k < nt; k++) {
		/* one timestamp: a span of 0, the one tick at the left */
		double x = span_s > 0 ? c->L + secs[k] / span_s * (c->R - c->L) : c->L;
		char buf[32];
		svg_fmt_tick(buf, sizeof(buf), secs[k]);
		svg_line(c, x, y, x, y + 8 * c->u, c->th->text, 1.5 * c->u, NULL);
		if (k > 0 && top < y)
			svg_line(c, x, top, x, y, c->th->grid, 1.2 * c->u, NULL);
		svg_text(c, x, y + 8 * c->u + fs, fs, "middle", "normal", c->th->text, SVG_SANS,
			 buf);
	}
	svg_text(c, (c->L + c->R) / 2, y + 8 * c->u + fs * 2.3, fs, "middle", "normal", c->th->text,
		 SVG_SANS, title);
}

void svg_frame(struct svg_ctx *c, double top, double h)
{
	svg_line(c, c->L, top, c->L, top + h, c->th->text, 1.5 * c->u, NULL);
	svg_line(c, c->L, top + h, c->R, top + h, c->th->text, 1.5 * c->u, NULL);
}

/* ---- the runs' labels --------------------------------------------------- */

int svg_run_shown(const struct svg_input *in, const struct svg_opts *o, size_t i)
{
	const struct run_result *r = &in->runs[i];
	if (o->run >= 0 && (size_t)o->run != i)
		return 0;
	return r->finished && r->t_copy_ns && r->elapsed_s > 0;
}

void svg_run_label(const struct svg_input *in, size_t i, char *buf, size_t len, size_t max)
{
	const struct run_result *r = &in->runs[i];
	int several = 0;
	for (size_t j = 0; j < in->nruns && !several; j++)
		several = j != i && !strcmp(in->runs[j].name, r->name);
	char suffix[16] = "";
	if (several)
		snprintf(suffix, sizeof(suffix), " #%d", r->repeat);
	/* the title says a common --disk-limit */
	snprintf(buf, len, "%.*s", runlog_label_len(r, runlog_common_limit(in->runs, in->nruns)),
		 r->name);
	size_t sl = strlen(suffix);
	if (max > sl + 2)
		svg_utf8_cut(buf, len, max - sl);
	size_t bl = strlen(buf);
	snprintf(buf + bl, len - bl, "%s", suffix);
}
