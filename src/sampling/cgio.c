#include "sampling/cgio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* "MAJ:MIN" at *p: 1 and *p past it when it names major:minor, 0 when it
 * names another device (or is no device number: "Total"). */
static int dev_is(const char **p, unsigned major, unsigned minor)
{
	char *e;
	const char *s = *p;
	if (*s < '0' || *s > '9')
		return 0;
	unsigned long ma = strtoul(s, &e, 10);
	if (*e != ':' || e[1] < '0' || e[1] > '9')
		return 0;
	unsigned long mi = strtoul(e + 1, &e, 10);
	if (*e != ' ' && *e != '\t')
		return 0;
	*p = e;
	return ma == major && mi == minor;
}

/* An unsigned decimal at s ending in a blank, newline or NUL: 0 or -1. */
static int number(const char *s, uint64_t *v)
{
	char *e;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 10);
	if (errno || (*e && *e != ' ' && *e != '\t' && *e != '\n'))
		return -1;
	*v = x;
	return 0;
}

int cgio_parse_v1(const char *text, unsigned major, unsigned minor, uint64_t *rd, uint64_t *wr)
{
	int found = 0, got_r = 0, got_w = 0;
	*rd = *wr = 0;
	for (const char *l = text, *next; l && *l; l = next) {
		const char *p = l;
		text_line(l, &next);
		if (!dev_is(&p, major, minor))
			continue;
		found = 1;
		while (*p == ' ' || *p == '\t')
			p++;
		uint64_t v;
		if (!strncmp(p, "Read ", 5)) {
			if (number(p + 5, &v) < 0)
				return -1;
			*rd = v, got_r = 1;
		} else if (!strncmp(p, "Write ", 6)) {
			if (number(p + 6, &v) < 0)
				return -1;
			*wr = v, got_w = 1;
		}
	}
	if (found && !(got_r && got_w))
		return -1;
	return found;
}

int cgio_parse_v2(const char *text, unsigned major, unsigned minor, uint64_t *rd, uint64_t *wr)
{
	*rd = *wr = 0;
	for (const char *l = text, *next; l && *l; l = next) {
		const char *p = l;
		text_line(l, &next);
		if (!dev_is(&p, major, minor))
			continue;
		int got_r = 0, got_w = 0;
		while (*p && *p != '\n') {
			while (*p == ' ' || *p == '\t')
				p++;
			if (!strncmp(p, "rbytes=", 7))
				got_r = number(p + 7, rd) == 0;
			else if (!strncmp(p, "wbytes=", 7))
				got_w = number(p + 7, wr) == 0;
			p += strcspn(p, " \t\n");
		}
		if (!got_r || !got_w) {
			*rd = *wr = 0;
			return -1;
		}
		return 1;
	}
	return 0;
}

struct cgio {
	int fd;
	char path[4096];
	char disk[64];
	unsigned major, minor;
	int have_dev;
	uint32_t gen;
	char buf[16384];
};

struct cgio *cgio_new(void)
{
	struct cgio *c = xcalloc(1, sizeof(*c));
	c->fd = -1;
	return c;
}

void cgio_close(struct cgio *c)
{
	if (c && c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
	if (c)
		c->path[0] = '\0';
}

void cgio_free(struct cgio *c)
{
	cgio_close(c);
	free(c);
}

/* The whole disk's device number: /sys/class/block/NAME/dev, or for a
 * partition its parent's (the cgroup counts I/O per whole disk). */
static int disk_dev(const char *disk, unsigned *major, unsigned *minor)
{
	char name[64], path[192], buf[32];
	if (strlcpy_(name, disk, sizeof(name)) >= sizeof(name) || !name[0])
		return -1;
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '!';
	snprintf(path, sizeof(path), "/sys/class/block/%s/partition", name);
	const char *fmt =
	    access(path, F_OK) == 0 ? "/sys/class/block/%s/../dev" : "/sys/class/block/%s/dev";
	snprintf(path, sizeof(path), fmt, name);
	if (read_small_at(AT_FDCWD, path, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%u:%u", major, minor) != 2)
		return -1;
	return 0;
}

int cgio_read(struct cgio *c, const char *path, int version, const char *disk, struct sample *s)
{
	if (!path || !*path || !disk || !*disk)
		return -1;
	if (strcmp(disk, c->disk) != 0) {
		strlcpy_(c->disk, disk, sizeof(c->disk));
		c->have_dev = disk_dev(disk, &c->major, &c->minor) == 0;
	}
	if (!c->have_dev)
		return -1;
	if (c->fd < 0 || strcmp(path, c->path) != 0) {
		cgio_close(c);
		c->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (c->fd < 0)
			return -1;
		strlcpy_(c->path, path, sizeof(c->path));
		c->gen++;
	}
	if (pread_small(c->fd, c->buf, sizeof(c->buf)) < 0)
		return -1;
	uint64_t rd, wr;
	int rc = version == 2 ? cgio_parse_v2(c->buf, c->major, c->minor, &rd, &wr)
			      : cgio_parse_v1(c->buf, c->major, c->minor, &rd, &wr);
	if (rc < 0)
		return -1;
	s->cg_rd_bytes = rd;
	s->cg_wr_bytes = wr;
	s->cg_io_gen = c->gen;
	s->have |= SAMPLE_HAVE_CG_IO | (version == 2 ? SAMPLE_HAVE_CG_IO_WB : 0);
	return 0;
}
