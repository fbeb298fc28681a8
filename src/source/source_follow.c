/* The follow source (--follow FILE|-): a recording read as it is written —
 * a growing file, a pipe, standard input — and drawn as it comes, in the
 * writer's time.  The bytes go through the reader's stream (record.h:
 * the same lines, checks and messages as a replay's), the items into the
 * sink in their order, the runs through recorded.h as a replay puts them.
 *
 * What the loop polls (source_fd, and source_runs_fd: the same) is an
 * epoll descriptor over the input — the pipe itself, or for a regular
 * file an inotify watch (IN_MODIFY, IN_CLOSE_WRITE, IN_MOVE_SELF,
 * IN_DELETE_SELF, IN_ATTRIB), never a poll of the file — and a timerfd:
 * at once while there is more to take than a turn took, else once a
 * second, so a writer that stalls is said ("no data for N s") without the
 * loop spinning.
 *
 * A turn takes a bounded amount (a flood must neither starve the keyboard
 * nor grow memory): one read of at most FOLLOW_CHUNK bytes when the
 * reader has used all it was given, events and results before the next
 * sample (poll, FOLLOW_ITEMS at most), then per step up to per_step
 * samples (batch: one, so each gets its line) and what follows them.  The
 * pipe's writer waits while lrutop draws; a file waits on its disk; the
 * history is a ring.
 *
 * The end: the pipe's EOF, or the file's writer closing it
 * (IN_CLOSE_WRITE: a file appended to by steps is followed while one
 * writer holds it open), after which the rest is read.  A cut last line is
 * the reader's one warning; a bad line (any check a replay makes, the
 * time order too) ends the follow with its "FILE:LINE: reason"; either
 * way what came before stays.  step says -1 once then, and the source is
 * quiet from there (its descriptors leave the epoll set). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "recording/record.h"
#include "source/recorded.h"
#include "source/source.h"
#include "runs/strategy.h"
#include "base/util.h"

#define FOLLOW_CHUNK 65536 /* one read a turn at most */
#define FOLLOW_ITEMS 256   /* items one poll or one step delivers at most */

struct follow {
	struct source src; /* first: a struct source * is a struct follow * */
	char *path;	   /* as given ("-" for standard input) */
	int in;		   /* the file or the pipe */
	int file;	   /* a regular file: inotify wakes it; else a pipe */
	int fifo;	   /* a pipe: its EOF only once a writer came and went */
	int unpolled;	   /* epoll cannot wait on it (/dev/null): read it on the timer */
	int ino;	   /* inotify, -1 */
	int ep, tfd;
	int per_step;
	struct recording *rec; /* the stream: the header, the lines */
	struct record_config cfg;
	struct record_item it; /* the next item, read and not delivered */
	int have_it;
	int in_eof; /* the input has ended: the stream was told */
	int closed; /* the file's writer closed it (IN_CLOSE_WRITE) */
	int more;   /* the last read filled its buffer: there may be more now */
	int over;   /* the follow has ended (the end, a bad line): nothing more comes */
	int told;   /* step returned -1 for it */
	int end;    /* enum follow_end */
	char note[640];
	uint64_t off;	   /* bytes read from the file */
	uint64_t last_ns;  /* CLOCK_MONOTONIC of the last bytes read */
	uint64_t wall0_ns; /* the writer's start_wall, ns since the epoch; 0 unknown */
	uint64_t newest_t; /* the newest sample delivered (the writer's clock) */
	int have_newest;
	uint64_t cg_limit; /* the first run cgroup limit a sample showed */
	struct recorded_runs runs;
	struct run_result *expect; /* the runs the configuration names (expect_runs), NULL */
	size_t total;		   /* runs the configuration asks for, 0 unknown */
	int has_runs;
	long said_idle; /* the whole seconds of a stall last said, -1 none */
	char buf[FOLLOW_CHUNK];
};

static struct follow *fl_of(const struct source *src)
{
	return (struct follow *)src;
}

/* ---- the timer and the wake-ups ------------------------------------------ */

static void arm(struct follow *p)
{
	struct itimerspec its = {0};
	if (p->have_it || p->more || (p->over && !p->told) || (p->closed && !p->in_eof) ||
	    (p->unpolled && !p->in_eof)) {
		its.it_value.tv_nsec = 1; /* more to take: the next turn */
	} else {
		/* a stall is said once a second; after the end the screen stays,
		 * and a status message on it still goes when its time is up */
		its.it_value.tv_sec = 1;
		its.it_interval.tv_sec = 1;
	}
	timerfd_settime(p->tfd, 0, &its, NULL);
}

/* The input and the watch leave the epoll set: nothing wakes the loop for
 * this source again (a pipe at EOF would be readable for ever). */
static void unwatch(struct follow *p)
{
	if (p->ino >= 0) {
		epoll_ctl(p->ep, EPOLL_CTL_DEL, p->ino, NULL);
		close(p->ino);
		p->ino = -1;
	} else if (p->in >= 0) {
		epoll_ctl(p->ep, EPOLL_CTL_DEL, p->in, NULL);
	}
}

/* The follow ends: kind, and what to say ("" for a clean end). */
static void finish(struct follow *p, int kind, const char *msg)
{
	if (p->over)
		return;
	p->over = 1;
	p->end = kind;
	if (msg && msg[0])
		strlcpy_(p->note, msg, sizeof(p->note));
	else
		snprintf(p->note, sizeof(p->note), "%s: the writer %s; following ended", p->path,
			 p->file ? "closed the file" : "closed the stream");
	unwatch(p);
}

/* What inotify says happened to the file. */
static void drain_watch(struct follow *p)
{
	if (p->ino < 0)
		return;
	char ev[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n;
	while ((n = read(p->ino, ev, sizeof(ev))) > 0) {
		for (char *q = ev; q < ev + n;) {
			const struct inotify_event *e = (const struct inotify_event *)q;
			if (e->mask & IN_CLOSE_WRITE)
				p->closed = 1;
			if ((e->mask & IN_MOVE_SELF) && p->src.sink.note) {
				char m[600];
				snprintf(m, sizeof(m), "%s was renamed: following it on", p->path);
				p->src.sink.note(p->src.sink.ctx, m);
			}
			struct stat st;
			if ((e->mask & (IN_DELETE_SELF | IN_ATTRIB)) && fstat(p->in, &st) == 0 &&
			    st.st_nlink == 0 && p->src.sink.note) {
				char m[600];
				snprintf(m, sizeof(m),
					 "%s was removed: following what its writer still writes",
					 p->path);
				p->src.sink.note(p->src.sink.ctx, m);
			}
			q += sizeof(*e) + e->len;
		}
	}
}

/* One read into the stream: the bytes, the input's end, or nothing yet. */
static void read_some(struct follow *p)
{
	if (p->in_eof)
		return;
	ssize_t n = read(p->in, p->buf, sizeof(p->buf));
	if (n > 0) {
		recording_stream_feed(p->rec, p->buf, (size_t)n);
		p->off += (uint64_t)n;
		p->last_ns = mono_ns();
		p->more = n == (ssize_t)sizeof(p->buf);
		return;
	}
	p->more = 0;
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return;
		char m[600];
		snprintf(m, sizeof(m), "%s: read error: %s", p->path, strerror(errno));
		finish(p, FOLLOW_BAD, m);
		return;
	}
	if (p->fifo && !p->off) {
		/* a FIFO no writer has opened yet reads as its end: only once one
		 * has come and gone (POLLHUP) is it one */
		struct pollfd pf = {.fd = p->in, .events = POLLIN};
		if (poll(&pf, 1, 0) >= 0 && !(pf.revents & POLLHUP))
			return;
	}
	if (p->file && !p->closed) { /* at the end for now; a file cut shorter is no recording */
		struct stat st;
		if (fstat(p->in, &st) == 0 && (uint64_t)st.st_size < p->off) {
			char m[600];
			snprintf(m, sizeof(m),
				 "%s: cut to %lld bytes while followed (%llu were read): not the "
				 "recording it was",
				 p->path, (long long)st.st_size, (unsigned long long)p->off);
			finish(p, FOLLOW_BAD, m);
		}
		return;
	}
	p->in_eof = 1;
	recording_stream_end(p->rec);
}

/* The next item into p->it, reading once when the stream wants bytes;
 * the end or a bad line finish the follow. */
static void take(struct follow *p)
{
	for (int reads = 0; !p->have_it && !p->over;) {
		char err[600];
		int rc = recording_stream_next(p->rec, &p->it, err, sizeof(err));
		if (rc == 1) {
			p->have_it = 1;
		} else if (rc < 0) {
			finish(p, FOLLOW_BAD, err);
		} else if (rc == 2) {
			const char *w = recording_warning(p->rec);
			finish(p, w ? FOLLOW_CUT : FOLLOW_ENDED, w);
		} else if (reads++ == 0) {
			read_some(p);
		} else {
			break;
		}
	}
}

/* What woke the loop: the timer read, the watch drained, the next item. */
static void pump(struct follow *p)
{
	uint64_t x;
	if (read(p->tfd, &x, sizeof(x)) < 0) {
		/* not expired: woken by the input */
	}
	drain_watch(p);
	take(p);
}

/* ---- delivering ------------------------------------------------------------ */

static void deliver(struct follow *p)
{
	const struct record_item *it = &p->it;
	recorded_item(&p->runs, it, &p->src.sink);
	p->have_it = 0;
	if (it->kind == RECORD_SAMPLE) {
		p->newest_t = it->sample.t_ns;
		p->have_newest = 1;
		if ((it->sample.have & SAMPLE_HAVE_CG) && !p->cg_limit &&
		    it->sample.cg_limit < (1ull << 60))
			p->cg_limit = it->sample.cg_limit;
	} else if (it->kind == RECORD_EVENT || it->kind == RECORD_RESULT) {
		p->has_runs = 1;
		/* the baseline and limits the session set up, as a replay's
		 * first read finds them (a sweep's baseline: its first result) */
		source_replay_setup(p->src.log, &p->cfg, p->src.log->results, p->runs.results_seen,
				    p->cg_limit);
	}
}

static int is_sample(const struct follow *p)
{
	return p->have_it && p->it.kind == RECORD_SAMPLE;
}

/* How long the writer has said nothing, in whole seconds, -1 while it
 * has not stalled (the threshold: 2 s, or three of its intervals). */
static long idle_s(const struct follow *p, uint64_t now)
{
	const struct record_header *h = recording_header(p->rec);
	double limit = h->interval_s * 3 > 2 ? h->interval_s * 3 : 2;
	double idle = (double)(now - p->last_ns) / 1e9;
	return p->over || idle < limit ? -1 : (long)idle;
}

/* The loop's runs slot (the same descriptor): events and results before
 * the next sample.  1 when the model or what the status says changed. */
static int fl_poll(struct source *src)
{
	struct follow *p = fl_of(src);
	pump(p);
	int changed = 0;
	for (int k = 0; k < FOLLOW_ITEMS && p->have_it && !is_sample(p); k++) {
		deliver(p);
		take(p);
		changed = 1;
	}
	long idle = idle_s(p, mono_ns());
	if (idle != p->said_idle) {
		p->said_idle = idle;
		changed = 1;
	}
	changed |= p->over && !p->told;
	arm(p);
	return changed;
}

static unsigned long fl_ready(struct source *src)
{
	struct follow *p = fl_of(src);
	pump(p);
	arm(p);
	return is_sample(p) || (p->over && !p->have_it && !p->told);
}

static int fl_step(struct source *src)
{
	struct follow *p = fl_of(src);
	/* from a sample on (ready said so; the loop's first step takes what
	 * came before the first sample too), per_step samples and what
	 * follows them */
	int samples = 0, items = 0;
	for (; items < FOLLOW_ITEMS && p->have_it; items++) {
		if (is_sample(p) && samples++ == p->per_step)
			break;
		deliver(p);
		take(p);
	}
	if (!items && p->over && !p->have_it) {
		p->told = 1;
		arm(p);
		return -1;
	}
	arm(p);
	return 0;
}

static int fl_fd(const struct source *src)
{
	return fl_of(src)->ep;
}

static int fl_pending(const struct source *src)
{
	return !fl_of(src)->told; /* runs may come while the writer writes */
}

static void fl_progress(const struct source *src, struct run_progress *out)
{
	const struct follow *p = fl_of(src);
	if (!p->has_runs) {
		memset(out, 0, sizeof(*out));
		out->current = -1;
		out->state = RUNS_NONE;
		return;
	}
	recorded_progress(&p->runs, p->total, out); /* the bytes are not recorded */
	if (p->told && out->state != RUNS_RUNNING)
		out->state = RUNS_FINISHED;
}

static void fl_free(struct source *src)
{
	struct follow *p = fl_of(src);
	recording_close(p->rec);
	free(p->expect);
	if (p->ino >= 0)
		close(p->ino);
	if (p->in >= 0)
		close(p->in);
	if (p->ep >= 0)
		close(p->ep);
	if (p->tfd >= 0)
		close(p->tfd);
	free(p->path);
	free(p);
}

static const struct source_ops follow_ops = {
    .name = "follow",
    .fd = fl_fd,
    .runs_fd = fl_fd,
    .ready = fl_ready,
    .step = fl_step,
    .poll = fl_poll,
    .pending = fl_pending,
    .progress = fl_progress,
    .free = fl_free,
};

/* ---- the start ------------------------------------------------------------ */

/* "2026-12-01T09:10:42.123Z" as ns since the epoch; 0 when it is not one. */
static uint64_t wall_ns(const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	int ms = 0, n = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d.%3dZ%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
		   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms, &n) != 7 ||
	    s[n] || tm.tm_year < 1970)
		return 0;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	time_t t = timegm(&tm);
	return t <= 0 ? 0 : (uint64_t)t * 1000000000ull + (uint64_t)ms * 1000000ull;
}

/* The runs the writer's session queued, labelled as it labelled them,
 * when its configuration says them plainly — strategies only, no sweep:
 * the -s list --repeat times, interleaved (session_queue.c) — so that a
 * run's events carry its name before its result comes (a replay knows the
 * results ahead); otherwise each is "run N" until then. */
static void expect_runs(struct follow *p)
{
	const struct record_config *c = &p->cfg;
	if (!c->have || c->ncmds || c->sweep.param || c->nstrategies <= 0)
		return;
	int repeat = c->repeat > 0 ? c->repeat : 1;
	size_t n = (size_t)c->nstrategies * (size_t)repeat, k = 0;
	if (n > RUNLOG_MAX_RUNS)
		return;
	char suffix[24] = "", rate[16];
	if (c->disk_limit) {
		fmt_size(rate, sizeof(rate), c->disk_limit);
		snprintf(suffix, sizeof(suffix), "@%s", rate);
	}
	struct run_result *x = xcalloc(n, sizeof(*x));
	for (int r = 1; r <= repeat; r++)
		for (int i = 0; i < c->nstrategies; i++, k++) {
			const struct strategy *st = strategy_find(c->strategies[i]);
			if (!st) { /* one this build lacks: the results will say */
				free(x);
				return;
			}
			strlcpy_(x[k].strategy, st->name, sizeof(x[k].strategy));
			x[k].cmd = -1;
			x[k].repeat = r;
			strategy_label(st, c->prealloc, suffix, x[k].name, sizeof(x[k].name));
		}
	p->expect = x;
	p->runs.known = x;
	p->runs.nknown = n;
}

/* What the input is: a regular file (watched), a pipe or the like; -1 +
 * err for what no writer writes a recording into. */
static int input_kind(struct follow *p, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(p->in, &st) < 0)
		return errf(err, errlen, "%s: %s", p->path, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return errf(err, errlen, "%s: is a directory (not a recording)", p->path);
	if (isatty(p->in))
		return errf(err, errlen,
			    "%s: is a terminal (pipe a recording in: ... --record - | lrutop "
			    "--follow -)",
			    p->path);
	p->file = S_ISREG(st.st_mode);
	p->fifo = S_ISFIFO(st.st_mode);
	int fl = fcntl(p->in, F_GETFL);
	if (fl < 0 || fcntl(p->in, F_SETFL, fl | O_NONBLOCK) < 0)
		return errf(err, errlen, "%s: %s", p->path, strerror(errno));
	if (!p->file)
		return 0;
	p->ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	char at[64];
	snprintf(at, sizeof(at), "/proc/self/fd/%d",
		 p->in); /* the file opened, whatever its name now */
	if (p->ino < 0 || inotify_add_watch(p->ino, at,
					    IN_MODIFY | IN_CLOSE_WRITE | IN_MOVE_SELF |
						IN_DELETE_SELF | IN_ATTRIB) < 0)
		return errf(err, errlen, "%s: cannot watch it (inotify: %s)", p->path,
			    strerror(errno));
	return 0;
}

/* Waits (a signal ends it) until the header has come whole: 0, -1 + err. */
static int wait_header(struct follow *p, char *err, size_t errlen)
{
	for (;;) {
		int h = recording_stream_header(p->rec, err, errlen);
		if (h != 0)
			return h > 0 ? 0 : -1;
		drain_watch(p);
		uint64_t had = p->off;
		read_some(p);
		if (p->over)
			return errf(err, errlen, "%s", p->note);
		if (p->off != had || p->in_eof || (p->closed && p->file))
			continue;
		struct pollfd pf = {.fd = p->ep, .events = POLLIN};
		int r = poll(&pf, 1, 250);
		if (sig_caught() || (r < 0 && errno != EINTR))
			return errf(err, errlen, "%s: %s", p->path,
				    sig_caught() ? "interrupted" : strerror(errno));
	}
}

struct source *source_follow_new(const char *path, int fd, int per_step, struct runlog *log,
				 const struct source_sink *sink,
				 const struct record_argv_parser *ap, char *err, size_t errlen)
{
	struct follow *p = xcalloc(1, sizeof(*p));
	p->src.ops = &follow_ops;
	p->src.sink = *sink;
	p->src.log = log;
	p->path = xstrdup(path);
	p->per_step = per_step > 0 ? per_step : 1;
	p->ino = p->ep = p->tfd = -1;
	p->said_idle = -1;
	recorded_init(&p->runs, log);
	p->in = fd >= 0 ? fd : open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (p->in < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (input_kind(p, err, errlen) < 0)
		goto fail;
	p->ep = epoll_create1(EPOLL_CLOEXEC);
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	struct epoll_event ev = {.events = EPOLLIN};
	if (p->ep < 0 || p->tfd < 0 || epoll_ctl(p->ep, EPOLL_CTL_ADD, p->tfd, &ev) < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		goto fail;
	}
	if (epoll_ctl(p->ep, EPOLL_CTL_ADD, p->file ? p->ino : p->in, &ev) < 0) {
		if (errno != EPERM) {
			errf(err, errlen, "%s: %s", path, strerror(errno));
			goto fail;
		}
		p->unpolled = 1; /* nothing to wait on: /dev/null, a device */
	}
	p->rec = recording_stream_new(path);
	p->last_ns = mono_ns();
	if (wait_header(p, err, errlen) < 0)
		goto fail;
	const struct record_header *h = recording_header(p->rec);
	record_config_resolve(h, ap, &p->cfg);
	p->wall0_ns = wall_ns(h->start_wall);
	if (p->cfg.have && !p->cfg.sweep.until.set) /* a bisection's runs are not known ahead */
		p->total = (size_t)(p->cfg.nstrategies + p->cfg.ncmds) *
			   (size_t)(p->cfg.repeat > 0 ? p->cfg.repeat : 1) *
			   (size_t)(p->cfg.sweep.n > 0 ? p->cfg.sweep.n : 1);
	source_replay_setup(log, &p->cfg, NULL, 0, 0);
	expect_runs(p);
	take(p); /* what came with the header */
	arm(p);
	return &p->src;
fail:
	fl_free(&p->src);
	return NULL;
}

/* ---- what it says ------------------------------------------------------------ */

int source_is_follow(const struct source *src)
{
	return src && src->ops == &follow_ops;
}

const struct record_header *source_follow_header(const struct source *src)
{
	return recording_header(fl_of(src)->rec);
}

const struct record_config *source_follow_config(const struct source *src)
{
	return &fl_of(src)->cfg;
}

void source_follow_pos(const struct source *src, struct follow_pos *out)
{
	const struct follow *p = fl_of(src);
	memset(out, 0, sizeof(*out));
	uint64_t now = mono_ns();
	out->end = p->told ? p->end : FOLLOW_ON;
	out->note = p->told ? p->note : NULL;
	long idle = idle_s(p, now);
	out->idle_s = idle < 0 ? 0 : idle;
	out->stalled = idle >= 0;
	const struct record_header *h = recording_header(p->rec);
	if (p->have_newest && p->wall0_ns) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		int64_t real = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		int64_t wrote = (int64_t)p->wall0_ns + (int64_t)(p->newest_t - h->start_mono_ns);
		out->behind_s = (double)(real - wrote) / 1e9;
		out->behind_known = 1;
	}
}
