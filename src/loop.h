/*
 * loop — the pieces of the one poll() loop: the signal self-pipe and the
 * sampling tick.
 *
 * Invariants: the signal handlers only write the signal number to a
 * non-blocking pipe (STYLE.md rule 6); the pipe's two descriptors are the
 * only mutable globals in lrutop.  The tick is a timerfd armed with absolute
 * CLOCK_MONOTONIC deadlines, so ticks do not drift however long a turn of
 * the loop takes.
 */
#ifndef LRUTOP_LOOP_H
#define LRUTOP_LOOP_H

#include <stddef.h>
#include <stdint.h>

/* Installs handlers for INT, TERM, HUP and CHLD writing to the self-pipe.
 * 0 or -1. */
int sig_install(char *err, size_t errlen);
int sig_fd(void);
/* Next pending signal number, or 0 when none. */
int sig_next(void);
/* Blocks/unblocks the handled signals (around fork, STYLE.md rule 6). */
void sig_block(int block);

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
