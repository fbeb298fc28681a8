/*
 * ownfile — a file lrutop made, and the proof that a path still names it
 * (docs/design.md §8: lrutop never overwrites, truncates or deletes a file it
 * did not create).  The base every layer may use, as util.h is.
 *
 * A file lrutop later rewrites or removes (--csv, --results, an export's
 * temporary file, --metrics-file, a recording it stops, a rehearsal's
 * .part, the markers under /run/lrutop) is made new
 * (O_CREAT|O_EXCL|O_NOFOLLOW) and a descriptor of it stays open here until
 * lrutop is done with it.  "Is PATH still the file I made?" is answered by
 * lstat(PATH) against fstat(that descriptor):
 *  - the same st_dev and st_ino, and the file made still has a name
 *    (st_nlink > 0).  While the descriptor is open the inode is not freed,
 *    so its number cannot go to a file someone makes in its place — issue
 *    26's --metrics-file: "rm PATH; echo DATA > PATH" got the number of the
 *    file lrutop had closed, which was then written over and deleted;
 *  - and, the second proof where inode numbers are not unique (FUSE, some
 *    network and overlay filesystems), the same type, ctime and, where the
 *    filesystem keeps one (statx STATX_BTIME), birth time.  When PATH is
 *    ours both sides are the one inode, so lrutop's own writes, renames
 *    and chmods never break the proof; no token has to be written into
 *    formats that have no room for one (CSV, OpenMetrics).
 * A file replaced whole each time (--metrics-file) is a new ownfile each
 * time: ownfile_replace puts the new file in the old one's place only
 * while the old one is still there, and from then on owns the new one.
 *
 * Without a descriptor (a file a child process made: the scratch
 * directory's dst), struct ownfile_id keeps dev, ino and the birth time,
 * which is the second proof then, where the filesystem has one.
 *
 * What no call can close: between the check and the unlink() (or
 * rename()) someone may put a file at PATH; there is no "unlink if this
 * inode".  The window is two system calls; ownfile_replace has none
 * (RENAME_EXCHANGE, checked, undone when what came out was not ours).
 *
 * Invariants: a zeroed struct ownfile owns nothing; one that owns a file
 * holds exactly one descriptor of its own (the caller's descriptor is
 * apart, to write and close as it likes); nothing here prints or
 * allocates.
 */
#ifndef LRUTOP_OWNFILE_H
#define LRUTOP_OWNFILE_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

struct ownfile {
	int made; /* 1 while fd and path are the file made */
	int fd;	  /* our own descriptor of it */
	char path[PATH_MAX];
};

/* Returned by the calls below when the path no longer names our file. */
#define OWNFILE_NOT_OURS (-2)

/* Creates path new: open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC |
 * flags, mode) with flags O_WRONLY or O_RDWR (and O_APPEND and the like).
 * Returns the caller's descriptor, of keeping one of its own; -1 + errno
 * (EEXIST: path exists, a symlink too; ENAMETOOLONG).  of owned nothing. */
int ownfile_create(struct ownfile *of, const char *path, int flags, mode_t mode);
/* A new temporary file from tmpl ("DIR/.NAME.XXXXXX": mkostemp's, the
 * X's replaced in place, mode 0600, O_RDWR).  The caller's descriptor or
 * -1 + errno. */
int ownfile_create_temp(struct ownfile *of, char *tmpl);
/* 1 when of's path still names the file made (above), 0 otherwise — also
 * when of owns nothing. */
int ownfile_is_ours(const struct ownfile *of);
/* 1 when name (relative to dirfd, or AT_FDCWD; a symlink as the last
 * component is not followed) is the file open as fd, by the same proofs:
 * for a file lrutop opened and judged (a marker it read) before it removes
 * or renames it. */
int ownfile_fd_is_at(int fd, int dirfd, const char *name);
/* Removes of's path if it is still ours and forgets of either way: 1
 * removed, 0 left alone (not ours, or gone), -1 + errno (unlink failed). */
int ownfile_remove(struct ownfile *of);
/* Gives the file a second name, path, never replacing one (link(2):
 * EEXIST), then takes the first name away if it is still ours: of names
 * path from then on.  0, -1 + errno (of unchanged), OWNFILE_NOT_OURS. */
int ownfile_link(struct ownfile *of, const char *path);
/* rename(2) of's file to path, replacing what is there (the caller has
 * judged that: its own, or a file made by the same kind of run), only
 * while of's path is still ours; of names path from then on.  0, -1 +
 * errno, OWNFILE_NOT_OURS (nothing renamed). */
int ownfile_rename(struct ownfile *of, const char *path);
/* next's file (a temporary file, complete) takes cur's path in place of
 * cur's file, only while that is still there: renameat2(RENAME_EXCHANGE),
 * then the file that came out is checked (ours: removed; not ours: the
 * exchange is undone); a filesystem without the exchange gets a check and
 * a rename.  0: cur owns the new file and next nothing; OWNFILE_NOT_OURS
 * (cur's path was replaced or removed: nothing of the stranger's is
 * touched) or -1 + errno: next is still the temporary file. */
int ownfile_replace(struct ownfile *cur, struct ownfile *next);
/* Lets the file go: the descriptor is closed, the file stays.  Idempotent. */
void ownfile_forget(struct ownfile *of);

/* Which file a name was, without a descriptor: the second proof is the
 * birth time (have_btime 0 where the filesystem keeps none). */
struct ownfile_id {
	uint64_t dev, ino; /* dev as stat's st_dev */
	int64_t btime_s;
	uint32_t btime_ns;
	int have_btime;
};
/* The id of name (relative to dirfd, not followed).  0 or -1 + errno.
 * One statx(2): fit for exit paths. */
int ownfile_id_at(int dirfd, const char *name, struct ownfile_id *id);
/* 1 when a and b are the same file: dev and ino, and the birth time where
 * both have one. */
int ownfile_id_same(const struct ownfile_id *a, const struct ownfile_id *b);

#endif
