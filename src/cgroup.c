#include "cgroup.h"
#include "kvfile.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REMOVE_TRIES  4
#define EMPTY_WAIT_MS 2000
#define V1_POLL_MS    5

/* Where a new cgroup would go: our own cgroup in the chosen hierarchy. */
struct base {
	int version;
	int enable_v2; /* root cgroup: "+memory" must still be written to subtree_control */
	char dir[4096];
};

static int path_join(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s/%s", a, b);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Reads a small file into buf (NUL-terminated); bytes read or -1. */
static ssize_t read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* Writes s to an existing control file; -1 with errno on failure. */
static int write_ctl(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t n;
	int e;

	if (fd < 0)
		return -1;
	do
		n = write(fd, s, len);
	while (n < 0 && errno == EINTR);
	e = errno;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = n < 0 ? e : EIO;
	return -1;
}

/* 1 when word is one of the seps-separated items of list. */
static int has_item(const char *list, const char *word, const char *seps)
{
	size_t wl = strlen(word);

	while (*list) {
		size_t n = strcspn(list, seps);
		if (n == wl && strncmp(list, word, wl) == 0)
			return 1;
		list += n;
		if (*list)
			list++;
	}
	return 0;
}

/* /proc/self/mounts escapes blanks as \040 and friends. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The mount point of the first mount of fstype (for "cgroup": the one
 * carrying the memory controller). */
static int find_mount(const char *fstype, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/mounts", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && getline(&line, &cap, f) > 0) {
		char *save = NULL;
		char *dev = strtok_r(line, " ", &save);
		char *mnt = dev ? strtok_r(NULL, " ", &save) : NULL;
		char *type = mnt ? strtok_r(NULL, " ", &save) : NULL;
		char *opts = type ? strtok_r(NULL, " ", &save) : NULL;

		if (!opts || strcmp(type, fstype) != 0)
			continue;
		if (strcmp(fstype, "cgroup") == 0 && !has_item(opts, "memory", ","))
			continue;
		unescape(mnt);
		if (strlcpy_(out, mnt, len) < len)
			found = 0;
	}
	free(line);
	fclose(f);
	return found;
}

/* Our own cgroup's path in the v2 hierarchy ("0::/path") or in the v1
 * hierarchy holding the memory controller ("4:memory:/path"). */
static int self_cgroup(int version, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *line = NULL;
	size_t cap = 0;
	int found = -1;

	if (!f)
		return -1;
	while (found < 0 && getline(&line, &cap, f) > 0) {
		char *c1 = strchr(line, ':');
		char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		int match;

		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		c2[1 + strcspn(c2 + 1, "\n")] = '\0';
		if (version == 2)
			match = strcmp(line, "0") == 0 && c1[1] == '\0';
		else
			match = has_item(c1 + 1, "memory", ",");
		if (match && strlcpy_(out, c2 + 1, len) < len)
			found = 0;
	}
	free(line);
	fclose(f);
	return found;
}

/* The directory of our own cgroup in hierarchy mnt. */
static int self_dir(const char *mnt, const char *self, char *out, size_t len)
{
	int n;

	if (strcmp(self, "/") == 0)
		return strlcpy_(out, mnt, len) < len ? 0 : -1;
	n = snprintf(out, len, "%s%s", mnt, self);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int resolve(struct base *b, char *why, size_t whylen)
{
	char mnt[4096], self[4096], file[4096], buf[1024];
	int v2_mounted = 0;

	memset(b, 0, sizeof *b);
	if (geteuid() != 0)
		return errf(why, whylen, "not root");
	if (find_mount("cgroup2", mnt, sizeof mnt) == 0 && self_cgroup(2, self, sizeof self) == 0 &&
	    self_dir(mnt, self, b->dir, sizeof b->dir) == 0) {
		v2_mounted = 1;
		if (path_join(file, sizeof file, b->dir, "cgroup.subtree_control") == 0 &&
		    read_small(file, buf, sizeof buf) >= 0 && has_item(buf, "memory", " \n")) {
			b->version = 2;
			return 0;
		}
		/* The root cgroup may enable it for its children at any time. */
		if (strcmp(self, "/") == 0 &&
		    path_join(file, sizeof file, b->dir, "cgroup.controllers") == 0 &&
		    read_small(file, buf, sizeof buf) >= 0 && has_item(buf, "memory", " \n")) {
			b->version = 2;
			b->enable_v2 = 1;
			return 0;
		}
	}
	if (find_mount("cgroup", mnt, sizeof mnt) == 0 && self_cgroup(1, self, sizeof self) == 0 &&
	    self_dir(mnt, self, b->dir, sizeof b->dir) == 0 &&
	    path_join(file, sizeof file, b->dir, "memory.limit_in_bytes") == 0 &&
	    access(file, W_OK) == 0) {
		b->version = 1;
		return 0;
	}
	if (v2_mounted)
		return errf(why, whylen,
			    "no memory controller mounted, nor delegated to our cgroup");
	return errf(why, whylen, "no memory controller mounted");
}

int cgroup_available(char *err, size_t errlen)
{
	struct base b;
	char why[256];

	if (resolve(&b, why, sizeof why) < 0)
		return errf(err, errlen,
			    "--mem-limit needs root and the memory cgroup controller (%s)", why);
	return 0;
}

/* Fills the paths of the control files the rest of lrutop reads. */
static int fill_paths(struct cgroup *cg)
{
	const char *usage = cg->version == 2 ? "memory.current" : "memory.usage_in_bytes";
	const char *peak = cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes";

	if (path_join(cg->procs, sizeof cg->procs, cg->path, "cgroup.procs") < 0 ||
	    path_join(cg->stat, sizeof cg->stat, cg->path, "memory.stat") < 0 ||
	    path_join(cg->usage, sizeof cg->usage, cg->path, usage) < 0 ||
	    path_join(cg->peak, sizeof cg->peak, cg->path, peak) < 0 ||
	    path_join(cg->events, sizeof cg->events, cg->path, "cgroup.events") < 0)
		return -1;
	if (access(cg->peak, R_OK) < 0)
		cg->peak[0] = '\0';
	if (cg->version != 2)
		cg->events[0] = '\0';
	return 0;
}

static int set_limit(struct cgroup *cg, char *err, size_t errlen)
{
	char file[4096], val[32], back[64];
	const char *lim = cg->version == 2 ? "memory.max" : "memory.limit_in_bytes";
	const char *swap = cg->version == 2 ? "memory.swap.max" : "memory.memsw.limit_in_bytes";

	snprintf(val, sizeof val, "%" PRIu64, cg->limit);
	if (path_join(file, sizeof file, cg->path, lim) < 0)
		return errf(err, errlen, "cgroup %s: path too long", cg->path);
	if (write_ctl(file, val) < 0)
		return errf(err, errlen, "set %s to %s: %s", file, val, strerror(errno));
	/* The kernel rounds the limit to pages: keep what it really is. */
	if (read_small(file, back, sizeof back) > 0 && back[0] >= '0' && back[0] <= '9')
		cg->limit = strtoull(back, NULL, 10);
	/* No swapping around the limit; where there is no swap accounting
	 * the file is absent or refuses, and there is nothing to limit. */
	if (path_join(file, sizeof file, cg->path, swap) == 0 && access(file, W_OK) == 0)
		write_ctl(file, cg->version == 2 ? "0" : val);
	return 0;
}

int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen)
{
	struct base b;
	char why[256], name[128], file[4096];
	size_t n;

	memset(cg, 0, sizeof *cg);
	if (limit == 0)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (resolve(&b, why, sizeof why) < 0)
		return errf(err, errlen,
			    "--mem-limit needs root and the memory cgroup controller (%s)", why);
	if (b.enable_v2 && (path_join(file, sizeof file, b.dir, "cgroup.subtree_control") < 0 ||
			    write_ctl(file, "+memory") < 0))
		return errf(err, errlen, "enable the memory controller in %s: %s", b.dir,
			    strerror(errno));

	snprintf(name, sizeof name, "lrutop-%d-%.40s", (int)getpid(), tag && *tag ? tag : "run");
	for (n = strlen("lrutop-"); name[n]; n++) {
		char c = name[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			name[n] = '_';
	}
	if (path_join(cg->path, sizeof cg->path, b.dir, name) < 0)
		return errf(err, errlen, "cgroup under %s: path too long", b.dir);
	if (mkdir(cg->path, 0755) < 0)
		return errf(err, errlen, "create cgroup %s: %s", cg->path, strerror(errno));
	cg->created = 1;
	cg->version = b.version;
	cg->limit = limit;
	if (fill_paths(cg) < 0) {
		errf(err, errlen, "cgroup %s: path too long", cg->path);
		goto fail;
	}
	if (set_limit(cg, err, errlen) < 0)
		goto fail;
	return 0;
fail:
	rmdir(cg->path);
	cg->created = 0;
	return -1;
}

/* SIGKILL to every process listed in cgroup.procs; the number signalled. */
static int kill_members(const struct cgroup *cg)
{
	FILE *f = fopen(cg->procs, "re");
	long pid;
	int n = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%ld", &pid) == 1)
		if (pid > 0 && pid != (long)getpid() && kill((pid_t)pid, SIGKILL) == 0)
			n++;
	fclose(f);
	return n;
}

static int is_empty(const struct cgroup *cg)
{
	char buf[512];

	if (cg->version == 2 && cg->events[0]) {
		if (read_small(cg->events, buf, sizeof buf) < 0)
			return 1;
		return has_item(buf, "populated 0", "\n");
	}
	return read_small(cg->procs, buf, sizeof buf) <= 0;
}

/* Waits until the killed tasks have left: v2 wakes us through
 * cgroup.events (POLLPRI on change), v1 has no notification, so it polls
 * cgroup.procs every few ms. Bounded by timeout_ms either way. */
static void wait_empty(const struct cgroup *cg, int timeout_ms)
{
	uint64_t deadline = mono_ns() + (uint64_t)timeout_ms * 1000000u;
	int fd = -1;

	if (cg->version == 2 && cg->events[0])
		fd = open(cg->events, O_RDONLY | O_CLOEXEC);
	while (!is_empty(cg)) {
		uint64_t now = mono_ns();
		int left;

		if (now >= deadline)
			break;
		left = (int)((deadline - now) / 1000000u) + 1;
		if (fd >= 0) {
			struct pollfd p = {fd, POLLPRI, 0};
			poll(&p, 1, left);
		} else {
			poll(NULL, 0, left < V1_POLL_MS ? left : V1_POLL_MS);
		}
	}
	if (fd >= 0)
		close(fd);
}

int cgroup_oom_kills(const struct cgroup *cg, uint64_t *n)
{
	const char *const keys[] = {"oom_kill"};
	char file[4096], buf[1024];
	uint64_t v;

	if (!cg->created ||
	    path_join(file, sizeof file, cg->path,
		      cg->version == 2 ? "memory.events" : "memory.oom_control") < 0 ||
	    read_small(file, buf, sizeof buf) < 0 || kvfile_parse(buf, keys, 1, &v) != 1)
		return -1;
	*n = v;
	return 0;
}

int cgroup_remove(struct cgroup *cg, char *err, size_t errlen)
{
	if (!cg->created)
		return 0;
	for (int i = 0; i < REMOVE_TRIES; i++) {
		if (rmdir(cg->path) == 0 || errno == ENOENT) {
			cg->created = 0;
			return 0;
		}
		if (errno != EBUSY)
			return errf(err, errlen, "remove cgroup %s: %s", cg->path, strerror(errno));
		kill_members(cg);
		wait_empty(cg, EMPTY_WAIT_MS);
	}
	return errf(err, errlen, "remove cgroup %s: tasks still inside after SIGKILL", cg->path);
}
