/*
 * Tests for residency against an independent reader: the test's own
 * mincore(2) over one map of the whole file, on a real file (on /var/tmp's
 * real filesystem, not tmpfs) in a known state — written, fsynced, its
 * second half dropped with POSIX_FADV_DONTNEED.  Both of the module's
 * readers (cachestat and its chunked mincore) must agree with it within
 * 1 %.  Other processes run beside the tests, so reclaim may take a page
 * between two reads, and the runs of other test suites write
 * /proc/sys/vm/drop_caches: the module's count must lie within 1 % of the
 * range of the test's readings just before and just after, with the file
 * in its known state, in one of a few attempts (the state is made again
 * before each; a wrong reader misses every time).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/pagecache.h"
#include "sampling/residency.h"
#include "output/results.h"
#include "sampling/sample.h"
#include "model/series.h"
#include "runs/strategy.h"
#include "base/util.h"
#include "testutil.h"

#include <dirent.h>
#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FILE_MB 40  /* one chunk */
#define BIG_MB	160 /* several RESIDENCY_CHUNKs (64 MiB) */

TU_TMPDIR_SUITE("res")

/* The independent reader: resident pages of the whole file by one map. */
static long test_mincore(int fd)
{
	struct stat st;
	if (fstat(fd, &st) < 0 || st.st_size == 0)
		return st.st_size == 0 ? 0 : -1;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)st.st_size, np = (len + (size_t)page - 1) / (size_t)page;
	unsigned char *vec = malloc(np);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (!vec || map == MAP_FAILED || mincore(map, len, vec) < 0) {
		free(vec);
		return -1;
	}
	long n = 0;
	for (size_t i = 0; i < np; i++)
		n += vec[i] & 1;
	munmap(map, len);
	free(vec);
	return n;
}

/* (Re)makes the known state: the first half of the file cached (read
 * back after someone dropped the caches), the second half not. */
static void half_state(int fd, int mb)
{
	off_t half = (off_t)mb << 19;
	char *buf = malloc(1 << 20);
	for (off_t off = 0; off < half; off += 1 << 20)
		assert_int_equal(pread(fd, buf, 1 << 20, off), 1 << 20);
	free(buf);
	assert_int_equal(posix_fadvise(fd, half, half, POSIX_FADV_DONTNEED), 0);
}

/* Writes mb MiB of non-zero bytes to path, fsyncs it, drops its second
 * half from the cache.  Returns the fd (O_RDONLY, as the monitor opens). */
static int make_half_cached(const char *name, int mb, char *path, size_t plen)
{
	snprintf(path, plen, "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	char *buf = malloc(1 << 20);
	memset(buf, 0x5a, 1 << 20);
	for (int i = 0; i < mb; i++)
		assert_int_equal(write(fd, buf, 1 << 20), 1 << 20);
	free(buf);
	assert_int_equal(fsync(fd), 0);
	off_t half = (off_t)mb << 19;
	assert_int_equal(posix_fadvise(fd, half, half, POSIX_FADV_DONTNEED), 0);
	close(fd);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	return fd;
}

/* Within 1 % (of the file's pages) of the test's readings around it. */
static int agrees(uint64_t got, long before, long after, uint64_t pages)
{
	long lo = before < after ? before : after, hi = before < after ? after : before;
	double tol = 0.01 * (double)pages;
	return (double)got >= (double)lo - tol && (double)got <= (double)hi + tol;
}

static void check_reader(int want_cachestat, int mb)
{
	char path[128];
	int fd = make_half_cached(want_cachestat ? "cs" : "mc", mb, path, sizeof(path));
	struct residency *r = residency_new();
	uint64_t pages = ((uint64_t)mb << 20) / (uint64_t)sysconf(_SC_PAGESIZE);
	int ok = 0;
	for (int attempt = 0; attempt < 5 && !ok; attempt++) {
		struct residency_counts c;
		if (attempt)
			half_state(fd, mb);
		long before = test_mincore(fd);
		assert_int_equal(residency_fd(r, fd, want_cachestat, &c), 0);
		long after = test_mincore(fd);
		assert_true(before >= 0 && after >= 0);
		assert_int_equal(c.pages, pages);
		assert_int_equal(c.method,
				 want_cachestat ? RESIDENCY_CACHESTAT : RESIDENCY_MINCORE);
		/* the known state: about half is resident (the first half
		 * may have lost pages to reclaim, never gained any) */
		assert_true(before <= (long)(pages / 2 + pages / 100));
		ok = before >= (long)(pages / 4) && agrees(c.cached, before, after, pages);
		if (!ok)
			printf("attempt %d: module %llu, test %ld..%ld of %llu\n", attempt,
			       (unsigned long long)c.cached, before, after,
			       (unsigned long long)pages);
		if (want_cachestat) {
			assert_int_equal(c.dirty, 0); /* fsynced, not written since */
			assert_int_equal(c.writeback, 0);
		}
	}
	assert_true(ok);
	close(fd);
	residency_free(r);
	unlink(path);
}

static void test_cachestat_matches_mincore(void **state)
{
	(void)state;
	if (!residency_have_cachestat()) {
		printf("SKIP cachestat: the kernel has no cachestat(2) (Linux < 6.5)\n");
		skip();
	}
	check_reader(1, FILE_MB);
}

static void test_mincore_matches_mincore(void **state)
{
	(void)state;
	check_reader(0, FILE_MB);
}

/* The chunked walk across more than one map gives the same count. */
static void test_mincore_chunks(void **state)
{
	(void)state;
	check_reader(0, BIG_MB);
}

/* The per-tick mincore reader walks the file whole when it opens it, then
 * RESIDENCY_BUDGET a tick (here one chunk): a change shows in full only
 * after a round of all chunks, the chunks a file grows by at once. */
static void test_mincore_budget(void **state)
{
	(void)state;
	char path[128];
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = ((uint64_t)BIG_MB << 20) / (uint64_t)page;
	uint64_t chunk_pages = RESIDENCY_CHUNK / (uint64_t)page;
	size_t nch = (size_t)((((uint64_t)BIG_MB << 20) + RESIDENCY_CHUNK - 1) / RESIDENCY_CHUNK);
	int fd = make_half_cached("budget", BIG_MB, path, sizeof(path));
	setenv("LRUTOP_RESIDENCY", "mincore", 1);
	struct residency *r = residency_new();
	unsetenv("LRUTOP_RESIDENCY");
	residency_set_budget(r, 1); /* one chunk a tick */
	struct sample s;
	int ok = 0;
	for (int attempt = 0; attempt < 5 && !ok; attempt++) {
		residency_close(r); /* opened afresh: walked whole */
		if (attempt)
			half_state(fd, BIG_MB);
		long before = test_mincore(fd);
		residency_read(r, path, NULL, &s);
		long after = test_mincore(fd);
		assert_int_equal(s.res_src.method, RESIDENCY_MINCORE);
		ok = before >= (long)(pages / 4) && agrees(s.res_src.cached, before, after, pages);
	}
	assert_true(ok);
	uint64_t was = s.res_src.cached;
	/* all of it cached now: one tick sees at most one chunk more */
	half_state(fd, 2 * BIG_MB); /* reads the whole file, drops nothing */
	residency_read(r, path, NULL, &s);
	assert_true(s.res_src.cached <= was + chunk_pages + pages / 100);
	/* a round later every chunk has been walked again */
	ok = 0;
	for (int attempt = 0; attempt < 5 && !ok; attempt++) {
		if (attempt)
			half_state(fd, 2 * BIG_MB);
		long before = test_mincore(fd);
		for (size_t k = 0; k < nch; k++)
			residency_read(r, path, NULL, &s);
		long after = test_mincore(fd);
		ok = before >= (long)(pages * 3 / 4) &&
		     agrees(s.res_src.cached, before, after, pages);
	}
	assert_true(ok);
	/* grown by two chunks, just written (cached): counted on the next tick */
	int wfd = open(path, O_WRONLY | O_APPEND);
	char *buf = malloc(1 << 20);
	memset(buf, 7, 1 << 20);
	for (int i = 0; i < 128; i++)
		assert_int_equal(write(wfd, buf, 1 << 20), 1 << 20);
	free(buf);
	close(wfd);
	was = s.res_src.cached;
	residency_read(r, path, NULL, &s);
	assert_int_equal(s.res_src.pages, pages + 2 * chunk_pages);
	/* the new pages are dirty, so no drop_caches can take them; the old
	 * part of the last chunk (re-walked: it grew) may have lost its */
	assert_true(s.res_src.cached >= was + chunk_pages);
	residency_free(r);
	close(fd);
	unlink(path);
}

/* Just-written pages are dirty (or already under writeback) until the
 * fsync; after it they are neither. */
static void test_cachestat_dirty(void **state)
{
	(void)state;
	if (!residency_have_cachestat()) {
		printf("SKIP cachestat: the kernel has no cachestat(2) (Linux < 6.5)\n");
		skip();
	}
	char path[128];
	snprintf(path, sizeof(path), "%s/dirty", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	struct residency *r = residency_new();
	struct residency_counts c;
	char buf[4096];
	memset(buf, 1, sizeof(buf));
	int seen = 0;
	/* writeback might clean a page before we look: a few fresh pages */
	for (int i = 0; i < 20 && !seen; i++) {
		assert_int_equal(pwrite(fd, buf, sizeof(buf), (off_t)i * 4096), 4096);
		assert_int_equal(residency_fd(r, fd, 1, &c), 0);
		seen = c.dirty + c.writeback > 0;
	}
	assert_true(seen);
	assert_true(c.dirty <= c.cached);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(residency_fd(r, fd, 1, &c), 0);
	assert_int_equal(c.dirty, 0);
	assert_int_equal(c.writeback, 0);
	close(fd);
	residency_free(r);
	unlink(path);
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	while (d && readdir(d))
		n++;
	closedir(d);
	return n;
}

/* By path, as the live source reads a run: the destination is not there
 * yet (its half stays unread), appears, is replaced by another file of
 * the same name (re-opened: the new file's size), goes away (closed). */
static void test_paths(void **state)
{
	(void)state;
	char src[128], dst[128];
	close(make_half_cached("src", 8, src, sizeof(src)));
	snprintf(dst, sizeof(dst), "%s/dst", dir);
	struct residency *r = residency_new();
	struct sample s;
	int fds0 = count_fds();

	memset(&s, 0, sizeof(s));
	residency_read(r, src, dst, &s);
	assert_true(s.have & SAMPLE_HAVE_RES);
	assert_int_not_equal(s.res_src.method, RESIDENCY_NONE);
	assert_int_equal(s.res_src.pages, (8u << 20) / (uint64_t)sysconf(_SC_PAGESIZE));
	assert_true(s.res_src.cached <= s.res_src.pages); /* what: check_reader */
	assert_int_equal(s.res_dst.method, RESIDENCY_NONE);

	int fd = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_int_equal(ftruncate(fd, 3 * 4096), 0);
	close(fd);
	residency_read(r, src, dst, &s);
	assert_int_not_equal(s.res_dst.method, RESIDENCY_NONE);
	assert_int_equal(s.res_dst.pages, 3 * 4096 / sysconf(_SC_PAGESIZE));

	unlink(dst);
	fd = open(dst, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_int_equal(ftruncate(fd, 5 * 4096), 0);
	close(fd);
	residency_read(r, src, dst, &s);
	assert_int_equal(s.res_dst.pages, 5 * 4096 / sysconf(_SC_PAGESIZE));
	assert_int_equal(count_fds(), fds0 + 2); /* the replaced one was closed */

	unlink(dst);
	residency_read(r, src, dst, &s);
	assert_int_equal(s.res_dst.method, RESIDENCY_NONE);
	assert_int_equal(count_fds(), fds0 + 1);

	memset(&s, 0, sizeof(s));
	residency_read(r, NULL, NULL, &s);
	assert_false(s.have & SAMPLE_HAVE_RES);
	assert_int_equal(count_fds(), fds0);
	residency_free(r);
	unlink(src);
}

/* LRUTOP_RESIDENCY=mincore forces the fallback, as on a kernel without
 * cachestat: the sample says so. */
static void test_forced_mincore(void **state)
{
	(void)state;
	char src[128];
	close(make_half_cached("forced", 4, src, sizeof(src)));
	setenv("LRUTOP_RESIDENCY", "mincore", 1);
	struct residency *r = residency_new();
	unsetenv("LRUTOP_RESIDENCY");
	struct sample s;
	memset(&s, 0, sizeof(s));
	residency_read(r, src, NULL, &s);
	assert_true(s.have & SAMPLE_HAVE_RES);
	assert_int_equal(s.res_src.method, RESIDENCY_MINCORE);
	assert_int_equal(s.res_src.pages, (4u << 20) / (uint64_t)sysconf(_SC_PAGESIZE));
	assert_true(s.res_src.cached <= s.res_src.pages);
	residency_free(r);
	unlink(src);
	assert_string_equal(residency_method_name(RESIDENCY_MINCORE), "mincore");
	assert_string_equal(residency_method_name(RESIDENCY_CACHESTAT), "cachestat");
}

/* ---- what the model makes of the samples --------------------------------- */

static struct sample res_sample(uint64_t t, int run, int phase, uint64_t src_cached,
				uint64_t dst_dirty, uint64_t recent)
{
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = t;
	s.run = (int16_t)run;
	s.phase = (int8_t)phase;
	if (run >= 0) {
		s.have = SAMPLE_HAVE_RES;
		s.res_src =
		    (struct sample_res){1000, src_cached, 0, 0, 50, recent, RESIDENCY_CACHESTAT};
		s.res_dst =
		    (struct sample_res){500, 400, dst_dirty, 25, 10, 3, RESIDENCY_CACHESTAT};
	}
	return s;
}

/* Shares of each file; NAN where the reader cannot know (mincore: dirty,
 * writeback, evicted) or the file is empty or not read. */
static void test_pct(void **state)
{
	(void)state;
	struct sample s = res_sample(1, 0, PHASE_COPY, 250, 100, 7);
	struct pagecache_pct p;
	pagecache_pct(&s, &p);
	assert_true(fabs(p.src_cached - 25.0) < 1e-9);
	assert_true(fabs(p.dst_cached - 80.0) < 1e-9);
	assert_true(fabs(p.dst_dirty - 20.0) < 1e-9);
	assert_true(fabs(p.dst_wb - 5.0) < 1e-9);
	assert_true(p.evicted == 60 && p.recent == 10);
	assert_string_equal(pagecache_method(&s), "cachestat");
	s.res_dst.method = RESIDENCY_MINCORE;
	pagecache_pct(&s, &p);
	assert_true(fabs(p.dst_cached - 80.0) < 1e-9);
	assert_true(isnan(p.dst_dirty) && isnan(p.dst_wb) && isnan(p.evicted) && isnan(p.recent));
	assert_string_equal(pagecache_method(&s), "mincore");
	s.res_dst = (struct sample_res){0};
	pagecache_pct(&s, &p);
	assert_true(isnan(p.dst_cached)); /* not made yet */
	assert_true(fabs(p.src_cached - 25.0) < 1e-9);
	s.have = 0;
	pagecache_pct(&s, &p);
	assert_true(isnan(p.src_cached));
	assert_null(pagecache_method(&s));
	pagecache_pct(NULL, &p);
	assert_true(isnan(p.src_cached));
}

/* A run's figures: peak dirty over all its samples, the source and the
 * recently evicted at its last copy-phase sample (not the verify's, which
 * drops both files); other runs' samples do not count; the --results
 * cells and the table's. */
static void test_run_figures(void **state)
{
	(void)state;
	struct series *ser = series_new(16);
	struct sample s[] = {
	    res_sample(10, -1, PHASE_IDLE, 0, 0, 0),
	    res_sample(20, 0, PHASE_PREPARE, 1000, 0, 0),
	    res_sample(30, 0, PHASE_COPY, 300, 120, 4),
	    res_sample(40, 0, PHASE_FLUSH, 310, 30, 5),
	    res_sample(50, 0, PHASE_VERIFY, 900, 0, 9),
	    res_sample(60, 1, PHASE_COPY, 10, 9999, 99),
	};
	for (size_t i = 0; i < ARRAY_LEN(s); i++)
		series_push(ser, &s[i]);
	struct run_result r;
	memset(&r, 0, sizeof(r));
	strcpy(r.name, "rw_cp");
	r.ok = r.finished = 1;
	r.read_cv = r.write_cv = r.read_at_burst = NAN;
	pagecache_run_figures(ser, 0, 15, 55, &r);
	assert_int_equal(r.res_have, 1);
	long page = sysconf(_SC_PAGESIZE);
	assert_int_equal(r.res_dst_dirty_peak_kb, 120 * (uint64_t)page / 1024);
	assert_int_equal(r.res_src_cached_end, 310);
	assert_int_equal(r.res_src_pages_end, 1000);
	assert_int_equal(r.res_recent_end, 5 + 3);
	assert_true(fabs(pagecache_src_cached_end_pct(&r) - 31.0) < 1e-9);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	results_csv_row(f, &r);
	fclose(f);
	char want[64];
	/* before the eight --probe cells, the sweep's and rd/cp's, empty without them */
	snprintf(want, sizeof(want), ",%llu,31.0,8,,,,,,,,,,,\n", (unsigned long long)(120 * page / 1024));
	assert_non_null(strstr(buf, want));
	assert_true(strlen(strstr(buf, want)) == strlen(want)); /* trailing */
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	results_table(f, &r, 1);
	fclose(f);
	assert_non_null(strstr(buf, " 31%        8 "));
	free(buf);

	/* a run none of whose samples had residency: the cells are empty */
	pagecache_run_figures(ser, 2, 0, 100, &r);
	assert_int_equal(r.res_have, 0);
	assert_true(isnan(pagecache_src_cached_end_pct(&r)));
	buf = NULL;
	f = open_memstream(&buf, &len);
	results_csv_row(f, &r);
	fclose(f);
	assert_non_null(strstr(buf, ",,,\n"));
	free(buf);
	series_free(ser);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_cachestat_matches_mincore),
	    cmocka_unit_test(test_mincore_matches_mincore),
	    cmocka_unit_test(test_mincore_chunks),
	    cmocka_unit_test(test_mincore_budget),
	    cmocka_unit_test(test_cachestat_dirty),
	    cmocka_unit_test(test_paths),
	    cmocka_unit_test(test_forced_mincore),
	    cmocka_unit_test(test_pct),
	    cmocka_unit_test(test_run_figures),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
