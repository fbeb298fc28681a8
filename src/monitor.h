/*
 * monitor — the model every view draws from: the history, the latest
 * per-device table, and what the user has chosen to look at.
 *
 * Invariants: only the loop (app.c, batch.c) writes here, once per tick or
 * key; views get a const pointer and never change history (htop's mistake
 * of appending history from draw code is what this split prevents).
 */
#ifndef LRUTOP_MONITOR_H
#define LRUTOP_MONITOR_H

#include <stddef.h>

#include "chart.h"
#include "runlog.h"
#include "sample.h"
#include "series.h"

/* The run picker (key r): which strategies, how often, how big. */
#define PICKER_MAX 64
struct picker {
	int open;
	int cursor;		/* row: strategies first, then the three fields */
	unsigned char checked[PICKER_MAX];
	int repeat;
	int size_i, limit_i;	/* indices into picker_sizes / picker_limits */
};
extern const unsigned long long picker_sizes[];	/* bytes */
extern const unsigned long long picker_limits[];	/* bytes, 0 = none */
extern const int picker_nsizes, picker_nlimits;
enum view_id { VIEW_OVERVIEW, VIEW_IOSTAT, VIEW_VMSTAT, VIEW_RUNS, VIEW_COUNT };

struct monitor {
	struct series *series;
	struct disktab disks[2]; /* previous and current, see disks_cur */
	int disks_cur;		 /* index of the newer table; -1 before the first */
	int disks_n;		 /* how many tables have been read (0, 1, 2+) */

	char host[64], kernel[64];
	char disk[64];		/* watched disk ("" for none) */
	char disk_how[160];	/* how it was chosen, e.g. "/var/tmp is on vda" */
	char missing[256];	/* sources that could not be read */
	double interval;

	enum view_id view;
	int help;		/* help overlay shown */
	int paused;
	size_t scroll;		/* samples back from the newest, while paused */
	int partitions;		/* iostat view lists partitions too */
	enum chart_glyphs glyphs;
	struct run_progress runs; /* what the runs are doing now (RUNS_NONE: none asked for) */
	const struct runlog *log;	/* results, events, baseline (never NULL after app_init) */
	int mem_system;		/* memory chart: system scope even while a run has a cgroup */
	int runs_by_strategy;	/* Runs view: the median run of each strategy */
	struct picker picker;
	char status[400];	/* transient message for the status line ("" for none) */
	uint64_t status_until_ns; /* CLOCK_MONOTONIC; the loop clears status then */
};

/* The model clock: what "now" is for everything drawn — the time of the
 * newest sample (live: the last tick; a replay: its position), 0 before
 * the first.  Views never read the system clock, so a paused or replayed
 * screen shows the figures of its own moment. */
uint64_t model_now(const struct monitor *m);

#endif
