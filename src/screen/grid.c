#include "screen/grid.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

_Static_assert(sizeof(struct cell) == 4, "a cell is four bytes: rows compare with memcmp");

void grid_init(struct grid *g, int w, int h)
{
	g->w = w > 0 ? w : 0;
	g->h = h > 0 ? h : 0;
	g->cells = xcalloc((size_t)g->w * (size_t)g->h + 1, sizeof(struct cell));
}

void grid_done(struct grid *g)
{
	free(g->cells);
	g->cells = NULL;
	g->w = g->h = 0;
}

void grid_resize(struct grid *g, int w, int h)
{
	if (g->cells && g->w == w && g->h == h)
		return;
	grid_done(g);
	grid_init(g, w, h);
}

void grid_clear(struct grid *g)
{
	memset(g->cells, 0, (size_t)g->w * (size_t)g->h * sizeof(struct cell));
}

int grid_text(struct grid *g, int x, int y, int max_w, enum role role, const char *s)
{
	int n = 0;
	if (y < 0 || y >= g->h)
		return 0;
	/* the grid's edge clips an explicit width too: the return value is
	 * what was written, which callers use to place the next text */
	if (max_w < 0 || max_w > g->w - x)
		max_w = g->w - x;
	while (*s && n < max_w) {
		uint32_t cp;
		s += utf8_decode(s, &cp);
		grid_put(g, x + n, y, cp, role);
		n++;
	}
	return n;
}

int grid_printf(struct grid *g, int x, int y, enum role role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return grid_text(g, x, y, -1, role, buf);
}

void grid_fill(struct grid *g, int x, int y, int w, int h, uint32_t ch, enum role role)
{
	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++)
			grid_put(g, i, j, ch, role);
}

void grid_paint(struct grid *g, int x, int y, int w, int h, enum role role)
{
	for (int j = y; j < y + h; j++)
		for (int i = x; i < x + w; i++) {
			struct cell *c = grid_at(g, i, j);
			if (c)
				c->role = (uint8_t)role;
		}
}

void grid_box(struct grid *g, int x, int y, int w, int h, const char *title)
{
	grid_fill(g, x, y, w, h, ' ', ROLE_DEFAULT);
	for (int i = 0; i < w; i++) {
		grid_put(g, x + i, y, 0x2500, ROLE_AXIS);
		grid_put(g, x + i, y + h - 1, 0x2500, ROLE_AXIS);
	}
	for (int j = 0; j < h; j++) {
		grid_put(g, x, y + j, 0x2502, ROLE_AXIS);
		grid_put(g, x + w - 1, y + j, 0x2502, ROLE_AXIS);
	}
	grid_put(g, x, y, 0x250c, ROLE_AXIS);
	grid_put(g, x + w - 1, y, 0x2510, ROLE_AXIS);
	grid_put(g, x, y + h - 1, 0x2514, ROLE_AXIS);
	grid_put(g, x + w - 1, y + h - 1, 0x2518, ROLE_AXIS);
	grid_printf(g, x + 2, y, ROLE_TITLE, " %s ", title);
}

int grid_dirty_rows(const struct grid *g, const struct grid *prev, unsigned char *dirty)
{
	int all = !prev->cells || prev->w != g->w || prev->h != g->h, n = 0;
	size_t row = (size_t)g->w * sizeof(struct cell);
	for (int y = 0; y < g->h; y++) {
		size_t off = (size_t)y * (size_t)g->w;
		dirty[y] = all || memcmp(g->cells + off, prev->cells + off, row) != 0;
		n += dirty[y];
	}
	return n;
}

void grid_copy(struct grid *dst, const struct grid *src)
{
	grid_resize(dst, src->w, src->h);
	memcpy(dst->cells, src->cells, (size_t)src->w * (size_t)src->h * sizeof(struct cell));
}

char *grid_dump(const struct grid *g)
{
	size_t cap = (size_t)g->h * ((size_t)g->w * 4 + 1) + 1;
	char *out = xmalloc(cap), *p = out;
	for (int y = 0; y < g->h; y++) {
		char *line = p, *last = p;
		for (int x = 0; x < g->w; x++) {
			uint32_t ch = g->cells[(size_t)y * (size_t)g->w + (size_t)x].ch;
			p += utf8_encode(ch ? ch : ' ', p);
			if (ch && ch != ' ')
				last = p;
		}
		(void)line;
		p = last;
		*p++ = '\n';
	}
	*p = '\0';
	return out;
}
