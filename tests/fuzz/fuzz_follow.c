/*
 * recording_stream_*: the reader of a recording as it is written
 * (--follow), fed arbitrary bytes in arbitrary pieces.
 *
 * Input: byte 0 says how (bit 0: the rest is deflated into one gzip
 * member first, as the recorder writes it; bit 1: with a sync flush after
 * every line; bit 2: the end is never said: the writer is still writing;
 * bit 3: a second member follows, the last line again), bytes 1-4 seed
 * where the bytes are cut into pieces (1 to 64 bytes, now and then one
 * byte at a time), the rest is the recording.
 *
 * Contract: the stream gives what the whole-file reader (recording_open,
 * recording_check_order, recording_next: a replay's first read) gives for
 * the same bytes in a file, however they are cut: plain, the same header,
 * the same items bit for bit, the same error sentence (FILE:LINE: ...,
 * said again on the next call) and a warning when that one has one, on
 * the same line; gzip, the same when neither fails, and when one fails
 * both do and the shorter list of items is the start of the longer (the
 * file reader inflates a chunk at a time and loses what a chunk made
 * before a corrupt byte).  The end not said, the stream's items are the
 * start of the file's and an error it says is the file's too (plain).
 * An error or a warning names the stream; nothing crashes or leaks.
 */
#include "fuzz.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "recording/record.h"

enum { MAX_ITEMS = 64 };

static struct record_item want[MAX_ITEMS], got[MAX_ITEMS], spare;

/* The recording deflated into gzip members at out (cap bytes): a sync
 * flush after each line when sync; its length. */
static size_t gzip_of(const uint8_t *in, size_t n, int sync, uint8_t *out, size_t cap)
{
	z_stream s;
	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	s.next_out = out;
	s.avail_out = (uInt)cap;
	size_t at = 0;
	do {
		const uint8_t *nl = sync ? memchr(in + at, '\n', n - at) : NULL;
		size_t k = nl ? (size_t)(nl - (in + at)) + 1 : n - at;
		s.next_in = (Bytef *)(in + at);
		s.avail_in = (uInt)k;
		at += k;
		if (deflate(&s, at < n ? Z_SYNC_FLUSH : Z_FINISH) == Z_STREAM_ERROR)
			abort();
	} while (at < n);
	size_t len = cap - s.avail_out;
	deflateEnd(&s);
	return len;
}

static uint32_t rnd(uint32_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 17;
	*x ^= *x << 5;
	return *x;
}

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* The whole-file reader: its items, and 1 (its error in err) or 0. */
static int read_file(const char *path, int *n, const struct record_header **hd,
		     struct recording **out, char *err, size_t errlen)
{
	*n = 0;
	*out = recording_open(path, err, errlen);
	if (!*out)
		return 1;
	*hd = recording_header(*out);
	recording_check_order(*out);
	int rc;
	while (*n < MAX_ITEMS && (rc = recording_next(*out, &want[*n], err, errlen)) == 1)
		(*n)++;
	return *n < MAX_ITEMS && rc < 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	if (size < 5)
		return 0;
	if (fd < 0) {
		fd = memfd_create("fuzz_follow", 0);
		FUZZ_REQUIRE(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	int how = data[0], gzip = how & 1, no_end = how & 4;
	uint32_t x = (uint32_t)data[1] | (uint32_t)data[2] << 8 | (uint32_t)data[3] << 16 |
		     (uint32_t)data[4] << 24 | 1u;
	const uint8_t *text = data + 5;
	size_t n = size - 5, len = n;
	uint8_t *bytes = (uint8_t *)text, *z = NULL;
	if (gzip) {
		size_t cap = 2 * n + 256;
		z = malloc(2 * cap);
		FUZZ_REQUIRE(z);
		len = gzip_of(text, n, how & 2, z, cap);
		if (how & 8) { /* a second member: the last line again */
			const uint8_t *last = n ? text + n - 1 : text;
			while (last > text && last[-1] != '\n')
				last--;
			len += gzip_of(last, (size_t)(text + n - last), 0, z + len, cap);
		}
		bytes = z;
	}
	/* gzip as the readers tell it: by its first two bytes */
	gzip = len >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
	FUZZ_REQUIRE(ftruncate(fd, 0) == 0);
	FUZZ_REQUIRE(pwrite(fd, bytes, len, 0) == (ssize_t)len);

	char ferr[512] = "", serr[512] = "", again[512];
	int nf = 0, ns = 0;
	const struct record_header *fh = NULL;
	struct recording *file;
	int file_bad = read_file(path, &nf, &fh, &file, ferr, sizeof(ferr));

	/* the stream: the same bytes in pieces, every item taken as it comes */
	struct recording *st = recording_stream_new(path);
	int rc = 0;
	for (size_t at = 0;;) {
		size_t k = rnd(&x) % 8 == 0 ? 1 : 1 + rnd(&x) % 64;
		if (k > len - at)
			k = len - at;
		recording_stream_feed(st, bytes + at, k);
		at += k;
		if (at == len && !no_end)
			recording_stream_end(st);
		while (ns < MAX_ITEMS &&
		       (rc = recording_stream_next(st, &got[ns], serr, sizeof(serr))) == 1)
			ns++;
		if (rc < 0 || rc == 2 || ns == MAX_ITEMS || at == len)
			break;
	}
	int stream_bad = rc < 0;
	if (stream_bad) {
		FUZZ_REQUIRE(has_prefix(serr, path));
		FUZZ_REQUIRE(recording_stream_next(st, &spare, again, sizeof(again)) == -1);
		FUZZ_REQUIRE(!strcmp(serr, again));
	}
	if (recording_warning(st))
		FUZZ_REQUIRE(has_prefix(recording_warning(st), path));

	/* the items: the stream's are the file's, or the start of them */
	int m = ns < nf ? ns : nf;
	for (int i = 0; i < m; i++)
		FUZZ_REQUIRE(!memcmp(&got[i], &want[i], sizeof(got[i])));
	if (ns == MAX_ITEMS || nf == MAX_ITEMS) {
		/* the cap, not the end: as far as both went */
	} else if (no_end) {
		FUZZ_REQUIRE(ns <= nf || file_bad);
		if (stream_bad)
			FUZZ_REQUIRE(file_bad && (gzip || !strcmp(serr, ferr)));
	} else if (!gzip || (!file_bad && !stream_bad)) {
		FUZZ_REQUIRE(file_bad == stream_bad && ns == nf);
		/* the same sentence; the file reader's "empty file" is the
		 * stream's "the writer ended before the header" */
		if (file_bad && !has_prefix(ferr + strlen(path), ": empty file"))
			FUZZ_REQUIRE(!strcmp(serr, ferr));
		if (!file_bad) {
			const char *fw = recording_warning(file), *sw = recording_warning(st);
			FUZZ_REQUIRE(!fw == !sw);
			if (fw) { /* on the same line: "PATH:LINE: " */
				size_t l = strlen(path) + 1, w = strcspn(fw + l, ":");
				FUZZ_REQUIRE(strcspn(sw + l, ":") == w && !strncmp(fw, sw, l + w));
			}
			const struct record_header *sh = recording_header(st);
			FUZZ_REQUIRE(sh->major == fh->major && sh->minor == fh->minor &&
				     sh->start_mono_ns == fh->start_mono_ns &&
				     sh->interval_s == fh->interval_s &&
				     !strcmp(sh->host, fh->host) &&
				     !strcmp(sh->kernel, fh->kernel) && sh->argc == fh->argc &&
				     sh->config.have == fh->config.have);
		}
	} else {
		/* gzip with a failure: both fail (the items agree as far as both
		 * went, above) */
		FUZZ_REQUIRE(file_bad && stream_bad);
	}
	recording_close(st);
	recording_close(file);
	free(z);
	return 0;
}
