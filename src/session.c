#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rates.h"
#include "sampler.h"
#include "util.h"

/* Dirty+Writeback at or below this counts as drained; give up waiting
 * after DRAIN_TIMEOUT (a busy system may never get lower). */
#define DRAIN_KB 4096
#define DRAIN_TIMEOUT_NS (30ull * 1000000000ull)

static int check_src(struct session *s, const char *src, char *err, size_t errlen)
{
	int fd = open(src, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errf(err, errlen, "--src %s: %s", src, strerror(errno));
	struct stat st;
	int rc = fstat(fd, &st);
	close(fd);
	if (rc < 0)
		return errf(err, errlen, "--src %s: %s", src, strerror(errno));
	if (S_ISDIR(st.st_mode))
		return errf(err, errlen, "--src %s: is a directory (give a regular file)", src);
	if (!S_ISREG(st.st_mode))
		return errf(err, errlen, "--src %s: not a regular file (a %s cannot be copied "
				"and measured)", src,
			    S_ISFIFO(st.st_mode)   ? "FIFO"
			    : S_ISCHR(st.st_mode)  ? "character device"
			    : S_ISBLK(st.st_mode)  ? "block device"
			    : S_ISSOCK(st.st_mode) ? "socket"
						   : "special file");
	if (st.st_size == 0)
		return errf(err, errlen, "--src %s: is empty (nothing to copy)", src);
	s->src_size = (uint64_t)st.st_size;
	strlcpy_(s->src, src, sizeof(s->src));
	return 0;
}

/* Splits --cmd on blanks (no shell: quoting is not interpreted) and
 * substitutes {src} and {dst}. */
static char **split_cmd(const char *cmd, const char *src, const char *dst)
{
	size_t n = 0, cap = 8;
	char **argv = xcalloc(cap, sizeof(*argv));
	const char *p = cmd;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *e = p;
		while (*e && *e != ' ' && *e != '\t')
			e++;
		char word[4096];
		size_t wl = 0;
		for (const char *q = p; q < e && wl < sizeof(word) - 1;) {
			const char *rep = NULL;
			if ((size_t)(e - q) >= 5 && memcmp(q, "{src}", 5) == 0)
				rep = src;
			else if ((size_t)(e - q) >= 5 && memcmp(q, "{dst}", 5) == 0)
				rep = dst;
			if (rep) {
				wl += strlcpy_(word + wl, rep, sizeof(word) - wl);
				if (wl > sizeof(word) - 1)
					wl = sizeof(word) - 1;
				q += 5;
			} else {
				word[wl++] = *q++;
			}
		}
		word[wl] = '\0';
		if (n + 2 > cap) {
			cap *= 2;
			argv = xrealloc(argv, cap * sizeof(*argv));
		}
		argv[n++] = xstrdup(word);
		argv[n] = NULL;
		p = e;
	}
	return argv;
}

int session_init(struct session *s, const struct options *opt, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->scratch.dir_fd = -1;
	if (opt->cmd) {
		s->nlist = 1;
		s->list[0] = NULL;
		if (!*opt->cmd || strspn(opt->cmd, " \t") == strlen(opt->cmd))
			return errf(err, errlen, "--cmd: empty command");
	} else if (strategy_parse_list(opt->strategies, s->list, SESSION_MAX_STRATEGIES,
				       &s->nlist, err, errlen) < 0) {
		char tmp[512];
		strlcpy_(tmp, err, sizeof(tmp));
		return errf(err, errlen, "-s: %s", tmp);
	}
	s->queue_len = s->nlist * (size_t)opt->repeat;
	if (s->queue_len > SESSION_MAX_RUNS)
		return errf(err, errlen, "-s with --repeat: at most %d runs", SESSION_MAX_RUNS);
	if (opt->src && check_src(s, opt->src, err, errlen) < 0)
		return -1;
	if (opt->mem_limit && cgroup_available(err, errlen) < 0)
		return -1;
	if (opt->mem_limit && opt->mem_limit < 4 * 1024 * 1024)
		return errf(err, errlen, "--mem-limit: at least 4M (the copy needs room to work)");
	if (!opt->src)
		s->src_size = opt->size ? opt->size
			      : opt->mem_limit ? 32 * opt->mem_limit
					       : 1024ull * 1024 * 1024;
	if (scratch_open(&s->scratch, opt->dir, err, errlen) < 0)
		return -1;
	/* source (if we make it) + one copy + 64 MiB of headroom */
	uint64_t need = s->src_size + (opt->src ? 0 : s->src_size) + (64ull << 20);
	if (scratch_check_space(&s->scratch, need, err, errlen) < 0) {
		scratch_remove(&s->scratch);
		return -1;
	}
	if (scratch_path(&s->scratch, "dst", s->dst, sizeof(s->dst)) < 0) {
		scratch_remove(&s->scratch);
		return errf(err, errlen, "--dir %s: path too long", opt->dir);
	}
	s->state = SESSION_IDLE;
	return 0;
}

int session_make_source(struct session *s,
			int (*progress)(uint64_t done, uint64_t total, void *arg), void *arg,
			char *err, size_t errlen)
{
	if (!s->opt->src) {
		if (scratch_make_source(&s->scratch, s->src_size, progress, arg, err, errlen) < 0)
			return -1;
		strlcpy_(s->src, s->scratch.src, sizeof(s->src));
	}
	if (s->opt->cmd)
		s->cmd_argv = split_cmd(s->opt->cmd, s->src, s->dst);
	return 0;
}

void session_done(struct session *s)
{
	if (s->worker_live) {
		worker_done(&s->worker);
		s->worker_live = 0;
	}
	cgroup_remove(&s->cg, NULL, 0);
	scratch_remove(&s->scratch);
	if (s->cmd_argv) {
		for (char **a = s->cmd_argv; *a; a++)
			free(*a);
		free(s->cmd_argv);
		s->cmd_argv = NULL;
	}
}

static void add_event(struct session *s, uint64_t t_ns, int phase)
{
	if (s->nevents >= SESSION_MAX_EVENTS || !s->nresults)
		return;
	struct run_event *e = &s->events[s->nevents++];
	e->t_ns = t_ns;
	e->run = (int16_t)(s->nresults - 1);
	e->phase = (int8_t)phase;
}

static struct run_result *cur(struct session *s)
{
	return s->nresults && !s->results[s->nresults - 1].finished
		       ? &s->results[s->nresults - 1]
		       : NULL;
}

const struct run_result *session_current(const struct session *s)
{
	return cur((struct session *)s);
}

uint64_t session_progress(const struct session *s)
{
	if (!s->worker_live || !s->worker.progress)
		return 0;
	return atomic_load(&s->worker.progress->bytes_done);
}

static int strategy_index(const struct strategy *st)
{
	for (size_t i = 0; i < strategy_count(); i++)
		if (strategy_at(i) == st)
			return (int)i;
	return 255;
}

void session_annotate(const struct session *s, struct sample *smp)
{
	const struct run_result *r = session_current(s);
	if (!r)
		return;
	smp->run = (int16_t)(s->nresults - 1);
	smp->phase = (int8_t)s->phase;
	smp->strategy = (uint8_t)strategy_index(r->strategy);
}

static int start_next(struct session *s, struct sampler *sm, char *err, size_t errlen)
{
	size_t i = s->next++;
	const struct strategy *st = s->list[i % s->nlist];
	struct run_result *r = &s->results[s->nresults];
	memset(r, 0, sizeof(*r));
	r->strategy = st;
	if (st)
		strlcpy_(r->name, st->name, sizeof(r->name));
	else
		snprintf(r->name, sizeof(r->name), "%s", s->cmd_argv && s->cmd_argv[0]
							     ? s->cmd_argv[0] : "cmd");
	r->repeat = (int)(i / s->nlist) + 1;
	r->verified = -1;
	r->t_start_ns = mono_ns();
	s->nresults++;
	s->phase = PHASE_PREPARE;
	add_event(s, r->t_start_ns, PHASE_PREPARE);

	struct worker_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.strategy = st;
	spec.argv = st ? NULL : s->cmd_argv;
	spec.src = s->src;
	spec.dst = s->dst;
	spec.bs = s->opt->bs;
	spec.drop_caches = !s->opt->no_drop_caches;
	spec.verify = !s->opt->no_verify && st;
	if (s->opt->mem_limit) {
		char tag[16];
		snprintf(tag, sizeof(tag), "run%zu", s->nresults);
		if (cgroup_create(&s->cg, s->opt->mem_limit, tag, err, errlen) < 0)
			return -1;
		spec.cgroup_procs = s->cg.procs;
		if (sampler_set_cgroup(sm, s->cg.stat, s->cg.usage, s->cg.limit, err, errlen) < 0)
			return -1;
	}
	if (worker_start(&spec, &s->worker, err, errlen) < 0)
		return -1;
	s->worker_live = 1;
	s->worker_eof = 0;
	s->drain_start_ns = mono_ns();
	s->state = SESSION_DRAIN;
	return 0;
}

static void fail_run(struct session *s, struct sampler *sm, const char *msg)
{
	struct run_result *r = cur(s);
	if (r) {
		r->finished = 1;
		r->ok = 0;
		r->t_end_ns = mono_ns();
		strlcpy_(r->message, msg, sizeof(r->message));
		add_event(s, r->t_end_ns, PHASE_IDLE);
	}
	s->failed = 1;
	cgroup_remove(&s->cg, NULL, 0);
	sampler_set_cgroup(sm, NULL, NULL, 0, NULL, 0);
	s->state = SESSION_IDLE;
}

void session_tick(struct session *s, struct sampler *sm, const struct series *ser)
{
	if (s->state == SESSION_IDLE) {
		if (s->next >= s->queue_len) {
			s->state = SESSION_FINISHED;
			return;
		}
		char err[320];
		if (start_next(s, sm, err, sizeof(err)) < 0) {
			if (s->worker_live) {
				worker_done(&s->worker);
				s->worker_live = 0;
			}
			fail_run(s, sm, err);
		}
		return;
	}
	if (s->state == SESSION_DRAIN) {
		const struct sample *last = series_back(ser, 0);
		uint64_t now = mono_ns();
		int drained = last && (last->have & SAMPLE_HAVE_MEM) &&
			      last->dirty + last->writeback <= DRAIN_KB;
		if (drained || now - s->drain_start_ns > DRAIN_TIMEOUT_NS) {
			worker_go(&s->worker);
			s->state = SESSION_RUNNING;
		}
	}
}

int session_fd(const struct session *s)
{
	return s->worker_live && !s->worker_eof ? s->worker.event_fd : -1;
}

int session_is_burst(const struct sample *a, const struct sample *b)
{
	if (!a || !b || b->t_ns <= a->t_ns)
		return 0;
	double dt = (double)(b->t_ns - a->t_ns) / 1e9;
	uint32_t both = a->have & b->have;
	if ((both & SAMPLE_HAVE_CG) && b->cg_limit) {
		double limit_pages = (double)b->cg_limit / 4096.0;
		if (both & SAMPLE_HAVE_CG_DEACT) {
			int64_t d = rate_delta(a->cg_pgdeactivate, b->cg_pgdeactivate);
			return d > 0 && (double)d / dt >= BURST_PER_S * limit_pages;
		}
		/* v1: the system-wide count, but only while this cgroup's own
		 * active list shrank, so another workload's reclaim is not
		 * taken for ours. */
		if (!(both & SAMPLE_HAVE_VM) || b->cg_active_file >= a->cg_active_file)
			return 0;
		int64_t d = rate_delta(a->pgdeactivate, b->pgdeactivate);
		return d > 0 && (double)d / dt >= BURST_PER_S * limit_pages;
	}
	if (!(both & SAMPLE_HAVE_VM) || !(b->have & SAMPLE_HAVE_MEM))
		return 0;
	int64_t d = rate_delta(a->pgdeactivate, b->pgdeactivate);
	double watched_pages = (double)b->mem_total / 4.0;
	return d > 0 && watched_pages > 0 && (double)d / dt >= BURST_PER_S * watched_pages;
}

/* Fills the sample-derived fields of r from the samples taken during the
 * copy: coefficient of variation of the disk rates, peak active_file,
 * deactivations, refaults and bursts. */
static void sample_stats(struct run_result *r, const struct series *ser)
{
	double sum[2] = {0, 0}, sq[2] = {0, 0};
	int n = 0;
	const struct sample *first = NULL, *last = NULL, *prev = NULL;
	uint64_t peak = 0;
	for (size_t i = 0; i < series_len(ser); i++) {
		const struct sample *b = series_at(ser, i);
		if (b->t_ns < r->t_copy_ns) {
			prev = b;
			continue;
		}
		if (b->t_ns > r->t_end_ns)
			break;
		if (!first)
			first = prev ? prev : b;
		last = b;
		uint64_t af = (b->have & SAMPLE_HAVE_CG) ? b->cg_active_file / 1024 : b->active_file;
		peak = af > peak ? af : peak;
		if (prev) {
			struct rates rt;
			rates_compute(prev, b, &rt);
			if (!isnan(rt.read_mbs) && !isnan(rt.write_mbs)) {
				sum[0] += rt.read_mbs;
				sq[0] += rt.read_mbs * rt.read_mbs;
				sum[1] += rt.write_mbs;
				sq[1] += rt.write_mbs * rt.write_mbs;
				n++;
			}
			r->bursts += session_is_burst(prev, b);
		}
		prev = b;
	}
	r->peak_active_file_kb = peak;
	r->read_cv = r->write_cv = NAN;
	for (int k = 0; k < 2 && n >= 2; k++) {
		double mean = sum[k] / n;
		double var = sq[k] / n - mean * mean;
		double cv = mean > 0 ? sqrt(var > 0 ? var : 0) / mean : NAN;
		if (k == 0)
			r->read_cv = cv;
		else
			r->write_cv = cv;
	}
	if (first && last && first != last) {
		int own = (first->have & last->have & SAMPLE_HAVE_CG_DEACT) != 0;
		int64_t d = own ? rate_delta(first->cg_pgdeactivate, last->cg_pgdeactivate)
				: rate_delta(first->pgdeactivate, last->pgdeactivate);
		int64_t f = rate_delta(first->refault_file, last->refault_file);
		r->pgdeactivate = d > 0 ? (uint64_t)d : 0;
		r->refault_file = f > 0 ? (uint64_t)f : 0;
	}
}

static void finish_run(struct session *s, struct sampler *sm, const struct series *ser,
		       const struct worker_result *wr)
{
	struct run_result *r = cur(s);
	if (!r)
		return;
	r->finished = 1;
	r->t_end_ns = mono_ns();
	if (!r->t_copy_ns)
		r->t_copy_ns = r->t_end_ns;
	r->ok = wr->ok && !r->cancelled;
	strlcpy_(r->message, r->cancelled ? "cancelled" : wr->message, sizeof(r->message));
	r->elapsed_s = wr->elapsed_s;
	const struct rusage *ru = &wr->ru;
	r->user_s = (double)ru->ru_utime.tv_sec + (double)ru->ru_utime.tv_usec / 1e6;
	r->sys_s = (double)ru->ru_stime.tv_sec + (double)ru->ru_stime.tv_usec / 1e6;
	r->cpu_pct = r->elapsed_s > 0 ? 100.0 * (r->user_s + r->sys_s) / r->elapsed_s : 0;
	r->majflt = ru->ru_majflt;
	r->minflt = ru->ru_minflt;
	r->inblock = ru->ru_inblock;
	r->oublock = ru->ru_oublock;
	r->bytes = r->ok ? s->src_size : wr->bytes_done;
	r->mbs = r->elapsed_s > 0 ? (double)r->bytes / 1048576.0 / r->elapsed_s : 0;
	r->verified = wr->verified;
	/* a run ends after the samples of its copy; r->t_end_ns bounds them */
	uint64_t copy_end = wr->t_done_ns ? wr->t_done_ns : r->t_end_ns;
	uint64_t end = r->t_end_ns;
	r->t_end_ns = copy_end;
	sample_stats(r, ser);
	r->t_end_ns = end;
	add_event(s, r->t_end_ns, PHASE_IDLE);
	if (!r->ok)
		s->failed = 1;
	worker_done(&s->worker);
	s->worker_live = 0;
	char err[256];
	if (cgroup_remove(&s->cg, err, sizeof(err)) < 0 && r->ok)
		snprintf(r->message, sizeof(r->message), "%s", err);
	sampler_set_cgroup(sm, NULL, NULL, 0, NULL, 0);
	s->state = SESSION_IDLE;
}

int session_poll(struct session *s, struct sampler *sm, const struct series *ser)
{
	if (!s->worker_live)
		return 0;
	struct worker_event ev;
	int rc;
	while ((rc = worker_read_event(&s->worker, &ev)) == 1) {
		struct run_result *r = cur(s);
		s->phase = ev.phase;
		if (ev.phase == PHASE_COPY && r && !r->t_copy_ns)
			r->t_copy_ns = ev.t_ns;
		if (ev.phase != PHASE_PREPARE)
			add_event(s, ev.t_ns, ev.phase);
	}
	if (rc < 0)
		s->worker_eof = 1;
	struct worker_result wr;
	if (worker_reap(&s->worker, 0, &wr) == 1) {
		finish_run(s, sm, ser, &wr);
		return 1;
	}
	return 0;
}

void session_cancel(struct session *s, struct sampler *sm, const struct series *ser)
{
	struct run_result *r = cur(s);
	if (!r || !s->worker_live)
		return;
	r->cancelled = 1;
	worker_kill(&s->worker);
	struct worker_result wr;
	if (worker_reap(&s->worker, 1, &wr) == 1)
		finish_run(s, sm, ser, &wr);
}
