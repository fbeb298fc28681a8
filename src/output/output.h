/*
 * output — the text formats of batch mode and --csv (docs/design.md §5).
 *
 * Invariants: a row is a pure function of two samples (the previous one may
 * be NULL: rates are then empty cells / "-") and the start time; files are
 * created with O_EXCL|O_NOFOLLOW, so lrutop never overwrites a file it did
 * not create, and removed again only while the path still names that file
 * (ownfile.h).
 */
#ifndef LRUTOP_OUTPUT_H
#define LRUTOP_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/ownfile.h"
#include "sampling/sample.h"

/* Creates path for writing; refuses an existing file.  NULL + err. */
FILE *output_create(const char *path, const char *what, char *err, size_t errlen);

/* An output file lrutop created (--csv, --results): every write is checked
 * through output_flush / output_close, and output_discard removes it again
 * — only if the path still names the file we created (own: its proof,
 * until output_close is done with it). */
struct output {
	FILE *f;	    /* NULL: not open */
	const char *path;   /* as given */
	const char *what;   /* "--csv" */
	struct ownfile own; /* path, or the temporary file of output_open_atomic */
	int failed;	    /* a write failed: nothing more is written */
	int atomic;	    /* output_open_atomic: own is the temporary file beside path */
};
/* Like output_open, but the bytes go to a temporary file beside path
 * (".NAME.XXXXXX" in its directory) that output_close flushes, fsyncs and
 * links into place (never over an existing file): a signal or a crash
 * leaves no path or the whole file, never a half.  output_discard removes
 * the temporary file.  0 or -1 + err. */
int output_open_atomic(struct output *o, const char *path, const char *what, char *err,
		       size_t errlen);
/* output_create into o.  0 or -1 + err. */
int output_open(struct output *o, const char *path, const char *what, char *err, size_t errlen);
/* fflush + ferror: -1 + err "--csv FILE: write error: REASON" (once; later
 * calls return -1 quietly).  0 for a closed output. */
int output_flush(struct output *o, char *err, size_t errlen);
/* Flushes and closes; -1 + err on a write or close error.  Idempotent. */
int output_close(struct output *o, char *err, size_t errlen);
/* Closes and removes the file (a usage error came after it was made), or
 * the temporary file; only while it is still the one made. */
void output_discard(struct output *o);
/* 1 when a and b name the same file: the same path after resolving the
 * directory (./x, dir/../x, a symlinked directory), or one existing inode. */
int output_same_file(const char *a, const char *b);

void csv_header(FILE *f);
/* One row; strategy is the run's strategy name or NULL while idle. */
void csv_row(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns,
	     const char *strategy);

#define BATCH_HEADER_EVERY 20
void batch_header(FILE *f);
void batch_line(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns);

#endif
