#include "runs/cgroup_int.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
		if (cgroup_path_join(cg.path, sizeof cg.path, dir, e->d_name) < 0 ||
		    cgroup_fill_paths(&cg) < 0)
			continue;
		cg.created = 1;
		if (io_dir[0] &&
		    cgroup_path_join(cg.io_path, sizeof cg.io_path, io_dir, e->d_name) == 0 &&
		    cgroup_path_join(cg.io_procs, sizeof cg.io_procs, cg.io_path, "cgroup.procs") ==
			0 &&
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
		if (cgroup_path_join(scope, sizeof scope, dir, e->d_name) < 0)
			continue;
		struct cgroup mon;
		memset(&mon, 0, sizeof mon);
		mon.version = 2;
		mon.created = 1;
		/* lrutop's scope: the monitor leaf is the first thing it makes
		 * there; a scope of that name without it is not ours to empty */
		if (cgroup_path_join(mon.path, sizeof mon.path, scope, "monitor") < 0 ||
		    access(mon.path, F_OK) != 0)
			continue;
		m = reap_dir(2, scope, 0, "", pid_out, 0);
		if (cgroup_fill_paths(&mon) == 0 && cgroup_remove(&mon, NULL, 0) == 0 && !m)
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

	/* markers of gone owners first (cgroup_mark.c) */
	int r = cgroup_marks_reap(h);
	if (restored)
		*restored = r;
	if (!root && h->mode == CGROUP_MODE_SCOPE) {
		/* the user's own scopes beside the one its manager delegated */
		strlcpy_(slice, h->scope, sizeof slice);
		char *slash = strrchr(slice, '/');
		if (!slash)
			return 0;
		*slash = '\0';
		return cgroup_reap_scopes(slice, pid_out);
	}
	mi = cgroup_slurp("/proc/self/mountinfo");
	self = cgroup_slurp("/proc/self/cgroup");
	if (!mi || !self) {
		free(mi);
		free(self);
		return 0;
	}
	if ((cgroup_find_base(mi, self, h->root, &b, why, sizeof why) == 0 || b.io_version) && root)
		n = cgroup_reap_stale(&b, pid_out);
	free(mi);
	free(self);
	if (b.v2 && cgroup_v2_in_use(&b)) {
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
