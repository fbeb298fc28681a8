/*
 * Shared by the libFuzzer targets tests/fuzz/fuzz_*.c (docs/style.md rule 8:
 * every parser has a fuzz target).  Each target is one binary built by
 * `make fuzz-build` from its own file and the whole library built for
 * fuzzing (build-fuzz/liblrutop.a); `make check` runs each briefly from
 * tests/fuzz/corpus/NAME, `make fuzz` longer (tests/run runs them).  A target checks the parser's
 * contract, not only "no crash": a broken contract is abort(), which
 * libFuzzer reports as a crash with the input that caused it.
 */
#ifndef LRUTOP_FUZZ_H
#define LRUTOP_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated heap string (it may hold earlier NULs). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* s, a newline, s again: a heap string (a parser's "first one wins"). */
static inline char *fuzz_twice(const char *s)
{
	size_t len = strlen(s);
	char *t = malloc(2 * len + 2);

	if (!t)
		abort();
	memcpy(t, s, len);
	t[len] = '\n';
	memcpy(t + len + 1, s, len + 1);
	return t;
}

/* Splits s (size bytes) in place at NUL and newline bytes into at most max
 * pieces (what follows the last one is dropped); returns how many. */
static inline size_t fuzz_split(char *s, size_t size, char **out, size_t max)
{
	size_t n = 0, i;

	if (max == 0)
		return 0;
	out[n++] = s;
	for (i = 0; i < size && n < max; i++) {
		if (s[i] == '\0' || s[i] == '\n') {
			s[i] = '\0';
			out[n++] = s + i + 1;
		}
	}
	out[n - 1][strcspn(out[n - 1], "\n")] = '\0';
	return n;
}

/* A contract check that stays on in any build (assert() may be compiled out). */
#define FUZZ_REQUIRE(cond)                                                                         \
	do {                                                                                       \
		if (!(cond))                                                                       \
			abort();                                                                   \
	} while (0)

#endif
