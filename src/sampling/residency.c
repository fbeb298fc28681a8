#include "sampling/residency.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/types.h>

#include "base/util.h"

/* glibc 2.36 has neither a wrapper nor the structs (linux/mman.h has them
 * from 6.5 on, but the build machine's headers may be older). */
#ifndef __NR_cachestat
#if defined(__x86_64__) || defined(__aarch64__) || defined(__riscv)
#define __NR_cachestat 451
#endif
#endif

struct lrutop_cachestat_range {
	__u64 off, len; /* len 0: to the end of the file */
};
struct lrutop_cachestat {
	__u64 nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

struct rfile {
	int fd;
	dev_t dev;
	ino_t ino;
	int rdwr;	  /* opened O_RDWR after cachestat refused O_RDONLY */
	int no_cachestat; /* cachestat refused this file even so: mincore */
	/* the mincore reader: the last count of each chunk */
	uint64_t *chunk;
	unsigned char *pv; /* mincore's vector of every chunk (cap of them), for the map */
	size_t nchunk, cap, next; /* chunks of the size last seen; the next to walk */
	int walked;		  /* walked whole once since it was opened */
};

struct residency {
	struct rfile src, dst;
	int force_mincore; /* LRUTOP_RESIDENCY=mincore */
	int no_cachestat;  /* the kernel said ENOSYS */
	uint64_t budget;   /* bytes of a file one tick's mincore walks */
	long page;
	unsigned char *vec; /* RESIDENCY_CHUNK / page bytes */
	size_t veclen;
};

static void rfile_close(struct rfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->rdwr = f->no_cachestat = 0;
	free(f->chunk);
	free(f->pv);
	f->chunk = NULL;
	f->pv = NULL;
	f->nchunk = f->cap = f->next = 0;
	f->walked = 0;
}

struct residency *residency_new(void)
{
	struct residency *r = xcalloc(1, sizeof(*r));
	r->src.fd = r->dst.fd = -1;
	r->page = sysconf(_SC_PAGESIZE);
	if (r->page <= 0)
		r->page = 4096;
	r->veclen = (size_t)(RESIDENCY_CHUNK / (uint64_t)r->page);
	r->vec = xmalloc(r->veclen);
	const char *e = getenv("LRUTOP_RESIDENCY");
	r->force_mincore = e && strcmp(e, "mincore") == 0;
	r->budget = RESIDENCY_BUDGET;
#ifndef __NR_cachestat
	r->no_cachestat = 1;
#endif
	return r;
}

void residency_free(struct residency *r)
{
	if (!r)
		return;
	residency_close(r);
	free(r->vec);
	free(r);
}

void residency_close(struct residency *r)
{
	rfile_close(&r->src);
	rfile_close(&r->dst);
}

void residency_set_budget(struct residency *r, uint64_t bytes)
{
	r->budget = bytes ? bytes : RESIDENCY_BUDGET;
}

const char *residency_method_name(int method)
{
	return method == RESIDENCY_CACHESTAT ? "cachestat"
	       : method == RESIDENCY_MINCORE ? "mincore"
					     : "-";
}

/* cachestat over [off, off + len) bytes (len 0: to the end). */
static int cachestat_range(int fd, uint64_t off, uint64_t len, struct lrutop_cachestat *cs)
{
	memset(cs, 0, sizeof(*cs));
#ifdef __NR_cachestat
	struct lrutop_cachestat_range range = {off, len};
	return syscall(__NR_cachestat, fd, &range, cs, 0) < 0 ? -1 : 0;
#else
	(void)fd;
	(void)off;
	(void)len;
	errno = ENOSYS;
	return -1;
#endif
}

static int by_cachestat(int fd, struct residency_counts *out)
{
#ifdef __NR_cachestat
	struct lrutop_cachestat cs;
	if (cachestat_range(fd, 0, 0, &cs) < 0)
		return -1;
	out->cached = cs.nr_cache;
	out->dirty = cs.nr_dirty;
	out->writeback = cs.nr_writeback;
	out->evicted = cs.nr_evicted;
	out->recently_evicted = cs.nr_recently_evicted;
	out->method = RESIDENCY_CACHESTAT;
	return 0;
#else
	(void)fd;
	(void)out;
	errno = ENOSYS;
	return -1;
#endif
}

/* Resident pages of chunk k of a file of `size` bytes by mincore over a
 * read-only shared map: the map never touches a page (no fault, no
 * readahead), and a file shrinking meanwhile only finds pages absent.
 * 0 or -1 with errno. */
static int mincore_chunk(struct residency *r, int fd, uint64_t size, size_t k, uint64_t *cached,
			 unsigned char *vec)
{
	if (!vec)
		vec = r->vec;
	uint64_t off = (uint64_t)k * RESIDENCY_CHUNK;
	*cached = 0;
	if (off >= size)
		return 0;
	size_t len = (size_t)(size - off < RESIDENCY_CHUNK ? size - off : RESIDENCY_CHUNK);
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	if (map == MAP_FAILED)
		return -1;
	size_t np = (len + (size_t)r->page - 1) / (size_t)r->page;
	int rc = mincore(map, len, vec);
	int e = errno;
	munmap(map, len);
	if (rc < 0) {
		errno = e;
		return -1;
	}
	uint64_t n = 0;
	for (size_t i = 0; i < np; i++)
		n += vec[i] & 1;
	*cached = n;
	return 0;
}

static size_t nchunks(uint64_t size)
{
	return (size_t)((size + RESIDENCY_CHUNK - 1) / RESIDENCY_CHUNK);
}

static void mincore_done(struct residency_counts *out, uint64_t cached)
{
	out->cached = cached;
	out->dirty = out->writeback = out->evicted = out->recently_evicted = 0;
	out->method = RESIDENCY_MINCORE;
}

/* The whole file, every chunk. */
static int by_mincore(struct residency *r, int fd, uint64_t size, struct residency_counts *out)
{
	uint64_t cached = 0, n;
	for (size_t k = 0; k < nchunks(size); k++) {
		if (mincore_chunk(r, fd, size, k, &n, NULL) < 0)
			return -1;
		cached += n;
	}
	mincore_done(out, cached);
	return 0;
}

/* The per-tick walk of an open file (see residency.h): whole on the first
 * tick, then the chunks it grew by (the last one seen included: it was
 * partial), then the next in turn up to the budget. */
static int by_mincore_budget(struct residency *r, struct rfile *f, struct residency_counts *out)
{
	struct stat st;
	if (fstat(f->fd, &st) < 0)
		return -1;
	uint64_t size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	size_t nch = nchunks(size), old = f->nchunk;
	if (nch > f->cap) {
		size_t cap = nch > 2 * f->cap ? nch : 2 * f->cap;
		f->chunk = xrealloc(f->chunk, cap * sizeof(f->chunk[0]));
		f->pv = xrealloc(f->pv, cap * r->veclen);
		f->cap = cap;
	}
	for (size_t k = old; k < nch; k++) {
		f->chunk[k] = 0;
		memset(f->pv + k * r->veclen, 0, r->veclen);
	}
	f->nchunk = nch;
	size_t per_tick = (size_t)((r->budget + RESIDENCY_CHUNK - 1) / RESIDENCY_CHUNK);
	size_t walked = 0;
	if (!f->walked) {
		for (size_t k = 0; k < nch; k++)
			if (mincore_chunk(r, f->fd, size, k, &f->chunk[k], f->pv + k * r->veclen) < 0)
				return -1;
		f->walked = 1;
	} else {
		/* what it grew by, whatever the budget: a copy's destination
		 * grows at disk speed, far less than the budget in a tick, and
		 * what it just wrote is what the chart is about */
		for (size_t k = old ? old - 1 : 0; old < nch && k < nch; k++, walked++)
			if (mincore_chunk(r, f->fd, size, k, &f->chunk[k], f->pv + k * r->veclen) < 0)
				return -1;
		for (; walked < per_tick && walked < nch; walked++) {
			size_t k = f->next % nch;
			f->next = (k + 1) % nch;
			if (mincore_chunk(r, f->fd, size, k, &f->chunk[k], f->pv + k * r->veclen) < 0)
				return -1;
		}
	}
	uint64_t cached = 0;
	for (size_t k = 0; k < nch; k++)
		cached += f->chunk[k];
	memset(out, 0, sizeof(*out));
	out->pages = (size + (uint64_t)r->page - 1) / (uint64_t)r->page;
	mincore_done(out, cached);
	return 0;
}

int residency_fd(struct residency *r, int fd, int want_cachestat, struct residency_counts *out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -1;
	memset(out, 0, sizeof(*out));
	uint64_t size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	out->pages = (size + (uint64_t)r->page - 1) / (uint64_t)r->page;
	if (want_cachestat)
		return by_cachestat(fd, out);
	return by_mincore(r, fd, size, out);
}

/* Keeps f open on path's current inode: opens it on first sight, closes
 * and re-opens when the path names another file (the next run's
 * destination), closes when it names nothing.  0 when f is open. */
static int rfile_sync(struct rfile *f, const char *path)
{
	struct stat st;
	if (!path || stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		rfile_close(f);
		return -1;
	}
	if (f->fd >= 0 && (st.st_dev != f->dev || st.st_ino != f->ino))
		rfile_close(f);
	if (f->fd >= 0)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -1;
	}
	f->fd = fd;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	return 0;
}

uint64_t residency_range_start(uint64_t pages, int n, int k)
{
	/* pages * k / n without the product overflowing for any file size */
	return pages / (uint64_t)n * (uint64_t)k + pages % (uint64_t)n * (uint64_t)k / (uint64_t)n;
}

static uint32_t sat32(uint64_t v)
{
	return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

/* The map of f in want ranges: 0, or -1 (m->n = 0) when it cannot be read
 * (cachestat refused, errno set; mincore: not walked yet). */
static int map_file(struct residency *r, struct rfile *f, int want, struct residency_map_file *m)
{
	struct stat st;
	m->n = 0;
	m->method = RESIDENCY_NONE;
	if (f->fd < 0 || fstat(f->fd, &st) < 0 || st.st_size <= 0)
		return -1;
	uint64_t pg = (uint64_t)r->page;
	uint64_t pages = ((uint64_t)st.st_size + pg - 1) / pg;
	int n = want < 1 ? 1 : want > RESIDENCY_MAP_MAX ? RESIDENCY_MAP_MAX : want;
	if ((uint64_t)n > pages)
		n = (int)pages;
	m->pages = pages;
	if (!r->force_mincore && !r->no_cachestat && !f->no_cachestat) {
		for (int k = 0; k < n; k++) {
			uint64_t a = residency_range_start(pages, n, k);
			uint64_t b = residency_range_start(pages, n, k + 1);
			struct lrutop_cachestat cs;
			/* the last range to the end: what the file grew by since */
			if (cachestat_range(f->fd, a * pg, k + 1 < n ? (b - a) * pg : 0, &cs) < 0)
				return -1;
			m->cached[k] = sat32(cs.nr_cache);
			m->dirty[k] = sat32(cs.nr_dirty);
			m->writeback[k] = sat32(cs.nr_writeback);
			m->evicted[k] = sat32(cs.nr_evicted);
			m->recent[k] = sat32(cs.nr_recently_evicted);
		}
		m->method = RESIDENCY_CACHESTAT;
		m->n = (uint16_t)n;
		return 0;
	}
	if (!f->pv || !f->walked)
		return -1;
	/* the walk's vector: pages past what it has seen count as not cached */
	uint64_t seen = (uint64_t)f->nchunk * r->veclen;
	for (int k = 0; k < n; k++) {
		uint64_t a = residency_range_start(pages, n, k);
		uint64_t b = residency_range_start(pages, n, k + 1);
		uint64_t c = 0;
		for (uint64_t i = a; i < b && i < seen; i++)
			c += f->pv[i] & 1;
		m->cached[k] = sat32(c);
		m->dirty[k] = m->writeback[k] = m->evicted[k] = m->recent[k] = 0;
	}
	m->method = RESIDENCY_MINCORE;
	m->n = (uint16_t)n;
	return 0;
}

/* The file's counts as the sum of its cachestat map's ranges (they cover
 * it, the last one to the end): the map costs the tick no call of its own
 * over the whole-file one it replaces. */
static void map_sum(const struct residency_map_file *m, struct residency_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->pages = m->pages;
	for (int k = 0; k < m->n; k++) {
		c->cached += m->cached[k];
		c->dirty += m->dirty[k];
		c->writeback += m->writeback[k];
		c->evicted += m->evicted[k];
		c->recently_evicted += m->recent[k];
	}
	c->method = RESIDENCY_CACHESTAT;
}

/* One file: cachestat where the kernel and the file allow it, else
 * mincore.  may_write: the file is lrutop's own, so a descriptor open for
 * writing (what cachestat asks of a caller who does not own the file) may
 * be tried. */
static int read_file(struct residency *r, struct rfile *f, const char *path, int may_write,
		     struct sample_res *out, int nmap, struct residency_map_file *map)
{
	struct residency_counts c;
	int want = !r->force_mincore && !r->no_cachestat && !f->no_cachestat;
	int rc;
	if (map)
		map->n = 0;
	if (want && map && map_file(r, f, nmap, map) == 0) {
		map_sum(map, &c);
		rc = 0;
	} else {
		rc = want ? residency_fd(r, f->fd, 1, &c) : by_mincore_budget(r, f, &c);
	}
	if (rc < 0 && want && errno == ENOSYS) {
		r->no_cachestat = 1;
		rc = by_mincore_budget(r, f, &c);
	} else if (rc < 0 && want && errno == EPERM) {
		int fd = may_write && !f->rdwr
			     ? open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
			     : -1;
		struct stat st;
		if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == f->dev && st.st_ino == f->ino) {
			close(f->fd);
			f->fd = fd;
			f->rdwr = 1;
			rc = residency_fd(r, f->fd, 1, &c);
		} else if (fd >= 0) {
			close(fd);
		}
		if (rc < 0) {
			f->no_cachestat = 1;
			rc = by_mincore_budget(r, f, &c);
		}
	}
	if (rc < 0)
		return -1;
	if (map && !map->n)
		map_file(r, f, nmap, map); /* cachestat refused it: the walk's vector */
	out->pages = c.pages;
	out->cached = c.cached;
	out->dirty = c.dirty;
	out->writeback = c.writeback;
	out->evicted = c.evicted;
	out->recently_evicted = c.recently_evicted;
	out->method = (uint8_t)c.method;
	return 0;
}

void residency_read_map(struct residency *r, const char *src, const char *dst, struct sample *smp,
			int n, struct residency_map *map)
{
	memset(&smp->res_src, 0, sizeof(smp->res_src));
	memset(&smp->res_dst, 0, sizeof(smp->res_dst));
	if (map) {
		map->src.n = map->dst.n = 0;
		map->src.method = map->dst.method = RESIDENCY_NONE;
	}
	int any = 0;
	if (rfile_sync(&r->src, src) == 0)
		any |= read_file(r, &r->src, src, 0, &smp->res_src, n, map ? &map->src : NULL) == 0;
	if (rfile_sync(&r->dst, dst) == 0)
		any |= read_file(r, &r->dst, dst, 1, &smp->res_dst, n, map ? &map->dst : NULL) == 0;
	if (any)
		smp->have |= SAMPLE_HAVE_RES;
	if (map)
		map->t_ns = smp->t_ns;
}

void residency_read(struct residency *r, const char *src, const char *dst, struct sample *smp)
{
	residency_read_map(r, src, dst, smp, 0, NULL);
}

int residency_have_cachestat(void)
{
	struct lrutop_cachestat cs;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int ok = cachestat_range(fd, 0, 0, &cs) == 0 || errno != ENOSYS;
	if (fd >= 0)
		close(fd);
	return ok;
}
