#include "cgroup.h"
#include "kvfile.h"
#include "util.h"

#include <dirent.h>
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

static int path_join(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s/%s", a, b);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* Writes s to an existing control file; -1 with errno on failure.
 * O_TRUNC as a shell's "echo 0 > memory.max": cgroupfs ignores it, a
 * plain file (a test's layout) then holds just what was written. */
static int write_ctl(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
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

/* mountinfo escapes blanks as \040 and friends. */
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

/* The first mount of fstype in mountinfo text (for "cgroup": the one whose
 * super options carry the memory controller): its mount point and the
 * root of the hierarchy it shows (not "/" in a cgroup namespace or a bind
 * mount).  Line format (proc(5)): ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS. */
static int find_mount(const char *mountinfo, const char *fstype, char *mnt, size_t mlen,
		      char *root, size_t rlen)
{
	const char *line = mountinfo;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char buf[8192], *f[6], *save = NULL, *sep, *type, *opts;
		int n = 0;

		if (len < sizeof buf) {
			memcpy(buf, line, len);
			buf[len] = '\0';
			sep = strstr(buf, " - ");
			if (sep) {
				*sep = '\0';
				for (char *t = strtok_r(buf, " ", &save); t && n < 6;
				     t = strtok_r(NULL, " ", &save))
					f[n++] = t;
				save = NULL;
				type = strtok_r(sep + 3, " ", &save);
				opts = type && strtok_r(NULL, " ", &save) ? strtok_r(NULL, " ", &save)
									    : NULL;
				if (n >= 5 && type && strcmp(type, fstype) == 0 &&
				    (strcmp(fstype, "cgroup") != 0 ||
				     (opts && has_item(opts, "memory", ",")))) {
					unescape(f[4]);
					unescape(f[3]);
					if (strlcpy_(mnt, f[4], mlen) < mlen &&
					    strlcpy_(root, f[3], rlen) < rlen)
						return 0;
				}
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	return -1;
}

/* Our own cgroup's path in the v2 hierarchy ("0::/path") or in the v1
 * hierarchy holding the memory controller ("4:memory:/path"), from text
 * in the format of /proc/self/cgroup. */
static int self_cgroup(const char *text, int version, char *out, size_t len)
{
	const char *line = text;

	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t l = nl ? (size_t)(nl - line) : strlen(line);
		char buf[4096 + 256];
		char *c1, *c2;

		if (l >= sizeof buf) {
			line = nl ? nl + 1 : NULL;
			continue;
		}
		memcpy(buf, line, l);
		buf[l] = '\0';
		line = nl ? nl + 1 : NULL;
		c1 = strchr(buf, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if ((version == 2 && strcmp(buf, "0") == 0 && c1[1] == '\0') ||
		    (version == 1 && has_item(c1 + 1, "memory", ",")))
			return strlcpy_(out, c2 + 1, len) < len ? 0 : -1;
	}
	return -1;
}

/* The directory of our own cgroup: prefix + mount point + our path below
 * the mount's root. */
static int self_dir(const char *prefix, const char *mnt, const char *mroot, const char *self,
		    char *out, size_t len)
{
	size_t rl = strlen(mroot);
	int n;

	if (strcmp(mroot, "/") != 0) {
		if (strncmp(self, mroot, rl) != 0 || (self[rl] != '/' && self[rl] != '\0'))
			return -1; /* our cgroup is not visible below this mount */
		self += rl;
	}
	if (strcmp(self, "/") == 0)
		self = "";
	n = snprintf(out, len, "%s%s%s", prefix, mnt, self);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cgroup_find_base(const char *mountinfo, const char *self, const char *root,
		     struct cgroup_base *b, char *why, size_t whylen)
{
	char mnt[4096], mroot[4096], path[4096], file[4096 + 32], buf[1024];
	int v2_mounted = 0;

	memset(b, 0, sizeof *b);
	if (!root)
		root = "";
	if (find_mount(mountinfo, "cgroup2", mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    self_cgroup(self, 2, path, sizeof path) == 0 &&
	    self_dir(root, mnt, mroot, path, b->dir, sizeof b->dir) == 0) {
		v2_mounted = 1;
		if (path_join(file, sizeof file, b->dir, "cgroup.subtree_control") == 0 &&
		    read_small_at(AT_FDCWD, file, buf, sizeof buf) >= 0 && has_item(buf, "memory", " \n")) {
			b->version = 2;
			return 0;
		}
		/* The root cgroup may enable it for its children at any time
		 * (the no-internal-process rule does not bind the root). */
		if (strcmp(path, "/") == 0 &&
		    path_join(file, sizeof file, b->dir, "cgroup.controllers") == 0 &&
		    read_small_at(AT_FDCWD, file, buf, sizeof buf) >= 0 && has_item(buf, "memory", " \n")) {
			b->version = 2;
			b->enable_v2 = 1;
			return 0;
		}
	}
	if (find_mount(mountinfo, "cgroup", mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    self_cgroup(self, 1, path, sizeof path) == 0 &&
	    self_dir(root, mnt, mroot, path, b->dir, sizeof b->dir) == 0 &&
	    path_join(file, sizeof file, b->dir, "memory.limit_in_bytes") == 0 &&
	    access(file, W_OK) == 0) {
		b->version = 1;
		return 0;
	}
	b->dir[0] = '\0';
	if (v2_mounted)
		return errf(why, whylen,
			    "no memory controller mounted, nor delegated to our cgroup");
	return errf(why, whylen, "no memory controller mounted");
}

/* Reads a whole /proc text file (small) into a malloc'd string. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int cgroup_base_detect(struct cgroup_base *b, char *why, size_t whylen)
{
	char *mi, *self;
	int rc;

	memset(b, 0, sizeof *b);
	if (geteuid() != 0)
		return errf(why, whylen, "not root");
	mi = slurp("/proc/self/mountinfo");
	self = slurp("/proc/self/cgroup");
	rc = mi && self ? cgroup_find_base(mi, self, "", b, why, whylen)
			: errf(why, whylen, "cannot read /proc/self/mountinfo or /proc/self/cgroup");
	free(mi);
	free(self);
	return rc;
}

int cgroup_available(char *err, size_t errlen)
{
	struct cgroup_base b;
	char why[256];

	if (cgroup_base_detect(&b, why, sizeof why) < 0)
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
	if (read_small_at(AT_FDCWD, file, back, sizeof back) > 0 && back[0] >= '0' && back[0] <= '9')
		cg->limit = strtoull(back, NULL, 10);
	/* No swapping around the limit; where there is no swap accounting
	 * the file is absent or refuses, and there is nothing to limit. */
	if (path_join(file, sizeof file, cg->path, swap) == 0 && access(file, W_OK) == 0)
		write_ctl(file, cg->version == 2 ? "0" : val);
	return 0;
}

int cgroup_adopt(struct cgroup *cg, int version, const char *dir, uint64_t limit, char *err,
		 size_t errlen)
{
	memset(cg, 0, sizeof *cg);
	if (strlcpy_(cg->path, dir, sizeof cg->path) >= sizeof cg->path)
		return errf(err, errlen, "cgroup %.64s...: path too long", dir);
	cg->version = version;
	cg->limit = limit;
	if (fill_paths(cg) < 0)
		return errf(err, errlen, "cgroup %s: path too long", cg->path);
	if (set_limit(cg, err, errlen) < 0)
		return -1;
	cg->created = 1;
	return 0;
}

int cgroup_create_in(struct cgroup *cg, const struct cgroup_base *b, uint64_t limit,
		     const char *tag, char *err, size_t errlen)
{
	char name[128], file[4096], path[4096];
	size_t n;

	memset(cg, 0, sizeof *cg);
	if (limit == 0)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (b->enable_v2 && (path_join(file, sizeof file, b->dir, "cgroup.subtree_control") < 0 ||
			     write_ctl(file, "+memory") < 0))
		return errf(err, errlen, "enable the memory controller in %s: %s", b->dir,
			    strerror(errno));

	snprintf(name, sizeof name, "lrutop-%d-%.40s", (int)getpid(), tag && *tag ? tag : "run");
	for (n = strlen("lrutop-"); name[n]; n++) {
		char c = name[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			name[n] = '_';
	}
	if (path_join(path, sizeof path, b->dir, name) < 0)
		return errf(err, errlen, "cgroup under %s: path too long", b->dir);
	if (mkdir(path, 0755) < 0)
		return errf(err, errlen, "create cgroup %s: %s", path, strerror(errno));
	if (cgroup_adopt(cg, b->version, path, limit, err, errlen) < 0) {
		rmdir(path);
		return -1;
	}
	return 0;
}

int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen)
{
	struct cgroup_base b;
	char why[256];

	memset(cg, 0, sizeof *cg);
	if (limit == 0)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (cgroup_base_detect(&b, why, sizeof why) < 0)
		return errf(err, errlen,
			    "--mem-limit needs root and the memory cgroup controller (%s)", why);
	return cgroup_create_in(cg, &b, limit, tag, err, errlen);
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
		if (read_small_at(AT_FDCWD, cg->events, buf, sizeof buf) < 0)
			return 1;
		return has_item(buf, "populated 0", "\n");
	}
	return read_small_at(AT_FDCWD, cg->procs, buf, sizeof buf) <= 0;
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
	    read_small_at(AT_FDCWD, file, buf, sizeof buf) < 0 || kvfile_parse(buf, keys, 1, &v) != 1)
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

int cgroup_sweep_stale(const struct cgroup_base *b, long *pid_out)
{
	DIR *d = opendir(b->dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		struct cgroup cg;
		struct stat st;
		char *end;
		long pid;

		if (strncmp(e->d_name, "lrutop-", 7) != 0)
			continue;
		pid = strtol(e->d_name + 7, &end, 10);
		if (end == e->d_name + 7 || *end != '-' || pid <= 0 || pid == (long)getpid())
			continue;
		if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue; /* alive (or not ours to judge) */
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISDIR(st.st_mode))
			continue;
		memset(&cg, 0, sizeof cg);
		cg.version = b->version;
		if (path_join(cg.path, sizeof cg.path, b->dir, e->d_name) < 0 || fill_paths(&cg) < 0)
			continue;
		cg.created = 1;
		if (cgroup_remove(&cg, NULL, 0) == 0) {
			if (!n++ && pid_out)
				*pid_out = pid;
		}
	}
	closedir(d);
	return n;
}
