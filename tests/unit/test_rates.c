/*
 * Tests for rates: counter deltas and per-second rates of the disk, vm and
 * cpu counters between two samples.
 *
 * Expected values are worked out here from the contracts in the headers and
 * docs/design.md (a MiB is 2^20 bytes, a sector 512 bytes ...), never copied from
 * a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/rates.h"
#include "sampling/sample.h"
#include "base/util.h"
#include "near.h"

#include <math.h>
#include <string.h>

#define NS 1000000000ull

/* ---- rates ------------------------------------------------------------ */

static void test_rate_delta(void **state)
{
	(void)state;
	assert_int_equal(rate_delta(10, 15), 5);
	assert_int_equal(rate_delta(7, 7), 0);
	/* 32-bit wrap: 0xFF steps to 2^32 - 1, one more to 0, 0x100 after. */
	assert_int_equal(rate_delta(0xFFFFFF00u, 0x100u), 0xFF + 1 + 0x100);
	/* 64-bit counters far above 2^32 that go down were reset. */
	assert_int_equal(rate_delta(5000000000ull, 10), -1);
	/* A small decrease is neither a wrap nor data. */
	assert_int_equal(rate_delta(1000, 5), -1);
	/* Large 64-bit deltas stay exact. */
	assert_int_equal(rate_delta(1ull << 40, (1ull << 40) + 12345), 12345);
}

static void test_rate_per_s(void **state)
{
	(void)state;
	assert_near(rate_per_s(100, 300, 2.0), 100.0, 1e-12);
	assert_near(rate_per_s(0, 1, 0.25), 4.0, 1e-12);
	assert_near(rate_per_s(5, 5, 1.0), 0.0, 0.0);
	assert_nan(rate_per_s(0, 100, 0.0));
	assert_nan(rate_per_s(0, 100, -1.0));
	assert_nan(rate_per_s(0, 100, NAN));
	assert_nan(rate_per_s(1000, 5, 1.0));
}

/* Sectors are 512 bytes: 2048 a MiB. */
static void test_rate_sectors_mibs(void **state)
{
	(void)state;
	assert_near(rate_sectors_mibs(0, 2048, 1.0), 1.0, 1e-12);
	assert_near(rate_sectors_mibs(1000, 1000 + 3 * 2048, 0.5), 6.0, 1e-12);
	assert_nan(rate_sectors_mibs(0, 2048, 0.0));
	assert_nan(rate_sectors_mibs(4096, 2048, 1.0));
}

/* Two samples dt_s apart, every source present, every counter equal. */
static void pair(struct sample *a, struct sample *b, double dt_s)
{
	memset(a, 0, sizeof(*a));
	a->t_ns = 1000 * NS;
	a->have =
	    SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_VMX | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CPU;
	a->disk_id = 1;
	a->run = -1;
	*b = *a;
	b->t_ns = a->t_ns + (uint64_t)llround(dt_s * 1e9);
}

static void test_rates_disk(void **state)
{
	(void)state;
	struct sample a, b;
	struct rates r;
	pair(&a, &b, 0.5);
	a.rd_sectors = 1000;
	b.rd_sectors = 1000 + 2048; /* 2048 * 512 B = 1 MiB in 0.5 s */
	a.wr_sectors = 0;
	b.wr_sectors = 512; /* 0.25 MiB in 0.5 s */
	a.rd_ios = 10;
	b.rd_ios = 60; /* 50 in 0.5 s */
	a.io_ms = 100;
	b.io_ms = 350; /* busy 250 ms of 500 */
	rates_compute(&a, &b, &r);
	assert_near(r.dt, 0.5, 1e-12);
	assert_near(r.read_mbs, 2.0, 1e-9);
	assert_near(r.write_mbs, 0.5, 1e-9);
	assert_near(r.read_iops, 100.0, 1e-9);
	assert_near(r.util_pct, 50.0, 1e-9);

	/* The measured t_ns difference counts, whatever the nominal interval:
	 * the same counters 2 s apart give a quarter of the rate. */
	b.t_ns = a.t_ns + 2 * NS;
	rates_compute(&a, &b, &r);
	assert_near(r.read_mbs, 0.5, 1e-9);

	/* No previous sample: everything unknown. */
	rates_compute(NULL, &b, &r);
	assert_nan(r.dt);
	assert_nan(r.read_mbs);
	assert_nan(r.write_mbs);
	assert_nan(r.pgactivate_s);
	assert_nan(r.pgscan_s);
	assert_nan(r.refault_file_s);
	assert_nan(r.cpu_user);
	assert_nan(r.cpu_idle);

	/* The disk missing in either sample. */
	b.t_ns = a.t_ns + NS / 2;
	a.have &= ~(uint32_t)SAMPLE_HAVE_DISK;
	rates_compute(&a, &b, &r);
	assert_nan(r.read_mbs);
	assert_nan(r.util_pct);
	a.have |= SAMPLE_HAVE_DISK;
	b.have &= ~(uint32_t)SAMPLE_HAVE_DISK;
	rates_compute(&a, &b, &r);
	assert_nan(r.read_mbs);
	b.have |= SAMPLE_HAVE_DISK;

	/* Device re-created between the samples: its counters restarted. */
	b.disk_id = 2;
	rates_compute(&a, &b, &r);
	assert_nan(r.read_mbs);
	assert_nan(r.write_mbs);
	b.disk_id = 1;

	/* A counter reset is "no data", not a huge or negative rate. */
	b.rd_sectors = 3;
	rates_compute(&a, &b, &r);
	assert_nan(r.read_mbs);
	assert_near(r.write_mbs, 0.5, 1e-9);

	/* Time going backwards or standing still. */
	b.t_ns = a.t_ns;
	rates_compute(&a, &b, &r);
	assert_nan(r.read_mbs);
	assert_nan(r.write_mbs);
}

static void test_rates_vm(void **state)
{
	(void)state;
	struct sample a, b;
	struct rates r;
	pair(&a, &b, 1.0);
	/* By type: file +200, anon +100.  By reclaimer: kswapd +10000,
	 * direct +10000.  A sum of both would be 20300. */
	a.pgscan_file = 100;
	b.pgscan_file = 300;
	b.pgscan_anon = 100;
	b.pgscan_kswapd = 10000;
	b.pgscan_direct = 10000;
	a.pgsteal_file = 5;
	b.pgsteal_file = 45;
	b.pgsteal_kswapd = 700;
	b.pgsteal_direct = 70;
	a.pgdeactivate = 1000;
	b.pgdeactivate = 1500;
	b.pgactivate = 40;
	a.refault_file = 7;
	b.refault_file = 19;
	b.pgmajfault = 3;

	rates_compute(&a, &b, &r);
	assert_near(r.pgscan_s, 300.0, 1e-9);
	assert_near(r.pgsteal_s, 40.0, 1e-9);
	assert_near(r.pgdeactivate_s, 500.0, 1e-9);
	assert_near(r.pgactivate_s, 40.0, 1e-9);
	assert_near(r.refault_file_s, 12.0, 1e-9);
	assert_near(r.majflt_s, 3.0, 1e-9);
	assert_int_equal(sample_pgscan(&b), 400);
	assert_int_equal(sample_pgsteal(&b), 45);

	a.have &= ~(uint32_t)SAMPLE_HAVE_VMX;
	b.have &= ~(uint32_t)SAMPLE_HAVE_VMX;
	rates_compute(&a, &b, &r);
	assert_near(r.pgscan_s, 20000.0, 1e-9);
	assert_near(r.pgsteal_s, 770.0, 1e-9);
	assert_int_equal(sample_pgscan(&b), 20000);
	/* Without the by-type keys there is no refault counter either. */
	assert_nan(r.refault_file_s);
	/* vmstat (libproc2) still there */
	assert_near(r.pgdeactivate_s, 500.0, 1e-9);

	/* Without vmstat at all in one sample. */
	b.have &= ~(uint32_t)SAMPLE_HAVE_VM;
	rates_compute(&a, &b, &r);
	assert_nan(r.pgdeactivate_s);
	assert_nan(r.pgscan_s);
}

static void test_rates_cpu(void **state)
{
	(void)state;
	struct sample a, b;
	struct rates r;
	pair(&a, &b, 1.0);
	a.cpu_user = 100;
	b.cpu_user = 150; /* +50 */
	b.cpu_nice = 10;
	a.cpu_sys = 50;
	b.cpu_sys = 70; /* +20 */
	a.cpu_idle = 1000;
	b.cpu_idle = 1100; /* +100 */
	b.cpu_iowait = 20;
	b.cpu_irq = 5;
	b.cpu_softirq = 5;
	b.cpu_steal = 10;
	/* the eight base ticks moved by 50+10+20+100+20+5+5+10 = 220 */
	rates_compute(&a, &b, &r);
	double sum = r.cpu_user + r.cpu_sys + r.cpu_idle + r.cpu_iowait + r.cpu_steal;
	assert_near(sum, 100.0, 1e-6);
	assert_near(r.cpu_idle, 100.0 * 100 / 220, 1e-6);
	assert_near(r.cpu_iowait, 100.0 * 20 / 220, 1e-6);
	assert_near(r.cpu_steal, 100.0 * 10 / 220, 1e-6);
	/* user (with nice) and system (with irq) are at least their base share */
	assert_true(r.cpu_user >= 100.0 * 50 / 220 - 1e-6);
	assert_true(r.cpu_sys >= 100.0 * 20 / 220 - 1e-6);

	b.have &= ~(uint32_t)SAMPLE_HAVE_CPU;
	rates_compute(&a, &b, &r);
	assert_nan(r.cpu_user);
	assert_nan(r.cpu_idle);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rate_delta),
	    cmocka_unit_test(test_rate_per_s),
	    cmocka_unit_test(test_rate_sectors_mibs),
	    cmocka_unit_test(test_rates_disk),
	    cmocka_unit_test(test_rates_vm),
	    cmocka_unit_test(test_rates_cpu),
	};
	return cmocka_run_group_tests_name("rates", tests, NULL, NULL);
}
