/*
 * Tests for export_csv (export_csv.h): a series exported afterwards gives
 * the bytes --csv writes live.  Real samples from the real sampler, each
 * written the way the live loop does (app_tick: csv_row with the previous
 * sample, t0 = the first sample, the run's label), and the same samples
 * pushed into a series and exported; the two files must be equal.  Also:
 * a sample whose run is not in the table gets no label, and a write error
 * (/dev/full) is reported.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "output/export_csv.h"
#include "output/output.h"
#include "sampling/sampler.h"
#include "model/series.h"
#include "runs/session.h"
#include "base/util.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static void test_same_as_live(void **state)
{
	(void)state;
	char err[256], live[] = "/tmp/lrutop-csv-live.XXXXXX", exp[] = "/tmp/lrutop-csv-exp.XXXXXX";
	int lfd = mkstemp(live), efd = mkstemp(exp);
	assert_true(lfd >= 0 && efd >= 0);
	FILE *lf = fdopen(lfd, "w"), *ef = fdopen(efd, "w");
	assert_non_null(lf);
	assert_non_null(ef);
	struct sampler *sm = sampler_new(NULL, err, sizeof err);
	assert_non_null(sm);
	struct series *ser = series_new(64);
	struct run_result runs[2];
	memset(runs, 0, sizeof runs);
	snprintf(runs[0].name, sizeof runs[0].name, "rw_cp");
	snprintf(runs[1].name, sizeof runs[1].name, "a&b, \"c\"");
	struct sample s;
	uint64_t t0 = 0, next = mono_ns();
	csv_header(lf);
	for (int i = 0; i < 12; i++) {
		while (mono_ns() < next)
			poll(NULL, 0, (int)((next - mono_ns()) / 1000000u) + 1);
		next += 50000000ull;
		sampler_read(sm, &s);
		s.run = (int16_t)(i < 3 ? -1 : i < 7 ? 0 : 1);
		s.phase = (int8_t)(s.run >= 0 ? PHASE_COPY : PHASE_IDLE);
		const struct sample *prev = series_back(ser, 0);
		if (!prev)
			t0 = s.t_ns;
		csv_row(lf, prev, &s, t0, s.run >= 0 ? runs[s.run].name : NULL);
		series_push(ser, &s);
	}
	assert_int_equal(fclose(lf), 0);
	assert_int_equal(export_csv_write(ef, ser, runs, 2, err, sizeof err), 0);
	assert_int_equal(fclose(ef), 0);
	assert_true(tu_files_equal(live, exp));

	/* a run index past the table: no label, not a crash */
	FILE *f = fopen(exp, "w");
	assert_non_null(f);
	assert_int_equal(export_csv_write(f, ser, runs, 1, err, sizeof err), 0);
	fclose(f);
	assert_false(tu_files_equal(live, exp));
	unlink(live);
	unlink(exp);

	f = fopen("/dev/full", "w");
	assert_non_null(f);
	assert_int_equal(export_csv_write(f, ser, runs, 2, err, sizeof err), -1);
	assert_string_equal(err, "write error: No space left on device");
	fclose(f);
	sampler_free(sm);
	series_free(ser);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_same_as_live),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
