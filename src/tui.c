/* The interactive front end over app_loop: keys go through the action
 * table (actions.c) and only change the model and mark the screen dirty;
 * the screen is redrawn once per loop turn. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "app.h"
#include "grid.h"
#include "screen.h"
#include "strategy.h"
#include "talk.h"
#include "util.h"
#include "views.h"

/* Keys while the picker is open. */
static void picker_key(struct app *a, int k)
{
	struct picker *p = &a->ui.picker;
	int ns = (int)strategy_count(), rows = picker_rows();
	int d = 0;
	switch (k) {
	case SKEY_ESC:
	case 'q':
	case 'r':
		p->open = 0;
		return;
	case SKEY_UP:
	case 'k':
		p->cursor = (p->cursor + rows - 1) % rows;
		return;
	case SKEY_DOWN:
	case 'j':
		p->cursor = (p->cursor + 1) % rows;
		return;
	case ' ':
	case 'x':
		if (p->cursor < ns)
			p->checked[p->cursor] = !p->checked[p->cursor];
		return;
	case SKEY_ENTER: {
		char err[320];
		if (app_start_picked(a, err, sizeof(err)) < 0)
			app_status(a, err);
		else
			p->open = 0;
		return;
	}
	case SKEY_LEFT:
	case '-':
		d = -1;
		break;
	case SKEY_RIGHT:
	case '+':
		d = +1;
		break;
	default:
		return;
	}
	if (p->cursor == ns) {
		p->repeat += d;
		p->repeat = p->repeat < 1 ? 1 : p->repeat > 20 ? 20 : p->repeat;
	} else if (p->cursor == ns + 1) {
		p->size_i += d;
		p->size_i = p->size_i < 0 ? 0 : p->size_i >= picker_nsizes ? picker_nsizes - 1 : p->size_i;
	} else if (p->cursor == ns + 2) {
		p->limit_i += d;
		p->limit_i = p->limit_i < 0		       ? 0
			     : p->limit_i >= picker_nlimits ? picker_nlimits - 1
							    : p->limit_i;
	}
}

/* Keys while the j prompt is open: a time, Enter jumps, Esc cancels. */
static void prompt_key(struct app *a, int k)
{
	struct ui *u = &a->ui;
	size_t l = strlen(u->prompt_buf);
	if (k == SKEY_ESC) {
		u->prompt = 0;
	} else if (k == SKEY_BACKSPACE || k == 127 || k == 8) {
		if (l)
			u->prompt_buf[l - 1] = '\0';
	} else if (k == SKEY_ENTER || k == '\n' || k == '\r') {
		double t;
		u->prompt = 0;
		if (parse_clock(u->prompt_buf, &t) < 0)
			app_status(a, "j: a time is 42, 1.5 or 1:30");
		else
			app_replay_jump(a, t);
	} else if (((k >= '0' && k <= '9') || k == ':' || k == '.') &&
		   l + 1 < sizeof(u->prompt_buf)) {
		u->prompt_buf[l] = (char)k;
		u->prompt_buf[l + 1] = '\0';
	}
}

static void key(struct app *a, int k, int width)
{
	struct ui *u = &a->ui;
	if (u->prompt && k != SKEY_RESIZE) {
		prompt_key(a, k);
		return;
	}
	if (u->picker.open && k != SKEY_RESIZE) {
		picker_key(a, k);
		return;
	}
	if (u->help && k != SKEY_RESIZE) {
		u->help = 0;
		if (k != 'q')
			return;
	}
	if (a->talk && talk_key(a->talk, a, k, width))
		return; /* space and the arrows step through a talk */
	const struct action *act = action_for_key(k);
	if (act && act->run)
		act->run(a, k, width);
}

struct tui {
	struct app *a;
	struct screen *scr;
	struct views views;
	struct grid g;
	int w, h;
	int dirty;
	unsigned theme_gen; /* the ui.theme_gen the screen's colours are from */
};

static int tui_input(void *ctx, short revents)
{
	struct tui *t = ctx;
	int changed = 0;
	for (int k; (k = screen_key(t->scr)) != SKEY_NONE;) {
		if (k == 12) /* ^L: the terminal was scribbled on */
			screen_invalidate(t->scr);
		else
			key(t->a, k, t->w);
		changed = 1;
	}
	if (revents & (POLLHUP | POLLERR))
		t->a->quit = 1; /* the terminal went away */
	return changed;
}

static int tui_sampled(void *ctx)
{
	((struct tui *)ctx)->dirty = 1;
	return 0;
}

static void tui_woke(void *ctx, int changed)
{
	((struct tui *)ctx)->dirty |= changed;
}

static void tui_present(void *ctx)
{
	struct tui *t = ctx;
	t->dirty |= app_status_expire(t->a, mono_ns());
	t->dirty |= talk_update(t->a->talk, t->a, t->w);
	if (!t->dirty)
		return;
	if (t->theme_gen != t->a->ui.theme_gen) {
		t->theme_gen = t->a->ui.theme_gen;
		screen_theme(t->scr, &t->a->ui.theme);
	}
	screen_size(t->scr, &t->w, &t->h);
	grid_resize(&t->g, t->w, t->h);
	views_draw(&t->views, &t->a->model, &t->a->ui, &t->g);
	screen_draw(t->scr, &t->g);
	t->dirty = 0;
}

int tui_run(struct app *a, char *err, size_t errlen)
{
	struct tui t = {.a = a, .dirty = 1};
	t.scr = screen_open(a->opt->ascii, getenv("NO_COLOR") != NULL, err, errlen);
	if (!t.scr)
		return -1;
	screen_theme(t.scr, &a->ui.theme);
	t.theme_gen = a->ui.theme_gen;
	if (!screen_utf8(t.scr))
		a->ui.glyphs = CHART_ASCII;
	a->ui.ascii_only = a->opt->ascii || !screen_utf8(t.scr);
	views_init(&t.views);
	screen_size(t.scr, &t.w, &t.h);
	grid_init(&t.g, t.w, t.h);
	struct frontend fe = {
		.ctx = &t,
		.input_fd = STDIN_FILENO,
		.aux_fd = talk_timer_fd(a->talk),
		.input = tui_input,
		.sampled = tui_sampled,
		.woke = tui_woke,
		.present = tui_present,
	};
	int rc = app_loop(a, &fe, err, errlen);
	grid_done(&t.g);
	views_done(&t.views);
	screen_free(t.scr);
	app_stop_runs(a);
	return rc;
}
