/*
 * talk_script — the script of `lrutop --talk FILE` (docs/talk.md):
 * plain text, one step per line, `#` comments and blank lines skipped.
 *
 *   caption TEXT            a box over the charts (no TEXT: none)
 *   pause                   wait for space or the right arrow
 *   view N                  1-4 or overview, iostat, vmstat, runs
 *   theme NAME              a colour theme (--list-themes)
 *   glyphs MODE             braille, blocks or ascii
 *   run LIST [OPTIONS]      queue copy runs; OPTIONS are the command line's
 *                           run options (options.c parses them), plus
 *                           `fallback FILE` and `--expect-bursts N`
 *   replay FILE [--from T] [--to T] [--speed X]
 *   export-svg OUT          the current view as SVG
 *   wait [RUN]              until RUN (a strategy of the last run step, or
 *                           its 1-based number) has finished; no RUN: all
 *
 * Recordings (fallback, replay) are found beside the script when their
 * path is relative; export-svg's OUT is relative to the current directory.
 *
 * Invariants: the whole script is checked here, before anything runs —
 * every option, strategy, theme, and that each fallback or replay file is
 * a recording (with rehearse: that an existing fallback was made by a
 * rehearsal, so replacing it is safe).  A bad line is -1 + "FILE:LINE:
 * reason".  Nothing here prints, exits, or touches the screen; the step
 * runner (talk.c) does what the steps say.
 */
#ifndef LRUTOP_TALK_SCRIPT_H
#define LRUTOP_TALK_SCRIPT_H

#include <stddef.h>

#include "app/options.h"

#define TALK_MAX_STEPS 512
#define TALK_MAX_ARGS 64

enum talk_kind {
	TALK_CAPTION,
	TALK_PAUSE,
	TALK_VIEW,
	TALK_THEME,
	TALK_GLYPHS,
	TALK_RUN,
	TALK_REPLAY,
	TALK_EXPORT_SVG,
	TALK_WAIT,
};

struct talk_step {
	enum talk_kind kind;
	unsigned line;	/* 1-based line of the script */
	char *text;	/* caption (NULL: clear), theme name, replay FILE, export OUT */
	int n;		/* view: enum view_id; glyphs: enum chart_glyphs;
			 * wait: run number (1-based), 0 = by name or all */
	char *wait_name;	/* wait: a strategy, NULL = by number or all */
	/* run */
	char *argv[TALK_MAX_ARGS + 4]; /* "lrutop" "-s" LIST OPTIONS...; owned words */
	int argc;
	struct options opt;	/* parsed over the command line's --dir, -d, -i */
	char *fallback;		/* resolved path, NULL none */
	int expect_bursts;	/* --expect-bursts N, 0 none */
	/* replay */
	double from_s, to_s, speed; /* -1 not given; speed 1 by default */
};

struct talk_script {
	char *path;
	struct talk_step *steps;
	size_t n;
};

/* Parses text (the whole file; NUL-terminated) named fname.  base: the
 * command line's options (each run step starts from its --dir, -d, -i).
 * rehearse: fallbacks are written, not read (they may be missing; an
 * existing one must be a rehearsal's).  NULL + err "FILE:LINE: reason". */
struct talk_script *talk_script_parse(const char *text, const char *fname,
				      const struct options *base, int rehearse, char *err,
				      size_t errlen);
/* Reads and parses the file path. */
struct talk_script *talk_script_load(const char *path, const struct options *base, int rehearse,
				     char *err, size_t errlen);
void talk_script_free(struct talk_script *s);
/* The step's name as written in a script ("caption", "export-svg"). */
const char *talk_kind_name(enum talk_kind k);
/* 1 when the recording at path was written by `lrutop --talk ... --rehearse`
 * (its runs' configuration says so, or an older one's command line): a
 * rehearsal may replace it. */
int talk_made_by_rehearsal(const char *path);

#endif
