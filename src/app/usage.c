/*
 * usage — the text of --help: the synopsis, every option (made from the
 * options table, options.c, one row each), the keys (made from the key
 * tables, keys_doc.c) and the exit status.
 */
#include "app/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/actions.h"
#include "base/util.h"

/* The column where an option's help starts. */
#define HELP_COL 25

static const char synopsis[] =
    "Usage: lrutop [OPTIONS]            live monitor (TUI)\n"
    "       lrutop [OPTIONS] -s LIST    TUI that also runs copy strategies\n"
    "       lrutop --batch [OPTIONS]    no TUI: sample lines (and results)\n"
    "       lrutop --export-svg OUT FILE  a recording as a slide-ready SVG\n"
    "       lrutop --export-csv OUT FILE  a recording's samples as --csv wrote them\n"
    "       lrutop --export-openmetrics OUT FILE  a recording for Prometheus (backfill)\n"
    "       lrutop --compare A B [C...]   the same strategies from recordings\n"
    "                                     (a terminal: in the Runs view)\n"
    "       lrutop --talk FILE [--rehearse]  a scripted talk, recorded fallbacks\n";

static const char footer[] =
    "\n"
    "Exit status: 0 ok, 1 a run failed / -n with runs not done / a write error,\n"
    "             2 usage or environment error (nothing left), 128+N signal N.\n";

/* Each group's heading ("" for the last: a blank line only). */
static const char *const heading[] = {
    [OPTG_SAMPLING] = "Sampling:",
    [OPTG_RUNS] = "Copy runs:",
    [OPTG_OUTPUT] = "Output:",
    [OPTG_RECORD] = "Record and replay:",
    [OPTG_TALK] = "Talk (docs/talk.md):",
    [OPTG_EXPORT] = "Export (--export-svg):",
    [OPTG_END] = "",
};

/* Appends k bytes of s (or, s NULL, k blanks) to buf; at grows by k even
 * past len, so the caller learns the length it needs. */
static void put(char *buf, size_t len, size_t *at, const char *s, size_t k)
{
	for (size_t i = 0; i < k; i++, (*at)++)
		if (*at + 1 < len)
			buf[*at] = s ? s[i] : ' ';
	if (len)
		buf[*at < len ? *at : len - 1] = '\0';
}

static void puts_(char *buf, size_t len, size_t *at, const char *s)
{
	put(buf, len, at, s, strlen(s));
}

size_t options_usage(char *buf, size_t len)
{
	size_t n, at = 0;
	const struct options_entry *t = options_table(&n);
	int group = -1;
	puts_(buf, len, &at, synopsis);
	for (size_t i = 0; i < n; i++) {
		const struct options_entry *e = &t[i];
		if (e->group >= OPTG_HIDDEN || !e->help)
			continue;
		if ((int)e->group != group) {
			group = (int)e->group;
			puts_(buf, len, &at, "\n");
			if (heading[group][0]) {
				puts_(buf, len, &at, heading[group]);
				puts_(buf, len, &at, "\n");
			}
		}
		char left[64], flag[8] = "    ";
		if (e->flag)
			snprintf(flag, sizeof(flag), "-%c%s", e->flag, e->name ? ", " : "");
		int w = snprintf(left, sizeof(left), "  %s%s%s%s%s", flag, e->name ? e->name : "",
				 !e->metavar			   ? ""
				 : e->has_arg == optional_argument ? "[="
								   : " ",
				 e->metavar ? e->metavar : "",
				 e->metavar && e->has_arg == optional_argument ? "]" : "");
		puts_(buf, len, &at, left);
		/* a name that reaches the column: its help starts on the next
		 * line, at the column (as getopt_long tools' --help does) */
		if (w >= HELP_COL - 1) {
			puts_(buf, len, &at, "\n");
			w = 0;
		}
		put(buf, len, &at, NULL, (size_t)(HELP_COL - w));
		/* the help, its further lines indented to the column */
		for (const char *s = e->help, *next;; s = next) {
			put(buf, len, &at, s, text_line(s, &next));
			puts_(buf, len, &at, "\n");
			if (!next)
				break;
			put(buf, len, &at, NULL, HELP_COL);
		}
	}
	/* the keys, from the key tables */
	puts_(buf, len, &at, "\n");
	size_t kn = keys_usage(NULL, 0);
	char *keys = xmalloc(kn + 1);
	keys_usage(keys, kn + 1);
	puts_(buf, len, &at, keys);
	free(keys);
	puts_(buf, len, &at, footer);
	return at;
}
