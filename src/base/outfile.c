#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

#define EXISTS "already exists (use a new path)"

/* ---- the rules every way shares ------------------------------------------ */

/* The temporary file's name for path: ".NAME.XXXXXX" in path's directory
 * (a leading dot: the textfile collector's *.prom and a marker's name
 * never match it).  0, or -1 + ENAMETOOLONG. */
static int temp_name(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
	if ((size_t)snprintf(tmp, len, "%.*s.%s.XXXXXX", (int)dl, path, path + dl) >= len) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* fsync, where the file can be synced at all (EINVAL: a special file;
 * EROFS: a filesystem that takes no sync).  0 or -1 + errno. */
static int sync_fd(int fd)
{
	return fsync(fd) == 0 || errno == EINVAL || errno == EROFS ? 0 : -1;
}

/* ---- a file written through struct outfile -------------------------------- */

static int open_file(struct outfile *of, const char *path, const char *what, enum outfile_how how,
		     int stream, char *err, size_t errlen)
{
	struct ownfile placed = {0};
	if (how == OUTFILE_REPLACE)
		placed = of->placed; /* the file at PATH stays of's */
	memset(of, 0, sizeof(*of));
	of->fd = -1;
	of->own.fd = -1;
	of->path = path;
	of->what = what;
	of->how = how;
	of->placed = placed;
	int fd, e;
	if (how == OUTFILE_NEW) {
		fd = ownfile_create(&of->own, path, O_WRONLY, 0644);
		if (fd < 0)
			return errno == EEXIST
				   ? errf(err, errlen, "%s %s: " EXISTS, what, path)
				   : errf(err, errlen, "%s %s: %s", what, path, strerror(errno));
	} else {
		if (of->placed.made && !ownfile_is_ours(&of->placed)) {
			ownfile_forget(&of->placed); /* a stranger's now: never touched */
			errf(err, errlen, "%s %s: replaced or removed by someone else", what, path);
			return OWNFILE_NOT_OURS;
		}
		struct stat st;
		if (!of->placed.made && lstat(path, &st) == 0)
			return errf(err, errlen, "%s %s: " EXISTS, what, path);
		char tmp[PATH_MAX];
		if (temp_name(path, tmp, sizeof(tmp)) < 0 ||
		    (fd = ownfile_create_temp(&of->own, tmp)) < 0)
			return errf(err, errlen, "%s %s: %s", what, path, strerror(errno));
		/* mkostemp's 0600 would make an export no one else may read */
		if (fchmod(fd, 0644) < 0)
			goto fail;
	}
	of->fd = fd;
	if (stream && !(of->f = fdopen(fd, "w")))
		goto fail;
	of->is_open = 1;
	return 0;
fail:
	e = errno;
	close(fd);
	ownfile_remove(&of->own);
	return errf(err, errlen, "%s %s: %s", what, path, strerror(e));
}

int outfile_open(struct outfile *of, const char *path, const char *what, enum outfile_how how,
		 char *err, size_t errlen)
{
	return open_file(of, path, what, how, 1, err, errlen);
}

int outfile_open_fd(struct outfile *of, const char *path, const char *what, enum outfile_how how,
		    char *err, size_t errlen)
{
	return open_file(of, path, what, how, 0, err, errlen);
}

int outfile_open_stdout(struct outfile *of, const char *what, char *err, size_t errlen)
{
	memset(of, 0, sizeof(*of));
	of->own.fd = -1;
	of->path = "-";
	of->what = what;
	of->how = OUTFILE_NEW;
	of->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (of->fd < 0)
		return errf(err, errlen, "%s -: standard output: %s", what, strerror(errno));
	of->is_open = 1;
	return 0;
}

int outfile_write_error(struct outfile *of, int e, char *err, size_t errlen)
{
	if (of->failed)
		return -1;
	of->failed = 1;
	of->err = e ? e : EIO;
	return errf(err, errlen, "%s %s: write error: %s", of->what, of->path,
		    strerror(e ? e : EIO));
}

int outfile_write(struct outfile *of, const void *buf, size_t len, char *err, size_t errlen)
{
	if (of->failed)
		return -1;
	errno = 0;
	if (of->f ? fwrite(buf, 1, len, of->f) != len : write_all(of->fd, buf, len) < 0)
		return outfile_write_error(of, errno, err, errlen);
	return 0;
}

int outfile_flush(struct outfile *of, char *err, size_t errlen)
{
	if (!of->f)
		return 0;
	if (of->failed)
		return -1;
	errno = 0;
	if (fflush(of->f) == EOF || ferror(of->f))
		return outfile_write_error(of, errno, err, errlen);
	return 0;
}

/* Closes the stream or the descriptor: 0, or -1 + errno. */
static int close_fd(struct outfile *of)
{
	int rc = 0;
	errno = 0;
	if (of->is_open)
		rc = of->f ? (fclose(of->f) == EOF ? -1 : 0) : close(of->fd);
	of->f = NULL;
	of->fd = -1;
	of->is_open = 0;
	return rc;
}

/* The whole temporary file to PATH, never over a file there. */
static int link_into_place(struct outfile *of, char *err, size_t errlen)
{
	int l = ownfile_link(&of->own, of->path);
	if (l == OWNFILE_NOT_OURS)
		return errf(err, errlen,
			    "%s %s: its temporary file %s was replaced or removed by someone else",
			    of->what, of->path, of->own.path);
	if (l < 0)
		return errno == EEXIST
			   ? errf(err, errlen, "%s %s: " EXISTS, of->what, of->path)
			   : errf(err, errlen, "%s %s: %s", of->what, of->path, strerror(errno));
	return 0;
}

/* OUTFILE_REPLACE: the temporary file in place of the one at PATH, which
 * of owns from then on. */
static int replace_into_place(struct outfile *of, char *err, size_t errlen)
{
	if (!of->placed.made) {
		if (link_into_place(of, err, errlen) < 0)
			return -1;
		of->placed = of->own; /* the descriptor moves with it */
		memset(&of->own, 0, sizeof(of->own));
		of->own.fd = -1;
		return 0;
	}
	int rc = ownfile_replace(&of->placed, &of->own);
	if (rc == OWNFILE_NOT_OURS) {
		ownfile_forget(&of->placed);
		errf(err, errlen, "%s %s: replaced or removed by someone else", of->what, of->path);
		return OWNFILE_NOT_OURS;
	}
	if (rc < 0)
		return errf(err, errlen, "%s %s: %s", of->what, of->path, strerror(errno));
	return 0;
}

int outfile_close(struct outfile *of, char *err, size_t errlen)
{
	if (!of->is_open)
		return 0;
	/* a write failed: said then; the file is not finished now */
	int rc = of->failed ? -1 : outfile_flush(of, err, errlen);
	errno = 0;
	if (rc == 0 && of->how != OUTFILE_REPLACE && sync_fd(of->fd) < 0)
		rc = outfile_write_error(of, errno, err, errlen);
	if (close_fd(of) < 0 && rc == 0)
		rc = outfile_write_error(of, errno, err, errlen);
	if (rc == 0 && of->how == OUTFILE_WHOLE)
		rc = link_into_place(of, err, errlen);
	else if (rc == 0 && of->how == OUTFILE_REPLACE)
		rc = replace_into_place(of, err, errlen);
	if (rc == 0 || of->how == OUTFILE_NEW)
		ownfile_forget(&of->own); /* PATH is whole: the user's (or placed's) now */
	else
		ownfile_remove(&of->own); /* the temporary file, when it is left */
	return rc;
}

void outfile_discard(struct outfile *of)
{
	close_fd(of);
	ownfile_remove(&of->own);
	ownfile_remove(&of->placed);
}

void outfile_pass(struct outfile *of, struct outfile *keep)
{
	outfile_forget(keep);
	keep->how = of->how;
	keep->what = of->what;
	keep->failed = 0;
	keep->own = of->own; /* the descriptor moves with it */
	keep->path = keep->own.path;
	memset(&of->own, 0, sizeof(of->own));
	of->own.fd = -1;
}

int outfile_rename(struct outfile *of, const char *path)
{
	int rc = ownfile_rename(&of->own, path);
	if (rc == 0)
		of->path = of->own.path;
	return rc;
}

void outfile_forget(struct outfile *of)
{
	close_fd(of);
	ownfile_forget(&of->own);
	ownfile_forget(&of->placed);
}

/* ---- a small file at once, under a directory descriptor ------------------- */

/* Opens a new temporary file beside name in dirfd (temp_name's, the X's
 * random), mode whatever the umask.  mkostemp cannot take a directory
 * descriptor: the same O_EXCL, a new name while one is taken.  fd or -1 +
 * errno. */
static int temp_open_at(int dirfd, const char *name, mode_t mode, char *tmp, size_t len)
{
	static const char set[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	if (temp_name(name, tmp, len) < 0)
		return -1;
	char *x = tmp + strlen(tmp) - 6;
	for (int tries = 0; tries < 100; tries++) {
		uint64_t r;
		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r))
			r = mono_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries << 48;
		for (int i = 0; i < 6; i++, r /= sizeof(set) - 1)
			x[i] = set[r % (sizeof(set) - 1)];
		int fd =
		    openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 && fchmod(fd, mode) < 0) {
			int e = errno;
			unlinkat(dirfd, tmp, 0); /* made just now, by this open: ours */
			close(fd);
			errno = e;
			return -1;
		}
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

int outfile_put_at(int dirfd, const char *name, mode_t mode, const void *buf, size_t len,
		   int replace)
{
	char tmp[PATH_MAX];
	int fd = temp_open_at(dirfd, name, mode, tmp, sizeof(tmp));
	if (fd < 0)
		return -1;
	int rc = write_all(fd, buf, len) < 0 || sync_fd(fd) < 0 ? -1 : 0;
	if (rc == 0 && !ownfile_fd_is_at(fd, dirfd, tmp)) {
		errno = ENOENT; /* our temporary file went: nothing to put in place */
		rc = -1;
	}
	if (rc == 0)
		rc = replace ? renameat(dirfd, tmp, dirfd, name)
			     : linkat(dirfd, tmp, dirfd, name, 0);
	int e = errno;
	/* what is left under the temporary name: only while it is ours */
	if ((rc < 0 || !replace) && ownfile_fd_is_at(fd, dirfd, tmp))
		unlinkat(dirfd, tmp, 0);
	close(fd);
	errno = e;
	return rc;
}
