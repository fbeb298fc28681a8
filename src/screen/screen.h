/*
 * screen — the only module that talks to the terminal (curses).
 *
 * It copies a grid to the terminal, maps colour roles to SGR strings from
 * terminfo at the depth the terminal offers, reads keys, and restores the
 * terminal.  curses sets the terminal up, reads keys and restores it; the
 * frames are written here (a diff against the frame shown, one write).
 *
 * Invariants: screen_close is idempotent and safe on every exit path; after
 * it the terminal is in the state it was found in.  In ASCII mode (--ascii,
 * or a locale that is not UTF-8) every non-ASCII code point in the grid is
 * replaced by an ASCII stand-in, so line-drawing and arrows never print as
 * mojibake.
 */
#ifndef LRUTOP_SCREEN_H
#define LRUTOP_SCREEN_H

#include <stddef.h>

#include "screen/grid.h"
#include "screen/palette.h"

enum screen_key {
	SKEY_NONE = -1,
	SKEY_LEFT = 0x110000, /* above every Unicode code point */
	SKEY_RIGHT,
	SKEY_UP,
	SKEY_DOWN,
	SKEY_PGUP,
	SKEY_PGDN,
	SKEY_HOME,
	SKEY_END,
	SKEY_RESIZE,
	SKEY_ENTER,
	SKEY_ESC,
	SKEY_BACKSPACE,
};

struct screen;
struct theme;

/* 0 when the TUI can run on $TERM; -1 + err naming TERM and the reason
 * (unset, unknown, no terminfo, cannot address the cursor: TERM=dumb).
 * Touches nothing on the screen: main calls it before anything is made. */
int screen_check(char *err, size_t errlen);
/* ascii: force ASCII glyphs and no colour; nocolor: attributes only.
 * NULL + err (screen_check's, or newterm failing). */
struct screen *screen_open(int ascii, int nocolor, char *err, size_t errlen);
/* Colours from th from now on (NO_COLOR, --ascii and monochrome terminals
 * keep attributes only); the next draw repaints every cell. */
void screen_theme(struct screen *s, const struct theme *th);
void screen_close(struct screen *s);
/* After screen_close (a suspend): the terminal set up again, the next
 * draw repaints every cell. */
void screen_resume(struct screen *s);
void screen_free(struct screen *s);
void screen_size(struct screen *s, int *w, int *h);
/* 1 if the terminal can show UTF-8 (braille, box drawing). */
int screen_utf8(const struct screen *s);
/* Sends g to the terminal: only the rows that differ from the last frame
 * sent, and in them the spans of cells that changed (grid_dirty_rows, then
 * cell by cell), each span one cursor address; one write(2) for a frame
 * under 16 KB, nothing at all when no row changed.  A new size or a
 * screen_invalidate/screen_theme clears and repaints every cell. */
void screen_draw(struct screen *s, const struct grid *g);
/* Forgets what the terminal shows: the next draw sends every cell (^L). */
void screen_invalidate(struct screen *s);
/* Next key (a code point or SKEY_*), SKEY_NONE when none is waiting.
 * SKEY_RESIZE (SIGWINCH) also does screen_invalidate: the next draw
 * repaints every cell, whatever the new size. */
int screen_key(struct screen *s);

#endif
