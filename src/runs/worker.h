/*
 * worker — the forked child that runs one copy strategy (or a --cmd) for a
 * run (docs/design.md §1, §3).
 *
 * Protocol, in the child's order:
 *  1. signals are blocked around fork; the child puts itself in its own
 *     process group (terminal signals go to the monitor only), resets every
 *     disposition to default, unblocks, and asks for SIGKILL if the monitor
 *     dies (PR_SET_PDEATHSIG);
 *  2. it joins the run's cgroup (spec->cgroup_procs) before opening any file;
 *  3. stdin, stdout and stderr become /dev/null — for a --cmd, stderr is
 *     a pipe whose last WORKER_ERR_TAIL bytes the monitor keeps, so a
 *     failed command's own words reach its message —, every other
 *     inherited fd but its pipe ends is closed; it never touches the
 *     terminal;
 *  4. PHASE_PREPARE: dst must not exist (the monitor removed the previous
 *     run's, which lrutop made; anything else there is a stranger's file
 *     and fails the run — the worker never removes it), sync(), then block
 *     until the monitor calls worker_go() (EOF on the go channel: the
 *     monitor went away, exit 1); then drop the caches (drop_caches as
 *     root, else fadvise DONTNEED on src and dst) and check dst again;
 *  5. strategy: t0, strategy->copy() reporting PHASE_COPY, PHASE_FLUSH,
 *     PHASE_DONE as events, elapsed written to the shared page, _exit(0),
 *     or _exit(1) with progress->error filled;
 *     --cmd: PHASE_COPY is sent and the command is forked and exec'd as the
 *     worker's child (execvp, no shell, same process group); the worker
 *     closes its event pipe at that fork, so EOF comes then as it would at
 *     an exec, and there are no flush/done events.  The worker waits for
 *     it: elapsed_s is the command's own time, the rusage its own; it dies
 *     of the command's signal or exits with its status; what the command
 *     left in its process group is killed;
 *  6. with spec->verify (after PHASE_DONE, or after a --cmd exited, not
 *     timed): PHASE_VERIFY (a --cmd's on the shared page only), the
 *     destination is dropped from the cache and compared with the source
 *     byte for byte; a difference fails the run.  A --cmd's missing or
 *     short/long {dst} fails it before the compare; spec->cmd_elsewhere
 *     (no {dst} in the command) fails one that wrote less than the source.
 * One struct worker_event is written per phase change (atomic: smaller
 * than PIPE_BUF). The child always leaves with _exit (no atexit handlers).
 */
#ifndef LRUTOP_WORKER_H
#define LRUTOP_WORKER_H

#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "runs/strategy.h"

#define WORKER_ERR_TAIL 512 /* bytes of a --cmd's stderr kept; 4 lines / 300 bytes shown */

struct worker_spec {
	const struct strategy *strategy; /* NULL when argv is used */
	char *const *argv; /* --cmd, exec'd as given; {src}/{dst} already substituted */
	const char *src;
	const char *dst;
	size_t bs;
	const char *cgroup_procs; /* cgroup.procs to write our pid into first, or NULL */
	const char *io_procs;	  /* and the v1 blkio cgroup's (--disk-limit), or NULL */
	int drop_caches;	  /* 1: as root write 3 to drop_caches; else fadvise DONTNEED */
	int verify;		  /* 1: compare dst with src after done (a --cmd: after it exits) */
	/* a --cmd that does not name {dst}: fail it when it wrote (wchar) less
	 * than the source's size — it cannot have copied it anywhere */
	int cmd_elsewhere;
	int prealloc;		  /* --prealloc, passed to the strategy (struct copy_job) */
};

struct worker_result {
	int ok;	    /* 1 when the exit status is 0 */
	int status; /* raw wait status */
	/* how it ended, as a shell says it: the exit status, 128 + N for
	 * signal N; a --cmd's is its command's (the worker mirrors a failing
	 * one, but fails a copy it then judges bad itself); -1 lost */
	int exit_code;
	struct rusage ru; /* from the copy's (or exec's) start: prepare is not counted */
	double elapsed_s;    /* copy+flush wall time, excluding prepare (see above for --cmd) */
	uint64_t bytes_done; /* progress->bytes_done when the worker exited */
	uint64_t t_done_ns;  /* CLOCK_MONOTONIC of PHASE_DONE, 0 if not reached (or --cmd) */
	int verified;	     /* -1 not verified, 0 dst differs, 1 dst equals src */
	char message[480];   /* "" on success, else "<name>: <reason>[: <stderr's last lines>]" */
	/* 1: a strategy created dst, and this is that file (st_dev, st_ino);
	 * 2: a --cmd was exec'd with no dst there, so what is there now is the
	 * command's; 0: lrutop made no dst.  The monitor may remove what this
	 * names (scratch_own), nothing else. */
	int dst_made;
	uint64_t dst_dev, dst_ino;
};

struct worker {
	pid_t pid;
	int event_fd; /* read end, O_NONBLOCK|O_CLOEXEC; EOF when the worker exits (or execs) */
	int go_fd;    /* monitor's end of the go channel; -1 after worker_go */
	struct progress *progress; /* shared page, readable while the worker runs */
	/* private */
	void *page;
	char name[48]; /* strategy name or basename of argv[0] */
	int is_cmd;
	int in_cgroup;
	int killed; /* worker_kill sent SIGKILL */
	int reaped;
	struct worker_result result; /* valid once reaped */
	int err_fd;		     /* --cmd: read end of its stderr, O_NONBLOCK; -1 none/EOF */
	char err_tail[WORKER_ERR_TAIL];	/* the last bytes it wrote there */
	size_t err_len;
};

/* Drains the --cmd's stderr pipe into err_tail (call when err_fd is
 * readable).  -1 once it reached EOF (err_fd is then closed and -1). */
int worker_read_stderr(struct worker *w);

struct worker_event {
	int phase;     /* enum phase */
	uint64_t t_ns; /* CLOCK_MONOTONIC, taken by the worker */
};

/* Forks the worker; it stops in PHASE_PREPARE until worker_go(). On -1
 * nothing is left running or open. */
int worker_start(const struct worker_spec *spec, struct worker *w, char *err, size_t errlen);

/* 1: *ev filled; 0: nothing to read now; -1: EOF (worker exited or exec'd). */
int worker_read_event(struct worker *w, struct worker_event *ev);

/* Lets the worker leave PHASE_PREPARE and start copying. Call once the
 * system's Dirty+Writeback have drained. A dead worker is not an error
 * here: worker_reap reports it. */
void worker_go(struct worker *w);

/* wait4() (WNOHANG unless block): 1 reaped (*res filled, may be NULL; later
 * calls return the same result), 0 still running, -1 not a started worker. */
int worker_reap(struct worker *w, int block, struct worker_result *res);

/* SIGKILL to the worker's process group, then a blocking reap. */
void worker_kill(struct worker *w);

/* Kills and reaps a worker still running, closes the fds, unmaps the page.
 * Accepts a zeroed struct and may be called twice. */
void worker_done(struct worker *w);

#endif
