/*
 * app — one lrutop session: the options, the model (model.h) and the UI state (ui.h), the
 * source that feeds it (source.h: live now, a recording later) and the
 * output files.  tui.c and batch.c are the two front ends over it.
 *
 * Invariants: the source's sink (app.c's on_* callbacks) is the only writer
 * of history and the device table; the session is reached only through the
 * source.  Nothing here prints or exits.
 */
#ifndef LRUTOP_APP_H
#define LRUTOP_APP_H

#include <stdio.h>

#include "base/outfile.h"
#include "base/sigpipe.h"
#include "output/metrics_file.h"
#include "model/model.h"
#include "screen/ui.h"
#include "app/actions.h"
#include "app/options.h"
#include "output/output.h"
#include "source/record_sink.h"
#include "runs/session.h"
#include "source/source.h"

struct app {
	const struct options *opt;
	struct cgroup_home *cgroups; /* where run cgroups go: main's, for every session */
	struct model model; /* what is known: history, devices, run log */
	struct ui ui;	   /* what the user looks at */
	/* the key tables the help lists in the current mode (keys_help_refresh) */
	const struct keymap *help_maps[KEYS_LAYERS_MAX];
	int help_nmaps;
	struct source *src;	  /* live, or a replay (--replay) */
	struct record_sink rec;	  /* the tee in front of the sink: --record, R */
	struct source_sink tee;	  /* what a source pushes into (rec, metrics, the app) */
	struct metrics_file metrics; /* --metrics-file: the second tee */
	struct talk *talk;	  /* --talk: the step runner (talk.h), NULL else */
	struct outfile csv;	  /* --csv */
	struct outfile results;	  /* --results */
	char out_err[400];	  /* the first write error of an output file; ends the loop */
	int stdout_errno;	  /* errno of the first failed write to stdout, 0 if none */
	struct session *session;  /* NULL without -s/--cmd/--demo; the live source owns it,
				   * only the picker (app_start_picked) reaches it */
	struct runlog *log;	  /* the model's run log, which the session appends to */
	size_t stats_key;	  /* the run log's state model.stats were computed for */
	int error_reported;	  /* the session's error reached the status line */
	struct options pick_opt;  /* options of a session the picker started */
	uint64_t t0_ns; /* first sample: t = 0 in CSV and batch lines */
	int quit;
	int signal;	   /* INT, TERM or HUP that ended the loop, 0 if none */
	int count_reached; /* the loop ended because -n samples were taken */
	size_t runs_not_done; /* runs app_stop_runs cut short or dropped */
	int stopped;
	int init_failed; /* app_init failed after creating outputs: app_done removes them */
	int opening;	 /* --replay's first read before the TUI: its progress on stderr
			  * (1: may be said, 2: said, to be taken away) */
	int exit_code;
	/* the session of the runs the live source makes (a talk's live stage:
	 * its own): when it started, as a recording's start_wall (its label
	 * in --metrics-file; a recording of it starts its clocks there) */
	char session_start[40];
	uint64_t session_start_ns; /* its CLOCK_MONOTONIC */
};

/* Resolves the disk (-d or the one holding --dir), opens the sampler, the
 * session (every check of the runs) and the tick, and only then creates
 * --csv and --results.  -1 + err (a usage or environment error: exit 2);
 * app_done then removes any output file this made. */
int app_init(struct app *a, const struct options *opt, struct cgroup_home *cgroups, char *err,
	     size_t errlen);
/* Flushes and closes --csv and --results: -1 + err on a write error. */
int app_close_outputs(struct app *a, char *err, size_t errlen);
/* Ends the runs when the loop is over: the current one is stopped (why
 * says what ended the loop: a signal, -n, an output error, q) and the rest
 * dropped; runs_not_done counts them.  Idempotent. */
void app_stop_runs(struct app *a);
/* Removes what app_init made; after a failed app_init also the output
 * files it created. */
void app_done(struct app *a);
/* Takes one sample into the history and writes its CSV row; drives the
 * run queue.  -1 when the source has no more (the end of a replay). */
int app_tick(struct app *a);
/* Reads worker events and reaps a finished worker (event fd readable or
 * SIGCHLD).  Returns 1 when a run ended. */
int app_poll_runs(struct app *a);
/* The session's worker fd to poll, or -1. */
int app_runs_fd(const struct app *a);
/* 1 while runs are queued or running. */
int app_runs_pending(const struct app *a);
/* Changes the interval (clamped) and re-arms the tick. */
void app_set_interval(struct app *a, double interval);
/* Queues the runs checked in the picker (starting a session if there is
 * none).  -1 + err. */
int app_start_picked(struct app *a, char *err, size_t errlen);
/* Cancels the current run (queue 0) or the whole queue; -1 when there is
 * nothing to cancel. */
int app_cancel(struct app *a, int queue);
/* Starts (a new lrutop-YYYYmmdd-HHMMSS.jsonl unless path) or stops
 * recording; what happened goes to the status line.  -1 + err. */
int app_record_start(struct app *a, const char *path, char *err, size_t errlen);
void app_record_toggle(struct app *a);
/* A replay's controls (no-ops live): seek to a sample index, by samples
 * (delta), to a time; speed up/down a step; pause/resume. */
void app_replay_seek(struct app *a, size_t index);
void app_replay_step(struct app *a, long delta);
void app_replay_jump(struct app *a, double t_s);
void app_replay_event(struct app *a, int dir);
void app_replay_speed(struct app *a, int dir);
void app_replay_pause(struct app *a);
/* What the model says about the machine a live source watches: kept by a
 * talk so that its live stages after a replay get it back. */
struct app_machine {
	char host[MODEL_HOST_MAX], kernel[64];
	char disk[64], disk_how[160], disk_kind[24];
	char missing[256];
	int mglru, mglru_gens;
	char probe_mode[8];
	int map_source;
	long map_page_size;
};
void app_machine_save(const struct app *a, struct app_machine *mc);

/* A source to switch to, with the run log and history it feeds. */
struct app_source {
	struct source *src;
	struct runlog *log;
	struct series *ser;
	double interval;
	struct session *session; /* live: the one attached to src, NULL for none */
	/* live: the machine's names (NULL: the model keeps its own); a
	 * replay's come from its header, a comparison's from its result */
	const struct app_machine *machine;
	int fallback; /* a replay: a talk's fallback for a live run that failed */
};
/* The one way the app's source changes (--replay, --compare, the live
 * start and each stage of a talk): the old source is stopped and freed
 * with the history and run log it fed (R's recording ends), and the model
 * takes what the new one says about itself: a replay its recording's
 * header (host, kernel, disk, its kind, MGLRU, notes, probe mode, date),
 * a comparison its result.  The UI's pause and scroll start over. */
void app_switch_source(struct app *a, const struct app_source *s);
/* The model's snapshot of the runs, the replay position and the
 * statistics, after anything that moves them (a talk's source switch). */
void app_refresh(struct app *a);
/* A transient message for the status line. */
void app_status(struct app *a, const char *msg);
/* Clears a status message whose time is up (now: CLOCK_MONOTONIC); 1 when
 * it did, so the screen needs a redraw. */
int app_status_expire(struct app *a, uint64_t now);

/* What makes a front end: its input and how it presents the model.  NULL
 * callbacks are skipped. */
struct frontend {
	void *ctx;
	int input_fd; /* polled for POLLIN too (the TUI's terminal), -1 for none */
	int aux_fd;   /* one more (a talk's timer), 0 or -1 for none; woke() follows */
	int end_with_runs; /* the loop ends once the runs asked for are done (batch) */
	/* Every wake-up (revents of input_fd, 0 after EINTR); 1 when the
	 * model changed. */
	int (*input)(void *ctx, short revents);
	/* After each sample and the runs' poll: 1 ends the loop. */
	int (*sampled)(void *ctx);
	/* After every wake-up; changed: a key, a run's end or a signal changed
	 * the model. */
	void (*woke)(void *ctx, int changed);
	/* Before each wait (the TUI redraws when dirty). */
	void (*present)(void *ctx);
	/* SIGTSTP, when the front end caught it (sig_catch): stop until
	 * SIGCONT, the terminal left as found meanwhile. */
	void (*suspend)(void *ctx);
};
/* The one loop (event_loop.c): a first sample at once, then one per tick of
 * the source until q, a signal, -n, an output error or the front end says
 * so.  -1 + err when poll fails. */
int app_loop(struct app *a, const struct frontend *fe, char *err, size_t errlen);

int tui_run(struct app *a, char *err, size_t errlen);
/* The per-strategy statistics table, when there is more than one run. */
void print_stats(FILE *f, const struct runlog *log);
/* Under MGLRU, what it changes about the figures: "lrutop: note: ..."
 * lines on stderr (batch, before the samples), "note: ..." under the
 * results on stdout.  Nothing without MGLRU. */
void print_mglru_note(FILE *f, const struct model *m);
int batch_run(struct app *a, char *err, size_t errlen);

#endif
