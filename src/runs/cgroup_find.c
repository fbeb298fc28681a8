#include "runs/cgroup_int.h"
#include "runs/delegate.h"
#include "sampling/mountinfo.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cgroup_path_join(char *out, size_t len, const char *a, const char *b)
{
	int n = snprintf(out, len, "%s/%s", a, b);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

int cgroup_write_ctl(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t len = strlen(s);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = write(fd, s, len);
	while (n < 0 && errno == EINTR);
	close_keep_errno(fd);
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		errno = EIO;
	return -1;
}

int cgroup_has_item(const char *list, const char *word, const char *seps)
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

int cgroup_find_mount(const char *mountinfo, const char *fstype, const char *ctl, char *mnt,
		      size_t mlen, char *root, size_t rlen)
{
	struct mountinfo mi;
	struct mountinfo_entry e;
	int rc = -1;

	mountinfo_init_text(&mi, mountinfo);
	while (rc < 0 && mountinfo_next(&mi, &e))
		if (strcmp(e.fstype, fstype) == 0 &&
		    (strcmp(fstype, "cgroup") != 0 || cgroup_has_item(e.super, ctl, ",")) &&
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
	if (version == 2)
		return delegate_v2_path(text, out, len);
	for (const char *line = text, *next; line && *line; line = next) {
		size_t l = text_line(line, &next);
		char buf[4096 + 256];
		char *c1, *c2;

		if (l >= sizeof buf)
			continue;
		memcpy(buf, line, l);
		buf[l] = '\0';
		c1 = strchr(buf, ':');
		c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		if (cgroup_has_item(c1 + 1, ctl, ","))
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

int cgroup_ctl_lists(const char *dir, const char *name, const char *word)
{
	char file[4096 + 32], buf[1024];

	return cgroup_path_join(file, sizeof file, dir, name) == 0 &&
	       read_small_at(AT_FDCWD, file, buf, sizeof buf) >= 0 &&
	       cgroup_has_item(buf, word, " \n");
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
	if (cgroup_find_mount(mountinfo, "cgroup2", NULL, mnt, sizeof mnt, mroot, sizeof mroot) ==
		0 &&
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
			if (cgroup_ctl_lists(dir, "cgroup.subtree_control", v2)) {
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
		if (cgroup_ctl_lists(dir, "cgroup.controllers", v2)) {
			*version = 2;
			*enable = 1;
			return;
		}
	}
	if (cgroup_find_mount(mountinfo, "cgroup", v1, mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    self_cgroup(self, 1, v1, path, sizeof path) == 0 &&
	    self_dir(root, mnt, mroot, path, dir, dirlen) == 0 &&
	    cgroup_path_join(file, sizeof file, dir, probe) == 0 && access(file, W_OK) == 0) {
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

char *cgroup_slurp(const char *path)
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
	mi = cgroup_slurp("/proc/self/mountinfo");
	self = cgroup_slurp("/proc/self/cgroup");
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

int cgroup_v2_in_use(const struct cgroup_base *b)
{
	return b->v2 && (cgroup_ctl_lists(b->v2_top, "cgroup.controllers", "memory") ||
			 cgroup_ctl_lists(b->v2_top, "cgroup.controllers", "io"));
}
