/*
 * Tests for chart: nice ceilings, quantiles, autoscale, number formatting
 * and the ascii/braille canvas.
 *
 * Expected values are worked out here from the contracts in the headers and
 * docs/design.md (braille dot 1 is bit 0x01 ...), never copied from a run of the
 * code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "screen/chart.h"
#include "screen/grid.h"
#include "base/util.h"
#include "near.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- chart ------------------------------------------------------------ */

static void test_nice_ceil(void **state)
{
	(void)state;
	assert_near(nice_ceil(0.3), 0.5, 1e-12);
	assert_near(nice_ceil(1), 1, 1e-12);
	assert_near(nice_ceil(1.01), 2, 1e-12);
	assert_near(nice_ceil(2), 2, 1e-12);
	assert_near(nice_ceil(2.5), 5, 1e-12);
	assert_near(nice_ceil(7), 10, 1e-12);
	assert_near(nice_ceil(10), 10, 1e-12);
	assert_near(nice_ceil(120), 200, 1e-9);
	assert_near(nice_ceil(0.05), 0.05, 1e-15);
	assert_near(nice_ceil(4999), 5000, 1e-9);
	assert_near(nice_ceil(5001), 10000, 1e-9);
}

/* chart_quantile against a sort of the same values: random, with many
 * repeats (a throttled read rate is 32 in most samples), sorted, reversed,
 * and NANs left out; q at 0, 0.5, 0.98 and 1. */
static int cmp_dbl(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void test_quantile(void **state)
{
	(void)state;
	enum { MAXN = 1500 };
	static double v[MAXN], tmp[MAXN], ref[MAXN];
	static const double qs[] = {0, 0.5, 0.98, 1};
	unsigned seed = 12345;
	for (int n = 1; n <= MAXN; n += n < 40 ? 1 : 97) {
		for (int kind = 0; kind < 4; kind++) {
			int m = 0;
			for (int i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				unsigned r = (seed >> 8) % 1000;
				double x = kind == 0 ? (double)r : kind == 1 ? (r < 700 ? 32.0 : (double)(r % 5) * 16)
					 : kind == 2 ? (double)i : (double)(n - i);
				if (kind == 0 && r % 17 == 0)
					x = NAN;
				v[i] = x;
				if (!isnan(x))
					ref[m++] = x;
			}
			qsort(ref, (size_t)m, sizeof(ref[0]), cmp_dbl);
			for (size_t j = 0; j < sizeof(qs) / sizeof(qs[0]); j++) {
				double got = chart_quantile(v, n, qs[j], tmp);
				if (!m) {
					assert_true(got == -1);
					continue;
				}
				int k = (int)ceil(qs[j] * m) - 1;
				k = k < 0 ? 0 : k >= m ? m - 1 : k;
				if (got != ref[k])
					fail_msg("n %d kind %d q %.2f: got %g, want %g", n, kind, qs[j], got,
						 ref[k]);
			}
		}
	}
	double none[3] = {NAN, NAN, NAN};
	assert_true(chart_quantile(none, 3, 0.5, tmp) == -1);
}

static void test_autoscale(void **state)
{
	(void)state;
	struct autoscale a = {0, 0};
	const int patience = 3;
	/* first update: a nice scale that shows 8 */
	double m = autoscale_update(&a, 8, 1, patience);
	assert_near(m, 10, 1e-9);
	/* grows at once */
	m = autoscale_update(&a, 30, 1, patience);
	assert_true(m >= 30);
	assert_near(m, nice_ceil(m), 1e-9);
	double big = m;
	/* data far below 40 %: holds for patience - 1 updates ... */
	for (int i = 0; i < patience - 1; i++)
		assert_near(autoscale_update(&a, 3, 1, patience), big, 0);
	/* ... a value back above 40 % restarts the count ... */
	assert_near(autoscale_update(&a, 0.5 * big, 1, patience), big, 0);
	for (int i = 0; i < patience - 1; i++)
		assert_near(autoscale_update(&a, 3, 1, patience), big, 0);
	/* ... and the patience-th low update shrinks it, still showing 3 */
	m = autoscale_update(&a, 3, 1, patience);
	assert_true(m < big);
	assert_true(m >= 3);
	assert_near(m, nice_ceil(m), 1e-9);
	/* the floor keeps an idle chart from collapsing to nothing */
	struct autoscale z = {0, 0};
	m = autoscale_update(&z, 0, 5, patience);
	assert_true(m >= 5);
	m = autoscale_update(&z, NAN, 5, patience);
	assert_true(m >= 5);
}

static void expect_fmt(double v, const char *want)
{
	char buf[32];
	fmt_num(buf, sizeof(buf), v);
	if (strcmp(buf, want) != 0)
		fail_msg("fmt_num(%g) = \"%s\", want \"%s\"", v, buf, want);
}

static void test_fmt_num(void **state)
{
	(void)state;
	/* the examples in chart.h: 0.42, 4.2, 42, 420, 4.2k, 42k, 4.2M */
	expect_fmt(0, "0");
	expect_fmt(0.42, "0.42");
	expect_fmt(4.2, "4.2");
	expect_fmt(42, "42");
	expect_fmt(420, "420");
	expect_fmt(4200, "4.2k");
	expect_fmt(42000, "42k");
	expect_fmt(420000, "420k");
	expect_fmt(4.2e6, "4.2M");
	expect_fmt(1e6, "1.0M");
	/* short: never more than 4 characters for 0 <= v < 1e14 */
	for (double v = 0.001; v < 1e14; v *= 1.37) {
		char buf[32];
		fmt_num(buf, sizeof(buf), v);
		if (strlen(buf) > 4)
			fail_msg("fmt_num(%g) = \"%s\": longer than 4", v, buf);
	}
}

/* The one MiB formatter (units.c): the SVG's titles and the stall
 * watchdog's message read it. */
static void test_fmt_mib(void **state)
{
	(void)state;
	static const struct {
		uint64_t bytes;
		const char *want;
	} t[] = {
	    {0, "0 MiB"},
	    {64ull << 20, "64 MiB"},
	    {(33ull << 20) / 10, "3.3 MiB"},
	    {(53ull << 20) / 16, "3.312 MiB"},
	    {1023ull << 20, "1023 MiB"},
	    {1024ull << 20, "1 GiB"},
	    {2030592ull << 10, "1.937 GiB"},
	    {1056964608ull << 10, "1008 GiB"},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char buf[32];
		fmt_mib(buf, sizeof(buf), t[i].bytes);
		if (strcmp(buf, t[i].want) != 0)
			fail_msg("fmt_mib(%llu) = \"%s\", want \"%s\"",
				 (unsigned long long)t[i].bytes, buf, t[i].want);
	}
}

/* A memory axis' unit (units.c): MiB from 1 MiB, GiB from 1 GiB, MiB
 * without a top; its terminal label is what fmt_size said for the same
 * top, so the TUI's labels did not change when the unit became the plot
 * model's. */
static void test_mem_unit(void **state)
{
	(void)state;
	assert_string_equal(mem_unit_of(NAN)->name, "MiB");
	assert_string_equal(mem_unit_of(0)->name, "MiB");
	assert_string_equal(mem_unit_of(512)->name, "KiB");
	assert_string_equal(mem_unit_of(1023.0 * 1024)->name, "MiB");
	assert_string_equal(mem_unit_of(1024.0 * 1024)->name, "GiB");
	assert_string_equal(mem_unit_of(3.9 * 1048576)->name, "GiB");
	assert_string_equal(mem_unit_of(1000.0 * 1048576)->name, "GiB");
	assert_string_equal(mem_unit_of(1024.0 * 1048576)->name, "TiB");
	for (double kib = 1; kib < 1e13; kib = floor(kib * 1.093) + 1) {
		char a[32], b[32];
		fmt_mem_axis(a, sizeof(a), kib, mem_unit_of(kib));
		fmt_size(b, sizeof(b), (uint64_t)(kib * 1024.0));
		if (strcmp(a, b) != 0)
			fail_msg("%.0f KiB: fmt_mem_axis \"%s\", fmt_size \"%s\"", kib, a, b);
	}
}

/* Every drawn cell as '#', blanks kept: the shape without the glyph choice. */
static char *shape(const struct grid *g)
{
	char *d = grid_dump(g);
	for (char *p = d; *p; p++)
		if (*p != ' ' && *p != '\n')
			*p = '#';
	return d;
}

static void test_canvas_ascii_area(void **state)
{
	(void)state;
	struct canvas c;
	struct grid g;
	canvas_init(&c);
	canvas_reset(&c, CHART_ASCII, 10, 4);
	assert_int_equal(c.dw, 10);
	assert_int_equal(c.dh, 4);
	/* scale 4 on 4 rows: value v fills v rows from the bottom (row 3). */
	const double vals[10] = {NAN, 0, 1, 2, 3, 4, 5, 6, NAN, 9};
	canvas_plot(&c, vals, 10, 4.0, ROLE_READ, CHART_AREA, 3, -1, 4);
	grid_init(&g, 12, 6);
	canvas_render(&c, &g, 1, 1);
	/* col: 0 NAN gap, 1 zero, 2..5 one to four rows, 6-7 above the scale
	 * clipped to four, 8 NAN gap, 9 (newest, rightmost) clipped. */
	const char *want = "\n"
			   "      ### #\n"
			   "     #### #\n"
			   "    ##### #\n"
			   "   ###### #\n"
			   "\n";
	char *d = shape(&g);
	assert_string_equal(d, want);
	free(d);
	assert_int_equal(grid_at(&g, 10, 1)->role, ROLE_READ);
	assert_int_equal(grid_at(&g, 3, 4)->role, ROLE_READ);

	/* fewer values than columns: right-aligned; a NAN breaks a line */
	canvas_reset(&c, CHART_ASCII, 10, 4);
	const double few[3] = {4, NAN, 2};
	canvas_plot(&c, few, 3, 4.0, ROLE_WRITE, CHART_LINE, 3, -1, 4);
	grid_done(&g);
	grid_init(&g, 10, 4);
	canvas_render(&c, &g, 0, 0);
	d = shape(&g);
	assert_string_equal(d, "       #\n\n         #\n\n");
	free(d);
	assert_int_equal(grid_at(&g, 9, 2)->role, ROLE_WRITE);

	/* more values than columns: only the newest 10 */
	canvas_reset(&c, CHART_ASCII, 10, 4);
	double many[25];
	for (int i = 0; i < 25; i++)
		many[i] = i < 15 ? 4 : 0;
	canvas_plot(&c, many, 25, 4.0, ROLE_READ, CHART_AREA, 3, -1, 4);
	grid_clear(&g);
	canvas_render(&c, &g, 0, 0);
	d = shape(&g);
	assert_string_equal(d, "\n\n\n\n");
	free(d);

	grid_done(&g);
	canvas_done(&c);
	canvas_done(&c); /* idempotent */
}

static uint32_t braille_of(const double *vals, int n, enum chart_mode mode, int base, int dir)
{
	struct canvas c;
	struct grid g;
	canvas_init(&c);
	canvas_reset(&c, CHART_BRAILLE, 1, 1);
	canvas_plot(&c, vals, n, 4.0, ROLE_READ, mode, base, dir, 4);
	grid_init(&g, 1, 1);
	canvas_render(&c, &g, 0, 0);
	uint32_t ch = grid_at(&g, 0, 0)->ch;
	grid_done(&g);
	canvas_done(&c);
	return ch;
}

static void test_canvas_braille(void **state)
{
	(void)state;
	/* Unicode braille: U+2800 + bits, dots 1-2-3 down the left column
	 * (0x01 0x02 0x04), 4-5-6 down the right (0x08 0x10 0x20), 7 and 8
	 * the bottom row (0x40 left, 0x80 right). */
	const double top_left[2] = {1, NAN}; /* lowest level, growing down from row 0 */
	assert_int_equal(braille_of(top_left, 2, CHART_LINE, 0, +1), 0x2801);
	const double bottom_right[2] = {NAN, 1}; /* lowest level, growing up from row 3 */
	assert_int_equal(braille_of(bottom_right, 2, CHART_LINE, 3, -1), 0x2880);
	const double full[2] = {4, 4};
	assert_int_equal(braille_of(full, 2, CHART_AREA, 3, -1), 0x28ff);
	const double left_col[2] = {4, 0};
	assert_int_equal(braille_of(left_col, 2, CHART_AREA, 3, -1), 0x2847);

	struct canvas c;
	struct grid g;
	canvas_init(&c);
	canvas_reset(&c, CHART_BRAILLE, 3, 2);
	assert_int_equal(c.dw, 6);
	assert_int_equal(c.dh, 8);
	canvas_hline(&c, 0, ROLE_AXIS);
	grid_init(&g, 3, 2);
	canvas_render(&c, &g, 0, 0);
	for (int x = 0; x < 3; x++) {
		assert_int_equal(grid_at(&g, x, 0)->ch, 0x2809); /* dots 1 and 4 */
		assert_int_equal(grid_at(&g, x, 0)->role, ROLE_AXIS);
		assert_int_equal(grid_at(&g, x, 1)->ch, 0);
	}
	grid_done(&g);
	canvas_done(&c);
}

/* Every cell of a braille canvas of random dots in four roles, drawn at
 * an offset that puts some cells outside the grid: the dots' bits, and
 * the role owning most of them (ties to the higher), or the highest with
 * top_wins; a cell without dots, and the cells outside, untouched. */
static void test_canvas_braille_cells(void **state)
{
	(void)state;
	static const uint8_t bit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
	struct canvas c;
	struct grid g;
	canvas_init(&c);
	grid_init(&g, 30, 8);
	uint64_t x = 7;
	for (int round = 0; round < 40; round++) {
		canvas_reset(&c, CHART_BRAILLE, 24, 6);
		c.top_wins = round & 1;
		for (int i = 0; i < c.dw * c.dh; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			int r = (int)(x >> 59); /* 0..31: a third of the dots lit */
			c.dots[i] = r < 11 ? (uint8_t)(1 + ROLE_READ + r % 4) : 0;
		}
		grid_clear(&g);
		int ox = round % 3 == 0 ? -2 : 9, oy = round % 3 == 1 ? -1 : 4;
		canvas_render(&c, &g, ox, oy);
		for (int cy = 0; cy < c.ch; cy++)
			for (int cx = 0; cx < c.cw; cx++) {
				int n[256] = {0}, top = 0;
				uint8_t bits = 0;
				for (int j = 0; j < 4; j++)
					for (int i = 0; i < 2; i++) {
						uint8_t d = c.dots[(cy * 4 + j) * c.dw + cx * 2 + i];
						if (d) {
							bits |= bit[i][j];
							n[d]++;
							top = d > top ? d : top;
						}
					}
				int best = 0;
				for (int d = 1; d < 256; d++)
					if (n[d] && n[d] >= n[best])
						best = d;
				const struct cell *cell = grid_at(&g, ox + cx, oy + cy);
				if (!cell)
					continue;
				assert_int_equal(cell->ch, bits ? 0x2800u + bits : 0);
				if (bits)
					assert_int_equal(cell->role, (c.top_wins ? top : best) - 1);
			}
		/* what the canvas does not cover stays as it was */
		for (int gy = 0; gy < g.h; gy++)
			for (int gx = 0; gx < g.w; gx++)
				if (gx < ox || gx >= ox + c.cw || gy < oy || gy >= oy + c.ch)
					assert_int_equal(grid_at(&g, gx, gy)->ch, 0);
	}
	grid_done(&g);
	canvas_done(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nice_ceil),
	    cmocka_unit_test(test_autoscale),
	    cmocka_unit_test(test_quantile),
	    cmocka_unit_test(test_fmt_num),
	    cmocka_unit_test(test_fmt_mib),
	    cmocka_unit_test(test_mem_unit),
	    cmocka_unit_test(test_canvas_ascii_area),
	    cmocka_unit_test(test_canvas_braille),
	    cmocka_unit_test(test_canvas_braille_cells),
	};
	return cmocka_run_group_tests_name("chart", tests, NULL, NULL);
}
