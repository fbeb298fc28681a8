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
 * is reused across ticks (allocated only when its size changes).
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
	uint8_t *dots;	  /* role + 1, or 0 */
	size_t cap;
	int top_wins; /* a cell takes its highest role, not its majority:
			 a line stays visible across a filled area */
};

void canvas_init(struct canvas *c);
void canvas_done(struct canvas *c);
/* Sets the size and clears; reallocates only when it grows. */
void canvas_reset(struct canvas *c, enum chart_glyphs glyphs, int cw, int ch);

/* Plots vals[0..n) (oldest first; the last lands in the rightmost dot
 * column) on a band of `height` dot rows whose zero line is dot row `base`;
 * dir = -1 grows upwards from base, +1 downwards (a mirrored chart's lower
 * half).  ymax is the value at the far edge of the band. */
void canvas_plot(struct canvas *c, const double *vals, int n, double ymax, enum role role,
		 enum chart_mode mode, int base, int dir, int height);
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

#endif
