/*
 * Tests for kvfile: "key value" and PSI parsing, reading a file again, and
 * /proc/vmstat.
 *
 * Expected values are worked out here from the contracts in the headers,
 * never copied from a run of the code.  The only /proc read is cross-checked
 * by a second, independent reader (stdio fscanf).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sampling/kvfile.h"
#include "base/util.h"
#include "near.h"
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	char dir[64];
	assert_int_equal(tu_tmpdir(dir, sizeof(dir), "kvfile"), 0);
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

	assert_int_equal(tu_rmtree(dir), 0);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kvfile_parse_exact),
	    cmocka_unit_test(test_kvfile_parse_bad_values),
	    cmocka_unit_test(test_kvfile_parse_psi),
	    cmocka_unit_test(test_kvfile_open_missing),
	    cmocka_unit_test(test_kvfile_reread),
	    cmocka_unit_test(test_kvfile_proc_vmstat),
	};
	return cmocka_run_group_tests_name("kvfile", tests, NULL, NULL);
}
