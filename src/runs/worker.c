#include "runs/worker.h"
#include "base/sigpipe.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

/* The shared anonymous page: what the monitor may read of the child. */
struct worker_page {
	struct progress progress;
	_Atomic uint64_t elapsed_ns; /* strategy: copy+flush time, set before _exit(0) */
	_Atomic uint64_t t_copy_ns;  /* --cmd: clock just before exec */
	_Atomic uint64_t t_done_ns;  /* clock of the PHASE_DONE event */
	_Atomic int verified;	     /* -1 not run, 0 differs, 1 equal */
	/* strategy: the copy's own resource use (copy+flush), without the
	 * prepare phase before it and the verify after it */
	struct rusage ru_copy;
	_Atomic int have_ru;
	/* resource use just before the copy (or the exec): a run that fails
	 * reports only what it used from there, not the prepare phase's cache
	 * drop, so %cpu is measured over the same interval as elapsed */
	struct rusage ru_start;
	_Atomic int have_ru_start;
	/* the destination the strategy created (seen at PHASE_COPY, right
	 * after its O_EXCL create): the monitor may remove exactly that file */
	_Atomic int dst_made;
	_Atomic uint64_t dst_dev, dst_ino;
	/* --cmd: the command's wait status, once it is reaped */
	_Atomic int cmd_status;
	_Atomic int have_cmd_status;
};

static void ru_sub(struct rusage *d, const struct rusage *a, const struct rusage *b)
{
	timersub(&b->ru_utime, &a->ru_utime, &d->ru_utime);
	timersub(&b->ru_stime, &a->ru_stime, &d->ru_stime);
	d->ru_maxrss = b->ru_maxrss;
	d->ru_minflt = b->ru_minflt - a->ru_minflt;
	d->ru_majflt = b->ru_majflt - a->ru_majflt;
	d->ru_inblock = b->ru_inblock - a->ru_inblock;
	d->ru_oublock = b->ru_oublock - a->ru_oublock;
	d->ru_nvcsw = b->ru_nvcsw - a->ru_nvcsw;
	d->ru_nivcsw = b->ru_nivcsw - a->ru_nivcsw;
}

/* What the child's on_phase and on_created callbacks need. */
struct child {
	int ev_fd;
	struct worker_page *pg;
};

static size_t page_len(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	size_t len = ps > 0 ? (size_t)ps : 4096;

	while (len < sizeof(struct worker_page))
		len *= 2;
	return len;
}

__attribute__((noreturn, format(printf, 3, 4))) static void
child_fail(struct worker_page *pg, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrf(pg->progress.error, sizeof pg->progress.error, fmt, ap); /* keeps the reason */
	va_end(ap);
	_exit(status);
}

/* The strategy created dst: its identity goes to the page at once, so the
 * monitor removes it (and only it) whenever the worker is killed. */
static void child_created(int fd, void *arg)
{
	struct child *c = arg;
	struct stat st;

	if (fstat(fd, &st) == 0) {
		atomic_store(&c->pg->dst_dev, (uint64_t)st.st_dev);
		atomic_store(&c->pg->dst_ino, (uint64_t)st.st_ino);
		atomic_store(&c->pg->dst_made, 1);
	}
}

static void child_event(enum phase p, void *arg)
{
	struct child *c = arg;
	struct worker_event ev;
	const char *b = (const char *)&ev;
	size_t n = sizeof ev;

	atomic_store(&c->pg->progress.phase, (int)p);
	if (c->ev_fd < 0) /* a --cmd's worker after the fork: the page says it */
		return;
	memset(&ev, 0, sizeof ev);
	ev.phase = (int)p;
	ev.t_ns = mono_ns();
	if (p == PHASE_DONE)
		atomic_store(&c->pg->t_done_ns, ev.t_ns);
	/* One record is below PIPE_BUF, so this is a single atomic write; a
	 * monitor that stopped listening (EPIPE) is not the copy's problem. */
	while (n > 0) {
		ssize_t w = write(c->ev_fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		b += w;
		n -= (size_t)w;
	}
}

/* Moves fd above the standard descriptors (the monitor may run with one of
 * them closed, and they are about to become /dev/null). */
static int fd_above_stdio(struct worker_page *pg, int fd)
{
	int nfd;

	if (fd > STDERR_FILENO)
		return fd;
	nfd = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	if (nfd < 0)
		child_fail(pg, 1, "worker: dup: %s", strerror(errno));
	return nfd;
}

static void close_from(unsigned lo, unsigned hi)
{
	if (lo > hi)
		return;
	if (close_range(lo, hi, 0) == 0)
		return;
	/* Kernels before 5.9: close one by one up to the fd limit. */
	long max = sysconf(_SC_OPEN_MAX);
	if (max < 0 || max > 65536)
		max = 65536;
	for (unsigned fd = lo; fd <= hi && fd < (unsigned)max; fd++)
		close((int)fd);
}

/* stdio to /dev/null and every inherited fd but ours closed: the worker
 * must not hold the terminal, the monitor's files or its signal pipe. */
static void child_fds(struct worker_page *pg, int *ev_fd, int *go_fd, int err_fd)
{
	int null, lo, hi;

	*ev_fd = fd_above_stdio(pg, *ev_fd);
	*go_fd = fd_above_stdio(pg, *go_fd);
	if (err_fd >= 0)
		err_fd = fd_above_stdio(pg, err_fd);
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		child_fail(pg, 1, "worker: open /dev/null: %s", strerror(errno));
	for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; fd++)
		if (fd != null && dup2(null, fd) < 0)
			child_fail(pg, 1, "worker: dup2 /dev/null: %s", strerror(errno));
	/* a --cmd's stderr: the pipe (its other copy is closed below) */
	if (err_fd >= 0 && dup2(err_fd, STDERR_FILENO) < 0)
		child_fail(pg, 1, "worker: dup2 stderr: %s", strerror(errno));
	if (null > STDERR_FILENO)
		close(null);
	lo = *ev_fd < *go_fd ? *ev_fd : *go_fd;
	hi = *ev_fd < *go_fd ? *go_fd : *ev_fd;
	close_from(STDERR_FILENO + 1, (unsigned)lo - 1);
	close_from((unsigned)lo + 1, (unsigned)hi - 1);
	close_from((unsigned)hi + 1, ~0u);
}

static void child_signals(pid_t parent)
{
	sig_child_reset();
	/* The monitor decides when a worker dies; if it dies, so do we. */
	setpgid(0, 0);
	sig_child_tie(parent);
}

static void join_cgroup(struct worker_page *pg, const char *procs)
{
	char buf[32];
	int fd, n, e;

	fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		child_fail(pg, 1, "join cgroup %s: %s", procs, strerror(errno));
	n = snprintf(buf, sizeof buf, "%d\n", (int)getpid());
	if (write(fd, buf, (size_t)n) != n) {
		e = errno;
		close(fd);
		child_fail(pg, 1, "join cgroup %s: %s", procs, strerror(e));
	}
	close(fd);
}

static void fadvise_dontneed(const char *path)
{
	int fd;

	if (!path)
		return;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

static int write_drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok ? 0 : -1;
}

/* The monitor removed the previous run's destination (the one lrutop
 * made); anything there now is someone else's and stays. */
static void check_no_dst(const struct worker_spec *spec, struct child *c)
{
	struct stat st;

	if (!spec->dst)
		return;
	if (lstat(spec->dst, &st) == 0)
		child_fail(c->pg, 1, "dst %s: exists and was not made by lrutop — refusing to "
			   "remove it", spec->dst);
	if (errno != ENOENT)
		child_fail(c->pg, 1, "dst %s: %s", spec->dst, strerror(errno));
}

static void child_prepare(const struct worker_spec *spec, struct child *c, int go_fd)
{
	ssize_t r;
	char b;

	child_event(PHASE_PREPARE, c);
	if (spec->src) {
		struct stat st;
		if (stat(spec->src, &st) == 0)
			c->pg->progress.bytes_total = (uint64_t)st.st_size;
	}
	check_no_dst(spec, c);
	sync();
	do
		r = read(go_fd, &b, 1);
	while (r < 0 && errno == EINTR);
	if (r != 1)
		child_fail(c->pg, 1, "the monitor went away before the copy started");
	close(go_fd);
	if (!(spec->drop_caches && geteuid() == 0 && write_drop_caches() == 0)) {
		fadvise_dontneed(spec->src);
		fadvise_dontneed(spec->dst);
	}
	check_no_dst(spec, c); /* again: the wait for "go" may have been long */
}

/* Compares dst with src as the disk has it (dst is clean after the
 * strategy's fsync, so DONTNEED really drops it). Exits 1 on a difference. */
static void child_verify(const struct worker_spec *spec, struct child *c)
{
	size_t n = (size_t)1 << 20;
	char *a = xmalloc(n), *b = xmalloc(n);
	int fs, fd;
	uint64_t off = 0;

	child_event(PHASE_VERIFY, c);
	fs = open(spec->src, O_RDONLY | O_CLOEXEC);
	fd = open(spec->dst, O_RDONLY | O_CLOEXEC);
	if (fs < 0 || fd < 0)
		child_fail(c->pg, 1, "verify: open %s: %s", fs < 0 ? spec->src : spec->dst,
			   strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	for (;;) {
		ssize_t ra = read_full(fs, a, n), rb = read_full(fd, b, n);
		if (ra < 0 || rb < 0)
			child_fail(c->pg, 1, "verify: read %s: %s", ra < 0 ? spec->src : spec->dst,
				   strerror(errno));
		if (ra != rb || memcmp(a, b, (size_t)ra) != 0) {
			size_t i = 0;
			while (i < (size_t)ra && i < (size_t)rb && a[i] == b[i])
				i++;
			atomic_store(&c->pg->verified, 0);
			child_fail(c->pg, 1, "verify: %s differs from %s at byte %llu", spec->dst,
				   spec->src, (unsigned long long)(off + i));
		}
		if (ra == 0)
			break;
		off += (uint64_t)ra;
	}
	close(fs);
	close(fd);
	free(a);
	free(b);
	atomic_store(&c->pg->verified, 1);
}

/* What the command left running in the background (`sleep 100 &`): the
 * other members of the worker's process group, SIGKILLed — without a run
 * cgroup nothing else would end them, and they must not write to {dst}
 * while it is verified.  Zombies are skipped; a few rounds for a child
 * that forked meanwhile. */
static void kill_leftovers(void)
{
	pid_t me = getpid();
	for (int round = 0; round < 20; round++) {
		DIR *d = opendir("/proc");
		int found = 0;
		struct dirent *e;
		if (!d)
			return;
		while ((e = readdir(d)) != NULL) {
			char path[64], buf[512];
			long pid = strtol(e->d_name, NULL, 10);
			if (pid <= 0 || pid == me)
				continue;
			snprintf(path, sizeof path, "/proc/%ld/stat", pid);
			if (read_small_at(AT_FDCWD, path, buf, sizeof buf) <= 0)
				continue;
			const char *p = strrchr(buf, ')');
			char state;
			long ppid, pgrp;
			if (!p || sscanf(p + 1, " %c %ld %ld", &state, &ppid, &pgrp) != 3)
				continue;
			if (pgrp == me && state != 'Z' && state != 'X') {
				kill((pid_t)pid, SIGKILL);
				found = 1;
			}
		}
		closedir(d);
		if (!found)
			return;
	}
}

/* The bytes a command (and the children it waited for) wrote anywhere:
 * /proc/PID/io's wchar, read while it is a zombie not yet reaped. */
static int cmd_wchar(pid_t pid, uint64_t *wchar)
{
	siginfo_t si;
	char path[64], buf[512];

	while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0)
		if (errno != EINTR)
			return -1;
	snprintf(path, sizeof path, "/proc/%d/io", (int)pid);
	if (read_small_at(AT_FDCWD, path, buf, sizeof buf) <= 0)
		return -1;
	const char *p = strstr(buf, "wchar:");
	if (!p)
		return -1;
	*wchar = strtoull(p + 6, NULL, 10);
	return 0;
}

/* A --cmd: the command runs as the worker's child (same process group, so
 * worker_kill reaches it), so that the worker can check its copy after it
 * exits.  The event pipe is closed at the fork, as an exec would close it:
 * the monitor then drains the command's stderr until it ends.  The verify
 * phase is announced on the shared page only (t_done_ns, progress.phase). */
__attribute__((noreturn)) static void child_cmd(const struct worker_spec *spec, struct child *c)
{
	struct worker_page *pg = c->pg;
	struct rusage ru;
	int status = 0, e;
	pid_t pid;

	getrusage(RUSAGE_SELF, &pg->ru_start);
	atomic_store(&pg->have_ru_start, 1);
	uint64_t t0 = mono_ns();
	atomic_store(&pg->t_copy_ns, t0);
	child_event(PHASE_COPY, c);
	pid = fork();
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		execvp(spec->argv[0], spec->argv);
		child_fail(pg, 127, "exec %s: %s", spec->argv[0], strerror(errno));
	}
	e = errno;
	close(c->ev_fd);
	c->ev_fd = -1;
	if (pid < 0)
		child_fail(pg, 1, "fork %s: %s", spec->argv[0], strerror(e));
	/* the command's stderr is the pipe: ours must not hold it open */
	int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (null >= 0) {
		dup2(null, STDERR_FILENO);
		close(null);
	}
	uint64_t wchar = 0;
	int have_wchar = spec->cmd_elsewhere && cmd_wchar(pid, &wchar) == 0;
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			child_fail(pg, 1, "wait for %s: %s", spec->argv[0], strerror(errno));
	uint64_t t1 = mono_ns();
	atomic_store(&pg->cmd_status, status);
	atomic_store(&pg->have_cmd_status, 1);
	kill_leftovers();
	atomic_store(&pg->elapsed_ns, t1 - t0);
	pg->ru_copy = ru;
	atomic_store(&pg->have_ru, 1);
	atomic_store(&pg->t_done_ns, t1);
	if (WIFSIGNALED(status)) { /* die the same way: the monitor's message says how */
		struct rlimit no = {0, 0};
		setrlimit(RLIMIT_CORE, &no);
		signal(WTERMSIG(status), SIG_DFL);
		kill(getpid(), WTERMSIG(status));
		_exit(128 + WTERMSIG(status));
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
	if (have_wchar && wchar < pg->progress.bytes_total)
		child_fail(pg, 1,
			   "no copy: it names no {dst} and wrote %llu of the source's %llu "
			   "bytes anywhere",
			   (unsigned long long)wchar, (unsigned long long)pg->progress.bytes_total);
	if (spec->dst && spec->verify) {
		struct stat sd, ss;
		if (lstat(spec->dst, &sd) < 0)
			child_fail(pg, 1, "left no copy at {dst} %s: %s", spec->dst,
				   strerror(errno));
		if (!S_ISREG(sd.st_mode))
			child_fail(pg, 1, "{dst} %s: not a regular file", spec->dst);
		if (stat(spec->src, &ss) == 0 && sd.st_size != ss.st_size) {
			atomic_store(&pg->verified, 0);
			child_fail(pg, 1, "verify: {dst} %s is %lld bytes, {src} %lld: %s copy",
				   spec->dst, (long long)sd.st_size, (long long)ss.st_size,
				   sd.st_size < ss.st_size ? "a short" : "a long");
		}
		/* the command's dirty pages first, so the compare reads the disk */
		int fd = open(spec->dst, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			fdatasync(fd);
			close(fd);
		}
		child_verify(spec, c);
		atomic_store(&pg->progress.bytes_done, (uint64_t)sd.st_size);
	} else if (spec->dst) {
		/* not verified (--no-verify): what is there, never the source's size */
		struct stat sd;
		if (lstat(spec->dst, &sd) == 0 && S_ISREG(sd.st_mode))
			atomic_store(&pg->progress.bytes_done, (uint64_t)sd.st_size);
	}
	_exit(0);
}

__attribute__((noreturn)) static void child_main(const struct worker_spec *spec,
						 struct worker_page *pg, int ev_fd, int go_fd,
						 int err_fd, pid_t parent)
{
	struct child c = {ev_fd, pg};
	struct copy_job job;
	uint64_t t0;

	child_signals(parent);
	/* First, before any file is opened: page-cache charges go to the
	 * cgroup of the task that faults the page in. */
	if (spec->cgroup_procs)
		join_cgroup(pg, spec->cgroup_procs);
	if (spec->io_procs)
		join_cgroup(pg, spec->io_procs);
	child_fds(pg, &ev_fd, &go_fd, err_fd);
	c.ev_fd = ev_fd;
	child_prepare(spec, &c, go_fd);

	if (spec->argv)
		child_cmd(spec, &c);

	/* A monitor that closed the event pipe must not kill the copy. */
	signal(SIGPIPE, SIG_IGN);
	memset(&job, 0, sizeof job);
	job.src = spec->src;
	job.dst = spec->dst;
	job.bs = spec->bs;
	job.prealloc = spec->prealloc;
	job.progress = &pg->progress;
	job.on_phase = child_event;
	job.on_created = child_created;
	job.phase_arg = &c;
	struct rusage ru0, ru1;
	getrusage(RUSAGE_SELF, &ru0);
	pg->ru_start = ru0;
	atomic_store(&pg->have_ru_start, 1);
	t0 = mono_ns();
	if (spec->strategy->copy(&job, pg->progress.error, sizeof pg->progress.error) < 0) {
		if (!pg->progress.error[0])
			strlcpy_(pg->progress.error, "failed", sizeof pg->progress.error);
		_exit(1);
	}
	atomic_store(&pg->elapsed_ns, mono_ns() - t0);
	getrusage(RUSAGE_SELF, &ru1);
	ru_sub(&pg->ru_copy, &ru0, &ru1);
	atomic_store(&pg->have_ru, 1);
	if (spec->verify)
		child_verify(spec, &c);
	_exit(0);
}

static void set_name(struct worker *w, const struct worker_spec *spec)
{
	const char *name = spec->strategy ? spec->strategy->name : spec->argv[0];
	const char *slash = strrchr(name, '/');

	if (!spec->strategy && slash && slash[1])
		name = slash + 1;
	strlcpy_(w->name, name, sizeof w->name);
}

int worker_start(const struct worker_spec *spec, struct worker *w, char *err, size_t errlen)
{
	int ev[2] = {-1, -1}, go[2] = {-1, -1}, ep[2] = {-1, -1};
	pid_t parent, pid = 0;
	void *page;
	int e;

	memset(w, 0, sizeof *w);
	w->pid = -1;
	w->event_fd = w->go_fd = w->err_fd = -1;
	if (!spec->strategy == !(spec->argv && spec->argv[0]))
		return errf(err, errlen, "worker: give either a strategy or a command");
	if (spec->strategy && (!spec->src || !spec->dst))
		return errf(err, errlen, "%s: needs a source and a destination",
			    spec->strategy->name);

	page = mmap(NULL, page_len(), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return errf(err, errlen, "worker: shared page: %s", strerror(errno));
	if (pipe2(ev, O_CLOEXEC) < 0 ||
	    socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) < 0 ||
	    (!spec->strategy && pipe2(ep, O_CLOEXEC) < 0)) {
		e = errno;
		goto fail;
	}

	atomic_store(&((struct worker_page *)page)->verified, -1);

	parent = getpid();
	pid = sig_fork(); /* no handler of the monitor may run in the child */
	if (pid == 0) {
		close(ev[0]);
		close(go[0]);
		if (ep[0] >= 0)
			close(ep[0]);
		child_main(spec, page, ev[1], go[1], ep[1], parent);
	}
	e = errno;
	if (pid < 0)
		goto fail;
	setpgid(pid, pid); /* also done by the child: whoever runs first wins */
	close(ev[1]);
	close(go[1]);
	fcntl(ev[0], F_SETFL, fcntl(ev[0], F_GETFL) | O_NONBLOCK);
	if (ep[1] >= 0) {
		close(ep[1]);
		fcntl(ep[0], F_SETFL, fcntl(ep[0], F_GETFL) | O_NONBLOCK);
	}
	w->err_fd = ep[0];

	w->pid = pid;
	w->event_fd = ev[0];
	w->go_fd = go[0];
	w->page = page;
	w->progress = &((struct worker_page *)page)->progress;
	w->is_cmd = spec->strategy == NULL;
	w->in_cgroup = spec->cgroup_procs != NULL;
	set_name(w, spec);
	return 0;
fail:
	for (int i = 0; i < 2; i++) {
		if (ev[i] >= 0)
			close(ev[i]);
		if (go[i] >= 0)
			close(go[i]);
		if (ep[i] >= 0)
			close(ep[i]);
	}
	munmap(page, page_len());
	return errf(err, errlen, "worker: %s: %s", pid < 0 ? "fork" : "pipe", strerror(e));
}

int worker_read_event(struct worker *w, struct worker_event *ev)
{
	if (!w->page || w->event_fd < 0)
		return -1;
	for (;;) {
		ssize_t n = read(w->event_fd, ev, sizeof *ev);
		if (n == (ssize_t)sizeof *ev)
			return 1;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		return -1; /* EOF, or a torn record the protocol cannot produce */
	}
}

int worker_read_stderr(struct worker *w)
{
	char buf[4096];

	while (w->err_fd >= 0) {
		ssize_t n = read(w->err_fd, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return 0;
		if (n <= 0) {
			close(w->err_fd);
			w->err_fd = -1;
			break;
		}
		/* keep the last WORKER_ERR_TAIL bytes */
		size_t k = (size_t)n;
		if (k >= sizeof w->err_tail) {
			memcpy(w->err_tail, buf + k - sizeof w->err_tail, sizeof w->err_tail);
			w->err_len = sizeof w->err_tail;
		} else {
			size_t keep = w->err_len + k > sizeof w->err_tail ? sizeof w->err_tail - k
									  : w->err_len;
			memmove(w->err_tail, w->err_tail + w->err_len - keep, keep);
			memcpy(w->err_tail + keep, buf, k);
			w->err_len = keep + k;
		}
	}
	return -1;
}

/* The last 4 lines (at most 300 bytes) of what a --cmd wrote to stderr, as
 * one line: lines joined with " | ", control characters as '?'. */
static void stderr_tail(const struct worker *w, char *out, size_t len)
{
	const char *b = w->err_tail, *e = b + w->err_len;
	size_t o = 0;

	while (e > b && (e[-1] == '\n' || e[-1] == '\r' || e[-1] == ' ' || e[-1] == '\t'))
		e--;
	const char *p = e;
	for (int lines = 0; p > b; p--)
		if (p[-1] == '\n' && ++lines == 4)
			break;
	int cut = p == b && w->err_len == sizeof w->err_tail; /* older bytes were dropped */
	if (e - p > 300) {
		p = e - 300;
		cut = 1;
	}
	p += utf8_ceil(p, 0, (size_t)(e - p)); /* not inside a UTF-8 character */
	if (cut && o + 4 < len)
		o += (size_t)snprintf(out + o, len - o, "...");
	for (; p < e && o + 4 < len; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '\n') {
			o += (size_t)snprintf(out + o, len - o, " | ");
			while (p + 1 < e && (p[1] == '\n' || p[1] == '\r'))
				p++;
		} else if (c == '\r') {
			continue;
		} else {
			out[o++] = c == '\t' ? ' ' : text_ctrl(c) ? '?' : (char)c;
		}
	}
	out[o < len ? o : len - 1] = '\0';
}

void worker_go(struct worker *w)
{
	if (!w->page || w->go_fd < 0)
		return;
	while (send(w->go_fd, "g", 1, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
	close(w->go_fd);
	w->go_fd = -1;
}

static void describe(const struct worker *w, const struct worker_page *pg, int status, char *msg,
		     size_t len)
{
	if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) == 0)
			msg[0] = '\0';
		else if (pg->progress.error[0])
			snprintf(msg, len, "%s: %s", w->name, pg->progress.error);
		else
			snprintf(msg, len, "%s: exited with status %d", w->name,
				 WEXITSTATUS(status));
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *abbrev = sigabbrev_np(sig);

		/* A SIGKILL we did not send may be the OOM killer's or anyone's:
		 * only the cgroup's OOM counter can tell (session adds it). */
		if (sig == SIGKILL && w->killed)
			snprintf(msg, len, "%s: cancelled (killed by signal 9, SIGKILL)", w->name);
		else if (sig == SIGBUS)
			/* A mapped copy into a sparse file gets its blocks as it
			 * writes: a full disk (or quota) shows up as SIGBUS.  The
			 * one memcpy reports no progress, so no "after X" here. */
			snprintf(msg, len,
				 "%s: killed by SIGBUS - disk full while writing through the "
				 "mapping? (or the source shrank under it)",
				 w->name);
		else
			snprintf(msg, len, "%s: killed by signal %d (SIG%s: %s)", w->name, sig,
				 abbrev ? abbrev : "?", strsignal(sig));
	} else {
		snprintf(msg, len, "%s: stopped with wait status 0x%x", w->name, (unsigned)status);
	}
}

/* A wait status as a shell's $? says it: 128 + N for signal N. */
static int exit_code_of(int status)
{
	return WIFEXITED(status)     ? WEXITSTATUS(status)
	       : WIFSIGNALED(status) ? 128 + WTERMSIG(status)
				     : -1;
}

int worker_reap(struct worker *w, int block, struct worker_result *res)
{
	const struct worker_page *pg = w->page;
	struct worker_result *r = &w->result;
	struct rusage ru;
	int status = 0;
	pid_t got;

	if (!pg || w->pid <= 0)
		return -1;
	if (!w->reaped) {
		do
			got = wait4(w->pid, &status, block ? 0 : WNOHANG, &ru);
		while (got < 0 && errno == EINTR);
		if (got == 0)
			return 0;
		memset(r, 0, sizeof *r);
		w->reaped = 1;
		if (got < 0) {
			/* Someone else reaped it (a waitpid(-1) elsewhere). */
			r->verified = -1;
			r->exit_code = -1;
			snprintf(r->message, sizeof r->message,
				 "%s: lost the worker's exit status: %s", w->name, strerror(errno));
		} else {
			uint64_t end = mono_ns();
			uint64_t t_copy = atomic_load(&pg->t_copy_ns);

			r->status = status;
			r->ru = ru;
			if (atomic_load(&pg->have_ru))
				r->ru = pg->ru_copy;
			else if (atomic_load(&pg->have_ru_start))
				ru_sub(&r->ru, &pg->ru_start, &ru);
			r->ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
			r->exit_code = exit_code_of(w->is_cmd && atomic_load(&pg->have_cmd_status)
							? atomic_load(&pg->cmd_status)
							: status);
			r->bytes_done = atomic_load(&pg->progress.bytes_done);
			r->t_done_ns = atomic_load(&pg->t_done_ns);
			r->verified = atomic_load(&pg->verified);
			r->dst_made = w->is_cmd ? (t_copy ? 2 : 0) : atomic_load(&pg->dst_made);
			r->dst_dev = atomic_load(&pg->dst_dev);
			r->dst_ino = atomic_load(&pg->dst_ino);
			if (!w->is_cmd || atomic_load(&pg->elapsed_ns))
				r->elapsed_s = (double)atomic_load(&pg->elapsed_ns) / 1e9;
			else if (t_copy && end > t_copy)
				r->elapsed_s = (double)(end - t_copy) / 1e9;
			describe(w, pg, status, r->message, sizeof r->message);
			worker_read_stderr(w); /* what is left in the pipe */
			if (w->is_cmd && !r->ok && w->err_len) {
				char tail[320];
				size_t l = strlen(r->message);
				stderr_tail(w, tail, sizeof tail);
				if (tail[0])
					snprintf(r->message + l, sizeof r->message - l, ": %s", tail);
			}
		}
	}
	if (res)
		*res = *r;
	return 1;
}

void worker_kill(struct worker *w)
{
	if (!w->page || w->pid <= 0 || w->reaped)
		return;
	w->killed = 1;
	kill(-w->pid, SIGKILL); /* a --cmd's own children too */
	kill(w->pid, SIGKILL);
	worker_reap(w, 1, NULL);
}

void worker_done(struct worker *w)
{
	if (!w->page)
		return;
	worker_kill(w);
	if (w->event_fd >= 0)
		close(w->event_fd);
	if (w->go_fd >= 0)
		close(w->go_fd);
	if (w->err_fd >= 0)
		close(w->err_fd);
	munmap(w->page, page_len());
	memset(w, 0, sizeof *w);
	w->pid = -1;
	w->event_fd = w->go_fd = w->err_fd = -1;
}
