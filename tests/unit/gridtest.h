/*
 * gridtest — reading a view drawn headless into a grid (views_draw): one
 * row's text, the row that holds a string.  Shared by the view suites so
 * each does not carry its own copy.  static inline: a suite that does not
 * use one gets no unused-function warning.
 */
#ifndef LRUTOP_GRIDTEST_H
#define LRUTOP_GRIDTEST_H

#include <stdlib.h>
#include <string.h>

#include "screen/grid.h"

/* Row y of the grid as UTF-8 text (malloc'd; "" past the end). */
static inline char *row_text(const struct grid *g, int y)
{
	char *d = grid_dump(g), *p = d;
	for (int i = 0; i < y && p; i++) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	char *e = p ? strchr(p, '\n') : NULL;
	char *out = strndup(p ? p : "", e ? (size_t)(e - p) : strlen(p ? p : ""));
	free(d);
	return out;
}

/* The first row that holds needle, -1 if none does. */
static inline int find_row(const struct grid *g, const char *needle)
{
	for (int y = 0; y < g->h; y++) {
		char *t = row_text(g, y);
		int hit = strstr(t, needle) != NULL;
		free(t);
		if (hit)
			return y;
	}
	return -1;
}

#endif
