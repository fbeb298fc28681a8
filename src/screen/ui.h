/*
 * ui — what the user has chosen to look at: the view, pause and scroll,
 * the glyphs, the picker, the status message.  Apart from the model
 * (model.h): a replay or a second screen has its own ui over a model.
 *
 * Invariants: only actions (actions.c: every mode's keys) and the
 * status calls change it; views read it const.
 */
#ifndef LRUTOP_UI_H
#define LRUTOP_UI_H

#include <stddef.h>
#include <stdint.h>

#include "screen/chart.h"
#include "screen/theme.h"

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
/* One line of the help overlay's key part, made from the current mode's
 * key tables by the app (keys_help_refresh): the overlay draws text. */
struct help_line {
	const char *title; /* a table's heading ("Every mode"): the rest unused */
	char keys[48];	   /* how the keys are written; "" on a table's any-key line */
	const char *text;  /* what they do */
};
#define UI_HELP_LINES 160
enum view_id { VIEW_OVERVIEW, VIEW_IOSTAT, VIEW_VMSTAT, VIEW_RUNS, VIEW_COUNT };

struct ui {
	enum view_id view;
	int help;		/* help overlay shown */
	/* its key lines: the current mode's tables (app/actions.c) */
	struct help_line help_lines[UI_HELP_LINES];
	int help_nlines;
	int paused;
	size_t scroll;		/* samples back from the newest, while paused */
	int partitions;		/* iostat view lists partitions too */
	enum chart_glyphs glyphs;
	int no_fit;		/* overview: last N s, not the span of the runs (key f) */
	int zoom;		/* overview, last N s: 2^zoom samples per column (z Z) */
	struct theme theme;	/* the colours; `t` loads the next one */
	unsigned theme_gen;	/* bumped when theme changes: the front end repaints */
	int mem_system;		/* memory chart: system scope even while a run has a cgroup */
	int runs_by_strategy;	/* Runs view: the median run of each strategy */
	int runs_scroll;	/* Runs view: blocks scrolled back from the latest (up down) */
	char preset[64];	/* --demo: its limits for the header ("demo 2008: ..."), "" = none */
	struct picker picker;
	int prompt;		/* the j prompt of a replay is open */
	char prompt_buf[24];	/* what has been typed into it */
	int ascii_only;		/* --ascii or a terminal without UTF-8: glyphs stay ASCII */
	/* talk mode (talk.c): the caption box over the charts and its title */
	char caption[1024];	/* "" for none */
	char caption_title[96];
	int blank;		/* b: the screen left empty until the next key */
	char status[400];	/* transient message for the status line ("" for none) */
	uint64_t status_until_ns; /* CLOCK_MONOTONIC; the loop clears status then */
};

#endif
