#include "screen/screen.h"

#include <errno.h>
#include <langinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>
#include <term.h>
#include <unistd.h>

#include "screen/theme.h"
#include "base/util.h"

/* Bytes of a frame collected before one write(2): a busy 200x50 frame of
 * the Overview is 1-3 KB, a whole repaint ~40 KB (a few writes). */
#define OUT_CAP 16384
/* Bytes of unchanged cells a span of changed ones runs on over rather
 * than moving the cursor on: a cuf is 3-5 bytes, a cell 1-3. */
#define SPAN_GAP 4
/* One role's whole SGR string: sgr0, bold, rev, dim, setaf, setab. */
#define SGR_CAP 96

/* Frames go to the terminal from here, not through curses' doupdate: the
 * grid already knows which cells changed (grid_dirty_rows and a cell
 * compare against the frame shown), so what doupdate would redo — its own
 * diff, a cost model over cursor movements (_nc_tiparm for each
 * candidate) and an SGR built per colour change — is three quarters of
 * what the TUI spent (perf, bench/README.md).  Each role's SGR is made
 * once from terminfo when the colours are set; a span of changed cells is
 * one cursor address and its glyphs.  curses keeps the rest: the terminal
 * modes, keys, resize, and endwin (it believes the screen blank; nothing
 * but screen_key's get_wch after a resize makes it draw, and a resize
 * repaints everything after it). */
struct screen {
	SCREEN *sp; /* newterm's, freed by delscreen */
	int open;
	int utf8;
	int ascii;
	enum palette_depth depth;
	unsigned char pattern[ROLE_COUNT]; /* palette_look's */
	char sgr[ROLE_COUNT][SGR_CAP];
	/* from a role of the same attributes: its colour alone (setaf; op
	 * and setab for the terminal's own foreground) */
	char col[ROLE_COUNT][SGR_CAP];
	unsigned char attrs[ROLE_COUNT]; /* bold 1, reverse 2, dim 4 */
	/* a space in this role looks the same in the SGR of any other such
	 * role (no reverse: every role has the one background), so a blank
	 * cell keeps the SGR of its neighbour: fewer SGR changes to send */
	unsigned char plain_blank[ROLE_COUNT];
	int cur;	 /* the role whose SGR the terminal has, -1: unknown */
	int ansi_cup;	 /* cup is CSI row;col H: formatted here, not by tiparm */
	int ansi_cuf;	 /* cuf is CSI n C: a move on along the row */
	int cy, cx;	 /* where the cursor is after the last span, cx -1: unknown */
	int skip_corner; /* am without xenl: the bottom-right cell would scroll */
	int fd;
	int lost; /* a write of a frame failed: draw the next one whole */
	char out[OUT_CAP];
	size_t len;
	/* the last frame sent, which the terminal shows: a row equal to it
	 * is skipped whole, in a changed row only the changed cells are sent;
	 * empty (cells NULL) after screen_invalidate */
	struct grid shown;
	unsigned char *dirty; /* grid_dirty_rows' marks, dirty_cap rows */
	int dirty_cap;
};

/* A terminfo string the terminal has: neither absent nor cancelled. */
static int cap_ok(const char *cap)
{
	return cap && cap != (const char *)-1;
}

/* The length of a terminfo padding at p ("$<5>", "$<2.5*>": a delay for
 * tputs to make, not bytes for the terminal), 0 when p is none. */
static size_t pad_len(const char *p)
{
	if (p[0] != '$' || p[1] != '<')
		return 0;
	size_t n = 2;
	while (p[n] && strchr("0123456789.*/", p[n]))
		n++;
	return p[n] == '>' && n > 2 ? n + 1 : 0;
}

/* Appends terminfo string cap (absent: nothing) to dst, without its
 * paddings: no terminal lrutop draws on needs the delays. */
static void sgr_cat(char *dst, const char *cap)
{
	if (!cap_ok(cap))
		return;
	size_t d = strlen(dst);
	for (const char *p = cap; *p && d + 1 < SGR_CAP;) {
		size_t pad = pad_len(p);
		if (pad) {
			p += pad;
			continue;
		}
		dst[d++] = *p++;
	}
	dst[d] = '\0';
}

/* Each role's SGR from a theme: the attributes of its style, its colour
 * on the theme's background (or the terminal's), each at the colour
 * palette_resolve gives it at the terminal's depth (the nearest, unless a
 * series of its chart has that one), and its pattern.  sgr0 first, so a
 * role's string sets all of the terminal's state whatever it had. */
static void setup_colors(struct screen *s, const struct theme *th)
{
	int bg = th->term_bg ? -1 : palette_index(s->depth, th->bg);
	/* a terminal's own background is taken for black, as the themes that
	 * keep it are made for dark terminals */
	int on = th->term_bg ? palette_index(s->depth, 0x000000) : bg;
	struct palette_look look;
	palette_resolve(s->depth, th->rgb, th->term_fg, on, &look);
	int colour = s->depth != PALETTE_MONO && cap_ok(set_a_foreground) && cap_ok(set_a_background);
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_style *st = palette_style((enum role)r);
		char *q = s->sgr[r];
		q[0] = '\0';
		sgr_cat(q, exit_attribute_mode);
		if (st->bold)
			sgr_cat(q, enter_bold_mode);
		if (st->reverse)
			sgr_cat(q, enter_reverse_mode);
		if (st->dim && s->depth == PALETTE_MONO)
			sgr_cat(q, enter_dim_mode);
		s->attrs[r] = (unsigned char)((st->bold ? 1 : 0) | (st->reverse ? 2 : 0) |
					      (st->dim && s->depth == PALETTE_MONO ? 4 : 0));
		char *c = s->col[r];
		c[0] = '\0';
		if (colour && look.fg[r] >= 0) {
			sgr_cat(q, tiparm(set_a_foreground, look.fg[r]));
			sgr_cat(c, tiparm(set_a_foreground, look.fg[r]));
		} else if (colour) {
			sgr_cat(c, orig_pair);
		}
		if (colour && bg >= 0) {
			sgr_cat(q, tiparm(set_a_background, bg));
			if (look.fg[r] < 0)
				sgr_cat(c, tiparm(set_a_background, bg));
		}
		/* no op on this terminal: the whole string */
		if (colour && look.fg[r] < 0 && !cap_ok(orig_pair))
			strcpy(c, q);
		s->plain_blank[r] = !st->reverse;
		s->pattern[r] = look.pattern[r];
	}
	s->cur = -1;
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
	 * cursor movement (lib_mvcur.c: _endwin == ewInitial): a repaint of
	 * its own (the blank screen get_wch refreshes after a resize) would
	 * be some thirty write(2)s.  One endwin/refresh cycle here makes it
	 * one write, and leaves the terminal set up for screen_draw. */
	endwin();
	refresh();
	s->depth = PALETTE_MONO;
	if (!nocolor && !ascii && has_colors() && start_color() == OK) {
		use_default_colors();
		s->depth = COLORS > 256 ? PALETTE_DIRECT : COLORS >= 256 ? PALETTE_256 : COLORS >= 16 ? PALETTE_16
			 : COLORS >= 8 ? PALETTE_8 : PALETTE_MONO;
	}
	s->fd = STDOUT_FILENO;
	/* the cup of xterm, tmux, screen, the Linux console and most others */
	s->ansi_cup = cap_ok(cursor_address) && strcmp(cursor_address, "\033[%i%p1%d;%p2%dH") == 0;
	s->ansi_cuf = s->ansi_cup && cap_ok(parm_right_cursor) &&
		      strcmp(parm_right_cursor, "\033[%p1%dC") == 0;
	s->cx = -1;
	s->skip_corner = auto_right_margin && !eat_newline_glitch;
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

static void out_flush(struct screen *s);
static void out_str(struct screen *s, const char *str);

void screen_close(struct screen *s)
{
	if (s && s->open) {
		/* curses believes the attributes normal: make them so */
		out_str(s, exit_attribute_mode);
		out_flush(s);
		endwin();
		s->open = 0;
	}
}

void screen_resume(struct screen *s)
{
	if (s->open)
		return;
	s->open = 1;
	refresh(); /* curses' own state back: modes, alternate screen, a blank */
	screen_invalidate(s);
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

/* What the terminal is sent for cell c at column x: a code point, ASCII
 * when the terminal is not UTF-8. */
static uint32_t cell_glyph(const struct screen *s, int x, const struct cell *c, unsigned role)
{
	uint32_t ch = c->ch ? c->ch : ' ';
	if (s->pattern[role])
		ch = pattern_glyph(ch, x);
	if (text_ctrl(ch))
		return ' ';
	if (ch >= 0x80 && s->ascii)
		return s->pattern[role] && (ch >> 8 == 0x28 || (ch >= 0x2580 && ch <= 0x25a0))
			? ':'
			: (uint32_t)ascii_standin(ch);
	return ch;
}

/* Sends what the frame collected; a terminal gone (EIO, EPIPE) loses it,
 * and the loop sees the hang-up on its input. */
static void out_flush(struct screen *s)
{
	size_t done = 0;
	while (done < s->len) {
		ssize_t n = write(s->fd, s->out + done, s->len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* what the terminal shows is not known now: the next
			 * frame is drawn whole (screen_present) */
			s->lost = 1;
			break;
		}
		done += (size_t)n;
	}
	s->len = 0;
}

static void out_bytes(struct screen *s, const char *b, size_t n)
{
	if (s->len + n > sizeof(s->out))
		out_flush(s);
	memcpy(s->out + s->len, b, n);
	s->len += n;
}

static void out_str(struct screen *s, const char *str)
{
	if (!cap_ok(str))
		return;
	/* a run at a time, the paddings left out (sgr_cat) */
	for (const char *p = str; *p;) {
		size_t pad = pad_len(p), n = 0;
		if (pad) {
			p += pad;
			continue;
		}
		while (p[n] && !pad_len(p + n))
			n++;
		out_bytes(s, p, n);
		p += n;
	}
}

/* The cursor to (x, y): on along the row from the last span's end when
 * that is shorter, else an address. */
static void out_move(struct screen *s, int y, int x)
{
	if (!s->ansi_cup) {
		out_str(s, tiparm(cursor_address, y, x));
		return;
	}
	char b[24];
	int n;
	if (s->ansi_cuf && y == s->cy && s->cx >= 0 && x > s->cx)
		n = snprintf(b, sizeof(b), "\033[%dC", x - s->cx);
	else
		n = snprintf(b, sizeof(b), "\033[%d;%dH", y + 1, x + 1);
	out_bytes(s, b, (size_t)n);
}

/* Cells [x0, x1) of row y: one cursor address, then each cell's glyph
 * after its role's SGR when that differs from the terminal's (a blank
 * keeps any SGR without reverse). */
static void out_span(struct screen *s, const struct cell *row, int y, int x0, int x1, int w)
{
	out_move(s, y, x0);
	for (int x = x0; x < x1; x++) {
		unsigned role = row[x].role < ROLE_COUNT ? row[x].role : ROLE_DEFAULT;
		uint32_t ch = cell_glyph(s, x, &row[x], role);
		int keep = ch == ' ' && s->cur >= 0 && s->plain_blank[role] && s->plain_blank[s->cur];
		if ((int)role != s->cur && !keep) {
			int same = s->cur >= 0 && s->attrs[s->cur] == s->attrs[role];
			/* made without paddings (sgr_cat): as they are */
			const char *sgr = same ? s->col[role] : s->sgr[role];
			out_bytes(s, sgr, strlen(sgr));
			s->cur = (int)role;
		}
		char u[4];
		out_bytes(s, u, (size_t)utf8_encode(ch, u));
	}
	s->cy = y;
	s->cx = x1 < w ? x1 : -1; /* at the edge: a wrap pending, or not */
}

/* What writing an unchanged cell costs: its UTF-8 bytes, and more than a
 * move when its role is another than the one before it. */
static int gap_bytes(const struct cell *row, int i)
{
	if (row[i].role != row[i - 1].role && row[i].ch && row[i].ch != ' ')
		return SPAN_GAP + 1;
	return row[i].ch < 0x80 ? 1 : row[i].ch < 0x800 ? 2 : 3;
}

/* Row y's cells that differ from was (all when was is NULL), in spans
 * that run over short stretches of unchanged cells. */
static void out_row(struct screen *s, const struct cell *row, const struct cell *was, int y, int w)
{
	for (int x = 0; x < w;) {
		if (was && row[x].ch == was[x].ch && row[x].role == was[x].role) {
			x++;
			continue;
		}
		int end = x + 1, gap = 0;
		for (int i = end; i < w && gap <= SPAN_GAP; i++) {
			if (!was || row[i].ch != was[i].ch || row[i].role != was[i].role) {
				end = i + 1;
				gap = 0;
			} else {
				gap += gap_bytes(row, i);
			}
		}
		out_span(s, row, y, x, end, w);
		x = end;
	}
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
	if (grid_dirty_rows(g, &s->shown, s->dirty) == 0)
		return; /* nothing changed: no write */
	if (!same) {
		/* a new size (SIGWINCH) or a forgotten screen (theme, ^L):
		 * repainted whole, not only where our frames differ */
		s->cur = -1;
		s->cx = -1;
		out_str(s, exit_attribute_mode);
		out_str(s, clear_screen);
	}
	int cw = g->w < w ? g->w : w;
	for (int y = 0; y < g->h && y < h; y++) {
		if (!s->dirty[y])
			continue;
		const struct cell *row = g->cells + (size_t)y * (size_t)g->w;
		struct cell *was = same ? s->shown.cells + (size_t)y * (size_t)g->w : NULL;
		out_row(s, row, was, y, y == h - 1 && s->skip_corner ? cw - 1 : cw);
		if (was) /* only the rows that changed are copied */
			memcpy(was, row, (size_t)g->w * sizeof(*row));
	}
	if (!same)
		grid_copy(&s->shown, g);
	out_flush(s);
	if (s->lost) {
		s->lost = 0;
		screen_invalidate(s);
	}
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
}
