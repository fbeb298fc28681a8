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
	canvas_init(c);
}

void canvas_reset(struct canvas *c, enum chart_glyphs glyphs, int cw, int ch)
{
	c->glyphs = glyphs;
	c->xdots = glyphs == CHART_BRAILLE ? 2 : 1;
	c->ydots = glyphs == CHART_BRAILLE ? 4 : glyphs == CHART_BLOCK ? 2 : 1;
	c->top_wins = 0;
	c->cw = cw > 0 ? cw : 0;
	c->ch = ch > 0 ? ch : 0;
	c->dw = c->cw * c->xdots;
	c->dh = c->ch * c->ydots;
	size_t need = (size_t)c->dw * (size_t)c->dh + 1;
	if (need > c->cap) {
		free(c->dots);
		c->dots = xmalloc(need);
		c->cap = need;
	}
	memset(c->dots, 0, need);
}

static void dot(struct canvas *c, int x, int y, enum role role)
{
	if (x >= 0 && y >= 0 && x < c->dw && y < c->dh)
		c->dots[(size_t)y * (size_t)c->dw + (size_t)x] = (uint8_t)(role + 1);
}

static void vspan(struct canvas *c, int x, int y0, int y1, enum role role)
{
	if (y0 > y1) {
		int t = y0;
		y0 = y1;
		y1 = t;
	}
	for (int y = y0; y <= y1; y++)
		dot(c, x, y, role);
}

void canvas_plot(struct canvas *c, const double *vals, int n, double ymax, enum role role,
		 enum chart_mode mode, int base, int dir, int height)
{
	if (height <= 0 || !(ymax > 0))
		return;
	int first = n > c->dw ? n - c->dw : 0;
	int prev_y = 0, have_prev = 0;
	for (int i = first; i < n; i++) {
		int x = c->dw - (n - i);
		double v = vals[i];
		if (isnan(v) || v < 0) {
			have_prev = 0;
			continue;
		}
		/* Levels 0..height: 0 draws nothing in an area, the base row in a
		 * line; any non-zero value lights at least one dot so a trickle
		 * of I/O is visible. */
		double f = v / ymax;
		if (f > 1)
			f = 1;
		int lvl = (int)lround(f * height);
		if (lvl == 0 && v > 0)
			lvl = 1;
		int y = base + dir * (lvl > 0 ? lvl - 1 : 0);
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

/* The lit dots of one cell row strip, or 0 if the strip is dark: checks
 * eight dots at a time, since most of a chart is empty. */
static int strip_dark(const uint8_t *p, size_t n)
{
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, p + i, 8);
		if (w)
			return 0;
	}
	for (; i < n; i++)
		if (p[i])
			return 0;
	return 1;
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

/* Braille (2 × 4 dots a cell, the default): the same as the general
 * loop below with the cell's shape known, a dark cell skipped by one
 * test of its eight dots; an Overview at 200×50 has ~6000 chart cells,
 * drawn four times a second. */
static void render_braille(const struct canvas *c, struct grid *g, int x, int y)
{
	static const uint8_t bit[8] = {0x01, 0x02, 0x04, 0x40, 0x08, 0x10, 0x20, 0x80};
	size_t dw = (size_t)c->dw;
	for (int cy = 0; cy < c->ch && y + cy < g->h; cy++) {
		const uint8_t *r0 = c->dots + (size_t)cy * 4 * dw;
		if (y + cy < 0 || strip_dark(r0, 4 * dw))
			continue;
		const uint8_t *r[4] = {r0, r0 + dw, r0 + 2 * dw, r0 + 3 * dw};
		struct cell *row = g->cells + (size_t)(y + cy) * (size_t)g->w;
		for (int cx = 0; cx < c->cw; cx++) {
			size_t o = 2 * (size_t)cx;
			uint16_t w[4];
			for (int j = 0; j < 4; j++)
				memcpy(&w[j], r[j] + o, 2);
			if (!(w[0] | w[1] | w[2] | w[3]) || x + cx < 0 || x + cx >= g->w)
				continue;
			const uint8_t v[8] = {r[0][o],	   r[1][o],	r[2][o],     r[3][o],
					      r[0][o + 1], r[1][o + 1], r[2][o + 1], r[3][o + 1]};
			uint8_t lit[8], bits = 0;
			int nlit = 0, mixed = 0;
			for (int k = 0; k < 8; k++)
				if (v[k]) {
					lit[nlit++] = v[k];
					bits |= bit[k];
					mixed |= v[k] != lit[0];
				}
			row[x + cx].ch = 0x2800u + bits;
			/* most cells are one series' dots: no vote */
			row[x + cx].role = (uint8_t)(mixed ? cell_role(lit, nlit, c->top_wins)
							   : (enum role)(lit[0] - 1));
		}
	}
}

void canvas_render(const struct canvas *c, struct grid *g, int x, int y)
{
	if (c->glyphs == CHART_BRAILLE && c->xdots == 2 && c->ydots == 4) {
		render_braille(c, g, x, y);
		return;
	}
	for (int cy = 0; cy < c->ch; cy++) {
		const uint8_t *band = c->dots + (size_t)(cy * c->ydots) * (size_t)c->dw;
		if (strip_dark(band, (size_t)c->ydots * (size_t)c->dw))
			continue;
		for (int cx = 0; cx < c->cw; cx++) {
			/* Collect the cell's lit dots first: the majority vote
			 * only ever looks at <= 8 values. */
			uint8_t lit[8];
			int nlit = 0;
			uint8_t bits = 0;
			for (int j = 0; j < c->ydots; j++) {
				const uint8_t *row =
				    band + (size_t)j * (size_t)c->dw + (size_t)(cx * c->xdots);
				for (int i = 0; i < c->xdots; i++) {
					if (!row[i])
						continue;
					lit[nlit++] = row[i];
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

void chart_stack(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs glyphs,
		 const double *const *vals, const enum role *roles, int nser, double ymax)
{
	if (!(ymax > 0) || ch <= 0 || nser <= 0)
		return;
	int height = ch * 8; /* in eighths of a cell */
	for (int i = 0; i < cw; i++) {
		/* band tops, in eighths, from the bottom */
		int top[8], n = nser > 8 ? 8 : nser;
		double acc = 0;
		int bad = 0;
		for (int k = 0; k < n; k++) {
			double v = vals[k][i];
			if (isnan(v)) {
				bad = 1;
				break;
			}
			acc += v > 0 ? v : 0;
			double f = acc / ymax;
			top[k] = (int)lround((f > 1 ? 1 : f) * height);
		}
		if (bad)
			continue;
		for (int r = 0; r < ch; r++) {
			int lo = r * 8,
			    hi = lo + 8; /* the cell spans [lo, hi) eighths from the bottom */
			/* the band under the cell's bottom edge owns the cell */
			int k = 0;
			while (k < n && top[k] <= lo)
				k++;
			if (k == n)
				break;
			int fill = top[k] >= hi ? 8 : top[k] - lo;
			/* ASCII and braille: a thin top of a band gives way to the
			 * next one when that one covers more of the cell */
			if (glyphs != CHART_BLOCK && fill < 8 && k + 1 < n) {
				int next = (top[k + 1] >= hi ? hi : top[k + 1]) - top[k];
				if (next > fill) {
					k++;
					fill = top[k] >= hi ? 8 : top[k] - lo;
				}
			}
			if (glyphs == CHART_ASCII && fill < 4)
				continue;
			uint32_t c = stack_glyph(glyphs, fill, roles[k]);
			if (roles[k] == ROLE_FREE && glyphs != CHART_ASCII)
				c = fill >= 4 ? 0x2591u : ' '; /* ░ headroom */
			if (c != ' ')
				grid_put(g, x + i, y + ch - 1 - r, c, roles[k]);
		}
	}
}
