/*
 * Tests for the markers under run_dir (cgroup.h, issue 26 finding 1) on
 * this machine's real mounts: cgroup_home with root "" and a run_dir of the
 * test's own (a directory as /run/lrutop is), so nothing of the machine's
 * /run/lrutop is looked at.  Root only (only root writes markers).
 *
 *  - a gone owner's marker of the real cgroup2 top (the first cgroup2
 *    mount in /proc/mounts; "enabled -", so nothing is written to the
 *    machine's top whatever happens) is taken and removed; a live owner's,
 *    in the 0644 of lrutop before, is left as it was;
 *  - every marker lrutop cannot vouch for is renamed aside to NAME.bad
 *    with one warning naming it and why, and nothing is done by it: a
 *    relative dir, one not canonical, a plain directory with a plain
 *    cgroup.subtree_control (issue 26's reproducer; it still says "keep"),
 *    mode 0666, another owner, a symbolic link, a FIFO, a marker naming
 *    another pid, a debugfs marker of a tmpfs the test mounted (still
 *    mounted afterwards) or naming a controller, no marker at all; a
 *    second reap says nothing more;
 *  - a run_dir writable by others, a symbolic link to a good one, a lock
 *    file others may write: nothing in it is used or moved, one warning;
 *  - what lrutop writes: run_dir made 0700, the lock and the marker 0600
 *    (also under umask 0277), a stranger's file at its marker's name set
 *    aside, not written over; cgroup_home_done removes the marker.
 *
 * Dead owners have pids above PID_MAX_LIMIT (4194304): no such process can
 * exist.  Expected values come from the contract in cgroup.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "runs/cgroup.h"
#include "sampling/sampler.h"
#include "runs/scratch.h"
#include "testutil.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

TU_TMPDIR_SUITE("marks")

#define DEAD 4194400L

static char boot[64];

/* The first cgroup2 mount point in /proc/mounts, or "" */
static void cgroup2_top(char *out, size_t len)
{
	char line[8192], dev[256], mnt[4096], type[64];
	FILE *f = fopen("/proc/mounts", "re");

	out[0] = '\0';
	assert_non_null(f);
	while (fgets(line, sizeof line, f))
		if (sscanf(line, "%255s %4095s %63s", dev, mnt, type) == 3 &&
		    strcmp(type, "cgroup2") == 0) {
			snprintf(out, len, "%s", mnt);
			break;
		}
	fclose(f);
}

static void write_file(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	assert_int_equal(fchmod(fd, mode), 0);
	assert_int_equal(close(fd), 0);
}

static char *read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW);
	buf[0] = '\0';
	if (fd < 0)
		return buf;
	ssize_t n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	close(fd);
	return buf;
}

/* A marker's text as lrutop writes it. */
static void mark_text(char *out, size_t len, long pid, unsigned long long start, const char *mdir,
		      const char *enabled, const char *uses)
{
	snprintf(out, len,
		 "lrutop-subtree 1\npid %ld\nstart %llu\nboot %s\ndir %s\nenabled %s\nuses %s\n",
		 pid, start, boot, mdir, enabled, uses);
}

static void put_mark(const char *run, const char *name, const char *text, mode_t mode)
{
	char path[4200];
	snprintf(path, sizeof path, "%s/%s", run, name);
	write_file(path, text, mode);
}

static int exists(const char *run, const char *name)
{
	char path[4200];
	struct stat st;
	snprintf(path, sizeof path, "%s/%s", run, name);
	return lstat(path, &st) == 0;
}

static int lines(const char *s)
{
	int n = *s ? 1 : 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* The warnings hold one line "RUN/NAME: ...WHY...; moved aside to
 * NAME.bad, nothing done by it". */
static void said(const char *w, const char *run, const char *name, const char *why)
{
	char copy[4400], head[4200], tail[200], *save = NULL;
	snprintf(copy, sizeof copy, "%s", w);
	snprintf(head, sizeof head, "%s/%s: ", run, name);
	snprintf(tail, sizeof tail, "; moved aside to %s.bad, nothing done by it", name);
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		size_t n = strlen(l), t = strlen(tail);
		if (strncmp(l, head, strlen(head)) == 0 && strstr(l, why) && n > t &&
		    strcmp(l + n - t, tail) == 0)
			return;
	}
	fail_msg("no warning \"%s...%s...%s\" in:\n%s", head, why, tail, w);
}

static pid_t sleeper(int *fd)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;
		close(p[1]);
		(void)!read(p[0], &c, 1);
		_exit(0);
	}
	close(p[0]);
	*fd = p[1];
	return pid;
}

static void test_marks_judged(void **state)
{
	(void)state;
	char top[4096], run[128], cg[128], m[128], text[8192], buf[8192], path[4300], w[4400];
	struct cgroup_home h;

	if (geteuid() != 0)
		skip(); /* only root writes markers */
	cgroup2_top(top, sizeof top);
	if (!top[0])
		skip(); /* no cgroup2 mounted: no top a marker may name */
	scratch_boot_id(boot, sizeof boot);
	snprintf(run, sizeof run, "%s/run", dir);
	snprintf(cg, sizeof cg, "%s/cg", dir);
	snprintf(m, sizeof m, "%s/m", dir);
	assert_int_equal(mkdir(run, 0700), 0);
	assert_int_equal(mkdir(cg, 0755), 0);
	assert_int_equal(mkdir(m, 0755), 0);
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", cg);
	write_file(path, "keep\n", 0644);
	assert_int_equal(mount("none", m, "tmpfs", 0, "size=64k"), 0);

	/* valid: a gone owner's (nothing to give back), a live one's */
	mark_text(text, sizeof text, DEAD, 1, top, "-", "memory");
	put_mark(run, "subtree-4194400", text, 0600);
	int go;
	pid_t live = sleeper(&go);
	unsigned long long start = 0;
	assert_int_equal(scratch_pid_start(live, &start), 0);
	char live_name[64], live_text[8192];
	snprintf(live_name, sizeof live_name, "subtree-%d", (int)live);
	mark_text(live_text, sizeof live_text, live, start, top, "-", "memory io");
	put_mark(run, live_name, live_text, 0644);

	/* not lrutop's */
	static const struct {
		const char *name, *why;
	} bad[] = {
	    {"subtree-4194401", "is not an absolute path"},
	    {"subtree-4194402", "is not a canonical path"},
	    {"subtree-4194403", "is not the top of the cgroup2 hierarchy"},
	    {"subtree-4194404", "mode 0666, not 0600"},
	    {"subtree-4194405", "owned by uid 1000, not root"},
	    {"subtree-4194406", "not a regular file"},
	    {"subtree-4194407", "it says pid 4194408, its name 4194407"},
	    {"mount-4194409", "is not " SAMPLER_DEBUGFS},
	    {"mount-4194410", "a debugfs marker that names a controller"},
	    {"subtree-4194411", "not a marker of lrutop's"},
	    {"subtree-4194412", "not a regular file"},
	};
	/* the machine's real top: "enabled -" even where the marker is bad, so
	 * that no fault of the code under test can turn a controller off there */
	mark_text(text, sizeof text, DEAD + 1, 1, top + 1, "-", "memory io");
	put_mark(run, bad[0].name, text, 0600);
	char dotted[4200];
	snprintf(dotted, sizeof dotted, "%s/.", top);
	mark_text(text, sizeof text, DEAD + 2, 1, dotted, "-", "memory io");
	put_mark(run, bad[1].name, text, 0600);
	mark_text(text, sizeof text, DEAD + 3, 1, cg, "memory io", "memory io");
	put_mark(run, bad[2].name, text, 0600);
	mark_text(text, sizeof text, DEAD + 4, 1, top, "-", "memory");
	put_mark(run, bad[3].name, text, 0666);
	mark_text(text, sizeof text, DEAD + 5, 1, top, "-", "memory");
	put_mark(run, bad[4].name, text, 0600);
	snprintf(path, sizeof path, "%s/%s", run, bad[4].name);
	assert_int_equal(chown(path, 1000, 1000), 0);
	mark_text(text, sizeof text, DEAD + 6, 1, top, "-", "memory");
	put_mark(dir, "elsewhere", text, 0600); /* valid, but reached through a link */
	snprintf(path, sizeof path, "%s/%s", run, bad[5].name);
	snprintf(buf, sizeof buf, "%s/elsewhere", dir);
	assert_int_equal(symlink(buf, path), 0);
	mark_text(text, sizeof text, DEAD + 8, 1, top, "-", "memory");
	put_mark(run, bad[6].name, text, 0600);
	mark_text(text, sizeof text, DEAD + 9, 1, m, "debugfs", "debugfs");
	put_mark(run, bad[7].name, text, 0600);
	mark_text(text, sizeof text, DEAD + 10, 1, SAMPLER_DEBUGFS, "memory", "debugfs");
	put_mark(run, bad[8].name, text, 0600);
	put_mark(run, bad[9].name, "dir /sys/fs/cgroup\nenabled memory\n", 0600);
	snprintf(path, sizeof path, "%s/%s", run, bad[10].name);
	assert_int_equal(mkfifo(path, 0600), 0);

	cgroup_home_init(&h, "", run);
	long pid = 0;
	int restored = -1;
	cgroup_home_reap(&h, &pid, &restored);
	int mounted = 0;
	struct statfs sf;
	mounted = statfs(m, &sf) == 0 && (long)sf.f_type == TMPFS_MAGIC;
	umount2(m, MNT_DETACH);
	assert_true(mounted);
	assert_int_equal(restored, 0);
	snprintf(path, sizeof path, "%s/cgroup.subtree_control", cg);
	assert_string_equal(read_file(path, buf, sizeof buf), "keep\n");
	assert_false(exists(run, "subtree-4194400"));
	assert_false(exists(run, "subtree-4194400.bad"));
	snprintf(path, sizeof path, "%s/%s", run, live_name);
	assert_string_equal(read_file(path, buf, sizeof buf), live_text);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(write(go, "x", 1), 1);
	close(go);
	assert_int_equal(waitpid(live, NULL, 0), live);

	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_int_equal(lines(w), (int)ARRAY_LEN(bad));
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char aside[80];
		snprintf(aside, sizeof aside, "%s.bad", bad[i].name);
		assert_false(exists(run, bad[i].name));
		assert_true(exists(run, aside));
		said(w, run, bad[i].name, bad[i].why);
	}
	snprintf(path, sizeof path, "%s/subtree-4194403.bad", run);
	assert_non_null(strstr(read_file(path, buf, sizeof buf), "\nenabled memory io\n"));
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_string_equal(w, "");

	/* the next start: the .bad files are no markers, nothing more said */
	cgroup_home_init(&h, "", run);
	cgroup_home_reap(&h, &pid, &restored);
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_string_equal(w, "");
	assert_true(exists(run, "subtree-4194403.bad"));
}

/* run_dir, or its lock, that is not lrutop's to use: nothing in it is
 * used or moved, and it is said once. */
static void test_marks_run_dir(void **state)
{
	(void)state;
	char run[128], text[8192], w[4400], err[600], lnk[128], path[300];
	struct cgroup_home h;

	if (geteuid() != 0)
		skip();
	scratch_boot_id(boot, sizeof boot);
	snprintf(run, sizeof run, "%s/run", dir);
	assert_int_equal(mkdir(run, 0700), 0);
	assert_int_equal(chmod(run, 0777), 0);
	mark_text(text, sizeof text, DEAD, 1, dir, "memory", "memory"); /* the test's own */
	put_mark(run, "subtree-4194400", text, 0600);
	cgroup_home_init(&h, "", run);
	cgroup_home_reap(&h, NULL, NULL);
	assert_true(exists(run, "subtree-4194400"));
	assert_false(exists(run, "subtree-4194400.bad"));
	assert_false(exists(run, "lock"));
	cgroup_home_take_warnings(&h, w, sizeof w);
	snprintf(text, sizeof text,
		 "%s is not root's own directory (uid 0, mode 0777; lrutop makes it 0700): its "
		 "markers are not used",
		 run);
	assert_string_equal(w, text);
	cgroup_home_reap(&h, NULL, NULL);
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_string_equal(w, ""); /* once */
	assert_int_equal(cgroup_home_mark_mount(&h, SAMPLER_DEBUGFS, 0, err, sizeof err), -1);
	assert_string_equal(err, text);

	/* a symbolic link to a good directory */
	assert_int_equal(chmod(run, 0700), 0);
	snprintf(lnk, sizeof lnk, "%s/link", dir);
	assert_int_equal(symlink(run, lnk), 0);
	cgroup_home_init(&h, "", lnk);
	cgroup_home_reap(&h, NULL, NULL);
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_non_null(strstr(w, "not a directory (a symbolic link?): not used"));
	assert_true(exists(run, "subtree-4194400"));
	assert_false(exists(run, "lock"));

	/* a lock others may write */
	snprintf(path, sizeof path, "%s/lock", run);
	write_file(path, "", 0666);
	cgroup_home_init(&h, "", run);
	cgroup_home_reap(&h, NULL, NULL);
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_non_null(strstr(w, "/lock is not root's own regular file"));
	assert_true(exists(run, "subtree-4194400"));
	assert_false(exists(run, "subtree-4194400.bad"));
}

/* What lrutop writes: run_dir 0700, the lock and its marker 0600 whatever
 * the umask, a stranger's file at its marker's name set aside first. */
static void test_marks_written(void **state)
{
	(void)state;
	char run[128], mark[200], path[300], buf[8192], w[4400], err[600], want[300];
	struct cgroup_home h;
	struct stat st;

	if (geteuid() != 0)
		skip();
	snprintf(run, sizeof run, "%s/newrun", dir);
	cgroup_home_init(&h, "", run);
	mode_t old = umask(0277);
	int rc = cgroup_home_mark_mount(&h, SAMPLER_DEBUGFS, 0, err, sizeof err);
	umask(old);
	if (rc < 0)
		fail_msg("%s", err);
	assert_int_equal(lstat(run, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, 0);
	snprintf(path, sizeof path, "%s/lock", run);
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_uid == 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(mark, sizeof mark, "%s/mount-%d", run, (int)getpid());
	assert_string_equal(h.mount_marker, mark);
	assert_int_equal(lstat(mark, &st), 0);
	assert_true(S_ISREG(st.st_mode) && st.st_uid == 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	snprintf(want, sizeof want, "\ndir %s\nenabled -\nuses debugfs\n", SAMPLER_DEBUGFS);
	assert_non_null(strstr(read_file(mark, buf, sizeof buf), want));
	cgroup_home_done(&h);
	assert_int_equal(lstat(mark, &st), -1);
	assert_string_equal(h.mount_marker, "");

	/* a stranger's file at the name: set aside, never written over */
	write_file(mark, "USER DATA\n", 0644);
	cgroup_home_init(&h, "", run);
	if (cgroup_home_mark_mount(&h, SAMPLER_DEBUGFS, 0, err, sizeof err) < 0)
		fail_msg("%s", err);
	snprintf(path, sizeof path, "%s.bad", mark);
	assert_string_equal(read_file(path, buf, sizeof buf), "USER DATA\n");
	assert_non_null(strstr(read_file(mark, buf, sizeof buf), want));
	cgroup_home_take_warnings(&h, w, sizeof w);
	assert_int_equal(lines(w), 1);
	assert_non_null(strstr(w, "not a marker of lrutop's"));
	cgroup_home_done(&h);
	assert_int_equal(lstat(mark, &st), -1);
	assert_int_equal(lstat(path, &st), 0);
	/* nothing else: no NAME.new-... left */
	char cmd[300], out[64] = "";
	snprintf(cmd, sizeof cmd, "ls -A '%s' | tr '\\n' ' '", run);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(out, sizeof out, p))
		out[0] = '\0';
	pclose(p);
	snprintf(want, sizeof want, "lock mount-%d.bad ", (int)getpid());
	assert_string_equal(out, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_marks_judged, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_marks_run_dir, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_marks_written, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
