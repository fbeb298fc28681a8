/*
 * testutil — small independent readers the unit tests compare lrutop's
 * own code against (a second way to read the same thing), and the one
 * temporary-directory fixture, shared so each suite does not carry its own
 * copy.  static inline: a suite that does not use one gets no
 * unused-function warning.
 */
#ifndef LRUTOP_TESTUTIL_H
#define LRUTOP_TESTUTIL_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* "key value" from /proc/vmstat or a memory.stat file, by stdio token by
 * token.  0, or -1 when the file or the key is missing. */
static inline int tu_key_value(const char *path, const char *key, unsigned long long *out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char name[128];
	unsigned long long v;
	int rc = -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		if (strcmp(name, key) == 0) {
			*out = v;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* 1 when the two files have the same bytes (read in 1 MiB blocks). */
static inline int tu_files_equal(const char *a, const char *b)
{
	const size_t blk = 1u << 20;
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	char *ba = malloc(blk), *bb = malloc(blk);
	int same = fa >= 0 && fb >= 0 && ba && bb;

	while (same) {
		ssize_t na = read(fa, ba, blk), nb = read(fb, bb, blk);
		if (na != nb || na < 0 || memcmp(ba, bb, (size_t)na) != 0)
			same = 0;
		if (na <= 0)
			break;
	}
	free(ba);
	free(bb);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

/* A new, empty directory /var/tmp/lrutop-test-<pid>-<tag>-XXXXXX, its name
 * in dir (n bytes; 64 hold any tag of up to 16).  The name is the one
 * tests/run's leftover check and tu_leave_nothing (leftover.h) know as a
 * test's own, so a suite that dies before its teardown is still reported
 * and removed.  /var/tmp, not /tmp: it is on a disk (the residency and
 * copy tests need page cache of a real file system) and it is where the
 * leftover check looks.  0, or -1 with errno set. */
static inline int tu_tmpdir(char *dir, size_t n, const char *tag)
{
	int len = snprintf(dir, n, "/var/tmp/lrutop-test-%ld-%s-XXXXXX", (long)getpid(), tag);
	if (len < 0 || (size_t)len >= n) {
		if (n)
			dir[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return mkdtemp(dir) ? 0 : -1;
}

static inline int tu_rmtree_cb(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0; /* go on: whatever stays is found below */
}

/* Unmounts (detached) what is mounted at or below dir, the deepest first,
 * and says so: a test's tmpfs that a failed assertion left mounted (it
 * longjmps past the test's umount).  0, or -1 when one would not go. */
static inline int tu_unmount_below(const char *dir)
{
	size_t len = strlen(dir);
	for (int round = 0; round < 64; round++) {
		FILE *f = setmntent("/proc/self/mounts", "re");
		if (!f)
			return -1;
		char deepest[4096] = "";
		struct mntent *m;
		while ((m = getmntent(f)))
			if (strncmp(m->mnt_dir, dir, len) == 0 &&
			    (m->mnt_dir[len] == '/' || m->mnt_dir[len] == '\0') &&
			    strlen(m->mnt_dir) > strlen(deepest) && strlen(m->mnt_dir) < sizeof(deepest))
				strcpy(deepest, m->mnt_dir);
		endmntent(f);
		if (!deepest[0])
			return 0;
		int rc = umount2(deepest, MNT_DETACH);
		printf("# tu_rmtree: unmounted %s, left mounted by its test%s\n", deepest,
		       rc ? " (could not)" : "");
		if (rc)
			return -1;
	}
	return -1;
}

/* Removes dir and everything below it, without following a symbolic link;
 * what is mounted below it (the test's own) is unmounted first, nothing is
 * removed inside a mount.  "" (a setup that failed) is nothing to do.
 * 0, or -1 when dir is still there. */
static inline int tu_rmtree(const char *dir)
{
	if (!dir || !dir[0])
		return 0;
	tu_unmount_below(dir);
	nftw(dir, tu_rmtree_cb, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return access(dir, F_OK) == 0 ? -1 : 0;
}

/* Independent median of in's n values (at most 64; more aborts the
 * test): insertion sort of a copy, not stats_median.  NAN for none. */
static inline double tu_median(const double *in, size_t n)
{
	double v[64];
	if (!n)
		return NAN;
	if (n > 64)
		abort();
	for (size_t i = 0; i < n; i++) {
		size_t j = i;
		while (j > 0 && v[j - 1] > in[i]) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = in[i];
	}
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A suite whose tests each work in a fresh temporary directory: the name
 * in dir, made by setup (tu_tmpdir, tag as there), removed by teardown,
 * for cmocka_unit_test_setup_teardown. */
#define TU_TMPDIR_SUITE(tag)                                                                       \
	static char dir[64];                                                                       \
	static int setup(void **state)                                                             \
	{                                                                                          \
		(void)state;                                                                       \
		return tu_tmpdir(dir, sizeof(dir), tag);                                           \
	}                                                                                          \
	static int teardown(void **state)                                                          \
	{                                                                                          \
		(void)state;                                                                       \
		return tu_rmtree(dir);                                                             \
	}

#endif
