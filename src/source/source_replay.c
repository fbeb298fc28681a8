/* The replay source: a recording read back through the same sink as the
 * live source.  The file is read twice: once in source_replay_new, which
 * checks every line and keeps what seeking and the progress line need (the
 * sample times, the event times, the results), and then item by item as
 * the playback goes.  Seeking backwards starts the second read again from
 * the top into a reset model: simple, and exactly what a live run would
 * have built, since the history is rebuilt by the same pushes. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "record.h"
#include "source.h"
#include "strategy.h"
#include "util.h"

struct replay {
	struct source src; /* first: a struct source * is a struct replay * */
	char *path;
	struct recording *hdr_rec; /* the first read's handle: owns the header */
	struct recording *rec;	   /* the playback's */
	struct record_item it;	   /* the item read last */
	int have_next;		   /* it holds a sample not delivered yet */
	int eof;
	int seeking; /* no timer while seek delivers */
	char warning[600];
	int told_error;

	/* from the first read */
	uint64_t *t;	/* every sample's t_ns */
	size_t n;
	uint64_t *ev_t; /* every event's t_ns */
	size_t nev;
	struct run_result *res; /* the results, in the order written */
	size_t nres;
	int has_runs;
	size_t runs_total; /* runs the recording knows of */

	/* the playback */
	size_t pos;	    /* samples delivered */
	size_t results_seen;
	long cur_run;	    /* the run whose last event was not its end, -1 */
	int cur_phase;
	size_t runs_started;
	int failed;

	int tfd;
	double speed; /* 0: no pacing */
	int paused;
	uint64_t base_mono, base_t; /* the pace: t_ns base_t is due at base_mono */
};

static struct replay *rp_of(const struct source *src)
{
	return (struct replay *)src;
}

/* ---- the pace ----------------------------------------------------------- */

static void timer_arm_abs(int fd, uint64_t when_ns)
{
	struct itimerspec its = {0};
	its.it_value.tv_sec = (time_t)(when_ns / 1000000000ull);
	its.it_value.tv_nsec = (long)(when_ns % 1000000000ull);
	timerfd_settime(fd, when_ns ? TFD_TIMER_ABSTIME : 0, &its, NULL);
}

static int at_end(const struct replay *p)
{
	return p->eof && !p->have_next;
}

/* The next sample is due at base_mono + (its t - base_t) / speed. */
static void rebase(struct replay *p)
{
	p->base_mono = mono_ns();
	p->base_t = p->pos ? p->t[p->pos - 1] : (p->n ? p->t[0] : 0);
}

static void arm(struct replay *p)
{
	if (p->seeking)
		return;
	if (p->paused || at_end(p) || p->pos >= p->n) {
		timer_arm_abs(p->tfd, 0); /* disarmed */
		return;
	}
	if (p->speed <= 0) {
		struct itimerspec its = {.it_value = {.tv_nsec = 1}};
		timerfd_settime(p->tfd, 0, &its, NULL);
		return;
	}
	uint64_t next = p->t[p->pos];
	double dt = next > p->base_t ? (double)(next - p->base_t) / p->speed : 0;
	uint64_t due = p->base_mono + (uint64_t)dt;
	timer_arm_abs(p->tfd, due ? due : 1);
}

/* ---- reading and delivering --------------------------------------------- */

/* The next item into p->it: 1, or 0 at the end (a bad line mid-playback —
 * the file changed since it was checked — ends it too, with a note). */
static int read_item(struct replay *p)
{
	char err[600];
	int rc = recording_next(p->rec, &p->it, err, sizeof(err));
	if (rc < 0 && !p->told_error) {
		p->told_error = 1;
		if (p->src.sink.note)
			p->src.sink.note(p->src.sink.ctx, err);
	}
	return rc > 0;
}

/* The slot of run i, made (from the result recorded for it, when there is
 * one) the first time an event names it. */
static struct run_result *slot(struct replay *p, long i)
{
	struct runlog *log = p->src.log;
	if (i < 0 || i >= RUNLOG_MAX_RUNS)
		return NULL;
	while (log->nresults <= (size_t)i) {
		struct run_result *r = &log->results[log->nresults];
		memset(r, 0, sizeof(*r));
		r->cmd = -1;
		r->verified = -1;
		if (log->nresults < p->nres) {
			const struct run_result *x = &p->res[log->nresults];
			r->strategy = x->strategy;
			r->cmd = x->cmd;
			r->repeat = x->repeat;
			strlcpy_(r->name, x->name, sizeof(r->name));
		} else {
			snprintf(r->name, sizeof(r->name), "run %zu", log->nresults + 1);
		}
		log->nresults++;
	}
	return &log->results[i];
}

static void deliver(struct replay *p, const struct record_item *it)
{
	const struct source_sink *k = &p->src.sink;
	struct runlog *log = p->src.log;
	switch (it->kind) {
	case RECORD_SAMPLE:
		if (k->sample)
			k->sample(k->ctx, &it->sample, it->have_disks ? &it->disks : NULL);
		p->pos++;
		break;
	case RECORD_MAP:
		if (k->map)
			k->map(k->ctx, &it->map);
		break;
	case RECORD_EVENT: {
		const struct run_event *e = &it->event;
		struct run_result *r = slot(p, e->run);
		if (!r || log->nevents >= RUNLOG_MAX_EVENTS)
			break;
		if (!r->t_start_ns)
			r->t_start_ns = e->t_ns;
		if (e->phase == PHASE_COPY && !r->t_copy_ns)
			r->t_copy_ns = e->t_ns;
		if ((size_t)e->run + 1 > p->runs_started)
			p->runs_started = (size_t)e->run + 1;
		p->cur_run = e->phase == PHASE_IDLE ? -1 : e->run;
		p->cur_phase = e->phase;
		log->events[log->nevents++] = *e;
		if (k->event)
			k->event(k->ctx, &log->events[log->nevents - 1]);
		break;
	}
	case RECORD_RESULT: {
		size_t i = p->results_seen++;
		if (i >= RUNLOG_MAX_RUNS)
			break;
		slot(p, (long)i);
		log->results[i] = it->result;
		if (p->cur_run == (long)i)
			p->cur_run = -1;
		if (log->results[i].finished && !log->results[i].ok && !log->results[i].cancelled)
			p->failed = 1;
		if (k->result)
			k->result(k->ctx, &log->results[i]);
		break;
	}
	}
}

static int rp_step(struct source *src)
{
	struct replay *p = rp_of(src);
	if (!p->have_next && (p->eof || !read_item(p))) {
		p->eof = 1;
		arm(p);
		return -1;
	}
	/* what came before the first sample (a recording started mid-run) */
	while (p->it.kind != RECORD_SAMPLE) {
		deliver(p, &p->it);
		if (!read_item(p)) {
			p->eof = 1;
			p->have_next = 0;
			arm(p);
			return -1;
		}
	}
	deliver(p, &p->it);
	/* ... and what followed it, up to the next sample, kept for later */
	p->have_next = 0;
	while (read_item(p)) {
		if (p->it.kind == RECORD_SAMPLE) {
			p->have_next = 1;
			break;
		}
		deliver(p, &p->it);
	}
	if (!p->have_next)
		p->eof = 1;
	arm(p);
	return 0;
}

static int rp_fd(const struct source *src)
{
	return rp_of(src)->tfd;
}

static unsigned long rp_ready(struct source *src)
{
	uint64_t n = 0;
	if (read(rp_of(src)->tfd, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return 0;
	return n ? 1 : 0;
}

static int rp_pending(const struct source *src)
{
	const struct replay *p = rp_of(src);
	return p->has_runs && !at_end(p);
}

static void rp_progress(const struct source *src, struct run_progress *out)
{
	const struct replay *p = rp_of(src);
	memset(out, 0, sizeof(*out));
	out->current = -1;
	if (!p->has_runs) {
		out->state = RUNS_NONE;
		return;
	}
	out->failed = p->failed;
	out->queue_len = p->runs_total;
	out->queue_next = p->runs_started;
	if (p->cur_run >= 0 && (size_t)p->cur_run < p->src.log->nresults) {
		out->state = RUNS_RUNNING;
		out->current = p->cur_run;
		out->phase = p->cur_phase;
		/* The bytes copied are not recorded; the copy's share of the
		 * recorded time stands in for them. */
		if ((size_t)p->cur_run < p->nres) {
			const struct run_result *x = &p->res[p->cur_run];
			const struct run_result *r = &p->src.log->results[p->cur_run];
			uint64_t now = p->pos ? p->t[p->pos - 1] : 0;
			out->total = x->bytes;
			if (r->t_copy_ns && x->t_end_ns > r->t_copy_ns && now > r->t_copy_ns) {
				double f = (double)(now - r->t_copy_ns) /
					   (double)(x->t_end_ns - r->t_copy_ns);
				out->done = (uint64_t)((f > 1 ? 1 : f) * (double)x->bytes);
			}
		}
	} else if (at_end(p) || p->results_seen >= p->runs_total) {
		out->state = RUNS_FINISHED;
	} else {
		out->state = RUNS_IDLE;
	}
}

static void rp_free(struct source *src)
{
	struct replay *p = rp_of(src);
	if (p->tfd >= 0)
		close(p->tfd);
	recording_close(p->rec);
	recording_close(p->hdr_rec);
	free(p->t);
	free(p->ev_t);
	free(p->res);
	free(p->path);
	free(p);
}

static const struct source_ops replay_ops = {
	.name = "replay",
	.fd = rp_fd,
	.ready = rp_ready,
	.step = rp_step,
	.pending = rp_pending,
	.progress = rp_progress,
	.free = rp_free,
};

/* ---- the first read ----------------------------------------------------- */

/* The value of option name in the recorded command line ("--x V" or
 * "--x=V"), NULL when it was not given. */
static const char *argv_value(const struct record_header *h, const char *name)
{
	size_t l = strlen(name);
	const char *v = NULL;
	for (int i = 1; i < h->argc; i++) {
		const char *a = h->argv[i];
		if (!a)
			continue;
		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, name) && i + 1 < h->argc)
			v = h->argv[++i];
		else if (!strncmp(a, name, l) && a[l] == '=')
			v = a + l + 1;
	}
	return v;
}

static int index_file(struct replay *p, char *err, size_t errlen)
{
	size_t cap_t = 0, cap_ev = 0, cap_res = 0;
	uint64_t cg_limit = 0;
	size_t runs = 0;
	for (;;) {
		int rc = recording_next(p->hdr_rec, &p->it, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		switch (p->it.kind) {
		case RECORD_SAMPLE:
			if (p->n == cap_t) {
				cap_t = cap_t ? 2 * cap_t : 1024;
				p->t = xrealloc(p->t, cap_t * sizeof(*p->t));
			}
			if (p->n && p->it.sample.t_ns < p->t[p->n - 1])
				return errf(err, errlen, "%s:%u: sample: time goes backwards",
					    p->path, p->it.line);
			p->t[p->n++] = p->it.sample.t_ns;
			if ((p->it.sample.have & SAMPLE_HAVE_CG) && !cg_limit &&
			    p->it.sample.cg_limit < (1ull << 60))
				cg_limit = p->it.sample.cg_limit;
			break;
		case RECORD_EVENT:
			if (p->nev == cap_ev) {
				cap_ev = cap_ev ? 2 * cap_ev : 256;
				p->ev_t = xrealloc(p->ev_t, cap_ev * sizeof(*p->ev_t));
			}
			p->ev_t[p->nev++] = p->it.event.t_ns;
			if (p->it.event.run >= 0 && (size_t)p->it.event.run + 1 > runs)
				runs = (size_t)p->it.event.run + 1;
			p->has_runs = 1;
			break;
		case RECORD_RESULT:
			if (p->nres == cap_res) {
				cap_res = cap_res ? 2 * cap_res : 64;
				p->res = xrealloc(p->res, cap_res * sizeof(*p->res));
			}
			p->res[p->nres++] = p->it.result;
			p->has_runs = 1;
			break;
		case RECORD_MAP: /* checked; delivered in playback */
			break;
		}
	}
	if (!p->n)
		return errf(err, errlen, "%s: no samples in the recording", p->path);
	const char *w = recording_warning(p->hdr_rec);
	if (w)
		strlcpy_(p->warning, w, sizeof(p->warning));
	p->runs_total = runs > p->nres ? runs : p->nres;

	/* what the session set up: the baseline and the runs' memory limit */
	struct runlog *log = p->src.log;
	const struct record_header *h = recording_header(p->hdr_rec);
	const char *b = argv_value(h, "--baseline");
	if (b)
		strlcpy_(log->baseline, b, sizeof(log->baseline));
	else if (p->nres)
		strlcpy_(log->baseline, p->res[0].strategy ? p->res[0].strategy->name : p->res[0].name,
			 sizeof(log->baseline));
	const char *ml = argv_value(h, "--mem-limit");
	uint64_t lim = 0;
	log->mem_limit = ml && parse_size(ml, &lim) == 0 ? lim : cg_limit;
	/* the disk limit in effect is what every run's label says ("@32M");
	 * the command line's may not have been enforced (not root) */
	const char *dl = runlog_common_limit(p->res, p->nres);
	log->disk_limit = dl && parse_size(dl + 1, &lim) == 0 ? lim : 0;
	return 0;
}

static int open_playback(struct replay *p, char *err, size_t errlen)
{
	recording_close(p->rec);
	p->rec = recording_open(p->path, err, errlen);
	p->have_next = p->eof = 0;
	p->told_error = 0;
	return p->rec ? 0 : -1;
}

struct source *source_replay_new(const char *path, double speed, struct runlog *log,
				 const struct source_sink *sink, char *err, size_t errlen)
{
	struct replay *p = xcalloc(1, sizeof(*p));
	p->src.ops = &replay_ops;
	p->src.sink = *sink;
	p->src.log = log;
	p->path = xstrdup(path);
	p->speed = speed;
	p->cur_run = -1;
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (p->tfd < 0) {
		errf(err, errlen, "timerfd: %s", strerror(errno));
		goto fail;
	}
	p->hdr_rec = recording_open(path, err, errlen);
	if (!p->hdr_rec || index_file(p, err, errlen) < 0 || open_playback(p, err, errlen) < 0)
		goto fail;
	rebase(p);
	return &p->src;
fail:
	rp_free(&p->src);
	return NULL;
}

/* ---- control ------------------------------------------------------------ */

int source_is_replay(const struct source *src)
{
	return src && src->ops == &replay_ops;
}

const struct record_header *source_replay_header(const struct source *src)
{
	return recording_header(rp_of(src)->hdr_rec);
}

const char *source_replay_warning(const struct source *src)
{
	const struct replay *p = rp_of(src);
	return p->warning[0] ? p->warning : NULL;
}

void source_replay_pos(const struct source *src, struct replay_pos *out)
{
	const struct replay *p = rp_of(src);
	out->pos = p->pos;
	out->n = p->n;
	out->t_s = p->pos ? (double)(p->t[p->pos - 1] - p->t[0]) / 1e9 : 0;
	out->len_s = (double)(p->t[p->n - 1] - p->t[0]) / 1e9;
	out->speed = p->speed;
	out->paused = p->paused;
	out->at_end = at_end(p) || p->pos >= p->n;
}

void source_replay_seek(struct source *src, size_t index)
{
	struct replay *p = rp_of(src);
	if (index >= p->n)
		index = p->n - 1;
	size_t want = index + 1; /* samples delivered */
	p->seeking = 1;
	if (want < p->pos) {
		struct runlog *log = src->log;
		log->nresults = 0;
		log->nevents = 0;
		p->results_seen = 0;
		p->runs_started = 0;
		p->cur_run = -1;
		p->failed = 0;
		p->pos = 0;
		if (src->sink.reset)
			src->sink.reset(src->sink.ctx);
		char err[600];
		if (open_playback(p, err, sizeof(err)) < 0) {
			p->eof = 1; /* the file went away: stay empty, say why */
			if (src->sink.note)
				src->sink.note(src->sink.ctx, err);
		}
	}
	while (p->pos < want && rp_step(src) == 0)
		;
	p->seeking = 0;
	rebase(p);
	arm(p);
}

/* The first sample at or after t (n - 1 when none is). */
static size_t index_at_ns(const struct replay *p, uint64_t t)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->t[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->n ? lo : p->n - 1;
}

size_t source_replay_index_at(const struct source *src, double t_s)
{
	const struct replay *p = rp_of(src);
	return t_s <= 0 ? 0 : index_at_ns(p, p->t[0] + (uint64_t)(t_s * 1e9));
}

/* The sample an event was written after (its step delivers the event):
 * the last one taken before it. */
static size_t event_sample(const struct replay *p, uint64_t ev_t)
{
	size_t i = index_at_ns(p, ev_t);
	if (p->t[i] >= ev_t)
		return i ? i - 1 : 0;
	return i; /* after the last sample */
}

long source_replay_event_index(const struct source *src, int dir)
{
	const struct replay *p = rp_of(src);
	if (!p->nev || !p->pos)
		return -1;
	size_t cur = p->pos - 1;
	if (dir > 0) {
		for (size_t i = 0; i < p->nev; i++)
			if (event_sample(p, p->ev_t[i]) > cur)
				return (long)event_sample(p, p->ev_t[i]);
		return -1;
	}
	for (size_t i = p->nev; i-- > 0;)
		if (event_sample(p, p->ev_t[i]) < cur)
			return (long)event_sample(p, p->ev_t[i]);
	return -1;
}

void source_replay_set_speed(struct source *src, double speed)
{
	struct replay *p = rp_of(src);
	p->speed = speed;
	rebase(p);
	arm(p);
}

void source_replay_pause(struct source *src, int paused)
{
	struct replay *p = rp_of(src);
	p->paused = paused;
	rebase(p);
	arm(p);
}
