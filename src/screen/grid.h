/*
 * grid — an in-memory screen of cells (a code point and a colour role each).
 *
 * Views and charts draw into a grid; only screen.c copies a grid to the
 * terminal, and tests compare grid_dump() text.  This is tmux's
 * screen-write → screen split: nothing here knows about curses.
 *
 * Invariants: every cell holds exactly one column-wide code point (0 is
 * drawn as a space); writes outside the grid are clipped silently, so draw
 * code never has to bounds-check.
 */
#ifndef LRUTOP_GRID_H
#define LRUTOP_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "screen/palette.h"

/* Four bytes, no padding (rows compare with memcmp): a 200x50 grid is
 * 40 KB, and a frame clears, draws and compares two of them — after the
 * 250 ms between ticks that much memory is out of every cache. */
struct cell {
	uint32_t ch : 24;  /* a code point (Unicode's 21 bits) */
	uint32_t role : 8; /* enum role */
};

struct grid {
	int w, h;
	struct cell *cells;
};

void grid_init(struct grid *g, int w, int h);
void grid_done(struct grid *g);
/* Resizes (contents lost) only if the size changed. */
void grid_resize(struct grid *g, int w, int h);
void grid_clear(struct grid *g);
/* NULL outside.  Inline, as grid_put: the views call them for most of a
 * frame's 10 000 cells. */
static inline struct cell *grid_at(struct grid *g, int x, int y)
{
	if (x < 0 || y < 0 || x >= g->w || y >= g->h)
		return NULL;
	return &g->cells[(size_t)y * (size_t)g->w + (size_t)x];
}

static inline void grid_put(struct grid *g, int x, int y, uint32_t ch, enum role role)
{
	struct cell *c = grid_at(g, x, y);
	if (c) {
		c->ch = ch;
		c->role = (uint8_t)role;
	}
}
/* Writes UTF-8 text at (x, y), clipped at max_w columns (or the grid's edge
 * when max_w < 0); returns the number of columns written. */
int grid_text(struct grid *g, int x, int y, int max_w, enum role role, const char *utf8);
int grid_printf(struct grid *g, int x, int y, enum role role, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch, enum role role);
/* Sets the role of every cell in a rectangle (e.g. a highlighted row). */
void grid_paint(struct grid *g, int x, int y, int w, int h, enum role role);

/* A cleared box with a single-line border and a title in its top edge (the
 * help and picker overlays). */
void grid_box(struct grid *g, int x, int y, int w, int h, const char *title);

/* Marks in dirty[0..g->h-1] the rows of g that differ from prev (1) or
 * not (0) and returns how many differ: every row when prev is empty or of
 * another size (the screen after a resize, a theme change or ^L).  This is
 * how screen.c sends only the lines that changed, as tmux redraws per pane
 * and line. */
int grid_dirty_rows(const struct grid *g, const struct grid *prev, unsigned char *dirty);
/* dst becomes a copy of src (resized if need be). */
void grid_copy(struct grid *dst, const struct grid *src);

/* The grid as UTF-8 text, one line per row, trailing spaces trimmed.
 * Caller frees. */
char *grid_dump(const struct grid *g);

#endif
