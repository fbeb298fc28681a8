/*
 * source — where the model's data comes from.  A producer yields the same
 * items whatever it is: samples (raw counters, annotated with the run and
 * phase), the per-device table of each sample (so the iostat view works on
 * a recording too), run events and finished runs (appended to the model's
 * run log, then announced), and notes for the status line.  The live
 * producer (source_live.c) owns the sampler, the tick and the session; a
 * recording's reader is the second implementation of the same ops.  The
 * loop, the views and the batch output consume only the source (ncdu's
 * dir.h producer/consumer split).
 *
 * Invariants: a source pushes into its sink, it never reaches into the
 * model beyond the run log it was given; the sink's callbacks run inside
 * source_step / source_poll / source_cancel / source_stop, in time order.
 * Nothing here allocates after the source is made.
 */
#ifndef LRUTOP_SOURCE_H
#define LRUTOP_SOURCE_H

#include <stddef.h>

#include "model/runlog.h"
#include "sampling/sample.h"

struct residency_map;

/* The consumer: the app (history, --csv, --results, status line) and,
 * later, a recording writer tee'd in front of it.  NULL callbacks are
 * skipped. */
struct source_sink {
	void *ctx;
	/* A sample and the per-device table read with it (NULL when the
	 * table could not be read): the shape recorder_sample() writes. */
	void (*sample)(void *ctx, const struct sample *s, const struct disktab *t);
	/* Where in the run's files the cache is (residency.h), right after
	 * the sample it goes with (live: every tick, n = 0 for a file not
	 * read; a replay: as recorded). */
	void (*map)(void *ctx, const struct residency_map *m);
	/* an event / a finished run, already in the run log */
	void (*event)(void *ctx, const struct run_event *e);
	void (*result)(void *ctx, const struct run_result *r);
	void (*note)(void *ctx, const char *msg);
	/* A replay seeking backwards: forget every sample, table, event and
	 * result (the run log is already empty); they come again from the
	 * start of the recording. */
	void (*reset)(void *ctx);
	/* A replay's first read (source_replay_new): the share of the file
	 * read so far (0..1) and the samples in it, about every 0.2 s while it
	 * lasts (the caller knows when it has ended: source_replay_new
	 * returned). */
	void (*loading)(void *ctx, double done, size_t samples);
};

/* A tee: every item goes to `next`; `before` sees it first and `after`
 * once next has it (a writer that records what arrives; a writer that
 * reads what next made of it), each with its own ctx, NULL callbacks
 * skipped.  The one place that forwards each callback, so a callback
 * added to source_sink reaches the model through every tee (the
 * recording and the metrics file each forwarded by hand, and the page
 * cache map got lost that way).  t must outlive *out. */
struct sink_tee {
	struct source_sink before, next, after;
};
void sink_tee_init(struct sink_tee *t, const struct source_sink *before,
		   const struct source_sink *next, const struct source_sink *after,
		   struct source_sink *out);

struct source;

struct source_ops {
	const char *name; /* "live", "replay" */
	/* What the loop polls for the next sample (live: the tick timerfd;
	 * a replay: its own timerfd), and the runs' fd (the worker's pipes,
	 * -1 when none). */
	int (*fd)(const struct source *src);
	int (*runs_fd)(const struct source *src);
	/* --probe (live): the probe's pipe, -1 when none; readable: the
	 * latencies that arrived count for the run and phase of now. */
	int (*probe_fd)(const struct source *src);
	void (*probe_drain)(struct source *src);
	/* fd() was readable: how many samples are due (0: a spurious wakeup). */
	unsigned long (*ready)(struct source *src);
	/* Produces the next sample into the sink (and drives the runs).
	 * 0, or -1 when the source has nothing more (the end of a recording). */
	int (*step)(struct source *src);
	/* runs_fd() readable or SIGCHLD: events and finished runs.  1 when a
	 * run ended. */
	int (*poll)(struct source *src);
	/* 1 while runs are queued or running. */
	int (*pending)(const struct source *src);
	/* Control, NULL where it means nothing.  live: interval, cancel,
	 * stop; a replay later: interval (its pace), seek, speed. */
	void (*set_interval)(struct source *src, double interval);
	/* Cancels the current run (queue = 0) or the whole queue.  -1 when
	 * there is nothing to cancel. */
	int (*cancel)(struct source *src, int queue);
	/* The loop is over: the current run is stopped with why, the rest
	 * dropped.  Returns how many runs did not get done. */
	size_t (*stop)(struct source *src, const char *why);
	/* Fills in what the runs are doing now (RUNS_NONE when none). */
	void (*progress)(const struct source *src, struct run_progress *out);
	void (*free)(struct source *src);
};

struct source {
	const struct source_ops *ops;
	struct source_sink sink;
	struct runlog *log; /* the model's: what the runs produced goes here */
};

/* Convenience wrappers: a NULL op is a no-op (fd -1, nothing pending). */
int source_fd(const struct source *src);
int source_runs_fd(const struct source *src);
int source_probe_fd(const struct source *src);
void source_probe_drain(struct source *src);
unsigned long source_ready(struct source *src);
int source_step(struct source *src);
int source_poll(struct source *src);
int source_pending(const struct source *src);
void source_set_interval(struct source *src, double interval);
int source_cancel(struct source *src, int queue);
size_t source_stop(struct source *src, const char *why);
void source_progress(const struct source *src, struct run_progress *out);
void source_free(struct source *src);

/* The live source (source_live.c): the sampler on disk ("" for none), a
 * tick every interval seconds, and the runs of a session once one is
 * attached.  series: the model's history, which the session reads (drain,
 * per-run figures).  NULL + err. */
struct session;
struct series;
struct source *source_live_new(const char *disk, double interval, const struct series *series,
			       struct runlog *log, const struct source_sink *sink, char *err,
			       size_t errlen);
/* The sources the sampler could not read ("" if none).  Borrowed. */
const char *source_live_missing(const struct source *src);
struct sampler;
/* The ranges of the live source's map of the run's files (the page-cache
 * strip's width; clamped by residency.h); a no-op for other sources. */
void source_live_set_map_ranges(struct source *src, int n);
/* The live source's sampler (borrowed, for as long as src lives). */
struct sampler *source_live_sampler(struct source *src);
/* Hands a session (session_init done, on the same run log) to the live
 * source, which owns it from now on: it is driven each tick, its probe
 * reaches the sampler, source_free ends it. */
void source_live_attach(struct source *src, struct session *s);
/* --probe (probe.h): starts the probe beside the attached session's runs
 * (mode: enum probe_mode, 0 = none: nothing to do); the source stops it.
 * -1 + err. */
int source_live_probe(struct source *src, int mode, char *err, size_t errlen);
/* The attached session, NULL when none (the front ends' progress line and
 * the picker read it). */
struct session *source_live_session(struct source *src);

/* The replay source (source_replay.c): a recording (record.h) read back
 * into the sink item by item, in the order it was written — a sample with
 * its disk table, then the events and results that followed it — appended
 * to log as the session once did.  The whole file is read once here (every
 * line checked, the sample times, events and results indexed), so a bad
 * recording fails before anything is shown.  speed 0: no pacing (every
 * step is due at once; batch); otherwise the recorded t_ns deltas / speed
 * on a timerfd.  ap reads the command line of a recording without the
 * runs' configuration (before minor 4: record.h, record_config_resolve;
 * the app's app_argv_parser), NULL: such a recording's is not known.
 * NULL + "FILE:LINE: reason" (or "FILE: reason"). */
struct record_argv_parser;
struct source *source_replay_new(const char *path, double speed, struct runlog *log,
				 const struct source_sink *sink,
				 const struct record_argv_parser *ap, char *err, size_t errlen);
/* 1 when src is a replay. */
int source_is_replay(const struct source *src);
/* The recording's header (borrowed from the source: valid until
 * source_free); see record.h. */
struct record_header;
const struct record_header *source_replay_header(const struct source *src);
/* The runs' configuration: the header's, or what ap made of an old
 * recording's command line (have 0: not known).  Borrowed as the header. */
struct record_config;
const struct record_config *source_replay_config(const struct source *src);
/* A cut last line (a crash while recording): the sentence, or NULL. */
const char *source_replay_warning(const struct source *src);

struct replay_pos {
	size_t pos, n;	      /* samples delivered / in the recording */
	double t_s, len_s;    /* position and length, seconds from the first sample */
	double speed;	      /* 0: as fast as possible */
	int paused, at_end;
	/* the last jump's samples delivered from the spool (the rest it read
	 * from the recording); 0 without a spool */
	size_t spooled;
};
/* From here on the playback delivers only samples (no disk table, no
 * map) with their events and results, read from the first read's packed
 * spool instead of the recording's JSON: what an export that draws the
 * samples needs, at a small part of a JSON line's cost.  Before the first
 * step only, and not with seeks; -1 (nothing changes) without a spool. */
int source_replay_samples_only(struct source *src);
void source_replay_pos(const struct source *src, struct replay_pos *out);
/* Seeks so that sample index (0-based, clamped) is the newest delivered:
 * forwards by delivering the items between, backwards by a reset of the
 * sink and the run log and a new read from the start. */
void source_replay_seek(struct source *src, size_t index);
/* The index of the first sample at or after t_ns seconds from the start. */
size_t source_replay_index_at(const struct source *src, double t_s);
/* The sample index of the previous (dir < 0) / next run event strictly
 * before / after the current position; -1 when none. */
long source_replay_event_index(const struct source *src, int dir);
/* The name run i has in the run log once the recording is read to its end
 * (its result's, "run N" for a run with none), NULL for a run the
 * recording does not know.  Borrowed until the next call. */
const char *source_replay_run_name(struct source *src, size_t i);
/* The sink keeps only the newest n samples (the TUI's history; 0, the
 * default: all it is given).  A seek then delivers only the n samples up to
 * the one asked for, read from the offset index, instead of every item
 * from the start. */
void source_replay_set_window(struct source *src, size_t n);
void source_replay_set_speed(struct source *src, double speed);
void source_replay_pause(struct source *src, int paused);

/* The compare source (source_compare.c, `--compare A B [C...]` in the
 * TUI): every recording is read (rec_load_read) and checked first, then the
 * first step delivers them all into one model, one after the other on a
 * common clock (a gap of ten samples between two), each run's label
 * prefixed by its recording's letter ("A rw_cp").  ap as for
 * source_replay_new.  NULL + err as --compare in batch says it. */
struct compare;
struct source *source_compare_new(const char *const *paths, int n, struct runlog *log,
				  const struct source_sink *sink,
				  const struct record_argv_parser *ap, char *err, size_t errlen);
int source_is_compare(const struct source *src);
/* The comparison of the recordings (unprefixed labels); borrowed. */
const struct compare *source_compare_result(const struct source *src);
/* How many samples the recordings hold together (the history's size). */
size_t source_compare_samples(const struct source *src);
/* The longest sampling interval of the recordings, 0 when none is known. */
double source_compare_interval(const struct source *src);
/* The recordings' warnings (a cut last line), NULL when none. */
const char *source_compare_warning(const struct source *src);

/* The follow source (source_follow.c, --follow FILE|-): a recording read
 * as it is written — a growing regular file (inotify wakes it), a pipe or
 * standard input; plain or gzip — delivered item by item as it comes, in
 * the writer's time.  fd: the input already open (standard input handed
 * over), -1 to open path.  per_step: samples one step delivers at most (1
 * for batch: a line each).  Waits for the header (a signal ends the
 * wait); ap as for source_replay_new.  NULL + err: no such file, a
 * directory or a terminal, a header that is none ("FILE:1: ..."), the end
 * before it. */
struct source *source_follow_new(const char *path, int fd, int per_step, struct runlog *log,
				 const struct source_sink *sink,
				 const struct record_argv_parser *ap, char *err, size_t errlen);
int source_is_follow(const struct source *src);
/* The followed recording's header and runs' configuration (borrowed until
 * source_free). */
const struct record_header *source_follow_header(const struct source *src);
const struct record_config *source_follow_config(const struct source *src);
enum follow_end {
	FOLLOW_ON,    /* still following */
	FOLLOW_ENDED, /* the writer closed the file or the stream: a clean end */
	FOLLOW_CUT,   /* ... in the middle of a line: the reader's warning */
	FOLLOW_BAD,   /* a bad line (FILE:LINE: reason) or a read error */
};
struct follow_pos {
	double behind_s;  /* now less the writer's clock at its newest sample */
	int behind_known; /* a sample came and the header's start_wall is one */
	long idle_s;	  /* whole seconds without a byte, once it counts as a stall */
	int stalled;
	enum follow_end end; /* once the loop was told (step -1) */
	const char *note;    /* the end's sentence (its warning, its error), NULL on */
};
/* Where the follow is, by the clocks of now. */
void source_follow_pos(const struct source *src, struct follow_pos *out);

/* What a recording's session set up, as the replay's first read gives it
 * to log from the runs' configuration c (record_config_resolve): the
 * baseline (c's, else the first run's label, as the session chose it), the
 * runs' memory limit (c's, else cg_limit: the first run cgroup limit a
 * sample saw, 0 none) and their disk limit (c's, else runlog_common_limit
 * of res: the limit every run's label says).  For a reader of the
 * recording that does not replay it (--export-openmetrics). */
void source_replay_setup(struct runlog *log, const struct record_config *c,
			 const struct run_result *res, size_t nres, uint64_t cg_limit);

#endif
