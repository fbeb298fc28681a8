/*
 * export_csv — a series or a whole recording as the --csv file (docs/design.md
 * §5), for exporting a recording after the fact.
 *
 * Invariants: the bytes are those --csv writes live: the same header and
 * the same csv_row (output.c) for every sample, the first sample's time as
 * t = 0 and each row's rates from the sample before it.  A recording is
 * streamed: one sample (the one before) is all it holds, whatever the
 * recording's length (the rows wait on disk, not in memory).  Every write is checked; the module never prints.
 */
#ifndef LRUTOP_EXPORT_CSV_H
#define LRUTOP_EXPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "model/series.h"
#include "model/runlog.h"

/* The rows so far: the header written, the sample before, t = 0's time. */
struct csv_stream {
	FILE *f;
	struct sample prev;
	uint64_t t0;
	size_t n; /* rows written */
};
/* Writes the header to f (check ferror(f) at the end). */
void export_csv_start(struct csv_stream *c, FILE *f);
/* One row: s, its rates from the row before, label its run's (NULL: none). */
void export_csv_sample(struct csv_stream *c, const struct sample *s, const char *label);

/* Writes the header and one row per sample of ser to f; a sample's run
 * label comes from runs[sample.run] (no label when run is out of range).
 * 0, or -1 + "write error: REASON". */
int export_csv_write(FILE *f, const struct series *ser, const struct run_result *runs, size_t nruns,
		     char *err, size_t errlen);

/* --export-csv OUT IN: the recording at in read once, every line checked
 * (as the replay's first read does), its rows spooled without their run
 * labels into a nameless file beside OUT (spool.h); then OUT created new
 * through a temporary file beside it (outfile.h, OUTFILE_WHOLE) and the rows
 * copied in with the labels the runs have at the recording's end; a
 * write error or a signal (sig_caught) removes the temporary file: OUT is
 * made whole or not at all, and not at all on an input error.  warn: the
 * reader's warning (a cut last line), "".  0, or EXPORT_INPUT /
 * EXPORT_WRITE / EXPORT_INTERRUPTED (export.h) + err. */
int export_csv_stream(const char *in, const char *out, char *warn, size_t warnlen, char *err,
		      size_t errlen);

#endif
