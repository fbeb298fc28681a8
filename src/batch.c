/* The batch front end over app_loop, without a screen.  Prints one aligned
 * line per sample (a header every BATCH_HEADER_EVERY lines, like vmstat),
 * "# ..." lines for run events, and the results table at the end; -q keeps
 * only the table. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "output/export_results.h"
#include "sampling/machine.h"
#include "output/output.h"
#include "recording/record.h"
#include "output/results.h"
#include "source/source.h"
#include "model/stats.h"
#include "model/sweep.h"
#include "base/util.h"

/* --record -: standard output carries the recording and nothing else (the
 * sample and event lines, the tables and the notes would corrupt it: the
 * recording holds all they say, and a --follow or --replay of it prints
 * them). */
static int stdout_recording(const struct app *a)
{
	return record_path_stdout(a->opt->record);
}

/* The sample and event lines: not with -q, nor beside the recording. */
static int lines_wanted(const struct app *a)
{
	return !a->opt->quiet && !stdout_recording(a);
}

/* Flushes stdout; 0 once a write failed (errno kept for main's message). */
static int stdout_ok(struct app *a)
{
	errno = 0;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		if (!a->stdout_errno)
			a->stdout_errno = errno ? errno : EIO;
		return 0;
	}
	return 1;
}

static void print_events(struct app *a, size_t *printed)
{
	const struct runlog *l = a->log;
	for (; a->model.runs.state != RUNS_NONE && *printed < l->nevents; (*printed)++) {
		if (lines_wanted(a))
			results_event_line(stdout, &l->events[*printed], l->results, a->t0_ns);
	}
	stdout_ok(a);
}

/* Under MGLRU what the figures mean (machine.h), as "note: ..." lines. */
void print_mglru_note(FILE *f, const struct model *m)
{
	char buf[200];
	for (int i = 0; m->mglru && machine_mglru_note(m->mglru_gens, i, buf, sizeof(buf)); i++)
		fprintf(f, "%s%s\n", f == stderr ? "lrutop: note: " : "note: ", buf);
}

void print_stats(FILE *f, const struct runlog *l)
{
	struct strategy_stats st[SESSION_MAX_STRATEGIES];
	int n = stats_compute(l->results, l->nresults, l->baseline, st, SESSION_MAX_STRATEGIES);
	if (l->nresults > 1 && n > 0) {
		fputc('\n', f);
		stats_table(f, st, n);
		stats_probe_table(f, st, n); /* --probe */
	}
}

/* --sweep (or a replay of one): the sweep table, and the bisection's
 * brackets when the session had --sweep-until: a replay takes the
 * condition and --repeat from the recording's runs' configuration. */
static void print_sweep(FILE *f, const struct app *a)
{
	const struct runlog *l = a->log;
	struct sweep_spec sw = a->opt->sweep;
	int repeat = a->opt->repeat;
	const struct record_config *c = source_is_replay(a->src)   ? source_replay_config(a->src)
					: source_is_follow(a->src) ? source_follow_config(a->src)
								   : NULL;
	if (c && !sw.until.set) {
		sw.until = c->sweep.until;
		repeat = c->repeat > 0 ? c->repeat : 1;
	}
	struct sweep_table *t = xmalloc(sizeof(*t));
	if (sweep_table_build(t, &sw, l->results, l->nresults, 1)) {
		sweep_table_print(f, t);
		sweep_bracket_print(f, t, &sw.until, repeat);
	}
	free(t);
}

struct batch {
	struct app *a;
	unsigned long lines;
	size_t events;
	unsigned metrics_errors; /* --metrics-file failures said so far */
};

static int batch_sampled(void *ctx)
{
	struct batch *b = ctx;
	struct app *a = b->a;
	const struct model *m = &a->model;
	/* a follow's first step may bring only what came before its first sample */
	if (lines_wanted(a) && series_back(m->series, 0)) {
		if (b->lines % BATCH_HEADER_EVERY == 0)
			batch_header(stdout);
		batch_line(stdout, series_back(m->series, 1), series_back(m->series, 0), a->t0_ns);
		b->lines++;
	}
	print_events(a, &b->events);
	if (a->metrics.errors != b->metrics_errors) { /* the TUI's status line says it */
		b->metrics_errors = a->metrics.errors;
		fprintf(stderr, "lrutop: warning: %s\n", a->metrics.error);
	}
	/* an output failed (main says which), or the reader went away */
	return a->quit || a->stdout_errno;
}

static void batch_woke(void *ctx, int changed)
{
	struct batch *b = ctx;
	(void)changed;
	print_events(b->a, &b->events);
}

/* --export-json / --export-markdown: the results once the runs are over
 * (not after a signal: the export is then not made). */
static void export_results(struct app *a)
{
	const struct options *o = a->opt;
	const struct model *m = &a->model;
	if ((!o->export_json && !o->export_md) || sig_caught())
		return;
	const struct record_header *h = source_is_replay(a->src)   ? source_replay_header(a->src)
					: source_is_follow(a->src) ? source_follow_header(a->src)
								   : NULL;
	struct export_side sd = {
	    .path = o->replay ? o->replay : o->follow,
	    .host = m->host,
	    .kernel = m->kernel,
	    .disk = m->disk,
	    .disk_kind = m->disk_kind,
	    .mglru = m->mglru,
	    .started = h ? h->start_wall : NULL,
	    .mem_limit = a->log->mem_limit,
	    .disk_limit = a->log->disk_limit,
	    .baseline = a->log->baseline,
	    .runs = a->log->results,
	    .nruns = a->log->nresults,
	};
	char e[512];
	if (export_results_save(o->export_json, o->export_md, &sd, 1, NULL, e, sizeof(e)) != 0 &&
	    !a->out_err[0])
		strlcpy_(a->out_err, e, sizeof(a->out_err));
}

int batch_run(struct app *a, char *err, size_t errlen)
{
	struct batch b = {.a = a};
	/* (a followed writer's runs are still to come) */
	if ((a->opt->export_json || a->opt->export_md) && a->model.runs.state == RUNS_NONE &&
	    !source_is_follow(a->src)) {
		outfile_discard(&a->csv); /* exit 2: nothing is left */
		return errf(err, errlen, "%s: %s has no runs",
			    a->opt->export_json ? "--export-json" : "--export-markdown",
			    a->opt->replay ? a->opt->replay : "the session");
	}
	/* before the first sample line; beside --record -, the recording says it */
	if (!stdout_recording(a))
		print_mglru_note(stderr, &a->model);
	struct frontend fe = {
		.ctx = &b,
		.input_fd = -1,
		.end_with_runs = 1,
		.sampled = batch_sampled,
		.woke = batch_woke,
	};
	if (app_loop(a, &fe, err, errlen) < 0)
		return -1;
	app_stop_runs(a);
	if (a->model.runs.state != RUNS_NONE && a->log->nresults && !a->stdout_errno &&
	    !stdout_recording(a)) {
		if (!a->opt->quiet)
			putchar('\n');
		results_table(stdout, a->log->results, a->log->nresults);
		print_stats(stdout, a->log);
		print_sweep(stdout, a);
		print_mglru_note(stdout, &a->model);
	}
	if (a->model.runs.state != RUNS_NONE && a->log->nresults)
		export_results(a);
	stdout_ok(a);
	return 0;
}
