#include "screen/strip_probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/probe_acc.h"

#define DECADES 4.0 /* 0.1 ms .. 1 s */

int strip_probe_rows(const struct model *m, int plot_rows)
{
	if (!probe_acc_seen(m->series) || plot_rows < 12)
		return 0;
	return plot_rows >= 24 ? 4 : 3; /* title + chart */
}

/* ms on the strip's log scale: 0 at 0.1 ms, DECADES at 1 s. */
static double level(double ms)
{
	if (isnan(ms))
		return NAN;
	double v = log10(ms / 0.1);
	return v < 0.02 ? 0.02 : v > DECADES ? DECADES : v;
}

static void fmt_ms(char *buf, size_t len, double ms)
{
	if (isnan(ms))
		snprintf(buf, len, "-");
	else if (ms >= 1000)
		snprintf(buf, len, "%.1fs", ms / 1000);
	else
		snprintf(buf, len, ms >= 10 ? "%.0fms" : "%.2fms", ms);
}

void strip_probe_draw(struct canvas *c, const struct model *m, const long *lo, const long *hi,
		      int n, double *buf, enum chart_glyphs gl, struct grid *g, int x0, int y,
		      int rows, int compact)
{
	double *p50 = buf, *p99 = buf + n, *mx = buf + 2 * n;
	double l50 = NAN, l99 = NAN, lmx = NAN;
	for (int i = 0; i < n; i++) {
		probe_acc_span(m->series, lo[i], hi[i], &p50[i], &p99[i], &mx[i]);
		if (!isnan(p99[i])) {
			l50 = p50[i];
			l99 = p99[i];
			lmx = mx[i];
		}
	}
	char a[16], b[16], d[16];
	fmt_ms(a, sizeof(a), l50);
	fmt_ms(b, sizeof(b), l99);
	fmt_ms(d, sizeof(d), lmx);
	int x = 1 + grid_printf(g, 1, y, ROLE_TITLE, compact ? "Probe %s" : "Probe %s read latency",
				m->probe_mode[0] ? m->probe_mode : "4K");
	x += 2;
	grid_put(g, x, y, 0x25a0, ROLE_ACTIVE);
	x += 2 + grid_printf(g, x + 2, y, ROLE_DEFAULT, "p50 %s", a) + 2;
	grid_put(g, x, y, 0x25a0, ROLE_READ);
	x += 2 + grid_printf(g, x + 2, y, ROLE_DEFAULT, "p99 %s", b) + 2;
	grid_put(g, x, y, 0x25a0, ROLE_PSI);
	x += 2 + grid_printf(g, x + 2, y, ROLE_DEFAULT, "max %s", d) + 2;
	if (!compact && x + 12 < g->w)
		grid_text(g, x, y, -1, ROLE_DIM, "(log, 0.1ms-1s)");
	int ch = rows - 1, cw = g->w - x0 - 1;
	if (ch < 1 || cw < 1)
		return;
	canvas_reset(c, gl, cw, ch);
	int nd = c->dw < n ? c->dw : n, off = n - nd;
	for (int i = 0; i < nd; i++) { /* the canvas's columns are the last nd */
		p50[i] = level(p50[off + i]);
		p99[i] = level(p99[off + i]);
		mx[i] = level(mx[off + i]);
	}
	int band = c->dh;
	canvas_plot(c, p99, nd, DECADES, ROLE_READ, CHART_AREA, band - 1, -1, band);
	canvas_plot(c, mx, nd, DECADES, ROLE_PSI, CHART_LINE, band - 1, -1, band);
	canvas_plot(c, p50, nd, DECADES, ROLE_ACTIVE, CHART_LINE, band - 1, -1, band);
	canvas_render(c, g, x0, y + 1);
	for (int j = 0; j < ch; j++)
		grid_put(g, x0 - 1, y + 1 + j, 0x2502, ROLE_AXIS);
	grid_printf(g, 0, y + 1, ROLE_AXIS, "%*s", x0 - 1, "1s");
	if (ch >= 2)
		grid_printf(g, 0, y + ch, ROLE_AXIS, "%*s", x0 - 1, ".1ms");
}
