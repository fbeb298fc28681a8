/* The replay source: a recording read back through the same sink as the
 * live source.  The file is read twice: once in source_replay_new, which
 * checks every line and keeps what seeking and the progress line need (the
 * sample times, the events and results in the order read, and every
 * MARK_EVERY samples a mark: where to read on from), and then item by item
 * as the playback goes.
 *
 * A seek without a window (source_replay_set_window) starts the second read
 * again from the top into a reset model, or reads on to a later sample.
 * With a window of W samples (the TUI's history) a seek backwards, or
 * forwards by more than W, resets the model, delivers the events and
 * results before the first of the last W samples from memory, moves the
 * reader to the mark before that sample (record.h: plain files at once;
 * gzip inflates from the access point before it, which a thread finds
 * during the first read of a paced playback: record.h), reads on (parsed, not delivered) to it and
 * delivers from there: what the history ends up holding is what a replay
 * from the top would have left in it, at a cost set by W, not by where in
 * the recording the seek goes.
 *
 * The first read also packs every sample (sample_pack.h, a block of
 * MARK_EVERY from each mark on) into a spool file without a name
 * (spool.h: beside the recording, else in $TMPDIR, /var/tmp or /tmp).  A
 * jump then delivers the window's samples from the spool, ~1 µs each
 * instead of a JSON line's ~40, up to the last mark two samples before the
 * one asked for, and reads only the rest from the recording (their disk
 * tables and maps, which the spool does not keep and the model keeps only
 * of the newest samples).  Without a spool (no file system took one, a
 * write failed) a jump reads the JSON as before. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "recording/gzindex.h"
#include "base/parse.h"
#include "recording/record.h"
#include "model/sample_pack.h"
#include "source/recorded.h"
#include "source/source.h"
#include "recording/spool.h"
#include "runs/strategy.h"
#include "base/util.h"

struct replay {
	struct source src; /* first: a struct source * is a struct replay * */
	char *path;
	struct recording *hdr_rec; /* the first read's handle: owns the header */
	struct record_config cfg;  /* the runs' (record_config_resolve) */
	struct recording *rec;	   /* the playback's */
	struct gzindex_job *zjob;  /* gzip: access points for rec's seeks */
	struct record_item it;	   /* the item read last */
	int have_next;		   /* it holds a sample not delivered yet */
	int eof;
	int seeking; /* no timer while seek delivers */
	size_t window; /* the sink keeps this many samples, 0: all */
	char run_name[32];
	char warning[600];
	int told_error;

	/* from the first read */
	uint64_t *t;	/* every sample's t_ns */
	size_t n;
	struct run_event *ev; /* every event */
	size_t nev;
	struct aux { /* every event and result in the order read */
		size_t after; /* samples read before it */
		uint32_t i;   /* into ev or res */
		uint8_t kind; /* RECORD_EVENT, RECORD_RESULT */
	} *aux;
	size_t naux;
	struct record_mark *marks; /* marks[k]: right after sample k * MARK_EVERY - 1 */
	size_t nmarks;
	FILE *spool;	     /* the samples packed, NULL: none */
	uint64_t *spool_off; /* spool_off[k]: where sample k * MARK_EVERY starts */
	size_t spool_len, nspool_off, spool_cap;
	size_t spooled; /* samples the last jump took from the spool */
	/* samples only (source_replay_samples_only): the playback reads the
	 * spool, block by block */
	int spool_play;
	uint8_t *play_buf;
	size_t play_cap, play_off, play_len, play_aux;
	struct sample_chain play_chain; /* the block being played */
	struct sample_chain spool_chain; /* the block being packed */
	struct run_result *res; /* the results, in the order written */
	size_t nres;
	int has_runs;
	size_t runs_total; /* runs the recording knows of */

	/* the playback */
	size_t pos;		   /* samples delivered */
	struct recorded_runs runs; /* its events and results in the run log */

	int tfd;
	double speed; /* 0: no pacing */
	int paused;
	uint64_t base_mono, base_t; /* the pace: t_ns base_t is due at base_mono */
};

/* Samples between two marks: a seek reads at most this many - 1 samples
 * it does not deliver (~40 µs each); a mark holds the disk rows (~130 B a
 * device), so 1M samples with 10 devices keep ~1.3 MB of marks. */
#define MARK_EVERY 1024

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

static void deliver(struct replay *p, const struct record_item *it)
{
	recorded_item(&p->runs, it, &p->src.sink);
	if (it->kind == RECORD_SAMPLE)
		p->pos++;
}

static size_t deliver_aux(struct replay *p, size_t a, size_t limit);

/* Block k of the spool into play_buf: 0, or -1 when it cannot be read. */
static int play_block(struct replay *p, size_t k)
{
	uint64_t off = p->spool_off[k];
	size_t len = (size_t)((k + 1 < p->nspool_off ? p->spool_off[k + 1] : p->spool_len) - off);
	if (len > p->play_cap)
		p->play_buf = xrealloc(p->play_buf, p->play_cap = len);
	p->play_off = 0;
	p->play_len = len;
	sample_chain_reset(&p->play_chain);
	return pread(fileno(p->spool), p->play_buf, len, (off_t)off) == (ssize_t)len ? 0 : -1;
}

/* The next sample of the block in play_buf; NULL when it does not
 * unpack. */
static const struct sample *play_sample(struct replay *p)
{
	size_t n;
	const struct sample *smp = sample_chain_unpack(&p->play_chain, p->play_buf + p->play_off,
						       p->play_len - p->play_off, &n);
	p->play_off += n;
	return smp;
}

/* A step of a samples-only playback: sample pos from the spool, then the
 * events and results read after it. */
static int spool_step(struct replay *p)
{
	size_t i = p->pos, j = i % MARK_EVERY;
	if (p->eof || i >= p->n) {
		p->eof = 1;
		return -1;
	}
	if (i == 0)
		p->play_aux = deliver_aux(p, 0, 0); /* a recording started mid-run */
	const struct sample *smp =
	    j == 0 && play_block(p, i / MARK_EVERY) < 0 ? NULL : play_sample(p);
	if (!smp) {
		if (p->src.sink.note)
			p->src.sink.note(p->src.sink.ctx, "cannot read the replay's spool back");
		p->eof = 1;
		return -1;
	}
	if (p->src.sink.sample)
		p->src.sink.sample(p->src.sink.ctx, smp, NULL);
	p->pos = i + 1;
	p->play_aux = deliver_aux(p, p->play_aux, p->pos);
	if (p->pos >= p->n)
		p->eof = 1;
	return 0;
}

int source_replay_samples_only(struct source *src)
{
	struct replay *p = rp_of(src);
	if (!p->spool || p->pos)
		return -1;
	p->spool_play = 1;
	recording_use_index(p->rec, NULL); /* no seeks: no access points */
	gzindex_job_free(p->zjob);
	p->zjob = NULL;
	return 0;
}

static int rp_step(struct source *src)
{
	struct replay *p = rp_of(src);
	if (p->spool_play)
		return spool_step(p);
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
	recorded_progress(&p->runs, p->runs_total, out);
	if (out->state == RUNS_RUNNING) {
		/* The bytes copied are not recorded; the copy's share of the
		 * recorded time stands in for them. */
		if ((size_t)out->current < p->nres) {
			const struct run_result *x = &p->res[out->current];
			const struct run_result *r = &p->src.log->results[out->current];
			uint64_t now = p->pos ? p->t[p->pos - 1] : 0;
			out->total = x->bytes;
			if (r->t_copy_ns && x->t_end_ns > r->t_copy_ns && now > r->t_copy_ns) {
				double f = (double)(now - r->t_copy_ns) /
					   (double)(x->t_end_ns - r->t_copy_ns);
				out->done = (uint64_t)((f > 1 ? 1 : f) * (double)x->bytes);
			}
		}
	} else if (at_end(p) || p->runs.results_seen >= p->runs_total) {
		out->state = RUNS_FINISHED;
	}
}

static void rp_free(struct source *src)
{
	struct replay *p = rp_of(src);
	if (p->tfd >= 0)
		close(p->tfd);
	recording_close(p->rec);
	recording_close(p->hdr_rec);
	gzindex_job_free(p->zjob); /* after the handles it was lent to */
	free(p->t);
	free(p->ev);
	free(p->aux);
	for (size_t i = 0; i < p->nmarks; i++)
		recording_mark_free(&p->marks[i]);
	free(p->marks);
	free(p->res);
	free(p->path);
	if (p->spool)
		fclose(p->spool);
	free(p->spool_off);
	free(p->play_buf);
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

/* Keeps the item just read in p->aux, in the order read. */
static void keep_aux(struct replay *p, size_t *cap, enum record_kind kind, size_t i)
{
	p->aux = xgrow(p->aux, p->naux, cap, sizeof(*p->aux), 256);
	p->aux[p->naux++] = (struct aux){.after = p->n, .i = (uint32_t)i, .kind = (uint8_t)kind};
}

/* A mark where the first read is now: before the item after sample n - 1. */
static void keep_mark(struct replay *p, size_t *cap)
{
	p->marks = xgrow(p->marks, p->nmarks, cap, sizeof(*p->marks), 64);
	memset(&p->marks[p->nmarks], 0, sizeof(p->marks[0]));
	recording_mark(p->hdr_rec, &p->marks[p->nmarks++]);
}

static void spool_drop(struct replay *p)
{
	if (p->spool)
		fclose(p->spool);
	p->spool = NULL;
}

/* Sample i, the next, packed onto the spool (a failed write drops it:
 * seeks then read the JSON). */
static void spool_put(struct replay *p, const struct sample *smp, size_t i)
{
	if (!p->spool)
		return;
	size_t j = i % MARK_EVERY;
	if (j == 0) {
		p->spool_off =
		    xgrow(p->spool_off, p->nspool_off, &p->spool_cap, sizeof(*p->spool_off), 64);
		p->spool_off[p->nspool_off++] = p->spool_len;
		sample_chain_reset(&p->spool_chain);
	}
	uint8_t buf[SAMPLE_PACK_MAX];
	size_t n = sample_chain_pack(&p->spool_chain, smp, buf);
	if (fwrite(buf, 1, n, p->spool) != n) {
		spool_drop(p);
		return;
	}
	p->spool_len += n;
}

/* The first read's progress for the sink, every 0.2 s (a mark's 1024
 * samples apart, ~25 ms of reading, is when the clock is looked at). */
static void say_loading(struct replay *p, uint64_t *last_ns)
{
	uint64_t now = mono_ns();
	if (!p->src.sink.loading || now - *last_ns < 200000000ull)
		return;
	*last_ns = now;
	uint64_t done, size;
	recording_position(p->hdr_rec, &done, &size);
	double f = size ? (double)done / (double)size : 0;
	p->src.sink.loading(p->src.sink.ctx, f < 1 ? f : 0.999, p->n);
}

static int index_file(struct replay *p, char *err, size_t errlen)
{
	size_t cap_t = 0, cap_ev = 0, cap_res = 0, cap_aux = 0, cap_marks = 0;
	uint64_t cg_limit = 0;
	size_t runs = 0;
	uint64_t said_ns = mono_ns();
	recording_read_ahead(p->hdr_rec, recording_read_threads());
	recording_check_order(p->hdr_rec);
	keep_mark(p, &cap_marks);
	for (;;) {
		int rc = recording_next(p->hdr_rec, &p->it, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0)
			break;
		switch (p->it.kind) {
		case RECORD_SAMPLE:
			p->t = xgrow(p->t, p->n, &cap_t, sizeof(*p->t), 1024);
			if (p->n && p->it.sample.t_ns < p->t[p->n - 1])
				return errf(err, errlen, "%s:%u: sample: time goes backwards",
					    p->path, p->it.line);
			spool_put(p, &p->it.sample, p->n);
			p->t[p->n++] = p->it.sample.t_ns;
			if (p->n % MARK_EVERY == 0) {
				keep_mark(p, &cap_marks);
				say_loading(p, &said_ns);
			}
			if ((p->it.sample.have & SAMPLE_HAVE_CG) && !cg_limit &&
			    p->it.sample.cg_limit < (1ull << 60))
				cg_limit = p->it.sample.cg_limit;
			break;
		case RECORD_EVENT:
			p->ev = xgrow(p->ev, p->nev, &cap_ev, sizeof(*p->ev), 256);
			keep_aux(p, &cap_aux, RECORD_EVENT, p->nev);
			p->ev[p->nev++] = p->it.event;
			if (p->it.event.run >= 0 && (size_t)p->it.event.run + 1 > runs)
				runs = (size_t)p->it.event.run + 1;
			p->has_runs = 1;
			break;
		case RECORD_RESULT:
			p->res = xgrow(p->res, p->nres, &cap_res, sizeof(*p->res), 64);
			keep_aux(p, &cap_aux, RECORD_RESULT, p->nres);
			p->res[p->nres++] = p->it.result;
			p->has_runs = 1;
			break;
		case RECORD_MAP: /* checked; delivered in playback */
			break;
		}
	}
	recording_read_ahead_end(p->hdr_rec); /* it keeps the header, reads no more */
	if (!p->n)
		return errf(err, errlen, "%s: no samples in the recording", p->path);
	if (p->spool && fflush(p->spool) == EOF)
		spool_drop(p);
	const char *w = recording_warning(p->hdr_rec);
	if (w)
		strlcpy_(p->warning, w, sizeof(p->warning));
	p->runs_total = runs > p->nres ? runs : p->nres;
	p->runs.known = p->res; /* a run's name before its result comes */
	p->runs.nknown = p->nres;

	source_replay_setup(p->src.log, &p->cfg, p->res, p->nres, cg_limit);
	return 0;
}

void source_replay_setup(struct runlog *log, const struct record_config *c,
			 const struct run_result *res, size_t nres, uint64_t cg_limit)
{
	/* what the session set up: the baseline and the runs' memory limit */
	if (c->baseline[0])
		strlcpy_(log->baseline, c->baseline, sizeof(log->baseline));
	else if (nres)
		strlcpy_(log->baseline, /* a sweep's: the first run's label, as live */
			 res[0].strategy[0] && !res[0].sweep_param ? res[0].strategy
								: res[0].name,
			 sizeof(log->baseline));
	log->mem_limit = c->mem_limit ? c->mem_limit : cg_limit;
	/* the disk limit the session set (its checks refuse one it cannot
	 * enforce); without it, what every run's label says ("@32M") */
	uint64_t lim = 0;
	const char *dl = runlog_common_limit(res, nres);
	log->disk_limit = c->disk_limit				? c->disk_limit
			  : dl && parse_size(dl + 1, &lim) == 0 ? lim
								: 0;
}

static int open_playback(struct replay *p, char *err, size_t errlen)
{
	recording_close(p->rec);
	p->rec = recording_open(p->path, err, errlen);
	if (p->rec)
		recording_use_index(p->rec, p->zjob);
	p->have_next = p->eof = 0;
	p->told_error = 0;
	return p->rec ? 0 : -1;
}

struct source *source_replay_new(const char *path, double speed, struct runlog *log,
				 const struct source_sink *sink,
				 const struct record_argv_parser *ap, char *err, size_t errlen)
{
	struct replay *p = xcalloc(1, sizeof(*p));
	p->src.ops = &replay_ops;
	p->src.sink = *sink;
	p->src.log = log;
	p->path = xstrdup(path);
	p->speed = speed;
	recorded_init(&p->runs, log);
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (p->tfd < 0) {
		errf(err, errlen, "timerfd: %s", strerror(errno));
		goto fail;
	}
	p->spool = spool_file_near(path);
	p->hdr_rec = recording_open(path, err, errlen);
	/* a paced playback is watched and may jump: in gzip the jumps start
	 * from access points, built while the first read goes (record.h) */
	if (p->hdr_rec && speed > 0)
		p->zjob = recording_index(p->hdr_rec, RECORD_INDEX_SPAN);
	if (p->hdr_rec)
		record_config_resolve(recording_header(p->hdr_rec), ap, &p->cfg);
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

const struct record_config *source_replay_config(const struct source *src)
{
	return &rp_of(src)->cfg;
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
	out->spooled = p->spooled;
}

/* The model and the playback's state back to before the first item. */
static void reset(struct replay *p)
{
	recorded_reset(&p->runs);
	p->pos = 0;
	if (p->src.sink.reset)
		p->src.sink.reset(p->src.sink.ctx);
}

/* The events and results read after at most `limit` samples, from aux a
 * on; returns the first not delivered. */
static size_t deliver_aux(struct replay *p, size_t a, size_t limit)
{
	for (; a < p->naux && p->aux[a].after <= limit; a++) {
		if (p->aux[a].kind == RECORD_EVENT) {
			p->it.kind = RECORD_EVENT;
			p->it.event = p->ev[p->aux[a].i];
		} else {
			p->it.kind = RECORD_RESULT;
			p->it.result = p->res[p->aux[a].i];
		}
		deliver(p, &p->it);
	}
	return a;
}

/* Samples [s0, end) from the spool into the sink (no disk table), each
 * followed by the events and results read after it; *a: the next aux.
 * -1 when the spool cannot be read back. */
static int spool_deliver(struct replay *p, size_t s0, size_t end, size_t *a)
{
	for (size_t i = s0 / MARK_EVERY * MARK_EVERY; i < end; i++) {
		size_t j = i % MARK_EVERY;
		const struct sample *smp =
		    j == 0 && play_block(p, i / MARK_EVERY) < 0 ? NULL : play_sample(p);
		if (!smp)
			return -1;
		if (i < s0)
			continue;
		if (p->src.sink.sample)
			p->src.sink.sample(p->src.sink.ctx, smp, NULL);
		p->pos = i + 1;
		*a = deliver_aux(p, *a, i + 1);
	}
	return 0;
}

/* A seek by the index: the model reset, then the last window samples up to
 * sample want - 1 delivered (the file header's comment). */
static void jump(struct replay *p, size_t want)
{
	size_t s0 = want > p->window ? want - p->window : 0; /* the first delivered */
	size_t from = s0; /* the first read from the recording */
	/* the spool up to the mark before the last two samples: those come
	 * with their disk tables, the model's iostat needs two */
	size_t m = want >= 2 ? (want - 2) / MARK_EVERY * MARK_EVERY : 0;
	reset(p);
	size_t a = deliver_aux(p, 0, s0);
	p->spooled = 0;
	if (p->spool && m > s0) {
		if (spool_deliver(p, s0, m, &a) == 0) {
			from = m;
			p->spooled = m - s0;
		} else {
			spool_drop(p); /* unreadable: from the JSON, from the start */
			reset(p);
			deliver_aux(p, 0, s0);
		}
	}
	char err[600];
	size_t k = from / MARK_EVERY, at = k * MARK_EVERY; /* at: the next sample's index */
	p->have_next = p->eof = 0;
	if (k >= p->nmarks || recording_seek(p->rec, &p->marks[k], err, sizeof(err)) < 0) {
		p->eof = 1;
		if (k < p->nmarks && p->src.sink.note)
			p->src.sink.note(p->src.sink.ctx, err);
		return;
	}
	/* read on to sample `from`: the disk rows after it are deltas against
	 * the tables before it; the events between were delivered above */
	while (read_item(p))
		if (p->it.kind == RECORD_SAMPLE && at++ == from) {
			p->have_next = 1;
			p->pos = from;
			return;
		}
	p->eof = 1;
}

void source_replay_seek(struct source *src, size_t index)
{
	struct replay *p = rp_of(src);
	if (index >= p->n)
		index = p->n - 1;
	size_t want = index + 1; /* samples delivered */
	p->seeking = 1;
	if (p->window && (want < p->pos || want - p->pos > p->window)) {
		jump(p, want);
	} else if (want < p->pos) {
		reset(p);
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
			if (event_sample(p, p->ev[i].t_ns) > cur)
				return (long)event_sample(p, p->ev[i].t_ns);
		return -1;
	}
	for (size_t i = p->nev; i-- > 0;)
		if (event_sample(p, p->ev[i].t_ns) < cur)
			return (long)event_sample(p, p->ev[i].t_ns);
	return -1;
}

const char *source_replay_run_name(struct source *src, size_t i)
{
	struct replay *p = rp_of(src);
	if (i < p->nres)
		return p->res[i].name;
	if (i >= p->runs_total)
		return NULL;
	snprintf(p->run_name, sizeof(p->run_name), "run %zu", i + 1); /* as recorded.c names it */
	return p->run_name;
}

void source_replay_set_window(struct source *src, size_t n)
{
	struct replay *p = rp_of(src);
	p->window = n;
	/* a window means jumps: in gzip from access points (source_replay_new
	 * started them for a paced playback) */
	if (n && !p->zjob && p->rec) {
		p->zjob = recording_index(p->rec, RECORD_INDEX_SPAN);
		recording_use_index(p->rec, p->zjob);
	}
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
