#include "sampling/mountinfo.h"

#include "base/util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t mountinfo_unescape(char *s)
{
	char *o = s, *start = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7' && (s[1] != '0' || s[2] != '0' || s[3] != '0')) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
	return (size_t)(o - start);
}

int mountinfo_escape(const char *s, char *out, size_t len)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		int esc = c == ' ' || c == '\t' || c == '\n' || c == '\\';
		if (n + (esc ? 4 : 1) >= len) {
			if (len)
				out[0] = '\0';
			return -1;
		}
		if (esc)
			n += (size_t)snprintf(out + n, len - n, "\\%03o", c);
		else
			out[n++] = (char)c;
	}
	if (n >= len)
		return -1;
	out[n] = '\0';
	return 0;
}

/* The next blank-separated field of *p, NUL-terminated in place ("" for
 * an empty one between two blanks); *p moves past it, NULL after the
 * last.  NULL when there is none left. */
static char *field(char **p)
{
	char *s = *p, *blank;

	if (!s)
		return NULL;
	blank = strchr(s, ' ');
	if (blank) {
		*blank = '\0';
		*p = blank + 1;
	} else {
		*p = NULL;
	}
	return s;
}

/* A plain decimal that fits an unsigned: digits only. */
static int number(const char *s, unsigned *out)
{
	unsigned long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > UINT_MAX)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

int mountinfo_parse(char *line, struct mountinfo_entry *e)
{
	char *p = line, *f[6], *colon, *opt, *sep;

	memset(e, 0, sizeof *e);
	line[strcspn(line, "\n")] = '\0';
	for (int i = 0; i < 6; i++) {
		f[i] = field(&p);
		if (!f[i] || !f[i][0])
			return -1;
	}
	colon = strchr(f[2], ':');
	if (!colon)
		return -1;
	*colon = '\0';
	if (number(f[0], &e->id) < 0 || number(f[1], &e->parent) < 0 ||
	    number(f[2], &e->major) < 0 || number(colon + 1, &e->minor) < 0)
		return -1;
	/* the optional fields, each non-empty, up to the field "-" */
	for (opt = sep = p;; sep++) {
		size_t n;
		if (!sep)
			return -1;
		n = strcspn(sep, " ");
		if (n == 0)
			return -1;
		if (n == 1 && sep[0] == '-')
			break;
		sep += n;
		if (*sep != ' ')
			return -1; /* the line ends without the separator */
	}
	if (sep[1] != ' ')
		return -1; /* nothing after it */
	sep[0] = '\0';
	if (sep > opt)
		sep[-1] = '\0';
	e->optional = sep > opt ? opt : sep;
	p = sep + 2;
	e->fstype = field(&p);
	e->source = field(&p);
	if (!e->fstype[0] || !e->source)
		return -1;
	e->super = field(&p);
	if (!e->super) /* absent: the empty string that ends source */
		e->super = e->source + strlen(e->source);
	e->root = f[3];
	e->mountpoint = f[4];
	e->opts = f[5];
	char *const decoded[] = {e->root, e->mountpoint, e->opts, e->fstype, e->source, e->super};
	for (size_t i = 0; i < ARRAY_LEN(decoded); i++)
		mountinfo_unescape(decoded[i]);
	return 0;
}

size_t mountinfo_covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	if (strncmp(mp, path, n) || (path[n] != '/' && path[n] != '\0'))
		return 0;
	return n;
}

int mountinfo_option(const char *opts, const char *key, char *out, size_t outlen)
{
	size_t klen = strlen(key);
	const char *p = opts;

	while (p && *p) {
		if (!strncmp(p, key, klen)) {
			const char *v = p + klen;
			size_t n = strcspn(v, ",:");

			if (n == 0 || n >= outlen)
				return -1;
			memcpy(out, v, n);
			out[n] = '\0';
			return 0;
		}
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return -1;
}

void mountinfo_init_text(struct mountinfo *mi, const char *text)
{
	mi->text = xstrdup(text);
	mi->next = mi->text;
	mi->line = 0;
}

int mountinfo_init_file(struct mountinfo *mi, const char *path)
{
	FILE *f = fopen(path, "re");
	size_t cap = 0;
	ssize_t n;
	int e, empty;

	memset(mi, 0, sizeof *mi);
	if (!f)
		return -1;
	/* /proc files say size 0: read to the end, whatever it is */
	n = getdelim(&mi->text, &cap, '\0', f);
	e = errno;
	empty = n < 0 && feof(f) && !ferror(f);
	fclose(f);
	if (n < 0) {
		free(mi->text);
		mi->text = NULL;
		if (!empty) {
			errno = e;
			return -1;
		}
		mi->text = xstrdup("");
	}
	mi->next = mi->text;
	return 0;
}

int mountinfo_next(struct mountinfo *mi, struct mountinfo_entry *e)
{
	while (mi->next && *mi->next) {
		char *line = mi->next, *nl = strchr(line, '\n');
		if (nl) {
			*nl = '\0';
			mi->next = nl + 1;
		} else {
			mi->next = NULL;
		}
		mi->line++;
		if (mountinfo_parse(line, e) == 0)
			return 1;
	}
	return 0;
}

void mountinfo_done(struct mountinfo *mi)
{
	free(mi->text);
	mi->text = mi->next = NULL;
}
