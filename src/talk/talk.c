#include "talk/talk.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "app/actions.h"
#include "app/app.h"
#include "app/argv_config.h"
#include "output/export.h"
#include "recording/record.h"
#include "screen/screen.h"
#include "source/source.h"
#include "runs/strategy.h"
#include "output/svg.h"
#include "base/util.h"

enum talk_state { T_GO, T_PAUSE, T_WAIT, T_DONE };

/* What the screen showed at a pause: what ← brings back. */
struct talk_stop {
	size_t step;
	char caption[1024];
	int view, glyphs;
	char theme[THEME_NAME_MAX];
};

struct talk {
	struct talk_script *s;
	int rehearse;
	size_t pc;   /* the step being done / waited on */
	size_t high; /* steps below have been done once: no second run, replay, export */
	enum talk_state state;
	uint64_t pause_until; /* a rehearsal's pause ends then */
	int tfd;

	/* the stage: the last run or replay step whose source feeds the model */
	const struct talk_step *stage; /* NULL: the live monitor talk_new found */
	int stage_replay;	       /* its source is a recording */
	int fell_back;		       /* the fallback of stage plays */
	int recording;		       /* a rehearsal records stage to part */
	char part[4200];

	struct talk_stop *stops;
	size_t nstops;

	struct app_machine machine; /* the live one, for the live stages after a replay */
	char error[700];
};

/* ---- setup ---------------------------------------------------------------- */

int talk_check_options(const struct options *o, char *err, size_t errlen)
{
	const char *bad = o->strategies ? "-s"
			  : o->ncmds	? "--cmd"
			  : o->replay	? "--replay"
			  : o->demo	? "--demo"
			  : o->record	? "--record"
			  : o->csv	? "--csv"
			  : o->results	? "--results"
			  : o->count	? "-n"
			  : o->run_opt	? o->run_opt
					: NULL;
	if (o->action != OPTA_RUN)
		return errf(err, errlen, "--talk: one thing at a time (not with --export-*, "
				"--compare or the lists)");
	if (bad)
		return errf(err, errlen, "--talk %s: not with %s (the script's run steps say "
				"what runs)", o->talk, bad);
	if (o->batch)
		return errf(err, errlen, "--talk %s: needs a terminal (a talk is the TUI)", o->talk);
	return 0;
}

struct talk *talk_new(struct talk_script *s, struct app *a, int rehearse)
{
	struct talk *t = xcalloc(1, sizeof(*t));
	t->s = s;
	t->rehearse = rehearse;
	t->stops = xcalloc(s->n + 1, sizeof(*t->stops));
	app_machine_save(a, &t->machine);
	/* a wake-up five times a second: pauses of a rehearsal and the
	 * checks of a stage do not wait for a key */
	t->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (t->tfd >= 0) {
		struct itimerspec its = {{0, 200000000}, {0, 200000000}};
		timerfd_settime(t->tfd, 0, &its, NULL);
	}
	return t;
}

void talk_end(struct talk *t, struct app *a)
{
	if (t && t->recording) {
		record_sink_discard(&a->rec); /* the fallback stays as it was */
		t->recording = 0;
		if (!t->error[0])
			snprintf(t->error, sizeof(t->error), "%s:%u: rehearsal cut short; fallback "
				 "%s not written", t->s->path, t->stage->line, t->stage->fallback);
	}
}

void talk_free(struct talk *t)
{
	if (!t)
		return;
	if (t->tfd >= 0)
		close(t->tfd);
	talk_script_free(t->s);
	free(t->stops);
	free(t);
}

int talk_timer_fd(const struct talk *t)
{
	return t && t->state != T_DONE ? t->tfd : -1;
}

const char *talk_error(const struct talk *t)
{
	return t && t->error[0] ? t->error : NULL;
}

static void talk_fail(struct talk *t, struct app *a, const char *msg)
{
	if (!t->error[0])
		strlcpy_(t->error, msg, sizeof(t->error));
	app_status(a, msg);
}

/* ---- stages: a new source and a fresh model -------------------------------- */

/* Stops a rehearsal's recording: renamed over the fallback when good is
 * set, removed otherwise. */
static void rehearsal_close(struct talk *t, struct app *a, int good, const char *why)
{
	if (!t->recording)
		return;
	t->recording = 0;
	const struct talk_step *st = t->stage;
	char e[600], msg[800];
	if (!good) {
		record_sink_discard(&a->rec);
		snprintf(msg, sizeof(msg), "%s:%u: rehearsal: %s; fallback %s not written",
			 t->s->path, st->line, why, st->fallback);
		talk_fail(t, a, msg);
		return;
	}
	if (record_sink_stop(&a->rec, e, sizeof(e)) < 0) {
		record_sink_remove(&a->rec);
		snprintf(msg, sizeof(msg), "%s:%u: rehearsal: %s", t->s->path, st->line, e);
		talk_fail(t, a, msg);
		return;
	}
	struct stat sb;
	if (lstat(st->fallback, &sb) == 0 && !talk_made_by_rehearsal(st->fallback)) {
		record_sink_remove(&a->rec);
		snprintf(msg, sizeof(msg), "%s:%u: rehearsal: fallback %s: appeared meanwhile and "
			 "was not made by a rehearsal; left alone", t->s->path, st->line, st->fallback);
		talk_fail(t, a, msg);
		return;
	}
	/* the .part only while it is still the recording this rehearsal made */
	int rc = record_sink_rename(&a->rec, st->fallback);
	if (rc < 0) {
		if (rc == OWNFILE_NOT_OURS)
			snprintf(msg, sizeof(msg), "%s:%u: rehearsal: %.300s was replaced or removed "
				 "by someone else; fallback %s not written", t->s->path, st->line,
				 t->part, st->fallback);
		else
			snprintf(msg, sizeof(msg), "%s:%u: rehearsal: %s: %s", t->s->path,
				 st->line, st->fallback, strerror(errno));
		record_sink_remove(&a->rec);
		talk_fail(t, a, msg);
		return;
	}
	snprintf(msg, sizeof(msg), "rehearsal: recorded %s", st->fallback);
	app_status(a, msg);
}

static int stage_live(struct talk *t, struct app *a, const struct talk_step *st, char *err,
		      size_t errlen)
{
	double iv = st->opt.interval;
	struct runlog *log = runlog_new();
	struct series *ser = series_new(series_capacity_for(a->opt->history_s, iv));
	struct source *src = source_live_new(t->machine.disk, iv, ser, log, &a->tee, err, errlen);
	struct session *ss = src ? xcalloc(1, sizeof(*ss)) : NULL;
	if (!src || session_init(ss, options_run_config(&st->opt, &(struct run_config){0}), log,
				 a->cgroups, err, errlen) < 0) {
		free(ss);
		source_free(src);
		series_free(ser);
		runlog_free(log);
		return -1;
	}
	source_live_attach(src, ss);
	rehearsal_close(t, a, 0, "the talk went on before the runs ended");
	struct app_source as = {.src = src,
				.log = log,
				.ser = ser,
				.interval = iv,
				.session = ss,
				.machine = &t->machine};
	app_switch_source(a, &as);
	t->stage = st;
	t->stage_replay = 0;
	t->fell_back = 0;
	app_refresh(a);
	if (t->rehearse && st->fallback) {
		const char *f = st->fallback;
		size_t l = strlen(f);
		snprintf(t->part, sizeof(t->part), "%s.part%s", f,
			 l > 3 && !strcmp(f + l - 3, ".gz") ? ".gz" : "");
		if (app_record_start(a, t->part, err, errlen) < 0)
			return -1;
		t->recording = 1;
	}
	return 0;
}

/* run: the fallback of the live run with that index (-1: from the
 * start), whose recorded twin is where the playback starts. */
static int stage_replay(struct talk *t, struct app *a, const struct talk_step *st,
			const char *path, int fallback, long run, char *err, size_t errlen)
{
	struct runlog *log = runlog_new();
	struct source *src = source_replay_new(path, fallback ? 1 : st->speed, log, &a->tee,
					       &app_argv_parser, err, errlen);
	if (!src) {
		runlog_free(log);
		return -1;
	}
	const struct record_header *h = source_replay_header(src);
	double iv = h->interval_s >= INTERVAL_MIN && h->interval_s <= INTERVAL_MAX
			? h->interval_s
			: a->opt->interval;
	struct replay_pos pos;
	source_replay_pos(src, &pos);
	struct series *ser = series_new(pos.n + 1);
	rehearsal_close(t, a, 0, "the talk went on before the runs ended");
	struct app_source as = {
	    .src = src, .log = log, .ser = ser, .interval = iv, .fallback = fallback};
	app_switch_source(a, &as); /* the model takes the recording's header */
	t->stage = st;
	t->stage_replay = 1;
	t->fell_back = fallback;
	size_t first = 0; /* --from: the first sample shown is the one there */
	if (!fallback && st->from_s > 0)
		first = source_replay_index_at(a->src, st->from_s);
	if (first > 0)
		source_replay_seek(a->src, first - 1);
	/* the first sample now, as the loop's start does: it arms the pace */
	app_tick(a);
	/* a fallback picks up where the live runs went wrong: from the start
	 * of the same run in the recording (its first event) */
	for (long k; run >= 0 && a->log->nresults <= (size_t)run &&
		     (k = source_replay_event_index(a->src, +1)) >= 0;)
		source_replay_seek(a->src, (size_t)k);
	app_refresh(a);
	return 0;
}

/* The stage's runs: how many finished, the bursts they showed, and the
 * first that failed or was cancelled. */
static const struct run_result *stage_bad_run(const struct runlog *l, int *bursts)
{
	*bursts = 0;
	for (size_t i = 0; i < l->nresults; i++) {
		const struct run_result *r = &l->results[i];
		if (!r->finished)
			continue;
		*bursts += r->bursts;
		if (!r->ok || r->cancelled)
			return r;
	}
	return NULL;
}

/* After each turn: a live stage that went wrong falls back to its
 * recording; a rehearsal's recording is kept when the runs are done; a
 * replay stops at --to. */
static int stage_check(struct talk *t, struct app *a)
{
	const struct talk_step *st = t->stage;
	struct model *m = &a->model;
	if (!st)
		return 0;
	if (t->stage_replay) {
		if (!t->fell_back && st->to_s >= 0 && m->replay.t_s >= st->to_s && !m->replay.paused) {
			source_replay_pause(a->src, 1);
			app_refresh(a);
			return 1;
		}
		return 0;
	}
	int bursts, pending = source_pending(a->src);
	const struct run_result *bad = stage_bad_run(a->log, &bursts);
	long from_run = bad ? (long)(bad - a->log->results) : -1;
	char why[300] = "";
	if (bad)
		snprintf(why, sizeof(why), "%s was %s", bad->name,
			 bad->cancelled ? "cancelled" : "FAILED");
	else if (m->runs.error[0])
		snprintf(why, sizeof(why), "%.280s", m->runs.error);
	else if (!pending && st->expect_bursts && bursts < st->expect_bursts)
		snprintf(why, sizeof(why), "%d demotion burst%s (--expect-bursts %d)", bursts,
			 bursts == 1 ? "" : "s", st->expect_bursts);
	if (t->rehearse) {
		if (why[0])
			rehearsal_close(t, a, 0, why);
		else if (!pending)
			rehearsal_close(t, a, 1, NULL);
		return 0;
	}
	if (!why[0] || !st->fallback)
		return 0;
	char err[600], msg[900];
	if (stage_replay(t, a, st, st->fallback, 1, from_run, err, sizeof(err)) < 0) {
		snprintf(msg, sizeof(msg), "%s:%u: fallback: %s", t->s->path, st->line, err);
		talk_fail(t, a, msg);
		t->stage = NULL; /* the live stage goes on; no second try */
		return 1;
	}
	snprintf(msg, sizeof(msg), "live: %s - the recorded run plays (fallback)", why);
	app_status(a, msg);
	return 1;
}

/* ---- steps ---------------------------------------------------------------- */

static void set_title(struct talk *t, struct app *a)
{
	char *b = a->ui.caption_title;
	size_t n = sizeof(a->ui.caption_title);
	const struct talk_step *st = t->pc < t->s->n ? &t->s->steps[t->pc] : NULL;
	switch (t->state) {
	case T_PAUSE:
		snprintf(b, n, t->rehearse ? "rehearsal %zu/%zu" : "%zu/%zu  space \xe2\x86\x92 on  "
			 "\xe2\x86\x90 back", t->pc + 1, t->s->n);
		break;
	case T_WAIT:
		if (st && st->wait_name)
			snprintf(b, n, "waiting for %s  \xe2\x86\x92 skips", st->wait_name);
		else if (st && st->n)
			snprintf(b, n, "waiting for run %d  \xe2\x86\x92 skips", st->n);
		else
			snprintf(b, n, "waiting for the runs  \xe2\x86\x92 skips");
		break;
	case T_DONE:
		snprintf(b, n, "the end  q quits");
		break;
	default:
		b[0] = '\0';
	}
}

static int wait_done(const struct talk *t, const struct app *a, const struct talk_step *st)
{
	const struct model *m = &a->model;
	const struct runlog *l = a->log;
	int over = t->stage_replay ? m->replay.at_end || (m->replay.paused && !t->fell_back &&
							  t->stage && t->stage->to_s >= 0)
				   : !source_pending(a->src);
	if (!t->stage || over)
		return 1;
	if (st->n)
		return (size_t)st->n <= l->nresults && l->results[st->n - 1].finished;
	for (size_t i = 0; st->wait_name && i < l->nresults; i++) {
		const struct run_result *r = &l->results[i];
		if (r->finished && !strcmp(r->strategy, st->wait_name))
			return 1;
	}
	return 0;
}

static void push_stop(struct talk *t, struct app *a)
{
	if (t->nstops && t->stops[t->nstops - 1].step == t->pc)
		return;
	struct talk_stop *s = &t->stops[t->nstops++];
	s->step = t->pc;
	strlcpy_(s->caption, a->ui.caption, sizeof(s->caption));
	s->view = (int)a->ui.view;
	s->glyphs = (int)a->ui.glyphs;
	strlcpy_(s->theme, a->ui.theme.name, sizeof(s->theme));
}

static void export_view(struct talk *t, struct app *a, const struct talk_step *st)
{
	const struct model *m = &a->model;
	const struct runlog *l = a->log;
	struct svg_input in = {
	    .ser = m->series,
	    .events = l->events,
	    .nevents = l->nevents,
	    .runs = l->results,
	    .nruns = l->nresults,
	    .host = m->host,
	    .kernel = m->kernel,
	    .disk = m->disk,
	    .mem_limit = l->mem_limit,
	};
	struct svg_opts so;
	memset(&so, 0, sizeof(so));
	so.view = a->ui.view == VIEW_RUNS ? SVG_RUNS : SVG_OVERVIEW;
	so.run = -1;
	char err[600], msg[800];
	if (export_svg_new(st->text, &in, &so, err, sizeof(err)) != 0) {
		snprintf(msg, sizeof(msg), "%s:%u: %s", t->s->path, st->line, err);
		talk_fail(t, a, msg);
		return;
	}
	snprintf(msg, sizeof(msg), "exported %s", st->text);
	app_status(a, msg);
}

/* Does step pc; 0 when the talk goes straight on to the next. */
static int do_step(struct talk *t, struct app *a, int width)
{
	const struct talk_step *st = &t->s->steps[t->pc];
	int again = t->pc < t->high; /* passed before: only what the screen shows */
	char err[700], msg[900];
	switch (st->kind) {
	case TALK_CAPTION:
		strlcpy_(a->ui.caption, st->text ? st->text : "", sizeof(a->ui.caption));
		break;
	case TALK_PAUSE:
		push_stop(t, a);
		t->state = T_PAUSE;
		t->pause_until = mono_ns() + (uint64_t)(TALK_REHEARSE_PAUSE_S * 1e9);
		return 1;
	case TALK_VIEW:
		action_find("view")->run(a, '1' + st->n, width);
		break;
	case TALK_THEME:
		if (action_set_theme(a, st->text, err, sizeof(err)) < 0)
			app_status(a, err);
		break;
	case TALK_GLYPHS:
		action_set_glyphs(a, st->n);
		break;
	case TALK_RUN:
		if (again || stage_live(t, a, st, err, sizeof(err)) == 0)
			break;
		if (t->recording)
			rehearsal_close(t, a, 0, "the recording could not start");
		/* the runs could not start here (no root for -m, no space):
		 * what a fallback is for */
		if (!t->rehearse && st->fallback && !t->recording &&
		    stage_replay(t, a, st, st->fallback, 1, -1, msg, sizeof(msg)) == 0) {
			snprintf(msg, sizeof(msg), "live: %.500s - the recorded run plays (fallback)", err);
			app_status(a, msg);
			break;
		}
		snprintf(msg, sizeof(msg), "%s:%u: %s", t->s->path, st->line, err);
		talk_fail(t, a, msg);
		break;
	case TALK_REPLAY:
		if (!again && stage_replay(t, a, st, st->text, 0, -1, err, sizeof(err)) < 0) {
			snprintf(msg, sizeof(msg), "%s:%u: %s", t->s->path, st->line, err);
			talk_fail(t, a, msg);
		}
		break;
	case TALK_EXPORT_SVG:
		if (again)
			break;
		if (t->rehearse)
			app_status(a, "rehearsal: export-svg skipped (the talk makes the file)");
		else
			export_view(t, a, st);
		break;
	case TALK_WAIT:
		if (again)
			break;
		t->state = T_WAIT;
		return 1;
	}
	return 0;
}

static void advance(struct talk *t)
{
	t->pc++;
	if (t->pc > t->high)
		t->high = t->pc;
	t->state = T_GO;
}

int talk_update(struct talk *t, struct app *a, int width)
{
	if (!t)
		return 0;
	uint64_t ticks;
	if (t->tfd >= 0)
		while (read(t->tfd, &ticks, sizeof(ticks)) > 0)
			;
	int changed = stage_check(t, a);
	for (int guard = 0; guard < TALK_MAX_STEPS * 2; guard++) {
		if (t->state == T_DONE)
			break;
		if (t->state == T_PAUSE) {
			if (!t->rehearse || mono_ns() < t->pause_until)
				break;
			advance(t);
		} else if (t->state == T_WAIT) {
			if (!wait_done(t, a, &t->s->steps[t->pc]))
				break;
			advance(t);
		}
		changed = 1;
		if (t->pc >= t->s->n) {
			t->state = T_DONE;
			break;
		}
		if (!do_step(t, a, width))
			advance(t);
		/* a step may have fallen back already (a run that failed at once) */
		stage_check(t, a);
	}
	if (changed)
		set_title(t, a);
	return changed;
}

static void go_back(struct talk *t, struct app *a)
{
	if (!t->nstops)
		return;
	/* at a pause: the one before; elsewhere: the last one passed */
	if (t->state == T_PAUSE && t->stops[t->nstops - 1].step == t->pc && t->nstops > 1)
		t->nstops--;
	const struct talk_stop *s = &t->stops[t->nstops - 1];
	t->pc = s->step;
	t->state = T_PAUSE;
	t->pause_until = mono_ns() + (uint64_t)(TALK_REHEARSE_PAUSE_S * 1e9);
	strlcpy_(a->ui.caption, s->caption, sizeof(a->ui.caption));
	a->ui.view = (enum view_id)s->view;
	action_set_glyphs(a, s->glyphs);
	char err[300];
	if (strcmp(a->ui.theme.name, s->theme) && action_set_theme(a, s->theme, err, sizeof(err)) < 0)
		app_status(a, err);
	set_title(t, a);
}

/* ---- keys: the talk's table (actions.h: between the blank screen and a
 * replay's; space and the arrows go on to the monitor after the last step) */

/* on (space, the right arrow, PageDown) from a pause, or back (the left
 * arrow, PageUp, Home: the first) to the previous pause; after the last
 * step back and restart still work (a question at the end) and on is the
 * monitor's own space and arrow again */
static int key_step(struct app *a, int key, int width)
{
	struct talk *t = a->talk;
	if (key == SKEY_LEFT || key == SKEY_PGUP || key == SKEY_HOME) {
		if (key == SKEY_HOME && t->nstops > 1)
			t->nstops = 1; /* go_back then shows the first pause */
		go_back(t, a);
		return REDRAW_VIEW;
	}
	if (t->state == T_DONE)
		return key == SKEY_PGDN ? REDRAW_NONE : REACT_PASS;
	if (t->state == T_PAUSE || t->state == T_WAIT)
		advance(t);
	talk_update(t, a, width);
	return REDRAW_VIEW;
}

static int key_blank(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.blank = 1; /* the blank table: the next key, whatever it is, shows it */
	return REDRAW_VIEW;
}

/* presentation clickers send PageDown / PageUp */
static const struct action talk_keys[] = {
	{"talk-step", {' ', SKEY_RIGHT, SKEY_PGDN, SKEY_LEFT, SKEY_PGUP}, "PgDn PgUp",
	 "talk: on / back (space \xe2\x86\x92 / \xe2\x86\x90 too)", key_step, 1},
	{"talk-first", {SKEY_HOME}, "Home", "talk: back to the first pause", key_step, 1},
	{"talk-blank", {'b'}, "b", "talk: blank the screen; any key shows it again", key_blank, 0},
};

const struct keymap talk_keymap = {
	"talk", "Talk", talk_keys, sizeof(talk_keys) / sizeof(talk_keys[0]), 0, NULL, NULL,
};
