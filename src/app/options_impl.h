/*
 * options_impl — what the options' two files share (internal to src/app/,
 * not part of options.h's API): options.c the table, its handlers and the
 * parse loop, options_check.c the checks between options after it.
 */
#ifndef LRUTOP_OPTIONS_IMPL_H
#define LRUTOP_OPTIONS_IMPL_H

#include <stddef.h>

#include "app/options.h"
#include "base/util.h"

/* Rows of the table at most (options.c asserts the table fits). */
#define OPTIONS_ROWS_MAX 96

/* What options_parse carries from the handlers to the checks after the loop. */
struct options_pass {
	struct options *o;
	char *err;
	size_t errlen;
	unsigned char given[OPTIONS_ROWS_MAX]; /* per row of the table: given on the line */
	char as_given[40];    /* the option being taken, as given: "-h" or "--help" */
	char act[40];	      /* the action's (--help, --version, ...) as given, "" none */
	int exp_action;	      /* --export-svg / --export-csv / --compare, 0 = none */
	const char *exp_name; /* its option, "" none */
	const char *size_arg; /* --size: a byte size, or WxH with --export-svg */
	char other[40];	      /* the first option given that an export does not take */
	char svg[40];	      /* the first svg-only one */
};

/* A handler's or a check's error: one sentence into the pass's buffer, -1. */
#define ERR(p, ...) errf((p)->err, (p)->errlen, __VA_ARGS__)

/* All the checks that need the whole command line, after the loop: pos,
 * the npos arguments that were not options.  0 or -1 + the pass's err. */
int options_validate(struct options_pass *p, char **pos, int npos);

#endif
