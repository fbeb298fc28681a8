/* The one loop of both front ends: poll() over the source's tick, the runs'
 * fd, the signal pipe and (TUI) the keyboard.  A sample is taken when the
 * source says one is due; the front end only presents (redraw, or print
 * the new lines) and handles its input. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>

#include "app.h"
#include "sigpipe.h"
#include "util.h"

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

int app_loop(struct app *a, const struct frontend *fe, char *err, size_t errlen)
{
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
		int r = poll(pfd, fe->input_fd >= 0 ? P_N : P_INPUT, -1);
		if (r < 0 && errno != EINTR)
			return errf(err, errlen, "poll: %s", strerror(errno));
		int changed = 0;
		/* The input is read on every wake-up: ncurses turns SIGWINCH into
		 * a key, and that signal only shows up here as EINTR. */
		if (fe->input && fe->input(fe->ctx, r > 0 ? pfd[P_INPUT].revents : 0))
			changed = 1;
		for (int sig; (sig = sig_next()) != 0;) {
			if (sig == SIGCHLD) {
				changed |= app_poll_runs(a);
			} else if (!a->signal) {
				a->signal = sig; /* main exits 128 + sig */
				a->quit = 1;
			}
		}
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
