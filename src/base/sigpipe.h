/*
 * sigpipe — the signal self-pipe, one of the descriptors the event loop
 * (event_loop.c) polls.
 *
 * Invariants: the signal handlers only write the signal number to a
 * non-blocking pipe (docs/style.md rule 6); the pipe's two descriptors are the
 * only mutable globals in lrutop.
 */
#ifndef LRUTOP_SIGPIPE_H
#define LRUTOP_SIGPIPE_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

/* Installs handlers for INT, TERM, HUP and CHLD writing to the self-pipe.
 * 0 or -1. */
int sig_install(char *err, size_t errlen);
/* Catches signo the same way (the TUI's SIGTSTP, so that it stops
 * between two frames and repaints after: event_loop.c).  0 or -1. */
int sig_catch(int signo, char *err, size_t errlen);
/* fn (or SIG_DFL, SIG_IGN) as signo's disposition, with sa_flags flags and
 * nothing more blocked while it runs.  0 or -1 + errno. */
int sig_set(int signo, void (*fn)(int), int flags);
int sig_fd(void);
/* Next pending signal number, or 0 when none. */
int sig_next(void);
/* fork with every signal blocked around it, so that no handler of the
 * monitor runs in the child before the child resets them (tmux's job.c
 * does the same): the child starts with them all blocked and calls
 * sig_child_reset; the parent gets its mask back.  As fork: the child's
 * pid, 0 in the child, -1 + errno. */
pid_t sig_fork(void);
/* In a forked child: every disposition back to the default and no signal
 * blocked (docs/style.md rule 6), before it does anything else.  sigaction
 * fails harmlessly for KILL, STOP and libc's own. */
void sig_child_reset(void);
/* In a forked child that must not outlive parent (the monitor): killed
 * when it dies (PR_SET_PDEATHSIG), and gone at once (_exit 1) when it
 * already has. */
void sig_child_tie(pid_t parent);
/* pthread_create with every signal blocked in the new thread: the
 * handlers run on the threads they did, whose system calls a signal
 * interrupts.  0 or an error number. */
int sig_thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

#endif
