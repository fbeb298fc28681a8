/*
 * cgroup — a memory cgroup for one run (--mem-limit, DESIGN.md §3, §8).
 *
 * The cgroup is made beneath lrutop's own cgroup (from /proc/self/cgroup,
 * in the hierarchy /proc/self/mountinfo shows; the roots are parameters so
 * tests point the module at a directory of their own),
 * named "lrutop-<pid>-<tag>": cgroup v2 where the unified hierarchy
 * delegates the memory controller to our cgroup's children (memory.max,
 * memory.swap.max = 0), else cgroup v1's memory hierarchy
 * (memory.limit_in_bytes, memory.memsw.limit_in_bytes where present).
 *
 * --disk-limit adds a throttle of the watched disk (struct cgroup_io): v2
 * io.max in the same cgroup ("+io" in the parent's cgroup.subtree_control),
 * v1 blkio.throttle.{read,write}_bps_device in a blkio cgroup of the same
 * name beside the memory one (the worker joins both); a run with only
 * --disk-limit gets only the io cgroup.  Without --disk-limit a run with a
 * memory cgroup is still put in an io / blkio cgroup (no throttle) where
 * the controller is there, so its own disk bytes can be read (io_stat);
 * where that cannot be made the run goes on without it.
 *
 * Invariants: only a cgroup lrutop created is ever removed (this run's, or
 * by cgroup_sweep_stale one named lrutop-<pid>-* whose pid is gone); removal
 * kills what is left inside (the worker, a --cmd's children) and is
 * idempotent, so every exit path may call it. Nothing here prints or exits.
 */
#ifndef LRUTOP_CGROUP_H
#define LRUTOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>

struct cgroup {
	int version;	   /* 1 or 2 */
	char path[4096];   /* the cgroup's directory */
	char procs[4096];  /* cgroup.procs: the worker writes its pid here */
	char stat[4096];   /* memory.stat */
	char usage[4096];  /* v2 memory.current, v1 memory.usage_in_bytes */
	char peak[4096];   /* v2 memory.peak, v1 memory.max_usage_in_bytes; "" if absent */
	char events[4096]; /* v2 cgroup.events; "" on v1 */
	uint64_t limit;	   /* bytes, 0: no memory cgroup (only a disk throttle) */
	int created;	   /* 1 while the directory is ours to remove */
	/* --disk-limit: where the throttle lives when path does not hold it
	 * (v1: the blkio cgroup of the same name), "" otherwise */
	char io_path[4096];
	char io_procs[4096]; /* its cgroup.procs: the worker joins it too */
	int io_version;
	int io_created;
	/* the run's own I/O counters (cgio.h): v2 io.stat, v1
	 * blkio.throttle.io_service_bytes of the cgroup the worker's I/O is
	 * charged to; "" when there is none.  io_stat_version: 1 or 2. */
	char io_stat[4096];
	int io_stat_version;
};

/* --disk-limit: one disk throttled to bps bytes per second, read and write. */
struct cgroup_io {
	unsigned major, minor;
	uint64_t bps;
};

/* Where run cgroups are made: our own cgroup in the hierarchy that holds
 * the memory controller. */
struct cgroup_base {
	int version;   /* 1 or 2 */
	int enable_v2; /* v2 root cgroup: "+memory" is still to be written to
			* its cgroup.subtree_control */
	char dir[4096];
	/* the io controller (--disk-limit), found whether or not memory is:
	 * io_version 0 = none, 2 = "io" in the unified hierarchy, 1 = v1
	 * blkio; io_enable_v2: "+io" is still to be written */
	int io_version;
	int io_enable_v2;
	char io_dir[4096];
};

/* Chooses the hierarchy from what is mounted: mountinfo is text in the
 * format of /proc/self/mountinfo, self that of /proc/self/cgroup, and each
 * mount point is looked up below root ("" for the running system; a test
 * passes a directory laid out as the kernel would).  cgroup v2 when a
 * cgroup2 mount shows our cgroup and its cgroup.subtree_control lists
 * memory (or we are in the v2 root cgroup and its cgroup.controllers lists
 * memory: enable_v2); else v1 when a cgroup mount carries the memory
 * controller and our cgroup's memory.limit_in_bytes is writable.  -1 and
 * a reason in why otherwise.  The io controller is looked up the same way
 * ("io" in v2, else v1 blkio with a writable
 * blkio.throttle.read_bps_device) and filled in even when memory is not
 * found (io_version 0 when neither has it). */
int cgroup_find_base(const char *mountinfo, const char *self, const char *root,
		     struct cgroup_base *b, char *why, size_t whylen);
/* cgroup_find_base on /proc/self/mountinfo and /proc/self/cgroup, as root. */
int cgroup_base_detect(struct cgroup_base *b, char *why, size_t whylen);

/* 0 when a memory cgroup can be made here (root, and the memory controller
 * delegated in the unified hierarchy or mounted as v1); else -1 and
 * "--mem-limit needs root and the memory cgroup controller (<reason>)". */
int cgroup_available(char *err, size_t errlen);

/* 0 when the watched disk can be throttled here (root and the io / blkio
 * controller); else -1 and "--disk-limit needs root and the io (v2) or
 * blkio (v1) cgroup controller (<reason>)". */
int cgroup_io_available(char *err, size_t errlen);

/* Creates the cgroup "lrutop-<pid>-<tag>" beneath b->dir with a memory
 * limit of limit bytes (0: none) and, when io is not NULL, the disk
 * throttle (beneath b->io_dir where that is another directory); with a
 * limit and no io, an io cgroup without a throttle where b has the
 * controller (best effort: io_stat stays "" without).  At least
 * one of the two.  tag is a short label (characters other than
 * [A-Za-z0-9._-] become '_').  On failure nothing is left. */
int cgroup_create_in(struct cgroup *cg, const struct cgroup_base *b, uint64_t limit,
		     const struct cgroup_io *io, const char *tag, char *err, size_t errlen);
/* cgroup_create_in beneath cgroup_base_detect's base. */
int cgroup_create_run(struct cgroup *cg, uint64_t limit, const struct cgroup_io *io,
		      const char *tag, char *err, size_t errlen);
/* cgroup_create_in beneath cgroup_base_detect's base. */
int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen);
/* The second half of cgroup_create_in, for a directory the kernel has just
 * made: fills the paths, writes the limit (v2 memory.max, memory.swap.max
 * = 0; v1 memory.limit_in_bytes, memory.memsw.limit_in_bytes where
 * present) and keeps what the kernel rounded it to.  Marks the cgroup as
 * ours to remove.  Public so tests can run it on a directory laid out as
 * the kernel documents it. */
int cgroup_adopt(struct cgroup *cg, int version, const char *dir, uint64_t limit, char *err,
		 size_t errlen);
/* Writes the throttle into an existing cgroup directory: v2 io.max
 * "MAJ:MIN rbps=N wbps=N", v1 blkio.throttle.read_bps_device and
 * write_bps_device "MAJ:MIN N".  Public for the same reason. */
int cgroup_write_io(int version, const char *dir, const struct cgroup_io *io, char *err,
		    size_t errlen);

/* Removes stale run cgroups beneath b->dir (and b->io_dir where that is
 * another directory: a memory cgroup and its blkio namesake count as one
 * run's cgroup): "lrutop-<pid>-<tag>" directories whose pid is gone
 * (tasks still inside are killed, as in cgroup_remove).  Returns how many were removed; *pid_out (may be NULL)
 * is the pid of the first. */
int cgroup_sweep_stale(const struct cgroup_base *b, long *pid_out);

/* Removes the cgroup (and the io one beside it); tasks still inside are sent SIGKILL and awaited
 * (v2: cgroup.events "populated 0", v1: cgroup.procs empty, bounded).
 * No-op on a cgroup not created or already removed. */
int cgroup_remove(struct cgroup *cg, char *err, size_t errlen);

/* How many tasks the kernel's OOM killer has killed in the cgroup: the
 * "oom_kill" line of v2 memory.events or of v1 memory.oom_control (kernel
 * 4.13+).  0, or -1 where the file or the line is missing. */
int cgroup_oom_kills(const struct cgroup *cg, uint64_t *n);

#endif
