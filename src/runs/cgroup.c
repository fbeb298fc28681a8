#include "runs/cgroup.h"
#include "runs/delegate.h"
#include "sampling/kvfile.h"
#include "sampling/mountinfo.h"
#include "base/ownfile.h"
#include "sampling/sampler.h"
#include "runs/scratch.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/magic.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
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

/* The first mount of fstype in mountinfo text (for "cgroup": the one whose
 * super options carry the controller ctl): its mount point and the
 * root of the hierarchy it shows (not "/" in a cgroup namespace or a bind
 * mount). */
static int find_mount(const char *mountinfo, const char *fstype, const char *ctl, char *mnt,
		      size_t mlen, char *root, size_t rlen)
{
	struct mountinfo mi;
	struct mountinfo_entry e;
	int rc = -1;

	mountinfo_init_text(&mi, mountinfo);
	while (rc < 0 && mountinfo_next(&mi, &e))
		if (strcmp(e.fstype, fstype) == 0 &&
		    (strcmp(fstype, "cgroup") != 0 || has_item(e.super, ctl, ",")) &&
		    strlcpy_(mnt, e.mountpoint, mlen) < mlen && strlcpy_(root, e.root, rlen) < rlen)
			rc = 0;
	mountinfo_done(&mi);
	return rc;
}

/* Our own cgroup's path in the v2 hierarchy ("0::/path") or in the v1
 * hierarchy holding the controller ctl ("4:memory:/path"), from text
 * in the format of /proc/self/cgroup. */
static int self_cgroup(const char *text, int version, const char *ctl, char *out, size_t len)
{
	const char *line = text;

	if (version == 2)
		return delegate_v2_path(text, out, len);
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
		if (has_item(c1 + 1, ctl, ","))
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

/* dir's control file name lists word. */
static int ctl_lists(const char *dir, const char *name, const char *word)
{
	char file[4096 + 32], buf[1024];

	return path_join(file, sizeof file, dir, name) == 0 &&
	       read_small_at(AT_FDCWD, file, buf, sizeof buf) >= 0 && has_item(buf, word, " \n");
}

/* Where run cgroups with controller ctl are made (v2 name: "memory",
 * "io"; v1 name: "memory", "blkio"; probe: a v1 control file that must be
 * writable in our cgroup): version 0 when nowhere.  b's v2 fields are
 * filled when a cgroup2 mount shows our cgroup. */
static void find_ctl(const char *mountinfo, const char *self, const char *root, const char *v2,
		     const char *v1, const char *probe, int *version, int *enable, char *dir,
		     size_t dirlen, struct cgroup_base *b)
{
	char mnt[4096], mroot[4096], path[4096], file[4096 + 32], top[4096 + 256];

	*version = *enable = 0;
	if (find_mount(mountinfo, "cgroup2", NULL, mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    self_cgroup(self, 2, NULL, path, sizeof path) == 0 &&
	    self_dir(root, mnt, mroot, path, dir, dirlen) == 0 &&
	    (size_t)snprintf(top, sizeof top, "%s%s", root, mnt) < sizeof top) {
		size_t tl = strlen(top);
		b->v2 = 1;
		strlcpy_(b->v2_path, path, sizeof b->v2_path);
		strlcpy_(b->v2_top, top, sizeof b->v2_top);
		strlcpy_(b->v2_self, dir, sizeof b->v2_self);
		/* ours or the nearest ancestor that already hands ctl to its
		 * children: a child made there has it, nothing is changed */
		for (;;) {
			if (ctl_lists(dir, "cgroup.subtree_control", v2)) {
				*version = 2;
				return;
			}
			char *slash = strrchr(dir, '/');
			if (strlen(dir) <= tl || !slash || (size_t)(slash - dir) < tl)
				break;
			*slash = '\0';
		}
		/* the top may enable it for its children (the
		 * no-internal-process rule does not bind the root) */
		strlcpy_(dir, top, dirlen);
		if (ctl_lists(dir, "cgroup.controllers", v2)) {
			*version = 2;
			*enable = 1;
			return;
		}
	}
	if (find_mount(mountinfo, "cgroup", v1, mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    self_cgroup(self, 1, v1, path, sizeof path) == 0 &&
	    self_dir(root, mnt, mroot, path, dir, dirlen) == 0 &&
	    path_join(file, sizeof file, dir, probe) == 0 && access(file, W_OK) == 0) {
		*version = 1;
		return;
	}
	dir[0] = '\0';
}

int cgroup_find_base(const char *mountinfo, const char *self, const char *root,
		     struct cgroup_base *b, char *why, size_t whylen)
{
	memset(b, 0, sizeof *b);
	if (!root)
		root = "";
	find_ctl(mountinfo, self, root, "io", "blkio", "blkio.throttle.read_bps_device",
		 &b->io_version, &b->io_enable_v2, b->io_dir, sizeof b->io_dir, b);
	find_ctl(mountinfo, self, root, "memory", "memory", "memory.limit_in_bytes", &b->version,
		 &b->enable_v2, b->dir, sizeof b->dir, b);
	if (b->version)
		return 0;
	if (b->v2)
		return errf(
		    why, whylen,
		    "no memory controller: cgroup v2 does not offer it (%s/cgroup.controllers) "
		    "and no cgroup v1 memory hierarchy is mounted",
		    b->v2_top);
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
	rc = mi && self
		 ? cgroup_find_base(mi, self, "", b, why, whylen)
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

int cgroup_io_available(char *err, size_t errlen)
{
	struct cgroup_base b;
	char why[256] = "";

	if (cgroup_base_detect(&b, why, sizeof why) < 0 && geteuid() != 0)
		; /* why says "not root" */
	else if (b.io_version)
		return 0;
	else
		snprintf(why, sizeof why,
			 "no io controller delegated to our cgroup, no blkio mounted");
	return errf(err, errlen,
		    "--disk-limit needs root and the io (v2) or blkio (v1) cgroup controller (%s)",
		    why);
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
	if (read_small_at(AT_FDCWD, file, back, sizeof back) > 0 && back[0] >= '0' &&
	    back[0] <= '9')
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

int cgroup_write_io(int version, const char *dir, const struct cgroup_io *io, char *err,
		    size_t errlen)
{
	char file[4096], val[96];

	if (version == 2) {
		snprintf(val, sizeof val, "%u:%u rbps=%" PRIu64 " wbps=%" PRIu64, io->major,
			 io->minor, io->bps, io->bps);
		if (path_join(file, sizeof file, dir, "io.max") < 0)
			return errf(err, errlen, "cgroup %s: path too long", dir);
		if (write_ctl(file, val) < 0)
			return errf(err, errlen, "set %s to \"%s\": %s", file, val,
				    strerror(errno));
		return 0;
	}
	snprintf(val, sizeof val, "%u:%u %" PRIu64, io->major, io->minor, io->bps);
	static const char *const files[] = {"blkio.throttle.read_bps_device",
					    "blkio.throttle.write_bps_device"};
	for (size_t i = 0; i < 2; i++) {
		if (path_join(file, sizeof file, dir, files[i]) < 0)
			return errf(err, errlen, "cgroup %s: path too long", dir);
		if (write_ctl(file, val) < 0)
			return errf(err, errlen, "set %s to \"%s\": %s", file, val,
				    strerror(errno));
	}
	return 0;
}

/* "+memory" / "+io" into the v2 root's cgroup.subtree_control. */
static int enable_v2(const char *dir, const char *what, char *err, size_t errlen)
{
	char file[4096];

	if (path_join(file, sizeof file, dir, "cgroup.subtree_control") < 0 ||
	    write_ctl(file, what) < 0)
		return errf(err, errlen, "enable the %s controller in %s: %s", what + 1, dir,
			    strerror(errno));
	return 0;
}

/* cg->io_stat: the counters file in dir, "" when it is not there. */
static void set_io_stat(struct cgroup *cg, int version, const char *dir)
{
	cg->io_stat_version = version;
	if (path_join(cg->io_stat, sizeof cg->io_stat, dir,
		      version == 2 ? "io.stat" : "blkio.throttle.io_service_bytes") < 0 ||
	    access(cg->io_stat, R_OK) < 0) {
		cg->io_stat[0] = '\0';
		cg->io_stat_version = 0;
	}
}

int cgroup_create_in(struct cgroup *cg, const struct cgroup_base *b, uint64_t limit,
		     const struct cgroup_io *io, const char *tag, char *err, size_t errlen)
{
	char name[128], path[4096];
	size_t n;

	memset(cg, 0, sizeof *cg);
	if (limit == 0 && !io)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (io && !b->io_version)
		return errf(err, errlen, "--disk-limit: no io or blkio cgroup controller");
	/* no throttle asked for: an io cgroup all the same, for the run's own
	 * disk bytes (io_stat), where the controller is there */
	int acct = !io && limit && b->io_version;
	/* one directory holds both where both are in the same hierarchy */
	if (acct && b->io_enable_v2)
		acct = 0; /* counters are not worth enabling a controller for */
	int same =
	    (io || acct) && limit && b->io_version == b->version && strcmp(b->io_dir, b->dir) == 0;
	if ((limit && b->enable_v2) || (io && b->io_enable_v2))
		return errf(err, errlen,
			    "cgroup v2: the %s controller is not on for the children of %s (only "
			    "cgroup_home enables it, and restores it)",
			    limit && b->enable_v2 ? "memory" : "io",
			    limit && b->enable_v2 ? b->dir : b->io_dir);

	snprintf(name, sizeof name, "lrutop-%d-%.40s", (int)getpid(), tag && *tag ? tag : "run");
	for (n = strlen("lrutop-"); name[n]; n++) {
		char c = name[n];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_' || c == '.'))
			name[n] = '_';
	}
	if (limit) {
		if (path_join(path, sizeof path, b->dir, name) < 0)
			return errf(err, errlen, "cgroup under %s: path too long", b->dir);
		if (mkdir(path, 0755) < 0)
			return errf(err, errlen, "create cgroup %s: %s", path, strerror(errno));
		if (cgroup_adopt(cg, b->version, path, limit, err, errlen) < 0 ||
		    (same && io && cgroup_write_io(b->version, path, io, err, errlen) < 0)) {
			rmdir(path);
			memset(cg, 0, sizeof *cg);
			return -1;
		}
		if (same)
			set_io_stat(cg, b->version, path);
		if ((!io && !acct) || same)
			return 0;
	}
	/* the io cgroup: alone (only --disk-limit) or beside the memory one */
	if (path_join(path, sizeof path, b->io_dir, name) < 0)
		return errf(err, errlen, "cgroup under %s: path too long", b->io_dir);
	if (mkdir(path, 0755) < 0) {
		if (acct)
			return 0;
		errf(err, errlen, "create cgroup %s: %s", path, strerror(errno));
		goto fail;
	}
	if (io && cgroup_write_io(b->io_version, path, io, err, errlen) < 0) {
		rmdir(path);
		goto fail;
	}
	if (!limit) { /* the only cgroup: the worker joins it as its "cg" */
		cg->version = b->io_version;
		strlcpy_(cg->path, path, sizeof cg->path);
		if (path_join(cg->procs, sizeof cg->procs, path, "cgroup.procs") < 0 ||
		    (cg->version == 2 &&
		     path_join(cg->events, sizeof cg->events, path, "cgroup.events") < 0)) {
			rmdir(path);
			return errf(err, errlen, "cgroup %s: path too long", path);
		}
		cg->created = 1;
		set_io_stat(cg, cg->version, path);
		return 0;
	}
	cg->io_version = b->io_version;
	strlcpy_(cg->io_path, path, sizeof cg->io_path);
	if (path_join(cg->io_procs, sizeof cg->io_procs, path, "cgroup.procs") < 0) {
		rmdir(path);
		errf(err, errlen, "cgroup %s: path too long", path);
		goto fail;
	}
	cg->io_created = 1;
	set_io_stat(cg, b->io_version, path);
	return 0;
fail:
	cgroup_remove(cg, NULL, 0);
	return -1;
}

int cgroup_create_run(struct cgroup *cg, uint64_t limit, const struct cgroup_io *io,
		      const char *tag, char *err, size_t errlen)
{
	struct cgroup_base b;
	char why[256];

	memset(cg, 0, sizeof *cg);
	if (limit == 0 && !io)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (cgroup_base_detect(&b, why, sizeof why) < 0 && limit)
		return errf(err, errlen,
			    "--mem-limit needs root and the memory cgroup controller (%s)", why);
	if (io && !b.io_version)
		return cgroup_io_available(err, errlen);
	return cgroup_create_in(cg, &b, limit, io, tag, err, errlen);
}

int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen)
{
	return cgroup_create_run(cg, limit, NULL, tag, err, errlen);
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

	if (!cg->created || !cg->limit ||
	    path_join(file, sizeof file, cg->path,
		      cg->version == 2 ? "memory.events" : "memory.oom_control") < 0 ||
	    read_small_at(AT_FDCWD, file, buf, sizeof buf) < 0 ||
	    kvfile_parse(buf, keys, 1, &v) != 1)
		return -1;
	*n = v;
	return 0;
}

static int remove_one(struct cgroup *cg, char *err, size_t errlen)
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

int cgroup_remove(struct cgroup *cg, char *err, size_t errlen)
{
	int rc = remove_one(cg, err, errlen);

	cg->io_stat[0] = '\0'; /* no more counters to read, whatever is left */

	if (cg->io_created) {
		struct cgroup io;
		memset(&io, 0, sizeof io);
		io.version = cg->io_version;
		io.created = 1;
		strlcpy_(io.path, cg->io_path, sizeof io.path);
		strlcpy_(io.procs, cg->io_procs, sizeof io.procs);
		if (io.version == 2 &&
		    path_join(io.events, sizeof io.events, io.path, "cgroup.events") < 0)
			io.events[0] = '\0';
		if (remove_one(&io, rc < 0 ? NULL : err, errlen) == 0)
			cg->io_created = 0;
		else
			rc = -1;
	}
	return rc;
}

/* One pass over dir; a removed cgroup's namesake in the io hierarchy
 * (io_dir, "" for none) goes with it: the pair counts as one. */
static int reap_dir(int version, const char *dir, int io_version, const char *io_dir, long *pid_out,
		    int n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return n;
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
		cg.version = version;
		if (path_join(cg.path, sizeof cg.path, dir, e->d_name) < 0 || fill_paths(&cg) < 0)
			continue;
		cg.created = 1;
		if (io_dir[0] && path_join(cg.io_path, sizeof cg.io_path, io_dir, e->d_name) == 0 &&
		    path_join(cg.io_procs, sizeof cg.io_procs, cg.io_path, "cgroup.procs") == 0 &&
		    access(cg.io_path, F_OK) == 0) {
			cg.io_version = io_version;
			cg.io_created = 1;
		}
		if (cgroup_remove(&cg, NULL, 0) == 0) {
			if (!n++ && pid_out)
				*pid_out = pid;
		}
	}
	closedir(d);
	return n;
}

int cgroup_reap_stale(const struct cgroup_base *b, long *pid_out)
{
	int n = 0;
	int apart = b->io_version && (!b->version || strcmp(b->io_dir, b->dir) != 0);

	if (b->version)
		n = reap_dir(b->version, b->dir, b->io_version, apart ? b->io_dir : "", pid_out, n);
	if (apart) /* io cgroups of runs with only --disk-limit */
		n = reap_dir(b->io_version, b->io_dir, 0, "", pid_out, n);
	return n;
}

/* ---- cgroup_home ---------------------------------------------------------- */

#define MARK_MAGIC   "lrutop-subtree 1"
#define MARK_PREFIX  "subtree-"
#define MOUNT_PREFIX "mount-"
#define LOCK_WAIT_MS 3000
#define MARKS_MAX    32

/* What a marker can say was enabled / is used: two controllers, and the
 * debugfs mount (not a controller: given back by unmounting). */
static const struct {
	unsigned bit;
	const char *name;
	int controller;
} ctls[] = {{CGROUP_CTL_MEMORY, "memory", 1},
	    {CGROUP_CTL_IO, "io", 1},
	    {CGROUP_MOUNT_DEBUGFS, "debugfs", 0}};

void cgroup_home_init(struct cgroup_home *h, const char *root, const char *run_dir)
{
	memset(h, 0, sizeof *h);
	strlcpy_(h->root, root ? root : "", sizeof h->root);
	strlcpy_(h->run_dir, run_dir ? run_dir : CGROUP_RUN_DIR, sizeof h->run_dir);
	h->top_magic = CGROUP2_SUPER_MAGIC;
	h->debugfs_magic = DEBUGFS_MAGIC;
}

/* One line for main to say as a warning (cgroup_home_take_warnings). */
static void home_warn(struct cgroup_home *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void home_warn(struct cgroup_home *h, const char *fmt, ...)
{
	char line[sizeof h->warning];
	va_list ap;
	size_t l = strlen(h->warning);

	va_start(ap, fmt);
	verrf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (l + strlen(line) + 2 > sizeof h->warning) {
		h->warnings_lost++;
		return;
	}
	snprintf(h->warning + l, sizeof h->warning - l, "%s%s", l ? "\n" : "", line);
}

size_t cgroup_home_take_warnings(struct cgroup_home *h, char *out, size_t len)
{
	size_t l = strlcpy_(out, h->warning, len);

	if (l >= len)
		l = len - 1;
	if (h->warnings_lost && l + 1 < len)
		l += (size_t)snprintf(out + l, len - l, "%s%u more warnings about %s not said",
				      l ? "\n" : "", h->warnings_lost, h->run_dir);
	h->warning[0] = '\0';
	h->warnings_lost = 0;
	return strlen(out);
}

static void ctl_words(unsigned set, char *out, size_t len)
{
	size_t l = 0;

	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(ctls); i++)
		if (set & ctls[i].bit)
			l += (size_t)snprintf(out + l, len > l ? len - l : 0, "%s%s", l ? " " : "",
					      ctls[i].name);
	if (!out[0])
		strlcpy_(out, "-", len);
}

static unsigned ctl_parse(const char *words)
{
	unsigned set = 0;

	for (size_t i = 0; i < ARRAY_LEN(ctls); i++)
		if (has_item(words, ctls[i].name, " "))
			set |= ctls[i].bit;
	return set;
}

/* One marker: who changed which top's cgroup.subtree_control (or mounted
 * which debugfs). */
struct mark {
	long pid;
	unsigned long long start;
	char boot[64];
	char dir[4096];
	unsigned enabled, uses;
};

/* The run directory, judged, and its lock held: every look at or change of
 * the markers and of a top's cgroup.subtree_control happens between
 * lock_marks and unlock_marks, through dir. */
struct marks_lock {
	int fd;	 /* run_dir/lock, flock()ed */
	int dir; /* run_dir */
};

static int write_all_fd(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = EIO;
			return -1;
		}
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* name in dir (under the lock) replaced whole by m: a new file
 * NAME.new-PID-T (0600, O_EXCL), written, fsynced, then renamed over name,
 * so a SIGKILL leaves the old marker or the new one (and at worst the
 * .new- file, which nothing reads). */
static int mark_write(int dir, const char *name, const struct mark *m)
{
	char buf[4096 + 512], en[32], us[32], tmp[160];
	int fd, n, e;

	ctl_words(m->enabled, en, sizeof en);
	ctl_words(m->uses, us, sizeof us);
	n = snprintf(buf, sizeof buf,
		     "%s\npid %ld\nstart %llu\nboot %s\ndir %s\nenabled %s\nuses %s\n", MARK_MAGIC,
		     m->pid, m->start, m->boot, m->dir, en, us);
	if (n < 0 || (size_t)n >= sizeof buf ||
	    (size_t)snprintf(tmp, sizeof tmp, "%s.new-%ld-%llx", name, (long)getpid(),
			     (unsigned long long)mono_ns()) >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	/* 0600 whatever the umask: mark_open takes no other mode of ours */
	if (fchmod(fd, 0600) == 0 && write_all_fd(fd, buf, (size_t)n) == 0 && fsync(fd) == 0 &&
	    ownfile_fd_is_at(fd, dir, tmp) && renameat(dir, tmp, dir, name) == 0)
		return close(fd);
	e = errno;
	if (ownfile_fd_is_at(fd, dir, tmp))
		unlinkat(dir, tmp, 0);
	close(fd);
	errno = e;
	return -1;
}

/* A marker's text into m; -1 when it is not one. */
static int mark_parse(const char *buf, struct mark *m)
{
	char en[64], us[64];
	const char *p;

	memset(m, 0, sizeof *m);
	if (strncmp(buf, MARK_MAGIC "\n", strlen(MARK_MAGIC) + 1) != 0 ||
	    sscanf(buf + strlen(MARK_MAGIC) + 1, "pid %ld start %llu boot %63s", &m->pid, &m->start,
		   m->boot) != 3 ||
	    !(p = strstr(buf, "\ndir ")))
		return -1;
	p += 5;
	size_t n = strcspn(p, "\n");
	if (n >= sizeof m->dir)
		return -1;
	memcpy(m->dir, p, n);
	m->dir[n] = '\0';
	if (!(p = strstr(buf, "\nenabled ")) || sscanf(p + 9, "%63[^\n]", en) != 1 ||
	    !(p = strstr(buf, "\nuses ")) || sscanf(p + 6, "%63[^\n]", us) != 1)
		return -1;
	m->enabled = ctl_parse(en);
	m->uses = ctl_parse(us);
	return 0;
}

enum { MARK_NONE, MARK_TOP, MARK_MOUNT };

/* The kind of a marker's name: "subtree-PID" a top's, "mount-PID" a
 * debugfs's, exactly (*pid: PID); MARK_NONE for any other name (the lock,
 * a NAME.new-... being written, a NAME.bad set aside). */
static int mark_kind(const char *name, long *pid)
{
	const char *p;
	int kind;
	char *end;

	if (strncmp(name, MARK_PREFIX, strlen(MARK_PREFIX)) == 0) {
		p = name + strlen(MARK_PREFIX);
		kind = MARK_TOP;
	} else if (strncmp(name, MOUNT_PREFIX, strlen(MOUNT_PREFIX)) == 0) {
		p = name + strlen(MOUNT_PREFIX);
		kind = MARK_MOUNT;
	} else {
		return MARK_NONE;
	}
	if (*p < '1' || *p > '9' || strlen(name) >= 64)
		return MARK_NONE;
	errno = 0;
	*pid = strtol(p, &end, 10);
	return *end || errno ? MARK_NONE : kind;
}

/* The cgroup2 top a marker may speak of: where home_enable_top enables
 * controllers (the base's top once set up, else the first cgroup2 mount in
 * /proc/self/mountinfo, below root); "" when no cgroup2 is mounted. */
static void marks_top(const struct cgroup_home *h, char *out, size_t len)
{
	char mnt[4096], mroot[4096], *mi;

	out[0] = '\0';
	if (h->tried && h->base.v2 && h->base.v2_top[0]) {
		strlcpy_(out, h->base.v2_top, len);
		return;
	}
	mi = slurp("/proc/self/mountinfo");
	if (mi && find_mount(mi, "cgroup2", NULL, mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    (size_t)snprintf(out, len, "%s%s", h->root, mnt) >= len)
		out[0] = '\0';
	free(mi);
}

/* 1 when path is on a filesystem of that statfs magic. */
static int fs_is(const char *path, long magic)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/* Opens and judges the marker name in dir (its kind and pid from the
 * name): a regular file of root's, mode 0600 (or 0644, what lrutop wrote
 * before), holding a marker of its own pid whose dir is absolute and
 * canonical and is what a marker of that kind speaks of — top, on cgroup2,
 * for a top's; root + SAMPLER_DEBUGFS for a mount's (whether debugfs is
 * still mounted there is asked when it would be unmounted).  The
 * descriptor (what is removed later must be this file: ownfile_fd_is_at)
 * and *m, or -1 and why it is not a marker lrutop made. */
static int mark_open(const struct cgroup_home *h, int dir, const char *name, int kind, long pid,
		     const char *top, struct mark *m, char *why, size_t whylen)
{
	char buf[4096 + 512], want[sizeof h->root + 64];
	struct stat st;
	ssize_t n;
	int fd;

	memset(m, 0, sizeof *m);
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errf(why, whylen, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return errf(why, whylen, "not a regular file");
	/* O_NONBLOCK: should it be a FIFO by now, it does not hold us */
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errf(why, whylen, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		errf(why, whylen, "not a regular file");
		goto bad;
	}
	if (st.st_uid != 0) {
		errf(why, whylen, "owned by uid %u, not root", (unsigned)st.st_uid);
		goto bad;
	}
	if ((st.st_mode & 07777) != 0600 && (st.st_mode & 07777) != 0644) {
		errf(why, whylen, "mode %04o, not 0600", (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	n = st.st_size < (off_t)sizeof buf ? read(fd, buf, sizeof buf - 1) : -1;
	if (n <= 0 || (buf[n] = '\0', mark_parse(buf, m) < 0)) {
		errf(why, whylen,
		     "not a marker of lrutop's (\"%s\", pid, start, boot, dir, enabled, uses)",
		     MARK_MAGIC);
		goto bad;
	}
	if (m->pid != pid) {
		errf(why, whylen, "it says pid %ld, its name %ld", m->pid, pid);
		goto bad;
	}
	if (m->dir[0] != '/') {
		errf(why, whylen, "its dir %s is not an absolute path", m->dir);
		goto bad;
	}
	char *real = realpath(m->dir, NULL);
	int canonical = real && strcmp(real, m->dir) == 0;
	if (!canonical) {
		errf(why, whylen, "its dir %s is not a canonical path (%s)", m->dir,
		     real ? real : strerror(errno));
		free(real);
		goto bad;
	}
	free(real);
	if (kind == MARK_TOP) {
		if ((m->enabled | m->uses) & ~(CGROUP_CTL_MEMORY | CGROUP_CTL_IO)) {
			errf(why, whylen, "a top's marker that names debugfs");
			goto bad;
		}
		if (!top[0] || strcmp(m->dir, top) != 0) {
			errf(why, whylen, "its dir %s is not the top of the cgroup2 hierarchy (%s)",
			     m->dir, top[0] ? top : "none is mounted");
			goto bad;
		}
		if (!fs_is(m->dir, h->top_magic)) {
			errf(why, whylen, "its dir %s is not a cgroup2 filesystem", m->dir);
			goto bad;
		}
	} else {
		if ((m->enabled | m->uses) & ~CGROUP_MOUNT_DEBUGFS) {
			errf(why, whylen, "a debugfs marker that names a controller");
			goto bad;
		}
		snprintf(want, sizeof want, "%s%s", h->root, SAMPLER_DEBUGFS);
		if (strcmp(m->dir, want) != 0) {
			errf(why, whylen, "its dir %s is not %s", m->dir, want);
			goto bad;
		}
	}
	return fd;
bad:
	close(fd);
	return -1;
}

/* A marker lrutop cannot vouch for: renamed aside to NAME.bad (NAME.bad2
 * ... when taken), never removed, and said once. */
static void mark_set_aside(struct cgroup_home *h, int dir, const char *name, const char *why)
{
	char aside[96];
	int e = 0;

	for (int k = 1; k <= 9; k++) {
		snprintf(aside, sizeof aside, k == 1 ? "%s.bad" : "%s.bad%d", name, k);
		int rc = renameat2(dir, name, dir, aside, RENAME_NOREPLACE);
		if (rc < 0 && errno == EINVAL) { /* no NOREPLACE here: look first */
			struct stat st;
			rc = fstatat(dir, aside, &st, AT_SYMLINK_NOFOLLOW) == 0
				 ? (errno = EEXIST, -1)
				 : renameat(dir, name, dir, aside);
		}
		if (rc == 0) {
			home_warn(h, "%s/%s: %s; moved aside to %s, nothing done by it", h->run_dir,
				  name, why, aside);
			return;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	home_warn(h, "%s/%s: %s; not used (cannot move it aside: %s)", h->run_dir, name, why,
		  strerror(e));
}

/* Our own marker name, when a file is there: read back (1, *m) if it is a
 * marker lrutop can vouch for, else set aside (0): it is then written anew,
 * never over what was not lrutop's. */
static int mark_read_own(struct cgroup_home *h, const struct marks_lock *mk, const char *name,
			 int kind, const char *top, struct mark *m)
{
	char why[600];
	struct stat st;
	long pid;

	if (fstatat(mk->dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || mark_kind(name, &pid) != kind)
		return 0;
	int fd = mark_open(h, mk->dir, name, kind, pid, top, m, why, sizeof why);
	if (fd < 0) {
		mark_set_aside(h, mk->dir, name, why);
		return 0;
	}
	close(fd);
	return 1;
}

static int mark_alive(const struct mark *m)
{
	char boot[64];

	scratch_boot_id(boot, sizeof boot);
	return strcmp(boot, m->boot) == 0 && scratch_pid_alive(m->pid, m->start);
}

/* The run directory judged and its lock taken, bounded (LOCK_WAIT_MS: two
 * lrutops starting together must not both think the other one enabled
 * memory).  run_dir is made 0700 when it is not there; one that is there
 * must be root's directory that nobody else may write (0700 as made, or
 * 0755 as lrutop made it before), not a symbolic link, and its lock a
 * regular file of root's (0600, or 0644 as before): else nothing in it is
 * used — lrutop repairs nothing it did not make.  0; -1 + err (the lock
 * is held elsewhere, or failed); -2 + err: run_dir or its lock is not
 * lrutop's to use. */
static int lock_marks(const struct cgroup_home *h, struct marks_lock *mk, char *err, size_t errlen)
{
	uint64_t deadline = mono_ns() + (uint64_t)LOCK_WAIT_MS * 1000000u;
	struct stat st;

	mk->fd = mk->dir = -1;
	int made = mkdir(h->run_dir, 0700) == 0;
	if (!made && errno != EEXIST)
		return errf(err, errlen, "cannot make %s: %s", h->run_dir, strerror(errno));
	mk->dir = open(h->run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (made && mk->dir >= 0)
		fchmod(mk->dir, 0700); /* whatever the umask took away */
	if (mk->dir < 0) {
		int e = errno;
		errf(err, errlen, "%s: %s", h->run_dir,
		     e == ELOOP || e == ENOTDIR ? "not a directory (a symbolic link?): not used"
						: strerror(e));
		return e == ELOOP || e == ENOTDIR ? -2 : -1;
	}
	if (fstat(mk->dir, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022)) {
		errf(err, errlen,
		     "%s is not root's own directory (uid %u, mode %04o; lrutop makes it 0700): "
		     "its markers are not used",
		     h->run_dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(mk->dir);
		mk->dir = -1;
		return -2;
	}
	/* the lock's inode must be the same for every lrutop: made once, 0600,
	 * and never removed */
	mk->fd = openat(mk->dir, "lock",
			O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			0600);
	if (mk->fd >= 0)
		fchmod(mk->fd, 0600);
	else if (errno == EEXIST)
		mk->fd = openat(mk->dir, "lock",
				O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (mk->fd < 0 || fstat(mk->fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		int refused = mk->fd >= 0 || errno == ELOOP;
		if (refused)
			errf(err, errlen,
			     "%s/lock is not root's own regular file (lrutop makes it 0600): the "
			     "markers are not used",
			     h->run_dir);
		else
			errf(err, errlen, "%s/lock: %s", h->run_dir, strerror(errno));
		if (mk->fd >= 0)
			close(mk->fd);
		close(mk->dir);
		mk->fd = mk->dir = -1;
		return refused ? -2 : -1;
	}
	while (flock(mk->fd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || mono_ns() >= deadline) {
			errf(err, errlen, "cannot lock %s/lock: %s", h->run_dir,
			     errno == EWOULDBLOCK ? "another lrutop holds it" : strerror(errno));
			close(mk->fd);
			close(mk->dir);
			mk->fd = mk->dir = -1;
			return -1;
		}
		poll(NULL, 0, 5);
	}
	return 0;
}

static void unlock_marks(struct marks_lock *mk)
{
	if (mk->fd >= 0)
		close(mk->fd); /* the flock goes with it */
	if (mk->dir >= 0)
		close(mk->dir);
	mk->fd = mk->dir = -1;
}

/* "-memory" / "-io" into a marker's top: the directory opened without
 * following a link and its control file both on cgroup2 (top_magic). */
static int top_write(const struct cgroup_home *h, const char *top, const char *what)
{
	struct statfs sf;
	int d = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), fd = -1, rc = -1;

	if (d >= 0 && fstatfs(d, &sf) == 0 && (long)sf.f_type == h->top_magic)
		fd = openat(d, "cgroup.subtree_control",
			    O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstatfs(fd, &sf) == 0 && (long)sf.f_type == h->top_magic)
		rc = write_all_fd(fd, what, strlen(what));
	if (fd >= 0)
		close(fd);
	if (d >= 0)
		close(d);
	return rc;
}

/* Under the lock: every marker whose owner is gone (or is us, when
 * leaving) gives back what it enabled — "-memory" / "-io" into its top's
 * cgroup.subtree_control, or its debugfs unmounted — unless a live owner's
 * marker uses the same in the same place: that marker then takes the duty
 * over.  A marker lrutop cannot vouch for (mark_open) is set aside and
 * nothing is done by it; one of another boot goes.  Returns how many
 * controllers were turned off. */
static int marks_restore(struct cgroup_home *h, const struct marks_lock *mk, int leaving)
{
	struct mark ms[MARKS_MAX];
	char names[MARKS_MAX][64], boot[64], top[4096], why[600];
	int fds[MARKS_MAX], alive[MARKS_MAX], n = 0, restored = 0;
	int dfd = fcntl(mk->dir, F_DUPFD_CLOEXEC, 3);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	scratch_boot_id(boot, sizeof boot);
	marks_top(h, top, sizeof top);
	while ((e = readdir(d)) != NULL && n < MARKS_MAX) {
		long pid;
		int kind = mark_kind(e->d_name, &pid);
		if (kind == MARK_NONE)
			continue;
		int fd = mark_open(h, mk->dir, e->d_name, kind, pid, top, &ms[n], why, sizeof why);
		if (fd < 0) {
			mark_set_aside(h, mk->dir, e->d_name, why);
			continue;
		}
		if (strcmp(ms[n].boot, boot) != 0) {
			/* another boot's: rebuilt since, nothing of it to give back */
			if (ownfile_fd_is_at(fd, mk->dir, e->d_name))
				unlinkat(mk->dir, e->d_name, 0);
			close(fd);
			continue;
		}
		strlcpy_(names[n], e->d_name, sizeof names[n]);
		fds[n] = fd;
		alive[n] = !(leaving && ms[n].pid == (long)getpid()) && mark_alive(&ms[n]);
		n++;
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		if (alive[i])
			continue;
		for (size_t c = 0; c < ARRAY_LEN(ctls); c++) {
			if (!(ms[i].enabled & ctls[c].bit))
				continue;
			int heir = -1;
			for (int j = 0; j < n && heir < 0; j++)
				if (alive[j] && strcmp(ms[j].dir, ms[i].dir) == 0 &&
				    ((ms[j].uses | ms[j].enabled) & ctls[c].bit))
					heir = j;
			if (heir >= 0) {
				ms[heir].enabled |= ctls[c].bit;
				mark_write(mk->dir, names[heir], &ms[heir]);
				continue;
			}
			if (!ctls[c].controller) {
				/* still debugfs there (else nothing is mounted to give
				 * back); busy (someone reads it): left mounted */
				if (fs_is(ms[i].dir, h->debugfs_magic))
					umount2(ms[i].dir, UMOUNT_NOFOLLOW);
				continue;
			}
			char what[16];
			snprintf(what, sizeof what, "-%s", ctls[c].name);
			/* EBUSY: someone made it theirs (a child enables it
			 * further down); it is not ours to take away then */
			if (top_write(h, ms[i].dir, what) == 0)
				restored++;
		}
		if (ownfile_fd_is_at(fds[i], mk->dir, names[i]))
			unlinkat(mk->dir, names[i], 0);
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return restored;
}

/* OWN at the top: controllers in want that the top does not yet hand to
 * its children are enabled there, the marker written first. */
static int home_enable_top(struct cgroup_home *h, unsigned want, char *err, size_t errlen)
{
	const char *top = h->base.v2_top;
	struct marks_lock mk;
	struct mark m, old;
	unsigned need = 0;
	char e[600];

	if (geteuid() != 0)
		return errf(err, errlen, "not root");
	if (lock_marks(h, &mk, e, sizeof e) < 0)
		return errf(err, errlen,
			    "%s/cgroup.subtree_control is changed only with a marker: %s", top, e);
	marks_restore(h, &mk, 0);
	for (size_t c = 0; c < ARRAY_LEN(ctls); c++)
		if ((want & ctls[c].bit) && !ctl_lists(top, "cgroup.subtree_control", ctls[c].name))
			need |= ctls[c].bit;
	memset(&m, 0, sizeof m);
	m.pid = (long)getpid();
	scratch_pid_start(m.pid, &m.start);
	scratch_boot_id(m.boot, sizeof m.boot);
	strlcpy_(m.dir, top, sizeof m.dir);
	if (!h->marker[0])
		snprintf(h->marker, sizeof h->marker, "%s/" MARK_PREFIX "%ld", h->run_dir, m.pid);
	const char *name = strrchr(h->marker, '/') + 1;
	/* a reap may have handed a gone owner's duty to our marker: kept */
	if (mark_read_own(h, &mk, name, MARK_TOP, top, &old) && old.pid == m.pid &&
	    strcmp(old.dir, top) == 0) {
		h->enabled |= old.enabled;
		h->uses |= old.uses;
	}
	m.enabled = h->enabled | need;
	m.uses = h->uses | want;
	if (mark_write(mk.dir, name, &m) < 0) {
		int en = errno;
		unlock_marks(&mk);
		return errf(
		    err, errlen,
		    "cannot write the marker %s (it restores %s/cgroup.subtree_control): %s",
		    h->marker, top, strerror(en));
	}
	h->uses = m.uses;
	for (size_t c = 0; c < ARRAY_LEN(ctls); c++) {
		char what[16];
		if (!(need & ctls[c].bit))
			continue;
		snprintf(what, sizeof what, "+%s", ctls[c].name);
		if (enable_v2(top, what, err, errlen) < 0) {
			m.enabled &= ~ctls[c].bit;
			mark_write(mk.dir, name, &m);
			unlock_marks(&mk);
			return -1;
		}
		h->enabled |= ctls[c].bit;
	}
	unlock_marks(&mk);
	return 0;
}

int cgroup_home_adopt_scope(struct cgroup_home *h, const char *scope_dir, char *err, size_t errlen)
{
	char leaf[4096], procs[4096 + 16], pid[32], ctl[1024] = "", file[4096 + 32];
	struct cgroup_base *b = &h->base;

	if (path_join(leaf, sizeof leaf, scope_dir, "monitor") < 0 ||
	    path_join(procs, sizeof procs, leaf, "cgroup.procs") < 0)
		return errf(err, errlen, "%s: path too long", scope_dir);
	if (mkdir(leaf, 0755) < 0 && errno != EEXIST)
		return errf(err, errlen, "create %s: %s", leaf, strerror(errno));
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (write_ctl(procs, pid) < 0)
		return errf(err, errlen, "move lrutop into %s: %s", leaf, strerror(errno));
	strlcpy_(h->scope, scope_dir, sizeof h->scope);
	h->tried = 1;
	h->mode = CGROUP_MODE_SCOPE;
	strlcpy_(b->v2_self, leaf, sizeof b->v2_self);
	if (path_join(file, sizeof file, scope_dir, "cgroup.controllers") == 0)
		read_small_at(AT_FDCWD, file, ctl, sizeof ctl);
	ctl[strcspn(ctl, "\n")] = '\0';
	b->version = b->io_version = 0;
	b->enable_v2 = b->io_enable_v2 = 0;
	b->dir[0] = b->io_dir[0] = '\0';
	for (size_t c = 0; c < ARRAY_LEN(ctls); c++) {
		char what[16], e[600];
		int ok;
		if (!ctls[c].controller)
			continue;
		char *why = ctls[c].bit == CGROUP_CTL_MEMORY ? h->why : h->io_why;
		size_t wl = ctls[c].bit == CGROUP_CTL_MEMORY ? sizeof h->why : sizeof h->io_why;
		snprintf(what, sizeof what, "+%s", ctls[c].name);
		if (!has_item(ctl, ctls[c].name, " ")) {
			errf(why, wl,
			     "systemd delegated %s without the %s controller "
			     "(its cgroup.controllers: %s)",
			     scope_dir, ctls[c].name, ctl[0] ? ctl : "empty");
			continue;
		}
		ok = ctl_lists(scope_dir, "cgroup.subtree_control", ctls[c].name) ||
		     enable_v2(scope_dir, what, e, sizeof e) == 0;
		if (!ok) {
			snprintf(why, wl, "%s", e);
			continue;
		}
		if (ctls[c].bit == CGROUP_CTL_MEMORY) {
			b->version = 2;
			strlcpy_(b->dir, scope_dir, sizeof b->dir);
		} else {
			b->io_version = 2;
			strlcpy_(b->io_dir, scope_dir, sizeof b->io_dir);
		}
	}
	if (!b->version && !b->io_version)
		return errf(err, errlen, "%s", h->why);
	return 0;
}

/* cgroup v2's controllers are there at all (a hybrid system's unified
 * mount offers none: its controllers are on v1). */
static int v2_in_use(const struct cgroup_base *b)
{
	return b->v2 && (ctl_lists(b->v2_top, "cgroup.controllers", "memory") ||
			 ctl_lists(b->v2_top, "cgroup.controllers", "io"));
}

/* Not root and nothing delegated by a manager: no cgroup, and why. */
static int home_not_root(struct cgroup_home *h, struct cgroup_base *b)
{
	memset(b, 0, sizeof *b);
	snprintf(h->why, sizeof h->why, "not root");
	snprintf(h->io_why, sizeof h->io_why, "not root");
	h->mode = CGROUP_MODE_NONE;
	return -1;
}

static int home_decide(struct cgroup_home *h, const char *mi, const char *self)
{
	struct cgroup_base *b = &h->base;
	char why[600];
	int root = geteuid() == 0;

	h->tried = 1;
	if (cgroup_find_base(mi, self, h->root, b, why, sizeof why) < 0)
		snprintf(h->why, sizeof h->why, "%s", why);
	if (!b->io_version)
		snprintf(h->io_why, sizeof h->io_why,
			 "no io controller delegated to our cgroup, no blkio mounted");
	if (!v2_in_use(b) || b->version == 1) {
		/* cgroup v1, as ever: beneath our own cgroup, nothing asked */
		if (!root) {
			return home_not_root(h, b);
		}
		h->mode = b->version || b->io_version ? CGROUP_MODE_V1 : CGROUP_MODE_NONE;
		return h->mode == CGROUP_MODE_NONE ? -1 : 0;
	}
	if (!h->no_systemd && delegate_systemd_booted(h->root) && strcmp(b->v2_path, "/") != 0) {
		char slice[256], path[4096], top[4096], e[400], where[4096];
		strlcpy_(where, b->v2_path, sizeof where);
		int have_slice = delegate_slice(b->v2_path, !root, slice, sizeof slice) == 0;
		strlcpy_(top, b->v2_top, sizeof top);
		if (delegate_start_scope(!root, have_slice ? slice : NULL, path, sizeof path, e,
					 sizeof e) < 0 ||
		    (size_t)snprintf(h->scope, sizeof h->scope, "%s%s", top, path) >=
			sizeof h->scope) {
			memset(b, 0, sizeof *b);
			b->v2 = 1;
			snprintf(
			    h->why, sizeof h->why,
			    "cgroup v2 under systemd: %.200s is systemd's, and systemd did not "
			    "delegate a scope to lrutop: %.300s",
			    where, e);
			snprintf(h->io_why, sizeof h->io_why, "%s", h->why);
			h->scope[0] = '\0';
			h->mode = CGROUP_MODE_NONE;
			return -1;
		}
		/* now in the scope: the base is inside it */
		strlcpy_(b->v2_path, path, sizeof b->v2_path);
		char scope[4096];
		strlcpy_(scope, h->scope, sizeof scope);
		if (cgroup_home_adopt_scope(h, scope, e, sizeof e) < 0) {
			snprintf(h->why, sizeof h->why,
				 "cgroup v2: the scope systemd delegated: %s", e);
			return -1;
		}
		return 0;
	}
	if (!root) {
		return home_not_root(h, b);
	}
	h->mode = b->version || b->io_version ? CGROUP_MODE_OWN : CGROUP_MODE_NONE;
	if (!b->io_version)
		snprintf(h->io_why, sizeof h->io_why,
			 "cgroup v2 does not offer the io controller (%.400s/cgroup.controllers)",
			 b->v2_top);
	return h->mode == CGROUP_MODE_NONE ? -1 : 0;
}

int cgroup_home_setup_from(struct cgroup_home *h, const char *mountinfo, const char *self)
{
	if (h->tried)
		return h->mode == CGROUP_MODE_NONE ? -1 : 0;
	return home_decide(h, mountinfo, self);
}

int cgroup_home_setup(struct cgroup_home *h)
{
	char *mi, *self;
	int rc;

	if (h->tried)
		return h->mode == CGROUP_MODE_NONE ? -1 : 0;
	mi = slurp("/proc/self/mountinfo");
	self = slurp("/proc/self/cgroup");
	if (mi && self) {
		rc = home_decide(h, mi, self);
	} else {
		h->tried = 1;
		h->mode = CGROUP_MODE_NONE;
		snprintf(h->why, sizeof h->why,
			 "cannot read /proc/self/mountinfo or /proc/self/cgroup");
		snprintf(h->io_why, sizeof h->io_why, "%s", h->why);
		rc = -1;
	}
	free(mi);
	free(self);
	return rc;
}

/* What --mem-limit and --disk-limit need, one row each: the base's fields
 * for the controller, the reason it is missing, and how that is said. */
struct home_need {
	unsigned bit;
	int *version, *enable;
	const char *dir;
	char *why;
	size_t whylen;
	const char *opt, *what, *user_what;
};

static void home_need(struct cgroup_home *h, unsigned bit, struct home_need *n)
{
	struct cgroup_base *b = &h->base;

	if (bit == CGROUP_CTL_MEMORY)
		*n = (struct home_need){bit,
					&b->version,
					&b->enable_v2,
					b->dir,
					h->why,
					sizeof h->why,
					"--mem-limit",
					"the memory cgroup controller",
					"the memory controller"};
	else
		*n = (struct home_need){bit,
					&b->io_version,
					&b->io_enable_v2,
					b->io_dir,
					h->io_why,
					sizeof h->io_why,
					"--disk-limit",
					"the io (v2) or blkio (v1) cgroup controller",
					"the io controller"};
}

/* OWN at the top, the controller to be enabled there or on already: either
 * way under the lock, with a marker that says we use it (a later lrutop
 * that finds it on must not be left out: the one that enabled it would
 * turn it off under its run cgroups when it leaves). */
static int home_ctl_available(struct cgroup_home *h, unsigned bit, char *err, size_t errlen)
{
	struct home_need n;
	char e[600];

	cgroup_home_setup(h);
	home_need(h, bit, &n);
	if (*n.version == 2 && h->mode == CGROUP_MODE_OWN && !(h->uses & bit) &&
	    (*n.enable || strcmp(n.dir, h->base.v2_top) == 0)) {
		if (home_enable_top(h, bit, e, sizeof e) < 0) {
			snprintf(n.why, n.whylen, "%s", e);
			*n.version = 0;
		}
		*n.enable = 0;
	}
	if (*n.version)
		return 0;
	if (strcmp(n.why, "not root") == 0 ||
	    (geteuid() != 0 && h->mode != CGROUP_MODE_SCOPE && !h->base.v2))
		return errf(err, errlen, "%s needs root and %s (%s)", n.opt, n.what, n.why);
	if (geteuid() != 0)
		return errf(err, errlen,
			    "%s needs root, or a systemd user manager that delegates %s (%s)",
			    n.opt, n.user_what, n.why);
	return errf(err, errlen, "%s: %s", n.opt, n.why);
}

int cgroup_home_available(struct cgroup_home *h, char *err, size_t errlen)
{
	return home_ctl_available(h, CGROUP_CTL_MEMORY, err, errlen);
}

int cgroup_home_io_available(struct cgroup_home *h, char *err, size_t errlen)
{
	return home_ctl_available(h, CGROUP_CTL_IO, err, errlen);
}

int cgroup_home_create(struct cgroup_home *h, struct cgroup *cg, uint64_t limit,
		       const struct cgroup_io *io, const char *tag, char *err, size_t errlen)
{
	memset(cg, 0, sizeof *cg);
	if (limit == 0 && !io)
		return errf(err, errlen, "--mem-limit: the limit must be more than 0 bytes");
	if (limit && cgroup_home_available(h, err, errlen) < 0)
		return -1;
	if (io && cgroup_home_io_available(h, err, errlen) < 0)
		return -1;
	return cgroup_create_in(cg, &h->base, limit, io, tag, err, errlen);
}

/* lrutop-<pid>.scope units beside ours (in dir) whose lrutop is gone: what
 * is inside goes (killed first); systemd then stops the emptied scope. */
int cgroup_reap_scopes(const char *dir, long *pid_out)
{
	int n = 0;
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return n;
	while ((e = readdir(d)) != NULL) {
		char *end, scope[4096], file[64], buf[4096], want[300];
		long pid;
		int m;

		if (strncmp(e->d_name, "lrutop-", 7) != 0)
			continue;
		pid = strtol(e->d_name + 7, &end, 10);
		if (end == e->d_name + 7 || strcmp(end, ".scope") != 0 || pid <= 0 ||
		    pid == (long)getpid())
			continue;
		/* alive and still in its scope: not ours to judge */
		snprintf(file, sizeof file, "/proc/%ld/cgroup", pid);
		snprintf(want, sizeof want, "/%s", e->d_name);
		if (read_small_at(AT_FDCWD, file, buf, sizeof buf) > 0 && strstr(buf, want))
			continue;
		if (path_join(scope, sizeof scope, dir, e->d_name) < 0)
			continue;
		struct cgroup mon;
		memset(&mon, 0, sizeof mon);
		mon.version = 2;
		mon.created = 1;
		/* lrutop's scope: the monitor leaf is the first thing it makes
		 * there; a scope of that name without it is not ours to empty */
		if (path_join(mon.path, sizeof mon.path, scope, "monitor") < 0 ||
		    access(mon.path, F_OK) != 0)
			continue;
		m = reap_dir(2, scope, 0, "", pid_out, 0);
		if (fill_paths(&mon) == 0 && cgroup_remove(&mon, NULL, 0) == 0 && !m)
			m = 1;
		if (m && !n && pid_out)
			*pid_out = pid;
		n += m;
	}
	closedir(d);
	return n;
}

/* Not root, not yet in a scope: the directory of the slice a user
 * manager's scope of ours goes in (delegate_slice's, user): below
 * user@UID.service, the leading run of *.slice components of our path
 * but its last.  -1 when our cgroup is not in a user manager's tree. */
static int user_slice_dir(const struct cgroup_base *b, char *out, size_t len)
{
	const char *u = strstr(b->v2_path, "/user@");
	const char *p = u ? strchr(u + 1, '/') : NULL;
	size_t end;

	if (!p)
		return -1;
	end = (size_t)(p - b->v2_path);
	while (*p == '/') {
		size_t n = strcspn(p + 1, "/");
		if (!p[1 + n] || n < 6 || strncmp(p + 1 + n - 6, ".slice", 6) != 0)
			break;
		p += 1 + n;
		end = (size_t)(p - b->v2_path);
	}
	if ((size_t)snprintf(out, len, "%s%.*s", b->v2_top, (int)end, b->v2_path) >= len)
		return -1;
	return 0;
}

int cgroup_home_reap(struct cgroup_home *h, long *pid_out, int *restored)
{
	struct cgroup_base b;
	char why[600], *mi, *self, slice[4096];
	int n = 0, root = geteuid() == 0;

	if (restored)
		*restored = 0;
	/* markers of gone owners (only root writes them; no run_dir, none
	 * was ever written) */
	struct stat st;
	if (root && lstat(h->run_dir, &st) == 0) {
		struct marks_lock mk;
		char e[600];
		int l = lock_marks(h, &mk, e, sizeof e);
		if (l == 0) {
			int r = marks_restore(h, &mk, 0);
			if (restored)
				*restored = r;
			unlock_marks(&mk);
		} else if (l == -2 && !h->run_dir_said) {
			home_warn(h, "%s", e);
			h->run_dir_said = 1;
		}
	}
	if (!root && h->mode == CGROUP_MODE_SCOPE) {
		/* the user's own scopes beside the one its manager delegated */
		strlcpy_(slice, h->scope, sizeof slice);
		char *slash = strrchr(slice, '/');
		if (!slash)
			return 0;
		*slash = '\0';
		return cgroup_reap_scopes(slice, pid_out);
	}
	mi = slurp("/proc/self/mountinfo");
	self = slurp("/proc/self/cgroup");
	if (!mi || !self) {
		free(mi);
		free(self);
		return 0;
	}
	if ((cgroup_find_base(mi, self, h->root, &b, why, sizeof why) == 0 || b.io_version) && root)
		n = cgroup_reap_stale(&b, pid_out);
	free(mi);
	free(self);
	if (b.v2 && v2_in_use(&b)) {
		/* the slice our scope is (or would be) in */
		if (root) {
			strlcpy_(slice, h->mode == CGROUP_MODE_SCOPE ? h->scope : b.v2_self,
				 sizeof slice);
			char *slash = strrchr(slice, '/');
			if (!slash || strlen(slice) <= strlen(b.v2_top))
				return n;
			*slash = '\0';
		} else if (user_slice_dir(&b, slice, sizeof slice) < 0) {
			return n;
		}
		n += cgroup_reap_scopes(slice, n ? NULL : pid_out);
	}
	return n;
}

int cgroup_home_mark_mount(struct cgroup_home *h, const char *dir, int mounted, char *err,
			   size_t errlen)
{
	struct marks_lock mk;
	struct mark m, old;
	char e[600], want[sizeof h->root + 64];

	if (geteuid() != 0)
		return errf(err, errlen, "not root");
	snprintf(want, sizeof want, "%s%s", h->root, SAMPLER_DEBUGFS);
	if (strcmp(dir, want) != 0)
		return errf(err, errlen, "%s: a marker is kept only for the debugfs at %s", dir,
			    want);
	if (lock_marks(h, &mk, e, sizeof e) < 0)
		return errf(err, errlen, "%s", e);
	memset(&m, 0, sizeof m);
	m.pid = (long)getpid();
	scratch_pid_start(m.pid, &m.start);
	scratch_boot_id(m.boot, sizeof m.boot);
	strlcpy_(m.dir, dir, sizeof m.dir);
	m.enabled = mounted ? CGROUP_MOUNT_DEBUGFS : 0;
	m.uses = CGROUP_MOUNT_DEBUGFS;
	if (!h->mount_marker[0])
		snprintf(h->mount_marker, sizeof h->mount_marker, "%s/" MOUNT_PREFIX "%ld",
			 h->run_dir, m.pid);
	const char *name = strrchr(h->mount_marker, '/') + 1;
	/* a duty handed to us meanwhile is kept */
	if (mark_read_own(h, &mk, name, MARK_MOUNT, "", &old) && old.pid == m.pid)
		m.enabled |= old.enabled;
	int rc = mark_write(mk.dir, name, &m);
	int en = errno;
	unlock_marks(&mk);
	if (rc < 0) {
		h->mount_marker[0] = '\0';
		return errf(err, errlen, "cannot write the marker of %s in %s: %s", dir, h->run_dir,
			    strerror(en));
	}
	return 0;
}

void cgroup_home_done(struct cgroup_home *h)
{
	struct marks_lock mk;
	char e[600];

	if (!h->marker[0] && !h->mount_marker[0])
		return;
	/* without the lock another lrutop may be deciding on the same top:
	 * the marker stays, and the next start's reap gives it back */
	if (lock_marks(h, &mk, e, sizeof e) == 0) {
		marks_restore(h, &mk, 1);
		unlock_marks(&mk);
	}
	h->marker[0] = h->mount_marker[0] = '\0';
	h->enabled = h->uses = 0;
}
