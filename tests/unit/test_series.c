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

#include "model/sample_pack.h"
#include "model/series.h"
#include "base/util.h"

#include <math.h>
#include <stdlib.h>
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

/* ---- packed history ------------------------------------------------------ */

/* xorshift: the same "random" samples on every run */
static uint64_t rnd(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Sample k of a stream whose every byte (padding too) is set: time rises,
 * counters move by small and by huge steps, some fall, floats change. */
static void stream_sample(uint64_t *x, uint64_t k, struct sample *s)
{
	uint64_t *w = (uint64_t *)(void *)s;
	for (size_t i = 0; i < SAMPLE_PACK_WORDS; i++) {
		uint64_t r = rnd(x);
		switch (r % 4) {
		case 0: /* still */
			break;
		case 1: /* a counter moving a little */
			w[i] += r >> 56;
			break;
		case 2: /* a gauge falling */
			w[i] -= r >> 40;
			break;
		default: /* anything, even every bit */
			w[i] = rnd(x);
		}
	}
	s->t_ns = 1000000000ull + k * 100000000ull + rnd(x) % 1000;
}

/* cur packed against prev2 and prev, then back: n bytes, cur again */
static size_t roundtrip(const struct sample *prev2, const struct sample *prev,
			const struct sample *cur)
{
	uint8_t buf[SAMPLE_PACK_MAX];
	struct sample back;
	size_t n = sample_pack(prev2, prev, cur, buf);
	assert_true(n >= 1 && n <= SAMPLE_PACK_MAX);
	memset(&back, 0x5a, sizeof(back));
	assert_int_equal(sample_unpack(prev2, prev, buf, n, &back), n);
	assert_memory_equal(&back, cur, sizeof(back));
	return n;
}

static void test_pack_roundtrip(void **state)
{
	(void)state;
	uint64_t x = 88172645463325252ull;
	struct sample prev2, prev, cur, back;
	uint8_t buf[SAMPLE_PACK_MAX];
	memset(&prev, 0, sizeof(prev));
	prev2 = prev;
	cur = prev;
	/* a sample of zeros against zeros is an empty mask alone */
	assert_int_equal(sample_pack(NULL, NULL, &cur, buf), 1);
	for (uint64_t k = 0; k < 5000; k++) {
		stream_sample(&x, k, &cur);
		const struct sample *p = k % 97 ? &prev : NULL, *p2 = k % 5 ? &prev2 : NULL;
		size_t n = sample_pack(p2, p, &cur, buf);
		assert_true(n >= 1 && n <= SAMPLE_PACK_MAX);
		memset(&back, 0x5a, sizeof(back));
		assert_int_equal(sample_unpack(p2, p, buf, n, &back), n);
		assert_memory_equal(&back, &cur, sizeof(cur));
		/* cut short anywhere inside the varints: refused, not misread */
		assert_int_equal(sample_unpack(p2, p, buf, n - 1 - k % n, &back), 0);
		prev2 = prev;
		prev = cur;
	}
	/* every word at its worst: all bits set against zeros */
	memset(&cur, 0xff, sizeof(cur));
	size_t n = roundtrip(NULL, NULL, &cur);
	/* and every word at its worst against a prediction: the time
	 * extrapolated past 2^64, page counts that do not divide */
	memset(&prev2, 0, sizeof(prev2));
	memset(&prev, 0x80, sizeof(prev));
	for (int k = 0; k < 3; k++) {
		memset(&cur, k == 0 ? 0x7f : k == 1 ? 0x01 : 0xff, sizeof(cur));
		roundtrip(&prev2, &prev, &cur);
	}
	/* a steady interval costs nothing; whole pages cost their count */
	memset(&prev2, 0, sizeof(prev2));
	prev2.t_ns = 1000;
	prev = prev2;
	prev.t_ns = 1100;
	prev.cg_usage = 1 << 30;
	cur = prev;
	cur.t_ns = 1200;
	cur.cg_usage += 64 * 4096;
	/* the time on its interval: unchanged; mask, bitmap byte 0 (the
	 * time's bit went), zigzag(64) << 1 in two */
	assert_int_equal(roundtrip(&prev2, &prev, &cur), 4);
	cur.cg_usage += 1; /* not whole pages: the pages, then the bytes */
	assert_int_equal(roundtrip(&prev2, &prev, &cur), 5);
	/* unpacking into prev itself works (out may be prev) */
	memset(&prev, 0, sizeof(prev));
	prev.t_ns = 5;
	cur = prev;
	cur.t_ns = 7;
	n = sample_pack(NULL, &prev, &cur, buf);
	assert_int_equal(n, 3); /* mask, the bitmap's first byte, the time */
	assert_int_equal(sample_unpack(NULL, &prev, buf, n, &prev), n);
	assert_int_equal(prev.t_ns, 7);
	/* malformed: a mask bit past the bitmap, a changed bitmap byte that
	 * did not change, nothing at all */
	memset(buf, 0, sizeof(buf));
	buf[0] = 0x80, buf[1] = 0x7f; /* varint 1 << 14 */
	assert_int_equal(sample_unpack(NULL, NULL, buf, 2, &back), 0);
	buf[0] = 1, buf[1] = 0;
	assert_int_equal(sample_unpack(NULL, NULL, buf, 2, &back), 0);
	assert_int_equal(sample_unpack(NULL, NULL, buf, 0, &back), 0);
}

/* A history of cap samples against a plain copy of the stream: every
 * index, from both ends, and series_find of times on and between samples,
 * after every push through several evictions of packed blocks. */
static void check_against_copy(size_t cap, size_t pushes)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ cap;
	struct sample *all = xcalloc(pushes, sizeof(*all));
	struct series *s = series_new(cap);
	struct sample cur;
	memset(&cur, 0, sizeof(cur));
	for (size_t k = 0; k < pushes; k++) {
		stream_sample(&x, k, &cur);
		all[k] = cur;
		series_push(s, &cur);
		size_t len = k + 1 < cap ? k + 1 : cap, first = k + 1 - len;
		assert_int_equal(series_len(s), len);
		assert_int_equal(series_pushed(s), k + 1);
		assert_memory_equal(series_back(s, 0), &all[k], sizeof(cur));
		if (len > 1)
			assert_memory_equal(series_back(s, 1), &all[k - 1], sizeof(cur));
		/* all of it now and then, in a scattered order */
		if (k % 61 == 0 || k + 1 == pushes) {
			for (size_t j = 0; j < len; j++) {
				size_t i = (j * 7919) % len;
				assert_memory_equal(series_at(s, i), &all[first + i], sizeof(cur));
			}
			assert_null(series_at(s, len));
			assert_null(series_back(s, len));
			for (size_t j = 0; j < 40; j++) {
				size_t i = (size_t)(rnd(&x) % len);
				uint64_t t = all[first + i].t_ns;
				assert_int_equal(series_find(s, t), (long)i);
				/* between i-1 and i: i */
				if (i && all[first + i - 1].t_ns + 1 < t)
					assert_int_equal(series_find(s, t - 1), (long)i);
			}
			assert_int_equal(series_find(s, 0), 0);
			assert_int_equal(series_find(s, all[k].t_ns + 1), -1);
		}
	}
	series_free(s);
	free(all);
}

static void test_series_packed(void **state)
{
	(void)state;
	check_against_copy(65, 1000);	/* the smallest window the TUI makes */
	check_against_copy(200, 2000);	/* blocks leave while half read */
	check_against_copy(1000, 1500); /* not yet full, then full */
	check_against_copy(3, 300);	/* smaller than a block */
}

/* Reads that walk the whole history pairwise, as the charts do (the
 * sample before and the sample), and reads far apart: a pointer is good
 * until other blocks are read, as series.h says. */
static void test_series_pairs(void **state)
{
	(void)state;
	struct series *s = series_new(5000);
	struct sample cur;
	memset(&cur, 0, sizeof(cur));
	for (uint64_t k = 0; k < 5000; k++) {
		cur.t_ns = 10 + k * 3;
		cur.rd_sectors = k * k;
		series_push(s, &cur);
	}
	for (size_t i = 1; i < 5000; i++) {
		const struct sample *a = series_at(s, i - 1), *b = series_at(s, i);
		assert_int_equal(b->rd_sectors - a->rd_sectors, 2 * i - 1);
	}
	const struct sample *old = series_at(s, 0), *now = series_back(s, 0);
	assert_int_equal(old->t_ns, 10);
	assert_int_equal(now->t_ns, 10 + 4999 * 3);
	series_free(s);
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
	    cmocka_unit_test(test_pack_roundtrip),
	    cmocka_unit_test(test_series_packed),
	    cmocka_unit_test(test_series_pairs),
	};
	return cmocka_run_group_tests_name("series", tests, NULL, NULL);
}
