#include "base/ownfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/util.h"

/* What statx says of a file, as compared here. */
#define WANT (STATX_TYPE | STATX_INO | STATX_NLINK | STATX_CTIME | STATX_BTIME)

/* The two sides of "is it the same file": a and b both from one inode
 * when it is ours.  btime only where both have it (a filesystem keeps it
 * for all its files or for none). */
static int same_file(const struct statx *a, const struct statx *b)
{
	if (a->stx_dev_major != b->stx_dev_major || a->stx_dev_minor != b->stx_dev_minor ||
	    a->stx_ino != b->stx_ino || (a->stx_mode & S_IFMT) != (b->stx_mode & S_IFMT))
		return 0;
	if ((a->stx_mask & b->stx_mask & STATX_CTIME) &&
	    (a->stx_ctime.tv_sec != b->stx_ctime.tv_sec ||
	     a->stx_ctime.tv_nsec != b->stx_ctime.tv_nsec))
		return 0;
	if ((a->stx_mask & b->stx_mask & STATX_BTIME) &&
	    (a->stx_btime.tv_sec != b->stx_btime.tv_sec ||
	     a->stx_btime.tv_nsec != b->stx_btime.tv_nsec))
		return 0;
	return 1;
}

int ownfile_fd_is_at(int fd, int dirfd, const char *name)
{
	/* A write to the file between the two looks changes its ctime: the
	 * same inode then differs only in that, and a second look agrees. */
	for (int tries = 0; tries < 3; tries++) {
		struct statx mine, there;
		if (statx(fd, "", AT_EMPTY_PATH, WANT, &mine) < 0 || mine.stx_nlink == 0 ||
		    statx(dirfd, name, AT_SYMLINK_NOFOLLOW, WANT, &there) < 0)
			return 0;
		if (same_file(&mine, &there))
			return 1;
		if (mine.stx_ino != there.stx_ino || mine.stx_dev_major != there.stx_dev_major ||
		    mine.stx_dev_minor != there.stx_dev_minor)
			return 0;
	}
	return 0;
}

/* of cleared for a file about to be made at path: 0, or -1 + ENAMETOOLONG
 * when of cannot hold its name. */
static int prepare(struct ownfile *of, const char *path)
{
	memset(of, 0, sizeof(*of));
	of->fd = -1;
	if (strlen(path) >= sizeof(of->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

/* of takes fd's file, made at path just now (O_EXCL; fd -1: not made): a
 * descriptor of its own.  fd, or -1 + errno with the file unlinked. */
static int adopt(struct ownfile *of, int fd, const char *path)
{
	if (fd < 0)
		return -1;
	int own = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (own < 0) {
		int e = errno;
		unlink(path); /* made just now, by this open: ours */
		close(fd);
		errno = e;
		return -1;
	}
	of->fd = own;
	strlcpy_(of->path, path, sizeof(of->path));
	of->made = 1;
	return fd;
}

int ownfile_create(struct ownfile *of, const char *path, int flags, mode_t mode)
{
	if (prepare(of, path) < 0)
		return -1;
	return adopt(of, open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags, mode), path);
}

int ownfile_create_temp(struct ownfile *of, char *tmpl)
{
	if (prepare(of, tmpl) < 0)
		return -1;
	return adopt(of, mkostemp(tmpl, O_CLOEXEC), tmpl); /* O_CREAT | O_EXCL, 0600 */
}

int ownfile_is_ours(const struct ownfile *of)
{
	return of->made && ownfile_fd_is_at(of->fd, AT_FDCWD, of->path);
}

void ownfile_forget(struct ownfile *of)
{
	if (of->made)
		close(of->fd);
	of->made = 0;
	of->fd = -1;
	of->path[0] = '\0';
}

int ownfile_remove(struct ownfile *of)
{
	int rc = 0;
	if (ownfile_is_ours(of)) {
		rc = unlink(of->path) == 0 ? 1 : errno == ENOENT ? 0 : -1;
		int e = errno;
		ownfile_forget(of);
		errno = e;
		return rc;
	}
	ownfile_forget(of);
	return rc;
}

/* Whether of may be given the name path: 0; -1 + ENAMETOOLONG;
 * OWNFILE_NOT_OURS when its name no longer holds the file we made. */
static int may_name(const struct ownfile *of, const char *path)
{
	if (strlen(path) >= sizeof(of->path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return ownfile_is_ours(of) ? 0 : OWNFILE_NOT_OURS;
}

int ownfile_link(struct ownfile *of, const char *path)
{
	int rc = may_name(of, path);
	if (rc)
		return rc;
	if (link(of->path, path) < 0)
		return -1;
	/* the new name is the file we made: link() made it just now */
	if (ownfile_fd_is_at(of->fd, AT_FDCWD, of->path))
		unlink(of->path);
	strlcpy_(of->path, path, sizeof(of->path));
	return 0;
}

int ownfile_rename(struct ownfile *of, const char *path)
{
	int rc = may_name(of, path);
	if (rc)
		return rc;
	if (rename(of->path, path) < 0)
		return -1;
	strlcpy_(of->path, path, sizeof(of->path));
	return 0;
}

int ownfile_replace(struct ownfile *cur, struct ownfile *next)
{
	if (!cur->made || !next->made) {
		errno = EINVAL;
		return -1;
	}
	if (!ownfile_is_ours(cur))
		return OWNFILE_NOT_OURS;
	if (!ownfile_is_ours(next)) {
		errno = ENOENT; /* our temporary file went: nothing to put in place */
		return -1;
	}
	if (renameat2(AT_FDCWD, next->path, AT_FDCWD, cur->path, RENAME_EXCHANGE) == 0) {
		/* next's name now holds what was at cur's path a moment ago */
		if (!ownfile_fd_is_at(cur->fd, AT_FDCWD, next->path)) {
			/* a stranger's file came between the check and the
			 * exchange: it goes back where it was */
			renameat2(AT_FDCWD, next->path, AT_FDCWD, cur->path, RENAME_EXCHANGE);
			return OWNFILE_NOT_OURS;
		}
		unlink(next->path); /* cur's old file, ours (just checked) */
	} else if (errno == EINVAL || errno == ENOSYS) {
		/* no exchange on this filesystem: the check above, then a rename */
		if (rename(next->path, cur->path) < 0)
			return -1;
	} else if (errno == ENOENT) {
		return ownfile_is_ours(cur) ? -1 : OWNFILE_NOT_OURS;
	} else {
		return -1;
	}
	close(cur->fd);
	cur->fd = next->fd;
	next->made = 0;
	next->fd = -1;
	next->path[0] = '\0';
	return 0;
}

int ownfile_id_at(int dirfd, const char *name, struct ownfile_id *id)
{
	struct statx st;
	memset(id, 0, sizeof(*id));
	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &st) < 0)
		return -1;
	id->dev = (uint64_t)makedev(st.stx_dev_major, st.stx_dev_minor); /* as st_dev */
	id->ino = st.stx_ino;
	if (st.stx_mask & STATX_BTIME) {
		id->have_btime = 1;
		id->btime_s = st.stx_btime.tv_sec;
		id->btime_ns = st.stx_btime.tv_nsec;
	}
	return 0;
}

int ownfile_id_same(const struct ownfile_id *a, const struct ownfile_id *b)
{
	if (a->dev != b->dev || a->ino != b->ino)
		return 0;
	if (a->have_btime && b->have_btime &&
	    (a->btime_s != b->btime_s || a->btime_ns != b->btime_ns))
		return 0;
	return 1;
}
