#include "runs/scratch.h"
#include "runs/rundir.h"
#include "sampling/sampler.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define FILL_BUF      ((size_t)1 << 20)
#define PROGRESS_STEP ((uint64_t)16 << 20)

/* xoshiro256** (Blackman & Vigna), seeded through splitmix64: fast enough
 * to outrun a disk, period 2^256 - 1 so the data never repeats. */
struct xoshiro {
	uint64_t s[4];
};

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t xoshiro_next(struct xoshiro *x)
{
	uint64_t *s = x->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

static void xoshiro_seed(struct xoshiro *x, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		x->s[i] = splitmix64(&seed);
}

int scratch_pid_start(long pid, unsigned long long *start)
{
	return pid > 0 ? sampler_pid_start((pid_t)pid, start) : -1;
}

int scratch_pid_alive(long pid, unsigned long long start)
{
	unsigned long long now;

	return scratch_pid_start(pid, &now) == 0 && now == start;
}

void scratch_boot_id(char *out, size_t len)
{
	if (read_small_at(AT_FDCWD, "/proc/sys/kernel/random/boot_id", out, len) <= 0)
		strlcpy_(out, "unknown", len);
	out[strcspn(out, "\n")] = '\0';
}

/* "<magic>\npid <pid>\nstart <ticks>\nboot <boot_id>\n" in <dir>/owner. */
static int write_owner(struct scratch *s)
{
	char path[4096], buf[256], boot[64];
	unsigned long long start = 0;
	int fd, n, rc;

	if (scratch_path(s, "owner", path, sizeof path) < 0) {
		errno = ENAMETOOLONG;
		return -1;
	}
	scratch_pid_start((long)getpid(), &start);
	scratch_boot_id(boot, sizeof boot);
	n = snprintf(buf, sizeof buf, "%s\npid %ld\nstart %llu\nboot %s\n", SCRATCH_OWNER_MAGIC,
		     (long)getpid(), start, boot);
	fd = openat(s->dir_fd, "owner", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	/* ours from the start: scratch_remove unlinks only owned files */
	struct stat st;
	if (fstat(fd, &st) == 0)
		scratch_own(s, "owner", (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	rc = write_all(fd, buf, (size_t)n);
	if (close(fd) < 0 && rc == 0 && errno != EINTR)
		rc = -1;
	return rc;
}

/* 1 when the marker names an owner that is gone (*pid: its pid); 0 alive
 * or not ours. */
static int owner_gone(int dirfd, long *pid_out)
{
	char buf[512], boot[64], mboot[64];
	long pid;
	unsigned long long start;
	size_t ml = strlen(SCRATCH_OWNER_MAGIC);

	if (read_small_at(dirfd, "owner", buf, sizeof buf) <= 0 ||
	    strncmp(buf, SCRATCH_OWNER_MAGIC "\n", ml + 1) != 0 ||
	    sscanf(buf + ml + 1, "pid %ld start %llu boot %63s", &pid, &start, mboot) != 3)
		return 0;
	scratch_boot_id(boot, sizeof boot);
	*pid_out = pid;
	if (strcmp(boot, mboot) != 0)
		return 1; /* another boot: its owner is long gone */
	return !scratch_pid_alive(pid, start);
}

int scratch_reap_stale(const char *parent_dir, struct scratch_reaped *out, char *err, size_t errlen)
{
	static const char *const names[] = {"src", "dst", "probe", "owner"}; /* marker last */
	DIR *d;
	struct dirent *e;

	memset(out, 0, sizeof *out);
	if (!parent_dir || !*parent_dir)
		parent_dir = RUNDIR_DEFAULT;
	d = opendir(parent_dir);
	if (!d)
		return errf(err, errlen, "%s: %s", parent_dir, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		uint64_t bytes = 0;
		long pid = 0;
		int fd;

		if (strncmp(e->d_name, "lrutop-", 7) != 0 || strlen(e->d_name) != 13 ||
		    strspn(e->d_name + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789") != 6)
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
			continue;
		fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!owner_gone(fd, &pid)) {
			close(fd);
			continue;
		}
		for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
			if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode) && unlinkat(fd, names[i], 0) == 0)
				bytes += (uint64_t)st.st_blocks * 512u;
		close(fd);
		out->bytes += bytes;
		if (unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) == 0) {
			if (!out->ndirs++ && (out->pid = pid) != 0)
				snprintf(out->first, sizeof out->first, "%s/%s",
					 strcmp(parent_dir, "/") ? parent_dir : "", e->d_name);
		} else {
			out->nkept++;
		}
	}
	closedir(d);
	return 0;
}

int scratch_open(struct scratch *s, const char *parent_dir, char *err, size_t errlen)
{
	char parent[4096];
	int n;

	memset(s, 0, sizeof *s);
	s->dir_fd = -1;
	if (rundir_check(&parent_dir, parent, sizeof parent, err, errlen) < 0)
		return -1;

	n = snprintf(s->dir, sizeof s->dir, "%s/lrutop-XXXXXX", strcmp(parent, "/") ? parent : "");
	if (n < 0 || (size_t)n >= sizeof s->dir)
		return errf(err, errlen, "--dir %s: path too long", parent_dir);
	if (!mkdtemp(s->dir)) {
		int e = errno;
		s->dir[0] = '\0';
		return errf(err, errlen, "--dir %s: cannot create a directory there: %s",
			    parent_dir, strerror(e));
	}
	s->dir_fd = open(s->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->dir_fd < 0) {
		int e = errno;
		rmdir(s->dir);
		return errf(err, errlen, "open %s: %s", s->dir, strerror(e));
	}
	s->made = 1;
	if (write_owner(s) < 0) {
		int e = errno;
		scratch_remove(s);
		return errf(err, errlen, "--dir %s: cannot write the owner marker: %s", parent_dir,
			    strerror(e));
	}
	return 0;
}

int scratch_check_space(const struct scratch *s, uint64_t need_bytes, char *err, size_t errlen)
{
	struct statvfs sv;

	if (statvfs(s->dir, &sv) < 0)
		return errf(err, errlen, "statvfs %s: %s", s->dir, strerror(errno));
	return rundir_room(&sv, s->dir, need_bytes, err, errlen);
}

int scratch_path(struct scratch *s, const char *name, char *out, size_t outlen)
{
	size_t i;
	int n;

	if (outlen)
		out[0] = '\0';
	if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0 ||
	    strlen(name) >= SCRATCH_NAME_MAX)
		return -1;
	for (i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i], name) == 0)
			break;
	if (i == s->nfiles) {
		if (s->nfiles == SCRATCH_MAX_FILES)
			return -1;
		strlcpy_(s->files[s->nfiles++], name, SCRATCH_NAME_MAX);
	}
	n = snprintf(out, outlen, "%s/%s", s->dir, name);
	if (n < 0 || (size_t)n >= outlen) {
		if (outlen)
			out[0] = '\0';
		return -1;
	}
	return 0;
}

int scratch_make_input(struct scratch *s, uint64_t size,
			int (*progress)(uint64_t done, uint64_t total, void *arg), void *arg,
			char *err, size_t errlen)
{
	char path[4096];
	struct xoshiro rng;
	uint64_t *buf, done = 0, next_report = PROGRESS_STEP;
	int fd, e;

	if (!s->made)
		return errf(err, errlen, "scratch source: no scratch directory");
	if (s->have_src)
		return errf(err, errlen, "%s: already made", s->src);
	if (scratch_path(s, "src", path, sizeof path) < 0)
		return errf(err, errlen, "%s/src: path too long", s->dir);
	fd = openat(s->dir_fd, "src", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return errf(err, errlen, "create %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) == 0)
		scratch_own(s, "src", (uint64_t)st.st_dev, (uint64_t)st.st_ino);

	xoshiro_seed(&rng, mono_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)s);
	buf = xmalloc(FILL_BUF);
	while (done < size) {
		size_t n = size - done < FILL_BUF ? (size_t)(size - done) : FILL_BUF;
		for (size_t i = 0; i < (n + 7) / 8; i++)
			buf[i] = xoshiro_next(&rng);
		if (write_all(fd, buf, n) < 0) {
			errf(err, errlen, "write %s: %s", path, strerror(errno));
			goto fail;
		}
		done += n;
		if (progress && done >= next_report && done < size) {
			if (progress(done, size, arg) != 0) {
				errf(err, errlen, "writing %s: interrupted", path);
				goto fail;
			}
			next_report += PROGRESS_STEP;
		}
	}
	free(buf);
	buf = NULL;
	if (fsync(fd) < 0) {
		errf(err, errlen, "fsync %s: %s", path, strerror(errno));
		goto fail;
	}
	/* Clean now, so this drops it: the first run starts from the disk. */
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(fd) < 0 && errno != EINTR) {
		e = errno;
		fd = -1;
		errf(err, errlen, "close %s: %s", path, strerror(e));
		goto fail;
	}
	strlcpy_(s->src, path, sizeof s->src);
	s->have_src = 1;
	if (progress)
		progress(size, size, arg);
	return 0;
fail:
	free(buf);
	if (fd >= 0)
		close(fd);
	scratch_remove_file(s, "src"); /* only while it is the file made above */
	return -1;
}

/* Index of a recorded name, or -1. */
static int file_index(const struct scratch *s, const char *name)
{
	for (size_t i = 0; i < s->nfiles && i < SCRATCH_MAX_FILES; i++)
		if (strcmp(s->files[i], name) == 0)
			return (int)i;
	return -1;
}

/* 1: files[i] is there and is the file lrutop made; 0: it is not there;
 * -1: something else is there (or it cannot be looked at).
 * Async-signal-safe (scratch_remove runs on exit paths). */
static int own_state(const struct scratch *s, size_t i)
{
	struct ownfile_id now;

	if (ownfile_id_at(s->dir_fd, s->files[i], &now) < 0)
		return errno == ENOENT ? 0 : -1;
	return s->own[i] && ownfile_id_same(&s->own_id[i], &now) ? 1 : -1;
}

int scratch_own(struct scratch *s, const char *name, uint64_t dev, uint64_t ino)
{
	int i = file_index(s, name);
	struct ownfile_id now;

	if (i < 0 || !s->made || ownfile_id_at(s->dir_fd, name, &now) < 0 || now.dev != dev ||
	    now.ino != ino)
		return -1;
	s->own[i] = 1;
	s->own_id[i] = now;
	return 0;
}

int scratch_own_current(struct scratch *s, const char *name)
{
	struct stat st;

	if (!s->made || file_index(s, name) < 0 ||
	    fstatat(s->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -1;
	return scratch_own(s, name, (uint64_t)st.st_dev, (uint64_t)st.st_ino);
}

int scratch_foreign(const struct scratch *s, const char *name)
{
	int i = file_index(s, name);
	struct stat st;

	if (!s->made)
		return 0;
	if (i < 0)
		return fstatat(s->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	return own_state(s, (size_t)i) < 0;
}

int scratch_unlink_own(struct scratch *s, const char *name, char *err, size_t errlen)
{
	int i = file_index(s, name);

	if (!s->made)
		return 0;
	if (i >= 0) {
		int st = own_state(s, (size_t)i);
		if (st == 0) {
			s->own[i] = 0;
			return 0;
		}
		if (st == 1) {
			if (unlinkat(s->dir_fd, name, 0) < 0 && errno != ENOENT)
				return errf(err, errlen, "%s %s/%s: cannot remove it: %s", name,
					    s->dir, name, strerror(errno));
			s->own[i] = 0;
			return 0;
		}
	} else if (!scratch_foreign(s, name)) {
		return 0;
	}
	return errf(err, errlen,
		    "%s %s/%s: exists and was not made by lrutop — refusing to remove it", name,
		    s->dir, name);
}

void scratch_remove(struct scratch *s)
{
	if (!s->made)
		return;
	for (size_t i = 0; i < s->nfiles && i < SCRATCH_MAX_FILES; i++)
		if (own_state(s, i) == 1)
			unlinkat(s->dir_fd, s->files[i], 0);
	close(s->dir_fd);
	rmdir(s->dir);
	s->dir_fd = -1;
	s->made = 0;
	s->nfiles = 0;
	memset(s->own, 0, sizeof s->own);
	s->have_src = 0;
}

void scratch_remove_file(struct scratch *s, const char *name)
{
	if (!s->made || s->dir_fd < 0)
		return;
	int i = file_index(s, name);
	if (i >= 0 && own_state(s, (size_t)i) == 1) {
		unlinkat(s->dir_fd, name, 0);
		s->own[i] = 0;
		if (strcmp(name, "src") == 0)
			s->have_src = 0;
	}
}
