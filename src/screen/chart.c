#include "screen/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

void canvas_init(struct canvas *c)
{
	memset(c, 0, sizeof(*c));
}

void canvas_done(struct canvas *c)
{
	free(c->dots);
	free(c->lit);
	canvas_init(c);
}

/* Column x's dots (dh of them, top first) and its lit span. */
static uint8_t *column_dots(const struct canvas *c, int x)
{
	return c->dots + (size_t)(c->off + x) * (size_t)c->dh;
}

static int *column_lit(const struct canvas *c, int x)
{
	return c->lit + 2 * (size_t)(c->off + x);
}

/* Columns [x0, x1) of the room (not the window: off is not added) dark:
 * only their lit spans are cleared, the dots outside a span being 0. */
static void clear_room(struct canvas *c, int x0, int x1)
{
	for (int x = x0; x < x1; x++) {
		int *l = c->lit + 2 * (size_t)x;
		if (l[0] <= l[1])
			memset(c->dots + (size_t)x * (size_t)c->dh + l[0], 0,
			       (size_t)(l[1] - l[0] + 1));
		l[0] = c->dh;
		l[1] = -1;
	}
}

void canvas_reset(struct canvas *c, enum chart_glyphs glyphs, int cw, int ch)
{
	int xd = glyphs == CHART_BRAILLE ? 2 : 1;
	int yd = glyphs == CHART_BRAILLE ? 4 : glyphs == CHART_BLOCK ? 2 : 1;
	cw = cw > 0 ? cw : 0;
	ch = ch > 0 ? ch : 0;
	c->top_wins = 0;
	c->glyphs = glyphs;
	if (c->dots && c->cw == cw && c->ch == ch && c->xdots == xd && c->ydots == yd) {
		clear_room(c, c->off, c->off + c->dw);
		return;
	}
	c->xdots = xd;
	c->ydots = yd;
	c->cw = cw;
	c->ch = ch;
	c->dw = c->cw * c->xdots;
	c->dh = c->ch * c->ydots;
	c->room = 2 * c->dw;
	c->off = 0;
	size_t need = (size_t)c->room * (size_t)c->dh + 1;
	if (need > c->cap) {
		free(c->dots);
		c->dots = xmalloc(need);
		c->cap = need;
	}
	memset(c->dots, 0, need);
	if ((size_t)c->room + 1 > c->litcap) {
		free(c->lit);
		c->litcap = (size_t)c->room + 1;
		c->lit = xmalloc(sizeof(int) * 2 * c->litcap);
	}
	for (int x = 0; x <= c->room; x++) {
		c->lit[2 * x] = c->dh;
		c->lit[2 * x + 1] = -1;
	}
}

void canvas_scroll(struct canvas *c, int k)
{
	if (k <= 0)
		return;
	if (k >= c->dw) {
		clear_room(c, c->off, c->off + c->dw);
		return;
	}
	/* the columns that go are cleared; those that come are beyond the
	 * window, where the room is dark */
	clear_room(c, c->off, c->off + k);
	c->off += k;
	if (c->off + c->dw <= c->room)
		return;
	/* the room is used up: the window back to its start (once every dw
	 * columns) — its columns but the k new ones, which are dark; the
	 * copies the move leaves where they were are cleared by their
	 * spans, which the move does not reach */
	size_t dh = (size_t)c->dh, keep = (size_t)(c->dw - k), off = (size_t)c->off;
	memmove(c->dots, c->dots + off * dh, keep * dh);
	memmove(c->lit, c->lit + 2 * off, sizeof(int) * 2 * keep);
	clear_room(c, off > keep ? (int)off : (int)keep, (int)(off + keep));
	c->off = 0;
}

void canvas_clear_columns(struct canvas *c, int x0, int x1)
{
	x0 = x0 < 0 ? 0 : x0;
	x1 = x1 > c->dw ? c->dw : x1;
	if (x0 < x1)
		clear_room(c, c->off + x0, c->off + x1);
}

static void dot(struct canvas *c, int x, int y, enum role role)
{
	if (x >= 0 && y >= 0 && x < c->dw && y < c->dh) {
		column_dots(c, x)[y] = (uint8_t)(role + 1);
		int *l = column_lit(c, x);
		l[0] = y < l[0] ? y : l[0];
		l[1] = y > l[1] ? y : l[1];
	}
}

static void vspan(struct canvas *c, int x, int y0, int y1, enum role role)
{
	if (y0 > y1) {
		int t = y0;
		y0 = y1;
		y1 = t;
	}
	if (x < 0 || x >= c->dw)
		return;
	y0 = y0 < 0 ? 0 : y0;
	y1 = y1 >= c->dh ? c->dh - 1 : y1;
	if (y0 > y1)
		return;
	memset(column_dots(c, x) + y0, (int)(role + 1), (size_t)(y1 - y0 + 1));
	int *l = column_lit(c, x);
	l[0] = y0 < l[0] ? y0 : l[0];
	l[1] = y1 > l[1] ? y1 : l[1];
}

void canvas_dot(struct canvas *c, int x, int y, enum role role)
{
	dot(c, x, y, role);
}

/* lround(x) for 0 <= x < 2^52, without the call: the part after the
 * point is exact, and half rounds up as lround's does away from 0. */
static int round_up_half(double x)
{
	int r = (int)x;
	return r + (x - (double)r >= 0.5);
}

/* The dot row value v reaches (0..height levels, 0 draws nothing in an
 * area, the base row in a line; any non-zero value lights at least one
 * dot, so a trickle of I/O is visible): its y, and the level in *lvl;
 * -1 for a gap (NAN or below 0). */
static int level_y(double v, double ymax, int height, int base, int dir, int *lvl)
{
	if (isnan(v) || v < 0)
		return -1;
	double f = v / ymax;
	if (f > 1)
		f = 1;
	int l = round_up_half(f * height);
	if (l == 0 && v > 0)
		l = 1;
	*lvl = l;
	return base + dir * (l > 0 ? l - 1 : 0);
}

void canvas_plot_range(struct canvas *c, const double *vals, int n, int i0, int i1, double ymax,
		       enum role role, enum chart_mode mode, int base, int dir, int height)
{
	if (height <= 0 || !(ymax > 0))
		return;
	int first = n > c->dw ? n - c->dw : 0, lvl;
	i0 = i0 > first ? i0 : first;
	i1 = i1 < n ? i1 : n;
	int prev_y = 0, have_prev = 0;
	if (i0 > first && (prev_y = level_y(vals[i0 - 1], ymax, height, base, dir, &lvl)) >= 0)
		have_prev = 1;
	for (int i = i0; i < i1; i++) {
		int x = c->dw - (n - i);
		int y = level_y(vals[i], ymax, height, base, dir, &lvl);
		if (y < 0) {
			have_prev = 0;
			continue;
		}
		if (mode == CHART_AREA) {
			if (lvl > 0)
				vspan(c, x, base, y, role);
		} else {
			if (have_prev)
				vspan(c, x,
				      prev_y + (y > prev_y   ? 1
						: y < prev_y ? -1
							     : 0),
				      y, role);
			else
				dot(c, x, y, role);
		}
		prev_y = y;
		have_prev = 1;
	}
}

void canvas_plot(struct canvas *c, const double *vals, int n, double ymax, enum role role,
		 enum chart_mode mode, int base, int dir, int height)
{
	canvas_plot_range(c, vals, n, 0, n, ymax, role, mode, base, dir, height);
}

void canvas_hline(struct canvas *c, int dy, enum role role)
{
	for (int x = 0; x < c->dw; x++)
		dot(c, x, dy, role);
}

/* Braille dot bits for (column, row) within a cell. */
static const uint8_t braille_bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};

static uint32_t ascii_glyph(enum role r)
{
	switch (r) {
	case ROLE_READ:
		return 'r';
	case ROLE_WRITE:
		return 'w';
	case ROLE_DISK_READ: /* the device's total behind the run's own */
	case ROLE_DISK_WRITE:
		return ':';
	case ROLE_ACTIVE:
		return 'A';
	case ROLE_INACTIVE:
		return 'i';
	case ROLE_ANON:
		return 'a';
	case ROLE_FREE:
		return '.';
	case ROLE_AXIS:
		return '-';
	case ROLE_DEACT:
		return 'D';
	case ROLE_ACT:
		return '+';
	case ROLE_SCAN:
		return 's';
	case ROLE_REFAULT:
		return 'f';
	default:
		return '#';
	}
}

/* The role of a cell from its lit dots (role + 1 each, at most 8): the
 * role owning most of them, ties to the higher (later, more specific
 * series); with top_wins the highest. */
static enum role cell_role(const uint8_t *lit, int nlit, int top_wins)
{
	int best = 0, best_n = 0;
	for (int k = 0; k < nlit && top_wins; k++)
		best = lit[k] > best ? lit[k] : best;
	for (int k = 0; k < nlit && !top_wins; k++) {
		int n = 0;
		for (int l = 0; l < nlit; l++)
			n += lit[l] == lit[k];
		if (n > best_n || (n == best_n && lit[k] > best)) {
			best = lit[k];
			best_n = n;
		}
	}
	return (enum role)(best - 1);
}

/* The cell rows [*r0, *r1] that columns [x, x + w) have dots in; 0 when
 * none. */
static int lit_rows(const struct canvas *c, int x, int w, int *r0, int *r1)
{
	int lo = c->dh, hi = -1;
	for (int i = 0; i < w; i++) {
		const int *l = column_lit(c, x + i);
		lo = l[0] < lo ? l[0] : lo;
		hi = l[1] > hi ? l[1] : hi;
	}
	if (lo > hi)
		return 0;
	*r0 = lo / c->ydots;
	*r1 = hi / c->ydots;
	return 1;
}

/* A cell's four dots of one column (rows top first) as a word, the top
 * row in the low byte. */
static uint32_t dots4(const uint8_t *d)
{
	return (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
}

/* 0x80 in each byte of w that is not 0. */
static uint32_t lit_bytes(uint32_t w)
{
	return (((w & 0x7f7f7f7fu) + 0x7f7f7f7fu) | w) & 0x80808080u;
}

/* Braille (2 × 4 dots a cell, the default): the same as the general
 * loop below with the cell's shape known — a cell's eight dots are two
 * words, one from each of its columns, its bits and whether one series
 * owns all of them a few operations on those — and only the cells in its
 * columns' lit rows looked at; an Overview at 200×50 has ~6000 chart
 * cells, drawn every tick. */
static void render_braille(const struct canvas *c, struct grid *g, int x, int y)
{
	/* the bits of a column's lit rows (bit j: row j), left and right */
	static const uint8_t left[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
					 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47};
	static const uint8_t right[16] = {0x00, 0x08, 0x10, 0x18, 0x20, 0x28, 0x30, 0x38,
					  0x80, 0x88, 0x90, 0x98, 0xa0, 0xa8, 0xb0, 0xb8};
	for (int cx = 0; cx < c->cw; cx++) {
		int r0, r1, gx = x + cx;
		if (gx < 0 || gx >= g->w || !lit_rows(c, 2 * cx, 2, &r0, &r1))
			continue;
		const uint8_t *a = column_dots(c, 2 * cx), *b = column_dots(c, 2 * cx + 1);
		for (int cy = r0; cy <= r1 && cy < c->ch; cy++) {
			int gy = y + cy;
			uint32_t wa = dots4(a + 4 * cy), wb = dots4(b + 4 * cy);
			if (!(wa | wb) || gy < 0 || gy >= g->h)
				continue;
			uint32_t la = lit_bytes(wa), lb = lit_bytes(wb);
			unsigned ma =
			    (la >> 7 & 1) | (la >> 14 & 2) | (la >> 21 & 4) | (la >> 28 & 8);
			unsigned mb =
			    (lb >> 7 & 1) | (lb >> 14 & 2) | (lb >> 21 & 4) | (lb >> 28 & 8);
			/* the first lit dot's role + 1, and whether every lit dot has it */
			uint32_t first = la ? wa >> (__builtin_ctz(la) - 7) & 0xff
					    : wb >> (__builtin_ctz(lb) - 7) & 0xff;
			uint32_t rep = first * 0x01010101u;
			int mixed = ((lit_bytes(wa ^ rep) & la) | (lit_bytes(wb ^ rep) & lb)) != 0;
			struct cell *cell = &g->cells[(size_t)gy * (size_t)g->w + (size_t)gx];
			cell->ch = 0x2800u + (uint32_t)(left[ma] | right[mb]);
			if (!mixed) { /* most cells are one series' dots: no vote */
				cell->role = (uint8_t)(first - 1);
				continue;
			}
			uint8_t lit[8];
			int nlit = 0;
			for (int k = 0; k < 8; k++) {
				uint8_t d = k < 4 ? a[4 * cy + k] : b[4 * cy + k - 4];
				if (d)
					lit[nlit++] = d;
			}
			cell->role = (uint8_t)cell_role(lit, nlit, c->top_wins);
		}
	}
}

void canvas_render(const struct canvas *c, struct grid *g, int x, int y)
{
	if (c->glyphs == CHART_BRAILLE && c->xdots == 2 && c->ydots == 4) {
		render_braille(c, g, x, y);
		return;
	}
	for (int cx = 0; cx < c->cw; cx++) {
		int r0, r1;
		if (!lit_rows(c, cx * c->xdots, c->xdots, &r0, &r1))
			continue;
		for (int cy = r0; cy <= r1 && cy < c->ch; cy++) {
			/* Collect the cell's lit dots first: the majority vote
			 * only ever looks at <= 8 values. */
			uint8_t lit[8];
			int nlit = 0;
			uint8_t bits = 0;
			for (int j = 0; j < c->ydots; j++) {
				for (int i = 0; i < c->xdots; i++) {
					uint8_t d =
					    column_dots(c, cx * c->xdots + i)[cy * c->ydots + j];
					if (!d)
						continue;
					lit[nlit++] = d;
					if (c->glyphs == CHART_BRAILLE)
						bits |= braille_bit[i][j];
					else
						bits |= (uint8_t)(1u << j);
				}
			}
			if (!bits)
				continue;
			enum role role = cell_role(lit, nlit, c->top_wins);
			uint32_t ch;
			if (c->glyphs == CHART_BRAILLE)
				ch = 0x2800u + bits;
			else if (c->glyphs == CHART_BLOCK)
				ch = bits == 3 ? 0x2588u : bits == 1 ? 0x2580u : 0x2584u;
			else
				ch = ascii_glyph(role);
			grid_put(g, x + cx, y + cy, ch, role);
		}
	}
}

static uint32_t stack_glyph(enum chart_glyphs gl, int eighths, enum role role)
{
	if (gl == CHART_BLOCK)
		return eighths >= 8 ? 0x2588u : 0x2580u + (uint32_t)eighths; /* ▁ is U+2581 */
	if (gl == CHART_BRAILLE) {
		/* bottom quarters first: dot rows 4, 3, 2, 1 */
		static const uint8_t rows[4] = {0x40 | 0x80, 0x04 | 0x20, 0x02 | 0x10, 0x01 | 0x08};
		int q = (eighths + 1) / 2;
		uint8_t bits = 0;
		for (int i = 0; i < q && i < 4; i++)
			bits |= rows[i];
		return 0x2800u + bits;
	}
	return ascii_glyph(role);
}

void chart_stack_every(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs glyphs,
		       const double *const *vals, int step, const enum role *roles, int nser,
		       double ymax)
{
	if (!(ymax > 0) || ch <= 0 || nser <= 0)
		return;
	int height = ch * 8, n = nser > 8 ? 8 : nser; /* in eighths of a cell */
	/* each band's glyph for a cell it fills 0..8 eighths of (' ': none) */
	uint32_t glyph[8][9];
	for (int k = 0; k < n; k++)
		for (int f = 0; f <= 8; f++) {
			uint32_t c = stack_glyph(glyphs, f, roles[k]);
			if (roles[k] == ROLE_FREE && glyphs != CHART_ASCII)
				c = f >= 4 ? 0x2591u : ' '; /* ░ headroom */
			glyph[k][f] = glyphs == CHART_ASCII && f < 4 ? ' ' : c;
		}
	for (int i = 0; i < cw; i++) {
		if (x + i < 0 || x + i >= g->w)
			continue;
		/* band tops, in eighths, from the bottom */
		int top[8];
		double acc = 0;
		int bad = 0;
		for (int k = 0; k < n && !bad; k++) {
			double v = vals[k][(size_t)i * (size_t)step];
			bad = isnan(v);
			acc += v > 0 ? v : 0;
			double f = acc / ymax;
			top[k] = round_up_half((f > 1 ? 1 : f) * height);
		}
		if (bad)
			continue;
		struct cell *col = g->cells + (size_t)(x + i);
		for (int r = 0, kb = 0; r < ch;) {
			int lo = r * 8,
			    hi = lo + 8; /* the cell spans [lo, hi) eighths from the bottom */
			/* the band under the cell's bottom edge owns the cell */
			while (kb < n && top[kb] <= lo)
				kb++;
			if (kb == n)
				break;
			int k = kb, fill = top[k] >= hi ? 8 : top[k] - lo;
			/* a band's full cells up to its top: one glyph (most of
			 * a stack's cells) */
			int run = fill == 8 ? top[k] / 8 - r : 1;
			/* ASCII and braille: a thin top of a band gives way to the
			 * next one when that one covers more of the cell */
			if (glyphs != CHART_BLOCK && fill < 8 && k + 1 < n) {
				int next = (top[k + 1] >= hi ? hi : top[k + 1]) - top[k];
				if (next > fill) {
					k++;
					fill = top[k] >= hi ? 8 : top[k] - lo;
				}
			}
			uint32_t c = glyph[k][fill];
			for (int e = r + run < ch ? r + run : ch; r < e; r++) {
				int gy = y + ch - 1 - r;
				if (c == ' ' || gy < 0 || gy >= g->h)
					continue;
				struct cell *cell = col + (size_t)gy * (size_t)g->w;
				cell->ch = c;
				cell->role = (uint8_t)roles[k];
			}
		}
	}
}

void chart_stack(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs glyphs,
		 const double *const *vals, const enum role *roles, int nser, double ymax)
{
	chart_stack_every(g, x, y, cw, ch, glyphs, vals, 1, roles, nser, ymax);
}
