/*
 * output — the text formats of batch mode and --csv (DESIGN.md §5).
 *
 * Invariants: a row is a pure function of two samples (the previous one may
 * be NULL: rates are then empty cells / "-") and the start time; files are
 * created with O_EXCL|O_NOFOLLOW, so lrutop never overwrites a file it did
 * not create.
 */
#ifndef LRUTOP_OUTPUT_H
#define LRUTOP_OUTPUT_H

#include <stdint.h>
#include <stdio.h>

#include "sample.h"

/* Creates path for writing; refuses an existing file.  NULL + err. */
FILE *output_create(const char *path, const char *what, char *err, size_t errlen);

void csv_header(FILE *f);
/* One row; strategy is the run's strategy name or NULL while idle. */
void csv_row(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns,
	     const char *strategy);

#define BATCH_HEADER_EVERY 20
void batch_header(FILE *f);
void batch_line(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns);

#endif
