/*
 * output — the text formats of batch mode and --csv (docs/design.md §5).
 *
 * Invariants: a row is a pure function of two samples (the previous one may
 * be NULL: rates are then empty cells / "-") and the start time.  The
 * files the rows go to are base/outfile.h's (created new, removed again
 * only while the path still names the file made).
 */
#ifndef LRUTOP_OUTPUT_H
#define LRUTOP_OUTPUT_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "sampling/sample.h"

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
