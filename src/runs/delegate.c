#include "runs/delegate.h"
#include "base/sigpipe.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* busctl's own --timeout for the call; ours a little longer, in case
 * busctl itself hangs (it is then killed). */
#define BUSCTL_TIMEOUT_S 10
#define BUSCTL_WAIT_MS	 15000
/* systemd moves us while it starts the unit: how long we look for it */
#define MOVE_WAIT_MS 5000
#define MOVE_POLL_MS 10

int delegate_systemd_booted(const char *root)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof path, "%s/run/systemd/system", root ? root : "");
	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t l = strlen(suffix);
	return n >= l && memcmp(s + n - l, suffix, l) == 0;
}

int delegate_slice(const char *self_path, int user, char *out, size_t len)
{
	const char *p = self_path, *best = NULL;
	size_t best_len = 0;

	if (user) {
		/* the user manager's tree starts below user@UID.service */
		const char *u = strstr(self_path, "/user@");
		const char *e = u ? strchr(u + 1, '/') : NULL;
		if (!u || !e || !ends_with(u, (size_t)(e - u), ".service"))
			return -1;
		p = e;
	}
	/* components but the last (our own unit) */
	while (*p == '/')
		p++;
	while (*p) {
		size_t n = strcspn(p, "/");
		if (!p[n])
			break; /* the last component: our unit, not a slice of ours */
		/* the leading run of slices only: below the first unit that is
		 * not one (a user manager, a container) the slices are not the
		 * manager's we ask */
		if (!ends_with(p, n, ".slice"))
			break;
		best = p;
		best_len = n;
		p += n;
		while (*p == '/')
			p++;
	}
	if (!best) {
		best = "-.slice";
		best_len = strlen(best);
	}
	if (best_len >= len)
		return -1;
	memcpy(out, best, best_len);
	out[best_len] = '\0';
	return 0;
}

void delegate_unit_name(long pid, char *out, size_t len)
{
	snprintf(out, len, "lrutop-%ld.scope", pid);
}

/* Runs argv (busctl) with stdin and stdout on /dev/null; its stderr, cut
 * to one line, goes to out.  Returns its exit status, -1 when it could
 * not be run or was killed (out says so). */
static int run_quiet(char *const argv[], char *out, size_t outlen)
{
	int pfd[2], e, status = 0;
	size_t used = 0;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC) < 0) {
		snprintf(out, outlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = sig_fork();
	if (pid == 0) {
		sig_child_reset();
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		dup2(pfd[1], STDERR_FILENO);
		execvp(argv[0], argv);
		dprintf(STDERR_FILENO, "%s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	e = errno;
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		snprintf(out, outlen, "fork: %s", strerror(e));
		return -1;
	}
	uint64_t deadline = mono_ns() + (uint64_t)BUSCTL_WAIT_MS * 1000000u;
	for (;;) {
		uint64_t now = mono_ns();
		if (now >= deadline) {
			kill(pid, SIGKILL);
			snprintf(out, outlen, "%s did not answer in %d s", argv[0],
				 BUSCTL_WAIT_MS / 1000);
			break;
		}
		struct pollfd p = {pfd[0], POLLIN, 0};
		if (poll(&p, 1, (int)((deadline - now) / 1000000u) + 1) < 0) {
			if (errno == EINTR)
				continue;
			snprintf(out, outlen, "poll: %s", strerror(errno));
			break;
		}
		char buf[256];
		ssize_t n = read(pfd[0], buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			snprintf(out, outlen, "read: %s", strerror(errno));
		if (n <= 0)
			break;
		if (used + 1 < outlen) {
			size_t k = (size_t)n < outlen - 1 - used ? (size_t)n : outlen - 1 - used;
			memcpy(out + used, buf, k);
			used += k;
			out[used] = '\0';
		}
	}
	close(pfd[0]);
	/* whatever ended the loop (EOF, an error, the deadline) it may still
	 * run: it gets until the deadline to exit, then is killed — never a
	 * wait without a bound */
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(out, outlen, "waitpid: %s", strerror(errno));
			return -1;
		}
		if (r == 0 && mono_ns() >= deadline) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			break;
		}
		poll(NULL, 0, 5); /* polled: bounded by the deadline */
	}
	/* one line: the first, without busctl's "Call failed: " noise kept
	 * out of it only where it says nothing more */
	out[strcspn(out, "\n")] = '\0';
	if (!WIFEXITED(status)) {
		if (!out[0])
			snprintf(out, outlen, "%s was killed", argv[0]);
		return -1;
	}
	return WEXITSTATUS(status);
}

int delegate_v2_path(const char *text, char *out, size_t len)
{
	for (const char *l = text, *next; l && *l; l = next) {
		size_t n = text_line(l, &next);
		if (n > 3 && strncmp(l, "0::", 3) == 0) {
			if (n - 3 >= len)
				return -1;
			memcpy(out, l + 3, n - 3);
			out[n - 3] = '\0';
			return 0;
		}
	}
	return -1;
}

/* Our cgroup path in the v2 hierarchy, now. */
static int self_v2_path(char *out, size_t len)
{
	char buf[8192];

	if (read_small_at(AT_FDCWD, "/proc/self/cgroup", buf, sizeof buf) <= 0)
		return -1;
	return delegate_v2_path(buf, out, len);
}

int delegate_start_scope(int user, const char *slice, char *path, size_t pathlen, char *err,
			 size_t errlen)
{
	char unit[64], pid[24], timeout[32], desc[64], said[400];
	long me = (long)getpid();

	delegate_unit_name(me, unit, sizeof unit);
	snprintf(pid, sizeof pid, "%ld", me);
	snprintf(timeout, sizeof timeout, "--timeout=%d", BUSCTL_TIMEOUT_S);
	snprintf(desc, sizeof desc, "lrutop %ld and its run cgroups", me);
	/* ssa(sv)a(sa(sv)): name, mode, properties, auxiliary units (none) */
	char *argv[40];
	int n = 0;
	argv[n++] = "busctl";
	if (user)
		argv[n++] = "--user";
	argv[n++] = "call";
	argv[n++] = timeout;
	argv[n++] = "org.freedesktop.systemd1";
	argv[n++] = "/org/freedesktop/systemd1";
	argv[n++] = "org.freedesktop.systemd1.Manager";
	argv[n++] = "StartTransientUnit";
	argv[n++] = "ssa(sv)a(sa(sv))";
	argv[n++] = unit;
	argv[n++] = "fail";
	argv[n++] = slice ? "5" : "4";
	argv[n++] = "Description";
	argv[n++] = "s";
	argv[n++] = desc;
	argv[n++] = "PIDs";
	argv[n++] = "au";
	argv[n++] = "1";
	argv[n++] = pid;
	argv[n++] = "Delegate";
	argv[n++] = "b";
	argv[n++] = "true";
	argv[n++] = "CollectMode";
	argv[n++] = "s";
	argv[n++] = "inactive-or-failed";
	if (slice) {
		argv[n++] = "Slice";
		argv[n++] = "s";
		argv[n++] = (char *)slice;
	}
	argv[n++] = "0";
	argv[n] = NULL;

	int rc = run_quiet(argv, said, sizeof said);
	if (rc != 0)
		return errf(err, errlen, "%s%s", said[0] ? said : "busctl failed",
			    rc == 127 ? " (busctl, from systemd, is needed to ask for a scope)"
				      : "");

	/* systemd moves us as it starts the unit; the call may return first */
	char want[80];
	snprintf(want, sizeof want, "/%s", unit);
	uint64_t deadline = mono_ns() + (uint64_t)MOVE_WAIT_MS * 1000000u;
	for (;;) {
		size_t l, wl = strlen(want);
		if (self_v2_path(path, pathlen) == 0 && (l = strlen(path)) >= wl &&
		    strcmp(path + l - wl, want) == 0)
			return 0;
		if (mono_ns() >= deadline)
			break;
		poll(NULL, 0, MOVE_POLL_MS);
	}
	return errf(err, errlen, "systemd started %s but did not move us into it within %d s", unit,
		    MOVE_WAIT_MS / 1000);
}
