#include "loop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "util.h"

static int sig_pipe[2] = {-1, -1};
static const int handled[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};

static void on_signal(int signo)
{
	int saved = errno;
	unsigned char b = (unsigned char)signo;
	sig_note(signo);
	if (write(sig_pipe[1], &b, 1) < 0) {
		/* pipe full: a byte for this signal is already waiting */
	}
	errno = saved;
}

int sig_install(char *err, size_t errlen)
{
	if (sig_pipe[0] < 0 && pipe2(sig_pipe, O_NONBLOCK | O_CLOEXEC) < 0)
		return errf(err, errlen, "signal pipe: %s", strerror(errno));
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	for (size_t i = 0; i < ARRAY_LEN(handled); i++)
		if (sigaction(handled[i], &sa, NULL) < 0)
			return errf(err, errlen, "sigaction: %s", strerror(errno));
	/* A closed pipe or terminal must become an error return, not a kill. */
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int sig_fd(void)
{
	return sig_pipe[0];
}

int sig_next(void)
{
	unsigned char b;
	if (sig_pipe[0] >= 0 && read(sig_pipe[0], &b, 1) == 1)
		return b;
	return 0;
}

void sig_block(int block)
{
	sigset_t set;
	sigemptyset(&set);
	for (size_t i = 0; i < ARRAY_LEN(handled); i++)
		sigaddset(&set, handled[i]);
	sigprocmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
}

int ticker_open(struct ticker *t, double interval, char *err, size_t errlen)
{
	t->fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (t->fd < 0)
		return errf(err, errlen, "timerfd: %s", strerror(errno));
	ticker_set(t, interval);
	return 0;
}

void ticker_set(struct ticker *t, double interval)
{
	t->interval_ns = (uint64_t)(interval * 1e9 + 0.5);
	uint64_t first = mono_ns() + t->interval_ns;
	struct itimerspec its;
	its.it_value.tv_sec = (time_t)(first / 1000000000ull);
	its.it_value.tv_nsec = (long)(first % 1000000000ull);
	its.it_interval.tv_sec = (time_t)(t->interval_ns / 1000000000ull);
	its.it_interval.tv_nsec = (long)(t->interval_ns % 1000000000ull);
	timerfd_settime(t->fd, TFD_TIMER_ABSTIME, &its, NULL);
}

uint64_t ticker_read(struct ticker *t)
{
	uint64_t n = 0;
	if (read(t->fd, &n, sizeof(n)) != sizeof(n))
		return 0;
	return n;
}

void ticker_close(struct ticker *t)
{
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}
