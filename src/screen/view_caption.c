/* A talk's caption: a solid box over the charts, the text
 * wrapped at word boundaries to the box, at the foot of the charts.  It is drawn in ROLE_SELECT
 * (bold and reversed in every theme: in the projector theme black on
 * gold, the theme's strongest pair), so it reads from the back of a room
 * and stays readable without colour. */
#include <string.h>

#include "base/text.h"
#include "screen/views.h"

/* Columns of the UTF-8 text s[0..n) (one per code point: grid cells). */
static int cols(const char *s, size_t n)
{
	int c = 0;
	for (size_t i = 0; i < n; i++)
		c += !utf8_cont((unsigned char)s[i]);
	return c;
}

/* The byte length of the next line of s that fits in w columns: up to the
 * last blank that fits, or cut at w columns for a longer word. */
static size_t line_len(const char *s, int w, size_t *skip)
{
	size_t l = strlen(s), best = 0, i = 0;
	int c = 0;
	*skip = 0;
	while (i < l) {
		if (s[i] == ' ' && c <= w)
			best = i;
		if (!utf8_cont((unsigned char)s[i]) && ++c > w)
			break;
		i++;
	}
	if (i >= l)
		return l;
	if (best) {
		*skip = 1;
		return best;
	}
	return utf8_floor(s, i); /* never inside a UTF-8 sequence */
}

void view_caption(const struct ui *u, struct grid *g, int y0, int h)
{
	int bw = g->w - 4 > 110 ? 110 : g->w - 4;
	int tw = bw - 6; /* text columns */
	if (tw < 10 || h < 5 || !u->caption[0])
		return;
	/* the lines, at most h - 4 of them */
	const char *starts[32];
	size_t lens[32];
	int n = 0;
	for (const char *p = u->caption; *p && n < 32 && n < h - 4;) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		size_t skip;
		size_t l = line_len(p, tw, &skip);
		if (!l)
			break;
		starts[n] = p;
		lens[n++] = l;
		p += l + skip;
	}
	int bh = n + 2;
	/* at the foot of the charts: the disk rates and the Runs view's labels
	 * at the top stay in sight */
	int x0 = (g->w - bw) / 2, yb = y0 + h - bh - 1;
	grid_fill(g, x0, yb, bw, bh, ' ', ROLE_SELECT);
	for (int i = 0; i < n; i++) {
		char line[1100];
		size_t l = lens[i] < sizeof(line) - 1 ? lens[i] : sizeof(line) - 1;
		memcpy(line, starts[i], l);
		line[l] = '\0';
		/* centred: a slide's line */
		int x = x0 + (bw - cols(line, l)) / 2;
		grid_text(g, x, yb + 1 + i, tw, ROLE_SELECT, line);
	}
	if (u->caption_title[0]) {
		int tl = cols(u->caption_title, strlen(u->caption_title));
		grid_text(g, x0 + bw - tl - 2, yb + bh - 1, tl, ROLE_SELECT, u->caption_title);
	}
}
