#include "sampling/device.h"

#include "base/util.h"
#include "sampling/mountinfo.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define WALK_MAX_STEPS 16
#define CHAIN_MAX      512
#define WHY_MAX	       320

/* One resolution in progress: the names seen so far (for `how`), the
 * current answer in sysfs spelling, and the reason if it fails. */
struct walk {
	char chain[CHAIN_MAX];
	char disk[NAME_MAX + 1];
	char why[WHY_MAX];
	int steps;
};

static int walk_path(struct walk *w, const char *path);

/* sysfs writes '/' in a kernel name as '!' ("cciss!c0d0"); diskstats does not. */
static void name_to_user(char *s)
{
	for (; *s; s++)
		if (*s == '!')
			*s = '/';
}

/* Maps a user-facing name to its sysfs directory name; -1 for names that
 * could only escape /sys/class/block or are too long. */
static int name_to_sys(const char *name, char *out, size_t outlen)
{
	size_t i, n;

	if (!name)
		return -1;
	n = strlen(name);
	if (n == 0 || n >= outlen || n > NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return -1;
	for (i = 0; i < n; i++)
		out[i] = name[i] == '/' ? '!' : name[i];
	out[n] = '\0';
	return 0;
}

static int path_exists(const char *path)
{
	return access(path, F_OK) == 0;
}

/* Reads the first line of a small (sysfs) file without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	if (read_small_at(AT_FDCWD, path, buf, len) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Appends to the chain, cutting it at its capacity (it is only a message). */
static void chain_append(struct walk *w, const char *s)
{
	size_t used = strlen(w->chain);

	strlcpy_(w->chain + used, s, sizeof(w->chain) - used);
}

static void chain_add(struct walk *w, const char *step)
{
	if (w->chain[0])
		chain_append(w, " -> ");
	chain_append(w, step);
}

/* Adds a sysfs name to the chain in user spelling. */
static void chain_add_name(struct walk *w, const char *sysname)
{
	char buf[NAME_MAX + 1];

	strlcpy_(buf, sysname, sizeof(buf));
	name_to_user(buf);
	chain_add(w, buf);
}

static void chain_note(struct walk *w, const char *note)
{
	chain_append(w, " (");
	chain_append(w, note);
	chain_append(w, ")");
}

static int why(struct walk *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int why(struct walk *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->why, sizeof(w->why), fmt, ap);
	va_end(ap);
	return -1;
}

static int cmp_names(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Lists a directory's entries (no dot files), sorted so "sdb" < "sdc" and
 * "nvme2n1" < "nvme10n1". Returns the count; *out is freed with free_names. */
static size_t list_dir(const char *path, char ***out)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;

	*out = NULL;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		v = xgrow(v, n, &cap, sizeof(*v), 16);
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*out = v;
	return n;
}

static void free_names(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* A loop device: the answer is the disk under its backing file. When that
 * cannot be found (deleted, on tmpfs, in another mount namespace) the loop
 * itself is the best disk there is, since its diskstats line counts the I/O. */
static int walk_loop(struct walk *w, const char *sysname, const char *backing_path)
{
	char backing[PATH_MAX];
	struct walk sub;
	const char *deleted = " (deleted)";
	size_t n, dl = strlen(deleted);

	if (read_line(backing_path, backing, sizeof(backing)) < 0 || !backing[0]) {
		strlcpy_(w->disk, sysname, sizeof(w->disk));
		return 0;
	}
	n = strlen(backing);
	if (n > dl && !strcmp(backing + n - dl, deleted)) {
		chain_note(w, "backing file deleted");
		strlcpy_(w->disk, sysname, sizeof(w->disk));
		return 0;
	}
	sub = *w;
	chain_add(&sub, backing);
	if (walk_path(&sub, backing) == 0) {
		*w = sub;
		return 0;
	}
	chain_note(w, "its backing file is not on a disk");
	strlcpy_(w->disk, sysname, sizeof(w->disk));
	return 0;
}

/* Walks from a sysfs block device name down to a whole disk. */
static int walk_name(struct walk *w, const char *start)
{
	char name[NAME_MAX + 1];
	char p[PATH_MAX], real[PATH_MAX];

	strlcpy_(name, start, sizeof(name));
	for (;;) {
		char **slaves;
		size_t nslaves;

		if (++w->steps > WALK_MAX_STEPS)
			return why(w, "the storage stack is more than %d levels deep",
				   WALK_MAX_STEPS);
		chain_add_name(w, name);

		snprintf(p, sizeof(p), "/sys/class/block/%s", name);
		if (!path_exists(p))
			return why(w, "%s is not in /sys/class/block", name);

		snprintf(p, sizeof(p), "/sys/class/block/%s/partition", name);
		if (path_exists(p)) {
			char *base;

			snprintf(p, sizeof(p), "/sys/class/block/%s/..", name);
			if (!realpath(p, real))
				return why(w, "cannot find the disk of partition %s: %s", name,
					   strerror(errno));
			base = strrchr(real, '/');
			strlcpy_(name, base ? base + 1 : real, sizeof(name));
			continue;
		}

		snprintf(p, sizeof(p), "/sys/class/block/%s/loop/backing_file", name);
		if (path_exists(p))
			return walk_loop(w, name, p);

		snprintf(p, sizeof(p), "/sys/class/block/%s/slaves", name);
		nslaves = list_dir(p, &slaves);
		if (nslaves) {
			strlcpy_(name, slaves[0], sizeof(name));
			if (nslaves > 1) {
				char note[32];

				snprintf(note, sizeof(note), "first of %zu", nslaves);
				chain_note(w, note);
			}
			free_names(slaves, nslaves);
			continue;
		}

		snprintf(p, sizeof(p), "/sys/block/%s", name);
		if (!path_exists(p))
			return why(w, "%s is neither a disk nor a partition", name);
		strlcpy_(w->disk, name, sizeof(w->disk));
		return 0;
	}
}

static int walk_dev(struct walk *w, dev_t dev)
{
	char p[64], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(p, link, sizeof(link) - 1);
	if (n < 0)
		return why(w, "device %u:%u is not in /sys/dev/block", major(dev), minor(dev));
	link[n] = '\0';
	base = strrchr(link, '/');
	return walk_name(w, base ? base + 1 : link);
}

/* Finds the mount holding path: the last mount with its device number, else
 * the last one with the longest mount point covering it (btrfs subvolumes
 * report a st_dev of their own).  e points into mi (mountinfo_done after). */
static int find_mount(const char *path, dev_t dev, struct mountinfo *mi, struct mountinfo_entry *e)
{
	char real[PATH_MAX];
	struct mountinfo_entry cur, e_dev, e_path;
	size_t best_len = 0;
	int by_dev = 0, by_path = 0;

	if (mountinfo_init_file(mi, "/proc/self/mountinfo") < 0)
		return -1;
	if (!realpath(path, real))
		strlcpy_(real, path, sizeof(real));
	while (mountinfo_next(mi, &cur)) {
		size_t len;

		if (cur.major == major(dev) && cur.minor == minor(dev)) {
			e_dev = cur;
			by_dev = 1;
		} else if ((len = mountinfo_covers(cur.mountpoint, real)) && len >= best_len) {
			e_path = cur;
			by_path = 1;
			best_len = len;
		}
	}
	if (by_dev)
		*e = e_dev;
	else if (by_path)
		*e = e_path;
	return by_dev || by_path ? 0 : -1;
}

/* A filesystem without a block device of its own (major 0): ask mountinfo. */
static int walk_mount(struct walk *w, const char *path, dev_t dev)
{
	struct mountinfo mi;
	struct mountinfo_entry e;
	struct stat st;
	char dir[PATH_MAX];
	int rc;

	if (find_mount(path, dev, &mi, &e) < 0) {
		mountinfo_done(&mi);
		return why(w, "it is on no block device and not in /proc/self/mountinfo");
	}
	if (++w->steps > WALK_MAX_STEPS) {
		mountinfo_done(&mi);
		return why(w, "the storage stack is more than %d levels deep", WALK_MAX_STEPS);
	}
	chain_add(w, e.fstype);
	if (e.source[0] == '/' && stat(e.source, &st) == 0 && S_ISBLK(st.st_mode)) {
		rc = walk_dev(w, st.st_rdev);
	} else if (!strcmp(e.fstype, "overlay") &&
		   (mountinfo_option(e.super, "upperdir=", dir, sizeof(dir)) == 0 ||
		    mountinfo_option(e.super, "lowerdir=", dir, sizeof(dir)) == 0)) {
		chain_add(w, dir);
		rc = walk_path(w, dir);
	} else if (e.major != 0) {
		rc = walk_dev(w, makedev(e.major, e.minor));
	} else if (!strcmp(e.fstype, "tmpfs") || !strcmp(e.fstype, "ramfs") ||
		   !strcmp(e.fstype, "devtmpfs")) {
		rc = why(w, "it is on %s, which keeps files in memory (no disk I/O)", e.fstype);
	} else if (!strcmp(e.source, e.fstype) || !strcmp(e.source, "none")) {
		rc = why(w, "it is on %s, which is not a local block device", e.fstype);
	} else {
		rc = why(w, "it is on %s (%s), which is not a local block device", e.fstype,
			 e.source);
	}
	mountinfo_done(&mi);
	return rc;
}

static int walk_path(struct walk *w, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return why(w, "%s", strerror(errno));
	if (major(st.st_dev) != 0)
		return walk_dev(w, st.st_dev);
	return walk_mount(w, path, st.st_dev);
}

int device_for_path(const char *path, char *name, size_t namelen, char *how, size_t howlen,
		    char *err, size_t errlen)
{
	struct walk w;

	if (name && namelen)
		name[0] = '\0';
	if (how && howlen)
		how[0] = '\0';
	if (!path || !path[0])
		return errf(err, errlen, "cannot find the disk holding an empty path");
	if (!name || !namelen)
		return errf(err, errlen, "cannot find the disk holding %s: no room for its name",
			    path);
	memset(&w, 0, sizeof(w));
	if (walk_path(&w, path) < 0)
		return errf(err, errlen, "cannot find the disk holding %s: %s", path, w.why);
	name_to_user(w.disk);
	if (strlen(w.disk) >= namelen)
		return errf(err, errlen,
			    "cannot find the disk holding %s: its name %s is longer than %zu bytes",
			    path, w.disk, namelen - 1);
	strlcpy_(name, w.disk, namelen);
	if (how && howlen)
		snprintf(how, howlen, "%s is on %s", path, w.chain);
	return 0;
}

/* 1 when name's entry (by its kernel name) is under the sysfs folder dir. */
static int sys_entry_exists(const char *dir, const char *name)
{
	char sys[NAME_MAX + 1], p[PATH_MAX];

	if (name_to_sys(name, sys, sizeof(sys)) < 0)
		return 0;
	snprintf(p, sizeof(p), "%s/%s", dir, sys);
	return path_exists(p);
}

int device_exists(const char *name)
{
	return sys_entry_exists("/sys/class/block", name);
}

int device_is_disk(const char *name)
{
	return sys_entry_exists("/sys/block", name);
}

/* Loop, ram and zram devices exist unconfigured with size 0; nobody means those. */
static int unused_virtual(const char *name)
{
	char p[PATH_MAX], size[32];

	if (strncmp(name, "loop", 4) && strncmp(name, "ram", 3) && strncmp(name, "zram", 4))
		return 0;
	snprintf(p, sizeof(p), "/sys/block/%s/size", name);
	return read_line(p, size, sizeof(size)) == 0 && !strcmp(size, "0");
}

void device_list_disks(char *buf, size_t len)
{
	static const char more[] = "...";
	char **v;
	size_t n, i, kept = 0, pos = 0;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	n = list_dir("/sys/block", &v);
	for (i = 0; i < n; i++) {
		if (unused_virtual(v[i])) {
			free(v[i]);
			continue;
		}
		name_to_user(v[i]);
		v[kept++] = v[i];
	}
	for (i = 0; i < kept; i++) {
		size_t sep = pos ? 1 : 0, need = sep + strlen(v[i]), room = len - 1 - pos;

		/* A name that is not the last must leave room for " ...". */
		if (need <= room && (i + 1 == kept || need + 1 + strlen(more) <= room)) {
			snprintf(buf + pos, len - pos, "%s%s", sep ? " " : "", v[i]);
			pos += need;
			continue;
		}
		if (sep + strlen(more) <= room)
			snprintf(buf + pos, len - pos, "%s%s", sep ? " " : "", more);
		break;
	}
	free_names(v, kept);
}
