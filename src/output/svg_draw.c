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

void svg_clip_mark(struct svg_ctx *c, double x, double y, uint32_t colour)
{
	double s = 7 * c->u;
	svg_put(&c->w, "<path class=\"clip\" d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n",
		x, y, s / 2, s, -s, (unsigned)colour);
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

/* The points of [i, j) worth drawing: of the points falling in one
 * half-pixel column, the first, the lowest, the highest and the last (in
 * their order), so a long recording's path stays small enough for a
 * renderer (libxml2 stops at 10 MB in one attribute) and still shows
 * every spike.  Writes indices into keep; returns how many. */
static size_t decimate(const double *xs, const double *ys, size_t i, size_t j, size_t *keep,
		       int reduced)
{
	size_t n = 0, first = i;
	/* a reduced series (svg_input.reduced): whole px, and of each only
	 * the lowest and the highest (the stretch's ends kept too), so a
	 * picture of any length stays under a megabyte */
	double per = reduced ? 1 : 2;
	while (i < j) {
		double col = floor(xs[i] * per);
		size_t k = i, lo = i, hi = i;
		while (k < j && floor(xs[k] * per) == col) {
			if (ys[k] < ys[lo])
				lo = k;
			if (ys[k] > ys[hi])
				hi = k;
			k++;
		}
		size_t pick[4] = {i, lo < hi ? lo : hi, lo < hi ? hi : lo, k - 1};
		if (reduced) {
			pick[0] = i == first ? i : pick[1];
			pick[3] = k == j ? k - 1 : pick[2];
		}
		for (int p = 0; p < 4; p++)
			if (!n || keep[n - 1] < pick[p])
				keep[n++] = pick[p];
		i = k;
	}
	return n;
}

void svg_polyline(struct svg_ctx *c, const double *xs, const double *ys, size_t n, uint32_t colour,
		  double width)
{
	size_t *keep = xmalloc(sizeof(size_t) * (n ? n : 1));
	size_t i = 0;
	while (i < n) {
		while (i < n && isnan(ys[i]))
			i++;
		size_t j = i;
		while (j < n && !isnan(ys[j]))
			j++;
		size_t m = decimate(xs, ys, i, j, keep, c->reduced);
		for (size_t k = 0; k < m; k++) {
			size_t p = keep[k];
			if (k == 0)
				svg_put(
				    &c->w,
				    "<path fill=\"none\" stroke=\"#%06x\" stroke-width=\"%.1f\" "
				    "stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"M%.1f "
				    "%.1f",
				    (unsigned)colour, width, xs[p], ys[p]);
			else
				svg_put(&c->w, "L%.1f %.1f", xs[p], ys[p]);
		}
		if (m)
			svg_put(&c->w, "\"/>\n");
		i = j;
	}
	free(keep);
}

void svg_band(struct svg_ctx *c, const double *xs, const double *lo, const double *hi, size_t n,
	      uint32_t colour, double opacity)
{
	size_t *keep = xmalloc(sizeof(size_t) * (n ? n : 1));
	size_t i = 0;
	while (i < n) {
		while (i < n && (isnan(lo[i]) || isnan(hi[i])))
			i++;
		size_t j = i;
		while (j < n && !isnan(lo[j]) && !isnan(hi[j]))
			j++;
		size_t m = j - i >= 2 ? decimate(xs, hi, i, j, keep, c->reduced) : 0;
		if (m >= 2) {
			svg_put(&c->w,
				"<path fill=\"#%06x\" fill-opacity=\"%.2f\" stroke=\"none\" d=\"",
				(unsigned)colour, opacity);
			for (size_t k = 0; k < m; k++)
				svg_put(&c->w, "%s%.1f %.1f", k == 0 ? "M" : "L", xs[keep[k]],
					hi[keep[k]]);
			for (size_t k = m; k-- > 0;)
				svg_put(&c->w, "L%.1f %.1f", xs[keep[k]], lo[keep[k]]);
			svg_put(&c->w, "z\"/>\n");
		}
		i = j;
	}
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
