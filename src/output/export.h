/*
 * export — the glue of --export-svg, --export-csv, --export-openmetrics
 * and --compare: each
 * recording is read through the replay source into a fresh model of its
 * own (a history and a run log), the same stream the views and the batch
 * output consume, and that model is handed to svg_write, export_csv_write
 * or compare_compute.
 *
 * Invariants: every input is read and checked — the recordings, -t, --run,
 * --from/--to — before OUT is created, and the picture is made in memory
 * first (the CSV streams into a temporary file beside OUT, export_csv.h),
 * so an input error leaves nothing behind.  OUT is created
 * new (O_CREAT|O_EXCL|O_NOFOLLOW: an existing file is refused, never
 * overwritten), every write to it is checked, and it is removed again when
 * a write fails.  Nothing here prints to the user or exits: errors come
 * back in err, warnings (a recording cut short) in warn.
 */
#ifndef LRUTOP_EXPORT_H
#define LRUTOP_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include "source/load.h"
#include "recording/record.h"
#include "model/runlog.h"
#include "model/series.h"

/* What an export or a comparison is asked to do (main fills it from the
 * command line's options): the only part of them this layer reads. */
#define EXPORT_MAX_INPUTS 8
struct export_req {
	const char *out; /* OUT of --export-svg / --export-csv / --export-openmetrics */
	const char *inputs[EXPORT_MAX_INPUTS];
	int ninputs;
	int svg_runs;	     /* --view runs 1, sweep 2 (default: the Overview, 0) */
	double from_s, to_s; /* --from / --to, seconds from the start; -1 = not given */
	long run;	     /* --run N (1-based), 0 = not given */
	int svg_w, svg_h;    /* --size WxH, 0 = 1920x1080 */
	const char *theme;   /* -t NAME, NULL = the default */
	const char *export_json, *export_md; /* --compare's files, NULL none */
	/* how a recording before minor 4 (no "config") is read: its command
	 * line through the program's option parser (record.h), NULL: not known */
	const struct record_argv_parser *ap;
};

/* recording_next for the exports that stream the reader, with the
 * replay's order check: a sample earlier than the one before it is a bad
 * line (-1 + "PATH:LINE: sample: time goes backwards"); *nsamples counts
 * the samples, *last_t is the newest one's time. */
int export_next(struct recording *rec, struct record_item *it, const char *path,
		uint64_t *last_t, size_t *nsamples, char *err, size_t errlen);

/* The exit status each returns on failure (err says why): */
#define EXPORT_INPUT 2 /* a usage or input error: nothing was created */
#define EXPORT_WRITE 1 /* OUT could not be written: it was removed again */
#define EXPORT_INTERRUPTED 3 /* a signal came (sig_caught): OUT was not made */

/* Creates path new with buf[0..len): written to a temporary file beside it
 * and linked into place whole (outfile.h, OUTFILE_WHOLE); a failure or a signal
 * (sig_caught) before the link leaves no path.  0, or EXPORT_* + err. */
int export_write_new(const char *path, const char *what, const char *buf, size_t len, char *err,
		     size_t errlen);
/* --export-svg OUT FILE (o->out, o->inputs[0]): 0, or
 * EXPORT_INPUT / EXPORT_WRITE + err. */
int export_svg(const struct export_req *o, char *warn, size_t warnlen, char *err, size_t errlen);
/* A talk's export-svg OUT: the picture of a model in memory (in), written
 * to OUT by the same rules (created new, removed on a write error).  0, or
 * EXPORT_INPUT / EXPORT_WRITE + err. */
struct svg_input;
struct svg_opts;
int export_svg_new(const char *out, const struct svg_input *in, const struct svg_opts *so,
		   char *err, size_t errlen);
/* --export-csv OUT FILE: the bytes --csv wrote live. */
int export_csv(const struct export_req *o, char *warn, size_t warnlen, char *err, size_t errlen);
/* --export-openmetrics OUT FILE: the recording as OpenMetrics text
 * (openmetrics.h), streamed to a temporary file linked into place whole. */
int export_openmetrics(const struct export_req *o, char *warn, size_t warnlen, char *err,
		       size_t errlen);
/* --compare A B [C...] (o->inputs): the comparison table on out, and
 * first --export-json / --export-markdown (export_results.h).  0,
 * EXPORT_INPUT + err, EXPORT_WRITE + err when such a file failed, or
 * EXPORT_WRITE with errno set and err untouched when out failed. */
int export_compare(FILE *out, const struct export_req *o, char *warn, size_t warnlen, char *err,
		   size_t errlen);

#endif
