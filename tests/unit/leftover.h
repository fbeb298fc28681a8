/*
 * leftover — what a failed test made still goes.  A failed cmocka assertion
 * longjmps out of the test function, past the clean-up at its end, so a run
 * cgroup, a scratch directory with its 1 GiB source or a worker it started
 * would outlive the test.  tu_leave_nothing, as each such test's teardown
 * (cmocka_unit_test_teardown(test_x, tu_leave_nothing)), removes what this
 * process made and is still there, however the test ended:
 *   - its children (a worker not yet reaped): SIGKILL, then reaped;
 *   - cgroups named lrutop-<our pid>-*, lrutop-<our pid>.scope or
 *     lrutop-test-<our pid> at any depth of /sys/fs/cgroup, either layout
 *     (the deepest first; tasks still inside killed, their leaving awaited
 *     with a bounded poll);
 *   - /var/tmp/lrutop-XXXXXX directories whose owner file names our pid,
 *     but the one a group setup shares with all its tests (tu_keep);
 *   - a test's own /var/tmp/lrutop-test-<our pid>-* (unmounted first when
 *     it is a mount point: test_strategy's small tmpfs).
 * It says what it removed and returns -1 when there was anything, so a
 * test that passed but leaked fails.  It is a net, not the code under
 * test: cgroup_remove and scratch_remove stay what the tests assert.
 * (tests/run checks the same things again after each suite, from outside.)
 */
#ifndef LRUTOP_LEFTOVER_H
#define LRUTOP_LEFTOVER_H

#include <dirent.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h" /* tu_rmtree_cb */

/* 1 when name is one of this process's cgroup names (see above). */
static inline int tu_our_cgroup(const char *name)
{
	char pid[24];
	size_t n = (size_t)snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (strncmp(name, "lrutop-", 7) != 0)
		return 0;
	name += 7;
	if (strncmp(name, "test-", 5) == 0)
		return strcmp(name + 5, pid) == 0;
	return strncmp(name, pid, n) == 0 && (name[n] == '-' || strcmp(name + n, ".scope") == 0);
}

/* Kills what is in the cgroup dir, waits up to 5 s for it to leave,
 * removes the directory. 0, or -1 when it is still there. */
static inline int tu_cgroup_gone(const char *dir)
{
	char procs[4200], buf[64];
	snprintf(procs, sizeof procs, "%s/cgroup.procs", dir);
	for (int i = 0; i < 250; i++) {
		FILE *f = fopen(procs, "re");
		int any = 0;
		while (f && fgets(buf, sizeof buf, f)) {
			any = 1;
			kill((pid_t)atol(buf), SIGKILL);
		}
		if (f)
			fclose(f);
		if (!any)
			break;
		poll(NULL, 0, 20);
	}
	return rmdir(dir);
}

static int tu_found;
/* A directory a group setup made for all its tests, not a leftover of one
 * ("" none): set it with tu_keep. */
static char tu_kept[4096];

static inline void tu_keep(const char *dir)
{
	snprintf(tu_kept, sizeof tu_kept, "%s", dir ? dir : "");
}

static inline int tu_cgroup_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	if (type == FTW_DP && tu_our_cgroup(path + ftw->base)) {
		printf("leftover: cgroup %s%s\n", path,
		       tu_cgroup_gone(path) < 0 ? " (could not remove it)" : "");
		tu_found++;
	}
	return 0;
}

static inline int tu_leave_nothing(void **state)
{
	(void)state;
	char path[512], line[128];
	long me = (long)getpid();
	tu_found = 0;

	/* children: none is meant to outlive its test */
	DIR *d = opendir("/proc");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long pid = atol(e->d_name), ppid = 0;
		if (pid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		FILE *f = fopen(path, "re");
		char stat[1024] = "";
		if (f) {
			if (!fgets(stat, sizeof stat, f))
				stat[0] = '\0';
			fclose(f);
		}
		const char *p = strrchr(stat, ')'); /* the name may hold spaces */
		if (!p || sscanf(p + 1, " %*c %ld", &ppid) != 1 || ppid != me)
			continue;
		const char *name = strchr(stat, '(');
		printf("leftover: child %ld %.*s)\n", pid, name ? (int)(p - name) : 0,
		       name ? name : "");
		kill((pid_t)pid, SIGKILL);
		waitpid((pid_t)pid, NULL, 0);
		tu_found++;
	}
	if (d)
		closedir(d);

	nftw("/sys/fs/cgroup", tu_cgroup_cb, 32, FTW_DEPTH | FTW_PHYS);

	/* a test's own mounts and directories: /var/tmp/lrutop-test-<pid>-* */
	char mine[64], mp[4096];
	int nmine = snprintf(mine, sizeof mine, "/var/tmp/lrutop-test-%ld-", me);
	FILE *mi = fopen("/proc/self/mountinfo", "re");
	char mline[8192];
	while (mi && fgets(mline, sizeof mline, mi))
		if (sscanf(mline, "%*s %*s %*s %*s %4095s", mp) == 1 &&
		    strncmp(mp, mine, (size_t)nmine) == 0) {
			printf("leftover: mount %s%s\n", mp,
			       umount2(mp, MNT_DETACH) < 0 ? " (could not unmount it)" : "");
			tu_found++;
		}
	if (mi)
		fclose(mi);
	d = opendir("/var/tmp");
	while (d && (e = readdir(d))) {
		snprintf(path, sizeof path, "/var/tmp/%s", e->d_name);
		if (strncmp(path, mine, (size_t)nmine) != 0)
			continue;
		nftw(path, tu_rmtree_cb, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
		printf("leftover: %s%s\n", path,
		       access(path, F_OK) == 0 ? " (could not remove it)" : "");
		tu_found++;
	}
	if (d)
		closedir(d);

	/* scratch directories whose owner is us */
	d = opendir("/var/tmp");
	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "lrutop-", 7) != 0 || strlen(e->d_name) != 13)
			continue;
		snprintf(path, sizeof path, "/var/tmp/%s/owner", e->d_name);
		FILE *f = fopen(path, "re");
		long owner = 0;
		while (f && fgets(line, sizeof line, f))
			if (sscanf(line, "pid %ld", &owner) == 1)
				break;
		if (f)
			fclose(f);
		if (owner != me)
			continue;
		snprintf(path, sizeof path, "/var/tmp/%s", e->d_name);
		if (strcmp(path, tu_kept) == 0)
			continue;
		nftw(path, tu_rmtree_cb, 16, FTW_DEPTH | FTW_PHYS);
		printf("leftover: scratch directory %s%s\n", path,
		       access(path, F_OK) == 0 ? " (could not remove it)" : "");
		tu_found++;
	}
	if (d)
		closedir(d);
	return tu_found ? -1 : 0;
}

#endif
