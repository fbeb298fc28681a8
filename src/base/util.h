/*
 * util — small helpers shared by every module: allocation that aborts on
 * out-of-memory (as htop's xMalloc does: a monitor that cannot allocate a few
 * bytes has nothing useful left to do), error-buffer formatting and the
 * monotonic clock.
 *
 * Error convention (docs/style.md rule 3): a function that can fail returns -1 (or
 * NULL) and writes one human sentence into the caller's buffer with errf().
 */
#ifndef LRUTOP_UTIL_H
#define LRUTOP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* p, an array of *cap elements of size bytes, with room for element n:
 * when n is past the end, *cap doubles (from first) until it is not and
 * p is reallocated (xrealloc).  For the arrays that grow by appending. */
void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first);

/* Formats into err (if non-NULL) and returns -1 so callers can write
 * `return errf(err, len, "...")`.  A sentence longer than the buffer keeps
 * its reason: the longest words (in practice a user's path) are shortened
 * in the middle with path_short() until it fits; only what still does not
 * fit is cut at the end. */
/* A terminating signal has been caught (SIGINT, SIGTERM, SIGHUP): set by
 * the signal handler (sig_note, async-signal-safe), read by code that is
 * about to make something final — an export renames its file into place
 * only when this is 0. */
void sig_note(int signo);
int sig_caught(void);
/* sig_hold(1) while a temporary output is written: a handler that would
 * end the process at once only notes the signal then (sig_holding).
 * sig_release(done): the hold ends unless the output is whole and in place
 * (done), when a signal can no longer undo it: it stays noted, and the
 * export that succeeded exits 0. */
void sig_hold(int on);
void sig_release(int done);
int sig_holding(void);

/* text_clean and the UTF-8 helpers: base/text.h (included here, as
 * every user of errf's text wants them). */
#include "base/text.h"
/* Writes s as one CSV field (RFC 4180): quoted, with quotes doubled, when
 * it holds a comma, a quote, CR or LF; as it is otherwise. */
void csv_field(FILE *f, const char *s);

/* 1 for the names of standard input a reader accepts instead of a file:
 * "-" and "/dev/stdin". */
int is_stdin_name(const char *path);
/* Opens a file to read whole: a regular file, or standard input when path
 * is_stdin_name (whatever it is: the reader's own size limit ends an
 * endless pipe).  Opened O_NONBLOCK first, so a FIFO nobody writes to is
 * refused instead of waited for.  The fd, or -1 + why ("not a regular
 * file (a FIFO)", "is a directory", strerror). */
int open_input(const char *path, char *why, size_t whylen);
/* What a file that is not a regular file or a directory is, as a message
 * names it: "FIFO", "character device", "block device", "socket",
 * "special file". */
const char *file_kind(mode_t mode);
/* Standard input, when it is not a regular file (a pipe), read whole into
 * a memory file that becomes fd 0, so "-" and /dev/stdin can be opened
 * again from the start as a file can.  0 (also when stdin is a file), or
 * -1 + err: more than limit bytes (an endless pipe), or a read error. */
int stdin_to_file(uint64_t limit, const char *what, char *err, size_t errlen);
/* Standard input handed over as a stream to read as it comes (--follow
 * -): a new descriptor of it (close-on-exec), and fd 0 the terminal
 * (/dev/tty: the TUI's keys) when tty is set and one opens, else
 * /dev/null.  The descriptor, or -1 + err: standard input is a terminal
 * itself (nothing to follow), or it cannot be moved. */
int stdin_hand_over(int tty, const char *what, char *err, size_t errlen);

int errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* errf with a va_list (for callers' own printf-like wrappers). */
int verrf(char *err, size_t errlen, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));

/* Writes path into buf (size n), shortened to at most max bytes (and n - 1)
 * by replacing its middle with "…": the head and the tail (the file name)
 * stay, cut at a '/' where one is near and never inside a UTF-8 sequence:
 * "/very/long/…/tail/file".  Returns strlen(buf). */
size_t path_short(char *buf, size_t n, const char *path, size_t max);

/* Nanoseconds on CLOCK_MONOTONIC. */
uint64_t mono_ns(void);

/* Copies src into dst (size n), always NUL-terminating; returns strlen(src). */
size_t strlcpy_(char *dst, const char *src, size_t n);
/* close(fd) leaving errno as it was: for the error paths that go on to
 * say why something failed. */
void close_keep_errno(int fd);
/* Reads up to n bytes, fewer only at end of file; EINTR retried.  Bytes
 * read, or -1 + errno. */
ssize_t read_full(int fd, void *buf, size_t n);
/* buf[0..len) to fd whole: EINTR and short writes retried.  0, or -1 +
 * errno (ENOSPC for a write that wrote nothing). */
int write_all(int fd, const void *buf, size_t len);
/* A small file held open read again from its start into buf,
 * NUL-terminated (len bytes with the NUL), EINTR retried: bytes read, or
 * -1 + errno. */
ssize_t pread_small(int fd, char *buf, size_t len);
/* Reads a small file (path relative to dirfd, or AT_FDCWD; a symlink as
 * the last component is refused) into buf, NUL-terminated: bytes read or
 * -1 with errno. */
ssize_t read_small_at(int dirfd, const char *path, char *buf, size_t len);

/* Formats a byte count with a binary suffix ("1.5G", "512M", "4K", "17B"). */
void fmt_size(char *buf, size_t len, uint64_t bytes);

#endif
