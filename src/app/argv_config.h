/*
 * argv_config — an old recording's command line read as lrutop reads its
 * own: the recording's header before minor 4 kept the runs' options only in
 * "argv", and the one parser that knows every form of them (-m 64M,
 * --mem-limit=64M, getopt's --mem-l 64M) is options_parse.  recording/ and
 * source/ are below app/ and cannot call it, so the app hands this down to
 * whatever reads recordings (record.h: struct record_argv_parser).
 *
 * Invariants: nothing prints; the recorded argv is not changed (getopt
 * permutes a copy of its pointers); what options_parse refuses today (an
 * option since renamed, a combination since forbidden) is "not known", not
 * an error: the recording still replays, with the defaults.
 */
#ifndef LRUTOP_ARGV_CONFIG_H
#define LRUTOP_ARGV_CONFIG_H

#include "recording/record.h"

/* The parser: 0 and *out filled (have 1), or -1. */
int app_argv_config(int argc, char *const *argv, struct record_config *out);

extern const struct record_argv_parser app_argv_parser; /* {app_argv_config} */

#endif
