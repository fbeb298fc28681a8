/*
 * Tests for base/text: what of a text may reach a terminal or a file, and
 * how UTF-8 is walked (one home for both, issue 28).
 *
 * Expected values are worked out here from the contracts in text.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void test_ctrl(void **state)
{
	(void)state;
	for (unsigned c = 0; c < 0x20; c++)
		assert_true(text_ctrl(c));
	assert_true(text_ctrl(0x7f));
	assert_false(text_ctrl(' '));
	assert_false(text_ctrl('~'));
	assert_false(text_ctrl(0x80)); /* a UTF-8 byte is no control */
	assert_false(text_ctrl(0x2026));
	char s[] = "a\tb\x1b[2Jc\x7f" "d\xe2\x80\xa6";
	text_clean(s);
	assert_string_equal(s, "a?b?[2Jc?d\xe2\x80\xa6");
	text_clean(NULL); /* nothing to clean */
}

static void test_put(void **state)
{
	(void)state;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_non_null(f);
	text_put(f, "x\ny`z\x7f", SIZE_MAX, NULL);
	fputc('|', f);
	text_put(f, "x\ny`z\x7f", SIZE_MAX, "`z");
	fputc('|', f);
	text_put(f, "abcdef", 3, NULL); /* len bytes at most */
	fputc('|', f);
	text_put(f, "ab\0cd", 5, NULL); /* and never past the NUL */
	fclose(f);
	assert_string_equal(buf, "x?y`z?|x?y???|abc|ab");
	free(buf);
}

static void test_utf8_len(void **state)
{
	(void)state;
	assert_int_equal(utf8_len((const unsigned char *)"a"), 1);
	assert_int_equal(utf8_len((const unsigned char *)"\xc3\xa9"), 2);
	assert_int_equal(utf8_len((const unsigned char *)"\xe2\x80\xa6"), 3);
	assert_int_equal(utf8_len((const unsigned char *)"\xf0\x9f\x98\x80"), 4);
	assert_int_equal(utf8_len((const unsigned char *)"\x80"), 0);     /* a continuation */
	assert_int_equal(utf8_len((const unsigned char *)"\xc0\x80"), 0); /* overlong */
	assert_int_equal(utf8_len((const unsigned char *)"\xe2\x80"), 0); /* cut short */
	assert_int_equal(utf8_len((const unsigned char *)"\xf5\x80\x80\x80"), 0); /* > U+10FFFF */
}

static void test_walk(void **state)
{
	(void)state;
	const char *s = "a\xe2\x80\xa6" "b\xc3\xa9"; /* a … b é: 4 characters, 7 bytes */
	assert_int_equal(utf8_chars(s), 4);
	assert_int_equal(utf8_chars(""), 0);
	assert_int_equal(utf8_floor(s, 0), 0);
	assert_int_equal(utf8_floor(s, 1), 1);
	assert_int_equal(utf8_floor(s, 2), 1); /* inside the … */
	assert_int_equal(utf8_floor(s, 3), 1);
	assert_int_equal(utf8_floor(s, 4), 4);
	assert_int_equal(utf8_floor(s, 6), 5); /* inside the é */
	assert_int_equal(utf8_ceil(s, 2, 7), 4);
	assert_int_equal(utf8_ceil(s, 6, 7), 7);
	assert_int_equal(utf8_ceil(s, 2, 3), 3); /* never past len */
	assert_true(utf8_cont(0x80) && utf8_cont(0xbf));
	assert_false(utf8_cont('a') || utf8_cont(0xc3) || utf8_cont(0xe2));
}

static void test_codec(void **state)
{
	(void)state;
	const uint32_t cps[] = {'A', 0xe9, 0x2026, 0x28ff, 0x1f600};
	for (size_t i = 0; i < sizeof(cps) / sizeof(cps[0]); i++) {
		char out[5] = {0};
		int n = utf8_encode(cps[i], out);
		assert_int_equal((size_t)n, utf8_len((const unsigned char *)out));
		uint32_t cp = 0;
		assert_int_equal(utf8_decode(out, &cp), n);
		assert_int_equal(cp, cps[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ctrl),     cmocka_unit_test(test_put),
	    cmocka_unit_test(test_utf8_len), cmocka_unit_test(test_walk),
	    cmocka_unit_test(test_codec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
