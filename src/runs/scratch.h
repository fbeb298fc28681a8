/*
 * scratch — lrutop's private scratch directory and the scratch input file
 * (docs/design.md §8).
 *
 * Invariants:
 *  - the directory is made with mkdtemp("<parent>/lrutop-XXXXXX") on a disk
 *    filesystem (tmpfs and ramfs are refused: no disk I/O would happen);
 *  - every file lrutop creates in it is named through scratch_path() first,
 *    which records the name; once lrutop has made the file, scratch_own()
 *    records which file that is (struct ownfile_id: st_dev, st_ino and the
 *    birth time where the filesystem keeps one, so a stranger's file that
 *    got a freed inode number is still told apart).  Only such a file is
 *    ever removed (scratch_remove, scratch_remove_file, scratch_unlink_own,
 *    through a directory fd, so a renamed parent cannot redirect it): a
 *    stranger's file under a recorded name stays, and makes the rmdir of
 *    the directory fail.  No descriptor is kept (dst is a worker's, made
 *    in a child): the directory is lrutop's own (0700), so only its user
 *    could put a file there at all;
 *  - the directory holds an owner marker from the start, so a later lrutop
 *    can tell a SIGKILLed owner's directory (scratch_reap_stale) from a
 *    live one's and from anything lrutop did not make;
 *  - scratch_remove() allocates nothing and uses only async-signal-safe
 *    calls, so exit paths may call it; it is idempotent. A zeroed struct
 *    is a valid "nothing open" state.
 */
#ifndef LRUTOP_SCRATCH_H
#define LRUTOP_SCRATCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/ownfile.h"

#define SCRATCH_MAX_FILES 32
#define SCRATCH_NAME_MAX  64

struct scratch {
	char dir[4096]; /* "<parent>/lrutop-XXXXXX" */
	char src[4096]; /* "<dir>/src" once scratch_make_input succeeded */
	int have_src;
	int made;   /* 1 while dir exists and is ours */
	int dir_fd; /* valid while made */
	size_t nfiles;
	char files[SCRATCH_MAX_FILES][SCRATCH_NAME_MAX]; /* names lrutop may create in dir */
	/* files[i] is a file lrutop made, and this is it */
	unsigned char own[SCRATCH_MAX_FILES];
	struct ownfile_id own_id[SCRATCH_MAX_FILES];
};

/* Creates the private directory under parent_dir (NULL: "/var/tmp").
 * Errors name the option: "--dir /tmp: on tmpfs, no disk I/O would happen
 * (use a directory on a disk)", "--dir /x: No such file or directory",
 * "--dir /x: not a directory", "--dir /x: read-only file system". */
int scratch_open(struct scratch *s, const char *parent_dir, char *err, size_t errlen);

/* 0 when the directory's filesystem has need_bytes available to us. */
int scratch_check_space(const struct scratch *s, uint64_t need_bytes, char *err, size_t errlen);

/* Creates <dir>/src (O_EXCL|O_NOFOLLOW) filled with incompressible,
 * non-repeating bytes (xoshiro256**), fsyncs it and drops it from the page
 * cache. progress (may be NULL) is called at least every 64 MiB and once at
 * the end; a non-zero return stops the writing (the file is removed). On failure the partial file
 * is removed. */
int scratch_make_input(struct scratch *s, uint64_t size,
			int (*progress)(uint64_t done, uint64_t total, void *arg), void *arg,
			char *err, size_t errlen);

/* Writes "<dir>/<name>" into out and records name as a file lrutop may
 * create there, so scratch_remove() deletes it. name must be a plain file
 * name (no '/'); returns -1 (out = "") for a bad name or when the table of
 * SCRATCH_MAX_FILES names is full, 0 otherwise. Recording a name twice is
 * harmless. */
int scratch_path(struct scratch *s, const char *name, char *out, size_t outlen);

/* Records that the file lrutop made under the recorded name is (dev, ino),
 * e.g. the destination a worker created: the file under name now, when it
 * is (dev, ino), with its birth time.  -1 for a name never recorded, or
 * when the file there now is not (dev, ino) (nothing is recorded then). */
int scratch_own(struct scratch *s, const char *name, uint64_t dev, uint64_t ino);
/* scratch_own() for whatever file is under name now (a child lrutop ran
 * made it, e.g. a --cmd's {dst}).  -1 when there is none. */
int scratch_own_current(struct scratch *s, const char *name);
/* 1 when a file is under name and it is not the one lrutop made. */
int scratch_foreign(const struct scratch *s, const char *name);
/* Makes way for a new file under name: removes the file lrutop made there
 * (the previous run's destination); nothing there is fine too.  Any other
 * file is left alone: -1 and err = "NAME PATH: exists and was not made by
 * lrutop — refusing to remove it". */
int scratch_unlink_own(struct scratch *s, const char *name, char *err, size_t errlen);

/* The owner marker: scratch_open writes "<dir>/owner" (a recorded name,
 * removed with the rest) holding SCRATCH_OWNER_MAGIC, the owner's pid, its
 * start time (field 22 of /proc/PID/stat, so a reused pid is told apart)
 * and the boot id (a reboot ends every owner).  A directory without it is
 * never reaped. */
#define SCRATCH_OWNER_MAGIC "lrutop-scratch-owner 1"

struct scratch_reaped {
	int ndirs, nkept; /* removed; stale but left (a stranger's file inside) */
	uint64_t bytes;	  /* what the removed files held (allocated blocks) */
	char first[4096]; /* the first directory removed */
	long pid;	  /* its owner's pid */
};
/* Finds lrutop-XXXXXX directories under parent_dir (NULL: "/var/tmp") whose
 * owner marker names a process that is gone, and removes what lrutop puts
 * there (the files named owner, src, dst and probe) and the directory if that
 * empties it.  Never follows a symlink: the directory and each file
 * are looked at with AT_SYMLINK_NOFOLLOW/O_NOFOLLOW through directory fds,
 * only regular files are unlinked, only directories of our own uid are
 * looked at.  -1 + err when parent_dir cannot be read. */
int scratch_reap_stale(const char *parent_dir, struct scratch_reaped *out, char *err,
		       size_t errlen);
/* 1 while pid is the process that started at start (clock ticks since boot,
 * /proc/PID/stat field 22). */
int scratch_pid_alive(long pid, unsigned long long start);
/* The start time of pid (see above); 0 or -1. */
int scratch_pid_start(long pid, unsigned long long *start);
/* This boot's id (/proc/sys/kernel/random/boot_id, "unknown" when it
 * cannot be read), as owner files and cgroup markers record it. */
void scratch_boot_id(char *out, size_t len);

/* Unlinks one file lrutop created in the directory (an owned name), e.g.
 * a partly written source after a cancel.  Missing is not an error. */
void scratch_remove_file(struct scratch *s, const char *name);
/* Unlinks the files lrutop made (scratch_own), closes the directory fd and
 * removes the directory. Safe to call twice and on a zeroed struct. */
void scratch_remove(struct scratch *s);

#endif
