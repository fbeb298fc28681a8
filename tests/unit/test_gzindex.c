/*
 * Tests for gzindex.c (access points into a gzip file) over real gzip files
 * written with zlib's gz* writer: three members one after another (the
 * second and third appended, as gzopen "ab" does), sync flushes in the
 * first (the recorder's), lines of mixed text and noise so blocks vary in
 * size and bit alignment, a span of 64 KiB so there are dozens of points.
 *  - the index covers every byte (its size is the data's) with points;
 *  - a read from any offset (every point's, one before and after it, the
 *    member boundaries, the end, 300 pseudo-random ones) gives the same
 *    bytes as the data from that offset, up to the end of the data;
 *  - a file cut short is indexed up to the cut and a read from a point
 *    near the cut ends with the cut said; bytes after the last member that
 *    are no gzip header are an error that says how many (gzread ends the
 *    data there); a reader without an index inflates from the top; a corrupt file or a
 *    plain one is no index; a stop set ends a build, and so does a
 *    terminating signal; a job on a thread gives the index a build in
 *    line gives.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "recording/gzindex.h"
#include "base/sigpipe.h"
#include "testutil.h"

TU_TMPDIR_SUITE("gzindex")

#define SPAN (64u << 10)

static unsigned char *data; /* the uncompressed bytes of the whole file */
static size_t ndata;
static size_t member_at[3]; /* where each member's data starts */

static uint32_t rnd_state = 12345;
static uint32_t rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* n bytes of lines: JSON-ish text that compresses, with noise in it */
static void gen(unsigned char *out, size_t n)
{
	size_t i = 0;
	while (i < n) {
		char line[256];
		int k = snprintf(line, sizeof(line), "{\"k\":\"sample\",\"t\":%u,\"v\":[%u,%u,%u]}\n",
				 rnd(), rnd() % 1000, rnd() % 100000, rnd());
		if (rnd() % 7 == 0)
			for (int j = 10; j < k - 2; j++)
				line[j] = (char)(33 + rnd() % 90);
		for (int j = 0; j < k && i < n; j++)
			out[i++] = (unsigned char)line[j];
	}
}

/* path: the members (sizes given) written one after another */
static void write_gz(const char *path, const size_t *sizes, int nm)
{
	unlink(path);
	size_t at = 0;
	for (int m = 0; m < nm; m++) {
		gzFile g = gzopen(path, m == 0 ? "wb6" : "ab6");
		assert_non_null(g);
		member_at[m] = at;
		size_t left = sizes[m];
		while (left > 0) {
			size_t k = 5000 + rnd() % 60000;
			if (k > left)
				k = left;
			assert_int_equal(gzwrite(g, data + at, (unsigned)k), (int)k);
			if (m == 0 && rnd() % 3 == 0)
				assert_int_equal(gzflush(g, Z_SYNC_FLUSH), Z_OK);
			at += k;
			left -= k;
		}
		assert_int_equal(gzclose(g), Z_OK);
	}
}

static int setup_data(void **state)
{
	(void)state;
	ndata = 5u << 20;
	data = malloc(ndata);
	gen(data, ndata);
	return setup(state);
}

static int teardown_data(void **state)
{
	free(data);
	return teardown(state);
}

static char path[128];
static const size_t sizes[3] = {3u << 20, (2u << 20) - 12345, 12345};

static struct gzindex *build_file(int *fdp)
{
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	char err[200] = "";
	struct gzindex *ix = gzindex_build(fd, SPAN, NULL, err, sizeof(err));
	if (!ix)
		fail_msg("no index: %s", err);
	*fdp = fd;
	return ix;
}

/* The bytes from off to the end read through the index: those of data. */
static void read_from(const struct gzindex *ix, int fd, size_t off, size_t end, int want_cut)
{
	char err[200] = "";
	struct gzread *z = gzread_open(ix, fd, off, err, sizeof(err));
	if (!z)
		fail_msg("open at %zu: %s", off, err);
	static unsigned char buf[100000];
	size_t at = off;
	int cut = 0;
	for (;;) {
		size_t want = 1 + rnd() % sizeof(buf);
		long n = gzread_read(z, buf, want, &cut, err, sizeof(err));
		if (n < 0)
			fail_msg("read at %zu (from %zu): %s", at, off, err);
		if (n == 0)
			break;
		assert_true(at + (size_t)n <= end);
		if (memcmp(buf, data + at, (size_t)n) != 0)
			fail_msg("bytes differ in [%zu, %zu) read from %zu", at, at + (size_t)n, off);
		at += (size_t)n;
	}
	assert_int_equal(at, end);
	assert_int_equal(cut, want_cut);
	gzread_close(z);
}

/* One read of up to n bytes from off: the data's bytes from off. */
static void peek(const struct gzindex *ix, int fd, size_t off, size_t n)
{
	char err[200];
	struct gzread *z = gzread_open(ix, fd, off, err, sizeof(err));
	assert_non_null(z);
	static unsigned char b[8192];
	int cut = 0;
	long got = gzread_read(z, b, n < sizeof(b) ? n : sizeof(b), &cut, err, sizeof(err));
	assert_true(got > 0);
	assert_memory_equal(b, data + off, (size_t)got);
	gzread_close(z);
}

static void test_every_offset(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/m.gz", dir);
	write_gz(path, sizes, 3);
	int fd;
	struct gzindex *ix = build_file(&fd);
	assert_int_equal(gzindex_size(ix), ndata);
	size_t np = gzindex_points(ix);
	/* a point every 64 KiB or so (at a block's end past the span) */
	assert_true(np >= ndata / SPAN / 2);
	assert_true(np <= ndata / SPAN + 2);
	assert_true(gzindex_bytes(ix) < np * 32768);
	size_t offs[] = {0, 1, member_at[1] - 1, member_at[1], member_at[1] + 1, member_at[2] - 1,
			 member_at[2], member_at[2] + 1, ndata - 1, ndata};
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
		read_from(ix, fd, offs[i], ndata, 0);
	/* every point's own offset and its neighbours, then anywhere: the
	 * first bytes from each */
	for (uint64_t o = SPAN; o < ndata; o += SPAN / 3)
		peek(ix, fd, o, 3000);
	for (int i = 0; i < 300; i++)
		peek(ix, fd, rnd() % ndata, 5000);
	/* past the end: no reader */
	char err[200];
	assert_null(gzread_open(ix, fd, ndata + 1, err, sizeof(err)));
	assert_non_null(strstr(err, "past the data"));
	gzindex_free(ix);
	close(fd);
}

static void test_cut_and_garbage(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/c.gz", dir);
	size_t one[1] = {ndata};
	write_gz(path, one, 1);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	/* cut at two thirds */
	assert_int_equal(truncate(path, st.st_size * 2 / 3), 0);
	int fd;
	struct gzindex *ix = build_file(&fd);
	uint64_t got = gzindex_size(ix);
	assert_true(got > ndata / 2 && got < ndata);
	assert_true(gzindex_points(ix) > 10);
	read_from(ix, fd, (size_t)got - 100000, (size_t)got, 1);
	read_from(ix, fd, 0, (size_t)got, 1);
	gzindex_free(ix);
	close(fd);

	/* whole again, then bytes that are no member after it (issue 26, 10:
	 * gzread ends the data there, and so did this index): no index, and
	 * a read from the top gives all the data, then the error, which says
	 * how many bytes from where; one byte (echo >>FILE) too */
	static const char *tails[] = {"this is not gzip\n", "\n"};
	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		write_gz(path, one, 1);
		assert_int_equal(stat(path, &st), 0);
		FILE *f = fopen(path, "ab");
		assert_non_null(f);
		fputs(tails[t], f);
		fclose(f);
		fd = open(path, O_RDONLY);
		assert_true(fd >= 0);
		char err[200] = "", want[200];
		assert_null(gzindex_build(fd, SPAN, NULL, err, sizeof(err)));
		size_t k = strlen(tails[t]);
		snprintf(want, sizeof(want), "%zu byte%s after the gzip data (from byte %lld) %s not gzip",
			 k, k == 1 ? "" : "s", (long long)st.st_size, k == 1 ? "is" : "are");
		if (!strstr(err, want))
			fail_msg("\"%s\" lacks \"%s\"", err, want);
		struct gzread *z = gzread_open(NULL, fd, 0, err, sizeof(err));
		assert_non_null(z);
		static unsigned char buf[65536];
		size_t at = 0;
		long n;
		int cut = 0;
		while ((n = gzread_read(z, buf, sizeof(buf), &cut, err, sizeof(err))) > 0) {
			assert_memory_equal(buf, data + at, (size_t)n);
			at += (size_t)n;
		}
		assert_int_equal(n, -1);
		assert_int_equal(at, ndata);
		assert_int_equal(gzread_garbage(z), k);
		assert_non_null(strstr(err, want));
		assert_int_equal(gzread_offset(z), st.st_size);
		gzread_close(z);
		close(fd);
	}
	/* an index made before the bytes came: a read from a point (raw
	 * deflate, the trailer skipped) meets them as well */
	write_gz(path, one, 1);
	ix = build_file(&fd);
	FILE *f = fopen(path, "ab");
	assert_non_null(f);
	fputs("junk", f);
	fclose(f);
	char err[200] = "";
	struct gzread *z = gzread_open(ix, fd, ndata - 1000, err, sizeof(err));
	assert_non_null(z);
	static unsigned char b2[4096];
	int cut = 0;
	long n, tail = 0;
	while ((n = gzread_read(z, b2, sizeof(b2), &cut, err, sizeof(err))) > 0)
		tail += n;
	assert_int_equal(n, -1);
	assert_int_equal(tail, 1000);
	assert_int_equal(gzread_garbage(z), 4);
	gzread_close(z);
	gzindex_free(ix);
	close(fd);
}

/* Without an index a reader starts at the top and inflates up to the
 * offset asked for (the recording reader's seek without access points):
 * the same bytes as from a point; past the data, the first read says so. */
static void test_no_index(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/n.gz", dir);
	write_gz(path, sizes, 3);
	int fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	static unsigned char b[8192];
	char err[200];
	size_t offs[] = {0, 1, member_at[1] - 1, member_at[1] + 5, ndata - 10};
	for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++) {
		struct gzread *z = gzread_open(NULL, fd, offs[i], err, sizeof(err));
		assert_non_null(z);
		int cut = 0;
		long got = gzread_read(z, b, sizeof(b), &cut, err, sizeof(err));
		assert_true(got > 0);
		assert_memory_equal(b, data + offs[i], (size_t)got);
		gzread_close(z);
	}
	struct gzread *z = gzread_open(NULL, fd, ndata + 1, err, sizeof(err));
	assert_non_null(z);
	int cut = 0;
	assert_int_equal(gzread_read(z, b, sizeof(b), &cut, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "shorter than it was"));
	gzread_close(z);
	close(fd);
}

static void test_not_an_index(void **state)
{
	(void)state;
	char err[200];
	/* corrupt: bytes in the middle flipped; the build fails (bad data or
	 * the member's check) */
	snprintf(path, sizeof(path), "%s/x.gz", dir);
	size_t one[1] = {1u << 20};
	write_gz(path, one, 1);
	int fd = open(path, O_RDWR);
	assert_true(fd >= 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	unsigned char junk[64];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)rnd();
	assert_int_equal(pwrite(fd, junk, sizeof(junk), st.st_size / 2), (ssize_t)sizeof(junk));
	err[0] = '\0';
	assert_null(gzindex_build(fd, SPAN, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "corrupt gzip data"));
	close(fd);

	/* a plain file */
	snprintf(path, sizeof(path), "%s/p.txt", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fwrite(data, 1, 100000, f);
	fclose(f);
	fd = open(path, O_RDONLY);
	assert_null(gzindex_build(fd, SPAN, NULL, err, sizeof(err)));
	close(fd);

	/* a stop set: no index */
	snprintf(path, sizeof(path), "%s/s.gz", dir);
	write_gz(path, sizes, 2);
	fd = open(path, O_RDONLY);
	atomic_int stop;
	atomic_init(&stop, 1);
	assert_null(gzindex_build(fd, SPAN, &stop, err, sizeof(err)));
	close(fd);
}

/* In a child: a terminating signal caught by lrutop's handler (sig_install)
 * stops a build as a stop set does, in line and on a job's thread (issue
 * 26, 5: every read loop checks for a signal).  0, or the check that
 * failed. */
static int signal_child(void)
{
	char err[200] = "";
	if (sig_install(err, sizeof(err)) < 0)
		return 10;
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 11;
	raise(SIGTERM);
	struct gzindex *ix = gzindex_build(fd, SPAN, NULL, err, sizeof(err));
	if (ix || !strstr(err, "stopped"))
		return 12;
	struct gzindex_job *j = gzindex_start(fd, SPAN);
	if (!j || gzindex_wait(j))
		return 13;
	gzindex_job_free(j);
	close(fd);
	return 0;
}

static void test_signal(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/sig.gz", dir);
	write_gz(path, sizes, 2);
	fflush(NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0)
		_exit(signal_child());
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("child: %s %d", WIFEXITED(st) ? "check" : "signal",
			 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	/* here, with no signal, the same file builds */
	int fd;
	gzindex_free(build_file(&fd));
	close(fd);
}

static void test_job(void **state)
{
	(void)state;
	snprintf(path, sizeof(path), "%s/j.gz", dir);
	write_gz(path, sizes, 3);
	int fd;
	struct gzindex *ix = build_file(&fd);
	struct gzindex_job *j = gzindex_start(fd, SPAN);
	close(fd); /* the job has its own descriptor */
	assert_non_null(j);
	const struct gzindex *jx = gzindex_wait(j);
	assert_non_null(jx);
	assert_ptr_equal(gzindex_wait(j), jx);
	assert_int_equal(gzindex_points(jx), gzindex_points(ix));
	assert_int_equal(gzindex_size(jx), gzindex_size(ix));
	fd = open(path, O_RDONLY);
	read_from(jx, fd, member_at[1] + 777, ndata, 0);
	close(fd);
	gzindex_job_free(j);
	gzindex_free(ix);
	/* freed while it builds: stopped and joined, nothing left running */
	fd = open(path, O_RDONLY);
	j = gzindex_start(fd, SPAN);
	close(fd);
	gzindex_job_free(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_offset),
	    cmocka_unit_test(test_cut_and_garbage),
	    cmocka_unit_test(test_no_index),
	    cmocka_unit_test(test_not_an_index),
	    cmocka_unit_test(test_job),
	    cmocka_unit_test(test_signal),
	};
	return cmocka_run_group_tests_name("gzindex", tests, setup_data, teardown_data);
}
