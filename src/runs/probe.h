/*
 * probe — the neighbours' latency (--probe): a small reader beside the copy
 * that stands for "everyone else" on the same disk.  A process forked by
 * the monitor (never by the worker), so it stays in lrutop's own cgroups,
 * never in a run's memory or blkio cgroup; it reads its own file, made in
 * the scratch directory under the recorded name "probe", 4 KiB at a random
 * offset every 10-50 ms at absolute CLOCK_MONOTONIC deadlines (a stall
 * delays the reads due meanwhile, it never drops them), and writes each
 * read's latency (uint64_t ns) to a pipe the monitor drains.
 *
 * Modes: cold — a buffered pread() after posix_fadvise(DONTNEED) of that
 * page, as ioping does by default: it allocates page cache and can enter
 * reclaim, which is what a copy does to its neighbours; direct — O_DIRECT
 * with an aligned buffer: the device's queue only.
 *
 * Invariants: the file is lrutop's (scratch_own), so scratch_remove takes
 * it on every exit path; a SIGKILLed monitor takes the probe with it
 * (PR_SET_PDEATHSIG, and getppid checked each read) and the next start's
 * scratch_reap_stale removes the file.  The probe checks once a second
 * that its cgroups are still the monitor's and stops (PROBE_MOVED) if not.
 * A zeroed-then-probe_init'ed struct is "no probe"; probe_stop is
 * idempotent.  Nothing here allocates after probe_start.
 */
#ifndef LRUTOP_PROBE_H
#define LRUTOP_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "runs/scratch.h"

enum probe_mode { PROBE_OFF, PROBE_COLD, PROBE_DIRECT };

/* The probe's file: big enough that random pages rarely repeat. */
#define PROBE_FILE_SIZE (32ull << 20)
#define PROBE_READ_SIZE 4096
#define PROBE_MIN_NS 10000000ull /* 10 ms */
#define PROBE_MAX_NS 50000000ull /* 50 ms */
/* The idle baseline: how long the session holds a drained system still
 * before each copy while the probe reads. */
#define PROBE_IDLE_NS (2ull * 1000000000ull)
/* In the pipe instead of a latency: the probe was moved into another
 * cgroup (it stops). */
#define PROBE_MOVED UINT64_MAX

struct probe {
	enum probe_mode mode;
	pid_t pid; /* -1: none */
	int fd;	   /* the pipe's read end (non-blocking), -1: none */
	int moved; /* it said PROBE_MOVED */
	char why[96]; /* why it stopped, once probe_read said -1 ("" unknown) */
};

/* "cold", "direct"; NULL for PROBE_OFF. */
const char *probe_mode_name(enum probe_mode m);
/* "cold" / "direct" -> the mode; -1 otherwise. */
int probe_mode_parse(const char *s);

void probe_init(struct probe *p);
/* Creates <scratch>/probe (O_EXCL, owned by lrutop), forks the probe which
 * fills it (PROBE_FILE_SIZE, fsynced, dropped from the cache) and then
 * reads.  -1 + err ("probe: ...") and nothing left behind. */
int probe_start(struct probe *p, struct scratch *sc, enum probe_mode mode, char *err,
		size_t errlen);
/* Reads up to max latencies (ns) that have arrived, without blocking.
 * Returns how many (0: none yet), -1 once the probe has gone (EOF). */
long probe_read(struct probe *p, uint64_t *out, size_t max);
/* Kills and reaps the probe, closes the pipe (the file stays for
 * scratch_remove).  Idempotent. */
void probe_stop(struct probe *p);

/* The probe's body, for tests: the loop on an open fd until the parent
 * (ppid) is gone or count reads are done (0: forever); each latency goes to
 * out_fd.  Returns 0, or -1 when a read failed. */
int probe_loop(int fd, enum probe_mode mode, uint64_t size, int out_fd, pid_t ppid,
	       unsigned long count, const char *cgroups);

#endif
