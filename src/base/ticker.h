/*
 * ticker — the sampling tick, one of the descriptors the event loop
 * (event_loop.c) polls.
 *
 * Invariants: the tick is a timerfd armed with absolute CLOCK_MONOTONIC
 * deadlines, so ticks do not drift however long a turn of the loop takes.
 */
#ifndef LRUTOP_TICKER_H
#define LRUTOP_TICKER_H

#include <stddef.h>
#include <stdint.h>

struct ticker {
	int fd;
	uint64_t interval_ns;
};
int ticker_open(struct ticker *t, double interval, char *err, size_t errlen);
/* Re-arms with a new interval; the next tick is one interval from now. */
void ticker_set(struct ticker *t, double interval);
/* Reads the expiration count (0 if none pending). */
uint64_t ticker_read(struct ticker *t);
void ticker_close(struct ticker *t);

#endif
