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
#define INTERVAL_MAX 60.0

enum options_action {
	ACTION_RUN,		/* TUI or batch */
	ACTION_HELP,
	ACTION_VERSION,
	ACTION_LIST_STRATEGIES,
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
	int prealloc;		/* --prealloc: mm_* size dst with fallocate */
	const char *cmd;	/* --cmd 'PROG ARGS' */
	const char *results;	/* --results FILE */
	const char *baseline;	/* --baseline NAME */
	int demo;
};

void options_init(struct options *o);
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* "512M" -> 536870912.  Rejects empty strings, signs, garbage, overflow. */
int parse_size(const char *s, uint64_t *out);
/* Seconds as a decimal number within [INTERVAL_MIN, INTERVAL_MAX]. */
int parse_interval(const char *s, double *out, char *err, size_t errlen);

/* The --help text. */
const char *options_usage(void);

#endif
