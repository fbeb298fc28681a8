/*
 * stranger — someone else's file where lrutop made one: the fixture the
 * ownfile and outfile suites share (issue 26's "rm PATH; echo DATA >
 * PATH"), and the small file readers and writers it needs.  Include after
 * cmocka.h (it asserts).  static inline: a suite that does not use one
 * gets no unused-function warning.
 */
#ifndef LRUTOP_STRANGER_H
#define LRUTOP_STRANGER_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* text as the whole of a new (or emptied) file at path. */
static inline void st_put(const char *path, const char *text)
{
	FILE *f = fopen(path, "we");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file at path into buf (len bytes, NUL-terminated); "" when it is
 * not there. */
static inline char *st_get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	buf[0] = '\0';
	if (!f)
		return buf;
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static inline ino_t st_ino(const char *path)
{
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	return st.st_ino;
}

/* Someone else's file at path with the text "USER DATA\n": made beside it
 * under candidate names until one has inode number want (a freed number
 * goes to the next file made on a filesystem such as ext4) or max were
 * made, then renamed onto path, the others removed.  1 when the number
 * was had. */
static inline int st_stranger_at(const char *path, ino_t want, int max)
{
	char cand[4400];
	int got = 0, n = 0;
	for (; n < max && !got; n++) {
		snprintf(cand, sizeof cand, "%s.cand%d", path, n);
		st_put(cand, "USER DATA\n");
		got = st_ino(cand) == want;
	}
	assert_int_equal(rename(cand, path), 0);
	for (int i = 0; i < n - 1; i++) {
		snprintf(cand, sizeof cand, "%s.cand%d", path, i);
		assert_int_equal(unlink(cand), 0);
	}
	return got;
}

#endif
