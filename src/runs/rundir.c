#include "runs/rundir.h"
#include "base/util.h"

#include <errno.h>
#include <linux/magic.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* The name of a memory-only filesystem type, NULL for anything else. */
static const char *memory_fs(unsigned long type)
{
	if (type == TMPFS_MAGIC)
		return "tmpfs";
	if (type == RAMFS_MAGIC)
		return "ramfs";
	return NULL;
}

int rundir_check(const char **dirp, char *parent, size_t plen, char *err, size_t errlen)
{
	struct stat st;
	struct statfs sf;
	struct statvfs sv;
	size_t len;

	if (!*dirp || !**dirp)
		*dirp = RUNDIR_DEFAULT;
	const char *parent_dir = *dirp;
	if (strlcpy_(parent, parent_dir, plen) >= plen)
		return errf(err, errlen, "--dir %.64s...: path too long", parent_dir);
	len = strlen(parent);
	while (len > 1 && parent[len - 1] == '/')
		parent[--len] = '\0';

	if (stat(parent, &st) < 0)
		return errf(err, errlen, "--dir %s: %s", parent_dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return errf(err, errlen, "--dir %s: not a directory", parent_dir);
	if (statfs(parent, &sf) == 0 && memory_fs(sf.f_type))
		return errf(err, errlen,
			    "--dir %s: on %s, no disk I/O would happen (use a directory on a disk)",
			    parent_dir, memory_fs(sf.f_type));
	if (statvfs(parent, &sv) == 0 && (sv.f_flag & ST_RDONLY))
		return errf(err, errlen, "--dir %s: read-only file system", parent_dir);
	return 0;
}

int rundir_check_space(const char *parent_dir, uint64_t need_bytes, char *err, size_t errlen)
{
	char parent[4096];
	struct statvfs sv;

	if (rundir_check(&parent_dir, parent, sizeof parent, err, errlen) < 0)
		return -1;
	if (access(parent, W_OK | X_OK) < 0)
		return errf(err, errlen, "--dir %s: cannot create a directory there: %s",
			    parent_dir, strerror(errno));
	if (statvfs(parent, &sv) < 0)
		return errf(err, errlen, "--dir %s: %s", parent_dir, strerror(errno));
	return rundir_room(&sv, parent_dir, need_bytes, err, errlen);
}

int rundir_room(const struct statvfs *sv, const char *name, uint64_t need_bytes, char *err,
		size_t errlen)
{
	char need[32], have[32];
	uint64_t avail = (uint64_t)sv->f_bavail * (uint64_t)sv->f_frsize;

	if (avail >= need_bytes)
		return 0;
	fmt_size(need, sizeof need, need_bytes);
	fmt_size(have, sizeof have, avail);
	return errf(err, errlen, "--dir %s: needs %s free, only %s available", name, need, have);
}
