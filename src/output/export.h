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

/* A recording streamed through the reader by an export that holds no
 * history (export_csv.c, export_om.c): the replay's order check, the
 * samples counted, every result kept (the labels and limits the replay
 * gives the runs are made from them). */
struct export_read {
	struct recording *rec;
	struct record_item *it; /* the item export_read_next read */
	const char *path;
	uint64_t last_t; /* the newest sample's time */
	size_t nsamples;
	struct run_result *res; /* every result, in the file's order */
	size_t nres, cap;
};
/* Opens the recording at path, read ahead (warn cleared).  0, or -1 +
 * err; export_read_close either way. */
int export_read_open(struct export_read *x, const char *path, char *warn, size_t warnlen, char *err,
		     size_t errlen);
/* recording_next into x->it (a result also appended to x->res), with the
 * replay's order check: a sample earlier than the one before it is a bad
 * line (-1 + "PATH:LINE: sample: time goes backwards").  1, 0 at the end,
 * -1 + err. */
int export_read_next(struct export_read *x, char *err, size_t errlen);
/* After the last item: -1 + "PATH: no samples in the recording" when
 * there was none; else 0 and the reader's warning (a cut last line) in
 * warn. */
int export_read_end(struct export_read *x, char *warn, size_t warnlen, char *err, size_t errlen);
void export_read_close(struct export_read *x);

/* The exit status each returns on failure (err says why): */
#define EXPORT_INPUT 2 /* a usage or input error: nothing was created */
#define EXPORT_WRITE 1 /* OUT could not be written: it was removed again */
#define EXPORT_INTERRUPTED 3 /* a signal came (sig_caught): OUT was not made */

/* Creates path new with what fill writes on f: a temporary file beside it
 * linked into place whole (outfile.h, OUTFILE_WHOLE).  From the temporary
 * file's making to its link or removal a signal is only noted (sig_hold:
 * main.c's handler _exits otherwise); one that came (sig_caught), or a
 * failure, leaves no path.  fill returns 0; -1 when a write failed (errno:
 * said as path's write error); -2 with its own sentence in err; 1 when a
 * signal stopped it.  0, or EXPORT_* + err (EXPORT_INPUT: path exists, or
 * its directory is not there). */
int export_write_file(const char *path, const char *what,
		      int (*fill)(FILE *f, void *ctx, char *err, size_t errlen), void *ctx,
		      char *err, size_t errlen);
/* export_write_file with buf[0..len). */
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
