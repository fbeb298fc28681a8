/* The live source: the sampler and the tick, and the session of copy runs
 * driven once per sample.  The session asks for a cgroup to be watched and
 * for a worker's write_bytes through its probe; both reach the sampler here,
 * so session.c never sees it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/cgio.h"
#include "base/ticker.h"
#include "sampling/residency.h"
#include <poll.h>

#include "runs/probe.h"
#include "model/probe_acc.h"
#include "sampling/sampler.h"
#include "model/series.h"
#include "runs/session.h"
#include "source/source.h"
#include "base/util.h"

struct live {
	struct source src; /* first: a struct source * is a struct live * */
	struct sampler *sampler;
	struct residency *res; /* the run's files in the page cache */
	struct residency_map map; /* ... where in them, the latest tick's */
	int map_n;		  /* its ranges a file */
	struct cgio *cgio;     /* the run's own disk bytes, from its cgroup */
	struct ticker tick;
	const struct series *series;
	struct session *session;
	struct disktab disks; /* the table of the newest sample, handed to the sink */
	size_t events_told, results_told; /* run log entries the sink has heard of */
	struct probe probe;	/* --probe: the neighbour reading beside the runs */
	struct probe_acc *acc;	/* its latencies, NULL without --probe */
	int probe_gone;		/* its pipe reached EOF (told once) */
};

static struct live *live_of(const struct source *src)
{
	return (struct live *)src;
}

/* The probe has exited (its pipe hung up), seen without reading it. */
static int probe_dead(const struct probe *p)
{
	struct pollfd pf = {.fd = p->fd, .events = POLLIN};
	if (p->fd < 0)
		return 1;
	return poll(&pf, 1, 0) == 1 && (pf.revents & (POLLHUP | POLLERR));
}

/* Tells the sink about what the session appended to the run log. */
static void tell_log(struct live *l)
{
	const struct source_sink *k = &l->src.sink;
	const struct runlog *log = l->src.log;
	for (; l->events_told < log->nevents; l->events_told++)
		if (k->event)
			k->event(k->ctx, &log->events[l->events_told]);
	for (; l->results_told < log->nresults && log->results[l->results_told].finished;
	     l->results_told++)
	{
		if (l->acc) {
			struct run_result *r = &l->src.log->results[l->results_told];
			probe_acc_result(l->acc, r, (int)l->results_told);
			if (l->probe_gone || probe_dead(&l->probe)) {
				/* a dead probe: what it read is only the start */
				char mode[sizeof(r->probe.mode)];
				strlcpy_(mode, r->probe.mode, sizeof(mode));
				memset(&r->probe, 0, sizeof(r->probe));
				strlcpy_(r->probe.mode, mode, sizeof(r->probe.mode));
				r->probe.lost = 1;
			}
		}
		if (k->result)
			k->result(k->ctx, &log->results[l->results_told]);
	}
}

static int live_fd(const struct source *src)
{
	return live_of(src)->tick.fd;
}

static int live_runs_fd(const struct source *src)
{
	const struct live *l = live_of(src);
	return l->session ? session_fd(l->session) : -1;
}

static unsigned long live_ready(struct source *src)
{
	return (unsigned long)ticker_read(&live_of(src)->tick);
}

/* The run's source and destination, while a run is on; between runs the
 * descriptors are closed. */
static void live_residency(struct live *l, struct sample *s)
{
	const char *src, *dst;
	if (l->session && session_run_files(l->session, &src, &dst)) {
		residency_read_map(l->res, src, dst, s, l->map_n, &l->map);
		return;
	}
	residency_close(l->res);
	l->map.src.n = l->map.dst.n = 0;
	l->map.t_ns = s->t_ns;
}

/* The probe's latencies that have arrived, for the run and phase of s
 * (annotated).  -1 once the probe has gone. */
static long probe_take(struct live *l, const struct sample *s)
{
	uint64_t lat[256];
	long n;
	int quiet = l->session && session_quiet(l->session);
	while ((n = probe_read(&l->probe, lat, sizeof(lat) / sizeof(lat[0]))) > 0)
		for (long i = 0; i < n; i++)
			probe_acc_add(l->acc, s, quiet, lat[i]);
	return n;
}

/* The loop saw the pipe readable: the reads go to the run and phase of
 * now (the tick takes what is left). */
static void live_probe_drain(struct source *src)
{
	struct live *l = live_of(src);
	if (!l->acc)
		return;
	struct sample now;
	memset(&now, 0, sizeof(now));
	now.run = -1;
	if (l->session)
		session_annotate(l->session, &now);
	probe_take(l, &now);
}

static int live_probe_fd(const struct source *src)
{
	const struct live *l = live_of(src);
	return l->acc ? l->probe.fd : -1;
}

/* The probe's latencies since the last sample, into the sample (and the
 * run's figures). */
static void probe_drain(struct live *l, struct sample *s)
{
	if (!l->acc)
		return;
	long n = probe_take(l, s);
	probe_acc_tick(l->acc, s);
	if ((n < 0 || l->probe.moved) && !l->probe_gone) {
		l->probe_gone = 1;
		char msg[160];
		snprintf(msg, sizeof(msg), "probe: stopped: %s",
			 l->probe.moved	    ? "moved out of lrutop's cgroup"
			 : l->probe.why[0] ? l->probe.why
					   : "its pipe closed");
		if (l->src.sink.note)
			l->src.sink.note(l->src.sink.ctx, msg);
	}
}

/* The run's own disk bytes, while its cgroup is there. */
static void live_cgio(struct live *l, struct sample *s)
{
	const char *path;
	int version;
	if (l->session && session_run_cgio(l->session, &path, &version))
		cgio_read(l->cgio, path, version, sampler_disk(l->sampler), s);
	else
		cgio_close(l->cgio);
}

static int live_step(struct source *src)
{
	struct live *l = live_of(src);
	const struct source_sink *k = &src->sink;
	struct sample s;
	sampler_read(l->sampler, &s);
	if (l->session)
		session_annotate(l->session, &s);
	live_residency(l, &s);
	probe_drain(l, &s);
	live_cgio(l, &s);
	/* the table comes from the same read of /proc/diskstats */
	int have_disks = sampler_read_disks(l->sampler, &l->disks) == 0;
	if (k->sample)
		k->sample(k->ctx, &s, have_disks ? &l->disks : NULL);
	if (k->map)
		k->map(k->ctx, &l->map);
	if (l->session) { /* after the push: the session reads the new sample */
		session_tick(l->session, l->series);
		tell_log(l);
	}
	return 0;
}

static int live_poll(struct source *src)
{
	struct live *l = live_of(src);
	if (!l->session)
		return 0;
	int ended = session_poll(l->session, l->series);
	tell_log(l);
	return ended;
}

static int live_pending(const struct source *src)
{
	const struct live *l = live_of(src);
	return l->session && l->session->state != SESSION_FINISHED;
}

static void live_set_interval(struct source *src, double interval)
{
	ticker_set(&live_of(src)->tick, interval);
}

static int live_cancel(struct source *src, int queue)
{
	struct live *l = live_of(src);
	struct session *s = l->session;
	if (queue) {
		if (!s || s->state == SESSION_FINISHED)
			return -1;
		session_cancel_queue(s, l->series);
	} else {
		if (!s || !session_current(s))
			return -1;
		session_cancel(s, l->series);
	}
	tell_log(l);
	return 0;
}

static size_t live_stop(struct source *src, const char *why)
{
	struct live *l = live_of(src);
	if (!live_pending(src))
		return 0;
	size_t left = session_runs_left(l->session);
	session_stop(l->session, why);
	tell_log(l);
	return left;
}

static void live_progress(const struct source *src, struct run_progress *out)
{
	const struct session *s = live_of(src)->session;
	if (!s) {
		out->state = RUNS_NONE;
		out->current = -1;
		return;
	}
	static const enum runs_state map[] = {
	    [SESSION_IDLE] = RUNS_IDLE,		  [SESSION_MAKING_INPUT] = RUNS_MAKING_INPUT,
	    [SESSION_DRAIN] = RUNS_DRAIN,	  [SESSION_RUNNING] = RUNS_RUNNING,
	    [SESSION_FINISHED] = RUNS_FINISHED,
	};
	out->state = map[s->state];
	out->phase = s->phase;
	const struct run_result *r = session_current(s);
	out->current = r ? (long)(r - s->log->results) : -1;
	out->queue_next = s->next;
	out->queue_len = s->queue_len;
	out->done = s->state == SESSION_MAKING_INPUT ? session_input_progress(s) : session_progress(s);
	out->total = s->src_size;
	out->have_input = s->have_input;
	out->src_size = s->src_size;
	out->failed = s->failed;
	strlcpy_(out->error, s->error, sizeof(out->error));
}

static void live_free(struct source *src)
{
	struct live *l = live_of(src);
	probe_stop(&l->probe); /* before the scratch directory goes */
	free(l->acc);
	if (l->session) {
		session_done(l->session);
		free(l->session);
	}
	ticker_close(&l->tick);
	sampler_free(l->sampler);
	residency_free(l->res);
	cgio_free(l->cgio);
	free(l);
}

static const struct source_ops live_ops;

void source_live_set_map_ranges(struct source *src, int n)
{
	if (src && src->ops == &live_ops)
		live_of(src)->map_n = n;
}

static const struct source_ops live_ops = {
	.name = "live",
	.fd = live_fd,
	.runs_fd = live_runs_fd,
	.probe_fd = live_probe_fd,
	.probe_drain = live_probe_drain,
	.ready = live_ready,
	.step = live_step,
	.poll = live_poll,
	.pending = live_pending,
	.set_interval = live_set_interval,
	.cancel = live_cancel,
	.stop = live_stop,
	.progress = live_progress,
	.free = live_free,
};

struct source *source_live_new(const char *disk, double interval, const struct series *series,
			       struct runlog *log, const struct source_sink *sink, char *err,
			       size_t errlen)
{
	struct live *l = xcalloc(1, sizeof(*l));
	l->src.ops = &live_ops;
	l->src.sink = *sink;
	l->src.log = log;
	l->series = series;
	l->tick.fd = -1;
	l->res = residency_new();
	l->map_n = 64; /* batch, or a TUI before its first frame */
	probe_init(&l->probe);
	l->cgio = cgio_new();
	l->sampler = sampler_new(disk, err, errlen);
	if (!l->sampler || ticker_open(&l->tick, interval, err, errlen) < 0) {
		live_free(&l->src);
		return NULL;
	}
	return &l->src;
}

struct sampler *source_live_sampler(struct source *src)
{
	return live_of(src)->sampler;
}

const char *source_live_missing(const struct source *src)
{
	return sampler_missing(live_of(src)->sampler);
}

static int monitor_watch_cgroup(void *ctx, const char *stat_path, const char *usage_path,
				uint64_t limit, char *err, size_t errlen)
{
	return sampler_set_cgroup(ctx, stat_path, usage_path, limit, err, errlen);
}

static int monitor_task_write_bytes(void *ctx, pid_t pid, uint64_t *write_bytes)
{
	return sampler_task_io(ctx, pid, write_bytes);
}

void source_live_attach(struct source *src, struct session *s)
{
	struct live *l = live_of(src);
	l->session = s;
	s->monitor.ctx = l->sampler;
	s->monitor.watch_cgroup = monitor_watch_cgroup;
	s->monitor.task_write_bytes = monitor_task_write_bytes;
}

struct session *source_live_session(struct source *src)
{
	return live_of(src)->session;
}

int source_live_probe(struct source *src, int mode, char *err, size_t errlen)
{
	struct live *l = live_of(src);
	if (!mode || l->acc || !l->session)
		return 0;
	if (probe_start(&l->probe, &l->session->scratch, (enum probe_mode)mode, err, errlen) < 0)
		return -1;
	l->acc = xcalloc(1, sizeof(*l->acc));
	probe_acc_init(l->acc, probe_mode_name((enum probe_mode)mode));
	l->session->quiet_hold_ns = PROBE_IDLE_NS;
	return 0;
}
