#include "base/ticker.h"

#include <errno.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

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
