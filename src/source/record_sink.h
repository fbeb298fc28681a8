/*
 * record_sink — the recording tee: a sink that writes every item to a
 * recorder (record.h) and forwards it to the next sink (the app's).  The
 * source always pushes into the tee; with no recording open it only
 * forwards, so --record and the R key start and stop recording without
 * touching the source.
 *
 * Invariants: items reach the next sink whatever the recorder does; the
 * first write error is handed once to failed() (the app ends the loop,
 * main says it); nothing prints.  The file is removed or renamed only
 * while its path still names the file the recorder made (outfile.h on
 * ownfile.h's proof): a recording someone else replaced is left alone.
 */
#ifndef LRUTOP_RECORD_SINK_H
#define LRUTOP_RECORD_SINK_H

#include <limits.h>

#include "base/outfile.h"
#include "recording/record.h"
#include "source/source.h"

struct record_sink {
	struct recorder *rec; /* NULL: not recording */
	char path[PATH_MAX];
	/* the file made: while recording, and after record_sink_stop until
	 * the next start (record_sink_rename, record_sink_remove) */
	struct outfile file;
	struct sink_tee tee; /* the recording before the next sink */
	void (*failed)(void *ctx, const char *msg);
	void *failed_ctx; /* failed's: not the next sink's ctx, which may be another tee */
	int error;	  /* a write failed */
	int err_no;	  /* its errno (EPIPE: the reader of --record - went away), 0 none */
};

/* The tee in front of next: *out is the sink to give the source; the
 * first write error goes to failed(failed_ctx, msg). */
void record_sink_init(struct record_sink *t, const struct source_sink *next,
		      void (*failed)(void *ctx, const char *msg), void *failed_ctx,
		      struct source_sink *out);
/* Starts recording into path (created, never overwritten).  log: what the
 * runs produced so far, written first so a recording started mid-session
 * names its runs.  -1 + err. */
int record_sink_start(struct record_sink *t, const char *path, enum record_compress z,
		      const struct record_header *h, const struct runlog *log, char *err,
		      size_t errlen);
/* Stops and closes: -1 + err when a write (or the close) failed. */
int record_sink_stop(struct record_sink *t, char *err, size_t errlen);
/* Stops and removes the file (lrutop exits 2 after creating it), only if
 * its path still names it.  Nothing while not recording. */
void record_sink_discard(struct record_sink *t);
/* The recording record_sink_stop stopped: renamed to path (replacing what
 * is there: a rehearsal's .part over its fallback) only while its own path
 * still names it, 0; OWNFILE_NOT_OURS (nothing renamed) or -1 + errno. */
int record_sink_rename(struct record_sink *t, const char *path);
/* The recording record_sink_stop stopped: removed, only if its path still
 * names it. */
void record_sink_remove(struct record_sink *t);
int record_sink_active(const struct record_sink *t);

#endif
