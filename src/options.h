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
	ACTION_LIST_THEMES,
};

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
	int demo;
	const char *theme;	/* -t NAME|PATH, NULL = default */
	int glyphs;		/* --glyphs: enum chart_glyphs, -1 = the theme's or braille */
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

/* The --help text. */
const char *options_usage(void);

#endif
