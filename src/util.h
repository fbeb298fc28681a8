/*
 * util — small helpers shared by every module: allocation that aborts on
 * out-of-memory (as htop's xMalloc does: a monitor that cannot allocate a few
 * bytes has nothing useful left to do), error-buffer formatting and the
 * monotonic clock.
 *
 * Error convention (STYLE.md rule 3): a function that can fail returns -1 (or
 * NULL) and writes one human sentence into the caller's buffer with errf().
 */
#ifndef LRUTOP_UTIL_H
#define LRUTOP_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* Formats into err (if non-NULL) and returns -1 so callers can write
 * `return errf(err, len, "...")`. */
int errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Nanoseconds on CLOCK_MONOTONIC. */
uint64_t mono_ns(void);

/* Copies src into dst (size n), always NUL-terminating; returns strlen(src). */
size_t strlcpy_(char *dst, const char *src, size_t n);

/* Formats a byte count with a binary suffix ("1.5G", "512M", "4K", "17B"). */
void fmt_size(char *buf, size_t len, uint64_t bytes);

#endif
