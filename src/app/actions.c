#include "app/actions.h"

#include <stdio.h>
#include <string.h>

#include "app/app.h"
#include "screen/screen.h"
#include "runs/strategy.h"
#include "base/parse.h"
#include "base/util.h"
#include "screen/views.h"

static const double interval_steps[] = {INTERVAL_MIN, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, INTERVAL_MAX};

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

/* ---- every mode (global) ------------------------------------------------- */

static int do_quit(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->quit = 1;
	return REACT_QUIT;
}

static int do_view(struct app *a, int key, int width)
{
	(void)width;
	enum view_id v = (enum view_id)(key - '1');
	if (a->ui.view == v)
		return REDRAW_NONE;
	a->ui.view = v;
	return REDRAW_VIEW;
}

static int do_help(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.help = 1;
	keys_help_refresh(a);
	return REDRAW_VIEW;
}

/* Samples in a tenth of the view (the overview's charts are about the
 * screen wide, two samples a column with braille). */
static long tenth_of_view(const struct ui *u, int width)
{
	long s = (long)width * (u->glyphs == CHART_BRAILLE ? 2 : 1) / 10;
	return s > 0 ? s : 1;
}

static int do_pause(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.paused = !a->ui.paused;
	a->ui.scroll = 0;
	return REDRAW_VIEW;
}

static int do_interval(struct app *a, int key, int width)
{
	(void)width;
	int dir = key == '+' || key == '=' ? +1 : -1;
	app_set_interval(a, step_interval(a->model.interval, dir));
	return REDRAW_VIEW;
}

static int do_partitions(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.partitions = !a->ui.partitions;
	return REDRAW_VIEW;
}

static int do_glyphs(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.glyphs = (enum chart_glyphs)((a->ui.glyphs + 1) % 3);
	return REDRAW_VIEW;
}

/* The next theme of --list-themes' order (its glyphs too, if it names
 * them); a broken file leaves the current one and says why. */
static int do_theme(struct app *a, int key, int width)
{
	(void)key, (void)width;
	char next[THEME_NAME_MAX], err[300];
	theme_next(a->ui.theme.name, next, sizeof(next));
	if (action_set_theme(a, next, err, sizeof(err)) < 0)
		app_status(a, err);
	return REDRAW_VIEW;
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

/* Live: scroll the history while paused. */
static int do_scroll(struct app *a, int key, int width)
{
	struct ui *u = &a->ui;
	if (!u->paused) {
		if (key == SKEY_RIGHT)
			return REDRAW_NONE;
		app_status(a, "pause first (space) to scroll");
		return REDRAW_STATUS;
	}
	size_t len = series_len(a->model.series), s = scroll_step(u, width), was = u->scroll;
	if (key == SKEY_LEFT) {
		u->scroll += s;
		if (len && u->scroll > len - 1)
			u->scroll = len - 1;
	} else {
		u->scroll = u->scroll > s ? u->scroll - s : 0;
	}
	return u->scroll == was ? REDRAW_NONE : REDRAW_VIEW;
}

/* Home End live: the oldest sample held (paused) / the newest. */
static int do_ends(struct app *a, int key, int width)
{
	(void)width;
	struct ui *u = &a->ui;
	size_t len = series_len(a->model.series);
	if (key == SKEY_END) {
		u->scroll = 0;
		return REDRAW_VIEW;
	}
	if (!u->paused) {
		app_status(a, "only in a replay (--replay FILE)");
		return REDRAW_STATUS;
	}
	if (len)
		u->scroll = len - 1;
	return REDRAW_VIEW;
}

static int do_record(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_record_toggle(a);
	return REDRAW_VIEW;
}

static int do_fit(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.no_fit = !a->ui.no_fit;
	app_status(a, a->ui.no_fit ? "time axis: the last samples (z Z zoom)"
				   : "time axis: fit to the runs");
	return REDRAW_VIEW;
}

static int do_zoom(struct app *a, int key, int width)
{
	(void)width;
	struct ui *u = &a->ui;
	int was = u->zoom, fit = u->no_fit;
	u->no_fit = 1; /* zooming is of the last-N-seconds axis */
	if (key == 'z' && u->zoom > -3)
		u->zoom--;
	else if (key == 'Z' && u->zoom < 6)
		u->zoom++;
	return u->zoom == was && fit ? REDRAW_NONE : REDRAW_VIEW;
}

static int do_mem_scope(struct app *a, int key, int width)
{
	(void)key, (void)width;
	struct ui *u = &a->ui;
	u->mem_system = !u->mem_system;
	app_status(a, u->mem_system ? "memory chart: system" : "memory chart: run's cgroup");
	return REDRAW_VIEW;
}

static int do_runs_by(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.runs_by_strategy = !a->ui.runs_by_strategy;
	return REDRAW_VIEW;
}

/* Runs view: up shows earlier runs, down later ones (the view clamps). */
static int do_runs_scroll(struct app *a, int key, int width)
{
	(void)width;
	int *sc = &a->ui.runs_scroll;
	if (key == SKEY_UP && *sc + 1 < (int)a->model.log->nresults)
		(*sc)++;
	else if (key == SKEY_DOWN && *sc > 0)
		(*sc)--;
	else
		return REDRAW_NONE;
	return REDRAW_VIEW;
}

static int do_picker(struct app *a, int key, int width)
{
	(void)key, (void)width;
	if (a->model.compare) {
		app_status(a, "a comparison of recordings: nothing to run");
		return REDRAW_STATUS;
	}
	if (a->model.replay.on) { /* its source has no session to queue into */
		app_status(a, "a replay: nothing to run (r starts runs live)");
		return REDRAW_STATUS;
	}
	if (a->model.follow.on) {
		app_status(a, "following another lrutop: its runs are the writer's");
		return REDRAW_STATUS;
	}
	a->ui.picker.open = 1; /* while runs are going, picked ones join the end of the queue */
	return REDRAW_VIEW;
}

static int do_cancel(struct app *a, int key, int width)
{
	(void)width;
	if (key == 'C')
		app_status(a, app_cancel(a, 1) < 0 ? "no queue to cancel" : "queue cancelled");
	else if (app_cancel(a, 0) < 0)
		app_status(a, "no run to cancel");
	return REDRAW_VIEW;
}

/* The help overlay lists them in this order. */
static const struct action global_keys[] = {
	{"view", {'1', '2', '3', '4'}, "1 2 3 4", "Overview, iostat, vmstat, Runs", do_view, 0},
	{"help", {'h', '?'}, "h ?", "this help (any key closes it)", do_help, 0},
	{"pause", {' '}, "space", "pause the display (sampling goes on)", do_pause, 0},
	{"scroll", {SKEY_LEFT, SKEY_RIGHT}, "\xe2\x86\x90 \xe2\x86\x92",
	 "scroll history back / on while paused", do_scroll, 0},
	{"ends", {SKEY_HOME, SKEY_END}, "Home End", "oldest (paused) / newest sample", do_ends, 0},
	{"record", {'R'}, "R", "start / stop recording (lrutop-DATE.jsonl)", do_record, 0},
	{"fit", {'f'}, "f", "time axis: fit to the runs / last N s", do_fit, 0},
	{"zoom", {'z', 'Z'}, "z Z", "zoom the time axis in / out", do_zoom, 0},
	{"interval", {'+', '=', '-', '_'}, "+ -", "sampling interval (0.05 - 60 s)", do_interval, 0},
	{"pick", {'r'}, "r", "pick strategies and start runs", do_picker, 0},
	{"cancel", {'c', 'C'}, "c  C", "cancel the run / the whole queue", do_cancel, 0},
	{"runs-by", {'a'}, "a", "Runs: every run / one per strategy", do_runs_by, 0},
	{"runs-scroll", {SKEY_UP, SKEY_DOWN}, "Up Down",
	 "Runs: earlier / later runs (when they do not fit)", do_runs_scroll, 0},
	{"mem-scope", {'m'}, "m", "memory chart: run's cgroup / system", do_mem_scope, 0},
	{"partitions", {'p'}, "p", "iostat: partitions too", do_partitions, 0},
	{"glyphs", {'g'}, "g", "glyphs: braille, blocks, ASCII", do_glyphs, 0},
	{"theme", {'t'}, "t", "next colour theme (--list-themes)", do_theme, 0},
	{"quit", {'q', 'Q'}, "q", "quit (scratch files, cgroups removed)", do_quit, 0},
};

/* ---- a replay ------------------------------------------------------------ */

static int do_replay_pause(struct app *a, int key, int width)
{
	(void)key, (void)width;
	app_replay_pause(a); /* the playback itself */
	return REDRAW_VIEW;
}

static int do_replay_scroll(struct app *a, int key, int width)
{
	long d = tenth_of_view(&a->ui, width);
	app_replay_step(a, key == SKEY_LEFT ? -d : d);
	return REDRAW_VIEW;
}

static int do_replay_ends(struct app *a, int key, int width)
{
	(void)width;
	app_replay_seek(a, key == SKEY_HOME ? 0 : (size_t)-1); /* clamped: the last sample */
	a->ui.scroll = 0;
	return REDRAW_VIEW;
}

static int do_speed(struct app *a, int key, int width)
{
	(void)width;
	app_replay_speed(a, key == '>' || key == '.' ? +1 : -1);
	return REDRAW_VIEW;
}

static int do_step(struct app *a, int key, int width)
{
	(void)width;
	app_replay_step(a, key == 'n' ? +1 : -1);
	return REDRAW_VIEW;
}

static int do_event(struct app *a, int key, int width)
{
	(void)width;
	app_replay_event(a, key == ']' ? +1 : -1);
	return REDRAW_VIEW;
}

static int do_jump(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.prompt = 1; /* the prompt table reads the time */
	a->ui.prompt_buf[0] = '\0';
	return REDRAW_STATUS;
}

static const struct action replay_keys[] = {
	{"pause", {' '}, "space", "replay: pause / play", do_replay_pause, 0},
	{"scroll", {SKEY_LEFT, SKEY_RIGHT}, "\xe2\x86\x90 \xe2\x86\x92",
	 "replay: back / on 10 % of the view", do_replay_scroll, 0},
	{"ends", {SKEY_HOME, SKEY_END}, "Home End", "replay: its start / its end", do_replay_ends, 0},
	{"speed", {'<', '>', ',', '.'}, "< >", "replay: slower / faster (" SPEED_MIN_TEXT "\xc3\x97 - " SPEED_MAX_TEXT "\xc3\x97)",
	 do_speed, 0},
	{"step", {'n', 'N'}, "n N", "replay: one sample on / back", do_step, 0},
	{"event", {'[', ']'}, "[ ]", "replay: previous / next run or phase event", do_event, 0},
	{"jump", {'j'}, "j", "replay: jump to a time (42, 1:30)", do_jump, 0},
};

/* ---- the j prompt ---------------------------------------------------------- */

static int prompt_type(struct app *a, int key, int width)
{
	(void)width;
	struct ui *u = &a->ui;
	size_t l = strlen(u->prompt_buf);
	if (l + 1 >= sizeof(u->prompt_buf))
		return REDRAW_NONE;
	u->prompt_buf[l] = (char)key;
	u->prompt_buf[l + 1] = '\0';
	return REDRAW_STATUS;
}

static int prompt_erase(struct app *a, int key, int width)
{
	(void)key, (void)width;
	size_t l = strlen(a->ui.prompt_buf);
	if (!l)
		return REDRAW_NONE;
	a->ui.prompt_buf[l - 1] = '\0';
	return REDRAW_STATUS;
}

static int prompt_enter(struct app *a, int key, int width)
{
	(void)key, (void)width;
	struct ui *u = &a->ui;
	double t;
	u->prompt = 0;
	if (parse_clock(u->prompt_buf, &t) < 0)
		app_status(a, "j: a time is 42, 1.5 or 1:30");
	else
		app_replay_jump(a, t);
	return REDRAW_VIEW;
}

static int prompt_cancel(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.prompt = 0;
	return REDRAW_STATUS;
}

static const struct action prompt_keys[] = {
	{"prompt-type", {'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', ':', '.'}, "0-9 : .",
	 "the time: seconds, 1.5, or m:ss", prompt_type, 1},
	{"prompt-erase", {SKEY_BACKSPACE, 127, 8}, "Bksp", "erase the last character", prompt_erase,
	 1},
	{"prompt-jump", {SKEY_ENTER, '\n', '\r'}, "Enter", "jump to that time", prompt_enter, 1},
	{"prompt-cancel", {SKEY_ESC}, "Esc", "cancel the jump", prompt_cancel, 1},
	{"help", {'h', '?'}, "h ?", "this help (any key closes it)", do_help, 0},
};

/* ---- the picker ------------------------------------------------------------ */

static int picker_close(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.picker.open = 0;
	return REDRAW_VIEW;
}

static int picker_move(struct app *a, int key, int width)
{
	(void)width;
	struct picker *p = &a->ui.picker;
	int rows = picker_rows();
	p->cursor = (p->cursor + (key == SKEY_UP || key == 'k' ? rows - 1 : 1)) % rows;
	return REDRAW_VIEW;
}

static int picker_check(struct app *a, int key, int width)
{
	(void)key, (void)width;
	struct picker *p = &a->ui.picker;
	if (p->cursor >= (int)strategy_count())
		return REDRAW_NONE;
	p->checked[p->cursor] = !p->checked[p->cursor];
	return REDRAW_VIEW;
}

static int picker_start(struct app *a, int key, int width)
{
	(void)key, (void)width;
	char err[320];
	if (app_start_picked(a, err, sizeof(err)) < 0)
		app_status(a, err);
	else
		a->ui.picker.open = 0;
	return REDRAW_VIEW;
}

static int clamp(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* repeat, size and limit: the field under the cursor a step down or up */
static int picker_step(struct app *a, int key, int width)
{
	(void)width;
	struct picker *p = &a->ui.picker;
	int ns = (int)strategy_count(), d = key == SKEY_LEFT || key == '-' ? -1 : +1;
	if (p->cursor == ns)
		p->repeat = clamp(p->repeat + d, 1, 20);
	else if (p->cursor == ns + 1)
		p->size_i = clamp(p->size_i + d, 0, picker_nsizes - 1);
	else if (p->cursor == ns + 2)
		p->limit_i = clamp(p->limit_i + d, 0, picker_nlimits - 1);
	else
		return REDRAW_NONE;
	return REDRAW_VIEW;
}

static const struct action picker_keys[] = {
	{"picker-move", {SKEY_UP, SKEY_DOWN, 'k', 'j'}, "Up Down", "picker: the row above / below",
	 picker_move, 1},
	{"picker-check", {' ', 'x'}, "space x", "picker: check / uncheck the strategy", picker_check,
	 1},
	{"picker-step", {SKEY_LEFT, SKEY_RIGHT, '-', '+'}, "\xe2\x86\x90 \xe2\x86\x92 - +",
	 "picker: repeat, size, limit down / up", picker_step, 1},
	{"picker-start", {SKEY_ENTER}, "Enter", "picker: queue the checked runs", picker_start, 0},
	{"picker-close", {SKEY_ESC, 'q', 'r'}, "Esc q r", "picker: close it", picker_close, 1},
	{"help", {'h', '?'}, "h ?", "this help (any key closes it)", do_help, 0},
};

/* ---- the help overlay, the blank screen, the screen ------------------------ */

static int help_close(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.help = 0;
	return REDRAW_VIEW;
}

static int help_quit(struct app *a, int key, int width)
{
	help_close(a, key, width);
	return do_quit(a, key, width);
}

static const struct action help_keys[] = {
	{"quit", {'q'}, "q", "close this help and quit", help_quit, 1},
};

static int unblank(struct app *a, int key, int width)
{
	(void)key, (void)width;
	a->ui.blank = 0;
	return REDRAW_VIEW;
}

static int do_redraw(struct app *a, int key, int width)
{
	(void)a, (void)key, (void)width;
	return REDRAW_ALL; /* the front end repaints every cell */
}

static const struct action screen_keys[] = {
	{"redraw", {12}, "^L", "redraw the whole screen", do_redraw, 0},
};

#define KEYMAP(nm, title, tab) nm, title, tab, ARRAY_LEN(tab)

static const struct keymap km_screen = {KEYMAP("screen", "Any time", screen_keys), 0, NULL,
					NULL};
static const struct keymap km_help = {KEYMAP("help", "Help", help_keys), 1, help_close,
				      "any other key closes this help"};
static const struct keymap km_prompt = {KEYMAP("prompt", "The j prompt", prompt_keys), 1, NULL,
					NULL};
static const struct keymap km_picker = {KEYMAP("picker", "The picker", picker_keys), 1, NULL,
					NULL};
static const struct keymap km_blank = {"blank", "Blank screen", NULL, 0, 1, unblank,
				       "any key shows the screen again"};
static const struct keymap km_replay = {KEYMAP("replay", "Replay", replay_keys), 0, NULL, NULL};
static const struct keymap km_global = {KEYMAP("global", "Every mode", global_keys), 0, NULL,
					NULL};

/* The dispatch order, top first (actions.h; talk_keymap is talk.c's). */
static const struct keymap *const order[] = {
	&km_screen, &km_help, &km_prompt, &km_picker, &km_blank, &talk_keymap, &km_replay, &km_global,
};

size_t keymap_count(void)
{
	return ARRAY_LEN(order);
}

const struct keymap *keymap_at(size_t i)
{
	return i < ARRAY_LEN(order) ? order[i] : NULL;
}

static int active(const struct app *a, const struct keymap *k)
{
	const struct ui *u = &a->ui;
	if (k == &km_help)
		return u->help;
	if (k == &km_prompt)
		return u->prompt;
	if (k == &km_picker)
		return u->picker.open;
	if (k == &km_blank)
		return u->blank;
	if (k == &talk_keymap)
		return a->talk != NULL;
	if (k == &km_replay)
		return a->model.replay.on;
	return 1;
}

size_t keys_layers(const struct app *a, const struct keymap **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(order) && n < max; i++)
		if (active(a, order[i]))
			out[n++] = order[i];
	return n;
}

static const struct action *bound(const struct keymap *k, int key)
{
	for (size_t i = 0; i < k->n; i++)
		for (int j = 0; j < ACTION_KEYS && k->actions[i].keys[j]; j++)
			if (k->actions[i].keys[j] == key)
				return &k->actions[i];
	return NULL;
}

int keys_dispatch(struct app *a, int key, int width)
{
	if (key == SKEY_RESIZE)
		return REDRAW_VIEW; /* the front end takes the new size */
	const struct keymap *layers[KEYS_LAYERS_MAX];
	size_t n = keys_layers(a, layers, KEYS_LAYERS_MAX);
	for (size_t i = 0; i < n; i++) {
		const struct action *act = bound(layers[i], key);
		int r = act ? act->run(a, key, width) : REACT_PASS;
		if (r == REACT_PASS && layers[i]->any)
			r = layers[i]->any(a, key, width);
		if (r != REACT_PASS)
			return r;
		if (layers[i]->modal)
			return REDRAW_NONE;
	}
	if (bound(&km_replay, key)) { /* a replay's key, live */
		app_status(a, "only in a replay (--replay FILE)");
		return REDRAW_STATUS;
	}
	return REDRAW_NONE;
}

static void help_lines(struct app *a);

void keys_help_refresh(struct app *a)
{
	const struct keymap *layers[KEYS_LAYERS_MAX];
	size_t n = keys_layers(a, layers, KEYS_LAYERS_MAX), k = 0;
	a->help_maps[k++] = &km_help;
	for (size_t i = 0; i < n; i++) {
		if (layers[i] == &km_screen || layers[i] == &km_help)
			continue;
		a->help_maps[k++] = layers[i];
		if (layers[i]->modal)
			break;
	}
	a->help_maps[k++] = &km_screen;
	a->help_nmaps = (int)k;
	help_lines(a);
}

/* Where km is in the dispatch order (order[]), the count when nowhere. */
static size_t rank(const struct keymap *km)
{
	size_t i = 0;
	while (i < ARRAY_LEN(order) && order[i] != km)
		i++;
	return i;
}

/* key reaches a table the help lists before ui.help_maps[t] in the
 * dispatch order (the screen's above all).  The help's own table says what
 * keys do while the overlay is open, the others what they do once it is
 * closed: it takes no key of theirs, nor they of it. */
static int shadowed(const struct app *a, int t, int key)
{
	const struct keymap *km = a->help_maps[t];
	if (km == &km_help)
		return 0;
	for (int i = 0; i < a->help_nmaps; i++) {
		const struct keymap *up = a->help_maps[i];
		if (up != &km_help && rank(up) < rank(km) && bound(up, key))
			return 1;
	}
	return 0;
}

/* A key as the help writes it ("space", "Home", "q"). */
static const char *key_name(int key, char *buf, size_t len)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
	    {' ', "space"},
	    {SKEY_LEFT, "\xe2\x86\x90"},
	    {SKEY_RIGHT, "\xe2\x86\x92"},
	    {SKEY_UP, "Up"},
	    {SKEY_DOWN, "Down"},
	    {SKEY_PGUP, "PgUp"},
	    {SKEY_PGDN, "PgDn"},
	    {SKEY_HOME, "Home"},
	    {SKEY_END, "End"},
	    {SKEY_ENTER, "Enter"},
	    {'\n', "Enter"},
	    {'\r', "Enter"},
	    {SKEY_ESC, "Esc"},
	    {SKEY_BACKSPACE, "Bksp"},
	    {127, "Bksp"},
	    {8, "Bksp"},
	    {12, "^L"},
	};
	for (size_t i = 0; i < ARRAY_LEN(names); i++)
		if (names[i].key == key)
			return names[i].name;
	if (key > ' ' && key < 127)
		snprintf(buf, len, "%c", key);
	else
		snprintf(buf, len, "#%d", key); /* no table binds one yet */
	return buf;
}

const char *keys_help_text(const struct app *a, int t, size_t k, char *buf, size_t len)
{
	const struct action *e = &a->help_maps[t]->actions[k];
	int own = 0, all = 1;
	for (int j = 0; j < ACTION_KEYS && e->keys[j]; j++)
		if (shadowed(a, t, e->keys[j]))
			all = 0;
		else
			own++;
	if (!own || all)
		return own ? e->keys_help : NULL;
	/* some are another table's: the names of the rest, each once */
	size_t at = 0;
	buf[0] = '\0';
	for (int j = 0; j < ACTION_KEYS && e->keys[j]; j++) {
		char one[8];
		const char *nm = key_name(e->keys[j], one, sizeof(one));
		if (shadowed(a, t, e->keys[j]) || strstr(buf, nm))
			continue;
		int w = snprintf(buf + at, len - at, "%s%s", at ? " " : "", nm);
		if (w < 0 || (size_t)w >= len - at)
			break;
		at += (size_t)w;
	}
	return buf;
}

/* ui.help_lines from help_maps: each table's title, its entries whose
 * keys run them in this mode, its any-key line; what does not fit goes. */
static void help_lines(struct app *a)
{
	struct ui *u = &a->ui;
	int n = 0;
	for (int t = 0; t < a->help_nmaps && n < UI_HELP_LINES; t++) {
		const struct keymap *km = a->help_maps[t];
		u->help_lines[n++] = (struct help_line){.title = km->title};
		for (size_t k = 0; k < km->n && n < UI_HELP_LINES; k++) {
			struct help_line *h = &u->help_lines[n];
			const char *keys = keys_help_text(a, t, k, h->keys, sizeof(h->keys));
			if (!keys) /* every key of it is an upper table's: listed there */
				continue;
			if (keys != h->keys)
				strlcpy_(h->keys, keys, sizeof(h->keys));
			h->title = NULL;
			h->text = km->actions[k].help;
			n++;
		}
		if (km->any_help && n < UI_HELP_LINES)
			u->help_lines[n++] = (struct help_line){.text = km->any_help};
	}
	u->help_nlines = n;
}

size_t action_count(void)
{
	return ARRAY_LEN(global_keys);
}

const struct action *action_at(size_t i)
{
	return i < ARRAY_LEN(global_keys) ? &global_keys[i] : NULL;
}

const struct action *action_for_key(int key)
{
	return bound(&km_global, key);
}

const struct action *action_find(const char *name)
{
	for (size_t i = ARRAY_LEN(order); i-- > 0;) /* global first */
		for (size_t j = 0; j < order[i]->n; j++)
			if (!strcmp(order[i]->actions[j].name, name))
				return &order[i]->actions[j];
	return NULL;
}
