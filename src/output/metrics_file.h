/*
 * metrics_file — --metrics-file PATH: the model's current values and the
 * finished runs as Prometheus text (openmetrics.h, OM_TEXTFILE), for
 * node_exporter's textfile collector, rewritten every second while the
 * session runs.  A tee in the source's sink chain, like the recording's
 * (record_sink.h): it forwards every item to the next sink first (the app,
 * which puts the sample into the model) and then writes from the model.
 *
 * Invariants: PATH is refused when it exists at the start; it is only ever
 * replaced by a whole new file (outfile.h's OUTFILE_REPLACE: a temporary
 * ".NAME.XXXXXX" beside it, which the collector's *.prom glob does not
 * match, linked the first time and put in its place after), and only
 * while PATH is still the file this made (ownfile.h: its descriptor kept
 * open, dev, ino and times compared; else the writing stops with one note
 * and PATH is left as it is).
 * metrics_file_finish writes it one last time, whole, by the same replace:
 * the runs' figures and lrutop_up 0, and no values of the moment (the
 * collector would serve them as current for as long as the file stays);
 * the file then stays, so a scrape after the session still has every
 * run (issue 29: a 15 s scrape missed a short session's last runs when the
 * file went at exit).  --metrics-file-remove, or a final write that failed
 * (its PATH would say up 1 for ever), removes it instead; metrics_file_done
 * (an exit 2, a failed start) removes PATH and the temporary file, each
 * only if it is still ours.  A failed write is one note
 * to the next sink (the status line), not an end: the next second tries
 * again.  Nothing prints.  At most one write a second (and one after a
 * run ends), not every tick: the file is the collector's, scraped every
 * 15 s or so.
 */
#ifndef LRUTOP_METRICS_FILE_H
#define LRUTOP_METRICS_FILE_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

#include "model/model.h"
#include "base/outfile.h"
#include "source/source.h"

struct metrics_file {
	const char *path;   /* NULL: off (only forwards) */
	struct outfile out; /* the file at PATH, once made, and the next one */
	const struct model *model;
	struct sink_tee tee; /* the next sink, then the file */
	uint64_t last_ns;    /* the sample time of the last write */
	int due;	     /* a run finished since: write at the next sample */
	int failing;	     /* the last write failed (said once) */
	int lost;	     /* PATH is no longer ours: writing stopped */
	int ended;	     /* the session is over: the last file is written */
	const char *session; /* the session label (openmetrics.h), borrowed */
	/* the sentence of the latest failure and how many times writing
	 * started failing: batch has no status line, it says each on stderr */
	char error[600];
	unsigned errors;
	uint64_t probe_reads, probe_slow; /* --probe's, summed */
};

/* The tee in front of next: *out is the sink to hand on (to the record
 * tee or the source).  model: the app's, read after next has run. */
void metrics_file_init(struct metrics_file *mf, const struct model *model,
		       const struct source_sink *next, struct source_sink *out);
/* Starts writing to path: refused (-1 + err "--metrics-file PATH: already
 * exists (use a new path)") when it exists; the first file is written
 * now, so an unwritable directory is an error here.  session: every
 * series' session label, borrowed (its text may change: a talk's next
 * live stage is a session of its own).  -1 + err. */
int metrics_file_start(struct metrics_file *mf, const char *path, const char *session, char *err,
		       size_t errlen);
/* The session is over (its runs' results are in the model): PATH written
 * one last time and left in place (0), or removed: when remove is set (0)
 * or when that write failed (-1 + err "...; removed at exit").  A PATH no
 * longer ours is not touched (0 when that was said before; found now: -1
 * + err).  The tee only forwards from now on.  Idempotent. */
int metrics_file_finish(struct metrics_file *mf, int remove, char *err, size_t errlen);
/* Removes PATH (if still ours) and the temporary file (an exit 2: nothing
 * made stays); the tee only forwards from now on.  Idempotent. */
void metrics_file_done(struct metrics_file *mf);

#endif
