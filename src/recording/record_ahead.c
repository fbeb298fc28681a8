/* The recording reader's arena and read-ahead threads (record_reader.h):
 * jansson's allocations of a line from a bump arena, and the lines parsed
 * ahead on other threads (recording_read_ahead, record.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recording/record_reader.h"
#include "base/sigpipe.h"
#include "base/util.h"

/* ---- a line's allocations: a bump arena (record_reader.h) ---------------- */

static _Thread_local struct arena *arena_cur;

void *arena_malloc(size_t n)
{
	struct arena *a = arena_cur;
	if (a) {
		size_t at = (a->used + 15) & ~(size_t)15;
		if (n <= ARENA_SIZE && at <= ARENA_SIZE - n) {
			a->used = at + n;
			return a->base + at;
		}
		a->spilled++;
	}
	return malloc(n);
}

void arena_free(void *p)
{
	struct arena *a = arena_cur;
	if (a && (char *)p >= a->base && (char *)p < a->base + ARENA_SIZE)
		return; /* the arena's: reset with the line */
	free(p);
}

/* Parses with the arena: jansson's allocations from here to arena_end. */
void arena_begin(struct arena *a)
{
	a->used = 0;
	a->spilled = 0;
	arena_cur = a;
}

/* Drops a tree parsed into a (on any thread): only what spilled is freed,
 * and arena_free must see a's range to leave the rest alone. */
static void arena_drop(struct arena *a, json_t *o)
{
	if (!o || !a->spilled)
		return;
	struct arena *was = arena_cur;
	arena_cur = a;
	json_decref(o);
	arena_cur = was;
}

/* Ends the line: o's tree is dropped; only what spilled is freed. */
void arena_end(struct arena *a, json_t *o)
{
	if (a->spilled)
		json_decref(o); /* the arena's parts are no-ops in arena_free */
	arena_cur = NULL;
}

/* ---- read-ahead: the lines parsed on other threads (record_reader.h) ------ */

/* json_loadb into the slot's own arena (on whichever thread). */
static void slot_parse(struct slot *s)
{
	if (s->rc != 1 || !s->n)
		return;
	arena_begin(&s->arena);
	s->o = json_loadb(s->text, s->n, 0, &s->je);
	arena_cur = NULL;
}

static void *ahead_work(void *arg)
{
	struct ahead *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->stop && a->parse == a->tail) {
			a->idle++;
			pthread_cond_wait(&a->work, &a->mu);
			a->idle--;
		}
		if (a->stop)
			break;
		struct slot *s = &a->slot[a->parse++ % AHEAD_SLOTS];
		pthread_mutex_unlock(&a->mu);
		slot_parse(s);
		pthread_mutex_lock(&a->mu);
		s->parsed = 1;
		if (a->waiting)
			pthread_cond_signal(&a->done);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Starts the workers not running: how many run. */
int ahead_start(struct ahead *a)
{
	a->stop = 0;
	/* a worker takes no signal: the program's handlers run where they did */
	while (a->nthreads < a->want && sig_thread_start(&a->tid[a->nthreads], ahead_work, a) == 0)
		a->nthreads++;
	return a->nthreads;
}

/* Joins the workers; a slot one of them took is parsed by then. */
void ahead_stop(struct ahead *a)
{
	if (!a->nthreads)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->mu);
	for (int i = 0; i < a->nthreads; i++)
		pthread_join(a->tid[i], NULL);
	a->nthreads = 0;
}

/* Empties the ring (no worker running): the reader starts afresh. */
void ahead_drop(struct ahead *a)
{
	for (uint64_t q = a->head; q < a->tail; q++) {
		struct slot *s = &a->slot[q % AHEAD_SLOTS];
		arena_drop(&s->arena, s->o);
		s->o = NULL;
	}
	a->head = a->parse = a->tail = 0;
	a->reading_done = 0;
}

void ahead_free(struct ahead *a)
{
	if (!a)
		return;
	ahead_stop(a);
	ahead_drop(a);
	for (int i = 0; i < AHEAD_SLOTS; i++) {
		free(a->slot[i].text);
		free(a->slot[i].arena.base);
	}
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

/* Reads the next line into slot s: its copy, number and end. */
static void ahead_read(struct recording *r, struct slot *s)
{
	struct ahead *a = r->ahead;
	char *line;
	size_t n = 0;
	s->rc = rd_line(r, &line, &n, a->end_error, sizeof(a->end_error));
	s->n = s->rc == 1 ? n : 0;
	if (s->n > s->cap) {
		while (s->cap < s->n)
			s->cap *= 2;
		s->text = xrealloc(s->text, s->cap);
	}
	if (s->n)
		memcpy(s->text, line, s->n);
	s->line = r->line;
	s->off = rd_offset(r);
	s->o = NULL;
	s->parsed = 0;
	if (s->rc != 1) {
		a->reading_done = 1;
		r->failed = 0; /* said when the slot is taken */
	}
}

/* Reads lines into the free slots, each handed to the workers at once;
 * only when half the ring is free, so that workers that have caught up
 * are woken for a few lines, not one at a time. */
static void ahead_fill(struct recording *r)
{
	struct ahead *a = r->ahead;
	if (a->reading_done || a->tail - a->head > AHEAD_SLOTS / 2)
		return;
	unsigned items_line = r->line;
	r->line = a->read_line;
	while (!a->reading_done && a->tail - a->head < AHEAD_SLOTS) {
		ahead_read(r, &a->slot[a->tail % AHEAD_SLOTS]);
		pthread_mutex_lock(&a->mu);
		a->tail++;
		if (a->idle)
			pthread_cond_signal(&a->work);
		pthread_mutex_unlock(&a->mu);
	}
	a->read_line = r->line;
	r->line = items_line;
}

/* The slot at the head, parsed.  While a worker parses it, the caller
 * parses the next line no worker has started rather than sleep: a wait
 * and a wake-up a line cost more than the caller's part of it, and with
 * the caller as a parser, one worker keeps two cores busy. */
static struct slot *ahead_take(struct recording *r)
{
	struct ahead *a = r->ahead;
	ahead_fill(r);
	struct slot *s = &a->slot[a->head % AHEAD_SLOTS];
	pthread_mutex_lock(&a->mu);
	while (!s->parsed) {
		if (a->parse < a->tail) {
			struct slot *p = &a->slot[a->parse++ % AHEAD_SLOTS];
			pthread_mutex_unlock(&a->mu);
			slot_parse(p);
			pthread_mutex_lock(&a->mu);
			p->parsed = 1;
			continue;
		}
		a->waiting = 1;
		pthread_cond_wait(&a->done, &a->mu);
		a->waiting = 0;
	}
	pthread_mutex_unlock(&a->mu);
	return s;
}

/* recording_next with the read-ahead: the items of rd_next_here, from the
 * slots.  The workers stop at the end or an error (a seek starts them). */
int rd_next_ahead(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	struct ahead *a = r->ahead;
	for (;;) {
		struct slot *s = ahead_take(r);
		r->line = s->line;
		a->off = s->off;
		if (s->rc != 1) { /* stays at the head: the next call says it again */
			ahead_stop(a);
			if (s->rc >= 0)
				return rd_end(r, s->rc);
			r->failed = 1;
			strlcpy_(r->error, a->end_error, sizeof(r->error));
			return errf(err, errlen, "%s", r->error);
		}
		int got = 0;
		if (s->n) {
			arena_cur = &s->arena;
			json_t *o = rd_json_check(r, s->o, &s->je, err, errlen);
			got = o ? rd_item(r, o, it, err, errlen) : -1;
			arena_end(&s->arena, o);
		}
		s->o = NULL;
		a->head++;
		if (got < 0)
			ahead_stop(a);
		if (got != 0)
			return got;
	}
}

int recording_read_ahead(struct recording *r, int threads)
{
	if (threads <= 0 || r->ahead)
		return 0;
	struct ahead *a = xcalloc(1, sizeof(*a));
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->done, NULL);
	for (int i = 0; i < AHEAD_SLOTS; i++) {
		a->slot[i].cap = AHEAD_LINE0;
		a->slot[i].text = xmalloc(AHEAD_LINE0);
		a->slot[i].arena.base = xmalloc(ARENA_SIZE);
	}
	a->want = threads < AHEAD_THREADS_MAX ? threads : AHEAD_THREADS_MAX;
	a->read_line = r->line;
	a->off = rd_offset(r);
	if (!ahead_start(a)) {
		ahead_free(a);
		return -1;
	}
	r->ahead = a;
	return 0;
}

void recording_read_ahead_end(struct recording *r)
{
	ahead_free(r->ahead);
	r->ahead = NULL;
}

int recording_read_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	return n < 0 ? 0 : n > 3 ? 3 : (int)n;
}
