/*
 * Tests for a run's own disk bytes (cgio.h) and their use (rates_run_io,
 * burst_run_figures).
 *
 *  - The parsers on texts as the kernel writes them: v1
 *    blkio.throttle.io_service_bytes as this machine's 6.18 kernel wrote it
 *    (several devices, the "Total" line), v2 io.stat as
 *    Documentation/admin-guide/cgroup-v2.rst shows it and with the extra
 *    keys io.latency and io.cost add; a device not listed is 0 bytes (a
 *    fresh cgroup lists none), a malformed line of the watched device is
 *    refused, another device's is not looked at.
 *  - The reader on a real file: a directory laid out as a blkio cgroup,
 *    the watched disk's number from sysfs; a new file is a new generation.
 *  - The figures: a run's rdCV and rd@burst come from its cgroup bytes
 *    when the samples have them, whatever a neighbour reads from the disk;
 *    without them, from the disk as before; v1 writes stay the disk's.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/burst.h"
#include "sampling/cgio.h"
#include "model/rates.h"
#include "model/series.h"
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024ull * 1024ull)

/* This machine, kernel 6.18, a blkio cgroup that read from vda and loop0. */
static const char v1_text[] = "254:0 Read 134569984\n"
			      "254:0 Write 20480\n"
			      "254:0 Sync 134590464\n"
			      "254:0 Async 0\n"
			      "254:0 Discard 0\n"
			      "254:0 Total 134590464\n"
			      "7:0 Read 36027392\n"
			      "7:0 Write 1595729920\n"
			      "7:0 Sync 961269760\n"
			      "7:0 Async 1475818496\n"
			      "7:0 Discard 0\n"
			      "7:0 Total 1631757312\n"
			      "Total 1766347776\n";

/* cgroup-v2.rst "io.stat", and a line with io.latency / io.cost keys. */
static const char v2_text[] =
    "8:16 rbytes=1459200 wbytes=314773504 rios=192 wios=353 dbytes=0 dios=0\n"
    "8:0 rbytes=90430464 wbytes=299008000 rios=8950 wios=1252 dbytes=50331648 dios=3021\n"
    "254:0 rbytes=31457280 wbytes=4096 rios=240 wios=1 dbytes=0 dios=0 use_delay=0 "
    "delay_nsec=0 cost.vrate=100.00 cost.usage=7021 cost.wait=0 cost.indebt=0 "
    "cost.indelay=0\n";

static void test_parse_v1(void **state)
{
	uint64_t rd, wr;
	(void)state;
	assert_int_equal(cgio_parse_v1(v1_text, 254, 0, &rd, &wr), 1);
	assert_int_equal(rd, 134569984);
	assert_int_equal(wr, 20480);
	assert_int_equal(cgio_parse_v1(v1_text, 7, 0, &rd, &wr), 1);
	assert_int_equal(rd, 36027392);
	assert_int_equal(wr, 1595729920);
	/* 25:40 is not 254:0 nor 2:540 */
	assert_int_equal(cgio_parse_v1(v1_text, 25, 40, &rd, &wr), 0);
	assert_int_equal(cgio_parse_v1(v1_text, 254, 1, &rd, &wr), 0);
	assert_int_equal(rd, 0);
	assert_int_equal(wr, 0);
	/* a fresh cgroup: only "Total 0" */
	rd = wr = 7;
	assert_int_equal(cgio_parse_v1("Total 0\n", 254, 0, &rd, &wr), 0);
	assert_int_equal(rd, 0);
	assert_int_equal(wr, 0);
	assert_int_equal(cgio_parse_v1("", 254, 0, &rd, &wr), 0);
	/* the watched device's lines malformed or cut: refused */
	assert_int_equal(cgio_parse_v1("254:0 Read x\n254:0 Write 1\n", 254, 0, &rd, &wr), -1);
	assert_int_equal(cgio_parse_v1("254:0 Read 12\n", 254, 0, &rd, &wr), -1);
	assert_int_equal(cgio_parse_v1("254:0 Read 12z\n254:0 Write 1\n", 254, 0, &rd, &wr), -1);
	/* ... another device's are not looked at; no trailing newline */
	assert_int_equal(cgio_parse_v1("8:0 Read x\n254:0 Read 5\n254:0 Write 6", 254, 0, &rd, &wr),
			 1);
	assert_int_equal(rd, 5);
	assert_int_equal(wr, 6);
}

static void test_parse_v2(void **state)
{
	uint64_t rd, wr;
	(void)state;
	assert_int_equal(cgio_parse_v2(v2_text, 8, 0, &rd, &wr), 1);
	assert_int_equal(rd, 90430464);
	assert_int_equal(wr, 299008000);
	assert_int_equal(cgio_parse_v2(v2_text, 8, 16, &rd, &wr), 1);
	assert_int_equal(rd, 1459200);
	assert_int_equal(wr, 314773504);
	assert_int_equal(cgio_parse_v2(v2_text, 254, 0, &rd, &wr), 1);
	assert_int_equal(rd, 31457280);
	assert_int_equal(wr, 4096);
	/* not listed (8:1 is not 8:16): 0 */
	assert_int_equal(cgio_parse_v2(v2_text, 8, 1, &rd, &wr), 0);
	assert_int_equal(rd, 0);
	assert_int_equal(wr, 0);
	assert_int_equal(cgio_parse_v2("", 8, 0, &rd, &wr), 0);
	/* keys in another order */
	assert_int_equal(cgio_parse_v2("8:0 wios=1 wbytes=9 rbytes=3\n", 8, 0, &rd, &wr), 1);
	assert_int_equal(rd, 3);
	assert_int_equal(wr, 9);
	/* the watched device without its two byte counts, or a bad number */
	assert_int_equal(cgio_parse_v2("8:0 rbytes=3 rios=1\n", 8, 0, &rd, &wr), -1);
	assert_int_equal(cgio_parse_v2("8:0 rbytes=-3 wbytes=1\n", 8, 0, &rd, &wr), -1);
	assert_int_equal(rd, 0);
	/* "xrbytes=" is not "rbytes=" */
	assert_int_equal(cgio_parse_v2("8:0 xrbytes=3 wbytes=1\n", 8, 0, &rd, &wr), -1);
}

/* The disk the test's directory is on: the reader looks it up in sysfs. */
static int some_disk(char *name, size_t len, unsigned *ma, unsigned *mi)
{
	FILE *f = fopen("/proc/partitions", "re");
	char line[256], n[64];
	unsigned a, b;
	unsigned long long blocks;
	int rc = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%u %u %llu %63s", &a, &b, &blocks, n) == 4 && blocks > 0) {
			char p[160];
			snprintf(p, sizeof p, "/sys/block/%s", n);
			if (access(p, F_OK) == 0 && strlen(n) < len) {
				strcpy(name, n);
				*ma = a, *mi = b;
				rc = 0;
				break;
			}
		}
	fclose(f);
	return rc;
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_reader(void **state)
{
	char disk[64], dir[64], a[128], b[128], text[256];
	unsigned ma = 0, mi = 0;
	(void)state;
	if (some_disk(disk, sizeof disk, &ma, &mi) < 0)
		skip();
	assert_int_equal(tu_tmpdir(dir, sizeof dir, "cgio"), 0);
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	snprintf(text, sizeof text, "%u:%u Read 100\n%u:%u Write 7\nTotal 107\n", ma, mi, ma, mi);
	put_file(a, text);
	snprintf(text, sizeof text, "%u:%u rbytes=5 wbytes=6 rios=1 wios=1\n", ma, mi);
	put_file(b, text);

	struct cgio *c = cgio_new();
	struct sample s;
	memset(&s, 0, sizeof s);
	assert_int_equal(cgio_read(c, a, 1, disk, &s), 0);
	assert_int_equal(s.have, SAMPLE_HAVE_CG_IO);
	assert_int_equal(s.cg_rd_bytes, 100);
	assert_int_equal(s.cg_wr_bytes, 7);
	uint32_t g = s.cg_io_gen;
	/* re-read from the open file: the same generation, the new figure */
	snprintf(text, sizeof text, "%u:%u Read 250\n%u:%u Write 7\nTotal 257\n", ma, mi, ma, mi);
	put_file(a, text);
	memset(&s, 0, sizeof s);
	assert_int_equal(cgio_read(c, a, 1, disk, &s), 0);
	assert_int_equal(s.cg_rd_bytes, 250);
	assert_int_equal(s.cg_io_gen, g);
	/* another cgroup's file (v2): a new generation, writes are the run's */
	memset(&s, 0, sizeof s);
	assert_int_equal(cgio_read(c, b, 2, disk, &s), 0);
	assert_int_equal(s.have, SAMPLE_HAVE_CG_IO | SAMPLE_HAVE_CG_IO_WB);
	assert_int_equal(s.cg_rd_bytes, 5);
	assert_int_not_equal(s.cg_io_gen, g);
	/* a file that is gone, a disk that is none: the sample is left alone */
	memset(&s, 0, sizeof s);
	unlink(a);
	assert_int_equal(cgio_read(c, a, 1, disk, &s), -1);
	assert_int_equal(cgio_read(c, b, 2, "no-such-disk", &s), -1);
	assert_int_equal(s.have, 0);
	cgio_free(c);
	assert_int_equal(tu_rmtree(dir), 0);
}

/* One tick of a run: the disk read disk_mib in total, its cgroup own_mib
 * (cumulative, MiB), active_file in KiB for the burst rule (v1). */
static struct sample tick(int i, double disk_mib, double own_mib, uint64_t act_kb, int cgio)
{
	struct sample s;
	memset(&s, 0, sizeof s);
	s.t_ns = 1000000000ull + (uint64_t)i * 250000000ull;
	s.have = SAMPLE_HAVE_DISK | SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_CG;
	s.rd_sectors = (uint64_t)(disk_mib * 2048);
	s.wr_sectors = (uint64_t)i * 2048;
	s.cg_active_file = act_kb * 1024;
	s.cg_inactive_file = (64 * 1024 - act_kb) * 1024;
	s.cg_limit = 64 * MIB;
	if (cgio) {
		s.have |= SAMPLE_HAVE_CG_IO;
		s.cg_rd_bytes = (uint64_t)(own_mib * (double)MIB);
		s.cg_wr_bytes = 4096; /* v1: write-back is not the run's */
		s.cg_io_gen = 3;
	}
	return s;
}

static void test_run_rates(void **state)
{
	(void)state;
	struct sample a = tick(0, 0, 0, 0, 1), b = tick(1, 100, 7.5, 0, 1);
	struct rates r;
	double rd, wr;
	rates_compute(&a, &b, &r);
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_float_equal(r.read_mbs, 400, 0.01); /* the disk: a neighbour */
	assert_float_equal(rd, 30, 0.001);	   /* the run: 7.5 MiB in 0.25 s */
	assert_float_equal(wr, r.write_mbs, 1e-9); /* v1: the disk's */
	/* v2: writes from the cgroup too */
	a.have |= SAMPLE_HAVE_CG_IO_WB, b.have |= SAMPLE_HAVE_CG_IO_WB;
	b.cg_wr_bytes = 4096 + 2 * MIB;
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_float_equal(wr, 8, 0.001);
	/* a from before the cgroup (no bit, or another generation): counted
	 * from 0 */
	a.have &= ~(uint32_t)SAMPLE_HAVE_CG_IO;
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_float_equal(rd, 30, 0.001);
	a.have |= SAMPLE_HAVE_CG_IO;
	a.cg_io_gen = 2;
	a.cg_rd_bytes = 999 * MIB;
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_float_equal(rd, 30, 0.001);
	/* b without: the disk */
	b.have &= ~(uint32_t)SAMPLE_HAVE_CG_IO;
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_float_equal(rd, 400, 0.01);
	/* a counter that went back within one cgroup: unknown */
	b = tick(1, 100, 1, 0, 1);
	a = tick(0, 0, 2, 0, 1);
	rates_run_io(&a, &b, &r, &rd, &wr);
	assert_true(isnan(rd));
}

/* A flat 30 MiB/s copy beside a neighbour whose reads come and go: with
 * the cgroup's bytes rdCV is ~0 and rd@burst 1; from the disk they are
 * the neighbour's.  And a sawtooth (fast between bursts, stalled at them)
 * shows in the run's own bytes however flat the disk is. */
static void test_figures(void **state)
{
	(void)state;
	struct series *flat = series_new(64), *flat_disk = series_new(64), *saw = series_new(64);
	double disk = 0, own = 0, sdisk = 0, sown = 0;
	for (int i = 0; i < 40; i++) {
		/* the neighbour: 200 MiB/s on every other tick */
		disk += (i % 2 ? 50 : 0) + 7.5;
		own += 7.5;
		/* a burst every 8th tick (active list falls by 24 MiB), the copy
		 * reads 0.5 MiB then and 12 MiB otherwise; the disk is kept flat
		 * at 12.5 MiB a tick by the neighbour */
		int burst = i % 8 == 7;
		double got = burst ? 0.5 : 12;
		sown += got;
		sdisk += 12.5;
		uint64_t act = burst ? 8 * 1024 : 40 * 1024;
		struct sample f = tick(i, disk, own, 40 * 1024, 1),
			      fd = tick(i, disk, own, 40 * 1024, 0);
		struct sample w = tick(i, sdisk, sown, act, 1);
		series_push(flat, &f);
		series_push(flat_disk, &fd);
		series_push(saw, &w);
	}
	uint64_t t0 = 1000000000ull, t1 = t0 + 40 * 250000000ull;
	struct run_figures rf;
	burst_run_figures(flat, t0, 0, t1, &rf);
	assert_true(rf.read_cv < 0.01);
	assert_int_equal(rf.bursts, 0);
	burst_run_figures(flat_disk, t0, 0, t1, &rf);
	assert_true(rf.read_cv > 0.5); /* the neighbour's on/off */
	burst_run_figures(saw, t0, 0, t1, &rf);
	assert_true(rf.bursts >= 4);
	assert_true(rf.read_cv > 0.3);
	assert_true(rf.read_at_burst < 0.1); /* 0.5 against 12 */
	series_free(flat);
	series_free(flat_disk);
	series_free(saw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_v1), cmocka_unit_test(test_parse_v2),
	    cmocka_unit_test(test_reader),   cmocka_unit_test(test_run_rates),
	    cmocka_unit_test(test_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
