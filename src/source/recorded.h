/*
 * recorded — a recording's run events and results put into the model's run
 * log as the session once appended them live, and the runs' progress they
 * say: what the replay (source_replay.c) and the follow
 * (source_follow.c) deliver alike.  A run's slot is made when an event
 * first names it, named from the result known for it when the reader
 * knows one ahead (a replay's first read), else "run N" until its result
 * comes.
 *
 * Invariants: the run log is appended in the order the items come, never
 * beyond its fixed size (what does not fit is dropped, as the session
 * drops it); nothing allocates.
 */
#ifndef LRUTOP_RECORDED_H
#define LRUTOP_RECORDED_H

#include <stddef.h>

#include "model/runlog.h"
#include "source/source.h"

struct recorded_runs {
	struct runlog *log;
	const struct run_result *known; /* results known ahead (their names), NULL none */
	size_t nknown;
	size_t results_seen; /* results delivered */
	size_t runs_started; /* runs an event named: the highest index + 1 */
	long cur_run;	     /* the run whose last event was not its end, -1 */
	int cur_phase;
	int failed; /* a run finished not ok and not cancelled */
};

void recorded_init(struct recorded_runs *rr, struct runlog *log);
/* Before the first item again (a replay's seek backwards): the log
 * emptied, nothing delivered. */
void recorded_reset(struct recorded_runs *rr);
/* Any item of a recording to the sink in its place: a sample with its
 * disk table, a map, an event or a result (into the log first). */
struct record_item;
void recorded_item(struct recorded_runs *rr, const struct record_item *it,
		   const struct source_sink *k);
/* An event / a result into the log, then to the sink's callback. */
void recorded_event(struct recorded_runs *rr, const struct run_event *e,
		    const struct source_sink *k);
void recorded_result(struct recorded_runs *rr, const struct run_result *r,
		     const struct source_sink *k);
/* The progress the items say so far: none before a run was named, the
 * current run (its phase) while one goes, idle between runs; total: the
 * runs known of (queue_len, at least the ones started).  The bytes are
 * the caller's to fill. */
void recorded_progress(const struct recorded_runs *rr, size_t total, struct run_progress *out);

#endif
