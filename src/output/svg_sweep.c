/* --export-svg OUT REC --view sweep: a sweep's median elapsed (with its
 * 95 % interval as whiskers) and median bursts against the parameter, one
 * line per strategy, on a log x axis for a geometric range.  The figures
 * and scales come from the model (sweep_table_build, sweep_plot_build);
 * this file only places and writes them.  Same rules as svg.c: every
 * text escaped, '.' in numbers (svg_write sets the C locale around the
 * call) and every write checked: the error indicator of f is sticky, and
 * svg_write flushes and tests it after the picture. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/svg.h"
#include "model/sweep.h"
#include "base/util.h"

#define SANS "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"

/* Okabe-Ito, as svg.c's theme: one colour a strategy, in turn; past the
 * eighth the colours come again with a dash pattern, so the table's every
 * column (SWEEP_MAX_STRATEGIES) has a line of its own look */
static const uint32_t line_colours[] = {0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7,
					0xe69f00, 0x56b4e9, 0x1a1a1a, 0xf0e442};
#define NCOLOURS ((int)ARRAY_LEN(line_colours))
static const char *const line_dashes[] = {NULL, "12 6", "3 5", "14 5 3 5"};
#define NDASHES ((int)ARRAY_LEN(line_dashes))
_Static_assert(ARRAY_LEN(line_colours) * ARRAY_LEN(line_dashes) >= SWEEP_MAX_STRATEGIES,
	       "a look for every column of the sweep table");

static uint32_t colour_of(int s)
{
	return line_colours[s % NCOLOURS];
}

/* the dash pattern of strategy s, scaled by u; "" for a solid line */
static void dash_of(char *buf, size_t len, int s, double u)
{
	const char *d = line_dashes[(s / NCOLOURS) % NDASHES];
	size_t l = 0;
	buf[0] = '\0';
	if (!d)
		return;
	l += (size_t)snprintf(buf, len, " stroke-dasharray=\"");
	for (const char *p = d; *p && l < len;) {
		char *end;
		double v = strtod(p, &end);
		l += (size_t)snprintf(buf + l, len - l, "%s%.1f", p == d ? "" : " ", v * u);
		p = end;
		while (*p == ' ')
			p++;
	}
	if (l < len)
		snprintf(buf + l, len - l, "\"");
}

static void text(FILE *w, double x, double y, double size, const char *anchor, uint32_t colour,
		 const char *s)
{
	fprintf(w,
		"<text x=\"%.1f\" y=\"%.1f\" font-family=\"%s\" font-size=\"%.1f\" "
		"text-anchor=\"%s\" fill=\"#%06x\">",
		x, y, SANS, size, anchor, colour);
	svg_escape(w, s);
	fprintf(w, "</text>\n");
}

static void line(FILE *w, double x1, double y1, double x2, double y2, uint32_t colour, double width)
{
	fprintf(w,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#%06x\" "
		"stroke-width=\"%.1f\"/>\n",
		x1, y1, x2, y2, colour, width);
}

struct frame {
	double left, right, top, bottom; /* the plot area, px */
};

/* One chart: its frame, y grid and ticks, x ticks at each value with runs,
 * then per strategy a polyline of get() through the values that have it,
 * dots, and (elapsed) the interval's whiskers. */
static void chart(FILE *w, const struct svg_theme *th, const struct sweep_table *t,
		  const struct sweep_plot *p, const struct frame *fr, double top, double u,
		  const char *title, int elapsed)
{
	double fs = 22 * u, h = fr->bottom - fr->top, pw = fr->right - fr->left;
	text(w, fr->left, fr->top - 14 * u, 26 * u, "start", th->text, title);
	for (int k = 0; k <= 4; k++) {
		double y = fr->bottom - h * k / 4;
		char b[32];
		snprintf(b, sizeof(b), elapsed ? "%g s" : "%g", top * k / 4);
		line(w, fr->left, y, fr->right, y, th->grid, 1);
		text(w, fr->left - 10 * u, y + fs / 3, fs, "end", th->dim, b);
	}
	int every = 1; /* labels that would touch: every k-th */
	while (p->n / every > (int)(pw / (90 * u)) && every < p->n)
		every++;
	for (int i = 0; i < p->n; i++) {
		double x = fr->left + p->x[i] * pw;
		line(w, x, fr->bottom, x, fr->bottom + 8 * u, th->dim, 1);
		if (i % every && i != p->n - 1)
			continue;
		char v[24];
		sweep_value_str(v, sizeof(v), t->v[p->vi[i]]);
		text(w, x, fr->bottom + 32 * u, fs, "middle", th->dim, v);
	}
	line(w, fr->left, fr->bottom, fr->right, fr->bottom, th->dim, 1.5 * u);
	for (int s = 0; s < t->ns; s++) {
		uint32_t c = colour_of(s);
		char dash[96];
		dash_of(dash, sizeof(dash), s, u);
		int open = 0;
		for (int i = 0; i < p->n; i++) {
			const struct sweep_cell *cell = &t->cell[p->vi[i]][s];
			double v = elapsed ? cell->elapsed_med : cell->bursts_med;
			if (isnan(v)) {
				if (open)
					fprintf(w, "\"/>\n");
				open = 0;
				continue;
			}
			double x = fr->left + p->x[i] * pw, y = fr->bottom - h * v / top;
			if (!open)
				fprintf(w,
					"<polyline fill=\"none\" stroke=\"#%06x\" "
					"stroke-width=\"%.1f\"%s "
					"points=\"",
					c, 3 * u, dash);
			fprintf(w, "%.1f,%.1f ", x, y);
			open = 1;
		}
		if (open)
			fprintf(w, "\"/>\n");
		for (int i = 0; i < p->n; i++) {
			const struct sweep_cell *cell = &t->cell[p->vi[i]][s];
			double v = elapsed ? cell->elapsed_med : cell->bursts_med;
			if (isnan(v))
				continue;
			double x = fr->left + p->x[i] * pw, y = fr->bottom - h * v / top;
			if (elapsed && !isnan(cell->ci_lo)) {
				double y1 = fr->bottom - h * cell->ci_lo / top,
				       y2 = fr->bottom - h * cell->ci_hi / top;
				line(w, x, y1, x, y2, c, 2 * u);
				line(w, x - 6 * u, y1, x + 6 * u, y1, c, 2 * u);
				line(w, x - 6 * u, y2, x + 6 * u, y2, c, 2 * u);
			}
			fprintf(w, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#%06x\"/>\n",
				x, y, 6 * u, c);
		}
	}
}

#define LEGEND_ROW 34 /* px at 1920x1080 */

/* The legend from y 118 on, a row of entries at a time that fits the
 * width, "N more not shown" after them when the table has labels it has
 * no column for.  Returns the rows it took. */
static int legend(FILE *w, const struct svg_theme *th, const struct sweep_table *t, double u,
		  double W)
{
	double lx = 50 * u, right = W - 50 * u;
	int row = 0;
	for (int s = 0; s <= t->ns; s++) {
		char more[64] = "";
		if (s == t->ns) {
			if (!t->dropped)
				break;
			snprintf(more, sizeof(more), "%d more not shown", t->dropped);
		}
		const char *name = s < t->ns ? t->strat[s] : more;
		double width = (36 + 14 * (double)strlen(name) + 40) * u;
		if (lx > 50 * u && lx + width - 40 * u > right) {
			lx = 50 * u;
			row++;
		}
		double y = (118 + LEGEND_ROW * row) * u;
		if (s == t->ns) {
			text(w, lx, y + 13 * u, 22 * u, "start", th->dim, more);
			break;
		}
		uint32_t c = colour_of(s);
		char dash[96];
		dash_of(dash, sizeof(dash), s, u);
		if (!dash[0])
			fprintf(w,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				"fill=\"#%06x\"/>\n",
				lx, y, 28 * u, 12 * u, c);
		else /* the line's own dashes */
			fprintf(w,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"#%06x\" stroke-width=\"%.1f\"%s/>\n",
				lx, y + 6 * u, lx + 28 * u, y + 6 * u, c, 4 * u, dash);
		text(w, lx + 36 * u, y + 13 * u, 22 * u, "start", th->text, name);
		lx += width;
	}
	return row + 1;
}

int svg_sweep_draw(FILE *f, const struct svg_input *in, const struct svg_opts *o, double W,
		   double H, char *err, size_t errlen)
{
	FILE *w = f;
	const struct svg_theme *th = o->theme ? o->theme : &svg_theme_light;
	struct sweep_table *t = xmalloc(sizeof(*t));
	struct sweep_plot p;
	if (!sweep_table_build(t, NULL, in->runs, in->nruns, 1)) {
		free(t);
		return errf(err, errlen,
			    "--view sweep: the recording has no sweep "
			    "(record a run with --sweep)");
	}
	sweep_plot_build(&p, t);
	double u = W / 1920.0 < H / 1080.0 ? W / 1920.0 : H / 1080.0;
	fprintf(w,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\">\n",
		W, H, W, H);
	fprintf(w, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#%06x\"/>\n", W, H,
		th->bg);
	char title[160];
	snprintf(title, sizeof(title), "Sweep of %s%s", sweep_param_name(t->param),
		 p.log_x ? " (log axis)" : "");
	text(w, 50 * u, 56 * u, 36 * u, "start", th->text, title);
	char facts[320];
	snprintf(facts, sizeof(facts),
		 "%s%s%s  medians of the OK runs a value; whiskers: 95%% "
		 "interval of the median",
		 in->host ? in->host : "", in->kernel && in->kernel[0] ? "  " : "",
		 in->kernel ? in->kernel : "");
	text(w, 50 * u, 92 * u, 22 * u, "start", th->dim, facts);
	/* the legend: a swatch and a name per strategy, left to right, on as
	 * many rows as the width needs; the charts start below it */
	int rows = legend(w, th, t, u, W);
	double gap = 90 * u, top0 = (200 + LEGEND_ROW * (rows - 1)) * u, bottom = H - 70 * u;
	double ch = (bottom - top0 - gap) / 2;
	struct frame fe = {150 * u, W - 60 * u, top0, top0 + ch};
	struct frame fb = {150 * u, W - 60 * u, top0 + ch + gap, bottom};
	chart(w, th, t, &p, &fe, p.elapsed_top, u, "elapsed (median)", 1);
	chart(w, th, t, &p, &fb, p.bursts_top, u, "demotion bursts (median)", 0);
	fprintf(w, "</svg>\n");
	free(t);
	return 0; /* a failed write stays in ferror(f): svg_write checks it */
}
