/*
 * device — which block device to watch: maps a path (--dir) to the whole disk
 * whose /proc/diskstats line shows its I/O, and checks names given with -d.
 *
 * Everything is read from sysfs and /proc/self/mountinfo on each call; the
 * module keeps no state. Names crossing this interface are kernel names as
 * /proc/diskstats spells them ("vda", "nvme0n1", "cciss/c0d0"); sysfs's '!'
 * for '/' stays inside device.c.
 *
 * Resolution walks down the storage stack until it reaches a whole disk
 * (a directory in /sys/block that is neither a loop device nor has slaves):
 *   partition -> its parent disk;
 *   dm-*, md*, anything with a non-empty slaves/ -> the first slave in sorted
 *     order (I/O of a striped/mirrored set is only partly seen there; `how`
 *     says "first of N" so the caller can tell the user);
 *   loop -> the disk holding its backing file (a loop whose backing file is
 *     gone stays the answer: its own diskstats line is still meaningful);
 *   st_dev with major 0 (btrfs, overlay, ...) -> the mount's source device
 *     from /proc/self/mountinfo, or an overlay's upperdir (else lowerdir).
 * The walk is bounded (16 steps), so a cyclic stack cannot hang it.
 */
#ifndef LRUTOP_DEVICE_H
#define LRUTOP_DEVICE_H

#include <stddef.h>

/* Enough for any kernel block device name (the kernel limit is 32). */
#define DEVICE_NAME_MAX 64

/*
 * Resolves the whole disk that holds `path` (which must exist) and writes its
 * kernel name into name. `how` (may be NULL) gets a short description of the
 * chain for the user, e.g. "/var/tmp is on vda" or
 * "/mnt is on loop0p1 -> loop0 -> /var/tmp/img -> vda"; it is cut to howlen.
 * Returns 0, or -1 with err set to
 * "cannot find the disk holding PATH: REASON" (tmpfs, nfs, a name that does
 * not fit namelen, ...); name and how are then left empty.
 */
int device_for_path(const char *path, char *name, size_t namelen, char *how, size_t howlen,
		    char *err, size_t errlen);

/* 1 if NAME is a block device in /sys/class/block (disk or partition), else 0. */
int device_exists(const char *name);

/* 1 if NAME is a whole disk (/sys/block/NAME exists), else 0. */
int device_is_disk(const char *name);

/*
 * Writes the whole disks of /sys/block, sorted and separated by single
 * spaces, into buf — skipping loop, ram and zram devices of size 0, which
 * nobody means. Only whole names are written; if they do not all fit, the
 * list ends with "..." instead. Always NUL-terminated when len > 0; "" if
 * there are none. For messages like
 * "-d foo: no such disk (available: vda sdb)".
 */
void device_list_disks(char *buf, size_t len);

#endif
