#include "runs/session.h"

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

#include "sampling/device.h"
#include "base/sigpipe.h"
#include "model/pagecache.h"
#include "model/rates.h"
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
		if (device_for_path(cfg->dir ? cfg->dir : "/var/tmp", here, sizeof(here), NULL, 0,
				    why, sizeof(why)) == 0 &&
		    strcmp(here, name) != 0)
			return errf(err, errlen,
				    "--disk-limit: -d %s is not the disk of --dir %s "
				    "(%s): nothing would be throttled",
				    cfg->device, cfg->dir ? cfg->dir : "/var/tmp", here);
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

int session_sweep_stale(const char *dir, struct cgroup_home *cgroups, char *line, size_t len)
{
	struct scratch_swept sw;
	long cg_pid = 0;
	int ncg = 0, restored = 0;
	char why[256], sz[16];

	line[0] = '\0';
	if (scratch_sweep_stale(dir, &sw, why, sizeof(why)) < 0)
		sw.ndirs = 0;
	ncg = cgroup_home_sweep(cgroups, &cg_pid, &restored);
	if (!sw.ndirs && !ncg && !restored)
		return 0;
	if (!sw.ndirs && !ncg) {
		snprintf(line, len,
			 "turned %d cgroup controller%s off again that an lrutop that is "
			 "gone had enabled",
			 restored, restored == 1 ? "" : "s");
		return restored;
	}
	size_t l = (size_t)snprintf(line, len, "removed ");
	if (sw.ndirs) {
		fmt_size(sz, sizeof(sz), sw.bytes);
		l += (size_t)snprintf(line + l, len > l ? len - l : 0,
				      "%d stale scratch director%s (%.200s%s, %s)", sw.ndirs,
				      sw.ndirs == 1 ? "y" : "ies", sw.first,
				      sw.ndirs > 1 ? " and more" : "", sz);
		if (!ncg)
			snprintf(line + l, len > l ? len - l : 0, " of pid %ld that is gone",
				 sw.pid);
	}
	if (ncg)
		l += (size_t)snprintf(line + l, len > l ? len - l : 0,
				      "%s%d cgroup%s of pid %ld%s that is gone",
				      sw.ndirs ? " and " : "", ncg, ncg == 1 ? "" : "s", cg_pid,
				      ncg > 1 ? " and others" : "");
	if (restored)
		snprintf(line + l, len > l ? len - l : 0,
			 ", and turned %d cgroup controller%s off again that it had enabled",
			 restored, restored == 1 ? "" : "s");
	return sw.ndirs + ncg + restored;
}

static void free_argv(char **argv)
{
	if (!argv)
		return;
	for (char **a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* A label is taken by a strategy (any: the picker may queue it later) or
 * by an earlier --cmd. */
static int label_taken(const struct session *s, const char *label)
{
	if (strategy_find(label))
		return 1;
	for (size_t i = 0; i < s->ncmds; i++)
		if (strcmp(s->cmds[i].label, label) == 0)
			return 1;
	return 0;
}

/* The default label: the program's base name, plus its first argument
 * unless that is (or holds) {src}/{dst} — "cp {src} {dst}" is "cp",
 * "cp -a {src} {dst}" is "cp -a" — cut to SESSION_LABEL_MAX bytes; commas
 * and control characters (CSV cells, one-line messages) become '_'. */
static void default_label(char *out, size_t len, char *const *words)
{
	const char *prog = strrchr(words[0], '/');
	prog = prog && prog[1] ? prog + 1 : words[0];
	const char *arg = words[1];
	if (arg && (strstr(arg, "{src}") || strstr(arg, "{dst}")))
		arg = NULL;
	char buf[96];
	snprintf(buf, sizeof(buf), "%s%s%s", prog, arg ? " " : "", arg ? arg : "");
	size_t n = strlen(buf);
	if (n > SESSION_LABEL_MAX)
		n = SESSION_LABEL_MAX;
	buf[utf8_floor(buf, n)] = '\0'; /* not inside a UTF-8 character */
	for (char *c = buf; *c; c++)
		if (text_ctrl((unsigned char)*c) || *c == ',' || *c == '"')
			*c = '_';
	strlcpy_(out, buf, len);
}

/* execvp's search, done up front so a misspelt program is a usage error
 * before a scratch input is written. */
static int check_program(const char *prog, char *err, size_t errlen)
{
	struct stat st;
	if (strchr(prog, '/')) {
		if (stat(prog, &st) < 0)
			return errf(err, errlen, "--cmd %s: %s", prog, strerror(errno));
		if (S_ISDIR(st.st_mode) || access(prog, X_OK) < 0)
			return errf(err, errlen, "--cmd %s: %s", prog,
				    strerror(S_ISDIR(st.st_mode) ? EISDIR : errno));
		return 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/bin:/usr/bin";
	int eacces = 0;
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t dl = e ? (size_t)(e - p) : strlen(p);
		char f[4096];
		snprintf(f, sizeof(f), "%.*s/%s", (int)dl, dl ? p : ".", prog);
		if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
			if (access(f, X_OK) == 0)
				return 0;
			eacces = 1;
		}
		p = e ? e + 1 : p + dl;
	}
	if (eacces)
		return errf(err, errlen, "--cmd %s: %s", prog, strerror(EACCES));
	return errf(err, errlen, "--cmd %s: %s (searched PATH)", prog, strerror(ENOENT));
}

/* The --cmd entries: words, program, labels. */
static int setup_cmds(struct session *s, const struct run_config *cfg, char *err, size_t errlen)
{
	for (int i = 0; i < cfg->ncmds; i++) {
		struct session_cmd *c = &s->cmds[s->ncmds];
		char **words = split_cmd(cfg->cmds[i], "{src}", "{dst}");
		int rc = !words[0] ? errf(err, errlen, "--cmd: empty command")
				   : check_program(words[0], err, errlen);
		if (rc == 0 && i < cfg->nnames) {
			const char *n = cfg->names[i];
			size_t bad = strcspn(n, ",\"\t\n\r");
			if (!*n || strspn(n, " ") == strlen(n))
				rc = errf(err, errlen, "--name: empty name");
			else if (strlen(n) > SESSION_LABEL_MAX)
				rc = errf(err, errlen, "--name %s: at most %d bytes", n,
					  SESSION_LABEL_MAX);
			else if (n[bad])
				rc = errf(err, errlen, "--name %s: no commas, quotes or control "
						       "characters", n);
			else if (strategy_find(n))
				rc = errf(err, errlen, "--name %s: is a strategy's name (pick "
						       "another)", n);
			else if (label_taken(s, n))
				rc = errf(err, errlen, "--name %s: given twice (labels must be "
						       "unique)", n);
			else
				strlcpy_(c->label, n, sizeof(c->label));
		} else if (rc == 0) {
			char base[32];
			default_label(base, sizeof(base), words);
			strlcpy_(c->label, base, sizeof(c->label));
			for (int k = 2; label_taken(s, c->label); k++)
				snprintf(c->label, sizeof(c->label), "%.24s#%u", base, (unsigned char)k);
		}
		free_argv(words);
		if (rc < 0)
			return -1;
		c->line = cfg->cmds[i];
		s->ncmds++;
	}
	return 0;
}

/* An entry's label before any sweep suffix: the strategy's name
 * (+prealloc for a mapped copy that preallocates) or the --cmd's label,
 * and the --disk-limit's "@30M". */
static void entry_label(const struct session *s, const struct queued *q, char *buf, size_t len)
{
	const struct strategy *st = q->strategy;
	if (st)
		snprintf(buf, len, "%s%s%s", st->name,
			 s->cfg.prealloc && !strcmp(st->family, "mmap") ? "+prealloc" : "",
			 s->io_label);
	else
		snprintf(buf, len, "%.*s%s", (int)(len - 1 - strlen(s->io_label)),
			 s->cmds[q->cmd].label, s->io_label);
}

/* Two queue entries are runs of the same thing (strategy or --cmd, and
 * sweep value): their repeat numbers go on from each other. */
static int same_entry(const struct queued *a, const struct queued *b)
{
	return a->strategy == b->strategy && (a->strategy || a->cmd == b->cmd) &&
	       a->value == b->value;
}

static int enqueue(struct session *s, const struct queued *list, size_t n, int repeat,
		   char *err, size_t errlen)
{
	if (n > SESSION_MAX_RUNS || s->queue_len + n * (size_t)repeat > SESSION_MAX_RUNS)
		return errf(err, errlen, "at most %d runs in one session", SESSION_MAX_RUNS);
	/* repeat numbers go on from runs of the same entry queued before
	 * (the picker adds to a queue): labels and #N stay unique */
	int done[SESSION_MAX_RUNS] = {0};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s->queue_len; k++)
			done[i] += same_entry(&s->queue[k], &list[i]);
	for (int r = 1; r <= repeat; r++)
		for (size_t i = 0; i < n; i++) {
			s->queue[s->queue_len] = list[i];
			s->queue[s->queue_len].repeat = r + done[i];
			s->queue_len++;
		}
	if (!s->log->baseline[0] && n)
		strlcpy_(s->log->baseline, list[0].strategy ? list[0].strategy->name
						       : s->cmds[list[0].cmd].label,
			 sizeof(s->log->baseline));
	if (s->state == SESSION_FINISHED)
		s->state = SESSION_IDLE;
	return 0;
}

/* --sweep: every entry at every value (value-major, so a repeat round
 * walks the whole range: A@1 B@1 A@2 B@2 ... A@1 ...); with --sweep-until
 * the entries are kept and the bisection queues its first step later
 * (sweep_step). */
static int enqueue_sweep(struct session *s, const struct queued *q, size_t nq, char *err,
			 size_t errlen)
{
	const struct sweep_spec *sw = &s->cfg.sweep;
	/* a bisection's runs are queued step by step: its bound is known now,
	 * and refused now (exit 2), not at the step that would not fit */
	size_t most = nq * (size_t)sweep_values_most(sw) * (size_t)s->cfg.repeat;
	if (most > SESSION_MAX_RUNS)
		return errf(err, errlen, "at most %d runs in one session (this sweep can take %zu)",
			    SESSION_MAX_RUNS, most);
	if (sw->until.set) {
		memcpy(s->entries, q, nq * sizeof(*q));
		s->nentries = nq;
		return 0;
	}
	struct queued *all = xcalloc(SESSION_MAX_RUNS, sizeof(*all));
	size_t n = 0;
	for (int v = 0; v < sw->n; v++)
		for (size_t i = 0; i < nq; i++) {
			all[n] = q[i];
			all[n++].value = v;
		}
	int rc = enqueue(s, all, n, s->cfg.repeat, err, errlen);
	free(all);
	return rc;
}

/* The bisection's next step: for each entry the values it needs next
 * (sweep_bisect_next over the runs so far), each --repeat times,
 * interleaved.  0 when every entry is done. */
static size_t sweep_step(struct session *s)
{
	const struct sweep_spec *sw = &s->cfg.sweep;
	struct sweep_table *t = xmalloc(sizeof(*t));
	sweep_table_build(t, sw, s->log->results, s->log->nresults, 0);
	struct queued step[2 * (SESSION_MAX_STRATEGIES + SESSION_MAX_CMDS)];
	size_t n = 0;
	for (size_t e = 0; e < s->nentries; e++) {
		char lab[32];
		entry_label(s, &s->entries[e], lab, sizeof(lab));
		int col = -1;
		for (int k = 0; k < t->ns; k++)
			if (!strcmp(t->strat[k], lab))
				col = k;
		int next[2];
		struct sweep_bracket b;
		int k = sweep_bisect_next(t, col, &sw->until, s->cfg.repeat, next, &b);
		for (int j = 0; j < k; j++) {
			step[n] = s->entries[e];
			step[n++].value = next[j];
		}
	}
	free(t);
	char err[128];
	if (n && enqueue(s, step, n, s->cfg.repeat, err, sizeof(err)) < 0) {
		strlcpy_(s->error, err, sizeof(s->error));
		return 0;
	}
	return n;
}

int session_enqueue(struct session *s, const struct strategy *const *list, size_t n, int repeat,
		    char *err, size_t errlen)
{
	struct queued q[SESSION_MAX_STRATEGIES];
	if (n > SESSION_MAX_STRATEGIES)
		return errf(err, errlen, "at most %d strategies at once", SESSION_MAX_STRATEGIES);
	for (size_t i = 0; i < n; i++)
		q[i] = (struct queued){.strategy = list[i], .cmd = -1, .value = -1};
	return enqueue(s, q, n, repeat, err, errlen);
}

size_t session_runs_left(const struct session *s)
{
	size_t left = s->queue_len - s->next;
	const struct run_result *r = session_current(s);
	return left + (r ? 1 : 0);
}

/* The queue of the command line: the --cmds given before -s, -s LIST, the
 * rest of the --cmds, each `repeat` times interleaved; then --baseline. */
static int setup_queue(struct session *s, const struct run_config *cfg, char *err, size_t errlen)
{
	const struct strategy *list[SESSION_MAX_STRATEGIES];
	size_t n = 0;
	if (cfg->strategies && strategy_parse_list(cfg->strategies, list,
						   SESSION_MAX_STRATEGIES, &n, err, errlen) < 0) {
		char tmp[512];
		strlcpy_(tmp, err, sizeof(tmp));
		return errf(err, errlen, "-s: %s", tmp);
	}
	if (setup_cmds(s, cfg, err, errlen) < 0)
		return -1;
	struct queued q[SESSION_MAX_STRATEGIES + SESSION_MAX_CMDS];
	size_t nq = 0;
	int before = cfg->strategies ? cfg->cmds_before_s : (int)s->ncmds;
	for (int i = 0; i < before; i++)
		q[nq++] = (struct queued){.cmd = i, .value = -1};
	for (size_t i = 0; i < n; i++)
		q[nq++] = (struct queued){.strategy = list[i], .cmd = -1, .value = -1};
	for (size_t i = (size_t)before; i < s->ncmds; i++)
		q[nq++] = (struct queued){.cmd = (int)i, .value = -1};
	if (cfg->sweep.param ? enqueue_sweep(s, q, nq, err, errlen) < 0
			     : enqueue(s, q, nq, cfg->repeat, err, errlen) < 0)
		return -1;
	if (cfg->baseline) {
		char all[256] = "";
		size_t l = 0;
		s->log->baseline[0] = '\0';
		for (size_t i = 0; i < nq; i++) {
			const char *name = q[i].strategy ? q[i].strategy->name
							 : s->cmds[q[i].cmd].label;
			if (strcmp(name, cfg->baseline) == 0)
				strlcpy_(s->log->baseline, name, sizeof(s->log->baseline));
			if (l < sizeof(all))
				l += (size_t)snprintf(all + l, sizeof(all) - l, "%s%s", i ? ", " : "",
						      name);
		}
		if (!s->log->baseline[0])
			return errf(err, errlen, "--baseline %s: not one of the runs (%s)",
				    cfg->baseline, all);
	}
	return 0;
}

static void free_cmds(struct session *s)
{
	for (size_t i = 0; i < s->ncmds; i++) {
		free_argv(s->cmds[i].argv);
		s->cmds[i].argv = NULL;
	}
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
	if (setup_queue(s, cfg, err, errlen) < 0)
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
		source_ready(s);
	s->state = SESSION_IDLE;
	return 0;
}

/* The source exists: --cmd's words can be made. */
static void source_ready(struct session *s)
{
	s->have_input = 1;
	for (size_t i = 0; i < s->ncmds; i++)
		if (!s->cmds[i].argv)
			s->cmds[i].argv = split_cmd(s->cmds[i].line, s->src, s->dst);
}

/* The child that writes the scratch input: it only fills a file in our
 * private directory and reports bytes through the shared page. */
static int source_progress(uint64_t done, uint64_t total, void *arg)
{
	(void)total;
	atomic_store((_Atomic uint64_t *)arg, done);
	return 0;
}

static int start_input(struct session *s, char *err, size_t errlen)
{
	char path[4096];
	if (scratch_path(&s->scratch, "src", path, sizeof(path)) < 0)
		return errf(err, errlen, "--dir %s: path too long", s->cfg.dir);
	/* the writer creates it O_EXCL; a stranger's file there is refused here,
	 * so whatever is under "src" after the writer ran is lrutop's */
	if (scratch_unlink_own(&s->scratch, "src", err, errlen) < 0)
		return -1;
	atomic_store(s->input_done, 0);
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
		_exit(scratch_make_input(&s->scratch, s->src_size, source_progress,
					  (void *)s->input_done, e, sizeof(e)) < 0
			      ? 1
			      : 0);
	}
	sig_block(0);
	s->input_pid = pid;
	s->state = SESSION_MAKING_INPUT;
	return 0;
}

/* Reaps the source writer; 1 when it ended. */
static int reap_input(struct session *s)
{
	int status;
	pid_t got = waitpid(s->input_pid, &status, WNOHANG);
	if (got == 0 || (got < 0 && errno == EINTR))
		return 0;
	s->input_pid = -1;
	if (got > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		scratch_own_current(&s->scratch, "src");
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
		s->stopped = 1;
		s->state = SESSION_FINISHED;
	}
	return 1;
}

/* Stops the source writer, if one is running. */
static void kill_input(struct session *s)
{
	if (s->input_pid <= 0)
		return;
	kill(s->input_pid, SIGKILL);
	int status = 0;
	while (waitpid(s->input_pid, &status, 0) < 0 && errno == EINTR)
		;
	/* killed mid-write: the partial file is the writer's (see start_input) */
	if (WIFSIGNALED(status))
		scratch_own_current(&s->scratch, "src");
	s->input_pid = -1;
}

uint64_t session_input_progress(const struct session *s)
{
	return s->input_done ? atomic_load(s->input_done) : 0;
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

void session_done(struct session *s)
{
	kill_input(s);
	if (s->worker_live) {
		worker_kill(&s->worker);
		own_dst(s, &s->worker.result);
		worker_done(&s->worker);
		s->worker_live = 0;
	}
	cgroup_remove(&s->cg, NULL, 0);
	scratch_remove(&s->scratch);
	free_cmds(s);
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
	entry_label(s, q, r->name, sizeof(r->name));
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

static void fail_run(struct session *s, const char *msg)
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
	monitor_watch(s, NULL, NULL, 0, NULL, 0);
	s->state = SESSION_IDLE;
}

static void watch_stall(struct session *s, const struct series *ser);

void session_tick(struct session *s, const struct series *ser)
{
	if (s->state == SESSION_IDLE) {
		if (s->next >= s->queue_len &&
		    !(s->cfg.sweep.until.set && !s->stopped && sweep_step(s))) {
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
			if (start_input(s, err, sizeof(err)) < 0) {
				strlcpy_(s->error, err, sizeof(s->error));
				s->failed = 1;
				s->next = s->queue_len;
				s->stopped = 1;
				s->state = SESSION_FINISHED;
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

/* "1.2 MiB", "8 MiB" */
static void fmt_mib(char *buf, size_t len, uint64_t bytes)
{
	double m = (double)bytes / 1048576.0;
	snprintf(buf, len, m == (double)(uint64_t)m ? "%.0f MiB" : "%.1f MiB", m);
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
		return reap_input(s);
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
		kill_input(s);
		scratch_remove_file(&s->scratch, "src");
		s->state = SESSION_IDLE;
	}
}

void session_stop(struct session *s, const char *why)
{
	struct run_result *r = cur(s);
	if (s->worker_live) {
		worker_kill(&s->worker);
		own_dst(s, &s->worker.result);
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
	s->stopped = 1;
	cgroup_remove(&s->cg, NULL, 0);
}
