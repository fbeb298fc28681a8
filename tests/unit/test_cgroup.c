/*
 * Tests for cgroup: a 128 MiB memory cgroup holds a worker copying a
 * 256 MiB source with rw_cp; the worker is listed in the cgroup, the
 * charged memory never exceeds the limit (sampled during the run and the
 * kernel's own high-water mark afterwards), and cgroup_remove leaves no
 * directory, also when a task is still inside; with --disk-limit's
 * throttle the worker is in the blkio cgroup too and both go; with only a
 * memory limit the run still gets an io cgroup (no throttle) whose
 * counters file is there, and it goes too. Skipped, with the reason,
 * where cgroup_available says no memory cgroup can be made.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "runs/cgroup.h"
#include "runs/scratch.h"
#include "runs/strategy.h"
#include "base/util.h"
#include "runs/worker.h"
#include "leftover.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MIB   ((uint64_t)1 << 20)
#define LIMIT (128 * MIB)

static int gone(const char *path)
{
	struct stat st;
	return stat(path, &st) < 0 && errno == ENOENT;
}

static void need_cgroup(void)
{
	char err[512];
	if (cgroup_available(err, sizeof err) < 0) {
		printf("skipped: %s\n", err);
		skip();
	}
}

static uint64_t read_u64(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	assert_true(fd >= 0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

/* 1 when pid is listed in the cgroup.procs file. */
static int listed(const char *procs, pid_t pid)
{
	FILE *f = fopen(procs, "r");
	long p;
	int found = 0;

	assert_non_null(f);
	while (fscanf(f, "%ld", &p) == 1)
		found |= p == (long)pid;
	fclose(f);
	return found;
}

static void test_limit_holds(void **state)
{
	struct cgroup cg;
	struct scratch s;
	struct worker w;
	struct worker_spec spec;
	struct worker_event ev;
	struct worker_result res;
	char err[512], dst[4096];
	uint64_t max_seen = 0;
	int samples = 0, r;
	(void)state;

	need_cgroup();
	if (scratch_open(&s, "/var/tmp", err, sizeof err) < 0 ||
	    scratch_make_input(&s, 2 * LIMIT, NULL, NULL, err, sizeof err) < 0)
		fail_msg("scratch: %s", err);
	if (cgroup_create(&cg, LIMIT, "test", err, sizeof err) < 0)
		fail_msg("cgroup_create: %s", err);
	assert_true(cg.version == 1 || cg.version == 2);
	assert_int_equal(cg.limit, LIMIT);
	assert_non_null(strstr(cg.path, "/lrutop-"));
	assert_true(access(cg.procs, W_OK) == 0 && access(cg.stat, R_OK) == 0 &&
		    access(cg.usage, R_OK) == 0);

	assert_int_equal(scratch_path(&s, "dst", dst, sizeof dst), 0);
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find("rw_cp");
	spec.src = s.src;
	spec.dst = dst;
	spec.bs = 1 << 20;
	spec.cgroup_procs = cg.procs;
	if (worker_start(&spec, &w, err, sizeof err) < 0)
		fail_msg("worker_start: %s", err);
	{
		struct pollfd p = {w.event_fd, POLLIN, 0};
		assert_int_equal(poll(&p, 1, 20000), 1);
	}
	/* The PREPARE event comes after the worker joined the cgroup. */
	assert_int_equal(worker_read_event(&w, &ev), 1);
	assert_int_equal(ev.phase, PHASE_PREPARE);
	assert_true(listed(cg.procs, w.pid));
	worker_go(&w);

	/* Sample the charge while it copies: the poll timeout is the sampling
	 * clock; the end of the run is the EOF on the event pipe. */
	for (;;) {
		struct pollfd p = {w.event_fd, POLLIN, 0};
		uint64_t u = read_u64(cg.usage);
		if (u > max_seen)
			max_seen = u;
		samples++;
		poll(&p, 1, 10);
		while ((r = worker_read_event(&w, &ev)) == 1)
			;
		if (r < 0)
			break;
	}
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	if (!res.ok)
		fail_msg("rw_cp in the cgroup: %s", res.message);
	scratch_own(&s, "dst", res.dst_dev, res.dst_ino); /* as the monitor does */
	printf("%d samples, highest usage %llu KiB of %llu KiB\n", samples,
	       (unsigned long long)(max_seen >> 10), (unsigned long long)(LIMIT >> 10));
	assert_true(max_seen <= cg.limit);
	assert_true(max_seen > 0);
	if (cg.peak[0]) {
		uint64_t peak = read_u64(cg.peak);
		printf("kernel's peak: %llu KiB\n", (unsigned long long)(peak >> 10));
		assert_true(peak <= cg.limit);
		/* 256 MiB went through the page cache: it filled up to the limit. */
		assert_true(peak > cg.limit / 2);
	}
	worker_done(&w);

	if (cgroup_remove(&cg, err, sizeof err) < 0)
		fail_msg("cgroup_remove: %s", err);
	assert_true(gone(cg.path));
	assert_int_equal(cgroup_remove(&cg, err, sizeof err), 0);
	scratch_remove(&s);
}

/* Removing a cgroup with a task still inside kills the task. */
static void test_remove_busy(void **state)
{
	struct cgroup cg;
	struct worker w;
	struct worker_spec spec;
	struct worker_event ev;
	struct worker_result res;
	char err[512];
	char *argv[] = {"true", NULL};
	(void)state;

	need_cgroup();
	if (cgroup_create(&cg, 64 * MIB, "busy/../x", err, sizeof err) < 0)
		fail_msg("cgroup_create: %s", err);
	assert_null(strstr(cg.path, "busy/"));
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.cgroup_procs = cg.procs;
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	{
		struct pollfd p = {w.event_fd, POLLIN, 0};
		assert_int_equal(poll(&p, 1, 20000), 1);
	}
	assert_int_equal(worker_read_event(&w, &ev), 1);
	assert_true(listed(cg.procs, w.pid)); /* waiting for go, inside */

	uint64_t ooms = 99;
	assert_int_equal(cgroup_oom_kills(&cg, &ooms), 0);
	assert_int_equal(ooms, 0);
	if (cgroup_remove(&cg, err, sizeof err) < 0)
		fail_msg("cgroup_remove: %s", err);
	assert_true(gone(cg.path));
	assert_int_equal(cgroup_oom_kills(&cg, &ooms), -1); /* removed */
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	assert_false(res.ok);
	/* A SIGKILL is not called an OOM kill: only the counter can say. */
	assert_string_equal(res.message, "true: killed by signal 9 (SIGKILL: Killed)");
	worker_done(&w);
}

/* A real OOM kill moves the cgroup's counter: dd's 64 MiB buffer is
 * anonymous memory, there is no swap to put it in, the limit is 16 MiB. */
static void test_oom_counter(void **state)
{
	struct cgroup cg;
	struct worker w;
	struct worker_spec spec;
	struct worker_event ev;
	struct worker_result res;
	char err[512];
	char *argv[] = {"dd", "if=/dev/zero", "of=/dev/null", "bs=64M", "count=1", NULL};
	uint64_t ooms = 99;
	(void)state;

	need_cgroup();
	if (cgroup_create(&cg, 16 * MIB, "oom", err, sizeof err) < 0)
		fail_msg("cgroup_create: %s", err);
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.cgroup_procs = cg.procs;
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	worker_go(&w);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	while (worker_read_event(&w, &ev) == 1)
		;
	assert_false(res.ok);
	printf("dd in 16M: %s\n", res.message);
	assert_int_equal(cgroup_oom_kills(&cg, &ooms), 0);
	assert_true(ooms >= 1);
	worker_done(&w);
	assert_int_equal(cgroup_remove(&cg, err, sizeof err), 0);
}

/* --disk-limit for real: the throttle of the disk holding /var/tmp is in
 * place while the worker waits (v1: in a blkio cgroup beside the memory
 * one, the worker in both), and removing the cgroup removes both. */
static void test_disk_limit(void **state)
{
	struct cgroup cg;
	struct worker w;
	struct worker_spec spec;
	struct worker_event ev;
	struct worker_result res;
	struct cgroup_io io = {0, 0, 30 * MIB};
	struct stat st;
	char err[512], file[8192], buf[256], want[64];
	char *argv[] = {"true", NULL};
	(void)state;

	need_cgroup();
	if (cgroup_io_available(err, sizeof err) < 0) {
		printf("skipped: %s\n", err);
		skip();
	}
	/* the whole disk: a partition's parent in sysfs */
	assert_int_equal(stat("/var/tmp", &st), 0);
	snprintf(file, sizeof file, "/sys/dev/block/%u:%u/partition", major(st.st_dev),
		 minor(st.st_dev));
	if (access(file, F_OK) == 0)
		snprintf(file, sizeof file, "/sys/dev/block/%u:%u/../dev", major(st.st_dev),
			 minor(st.st_dev));
	else
		snprintf(file, sizeof file, "/sys/dev/block/%u:%u/dev", major(st.st_dev),
			 minor(st.st_dev));
	int fd = open(file, O_RDONLY);
	if (fd < 0) {
		printf("skipped: /var/tmp is not on a block device (%s)\n", file);
		skip();
	}
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_int_equal(sscanf(buf, "%u:%u", &io.major, &io.minor), 2);

	if (cgroup_create_run(&cg, 64 * MIB, &io, "io", err, sizeof err) < 0)
		fail_msg("cgroup_create_run: %s", err);
	const char *iodir = cg.io_created ? cg.io_path : cg.path;
	int v = cg.io_created ? cg.io_version : cg.version;
	snprintf(file, sizeof file, "%s/%s", iodir, v == 2 ? "io.max" : "blkio.throttle.read_bps_device");
	fd = open(file, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof buf - 1);
	close(fd);
	assert_true(n > 0);
	buf[n] = '\0';
	snprintf(want, sizeof want, v == 2 ? "%u:%u rbps=%llu" : "%u:%u %llu", io.major, io.minor,
		 (unsigned long long)io.bps);
	assert_non_null(strstr(buf, want));
	printf("cgroup v%d throttle: %s", v, buf);

	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.cgroup_procs = cg.procs;
	spec.io_procs = cg.io_created ? cg.io_procs : NULL;
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	{
		struct pollfd p = {w.event_fd, POLLIN, 0};
		assert_int_equal(poll(&p, 1, 20000), 1);
	}
	assert_int_equal(worker_read_event(&w, &ev), 1);
	assert_true(listed(cg.procs, w.pid));
	if (cg.io_created)
		assert_true(listed(cg.io_procs, w.pid)); /* in both, before any file */
	if (cgroup_remove(&cg, err, sizeof err) < 0)
		fail_msg("cgroup_remove: %s", err);
	assert_true(gone(cg.path));
	assert_true(gone(iodir));
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	worker_done(&w);

	/* only the throttle: one cgroup, no memory figures */
	if (cgroup_create_run(&cg, 0, &io, "io2", err, sizeof err) < 0)
		fail_msg("cgroup_create_run: %s", err);
	assert_int_equal(cg.io_created, 0);
	assert_int_equal(cg.limit, 0);
	uint64_t ooms;
	assert_int_equal(cgroup_oom_kills(&cg, &ooms), -1);
	strcpy(file, cg.path);
	assert_int_equal(cgroup_remove(&cg, err, sizeof err), 0);
	assert_true(gone(file));
}

/* Only a memory limit: an io cgroup without a throttle all the same, for
 * the run's own disk bytes (io_stat, readable as the kernel made it); both
 * go with cgroup_remove. */
static void test_io_counters(void **state)
{
	struct cgroup cg;
	char err[512], iodir[4096];
	(void)state;

	need_cgroup();
	if (cgroup_io_available(err, sizeof err) < 0) {
		printf("skipped: %s\n", err);
		skip();
	}
	if (cgroup_create(&cg, 64 * MIB, "acct", err, sizeof err) < 0)
		fail_msg("cgroup_create: %s", err);
	assert_true(cg.io_stat[0] != '\0');
	assert_int_equal(access(cg.io_stat, R_OK), 0);
	strcpy(iodir, cg.io_created ? cg.io_path : cg.path);
	if (cg.io_created) { /* v1: a blkio cgroup beside, without a throttle */
		char file[8192], buf[256];
		snprintf(file, sizeof file, "%s/blkio.throttle.read_bps_device", iodir);
		assert_true(read_small_at(AT_FDCWD, file, buf, sizeof buf) == 0);
	}
	printf("io counters: %s (v%d)\n", cg.io_stat, cg.io_stat_version);
	assert_int_equal(cgroup_remove(&cg, err, sizeof err), 0);
	assert_true(gone(cg.path));
	assert_true(gone(iodir));
	assert_string_equal(cg.io_stat, "");
}

static void test_bad_limit(void **state)
{
	struct cgroup cg;
	char err[512];
	(void)state;

	assert_int_equal(cgroup_create(&cg, 0, "x", err, sizeof err), -1);
	assert_non_null(strstr(err, "--mem-limit"));
	assert_int_equal(cgroup_remove(&cg, err, sizeof err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_limit_holds, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_remove_busy, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_oom_counter, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_disk_limit, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_io_counters, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_bad_limit, tu_leave_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
