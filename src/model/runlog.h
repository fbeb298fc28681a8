/*
 * runlog — what the runs produced, apart from the state machine that runs
 * them: one result per run, the timestamped phase events, the baseline the
 * ratios are relative to.  The model owns it; the session (live) or a
 * recording's reader (replay) appends to it; the views, the statistics, the
 * batch lines and the --results writer only read it.
 *
 * Invariants: results and events are appended in time order and never
 * removed; a result is complete once `finished` is set (the current run's
 * slot is the last one, unfinished).  Plain arrays of fixed size: nothing
 * allocates after runlog_new.
 */
#ifndef LRUTOP_RUNLOG_H
#define LRUTOP_RUNLOG_H

#include <stddef.h>
#include <stdint.h>

#include "model/histogram.h"

#define RUNLOG_MAX_RUNS 1024
#define RUNLOG_MAX_EVENTS 8192
#define RUNLOG_MAX_STRATEGIES 64 /* distinct labels the statistics group runs by */

struct run_event {
	uint64_t t_ns;
	int16_t run;  /* index into results */
	int8_t phase; /* enum phase; PHASE_IDLE marks the end of the run */
};

#define RUN_UNVERIFIABLE (-2)

struct run_result {
	char strategy[32]; /* the strategy's name (runs/strategy.h), "" for a --cmd */
	int cmd;			 /* index into session cmds, -1 for a strategy */
	char name[32];			 /* the label: strategy name or --cmd's label */
	int repeat;    /* 1-based */
	int finished;  /* the worker has been reaped */
	int ok, cancelled;
	/* how its worker ended, as a shell's $? (hyperfine's exit_codes): a
	 * --cmd's command's exit status, a strategy's worker's, 128 + N for
	 * signal N; -1 unknown (no worker ran, or its status was lost) */
	int exit_code;
	double elapsed_s, user_s, sys_s, cpu_pct;
	long majflt, minflt, inblock, oublock;
	uint64_t bytes;
	double mbs, read_cv, write_cv;
	uint64_t peak_active_file_kb, pgdeactivate, refault_file;
	int bursts;
	double read_at_burst; /* rd@burst (burst.h), NAN unknown */
	double cv_bucket_s;   /* rdCV/wrCV/rd@b's mean bucket, s; 0 none (burst.h) */
	int verified;	      /* 1 yes, 0 no (mismatch or failed), -1 not checked,
			       * RUN_UNVERIFIABLE a --cmd without {dst} (it writes elsewhere) */
	/* page-cache residency over the run (pagecache_run_figures), pages
	 * but the peak; res_have 0: no sample of the run had it (all are 0) */
	int res_have;
	uint64_t res_dst_dirty_peak_kb; /* the destination's most dirty pages, KiB */
	uint64_t res_src_cached_end, res_src_pages_end; /* the source at the run's last sample */
	uint64_t res_recent_end; /* recently evicted pages of both files at the last sample */
	char message[480];
	uint64_t t_start_ns, t_copy_ns, t_end_ns;
	uint64_t t_flush_ns; /* the flush phase began (the copy read all), 0 none */
	struct probe_figures probe; /* --probe: its reads during the run, n 0 = none */
	/* --sweep: the parameter this run swept (enum sweep_param, 0 none)
	 * and its value (bytes, bytes/s); the label ends in sweep_suffix's */
	int sweep_param;
	uint64_t sweep_value;
};

struct runlog {
	struct run_result results[RUNLOG_MAX_RUNS];
	size_t nresults;
	struct run_event events[RUNLOG_MAX_EVENTS];
	size_t nevents;
	char baseline[32];   /* label of the entry ratios and ±% are relative to */
	uint64_t mem_limit;  /* of the runs' cgroups, bytes, 0 = none (the Runs view's scale) */
	uint64_t disk_limit; /* --disk-limit, bytes/s of the watched disk, 0 = none */
};

/* What the runs are doing now (the progress line, the picker): a snapshot
 * the source refreshes after every step, so the views never read the
 * session's internals and a replay can show its own. */
enum runs_state {
	RUNS_NONE,	/* no runs were asked for */
	RUNS_IDLE,	/* between runs */
	RUNS_MAKING_INPUT,	/* the scratch input is being written */
	RUNS_DRAIN,	/* waiting for Dirty+Writeback to drain */
	RUNS_RUNNING,	/* copying, flushing or verifying */
	RUNS_FINISHED,	/* the queue is done */
};
struct run_progress {
	enum runs_state state;
	int phase;		 /* enum phase of the current run */
	long current;		 /* the current run's index in the run log, -1 */
	size_t queue_next, queue_len; /* queue position: runs started / queued */
	uint64_t done, total;	 /* bytes copied / to copy (RUNS_MAKING_INPUT: written / size) */
	int have_input;	 /* the scratch input exists (its size: src_size) */
	uint64_t src_size;
	int failed;		 /* a run failed */
	char error[320];	 /* why the queue stopped, "" if it did not */
};

/* A zeroed run log (xcalloc: it never fails). */
struct runlog *runlog_new(void);
void runlog_free(struct runlog *l);
/* Appends an event of the newest run (dropped when full or before the
 * first run). */
void runlog_add_event(struct runlog *l, uint64_t t_ns, int phase);
/* The current run's slot: the newest result while it is not finished. */
struct run_result *runlog_current(struct runlog *l);
/* "@32M" when every one of r[0..n) has a label ending in the same
 * "@..." suffix (--disk-limit's: then a fact of the whole picture, said
 * once), else NULL; it points into one of the labels. */
const char *runlog_common_limit(const struct run_result *r, size_t n);
/* The length of r's label without that suffix (lim from
 * runlog_common_limit, may be NULL). */
int runlog_label_len(const struct run_result *r, const char *lim);

#endif
