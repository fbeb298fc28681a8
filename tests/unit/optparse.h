/*
 * optparse — options_parse on a command line written out in a test:
 * "lrutop" and the NULL-terminated arguments, err emptied first.  Shared
 * by the suites that check the command line so each does not carry its
 * own copy.  static inline: a suite that does not use one gets no
 * unused-function warning.
 */
#ifndef LRUTOP_OPTPARSE_H
#define LRUTOP_OPTPARSE_H

#include <stdarg.h>
#include <stddef.h>

#include "app/options.h"

/* options_init, then options_parse of argc/argv into o. */
static inline int tu_parse_argv(struct options *o, char *err, size_t errlen, int argc, char **argv)
{
	options_init(o);
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

/* "lrutop" followed by the NULL-terminated arguments (at most 62).  The
 * vector is static: o may keep pointers into it (the trailing command)
 * after the call, until the next one. */
static inline int tu_parse(struct options *o, char *err, size_t errlen, ...)
{
	static char *argv[64];
	int argc = 0;
	argv[argc++] = "lrutop";
	va_list ap;
	va_start(ap, errlen);
	for (char *a; (a = va_arg(ap, char *)) && argc < 63;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return tu_parse_argv(o, err, errlen, argc, argv);
}

/* tu_parse into the array err, the NULL added. */
#define PARSE(o, err, ...) tu_parse((o), (err), sizeof(err), __VA_ARGS__, (char *)NULL)

#endif
