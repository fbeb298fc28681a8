/* The SVG exporter (svg.h): geometry in px, every coordinate computed
 * here, every string escaped on its way out. */
#include "output/svg.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/units.h"
#include "model/phase.h"
#include "model/plot.h"
#include "model/rates.h"
#include "runs/strategy.h"
#include "base/util.h"

const struct svg_theme svg_theme_light = {
    .bg = 0xffffff,
    .text = 0x1a1a1a, /* 17.4:1 on white */
    .dim = 0x4d4d4d,  /* 8.5:1 */
    .grid = 0xdedede,
    .marker = 0x6b6b6b,	  /* 5.3:1: phase lines and labels */
    .read = 0x0072b2,	  /* Okabe-Ito blue */
    .write = 0xd55e00,	  /* vermillion */
    .active = 0x0072b2,	  /* blue: the strongest, at the bottom */
    .inactive = 0x56b4e9, /* sky blue */
    .free_ = 0xe3e3e3,	  /* light grey: room, not data */
    .io = 0xe69f00,	  /* orange: the read rate in the Runs view */
    .deact = 0xcc79a7,	  /* reddish purple */
    .scan = 0x009e73,	  /* bluish green */
    .burst = 0x1a1a1a,
};

#define SANS	"DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"
#define MONO	"DejaVu Sans Mono, Liberation Mono, Courier New, monospace"
#define MONO_EM 0.602 /* advance of DejaVu Sans Mono (and Liberation Mono: 0.600) */
#define SANS_EM 0.62  /* a generous average for sans text (legend layout) */

/* ---- checked output ---------------------------------------------------- */

struct out {
	FILE *f;
	int err; /* errno of the first failed write, 0 */
};

__attribute__((format(printf, 2, 3))) static void put(struct out *w, const char *fmt, ...)
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

/* Text content or attribute value: the five XML specials escaped, control
 * characters (not allowed in XML 1.0) and invalid UTF-8 bytes as '?'. */
static void put_esc(struct out *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p && !w->err) {
		switch (*p) {
		case '&':
			put(w, "&amp;");
			break;
		case '<':
			put(w, "&lt;");
			break;
		case '>':
			put(w, "&gt;");
			break;
		case '"':
			put(w, "&quot;");
			break;
		case '\'':
			put(w, "&apos;");
			break;
		default: {
			size_t n = utf8_len(p);
			if (text_ctrl(*p) || n == 0) {
				put(w, "?");
				p++;
				continue;
			}
			put(w, "%.*s", (int)n, (const char *)p);
			p += n;
			continue;
		}
		}
		p++;
	}
}

void svg_escape(FILE *f, const char *s)
{
	struct out w = {.f = f};
	put_esc(&w, s); /* a failed write stays in ferror(f) */
}

/* Cuts s (UTF-8) after at most max characters, ending it with "…" when
 * it was longer; never inside a character. */
static void utf8_cut(char *s, size_t size, size_t max)
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
	return (double)utf8_chars(s) * MONO_EM * font_px;
}

static double sans_width(const char *s, double font_px)
{
	return svg_text_width(s, font_px) / MONO_EM * SANS_EM;
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

/* ---- drawing helpers --------------------------------------------------- */

struct ctx {
	struct out w;
	const struct svg_input *in;
	const struct svg_theme *th;
	double W, H, u;	 /* size, and px per px-at-1920 */
	double L, R;	 /* plot area left and right edges */
	uint64_t t0, t1; /* time range drawn (Overview) */
	size_t i0, i1;	 /* samples in it: [i0, i1] */
	int clip;	 /* clipPath ids given out */
	int reduced;	 /* svg_input.reduced: a px a column, marks merged */
};

static void text(struct ctx *c, double x, double y, double size, const char *anchor,
		 const char *weight, uint32_t colour, const char *family, const char *s)
{
	put(&c->w,
	    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" text-anchor=\"%s\" font-weight=\"%s\" "
	    "fill=\"#%06x\" font-family=\"%s\">",
	    x, y, size, anchor, weight, (unsigned)colour, family);
	put_esc(&c->w, s);
	put(&c->w, "</text>\n");
}

/* An axis title turned upright, centred on y. */
static void vtext(struct ctx *c, double x, double y, double size, const char *s)
{
	put(&c->w,
	    "<text transform=\"translate(%.1f %.1f) rotate(-90)\" font-size=\"%.1f\" "
	    "text-anchor=\"middle\" fill=\"#%06x\" font-family=\"%s\">",
	    x, y, size, (unsigned)c->th->text, SANS);
	put_esc(&c->w, s);
	put(&c->w, "</text>\n");
}

static void line(struct ctx *c, double x1, double y1, double x2, double y2, uint32_t colour,
		 double width, const char *dash)
{
	put(&c->w,
	    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#%06x\" "
	    "stroke-width=\"%.1f\"%s%s%s/>\n",
	    x1, y1, x2, y2, (unsigned)colour, width, dash ? " stroke-dasharray=\"" : "",
	    dash ? dash : "", dash ? "\"" : "");
}

static void rect(struct ctx *c, double x, double y, double w, double h, uint32_t colour)
{
	put(&c->w, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\"/>\n",
	    x, y, w, h, (unsigned)colour);
}

/* A ▼ whose tip is at (x, y). */
static void triangle(struct ctx *c, double x, double y, double size, uint32_t colour)
{
	put(&c->w, "<path d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n", x, y, -size / 2,
	    -size * 0.9, size, (unsigned)colour);
}

/* The ▼ of a reduced picture's px: n bursts (data-n). */
static void triangle_n(struct ctx *c, double x, double y, double size, uint32_t colour, unsigned n)
{
	put(&c->w, "<path data-n=\"%u\" d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n", n, x,
	    y, -size / 2, -size * 0.9, size, (unsigned)colour);
}

/* Opens a group clipped to a plot rectangle (values above the scale are
 * clipped, never wrapped, as on screen). */
/* A clipped column's mark: a small upward wedge whose tip is at (x, y). */
static void clip_mark(struct ctx *c, double x, double y, uint32_t colour)
{
	double s = 7 * c->u;
	put(&c->w, "<path class=\"clip\" d=\"M%.1f %.1fl%.1f %.1fh%.1fz\" fill=\"#%06x\"/>\n", x, y,
	    s / 2, s, -s, (unsigned)colour);
}

static void clip_begin(struct ctx *c, double x, double y, double w, double h)
{
	int id = c->clip++;
	put(&c->w,
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

/* A polyline through (xs[i], ys[i]); a NAN y breaks it (no data). */
static void polyline(struct ctx *c, const double *xs, const double *ys, size_t n, uint32_t colour,
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
				put(&c->w,
				    "<path fill=\"none\" stroke=\"#%06x\" stroke-width=\"%.1f\" "
				    "stroke-linejoin=\"round\" stroke-linecap=\"round\" d=\"M%.1f "
				    "%.1f",
				    (unsigned)colour, width, xs[p], ys[p]);
			else
				put(&c->w, "L%.1f %.1f", xs[p], ys[p]);
		}
		if (m)
			put(&c->w, "\"/>\n");
		i = j;
	}
	free(keep);
}

/* The band between lo[i] and hi[i]; a NAN in either breaks it.  The
 * points kept are chosen by the upper edge. */
static void band(struct ctx *c, const double *xs, const double *lo, const double *hi, size_t n,
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
			put(&c->w,
			    "<path fill=\"#%06x\" fill-opacity=\"%.2f\" stroke=\"none\" d=\"",
			    (unsigned)colour, opacity);
			for (size_t k = 0; k < m; k++)
				put(&c->w, "%s%.1f %.1f", k == 0 ? "M" : "L", xs[keep[k]],
				    hi[keep[k]]);
			for (size_t k = m; k-- > 0;)
				put(&c->w, "L%.1f %.1f", xs[keep[k]], lo[keep[k]]);
			put(&c->w, "z\"/>\n");
		}
		i = j;
	}
	free(keep);
}

/* A linear scale from 0: a nice step (nice_ceil, as the screen's scales)
 * and a top that is a whole number of steps above max. */
static void lin_scale(double max, double *top, double *step)
{
	if (!(max > 0))
		max = 1;
	*step = nice_ceil(max / 4);
	*top = ceil(max * 1.02 / *step) * *step;
}

static void fmt_tick(char *buf, size_t len, double v)
{
	if (v == 0)
		snprintf(buf, len, "0");
	else if (fabs(v) >= 1e4)
		fmt_num(buf, len, v);
	else
		snprintf(buf, len, "%.4g", v); /* nice ticks, or a top like 23.54 */
}

/* Horizontal grid lines and y tick labels of a linear chart at (top, h). */
static void y_ticks(struct ctx *c, double top, double h, double scale, double step)
{
	double fs = 24 * c->u;
	for (int k = 0; k * step <= scale * 1.0001; k++) {
		double v = k * step, y = top + h - v / scale * h;
		char buf[48];
		fmt_tick(buf, sizeof(buf), v);
		if (k > 0)
			line(c, c->L, y, c->R, y, c->th->grid, 1.2 * c->u, NULL);
		text(c, c->L - 10 * c->u, y + fs * 0.35, fs, "end", "normal", c->th->text, SANS,
		     buf);
	}
	double last = floor(scale / step + 1e-4) * step;
	if ((scale - last) / scale * h > fs * 1.2) { /* a top like 64 MiB between 60 and 80 */
		char buf[48];
		fmt_tick(buf, sizeof(buf), scale);
		line(c, c->L, top, c->R, top, c->th->grid, 1.2 * c->u, NULL);
		text(c, c->L - 10 * c->u, top + fs * 0.35, fs, "end", "normal", c->th->text, SANS,
		     buf);
	}
}

struct legend_item {
	uint32_t colour;
	const char *name;
	int kind; /* 0 box, 1 line, 2 ▼ */
};

/* A legend, right-aligned to x_right, on the baseline y, in at most
 * 26 px-at-1920 text; smaller (down to 18) where it would reach left of
 * x_left (the chart's title). */
static void legend(struct ctx *c, double x_left, double x_right, double y,
		   const struct legend_item *it, int n)
{
	double fs = 26 * c->u, sw = 30 * c->u, pad = 10 * c->u, sep = 34 * c->u;
	double total = 0;
	for (int i = 0; i < n; i++)
		total += sw + pad + sans_width(it[i].name, fs) + (i ? sep : 0);
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
			rect(c, x, yc - sw / 2.6, sw, sw / 1.3, it[i].colour);
			put(&c->w,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			    "fill=\"none\" "
			    "stroke=\"#%06x\" stroke-width=\"%.1f\"/>\n",
			    x, yc - sw / 2.6, sw, sw / 1.3, (unsigned)c->th->dim, 1.2 * c->u);
		} else if (it[i].kind == 1)
			line(c, x, yc, x + sw, yc, it[i].colour, 5 * c->u, NULL);
		else
			triangle(c, x + sw / 2, yc + sw * 0.35, sw * 0.75, it[i].colour);
		x += sw + pad;
		text(c, x, y, fs, "start", "normal", c->th->text, SANS, it[i].name);
		x += sans_width(it[i].name, fs) + sep;
	}
}

/* A chart's title at the left of its head line; returns where it ends
 * (bold text is wider than the average). */
static double chart_title(struct ctx *c, double y, const char *s)
{
	double fs = 30 * c->u;
	/* a halo of the background: phase lines pass behind the title */
	put(&c->w,
	    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\" font-weight=\"bold\" fill=\"#%06x\" "
	    "stroke=\"#%06x\" stroke-width=\"%.1f\" paint-order=\"stroke\" font-family=\"%s\">",
	    c->L + 6 * c->u, y, fs, (unsigned)c->th->text, (unsigned)c->th->bg, 8 * c->u, SANS);
	put_esc(&c->w, s);
	put(&c->w, "</text>\n");
	return c->L + sans_width(s, fs) * 1.1 + 30 * c->u;
}

static double x_of(const struct ctx *c, uint64_t t)
{
	if (c->t1 <= c->t0)
		return c->L;
	return c->L + (double)(t - c->t0) / (double)(c->t1 - c->t0) * (c->R - c->L);
}

/* Time ticks under a chart ending at y: seconds from 0 to span, where
 * the plot model puts them (plot_time_ticks). */
static void time_axis(struct ctx *c, double y, double span_s, double top, const char *title)
{
	double fs = 24 * c->u, secs[64];
	int nt = plot_time_ticks(span_s, 8, secs, (int)ARRAY_LEN(secs));
	for (int k = 0; k < nt; k++) {
		/* one timestamp: a span of 0, the one tick at the left */
		double x = span_s > 0 ? c->L + secs[k] / span_s * (c->R - c->L) : c->L;
		char buf[32];
		fmt_tick(buf, sizeof(buf), secs[k]);
		line(c, x, y, x, y + 8 * c->u, c->th->text, 1.5 * c->u, NULL);
		if (k > 0 && top < y)
			line(c, x, top, x, y, c->th->grid, 1.2 * c->u, NULL);
		text(c, x, y + 8 * c->u + fs, fs, "middle", "normal", c->th->text, SANS, buf);
	}
	text(c, (c->L + c->R) / 2, y + 8 * c->u + fs * 2.3, fs, "middle", "normal", c->th->text,
	     SANS, title);
}

/* Axis lines of a plot rectangle: left and bottom. */
static void frame(struct ctx *c, double top, double h)
{
	line(c, c->L, top, c->L, top + h, c->th->text, 1.5 * c->u, NULL);
	line(c, c->L, top + h, c->R, top + h, c->th->text, 1.5 * c->u, NULL);
}

/* ---- title --------------------------------------------------------------- */

static int run_shown(const struct svg_input *in, const struct svg_opts *o, size_t i)
{
	const struct run_result *r = &in->runs[i];
	if (o->run >= 0 && (size_t)o->run != i)
		return 0;
	return r->finished && r->t_copy_ns && r->elapsed_s > 0;
}

/* "rw_cp vs mm_sync_cp under a 64M memory limit": the labels of the runs
 * shown, in order of their first run, then the limit. */
static void make_title(const struct svg_input *in, const struct svg_opts *o, int overview,
		       char *buf, size_t len)
{
	size_t off = 0;
	int names = 0, more = 0;
	/* every label ends in the same --disk-limit: the title says it once */
	const char *disk = runlog_common_limit(in->runs, in->nruns);
	buf[0] = '\0';
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (overview
			? (r->t_start_ns > o->to_ns || (r->t_end_ns && r->t_end_ns < o->from_ns))
			: !run_shown(in, o, i))
			continue;
		int seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen =
			    !strcmp(in->runs[j].name, r->name) && (overview || run_shown(in, o, j));
		if (seen)
			continue;
		if (names == 4) {
			more++;
			continue;
		}
		int nl = runlog_label_len(r, disk);
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%.*s",
					names ? " vs " : "", nl, r->name);
		names++;
	}
	if (off >= len)
		off = len - 1;
	if (more)
		off += (size_t)snprintf(buf + off, len - off, " and %d more", more);
	if (off >= len)
		off = len - 1;
	if (!names)
		off += (size_t)snprintf(buf + off, len - off, "Disk and memory");
	if (off >= len)
		off = len - 1;
	char lim[32];
	fmt_mib(lim, sizeof(lim), in->mem_limit);
	if (in->mem_limit)
		off += (size_t)snprintf(buf + off, len - off, " under a %s memory limit", lim);
	else
		off += (size_t)snprintf(buf + off, len - off, ", no memory limit");
	if (off >= len)
		off = len - 1;
	if (disk && names)
		snprintf(buf + off, len - off, ", disk at %s/s", disk + 1);
}

static void header(struct ctx *c, const struct svg_opts *o, int overview, const char *what)
{
	char title[512], sub[640];
	make_title(c->in, o, overview, title, sizeof(title));
	size_t off = (size_t)snprintf(sub, sizeof(sub), "%s", what);
	const char *facts[3] = {c->in->kernel, c->in->disk, c->in->host};
	const char *names[3] = {"kernel", "disk", "host"};
	for (int i = 0; i < 3; i++)
		if (facts[i] && *facts[i] && off < sizeof(sub))
			off += (size_t)snprintf(sub + off, sizeof(sub) - off, " \xc2\xb7 %s %s",
						names[i], facts[i]);
	/* the slide's title on one line: smaller down to 32 px, then cut */
	double fs = 46 * c->u, room = c->W - 80 * c->u, w = sans_width(title, fs) * 1.1;
	if (w > room) {
		fs *= room / w;
		if (fs < 32 * c->u) { /* cut only what 32 px cannot hold (shrunk to fit, a
				      * cut by the same estimate would lose a character
				      * to rounding) */
			fs = 32 * c->u;
			utf8_cut(title, sizeof(title), (size_t)(room / (fs * SANS_EM * 1.1)));
		}
	}
	text(c, 40 * c->u, 62 * c->u, fs, "start", "bold", c->th->text, SANS, title);
	text(c, 40 * c->u, 104 * c->u, 28 * c->u, "start", "normal", c->th->dim, SANS, sub);
}

/* ---- Overview ------------------------------------------------------------ */

/* A phase's label over its line (phase.h's table): copy, flush and verify
 * are labelled, shortened where labels crowd. */
static const char *phase_word(int phase, int abbrev)
{
	const char *a = phase_abbrev(phase);
	return !a ? NULL : abbrev ? a : phase_name(phase);
}

/* The run label: "rw_cp #2" when the label has several runs. */
/* The run label: "rw_cp #2" when the label has several runs; at most
 * max characters (0: any), the name shortened, never the "#2". */
static void run_label(const struct svg_input *in, size_t i, char *buf, size_t len, size_t max)
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
		utf8_cut(buf, len, max - sl);
	size_t bl = strlen(buf);
	snprintf(buf + bl, len - bl, "%s", suffix);
}

#define MAX_LABELS 512

/* Phase lines through the charts (top..bottom) and the labels over them
 * in two lanes: the run labels (at each run's start) and the phases. */
static void events(struct ctx *c, const struct plot *pl, double lane0, double lane1, double top,
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
			put(&c->w,
			    "<path class=\"phase\" data-n=\"%d\" fill=\"none\" stroke=\"#%06x\" "
			    "stroke-width=\"%.1f\"%s d=\"",
			    n, (unsigned)c->th->marker, (start ? 2.0 : 1.4) * c->u,
			    start ? "" : " stroke-dasharray=\"6 5\"");
			for (int i = 0; i < pl->nmarks; i++) {
				const struct plot_mark *e = &pl->marks[i];
				if (e->t_ns < c->t0 || e->t_ns > c->t1 ||
				    (e->phase == PHASE_PREPARE) != start)
					continue;
				double x = x_of(c, e->t_ns);
				if (floor(x) == px)
					continue;
				px = floor(x);
				put(&c->w, "M%.1f %.1fV%.1f", x, top, bottom);
			}
			put(&c->w, "\"/>\n");
		}
	for (int i = 0; i < pl->nmarks; i++) {
		const struct plot_mark *e = &pl->marks[i];
		if (e->t_ns < c->t0 || e->t_ns > c->t1)
			continue;
		double x = x_of(c, e->t_ns);
		int start = e->phase == PHASE_PREPARE;
		if (!c->reduced)
			line(c, x, top, x, bottom, c->th->marker, (start ? 2.0 : 1.4) * c->u,
			     start ? NULL : "6 5");
		if (start && e->run >= 0 && (size_t)e->run < in->nruns && nr < cap) {
			run_label(in, (size_t)e->run, rtext[nr][0], sizeof(rtext[nr][0]), 0);
			const char *name = in->runs[e->run].name;
			if (strcmp(rtext[nr][0], name))
				snprintf(rtext[nr][1], sizeof(rtext[nr][1]), "%s", name);
			else if (strlen(name) > 10) {
				snprintf(rtext[nr][1], sizeof(rtext[nr][1]), "%s", name);
				utf8_cut(rtext[nr][1], sizeof(rtext[nr][1]), 8);
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
			text(c, runs[i].left, lane0, fs, "start", "bold", c->th->text, MONO,
			     runs[i].shown == 1 ? runs[i].text : runs[i].abbrev);
	for (size_t i = 0; i < np; i++)
		if (phases[i].shown)
			text(c, phases[i].left, lane1, fs, "start", "normal", c->th->marker, MONO,
			     phases[i].shown == 1 ? phases[i].text : phases[i].abbrev);
	free(runs);
	free(phases);
	free(rtext);
}

static double map_lin(double v, double top, double h, double scale)
{
	return isnan(v) ? NAN : top + h - (v > 0 ? v : 0) / scale * h;
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

static int overview(struct ctx *c, const struct svg_opts *o)
{
	const struct series *ser = c->in->ser;
	const struct svg_theme *th = c->th;
	double u = c->u;
	size_t n = c->i1 - c->i0 + 1;
	/* what is shown and on which scales: the plot model, a column a
	 * sample (plot.h), as on screen */
	struct plot pl;
	plot_init(&pl);
	struct plot_src src = {ser,
			       c->in->events,
			       c->in->nevents,
			       c->in->runs,
			       c->in->nruns,
			       runlog_common_limit(c->in->runs, c->in->nruns) != NULL,
			       0};
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
		xs[k] = x_of(c, series_t(ser, c->i0 + k));
		af[k] = plot_col(&pl, PLOT_AF)[k];
		inf[k] = plot_col(&pl, PLOT_IF)[k];
		fr[k] = plot_col(&pl, PLOT_FREE)[k];
	}
	double rmax = pl.rate_hi, rmin = pl.rate_lo;
	/* the disk's scale is the screen's: read and write on one axis here,
	 * so the larger of the two when the screen splits them */
	double dscale = fmax(pl.read_max, pl.write_max), dstep = nice_ceil(dscale / 4);

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
	double tx = chart_title(c, y_disk - 14 * u, buf2);
	/* while runs are shown the run's own read and write (plot.h) in
	 * front, the device's total behind in a paler line of the same hue */
	uint32_t dev_rd = svg_mix(th->read, th->bg, 0.6), dev_wr = svg_mix(th->write, th->bg, 0.6);
	struct legend_item dl[4] = {{th->read, pl.own_read ? "run read" : "read", 1},
				    {th->write, pl.own_write ? "run write" : "write", 1}};
	int ndl = 2;
	if (pl.own_read)
		dl[ndl++] = (struct legend_item){dev_rd, "disk read", 1};
	if (pl.own_write)
		dl[ndl++] = (struct legend_item){dev_wr, "disk write", 1};
	legend(c, tx, c->R, y_disk - 14 * u, dl, ndl);
	y_ticks(c, y_disk, dh, dscale, dstep);
	vtext(c, 36 * u, y_disk + dh / 2, 26 * u, "MiB/s");
	clip_begin(c, c->L, y_disk - 3 * u, c->R - c->L, dh + 3 * u);
	for (int dev = 1; dev >= 0; dev--) {
		const double *r = dev ? plot_col(&pl, PLOT_READ_DEV) : rd,
			     *w = dev ? plot_col(&pl, PLOT_WRITE_DEV) : wr;
		int show_r = !dev || pl.own_read, show_w = !dev || pl.own_write;
		for (size_t k = 0; k < n; k++) {
			y1[k] = show_r ? map_lin(r[k], y_disk, dh, dscale) : NAN;
			y2[k] = show_w ? map_lin(w[k], y_disk, dh, dscale) : NAN;
		}
		if (show_w)
			polyline(c, xs, y2, n, dev ? dev_wr : th->write, (dev ? 2.5 : 4) * u);
		if (show_r)
			polyline(c, xs, y1, n, dev ? dev_rd : th->read, (dev ? 2.5 : 4) * u);
	}
	put(&c->w, "</g>\n");
	frame(c, y_disk, dh);
	/* clipped columns (above this axis, one for both here): a small
	 * mark above the frame in the series' colour */
	double px_rd = -1, px_wr = -1; /* reduced: a px marked once */
	for (size_t k = 0; k < n; k++) {
		if (rd[k] > dscale && !(c->reduced && floor(xs[k]) == px_rd)) {
			clip_mark(c, xs[k], y_disk - 4 * u, th->read);
			px_rd = floor(xs[k]);
		}
		if (wr[k] > dscale && !(c->reduced && floor(xs[k]) == px_wr)) {
			clip_mark(c, xs[k], y_disk - 4 * u, th->write);
			px_wr = floor(xs[k]);
		}
	}

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
	tx = chart_title(c, y_mem - strip - 14 * u, buf2);
	struct legend_item ml[] = {
	    {th->active,
	     c->in->mglru ? "active(file) = the 2 youngest MGLRU generations" : "active(file)", 0},
	    {th->inactive, "inactive(file)", 0},
	    {th->free_, freelab, 0},
	    {th->burst, "demotion burst", 2}};
	/* MGLRU's generations: youngest (the strongest colour) at the bottom,
	 * each older one paler; the lists' legend otherwise */
	uint32_t gcol[SAMPLE_GENS] = {th->active, svg_mix(th->active, th->bg, 0.45), th->inactive,
				      svg_mix(th->inactive, th->bg, 0.5)};
	struct legend_item gl[] = {{gcol[0], "gen0 young", 0}, {gcol[1], "gen1", 0},
				   {gcol[2], "gen2", 0},       {gcol[3], "gen3 old", 0},
				   {th->free_, freelab, 0},    {th->burst, "aging", 2}};
	if (gens)
		legend(c, tx, c->R, y_mem - strip - 14 * u, gl, 6);
	else
		legend(c, tx, c->R, y_mem - strip - 14 * u, ml, 4);
	double mscale, mstep;
	/* the axis ends at the limit (or MemTotal): the stack fills it; in
	 * quarters where those are whole (64 MiB: 16, 32, 48) */
	int gib = mem_scale_kb > 4096.0 * 1024;
	double div = gib ? 1048576.0 : 1024.0;
	mscale = mem_scale_kb > 0 ? mem_scale_kb / div : 1;
	mstep = fmod(mscale, 4) == 0 ? mscale / 4 : nice_ceil(mscale / 5);
	for (size_t k = 0; k < n; k++) {
		double a = af[k] / div, b = a + inf[k] / div, f = b + fr[k] / div;
		y0[k] = isnan(a) ? NAN : y_mem + mh;
		y1[k] = map_lin(a, y_mem, mh, mscale);
		y2[k] = map_lin(b, y_mem, mh, mscale);
		y3[k] = map_lin(f, y_mem, mh, mscale);
		if (y3[k] < y_mem) /* cut: free ends at the top, not far above */
			y3[k] = y_mem;
	}
	clip_begin(c, c->L, y_mem, c->R - c->L, mh);
	band(c, xs, y2, y3, n, th->free_, 1.0);
	if (gens) { /* each generation from its stack's bottom: y1 and y2 reused */
		for (int j = SAMPLE_GENS - 1; j >= 0; j--) {
			for (size_t k = 0; k < n; k++) {
				double sum = 0;
				for (int i = 0; i <= j; i++)
					sum += gen[i][k] / div;
				y1[k] = isnan(sum) ? NAN : y_mem + mh;
				y2[k] = map_lin(sum, y_mem, mh, mscale);
			}
			band(c, xs, y1, y2, n, gcol[j], 1.0);
		}
	} else {
		band(c, xs, y1, y2, n, th->inactive, 1.0);
		band(c, xs, y0, y1, n, th->active, 1.0);
	}
	put(&c->w, "</g>\n");
	y_ticks(c, y_mem, mh, mscale, mstep);
	vtext(c, 36 * u, y_mem + mh / 2, 26 * u, gib ? "GiB" : "MiB");
	frame(c, y_mem, mh);
	if (mem_cut) /* a break in the axis: two slants across its top */
		for (int j = 0; j < 2; j++)
			line(c, c->L - 12 * u, y_mem + (14 + 10 * j) * u, c->L + 12 * u,
			     y_mem + (6 + 10 * j) * u, th->text, 2.5 * u, NULL);
	if (!c->reduced) {
		for (size_t k = 0; k < n; k++)
			if (burst[k] > 0)
				triangle(c, xs[k], y_mem - 3 * u, 20 * u, th->burst);
	} else { /* every burst counted: the columns' counts, a px a ▼ */
		const struct svg_burst *b = c->in->bursts;
		for (size_t k = 0; k < c->in->nbursts;) {
			if (b[k].t_ns < c->t0 || b[k].t_ns > c->t1) {
				k++;
				continue;
			}
			double x = x_of(c, b[k].t_ns);
			unsigned cnt = 0;
			size_t k2 = k;
			for (; k2 < c->in->nbursts && b[k2].t_ns <= c->t1 &&
			       floor(x_of(c, b[k2].t_ns)) == floor(x);
			     k2++)
				cnt += b[k2].n;
			triangle_n(c, x, y_mem - 3 * u, 20 * u, th->burst, cnt);
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
	tx = chart_title(c, y_rec - 14 * u, "Reclaim (log scale)");
	struct legend_item rl[] = {{th->deact, "deactivate (active \xe2\x86\x92 inactive)", 1},
				   {th->scan, "scanned", 1}};
	legend(c, tx, c->R, y_rec - 14 * u, rl, 2);
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
			line(c, c->L, y, c->R, y, th->grid, 1.2 * u, NULL);
		text(c, c->L - 10 * u, y + fs * 0.35, fs, "end", "normal", th->text, SANS, d);
	}
	vtext(c, 36 * u, y_rec + rh / 2, 26 * u, "pages/s");
	for (size_t k = 0; k < n; k++)
		for (int j = 0; j < 2; j++) {
			double v = j ? sc[k] : de[k];
			double e = isnan(v) ? NAN : v >= pow(10, elo) ? log10(v) : elo;
			(j ? y2 : y1)[k] =
			    isnan(e) ? NAN : y_rec + rh - (e - elo) / (ehi - elo) * rh;
		}
	clip_begin(c, c->L, y_rec - 3 * u, c->R - c->L, rh + 3 * u);
	polyline(c, xs, y2, n, th->scan, 3.5 * u);
	polyline(c, xs, y1, n, th->deact, 4.5 * u);
	put(&c->w, "</g>\n");
	frame(c, y_rec, rh);

	events(c, &pl, lane0, lane1, y_disk - head + 8 * u, bottom);
	time_axis(c, bottom, (double)(c->t1 - c->t0) / 1e9, bottom, "time (s)");
	(void)o;
	free(buf);
	plot_done(&pl);
	return 0;
}

/* ---- Runs ---------------------------------------------------------------- */

/* The blocks and their shared scales are the plot model's (plot_runs_build,
 * as the TUI's Runs view), a column a sample of the longest run: this
 * only places them.  The rate drawn is the run's read (its io cgroup's
 * bytes where the samples have them, else the disk's): the 2008 thread's
 * iostat figure.  Writes are left out: a flush's write-back would stand
 * in for the sawtooth (rw_cp's is a comb of 150 MiB/s spikes under a
 * 32 MiB/s read). */
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

static int runs_view(struct ctx *c, const struct svg_opts *o, char *err, size_t errlen)
{
	const struct svg_input *in = c->in;
	const struct series *ser = in->ser;
	const struct svg_theme *th = c->th;
	double u = c->u;
	size_t *rows = xcalloc(in->nruns ? in->nruns : 1, sizeof(*rows));
	size_t nrows = 0;
	for (size_t i = 0; i < in->nruns; i++)
		if (run_shown(in, o, i))
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
	double io_scale = pr.read_max, af_max = pr.af_max / 1024.0, af_scale, af_step;
	lin_scale(af_max, &af_scale, &af_step);
	if (in->mem_limit && af_max <= (double)in->mem_limit / 1048576.0)
		af_scale = af_max; /* the limit itself: the list cannot pass it */
	(void)af_step;

	struct legend_item lg[] = {{th->io, "read MiB/s, the run's own (left axis)", 0},
				   {th->active, "active(file) MiB (right axis)", 1},
				   {th->burst, "demotion burst", 2}};
	legend(c, c->L, c->R, top - 24 * u, lg, 3);
	if (skip) {
		char more[64];
		snprintf(more, sizeof(more), "+%zu earlier runs not shown", skip);
		text(c, 40 * u, top - 22 * u, 24 * u, "start", "normal", th->dim, SANS, more);
	}
	double fs = 24 * u;
	/* the label column ends where the row's rate labels begin */
	double tfs = fmin(fs, rh * 0.4);
	char t1[32], t2[48], io_top[48];
	fmt_tick(t1, sizeof(t1), io_scale);
	snprintf(io_top, sizeof(io_top), "%s MiB/s", t1);
	double col_w = c->L - 8 * u - sans_width(io_top, tfs) - 16 * u - 40 * u;
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
		run_label(in, ri, name, sizeof(name),
			  (size_t)(col_w / (lfs * SANS_EM * 1.1))); /* bold is wider */
		int two = rh >= 2.4 * lfs;
		text(c, 40 * u, y + (two ? rh / 2 - lfs * 0.15 : rh / 2 + lfs * 0.35), lfs, "start",
		     "bold", th->text, SANS, name);
		if (two) {
			if (r->ok)
				snprintf(fig, sizeof(fig),
					 "%.2f s \xc2\xb7 %.0f MiB/s \xc2\xb7 %d \xe2\x96\xbc",
					 r->elapsed_s, r->mbs, r->bursts);
			else
				snprintf(fig, sizeof(fig), "%s",
					 r->cancelled ? "cancelled" : "FAILED");
			double ffs = fmin(24 * u, lfs), fw = sans_width(fig, ffs);
			if (fw > col_w) { /* smaller, down to 18 px at 1920, then cut */
				double floor_fs = fmin(18 * u, ffs);
				ffs *= col_w / fw;
				if (ffs < floor_fs) {
					ffs = floor_fs;
					utf8_cut(fig, sizeof(fig),
						 (size_t)(col_w / (ffs * SANS_EM)));
				}
			}
			text(c, 40 * u, y + rh / 2 + lfs * 1.1, ffs, "start", "normal", th->dim,
			     SANS, fig);
		}
		/* the row's axes: the shared scales, with their units */
		text(c, c->L - 8 * u, y + tfs * 0.8, tfs, "end", "normal", th->text, SANS, io_top);
		text(c, c->L - 8 * u, y + rh, tfs, "end", "normal", th->text, SANS, "0");
		fmt_tick(t1, sizeof(t1), af_scale);
		snprintf(t2, sizeof(t2), "%s MiB", t1);
		text(c, c->R + 8 * u, y + tfs * 0.8, tfs, "start", "normal", th->active, SANS, t2);
		text(c, c->R + 8 * u, y + rh, tfs, "start", "normal", th->active, SANS, "0");
		line(c, c->L, y, c->R, y, th->grid, 1.2 * u, NULL);

		/* a column's values are its last sample's: a point at its end */
		const double *rd = plot_runs_row(&pr, k, PLOT_RUN_READ),
			     *af = plot_runs_row(&pr, k, PLOT_RUN_AF),
			     *burst = plot_runs_row(&pr, k, PLOT_RUN_BURST);
		size_t m = 0;
		for (int j = 0; j < pr.n; j++) {
			if (isnan(rd[j]) && isnan(af[j]))
				continue;
			xs[m] = c->L + (double)(j + 1) / pr.n * (c->R - c->L);
			yio[m] = map_lin(rd[j], y, rh, io_scale);
			ybase[m] = isnan(rd[j]) ? NAN : y + rh;
			yaf[m] = map_lin(af[j] / 1024.0, y, rh, af_scale);
			m++;
		}
		clip_begin(c, c->L, y - 2 * u, c->R - c->L, rh + 2 * u);
		band(c, xs, ybase, yio, m, th->io, 0.55);
		polyline(c, xs, yaf, m, th->active, 4.5 * u);
		put(&c->w, "</g>\n");
		for (int j = 0; j < pr.n; j++)
			if (burst[j] > 0)
				triangle(c, c->L + (double)(j + 1) / pr.n * (c->R - c->L),
					 y + 16 * u, 16 * u, th->burst);
		frame(c, y, rh);
		line(c, c->R, y, c->R, y + rh, th->text, 1.5 * u, NULL);
	}
	time_axis(c, c->H - bottom_axis + 4 * u, span, top, "time since the copy started (s)");
	free(xs);
	free(rows);
	plot_runs_done(&pr);
	return 0;
}

/* ---- entry ----------------------------------------------------------------- */

static int draw(struct ctx *c, const struct svg_opts *o, char *err, size_t errlen)
{
	const struct series *ser = c->in->ser;
	size_t len = ser ? series_len(ser) : 0;
	/* the range: samples with from <= t <= to */
	size_t i0 = 0, i1 = len ? len - 1 : 0;
	if (len && o->from_ns) {
		long f = series_find(ser, o->from_ns);
		i0 = f < 0 ? len : (size_t)f;
	}
	while (len && o->to_ns && i1 > 0 && series_at(ser, i1)->t_ns > o->to_ns)
		i1--;
	if (!len || i0 >= len || i1 <= i0 || (o->to_ns && series_at(ser, i1)->t_ns > o->to_ns))
		return errf(err, errlen, "nothing to draw: fewer than two samples in the range");
	c->i0 = i0;
	c->i1 = i1;
	c->t0 = series_at(ser, i0)->t_ns;
	c->t1 = series_at(ser, i1)->t_ns;

	put(&c->w,
	    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	    "viewBox=\"0 0 %.0f %.0f\">\n",
	    c->W, c->H, c->W, c->H);
	rect(c, 0, 0, c->W, c->H, c->th->bg);
	struct svg_opts ro = *o;
	ro.from_ns = c->t0;
	ro.to_ns = c->t1;
	int rc;
	if (o->view == SVG_RUNS) {
		header(c, &ro, 0, "Copy phase of each run on one time and rate scale");
		rc = runs_view(c, &ro, err, errlen);
	} else {
		char what[96];
		snprintf(what, sizeof(what), "%.1f s, %zu samples", (double)(c->t1 - c->t0) / 1e9,
			 c->in->reduced && c->in->nsamples ? c->in->nsamples : i1 - i0 + 1);
		header(c, &ro, 1, what);
		rc = overview(c, &ro);
	}
	if (rc < 0)
		return -1;
	put(&c->w, "</svg>\n");
	return 0;
}

size_t svg_plot_columns(const struct svg_opts *o)
{
	double W = o->width ? o->width : 1920, H = o->height ? o->height : 1080;
	double u = fmin(W / 1920.0, H / 1080.0);
	/* svg_write's L and R */
	double w = (W - 50 * u) - 150 * u;
	return w >= 1 ? (size_t)w : 1;
}

int svg_write(FILE *f, const struct svg_input *in, const struct svg_opts *o, char *err,
	      size_t errlen)
{
	struct ctx c;
	memset(&c, 0, sizeof(c));
	c.w.f = f;
	/* a recording's header has no limit: the runs' cgroups say it */
	struct svg_input eff = *in;
	for (size_t i = 0; !in->mem_limit && in->ser && i < series_len(in->ser); i++) {
		const struct sample *smp = series_at(in->ser, i);
		if ((smp->have & SAMPLE_HAVE_CG) && smp->cg_limit > eff.mem_limit)
			eff.mem_limit = smp->cg_limit;
	}
	c.in = &eff;
	c.reduced = in->reduced;
	c.th = o->theme ? o->theme : &svg_theme_light;
	c.W = o->width ? o->width : 1920;
	c.H = o->height ? o->height : 1080;
	if (c.W < 320 || c.H < 240 || c.W > 16384 || c.H > 16384)
		return errf(err, errlen,
			    "picture size %.0fx%.0f: out of range (320x240 to 16384x16384)", c.W,
			    c.H);
	c.u = c.W / 1920.0;
	if (c.H / 1080.0 < c.u) /* a wide strip: text follows the shorter side */
		c.u = c.H / 1080.0;
	c.L = 150 * c.u;
	c.R = c.W - 50 * c.u;
	/* '.' in every number, whatever LC_NUMERIC the program runs with */
	locale_t cl = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	if (!cl)
		return errf(err, errlen, "cannot make the C locale: %s", strerror(errno));
	locale_t old = uselocale(cl);
	int rc = o->view == SVG_SWEEP ? svg_sweep_draw(f, in, o, c.W, c.H, err, errlen)
				       : draw(&c, o, err, errlen);
	uselocale(old);
	freelocale(cl);
	if (rc < 0)
		return -1;
	errno = 0;
	if (!c.w.err && (fflush(f) == EOF || ferror(f)))
		c.w.err = errno ? errno : EIO;
	if (c.w.err)
		return errf(err, errlen, "write error: %s", strerror(c.w.err));
	return 0;
}
