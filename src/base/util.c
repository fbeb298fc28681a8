#include "base/util.h"
#include "base/text.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void oom(size_t n)
{
	fprintf(stderr, "lrutop: out of memory allocating %zu bytes\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q)
		oom(n);
	return q;
}

void *xgrow(void *p, size_t n, size_t *cap, size_t size, size_t first)
{
	if (n < *cap)
		return p;
	while (n >= *cap)
		*cap = *cap ? 2 * *cap : first;
	return xrealloc(p, *cap * size);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);
	memcpy(p, s, n);
	return p;
}

#define ELLIPSIS "\xe2\x80\xa6" /* U+2026, 3 bytes */
#define ELLIPSIS_LEN 3
/* A word shorter than this is not worth shortening. */
#define WORD_MIN 24

/* path_short on s[0..len), not necessarily NUL-terminated. */
static size_t elide(char *buf, size_t n, const char *s, size_t len, size_t max)
{
	if (!n)
		return 0;
	if (max > n - 1)
		max = n - 1;
	if (len <= max) {
		memcpy(buf, s, len);
		buf[len] = '\0';
		return len;
	}
	if (max < ELLIPSIS_LEN + 2) { /* no room for a middle: plain cut */
		size_t c = max;
		while (c > 0 && utf8_cont((unsigned char)s[c]))
			c--;
		memcpy(buf, s, c);
		buf[c] = '\0';
		return c;
	}
	size_t keep = max - ELLIPSIS_LEN;
	size_t head = keep / 3, tail = keep - head; /* the file name matters most */
	/* cut the head after a '/' in its second half, the tail at a '/' in
	 * its first half: "/a/b/…/y/z" reads as a path */
	for (size_t i = head; i > head / 2; i--)
		if (s[i - 1] == '/') {
			head = i;
			break;
		}
	for (size_t i = len - tail; i < len - tail / 2; i++)
		if (s[i] == '/') {
			tail = len - i;
			break;
		}
	while (head > 0 && utf8_cont((unsigned char)s[head]))
		head--;
	while (tail > 0 && utf8_cont((unsigned char)s[len - tail]))
		tail--;
	memcpy(buf, s, head);
	memcpy(buf + head, ELLIPSIS, ELLIPSIS_LEN);
	memcpy(buf + head + ELLIPSIS_LEN, s + len - tail, tail);
	buf[head + ELLIPSIS_LEN + tail] = '\0';
	return head + ELLIPSIS_LEN + tail;
}

size_t path_short(char *buf, size_t n, const char *path, size_t max)
{
	return elide(buf, n, path, strlen(path), max);
}

/* Bytes saved by cutting every word of msg[0..len) longer than cap down
 * to cap. */
static size_t saved_at(const char *msg, size_t len, size_t cap)
{
	size_t saved = 0, i = 0;
	while (i < len) {
		while (i < len && msg[i] == ' ')
			i++;
		size_t start = i;
		while (i < len && msg[i] != ' ')
			i++;
		if (i - start >= WORD_MIN && i - start > cap)
			saved += i - start - cap;
	}
	return saved;
}

/* Shortens the long words of msg (length *len) in place, all of them to
 * the same length (the largest that makes the sentence fit in limit, but
 * not below WORD_MIN / 2), so two long paths both keep their ends. */
static void fit_words(char *msg, size_t *len, size_t limit)
{
	if (*len <= limit)
		return;
	size_t excess = *len - limit, lo = WORD_MIN / 2, hi = *len;
	if (saved_at(msg, *len, lo) == 0)
		return;
	/* the largest cap in [lo, hi] that still saves enough */
	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;
		if (saved_at(msg, *len, mid) >= excess)
			lo = mid;
		else
			hi = mid - 1;
	}
	size_t cap = lo;
	char *tmp = malloc(cap + 1);
	if (!tmp)
		return;
	size_t i = 0;
	while (i < *len) {
		while (i < *len && msg[i] == ' ')
			i++;
		size_t start = i;
		while (i < *len && msg[i] != ' ')
			i++;
		size_t wl = i - start;
		if (wl < WORD_MIN || wl <= cap)
			continue;
		size_t got = elide(tmp, cap + 1, msg + start, wl, cap);
		memcpy(msg + start, tmp, got);
		memmove(msg + start + got, msg + i, *len - i + 1);
		*len -= wl - got;
		i = start + got;
	}
	free(tmp);
}

int verrf(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (!err || !errlen)
		return -1;
	va_list aq;
	va_copy(aq, ap);
	int n = vsnprintf(err, errlen, fmt, ap);
	if (n >= 0 && (size_t)n >= errlen) {
		/* too long: format it whole, shorten the long words, then copy */
		char *full = malloc((size_t)n + 1);
		if (full) {
			vsnprintf(full, (size_t)n + 1, fmt, aq);
			size_t len = (size_t)n;
			fit_words(full, &len, errlen - 1);
			size_t c = len;
			if (c > errlen - 1) { /* still too long: keep the start */
				c = errlen - 1;
				while (c > 0 && utf8_cont((unsigned char)full[c]))
					c--;
			}
			memcpy(err, full, c);
			err[c] = '\0';
			free(full);
		}
	}
	va_end(aq);
	text_clean(err); /* one line, nothing for a terminal to interpret */
	return -1;
}

int is_stdin_name(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdin");
}

int open_input(const char *path, char *why, size_t whylen)
{
	int in = is_stdin_name(path);
	int fd = open(in ? "/dev/stdin" : path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return errf(why, whylen, "%s", strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0) {
		close_keep_errno(fd);
		return errf(why, whylen, "%s", strerror(errno));
	}
	if (S_ISDIR(st.st_mode) || (!in && !S_ISREG(st.st_mode))) {
		close(fd);
		return errf(why, whylen,
			    S_ISDIR(st.st_mode) ? "is a directory"
						: "not a regular file (a %s; give a file, or - for "
						  "standard input)",
			    file_kind(st.st_mode));
	}
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

const char *file_kind(mode_t mode)
{
	return S_ISFIFO(mode)	? "FIFO"
	       : S_ISCHR(mode)	? "character device"
	       : S_ISBLK(mode)	? "block device"
	       : S_ISSOCK(mode) ? "socket"
				: "special file";
}

int stdin_hand_over(int tty, const char *what, char *err, size_t errlen)
{
	if (isatty(STDIN_FILENO))
		return errf(
		    err, errlen,
		    "%s: standard input is a terminal (pipe a recording in: ssh HOST lrutop "
		    "--batch --record - ... | lrutop %s)",
		    what, what);
	int fd = fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return errf(err, errlen, "%s: standard input: %s", what, strerror(errno));
	int in = tty ? open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
	if (in < 0)
		in = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (in < 0 || dup2(in, STDIN_FILENO) < 0) {
		int e = errno;
		close(fd);
		if (in >= 0)
			close(in);
		return errf(err, errlen, "%s: standard input: %s", what, strerror(e));
	}
	if (in != STDIN_FILENO)
		close(in);
	return fd;
}

int stdin_to_file(uint64_t limit, const char *what, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) < 0 || S_ISREG(st.st_mode))
		return 0;
	int mfd = memfd_create("lrutop-stdin", MFD_CLOEXEC);
	if (mfd < 0)
		return errf(err, errlen, "%s: standard input: %s", what, strerror(errno));
	char buf[65536];
	uint64_t got = 0;
	for (;;) {
		ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		got += (uint64_t)n;
		if (got > limit) {
			char lim[32];
			close(mfd);
			fmt_size(lim, sizeof(lim), limit);
			return errf(err, errlen,
				    "%s: more than %s on standard input (endless? save "
				    "it to a file)",
				    what, lim);
		}
		if (write_all(mfd, buf, (size_t)n) < 0)
			goto fail;
	}
	/* fd 0 is now the file: /dev/stdin opens it again from the start */
	if (dup2(mfd, STDIN_FILENO) < 0)
		goto fail;
	close(mfd);
	return 0;
fail:
	close_keep_errno(mfd);
	return errf(err, errlen, "%s: standard input: %s", what, strerror(errno));
}

void csv_field(FILE *f, const char *s)
{
	if (!s[strcspn(s, ",\"\r\n")]) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The one mutable global besides the signal pipe (docs/style.md rule 5). */
static volatile sig_atomic_t caught_signal;

void sig_note(int signo)
{
	if (signo == SIGINT || signo == SIGTERM || signo == SIGHUP)
		caught_signal = signo;
}

int sig_caught(void)
{
	return caught_signal;
}

static volatile sig_atomic_t holding;

void sig_hold(int on)
{
	holding = on;
}

void sig_release(int done)
{
	if (!done)
		holding = 0;
}

int sig_holding(void)
{
	return holding;
}

int errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	verrf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

size_t strlcpy_(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);
	if (n) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return len;
}

void fmt_size(char *buf, size_t len, uint64_t bytes)
{
	static const char units[] = "BKMGTP";
	double v = (double)bytes;
	int u = 0;
	while (v >= 1024.0 && u < 5) {
		v /= 1024.0;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	else if (v < 10.0 && v != (double)(uint64_t)v)
		snprintf(buf, len, "%.1f%c", v, units[u]);
	else
		snprintf(buf, len, "%.0f%c", v, units[u]);
}

void close_keep_errno(int fd)
{
	int e = errno;
	close(fd);
	errno = e;
}

ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

ssize_t pread_small(int fd, char *buf, size_t len)
{
	ssize_t n;
	do
		n = pread(fd, buf, len - 1, 0);
	while (n < 0 && errno == EINTR);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

ssize_t read_small_at(int dirfd, const char *path, char *buf, size_t len)
{
	int fd = openat(dirfd, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return -1;
	ssize_t n = pread_small(fd, buf, len);
	close_keep_errno(fd);
	return n;
}
