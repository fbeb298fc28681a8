/*
 * testutil — small independent readers the unit tests compare lrutop's
 * own code against (a second way to read the same thing), shared so each
 * suite does not carry its own copy.  static inline: a suite that does not
 * use one gets no unused-function warning.
 */
#ifndef LRUTOP_TESTUTIL_H
#define LRUTOP_TESTUTIL_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* "key value" from /proc/vmstat or a memory.stat file, by stdio token by
 * token.  0, or -1 when the file or the key is missing. */
static inline int tu_key_value(const char *path, const char *key, unsigned long long *out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	char name[128];
	unsigned long long v;
	int rc = -1;
	while (fscanf(f, "%127s %llu", name, &v) == 2) {
		if (strcmp(name, key) == 0) {
			*out = v;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}

/* 1 when the two files have the same bytes (read in 1 MiB blocks). */
static inline int tu_files_equal(const char *a, const char *b)
{
	const size_t blk = 1u << 20;
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY);
	char *ba = malloc(blk), *bb = malloc(blk);
	int same = fa >= 0 && fb >= 0 && ba && bb;

	while (same) {
		ssize_t na = read(fa, ba, blk), nb = read(fb, bb, blk);
		if (na != nb || na < 0 || memcmp(ba, bb, (size_t)na) != 0)
			same = 0;
		if (na <= 0)
			break;
	}
	free(ba);
	free(bb);
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

#endif
