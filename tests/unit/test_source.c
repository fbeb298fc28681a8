/*
 * Tests for the source interface and the action table (part 5 §1):
 *  - the live source on this machine's real /proc: the first step pushes
 *    one sample and its device table into the sink together, with
 *    the newest sample's time as the model clock; the tick fd becomes
 *    readable within a deadline (polled, no sleep), source_ready counts the
 *    expirations and the next step's sample is later; with no session:
 *    nothing pending, no runs fd, cancel refused, stop a no-op, progress
 *    RUNS_NONE; a NULL op of a bare source is a safe no-op.
 *  - the sink tee: every callback reaches before, next, after in order.
 *  - actions: every action has a name, a help line and a key; no key is
 *    bound twice; action_for_key and action_find agree; an unknown name or
 *    key finds nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "app/actions.h"
#include "model/model.h"
#include "model/runlog.h"
#include "model/series.h"
#include "source/source.h"

#include <poll.h>
#include <string.h>
#include <time.h>

struct seen {
	int samples, disks;
	struct sample last;
	uint64_t disks_t_ns;
	int disks_n;
	struct series *series; /* the sink pushes, as app.c does */
};

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct seen *k = ctx;
	k->samples++;
	k->last = *s;
	if (t) {
		k->disks++;
		k->disks_t_ns = t->t_ns;
		k->disks_n = t->n;
	}
	series_push(k->series, s);
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void test_live_source(void **state)
{
	(void)state;
	char err[256];
	struct seen k;
	memset(&k, 0, sizeof(k));
	k.series = series_new(64);
	struct runlog *log = runlog_new();
	struct source_sink sink = {.ctx = &k, .sample = on_sample};
	struct source *src = source_live_new("", 0.05, k.series, log, &sink, err, sizeof(err));
	assert_non_null(src);
	assert_string_equal(src->ops->name, "live");
	assert_true(source_fd(src) >= 0);
	assert_int_equal(source_runs_fd(src), -1);

	uint64_t before = now_ns();
	assert_int_equal(source_step(src), 0);
	uint64_t after = now_ns();
	assert_int_equal(k.samples, 1);
	assert_int_equal(k.disks, 1); /* the table came with the sample */
	assert_true(k.disks_n > 0);	/* this machine has a disk or a loop device */
	assert_true(k.last.t_ns >= before && k.last.t_ns <= after);
	assert_true(k.disks_t_ns >= before && k.disks_t_ns <= after);
	assert_int_equal(k.last.run, -1); /* no session: no run */

	/* the model clock is the newest sample's time */
	struct model m;
	memset(&m, 0, sizeof(m));
	m.series = k.series;
	m.log = log;
	assert_int_equal(model_now(&m), k.last.t_ns);

	/* the tick: readable within a deadline, then counted */
	struct pollfd p = {.fd = source_fd(src), .events = POLLIN};
	assert_int_equal(poll(&p, 1, 5000), 1);
	assert_true(source_ready(src) >= 1);
	assert_int_equal(source_ready(src), 0); /* read: nothing due until the next tick */
	uint64_t first = k.last.t_ns;
	assert_int_equal(source_step(src), 0);
	assert_int_equal(k.samples, 2);
	assert_true(k.last.t_ns > first);
	assert_int_equal(model_now(&m), k.last.t_ns);

	/* a new interval re-arms the tick */
	source_set_interval(src, 0.1);
	p.revents = 0;
	assert_int_equal(poll(&p, 1, 5000), 1);
	assert_true(source_ready(src) >= 1);

	/* no session: nothing to run, cancel or stop */
	assert_int_equal(source_pending(src), 0);
	assert_int_equal(source_cancel(src, 0), -1);
	assert_int_equal(source_cancel(src, 1), -1);
	assert_int_equal(source_stop(src, "test"), 0);
	assert_int_equal(source_poll(src), 0);
	struct run_progress pr;
	memset(&pr, 0xff, sizeof(pr));
	source_progress(src, &pr);
	assert_int_equal(pr.state, RUNS_NONE);
	assert_int_equal(pr.current, -1);
	assert_int_equal(log->nresults, 0);
	assert_int_equal(log->nevents, 0);

	source_free(src);
	runlog_free(log);
	series_free(k.series);
}

/* A source with no ops but free: the wrappers are safe no-ops. */
static void bare_free(struct source *src)
{
	(void)src;
}

static void test_bare_source(void **state)
{
	(void)state;
	static const struct source_ops ops = {.name = "bare", .free = bare_free};
	struct source src = {.ops = &ops};
	assert_int_equal(source_fd(&src), -1);
	assert_int_equal(source_runs_fd(&src), -1);
	assert_int_equal(source_ready(&src), 0);
	assert_int_equal(source_step(&src), -1); /* nothing more */
	assert_int_equal(source_poll(&src), 0);
	assert_int_equal(source_pending(&src), 0);
	assert_int_equal(source_cancel(&src, 1), -1);
	assert_int_equal(source_stop(&src, "x"), 0);
	source_set_interval(&src, 1);
	struct run_progress pr;
	source_progress(&src, &pr);
	assert_int_equal(pr.state, RUNS_NONE);
	source_free(&src);
	source_free(NULL);
}

static void test_runlog(void **state)
{
	(void)state;
	struct runlog *l = runlog_new();
	runlog_add_event(l, 5, 1); /* before the first run: dropped */
	assert_int_equal(l->nevents, 0);
	assert_null(runlog_current(l));
	l->nresults = 1;
	assert_ptr_equal(runlog_current(l), &l->results[0]);
	runlog_add_event(l, 7, 2);
	assert_int_equal(l->nevents, 1);
	assert_int_equal(l->events[0].t_ns, 7);
	assert_int_equal(l->events[0].run, 0);
	assert_int_equal(l->events[0].phase, 2);
	l->results[0].finished = 1;
	assert_null(runlog_current(l));
	l->nevents = RUNLOG_MAX_EVENTS;
	runlog_add_event(l, 9, 2); /* full: dropped, not overrun */
	assert_int_equal(l->nevents, RUNLOG_MAX_EVENTS);
	runlog_free(l);
}

static void test_actions(void **state)
{
	(void)state;
	size_t n = action_count();
	assert_true(n >= 10);
	assert_null(action_at(n));
	for (size_t i = 0; i < n; i++) {
		const struct action *a = action_at(i);
		assert_non_null(a->name);
		assert_true(a->name[0] != '\0');
		assert_non_null(a->help);
		assert_true(a->keys[0] != 0);
		assert_ptr_equal(action_find(a->name), a);
		for (int k = 0; k < ACTION_KEYS && a->keys[k]; k++) {
			assert_ptr_equal(action_for_key(a->keys[k]), a); /* bound once */
			for (size_t j = i + 1; j < n; j++)
				for (int l = 0; l < ACTION_KEYS && action_at(j)->keys[l]; l++)
					assert_int_not_equal(action_at(j)->keys[l], a->keys[k]);
		}
	}
	assert_non_null(action_find("quit"));
	assert_ptr_equal(action_for_key('q'), action_find("quit"));
	assert_ptr_equal(action_for_key(' '), action_find("pause"));
	assert_ptr_equal(action_for_key('3'), action_find("view"));
	assert_null(action_find("no-such-action"));
	assert_null(action_for_key('X'));
}

/* The tee (sink_tee_init): every callback reaches before, next and after
 * in that order, each with its own ctx; a NULL side is skipped; and the
 * tee's sink sets every callback source_sink has: a callback added to
 * struct source_sink changes its size, which fails here until the tee
 * forwards it (the map once got lost in a hand-written tee). */
struct teelog {
	char buf[64];
	size_t n;
};
static struct teelog tlog;
static void tl(void *ctx, char what)
{
	if (tlog.n + 2 < sizeof(tlog.buf)) {
		tlog.buf[tlog.n++] = *(const char *)ctx;
		tlog.buf[tlog.n++] = what;
		tlog.buf[tlog.n] = '\0';
	}
}
static void tl_sample(void *c, const struct sample *s, const struct disktab *t)
{
	(void)s, (void)t;
	tl(c, 's');
}
static void tl_map(void *c, const struct residency_map *m)
{
	(void)m;
	tl(c, 'm');
}
static void tl_event(void *c, const struct run_event *e)
{
	(void)e;
	tl(c, 'e');
}
static void tl_result(void *c, const struct run_result *r)
{
	(void)r;
	tl(c, 'r');
}
static void tl_note(void *c, const char *m)
{
	(void)m;
	tl(c, 'n');
}
static void tl_reset(void *c)
{
	tl(c, 'x');
}
static void tl_loading(void *c, double done, size_t samples)
{
	(void)done, (void)samples;
	tl(c, 'l');
}

static void test_sink_tee(void **state)
{
	(void)state;
	static char b = 'B', n = 'N', a = 'A';
	struct source_sink sb = {&b, tl_sample, tl_map, tl_event, tl_result, tl_note, tl_reset, tl_loading};
	struct source_sink sn = sb, sa = sb;
	sn.ctx = &n;
	sa.ctx = &a;
	/* seven callbacks and the ctx: update sink_tee (source.c) and this */
	assert_int_equal(sizeof(struct source_sink), sizeof(void *) + 7 * sizeof(sb.reset));

	struct sink_tee t;
	struct source_sink out;
	sink_tee_init(&t, &sb, &sn, &sa, &out);
	assert_ptr_equal(out.ctx, &t);
	struct sample smp = {0};
	struct run_event ev = {0};
	struct run_result rr = {0};
	tlog.n = 0;
	out.sample(out.ctx, &smp, NULL);
	out.map(out.ctx, NULL);
	out.event(out.ctx, &ev);
	out.result(out.ctx, &rr);
	out.note(out.ctx, "x");
	out.reset(out.ctx);
	out.loading(out.ctx, 0.5, 10);
	assert_string_equal(tlog.buf, "BsNsAsBmNmAmBeNeAeBrNrArBnNnAnBxNxAxBlNlAl");

	/* no before, an after with only a sample callback */
	struct source_sink only = {.ctx = &a, .sample = tl_sample};
	sink_tee_init(&t, NULL, &sn, &only, &out);
	tlog.n = 0;
	out.sample(out.ctx, &smp, NULL);
	out.note(out.ctx, "x");
	out.reset(out.ctx);
	assert_string_equal(tlog.buf, "NsAsNnNx");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_live_source),
	    cmocka_unit_test(test_bare_source),
	    cmocka_unit_test(test_runlog),
	    cmocka_unit_test(test_actions),
	    cmocka_unit_test(test_sink_tee),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
