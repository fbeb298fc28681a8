/*
 * phase — the phases a run goes through, their names (one table for the
 * screen, the export and the recording), and the one test of whether a
 * sample is in a run's copy.
 *
 * Invariants: the order is the order a run reports them (prepare, copy,
 * flush, done, verify; idle after the run); every name table has an entry
 * for every phase.
 */
#ifndef LRUTOP_PHASE_H
#define LRUTOP_PHASE_H

#include "sampling/sample.h"

enum phase {
	PHASE_IDLE,
	PHASE_PREPARE,
	PHASE_COPY,
	PHASE_FLUSH,
	PHASE_DONE,
	PHASE_VERIFY,
	PHASE_COUNT
};

/* "idle", "prepare", "copy", "flush", "done", "verify"; "?" out of range. */
const char *phase_name(enum phase p);
/* At most 5 characters, for a chart's label row: "prep", "copy", "flush",
 * "done", "vrfy"; "end" for idle (a run's end) and out of range. */
const char *phase_label(int p);
/* The shortest form where labels crowd: "c", "fl", "vfy"; NULL for the
 * phases a chart does not label (only copy, flush and verify are). */
const char *phase_abbrev(int p);

/* The sample is in run `run`'s copy (copy, flush or done: what the run's
 * elapsed time measures, not its prepare or verify); run < 0: any run's. */
int sample_in_copy(const struct sample *s, int run);

/* The run is moving its file's bytes: copying or flushing them (not
 * prepare, done or verify).  A rate and an ETA mean something then, and
 * the probe's reads count as made under the copy. */
int phase_moves_bytes(int phase);

#endif
