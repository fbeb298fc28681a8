/* The interactive front end: one poll() over the tick, the keyboard and the
 * signal pipe; keys and ticks only change the model and mark the screen
 * dirty; the screen is redrawn once per loop turn. */
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
#include "util.h"
#include "views.h"

/* Keys while the picker is open. */
static void picker_key(struct app *a, int k)
{
	struct picker *p = &a->mon.picker;
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

static void key(struct app *a, int k, int width)
{
	struct monitor *m = &a->mon;
	if (m->picker.open && k != SKEY_RESIZE) {
		picker_key(a, k);
		return;
	}
	if (m->help && k != SKEY_RESIZE) {
		m->help = 0;
		if (k != 'q')
			return;
	}
	const struct action *act = action_for_key(k);
	if (act && act->run)
		act->run(a, k, width);
}

int tui_run(struct app *a, char *err, size_t errlen)
{
	struct screen *scr = screen_open(a->opt->ascii, getenv("NO_COLOR") != NULL, err, errlen);
	if (!scr)
		return -1;
	struct monitor *m = &a->mon;
	if (!screen_utf8(scr))
		m->glyphs = CHART_ASCII;
	struct views views;
	views_init(&views);
	struct grid g;
	int w, h;
	screen_size(scr, &w, &h);
	grid_init(&g, w, h);
	app_tick(a);
	app_poll_runs(a);
	int dirty = 1, rc = 0;
	while (!a->quit) {
		dirty |= app_status_expire(a, mono_ns());
		if (dirty) {
			screen_size(scr, &w, &h);
			grid_resize(&g, w, h);
			views_draw(&views, m, &g);
			screen_draw(scr, &g);
			dirty = 0;
		}
		struct pollfd pfd[4] = {
			{.fd = source_fd(a->src), .events = POLLIN},
			{.fd = STDIN_FILENO, .events = POLLIN},
			{.fd = sig_fd(), .events = POLLIN},
			{.fd = app_runs_fd(a), .events = POLLIN},
		};
		int r = poll(pfd, 4, -1);
		if (r < 0 && errno != EINTR) {
			rc = errf(err, errlen, "poll: %s", strerror(errno));
			break;
		}
		/* Always drain keys: ncurses turns SIGWINCH into KEY_RESIZE,
		 * and that signal only shows up here as EINTR. */
		for (int k; (k = screen_key(scr)) != SKEY_NONE;) {
			if (k == 12) /* ^L: the terminal was scribbled on */
				screen_invalidate(scr);
			else
				key(a, k, w);
			dirty = 1;
		}
		if (r > 0 && pfd[3].revents && app_poll_runs(a))
			dirty = 1;
		if (r > 0 && (pfd[0].revents & POLLIN) && source_ready(a->src)) {
			app_tick(a);
			app_poll_runs(a);
			if (a->opt->count && series_pushed(m->series) >= (unsigned long long)a->opt->count) {
				a->count_reached = 1;
				a->quit = 1;
			}
			dirty = 1;
		}
		if (r > 0 && (pfd[1].revents & (POLLHUP | POLLERR)))
			a->quit = 1; /* the terminal went away */
		for (int sig; (sig = sig_next()) != 0;) {
			if (sig == SIGCHLD) {
				dirty |= app_poll_runs(a);
			} else if (!a->signal) {
				a->signal = sig; /* main exits 128 + sig, as batch does */
				a->quit = 1;
			}
		}
	}
	grid_done(&g);
	views_done(&views);
	screen_free(scr);
	app_stop_runs(a);
	return rc;
}
