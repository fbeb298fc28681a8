/*
 * rundir — the checks of a --dir that make nothing there: a directory, on a
 * disk-backed (not tmpfs/ramfs), writable filesystem, with room.  The
 * scratch directory (scratch.c) is made only after them; a talk checks its
 * run steps with them before it starts, as the command line would refuse
 * them.  Errors name the option: "--dir /dev/shm: on tmpfs, no disk I/O
 * would happen (use a directory on a disk)".
 */
#ifndef LRUTOP_RUNDIR_H
#define LRUTOP_RUNDIR_H

#include <stddef.h>
#include <stdint.h>

/* --dir's default: where the runs' files go when none is given. */
#define RUNDIR_DEFAULT "/var/tmp"

/* *parent_dir (NULL or "": set to RUNDIR_DEFAULT, the name the caller's
 * messages then use too) copied to parent (plen bytes, trailing slashes
 * cut) and checked.  0 or -1 + err. */
int rundir_check(const char **parent_dir, char *parent, size_t plen, char *err, size_t errlen);
/* rundir_check, then that we may create a directory there and need_bytes
 * are free.  0 or -1 + err. */
int rundir_check_space(const char *parent_dir, uint64_t need_bytes, char *err, size_t errlen);
/* 0 when need_bytes are free for us on the filesystem sv tells of, else
 * -1 + "--dir NAME: needs N free, only M available". */
struct statvfs;
int rundir_room(const struct statvfs *sv, const char *name, uint64_t need_bytes, char *err,
		size_t errlen);

#endif
