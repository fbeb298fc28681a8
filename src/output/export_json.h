/*
 * export_json — --export-json: the results as hyperfine's --export-json
 * shapes them, {"results": [{"command", "mean", "stddev", "median",
 * "user", "system", "min", "max", "times", "exit_codes"}]} in seconds,
 * with lrutop's figures beside them in each result and a "runs" array of
 * the per-run figures under the --results column names (docs/output.md
 * lists every key).
 *
 * Invariants: built with jansson (never by string pasting); "times" and
 * "exit_codes" hold the OK runs, in run order — the runs the statistics
 * are taken over, so "median" is the median of "times"; every run, OK or
 * not, is in "runs".  Unknown figures are null.
 */
#ifndef LRUTOP_EXPORT_JSON_H
#define LRUTOP_EXPORT_JSON_H

#include <stddef.h>

#include "output/export_results.h"

/* The document of sides[0..n) (and c for a comparison, else NULL) as
 * pretty-printed JSON text ending in a newline; *len its length.  NULL
 * when jansson could not build or encode it (out of memory, a label that
 * is not UTF-8).  The caller frees it. */
char *export_json_text(const struct export_side *sides, int n, const struct compare *c,
		       size_t *len);

#endif
