/*
 * gzindex — access points into a gzip file, so a read can start near any
 * offset of the uncompressed data instead of inflating from the top (what
 * gzseek does).  One pass over the file records, every `span` bytes of
 * output, a deflate block boundary: where it is in the file (byte and bit),
 * where in the output, and the 32 KiB of output before it (the dictionary
 * the next blocks may refer back into), kept compressed.  A reader then
 * starts at the last point at or before the offset asked for and inflates
 * only the rest.  Members one after another (gzip files appended to) are
 * followed as gzread follows them; bytes after the last member that are no
 * gzip header are an error (gzread ends the data there without a word: a
 * file appended to or damaged would read as whole).  The scheme is zlib's
 * examples/zran.c.  Its reader is also the recording reader's for the
 * whole of a gzip file (gzread_open without an index).
 */
#ifndef LRUTOP_GZINDEX_H
#define LRUTOP_GZINDEX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct gzindex;
struct gzread;
struct gzindex_job;

/* Index the gzip data of fd (read with pread: fd's offset is left alone),
 * a point every span output bytes.  *stop, when not NULL, is polled: set,
 * the build ends early with NULL; so does a terminating signal
 * (sig_caught, util.h), as every read loop of lrutop's does.  NULL + err when the data is not gzip or
 * is corrupt; a stream cut short is indexed up to the cut. */
struct gzindex *gzindex_build(int fd, uint64_t span, const atomic_int *stop, char *err,
			      size_t errlen);
void gzindex_free(struct gzindex *ix);
/* Points recorded, and the output bytes indexed (for the bench/tests). */
size_t gzindex_points(const struct gzindex *ix);
uint64_t gzindex_size(const struct gzindex *ix);
/* Bytes the index holds (windows compressed). */
size_t gzindex_bytes(const struct gzindex *ix);

/* gzindex_build of file (a descriptor, duplicated: the caller's may close
 * first) on a thread of its own: NULL when no thread starts.  _wait joins it: the index,
 * or NULL when the build failed.  _free stops a build still going. */
struct gzindex_job *gzindex_start(int file, uint64_t span);
const struct gzindex *gzindex_wait(struct gzindex_job *j);
void gzindex_job_free(struct gzindex_job *j);

/* A reader of fd's uncompressed data from offset off on (ix from the same
 * file); NULL + err when off is past the indexed data or zlib fails.
 * Without an index (ix NULL) it starts at the file's top and inflates the
 * off bytes before the first it gives (a read past the data is then the
 * first read's error). */
struct gzread *gzread_open(const struct gzindex *ix, int fd, uint64_t off, char *err,
			   size_t errlen);
/* Up to n bytes into buf: > 0 bytes, 0 at the end (*cut set when the data
 * stopped inside a member), -1 error (err says what): corrupt data, a read
 * error, or bytes after the last member that are no gzip member
 * (gzread_garbage says how many). */
long gzread_read(struct gzread *z, void *buf, size_t n, int *cut, char *err, size_t errlen);
/* The file's bytes consumed so far (what a progress line shows). */
uint64_t gzread_offset(const struct gzread *z);
/* After that error: the bytes after the last member (0: not that error). */
uint64_t gzread_garbage(const struct gzread *z);
void gzread_close(struct gzread *z);

#endif
