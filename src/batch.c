/* The batch front end: the same loop without a screen; prints one aligned
 * line per sample (a header every BATCH_HEADER_EVERY lines, like vmstat). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>

#include "app.h"
#include "output.h"

int batch_run(struct app *a, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	struct monitor *m = &a->mon;
	unsigned long lines = 0;
	long count = a->opt->count;
	int quiet = a->opt->quiet;
	for (;;) {
		app_tick(a);
		if (!quiet) {
			if (lines % BATCH_HEADER_EVERY == 0)
				batch_header(stdout);
			const struct sample *cur = series_back(m->series, 0);
			batch_line(stdout, series_back(m->series, 1), cur, a->t0_ns);
			fflush(stdout);
			lines++;
		}
		if (a->csv)
			fflush(a->csv);
		if (count && series_pushed(m->series) >= (unsigned long long)count)
			break;
		int quit = 0;
		while (!quit) {
			struct pollfd pfd[2] = {
				{.fd = a->tick.fd, .events = POLLIN},
				{.fd = sig_fd(), .events = POLLIN},
			};
			int r = poll(pfd, 2, -1);
			if (r < 0 && errno != EINTR)
				return -1;
			for (int sig; (sig = sig_next()) != 0;)
				if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
					quit = 1;
			if (r > 0 && (pfd[0].revents & POLLIN) && ticker_read(&a->tick))
				break;
		}
		if (quit)
			break;
	}
	return 0;
}
