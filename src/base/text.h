/*
 * text — the one place that decides what of a text may reach a terminal or
 * a file lrutop writes, and how UTF-8 is walked: control characters (below
 * 0x20, and 0x7f) never pass — text read from a file, a command's output,
 * a recording's host name — and a cut never lands inside a character.
 *
 * Invariants: pure functions of their arguments; nothing allocates.
 */
#ifndef LRUTOP_TEXT_H
#define LRUTOP_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* 1 for a control character: below 0x20, or 0x7f (a byte or a code point). */
int text_ctrl(unsigned long c);
/* Replaces every control character of s with '?', in place. */
void text_clean(char *s);
/* Writes s[0..len) to f (len SIZE_MAX: up to its NUL), each control
 * character and each byte of also (NULL: none) as '?'. */
void text_put(FILE *f, const char *s, size_t len, const char *also);

/* The length of the line at s (up to its '\n' or the end); *next where
 * the line after it starts, NULL when s held the last:
 * for (l = text, next; l && *l; l = next) { n = text_line(l, &next); ... } */
size_t text_line(const char *s, const char **next);

/* 1 for a UTF-8 continuation byte (10xxxxxx): not where a character starts. */
int utf8_cont(unsigned char c);
/* The length of the valid UTF-8 sequence at s (1-4), 0 if it is none. */
size_t utf8_len(const unsigned char *s);
/* How many characters (code points) s holds. */
size_t utf8_chars(const char *s);
/* The largest j <= i where a character of s starts: a cut at j splits none. */
size_t utf8_floor(const char *s, size_t i);
/* The smallest j >= i (and <= len) where a character of s[0..len) starts. */
size_t utf8_ceil(const char *s, size_t i, size_t len);

/* Decodes one UTF-8 sequence (an invalid one as '?'); returns the bytes
 * consumed (>= 1). */
int utf8_decode(const char *s, uint32_t *cp);
/* Encodes cp; returns bytes written (1-4) into out (>= 4 bytes). */
int utf8_encode(uint32_t cp, char *out);

#endif
