/* The scrolling frame: an Overview drawn tick after tick — its plot
 * moved on (plot.c's build_moved), its canvases scrolled (chart.c's
 * canvas_scroll) and only the columns that changed drawn — is cell for
 * cell, code point and colour role, the frame a views_draw from nothing
 * draws of the same model (struct overview's whole: every build from
 * nothing, every canvas reset; the same frames before it, so the same
 * autoscale history).  Over a live history (livefix.h) and what a user
 * does to it: pause and scroll, zoom, resize, a jump, the glyphs, the
 * scope, the fit, another view and back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "screen/grid.h"
#include "screen/ui.h"
#include "screen/views.h"
#include "livefix.h"

/* The first row where a and b differ, -1 when they do not. */
static int first_diff(const struct grid *a, const struct grid *b)
{
	for (int y = 0; y < a->h; y++)
		if (memcmp(a->cells + (size_t)y * (size_t)a->w, b->cells + (size_t)y * (size_t)b->w,
			   sizeof(struct cell) * (size_t)a->w))
			return y;
	return -1;
}

static void assert_same_frame(const struct grid *a, const struct grid *b, int tick,
			      const char *what)
{
	assert_int_equal(a->w, b->w);
	assert_int_equal(a->h, b->h);
	int y = first_diff(a, b);
	if (y < 0)
		return;
	int x = 0;
	const struct cell *ra = a->cells + (size_t)y * (size_t)a->w,
			  *rb = b->cells + (size_t)y * (size_t)b->w;
	while (x < a->w && ra[x].ch == rb[x].ch && ra[x].role == rb[x].role)
		x++;
	char *da = grid_dump(a), *db = grid_dump(b);
	fail_msg("tick %d (%s): row %d column %d is U+%04X role %u, from nothing U+%04X role "
		 "%u:\n%s\n-- from nothing:\n%s",
		 tick, what, y, x, (unsigned)ra[x].ch, (unsigned)ra[x].role, (unsigned)rb[x].ch,
		 (unsigned)rb[x].role, da, db);
}

/* A jump as app.c's reset: a new history, the count. */
static void jump(struct live *l)
{
	size_t cap = series_capacity(l->m.series);
	series_free(l->m.series);
	l->m.series = series_new(cap);
	l->m.jumps++;
	for (int i = 0; i < 50; i++)
		live_push(l);
}

static void test_frames_are_whole(void **state)
{
	(void)state;
	struct live l;
	live_init(&l, 900, 11);
	for (int i = 0; i < 300; i++)
		live_push(&l);
	struct views v, whole;
	views_init(&v);
	views_init(&whole);
	whole.overview.whole = 1;
	struct ui u;
	memset(&u, 0, sizeof(u));
	u.view = VIEW_OVERVIEW;
	u.glyphs = CHART_BRAILLE;
	struct grid g, gw;
	grid_init(&g, 160, 50);
	grid_init(&gw, 160, 50);
	long scrolled = 0, frames = 0;
	static const int zooms[] = {0, 1, 0, -1, 2, 0, 3};
	static const enum chart_glyphs glyphs[] = {CHART_BRAILLE, CHART_BRAILLE, CHART_BLOCK,
						   CHART_BRAILLE, CHART_ASCII};
	for (int tick = 0; tick < 2400; tick++) {
		const char *what = "live";
		for (int k = tick % 41 == 0 ? 4 : 1; k > 0; k--)
			live_push(&l);
		u.zoom = zooms[(tick / 170) % (int)ARRAY_LEN(zooms)];
		u.glyphs = glyphs[(tick / 230) % (int)ARRAY_LEN(glyphs)];
		u.paused = tick % 500 >= 300 && tick % 500 < 360;
		if (u.paused) {
			what = "paused";
			if (tick % 7 == 0) /* the arrows */
				u.scroll =
				    tick % 14 ? u.scroll + 5 : (u.scroll > 3 ? u.scroll - 3 : 0);
		} else {
			u.scroll = 0;
		}
		u.mem_system = tick % 600 >= 100 && tick % 600 < 130;
		u.no_fit = tick % 800 >= 500;
		u.view = tick % 300 >= 280 ? VIEW_VMSTAT : VIEW_OVERVIEW;  /* and back */
		int w = tick % 450 >= 200 && tick % 450 < 230 ? 100 : 160; /* a resize */
		int h = tick % 450 >= 215 && tick % 450 < 245 ? 40 : 50;
		if (tick == 1100 || tick == 1900) {
			jump(&l);
			what = "a jump";
		}
		grid_resize(&g, w, h);
		grid_resize(&gw, w, h);
		views_draw(&v, &l.m, &u, &g);
		views_draw(&whole, &l.m, &u, &gw);
		assert_same_frame(&g, &gw, tick, what);
		frames++;
		scrolled += u.view == VIEW_OVERVIEW && v.overview.disk_drawn.scrolled &&
			    v.overview.reclaim_drawn.scrolled;
	}
	/* most frames scrolled (the plot moved on, the canvases with it) */
	if (!(scrolled > frames * 3 / 4))
		fail_msg("%ld of %ld frames scrolled", scrolled, frames);
	grid_done(&g);
	grid_done(&gw);
	views_done(&v);
	views_done(&whole);
	live_done(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_frames_are_whole),
	};
	return cmocka_run_group_tests_name("scroll", tests, NULL, NULL);
}
