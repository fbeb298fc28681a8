/*
 * Tests for grid: UTF-8 encoding and decoding, clipped text, the text dump.
 *
 * Expected values are worked out here from the contracts in the headers,
 * never copied from a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "screen/grid.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- grid ------------------------------------------------------------- */

static void test_utf8(void **state)
{
	(void)state;
	static const struct {
		uint32_t cp;
		const char *bytes;
	} t[] = {
	    {'A', "A"},
	    {0x7f, "\x7f"},
	    {0xe9, "\xc3\xa9"}, /* é */
	    {0x7ff, "\xdf\xbf"},
	    {0x20ac, "\xe2\x82\xac"}, /* € */
	    {0x2801, "\xe2\xa0\x81"}, /* braille dot 1 */
	    {0xffff, "\xef\xbf\xbf"},
	    {0x1f600, "\xf0\x9f\x98\x80"}, /* 😀 */
	    {0x10ffff, "\xf4\x8f\xbf\xbf"},
	};
	for (size_t i = 0; i < ARRAY_LEN(t); i++) {
		char out[8] = {0};
		int n = utf8_encode(t[i].cp, out);
		assert_int_equal(n, (int)strlen(t[i].bytes));
		assert_memory_equal(out, t[i].bytes, (size_t)n);
		uint32_t cp = 0;
		assert_int_equal(utf8_decode(out, &cp), n);
		assert_int_equal(cp, t[i].cp);
	}
	/* A truncated sequence never consumes the terminating NUL. */
	uint32_t cp;
	int n = utf8_decode("\xe2\x82", &cp);
	assert_true(n >= 1 && n <= 2);
	n = utf8_decode("\xf0", &cp);
	assert_int_equal(n, 1);
	/* a stray continuation byte is one (replacement) character */
	assert_int_equal(utf8_decode("\x80x", &cp), 1);
}

static void test_grid_text_clip(void **state)
{
	(void)state;
	struct grid g;
	grid_init(&g, 5, 2);
	/* from x = 3, the right edge leaves two columns */
	assert_int_equal(grid_text(&g, 3, 0, -1, ROLE_DEFAULT, "hello"), 2);
	/* an explicit width beyond the edge is clipped by the edge too */
	assert_int_equal(grid_text(&g, 1, 1, 10, ROLE_TITLE, "WORLD!"), 4);
	char *d = grid_dump(&g);
	assert_string_equal(d, "   he\n WORL\n");
	free(d);
	assert_int_equal(grid_at(&g, 1, 1)->role, ROLE_TITLE);
	assert_null(grid_at(&g, 5, 0));
	assert_null(grid_at(&g, 0, 2));
	assert_null(grid_at(&g, -1, 0));

	/* width counts columns, not bytes */
	grid_clear(&g);
	assert_int_equal(grid_text(&g, 0, 0, 3, ROLE_DEFAULT,
				   "\xc3\xa9\xe2\x82\xac"
				   "abc"),
			 3);
	assert_int_equal(grid_at(&g, 0, 0)->ch, 0xe9);
	assert_int_equal(grid_at(&g, 1, 0)->ch, 0x20ac);
	assert_int_equal(grid_at(&g, 2, 0)->ch, 'a');
	assert_int_equal(grid_at(&g, 3, 0)->ch, 0);

	/* writes outside are clipped silently */
	assert_int_equal(grid_text(&g, 0, 7, -1, ROLE_DEFAULT, "x"), 0);
	grid_put(&g, -1, -1, 'x', ROLE_DEFAULT);
	grid_put(&g, 99, 0, 'x', ROLE_DEFAULT);
	grid_fill(&g, 3, 1, 10, 10, '#', ROLE_WARN);
	d = grid_dump(&g);
	assert_string_equal(d, "\xc3\xa9\xe2\x82\xac"
			       "a\n   ##\n");
	free(d);
	grid_done(&g);
}

static void test_grid_dump(void **state)
{
	(void)state;
	struct grid g;
	grid_init(&g, 6, 3);
	char *d = grid_dump(&g);
	assert_string_equal(d, "\n\n\n"); /* h lines, all blank */
	free(d);
	grid_put(&g, 0, 0, 'a', ROLE_DEFAULT);
	grid_put(&g, 2, 0, ' ', ROLE_DEFAULT); /* an explicit space is trimmed too */
	grid_put(&g, 5, 2, 0x2588, ROLE_DEFAULT);
	d = grid_dump(&g);
	assert_string_equal(d, "a\n\n     \xe2\x96\x88\n");
	free(d);
	/* resize to the same size keeps content, to another size clears */
	grid_resize(&g, 6, 3);
	assert_int_equal(grid_at(&g, 0, 0)->ch, 'a');
	grid_resize(&g, 2, 2);
	assert_int_equal(g.w, 2);
	assert_int_equal(g.h, 2);
	d = grid_dump(&g);
	assert_string_equal(d, "\n\n");
	free(d);
	grid_done(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_utf8),
	    cmocka_unit_test(test_grid_text_clip),
	    cmocka_unit_test(test_grid_dump),
	};
	return cmocka_run_group_tests_name("grid", tests, NULL, NULL);
}
