#include "screen/theme.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/glyphs.h"
#include "screen/chart.h"
#include "base/util.h"

#ifndef PREFIX
#define PREFIX "/usr/local"
#endif
#ifndef LRUTOP_SRCDIR
#define LRUTOP_SRCDIR "."
#endif

/* a theme file larger than this is not a theme */
#define THEME_FILE_MAX (256 * 1024)

void theme_default(struct theme *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "default");
	snprintf(t->description, sizeof(t->description), "built-in colours for a dark terminal");
	for (int r = 0; r < ROLE_COUNT; r++) {
		const struct role_style *st = palette_style((enum role)r);
		t->rgb[r] = st->rgb;
		t->term_fg[r] = (unsigned char)st->is_default_fg;
	}
	t->term_bg = 1;
	t->glyphs = -1;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "#RRGGBB" -> 0xRRGGBB; "default" -> *is_default = 1. */
static int parse_colour(const char *v, uint32_t *rgb, int *is_default)
{
	if (!strcmp(v, "default")) {
		*is_default = 1;
		*rgb = 0;
		return 0;
	}
	if (v[0] != '#' || strlen(v) != 7)
		return -1;
	uint32_t x = 0;
	for (int i = 1; i < 7; i++) {
		int h = hexval((unsigned char)v[i]);
		if (h < 0)
			return -1;
		x = x << 4 | (uint32_t)h;
	}
	*rgb = x;
	*is_default = 0;
	return 0;
}

static int parse_version(const char *v)
{
	/* "1" or "1.N" */
	if (!isdigit((unsigned char)v[0]))
		return -1;
	char *end;
	errno = 0;
	long major = strtol(v, &end, 10);
	if (errno || major < 0 || major > 1000000)
		return -1;
	if (*end == '.') {
		const char *m = end + 1;
		if (!isdigit((unsigned char)*m))
			return -1;
		while (isdigit((unsigned char)*m))
			m++;
		end = (char *)m;
	}
	return *end ? -1 : (int)major;
}

static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

/* One line (NUL-terminated, no newline) into t.  0 or -1 + err (reason only). */
static int parse_line(struct theme *t, char *line, char *err, size_t errlen)
{
	char *s = trim(line);
	if (!*s)
		return 0;
	if (*s == '#') {
		s = trim(s + 1);
		if (!strncmp(s, "description:", 12))
			snprintf(t->description, sizeof(t->description), "%s", trim(s + 12));
		return 0;
	}
	if (strncmp(s, "theme[", 6))
		return errf(err, errlen, "not a theme[key]=\"value\" line");
	char *key = s + 6, *close = strchr(key, ']');
	if (!close)
		return errf(err, errlen, "no ']' after theme[");
	*close = '\0';
	key = trim(key);
	char *v = trim(close + 1);
	if (*v != '=')
		return errf(err, errlen, "no '=' after theme[%.40s]", key);
	v = trim(v + 1);
	if (*v == '"') {
		/* the value ends at its closing quote; then only a # comment */
		char *q = strchr(v + 1, '"');
		if (!q)
			return errf(err, errlen, "theme[%.40s]: unterminated quote", key);
		char *rest = trim(q + 1);
		if (*rest && *rest != '#')
			return errf(err, errlen,
				    "theme[%.40s]: '%.40s' after the closing quote "
				    "(a comment starts with #)",
				    key, rest);
		*q = '\0';
		v = trim(v + 1);
	} else {
		/* unquoted: a # after a blank starts a comment ("#RRGGBB" stays) */
		for (char *c = v; *c; c++)
			if (*c == '#' && c > v && (c[-1] == ' ' || c[-1] == '\t')) {
				*c = '\0';
				v = trim(v);
				break;
			}
	}
	if (!strcmp(key, "version")) {
		int major = parse_version(v);
		if (major < 0)
			return errf(err, errlen, "version '%.40s': not N or N.M", v);
		if (major != THEME_VERSION_MAJOR)
			return errf(err, errlen, "version %.40s: this lrutop reads theme version %d",
				    v, THEME_VERSION_MAJOR);
		return 0;
	}
	if (!strcmp(key, "glyphs")) {
		int g = glyphs_parse(v);
		if (g < 0)
			return errf(err, errlen, "glyphs '%.40s': not braille, blocks or ascii", v);
		t->glyphs = g;
		return 0;
	}
	uint32_t rgb;
	int def;
	int role = palette_role_by_key(key);
	if (role < 0 && strcmp(key, "background"))
		return errf(err, errlen, "unknown key '%.40s'", key);
	if (parse_colour(v, &rgb, &def) < 0)
		return errf(err, errlen, "theme[%.40s]: bad colour '%.40s' (want \"#RRGGBB\" or "
				"\"default\")", key, v);
	if (role < 0) {
		t->bg = rgb;
		t->term_bg = def;
	} else {
		t->rgb[role] = rgb;
		t->term_fg[role] = (unsigned char)def;
	}
	return 0;
}

int theme_parse(struct theme *t, const char *text, const char *fname, char *err,
		size_t errlen)
{
	struct theme nt = *t;
	const char *p = text;
	char line[512], why[256];
	for (int lineno = 1; *p; lineno++) {
		size_t n = strcspn(p, "\n");
		if (n >= sizeof(line))
			return errf(err, errlen, "%s:%d: line too long", fname, lineno);
		memcpy(line, p, n);
		line[n] = '\0';
		if (parse_line(&nt, line, why, sizeof(why)) < 0)
			return errf(err, errlen, "%s:%d: %s", fname, lineno, why);
		p += n;
		if (*p == '\n')
			p++;
	}
	*t = nt;
	return 0;
}

int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen)
{
	char why[200];
	int fd = open_input(path, why, sizeof(why)); /* never waits on a FIFO */
	if (fd < 0)
		return errf(err, errlen, "%s: %s", path, why);
	FILE *f = fdopen(fd, "re");
	if (!f) {
		close(fd);
		return errf(err, errlen, "%s: %s", path, strerror(errno));
	}
	char *buf = xmalloc(THEME_FILE_MAX + 1);
	size_t n = fread(buf, 1, THEME_FILE_MAX + 1, f);
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		free(buf);
		return errf(err, errlen, "%s: read error", path);
	}
	if (n > THEME_FILE_MAX) {
		free(buf);
		return errf(err, errlen, "%s: larger than %d KiB, not a theme", path,
			    THEME_FILE_MAX / 1024);
	}
	if (memchr(buf, '\0', n)) {
		free(buf);
		return errf(err, errlen, "%s: a binary file, not a theme", path);
	}
	buf[n] = '\0';
	struct theme nt;
	theme_default(&nt);
	nt.description[0] = '\0';
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t bl = strlen(base);
	if (bl > 6 && !strcmp(base + bl - 6, ".theme"))
		bl -= 6;
	snprintf(nt.name, sizeof(nt.name), "%.*s", (int)bl, base);
	int rc = theme_parse(&nt, buf, path, err, errlen);
	free(buf);
	if (rc == 0)
		*t = nt;
	return rc;
}

/* The search directories in order; n of them filled (up to 3). */
static int theme_dirs(char dirs[3][4096])
{
	int n = 0;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	if (xdg && *xdg == '/')
		snprintf(dirs[n++], 4096, "%s/lrutop/themes", xdg);
	else if (home && *home)
		snprintf(dirs[n++], 4096, "%s/.config/lrutop/themes", home);
	snprintf(dirs[n++], 4096, "%s/share/lrutop/themes", PREFIX);
	snprintf(dirs[n++], 4096, "%s/themes", LRUTOP_SRCDIR);
	return n;
}

static int valid_name(const char *name)
{
	return *name && strlen(name) < THEME_NAME_MAX && name[0] != '.';
}

int theme_find(const char *name, char *path, size_t pathlen, char *err, size_t errlen)
{
	if (!name || !*name)
		return errf(err, errlen, "-t: empty theme name");
	if (strchr(name, '/')) {
		if ((size_t)snprintf(path, pathlen, "%s", name) >= pathlen)
			return errf(err, errlen, "-t %s: path too long", name);
		return 0;
	}
	if (!valid_name(name))
		return errf(err, errlen, "-t %s: not a theme name", name);
	char dirs[3][4096];
	int n = theme_dirs(dirs);
	struct stat st;
	for (int i = 0; i < n; i++) {
		if ((size_t)snprintf(path, pathlen, "%s/%s.theme", dirs[i], name) >= pathlen)
			continue;
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
	}
	return errf(err, errlen, "-t %s: no theme of that name (--list-themes lists them)", name);
}

int theme_load(struct theme *t, const char *name, char *err, size_t errlen)
{
	char path[4096];
	if (theme_find(name, path, sizeof(path), err, errlen) < 0) {
		if (name && !strcmp(name, "default")) {
			theme_default(t);
			return 0;
		}
		return -1;
	}
	return theme_load_file(t, path, err, errlen);
}

/* The description of a theme file ("" when it has none or is unreadable). */
static void read_description(const char *path, char *out, size_t len)
{
	struct theme t;
	char err[256];
	out[0] = '\0';
	if (theme_load_file(&t, path, err, sizeof(err)) == 0)
		snprintf(out, len, "%s", t.description);
	else
		snprintf(out, len, "(broken: %.100s)", err);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct theme_entry *)a)->name, ((const struct theme_entry *)b)->name);
}

size_t theme_list(struct theme_entry *out, size_t max)
{
	char dirs[3][4096];
	int nd = theme_dirs(dirs);
	size_t n = 0;
	for (int i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		if (!d)
			continue;
		struct dirent *de;
		while ((de = readdir(d)) && n < max) {
			size_t l = strlen(de->d_name);
			if (l <= 6 || strcmp(de->d_name + l - 6, ".theme") || de->d_name[0] == '.' ||
			    l - 6 >= THEME_NAME_MAX)
				continue;
			char name[THEME_NAME_MAX];
			snprintf(name, sizeof(name), "%.*s", (int)(l - 6), de->d_name);
			int seen = 0;
			for (size_t k = 0; k < n && !seen; k++)
				seen = !strcmp(out[k].name, name);
			if (seen)
				continue;
			struct theme_entry *e = &out[n];
			snprintf(e->name, sizeof(e->name), "%s", name);
			if ((size_t)snprintf(e->path, sizeof(e->path), "%s/%s", dirs[i], de->d_name) >=
			    sizeof(e->path))
				continue;
			struct stat st;
			if (stat(e->path, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			read_description(e->path, e->description, sizeof(e->description));
			n++;
		}
		closedir(d);
	}
	qsort(out, n, sizeof(*out), entry_cmp);
	return n;
}

void theme_next(const char *cur, char *next, size_t len)
{
	struct theme_entry *e = xcalloc(THEME_LIST_MAX, sizeof(*e));
	size_t n = theme_list(e, THEME_LIST_MAX);
	size_t i = 0;
	while (i < n && strcmp(e[i].name, cur))
		i++;
	/* cur not listed (a -t PATH): the first one */
	snprintf(next, len, "%s", n == 0 ? "default" : e[i < n ? (i + 1) % n : 0].name);
	free(e);
}
