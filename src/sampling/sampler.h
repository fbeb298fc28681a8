/*
 * sampler — fills a struct sample from /proc (and a run's cgroup) once per
 * tick.  The only module that includes libproc2 (docs/style.md rule 2).
 *
 * Invariants: every libproc2 handle is created once and read with
 * select/reap (never _get, which caches for a whole wall-clock second); what
 * libproc2 4.0.x cannot see is read through kvfile, and no file is read
 * twice in a tick (/proc/vmstat's workingset counters come from the NUMA
 * nodes' vmstat files, libproc2 reads /proc/vmstat).  After sampler_new, a
 * read allocates nothing.  A file that cannot be read clears its
 * SAMPLE_HAVE_* bit and is described by sampler_missing(); it never fails
 * the whole sample.  Under MGLRU (machine.h) the generations come from
 * debugfs lru_gen (lru_gen.h); as root with debugfs not mounted, sampler_new
 * mounts it read-only and sampler_free unmounts it (a SIGKILLed lrutop
 * leaves it mounted: harmless, and the next start finds it there).
 */
#ifndef LRUTOP_SAMPLER_H
#define LRUTOP_SAMPLER_H

#include <stddef.h>
#include <sys/types.h>

#include "sampling/sample.h"

struct sampler;

/* disk: kernel name of the watched whole disk (e.g. "vda"), or NULL/"" for
 * none.  Fails only if /proc/meminfo cannot be opened at all. */
struct sampler *sampler_new(const char *disk, char *err, size_t errlen);
void sampler_free(struct sampler *s);

/* Takes one sample (t_ns, counters, have bits).  Returns 0. */
int sampler_read(struct sampler *s, struct sample *out);

/* Fills tab with every device in /proc/diskstats as the last sampler_read
 * saw it (one read of the file serves both): whole disks first, then
 * partitions, each group by name.  0 or -1. */
int sampler_read_disks(struct sampler *s, struct disktab *tab);

/* Starts reading a cgroup's memory.stat and usage file on every tick (v1 or
 * v2 key names are both understood); NULL paths stop it.  limit is in bytes.
 * Under MGLRU with debugfs the generations read are then the memcg's of
 * stat_path's directory (SAMPLE_HAVE_GEN_CG), else the system's. */
int sampler_set_cgroup(struct sampler *s, const char *stat_path, const char *usage_path,
		       uint64_t limit, char *err, size_t errlen);

/* A sentence naming the sources that could not be read ("" if none), e.g.
 * "no /proc/pressure (kernel without PSI)".  Borrowed. */
/* The bytes process pid has caused to be written (its page dirtying
 * included, /proc/PID/io write_bytes): how far a copy through a mapping
 * or one big write() has got, which its own counter cannot say until it
 * returns.  -1 when the process is gone or the kernel does not count. */
int sampler_task_io(struct sampler *s, pid_t pid, uint64_t *write_bytes);
/* When pid started (clock ticks since boot, /proc/PID/stat start_time), so
 * a reused pid is told apart; needs no sampler.  0 or -1 (no such pid). */
int sampler_pid_start(pid_t pid, unsigned long long *ticks);
const char *sampler_missing(const struct sampler *s);

/* 1 when sampler_new mounted debugfs (read-only) to read MGLRU's
 * generations; sampler_free unmounts it again unless disowned. */
int sampler_debugfs_mounted(const struct sampler *s);
/* 1 when MGLRU's generations are read from debugfs (mounted by us or
 * not). */
int sampler_debugfs_used(const struct sampler *s);
/* Someone else (cgroup_home_mark_mount's marker) unmounts it now:
 * sampler_free leaves it. */
void sampler_debugfs_disown(struct sampler *s);

#define SAMPLER_DEBUGFS "/sys/kernel/debug"

/* The watched disk's name ("" for none). */
const char *sampler_disk(const struct sampler *s);

#endif
