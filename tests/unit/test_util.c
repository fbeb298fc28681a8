/*
 * Tests for util: error sentences keep their reason (path_short, errf).
 *
 * Expected values are worked out here from the contracts in the headers,
 * never copied from a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- util: error sentences keep their reason ----------------------------- */

/* A path of exactly len bytes: "/dir00/dir01/.../" then a file name. */
static char *long_path(size_t len)
{
	char *p = malloc(len + 1);
	size_t i = 0;
	for (int d = 0; i + 6 < len - 9; d++)
		i += (size_t)sprintf(p + i, "/dir%02d", d % 100);
	while (i < len - 9)
		p[i++] = 'x';
	memcpy(p + i, "/file.bin", 9);
	p[len] = '\0';
	assert_int_equal(strlen(p), len);
	return p;
}

static void test_path_short(void **state)
{
	(void)state;
	char buf[256];
	/* short paths are copied as they are */
	assert_int_equal(path_short(buf, sizeof(buf), "/var/tmp/x", 40), 10);
	assert_string_equal(buf, "/var/tmp/x");
	/* exactly max bytes: unchanged */
	assert_int_equal(path_short(buf, sizeof(buf), "/abcdefghi", 10), 10);
	assert_string_equal(buf, "/abcdefghi");

	char *p = long_path(3000);
	size_t n = path_short(buf, sizeof(buf), p, 80);
	assert_true(n <= 80);
	assert_int_equal(n, strlen(buf));
	char *dots = strstr(buf, "\xe2\x80\xa6");
	assert_non_null(dots);
	/* head is the start of the path, tail its end (the file name) */
	assert_memory_equal(buf, p, (size_t)(dots - buf));
	const char *tail = dots + 3;
	assert_string_equal(tail, p + 3000 - strlen(tail));
	assert_true(strlen(tail) >= strlen("/file.bin"));
	/* cut at directory boundaries: "…" sits between a '/' and a '/' */
	assert_int_equal(dots[-1], '/');
	assert_int_equal(tail[0], '/');
	free(p);

	/* the buffer bounds it too */
	char small[20];
	p = long_path(500);
	n = path_short(small, sizeof(small), p, 400);
	assert_true(n <= 19);
	assert_non_null(strstr(small, "\xe2\x80\xa6"));
	free(p);

	/* never split a UTF-8 sequence: a path of 2-byte characters */
	char u[601];
	for (int i = 0; i < 300; i++)
		memcpy(u + 2 * i, "\xc3\xa9", 2); /* é */
	u[600] = '\0';
	n = path_short(buf, sizeof(buf), u, 51);
	assert_true(n <= 51);
	dots = strstr(buf, "\xe2\x80\xa6");
	assert_non_null(dots);
	assert_int_equal((dots - buf) % 2, 0);
	assert_int_equal(strlen(dots + 3) % 2, 0);
}

static void test_errf_keeps_reason(void **state)
{
	(void)state;
	char err[320];
	/* a short sentence is plain vsnprintf */
	assert_int_equal(errf(err, sizeof(err), "--src %s: %s", "/x", "No such file"), -1);
	assert_string_equal(err, "--src /x: No such file");

	/* a 3000-byte path: the sentence starts with the option, the path is
	 * shortened in the middle, the reason survives at the end */
	char *p = long_path(3000);
	const char *reason = ": No such file or directory";
	errf(err, sizeof(err), "--src %s: %s", p, "No such file or directory");
	assert_true(strlen(err) < sizeof(err));
	assert_true(strlen(err) > 200); /* the room is used, not thrown away */
	assert_memory_equal(err, "--src /dir00/", 13);
	assert_string_equal(err + strlen(err) - strlen(reason), reason);
	assert_non_null(strstr(err, "/file.bin: No such"));
	assert_non_null(strstr(err, "\xe2\x80\xa6"));

	/* two long paths: both shortened, both ends kept */
	char *q = long_path(2000);
	errf(err, sizeof(err), "verify: %s differs from %s at byte %d", p, q, 42);
	assert_true(strlen(err) < sizeof(err));
	assert_memory_equal(err, "verify: /dir00/", 15);
	assert_non_null(strstr(err, " differs from /dir00/"));
	assert_string_equal(err + strlen(err) - strlen("/file.bin at byte 42"),
			    "/file.bin at byte 42");

	/* nothing long enough to shorten: cut at the end as before */
	char words[2000] = "";
	for (int i = 0; i < 300; i++)
		strcat(words, "word ");
	errf(err, 64, "%s", words);
	assert_int_equal(strlen(err), 63);
	assert_memory_equal(err, words, 63);

	/* a NULL buffer is allowed */
	assert_int_equal(errf(NULL, 0, "%s", p), -1);
	free(p);
	free(q);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_path_short),
	    cmocka_unit_test(test_errf_keeps_reason),
	};
	return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
