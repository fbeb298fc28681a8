/*
 * session — a run's lifecycle (session.h): the checks and set-up of
 * session_init, then prepare, drain, go, copy, flush, done and verify
 * driven by session_tick and session_poll, the watchdog, the result, and
 * cancel, stop and done.  The --cmd entries, the queue and the input file
 * are the session's other three files (session_impl.h).
 */
#include "runs/session_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runs/rundir.h"
#include "sampling/device.h"
#include "model/pagecache.h"
#include "model/rates.h"
#include "model/units.h"
#include "base/util.h"

/* Dirty+Writeback at or below this counts as drained; give up waiting
 * after DRAIN_TIMEOUT (a busy system may never get lower). */
#define DRAIN_KB 4096
/* --stall-timeout: less than this copied in that time is no progress
 * (a 64th of a small file) */
#define STALL_MIN_BYTES (1ull << 20)
#define STALL_MIN(total) ((total) && (total) / 64 < STALL_MIN_BYTES ? (total) / 64 : STALL_MIN_BYTES)
#define DRAIN_TIMEOUT_NS (10ull * 1000000000ull)

/* --disk-limit: the watched disk (-d, or the one holding --dir, as the
 * monitor chooses it) as the MAJ:MIN the throttle files take, and the
 * controller to throttle it with; checked before anything is created. */
static int setup_disk_limit(struct session *s, const struct run_config *cfg, char *err,
			    size_t errlen)
{
	char name[DEVICE_NAME_MAX], why[256], path[128 + DEVICE_NAME_MAX], buf[64];
	if (cgroup_home_io_available(s->cgroups, err, errlen) < 0)
		return -1;
	if (cfg->device) {
		if (strlcpy_(name, cfg->device, sizeof(name)) >= sizeof(name) ||
		    !device_exists(name))
			return errf(err, errlen, "--disk-limit: -d %s: no such disk", cfg->device);
		/* the throttle is on the disk the copy uses, or the @RATE label lies */
		char here[DEVICE_NAME_MAX];
		if (device_for_path(cfg->dir ? cfg->dir : RUNDIR_DEFAULT, here, sizeof(here), NULL,
				    0, why, sizeof(why)) == 0 &&
		    strcmp(here, name) != 0)
			return errf(err, errlen,
				    "--disk-limit: -d %s is not the disk of --dir %s "
				    "(%s): nothing would be throttled",
				    cfg->device, cfg->dir ? cfg->dir : RUNDIR_DEFAULT, here);
	} else if (device_for_path(cfg->dir, name, sizeof(name), NULL, 0, why, sizeof(why)) < 0) {
		return errf(err, errlen, "--disk-limit: no disk to throttle: %s (use -d NAME)", why);
	}
	for (char *c = name; *c; c++)
		if (*c == '/')
			*c = '!'; /* sysfs spells cciss/c0d0 cciss!c0d0 */
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	if (access(path, F_OK) == 0)
		return errf(err, errlen, "--disk-limit: -d %s is a partition (the throttle works on "
				 "whole disks: give the disk)", cfg->device);
	snprintf(path, sizeof(path), "/sys/class/block/%s/dev", name);
	if (read_small_at(AT_FDCWD, path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", &s->io.major, &s->io.minor) != 2)
		return errf(err, errlen, "--disk-limit: %s: cannot read its device number", path);
	char rate[16];
	s->io.bps = cfg->disk_limit;
	fmt_size(rate, sizeof(rate), cfg->disk_limit);
	snprintf(s->io_label, sizeof(s->io_label), "@%s", rate);
	return 0;
}

/* The throttled disk's read-ahead window, bytes (the step a throttle lets
 * reads through in: burst_window_ns); 0 without a limit or unreadable. */
static uint64_t limit_read_ahead(const struct session *s)
{
	char path[96], buf[32];
	unsigned long long kb;
	if (!s->io.bps)
		return 0;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/read_ahead_kb", s->io.major,
		 s->io.minor);
	if (read_small_at(AT_FDCWD, path, buf, sizeof(buf)) <= 0 || sscanf(buf, "%llu", &kb) != 1)
		return 0;
	return (uint64_t)kb * 1024;
}

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
		return errf(err, errlen,
			    "--src %s: not a regular file (a %s cannot be copied "
			    "and measured)",
			    src, file_kind(st.st_mode));
	if (st.st_size == 0)
		return errf(err, errlen, "--src %s: is empty (nothing to copy)", src);
	s->src_size = (uint64_t)st.st_size;
	strlcpy_(s->src, src, sizeof(s->src));
	return 0;
}

int session_reap_stale(const char *dir, struct cgroup_home *cgroups, char *line, size_t len)
{
	struct scratch_reaped rp;
	long cg_pid = 0;
	int ncg = 0, restored = 0;
	char why[256], sz[16];

	line[0] = '\0';
	if (scratch_reap_stale(dir, &rp, why, sizeof(why)) < 0)
		rp.ndirs = 0;
	ncg = cgroup_home_reap(cgroups, &cg_pid, &restored);
	if (!rp.ndirs && !ncg && !restored)
		return 0;
	if (!rp.ndirs && !ncg) {
		snprintf(line, len,
			 "turned %d cgroup controller%s off again that an lrutop that is "
			 "gone had enabled",
			 restored, restored == 1 ? "" : "s");
		return restored;
	}
	size_t l = (size_t)snprintf(line, len, "removed ");
	if (rp.ndirs) {
		fmt_size(sz, sizeof(sz), rp.bytes);
		l += (size_t)snprintf(line + l, len > l ? len - l : 0,
				      "%d stale scratch director%s (%.200s%s, %s)", rp.ndirs,
				      rp.ndirs == 1 ? "y" : "ies", rp.first,
				      rp.ndirs > 1 ? " and more" : "", sz);
		if (!ncg)
			snprintf(line + l, len > l ? len - l : 0, " of pid %ld that is gone",
				 rp.pid);
	}
	if (ncg)
		l += (size_t)snprintf(line + l, len > l ? len - l : 0,
				      "%s%d cgroup%s of pid %ld%s that is gone",
				      rp.ndirs ? " and " : "", ncg, ncg == 1 ? "" : "s", cg_pid,
				      ncg > 1 ? " and others" : "");
	if (restored)
		snprintf(line + l, len > l ? len - l : 0,
			 ", and turned %d cgroup controller%s off again that it had enabled",
			 restored, restored == 1 ? "" : "s");
	return rp.ndirs + ncg + restored;
}

int session_init(struct session *s, const struct run_config *cfg, struct runlog *log,
		 struct cgroup_home *cgroups, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->cfg = *cfg;
	s->cgroups = cgroups;
	s->log = log;
	s->scratch.dir_fd = -1;
	s->input_pid = -1;
	s->mem_limit = cfg->mem_limit;
	log->mem_limit = cfg->mem_limit;
	log->disk_limit = cfg->disk_limit;
	const struct sweep_spec *sw = &cfg->sweep;
	uint64_t top = sw->n ? sw->v[sw->n - 1] : 0;
	if (sw->param == SWEEP_MEM_LIMIT)
		log->mem_limit = top; /* the Runs view's scale: the largest */
	if (cfg->disk_limit && setup_disk_limit(s, cfg, err, errlen) < 0)
		return -1;
	if (sw->param == SWEEP_DISK_LIMIT) {
		/* the disk and its checks as for --disk-limit; each run's own rate
		 * is in its label's @d suffix */
		struct run_config dc = *cfg;
		dc.disk_limit = sw->v[0];
		if (setup_disk_limit(s, &dc, err, errlen) < 0)
			return -1;
		s->io_label[0] = '\0';
	}
	if (session_queue_setup(s, cfg, err, errlen) < 0)
		return -1;
	if (sw->param && s->log->baseline[0]) {
		/* ratios of a sweep: to the baseline at the first value (every
		 * value's run is one of that strategy's) */
		char suf[32];
		size_t l = strlen(s->log->baseline);
		sweep_suffix(suf, sizeof(suf), sw->param, sw->v[0]);
		snprintf(s->log->baseline + l, sizeof(s->log->baseline) - l, "%s", suf);
	}
	if (cfg->src && check_src(s, cfg->src, err, errlen) < 0)
		return -1;
	if ((cfg->mem_limit || sw->param == SWEEP_MEM_LIMIT) &&
	    cgroup_home_available(cgroups, err, errlen) < 0)
		return -1;
	if (cfg->mem_limit && cfg->mem_limit < 4 * 1024 * 1024)
		return errf(err, errlen, "--mem-limit: at least 4M (the copy needs room to work)");
	if (!cfg->src)
		s->src_size = sw->param == SWEEP_SIZE ? top : run_config_default_size(cfg);
	if (scratch_open(&s->scratch, cfg->dir, err, errlen) < 0)
		return -1;
	uint64_t need = run_config_need_bytes(cfg, s->src_size);
	if (scratch_check_space(&s->scratch, need, err, errlen) < 0) {
		scratch_remove(&s->scratch);
		return -1;
	}
	for (size_t i = 0; cfg->src && i < s->queue_len; i++)
		if (s->queue[i].strategy &&
		    strategy_check(s->queue[i].strategy, cfg->src, s->scratch.dir, err, errlen) < 0) {
			scratch_remove(&s->scratch);
			return -1;
		}
	if (scratch_path(&s->scratch, "dst", s->dst, sizeof(s->dst)) < 0) {
		scratch_remove(&s->scratch);
		return errf(err, errlen, "--dir %s: path too long", cfg->dir);
	}
	s->input_done = mmap(NULL, sizeof(*s->input_done), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->input_done == MAP_FAILED) {
		s->input_done = NULL;
		scratch_remove(&s->scratch);
		return errf(err, errlen, "shared page: %s", strerror(errno));
	}
	if (cfg->src)
		session_input_ready(s);
	s->state = SESSION_IDLE;
	return 0;
}

/* Records the destination the reaped worker made (strategy: the file it
 * created; --cmd: what is there after the command ran), so the next run
 * and the cleanup may remove it - and nothing else. */
static void own_dst(struct session *s, const struct worker_result *wr)
{
	if (wr->dst_made == 1)
		scratch_own(&s->scratch, "dst", wr->dst_dev, wr->dst_ino);
	else if (wr->dst_made == 2)
		scratch_own_current(&s->scratch, "dst");
}

/* A live worker killed and reaped, the destination it made ours to remove. */
/* Kills and reaps the worker, if one runs; its exit code as a shell's $?
 * (128 + 9 for the kill), -1 when none ran. */
static int kill_worker(struct session *s)
{
	int code = -1;

	if (!s->worker_live)
		return -1;
	worker_kill(&s->worker);
	if (s->worker.reaped)
		code = s->worker.result.exit_code;
	own_dst(s, &s->worker.result);
	worker_done(&s->worker);
	s->worker_live = 0;
	return code;
}

void session_done(struct session *s)
{
	session_input_kill(s);
	kill_worker(s);
	cgroup_remove(&s->cg, NULL, 0);
	scratch_remove(&s->scratch);
	session_cmd_free(s);
	if (s->input_done)
		munmap((void *)s->input_done, sizeof(*s->input_done));
	s->input_done = NULL;
}

static void add_event(struct session *s, uint64_t t_ns, int phase)
{
	runlog_add_event(s->log, t_ns, phase);
}

static struct run_result *cur(struct session *s)
{
	return runlog_current(s->log);
}

const struct run_result *session_current(const struct session *s)
{
	return cur((struct session *)s);
}

uint64_t session_progress(const struct session *s)
{
	if (!s->worker_live || !s->worker.progress)
		return 0;
	uint64_t done = atomic_load(&s->worker.progress->bytes_done);
	return s->copied > done ? s->copied : done;
}

/* The session's two questions to whatever takes the samples (the live
 * source): no monitor means no cgroup figures and no write_bytes. */
static int monitor_watch(struct session *s, const char *stat_path, const char *usage_path,
			 uint64_t limit, char *err, size_t errlen)
{
	if (!s->monitor.watch_cgroup)
		return 0;
	return s->monitor.watch_cgroup(s->monitor.ctx, stat_path, usage_path, limit, err, errlen);
}

static int monitor_write_bytes(struct session *s, pid_t pid, uint64_t *write_bytes)
{
	if (!s->monitor.task_write_bytes)
		return -1;
	return s->monitor.task_write_bytes(s->monitor.ctx, pid, write_bytes);
}

/* Once per tick while running: s->copied from the worker's write_bytes. */
static void track_copied(struct session *s)
{
	uint64_t wb;
	if (!s->wb_ok || !s->worker_live || !s->worker.progress ||
	    atomic_load(&s->worker.progress->phase) != PHASE_COPY ||
	    monitor_write_bytes(s, s->worker.pid, &wb) < 0 || wb < s->wb_base)
		return;
	uint64_t c = wb - s->wb_base, total = s->worker.progress->bytes_total;
	if (total && c > total)
		c = total;
	if (c > s->copied)
		s->copied = c;
}

int session_run_files(const struct session *s, const char **src, const char **dst)
{
	if (!session_current(s) || !s->have_input)
		return 0;
	*src = s->src;
	*dst = s->dst;
	return 1;
}

int session_quiet(const struct session *s)
{
	return s->state == SESSION_DRAIN && s->quiet_since_ns != 0;
}

int session_run_cgio(const struct session *s, const char **path, int *version)
{
	if (!session_current(s) || !s->cg.io_stat[0])
		return 0;
	*path = s->cg.io_stat;
	*version = s->cg.io_stat_version;
	return 1;
}

void session_annotate(const struct session *s, struct sample *smp)
{
	const struct run_result *r = session_current(s);
	if (!r)
		return;
	smp->run = (int16_t)(s->log->nresults - 1);
	smp->phase = (int8_t)s->phase;
	smp->strategy = strategy_index(r->strategy);
}

static int start_next(struct session *s, char *err, size_t errlen)
{
	const struct queued *q = &s->queue[s->next++];
	const struct strategy *st = q->strategy;
	struct run_result *r = &s->log->results[s->log->nresults];
	memset(r, 0, sizeof(*r));
	r->read_at_burst = NAN;
	strlcpy_(r->strategy, st ? st->name : "", sizeof(r->strategy));
	r->cmd = st ? -1 : q->cmd;
	session_queue_label(s, q, r->name, sizeof(r->name));
	if (q->value >= 0) {
		const struct sweep_spec *sw = &s->cfg.sweep;
		char suf[32];
		r->sweep_param = (int)sw->param;
		r->sweep_value = sw->v[q->value];
		sweep_suffix(suf, sizeof(suf), sw->param, r->sweep_value);
		size_t l = strlen(r->name), k = strlen(suf);
		if (l + k >= sizeof(r->name))
			l = sizeof(r->name) - 1 - k;
		memcpy(r->name + l, suf, k + 1);
		/* the value takes the place of the option it sweeps */
		if (sw->param == SWEEP_MEM_LIMIT)
			s->mem_limit = r->sweep_value;
		else if (sw->param == SWEEP_DISK_LIMIT)
			s->io.bps = r->sweep_value;
	}
	r->repeat = q->repeat;
	r->verified = -1;
	r->t_start_ns = mono_ns();
	s->log->nresults++;
	s->phase = PHASE_PREPARE;
	add_event(s, r->t_start_ns, PHASE_PREPARE);
	/* the previous run's destination goes; a stranger's file stays and
	 * fails the run */
	char e[320];
	if (scratch_unlink_own(&s->scratch, "dst", e, sizeof(e)) < 0)
		return errf(err, errlen, "%s: %s", r->name, e);

	struct worker_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.strategy = st;
	spec.argv = st ? NULL : s->cmds[q->cmd].argv;
	spec.src = s->src;
	spec.dst = s->dst;
	spec.bs = q->value >= 0 && s->cfg.sweep.param == SWEEP_BS ? (size_t)r->sweep_value
								   : s->cfg.bs;
	spec.drop_caches = !s->cfg.no_drop_caches;
	/* a --cmd is verified like a strategy when it writes {dst}; one that
	 * writes elsewhere cannot be (its run says "unverified") */
	spec.verify = !s->cfg.no_verify && (st || strstr(s->cmds[q->cmd].line, "{dst}"));
	spec.cmd_elsewhere = !s->cfg.no_verify && !st && !spec.verify;
	spec.prealloc = s->cfg.prealloc;
	if (s->mem_limit || s->io.bps) {
		char tag[16];
		snprintf(tag, sizeof(tag), "run%zu", s->log->nresults);
		if (cgroup_home_create(s->cgroups, &s->cg, s->mem_limit, s->io.bps ? &s->io : NULL,
				       tag, err, errlen) < 0)
			return -1;
		spec.cgroup_procs = s->cg.procs;
		spec.io_procs = s->cg.io_created ? s->cg.io_procs : NULL;
		if (s->mem_limit &&
		    monitor_watch(s, s->cg.stat, s->cg.usage, s->cg.limit, err, errlen) < 0)
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

/* The current run (if any) ends now, cut short: failed, or cancelled by
 * the user; exit_code is its worker's (kill_worker), -1 when none ran;
 * msg is its message. */
static void end_run(struct session *s, int cancelled, int exit_code, const char *msg)
{
	struct run_result *r = cur(s);
	if (!r)
		return;
	r->finished = 1;
	if (cancelled)
		r->cancelled = 1;
	else
		r->ok = 0;
	r->exit_code = exit_code;
	r->t_end_ns = mono_ns();
	strlcpy_(r->message, msg, sizeof(r->message));
	add_event(s, r->t_end_ns, PHASE_IDLE);
}

void session_give_up(struct session *s)
{
	s->failed = 1;
	s->next = s->queue_len;
	s->stopped = 1;
	s->state = SESSION_FINISHED;
}

static void fail_run(struct session *s, const char *msg)
{
	end_run(s, 0, -1, msg); /* no worker ran */
	s->failed = 1;
	cgroup_remove(&s->cg, NULL, 0);
	monitor_watch(s, NULL, NULL, 0, NULL, 0);
	s->state = SESSION_IDLE;
}

static void watch_stall(struct session *s, const struct series *ser);

void session_tick(struct session *s, const struct series *ser)
{
	if (s->state == SESSION_IDLE) {
		if (s->next >= s->queue_len &&
		    !(s->cfg.sweep.until.set && !s->stopped && session_queue_sweep_step(s))) {
			s->state = SESSION_FINISHED;
			return;
		}
		/* --sweep size: the scratch source is made again at each size */
		const struct queued *q = &s->queue[s->next];
		if (s->cfg.sweep.param == SWEEP_SIZE && q->value >= 0 && !s->cfg.src &&
		    s->cfg.sweep.v[q->value] != s->src_size) {
			s->src_size = s->cfg.sweep.v[q->value];
			s->have_input = 0;
		}
		char err[320];
		if (!s->have_input) {
			if (session_input_start(s, err, sizeof(err)) < 0) {
				strlcpy_(s->error, err, sizeof(s->error));
				session_give_up(s);
			}
			return;
		}
		if (start_next(s, err, sizeof(err)) < 0) {
			if (s->worker_live) {
				worker_done(&s->worker);
				s->worker_live = 0;
			}
			fail_run(s, err);
		}
		return;
	}
	if (s->state == SESSION_DRAIN) {
		const struct sample *last = series_back(ser, 0);
		uint64_t now = mono_ns();
		int drained = last && (last->have & SAMPLE_HAVE_MEM) &&
			      last->dirty + last->writeback <= DRAIN_KB;
		if (!drained)
			s->quiet_since_ns = 0;
		else if (s->quiet_hold_ns && !s->quiet_since_ns)
			s->quiet_since_ns = now;
		if (drained && s->quiet_hold_ns && now - s->quiet_since_ns < s->quiet_hold_ns)
			drained = 0; /* the probe's baseline is still being taken */
		if (drained || now - s->drain_start_ns > DRAIN_TIMEOUT_NS) {
			s->quiet_since_ns = 0;
			s->copied = 0;
			s->wb_ok = monitor_write_bytes(s, s->worker.pid, &s->wb_base) == 0;
			worker_go(&s->worker);
			s->state = SESSION_RUNNING;
		}
	}
	if (s->state == SESSION_RUNNING) {
		/* a --cmd's worker says on the page when it verifies (its event
		 * pipe closed at the command's fork) */
		if (s->worker_eof && s->worker.is_cmd && s->worker.progress &&
		    atomic_load(&s->worker.progress->phase) == PHASE_VERIFY &&
		    s->phase != PHASE_VERIFY) {
			s->phase = PHASE_VERIFY;
			add_event(s, mono_ns(), PHASE_VERIFY);
		}
		track_copied(s);
		watch_stall(s, ser);
	}
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h;
}

uint64_t session_progress_mark(int phase, uint64_t bytes_done, const struct sample *last)
{
	uint64_t h = mix(mix(0, (uint64_t)phase), bytes_done);
	if ((phase == PHASE_FLUSH || phase == PHASE_VERIFY) && last) {
		if (last->have & SAMPLE_HAVE_DISK)
			h = mix(mix(mix(h, last->rd_sectors), last->wr_sectors), last->io_ms);
		if (last->have & SAMPLE_HAVE_MEM)
			h = mix(mix(h, last->dirty), last->writeback);
	}
	return h;
}

static void finish_run(struct session *s, const struct series *ser,
		       const struct worker_result *wr);

/* The no-progress watchdog, once per tick while a strategy copies. */
static void watch_stall(struct session *s, const struct series *ser)
{
	struct run_result *r = cur(s);
	long limit = s->cfg.stall_timeout_s;
	if (!r || !r->strategy[0] || !s->worker_live || !s->worker.progress || limit <= 0)
		return;
	const struct progress *pr = s->worker.progress;
	int phase = atomic_load(&pr->phase);
	uint64_t done = session_progress(s), now = mono_ns();
	/* In the copy phase progress is a MiB more copied (less for a small
	 * file): a copy thrashing under a tiny limit crawls at KiB/s, which is
	 * no progress for a measurement.  Flush and verify also count the disk
	 * moving. */
	uint64_t mark = session_progress_mark(phase, phase == PHASE_COPY ? 0 : done,
					      series_back(ser, 0));
	if (s->stall_run != s->log->nresults || mark != s->stall_mark ||
	    (phase == PHASE_COPY && done >= s->stall_bytes + STALL_MIN(pr->bytes_total)) ||
	    (phase != PHASE_COPY && phase != PHASE_FLUSH && phase != PHASE_VERIFY)) {
		s->stall_run = s->log->nresults;
		s->stall_mark = mark;
		s->stall_bytes = done;
		s->stall_since_ns = now;
		return;
	}
	if ((now - s->stall_since_ns) / 1000000000ull < (uint64_t)limit) /* no overflow */
		return;
	char msg[sizeof(r->message)], a[32], b[32];
	fmt_mib(a, sizeof(a), done);
	fmt_mib(b, sizeof(b), pr->bytes_total);
	if (phase == PHASE_COPY)
		snprintf(msg, sizeof(msg), "%s: no progress for %ld s (stuck at %s of %s)%s", r->name,
			 limit, a, b, s->mem_limit ? " — memory limit too small?" : "");
	else
		snprintf(msg, sizeof(msg), "%s: no progress for %ld s in the %s phase (%s copied, "
			 "the disk idle)", r->name, limit, phase_name((enum phase)phase), a);
	worker_kill(&s->worker);
	struct worker_result wr;
	if (worker_reap(&s->worker, 1, &wr) != 1)
		return;
	wr.ok = 0;
	strlcpy_(wr.message, msg, sizeof(wr.message));
	finish_run(s, ser, &wr);
}

int session_fd(const struct session *s)
{
	if (!s->worker_live)
		return -1;
	/* a --cmd's event pipe ends at exec; its stderr pipe is read after */
	return !s->worker_eof ? s->worker.event_fd : s->worker.err_fd;
}

static void finish_run(struct session *s, const struct series *ser,
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
	r->exit_code = wr->exit_code;
	strlcpy_(r->message, r->cancelled ? "cancelled" : wr->message, sizeof(r->message));
	/* the worker names the strategy; the run is "rw_cp@16M" beside it */
	size_t wl = strlen(s->worker.name);
	if (!r->cancelled && s->io_label[0] && !strncmp(wr->message, s->worker.name, wl) &&
	    wr->message[wl] == ':')
		snprintf(r->message, sizeof(r->message), "%s%s", r->name, wr->message + wl);
	/* Only the cgroup's own OOM counter tells an OOM kill from a kill -9
	 * by someone else (each run's cgroup is new: it starts at 0). */
	uint64_t ooms = 0;
	if (!r->ok && !r->cancelled && cgroup_oom_kills(&s->cg, &ooms) == 0 && ooms > 0) {
		char lim[16];
		size_t l = strlen(r->message);
		fmt_size(lim, sizeof(lim), s->cg.limit);
		snprintf(r->message + l, sizeof(r->message) - l,
			 " - out of memory in its %s cgroup (the OOM killer ran %llu time%s)", lim,
			 (unsigned long long)ooms, ooms == 1 ? "" : "s");
	}
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
	/* the bytes this run copied, not the source's size at session start
	 * (the user's --src may have shrunk or grown since): a strategy counts
	 * them; a --cmd's are the bytes of {dst} it verified (or, unverified,
	 * {dst}'s size); one naming no {dst}: the source's size now */
	r->bytes = wr->bytes_done;
	r->verified = wr->verified;
	if (!r->strategy[0] && r->ok && !strstr(s->cmds[r->cmd].line, "{dst}")) {
		/* it wrote elsewhere: the source's size, and said to be unchecked */
		struct stat st;
		r->bytes = stat(s->src, &st) == 0 ? (uint64_t)st.st_size : s->src_size;
		r->verified = RUN_UNVERIFIABLE;
	}
	r->mbs = r->elapsed_s > 0 ? (double)r->bytes / 1048576.0 / r->elapsed_s : 0;
	/* a run ends after the samples of its copy; r->t_end_ns bounds them */
	uint64_t copy_end = wr->t_done_ns ? wr->t_done_ns : r->t_end_ns;
	struct run_figures fig;
	uint64_t window = burst_window_ns(limit_read_ahead(s), s->io.bps);
	burst_run_figures_in(ser, r->t_copy_ns, r->t_flush_ns, copy_end, window, &fig);
	r->cv_bucket_s = window && !isnan(fig.bucket_s) ? fig.bucket_s : 0;
	r->read_cv = fig.read_cv;
	r->write_cv = fig.write_cv;
	r->peak_active_file_kb = fig.peak_active_file_kb;
	r->pgdeactivate = fig.pgdeactivate;
	r->refault_file = fig.refault_file;
	r->bursts = fig.bursts;
	r->read_at_burst = fig.read_at_burst;
	pagecache_run_figures(ser, (int)(r - s->log->results), r->t_start_ns, r->t_end_ns, r);
	add_event(s, r->t_end_ns, PHASE_IDLE);
	if (!r->ok && !r->cancelled) /* a cancel is the user's choice, not a failure */
		s->failed = 1;
	own_dst(s, wr);
	worker_done(&s->worker);
	s->worker_live = 0;
	char err[256];
	if (cgroup_remove(&s->cg, err, sizeof(err)) < 0 && r->ok)
		snprintf(r->message, sizeof(r->message), "%s", err);
	monitor_watch(s, NULL, NULL, 0, NULL, 0);
	s->state = SESSION_IDLE;
}

int session_poll(struct session *s, const struct series *ser)
{
	if (s->state == SESSION_MAKING_INPUT)
		return session_input_reap(s);
	if (!s->worker_live)
		return 0;
	struct worker_event ev;
	int rc;
	while ((rc = worker_read_event(&s->worker, &ev)) == 1) {
		struct run_result *r = cur(s);
		s->phase = ev.phase;
		if (ev.phase == PHASE_COPY && r && !r->t_copy_ns)
			r->t_copy_ns = ev.t_ns;
		if (ev.phase == PHASE_FLUSH && r && !r->t_flush_ns)
			r->t_flush_ns = ev.t_ns;
		if (ev.phase != PHASE_PREPARE)
			add_event(s, ev.t_ns, ev.phase);
	}
	if (rc < 0)
		s->worker_eof = 1;
	worker_read_stderr(&s->worker);
	struct worker_result wr;
	if (worker_reap(&s->worker, 0, &wr) == 1) {
		finish_run(s, ser, &wr);
		return 1;
	}
	return 0;
}

void session_cancel(struct session *s, const struct series *ser)
{
	struct run_result *r = cur(s);
	if (!r || !s->worker_live)
		return;
	r->cancelled = 1;
	worker_kill(&s->worker);
	struct worker_result wr;
	if (worker_reap(&s->worker, 1, &wr) == 1)
		finish_run(s, ser, &wr);
}

void session_cancel_queue(struct session *s, const struct series *ser)
{
	s->queue_len = s->next;
	s->stopped = 1;
	session_cancel(s, ser);
	if (s->state == SESSION_MAKING_INPUT && s->input_pid > 0) {
		session_input_kill(s);
		scratch_remove_file(&s->scratch, "src");
		s->state = SESSION_IDLE;
	}
}

void session_stop(struct session *s, const char *why)
{
	int code = kill_worker(s);
	end_run(s, 1, code, why);
	s->queue_len = s->next;
	s->stopped = 1;
	cgroup_remove(&s->cg, NULL, 0);
}
