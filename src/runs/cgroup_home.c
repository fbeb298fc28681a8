#include "runs/cgroup_int.h"
#include "runs/delegate.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void cgroup_home_init(struct cgroup_home *h, const char *root, const char *run_dir)
{
	memset(h, 0, sizeof *h);
	strlcpy_(h->root, root ? root : "", sizeof h->root);
	strlcpy_(h->run_dir, run_dir ? run_dir : CGROUP_RUN_DIR, sizeof h->run_dir);
	h->top_magic = CGROUP2_SUPER_MAGIC;
	h->debugfs_magic = DEBUGFS_MAGIC;
}

int cgroup_enable_v2(const char *dir, const char *what, char *err, size_t errlen)
{
	char file[4096];

	if (cgroup_path_join(file, sizeof file, dir, "cgroup.subtree_control") < 0 ||
	    cgroup_write_ctl(file, what) < 0)
		return errf(err, errlen, "enable the %s controller in %s: %s", what + 1, dir,
			    strerror(errno));
	return 0;
}

int cgroup_home_adopt_scope(struct cgroup_home *h, const char *scope_dir, char *err, size_t errlen)
{
	char leaf[4096], procs[4096 + 16], pid[32], ctl[1024] = "", file[4096 + 32];
	struct cgroup_base *b = &h->base;

	if (cgroup_path_join(leaf, sizeof leaf, scope_dir, "monitor") < 0 ||
	    cgroup_path_join(procs, sizeof procs, leaf, "cgroup.procs") < 0)
		return errf(err, errlen, "%s: path too long", scope_dir);
	if (mkdir(leaf, 0755) < 0 && errno != EEXIST)
		return errf(err, errlen, "create %s: %s", leaf, strerror(errno));
	snprintf(pid, sizeof pid, "%ld", (long)getpid());
	if (cgroup_write_ctl(procs, pid) < 0)
		return errf(err, errlen, "move lrutop into %s: %s", leaf, strerror(errno));
	strlcpy_(h->scope, scope_dir, sizeof h->scope);
	h->tried = 1;
	h->mode = CGROUP_MODE_SCOPE;
	strlcpy_(b->v2_self, leaf, sizeof b->v2_self);
	if (cgroup_path_join(file, sizeof file, scope_dir, "cgroup.controllers") == 0)
		read_small_at(AT_FDCWD, file, ctl, sizeof ctl);
	ctl[strcspn(ctl, "\n")] = '\0';
	b->version = b->io_version = 0;
	b->enable_v2 = b->io_enable_v2 = 0;
	b->dir[0] = b->io_dir[0] = '\0';
	for (size_t c = 0; c < ARRAY_LEN(cgroup_ctls); c++) {
		char what[16], e[600];
		int ok;
		if (!cgroup_ctls[c].controller)
			continue;
		char *why = cgroup_ctls[c].bit == CGROUP_CTL_MEMORY ? h->why : h->io_why;
		size_t wl =
		    cgroup_ctls[c].bit == CGROUP_CTL_MEMORY ? sizeof h->why : sizeof h->io_why;
		snprintf(what, sizeof what, "+%s", cgroup_ctls[c].name);
		if (!cgroup_has_item(ctl, cgroup_ctls[c].name, " ")) {
			errf(why, wl,
			     "systemd delegated %s without the %s controller "
			     "(its cgroup.controllers: %s)",
			     scope_dir, cgroup_ctls[c].name, ctl[0] ? ctl : "empty");
			continue;
		}
		ok = cgroup_ctl_lists(scope_dir, "cgroup.subtree_control", cgroup_ctls[c].name) ||
		     cgroup_enable_v2(scope_dir, what, e, sizeof e) == 0;
		if (!ok) {
			snprintf(why, wl, "%s", e);
			continue;
		}
		if (cgroup_ctls[c].bit == CGROUP_CTL_MEMORY) {
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
	if (!cgroup_v2_in_use(b) || b->version == 1) {
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
	mi = cgroup_slurp("/proc/self/mountinfo");
	self = cgroup_slurp("/proc/self/cgroup");
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
		if (cgroup_home_enable_top(h, bit, e, sizeof e) < 0) {
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
	/* no limit at all: cgroup_create_in says so */
	if (limit && cgroup_home_available(h, err, errlen) < 0)
		return -1;
	if (io && cgroup_home_io_available(h, err, errlen) < 0)
		return -1;
	return cgroup_create_in(cg, &h->base, limit, io, tag, err, errlen);
}
