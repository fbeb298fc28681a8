#include "recording/gzindex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/sigpipe.h"
#include "base/util.h"

#define WSIZE 32768U /* deflate's window: how far back a block may refer */
#define INBUF 65536U

struct point {
	uint64_t in;  /* file offset of the byte holding the block's first bit */
	uint64_t out; /* uncompressed offset of the block's first byte */
	int bits;     /* bits of byte in - 1 that belong to the block (0: none) */
	int start;    /* a member's start (point 0): inflate with its header */
	unsigned wlen;	  /* dictionary bytes (< WSIZE only near the start) */
	unsigned char *zw; /* the dictionary, compressed */
	unsigned long zwlen;
};

struct gzindex {
	uint64_t span, size;
	struct point *pt;
	size_t n, cap;
	size_t bytes;
};

struct gzread {
	int fd;
	uint64_t in_off; /* file offset of in[avail_in's end] */
	uint64_t garbage; /* bytes after the last member that are none (an error) */
	z_stream s;
	int live;    /* s is initialised */
	int raw;     /* inflating raw deflate (from a point): the trailer follows */
	int between; /* a member ended: its trailer, then the next header or the end */
	int done, cut;
	uint64_t out;  /* uncompressed offset of the next byte inflated */
	uint64_t skip; /* bytes to inflate and drop before the first delivered */
	struct gzindex *ix; /* building: points go here */
	unsigned char *win; /* building: the last WSIZE bytes of output, a ring */
	unsigned wpos;
	uint64_t last; /* building: out at the last point */
	unsigned char in[INBUF];
};

/* More input: what is left moved to the front, then pread.  Bytes read,
 * 0 at the file's end, -1 on error. */
static long zr_fill(struct gzread *z, char *err, size_t errlen)
{
	if (z->s.avail_in > 0 && z->s.next_in != z->in)
		memmove(z->in, z->s.next_in, z->s.avail_in);
	z->s.next_in = z->in;
	ssize_t n;
	do
		n = pread(z->fd, z->in + z->s.avail_in, INBUF - z->s.avail_in, (off_t)z->in_off);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errf(err, errlen, "read error: %s", strerror(errno));
	z->in_off += (uint64_t)n;
	z->s.avail_in += (unsigned)n;
	return n;
}

/* The ring of the last output bytes, when building. */
static void win_add(struct gzread *z, const unsigned char *p, size_t n)
{
	if (n >= WSIZE) {
		memcpy(z->win, p + n - WSIZE, WSIZE);
		z->wpos = 0;
		return;
	}
	size_t k = WSIZE - z->wpos < n ? WSIZE - z->wpos : n;
	memcpy(z->win + z->wpos, p, k);
	memcpy(z->win, p + k, n - k);
	z->wpos = (unsigned)((z->wpos + n) % WSIZE);
}

static void add_point(struct gzread *z)
{
	struct gzindex *ix = z->ix;
	ix->pt = xgrow(ix->pt, ix->n, &ix->cap, sizeof(*ix->pt), 64);
	struct point *p = &ix->pt[ix->n++];
	memset(p, 0, sizeof(*p));
	p->in = z->in_off - z->s.avail_in;
	p->out = z->out;
	p->bits = z->s.data_type & 7;
	p->wlen = z->out < WSIZE ? (unsigned)z->out : WSIZE;
	unsigned char lin[WSIZE];
	/* oldest first: the ring from wpos on, then its start */
	if (p->wlen < WSIZE) {
		memcpy(lin, z->win, p->wlen);
	} else {
		memcpy(lin, z->win + z->wpos, WSIZE - z->wpos);
		memcpy(lin + WSIZE - z->wpos, z->win, z->wpos);
	}
	uLongf zl = compressBound(p->wlen);
	p->zw = xmalloc(zl);
	if (compress2(p->zw, &zl, lin, p->wlen, 1) != Z_OK) { /* cannot: memory */
		free(p->zw);
		ix->n--;
		return;
	}
	p->zw = xrealloc(p->zw, zl ? zl : 1);
	p->zwlen = zl;
	ix->bytes += sizeof(*p) + zl;
	z->last = z->out;
}

/* Bytes after the last member that are no gzip header: the file was
 * appended to or is damaged, as much a bad file as a corrupt member
 * (gzread would have stopped there, saying nothing).  -1 + err. */
static int zr_garbage(struct gzread *z, char *err, size_t errlen)
{
	struct stat st;
	uint64_t at = z->in_off - z->s.avail_in;
	z->garbage = fstat(z->fd, &st) == 0 && (uint64_t)st.st_size > at ? (uint64_t)st.st_size - at
									 : z->s.avail_in;
	return errf(err, errlen,
		    "%llu byte%s after the gzip data (from byte %llu) %s not gzip: the file was "
		    "appended to or is damaged",
		    (unsigned long long)z->garbage, z->garbage == 1 ? "" : "s",
		    (unsigned long long)at, z->garbage == 1 ? "is" : "are");
}

/* After a member's end: its trailer (raw only: gzip mode reads it), then a
 * next member's header or the end of the data.  0 on, 1 the end, -1 error
 * (bytes that are no member: zr_garbage). */
static int zr_next_member(struct gzread *z, char *err, size_t errlen)
{
	unsigned need = z->raw ? 8 : 0;
	while (z->s.avail_in < need + 2) {
		long f = zr_fill(z, err, errlen);
		if (f < 0)
			return -1;
		if (f == 0)
			break;
	}
	if (z->s.avail_in < need) { /* the trailer cut short */
		z->cut = 1;
		return 1;
	}
	z->s.next_in += need;
	z->s.avail_in -= need;
	if (z->s.avail_in == 0)
		return 1; /* the end */
	if (z->s.avail_in < 2 || z->s.next_in[0] != 0x1f || z->s.next_in[1] != 0x8b)
		return zr_garbage(z, err, errlen);
	if (inflateReset2(&z->s, 15 + 16) != Z_OK)
		return errf(err, errlen, "zlib failed");
	z->raw = 0;
	z->between = 0;
	return 0;
}

/* Inflates into out (n bytes at most): the bytes made (> 0), 0 at the end of
 * the data, -1 on error. */
static long zr_inflate(struct gzread *z, unsigned char *out, unsigned n, char *err,
		       size_t errlen)
{
	z->s.next_out = out;
	z->s.avail_out = n;
	while (z->s.avail_out == n && !z->done) {
		if (z->between) {
			int e = zr_next_member(z, err, errlen);
			if (e < 0)
				return -1;
			if (e > 0) {
				z->done = 1;
				break;
			}
		}
		if (z->s.avail_in == 0) {
			long f = zr_fill(z, err, errlen);
			if (f < 0)
				return -1;
			if (f == 0) { /* the file ended inside a member */
				z->done = z->cut = 1;
				break;
			}
		}
		unsigned before = z->s.avail_out;
		int ret = inflate(&z->s, z->ix ? Z_BLOCK : Z_NO_FLUSH);
		unsigned made = before - z->s.avail_out;
		if (z->ix && made)
			win_add(z, z->s.next_out - made, made);
		z->out += made;
		if (ret == Z_NEED_DICT || ret == Z_DATA_ERROR || ret == Z_STREAM_ERROR ||
		    ret == Z_MEM_ERROR)
			return errf(err, errlen, "corrupt gzip data (%s)",
				    z->s.msg ? z->s.msg : "zlib failed");
		if (ret == Z_STREAM_END) {
			z->between = 1;
		} else if (z->ix && (z->s.data_type & 128) && !(z->s.data_type & 64) &&
			   z->out - z->last >= z->ix->span) {
			add_point(z);
		}
	}
	return (long)(n - z->s.avail_out);
}

static struct gzread *zr_new(int fd)
{
	struct gzread *z = xcalloc(1, sizeof(*z));
	z->fd = fd;
	z->s.next_in = z->in;
	return z;
}

uint64_t gzread_offset(const struct gzread *z)
{
	return z->in_off - z->s.avail_in;
}

uint64_t gzread_garbage(const struct gzread *z)
{
	return z->garbage;
}

void gzread_close(struct gzread *z)
{
	if (!z)
		return;
	if (z->live)
		inflateEnd(&z->s);
	free(z->win);
	free(z);
}

void gzindex_free(struct gzindex *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->n; i++)
		free(ix->pt[i].zw);
	free(ix->pt);
	free(ix);
}

struct gzindex *gzindex_build(int fd, uint64_t span, const atomic_int *stop, char *err,
			      size_t errlen)
{
	struct gzindex *ix = xcalloc(1, sizeof(*ix));
	ix->span = span ? span : 1;
	ix->cap = 64;
	ix->pt = xcalloc(ix->cap, sizeof(*ix->pt));
	ix->n = 1;
	ix->pt[0].start = 1; /* offset 0: the first member with its header */
	struct gzread *z = zr_new(fd);
	z->ix = ix;
	z->win = xmalloc(WSIZE);
	unsigned char *buf = xmalloc(INBUF);
	int ok = inflateInit2(&z->s, 15 + 16) == Z_OK;
	z->live = ok;
	if (!ok)
		errf(err, errlen, "zlib failed");
	while (ok) {
		/* as every read loop: a terminating signal ends it (record.h) */
		if ((stop && atomic_load(stop)) || sig_caught()) {
			ok = 0;
			errf(err, errlen, "stopped");
			break;
		}
		long got = zr_inflate(z, buf, INBUF, err, errlen);
		if (got < 0)
			ok = 0;
		if (got <= 0)
			break;
	}
	ix->size = z->out;
	free(buf);
	gzread_close(z);
	if (!ok) {
		gzindex_free(ix);
		return NULL;
	}
	return ix;
}

size_t gzindex_points(const struct gzindex *ix)
{
	return ix ? ix->n : 0;
}

uint64_t gzindex_size(const struct gzindex *ix)
{
	return ix ? ix->size : 0;
}

size_t gzindex_bytes(const struct gzindex *ix)
{
	return ix ? ix->bytes + sizeof(*ix) : 0;
}

struct gzread *gzread_open(const struct gzindex *ix, int fd, uint64_t off, char *err,
			   size_t errlen)
{
	if (!ix) { /* from the top, inflating what is before off */
		struct gzread *z = zr_new(fd);
		z->skip = off;
		z->live = inflateInit2(&z->s, 15 + 16) == Z_OK;
		if (z->live)
			return z;
		gzread_close(z);
		errf(err, errlen, "zlib failed");
		return NULL;
	}
	if (off > ix->size) {
		errf(err, errlen, "offset %llu is past the data (%llu bytes)",
		     (unsigned long long)off, (unsigned long long)ix->size);
		return NULL;
	}
	size_t lo = 0, hi = ix->n; /* the last point at or before off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (ix->pt[mid].out <= off)
			lo = mid;
		else
			hi = mid;
	}
	const struct point *p = &ix->pt[lo];
	struct gzread *z = zr_new(fd);
	z->out = p->out;
	z->skip = off - p->out;
	if (p->start) {
		z->live = inflateInit2(&z->s, 15 + 16) == Z_OK;
		if (!z->live)
			goto zfail;
		return z;
	}
	z->raw = 1;
	z->live = inflateInit2(&z->s, -15) == Z_OK;
	if (!z->live)
		goto zfail;
	z->in_off = p->in - (p->bits ? 1 : 0);
	if (p->bits) {
		if (zr_fill(z, err, errlen) <= 0) {
			if (!*err || z->s.avail_in == 0)
				errf(err, errlen, "the file is shorter than it was");
			gzread_close(z);
			return NULL;
		}
		int c = z->s.next_in[0];
		z->s.next_in++;
		z->s.avail_in--;
		if (inflatePrime(&z->s, p->bits, c >> (8 - p->bits)) != Z_OK)
			goto zfail;
	}
	if (p->wlen) {
		unsigned char dict[WSIZE];
		uLongf dl = WSIZE;
		if (uncompress(dict, &dl, p->zw, p->zwlen) != Z_OK || dl != p->wlen ||
		    inflateSetDictionary(&z->s, dict, p->wlen) != Z_OK)
			goto zfail;
	}
	return z;
zfail:
	errf(err, errlen, "zlib failed");
	gzread_close(z);
	return NULL;
}

long gzread_read(struct gzread *z, void *buf, size_t n, int *cut, char *err, size_t errlen)
{
	unsigned m = n > UINT_MAX ? UINT_MAX : (unsigned)n;
	if (m == 0)
		return 0;
	while (z->skip > 0) { /* from the point to the offset asked for */
		unsigned k = z->skip < m ? (unsigned)z->skip : m;
		long got = zr_inflate(z, buf, k, err, errlen);
		if (got <= 0) {
			if (got == 0)
				errf(err, errlen, "the file is shorter than it was");
			return -1;
		}
		z->skip -= (uint64_t)got;
	}
	long got = zr_inflate(z, buf, m, err, errlen);
	if (got == 0 && cut)
		*cut = z->cut;
	return got;
}

struct gzindex_job {
	int fd;
	uint64_t span;
	atomic_int stop;
	int joined;
	pthread_t th;
	struct gzindex *ix;
};

static void *job_run(void *arg)
{
	struct gzindex_job *j = arg;
	char err[200];
	j->ix = gzindex_build(j->fd, j->span, &j->stop, err, sizeof(err));
	return NULL;
}

struct gzindex_job *gzindex_start(int file, uint64_t span)
{
	int fd = fcntl(file, F_DUPFD_CLOEXEC, 0);
	if (fd < 0)
		return NULL;
	struct gzindex_job *j = xcalloc(1, sizeof(*j));
	j->fd = fd;
	j->span = span;
	atomic_init(&j->stop, 0);
	/* the build takes no signal (it polls sig_caught) */
	if (sig_thread_start(&j->th, job_run, j) != 0) {
		close(fd);
		free(j);
		return NULL;
	}
	return j;
}

const struct gzindex *gzindex_wait(struct gzindex_job *j)
{
	if (!j)
		return NULL;
	if (!j->joined) {
		pthread_join(j->th, NULL);
		j->joined = 1;
		close(j->fd);
	}
	return j->ix;
}

void gzindex_job_free(struct gzindex_job *j)
{
	if (!j)
		return;
	atomic_store(&j->stop, 1);
	gzindex_wait(j);
	gzindex_free(j->ix);
	free(j);
}
