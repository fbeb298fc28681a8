/*
 * Tests for strategy and scratch: every strategy makes a byte-identical,
 * durable copy for awkward sizes (0, 1, around a page, a bit over 1 MiB,
 * 64 MiB), refuses an existing destination without touching it, never
 * changes the source, reports copy/flush/done and full progress, and on
 * failure (missing source, full filesystem) leaves no destination behind.
 * Sources come from scratch_make_input in a scratch directory under
 * /var/tmp, which must be gone after scratch_remove.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "runs/scratch.h"
#include "runs/strategy.h"
#include "base/util.h"
#include "runs/worker.h"
#include "testutil.h"
#include "leftover.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB ((uint64_t)1 << 20)

static int gone(const char *path)
{
	struct stat st;
	return lstat(path, &st) < 0 && errno == ENOENT;
}

/* FNV-1a over 64-bit words plus the tail: enough to notice any change. */
static uint64_t file_hash(const char *path)
{
	int fd = open(path, O_RDONLY);
	unsigned char *buf = malloc(MIB);
	uint64_t h = 0xcbf29ce484222325ull;
	ssize_t n;

	assert_true(fd >= 0);
	while ((n = read(fd, buf, MIB)) > 0)
		for (ssize_t i = 0; i < n; i++)
			h = (h ^ buf[i]) * 0x100000001b3ull;
	close(fd);
	free(buf);
	return h;
}

static void write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
}

struct phase_log {
	int n;
	enum phase p[8];
	int created;	  /* on_created calls */
	int created_at_n; /* phases reported before the first */
	ino_t created_ino;
};

static void log_phase(enum phase p, void *arg)
{
	struct phase_log *log = arg;
	if (log->n < 8)
		log->p[log->n++] = p;
}

static void log_created(int fd, void *arg)
{
	struct phase_log *log = arg;
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	if (log->created++ == 0) {
		log->created_at_n = log->n;
		log->created_ino = st.st_ino;
	}
}

static void open_scratch(struct scratch *s)
{
	char err[512];
	if (scratch_open(s, "/var/tmp", err, sizeof err) < 0)
		fail_msg("scratch_open: %s", err);
}

/* ---- strategy table and list parsing ---- */

static void test_table(void **state)
{
	static const char *const copybench[] = {"rw_cp",     "rw_fadv_cp",	"mm_sync_cp",
						"mm_mun_cp", "mm_sync_madv_cp", "mm_mun_madv_cp",
						"mw_cp",     "mw_madv_cp"};
	static const char *const modern[] = {"cfr_cp", "sendfile_cp", "splice_cp", "direct_cp",
					     "stream_cp"};
	(void)state;
	assert_int_equal(strategy_count(), 13);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(strategy_at(i)->name, copybench[i]);
	for (size_t i = 0; i < 5; i++)
		assert_non_null(strategy_find(modern[i]));
	assert_null(strategy_at(13));
	assert_null(strategy_find("cp"));
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy *st = strategy_at(i);
		assert_true(st->family[0] && st->what[0] && st->copy);
		assert_ptr_equal(strategy_find(st->name), st);
	}
	assert_string_equal(phase_name(PHASE_PREPARE), "prepare");
	assert_string_equal(phase_name(PHASE_VERIFY), "verify");
	assert_string_equal(phase_name(PHASE_COUNT), "?");
}

static void test_parse_list(void **state)
{
	const struct strategy *out[32];
	size_t n;
	char err[512];

	(void)state;
	assert_int_equal(strategy_parse_list("copybench", out, 32, &n, err, sizeof err), 0);
	assert_int_equal(n, 8);
	assert_string_equal(out[0]->name, "rw_cp");
	assert_string_equal(out[7]->name, "mw_madv_cp");

	assert_int_equal(strategy_parse_list("all", out, 32, &n, err, sizeof err), 0);
	assert_int_equal(n, strategy_count());

	assert_int_equal(
	    strategy_parse_list(" rw_cp , direct_cp,rw_cp,", out, 32, &n, err, sizeof err), 0);
	assert_int_equal(n, 3);
	assert_string_equal(out[1]->name, "direct_cp");
	assert_string_equal(out[2]->name, "rw_cp");

	assert_int_equal(strategy_parse_list("rw_cp,bogus", out, 32, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown strategy 'bogus' (valid: rw_cp, rw_fadv_cp, "));
	assert_non_null(strstr(err, "stream_cp, copybench, all)"));

	assert_int_equal(strategy_parse_list("copybench", out, 4, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "at most 4"));
	assert_int_equal(strategy_parse_list(" , ", out, 32, &n, err, sizeof err), -1);
	/* issue 15 #11: -s rw_cp,,rw_cp was accepted while -s , was refused */
	assert_int_equal(strategy_parse_list("rw_cp,,rw_cp", out, 32, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "an empty name before a comma"));
	assert_int_equal(strategy_parse_list(",rw_cp", out, 32, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "empty"));
}

/* ---- copies ---- */

static void copy_one(const struct strategy *st, const char *src, const char *dst, uint64_t size,
		     size_t bs)
{
	struct progress pr;
	struct phase_log log = {0};
	struct copy_job job = {.src = src,
			       .dst = dst,
			       .bs = bs,
			       .progress = &pr,
			       .on_phase = log_phase,
			       .on_created = log_created,
			       .phase_arg = &log};
	char err[512];
	struct stat sd;

	memset(&pr, 0, sizeof pr);
	if (st->copy(&job, err, sizeof err) < 0) {
		if (strcmp(st->name, "direct_cp") == 0 &&
		    strstr(err, "O_DIRECT not supported on ")) {
			printf("note: %s\n", err);
			assert_true(gone(dst));
			return;
		}
		fail_msg("%s, %llu bytes: %s", st->name, (unsigned long long)size, err);
	}
	if (!tu_files_equal(src, dst))
		fail_msg("%s, %llu bytes: copy differs", st->name, (unsigned long long)size);
	assert_int_equal(stat(dst, &sd), 0);
	assert_int_equal((sd.st_mode & 07777), 0644);
	/* dst was named to the caller once, before any phase: the file kept */
	assert_int_equal(log.created, 1);
	assert_int_equal(log.created_at_n, 0);
	assert_true(log.created_ino == sd.st_ino);
	assert_int_equal(atomic_load(&pr.bytes_done), size);
	assert_int_equal(pr.bytes_total, size);
	assert_int_equal(atomic_load(&pr.phase), PHASE_DONE);
	assert_int_equal(log.n, 3);
	assert_int_equal(log.p[0], PHASE_COPY);
	assert_int_equal(log.p[1], PHASE_FLUSH);
	assert_int_equal(log.p[2], PHASE_DONE);
}

static void test_copy_sizes(void **state)
{
	static const uint64_t sizes[] = {0, 1, 4095, 4097, MIB + 3, 64 * MIB};
	(void)state;

	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		struct scratch s;
		char err[512], dir[4096];
		struct stat before, after;
		uint64_t h;

		open_scratch(&s);
		if (scratch_make_input(&s, sizes[k], NULL, NULL, err, sizeof err) < 0)
			fail_msg("make_input: %s", err);
		assert_int_equal(stat(s.src, &before), 0);
		assert_int_equal(before.st_size, (off_t)sizes[k]);
		h = file_hash(s.src);
		for (size_t i = 0; i < strategy_count(); i++) {
			const struct strategy *st = strategy_at(i);
			char name[64], dst[4096];
			snprintf(name, sizeof name, "dst-%s", st->name);
			assert_int_equal(scratch_path(&s, name, dst, sizeof dst), 0);
			copy_one(st, s.src, dst, sizes[k], 0);
			scratch_own_current(&s, name); /* as the monitor does after a run */
		}
		/* The source is unchanged: content, size and mtime. */
		assert_int_equal(stat(s.src, &after), 0);
		assert_int_equal(after.st_size, before.st_size);
		assert_true(after.st_mtim.tv_sec == before.st_mtim.tv_sec &&
			    after.st_mtim.tv_nsec == before.st_mtim.tv_nsec);
		assert_true(file_hash(s.src) == h);
		strlcpy_(dir, s.dir, sizeof dir);
		scratch_remove(&s);
		assert_true(gone(dir));
		scratch_remove(&s); /* twice is harmless */
	}
}

/* Odd buffer sizes (not a power of two, smaller and larger than a page). */
static void test_copy_odd_bs(void **state)
{
	static const char *const names[] = {"rw_cp", "rw_fadv_cp", "stream_cp", "direct_cp"};
	static const size_t bss[] = {1000, 65537};
	struct scratch s;
	char err[512];
	(void)state;

	open_scratch(&s);
	if (scratch_make_input(&s, 3 * MIB + 17, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	for (size_t i = 0; i < 4; i++)
		for (size_t b = 0; b < 2; b++) {
			char name[64], dst[4096];
			snprintf(name, sizeof name, "dst-%s-%zu", names[i], bss[b]);
			assert_int_equal(scratch_path(&s, name, dst, sizeof dst), 0);
			copy_one(strategy_find(names[i]), s.src, dst, 3 * MIB + 17, bss[b]);
			scratch_own_current(&s, name);
		}
	scratch_remove(&s);
}

static void test_dst_exists(void **state)
{
	struct scratch s;
	char err[512], dst[4096], target[4096], link[4096];
	uint64_t h;
	(void)state;

	open_scratch(&s);
	if (scratch_make_input(&s, 4097, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	h = file_hash(s.src);
	assert_int_equal(scratch_path(&s, "dst", dst, sizeof dst), 0);
	write_file(dst, "keep me", 7);
	assert_int_equal(scratch_path(&s, "target", target, sizeof target), 0);
	assert_int_equal(scratch_path(&s, "link", link, sizeof link), 0);
	assert_int_equal(symlink(target, link), 0);

	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy *st = strategy_at(i);
		struct copy_job job = {.src = s.src, .dst = dst};
		char buf[16];
		int fd;

		err[0] = '\0';
		assert_int_equal(st->copy(&job, err, sizeof err), -1);
		assert_non_null(strstr(err, dst));
		assert_non_null(strstr(err, "already exists"));
		fd = open(dst, O_RDONLY);
		assert_true(fd >= 0);
		assert_int_equal(read(fd, buf, sizeof buf), 7);
		assert_memory_equal(buf, "keep me", 7);
		close(fd);

		/* A dangling symlink is not followed: its target is not created. */
		job.dst = link;
		assert_int_equal(st->copy(&job, err, sizeof err), -1);
		assert_non_null(strstr(err, "already exists"));
		assert_true(gone(target));
	}
	assert_true(file_hash(s.src) == h);
	scratch_own_current(&s, "dst"); /* this test's own files: they may go */
	scratch_own_current(&s, "link");
	scratch_remove(&s);
}

static void test_missing_src(void **state)
{
	struct scratch s;
	char err[512], src[4096], dst[4096];
	(void)state;

	open_scratch(&s);
	assert_int_equal(scratch_path(&s, "nonexistent", src, sizeof src), 0);
	assert_int_equal(scratch_path(&s, "dst", dst, sizeof dst), 0);
	for (size_t i = 0; i < strategy_count(); i++) {
		struct copy_job job = {.src = src, .dst = dst};
		assert_int_equal(strategy_at(i)->copy(&job, err, sizeof err), -1);
		assert_non_null(strstr(err, src));
		assert_non_null(strstr(err, "No such file or directory"));
		assert_true(gone(dst));
	}
	scratch_remove(&s);
}

/* Mounts a 1 MiB tmpfs on a new directory it names in mnt (64 bytes):
 * /var/tmp/lrutop-test-<pid>-mnt-XXXXXX, a name tu_leave_nothing knows as
 * ours if the test fails with it mounted.  Skips without root. */
static void small_mount(char *mnt)
{
	assert_int_equal(tu_tmpdir(mnt, 64, "mnt"), 0);
	if (mount("lrutop-test", mnt, "tmpfs", 0, "size=1m") < 0) {
		int e = errno;
		rmdir(mnt);
		printf("skipped: mount tmpfs: %s\n", strerror(e));
		skip();
	}
}

static void small_umount(const char *mnt)
{
	assert_int_equal(umount2(mnt, MNT_DETACH), 0);
	assert_int_equal(rmdir(mnt), 0);
}

static int is_mm(const struct strategy *st)
{
	return strcmp(st->family, "mmap") == 0;
}

/* A full filesystem: every strategy but the sparse mm_* ones reports ENOSPC
 * naming the destination and removes it; mm_* with --prealloc does too.
 * Needs root for a small tmpfs mount; skipped otherwise. */
static void test_enospc(void **state)
{
	struct scratch s;
	char err[512], mnt[64];
	(void)state;

	small_mount(mnt);
	open_scratch(&s);
	if (scratch_make_input(&s, 3 * MIB + 5, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy *st = strategy_at(i);
		char dst[4096];
		struct copy_job job = {.src = s.src, .dst = dst, .prealloc = 1};

		snprintf(dst, sizeof dst, "%s/dst-%s", mnt, st->name);
		err[0] = '\0';
		assert_int_equal(st->copy(&job, err, sizeof err), -1);
		assert_true(gone(dst));
		assert_non_null(strstr(err, dst));
		if ((strcmp(st->name, "cfr_cp") == 0 && strstr(err, "one filesystem")) ||
		    (strcmp(st->name, "direct_cp") == 0 && strstr(err, "O_DIRECT not supported"))) {
			printf("note: %s\n", err); /* cross-fs copy_file_range / no O_DIRECT */
			continue;
		}
		if (!strstr(err, "No space left on device"))
			fail_msg("%s: %s", st->name, err);
		if (is_mm(st) && !strstr(err, "allocate"))
			fail_msg("%s --prealloc: %s", st->name, err);
		if (getenv("LRUTOP_TEST_VERBOSE"))
			printf("%s\n", err);
	}
	scratch_remove(&s);
	small_umount(mnt);
}

/* Without --prealloc a mm_* copy sizes its destination sparsely, as
 * copybench, so a full disk kills the memcpy with SIGBUS; the worker
 * reports that as a failed run that says so. */
static void test_sigbus_full_disk(void **state)
{
	struct scratch s;
	char err[512], mnt[64];
	(void)state;

	small_mount(mnt);
	open_scratch(&s);
	if (scratch_make_input(&s, 3 * MIB + 5, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy *st = strategy_at(i);
		struct worker_spec spec;
		struct worker_event ev;
		struct worker_result res;
		struct worker w;
		char dst[4096];

		if (!is_mm(st))
			continue;
		snprintf(dst, sizeof dst, "%s/dst-%s", mnt, st->name);
		memset(&spec, 0, sizeof spec);
		spec.strategy = st;
		spec.src = s.src;
		spec.dst = dst;
		assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
		worker_go(&w);
		while (worker_read_event(&w, &ev) != -1)
			;
		assert_int_equal(worker_reap(&w, 1, &res), 1);
		assert_false(res.ok);
		assert_true(WIFSIGNALED(res.status));
		assert_int_equal(WTERMSIG(res.status), SIGBUS);
		if (!strstr(res.message, "SIGBUS") || !strstr(res.message, "disk full") ||
		    !strstr(res.message, st->name))
			fail_msg("%s: %s", st->name, res.message);
		worker_done(&w);
		unlink(dst); /* the killed worker could not; the session's scratch would */
	}
	scratch_remove(&s);
	small_umount(mnt);
}

/* --prealloc only changes how mm_* size the destination: the copy is the
 * same byte for byte and of the same size. */
static void test_prealloc_copy(void **state)
{
	struct scratch s;
	char err[512];
	(void)state;

	open_scratch(&s);
	if (scratch_make_input(&s, 2 * MIB + 3, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	for (int pre = 0; pre <= 1; pre++) {
		char dst[4200];
		struct copy_job job = {.src = s.src, .dst = dst, .prealloc = pre};
		struct stat st;

		snprintf(dst, sizeof dst, "%s/pre%d", s.dir, pre);
		if (strategy_find("mm_sync_cp")->copy(&job, err, sizeof err) < 0)
			fail_msg("mm_sync_cp prealloc=%d: %s", pre, err);
		assert_int_equal(file_hash(dst), file_hash(s.src));
		assert_int_equal(stat(dst, &st), 0);
		assert_int_equal(st.st_size, 2 * MIB + 3);
		unlink(dst);
	}
	scratch_remove(&s);
}

/* cfr_cp is refused up front when copy_file_range cannot cross from the
 * source's filesystem (tmpfs) to the scratch directory's (a disk), and
 * accepted on one filesystem; the other strategies are never refused. */
static void test_cfr_check(void **state)
{
	struct scratch s;
	char dir[] = "/dev/shm/lrutop-test-XXXXXX", src[64], err[512];
	const struct strategy *cfr = strategy_find("cfr_cp");
	(void)state;

	open_scratch(&s);
	if (scratch_make_input(&s, 4096, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	assert_int_equal(strategy_check(cfr, s.src, s.dir, err, sizeof err), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof src, "%s/src", dir);
	write_file(src, "hello", 5);
	assert_int_equal(strategy_check(strategy_find("rw_cp"), src, s.dir, err, sizeof err), 0);
	err[0] = '\0';
	if (strategy_check(cfr, src, s.dir, err, sizeof err) == 0) {
		/* a kernel that copies tmpfs -> disk: the copy must then work */
		char dst[4200];
		struct copy_job job = {.src = src, .dst = dst};
		snprintf(dst, sizeof dst, "%s/cfr", s.dir);
		assert_int_equal(cfr->copy(&job, err, sizeof err), 0);
		unlink(dst);
		printf("note: copy_file_range crosses tmpfs -> %s here\n", s.dir);
	} else {
		assert_non_null(strstr(err, src));
		assert_non_null(strstr(err, "EXDEV"));
		assert_non_null(strstr(err, "another filesystem"));
	}
	unlink(src);
	rmdir(dir);
	scratch_remove(&s);
}

/* direct_cp where the filesystem may lack O_DIRECT (tmpfs before 6.6):
 * either a correct copy or the refusal, and never a leftover file. */
static void test_direct_on_tmpfs(void **state)
{
	char dir[] = "/dev/shm/lrutop-test-XXXXXX", src[64], dst[64], err[512];
	char data[5000];
	struct copy_job job = {.src = src, .dst = dst};
	(void)state;

	if (!mkdtemp(dir))
		skip();
	snprintf(src, sizeof src, "%s/src", dir);
	snprintf(dst, sizeof dst, "%s/dst", dir);
	for (size_t i = 0; i < sizeof data; i++)
		data[i] = (char)(i * 7 + 3);
	write_file(src, data, sizeof data);
	if (strategy_find("direct_cp")->copy(&job, err, sizeof err) == 0) {
		printf("note: direct_cp works on tmpfs here\n");
		assert_true(tu_files_equal(src, dst));
		unlink(dst);
	} else {
		char want[128];
		snprintf(want, sizeof want, "O_DIRECT not supported on %s (filesystem refuses it)",
			 dir);
		assert_string_equal(err, want);
		assert_true(gone(dst));
	}
	unlink(src);
	rmdir(dir);
}

/* ---- scratch ---- */

static void test_scratch_refusals(void **state)
{
	struct scratch s;
	char err[512], file[4096];
	(void)state;

	assert_int_equal(scratch_open(&s, "/dev/shm", err, sizeof err), -1);
	assert_string_equal(err, "--dir /dev/shm: on tmpfs, no disk I/O would happen (use a "
				 "directory on a disk)");
	assert_int_equal(scratch_open(&s, "/var/tmp/lrutop-no-such-dir", err, sizeof err), -1);
	assert_string_equal(err, "--dir /var/tmp/lrutop-no-such-dir: No such file or directory");

	open_scratch(&s);
	assert_int_equal(scratch_path(&s, "plain", file, sizeof file), 0);
	write_file(file, "x", 1);
	scratch_own_current(&s, "plain"); /* ours: scratch_remove may take it */
	{
		struct scratch t;
		char want[4200];
		assert_int_equal(scratch_open(&t, file, err, sizeof err), -1);
		snprintf(want, sizeof want, "--dir %s: not a directory", file);
		assert_string_equal(err, want);
	}
	assert_int_equal(scratch_path(&s, "a/b", file, sizeof file), -1);
	assert_int_equal(scratch_path(&s, "..", file, sizeof file), -1);
	assert_int_equal(scratch_check_space(&s, 4096, err, sizeof err), 0);
	assert_int_equal(scratch_check_space(&s, UINT64_MAX / 2, err, sizeof err), -1);
	assert_non_null(strstr(err, "available"));
	scratch_remove(&s);
	assert_true(gone(file));
}

/* scratch_remove deletes what lrutop recorded and nothing else: a file it
 * did not create keeps the directory alive. */
static void test_scratch_only_ours(void **state)
{
	struct scratch s;
	char err[512], ours[4096], theirs[4200], dir[4096];
	(void)state;

	open_scratch(&s);
	strlcpy_(dir, s.dir, sizeof dir);
	assert_int_equal(scratch_path(&s, "dst-1", ours, sizeof ours), 0);
	write_file(ours, "1", 1);
	assert_int_equal(scratch_own_current(&s, "dst-1"), 0);
	snprintf(theirs, sizeof theirs, "%s/not-ours", s.dir);
	write_file(theirs, "2", 1);
	if (scratch_make_input(&s, 1, NULL, NULL, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	assert_int_equal(scratch_make_input(&s, 1, NULL, NULL, err, sizeof err), -1);
	scratch_remove(&s);
	assert_true(gone(ours));
	assert_false(gone(theirs));
	assert_false(gone(dir));
	unlink(theirs);
	rmdir(dir);
}

struct progress_log {
	int calls;
	uint64_t last;
	int monotonic;
};

static int on_fill(uint64_t done, uint64_t total, void *arg)
{
	struct progress_log *p = arg;
	p->calls++;
	if (done < p->last || done > total)
		p->monotonic = 0;
	p->last = done;
	return 0; /* go on */
}

static void test_scratch_input_data(void **state)
{
	struct scratch s;
	struct progress_log pl = {0, 0, 1};
	char err[512];
	unsigned char *a = malloc(MIB), *b = malloc(MIB);
	int fd, nonzero = 0;
	(void)state;

	open_scratch(&s);
	if (scratch_make_input(&s, 2 * MIB + 100, on_fill, &pl, err, sizeof err) < 0)
		fail_msg("make_input: %s", err);
	assert_int_equal(s.have_src, 1);
	assert_true(pl.calls >= 1 && pl.monotonic);
	assert_int_equal(pl.last, 2 * MIB + 100);
	fd = open(s.src, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, a, MIB), (ssize_t)MIB);
	assert_int_equal(read(fd, b, MIB), (ssize_t)MIB);
	close(fd);
	for (size_t i = 0; i < MIB; i++)
		nonzero += a[i] != 0;
	assert_true(nonzero > (int)(MIB / 2)); /* random bytes: ~255/256 non-zero */
	assert_true(memcmp(a, b, MIB) != 0);
	assert_true(memcmp(a, a + MIB / 2, MIB / 2) != 0);
	free(a);
	free(b);
	scratch_remove(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_table, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_parse_list, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_scratch_refusals, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_scratch_only_ours, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_scratch_input_data, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_copy_sizes, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_copy_odd_bs, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_dst_exists, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_missing_src, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_direct_on_tmpfs, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_enospc, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_sigbus_full_disk, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_prealloc_copy, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_cfr_check, tu_leave_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
