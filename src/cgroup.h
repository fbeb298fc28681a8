/*
 * cgroup — a memory cgroup for one run (--mem-limit, DESIGN.md §3, §8).
 *
 * The cgroup is made beneath lrutop's own cgroup (from /proc/self/cgroup),
 * named "lrutop-<pid>-<tag>": cgroup v2 where the unified hierarchy
 * delegates the memory controller to our cgroup's children (memory.max,
 * memory.swap.max = 0), else cgroup v1's memory hierarchy
 * (memory.limit_in_bytes, memory.memsw.limit_in_bytes where present).
 *
 * Invariants: only a cgroup this module created is ever removed; removal
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
	uint64_t limit;	   /* bytes */
	int created;	   /* 1 while the directory is ours to remove */
};

/* 0 when a memory cgroup can be made here (root, and the memory controller
 * delegated in the unified hierarchy or mounted as v1); else -1 and
 * "--mem-limit needs root and the memory cgroup controller (<reason>)". */
int cgroup_available(char *err, size_t errlen);

/* Creates the cgroup with a memory limit of limit bytes. tag is a short
 * label (characters other than [A-Za-z0-9._-] become '_'). */
int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen);

/* Removes the cgroup; tasks still inside are sent SIGKILL and awaited
 * (v2: cgroup.events "populated 0", v1: cgroup.procs empty, bounded).
 * No-op on a cgroup not created or already removed. */
int cgroup_remove(struct cgroup *cg, char *err, size_t errlen);

/* How many tasks the kernel's OOM killer has killed in the cgroup: the
 * "oom_kill" line of v2 memory.events or of v1 memory.oom_control (kernel
 * 4.13+).  0, or -1 where the file or the line is missing. */
int cgroup_oom_kills(const struct cgroup *cg, uint64_t *n);

#endif
