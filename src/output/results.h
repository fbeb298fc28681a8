/*
 * results — the results of finished runs as text: the batch table (the
 * time(1) figures of the original experiment plus lrutop's columns) and
 * the --results CSV (docs/design.md §5).
 *
 * Invariants: pure formatting of struct run_result; one row per run in run
 * order; empty CSV cells ("-" in the table) for values that are unknown:
 * NAN, and the elapsed, CPU and MiB/s figures of a run that failed before
 * its copy started.
 */
#ifndef LRUTOP_RESULTS_H
#define LRUTOP_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "model/runlog.h"

void results_table(FILE *f, const struct run_result *r, size_t n);
void results_csv_header(FILE *f);
void results_csv_row(FILE *f, const struct run_result *r);
/* One line for an event in batch mode: "# 12.34 run 2 mm_sync_cp copy". */
void results_event_line(FILE *f, const struct run_event *e, const struct run_result *runs,
			uint64_t t0_ns);
/* A run that failed before its copy started: its elapsed, CPU and MiB/s
 * figures are unknown (the prepare phase's), empty cells. */
int results_never_copied(const struct run_result *r);
/* The --results "verified" cell: yes, no, unverified, "" (not checked),
 * or cancelled / failed for a run that did not finish OK. */
const char *results_verified(const struct run_result *r);
/* "rw_cp #1: 5.21 s, 786 MiB/s, 0 bursts, verified" or the failure. */
void results_summary(char *buf, size_t len, const struct run_result *r);

#endif
