/*
 * options — the command line (DESIGN.md §4) parsed into one plain struct.
 *
 * Invariants: options_parse never prints and never exits; on bad input it
 * returns -1 with one sentence in err (main prefixes "lrutop: " and exits 2).
 * Sizes take K/M/G/T suffixes in powers of 1024.
 */
#ifndef LRUTOP_OPTIONS_H
#define LRUTOP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#define INTERVAL_MIN 0.05
#define OPTIONS_MAX_CMDS 16
#define INTERVAL_MAX 60.0

enum options_action {
	ACTION_RUN,		/* TUI or batch */
	ACTION_HELP,
	ACTION_VERSION,
	ACTION_LIST_STRATEGIES,
	ACTION_EXPORT_SVG,	/* --export-svg OUT FILE */
	ACTION_EXPORT_CSV,	/* --export-csv OUT FILE */
	ACTION_COMPARE,		/* --compare A B [C...] */
	ACTION_LIST_THEMES,
};

/* Recordings one command line can name (--compare A B ...). */
#define OPTIONS_MAX_INPUTS 8


struct preset;

struct options {
	enum options_action action;
	double interval;	/* seconds */
	long count;		/* samples to take, 0 = until stopped */
	const char *device;	/* -d NAME, NULL = the disk holding dir */
	const char *dir;	/* scratch directory, default /var/tmp */
	int dir_given;		/* --dir was on the command line */
	int batch;		/* --batch (main also sets it when stdout is not a tty) */
	int quiet;
	int ascii;
	const char *csv;	/* --csv FILE */
	double history_s;	/* seconds of history kept */

	/* the copy worker (part 2) */
	const char *strategies;	/* -s LIST */
	const char *src;	/* --src FILE */
	uint64_t size;		/* --size, 0 = default */
	uint64_t mem_limit;	/* --mem-limit, 0 = none */
	uint64_t disk_limit;	/* --disk-limit, bytes/s of the watched disk, 0 = none */
	int repeat;
	size_t bs;		/* --bs */
	int no_drop_caches, no_verify;
	/* --cmd 'PROG ARGS', repeatable: each is one more entry of the queue;
	 * the i-th --name labels the i-th --cmd (NULL: a default label).  The
	 * queue holds cmds[0..cmds_before_s), then -s LIST, then the rest, in
	 * the order of the command line. */
	const char *cmds[OPTIONS_MAX_CMDS];
	const char *names[OPTIONS_MAX_CMDS];
	int ncmds, nnames, cmds_before_s;
	/* the first option given that only means something for runs ("--src"),
	 * NULL if none: without -s/--cmd/--demo that is a usage error */
	const char *run_opt;
	const char *run_opt_nopick; /* of those, the first the picker ignores */
	int prealloc;		/* --prealloc: mm_* size dst with fallocate */
	const char *results;	/* --results FILE */
	const char *baseline;	/* --baseline NAME */
	long stall_timeout_s;	/* --stall-timeout: a copy without progress this long fails, 0 = never */
	int demo;		/* --demo[=NAME] */
	const struct preset *preset; /* its preset, NULL = PRESET_DEFAULT */

	/* --record / --replay */
	const char *record;	/* --record FILE (.gz: compressed) */
	int record_gzip;	/* -z: compress --record and the files of the R key */
	const char *replay;	/* --replay FILE */
	double replay_at;	/* --replay-at T, seconds from the recording's start */
	double speed;		/* --speed X (0.25-16), 0 = not given */
	const char *live_opt;	/* the first option only a live run takes, NULL if none */
	int argc;		/* the command line, for the recording's header */
	char **argv;

	/* --export-svg / --export-csv / --compare: the recordings read (FILE,
	 * or A B C...) and what is drawn.  With --export-svg, --size is the
	 * picture's WIDTHxHEIGHT (svg_w, svg_h), not a scratch file's size. */
	const char *export_out;	/* OUT of --export-svg / --export-csv */
	const char *inputs[OPTIONS_MAX_INPUTS];
	int ninputs;
	int svg_runs;		/* --view runs (default: the Overview) */
	double from_s, to_s;	/* --from / --to, seconds from the start; -1 = not given */
	long run;		/* --run N (1-based), 0 = not given */
	int svg_w, svg_h;	/* --size WxH with --export-svg, 0 = 1920x1080 */
	const char *theme;	/* -t NAME|PATH, NULL = default */
	int probe;		/* --probe: enum probe_mode, 0 = none */
	int glyphs;		/* --glyphs: enum chart_glyphs, -1 = the theme's or braille */
	const char *talk;	/* --talk FILE: a scripted talk (talk_script.h) */
	int rehearse;		/* --rehearse: run it live and record the fallbacks */
};

void options_init(struct options *o);
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* "512M" -> 536870912.  Rejects empty strings, signs, garbage, overflow. */
int parse_size(const char *s, uint64_t *out);
/* Seconds as a decimal number within [INTERVAL_MIN, INTERVAL_MAX]. */
int parse_interval(const char *s, double *out, char *err, size_t errlen);

/* After --demo and the batch decision: run options without anything to run
 * (-s, --cmd, --demo) are a usage error in batch mode (in the TUI they seed
 * the picker, except --baseline and --name); more --name than --cmd is one
 * too.  0 or -1 + err. */
int options_check_runs(const struct options *o, char *err, size_t errlen);

/* A time as seconds ("42", "1.5") or [h:]m:ss ("1:30"): 0 or -1. */
int parse_clock(const char *s, double *out);

/* The --help text. */
const char *options_usage(void);

#endif
