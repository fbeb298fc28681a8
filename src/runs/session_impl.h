/*
 * session_impl — what the four files of the session share (internal to
 * src/runs/, not part of session.h's API).  session.c is a run's lifecycle
 * (init, prepare, drain, go, copy, flush, done, verify; cancel, stop);
 * session_cmd.c the --cmd entries (words, program, labels);
 * session_queue.c the queue (-s, --cmd, --repeat, --sweep, the picker's
 * additions, --sweep-until's steps); session_input.c the input file (the
 * scratch source a child writes).  All of them work on struct session
 * (session.h) and keep its invariants.
 */
#ifndef LRUTOP_SESSION_IMPL_H
#define LRUTOP_SESSION_IMPL_H

#include <stddef.h>

#include "runs/session.h"

/* ---- session.c ---- */

/* The queue stops for good, s->error saying why: the session failed,
 * nothing more runs (SESSION_FINISHED). */
void session_give_up(struct session *s);

/* ---- session_cmd.c ---- */

/* A --cmd's words ({src} and {dst} replaced by src and dst), NULL-ended,
 * allocated (session_cmd_free frees the entries'). */
char **session_cmd_split(const char *cmd, const char *src, const char *dst);
/* s->cmds from cfg's --cmd and --name: each program checked, each label
 * made unique.  0 or -1 + err (a usage error). */
int session_cmd_setup(struct session *s, const struct run_config *cfg, char *err, size_t errlen);
/* Frees the entries' words. */
void session_cmd_free(struct session *s);

/* ---- session_queue.c ---- */

/* The queue of the command line (and --baseline), the --cmds set up on
 * the way.  0 or -1 + err. */
int session_queue_setup(struct session *s, const struct run_config *cfg, char *err, size_t errlen);
/* The label of queue entry q before any sweep suffix, into buf. */
void session_queue_label(const struct session *s, const struct queued *q, char *buf, size_t len);
/* --sweep-until: queues the bisection's next step; how many runs it
 * queued, 0 when every entry is done (or the queue is full: s->error). */
size_t session_queue_sweep_step(struct session *s);

/* ---- session_input.c ---- */

/* The input (s->src) exists: the --cmds' words are made. */
void session_input_ready(struct session *s);
/* Forks the child that writes the scratch source (SESSION_MAKING_INPUT).
 * 0 or -1 + err. */
int session_input_start(struct session *s, char *err, size_t errlen);
/* Reaps the writer; 1 when it ended (well: SESSION_IDLE; else the queue
 * stops with s->error). */
int session_input_reap(struct session *s);
/* Stops the writer, if one is running. */
void session_input_kill(struct session *s);

#endif
