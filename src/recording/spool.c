#include "recording/spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

void spool_dir_of(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(out, len, ".");
	else if (slash == path)
		snprintf(out, len, "/");
	else
		snprintf(out, len, "%.*s", (int)(slash - path), path);
}

FILE *spool_file(const char *dir)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0 && errno != ENOENT && errno != ENOTDIR && errno != EACCES) {
		/* a file system without O_TMPFILE: a name for an instant */
		char path[4200];
		snprintf(path, sizeof(path), "%s/.lrutop-spool.XXXXXX", dir);
		fd = mkostemp(path, O_CLOEXEC);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0)
		return NULL;
	FILE *f = fdopen(fd, "w+");
	if (!f)
		close_keep_errno(fd);
	return f;
}

FILE *spool_file_near(const char *path)
{
	char dir[4096];
	spool_dir_of(path, dir, sizeof(dir));
	const char *tmp = getenv("TMPDIR");
	const char *dirs[] = {dir, tmp && *tmp ? tmp : "/var/tmp", "/var/tmp", "/tmp"};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		FILE *f = spool_file(dirs[i]);
		if (f)
			return f;
	}
	return NULL;
}

int spool_copy(FILE *f, FILE *out)
{
	char buf[65536];
	if (fflush(f) == EOF || fseek(f, 0, SEEK_SET) != 0)
		return -1;
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			return -1;
	return ferror(f) || ferror(out) ? -1 : 0;
}
