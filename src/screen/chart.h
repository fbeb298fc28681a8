/*
 * chart — time-series charts drawn into a grid.
 *
 * A canvas is a grid of dots: 2×4 per cell with braille (UTF-8), 1×2 with
 * half blocks, 1×1 with ASCII.  Series are plotted as dots (lines or filled
 * areas), then the canvas is rendered into cells; a cell takes the role that
 * owns most of its dots, later series winning ties.
 *
 * Invariants: the newest value sits in the rightmost dot column; NAN values
 * leave gaps; values above the scale are clipped, never wrapped.  A canvas
 * is reused across ticks (allocated only when its size changes), and keeps
 * its dots: a window that moved on scrolls it (canvas_scroll) and draws
 * only the columns that came (canvas_plot_range), which is the canvas
 * drawn whole (test_chart.c, test_scroll.c).  A column's dots are stored
 * together, with the span of its lit rows, so a scroll is an offset and a
 * render looks only at lit cells.
 */
#ifndef LRUTOP_CHART_H
#define LRUTOP_CHART_H

#include <stddef.h>
#include <stdint.h>

#include "model/glyphs.h"
#include "screen/grid.h"
#include "model/units.h"

enum chart_mode { CHART_LINE, CHART_AREA };

struct canvas {
	enum chart_glyphs glyphs;
	int cw, ch;	  /* size in cells */
	int dw, dh;	  /* size in dots */
	int xdots, ydots; /* dots per cell */
	/* the dots, role + 1 or 0, a column's dh together (top first): room
	 * for 2·dw columns, the canvas the dw from off, so a move on by k
	 * columns is off += k (canvas_scroll) */
	uint8_t *dots;
	int *lit; /* per column of the room: its first and last lit dot row
		     (first > last: dark); the dots outside are 0 */
	int off, room;
	size_t cap, litcap;
	int top_wins; /* a cell takes its highest role, not its majority:
			 a line stays visible across a filled area */
};

void canvas_init(struct canvas *c);
void canvas_done(struct canvas *c);
/* Sets the size and clears; reallocates only when it grows. */
void canvas_reset(struct canvas *c, enum chart_glyphs glyphs, int cw, int ch);
/* Moves the picture k dot columns to the left (a window moved on): the k
 * newest columns are dark, for canvas_plot_range to draw. */
void canvas_scroll(struct canvas *c, int k);
/* Dot columns [x0, x1) dark. */
void canvas_clear_columns(struct canvas *c, int x0, int x1);
/* One dot (x, y) in role; outside the canvas nothing. */
void canvas_dot(struct canvas *c, int x, int y, enum role role);

/* Plots vals[0..n) (oldest first; the last lands in the rightmost dot
 * column) on a band of `height` dot rows whose zero line is dot row `base`;
 * dir = -1 grows upwards from base, +1 downwards (a mirrored chart's lower
 * half).  ymax is the value at the far edge of the band. */
void canvas_plot(struct canvas *c, const double *vals, int n, double ymax, enum role role,
		 enum chart_mode mode, int base, int dir, int height);
/* The same for values [i0, i1) of vals[0..n) only (a line's first
 * segment joins it to value i0 - 1 as canvas_plot's would): what a
 * scrolled canvas redraws of a series. */
void canvas_plot_range(struct canvas *c, const double *vals, int n, int i0, int i1, double ymax,
		       enum role role, enum chart_mode mode, int base, int dir, int height);
/* A dot row spanning the canvas (an axis line). */
void canvas_hline(struct canvas *c, int dy, enum role role);
/* Draws the canvas into g with its top-left cell at (x, y). */
void canvas_render(const struct canvas *c, struct grid *g, int x, int y);

/* A stacked area drawn straight into g (cw × ch cells at x, y): for cell
 * column i, nser values vals[k][i] (k = 0 at the bottom) stacked up to
 * ymax.  One series per cell, so bands never break into a patchwork: with
 * blocks a band's top is an eighth block (▁▂▃▄▅▆▇█) in its colour, with
 * braille a quarter of the cell's dots, in ASCII the band's letter where it
 * covers at least half the cell.  NAN columns stay blank; a series whose
 * role is `blank` is left empty (headroom can be drawn in a light shade
 * by giving it ROLE_FREE). */
void chart_stack(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs glyphs,
		 const double *const *vals, const enum role *roles, int nser, double ymax);
/* The same with cell column i's values at vals[k][i·step] (the plot's
 * rows, a value a dot column: a cell shows one of them, not a copy). */
void chart_stack_every(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs glyphs,
		       const double *const *vals, int step, const enum role *roles, int nser,
		       double ymax);

#endif
