/*
 * Tests for the reducing read of a recording (export_reduce.c): a
 * recording written by the real recorder, longer than the columns, is
 * read back reduced, and what the picture's time axis and rates stand on
 * holds: the range's first and last samples are pushed (the axis spans the
 * recording, as the whole picture's does), in time order, each once, and
 * a bucket's extremes are its raw intervals' own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "output/export_reduce.h"
#include "model/rates.h"
#include "recording/record.h"
#include "model/series.h"
#include "testutil.h"
#include "base/util.h"

TU_TMPDIR_SUITE("svgreduce")

#define TICK 100000000ull /* 0.1 s */
#define N    100
#define COLS 10 /* 10 samples a bucket */

/* The read sectors of interval i (samples i-1, i): bucket 0's first
 * interval is neither its highest nor its lowest, so only the rule "the
 * range's first sample" keeps sample 0; the others 1000, but one peak of
 * 9000 at interval 55 and one dip of 100 at interval 73. */
static uint64_t sectors(int i)
{
	static const uint64_t first[] = {0, 1000, 2000, 500};
	if (i < (int)ARRAY_LEN(first))
		return first[i];
	return i == 55 ? 9000 : i == 73 ? 100 : 1000;
}

static void write_recording(const char *path)
{
	char err[512];
	struct record_header h;
	char *argv[] = {"lrutop", "--record", (char *)path};
	record_header_init(&h);
	strcpy(h.version, "test");
	strcpy(h.device, "vda");
	h.interval_s = 0.1;
	h.argc = (int)ARRAY_LEN(argv);
	h.argv = argv;
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK;
	s.mem_total = 24ull << 20;
	s.run = -1;
	for (int i = 0; i < N; i++) {
		s.t_ns = 5000000000ull + (uint64_t)i * TICK;
		s.rd_sectors += sectors(i);
		assert_int_equal(recorder_sample(r, &s, NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

static void test_ends_kept(void **state)
{
	(void)state;
	char path[128], warn[256], err[512];
	snprintf(path, sizeof(path), "%s/r.jsonl", dir);
	write_recording(path);
	struct rec_load r;
	struct reduce_info ri;
	struct reduce_opts ro = {.cols = COLS, .from_s = -1, .to_s = -1};
	assert_int_equal(
	    export_load_reduced(&r, path, NULL, &ro, &ri, warn, sizeof(warn), err, sizeof(err)), 0);
	assert_true(ri.reduced);
	assert_int_equal(ri.n, N);
	size_t len = series_len(r.ser);
	assert_true(len < N);
	/* the axis of the reduced picture spans the recording */
	assert_int_equal(series_at(r.ser, 0)->t_ns, ri.t_first);
	assert_int_equal(series_back(r.ser, 0)->t_ns, ri.t_last);
	assert_int_equal(ri.t_last - ri.t_first, (N - 1) * TICK);
	/* in time order, each once; the peak and the dip as raw intervals */
	int peak = 0, dip = 0;
	for (size_t i = 1; i < len; i++) {
		const struct sample *a = series_at(r.ser, i - 1), *b = series_at(r.ser, i);
		assert_true(a->t_ns < b->t_ns);
		if (b->t_ns - a->t_ns != TICK)
			continue;
		uint64_t d = b->rd_sectors - a->rd_sectors;
		peak |= d == 9000;
		dip |= d == 100;
	}
	assert_true(peak);
	assert_true(dip);
	rec_load_done(&r);
	export_reduce_done(&ri);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_ends_kept, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
