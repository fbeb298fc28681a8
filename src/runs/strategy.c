#include "runs/strategy.h"
#include "base/util.h"
#include "sampling/sample.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_BS    8192
#define SLICE	      ((size_t)1 << 20) /* progress granularity of big copies */
#define DIRECT_ALIGN  ((size_t)4096)	/* offsets, lengths and buffers of O_DIRECT */
#define STREAM_WINDOW ((off_t)8 << 20)	/* stream_cp: write-behind / drop-behind unit */
#define COPYBENCH_N   8			/* the first entries of the table */

/* The two fds of one copy and whether we created (and so may unlink) dst. */
struct files {
	int src;
	int dst;
	int created;
	off_t size;
};

static void set_phase(const struct copy_job *job, enum phase p)
{
	if (job->progress)
		atomic_store(&job->progress->phase, (int)p);
	if (job->on_phase)
		job->on_phase(p, job->phase_arg);
}

static void add_done(const struct copy_job *job, uint64_t n)
{
	if (job->progress)
		atomic_fetch_add(&job->progress->bytes_done, n);
}

static size_t job_bs(const struct copy_job *job)
{
	return job->bs ? job->bs : DEFAULT_BS;
}

/* Writes the directory part of path into out ("." when there is none). */
static void dir_of(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		strlcpy_(out, ".", len);
	} else if (slash == path) {
		strlcpy_(out, "/", len);
	} else {
		size_t n = (size_t)(slash - path);
		if (n >= len)
			n = len - 1;
		memcpy(out, path, n);
		out[n] = '\0';
	}
}

static int files_fail(const struct copy_job *job, struct files *f)
{
	if (f->src >= 0)
		close(f->src);
	if (f->dst >= 0)
		close(f->dst);
	if (f->created)
		unlink(job->dst);
	f->src = f->dst = -1;
	f->created = 0;
	return -1;
}

/* Opens the source read-only and learns its size; dst stays unopened. */
static int src_open(const struct copy_job *job, struct files *f, char *err, size_t errlen)
{
	struct stat st;
	int e;

	f->src = f->dst = -1;
	f->created = 0;
	f->size = 0;
	f->src = open(job->src, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (f->src < 0)
		return errf(err, errlen, "open %s: %s", job->src, strerror(errno));
	if (fstat(f->src, &st) < 0) {
		e = errno;
		files_fail(job, f);
		return errf(err, errlen, "stat %s: %s", job->src, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		files_fail(job, f);
		return errf(err, errlen, "%s: not a regular file", job->src);
	}
	f->size = st.st_size;
	if (job->progress) {
		job->progress->bytes_total = (uint64_t)st.st_size;
		atomic_store(&job->progress->bytes_done, 0);
	}
	return 0;
}

/* Creates the destination; dst_mode is O_WRONLY or O_RDWR (a shared
 * writable map needs a readable fd). On failure the source is closed too. */
static int dst_create(const struct copy_job *job, int dst_mode, struct files *f, char *err,
		      size_t errlen)
{
	int e;

	f->dst =
	    open(job->dst, dst_mode | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, 0644);
	if (f->dst < 0) {
		e = errno;
		files_fail(job, f);
		if (e == EEXIST)
			return errf(err, errlen,
				    "create %s: already exists (lrutop never overwrites a file)",
				    job->dst);
		return errf(err, errlen, "create %s: %s", job->dst, strerror(e));
	}
	f->created = 1;
	if (job->on_created)
		job->on_created(f->dst, job->phase_arg);
	return 0;
}

/* Both at once, for the strategies whose order copybench does not fix. */
static int files_open(const struct copy_job *job, int dst_mode, struct files *f, char *err,
		      size_t errlen)
{
	if (src_open(job, f, err, errlen) < 0)
		return -1;
	return dst_create(job, dst_mode, f, err, errlen);
}

/* Closes both files (a failing close of dst is an error: NFS reports
 * write-back errors there) and reports PHASE_DONE. */
static int files_close(const struct copy_job *job, struct files *f, char *err, size_t errlen)
{
	int fd = f->dst;

	close(f->src);
	f->src = -1;
	f->dst = -1;
	if (close(fd) < 0 && errno != EINTR) {
		errf(err, errlen, "close %s: %s", job->dst, strerror(errno));
		return files_fail(job, f);
	}
	set_phase(job, PHASE_DONE);
	return 0;
}

static int flush_fsync(const struct copy_job *job, struct files *f, char *err, size_t errlen)
{
	set_phase(job, PHASE_FLUSH);
	if (fsync(f->dst) < 0) {
		errf(err, errlen, "fsync %s: %s", job->dst, strerror(errno));
		return files_fail(job, f);
	}
	return 0;
}

/* Reads up to n bytes, retrying on EINTR; 0 at end of file, -1 on error. */
static ssize_t read_some(int fd, void *buf, size_t n, const char *path, char *err, size_t errlen)
{
	for (;;) {
		ssize_t r = read(fd, buf, n);
		if (r >= 0)
			return r;
		if (errno != EINTR)
			return errf(err, errlen, "read %s: %s", path, strerror(errno));
	}
}

/* write_all, its failure said as the copy's error. */
static int write_out(int fd, const void *buf, size_t n, const char *path, char *err, size_t errlen)
{
	if (write_all(fd, buf, n) < 0)
		return errf(err, errlen, "write %s: %s", path, strerror(errno));
	return 0;
}

/* stream_cp's write-behind: start writeback of the window just written,
 * wait for the one before it and drop it from the cache on both files. */
struct stream {
	off_t win_start;
	off_t prev_start;
	off_t prev_len;
};

static int stream_advance(const struct copy_job *job, struct files *f, struct stream *st, off_t off,
			  int final, char *err, size_t errlen)
{
	off_t len = off - st->win_start;

	if (len < STREAM_WINDOW && !final)
		return 0;
	if (len > 0 && sync_file_range(f->dst, st->win_start, len, SYNC_FILE_RANGE_WRITE) < 0)
		return errf(err, errlen, "sync_file_range %s: %s", job->dst, strerror(errno));
	if (st->prev_len > 0) {
		if (sync_file_range(f->dst, st->prev_start, st->prev_len,
				    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
					SYNC_FILE_RANGE_WAIT_AFTER) < 0)
			return errf(err, errlen, "sync_file_range %s: %s", job->dst,
				    strerror(errno));
		/* Hints: a failure only means the pages stay cached. */
		posix_fadvise(f->dst, st->prev_start, st->prev_len, POSIX_FADV_DONTNEED);
		posix_fadvise(f->src, st->prev_start, st->prev_len, POSIX_FADV_DONTNEED);
	}
	st->prev_start = st->win_start;
	st->prev_len = len;
	st->win_start = off;
	return 0;
}

/* The read()/write() loop of rw_cp, rw_fadv_cp and stream_cp. */
static int rw_loop(const struct copy_job *job, struct files *f, int stream, char *err,
		   size_t errlen)
{
	size_t bs = job_bs(job);
	char *buf = xmalloc(bs);
	struct stream st = {0, 0, 0};
	off_t off = 0;

	set_phase(job, PHASE_COPY);
	for (;;) {
		ssize_t n = read_some(f->src, buf, bs, job->src, err, errlen);
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (write_out(f->dst, buf, (size_t)n, job->dst, err, errlen) < 0)
			goto fail;
		off += n;
		add_done(job, (uint64_t)n);
		if (stream && stream_advance(job, f, &st, off, 0, err, errlen) < 0)
			goto fail;
	}
	free(buf);
	if (stream && stream_advance(job, f, &st, off, 1, err, errlen) < 0)
		return files_fail(job, f);
	if (flush_fsync(job, f, err, errlen) < 0)
		return -1;
	if (stream) {
		posix_fadvise(f->dst, 0, 0, POSIX_FADV_DONTNEED);
		posix_fadvise(f->src, 0, 0, POSIX_FADV_DONTNEED);
	}
	return files_close(job, f, err, errlen);
fail:
	free(buf);
	return files_fail(job, f);
}

static int rw_cp(const struct copy_job *job, char *err, size_t errlen)
{
	struct files f;

	if (files_open(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	return rw_loop(job, &f, 0, err, errlen);
}

static int rw_fadv_cp(const struct copy_job *job, char *err, size_t errlen)
{
	struct files f;

	if (src_open(job, &f, err, errlen) < 0)
		return -1;
	/* copybench: both hints on the source before the destination exists. */
	posix_fadvise(f.src, 0, 0, POSIX_FADV_SEQUENTIAL);
	posix_fadvise(f.src, 0, 0, POSIX_FADV_NOREUSE);
	if (dst_create(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	return rw_loop(job, &f, 0, err, errlen);
}

static int stream_cp(const struct copy_job *job, char *err, size_t errlen)
{
	struct files f;

	if (files_open(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	return rw_loop(job, &f, 1, err, errlen);
}

/* Maps the whole source read-only; *out stays NULL for an empty file
 * (mmap of length 0 is EINVAL). */
static int map_src(const struct copy_job *job, struct files *f, int madv, char **out, char *err,
		   size_t errlen)
{
	void *p;

	*out = NULL;
	if (f->size == 0)
		return 0;
	if ((uint64_t)f->size > SIZE_MAX)
		return errf(err, errlen, "mmap %s: too large for this address space", job->src);
	p = mmap(NULL, (size_t)f->size, PROT_READ, MAP_PRIVATE, f->src, 0);
	if (p == MAP_FAILED)
		return errf(err, errlen, "mmap %s: %s", job->src, strerror(errno));
	if (madv)
		madvise(p, (size_t)f->size, MADV_SEQUENTIAL);
	*out = p;
	return 0;
}

/* The mapped copies' start: the source opened and mapped whole (map_src,
 * *s), the destination created (dst_mode), the copy phase begun.  -1
 * with nothing left open or mapped. */
static int map_open(const struct copy_job *job, struct files *f, int madv, int dst_mode, char **s,
		    char *err, size_t errlen)
{
	if (src_open(job, f, err, errlen) < 0)
		return -1;
	if (map_src(job, f, madv, s, err, errlen) < 0)
		return files_fail(job, f);
	if (dst_create(job, dst_mode, f, err, errlen) < 0) {
		if (*s)
			munmap(*s, (size_t)f->size);
		return -1;
	}
	set_phase(job, PHASE_COPY);
	return 0;
}

enum {
	MM_MSYNC = 1, /* flush with msync(MS_SYNC), else munmap + fsync (mm_mun_*) */
	MM_MADV = 2,  /* MADV_SEQUENTIAL on both maps */
};

/* Gives dst its size before it is mapped. copybench writes one int of
 * zeros at the end (lseek + write): a sparse file whose blocks are
 * allocated at page-fault/write-back time, so a full disk is a SIGBUS in
 * memcpy. --prealloc uses fallocate instead (ENOSPC here, and the copy
 * then writes into unwritten extents, which costs differently on ext4). */
static int size_dst(const struct copy_job *job, struct files *f, char *err, size_t errlen)
{
	static const int zero = 0;

	if (job->prealloc) {
		if (fallocate(f->dst, 0, 0, f->size) < 0)
			return errf(err, errlen, "allocate %s: %s", job->dst, strerror(errno));
		return 0;
	}
	if (f->size < (off_t)sizeof zero) {
		if (ftruncate(f->dst, f->size) < 0)
			return errf(err, errlen, "truncate %s: %s", job->dst, strerror(errno));
		return 0;
	}
	if (lseek(f->dst, f->size - (off_t)sizeof zero, SEEK_SET) < 0)
		return errf(err, errlen, "seek %s: %s", job->dst, strerror(errno));
	return write_out(f->dst, &zero, sizeof zero, job->dst, err, errlen);
}

/* mm_*_cp: memcpy from a private source map into a shared destination map,
 * in copybench's order: open and map the source, create, size and map the
 * destination, memcpy, msync(MS_SYNC), ftruncate to the size.
 * mm_mun_* (not in copybench) unmap and fsync instead. */
static int mm_copy(const struct copy_job *job, int flags, char *err, size_t errlen)
{
	struct files f;
	char *s = NULL, *d = NULL;
	size_t len;

	if (map_open(job, &f, flags & MM_MADV, O_RDWR, &s, err, errlen) < 0)
		return -1;
	len = (size_t)f.size;
	if (f.size == 0)
		return flush_fsync(job, &f, err, errlen) < 0 ? -1
							     : files_close(job, &f, err, errlen);
	if (size_dst(job, &f, err, errlen) < 0)
		goto fail;
	d = mmap(NULL, len, PROT_WRITE, MAP_SHARED, f.dst, 0);
	if (d == MAP_FAILED) {
		d = NULL;
		errf(err, errlen, "mmap %s: %s", job->dst, strerror(errno));
		goto fail;
	}
	if (flags & MM_MADV)
		madvise(d, len, MADV_SEQUENTIAL);
	/* One memcpy, as copybench: slicing it changes glibc's copy loop
	 * (non-temporal stores above its threshold) and with it the page
	 * faults the kernel sees (bench/copybench.md: 131k against 4k minor
	 * faults and 2x the sys time for 512 MiB with MADV_SEQUENTIAL). */
	memcpy(d, s, len);
	add_done(job, len);
	if (flags & MM_MSYNC) {
		set_phase(job, PHASE_FLUSH);
		if (msync(d, len, MS_SYNC) < 0) {
			errf(err, errlen, "msync %s: %s", job->dst, strerror(errno));
			goto fail;
		}
		/* copybench's last step; the size is already right. */
		if (ftruncate(f.dst, f.size) < 0) {
			errf(err, errlen, "truncate %s: %s", job->dst, strerror(errno));
			goto fail;
		}
		munmap(d, len);
		munmap(s, len);
	} else {
		munmap(d, len);
		munmap(s, len);
		if (flush_fsync(job, &f, err, errlen) < 0)
			return -1;
	}
	return files_close(job, &f, err, errlen);
fail:
	if (d)
		munmap(d, len);
	munmap(s, len);
	return files_fail(job, &f);
}

static int mm_sync_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mm_copy(job, MM_MSYNC, err, errlen);
}

static int mm_mun_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mm_copy(job, 0, err, errlen);
}

static int mm_sync_madv_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mm_copy(job, MM_MSYNC | MM_MADV, err, errlen);
}

static int mm_mun_madv_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mm_copy(job, MM_MADV, err, errlen);
}

/* mw_*_cp: as copybench, map the source, create the destination and
 * write() the whole map at once (the kernel caps one write at 2 GiB - 4 KiB,
 * so bigger files take a few), fsync. Progress grows per write(). */
static int mw_copy(const struct copy_job *job, int madv, char *err, size_t errlen)
{
	struct files f;
	char *s;
	size_t len, off;

	if (map_open(job, &f, madv, O_WRONLY, &s, err, errlen) < 0)
		return -1;
	len = (size_t)f.size;
	for (off = 0; off < len;) {
		ssize_t w = write(f.dst, s + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w < 0)
				errf(err, errlen, "write %s: %s", job->dst, strerror(errno));
			else
				errf(err, errlen, "write %s: no progress (device full?)", job->dst);
			munmap(s, len);
			return files_fail(job, &f);
		}
		off += (size_t)w;
		add_done(job, (uint64_t)w);
	}
	if (flush_fsync(job, &f, err, errlen) < 0) {
		if (s)
			munmap(s, len);
		return -1;
	}
	if (s)
		munmap(s, len);
	return files_close(job, &f, err, errlen);
}

static int mw_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mw_copy(job, 0, err, errlen);
}

static int mw_madv_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return mw_copy(job, 1, err, errlen);
}

static ssize_t cfr_slice(const struct files *f)
{
	return copy_file_range(f->src, NULL, f->dst, NULL, SLICE, 0);
}

static ssize_t sendfile_slice(const struct files *f)
{
	return sendfile(f->dst, f->src, NULL, SLICE);
}

/* A copy the kernel makes a slice at a time: slice moves up to SLICE
 * bytes and returns how many (0 at the end); call names it in an error. */
static int kernel_copy(const struct copy_job *job, ssize_t (*slice)(const struct files *),
		       const char *call, char *err, size_t errlen)
{
	struct files f;

	if (files_open(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	set_phase(job, PHASE_COPY);
	for (;;) {
		ssize_t n = slice(&f);
		if (n < 0) {
			int e = errno;
			if (e == EINTR)
				continue;
			errf(err, errlen, "%s %s to %s: %s%s", call, job->src, job->dst,
			     strerror(e), e == EXDEV ? " (both must be on one filesystem)" : "");
			return files_fail(job, &f);
		}
		if (n == 0)
			break;
		add_done(job, (uint64_t)n);
	}
	if (flush_fsync(job, &f, err, errlen) < 0)
		return -1;
	return files_close(job, &f, err, errlen);
}

static int cfr_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return kernel_copy(job, cfr_slice, "copy_file_range", err, errlen);
}

static int sendfile_cp(const struct copy_job *job, char *err, size_t errlen)
{
	return kernel_copy(job, sendfile_slice, "sendfile", err, errlen);
}

static int splice_cp(const struct copy_job *job, char *err, size_t errlen)
{
	struct files f;
	int p[2];
	size_t psz;
	int r;

	if (files_open(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	if (pipe2(p, O_CLOEXEC) < 0) {
		errf(err, errlen, "pipe: %s", strerror(errno));
		return files_fail(job, &f);
	}
	/* A bigger pipe means fewer round trips; the default (64 KiB) works. */
	fcntl(p[1], F_SETPIPE_SZ, (int)SLICE);
	r = fcntl(p[1], F_GETPIPE_SZ);
	psz = r > 0 ? (size_t)r : 65536;
	set_phase(job, PHASE_COPY);
	for (;;) {
		ssize_t in = splice(f.src, NULL, p[1], NULL, psz, SPLICE_F_MOVE | SPLICE_F_MORE);
		if (in < 0) {
			if (errno == EINTR)
				continue;
			errf(err, errlen, "splice %s: %s", job->src, strerror(errno));
			goto fail;
		}
		if (in == 0)
			break;
		while (in > 0) {
			ssize_t out = splice(p[0], NULL, f.dst, NULL, (size_t)in,
					     SPLICE_F_MOVE | SPLICE_F_MORE);
			if (out < 0) {
				if (errno == EINTR)
					continue;
				errf(err, errlen, "splice %s: %s", job->dst, strerror(errno));
				goto fail;
			}
			if (out == 0) {
				errf(err, errlen, "splice %s: no progress (device full?)",
				     job->dst);
				goto fail;
			}
			in -= out;
			add_done(job, (uint64_t)out);
		}
	}
	close(p[0]);
	close(p[1]);
	if (flush_fsync(job, &f, err, errlen) < 0)
		return -1;
	return files_close(job, &f, err, errlen);
fail:
	close(p[0]);
	close(p[1]);
	return files_fail(job, &f);
}

static int set_direct(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? fl | O_DIRECT : fl & ~O_DIRECT;
	return fcntl(fd, F_SETFL, fl);
}

/* O_DIRECT is switched on with fcntl after the destination is created:
 * open(O_CREAT|O_DIRECT) on a filesystem without direct I/O creates the
 * file and only then fails, which would leave it behind. */
static int direct_on(int fd, const char *path, char *err, size_t errlen)
{
	char dir[4096];

	if (set_direct(fd, 1) == 0)
		return 0;
	if (errno == EINVAL) {
		dir_of(path, dir, sizeof dir);
		return errf(err, errlen, "O_DIRECT not supported on %s (filesystem refuses it)",
			    dir);
	}
	return errf(err, errlen, "O_DIRECT on %s: %s", path, strerror(errno));
}

/* Reads and writes with O_DIRECT through an aligned buffer of at least
 * 1 MiB (--bs if larger). The tail that is not a whole block is written
 * with O_DIRECT switched off, so exactly the source's bytes are written. */
static int direct_cp(const struct copy_job *job, char *err, size_t errlen)
{
	struct files f;
	size_t bs = job_bs(job) > SLICE ? job_bs(job) : SLICE;
	void *buf = NULL;
	int direct = 1, e;

	bs = (bs + DIRECT_ALIGN - 1) / DIRECT_ALIGN * DIRECT_ALIGN;
	if (files_open(job, O_WRONLY, &f, err, errlen) < 0)
		return -1;
	if (direct_on(f.src, job->src, err, errlen) < 0 ||
	    direct_on(f.dst, job->dst, err, errlen) < 0)
		return files_fail(job, &f);
	e = posix_memalign(&buf, DIRECT_ALIGN, bs);
	if (e) {
		errf(err, errlen, "direct_cp buffer of %zu bytes: %s", bs, strerror(e));
		return files_fail(job, &f);
	}
	set_phase(job, PHASE_COPY);
	for (;;) {
		ssize_t n = read_some(f.src, buf, bs, job->src, err, errlen);
		if (n < 0)
			goto fail;
		if (n == 0)
			break;
		if (direct && (size_t)n % DIRECT_ALIGN) {
			/* End of file (or an odd short read): later offsets are
			 * unaligned, so finish both files buffered. */
			if (set_direct(f.dst, 0) < 0 || set_direct(f.src, 0) < 0) {
				errf(err, errlen, "fcntl %s: %s", job->dst, strerror(errno));
				goto fail;
			}
			direct = 0;
		}
		if (write_out(f.dst, buf, (size_t)n, job->dst, err, errlen) < 0)
			goto fail;
		add_done(job, (uint64_t)n);
	}
	free(buf);
	if (flush_fsync(job, &f, err, errlen) < 0)
		return -1;
	return files_close(job, &f, err, errlen);
fail:
	free(buf);
	return files_fail(job, &f);
}

static const struct strategy strategies[] = {
    /* copybench: keep these eight first and in this order (COPYBENCH_N). */
    {"rw_cp", "read/write", "read()/write() through a --bs buffer, fsync: the baseline", rw_cp},
    {"rw_fadv_cp", "read/write",
     "rw_cp after fadvise(SEQUENTIAL, NOREUSE) on the source: do the hints help?", rw_fadv_cp},
    {"mm_sync_cp", "mmap",
     "memcpy between a private source map and a shared destination map, msync: mapped pages "
     "get activated",
     mm_sync_cp},
    {"mm_mun_cp", "mmap", "as mm_sync_cp, but munmap then fsync instead of msync", mm_mun_cp},
    {"mm_sync_madv_cp", "mmap", "mm_sync_cp with MADV_SEQUENTIAL on both maps", mm_sync_madv_cp},
    {"mm_mun_madv_cp", "mmap", "mm_mun_cp with MADV_SEQUENTIAL on both maps", mm_mun_madv_cp},
    {"mw_cp", "mmap+write", "write() to the destination straight from a source map, fsync", mw_cp},
    {"mw_madv_cp", "mmap+write", "mw_cp with MADV_SEQUENTIAL on the source map", mw_madv_cp},
    /* modern */
    {"cfr_cp", "kernel copy", "copy_file_range(): the kernel copies, no user-space buffer", cfr_cp},
    {"sendfile_cp", "kernel copy", "sendfile() file to file: in-kernel copy via the page cache",
     sendfile_cp},
    {"splice_cp", "kernel copy", "splice() source -> pipe -> destination: pages move by reference",
     splice_cp},
    {"direct_cp", "direct",
     "O_DIRECT reads and writes, aligned 1 MiB buffer: bypasses the page cache", direct_cp},
    {"stream_cp", "read/write",
     "read/write with sync_file_range + FADV_DONTNEED behind the front: does not flood the cache",
     stream_cp},
};

size_t strategy_count(void)
{
	return ARRAY_LEN(strategies);
}

const struct strategy *strategy_at(size_t i)
{
	return i < ARRAY_LEN(strategies) ? &strategies[i] : NULL;
}

void strategy_label(const struct strategy *s, int prealloc, const char *suffix, char *buf,
		    size_t len)
{
	snprintf(buf, len, "%s%s%s", s->name,
		 prealloc && !strcmp(s->family, "mmap") ? "+prealloc" : "", suffix);
}

const struct strategy *strategy_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_LEN(strategies); i++)
		if (strcmp(strategies[i].name, name) == 0)
			return &strategies[i];
	return NULL;
}

uint8_t strategy_index(const char *name)
{
	for (size_t i = 0; i < strategy_count() && i < SAMPLE_STRATEGY_NONE; i++)
		if (!strcmp(strategy_at(i)->name, name))
			return (uint8_t)i;
	return SAMPLE_STRATEGY_NONE;
}

int strategy_check(const struct strategy *s, const char *src, const char *dir, char *err,
		   size_t errlen)
{
	int in, out, e = 0;

	if (!s || strcmp(s->name, "cfr_cp") != 0 || !src || !dir)
		return 0;
	in = open(src, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (in < 0)
		return 0; /* the source check reports it */
	out = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
	if (out < 0) {
		close(in);
		return 0; /* no O_TMPFILE here: the run itself will tell */
	}
	if (copy_file_range(in, NULL, out, NULL, 0, 0) < 0)
		e = errno;
	close(out);
	close(in);
	if (e == EXDEV)
		return errf(err, errlen,
			    "cfr_cp: --src %s is on another filesystem than --dir; copy_file_range "
			    "cannot copy between them (EXDEV): move --src or leave cfr_cp out",
			    src);
	return 0;
}

static int list_add(const struct strategy *s, const struct strategy **out, size_t max, size_t *n,
		    char *err, size_t errlen)
{
	if (*n >= max)
		return errf(err, errlen, "too many strategies in the list (at most %zu)", max);
	out[(*n)++] = s;
	return 0;
}

static int list_add_range(size_t first, size_t count, const struct strategy **out, size_t max,
			  size_t *n, char *err, size_t errlen)
{
	for (size_t i = first; i < first + count; i++)
		if (list_add(&strategies[i], out, max, n, err, errlen) < 0)
			return -1;
	return 0;
}

static int unknown(const char *name, char *err, size_t errlen)
{
	char valid[512];
	size_t len = 0;

	valid[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(strategies) && len < sizeof valid; i++)
		len +=
		    (size_t)snprintf(valid + len, sizeof valid - len, "%s, ", strategies[i].name);
	return errf(err, errlen, "unknown strategy '%s' (valid: %scopybench, all)", name, valid);
}

int strategy_parse_list(const char *list, const struct strategy **out, size_t max, size_t *n,
			char *err, size_t errlen)
{
	const char *p = list ? list : "";

	*n = 0;
	while (*p) {
		const char *end = strchr(p, ',');
		size_t len;
		char name[64];

		if (!end)
			end = p + strlen(p);
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		len = (size_t)(end - p);
		while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len >= sizeof name)
			len = sizeof name - 1;
		memcpy(name, p, len);
		name[len] = '\0';
		/* "a,,b" or ",a" is a typo, as "," is (a trailing comma is not) */
		if (len == 0 && *end)
			return errf(err, errlen,
				    "%s: an empty name before a comma (valid: a comma "
				    "list of names, copybench or all)",
				    list);
		p = *end ? end + 1 : end;
		if (len == 0)
			continue;
		if (strcmp(name, "copybench") == 0) {
			if (list_add_range(0, COPYBENCH_N, out, max, n, err, errlen) < 0)
				return -1;
		} else if (strcmp(name, "all") == 0) {
			if (list_add_range(0, ARRAY_LEN(strategies), out, max, n, err, errlen) < 0)
				return -1;
		} else {
			const struct strategy *s = strategy_find(name);
			if (!s)
				return unknown(name, err, errlen);
			if (list_add(s, out, max, n, err, errlen) < 0)
				return -1;
		}
	}
	if (*n == 0)
		return errf(err, errlen,
			    "empty strategy list (valid: a comma list of names, "
			    "copybench or all)");
	return 0;
}
