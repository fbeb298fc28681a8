#include "runs/probe.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/sigpipe.h"
#include "base/util.h"

const char *probe_mode_name(enum probe_mode m)
{
	return m == PROBE_COLD ? "cold" : m == PROBE_DIRECT ? "direct" : NULL;
}

int probe_mode_parse(const char *s)
{
	if (!strcmp(s, "cold"))
		return PROBE_COLD;
	if (!strcmp(s, "direct"))
		return PROBE_DIRECT;
	return -1;
}

void probe_init(struct probe *p)
{
	memset(p, 0, sizeof(*p));
	p->pid = -1;
	p->fd = -1;
}

static uint64_t next_rand(uint64_t *s)
{
	uint64_t x = *s; /* xorshift64* */
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* /proc/self/cgroup into buf ("" on failure). */
static void read_cgroups(char *buf, size_t len)
{
	buf[0] = '\0';
	read_small_at(AT_FDCWD, "/proc/self/cgroup", buf, len);
}

int probe_loop(int fd, enum probe_mode mode, uint64_t size, int out_fd, pid_t ppid,
	       unsigned long count, const char *cgroups)
{
	static _Alignas(4096) unsigned char buf[PROBE_READ_SIZE];
	uint64_t pages = size / PROBE_READ_SIZE, seed = mono_ns() ^ ((uint64_t)getpid() << 32) ^ 1;
	uint64_t deadline = mono_ns(), last_check = deadline;
	char cg[4096];
	if (!pages)
		return -1;
	for (unsigned long i = 0; !count || i < count; i++) {
		/* the schedule, not the clock, sets the next deadline: a read
		 * that overran is followed at once by the ones due meanwhile */
		deadline += PROBE_MIN_NS + next_rand(&seed) % (PROBE_MAX_NS - PROBE_MIN_NS + 1);
		struct timespec ts = {.tv_sec = (time_t)(deadline / 1000000000ull),
				      .tv_nsec = (long)(deadline % 1000000000ull)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		if (ppid > 0 && getppid() != ppid)
			return 0;
		off_t off = (off_t)(next_rand(&seed) % pages) * PROBE_READ_SIZE;
		if (mode == PROBE_COLD)
			posix_fadvise(fd, off, PROBE_READ_SIZE, POSIX_FADV_DONTNEED);
		uint64_t t0 = mono_ns();
		ssize_t got = pread(fd, buf, PROBE_READ_SIZE, off);
		uint64_t lat = mono_ns() - t0;
		if (got != PROBE_READ_SIZE)
			return -1;
		/* the monitor drains once a tick; a full pipe drops the value
		 * rather than stalling the schedule */
		if (write(out_fd, &lat, sizeof(lat)) < 0 && errno == EPIPE)
			return 0;
		if (cgroups && t0 - last_check >= 1000000000ull) {
			last_check = t0;
			read_cgroups(cg, sizeof(cg));
			if (strcmp(cg, cgroups) != 0) {
				uint64_t moved = PROBE_MOVED;
				if (write(out_fd, &moved, sizeof(moved)) < 0)
					return 0;
				return 0;
			}
		}
	}
	return 0;
}

/* The file: incompressible bytes, durable, and out of the cache. */
static int fill_file(int fd, uint64_t size)
{
	static unsigned char chunk[1 << 20];
	uint64_t seed = mono_ns() | 1;
	for (uint64_t off = 0; off < size; off += sizeof(chunk)) {
		for (size_t i = 0; i < sizeof(chunk); i += 8) {
			uint64_t v = next_rand(&seed);
			memcpy(chunk + i, &v, 8);
		}
		size_t want = size - off < sizeof(chunk) ? (size_t)(size - off) : sizeof(chunk);
		for (size_t done = 0; done < want;) {
			ssize_t w = pwrite(fd, chunk + done, want - done, (off_t)(off + done));
			if (w <= 0)
				return -1;
			done += (size_t)w;
		}
	}
	if (fsync(fd) < 0)
		return -1;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

static void child_main(int fd, int out_fd, enum probe_mode mode, pid_t parent,
		       const char *cgroups)
{
	sig_child_reset();
	signal(SIGPIPE, SIG_IGN); /* a closed pipe is EPIPE: the monitor is done */
	sig_child_tie(parent); /* the probe lives exactly as long as the monitor */
	/* nothing of the monitor's but the file and the pipe: not the
	 * terminal, not a recording, not the signal pipe */
	int null = open("/dev/null", O_RDWR);
	for (int i = 0; i < 3 && null >= 0; i++)
		if (i != fd && i != out_fd)
			dup2(null, i);
	long hi = sysconf(_SC_OPEN_MAX);
	for (int i = 3; i < (hi > 0 && hi < 4096 ? hi : 4096); i++)
		if (i != fd && i != out_fd)
			close(i);
	if (fill_file(fd, PROBE_FILE_SIZE) < 0)
		_exit(3);
	if (mode == PROBE_DIRECT && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_DIRECT) < 0)
		_exit(4);
	_exit(probe_loop(fd, mode, PROBE_FILE_SIZE, out_fd, parent, 0, cgroups) < 0 ? 5 : 0);
}

int probe_start(struct probe *p, struct scratch *sc, enum probe_mode mode, char *err,
		size_t errlen)
{
	char path[4096], cgroups[4096];
	int pfd[2], e;
	struct stat st;
	probe_init(p);
	p->mode = mode;
	if (scratch_path(sc, "probe", path, sizeof(path)) < 0 || !sc->made)
		return errf(err, errlen, "probe: no scratch directory for its file");
	int fd = openat(sc->dir_fd, "probe", O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600);
	if (fd < 0)
		return errf(err, errlen, "probe: %s: %s", path, strerror(errno));
	if (fstat(fd, &st) == 0)
		scratch_own(sc, "probe", (uint64_t)st.st_dev, (uint64_t)st.st_ino);
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		e = errno;
		close(fd);
		scratch_remove_file(sc, "probe");
		return errf(err, errlen, "probe: pipe: %s", strerror(e));
	}
	/* what the probe must stay in: the monitor's own cgroups */
	read_cgroups(cgroups, sizeof(cgroups));
	pid_t parent = getpid(), pid = sig_fork();
	if (pid == 0) {
		close(pfd[0]);
		fcntl(pfd[1], F_SETFL, fcntl(pfd[1], F_GETFL) | O_NONBLOCK);
		child_main(fd, pfd[1], mode, parent, cgroups[0] ? cgroups : NULL);
	}
	e = errno;
	close(fd);
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		scratch_remove_file(sc, "probe");
		return errf(err, errlen, "probe: fork: %s", strerror(e));
	}
	fcntl(pfd[0], F_SETFL, fcntl(pfd[0], F_GETFL) | O_NONBLOCK);
	p->pid = pid;
	p->fd = pfd[0];
	return 0;
}

long probe_read(struct probe *p, uint64_t *out, size_t max)
{
	if (p->fd < 0)
		return -1;
	ssize_t r = read(p->fd, out, max * sizeof(*out));
	if (r < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	if (r == 0) { /* it is exiting: its status says why */
		close(p->fd);
		p->fd = -1;
		int status = 0;
		pid_t got;
		while ((got = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
			;
		if (got == p->pid) {
			p->pid = -1;
			int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
			snprintf(p->why, sizeof(p->why), "%s",
				 code == 3   ? "could not write its file (disk full?)"
				 : code == 4 ? "O_DIRECT is not supported here"
				 : code == 5 ? "a read of its file failed"
				 : code == 0 ? "it ended"
					     : "it was killed");
		}
		return -1;
	}
	/* a write of 8 bytes to a pipe is atomic: whole values only */
	long n = (long)((size_t)r / sizeof(*out)), k = 0;
	for (long i = 0; i < n; i++) {
		if (out[i] == PROBE_MOVED)
			p->moved = 1;
		else
			out[k++] = out[i];
	}
	return k;
}

void probe_stop(struct probe *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGKILL);
		while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
			;
		p->pid = -1;
	}
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
}
