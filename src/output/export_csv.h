/*
 * export_csv — a whole series as the --csv file (DESIGN.md §5), for
 * exporting a recording after the fact.
 *
 * Invariants: the bytes are those --csv writes live: the same header and
 * the same csv_row (output.c) for every sample, the first sample's time as
 * t = 0 and each row's rates from the sample before it.  Every write is
 * checked; the module never prints.
 */
#ifndef LRUTOP_EXPORT_CSV_H
#define LRUTOP_EXPORT_CSV_H

#include <stddef.h>
#include <stdio.h>

#include "series.h"
#include "runlog.h"

/* Writes the header and one row per sample of ser to f; a sample's run
 * label comes from runs[sample.run] (no label when run is out of range).
 * 0, or -1 + "write error: REASON". */
int export_csv_write(FILE *f, const struct series *ser, const struct run_result *runs, size_t nruns,
		     char *err, size_t errlen);

#endif
