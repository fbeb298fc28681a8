/*
 * Tests for device: path -> whole disk resolution, checked against this
 * machine's real /sys and /proc/self/mountinfo. The expected disk is worked
 * out here by other means than device.c uses (mountinfo's maj:min matched
 * against the dev files under /sys/block, and findmnt + lsblk), so the tests
 * do not just repeat the implementation.
 *
 * The "stack" group (root only) builds a small storage stack under /var/tmp:
 * a loop device with a partition (added with BLKPG: the kernel may lack
 * partition-table parsers), a loop whose image lives on that partition, an
 * overlay, a tmpfs, a loop backed by a file on tmpfs and one whose backing
 * file was deleted. Every step pushes its undo; the group teardown runs them
 * in reverse, whatever failed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sampling/device.h"
#include "base/util.h"
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/blkpg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef BLKPG
#define BLKPG _IO(0x12, 105)
#endif

#define VAR_TMP "/var/tmp"

/* ---- helpers ---------------------------------------------------------- */

/* Concatenates the NULL-terminated strings into out, cut at len. */
static void join(char *out, size_t len, ...)
{
	va_list ap;
	const char *part;
	size_t used = 0;

	out[0] = '\0';
	va_start(ap, len);
	while ((part = va_arg(ap, const char *)) && used + 1 < len)
		used += strlen(strncat(out + used, part, len - 1 - used));
	va_end(ap);
}

static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");

	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* maj:min of the mount holding path, by longest mount point prefix. */
static int mountinfo_dev(const char *path, unsigned *maj, unsigned *min, char *fstype, size_t fslen)
{
	char real[PATH_MAX], line[8192];
	size_t best = 0;
	int found = -1;
	FILE *f;

	if (!realpath(path, real) || !(f = fopen("/proc/self/mountinfo", "re")))
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char mp[PATH_MAX], fs[64];
		unsigned a, b;
		const char *dash = strstr(line, " - ");
		size_t n;

		if (sscanf(line, "%*u %*u %u:%u %*s %4095s", &a, &b, mp) != 3 || !dash ||
		    sscanf(dash, " - %63s", fs) != 1)
			continue;
		n = strlen(mp);
		if (strcmp(mp, "/") && (strncmp(real, mp, n) || (real[n] && real[n] != '/')))
			continue;
		if (n >= best) {
			best = n;
			*maj = a;
			*min = b;
			strlcpy_(fstype, fs, fslen);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

static int dev_file_is(const char *path, unsigned maj, unsigned min)
{
	char want[32], got[32];

	snprintf(want, sizeof(want), "%u:%u", maj, min);
	return read_first_line(path, got, sizeof(got)) == 0 && !strcmp(got, want);
}

/* The whole disk with device maj:min, or whose partition it is: found by
 * reading every /sys/block/X/dev and /sys/block/X/Y/dev. */
static int disk_by_dev_scan(unsigned maj, unsigned min, char *out, size_t outlen)
{
	DIR *d = opendir("/sys/block"), *sub;
	struct dirent *de, *pe;
	char p[PATH_MAX];
	int rc = -1;

	if (!d)
		return -1;
	while (rc < 0 && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/dev", de->d_name);
		if (dev_file_is(p, maj, min)) {
			rc = 0;
			break;
		}
		snprintf(p, sizeof(p), "/sys/block/%s", de->d_name);
		if (!(sub = opendir(p)))
			continue;
		while ((pe = readdir(sub))) {
			if (strncmp(pe->d_name, de->d_name, strlen(de->d_name)))
				continue;
			snprintf(p, sizeof(p), "/sys/block/%s/%s/dev", de->d_name, pe->d_name);
			if (dev_file_is(p, maj, min)) {
				rc = 0;
				break;
			}
		}
		closedir(sub);
	}
	if (rc == 0)
		strlcpy_(out, de->d_name, outlen);
	closedir(d);
	return rc;
}

/* Expected disk for path; fills why and returns -1 where this machine's
 * layout (e.g. a btrfs root) is outside what the scan can tell. */
static int expected_disk(const char *path, char *out, size_t outlen, char *why, size_t whylen)
{
	unsigned maj, min;
	char fs[64];

	if (mountinfo_dev(path, &maj, &min, fs, sizeof(fs)) < 0)
		return errf(why, whylen, "no mount for %s in /proc/self/mountinfo", path);
	if (maj == 0)
		return errf(why, whylen, "%s is on %s (no device number to scan for)", path, fs);
	if (disk_by_dev_scan(maj, min, out, outlen) < 0)
		return errf(why, whylen, "%u:%u (%s) is not a disk or partition in /sys/block", maj,
			    min, fs);
	return 0;
}

static int find_cmd(const char *name, char *out, size_t outlen)
{
	static const char *dirs[] = {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
				     "/usr/bin",	"/sbin",	  "/bin"};
	size_t i;

	for (i = 0; i < ARRAY_LEN(dirs); i++) {
		snprintf(out, outlen, "%s/%s", dirs[i], name);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

/* Runs argv (argv[0] a full path, no shell); its stdout goes to out. */
static int run(char *out, size_t outlen, char *const argv[])
{
	int pfd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(pfd) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(pfd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(pfd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	for (;;) {
		char sink[256];
		char *dst = out && got + 1 < outlen ? out + got : sink;
		size_t room = out && got + 1 < outlen ? outlen - 1 - got : sizeof(sink);

		n = read(pfd[0], dst, room);
		if (n <= 0)
			break;
		if (dst != sink)
			got += (size_t)n;
	}
	close(pfd[0]);
	if (out && outlen)
		out[got] = '\0';
	if (out)
		out[strcspn(out, "\n")] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static int read_size(const char *disk, unsigned long long *size)
{
	char p[PATH_MAX], buf[64];

	snprintf(p, sizeof(p), "/sys/block/%s/size", disk);
	if (read_first_line(p, buf, sizeof(buf)) < 0)
		return -1;
	*size = strtoull(buf, NULL, 10);
	return 0;
}

static int unused_virtual(const char *disk)
{
	unsigned long long size;
	int virt =
	    !strncmp(disk, "loop", 4) || !strncmp(disk, "ram", 3) || !strncmp(disk, "zram", 4);

	return virt && read_size(disk, &size) == 0 && size == 0;
}

/* 1 if the space-separated list holds word as a whole token. */
static int list_has(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return 1;
		p += n;
	}
	return 0;
}

static void assert_ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	if (n < t || strcmp(s + n - t, tail))
		fail_msg("\"%s\" does not end with \"%s\"", s, tail);
}

/* ---- tests on the machine as it is ------------------------------------ */

static void check_path_matches_scan(const char *path)
{
	char name[DEVICE_NAME_MAX], how[512], err[256], want[DEVICE_NAME_MAX], why[256];
	char prefix[PATH_MAX + 8];

	if (expected_disk(path, want, sizeof(want), why, sizeof(why)) < 0) {
		print_message("skipped: %s\n", why);
		skip();
	}
	if (device_for_path(path, name, sizeof(name), how, sizeof(how), err, sizeof(err)) < 0)
		fail_msg("device_for_path(%s): %s", path, err);
	assert_string_equal(name, want);
	assert_int_equal(device_is_disk(name), 1);
	snprintf(prefix, sizeof(prefix), "%s is on ", path);
	assert_memory_equal(how, prefix, strlen(prefix));
	assert_ends_with(how, name);
}

static void test_var_tmp_matches_mountinfo_and_sysfs(void **state)
{
	(void)state;
	check_path_matches_scan(VAR_TMP);
}

static void test_root_matches_mountinfo_and_sysfs(void **state)
{
	(void)state;
	check_path_matches_scan("/");
}

/* Third opinion: util-linux's findmnt and lsblk. */
static void test_var_tmp_agrees_with_findmnt_lsblk(void **state)
{
	char findmnt[PATH_MAX], lsblk[PATH_MAX], source[PATH_MAX], parent[128];
	char name[DEVICE_NAME_MAX], err[256];
	const char *want;

	(void)state;
	if (find_cmd("findmnt", findmnt, sizeof(findmnt)) < 0 ||
	    find_cmd("lsblk", lsblk, sizeof(lsblk)) < 0) {
		print_message("skipped: findmnt or lsblk is not installed\n");
		skip();
	}
	{
		char *argv[] = {findmnt, "-nro", "SOURCE", "-T", VAR_TMP, NULL};

		assert_int_equal(run(source, sizeof(source), argv), 0);
	}
	if (strncmp(source, "/dev/", 5)) {
		print_message("skipped: findmnt says %s is on %s, not a /dev node\n", VAR_TMP,
			      source);
		skip();
	}
	{
		char *argv[] = {lsblk, "-ndro", "PKNAME", source, NULL};

		assert_int_equal(run(parent, sizeof(parent), argv), 0);
	}
	want = parent[0] ? parent : strrchr(source, '/') + 1;
	assert_int_equal(device_for_path(VAR_TMP, name, sizeof(name), NULL, 0, err, sizeof(err)),
			 0);
	assert_string_equal(name, want);
}

static void test_missing_path_fails_naming_it(void **state)
{
	const char *path = "/nonexistent/lrutop-test/no-such-dir";
	char name[DEVICE_NAME_MAX] = "junk", how[128] = "junk", err[256] = "";

	(void)state;
	assert_int_equal(
	    device_for_path(path, name, sizeof(name), how, sizeof(how), err, sizeof(err)), -1);
	assert_non_null(strstr(err, "cannot find the disk holding"));
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, strerror(ENOENT)));
	assert_string_equal(name, "");
	assert_string_equal(how, "");
}

static void test_empty_path_and_null_buffers(void **state)
{
	char name[DEVICE_NAME_MAX], err[256] = "";

	(void)state;
	assert_int_equal(device_for_path("", name, sizeof(name), NULL, 0, err, sizeof(err)), -1);
	assert_true(err[0] != '\0');
	/* err may be NULL; how may be NULL. */
	assert_int_equal(device_for_path("/nonexistent/x", name, sizeof(name), NULL, 0, NULL, 0),
			 -1);
	assert_int_equal(device_for_path(VAR_TMP, name, sizeof(name), NULL, 0, NULL, 0), 0);
	assert_int_equal(device_for_path(VAR_TMP, NULL, 0, NULL, 0, err, sizeof(err)), -1);
}

static void test_name_buffer_too_small(void **state)
{
	char name[DEVICE_NAME_MAX], small[DEVICE_NAME_MAX], err[256] = "";
	size_t n;

	(void)state;
	assert_int_equal(device_for_path(VAR_TMP, name, sizeof(name), NULL, 0, err, sizeof(err)),
			 0);
	n = strlen(name);
	assert_int_equal(device_for_path(VAR_TMP, small, n, NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "longer than"));
	assert_non_null(strstr(err, VAR_TMP));
	assert_int_equal(device_for_path(VAR_TMP, small, n + 1, NULL, 0, err, sizeof(err)), 0);
	assert_string_equal(small, name);
}

static void test_short_how_is_cut_not_overrun(void **state)
{
	char name[DEVICE_NAME_MAX], how[8 + 1 + 8];

	(void)state;
	memset(how, 'X', sizeof(how));
	assert_int_equal(device_for_path(VAR_TMP, name, sizeof(name), how, 8, NULL, 0), 0);
	assert_int_equal(strlen(how), 7);
	assert_memory_equal(how, "/var/tm", 7);
	assert_int_equal(how[8], 'X');
}

/* Filesystems that keep no disk: the reason names them. */
static void check_no_disk(const char *path, const char *fstype_word)
{
	unsigned maj, min;
	char fs[64], name[DEVICE_NAME_MAX], err[256] = "";

	if (mountinfo_dev(path, &maj, &min, fs, sizeof(fs)) < 0 || strcmp(fs, fstype_word)) {
		print_message("skipped: %s is not a %s mount here\n", path, fstype_word);
		skip();
	}
	assert_int_equal(device_for_path(path, name, sizeof(name), NULL, 0, err, sizeof(err)), -1);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, fstype_word));
}

static void test_dev_shm_is_tmpfs(void **state)
{
	(void)state;
	check_no_disk("/dev/shm", "tmpfs");
}

static void test_proc_is_not_a_disk(void **state)
{
	(void)state;
	check_no_disk("/proc", "proc");
}

static void test_every_sys_block_entry_exists_and_is_disk(void **state)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '!'))
			continue;
		if (!device_exists(de->d_name) || !device_is_disk(de->d_name))
			fail_msg("%s is in /sys/block but not reported as a disk", de->d_name);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

static void test_nonexistent_names(void **state)
{
	static const char *bad[] = {
	    "nosuchdisk0",    "",     ".",	    "..", "../block", "vda/",
	    "/sys/block/vda", "vda ", "x/../../vda"};
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_LEN(bad); i++) {
		if (device_exists(bad[i]) || device_is_disk(bad[i]))
			fail_msg("\"%s\" reported as a block device", bad[i]);
	}
	assert_int_equal(device_exists(NULL), 0);
	assert_int_equal(device_is_disk(NULL), 0);
}

static void test_list_disks_matches_sys_block(void **state)
{
	char list[4096], copy[4096], *tok, *save = NULL, prev[256] = "";
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int want = 0, got = 0, hidden = 0;

	(void)state;
	device_list_disks(list, sizeof(list));
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strchr(de->d_name, '!'))
			continue;
		if (unused_virtual(de->d_name)) {
			if (list_has(list, de->d_name))
				fail_msg("size-0 %s listed in \"%s\"", de->d_name, list);
			hidden++;
		} else {
			if (!list_has(list, de->d_name))
				fail_msg("%s missing from \"%s\"", de->d_name, list);
			want++;
		}
	}
	closedir(d);
	strlcpy_(copy, list, sizeof(copy));
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (prev[0] && strverscmp(prev, tok) >= 0)
			fail_msg("\"%s\" is not sorted (%s before %s)", list, prev, tok);
		strlcpy_(prev, tok, sizeof(prev));
		got++;
	}
	assert_int_equal(got, want);
	assert_true(list[0] != ' ' && strstr(list, "  ") == NULL);
	print_message("disks: \"%s\" (%d size-0 loop/ram/zram hidden)\n", list, hidden);
}

static void test_list_disks_includes_var_tmp_disk(void **state)
{
	char list[4096], want[DEVICE_NAME_MAX], why[256];

	(void)state;
	if (expected_disk(VAR_TMP, want, sizeof(want), why, sizeof(why)) < 0) {
		print_message("skipped: %s\n", why);
		skip();
	}
	device_list_disks(list, sizeof(list));
	assert_true(list_has(list, want));
}

/* Every cut keeps whole names and marks the cut with "..."; returns how many
 * names the full list has. */
static int check_list_truncation(void)
{
	char full[4096], buf[4096], copy[4096], *tok, *save = NULL;
	size_t len, flen;
	int names = 0;

	device_list_disks(full, sizeof(full));
	flen = strlen(full);
	strlcpy_(copy, full, sizeof(copy));
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		names++;
	memset(buf, 'X', 4);
	device_list_disks(buf, 0);
	assert_int_equal(buf[0], 'X');
	device_list_disks(NULL, 10);
	for (len = 1; len <= flen + 2; len++) {
		memset(buf, 'X', sizeof(buf));
		device_list_disks(buf, len);
		assert_true(strlen(buf) < len);
		assert_int_equal(buf[len], 'X');
		if (len > flen) {
			assert_string_equal(buf, full);
			continue;
		}
		strlcpy_(copy, buf, sizeof(copy));
		save = NULL;
		for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (!strcmp(tok, "...")) {
				assert_null(strtok_r(NULL, " ", &save));
				break;
			}
			if (!list_has(full, tok))
				fail_msg("len %zu: \"%s\" has a cut name \"%s\"", len, buf, tok);
		}
		/* cut short: say so whenever "..." fits at all */
		if (len >= 4 && !strstr(buf, "..."))
			fail_msg("len %zu: \"%s\" is cut without \"...\"", len, buf);
	}
	return names;
}

static void test_list_disks_truncates_on_names(void **state)
{
	(void)state;
	check_list_truncation();
}

/* ---- tests on a storage stack built for them -------------------------- */

enum undo_kind { UNDO_RMDIR, UNDO_UNLINK, UNDO_UMOUNT, UNDO_DETACH };

struct undo {
	enum undo_kind kind;
	char path[PATH_MAX];
};

struct loopdev {
	char dev[64];  /* /dev/loopN */
	char name[32]; /* loopN */
	char img[PATH_MAX];
	char mnt[PATH_MAX];
};

struct stack {
	char skip[512]; /* why the group cannot run; "" when it can */
	char ov_skip[256];
	char losetup[PATH_MAX], mkfs[PATH_MAX];
	char disk[DEVICE_NAME_MAX]; /* expected disk under /var/tmp */
	char dir[PATH_MAX];
	struct loopdev part;	 /* partition 1 of this loop holds an ext4 at mnt */
	struct loopdev nested;	 /* image on part's filesystem */
	struct loopdev on_tmpfs; /* image on a tmpfs */
	struct loopdev deleted;	 /* image unlinked after attaching */
	char part1[32];		 /* loopNp1 */
	char tmpfs[PATH_MAX];
	char overlay[PATH_MAX], upper[PATH_MAX];
	struct undo undo[32];
	int nundo;
};

static void push_undo(struct stack *s, enum undo_kind kind, const char *path)
{
	if (s->nundo == (int)ARRAY_LEN(s->undo))
		abort();
	s->undo[s->nundo].kind = kind;
	strlcpy_(s->undo[s->nundo].path, path, PATH_MAX);
	s->nundo++;
}

static int step_fail(struct stack *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int step_fail(struct stack *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->skip, sizeof(s->skip), fmt, ap);
	va_end(ap);
	return -1;
}

static int make_dir(struct stack *s, char *out, const char *leaf)
{
	join(out, PATH_MAX, s->dir, "/", leaf, (char *)NULL);
	if (mkdir(out, 0700) < 0)
		return step_fail(s, "mkdir %s: %s", out, strerror(errno));
	push_undo(s, UNDO_RMDIR, out);
	return 0;
}

static int make_image(struct stack *s, const char *path, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return step_fail(s, "create %s: %s", path, strerror(errno));
	push_undo(s, UNDO_UNLINK, path);
	if (ftruncate(fd, size) < 0) {
		close(fd);
		return step_fail(s, "size %s: %s", path, strerror(errno));
	}
	close(fd);
	return 0;
}

/* Attaches img to a free loop device; partscan (-P) lets BLKPG add partitions. */
static int attach(struct stack *s, struct loopdev *l, int partscan)
{
	char *plain[] = {s->losetup, "-f", "--show", l->img, NULL};
	char *parts[] = {s->losetup, "-f", "--show", "-P", l->img, NULL};

	if (run(l->dev, sizeof(l->dev), partscan ? parts : plain) < 0 ||
	    strncmp(l->dev, "/dev/", 5))
		return step_fail(s, "losetup -f --show %s failed", l->img);
	push_undo(s, UNDO_DETACH, l->dev);
	strlcpy_(l->name, l->dev + 5, sizeof(l->name));
	return 0;
}

static int wait_for_node(const char *path)
{
	int i;

	for (i = 0; i < 200; i++) {
		struct timespec ts = {0, 10 * 1000 * 1000};

		if (access(path, F_OK) == 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

static int mkfs_mount(struct stack *s, const char *dev, char *mnt, const char *leaf)
{
	char *argv[] = {s->mkfs, "-q", "-F", (char *)dev, NULL};

	if (run(NULL, 0, argv) < 0)
		return step_fail(s, "mkfs.ext4 %s failed", dev);
	if (make_dir(s, mnt, leaf) < 0)
		return -1;
	if (mount(dev, mnt, "ext4", 0, NULL) < 0)
		return step_fail(s, "mount %s on %s: %s", dev, mnt, strerror(errno));
	push_undo(s, UNDO_UMOUNT, mnt);
	return 0;
}

/* A partition at 1 MiB, 32 MiB long, added with BLKPG. */
static int add_partition(struct stack *s, struct loopdev *l)
{
	struct blkpg_partition part = {.start = 1 << 20, .length = 32 << 20, .pno = 1};
	struct blkpg_ioctl_arg arg = {
	    .op = BLKPG_ADD_PARTITION, .datalen = sizeof(part), .data = &part};
	char node[80];
	int fd = open(l->dev, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return step_fail(s, "open %s: %s", l->dev, strerror(errno));
	if (ioctl(fd, BLKPG, &arg) < 0) {
		int e = errno;

		close(fd);
		return step_fail(s, "BLKPG_ADD_PARTITION on %s: %s", l->dev, strerror(e));
	}
	close(fd);
	join(s->part1, sizeof(s->part1), l->name, "p1", (char *)NULL);
	snprintf(node, sizeof(node), "/dev/%s", s->part1);
	if (wait_for_node(node) < 0)
		return step_fail(s, "%s did not appear", node);
	return mkfs_mount(s, node, l->mnt, "m_part");
}

static int build_stack(struct stack *s)
{
	char why[256], opts[3 * PATH_MAX + 64], lower[PATH_MAX], work[PATH_MAX], sub[PATH_MAX + 8];

	if (geteuid() != 0)
		return step_fail(s, "needs root (loop devices, mounts)");
	if (find_cmd("losetup", s->losetup, sizeof(s->losetup)) < 0)
		return step_fail(s, "losetup is not installed");
	if (find_cmd("mkfs.ext4", s->mkfs, sizeof(s->mkfs)) < 0)
		return step_fail(s, "mkfs.ext4 is not installed");
	if (expected_disk(VAR_TMP, s->disk, sizeof(s->disk), why, sizeof(why)) < 0)
		return step_fail(s, "%s", why);
	if (tu_tmpdir(s->dir, sizeof(s->dir), "device") < 0)
		return step_fail(s, "mkdtemp in %s: %s", VAR_TMP, strerror(errno));
	push_undo(s, UNDO_RMDIR, s->dir);

	/* loopN with partition loopNp1 (ext4) */
	join(s->part.img, PATH_MAX, s->dir, "/part.img", (char *)NULL);
	if (make_image(s, s->part.img, 64 << 20) < 0 || attach(s, &s->part, 1) < 0 ||
	    add_partition(s, &s->part) < 0)
		return -1;

	/* loopM whose image sits on loopNp1 */
	join(s->nested.img, PATH_MAX, s->part.mnt, "/nested.img", (char *)NULL);
	if (make_image(s, s->nested.img, 16 << 20) < 0 || attach(s, &s->nested, 0) < 0 ||
	    mkfs_mount(s, s->nested.dev, s->nested.mnt, "m_nested") < 0)
		return -1;

	/* a tmpfs, and a loop backed by a file on it */
	if (make_dir(s, s->tmpfs, "tmpfs") < 0)
		return -1;
	if (mount("lrutop-test", s->tmpfs, "tmpfs", 0, "size=16m") < 0)
		return step_fail(s, "mount tmpfs on %s: %s", s->tmpfs, strerror(errno));
	push_undo(s, UNDO_UMOUNT, s->tmpfs);
	join(s->on_tmpfs.img, PATH_MAX, s->tmpfs, "/mem.img", (char *)NULL);
	if (make_image(s, s->on_tmpfs.img, 8 << 20) < 0 || attach(s, &s->on_tmpfs, 0) < 0 ||
	    mkfs_mount(s, s->on_tmpfs.dev, s->on_tmpfs.mnt, "m_tmpfs") < 0)
		return -1;

	/* a loop whose backing file is unlinked once attached */
	join(s->deleted.img, PATH_MAX, s->dir, "/deleted.img", (char *)NULL);
	if (make_image(s, s->deleted.img, 8 << 20) < 0 || attach(s, &s->deleted, 0) < 0)
		return -1;
	if (unlink(s->deleted.img) < 0)
		return step_fail(s, "unlink %s: %s", s->deleted.img, strerror(errno));
	if (mkfs_mount(s, s->deleted.dev, s->deleted.mnt, "m_deleted") < 0)
		return -1;

	/* an overlay: optional, its tests skip on their own if it fails */
	if (make_dir(s, lower, "ov_lower") < 0 || make_dir(s, s->upper, "ov_upper") < 0 ||
	    make_dir(s, work, "ov_work") < 0 || make_dir(s, s->overlay, "ov") < 0)
		return -1;
	snprintf(opts, sizeof(opts), "lowerdir=%s,upperdir=%s,workdir=%s", lower, s->upper, work);
	/* the overlay leaves these in its workdir; removed after the unmount */
	snprintf(sub, sizeof(sub), "%s/work", work);
	push_undo(s, UNDO_RMDIR, sub);
	snprintf(sub, sizeof(sub), "%s/index", work);
	push_undo(s, UNDO_RMDIR, sub);
	if (mount("lrutop-test", s->overlay, "overlay", 0, opts) < 0)
		snprintf(s->ov_skip, sizeof(s->ov_skip), "mount overlay: %s", strerror(errno));
	else
		push_undo(s, UNDO_UMOUNT, s->overlay);
	return 0;
}

static void undo_all(struct stack *s)
{
	while (s->nundo > 0) {
		struct undo *u = &s->undo[--s->nundo];
		char *argv[] = {s->losetup, "-d", u->path, NULL};

		switch (u->kind) {
		case UNDO_RMDIR:
			if (rmdir(u->path) < 0 && errno != ENOENT)
				fprintf(stderr, "test_device: cleanup: rmdir %s: %s\n", u->path,
					strerror(errno));
			break;
		case UNDO_UNLINK:
			unlink(u->path);
			break;
		case UNDO_UMOUNT:
			if (umount2(u->path, 0) < 0 && umount2(u->path, MNT_DETACH) < 0)
				fprintf(stderr, "test_device: cleanup: umount %s: %s\n", u->path,
					strerror(errno));
			break;
		case UNDO_DETACH:
			if (run(NULL, 0, argv) < 0)
				fprintf(stderr, "test_device: cleanup: losetup -d %s failed\n",
					u->path);
			break;
		}
	}
}

static int stack_setup(void **state)
{
	struct stack *s = xcalloc(1, sizeof(*s));
	uint64_t t0 = mono_ns();

	if (build_stack(s) < 0) {
		/* undo now so a half-built stack never outlives a skipped group */
		undo_all(s);
		print_message("storage stack not built: %s\n", s->skip);
	} else {
		/* information only: how long the stack takes is bench/'s business */
		print_message("storage stack built in %.2f s under %s\n",
			      (double)(mono_ns() - t0) / 1e9, s->dir);
	}
	*state = s;
	return 0;
}

static int stack_teardown(void **state)
{
	struct stack *s = *state;

	if (s) {
		undo_all(s);
		free(s);
	}
	return 0;
}

static struct stack *need_stack(void **state)
{
	struct stack *s = *state;

	if (s->skip[0]) {
		print_message("skipped: %s\n", s->skip);
		skip();
	}
	return s;
}

static void resolve(const char *path, char *name, char *how, size_t howlen)
{
	char err[512];

	if (device_for_path(path, name, DEVICE_NAME_MAX, how, howlen, err, sizeof(err)) < 0)
		fail_msg("device_for_path(%s): %s", path, err);
}

static void test_partition_of_loop_resolves_to_backing_disk(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], how[2048], want[2048], img[PATH_MAX];

	assert_non_null(realpath(s->part.img, img));
	resolve(s->part.mnt, name, how, sizeof(how));
	assert_string_equal(name, s->disk);
	join(want, sizeof(want), s->part.mnt, " is on ", s->part1, " -> ", s->part.name, " -> ",
	     img, " -> ", s->disk, (char *)NULL);
	assert_string_equal(how, want);
}

static void test_partition_exists_but_is_not_a_disk(void **state)
{
	struct stack *s = need_stack(state);
	char list[4096];

	assert_int_equal(device_exists(s->part1), 1);
	assert_int_equal(device_is_disk(s->part1), 0);
	assert_int_equal(device_exists(s->part.name), 1);
	assert_int_equal(device_is_disk(s->part.name), 1);
	/* attached loops have a size, so they are listed now; partitions never are */
	device_list_disks(list, sizeof(list));
	assert_true(list_has(list, s->part.name));
	assert_false(list_has(list, s->part1));
}

/* With the stack's loops attached there are several names to cut between. */
static void test_list_disks_truncates_between_many(void **state)
{
	need_stack(state);
	assert_true(check_list_truncation() >= 5);
}

static void test_loop_on_a_loop_partition_recurses(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], how[2048], want[2048], img[PATH_MAX], img2[PATH_MAX];

	assert_non_null(realpath(s->part.img, img));
	assert_non_null(realpath(s->nested.img, img2));
	resolve(s->nested.mnt, name, how, sizeof(how));
	assert_string_equal(name, s->disk);
	join(want, sizeof(want), s->nested.mnt, " is on ", s->nested.name, " -> ", img2, " -> ",
	     s->part1, " -> ", s->part.name, " -> ", img, " -> ", s->disk, (char *)NULL);
	assert_string_equal(how, want);
}

static void test_loop_on_tmpfs_stays_the_loop(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], how[2048];

	resolve(s->on_tmpfs.mnt, name, how, sizeof(how));
	assert_string_equal(name, s->on_tmpfs.name);
	assert_non_null(strstr(how, "not on a disk"));
}

static void test_loop_with_deleted_file_stays_the_loop(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], how[2048];

	resolve(s->deleted.mnt, name, how, sizeof(how));
	assert_string_equal(name, s->deleted.name);
	assert_non_null(strstr(how, "deleted"));
}

static void test_tmpfs_mount_has_no_disk(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], err[512];

	assert_int_equal(device_for_path(s->tmpfs, name, sizeof(name), NULL, 0, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, s->tmpfs));
	assert_non_null(strstr(err, "tmpfs"));
}

static void test_overlay_resolves_through_upperdir(void **state)
{
	struct stack *s = need_stack(state);
	char name[DEVICE_NAME_MAX], how[2048], want[2048];
	struct stat st;

	if (s->ov_skip[0]) {
		print_message("skipped: %s\n", s->ov_skip);
		skip();
	}
	assert_int_equal(stat(s->overlay, &st), 0);
	resolve(s->overlay, name, how, sizeof(how));
	assert_string_equal(name, s->disk);
	if (major(st.st_dev) == 0) {
		/* the mountinfo path: overlay -> its upperdir -> the disk */
		join(want, sizeof(want), s->overlay, " is on overlay -> ", s->upper, " -> ",
		     s->disk, (char *)NULL);
		assert_string_equal(how, want);
	}
}

int main(void)
{
	const struct CMUnitTest machine[] = {
	    cmocka_unit_test(test_var_tmp_matches_mountinfo_and_sysfs),
	    cmocka_unit_test(test_root_matches_mountinfo_and_sysfs),
	    cmocka_unit_test(test_var_tmp_agrees_with_findmnt_lsblk),
	    cmocka_unit_test(test_missing_path_fails_naming_it),
	    cmocka_unit_test(test_empty_path_and_null_buffers),
	    cmocka_unit_test(test_name_buffer_too_small),
	    cmocka_unit_test(test_short_how_is_cut_not_overrun),
	    cmocka_unit_test(test_dev_shm_is_tmpfs),
	    cmocka_unit_test(test_proc_is_not_a_disk),
	    cmocka_unit_test(test_every_sys_block_entry_exists_and_is_disk),
	    cmocka_unit_test(test_nonexistent_names),
	    cmocka_unit_test(test_list_disks_matches_sys_block),
	    cmocka_unit_test(test_list_disks_includes_var_tmp_disk),
	    cmocka_unit_test(test_list_disks_truncates_on_names),
	};
	const struct CMUnitTest stack[] = {
	    cmocka_unit_test(test_partition_of_loop_resolves_to_backing_disk),
	    cmocka_unit_test(test_partition_exists_but_is_not_a_disk),
	    cmocka_unit_test(test_list_disks_truncates_between_many),
	    cmocka_unit_test(test_loop_on_a_loop_partition_recurses),
	    cmocka_unit_test(test_loop_on_tmpfs_stays_the_loop),
	    cmocka_unit_test(test_loop_with_deleted_file_stays_the_loop),
	    cmocka_unit_test(test_tmpfs_mount_has_no_disk),
	    cmocka_unit_test(test_overlay_resolves_through_upperdir),
	};
	int failed = cmocka_run_group_tests_name("device (this machine)", machine, NULL, NULL);

	failed += cmocka_run_group_tests_name("device (loop/partition/overlay stack)", stack,
					      stack_setup, stack_teardown);
	return failed ? 1 : 0;
}
