/* The batch front end: the same loop without a screen.  Prints one aligned
 * line per sample (a header every BATCH_HEADER_EVERY lines, like vmstat),
 * "# ..." lines for run events, and the results table at the end; -q keeps
 * only the table. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "output.h"
#include "results.h"
#include "stats.h"
#include "util.h"

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
	for (; a->session && *printed < l->nevents; (*printed)++) {
		if (!a->opt->quiet)
			results_event_line(stdout, &l->events[*printed], l->results, a->t0_ns);
	}
	stdout_ok(a);
}

void print_stats(FILE *f, const struct runlog *l)
{
	struct strategy_stats st[SESSION_MAX_STRATEGIES];
	int n = stats_compute(l->results, l->nresults, l->baseline, st, SESSION_MAX_STRATEGIES);
	if (l->nresults > 1 && n > 0) {
		fputc('\n', f);
		stats_table(f, st, n);
	}
}

int batch_run(struct app *a, char *err, size_t errlen)
{
	struct monitor *m = &a->mon;
	unsigned long lines = 0;
	size_t events = 0;
	long count = a->opt->count;
	int quiet = a->opt->quiet;
	while (!a->quit) {
		app_tick(a);
		app_poll_runs(a);
		if (!quiet) {
			if (lines % BATCH_HEADER_EVERY == 0)
				batch_header(stdout);
			const struct sample *cur = series_back(m->series, 0);
			batch_line(stdout, series_back(m->series, 1), cur, a->t0_ns);
			lines++;
		}
		print_events(a, &events);
		if (a->quit || a->stdout_errno)
			break; /* an output failed (main says which), or the reader went away */
		if (count && series_pushed(m->series) >= (unsigned long long)count) {
			a->count_reached = 1;
			break;
		}
		if (a->session && !app_runs_pending(a))
			break;
		for (;;) {
			struct pollfd pfd[3] = {
				{.fd = source_fd(a->src), .events = POLLIN},
				{.fd = sig_fd(), .events = POLLIN},
				{.fd = app_runs_fd(a), .events = POLLIN},
			};
			int r = poll(pfd, 3, -1);
			if (r < 0 && errno != EINTR)
				return errf(err, errlen, "poll: %s", strerror(errno));
			for (int sig; (sig = sig_next()) != 0;) {
				if (sig == SIGCHLD) {
					app_poll_runs(a);
				} else if (!a->signal) {
					a->signal = sig;
					a->quit = 1;
				}
			}
			if (r > 0 && pfd[2].revents)
				app_poll_runs(a);
			print_events(a, &events);
			if (a->quit || (r > 0 && (pfd[0].revents & POLLIN) && source_ready(a->src)))
				break;
		}
	}
	app_stop_runs(a);
	if (a->session && a->log->nresults && !a->stdout_errno) {
		if (!quiet)
			putchar('\n');
		results_table(stdout, a->log->results, a->log->nresults);
		print_stats(stdout, a->log);
	}
	stdout_ok(a);
	return 0;
}
