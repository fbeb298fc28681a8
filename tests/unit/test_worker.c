/*
 * Tests for worker: the fork/prepare/go/copy protocol seen from the
 * monitor's side. Synchronisation is only through the event pipe (poll)
 * and wait4 — no sleeps. Covers: the event order prepare, copy, flush,
 * done with increasing timestamps; results (ok, rusage, elapsed, the
 * copy's bytes); a SIGKILLed worker; a missing source; --cmd (exec, exit
 * status, exec failure); a monitor that goes away before "go".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sampling/sample.h"
#include "runs/scratch.h"
#include "runs/session.h"
#include "runs/strategy.h"
#include "base/util.h"
#include "runs/worker.h"
#include "testutil.h"
#include "leftover.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB		 ((uint64_t)1 << 20)
#define EVENT_TIMEOUT_MS 20000

static struct scratch scratch;

static int setup(void **state)
{
	char err[512];
	(void)state;
	if (scratch_open(&scratch, "/var/tmp", err, sizeof err) < 0 ||
	    scratch_make_input(&scratch, 16 * MIB, NULL, NULL, err, sizeof err) < 0) {
		fprintf(stderr, "setup: %s\n", err);
		return -1;
	}
	tu_keep(scratch.dir); /* every test's, not a leftover of one */
	return 0;
}

static int teardown(void **state)
{
	char dir[4096];
	struct stat st;
	(void)state;
	strlcpy_(dir, scratch.dir, sizeof dir);
	scratch_remove(&scratch);
	return stat(dir, &st) == 0 ? -1 : 0;
}


/* As the monitor does between runs: the previous run's dst (made by a
 * worker, recorded with keep_dst) goes; a stranger's file would stay. */
static void make_way(void)
{
	char err[512];
	if (scratch_unlink_own(&scratch, "dst", err, sizeof err) < 0)
		fail_msg("make way for dst: %s", err);
}

/* Records the dst a reaped worker made, as the monitor does. */
static void keep_dst(const struct worker_result *res)
{
	if (res->dst_made == 1)
		assert_int_equal(scratch_own(&scratch, "dst", res->dst_dev, res->dst_ino), 0);
	else if (res->dst_made == 2)
		scratch_own_current(&scratch, "dst");
}

/* The next event, waiting for it with poll: 1 got one, -1 EOF. */
static int next_event(struct worker *w, struct worker_event *ev)
{
	for (;;) {
		struct pollfd p = {w->event_fd, POLLIN, 0};
		int r = worker_read_event(w, ev);
		if (r != 0)
			return r;
		if (poll(&p, 1, EVENT_TIMEOUT_MS) == 0)
			fail_msg("no event from the worker within %d ms", EVENT_TIMEOUT_MS);
	}
}

/* Starts, waits for prepare, lets it go, collects every event until EOF,
 * reaps. Returns the number of events. */
static int run(const struct worker_spec *spec, struct worker_event *evs, int max,
	       struct worker_result *res)
{
	struct worker w;
	char err[512];
	int n = 0;

	make_way();
	if (worker_start(spec, &w, err, sizeof err) < 0)
		fail_msg("worker_start: %s", err);
	assert_int_equal(next_event(&w, &evs[n++]), 1);
	assert_int_equal(evs[0].phase, PHASE_PREPARE);
	worker_go(&w);
	while (n < max && next_event(&w, &evs[n]) == 1)
		n++;
	assert_int_equal(worker_reap(&w, 1, res), 1);
	keep_dst(res);
	/* A second reap returns the same result. */
	{
		struct worker_result again;
		assert_int_equal(worker_reap(&w, 0, &again), 1);
		assert_int_equal(again.status, res->status);
	}
	worker_done(&w);
	worker_done(&w);
	return n;
}

static void check_strategy(const char *name, int drop_caches, int verify)
{
	char dst[4096];
	struct worker_spec spec;
	struct worker_event evs[8];
	struct worker_result res;
	int n;

	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find(name);
	spec.src = scratch.src;
	spec.dst = dst;
	spec.drop_caches = drop_caches;
	spec.verify = verify;
	n = run(&spec, evs, 8, &res);

	assert_int_equal(n, verify ? 5 : 4);
	if (verify)
		assert_int_equal(evs[4].phase, PHASE_VERIFY);
	assert_int_equal(res.verified, verify ? 1 : -1);
	assert_true(res.t_done_ns == evs[3].t_ns);
	assert_int_equal(res.bytes_done, 16 * MIB);
	assert_int_equal(evs[0].phase, PHASE_PREPARE);
	assert_int_equal(evs[1].phase, PHASE_COPY);
	assert_int_equal(evs[2].phase, PHASE_FLUSH);
	assert_int_equal(evs[3].phase, PHASE_DONE);
	for (int i = 1; i < n; i++)
		assert_true(evs[i].t_ns >= evs[i - 1].t_ns);
	if (!res.ok)
		fail_msg("%s: %s", name, res.message);
	assert_string_equal(res.message, "");
	assert_true(res.elapsed_s > 0);
	/* elapsed excludes prepare and covers copy..done. */
	assert_true(res.elapsed_s * 1e9 >= (double)(evs[3].t_ns - evs[1].t_ns));
	assert_true(res.ru.ru_minflt + res.ru.ru_majflt > 0);
	assert_true(tu_files_equal(scratch.src, dst));
	/* the worker says which file it made: the one at dst */
	{
		struct stat st;
		assert_int_equal(lstat(dst, &st), 0);
		assert_int_equal(res.dst_made, 1);
		assert_true(res.dst_ino == (uint64_t)st.st_ino && res.dst_dev == (uint64_t)st.st_dev);
	}
	if (strncmp(name, "mm_", 3) == 0)
		/* 16 MiB touched through two maps: thousands of faults. */
		assert_true(res.ru.ru_minflt + res.ru.ru_majflt > 2 * 1024);
}

static void test_rw_cp(void **state)
{
	(void)state;
	check_strategy("rw_cp", 0, 0);
	check_strategy("rw_cp", 0, 1);
}

static void test_mm_sync_cp(void **state)
{
	(void)state;
	check_strategy("mm_sync_cp", 1, 1); /* root: exercises drop_caches too */
}

static void test_progress_page(void **state)
{
	char dst[4096], err[512];
	struct worker_spec spec;
	struct worker_event ev;
	struct worker w;
	struct worker_result res;
	(void)state;

	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find("rw_cp");
	spec.src = scratch.src;
	spec.dst = dst;
	spec.bs = 65536;
	make_way();
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	assert_int_equal(next_event(&w, &ev), 1);
	assert_int_equal(atomic_load(&w.progress->phase), PHASE_PREPARE);
	worker_go(&w);
	while (next_event(&w, &ev) == 1)
		;
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	assert_true(res.ok);
	keep_dst(&res);
	assert_int_equal(atomic_load(&w.progress->bytes_done), 16 * MIB);
	assert_int_equal(w.progress->bytes_total, 16 * MIB);
	assert_int_equal(atomic_load(&w.progress->phase), PHASE_DONE);
	worker_done(&w);
}

/* An rw_cp worker started on the scratch input and stopped in its
 * prepare phase (its first event read), waiting for "go". */
static void start_rw_prepared(struct worker *w)
{
	static char dst[4096];
	char err[512];
	struct worker_spec spec;
	struct worker_event ev;

	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find("rw_cp");
	spec.src = scratch.src;
	spec.dst = dst;
	make_way();
	assert_int_equal(worker_start(&spec, w, err, sizeof err), 0);
	assert_int_equal(next_event(w, &ev), 1);
}

static void test_killed(void **state)
{
	struct worker w;
	struct worker_result res;
	struct worker_event ev;
	(void)state;

	start_rw_prepared(&w);
	assert_int_equal(worker_reap(&w, 0, &res), 0); /* waiting for go */
	worker_kill(&w);
	assert_int_equal(worker_reap(&w, 0, &res), 1);
	assert_false(res.ok);
	assert_non_null(strstr(res.message, "rw_cp: "));
	assert_non_null(strstr(res.message, "SIGKILL"));
	assert_int_equal(worker_read_event(&w, &ev), -1);
	worker_done(&w);

	/* Killed from outside (as the OOM killer would). */
	start_rw_prepared(&w);
	assert_int_equal(kill(w.pid, SIGKILL), 0);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	assert_string_equal(res.message, "rw_cp: killed by signal 9 (SIGKILL: Killed)");
	worker_done(&w);
}

static void test_missing_src(void **state)
{
	char src[4096], dst[4096];
	struct worker_spec spec;
	struct worker_event evs[8];
	struct worker_result res;
	char want[4200];
	(void)state;

	assert_int_equal(scratch_path(&scratch, "missing", src, sizeof src), 0);
	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find("mm_sync_cp");
	spec.src = src;
	spec.dst = dst;
	assert_int_equal(run(&spec, evs, 8, &res), 1);
	assert_false(res.ok);
	snprintf(want, sizeof want, "mm_sync_cp: open %s: No such file or directory", src);
	assert_string_equal(res.message, want);
	assert_int_equal(access(dst, F_OK), -1);
}

static void test_cmd(void **state)
{
	char dst[4096];
	struct worker_spec spec;
	struct worker_event evs[8];
	struct worker_result res;
	(void)state;

	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	{
		char *argv[] = {"cp", scratch.src, dst, NULL};
		memset(&spec, 0, sizeof spec);
		spec.argv = argv;
		spec.src = scratch.src;
		spec.dst = dst;
		/* prepare, copy, then EOF at exec */
		assert_int_equal(run(&spec, evs, 8, &res), 2);
		assert_int_equal(evs[1].phase, PHASE_COPY);
		if (!res.ok)
			fail_msg("cp: %s", res.message);
		assert_true(res.elapsed_s > 0);
		assert_true(tu_files_equal(scratch.src, dst));
	}
	{
		char *argv[] = {"/bin/sh", "-c", "exit 3", NULL};
		spec.argv = argv;
		run(&spec, evs, 8, &res);
		assert_false(res.ok);
		assert_string_equal(res.message, "sh: exited with status 3");
	}
	{
		char *argv[] = {"lrutop-no-such-command", NULL};
		spec.argv = argv;
		run(&spec, evs, 8, &res);
		assert_false(res.ok);
		assert_string_equal(res.message,
				    "lrutop-no-such-command: exec lrutop-no-such-command: "
				    "No such file or directory");
	}
	{
		/* stdin is /dev/null, stdout/stderr do not reach the terminal */
		char *argv[] = {"/bin/sh", "-c",
				"read x; test -z \"$x\" && test ! -t 1 && test ! -t 2", NULL};
		spec.argv = argv;
		run(&spec, evs, 8, &res);
		if (!res.ok)
			fail_msg("stdio check: %s", res.message);
	}
}

/* Writes a stranger's file at path. */
static void put_foreign(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "foreign\n", 8), 8);
	close(fd);
}

static int is_foreign(const char *path)
{
	char buf[16] = "";
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	return n == 8 && !memcmp(buf, "foreign\n", 8);
}

/* A file under dst that lrutop did not make is never removed: not by the
 * worker (before or after "go", strategy or --cmd), not by the monitor's
 * make-way, not by the cleanup; the run fails saying so. */
static void test_foreign_dst(void **state)
{
	char dst[4096], err[512], want[4400];
	struct worker_spec spec;
	struct worker_event evs[8];
	struct worker_result res;
	struct worker w;
	(void)state;

	make_way(); /* the earlier tests' dst, which a worker made */
	assert_int_equal(scratch_path(&scratch, "dst", dst, sizeof dst), 0);
	assert_int_equal(access(dst, F_OK), -1);
	put_foreign(dst);
	snprintf(want, sizeof want,
		 "dst %s: exists and was not made by lrutop — refusing to remove it", dst);

	/* the monitor's make-way refuses, and so does remove_file */
	assert_int_equal(scratch_unlink_own(&scratch, "dst", err, sizeof err), -1);
	assert_string_equal(err, want);
	assert_int_equal(scratch_foreign(&scratch, "dst"), 1);
	scratch_remove_file(&scratch, "dst");
	assert_true(is_foreign(dst));

	/* there before the worker started: the worker refuses too */
	memset(&spec, 0, sizeof spec);
	spec.strategy = strategy_find("rw_cp");
	spec.src = scratch.src;
	spec.dst = dst;
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	assert_int_equal(next_event(&w, &evs[0]), 1);
	worker_go(&w);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	worker_done(&w);
	assert_false(res.ok);
	assert_int_equal(res.dst_made, 0);
	char want2[4500];
	snprintf(want2, sizeof want2, "rw_cp: %s", want);
	assert_string_equal(res.message, want2);
	assert_true(is_foreign(dst));

	/* appearing while the worker waits for "go" */
	assert_int_equal(unlink(dst), 0); /* we are the stranger: our file */
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	assert_int_equal(next_event(&w, &evs[0]), 1);
	assert_int_equal(evs[0].phase, PHASE_PREPARE);
	put_foreign(dst);
	worker_go(&w);
	while (next_event(&w, &evs[1]) == 1)
		assert_int_not_equal(evs[1].phase, PHASE_COPY);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	worker_done(&w);
	assert_false(res.ok);
	assert_string_equal(res.message, want2);
	assert_true(is_foreign(dst));

	/* a --cmd is never exec'd over it */
	{
		char *argv[] = {"cp", scratch.src, dst, NULL};
		memset(&spec, 0, sizeof spec);
		spec.argv = argv;
		spec.src = scratch.src;
		spec.dst = dst;
		assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
		assert_int_equal(next_event(&w, &evs[0]), 1);
		worker_go(&w);
		assert_int_equal(next_event(&w, &evs[1]), -1); /* no copy event: no exec */
		assert_int_equal(worker_reap(&w, 1, &res), 1);
		worker_done(&w);
		assert_false(res.ok);
		assert_int_equal(res.dst_made, 0);
		snprintf(want2, sizeof want2, "cp: %s", want);
		assert_string_equal(res.message, want2);
		assert_true(is_foreign(dst));
	}

	/* the cleanup of a scratch directory leaves it, and so the directory */
	{
		struct scratch sc;
		char p[4096], dir[4096];
		struct stat st;
		assert_int_equal(scratch_open(&sc, "/var/tmp", err, sizeof err), 0);
		assert_int_equal(scratch_path(&sc, "dst", p, sizeof p), 0);
		put_foreign(p);
		strlcpy_(dir, sc.dir, sizeof dir);
		scratch_remove(&sc);
		assert_true(is_foreign(p));
		assert_int_equal(stat(dir, &st), 0);
		assert_int_equal(unlink(p), 0);
		assert_int_equal(rmdir(dir), 0);
	}
	assert_int_equal(unlink(dst), 0);
}

/* The watchdog's progress mark: in the copy phase only bytes_done counts
 * (a livelocked mm_sync_cp keeps the disk busy re-reading, but copies
 * nothing); in flush and verify, where bytes_done stands still, the disk
 * and Dirty+Writeback count too, so a slow fsync is not "stuck". */
static void test_progress_mark(void **state)
{
	struct sample a, b;
	(void)state;

	memset(&a, 0, sizeof a);
	a.have = SAMPLE_HAVE_DISK | SAMPLE_HAVE_MEM;
	a.rd_sectors = 1000, a.wr_sectors = 2000, a.io_ms = 50, a.dirty = 4096, a.writeback = 0;
	b = a;
	/* the same state: the same mark */
	assert_true(session_progress_mark(PHASE_COPY, 5, &a) ==
		    session_progress_mark(PHASE_COPY, 5, &b));
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &a) ==
		    session_progress_mark(PHASE_FLUSH, 5, &b));
	/* copy: bytes move the mark, the disk alone does not */
	assert_true(session_progress_mark(PHASE_COPY, 5, &a) !=
		    session_progress_mark(PHASE_COPY, 6, &a));
	b.rd_sectors += 8;
	b.wr_sectors += 8;
	b.io_ms += 4;
	assert_true(session_progress_mark(PHASE_COPY, 5, &a) ==
		    session_progress_mark(PHASE_COPY, 5, &b));
	/* flush: each of the disk's figures and Dirty+Writeback move it */
	const uint64_t fm = session_progress_mark(PHASE_FLUSH, 5, &a);
	b = a, b.wr_sectors++;
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &b) != fm);
	b = a, b.rd_sectors++;
	assert_true(session_progress_mark(PHASE_VERIFY, 5, &b) !=
		    session_progress_mark(PHASE_VERIFY, 5, &a));
	b = a, b.io_ms++; /* busy without completing: a slow device, not a stall */
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &b) != fm);
	b = a, b.writeback = 8;
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &b) != fm);
	b = a, b.dirty = 0;
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &b) != fm);
	/* a counter whose group the sample lacks is not read */
	b = a, b.have = SAMPLE_HAVE_MEM, b.wr_sectors++;
	a.have = SAMPLE_HAVE_MEM;
	assert_true(session_progress_mark(PHASE_FLUSH, 5, &b) ==
		    session_progress_mark(PHASE_FLUSH, 5, &a));
	/* a phase change is progress; no sample is fine */
	assert_true(session_progress_mark(PHASE_COPY, 5, NULL) !=
		    session_progress_mark(PHASE_FLUSH, 5, NULL));
}

/* The monitor goes away (closes the go channel) before "go". */
static void test_no_go(void **state)
{
	struct worker w;
	struct worker_result res;
	struct worker_event ev;
	(void)state;

	start_rw_prepared(&w);
	close(w.go_fd);
	w.go_fd = -1;
	assert_int_equal(next_event(&w, &ev), -1);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	assert_false(res.ok);
	assert_non_null(strstr(res.message, "monitor went away"));
	worker_done(&w);
}

static void test_bad_spec(void **state)
{
	struct worker_spec spec;
	struct worker w;
	char err[512];
	(void)state;

	memset(&spec, 0, sizeof spec);
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), -1);
	assert_non_null(strstr(err, "either a strategy or a command"));
	worker_done(&w);
	memset(&w, 0, sizeof w);
	worker_done(&w); /* zeroed struct */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_rw_cp, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_mm_sync_cp, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_progress_page, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_killed, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_missing_src, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_cmd, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_no_go, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_bad_spec, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_foreign_dst, tu_leave_nothing),
	    cmocka_unit_test_teardown(test_progress_mark, tu_leave_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
