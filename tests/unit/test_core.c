/*
 * Tests for the pure modules: rates, series, kvfile, options, grid, chart.
 *
 * Expected values are worked out here from the contracts in the headers and
 * DESIGN.md (a MiB is 2^20 bytes, a sector 512 bytes, braille dot 1 is bit
 * 0x01 ...), never copied from a run of the code.  The only /proc reads are
 * in the kvfile group, where the value is cross-checked by a second,
 * independent reader (stdio fscanf).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "chart.h"
#include "grid.h"
#include "kvfile.h"
#include "options.h"
#include "rates.h"
#include "sample.h"
#include "series.h"
#include "util.h"
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- helpers ---------------------------------------------------------- */

static void near_(double got, double want, double eps, const char *what, const char *file, int line)
{
	if (!(fabs(got - want) <= eps)) {
		print_error("%s = %.9g, expected %.9g (+-%g)\n", what, got, want, eps);
		_fail(file, line);
	}
}
#define assert_near(got, want, eps) near_((got), (want), (eps), #got, __FILE__, __LINE__)

static void nan_(double v, const char *what, const char *file, int line)
{
	if (!isnan(v)) {
		print_error("%s = %.9g, expected NAN\n", what, v);
		_fail(file, line);
	}
}
#define assert_nan(v) nan_((v), #v, __FILE__, __LINE__)

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

/* ---- kvfile ----------------------------------------------------------- */

static void test_kvfile_parse_exact(void **state)
{
	(void)state;
	const char *keys[] = {"pgscan_direct", "pgscan_kswapd", "nr_dirty", "last"};
	uint64_t v[4];
	const char *buf = "pgscan_direct_throttle 5\n"
			  "xpgscan_kswapd 6\n"
			  "pgscan_kswapd 77\n"
			  "nr_dirty\t12\n"
			  "pgscan_direct 123\n"
			  "last 9876543210";
	assert_int_equal(kvfile_parse(buf, keys, 4, v), 4);
	assert_int_equal(v[0], 123);
	assert_int_equal(v[1], 77);
	assert_int_equal(v[2], 12);
	assert_int_equal(v[3], 9876543210ull);

	/* pgscan_direct only present as a prefix of a longer key. */
	buf = "pgscan_direct_throttle 5\npgscan_kswapd 1\n";
	assert_int_equal(kvfile_parse(buf, keys, 4, v), 1);
	assert_true(v[0] == KVFILE_MISSING);
	assert_int_equal(v[1], 1);
	assert_true(v[2] == KVFILE_MISSING);
	assert_true(v[3] == KVFILE_MISSING);

	/* a longer key given, the file has the prefix */
	const char *k2[] = {"pgscan_direct_throttle"};
	assert_int_equal(kvfile_parse("pgscan_direct 5\n", k2, 1, v), 0);
	assert_true(v[0] == KVFILE_MISSING);

	/* 0 is a value, not a missing key */
	assert_int_equal(kvfile_parse("nr_dirty 0\n", &keys[2], 1, v), 1);
	assert_int_equal(v[0], 0);

	/* several blanks and tabs between key and value */
	assert_int_equal(kvfile_parse("nr_dirty \t  42\n", &keys[2], 1, v), 1);
	assert_int_equal(v[0], 42);

	/* empty input */
	assert_int_equal(kvfile_parse("", keys, 4, v), 0);
	assert_true(v[0] == KVFILE_MISSING && v[3] == KVFILE_MISSING);
}

static void test_kvfile_parse_bad_values(void **state)
{
	(void)state;
	const char *keys[] = {"a", "b", "c", "d"};
	uint64_t v[4];
	/* 2^64 = 18446744073709551616 does not fit; 2^64 - 2 does. */
	const char *buf = "a 18446744073709551616\n"
			  "b 18446744073709551614\n"
			  "c 99999999999999999999999999\n"
			  "d -5\n";
	assert_int_equal(kvfile_parse(buf, keys, 4, v), 1);
	assert_true(v[0] == KVFILE_MISSING);
	assert_true(v[1] == UINT64_MAX - 1);
	assert_true(v[2] == KVFILE_MISSING);
	assert_true(v[3] == KVFILE_MISSING);

	/* a key with no value, then a key whose value is on the next line */
	assert_int_equal(kvfile_parse("a\nb 3\nc\n4\n", keys, 4, v), 1);
	assert_true(v[0] == KVFILE_MISSING);
	assert_int_equal(v[1], 3);
	assert_true(v[2] == KVFILE_MISSING);
}

static void test_kvfile_parse_psi(void **state)
{
	(void)state;
	struct psi p;
	const char *mem = "some avg10=1.23 avg60=4.56 avg300=7.89 total=456\n"
			  "full avg10=0.50 avg60=0.60 avg300=0.70 total=7\n";
	assert_int_equal(kvfile_parse_psi(mem, &p), 0);
	assert_near(p.some_avg10, 1.23, 1e-9);
	assert_near(p.full_avg10, 0.50, 1e-9);
	assert_int_equal(p.some_total, 456);
	assert_int_equal(p.full_total, 7);

	/* cpu on older kernels: only a some line, no trailing newline */
	memset(&p, 0xff, sizeof(p));
	assert_int_equal(kvfile_parse_psi("some avg10=12.34 avg60=0.00 avg300=0.00 total=99", &p),
			 0);
	assert_near(p.some_avg10, 12.34, 1e-9);
	assert_int_equal(p.some_total, 99);
	assert_near(p.full_avg10, 0.0, 0.0);
	assert_int_equal(p.full_total, 0);

	/* 100.00 is the largest avg the kernel prints */
	assert_int_equal(kvfile_parse_psi("some avg10=100.00 avg60=1 avg300=2 total=1\n", &p), 0);
	assert_near(p.some_avg10, 100.0, 1e-9);

	/* nothing PSI-like */
	assert_int_equal(kvfile_parse_psi("", &p), -1);
	assert_int_equal(kvfile_parse_psi("hello world\n", &p), -1);
	assert_int_equal(kvfile_parse_psi("some avg60=1.00 total=3\n", &p), -1);
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	size_t n = strlen(text);
	ssize_t w = write(fd, text, n);
	close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

static void test_kvfile_open_missing(void **state)
{
	(void)state;
	char err[256] = "";
	const char *path = "/nonexistent-lrutop-test/memory.stat";
	const char *keys[] = {"x"};
	assert_null(kvfile_open(path, keys, 1, err, sizeof(err)));
	assert_non_null(strstr(err, path));
	/* no error buffer: still just NULL */
	assert_null(kvfile_open(path, keys, 1, NULL, 0));
	kvfile_free(NULL);
}

static void test_kvfile_reread(void **state)
{
	(void)state;
	char dir[] = "/tmp/lrutop-core-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof(path), "%s/stat", dir);
	const char *keys[] = {"active_file", "inactive_file"};
	uint64_t v[2];

	assert_int_equal(write_file(path, "active_file 10\ninactive_file 20\n"), 0);
	char err[256] = "";
	struct kvfile *kv = kvfile_open(path, keys, 2, err, sizeof(err));
	assert_non_null(kv);
	assert_int_equal(kvfile_read(kv, v), 2);
	assert_int_equal(v[0], 10);
	assert_int_equal(v[1], 20);
	/* rewritten in place (same inode, shorter): the handle sees the new
	 * content and nothing of the old */
	assert_int_equal(write_file(path, "active_file 3\n"), 0);
	assert_int_equal(kvfile_read(kv, v), 1);
	assert_int_equal(v[0], 3);
	assert_true(v[1] == KVFILE_MISSING);
	kvfile_free(kv);

	/* single-number files */
	uint64_t n = 0;
	assert_int_equal(write_file(path, "134217728\n"), 0);
	kv = kvfile_open(path, NULL, 0, err, sizeof(err));
	assert_non_null(kv);
	assert_int_equal(kvfile_read_number(kv, &n), 0);
	assert_int_equal(n, 134217728);
	assert_int_equal(write_file(path, "max\n"), 0);
	assert_int_equal(kvfile_read_number(kv, &n), 0);
	assert_true(n == KVFILE_MISSING);
	kvfile_free(kv);

	/* PSI through a handle */
	struct psi p;
	assert_int_equal(write_file(path, "some avg10=2.50 avg60=0.00 avg300=0.00 total=10\n"
					  "full avg10=1.25 avg60=0.00 avg300=0.00 total=5\n"),
			 0);
	kv = kvfile_open(path, NULL, 0, err, sizeof(err));
	assert_non_null(kv);
	assert_int_equal(kvfile_read_psi(kv, &p), 0);
	assert_near(p.some_avg10, 2.5, 1e-9);
	assert_near(p.full_avg10, 1.25, 1e-9);
	assert_int_equal(p.full_total, 5);
	kvfile_free(kv);

	/* A file longer than the handle's buffer (32 KiB per kvfile.c): a line
	 * cut at the end of what was read must not yield a shortened number.
	 * Whatever the buffer size, "cut" straddles offset 32767 here. */
	{
		size_t fill = 32767 - 6; /* "cut 1234567890\n" starts 6 bytes before */
		char *big = xmalloc(fill + 4096);
		size_t len = 0;
		len += (size_t)sprintf(big + len, "first 1\n");
		while (len + 8 < fill)
			len += (size_t)sprintf(big + len, "pad 0\n");
		while (len < fill)
			big[len++] = '#'; /* a comment-like line without a value */
		big[len - 1] = '\n';
		len += (size_t)sprintf(big + len, "cut 1234567890\nlast 2\n");
		assert_int_equal(write_file(path, big), 0);
		free(big);
		const char *bk[] = {"first", "cut"};
		kv = kvfile_open(path, bk, 2, err, sizeof(err));
		assert_non_null(kv);
		assert_true(kvfile_read(kv, v) >= 1);
		assert_int_equal(v[0], 1);
		if (v[1] != KVFILE_MISSING && v[1] != 1234567890ull)
			fail_msg("cut-off line read as %llu", (unsigned long long)v[1]);
		kvfile_free(kv);
	}

	unlink(path);
	rmdir(dir);
}

/* nr_free_pages by a second reader: stdio, token by token. */
static int vmstat_by_stdio(const char *key, unsigned long long *out)
{
	return tu_key_value("/proc/vmstat", key, out);
}

static void test_kvfile_proc_vmstat(void **state)
{
	(void)state;
	if (access("/proc/vmstat", R_OK) != 0) {
		printf("SKIP kvfile_proc_vmstat: no /proc/vmstat\n");
		skip();
	}
	const char *keys[] = {"nr_free_pages", "no_such_key_lrutop"};
	uint64_t v[2];
	char err[256] = "";
	struct kvfile *kv = kvfile_open("/proc/vmstat", keys, 2, err, sizeof(err));
	assert_non_null(kv);
	assert_int_equal(kvfile_read(kv, v), 1);
	unsigned long long mine = 0;
	assert_int_equal(vmstat_by_stdio("nr_free_pages", &mine), 0);
	assert_true(mine > 0);
	assert_true(v[1] == KVFILE_MISSING);
	/* free pages move between the two reads; 5 % is plenty for that and
	 * far below what a wrong key or a truncated number would give. */
	double diff = fabs((double)v[0] - (double)mine);
	if (diff > 0.05 * (double)mine)
		fail_msg("nr_free_pages: kvfile %llu, stdio %llu", (unsigned long long)v[0], mine);
	/* a second read through the same handle works too */
	assert_int_equal(kvfile_read(kv, v), 1);
	assert_true(v[0] > 0 && v[0] != KVFILE_MISSING);
	kvfile_free(kv);
}

/* ---- options ---------------------------------------------------------- */

static void test_parse_size(void **state)
{
	(void)state;
	uint64_t v;
	static const struct {
		const char *s;
		uint64_t want;
	} ok[] = {
	    {"0", 0},
	    {"1", 1},
	    {"4K", 4096},
	    {"4k", 4096},
	    {"1.5M", 3ull << 19},
	    {"2G", 2ull << 30},
	    {"1T", 1ull << 40},
	    {"512MiB", 512ull << 20},
	    {"8KB", 8192},
	    {"16777215T", (16777215ull) << 40}, /* 2^64 - 2^40: still fits */
	};
	for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
		v = 12345;
		if (parse_size(ok[i].s, &v) != 0)
			fail_msg("parse_size(\"%s\") rejected", ok[i].s);
		if (v != ok[i].want)
			fail_msg("parse_size(\"%s\") = %llu, want %llu", ok[i].s,
				 (unsigned long long)v, (unsigned long long)ok[i].want);
	}
	static const char *const bad[] = {
	    "-1",
	    "+1",
	    "abc",
	    "",
	    "12Q",
	    "1e400",
	    "4K4",
	    "K",
	    " 4K",
	    "4K ",
	    "nan",
	    "inf",
	    "16777216T", /* 2^64 */
	    "99999999999999999999999",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		v = 777;
		if (parse_size(bad[i], &v) == 0)
			fail_msg("parse_size(\"%s\") accepted (%llu)", bad[i],
				 (unsigned long long)v);
		assert_int_equal(v, 777); /* untouched on error */
	}
	assert_int_equal(parse_size(NULL, &v), -1);
}

static void test_parse_interval(void **state)
{
	(void)state;
	double d = -1;
	char err[256] = "";
	assert_int_equal(parse_interval("0.05", &d, err, sizeof(err)), 0);
	assert_near(d, 0.05, 1e-12);
	assert_int_equal(parse_interval("60", &d, err, sizeof(err)), 0);
	assert_near(d, 60.0, 0.0);
	assert_int_equal(parse_interval("0.25", &d, err, sizeof(err)), 0);
	assert_near(d, 0.25, 0.0);
	static const char *const bad[] = {"0.049", "61", "60.001", "0",	  "-1",
					  "abc",   "",	 "0.25s",  "nan", "inf"};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		d = 42;
		err[0] = '\0';
		if (parse_interval(bad[i], &d, err, sizeof(err)) == 0)
			fail_msg("parse_interval(\"%s\") accepted", bad[i]);
		assert_near(d, 42.0, 0.0);
		if (strncmp(err, "-i", 2) != 0)
			fail_msg("parse_interval(\"%s\"): error \"%s\" does not start with -i",
				 bad[i], err);
	}
}

static int parse_argv(struct options *o, char *err, size_t errlen, int argc, char **argv)
{
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

/* Parses "lrutop" followed by the NULL-terminated arguments. */
static int parsev(struct options *o, char *err, size_t errlen, ...)
{
	char *argv[32] = {"lrutop"};
	int argc = 1;
	va_list ap;
	va_start(ap, errlen);
	char *a;
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return parse_argv(o, err, errlen, argc, argv);
}
#define PARSE(o, err, ...) parsev((o), (err), sizeof(err), __VA_ARGS__, (char *)NULL)

static void test_options_defaults(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	char *argv[] = {"lrutop", NULL};
	assert_int_equal(parse_argv(&o, err, sizeof(err), 1, argv), 0);
	assert_int_equal(o.action, ACTION_RUN);
	assert_near(o.interval, 0.25, 0.0);
	assert_string_equal(o.dir, "/var/tmp");
	assert_int_equal(o.repeat, 1);
	assert_int_equal(o.count, 0);
	assert_null(o.device);
	assert_null(o.csv);
	assert_int_equal(o.batch, 0);
	assert_int_equal(o.size, 0);
	assert_int_equal(o.mem_limit, 0);
}

static void test_options_values(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(
	    PARSE(&o, err, "-i", "0.5", "-n", "10", "-d", "vda", "--batch", "--csv", "x.csv"), 0);
	assert_near(o.interval, 0.5, 0.0);
	assert_int_equal(o.count, 10);
	assert_string_equal(o.device, "vda");
	assert_int_equal(o.batch, 1);
	assert_string_equal(o.csv, "x.csv");

	assert_int_equal(PARSE(&o, err, "--interval=2", "--count", "3", "--repeat", "3", "--size",
			       "64M", "--mem-limit", "128M", "--dir", "/srv", "-q", "--ascii"),
			 0);
	assert_near(o.interval, 2.0, 0.0);
	assert_int_equal(o.count, 3);
	assert_int_equal(o.repeat, 3);
	assert_int_equal(o.size, 64ull << 20);
	assert_int_equal(o.mem_limit, 128ull << 20);
	assert_string_equal(o.dir, "/srv");
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.ascii, 1);

	assert_int_equal(PARSE(&o, err, "--help"), 0);
	assert_int_equal(o.action, ACTION_HELP);
	assert_int_equal(PARSE(&o, err, "-V"), 0);
	assert_int_equal(o.action, ACTION_VERSION);
	assert_int_equal(PARSE(&o, err, "--list-strategies"), 0);
	assert_int_equal(o.action, ACTION_LIST_STRATEGIES);
}

static void expect_error(int rc, const char *err, const char *needle)
{
	assert_int_equal(rc, -1);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" does not contain \"%s\"", err, needle);
}

static void test_options_errors(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	expect_error(PARSE(&o, err, "--bogus"), err, "unknown option");
	expect_error(PARSE(&o, err, "--bogus"), err, "--bogus");
	expect_error(PARSE(&o, err, "-Z"), err, "unknown option");
	expect_error(PARSE(&o, err, "-i"), err, "needs an argument");
	expect_error(PARSE(&o, err, "-n", "5", "--csv"), err, "needs an argument");
	expect_error(PARSE(&o, err, "-n", "0"), err, "-n");
	expect_error(PARSE(&o, err, "-n", "ten"), err, "-n");
	expect_error(PARSE(&o, err, "-i", "0.01"), err, "-i");
	expect_error(PARSE(&o, err, "--size", "0"), err, "larger than zero");
	expect_error(PARSE(&o, err, "--size", "garbage"), err, "--size");
	expect_error(PARSE(&o, err, "--mem-limit", "-5M"), err, "--mem-limit");
	expect_error(PARSE(&o, err, "--repeat", "0"), err, "--repeat");
	expect_error(PARSE(&o, err, "-d", ""), err, "-d");
	expect_error(PARSE(&o, err, "stray"), err, "stray");
	expect_error(PARSE(&o, err, "-n", "5", "stray"), err, "stray");
	expect_error(PARSE(&o, err, "stray", "-n", "5"), err, "stray");
	/* error messages are one sentence: no newline, no "lrutop: " prefix
	 * (main adds it) */
	assert_null(strchr(err, '\n'));
	assert_int_not_equal(strncmp(err, "lrutop:", 7), 0);
}

static void test_options_reparse(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	/* Stop getopt in the middle of a cluster of short options; the next
	 * parse must start from a clean state, not from "-qZ"'s leftovers. */
	expect_error(PARSE(&o, err, "-qZn", "4"), err, "unknown option");
	assert_int_equal(PARSE(&o, err, "-n", "5"), 0);
	assert_int_equal(o.count, 5);
	assert_int_equal(o.quiet, 0);
	expect_error(PARSE(&o, err, "-i"), err, "needs an argument");
	assert_int_equal(PARSE(&o, err, "-q", "-i", "1"), 0);
	assert_int_equal(o.quiet, 1);
	assert_near(o.interval, 1.0, 0.0);
}

/* --cmd is repeatable; --name labels the commands in order; where -s stood
 * among them is kept for the queue order. */
static void test_options_cmds(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(PARSE(&o, err, "--cmd", "cp {src} {dst}", "--name", "cp", "-s", "rw_cp",
			       "--cmd", "dd if={src} of={dst}", "--cmd", "true"),
			 0);
	assert_int_equal(o.ncmds, 3);
	assert_string_equal(o.cmds[0], "cp {src} {dst}");
	assert_string_equal(o.cmds[2], "true");
	assert_int_equal(o.nnames, 1);
	assert_string_equal(o.names[0], "cp");
	assert_int_equal(o.cmds_before_s, 1);
	assert_string_equal(o.strategies, "rw_cp");
	expect_error(PARSE(&o, err, "--cmd", "  "), err, "--cmd: empty command");
	char *argv[2 * OPTIONS_MAX_CMDS + 3] = {"lrutop"};
	int argc = 1;
	for (int i = 0; i <= OPTIONS_MAX_CMDS; i++) {
		argv[argc++] = "--cmd";
		argv[argc++] = "true";
	}
	expect_error(parse_argv(&o, err, sizeof(err), argc, argv), err, "at most");
}

/* Run options without anything to run: an error in batch mode; in the TUI
 * only those the picker does not use. */
static void test_options_check_runs(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	static const char *const opts[][2] = {
	    {"--src", "/x"}, {"--size", "8M"},	  {"--mem-limit", "64M"},    {"--bs", "4K"},
	    {"--repeat", "2"}, {"--baseline", "rw_cp"}, {"--no-verify", NULL}, {"--no-drop-caches", NULL},
	    {"--results", "r.csv"},
	};
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		char msg[128];
		snprintf(msg, sizeof(msg), "%s: nothing to run (add -s STRATEGIES or --cmd)",
			 opts[i][0]);
		assert_int_equal(PARSE(&o, err, "--batch", (char *)opts[i][0], (char *)opts[i][1]), 0);
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), -1);
		assert_string_equal(err, msg);
		/* with something to run, fine */
		assert_int_equal(PARSE(&o, err, "--batch", "-s", "rw_cp", (char *)opts[i][0],
				       (char *)opts[i][1]),
				 0);
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
		o.strategies = NULL;
		o.demo = 1;
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	}
	/* the TUI: --size seeds the picker, --baseline does not */
	assert_int_equal(PARSE(&o, err, "--size", "8M", "--repeat", "2"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	assert_int_equal(PARSE(&o, err, "--size", "8M", "--baseline", "x"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "--baseline: nothing to run (add -s STRATEGIES or --cmd)");
	/* nothing given at all: monitoring */
	assert_int_equal(PARSE(&o, err, "--batch", "-n", "3"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	/* more names than commands */
	assert_int_equal(PARSE(&o, err, "--cmd", "true", "--name", "a", "--name", "b"), 0);
	expect_error(options_check_runs(&o, err, sizeof(err)), err, "--name b: no --cmd");
}

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

/* ---- util: error sentences keep their reason ----------------------------- */

/* A path of exactly len bytes: "/dir00/dir01/.../" then a file name. */
static char *long_path(size_t len)
{
	char *p = malloc(len + 1);
	size_t i = 0;
	for (int d = 0; i + 6 < len - 9; d++)
		i += (size_t)sprintf(p + i, "/dir%02d", d % 100);
	while (i < len - 9)
		p[i++] = 'x';
	memcpy(p + i, "/file.bin", 9);
	p[len] = '\0';
	assert_int_equal(strlen(p), len);
	return p;
}

static void test_path_short(void **state)
{
	(void)state;
	char buf[256];
	/* short paths are copied as they are */
	assert_int_equal(path_short(buf, sizeof(buf), "/var/tmp/x", 40), 10);
	assert_string_equal(buf, "/var/tmp/x");
	/* exactly max bytes: unchanged */
	assert_int_equal(path_short(buf, sizeof(buf), "/abcdefghi", 10), 10);
	assert_string_equal(buf, "/abcdefghi");

	char *p = long_path(3000);
	size_t n = path_short(buf, sizeof(buf), p, 80);
	assert_true(n <= 80);
	assert_int_equal(n, strlen(buf));
	char *dots = strstr(buf, "\xe2\x80\xa6");
	assert_non_null(dots);
	/* head is the start of the path, tail its end (the file name) */
	assert_memory_equal(buf, p, (size_t)(dots - buf));
	const char *tail = dots + 3;
	assert_string_equal(tail, p + 3000 - strlen(tail));
	assert_true(strlen(tail) >= strlen("/file.bin"));
	/* cut at directory boundaries: "…" sits between a '/' and a '/' */
	assert_int_equal(dots[-1], '/');
	assert_int_equal(tail[0], '/');
	free(p);

	/* the buffer bounds it too */
	char small[20];
	p = long_path(500);
	n = path_short(small, sizeof(small), p, 400);
	assert_true(n <= 19);
	assert_non_null(strstr(small, "\xe2\x80\xa6"));
	free(p);

	/* never split a UTF-8 sequence: a path of 2-byte characters */
	char u[601];
	for (int i = 0; i < 300; i++)
		memcpy(u + 2 * i, "\xc3\xa9", 2); /* é */
	u[600] = '\0';
	n = path_short(buf, sizeof(buf), u, 51);
	assert_true(n <= 51);
	dots = strstr(buf, "\xe2\x80\xa6");
	assert_non_null(dots);
	assert_int_equal((dots - buf) % 2, 0);
	assert_int_equal(strlen(dots + 3) % 2, 0);
}

static void test_errf_keeps_reason(void **state)
{
	(void)state;
	char err[320];
	/* a short sentence is plain vsnprintf */
	assert_int_equal(errf(err, sizeof(err), "--src %s: %s", "/x", "No such file"), -1);
	assert_string_equal(err, "--src /x: No such file");

	/* a 3000-byte path: the sentence starts with the option, the path is
	 * shortened in the middle, the reason survives at the end */
	char *p = long_path(3000);
	const char *reason = ": No such file or directory";
	errf(err, sizeof(err), "--src %s: %s", p, "No such file or directory");
	assert_true(strlen(err) < sizeof(err));
	assert_true(strlen(err) > 200); /* the room is used, not thrown away */
	assert_memory_equal(err, "--src /dir00/", 13);
	assert_string_equal(err + strlen(err) - strlen(reason), reason);
	assert_non_null(strstr(err, "/file.bin: No such"));
	assert_non_null(strstr(err, "\xe2\x80\xa6"));

	/* two long paths: both shortened, both ends kept */
	char *q = long_path(2000);
	errf(err, sizeof(err), "verify: %s differs from %s at byte %d", p, q, 42);
	assert_true(strlen(err) < sizeof(err));
	assert_memory_equal(err, "verify: /dir00/", 15);
	assert_non_null(strstr(err, " differs from /dir00/"));
	assert_string_equal(err + strlen(err) - strlen("/file.bin at byte 42"),
			    "/file.bin at byte 42");

	/* nothing long enough to shorten: cut at the end as before */
	char words[2000] = "";
	for (int i = 0; i < 300; i++)
		strcat(words, "word ");
	errf(err, 64, "%s", words);
	assert_int_equal(strlen(err), 63);
	assert_memory_equal(err, words, 63);

	/* a NULL buffer is allowed */
	assert_int_equal(errf(NULL, 0, "%s", p), -1);
	free(p);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options_cmds),
	    cmocka_unit_test(test_options_check_runs),
	    cmocka_unit_test(test_rate_delta),
	    cmocka_unit_test(test_rate_per_s),
	    cmocka_unit_test(test_rates_disk),
	    cmocka_unit_test(test_rates_vm),
	    cmocka_unit_test(test_rates_cpu),
	    cmocka_unit_test(test_series_ring),
	    cmocka_unit_test(test_series_capacity_for),
	    cmocka_unit_test(test_kvfile_parse_exact),
	    cmocka_unit_test(test_kvfile_parse_bad_values),
	    cmocka_unit_test(test_kvfile_parse_psi),
	    cmocka_unit_test(test_kvfile_open_missing),
	    cmocka_unit_test(test_kvfile_reread),
	    cmocka_unit_test(test_kvfile_proc_vmstat),
	    cmocka_unit_test(test_parse_size),
	    cmocka_unit_test(test_parse_interval),
	    cmocka_unit_test(test_options_defaults),
	    cmocka_unit_test(test_options_values),
	    cmocka_unit_test(test_options_errors),
	    cmocka_unit_test(test_options_reparse),
	    cmocka_unit_test(test_utf8),
	    cmocka_unit_test(test_grid_text_clip),
	    cmocka_unit_test(test_grid_dump),
	    cmocka_unit_test(test_nice_ceil),
	    cmocka_unit_test(test_autoscale),
	    cmocka_unit_test(test_quantile),
	    cmocka_unit_test(test_fmt_num),
	    cmocka_unit_test(test_canvas_ascii_area),
	    cmocka_unit_test(test_canvas_braille),
	    cmocka_unit_test(test_path_short),
	    cmocka_unit_test(test_errf_keeps_reason),
	};
	return cmocka_run_group_tests_name("core", tests, NULL, NULL);
}
