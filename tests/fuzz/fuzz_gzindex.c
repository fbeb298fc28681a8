/*
 * gzindex.c: access points into gzip data, and reads that start from them.
 *
 * Input: byte 0 says how (bits 0-1: 1 to 4 members; bit 2: corrupt one
 * byte; bits 3-7: a sync flush every 16 * that many bytes, 0: none), byte
 * 1 where the corrupt byte goes (a fraction of the file) or, uncorrupted,
 * how many bytes that are no gzip member follow the last (its low 3 bits:
 * 0 none), the rest is the text.  The text is deflated into that gzip
 * file (as the recorder writes: gzip members, sync flushes) in a memfd,
 * indexed with a 64-byte span (points at every block boundary past it),
 * and read back.  Contract: uncorrupted, the index is built and covers
 * the whole text, and a read from any offset gives the text from there to
 * its end, with the index or without (from the top); with bytes after the
 * last member, no index, and a read from the top gives the whole text,
 * then the error that says how many (issue 26, 10); corrupted, nothing
 * crashes and a read gives no more bytes than the index holds.
 */
#include "fuzz.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "recording/gzindex.h"

static size_t deflate_member(const uint8_t *in, size_t n, size_t flush_every, uint8_t *out,
			     size_t cap)
{
	z_stream s;
	memset(&s, 0, sizeof(s));
	if (deflateInit2(&s, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	s.next_out = out;
	s.avail_out = (uInt)cap;
	size_t at = 0;
	while (at < n) {
		size_t k = flush_every && n - at > flush_every ? flush_every : n - at;
		s.next_in = (Bytef *)(in + at);
		s.avail_in = (uInt)k;
		at += k;
		if (deflate(&s, at < n ? (flush_every ? Z_SYNC_FLUSH : Z_NO_FLUSH) : Z_FINISH) ==
		    Z_STREAM_ERROR)
			abort();
	}
	if (n == 0 && deflate(&s, Z_FINISH) == Z_STREAM_ERROR)
		abort();
	size_t len = cap - s.avail_out;
	deflateEnd(&s);
	return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	int members = 1 + (data[0] & 3), corrupt = data[0] & 4;
	size_t flush_every = 16u * (data[0] >> 3);
	const uint8_t *text = data + 2;
	size_t n = size - 2;
	size_t cap = 2 * n + 256 * (size_t)members;
	uint8_t *gz = malloc(cap);
	if (!gz)
		abort();
	size_t len = 0;
	for (int m = 0; m < members; m++) {
		size_t a = n * (size_t)m / (size_t)members, b = n * (size_t)(m + 1) / (size_t)members;
		len += deflate_member(text + a, b - a, flush_every, gz + len, cap - len);
	}
	if (corrupt && len)
		gz[(size_t)data[1] * len / 256] ^= 0x5a;
	size_t garbage = corrupt ? 0 : data[1] & 7;
	int fd = memfd_create("fuzz_gzindex", 0);
	if (fd < 0 || write(fd, gz, len) != (ssize_t)len ||
	    write(fd, "GARBAGE", garbage) != (ssize_t)garbage)
		abort();
	char err[200];
	struct gzindex *ix = gzindex_build(fd, 64, NULL, err, sizeof(err));
	if (garbage) { /* no index; from the top: the text, then the error */
		char want[64];
		snprintf(want, sizeof(want), "%zu byte%s after the gzip data (from byte %zu)",
			 garbage, garbage == 1 ? "" : "s", len);
		if (ix || !strstr(err, want))
			abort();
		struct gzread *z = gzread_open(NULL, fd, 0, err, sizeof(err));
		static uint8_t b[4096];
		size_t at = 0;
		long got;
		int cut = 0;
		if (!z)
			abort();
		while ((got = gzread_read(z, b, sizeof(b), &cut, err, sizeof(err))) > 0) {
			if (at + (size_t)got > n || memcmp(b, text + at, (size_t)got))
				abort();
			at += (size_t)got;
		}
		if (got != -1 || at != n || gzread_garbage(z) != garbage || !strstr(err, want))
			abort();
		gzread_close(z);
	}
	if (!ix && !corrupt && !garbage)
		abort();
	if (ix) {
		uint64_t sz = gzindex_size(ix);
		if (!corrupt && sz != n)
			abort();
		static uint8_t buf[4096];
		size_t step = n / 7 + 1;
		for (size_t off = 0; off <= sz; off += step) {
			struct gzread *z = gzread_open(ix, fd, off, err, sizeof(err));
			if (!z) {
				if (!corrupt)
					abort();
				continue;
			}
			size_t at = off;
			for (;;) {
				int cut = 0;
				long got = gzread_read(z, buf, 1 + at % sizeof(buf), &cut, err, sizeof(err));
				if (got <= 0)
					break;
				if (!corrupt && (at + (size_t)got > n || memcmp(buf, text + at, (size_t)got)))
					abort();
				at += (size_t)got;
				if (at > sz)
					abort();
			}
			if (!corrupt && at != n)
				abort();
			gzread_close(z);
			/* without the index, from the top: the same first bytes */
			if (!corrupt && off < n) {
				static uint8_t b2[512];
				int cut = 0;
				z = gzread_open(NULL, fd, off, err, sizeof(err));
				long got =
				    z ? gzread_read(z, b2, sizeof(b2), &cut, err, sizeof(err)) : -1;
				if (got <= 0 || memcmp(b2, text + off, (size_t)got))
					abort();
				gzread_close(z);
			}
		}
		gzindex_free(ix);
	}
	close(fd);
	free(gz);
	return 0;
}
