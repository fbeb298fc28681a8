/*
 * sampling/mountinfo: the one /proc/self/mountinfo parser (device.c's
 * mount lookup and runs/cgroup's hierarchies both use it) — a line
 * (mountinfo_parse), the escapes (mountinfo_unescape, mountinfo_escape),
 * the iterator, an option's value (mountinfo_option) and which mount holds
 * a path (mountinfo_covers).
 *
 * Input: mountinfo text; each line is parsed, the whole text iterated.
 * Contract: a parsed entry's strings lie inside the line; fstype is not
 * empty; optional is blank-separated non-empty tags, none "-"; written
 * back as the kernel writes a line (each field escaped) and parsed again,
 * the entry is the same, numbers and bytes.  Decoding any text leaves no
 * NUL in it (the length it returns is strlen) and never lengthens it;
 * escaping any text leaves no blank, tab or newline, and decodes back to
 * the text.  The iterator returns exactly the lines that parse alone, the
 * same.  An option value found is non-empty, fits, holds no ',' or ':'
 * and follows its key; mountinfo_covers returns 0, 1 for "/", or the
 * mount point's length when the path starts with it at a '/' boundary.
 */
#include "fuzz.h"

#include "sampling/mountinfo.h"
#include "base/util.h"

#include <stdio.h>

static int inside(const char *p, const char *buf, size_t len)
{
	return p >= buf && p <= buf + len;
}

static void check_option(const char *opts, const char *key)
{
	char out[16];
	size_t n;

	if (mountinfo_option(opts, key, out, sizeof(out)) < 0)
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

static void check_covers(const char *mp)
{
	size_t mlen = strlen(mp);

	for (size_t i = 0; i < ARRAY_LEN(paths); i++) {
		size_t c = mountinfo_covers(mp, paths[i]);
		if (!strcmp(mp, "/"))
			FUZZ_REQUIRE(c == 1);
		else if (c)
			FUZZ_REQUIRE(c == mlen && !strncmp(paths[i], mp, mlen) &&
				     (paths[i][mlen] == '/' || paths[i][mlen] == '\0'));
	}
}

/* Decoding never makes a NUL nor grows; escaping hides every blank and
 * decodes back. */
static void check_escapes(const char *s)
{
	size_t len = strlen(s), cap = 4 * len + 1;
	char *d = xstrdup(s), *esc = xmalloc(cap);

	size_t n = mountinfo_unescape(d);
	FUZZ_REQUIRE(n == strlen(d) && n <= len && (len - n) % 3 == 0);
	FUZZ_REQUIRE(mountinfo_escape(s, esc, cap) == 0);
	FUZZ_REQUIRE(!strpbrk(esc, " \t\n"));
	FUZZ_REQUIRE(mountinfo_unescape(esc) == len && strcmp(esc, s) == 0);
	free(d);
	free(esc);
}

static int same_entry(const struct mountinfo_entry *a, const struct mountinfo_entry *b)
{
	return a->id == b->id && a->parent == b->parent && a->major == b->major &&
	       a->minor == b->minor && !strcmp(a->root, b->root) &&
	       !strcmp(a->mountpoint, b->mountpoint) && !strcmp(a->opts, b->opts) &&
	       !strcmp(a->optional, b->optional) && !strcmp(a->fstype, b->fstype) &&
	       !strcmp(a->source, b->source) && !strcmp(a->super, b->super);
}

/* e written back as the kernel writes a line: each field escaped; a heap
 * string. */
static char *write_back(const struct mountinfo_entry *e)
{
	const char *f[] = {e->root, e->mountpoint, e->opts, e->fstype, e->source, e->super};
	char *esc[ARRAY_LEN(f)], *out;
	size_t len = strlen(e->optional) + 64;

	for (size_t i = 0; i < ARRAY_LEN(f); i++) {
		size_t cap = 4 * strlen(f[i]) + 1;
		esc[i] = xmalloc(cap);
		FUZZ_REQUIRE(mountinfo_escape(f[i], esc[i], cap) == 0);
		len += strlen(esc[i]) + 1;
	}
	out = xmalloc(len);
	int n = snprintf(out, len, "%u %u %u:%u %s %s %s%s%s - %s %s%s%s", e->id, e->parent,
			 e->major, e->minor, esc[0], esc[1], esc[2], e->optional[0] ? " " : "",
			 e->optional, esc[3], esc[4], e->super[0] ? " " : "", esc[5]);
	FUZZ_REQUIRE(n > 0 && (size_t)n < len);
	for (size_t i = 0; i < ARRAY_LEN(f); i++)
		free(esc[i]);
	return out;
}

/* optional: tags between single blanks, none empty, none "-". */
static void check_optional(const char *o)
{
	const char *t = o;
	size_t n;

	if (!*o)
		return;
	for (;; t += n + 1) {
		n = strcspn(t, " ");
		FUZZ_REQUIRE(n > 0 && !(n == 1 && t[0] == '-'));
		if (!t[n])
			return;
	}
}

/* 1 when line parses (and keeps the contract). */
static int check_line(const char *line)
{
	size_t len = strlen(line);
	char *copy = xstrdup(line);
	struct mountinfo_entry e, again;
	int ok = mountinfo_parse(copy, &e) == 0;

	if (ok) {
		const char *f[] = {e.root,   e.mountpoint, e.opts, e.optional,
				   e.fstype, e.source,	   e.super};
		for (size_t i = 0; i < ARRAY_LEN(f); i++)
			FUZZ_REQUIRE(inside(f[i], copy, len));
		FUZZ_REQUIRE(e.fstype[0] && e.root[0] && e.mountpoint[0] && e.opts[0]);
		check_optional(e.optional);

		char *back = write_back(&e);
		FUZZ_REQUIRE(mountinfo_parse(back, &again) == 0 && same_entry(&e, &again));
		free(back);

		check_option(e.super, "upperdir=");
		check_option(e.super, "lowerdir=");
		check_covers(e.mountpoint);
	}
	free(copy);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	char *line, *next;
	struct mountinfo mi;
	struct mountinfo_entry e, alone;
	unsigned k = 0;

	mountinfo_init_text(&mi, buf);
	check_escapes(buf);
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		k++;
		if (check_line(line)) {
			/* the iterator gives the same entry, in turn, with its line */
			char *copy = xstrdup(line);
			FUZZ_REQUIRE(mountinfo_parse(copy, &alone) == 0);
			FUZZ_REQUIRE(mountinfo_next(&mi, &e) == 1 && same_entry(&e, &alone) &&
				     mi.line == k);
			free(copy);
		}
		check_option(line, "lowerdir=");
	}
	FUZZ_REQUIRE(mountinfo_next(&mi, &e) == 0);
	mountinfo_done(&mi);
	mountinfo_done(&mi);
	free(buf);
	return 0;
}
