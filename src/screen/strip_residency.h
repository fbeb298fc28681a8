/*
 * strip_residency — the Overview's page-cache strip: how much of the run's
 * source and destination is cached, how much of the destination is dirty
 * or under writeback (percent of each file, on a fixed 0-100 % scale), and
 * in the legend how many of their pages reclaim evicted and how many of
 * those recently (what the copy would want again).
 *
 * Under it (or alone, on a terminal too short for the chart) a row each
 * for the source and the destination: the newest tick's map of where in
 * the file the cache is, one cell a range (pagecache_map_cells), vmtouch
 * -v's picture in glyphs and colours: █ cached, ▄ partly, ▓ dirty,
 * ▒ writeback, ░ evicted, · not cached.
 *
 * Invariants: values come from pagecache_pct (model), one per dot column
 * from the newest sample the column covers; the map from the model's
 * latest; the strip only draws.  Its buffers grow with the width, never
 * per tick.
 */
#ifndef LRUTOP_STRIP_RESIDENCY_H
#define LRUTOP_STRIP_RESIDENCY_H

#include "screen/chart.h"
#include "screen/grid.h"
#include "model/model.h"

/* The map's rows, the strip's last (src, dst). */
#define STRIP_RESIDENCY_MAP_ROWS 2

struct res_strip {
	struct canvas canvas;
	double *buf; /* 4 value columns × cap */
	int cap;
	unsigned char *cells; /* a map row, cells_cap wide */
	int cells_cap;
};

void strip_residency_done(struct res_strip *rs);
/* The map's ranges a file for a terminal w columns wide: the Overview's
 * plot width, at most RESIDENCY_MAP_MAX (what the TUI asks the live source
 * for). */
int strip_residency_map_ranges(int w);
/* Rows the strip takes (its title line included) out of plot_rows, the
 * Overview's chart rows: 0 without runs (nothing to watch) or on a short
 * terminal. */
int strip_residency_rows(const struct model *m, int plot_rows);
/* Draws the strip into rows [y, y + rows) of g, the plot from column x
 * (pw cells wide, the Overview's time axis: hi[i] is the newest sample of
 * dot column i, -1 none, for n columns).  Returns rows. */
int strip_residency_draw(struct res_strip *rs, const struct model *m, const long *hi, int n,
			 enum chart_glyphs gl, struct grid *g, int x, int y, int pw, int rows,
			 int compact);

#endif
