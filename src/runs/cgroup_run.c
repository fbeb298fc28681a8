#include "runs/cgroup_int.h"
#include "sampling/kvfile.h"
#include "base/util.h"

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

int cgroup_fill_paths(struct cgroup *cg)
{
	const char *usage = cg->version == 2 ? "memory.current" : "memory.usage_in_bytes";
	const char *peak = cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes";

	if (cgroup_path_join(cg->procs, sizeof cg->procs, cg->path, "cgroup.procs") < 0 ||
	    cgroup_path_join(cg->stat, sizeof cg->stat, cg->path, "memory.stat") < 0 ||
	    cgroup_path_join(cg->usage, sizeof cg->usage, cg->path, usage) < 0 ||
	    cgroup_path_join(cg->peak, sizeof cg->peak, cg->path, peak) < 0 ||
	    cgroup_path_join(cg->events, sizeof cg->events, cg->path, "cgroup.events") < 0)
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
	if (cgroup_path_join(file, sizeof file, cg->path, lim) < 0)
		return errf(err, errlen, "cgroup %s: path too long", cg->path);
	if (cgroup_write_ctl(file, val) < 0)
		return errf(err, errlen, "set %s to %s: %s", file, val, strerror(errno));
	/* The kernel rounds the limit to pages: keep what it really is. */
	if (read_small_at(AT_FDCWD, file, back, sizeof back) > 0 && back[0] >= '0' &&
	    back[0] <= '9')
		cg->limit = strtoull(back, NULL, 10);
	/* No swapping around the limit; where there is no swap accounting
	 * the file is absent or refuses, and there is nothing to limit. */
	if (cgroup_path_join(file, sizeof file, cg->path, swap) == 0 && access(file, W_OK) == 0)
		cgroup_write_ctl(file, cg->version == 2 ? "0" : val);
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
	if (cgroup_fill_paths(cg) < 0)
		return errf(err, errlen, "cgroup %s: path too long", cg->path);
	if (set_limit(cg, err, errlen) < 0)
		return -1;
	cg->created = 1;
	return 0;
}

/* val into the control file name of the cgroup dir.  0 or -1 + err. */
static int write_ctl_in(const char *dir, const char *name, const char *val, char *err,
			size_t errlen)
{
	char file[4096];

	if (cgroup_path_join(file, sizeof file, dir, name) < 0)
		return errf(err, errlen, "cgroup %s: path too long", dir);
	if (cgroup_write_ctl(file, val) < 0)
		return errf(err, errlen, "set %s to \"%s\": %s", file, val, strerror(errno));
	return 0;
}

int cgroup_write_io(int version, const char *dir, const struct cgroup_io *io, char *err,
		    size_t errlen)
{
	char val[96];

	if (version == 2) {
		snprintf(val, sizeof val, "%u:%u rbps=%" PRIu64 " wbps=%" PRIu64, io->major,
			 io->minor, io->bps, io->bps);
		return write_ctl_in(dir, "io.max", val, err, errlen);
	}
	snprintf(val, sizeof val, "%u:%u %" PRIu64, io->major, io->minor, io->bps);
	if (write_ctl_in(dir, "blkio.throttle.read_bps_device", val, err, errlen) < 0)
		return -1;
	return write_ctl_in(dir, "blkio.throttle.write_bps_device", val, err, errlen);
}

/* cg->io_stat: the counters file in dir, "" when it is not there. */
static void set_io_stat(struct cgroup *cg, int version, const char *dir)
{
	cg->io_stat_version = version;
	if (cgroup_path_join(cg->io_stat, sizeof cg->io_stat, dir,
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
		if (cgroup_path_join(path, sizeof path, b->dir, name) < 0)
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
	if (cgroup_path_join(path, sizeof path, b->io_dir, name) < 0)
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
		if (cgroup_path_join(cg->procs, sizeof cg->procs, path, "cgroup.procs") < 0 ||
		    (cg->version == 2 &&
		     cgroup_path_join(cg->events, sizeof cg->events, path, "cgroup.events") < 0)) {
			rmdir(path);
			return errf(err, errlen, "cgroup %s: path too long", path);
		}
		cg->created = 1;
		set_io_stat(cg, cg->version, path);
		return 0;
	}
	cg->io_version = b->io_version;
	strlcpy_(cg->io_path, path, sizeof cg->io_path);
	if (cgroup_path_join(cg->io_procs, sizeof cg->io_procs, path, "cgroup.procs") < 0) {
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
	/* no limit at all: cgroup_create_in says so */
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
		return cgroup_has_item(buf, "populated 0", "\n");
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
	    cgroup_path_join(file, sizeof file, cg->path,
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
		    cgroup_path_join(io.events, sizeof io.events, io.path, "cgroup.events") < 0)
			io.events[0] = '\0';
		if (remove_one(&io, rc < 0 ? NULL : err, errlen) == 0)
			cg->io_created = 0;
		else
			rc = -1;
	}
	return rc;
}
