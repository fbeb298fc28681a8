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
		uint8_t dots[48 * 24]; /* what was lit, row by row: role + 1 */
		for (int i = 0; i < c.dw * c.dh; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			int r = (int)(x >> 59); /* 0..31: a third of the dots lit */
			dots[i] = r < 11 ? (uint8_t)(1 + ROLE_READ + r % 4) : 0;
			if (dots[i])
				canvas_dot(&c, i % c.dw, i / c.dw, (enum role)(dots[i] - 1));
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
						uint8_t d = dots[(cy * 4 + j) * c.dw + cx * 2 + i];
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

/* A canvas moved on tick after tick (canvas_scroll, then the first column
 * — no line joins it to one before now — and the new ones drawn with
 * canvas_plot_range) is the canvas drawn whole from the same values: an
 * area and a line over it, with gaps, at every glyph size, through the
 * moves back to the start of the canvas' room. */
static void test_canvas_scroll(void **state)
{
	(void)state;
	static const enum chart_glyphs gls[] = {CHART_BRAILLE, CHART_BLOCK, CHART_ASCII};
	for (size_t gi = 0; gi < ARRAY_LEN(gls); gi++) {
		struct canvas c, w;
		struct grid g, gw;
		canvas_init(&c);
		canvas_init(&w);
		canvas_reset(&c, gls[gi], 20, 3);
		int n = c.dw, total = n + 600;
		double *a = malloc(sizeof(double) * (size_t)total),
		       *b = malloc(sizeof(double) * (size_t)total);
		uint64_t x = 99;
		for (int i = 0; i < total; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			a[i] = (double)(x >> 58);
			b[i] = (x >> 40) % 23 == 0 ? NAN : (double)((x >> 50) % 80) / 4.0;
		}
		int band = c.dh;
		canvas_plot(&c, a, n, 40, ROLE_READ, CHART_AREA, band - 1, -1, band);
		canvas_plot(&c, b, n, 20, ROLE_SCAN, CHART_LINE, band - 1, -1, band);
		grid_init(&g, 22, 5);
		grid_init(&gw, 22, 5);
		for (int at = 0, tick = 0; at + n + 3 <= total; tick++) {
			int k = 1 + tick % 3;
			at += k;
			canvas_scroll(&c, k);
			canvas_clear_columns(&c, 0, 1);
			canvas_plot_range(&c, a + at, n, 0, 1, 40, ROLE_READ, CHART_AREA, band - 1,
					  -1, band);
			canvas_plot_range(&c, a + at, n, n - k, n, 40, ROLE_READ, CHART_AREA,
					  band - 1, -1, band);
			canvas_plot_range(&c, b + at, n, 0, 1, 20, ROLE_SCAN, CHART_LINE, band - 1,
					  -1, band);
			canvas_plot_range(&c, b + at, n, n - k, n, 20, ROLE_SCAN, CHART_LINE,
					  band - 1, -1, band);
			canvas_reset(&w, gls[gi], 20, 3);
			canvas_plot(&w, a + at, n, 40, ROLE_READ, CHART_AREA, band - 1, -1, band);
			canvas_plot(&w, b + at, n, 20, ROLE_SCAN, CHART_LINE, band - 1, -1, band);
			grid_clear(&g);
			grid_clear(&gw);
			canvas_render(&c, &g, 1, 1);
			canvas_render(&w, &gw, 1, 1);
			if (memcmp(g.cells, gw.cells, sizeof(struct cell) * 22 * 5)) {
				char *d = grid_dump(&g), *dw = grid_dump(&gw);
				fail_msg("glyphs %zu, tick %d (%d on):\n%s-- whole:\n%s", gi, tick,
					 k, d, dw);
			}
		}
		free(a);
		free(b);
		grid_done(&g);
		grid_done(&gw);
		canvas_done(&c);
		canvas_done(&w);
	}
}

/* chart_stack's rule cell by cell, written plainly (as it was before its
 * runs of full cells): the band under a cell's bottom edge owns it; with
 * braille and ASCII a thin top gives way to the next band when that one
 * covers more of the cell; ASCII draws a band's letter where it covers
 * half the cell; headroom (ROLE_FREE) a light shade. */
static void stack_by_cell(struct grid *g, int x, int y, int cw, int ch, enum chart_glyphs gl,
			  const double *const *vals, const enum role *roles, int n, double ymax)
{
	static const uint8_t quarters[4] = {0x40 | 0x80, 0x04 | 0x20, 0x02 | 0x10, 0x01 | 0x08};
	int height = ch * 8;
	for (int i = 0; i < cw; i++) {
		int top[8], bad = 0;
		double acc = 0;
		for (int k = 0; k < n; k++) {
			if (isnan(vals[k][i]))
				bad = 1;
			acc += vals[k][i] > 0 ? vals[k][i] : 0;
			double f = acc / ymax;
			top[k] = (int)lround((f > 1 ? 1 : f) * height);
		}
		for (int r = 0; r < ch && !bad; r++) {
			int lo = r * 8, hi = lo + 8, k = 0;
			while (k < n && top[k] <= lo)
				k++;
			if (k == n)
				break;
			int fill = top[k] >= hi ? 8 : top[k] - lo;
			if (gl != CHART_BLOCK && fill < 8 && k + 1 < n) {
				int next = (top[k + 1] >= hi ? hi : top[k + 1]) - top[k];
				if (next > fill) {
					k++;
					fill = top[k] >= hi ? 8 : top[k] - lo;
				}
			}
			if (gl == CHART_ASCII && fill < 4)
				continue;
			uint32_t c;
			if (gl == CHART_BLOCK) {
				c = fill >= 8 ? 0x2588u : 0x2580u + (uint32_t)fill;
			} else if (gl == CHART_BRAILLE) {
				uint8_t bits = 0;
				for (int q = 0; q < (fill + 1) / 2 && q < 4; q++)
					bits |= quarters[q];
				c = 0x2800u + bits;
			} else {
				c = roles[k] == ROLE_ACTIVE	? 'A'
				    : roles[k] == ROLE_INACTIVE ? 'i'
								: '.';
			}
			if (roles[k] == ROLE_FREE && gl != CHART_ASCII)
				c = fill >= 4 ? 0x2591u : ' ';
			if (c != ' ')
				grid_put(g, x + i, y + ch - 1 - r, c, roles[k]);
		}
	}
}

/* Random stacks of three bands (a gap now and then, values over the top)
 * drawn by chart_stack and cell by cell: the same cells. */
static void test_stack_cells(void **state)
{
	(void)state;
	static const enum chart_glyphs gls[] = {CHART_BRAILLE, CHART_BLOCK, CHART_ASCII};
	static const enum role roles[3] = {ROLE_ACTIVE, ROLE_INACTIVE, ROLE_FREE};
	double v[3][40];
	const double *const vals[3] = {v[0], v[1], v[2]};
	struct grid g, ref;
	grid_init(&g, 44, 12);
	grid_init(&ref, 44, 12);
	uint64_t x = 5;
	for (int round = 0; round < 300; round++) {
		for (int k = 0; k < 3; k++)
			for (int i = 0; i < 40; i++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				v[k][i] =
				    (x >> 40) % 61 == 0 ? NAN : (double)((x >> 33) % 1000) / 7.0;
			}
		enum chart_glyphs gl = gls[round % 3];
		int ch = 1 + round % 9, y = round % 5 == 0 ? -2 : 1;
		grid_clear(&g);
		grid_clear(&ref);
		chart_stack(&g, 2, y, 40, ch, gl, vals, roles, 3, 300);
		stack_by_cell(&ref, 2, y, 40, ch, gl, vals, roles, 3, 300);
		if (memcmp(g.cells, ref.cells, sizeof(struct cell) * 44 * 12)) {
			char *a = grid_dump(&g), *b = grid_dump(&ref);
			fail_msg("round %d:\n%s-- cell by cell:\n%s", round, a, b);
		}
	}
	grid_done(&g);
	grid_done(&ref);
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
	    cmocka_unit_test(test_canvas_scroll),
	    cmocka_unit_test(test_stack_cells),
	};
	return cmocka_run_group_tests_name("chart", tests, NULL, NULL);
}
