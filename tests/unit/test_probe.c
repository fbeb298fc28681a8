/*
 * Tests for the probe (probe.h) on a real scratch directory and a real
 * disk: it starts, its file is lrutop's (made O_EXCL, owned, removed by
 * scratch_remove), latencies arrive through the pipe in both modes, it
 * shares our cgroups, it is gone after probe_stop; probe_loop on its own
 * keeps its schedule (count reads take at least count x 10 ms); the mode
 * names parse both ways.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runs/probe.h"
#include "runs/scratch.h"
#include "leftover.h"

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	buf[n] = '\0';
	if (f)
		fclose(f);
}

static void test_modes(void **state)
{
	(void)state;
	assert_int_equal(probe_mode_parse("cold"), PROBE_COLD);
	assert_int_equal(probe_mode_parse("direct"), PROBE_DIRECT);
	assert_int_equal(probe_mode_parse("foo"), -1);
	assert_int_equal(probe_mode_parse(""), -1);
	assert_string_equal(probe_mode_name(PROBE_COLD), "cold");
	assert_string_equal(probe_mode_name(PROBE_DIRECT), "direct");
	assert_null(probe_mode_name(PROBE_OFF));
}

static void run_probe(enum probe_mode mode)
{
	struct scratch sc;
	char err[256], path[4200];
	memset(&sc, 0, sizeof(sc));
	if (scratch_open(&sc, "/var/tmp", err, sizeof(err)) < 0) {
		print_message("skip: %s\n", err);
		skip();
	}
	struct probe p;
	int rc = probe_start(&p, &sc, mode, err, sizeof(err));
	if (rc < 0)
		print_error("%s\n", err);
	assert_int_equal(rc, 0);
	snprintf(path, sizeof(path), "%s/probe", sc.dir);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* a second probe in the same directory: O_EXCL refuses */
	struct probe q;
	assert_int_equal(probe_start(&q, &sc, mode, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "probe"));
	/* the same cgroups as ours */
	char mine[4096], its[4096], f[64];
	slurp("/proc/self/cgroup", mine, sizeof(mine));
	snprintf(f, sizeof(f), "/proc/%d/cgroup", (int)p.pid);
	slurp(f, its, sizeof(its));
	assert_string_equal(its, mine);
	/* latencies arrive: it fills 32 MiB first, so a generous deadline */
	uint64_t lat[64], deadline = now_ns() + 30000000000ull;
	long got = 0;
	while (got < 5 && now_ns() < deadline) {
		long n = probe_read(&p, lat, 64);
		assert_true(n >= 0);
		for (long i = 0; i < n; i++) {
			assert_true(lat[i] > 0);
			assert_true(lat[i] < 30000000000ull);
		}
		got += n;
		usleep(20000);
	}
	assert_true(got >= 5);
	assert_string_equal(p.why, "");
	pid_t pid = p.pid;
	probe_stop(&p);
	probe_stop(&p); /* idempotent */
	assert_int_equal(p.pid, -1);
	assert_int_equal(kill(pid, 0), -1); /* reaped: gone */
	assert_int_equal(errno, ESRCH);
	assert_int_equal(probe_read(&p, lat, 64), -1);
	/* the file is lrutop's: scratch_remove takes it and the directory */
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s", sc.dir);
	scratch_remove(&sc);
	assert_int_equal(lstat(path, &st), -1);
	assert_int_equal(lstat(dir, &st), -1);
}

/* Killed from outside: the next read says it is gone, and why. */
static void test_killed(void **state)
{
	(void)state;
	struct scratch sc;
	char err[256];
	memset(&sc, 0, sizeof(sc));
	if (scratch_open(&sc, "/var/tmp", err, sizeof(err)) < 0) {
		print_message("skip: %s\n", err);
		skip();
	}
	struct probe p;
	assert_int_equal(probe_start(&p, &sc, PROBE_COLD, err, sizeof(err)), 0);
	assert_int_equal(kill(p.pid, SIGKILL), 0);
	uint64_t lat[64], deadline = now_ns() + 30000000000ull;
	long n = 0;
	while ((n = probe_read(&p, lat, 64)) >= 0 && now_ns() < deadline)
		usleep(10000);
	assert_int_equal(n, -1);
	assert_string_equal(p.why, "it was killed");
	assert_int_equal(p.pid, -1); /* reaped */
	probe_stop(&p);
	scratch_remove(&sc);
}

static void test_cold(void **state)
{
	(void)state;
	run_probe(PROBE_COLD);
}

static void test_direct(void **state)
{
	(void)state;
	run_probe(PROBE_DIRECT);
}

/* probe_loop keeps the schedule: 12 reads at 10-50 ms deadlines take at
 * least 120 ms, and every read's latency comes out of the pipe. */
static void test_loop(void **state)
{
	(void)state;
	char path[] = "/var/tmp/lrutop-probe-test-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	unlink(path);
	static char buf[1 << 20];
	memset(buf, 7, sizeof(buf));
	assert_int_equal(write(fd, buf, sizeof(buf)), (ssize_t)sizeof(buf));
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	uint64_t t0 = now_ns();
	assert_int_equal(probe_loop(fd, PROBE_COLD, sizeof(buf), pfd[1], getppid(), 12, NULL), 0);
	uint64_t took = now_ns() - t0;
	assert_true(took >= 12 * PROBE_MIN_NS);
	uint64_t lat[16];
	ssize_t r = read(pfd[0], lat, sizeof(lat));
	assert_int_equal(r, 12 * (ssize_t)sizeof(uint64_t));
	/* a file smaller than one read: refused, nothing written */
	assert_int_equal(probe_loop(fd, PROBE_COLD, 100, pfd[1], getppid(), 1, NULL), -1);
	close(pfd[0]);
	close(pfd[1]);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_modes, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_cold, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_direct, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_loop, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_killed, tu_leave_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
