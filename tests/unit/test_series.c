/*
 * Tests for series: the sample ring and its capacity for a window.
 *
 * Expected values are worked out here from the contracts in the headers,
 * never copied from a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "series.h"
#include "util.h"

#include <math.h>
#include <string.h>

/* ---- series ----------------------------------------------------------- */

static void test_series_ring(void **state)
{
	(void)state;
	struct series *s = series_new(4);
	assert_non_null(s);
	assert_int_equal(series_capacity(s), 4);
	assert_int_equal(series_len(s), 0);
	assert_null(series_at(s, 0));
	assert_null(series_back(s, 0));

	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	for (uint64_t i = 1; i <= 3; i++) {
		smp.t_ns = i;
		series_push(s, &smp);
	}
	assert_int_equal(series_len(s), 3);
	assert_int_equal(series_at(s, 0)->t_ns, 1);
	assert_int_equal(series_back(s, 0)->t_ns, 3);
	assert_null(series_at(s, 3));

	for (uint64_t i = 4; i <= 10; i++) {
		smp.t_ns = i;
		series_push(s, &smp);
	}
	/* 10 pushed into 4 slots: 7..10 remain. */
	assert_int_equal(series_len(s), 4);
	assert_int_equal(series_capacity(s), 4);
	assert_int_equal(series_pushed(s), 10);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(series_at(s, i)->t_ns, 7 + i);
		assert_int_equal(series_back(s, i)->t_ns, 10 - i);
	}
	assert_null(series_at(s, 4));
	assert_null(series_back(s, 4));
	assert_null(series_at(s, (size_t)-1));

	/* The series holds a copy, not the caller's struct. */
	smp.t_ns = 999;
	assert_int_equal(series_back(s, 0)->t_ns, 10);
	series_free(s);
	series_free(NULL);
}

static void test_series_capacity_for(void **state)
{
	(void)state;
	/* n intervals of history need n + 1 samples; n is clamped to
	 * [64, 200000]. */
	assert_int_equal(series_capacity_for(3600, 0.25), 14400 + 1);
	assert_int_equal(series_capacity_for(60, 1), 64 + 1);
	assert_int_equal(series_capacity_for(1, 1), 64 + 1);
	assert_int_equal(series_capacity_for(1e9, 0.05), 200000 + 1);
	assert_int_equal(series_capacity_for(200000, 1), 200000 + 1);
	/* Nonsense input still gives a usable, clamped size. */
	size_t c = series_capacity_for(3600, 0);
	assert_true(c >= 64 && c <= 200001);
	c = series_capacity_for(NAN, 1);
	assert_true(c >= 64 && c <= 200001);
	c = series_capacity_for(INFINITY, 1);
	assert_true(c >= 64 && c <= 200001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_series_ring),
	    cmocka_unit_test(test_series_capacity_for),
	};
	return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
