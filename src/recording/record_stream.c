/* A recording read as it is written (record.h, "a stream"): the bytes are
 * handed in as they arrive (--follow: a growing file, a pipe) instead of
 * read from a file, and the reader's own line loop (rd_line) takes them
 * through rd_fill as it would a file's, so the lines, the checks and the
 * messages are the file reader's.  What differs is only where the bytes
 * come from and that "no more yet" is not the end: rd_fill says so and
 * the line waits for the rest.  gzip is inflated as it comes, the way
 * gzindex.c's reader does it from a file (members one after another,
 * bytes after the last that are no gzip an error). */
#include "recording/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "recording/record_reader.h"
#include "base/util.h"

struct feed {
	unsigned char *in; /* [off, len) fed, not taken yet */
	size_t cap, off, len;
	uint64_t taken; /* bytes taken from in, all told (where garbage starts) */
	int kind;	/* 0 not known yet (fewer than two bytes), FEED_PLAIN, FEED_GZIP */
	int ended;	/* no more bytes will come */
	z_stream s;	/* gzip: its inflate, live once kind is known */
	int live;
	int between; /* a member ended: the next one's header or the end */
	int done, cut;
};

enum { FEED_PLAIN = 1, FEED_GZIP };

void feed_free(struct feed *f)
{
	if (!f)
		return;
	if (f->live)
		inflateEnd(&f->s);
	free(f->in);
	free(f);
}

/* Plain or gzip, from the first two bytes as recording_open tells them: 0
 * when that is not known yet, -1 + why when zlib cannot start. */
static int feed_kind(struct feed *f, char *why, size_t whylen)
{
	size_t have = f->len - f->off;
	if (f->kind)
		return 0;
	if (have < 2 && !f->ended)
		return 1; /* wait */
	f->kind = have >= 2 && f->in[f->off] == 0x1f && f->in[f->off + 1] == 0x8b ? FEED_GZIP
										  : FEED_PLAIN;
	if (f->kind == FEED_GZIP) {
		if (inflateInit2(&f->s, 15 + 16) != Z_OK)
			return errf(why, whylen, "zlib failed");
		f->live = 1;
	}
	return 0;
}

/* After a member's end: the next member's header, or the end of the
 * data.  0 on, 1 the end, FEED_WAIT, -1 + why (bytes that are no gzip). */
static int feed_next_member(struct feed *f, int *garbage, char *why, size_t whylen)
{
	size_t have = f->len - f->off;
	if (have < 2 && !f->ended)
		return FEED_WAIT;
	if (have == 0)
		return 1;
	if (have < 2 || f->in[f->off] != 0x1f || f->in[f->off + 1] != 0x8b) {
		*garbage = 1;
		return errf(why, whylen,
			    "%zu%s byte%s after the gzip data (from byte %llu) %s not gzip: the "
			    "stream was appended to or is damaged",
			    have, f->ended ? "" : " or more", have == 1 ? "" : "s",
			    (unsigned long long)f->taken, have == 1 && f->ended ? "is" : "are");
	}
	if (inflateReset2(&f->s, 15 + 16) != Z_OK)
		return errf(why, whylen, "zlib failed");
	f->between = 0;
	return 0;
}

/* Inflates into buf as gzindex.c's zr_inflate does from a file: the bytes
 * made, 0 at the end of the data, FEED_WAIT, -1. */
static long feed_inflate(struct feed *f, char *buf, unsigned n, int *garbage, char *why,
			 size_t whylen)
{
	f->s.next_out = (unsigned char *)buf;
	f->s.avail_out = n;
	while (f->s.avail_out == n && !f->done) {
		if (f->between) {
			int e = feed_next_member(f, garbage, why, whylen);
			if (e == FEED_WAIT || e < 0)
				return e;
			if (e > 0) {
				f->done = 1;
				break;
			}
		}
		if (f->off == f->len) {
			if (!f->ended)
				return FEED_WAIT;
			f->done = f->cut = 1; /* the data ended inside a member */
			break;
		}
		f->s.next_in = f->in + f->off;
		f->s.avail_in = (uInt)(f->len - f->off);
		int ret = inflate(&f->s, Z_NO_FLUSH);
		size_t used = (f->len - f->off) - f->s.avail_in;
		f->off += used;
		f->taken += used;
		if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR || ret == Z_STREAM_ERROR ||
		    ret == Z_MEM_ERROR)
			return errf(why, whylen, "corrupt gzip data (%s)",
				    f->s.msg ? f->s.msg : "zlib failed");
		if (ret == Z_STREAM_END)
			f->between = 1;
	}
	return (long)(n - f->s.avail_out);
}

long feed_read(struct feed *f, char *buf, size_t n, int *cut, int *garbage, char *why,
	       size_t whylen)
{
	unsigned m = n > (1u << 30) ? 1u << 30 : (unsigned)n;
	int k = feed_kind(f, why, whylen);
	if (k < 0)
		return -1;
	if (k > 0 || m == 0)
		return FEED_WAIT;
	if (f->kind == FEED_PLAIN) {
		size_t have = f->len - f->off;
		if (!have)
			return f->ended ? 0 : FEED_WAIT;
		size_t c = have < m ? have : m;
		memcpy(buf, f->in + f->off, c);
		f->off += c;
		f->taken += c;
		return (long)c;
	}
	long got = feed_inflate(f, buf, m, garbage, why, whylen);
	if (got == 0)
		*cut = f->cut;
	return got;
}

/* ---- the stream's API (record.h) ---------------------------------------- */

struct recording *recording_stream_new(const char *name)
{
	struct recording *r = rd_new(name);
	r->feed = xcalloc(1, sizeof(*r->feed));
	r->in_order = 1; /* every check a replay makes */
	return r;
}

void recording_stream_feed(struct recording *r, const void *buf, size_t n)
{
	struct feed *f = r->feed;
	if (!n || f->ended)
		return;
	if (f->off == f->len)
		f->off = f->len = 0;
	if (f->cap - f->len < n && f->off) { /* what is left to the front */
		memmove(f->in, f->in + f->off, f->len - f->off);
		f->len -= f->off;
		f->off = 0;
	}
	if (f->cap - f->len < n) {
		f->cap = f->len + n;
		f->in = xrealloc(f->in, f->cap);
	}
	memcpy(f->in + f->len, buf, n);
	f->len += n;
	r->gzip = f->kind == FEED_GZIP;
}

int recording_stream_hungry(const struct recording *r)
{
	return r->feed->off == r->feed->len;
}

void recording_stream_end(struct recording *r)
{
	r->feed->ended = 1;
}

int recording_stream_header(struct recording *r, char *err, size_t errlen)
{
	if (r->failed)
		return errf(err, errlen, "%s", r->error);
	if (r->have_header)
		return 1;
	int rc = rd_open_header(r, err, errlen);
	r->gzip = r->feed->kind == FEED_GZIP;
	if (rc < 0)
		return -1;
	if (rc == 3)
		return 0;
	r->have_header = 1;
	return 1;
}

int recording_stream_next(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	if (r->failed)
		return errf(err, errlen, "%s", r->error);
	if (!r->have_header) {
		int h = recording_stream_header(r, err, errlen);
		if (h <= 0)
			return h;
	}
	if (r->over)
		return 2;
	int rc = rd_next_here(r, it, err, errlen);
	if (rc == 3)
		return 0;
	if (rc == 0) {
		r->over = 1;
		return 2;
	}
	return rc == 1 && rd_order(r, it, err, errlen) < 0 ? -1 : rc;
}
