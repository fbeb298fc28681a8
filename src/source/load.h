/*
 * load — one recording read whole through the replay source into a fresh
 * model of its own (a history that holds every sample and a run log): the
 * stream the views and the batch output consume, for --compare (the TUI's
 * source_compare and the table) and the exports that draw a picture.
 *
 * Invariants: nothing prints; a recording that changes while it is read,
 * or whose line goes bad after the check, is an error, not a partial load.
 */
#ifndef LRUTOP_LOAD_H
#define LRUTOP_LOAD_H

#include <stddef.h>

#include "model/runlog.h"
#include "model/series.h"
#include "recording/record.h"

/* One recording, loaded: the whole history and the run log. */
struct rec_load {
	struct series *ser;
	struct runlog *log;
	struct record_header hdr; /* argc/argv cleared: the recording is closed */
	const char *path;	  /* as given */
};

/* Reads the whole recording at path into r (rec_load_done frees it); ap
 * reads an old recording's command line (source_replay_new).  warn gets
 * the reader's warning (a cut last line), "" when none.  -1 +
 * err: the file cannot be read, is not a recording, has a bad line, or
 * holds no sample. */
int rec_load_read(struct rec_load *r, const char *path, const struct record_argv_parser *ap,
		  char *warn, size_t warnlen, char *err, size_t errlen);
void rec_load_done(struct rec_load *r);

/* A read of one recording whole through the replay source (speed 0: every
 * sample is due at once, nothing waits on the timer), as rec_load_read's
 * and export_load_reduced's: each sample to sample(ctx, ...), the events
 * and results into r->log, the source's first note (a line that went bad
 * since it was checked) kept. */
struct rec_loader {
	void (*sample)(void *ctx, const struct sample *s, const struct disktab *t);
	void *ctx;
	char note[600];
};
/* Starts it: r cleared, its run log made, warn cleared, *pos where the
 * first read left the replay (pos->n: the samples a whole read gives).
 * The source to step to its end, or NULL + err (r done). */
struct source;
struct replay_pos;
struct source *rec_load_open(struct rec_load *r, struct rec_loader *l, const char *path,
			     const struct record_argv_parser *ap, struct replay_pos *pos,
			     char *warn, size_t warnlen, char *err, size_t errlen);
/* Ends it once src has been stepped to its end: r->hdr (argc/argv
 * cleared: the recording is closed), the reader's warning into warn, src
 * freed.  -1 + err (r done) when the source noted a bad line or the read
 * came out short ("the recording changed while it was read"). */
int rec_load_end(struct rec_load *r, const struct rec_loader *l, struct source *src, int short_read,
		 char *warn, size_t warnlen, char *err, size_t errlen);

#endif
