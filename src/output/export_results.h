/*
 * export_results — --export-json FILE and --export-markdown FILE: the
 * results of a batch run, a replay or a --compare as hyperfine shapes them
 * (its --export-json and --export-markdown), plus lrutop's own figures.
 * export_json.c and export_markdown.c format; this is what both take and
 * the glue that writes the files.
 *
 * Invariants: the per-strategy figures are stats_compute's (the batch
 * table's), the comparison's compare_compute's, the per-run ones the
 * run_result's that --results writes; only the mean and the standard
 * deviation of elapsed (hyperfine's "mean", "stddev"), which no table
 * prints, are computed here, over the same OK runs.  A file is created new
 * (never over an existing one), made whole in memory and written to a
 * temporary name beside it, then linked into place (export_write_new).
 */
#ifndef LRUTOP_EXPORT_RESULTS_H
#define LRUTOP_EXPORT_RESULTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/runlog.h"
#include "model/sweep.h"

struct compare;

/* One set of runs: a batch run, a replay, or one recording of a comparison. */
struct export_side {
	const char *label; /* a comparison's "A: 6.18 (a.jsonl)", NULL otherwise */
	const char *path;  /* the recording read, NULL for a live run */
	const char *host, *kernel, *disk, *disk_kind; /* "" unknown */
	int mglru;
	const char *started;  /* the recording's start (ISO 8601 UTC), NULL */
	uint64_t mem_limit;   /* bytes, 0 none: every run's but a sweep's (export_setting_of) */
	uint64_t disk_limit;  /* bytes/s, 0 none: the same */
	const char *baseline; /* a label, "" or NULL: the first */
	const struct run_result *runs;
	size_t nruns;
};

/* hyperfine's figures of a strategy as it gives them with -i (its failed
 * runs are measured too): over every finished run labelled name that took
 * a time (export_timed), OK or failed, the mean, the sample standard
 * deviation (n - 1), the median, min and max of elapsed and the means of
 * user and sys; n those runs.  NAN when there is none (stddev: fewer than
 * two).  lrutop's own figures (the tables' medians, relative) stay over
 * the OK runs. */
struct export_spread {
	double mean, stddev, user, sys, median, min, max;
	size_t n;
};
/* 1 when r is one of those runs: finished, not cancelled (the user's
 * choice, not a failure) and with a time (not a failure before its copy). */
int export_timed(const struct run_result *r, const char *name);
void export_spread_of(const struct run_result *runs, size_t n, const char *name,
		      struct export_spread *out);

/* What the runs labelled name ran with: sweep_run_setting of the first
 * finished one over the side's limits (a label is one value of a sweep:
 * its runs share it).  The side's own limits when there is none. */
void export_setting_of(const struct export_side *sd, const char *name, struct run_setting *out);

/* Before anything runs or is read: json and md (either may be NULL) must
 * be new paths, neither the same file as the other nor as --results,
 * --csv or --record (others[0..3), NULL when not given).  0 or -1 + err
 * ("--export-json F: already exists (use a new path)"). */
int export_results_check(const char *json, const char *md, const char *const others[3], char *err,
			 size_t errlen);

/* Writes json and/or md (NULL: not asked for) of sides[0..n) and, for a
 * comparison, c (NULL otherwise).  0; EXPORT_INPUT (export.h) when a file
 * exists by now or the text could not be made; EXPORT_WRITE when a write
 * failed (the file was not made); EXPORT_INTERRUPTED after a signal. */
int export_results_save(const char *json, const char *md, const struct export_side *sides, int n,
			const struct compare *c, char *err, size_t errlen);

#endif
