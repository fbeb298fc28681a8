/*
 * talk — the step runner of `lrutop --talk FILE` over a checked script
 * (talk_script.h), inside the TUI's one loop.  Steps are the actions the
 * keys call (actions.c: view, theme, glyphs); `run` and `replay` each
 * start a *stage*: a fresh model fed by a new source — live with a session
 * of the step's options, or a recording — so a run step's Runs view holds
 * that step's runs.  A run step with a fallback switches to its recording
 * (header: "REPLAY (fallback)") as soon as the runs cannot start, a run
 * fails or is cancelled, or when the runs end with fewer bursts than
 * --expect-bursts; the playback starts at the recorded twin of the run
 * that went wrong.
 *
 * Keys: space, the right arrow or PageDown (a presentation clicker's
 * "next") go on from a pause (and skip a wait); the left arrow or PageUp
 * goes back to the previous pause, showing its caption, view, theme and
 * glyphs again (runs, replays and exports are not done again when the
 * talk passes them a second time), Home to the first pause; b blanks the
 * screen and the next key, whatever it is, shows it again.  Back, Home and
 * b work after the last step too.  Runs go on in the background.
 *
 * --rehearse: every step runs live, a pause lasts TALK_REHEARSE_PAUSE_S,
 * export-svg is skipped (the talk itself makes the file), and each run step
 * with a fallback is recorded to FALLBACK.part and renamed over FALLBACK
 * only when its runs all finished well (and showed --expect-bursts).
 *
 * Invariants: nothing here prints or exits; what went wrong for the exit
 * status is kept for main (talk_error).  A cut-short rehearsal removes its
 * .part file (talk_end).
 */
#ifndef LRUTOP_TALK_H
#define LRUTOP_TALK_H

#include <stddef.h>

#include "talk/talk_script.h"

#define TALK_REHEARSE_PAUSE_S 1.0

struct app;
struct talk;

/* --talk's own checks on the command line (the TUI only, no -s, ...). */
int talk_check_options(const struct options *o, char *err, size_t errlen);
/* Takes the script (owned from now on); the app's source is the start. */
struct talk *talk_new(struct talk_script *s, struct app *a, int rehearse);
/* Before app_done: a rehearsal's recording in progress is removed (and
 * that is an error: its fallback was not written). */
void talk_end(struct talk *t, struct app *a);
void talk_free(struct talk *t);
/* Does the steps that are due; 1 when the screen changed. */
int talk_update(struct talk *t, struct app *a, int width);
/* Its keys are talk_keymap (actions.h), a layer of the key dispatch. */
/* The timer that wakes the loop while the talk waits for time, -1. */
int talk_timer_fd(const struct talk *t);
/* What went wrong (a rehearsal that recorded nothing, an export that
 * failed): exit status 1.  NULL when nothing did. */
const char *talk_error(const struct talk *t);

#endif
