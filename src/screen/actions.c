#include "actions.h"

#include <string.h>

#include "app.h"
#include "screen.h"
#include "util.h"

static const double interval_steps[] = {0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60};

static double step_interval(double cur, int dir)
{
	size_t n = ARRAY_LEN(interval_steps);
	if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (interval_steps[i] > cur + 1e-9)
				return interval_steps[i];
		return interval_steps[n - 1];
	}
	for (size_t i = n; i-- > 0;)
		if (interval_steps[i] < cur - 1e-9)
			return interval_steps[i];
	return interval_steps[0];
}

/* Samples one page of the overview moves per arrow key. */
static size_t scroll_step(const struct ui *u, int width)
{
	size_t s = (size_t)(width > 40 ? width / 8 : 5) * (u->glyphs == CHART_BRAILLE ? 2 : 1);
	return s ? s : 1;
}

static void do_quit(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->quit = 1;
}

static void do_view(struct app *a, int key, int width)
{
	(void)width;
	a->ui.view = (enum view_id)(key - '1');
}

static void do_help(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.help = 1;
}

/* Samples in a tenth of the view (the overview's charts are about the
 * screen wide, two samples a column with braille). */
static long tenth_of_view(const struct ui *u, int width)
{
	long s = (long)width * (u->glyphs == CHART_BRAILLE ? 2 : 1) / 10;
	return s > 0 ? s : 1;
}

static void do_pause(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (a->model.replay.on) { /* a replay pauses the playback itself */
		app_replay_pause(a);
		return;
	}
	a->ui.paused = !a->ui.paused;
	a->ui.scroll = 0;
}

static void do_faster(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_set_interval(a, step_interval(a->model.interval, -1));
}

static void do_slower(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_set_interval(a, step_interval(a->model.interval, +1));
}

static void do_partitions(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.partitions = !a->ui.partitions;
}

static void do_glyphs(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.glyphs = (enum chart_glyphs)((a->ui.glyphs + 1) % 3);
}

/* The next theme of --list-themes' order (its glyphs too, if it names
 * them); a broken file leaves the current one and says why. */
static void do_step(struct app *a, int key, int width);

static void do_theme(struct app *a, int key, int width)
{
	/* t is bound once: in a replay it steps one sample on (with T back) */
	if (a->model.replay.on) {
		do_step(a, key, width);
		return;
	}
	char next[THEME_NAME_MAX], err[300];
	theme_next(a->ui.theme.name, next, sizeof(next));
	if (action_set_theme(a, next, err, sizeof(err)) < 0)
		app_status(a, err);
}

int action_set_theme(struct app *a, const char *name, char *err, size_t errlen)
{
	struct ui *u = &a->ui;
	struct theme th;
	if (theme_load(&th, name, err, errlen) < 0)
		return -1;
	u->theme = th;
	u->theme_gen++;
	if (th.glyphs >= 0 && u->glyphs != CHART_ASCII)
		u->glyphs = (enum chart_glyphs)th.glyphs;
	char msg[200];
	snprintf(msg, sizeof(msg), "theme %s%s%s", th.name, th.description[0] ? ": " : "",
		 th.description);
	app_status(a, msg);
	return 0;
}

void action_set_glyphs(struct app *a, int glyphs)
{
	/* a terminal without UTF-8 (or --ascii) stays on ASCII */
	if (a->ui.glyphs != CHART_ASCII || !a->ui.ascii_only)
		a->ui.glyphs = (enum chart_glyphs)glyphs;
}

static void do_back(struct app *a, int key, int width)
{
	(void)key;
	struct ui *u = &a->ui;
	if (a->model.replay.on) {
		app_replay_step(a, -tenth_of_view(u, width));
		return;
	}
	if (!u->paused) {
		app_status(a, "pause first (space) to scroll");
		return;
	}
	size_t len = series_len(a->model.series);
	u->scroll += scroll_step(u, width);
	if (len && u->scroll > len - 1)
		u->scroll = len - 1;
}

static void do_forward(struct app *a, int key, int width)
{
	(void)key;
	struct ui *u = &a->ui;
	if (a->model.replay.on) {
		app_replay_step(a, tenth_of_view(u, width));
		return;
	}
	if (u->paused) {
		size_t s = scroll_step(u, width);
		u->scroll = u->scroll > s ? u->scroll - s : 0;
	}
}

static void do_newest(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (a->model.replay.on)
		app_replay_seek(a, (size_t)-1); /* clamped: the last sample */
	a->ui.scroll = 0;
}

/* A replay's keys say so when the source is live. */
static int need_replay(struct app *a)
{
	if (a->model.replay.on)
		return 1;
	app_status(a, "only in a replay (--replay FILE)");
	return 0;
}

static void do_oldest(struct app *a, int key, int width)
{
	(void)key, (void)width;
	size_t len = series_len(a->model.series);
	if (!a->model.replay.on && a->ui.paused) { /* live, paused: the oldest sample held */
		if (len)
			a->ui.scroll = len - 1;
		return;
	}
	if (need_replay(a))
		app_replay_seek(a, 0);
}

static void do_speed(struct app *a, int key, int width)
{
	(void)width;
	if (need_replay(a))
		app_replay_speed(a, key == '>' || key == '.' ? +1 : -1);
}

static void do_step(struct app *a, int key, int width)
{
	(void)width;
	if (need_replay(a))
		app_replay_step(a, key == 't' ? +1 : -1);
}

static void do_event(struct app *a, int key, int width)
{
	(void)width;
	if (need_replay(a))
		app_replay_event(a, key == ']' ? +1 : -1);
}

static void do_jump(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (need_replay(a)) {
		a->ui.prompt = 1; /* tui.c reads the time */
		a->ui.prompt_buf[0] = '\0';
	}
}

static void do_record(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_record_toggle(a);
}

static void do_fit(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.no_fit = !a->ui.no_fit;
	app_status(a, a->ui.no_fit ? "time axis: the last samples (z Z zoom)"
				   : "time axis: fit to the runs");
}

static void do_zoom(struct app *a, int key, int width)
{
	(void)width;
	struct ui *u = &a->ui;
	u->no_fit = 1; /* zooming is of the last-N-seconds axis */
	if (key == 'z' && u->zoom > -3)
		u->zoom--;
	else if (key == 'Z' && u->zoom < 6)
		u->zoom++;
}

static void do_mem_scope(struct app *a, int key, int width)
{
	(void)key, (void)width;
	struct ui *u = &a->ui;
	u->mem_system = !u->mem_system;
	app_status(a, u->mem_system ? "memory chart: system" : "memory chart: run's cgroup");
}

static void do_runs_by(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.runs_by_strategy = !a->ui.runs_by_strategy;
}

/* Runs view: up shows earlier runs, down later ones (the view clamps). */
static void do_runs_scroll(struct app *a, int key, int width)
{
	(void)width;
	int *sc = &a->ui.runs_scroll;
	if (key == SKEY_UP && *sc + 1 < (int)a->model.log->nresults)
		(*sc)++;
	else if (key == SKEY_DOWN && *sc > 0)
		(*sc)--;
}

static void do_picker(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (a->model.compare) {
		app_status(a, "a comparison of recordings: nothing to run");
		return;
	}
	if (a->model.replay.on) { /* its source has no session to queue into */
		app_status(a, "a replay: nothing to run (r starts runs live)");
		return;
	}
	a->ui.picker.open = 1; /* while runs are going, picked ones join the end of the queue */
}

static void do_cancel(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (app_cancel(a, 0) < 0)
		app_status(a, "no run to cancel");
}

static void do_cancel_queue(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_status(a, app_cancel(a, 1) < 0 ? "no queue to cancel" : "queue cancelled");
}

/* The help overlay lists them in this order. */
static const struct action actions[] = {
	{"view", {'1', '2', '3', '4'}, "1 2 3 4", "Overview, iostat, vmstat, Runs", do_view},
	{"help", {'h', '?'}, "h ?", "this help (any key closes it)", do_help},
	{"pause", {' '}, "space", "pause; \xe2\x86\x90 \xe2\x86\x92 scroll history while paused",
	 do_pause},
	{"back", {SKEY_LEFT}, NULL, "scroll back (paused)", do_back},
	{"forward", {SKEY_RIGHT}, NULL, "scroll forward (paused)", do_forward},
	{"newest", {SKEY_END}, NULL, "back to the newest sample", do_newest},
	{"oldest", {SKEY_HOME}, "Home End", "oldest / newest sample (a replay: its start / end)",
	 do_oldest},
	{"speed", {'<', '>', ',', '.'}, "< >", "replay: slower / faster (0.25\xc3\x97 - 16\xc3\x97)",
	 do_speed},
	{"step", {'T'}, "t T", "replay: one sample on / back; \xe2\x86\x90 \xe2\x86\x92 10 % of the view",
	 do_step},
	{"event", {'[', ']'}, "[ ]", "replay: previous / next run or phase event", do_event},
	{"jump", {'j'}, "j", "replay: jump to a time (42, 1:30)", do_jump},
	{"record", {'R'}, "R", "start / stop recording (lrutop-DATE.jsonl)", do_record},
	{"fit", {'f'}, "f", "time axis: fit to the runs / last N s", do_fit},
	{"zoom-in", {'z'}, "z Z", "zoom the time axis in / out", do_zoom},
	{"zoom-out", {'Z'}, NULL, "zoom the time axis out", do_zoom},
	{"slower", {'+', '='}, "+ -", "sampling interval (0.05 - 60 s)", do_slower},
	{"faster", {'-', '_'}, NULL, "shorter sampling interval", do_faster},
	{"pick", {'r'}, "r", "pick strategies and start runs", do_picker},
	{"cancel", {'c'}, "c  C", "cancel the run / the whole queue", do_cancel},
	{"cancel-queue", {'C'}, NULL, "cancel the whole queue", do_cancel_queue},
	{"runs-by", {'a'}, "a", "Runs: every run / one per strategy", do_runs_by},
	{"runs-up", {SKEY_UP}, "Up Down", "Runs: earlier / later runs (when they do not fit)",
	 do_runs_scroll},
	{"runs-down", {SKEY_DOWN}, NULL, "Runs: later runs", do_runs_scroll},
	{"mem-scope", {'m'}, "m", "memory chart: run's cgroup / system", do_mem_scope},
	{"partitions", {'p'}, "p", "iostat: partitions too", do_partitions},
	{"glyphs", {'g'}, "g", "glyphs: braille, blocks, ASCII", do_glyphs},
	{"theme", {'t'}, "t", "next colour theme (--list-themes); replay: a sample on", do_theme},
	/* a talk's keys (talk_key takes them first; presentation clickers
	 * send PageDown / PageUp) */
	{"talk-step", {SKEY_PGDN, SKEY_PGUP}, "PgDn PgUp",
	 "talk: on / back (space \xe2\x86\x92 / \xe2\x86\x90 too); Home: the first pause", NULL},
	{"talk-blank", {'b'}, "b", "talk: blank the screen; any key shows it again", NULL},
	{"redraw", {12}, "^L", "redraw the whole screen", NULL}, /* the front end's */
	{"quit", {'q', 'Q'}, "q", "quit (scratch files, cgroups removed)", do_quit},
};

size_t action_count(void)
{
	return ARRAY_LEN(actions);
}

const struct action *action_at(size_t i)
{
	return i < ARRAY_LEN(actions) ? &actions[i] : NULL;
}

const struct action *action_for_key(int key)
{
	for (size_t i = 0; i < ARRAY_LEN(actions); i++)
		for (int k = 0; k < ACTION_KEYS && actions[i].keys[k]; k++)
			if (actions[i].keys[k] == key)
				return &actions[i];
	return NULL;
}

const struct action *action_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(actions); i++)
		if (!strcmp(actions[i].name, name))
			return &actions[i];
	return NULL;
}
