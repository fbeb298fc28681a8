/*
 * Tests for what screen.c sends: grid_dirty_rows, the changed-lines diff of
 * a frame against the previous one (only the rows it marks are written to
 * the terminal), and grid_copy, which keeps that previous frame.  The
 * terminal side is driven in tests/sh/tui.sh.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "screen/grid.h"

#define W 40
#define H 12

static int count(const unsigned char *d, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		c += d[i] != 0;
	return c;
}

/* A frame with text on every row, as a view would draw it. */
static void frame(struct grid *g)
{
	grid_clear(g);
	for (int y = 0; y < g->h; y++)
		grid_printf(g, 0, y, y % 2 ? ROLE_AXIS : ROLE_DEFAULT, "row %d of the frame", y);
}

static void test_one_cell_one_row(void **state)
{
	(void)state;
	struct grid g, prev;
	unsigned char dirty[H];
	grid_init(&g, W, H);
	grid_init(&prev, 0, 0);
	frame(&g);
	grid_copy(&prev, &g);
	assert_int_equal(prev.w, W);
	assert_int_equal(prev.h, H);
	memset(dirty, 0xaa, sizeof(dirty));
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 0);
	assert_int_equal(count(dirty, H), 0);

	/* the same frame drawn again from scratch: nothing to send */
	frame(&g);
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 0);

	/* one glyph changed: exactly its row */
	grid_put(&g, 17, 5, 0x2847, ROLE_AXIS);
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 1);
	for (int y = 0; y < H; y++)
		assert_int_equal(dirty[y], y == 5);

	/* the same code point in another colour role is a change too */
	grid_copy(&prev, &g);
	grid_paint(&g, W - 1, H - 1, 1, 1, ROLE_TITLE);
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 1);
	assert_int_equal(dirty[H - 1], 1);
	assert_int_equal(dirty[0], 0);

	/* two rows of an overlay (the help box's top and bottom edge) */
	grid_copy(&prev, &g);
	grid_put(&g, 0, 2, 0x250c, ROLE_AXIS);
	grid_put(&g, 3, 9, 0x2518, ROLE_AXIS);
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 2);
	assert_int_equal(dirty[2] + dirty[9], 2);
	grid_done(&g);
	grid_done(&prev);
}

/* After screen_invalidate (theme, ^L) the previous frame is gone, and
 * after a resize it has another size: every row is sent. */
static void test_forced_redraw_all_rows(void **state)
{
	(void)state;
	struct grid g, prev;
	unsigned char dirty[H + 1];
	grid_init(&g, W, H);
	grid_init(&prev, 0, 0);
	frame(&g);
	grid_copy(&prev, &g);
	grid_done(&prev); /* what screen_invalidate does */
	memset(dirty, 0, sizeof(dirty));
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), H);
	assert_int_equal(count(dirty, H), H);

	grid_init(&prev, W - 1, H); /* a narrower terminal before */
	memset(dirty, 0, sizeof(dirty));
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), H);
	grid_done(&prev);

	grid_init(&prev, W, H + 1); /* a taller one */
	memset(dirty, 0, sizeof(dirty));
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), H);
	assert_int_equal(dirty[H], 0); /* only g's rows are marked */
	grid_done(&prev);
	grid_done(&g);
}

/* grid_copy resizes and copies every cell: the next diff against it is
 * empty, whatever the copy held before. */
static void test_copy_resizes(void **state)
{
	(void)state;
	struct grid g, prev;
	unsigned char dirty[H];
	grid_init(&g, W, H);
	grid_init(&prev, 3, 2);
	grid_put(&prev, 0, 0, 'x', ROLE_TITLE);
	frame(&g);
	grid_copy(&prev, &g);
	assert_int_equal(prev.w, W);
	assert_int_equal(prev.h, H);
	assert_int_equal(grid_dirty_rows(&g, &prev, dirty), 0);
	assert_int_equal(grid_at(&prev, 4, 3)->ch, grid_at(&g, 4, 3)->ch);
	grid_done(&g);
	grid_done(&prev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_cell_one_row),
	    cmocka_unit_test(test_forced_redraw_all_rows),
	    cmocka_unit_test(test_copy_resizes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
