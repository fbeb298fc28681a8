/*
 * Tests for the page-cache map (residency_read_map, pagecache_map_cells,
 * the "pcmap" recording line, the strip's map rows) on a real file on
 * /var/tmp's real file system: 16 MiB in 16 ranges, written and fsynced,
 * dropped whole with POSIX_FADV_DONTNEED, then ranges 2..5 and 10..11 read
 * back.  Both readers (cachestat per range, the mincore fallback's vector)
 * must say those ranges are cached and the others not.  Other suites write
 * /proc/sys/vm/drop_caches beside these: the state is made again before
 * each of a few attempts (a wrong map misses every time).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/model.h"
#include "model/pagecache.h"
#include "recording/record.h"
#include "recording/record_format.h"
#include "sampling/residency.h"
#include "sampling/sample.h"
#include "screen/strip_residency.h"
#include "testutil.h"
#include "base/util.h"
#include "gridtest.h"
#include "modelfix.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FILE_MB 16
#define NRANGE	16 /* 1 MiB each */

TU_TMPDIR_SUITE("map")

static int cached_range(int k)
{
	return (k >= 2 && k <= 5) || (k >= 10 && k <= 11);
}

/* The known state: everything dropped, the cached ranges read back. */
static void make_state(int fd)
{
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	char *buf = malloc(1 << 20);
	for (int k = 0; k < NRANGE; k++)
		if (cached_range(k))
			assert_int_equal(pread(fd, buf, 1 << 20, (off_t)k << 20), 1 << 20);
	free(buf);
}

static int make_file(const char *name, char *path, size_t plen)
{
	snprintf(path, plen, "%s/%s", dir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	char *buf = malloc(1 << 20);
	memset(buf, 0x5a, 1 << 20);
	for (int i = 0; i < FILE_MB; i++)
		assert_int_equal(write(fd, buf, 1 << 20), 1 << 20);
	free(buf);
	assert_int_equal(fsync(fd), 0);
	/* no readahead past what the test reads back */
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM), 0);
	return fd;
}

/* The map says what make_state made: the read ranges all cached, the
 * others none (a page or two of readahead allowed). */
static int map_matches(const struct residency_map_file *f, uint64_t range_pages)
{
	if (f->n != NRANGE)
		return 0;
	for (int k = 0; k < NRANGE; k++) {
		if (cached_range(k) ? f->cached[k] != range_pages : f->cached[k] > 2) {
			printf("range %d: %u of %llu cached\n", k, f->cached[k],
			       (unsigned long long)range_pages);
			return 0;
		}
	}
	return 1;
}

static void check_map(int mincore)
{
	char path[128];
	int fd = make_file(mincore ? "mc" : "cs", path, sizeof(path));
	if (mincore)
		setenv("LRUTOP_RESIDENCY", "mincore", 1);
	struct residency *r = residency_new();
	unsetenv("LRUTOP_RESIDENCY");
	static struct residency_map map;
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = 42;
	uint64_t range_pages = (1u << 20) / (uint64_t)sysconf(_SC_PAGESIZE);
	int ok = 0;
	for (int attempt = 0; attempt < 5 && !ok; attempt++) {
		make_state(fd);
		residency_close(r); /* mincore: walked whole on opening */
		residency_read_map(r, path, NULL, &s, NRANGE, &map);
		ok = map_matches(&map.src, range_pages);
	}
	assert_true(ok);
	assert_int_equal(map.t_ns, 42);
	assert_int_equal(map.src.method, mincore ? RESIDENCY_MINCORE : RESIDENCY_CACHESTAT);
	assert_int_equal(map.src.pages, NRANGE * range_pages);
	assert_int_equal(map.dst.n, 0); /* not watched */
	/* the file's count is the ranges' (cachestat: their sum, no call of
	 * its own; mincore: the same walk) */
	uint64_t sum = 0;
	for (int k = 0; k < NRANGE; k++)
		sum += map.src.cached[k];
	assert_int_equal(s.res_src.cached, sum);
	/* ... as cells: cached where it is, not cached (or evicted) else */
	unsigned char cells[NRANGE];
	pagecache_map_cells(&map.src, NRANGE, cells);
	for (int k = 0; k < NRANGE; k++)
		assert_true(cached_range(k) ? cells[k] == PCELL_CACHED
					    : cells[k] == PCELL_EMPTY || cells[k] == PCELL_EVICTED);
	residency_free(r);
	close(fd);
	unlink(path);
}

static void test_map_cachestat(void **state)
{
	(void)state;
	if (!residency_have_cachestat()) {
		printf("SKIP cachestat: the kernel has no cachestat(2) (Linux < 6.5)\n");
		skip();
	}
	check_map(0);
}

static void test_map_mincore(void **state)
{
	(void)state;
	check_map(1);
}

/* A page written and not synced shows as dirty (or writeback) in its
 * range only. */
static void test_map_dirty(void **state)
{
	(void)state;
	if (!residency_have_cachestat()) {
		printf("SKIP cachestat: the kernel has no cachestat(2) (Linux < 6.5)\n");
		skip();
	}
	char path[128];
	int fd = make_file("dirty", path, sizeof(path));
	struct residency *r = residency_new();
	static struct residency_map map;
	struct sample s;
	char buf[4096];
	memset(buf, 1, sizeof(buf));
	int seen = 0;
	for (int i = 0; i < 20 && !seen; i++) { /* writeback may clean one first */
		assert_int_equal(pwrite(fd, buf, sizeof(buf), (7 << 20) + (off_t)i * 4096), 4096);
		residency_read_map(r, path, NULL, &s, NRANGE, &map);
		seen = map.src.dirty[7] + map.src.writeback[7] > 0;
	}
	assert_true(seen);
	for (int k = 0; k < NRANGE; k++)
		if (k != 7)
			assert_int_equal(map.src.dirty[k] + map.src.writeback[k], 0);
	unsigned char cells[NRANGE];
	pagecache_map_cells(&map.src, NRANGE, cells);
	assert_true(cells[7] == PCELL_DIRTY || cells[7] == PCELL_WB);
	assert_int_equal(fsync(fd), 0);
	residency_free(r);
	close(fd);
	unlink(path);
}

/* Ranges split the file evenly whatever its size; a file smaller than the
 * ranges asked for gets one a page. */
static void test_ranges(void **state)
{
	(void)state;
	assert_int_equal(residency_range_start(100, 8, 0), 0);
	assert_int_equal(residency_range_start(100, 8, 8), 100);
	for (int k = 0; k < 8; k++) {
		uint64_t len = residency_range_start(100, 8, k + 1) - residency_range_start(100, 8, k);
		assert_true(len == 12 || len == 13);
	}
	uint64_t huge = UINT64_MAX / 2;
	assert_int_equal(residency_range_start(huge, 256, 256), huge);
	char path[128];
	snprintf(path, sizeof(path), "%s/small", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_int_equal(ftruncate(fd, 3 * sysconf(_SC_PAGESIZE)), 0);
	struct residency *r = residency_new();
	static struct residency_map map;
	struct sample s;
	residency_read_map(r, path, NULL, &s, 64, &map);
	assert_int_equal(map.src.n, 3);
	residency_free(r);
	close(fd);
	unlink(path);
}

/* Cells of a map narrower and wider than the row. */
static void test_cells(void **state)
{
	(void)state;
	static struct residency_map_file f;
	memset(&f, 0, sizeof(f));
	f.pages = 40;
	f.n = 4; /* 10 pages a range */
	f.method = RESIDENCY_CACHESTAT;
	f.cached[0] = 10;			 /* all */
	f.cached[1] = 3;			 /* some */
	f.evicted[2] = 5;			 /* none, reclaim took some */
	f.cached[3] = 10, f.writeback[3] = 2, f.dirty[3] = 1; /* writeback wins */
	unsigned char c[8];
	pagecache_map_cells(&f, 8, c); /* each range twice */
	const unsigned char want8[] = {PCELL_CACHED, PCELL_CACHED, PCELL_SOME, PCELL_SOME,
				       PCELL_EVICTED, PCELL_EVICTED, PCELL_WB, PCELL_WB};
	assert_memory_equal(c, want8, 8);
	pagecache_map_cells(&f, 2, c); /* two ranges a cell */
	assert_int_equal(c[0], PCELL_SOME);
	assert_int_equal(c[1], PCELL_WB);
	f.n = 0;
	pagecache_map_cells(&f, 2, c);
	assert_int_equal(c[0], PCELL_NONE);
}

/* The column text: runs folded, read back exactly; bad text refused. */
static void test_text(void **state)
{
	(void)state;
	uint32_t v[8] = {256, 256, 256, 0, 0x3a7, UINT32_MAX, 0, 0}, back[8];
	char buf[RECORD_MAP_TEXT];
	record_map_encode(v, 8, buf);
	assert_string_equal(buf, "100*3,0,3a7,ffffffff,0*2");
	assert_int_equal(record_map_decode(buf, back, 8), 0);
	assert_memory_equal(v, back, sizeof(v));
	const char *bad[] = {"",	  "1*9",      "1,2",	   "100*3,0,3a7,ffffffff,0*2,", "1*0,1*8",
			     "100000000*8", "A*8",      "1**8",	   "-1*8",			 "1*8,",
			     "1 *8",	  "1*4,1*4x", ",1*8"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(record_map_decode(bad[i], back, 8), -1);
	static uint32_t big[RESIDENCY_MAP_MAX], bigback[RESIDENCY_MAP_MAX];
	for (int i = 0; i < RESIDENCY_MAP_MAX; i++)
		big[i] = UINT32_MAX - (uint32_t)i; /* no runs: the longest text */
	record_map_encode(big, RESIDENCY_MAP_MAX, buf);
	assert_true(strlen(buf) < RECORD_MAP_TEXT);
	assert_int_equal(record_map_decode(buf, bigback, RESIDENCY_MAP_MAX), 0);
	assert_memory_equal(big, bigback, sizeof(big));
}

/* A map written by the recorder reads back the same, beside its sample;
 * a map with no file writes no line. */
static void test_record_round_trip(void **state)
{
	(void)state;
	char path[128], err[600];
	snprintf(path, sizeof(path), "%s/rec.jsonl", dir);
	struct record_header h;
	record_header_init(&h);
	struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(w);
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = 1000;
	s.run = -1;
	static struct residency_map map, none;
	memset(&map, 0, sizeof(map));
	map.t_ns = 1000;
	map.src.pages = 4096, map.src.n = 64, map.src.method = RESIDENCY_CACHESTAT;
	for (int k = 0; k < 64; k++)
		map.src.cached[k] = k < 20 ? 64 : k == 20 ? 7 : 0, map.src.recent[k] = k > 50;
	map.dst.pages = 10, map.dst.n = 5, map.dst.method = RESIDENCY_MINCORE;
	map.dst.cached[4] = 2;
	assert_int_equal(recorder_sample(w, &s, NULL, err, sizeof(err)), 0);
	assert_int_equal(recorder_map(w, &map, err, sizeof(err)), 0);
	assert_int_equal(recorder_map(w, &none, err, sizeof(err)), 0);
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);

	struct recording *rec = recording_open(path, err, sizeof(err));
	assert_non_null(rec);
	static struct record_item it;
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
	assert_int_equal(it.kind, RECORD_SAMPLE);
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
	assert_int_equal(it.kind, RECORD_MAP);
	assert_memory_equal(&it.map, &map, sizeof(map));
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 0); /* none: no line */
	recording_close(rec);
	/* compact: the line is short (runs folded, zero columns left out) */
	FILE *f = fopen(path, "r");
	char line[4096];
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	assert_non_null(fgets(line, sizeof(line), f));
	fclose(f);
	assert_non_null(strstr(line, "\"c\":\"40*20,7,0*43\""));
	assert_null(strstr(line, "\"d\":"));
	assert_true(strlen(line) < 200);
	unlink(path);
}

/* A bad map line is an error naming its line. */
static void test_record_bad(void **state)
{
	(void)state;
	char path[128], err[600];
	const char *lines[] = {
	    "{\"k\":\"pcmap\",\"t\":1}",
	    "{\"k\":\"pcmap\",\"t\":1,\"src\":{\"p\":10,\"n\":11,\"m\":1}}",
	    "{\"k\":\"pcmap\",\"t\":1,\"src\":{\"p\":10,\"n\":2,\"m\":1,\"c\":\"1*3\"}}",
	    "{\"k\":\"pcmap\",\"t\":1,\"src\":{\"p\":10,\"n\":2,\"m\":3}}",
	    "{\"k\":\"pcmap\",\"t\":1,\"dst\":[1]}",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		snprintf(path, sizeof(path), "%s/bad%zu.jsonl", dir, i);
		struct record_header h;
		record_header_init(&h);
		struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
		assert_non_null(w);
		assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
		FILE *f = fopen(path, "a");
		fprintf(f, "%s\n", lines[i]);
		fclose(f);
		struct recording *rec = recording_open(path, err, sizeof(err));
		assert_non_null(rec);
		static struct record_item it;
		assert_int_equal(recording_next(rec, &it, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":2: pcmap"));
		recording_close(rec);
		unlink(path);
	}
}

/* The strip draws the model's map: a cell a range in its own rows, the
 * cached ones as █, the others as ·, a row for each file. */
static void test_strip_map(void **state)
{
	(void)state;
	static struct model m;
	struct runlog *log;
	memset(&m, 0, sizeof(m));
	mf_model(&m, &log, 16, 0.25, "vda");
	m.runs.state = RUNS_RUNNING;
	m.map_source = 1;
	m.map_page_size = 16384; /* the recording's machine's, not this one's */
	struct sample s;
	mf_sample(&s, 1000, 1u << 20, 1u << 18);
	series_push(m.series, &s);
	m.map.src.pages = 40, m.map.src.n = 4, m.map.src.method = RESIDENCY_CACHESTAT;
	m.map.src.cached[1] = 10;
	m.map.src.dirty[3] = 1;
	struct grid g;
	grid_init(&g, 20, 4);
	struct res_strip rs;
	memset(&rs, 0, sizeof(rs));
	long hi[8] = {0, 0, 0, 0, 0, 0, 0, 0};
	int rows = strip_residency_rows(&m, 20); /* a short terminal: the map alone */
	assert_int_equal(rows, 3);
	assert_int_equal(strip_residency_draw(&rs, &m, hi, 8, CHART_BRAILLE, &g, 7, 0, 8, rows, 1),
			 3);
	char *src = row_text(&g, 1), *dst = row_text(&g, 2);
	assert_string_equal(src, "   src│··██··▓▓");
	assert_non_null(strstr(dst, "dst│ -"));
	free(src);
	free(dst);
	grid_clear(&g);
	assert_int_equal(strip_residency_draw(&rs, &m, hi, 8, CHART_ASCII, &g, 7, 0, 8, rows, 1), 3);
	src = row_text(&g, 1);
	assert_string_equal(src, "   src|..##..DD");
	free(src);
	/* a wide one: the row ends in the file's size (40 pages), so its cells
	 * read as the file's extent, not as the time axis under them */
	struct grid w;
	grid_init(&w, 40, 8);
	assert_int_equal(strip_residency_draw(&rs, &m, hi, 8, CHART_ASCII, &w, 7, 0, 32, rows, 1), 3);
	src = row_text(&w, 1);
	char want[16];
	fmt_size(want, sizeof(want), 40 * 16384);
	size_t ls = strlen(src), lw = strlen(want);
	assert_true(ls > lw + 1);
	assert_int_equal(src[ls - lw - 1], ' ');
	assert_string_equal(src + ls - lw, want);
	assert_int_equal(src[7], '.'); /* range 0, not cached */
	free(src);
	/* a tall one: the chart, then the map under it */
	int tall = strip_residency_rows(&m, 40);
	assert_true(tall > 3);
	/* a source that never delivers maps (a recording older than minor
	 * 3, --compare): no map rows, so the short strip is none at all and
	 * the tall one is the chart alone */
	m.map_source = 0;
	assert_int_equal(strip_residency_rows(&m, 20), 0);
	assert_int_equal(strip_residency_rows(&m, 40), tall - 2);
	grid_clear(&w);
	assert_int_equal(strip_residency_draw(&rs, &m, hi, 8, CHART_ASCII, &w, 7, 0, 32, tall - 2, 1),
			 tall - 2);
	for (int y = 0; y < w.h; y++) {
		char *t = row_text(&w, y);
		assert_null(strstr(t, "src|"));
		assert_null(strstr(t, "no map yet"));
		free(t);
	}
	grid_done(&w);
	strip_residency_done(&rs);
	grid_done(&g);
	mf_model_free(&m, log);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_map_cachestat),
	    cmocka_unit_test(test_map_mincore),
	    cmocka_unit_test(test_map_dirty),
	    cmocka_unit_test(test_ranges),
	    cmocka_unit_test(test_cells),
	    cmocka_unit_test(test_text),
	    cmocka_unit_test(test_record_round_trip),
	    cmocka_unit_test(test_record_bad),
	    cmocka_unit_test(test_strip_map),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
