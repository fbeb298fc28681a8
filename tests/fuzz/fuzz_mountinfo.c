/*
 * device.c's /proc/self/mountinfo reader: parse_mount (one line, split in
 * place), unescape (\040-style octal escapes), mount_option (upperdir= /
 * lowerdir= of an overlay) and mount_covers (which mount holds a path).
 * They are static; including device.c reaches them without widening the
 * module's interface.
 *
 * Input: mountinfo text; each line is parsed.  Contract: a parsed entry's
 * fields lie inside the line and are non-empty (opts may be empty);
 * unescape never lengthens a string; an option value found is non-empty,
 * fits its buffer, holds no ',' or ':' and follows its key in the options;
 * mount_covers returns 0, 1 for "/", or the mount point's length when the
 * path starts with it at a '/' boundary.
 */
#include "fuzz.h"

#include "sampling/device.c"

static int inside(const char *p, const char *buf, size_t len)
{
	return p >= buf && p <= buf + len;
}

static void check_option(const char *opts, const char *key)
{
	char out[16];
	size_t n;

	if (mount_option(opts, key, out, sizeof(out)) < 0)
		return;
	n = strlen(out);
	FUZZ_REQUIRE(n > 0 && n < sizeof(out));
	FUZZ_REQUIRE(!strchr(out, ',') && !strchr(out, ':'));
	const char *at = strstr(opts, key);
	FUZZ_REQUIRE(at);
	int follows = 0;
	for (; at; at = strstr(at + 1, key))
		follows |= !strncmp(at + strlen(key), out, n);
	FUZZ_REQUIRE(follows);
}

/* Paths asked about: mount points of the seeds cover some, miss others. */
static const char *const paths[] = {"/", "/var/tmp/x", "/mnt", "/mnt/a b", "/proc"};

static void check_line(char *line)
{
	size_t len = strlen(line);
	char *copy = xstrdup(line);
	struct mount_entry e;

	/* unescape alone */
	unescape(copy);
	FUZZ_REQUIRE(strlen(copy) <= len);
	strcpy(copy, line);

	if (parse_mount(copy, &e) == 0) {
		FUZZ_REQUIRE(inside(e.mountpoint, copy, len) && inside(e.fstype, copy, len) &&
			     inside(e.source, copy, len));
		FUZZ_REQUIRE(e.fstype[0] && !strchr(e.fstype, ' '));
		FUZZ_REQUIRE(e.opts[0] == '\0' || inside(e.opts, copy, len));
		check_option(e.opts, "upperdir=");
		check_option(e.opts, "lowerdir=");

		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
			const char *path = paths[i];
			size_t c = mount_covers(e.mountpoint, path);
			size_t mlen = strlen(e.mountpoint);

			if (!strcmp(e.mountpoint, "/"))
				FUZZ_REQUIRE(c == 1);
			else if (c)
				FUZZ_REQUIRE(c == mlen && !strncmp(path, e.mountpoint, mlen) &&
					     (path[mlen] == '/' || path[mlen] == '\0'));
		}
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	char *line = buf, *next;

	for (; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		check_line(line);
		check_option(line, "lowerdir=");
	}
	free(buf);
	return 0;
}
