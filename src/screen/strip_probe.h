/*
 * strip_probe — the Overview's probe strip (--probe): the neighbour's read
 * latency per column, p99 as an area, p50 and max as lines, on a log
 * scale from 0.1 ms to 1 s (a cold read off a virtio disk is ~0.2 ms, a
 * reclaim stall ~100 ms: both must read on one strip).  The figures come
 * from probe_acc (model/); this file only draws.
 */
#ifndef LRUTOP_STRIP_PROBE_H
#define LRUTOP_STRIP_PROBE_H

#include "screen/chart.h"
#include "screen/grid.h"
#include "model/model.h"

/* Rows the strip takes (a title and the chart) out of plot_rows, 0 when
 * the series has no probe figures or the screen is too small. */
int strip_probe_rows(const struct model *m, int plot_rows);
/* Draws it at row y, rows high (strip_probe_rows), over the n dot columns
 * lo[i]..hi[i] of the Overview's window; x0: the plot's first column;
 * buf: room for 3n values. */
void strip_probe_draw(struct canvas *c, const struct model *m, const long *lo, const long *hi,
		      int n, double *buf, enum chart_glyphs gl, struct grid *g, int x0, int y,
		      int rows, int compact);

#endif
