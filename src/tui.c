/* The interactive front end over app_loop: keys go through the key
 * tables of the current mode (actions.h: keys_dispatch, the layers in
 * order) and only change the model; what each reports changed decides
 * whether the screen is redrawn (once per loop turn) or repainted whole. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/actions.h"
#include "app/app.h"
#include "screen/grid.h"
#include "screen/screen.h"
#include "base/sigpipe.h"
#include "runs/strategy.h"
#include "talk/talk.h"
#include "base/util.h"
#include "screen/views.h"

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
		int r = keys_dispatch(t->a, k, t->w);
		if (r == REACT_PASS || r == REDRAW_NONE)
			continue;
		if (r & REDRAW_ALL) /* ^L: the terminal was scribbled on */
			screen_invalidate(t->scr);
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
	if (t->a->ui.help) /* a talk's stage may have changed the mode */
		keys_help_refresh(t->a);
	if (t->theme_gen != t->a->ui.theme_gen) {
		t->theme_gen = t->a->ui.theme_gen;
		screen_theme(t->scr, &t->a->ui.theme);
	}
	screen_size(t->scr, &t->w, &t->h);
	grid_resize(&t->g, t->w, t->h);
	source_live_set_map_ranges(t->a->src, strip_residency_map_ranges(t->w));
	views_draw(&t->views, &t->a->model, &t->a->ui, &t->g);
	screen_draw(t->scr, &t->g);
	t->dirty = 0;
}

/* ^Z: the terminal as it was found, stopped as the shell expects (SIGTSTP
 * at its default), and after SIGCONT set up and repainted: screen.c
 * draws itself, so curses' own handler, which repaints what it believes
 * is shown, would leave the screen blank. */
static void tui_suspend(void *ctx)
{
	struct tui *t = ctx;
	char e[128];
	screen_close(t->scr);
	signal(SIGTSTP, SIG_DFL);
	raise(SIGTSTP);
	sig_catch(SIGTSTP, e, sizeof(e));
	screen_resume(t->scr);
	t->dirty = 1;
}

int tui_run(struct app *a, char *err, size_t errlen)
{
	struct tui t = {.a = a, .dirty = 1};
	/* before newterm: curses leaves SIGTSTP alone when it finds it caught */
	if (sig_catch(SIGTSTP, err, errlen) < 0)
		return -1;
	t.scr = screen_open(a->opt->ascii, getenv("NO_COLOR") != NULL, err, errlen);
	if (!t.scr)
		return -1;
	/* SIGWINCH only inside the loop's wait (event_loop.c) */
	sigset_t winch, was;
	sigemptyset(&winch);
	sigaddset(&winch, SIGWINCH);
	sigprocmask(SIG_BLOCK, &winch, &was);
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
		.suspend = tui_suspend,
	};
	int rc = app_loop(a, &fe, err, errlen);
	sigprocmask(SIG_SETMASK, &was, NULL);
	grid_done(&t.g);
	views_done(&t.views);
	screen_free(t.scr);
	app_stop_runs(a);
	return rc;
}
