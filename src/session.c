#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "loop.h"
#include "rates.h"
#include "sampler.h"
#include "util.h"

/* Dirty+Writeback at or below this counts as drained; give up waiting
 * after DRAIN_TIMEOUT (a busy system may never get lower). */
#define DRAIN_KB 4096
#define DRAIN_TIMEOUT_NS (10ull * 1000000000ull)

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

static void source_ready(struct session *s);

int session_enqueue(struct session *s, const struct strategy *const *list, size_t n, int repeat,
		    char *err, size_t errlen)
{
	if (s->queue_len + n * (size_t)repeat > SESSION_MAX_RUNS)
		return errf(err, errlen, "at most %d runs in one session", SESSION_MAX_RUNS);
	for (int r = 1; r <= repeat; r++)
		for (size_t i = 0; i < n; i++) {
			s->queue[s->queue_len].strategy = list[i];
			s->queue[s->queue_len].repeat = r;
			s->queue_len++;
		}
	if (!s->baseline && n)
		s->baseline = list[0];
	if (s->state == SESSION_FINISHED)
		s->state = SESSION_IDLE;
	return 0;
}

int session_init(struct session *s, const struct options *opt, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->opt = opt;
	s->scratch.dir_fd = -1;
	s->source_pid = -1;
	s->mem_limit = opt->mem_limit;
	const struct strategy *list[SESSION_MAX_STRATEGIES];
	size_t n = 0;
	if (opt->cmd) {
		list[n++] = NULL;
		if (!*opt->cmd || strspn(opt->cmd, " \t") == strlen(opt->cmd))
			return errf(err, errlen, "--cmd: empty command");
	} else if (opt->strategies && strategy_parse_list(opt->strategies, list,
							   SESSION_MAX_STRATEGIES, &n, err,
							   errlen) < 0) {
		char tmp[512];
		strlcpy_(tmp, err, sizeof(tmp));
		return errf(err, errlen, "-s: %s", tmp);
	}
	if (session_enqueue(s, list, n, opt->repeat, err, errlen) < 0)
		return -1;
	if (opt->baseline) {
		s->baseline = NULL;
		for (size_t i = 0; i < n; i++)
			if (list[i] && strcmp(list[i]->name, opt->baseline) == 0)
				s->baseline = list[i];
		if (!s->baseline)
			return errf(err, errlen, "--baseline %s: not one of the strategies in -s",
				    opt->baseline);
	}
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
	for (size_t i = 0; opt->src && i < n; i++)
		if (strategy_check(list[i], opt->src, s->scratch.dir, err, errlen) < 0) {
			scratch_remove(&s->scratch);
			return -1;
		}
	if (scratch_path(&s->scratch, "dst", s->dst, sizeof(s->dst)) < 0) {
		scratch_remove(&s->scratch);
		return errf(err, errlen, "--dir %s: path too long", opt->dir);
	}
	s->source_done = mmap(NULL, sizeof(*s->source_done), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->source_done == MAP_FAILED) {
		s->source_done = NULL;
		scratch_remove(&s->scratch);
		return errf(err, errlen, "shared page: %s", strerror(errno));
	}
	if (opt->src)
		source_ready(s);
	s->state = SESSION_IDLE;
	return 0;
}

/* The source exists: --cmd's words can be made. */
static void source_ready(struct session *s)
{
	s->have_source = 1;
	if (s->opt->cmd && !s->cmd_argv)
		s->cmd_argv = split_cmd(s->opt->cmd, s->src, s->dst);
}

/* The child that writes the scratch source: it only fills a file in our
 * private directory and reports bytes through the shared page. */
static int source_progress(uint64_t done, uint64_t total, void *arg)
{
	(void)total;
	atomic_store((_Atomic uint64_t *)arg, done);
	return 0;
}

static int start_source(struct session *s, char *err, size_t errlen)
{
	char path[4096];
	if (scratch_path(&s->scratch, "src", path, sizeof(path)) < 0)
		return errf(err, errlen, "--dir %s: path too long", s->opt->dir);
	atomic_store(s->source_done, 0);
	sig_block(1);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sig_block(0);
		return errf(err, errlen, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		for (int sig = 1; sig < NSIG; sig++)
			sigaction(sig, &sa, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		sig_block(0);
		char e[320];
		_exit(scratch_make_source(&s->scratch, s->src_size, source_progress,
					  (void *)s->source_done, e, sizeof(e)) < 0
			      ? 1
			      : 0);
	}
	sig_block(0);
	s->source_pid = pid;
	s->state = SESSION_SOURCE;
	return 0;
}

/* Reaps the source writer; 1 when it ended. */
static int reap_source(struct session *s)
{
	int status;
	pid_t got = waitpid(s->source_pid, &status, WNOHANG);
	if (got == 0 || (got < 0 && errno == EINTR))
		return 0;
	s->source_pid = -1;
	if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		snprintf(s->src, sizeof(s->src), "%.4000s/src", s->scratch.dir);
		source_ready(s);
		s->state = SESSION_IDLE;
	} else {
		char sz[16];
		fmt_size(sz, sizeof(sz), s->src_size);
		snprintf(s->error, sizeof(s->error),
			 "writing the %s scratch source in %.200s failed (disk full?)", sz,
			 s->scratch.dir);
		s->failed = 1;
		s->next = s->queue_len;
		s->state = SESSION_FINISHED;
	}
	return 1;
}

/* Stops the source writer, if one is running. */
static void kill_source(struct session *s)
{
	if (s->source_pid <= 0)
		return;
	kill(s->source_pid, SIGKILL);
	while (waitpid(s->source_pid, NULL, 0) < 0 && errno == EINTR)
		;
	s->source_pid = -1;
}

uint64_t session_source_progress(const struct session *s)
{
	return s->source_done ? atomic_load(s->source_done) : 0;
}

void session_done(struct session *s)
{
	kill_source(s);
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
	if (s->source_done)
		munmap((void *)s->source_done, sizeof(*s->source_done));
	s->source_done = NULL;
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
	const struct queued *q = &s->queue[s->next++];
	const struct strategy *st = q->strategy;
	struct run_result *r = &s->results[s->nresults];
	memset(r, 0, sizeof(*r));
	r->strategy = st;
	if (st)
		snprintf(r->name, sizeof(r->name), "%s%s", st->name,
			 s->opt->prealloc && !strcmp(st->family, "mmap") ? "+prealloc" : "");
	else
		snprintf(r->name, sizeof(r->name), "%s", s->cmd_argv && s->cmd_argv[0]
							     ? s->cmd_argv[0] : "cmd");
	r->repeat = q->repeat;
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
	spec.prealloc = s->opt->prealloc;
	if (s->mem_limit) {
		char tag[16];
		snprintf(tag, sizeof(tag), "run%zu", s->nresults);
		if (cgroup_create(&s->cg, s->mem_limit, tag, err, errlen) < 0)
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
		if (!s->have_source) {
			if (start_source(s, err, sizeof(err)) < 0) {
				strlcpy_(s->error, err, sizeof(s->error));
				s->failed = 1;
				s->next = s->queue_len;
				s->state = SESSION_FINISHED;
			}
			return;
		}
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
	if (r->elapsed_s <= 0 && r->t_copy_ns && r->t_end_ns > r->t_copy_ns)
		r->elapsed_s = (double)(r->t_end_ns - r->t_copy_ns) / 1e9; /* a failed copy */
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
	struct run_figures fig;
	burst_run_figures(ser, r->t_copy_ns, copy_end, &fig);
	r->read_cv = fig.read_cv;
	r->write_cv = fig.write_cv;
	r->peak_active_file_kb = fig.peak_active_file_kb;
	r->pgdeactivate = fig.pgdeactivate;
	r->refault_file = fig.refault_file;
	r->bursts = fig.bursts;
	add_event(s, r->t_end_ns, PHASE_IDLE);
	if (!r->ok && !r->cancelled) /* a cancel is the user's choice, not a failure */
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
	if (s->state == SESSION_SOURCE)
		return reap_source(s);
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

void session_cancel_queue(struct session *s, struct sampler *sm, const struct series *ser)
{
	s->queue_len = s->next;
	session_cancel(s, sm, ser);
	if (s->state == SESSION_SOURCE && s->source_pid > 0) {
		kill_source(s);
		scratch_remove_file(&s->scratch, "src");
		s->state = SESSION_IDLE;
	}
}

void session_stop(struct session *s, const char *why)
{
	struct run_result *r = cur(s);
	if (s->worker_live) {
		worker_kill(&s->worker);
		worker_done(&s->worker);
		s->worker_live = 0;
	}
	if (r) {
		r->finished = 1;
		r->cancelled = 1;
		r->t_end_ns = mono_ns();
		strlcpy_(r->message, why, sizeof(r->message));
		add_event(s, r->t_end_ns, PHASE_IDLE);
	}
	s->queue_len = s->next;
	cgroup_remove(&s->cg, NULL, 0);
}
