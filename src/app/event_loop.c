/* The one loop of both front ends: poll() over the source's tick, the runs'
 * fd, the signal pipe and (TUI) the keyboard.  A sample is taken when the
 * source says one is due; the front end only presents (redraw, or print
 * the new lines) and handles its input. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include "app/app.h"
#include "base/sigpipe.h"
#include "base/util.h"

/* One sample and what follows it; 1 when the loop is to end. */
static int take_sample(struct app *a, const struct frontend *fe)
{
	int ended = app_tick(a) < 0;
	app_poll_runs(a);
	if (ended) /* a replay's end: batch is done, the TUI stays on the last sample */
		return fe->end_with_runs;
	if (fe->sampled && fe->sampled(fe->ctx))
		return 1;
	if (a->opt->count && series_pushed(a->model.series) >= (unsigned long long)a->opt->count) {
		a->count_reached = 1;
		return 1;
	}
	if (fe->end_with_runs && a->model.replay.on && a->model.replay.at_end)
		return 1; /* the recording's last sample */
	return fe->end_with_runs && a->model.runs.state != RUNS_NONE && !app_runs_pending(a);
}

/* The signals the self-pipe holds; 1 when one changed the model. */
static int take_signals(struct app *a, const struct frontend *fe)
{
	int changed = 0;
	for (int sig; (sig = sig_next()) != 0;) {
		if (sig == SIGCHLD) {
			changed |= app_poll_runs(a);
		} else if (sig == SIGTSTP && fe->suspend) {
			fe->suspend(fe->ctx);
			changed = 1;
		} else if (sig != SIGTSTP && !a->signal) {
			a->signal = sig; /* main exits 128 + sig */
			a->quit = 1;
		}
	}
	return changed;
}

int app_loop(struct app *a, const struct frontend *fe, char *err, size_t errlen)
{
	/* The wait lets SIGWINCH in, which the TUI blocks everywhere else
	 * (tui.c): a resize always ends the wait with EINTR, even when it
	 * came while a frame was drawn, so the keyboard need not be read on
	 * every wake-up to catch it. */
	sigset_t wait_mask;
	sigprocmask(SIG_SETMASK, NULL, &wait_mask);
	sigdelset(&wait_mask, SIGWINCH);
	int stop = take_sample(a, fe);
	while (!a->quit && !stop) {
		if (fe->present)
			fe->present(fe->ctx);
		enum { P_TICK, P_SIG, P_RUNS, P_AUX, P_PROBE, P_INPUT, P_N };
		struct pollfd pfd[P_N] = {
			[P_TICK] = {.fd = source_fd(a->src), .events = POLLIN},
			[P_SIG] = {.fd = sig_fd(), .events = POLLIN},
			[P_RUNS] = {.fd = app_runs_fd(a), .events = POLLIN},
			/* 0 (unset; fd 0 is stdin) or -1: none, which poll skips */
			[P_AUX] = {.fd = fe->aux_fd > 0 ? fe->aux_fd : -1, .events = POLLIN},
			[P_PROBE] = {.fd = source_probe_fd(a->src), .events = POLLIN}, /* --probe */
			[P_INPUT] = {.fd = fe->input_fd, .events = POLLIN},
		};
		int r = ppoll(pfd, fe->input_fd >= 0 ? P_N : P_INPUT, NULL, &wait_mask);
		if (r < 0 && errno != EINTR)
			return errf(err, errlen, "poll: %s", strerror(errno));
		int changed = 0;
		/* The input when it is readable, and after EINTR: ncurses turns
		 * SIGWINCH into a key, and that signal only shows up here so.
		 * Not on a tick's wake-up: each read costs curses a poll. */
		short in = r > 0 && fe->input_fd >= 0 ? pfd[P_INPUT].revents : 0;
		if (fe->input && (r < 0 || in) && fe->input(fe->ctx, in))
			changed = 1;
		/* the pipe when it holds a signal (or one came during the wait),
		 * not a read a turn for none */
		if (r < 0 || (pfd[P_SIG].revents & POLLIN))
			changed |= take_signals(a, fe);
		if (r > 0 && pfd[P_RUNS].revents)
			changed |= app_poll_runs(a);
		if (r > 0 && pfd[P_PROBE].revents)
			source_probe_drain(a->src);
		if (fe->woke)
			fe->woke(fe->ctx, changed);
		if (!a->quit && r > 0 && (pfd[P_TICK].revents & POLLIN) && source_ready(a->src))
			stop = take_sample(a, fe);
	}
	return 0;
}
