/*
 * views — the screens, each drawn from a const struct model (what is known)
 * and a const struct ui (what the user chose to look at) into a grid.
 *
 * Invariants: drawing never changes the model; a view's private state
 * (canvases, value buffers, auto-scales) is allocated when the size changes,
 * never per tick.  Every view copes with any grid size >= VIEW_MIN_W ×
 * VIEW_MIN_H; below that views_draw shows a "terminal too small" notice.
 */
#ifndef LRUTOP_VIEWS_H
#define LRUTOP_VIEWS_H

#include "screen/chart.h"
#include "screen/grid.h"
#include "model/model.h"
#include "model/plot.h"
#include "screen/strip_residency.h"
#include "screen/ui.h"

#define VIEW_MIN_W 60
#define VIEW_MIN_H 15

struct overview {
	struct canvas disk, reclaim; /* the memory stack is drawn by cells (chart_stack) */
	struct plot plot; /* what the charts show (plot.h): the view renders it */
	double *buf;	  /* scratch: the memory stack's cells, the probe strip's */
	int cap;
	struct res_strip res; /* the page-cache strip (strip_residency.h) */
	struct canvas probe; /* --probe: its strip (strip_probe.c) */
};

struct runs_view {
	struct canvas canvas;
	struct plot_runs plot; /* the blocks and their scales (plot.h) */
};

struct views {
	struct overview overview;
	struct runs_view runs;
};

void views_init(struct views *v);
void views_done(struct views *v);
/* Draws the whole screen for m into g (header, current view, status line,
 * help overlay). */
void views_draw(struct views *v, const struct model *m, const struct ui *u, struct grid *g);

/* The picker overlay (view_picker.c), drawn by views_draw. */
void view_picker(const struct model *m, const struct ui *u, struct grid *g);
/* A talk's caption (view_caption.c): a box over the charts in rows
 * [y0, y0 + h), the text wrapped to its width, in the theme's strongest
 * colours (bold, reversed). */
void view_caption(const struct ui *u, struct grid *g, int y0, int h);
/* Pieces shared by the views (view_common.c). */
/* Rows of the picker: one per strategy, then repeat, size, memory limit. */
int picker_rows(void);
/* Index (into the series) of the newest sample the views show: the newest,
 * or earlier while paused and scrolled.  -1 when the series is empty. */
long view_end(const struct model *m, const struct ui *u);
/* Burst bands: a ▼ on row burst_y over every cell column (of cw at x0,
 * xdots dot columns each) whose burst[] dot columns hold a burst, and a thin
 * line down through the empty cells of rows [chart_top, chart_bottom) but
 * skip_rows[0..nskip), so the eye lines up the disk with the demotion.  A
 * burst_y off the grid draws the lines only. */
void view_burst_bands(struct grid *g, const double *burst, int burst_y, int x0, int cw, int xdots,
		      int chart_top, int chart_bottom, const int *skip_rows, int nskip);

void overview_draw(struct overview *ov, const struct model *m, const struct ui *u, struct grid *g, int y0, int h);
void iostat_draw(const struct model *m, const struct ui *u, struct grid *g, int y0, int h);
void vmstat_draw(const struct model *m, const struct ui *u, struct grid *g, int y0, int h);
void runs_draw(struct runs_view *rv, const struct model *m, const struct ui *u, struct grid *g, int y0, int h);

#endif
