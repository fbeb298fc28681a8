/*
 * export_markdown — --export-markdown: the results as GitHub-flavoured
 * Markdown tables that paste into an issue or a mailing-list post, in
 * hyperfine's --export-markdown shape (| Command | Mean [s] | Min [s] |
 * Max [s] | Relative |) with lrutop's columns after it; a --probe table
 * when a probe ran; for a comparison one table per recording and one of
 * the differences.
 *
 * Invariants: a line above each table says where the runs were made; one
 * row per strategy, figures as stats_compute and compare_compute give
 * them (Mean ± σ: export_spread_of); "-" for an unknown figure; a label's
 * '|' is escaped and its control characters become '?', so a row stays one
 * row.
 */
#ifndef LRUTOP_EXPORT_MARKDOWN_H
#define LRUTOP_EXPORT_MARKDOWN_H

#include <stdio.h>

#include "output/export_results.h"

/* Writes the tables of sides[0..n) (and c for a comparison, else NULL) to
 * f.  -1 when a write failed (errno says why). */
int export_markdown_write(FILE *f, const struct export_side *sides, int n, const struct compare *c);

#endif
