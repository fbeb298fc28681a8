#include "screen.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>
#include <unistd.h>

#include "theme.h"
#include "util.h"

struct screen {
	SCREEN *sp; /* newterm's, freed by delscreen */
	int open;
	int utf8;
	int ascii;
	enum palette_depth depth;
	attr_t attr[ROLE_COUNT];
	short pair[ROLE_COUNT];
	unsigned char pattern[ROLE_COUNT]; /* palette_look's */
	/* the last frame sent, which the terminal shows: a row equal to it
	 * is skipped whole, in a changed row only the changed cells are sent;
	 * empty (cells NULL) after screen_invalidate */
	struct grid shown;
	unsigned char *dirty; /* grid_dirty_rows' marks, dirty_cap rows */
	int dirty_cap;
};

/* Colour pairs from a theme: role r is pair r + 1, its colour on the
 * theme's background (or the terminal's), each at the colour
 * palette_resolve gives it at the terminal's depth (the nearest, unless a
 * series of its chart has that one), and its pattern. */
static void setup_colors(struct screen *s, const struct theme *th)
{
	int bg = th->term_bg ? -1 : palette_index(s->depth, th->bg);
	/* a terminal's own background is taken for black, as the themes that
	 * keep it are made for dark terminals */
	int on = th->term_bg ? palette_index(s->depth, 0x000000) : bg;
	struct palette_look look;
	palette_resolve(s->depth, th->rgb, th->term_fg, on, &look);
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_style *st = palette_style((enum role)r);
		attr_t a = 0;
		if (st->bold)
			a |= A_BOLD;
		if (st->reverse)
			a |= A_REVERSE;
		if (st->dim && s->depth == PALETTE_MONO)
			a |= A_DIM;
		s->attr[r] = a;
		s->pair[r] = 0;
		s->pattern[r] = look.pattern[r];
		if (s->depth == PALETTE_MONO)
			continue;
		short pair = (short)(r + 1);
		if (init_extended_pair(pair, look.fg[r], bg) == OK)
			s->pair[r] = pair;
	}
}

int screen_check(char *err, size_t errlen)
{
	const char *t = getenv("TERM");
	if (!t || !*t)
		return errf(err, errlen, "TERM is not set: the TUI needs a terminal type "
				"(set TERM, or use --batch)");
	int e = 0;
	/* with &e, setupterm reports instead of printing and exiting */
	if (setupterm((char *)t, STDOUT_FILENO, &e) != OK) {
		if (e == 1)
			return errf(err, errlen, "TERM=%s: a hardcopy terminal, the TUI cannot run "
					"on it (use --batch)", t);
		if (e == 0)
			return errf(err, errlen, "TERM=%s: unknown terminal type (not in the terminfo "
					"database; set TERM, or use --batch)", t);
		return errf(err, errlen, "TERM=%s: no terminfo database found (use --batch)", t);
	}
	const char *cup = tigetstr("cup");
	int dumb = strcmp(t, "dumb") == 0 || !cup || cup == (char *)-1;
	del_curterm(cur_term);
	if (dumb)
		return errf(err, errlen, "TERM=%s: this terminal cannot move the cursor, the TUI "
				"needs that (use --batch)", t);
	return 0;
}

struct screen *screen_open(int ascii, int nocolor, char *err, size_t errlen)
{
	if (screen_check(err, errlen) < 0)
		return NULL;
	struct screen *s = xcalloc(1, sizeof(*s));
	const char *cs = nl_langinfo(CODESET);
	s->utf8 = !ascii && cs && strcmp(cs, "UTF-8") == 0;
	s->ascii = !s->utf8;
	/* newterm, not initscr: initscr prints and exits when it fails */
	s->sp = newterm(NULL, stdout, stdin);
	if (!s->sp) {
		free(s);
		errf(err, errlen, "TERM=%s: cannot initialise the terminal",
		     getenv("TERM") ? getenv("TERM") : "unset");
		return NULL;
	}
	set_term(s->sp);
	s->open = 1;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	/* ncurses otherwise polls the keyboard several times in each
	 * doupdate to cut a frame short for typed keys; ours are small */
	typeahead(-1);
	/* Until the first endwin, ncurses 6.4 flushes its output after every
	 * cursor movement (lib_mvcur.c: _endwin == ewInitial), which made a
	 * frame some thirty write(2)s, each waking the terminal.  One
	 * endwin/refresh cycle here makes a frame one write (or a few, for
	 * one longer than ncurses' buffer). */
	endwin();
	refresh();
	s->depth = PALETTE_MONO;
	if (!nocolor && !ascii && has_colors() && start_color() == OK) {
		use_default_colors();
		s->depth = COLORS > 256 ? PALETTE_DIRECT : COLORS >= 256 ? PALETTE_256 : COLORS >= 16 ? PALETTE_16
			 : COLORS >= 8 ? PALETTE_8 : PALETTE_MONO;
	}
	struct theme th;
	theme_default(&th);
	setup_colors(s, &th);
	return s;
}

void screen_theme(struct screen *s, const struct theme *th)
{
	setup_colors(s, th);
	screen_invalidate(s);
}

void screen_close(struct screen *s)
{
	if (s && s->open) {
		endwin();
		s->open = 0;
	}
}

void screen_free(struct screen *s)
{
	if (!s)
		return;
	screen_close(s);
	if (s->sp)
		delscreen(s->sp);
	grid_done(&s->shown);
	free(s->dirty);
	free(s);
}

void screen_size(struct screen *s, int *w, int *h)
{
	(void)s;
	getmaxyx(stdscr, *h, *w);
}

int screen_utf8(const struct screen *s)
{
	return s->utf8;
}

static wchar_t ascii_standin(uint32_t ch)
{
	if (ch >= 0x2800 && ch <= 0x28ff)
		return '*';
	switch (ch) {
	case 0x2502: return '|';
	case 0x2500: return '-';
	case 0x250c: case 0x2510: case 0x2514: case 0x2518: case 0x253c: return '+';
	case 0x25b2: return '^';
	case 0x25bc: return 'v';
	case 0x25a0: return '#';
	case 0x25b8: return '>';
	case 0x2190: return '<';
	case 0x2192: return '>';
	case 0x2248: return '~'; /* ≈: a cut axis */
	case 0x2580: case 0x2584: case 0x2588: return '#';
	default: return '?';
	}
}

/* A series in palette_resolve's pattern (it shares its colour with one of
 * its chart): a filled braille cell stippled (a checkerboard of its dots),
 * a thin one (a line) dashed, every other column left out; a full block or
 * a legend swatch a shade.  x is the cell's column. */
static uint32_t pattern_glyph(uint32_t ch, int x)
{
	if (ch > 0x2800 && ch <= 0x28ff) {
		unsigned bits = ch - 0x2800, n = 0;
		for (unsigned b = bits; b; b &= b - 1)
			n++;
		if (n >= 4)
			return 0x2800 + (bits & 0x95u ? bits & 0x95u : bits);
		return x & 1 ? ' ' : ch;
	}
	if (ch == 0x2588 || ch == 0x25a0)
		return 0x2592; /* ▒ */
	return ch;
}

static void put_cell(struct screen *s, int x, int y, const struct cell *c)
{
	unsigned role = c->role < ROLE_COUNT ? c->role : ROLE_DEFAULT;
	uint32_t ch = c->ch ? c->ch : ' ';
	if (s->pattern[role])
		ch = pattern_glyph(ch, x);
	wchar_t wc[2] = {(wchar_t)ch, 0};
	if (ch < 0x20 || ch == 0x7f)
		wc[0] = ' ';
	else if (ch >= 0x80 && s->ascii)
		wc[0] = s->pattern[role] && (ch >> 8 == 0x28 || (ch >= 0x2580 && ch <= 0x25a0))
			? ':'
			: ascii_standin(ch);
	cchar_t cc;
	setcchar(&cc, wc, s->attr[role], s->pair[role], NULL);
	mvadd_wch(y, x, &cc);
}

void screen_draw(struct screen *s, const struct grid *g)
{
	int w, h;
	getmaxyx(stdscr, h, w);
	if (s->dirty_cap < g->h) {
		free(s->dirty);
		s->dirty = xcalloc((size_t)g->h, 1);
		s->dirty_cap = g->h;
	}
	int same = s->shown.cells && s->shown.w == g->w && s->shown.h == g->h;
	/* a new size (SIGWINCH) or a forgotten screen (theme, ^L): the
	 * terminal is repainted whole, not only where our frames differ */
	if (!same)
		clearok(curscr, TRUE);
	if (grid_dirty_rows(g, &s->shown, s->dirty) == 0)
		return; /* nothing changed: no curses work, no write */
	for (int y = 0; y < g->h && y < h; y++) {
		if (!s->dirty[y])
			continue;
		const struct cell *row = g->cells + (size_t)y * (size_t)g->w;
		struct cell *was = same ? s->shown.cells + (size_t)y * (size_t)g->w : NULL;
		for (int x = 0; x < g->w && x < w; x++)
			if (!was || row[x].ch != was[x].ch || row[x].role != was[x].role)
				put_cell(s, x, y, &row[x]);
		if (was) /* only the rows that changed are copied */
			memcpy(was, row, (size_t)g->w * sizeof(*row));
	}
	if (!same)
		grid_copy(&s->shown, g);
	wnoutrefresh(stdscr);
	doupdate();
}

int screen_key(struct screen *s)
{
	wint_t wc;
	int r = get_wch(&wc);
	if (r == ERR)
		return SKEY_NONE;
	if (r == KEY_CODE_YES) {
		switch (wc) {
		case KEY_LEFT: return SKEY_LEFT;
		case KEY_RIGHT: return SKEY_RIGHT;
		case KEY_UP: return SKEY_UP;
		case KEY_DOWN: return SKEY_DOWN;
		case KEY_PPAGE: return SKEY_PGUP;
		case KEY_NPAGE: return SKEY_PGDN;
		/* Find / Select: the VT220 Home / End (\e[1~ \e[4~), which tmux,
		 * PuTTY and the Linux console send where an xterm TERM names them
		 * so */
		case KEY_HOME: case KEY_FIND: return SKEY_HOME;
		case KEY_END: case KEY_SELECT: return SKEY_END;
		case KEY_RESIZE:
			/* SIGWINCH: the terminal may have reflowed or cleared
			 * what it showed, even if the size came back the same */
			screen_invalidate(s);
			return SKEY_RESIZE;
		case KEY_ENTER: return SKEY_ENTER;
		case KEY_BACKSPACE: return SKEY_BACKSPACE;
		default: return 0; /* a key we do not use */
		}
	}
	if (wc == '\r' || wc == '\n')
		return SKEY_ENTER;
	if (wc == 27)
		return SKEY_ESC;
	if (wc == 127 || wc == 8)
		return SKEY_BACKSPACE;
	return (int)wc;
}

void screen_invalidate(struct screen *s)
{
	grid_done(&s->shown);
	clearok(curscr, TRUE);
}
