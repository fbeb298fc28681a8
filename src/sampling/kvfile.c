#include "sampling/kvfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

/* /proc/vmstat is ~4 KiB on 6.x, memory.stat ~1.5 KiB; leave room. */
#define KVFILE_BUF 32768

struct kvfile {
	int fd;
	const char *const *keys;
	size_t nkeys;
	char buf[KVFILE_BUF];
};

struct kvfile *kvfile_open(const char *path, const char *const *keys, size_t nkeys, char *err,
			   size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct kvfile *kv = xmalloc(sizeof(*kv));
	kv->fd = fd;
	kv->keys = keys;
	kv->nkeys = nkeys;
	return kv;
}

void kvfile_free(struct kvfile *kv)
{
	if (!kv)
		return;
	close(kv->fd);
	free(kv);
}

static ssize_t kvfile_load(struct kvfile *kv)
{
	ssize_t n = pread_small(kv->fd, kv->buf, sizeof(kv->buf));
	if (n < 0)
		return -1;
	/* A file that fills the buffer may go on past it: drop the cut-off last
	 * line rather than read "key 12" out of "key 12345". */
	if ((size_t)n == sizeof(kv->buf) - 1) {
		char *nl = strrchr(kv->buf, '\n');
		if (nl)
			nl[1] = '\0';
	}
	return n;
}

static int parse_u64(const char *p, const char **end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = p;
	if (*s < '0' || *s > '9')
		return -1;
	while (*s >= '0' && *s <= '9') {
		uint64_t d = (uint64_t)(*s - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
		s++;
	}
	*out = v;
	*end = s;
	return 0;
}

int kvfile_parse(const char *buf, const char *const *keys, size_t nkeys, uint64_t *vals)
{
	int found = 0;
	for (size_t i = 0; i < nkeys; i++)
		vals[i] = KVFILE_MISSING;
	for (const char *line = buf, *next; line && *line; line = next) {
		const char *eol = line + text_line(line, &next);
		const char *sp = line;
		while (sp < eol && *sp != ' ' && *sp != '\t')
			sp++;
		size_t klen = (size_t)(sp - line);
		for (size_t i = 0; i < nkeys && klen; i++) {
			if (keys[i][0] != line[0] || vals[i] != KVFILE_MISSING ||
			    strlen(keys[i]) != klen || memcmp(keys[i], line, klen) != 0)
				continue;
			const char *p = sp;
			while (p < eol && (*p == ' ' || *p == '\t'))
				p++;
			const char *end;
			uint64_t v;
			if (parse_u64(p, &end, &v) == 0 && end <= eol) {
				vals[i] = v;
				found++;
			}
			break;
		}
		if (found == (int)nkeys)
			break; /* /proc/vmstat: our keys sit in its first third */
	}
	return found;
}

int kvfile_read(struct kvfile *kv, uint64_t *vals)
{
	if (kvfile_load(kv) < 0)
		return -1;
	return kvfile_parse(kv->buf, kv->keys, kv->nkeys, vals);
}

int kvfile_read_number(struct kvfile *kv, uint64_t *val)
{
	if (kvfile_load(kv) < 0)
		return -1;
	const char *end;
	if (parse_u64(kv->buf, &end, val) < 0)
		*val = KVFILE_MISSING; /* "max" */
	return 0;
}

/* "12.34" as the kernel prints it.  Not strtod: main() calls setlocale(),
 * and in a locale with a decimal comma strtod would stop at the '.'; it
 * would also accept "nan", "inf", hex and skip a newline into the next
 * line. */
static int parse_decimal(const char *p, double *out)
{
	uint64_t ip;
	const char *e;
	if (parse_u64(p, &e, &ip) < 0)
		return -1;
	double v = (double)ip, scale = 0.1;
	if (*e == '.')
		for (e++; *e >= '0' && *e <= '9'; e++, scale /= 10)
			v += (*e - '0') * scale;
	*out = v;
	return 0;
}

static int psi_field(const char *line, const char *eol, const char *name, double *d, uint64_t *u)
{
	size_t n = strlen(name);
	for (const char *p = line; p + n < eol; p++) {
		if ((p == line || p[-1] == ' ') && memcmp(p, name, n) == 0 && p[n] == '=') {
			if (d)
				return parse_decimal(p + n + 1, d);
			const char *e2;
			return parse_u64(p + n + 1, &e2, u);
		}
	}
	return -1;
}

int kvfile_parse_psi(const char *buf, struct psi *psi)
{
	int got = 0;
	memset(psi, 0, sizeof(*psi));
	for (const char *line = buf, *next; line && *line; line = next) {
		const char *eol = line + text_line(line, &next);
		double *avg = NULL;
		uint64_t *tot = NULL;
		if (strncmp(line, "some ", 5) == 0) {
			avg = &psi->some_avg10;
			tot = &psi->some_total;
		} else if (strncmp(line, "full ", 5) == 0) {
			avg = &psi->full_avg10;
			tot = &psi->full_total;
		}
		if (avg && psi_field(line, eol, "avg10", avg, NULL) == 0 &&
		    psi_field(line, eol, "total", NULL, tot) == 0)
			got++;
	}
	return got ? 0 : -1;
}

int kvfile_read_psi(struct kvfile *kv, struct psi *psi)
{
	if (kvfile_load(kv) < 0)
		return -1;
	return kvfile_parse_psi(kv->buf, psi);
}
