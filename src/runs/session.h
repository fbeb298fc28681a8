/*
 * session — the queue of copy runs and the protocol of one run (docs/design.md
 * §3): prepare (the worker syncs; the monitor waits until Dirty+Writeback
 * have drained, then lets it go), copy, flush, done, verify; events with
 * timestamps; one result per run computed from the worker's rusage and the
 * samples taken during the run.
 *
 * Invariants: the session owns everything a run creates — the private
 * scratch directory, the memory cgroup, the worker — and session_done
 * removes all of it on every exit path (normal end, q, signals, a dying
 * worker).  It never touches a user's --src except to read it.  Nothing here
 * blocks for long: the copy, the cache drop and the verify run in the
 * worker process; the monitor only reacts to its events.
 *
 * Implemented by session.c (the lifecycle), session_cmd.c (the --cmd
 * entries), session_queue.c (the queue) and session_input.c (the input
 * file); session_impl.h is what they share.
 */
#ifndef LRUTOP_SESSION_H
#define LRUTOP_SESSION_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/burst.h"
#include "runs/cgroup.h"
#include "runs/run_config.h"
#include "model/runlog.h"
#include "sampling/sample.h"
#include "runs/scratch.h"
#include "model/series.h"
#include "runs/strategy.h"
#include "runs/worker.h"

/* The monitor as the session sees it: what the session asks of whatever
 * takes the samples (the live source, source_live.c) — which cgroup to
 * watch, and how far a worker has written.  The session never sees the
 * sampler.  A NULL function is a no-op (watch_cgroup succeeds,
 * task_write_bytes says "unknown").  Not the probe (--probe, probe.h): a
 * neighbour process whose latencies the live source reads. */
struct session_monitor {
	void *ctx;
	/* Read this cgroup's memory.stat and usage from the next sample on
	 * (limit in bytes); NULL paths stop it.  0 or -1 + err. */
	int (*watch_cgroup)(void *ctx, const char *stat_path, const char *usage_path,
			    uint64_t limit, char *err, size_t errlen);
	/* /proc/PID/io write_bytes of pid; -1 when gone or not counted. */
	int (*task_write_bytes)(void *ctx, pid_t pid, uint64_t *write_bytes);
};

#define SESSION_MAX_RUNS RUNLOG_MAX_RUNS
#define SESSION_MAX_EVENTS RUNLOG_MAX_EVENTS
#define SESSION_MAX_STRATEGIES RUNLOG_MAX_STRATEGIES
#define SESSION_MAX_CMDS RUN_CONFIG_MAX_CMDS
#define SESSION_LABEL_MAX 24 /* bytes of a run's label, before a "#2" */

struct queued {
	const struct strategy *strategy; /* NULL: the session's cmds[cmd] */
	int cmd;			 /* -1 for a strategy */
	int repeat;			 /* 1-based */
	int value;			 /* --sweep: index into cfg.sweep.v, -1 none */
};

/* One --cmd of the queue.  Labels are unique within the session and never
 * equal a strategy's name (the picker may queue any strategy later), so the
 * statistics can group runs by label. */
struct session_cmd {
	char label[32];
	const char *line; /* the --cmd text */
	char **argv;	  /* split into words, {src}/{dst} substituted (once the source exists) */
};

enum session_state {
	SESSION_IDLE,	  /* nothing queued or between runs */
	SESSION_MAKING_INPUT,	  /* a child is writing the scratch input */
	SESSION_DRAIN,	  /* worker synced; waiting for Dirty+Writeback to drain */
	SESSION_RUNNING,  /* copying, flushing or verifying */
	SESSION_FINISHED, /* the queue is done */
};

struct session {
	struct run_config cfg; /* session_init's copy */
	struct cgroup_home *cgroups; /* where run cgroups go (the owner's, shared) */
	struct session_monitor monitor; /* set by the owner after session_init */
	struct scratch scratch;
	struct cgroup cg;
	char src[4096], dst[4096];
	uint64_t src_size;
	struct session_cmd cmds[SESSION_MAX_CMDS];
	size_t ncmds;

	struct queued queue[SESSION_MAX_RUNS];
	size_t queue_len, next; /* next: the queue entry the next run takes */
	/* --sweep-until: the entries of the command line's queue, each
	 * bisected over cfg.sweep's values a step at a time */
	struct queued entries[SESSION_MAX_STRATEGIES + SESSION_MAX_CMDS];
	size_t nentries;
	int stopped; /* the queue was stopped (cancelled, failed input): no next step */
	uint64_t mem_limit;	/* of every run's cgroup, 0 = none */
	struct cgroup_io io;	/* --disk-limit: the watched disk's throttle, bps 0 = none */
	char io_label[24];	/* "@30M" added to every run's label, "" without one */

	/* the scratch input, written by a child so the loop stays live */
	int have_input;
	pid_t input_pid;
	_Atomic uint64_t *input_done; /* shared page: bytes written so far */
	char error[320];	       /* why the queue stopped, "" if it did not */

	enum session_state state;
	struct worker worker;
	int worker_live;
	int worker_eof; /* the event pipe reached EOF: wait for SIGCHLD */
	uint64_t drain_start_ns;
	/* --probe: hold a drained system still this long before the copy
	 * (the probe's idle baseline); quiet_since_ns: drained since */
	uint64_t quiet_hold_ns, quiet_since_ns;
	int phase; /* current run's phase */

	struct runlog *log; /* the model's: results, events, baseline are appended there */
	int failed; /* a run failed: exit status 1 */

	/* the no-progress watchdog (--stall-timeout) */
	size_t stall_run;	  /* nresults when the mark was taken */
	uint64_t stall_mark;	  /* session_progress_mark then */
	uint64_t stall_since_ns; /* when the mark last changed */
	uint64_t stall_bytes;	  /* copied then (the copy phase's measure) */
	/* How far the copy has got: the worker's own count, or what it has
	 * written (its write_bytes since worker_go) where that is further —
	 * an mmap copy's one memcpy and mw_*'s one write() report nothing
	 * until they return. */
	uint64_t wb_base; /* write_bytes at worker_go */
	int wb_ok;	  /* wb_base was read */
	uint64_t copied;  /* updated each tick while running */
};

/* Removes what a SIGKILLed lrutop left: stale scratch directories under
 * --dir and run cgroups whose pid is gone (scratch_reap_stale,
 * cgroup_home_reap: its systemd scope too, and controllers it enabled are
 * turned off again).  Returns how many things were removed and, when any,
 * a sentence for the user in line. */
int session_reap_stale(const char *dir, struct cgroup_home *cgroups, char *line, size_t len);
/* log: where results, events and the baseline go (the model's run log,
 * which outlives the session); cgroups: where run cgroups are made (shared
 * by every session of the process, see cgroup.h); cfg is copied.  Checks
 * the configuration (-s, every --cmd and its program, --name, --baseline,
 * --src, --mem-limit) and then sets up the scratch directory, the scratch
 * source size and checks the space needed.  -1 + err: a usage/environment
 * error (exit 2), and nothing is left behind. */
int session_init(struct session *s, const struct run_config *cfg, struct runlog *log,
		 struct cgroup_home *cgroups, char *err, size_t errlen);
/* Runs queued or running that have not finished (the current one counts). */
size_t session_runs_left(const struct session *s);
/* Appends runs of strategies: each of list[0..n) `repeat` times,
 * interleaved (A B C A B C ...) so a drifting machine hits all alike.  -1 +
 * err when the queue would overflow. */
int session_enqueue(struct session *s, const struct strategy *const *list, size_t n, int repeat,
		    char *err, size_t errlen);
/* Drops every queued run that has not started and cancels the current one. */
void session_cancel_queue(struct session *s, const struct series *ser);
/* Bytes of the scratch input written so far (while SESSION_MAKING_INPUT). */
uint64_t session_input_progress(const struct session *s);
/* Ends the session early (quit, a signal): kills the current run and marks
 * it cancelled with `why`, drops the rest of the queue. */
void session_stop(struct session *s, const char *why);
/* Removes the worker, the cgroup and the scratch directory.  Idempotent. */
void session_done(struct session *s);

/* Drives the state machine after each new sample: starts the next run,
 * lets a prepared worker go once Dirty+Writeback have drained.  The
 * watched cgroup is switched through s->monitor. */
void session_tick(struct session *s, const struct series *ser);
/* The worker's event fd, or -1. */
int session_fd(const struct session *s);
/* Reads pending worker events and reaps a finished worker (call on the
 * event fd becoming readable and on SIGCHLD).  Returns 1 when a run ended. */
int session_poll(struct session *s, const struct series *ser);
/* Kills the current run and marks it cancelled; the queue moves on. */
void session_cancel(struct session *s, const struct series *ser);

/* The current run's result slot (NULL while idle). */
const struct run_result *session_current(const struct session *s);
/* Bytes copied so far by the current run. */
uint64_t session_progress(const struct session *s);
/* The current run's source and destination paths (borrowed; the
 * destination may not exist yet): 1 from its prepare phase to its end, 0
 * between runs, so a monitor holds no descriptor of a file the next run's
 * prepare is about to unlink. */
int session_run_files(const struct session *s, const char **src, const char **dst);
/* 1 while a drained system is held still before a copy (quiet_hold_ns). */
int session_quiet(const struct session *s);
/* The current run's own I/O counters file (cgroup.h io_stat, borrowed)
 * and its cgroup version: 1 while its cgroup is there, else 0. */
int session_run_cgio(const struct session *s, const char **path, int *version);
/* Annotates a sample with the current run, phase and strategy index. */
void session_annotate(const struct session *s, struct sample *smp);
/* The watchdog's idea of progress: a value that changes when the run
 * moved.  copy: bytes_done; flush and verify, where bytes_done stands still
 * by design: also the watched disk's sectors and busy time and
 * Dirty+Writeback (from the last sample, may be NULL), so a slow fsync is
 * not taken for a stuck copy.  A strategy run whose mark stays the same for
 * --stall-timeout seconds fails ("no progress for N s"), its worker killed
 * and its cgroup removed; a --cmd is not watched (its progress is unknown). */
uint64_t session_progress_mark(int phase, uint64_t bytes_done, const struct sample *last);



#endif
