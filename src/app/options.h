/*
 * options — the command line (docs/design.md §4) parsed into one plain struct.
 *
 * Invariants: options_parse never prints and never exits; on bad input it
 * returns -1 with one sentence in err (main prefixes "lrutop: " and exits 2).
 * Sizes take K/M/G/T suffixes in powers of 1024.
 */
#ifndef LRUTOP_OPTIONS_H
#define LRUTOP_OPTIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/parse.h"
#include "output/export.h"
#include "runs/run_config.h"

#define OPTIONS_MAX_CMDS RUN_CONFIG_MAX_CMDS

/* What the command line asks for: OPTA_* beside the table's OPTG_* and
 * OPTW_* (the keys' actions are another thing: actions.h). */
enum options_action {
	OPTA_RUN, /* TUI or batch */
	OPTA_HELP,
	OPTA_VERSION,
	OPTA_LIST_STRATEGIES,
	OPTA_EXPORT_SVG,	 /* --export-svg OUT FILE */
	OPTA_EXPORT_CSV,	 /* --export-csv OUT FILE */
	OPTA_EXPORT_OPENMETRICS, /* --export-openmetrics OUT FILE */
	OPTA_COMPARE,		 /* --compare A B [C...] */
	OPTA_LIST_THEMES,
	OPTA_LIST_OPTIONS, /* --list-options (hidden): the table's options, for tests */
	OPTA_LIST_KEYS,	   /* --list-keys (hidden): docs/keys.md's tables (tools/keys-doc) */
};

/* Recordings one command line can name (--compare A B ...). */
#define OPTIONS_MAX_INPUTS 8

struct preset;

struct options {
	enum options_action action;
	double interval;    /* seconds */
	long count;	    /* samples to take, 0 = until stopped */
	const char *device; /* -d NAME, NULL = the disk holding dir */
	const char *dir;    /* scratch directory, default /var/tmp */
	int dir_given;	    /* --dir was on the command line */
	int batch;	    /* --batch (main also sets it when stdout is not a tty) */
	int quiet;
	int ascii;
	const char *csv;  /* --csv FILE */
	const char *metrics_file; /* --metrics-file PATH: node_exporter's textfile */
	int metrics_remove;	  /* --metrics-file-remove: PATH goes at exit */
	const char *host_label;	  /* --host-label NAME: the host the session says, NULL uname's */
	double history_s; /* seconds of history kept */

	/* the copy worker (part 2) */
	const char *strategies; /* -s LIST */
	const char *src;	/* --src FILE */
	uint64_t size;		/* --size, 0 = default */
	uint64_t mem_limit;	/* --mem-limit, 0 = none */
	uint64_t disk_limit;	/* --disk-limit, bytes/s of the watched disk, 0 = none */
	int repeat;
	size_t bs; /* --bs */
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
	int prealloc;		    /* --prealloc: mm_* size dst with fallocate */
	const char *results;	    /* --results FILE */
	const char *export_json;    /* --export-json FILE (hyperfine's JSON) */
	const char *export_md;	    /* --export-markdown FILE */
	const char *baseline;	    /* --baseline NAME */
	long stall_timeout_s; /* --stall-timeout: a copy without progress this long fails, 0 = never
			       */
	int demo;	      /* --demo[=NAME] */
	const struct preset *preset; /* its preset, NULL = PRESET_DEFAULT */

	/* --record / --replay */
	const char *record;   /* --record FILE (.gz: compressed) */
	int record_gzip;      /* -z: compress --record and the files of the R key */
	const char *replay;   /* --replay FILE */
	const char *follow;   /* --follow FILE|- */
	int follow_fd;	      /* main: --follow -'s standard input, moved off fd 0; -1 none */
	double replay_at;     /* --replay-at T, seconds from the recording's start */
	double speed;	      /* --speed X (0.25-16), 0 = not given */
	const char *live_opt; /* the first option only a live run takes, NULL if none */
	int argc;	      /* the command line, for the recording's header */
	char **argv;

	/* --export-svg / --export-csv / --compare: the recordings read (FILE,
	 * or A B C...) and what is drawn.  With --export-svg, --size is the
	 * picture's WIDTHxHEIGHT (svg_w, svg_h), not a scratch file's size. */
	const char *export_out; /* OUT of --export-svg / --export-csv */
	const char *inputs[OPTIONS_MAX_INPUTS];
	int ninputs;
	int svg_runs;	     /* --view runs 1, sweep 2 (default: the Overview, 0) */
	double from_s, to_s; /* --from / --to, seconds from the start; -1 = not given */
	long run;	     /* --run N (1-based), 0 = not given */
	int svg_w, svg_h;    /* --size WxH with --export-svg, 0 = 1920x1080 */
	const char *theme;   /* -t NAME|PATH, NULL = default */
	int probe;	     /* --probe: enum probe_mode, 0 = none */
	int glyphs;	     /* --glyphs: enum chart_glyphs, -1 = the theme's or braille */
	const char *talk;    /* --talk FILE: a scripted talk (talk_script.h) */
	int rehearse;	     /* --rehearse: run it live and record the fallbacks */
	struct sweep_spec sweep; /* --sweep and --sweep-until, param 0 = none */
};

/* ---- the options table ------------------------------------------------
 * One row per option, as tmux's cmd_entry keeps flag, usage and handler
 * together: getopt's long options and optstring, --help (usage.c) and
 * --list-options (which tests/sh/options_table.sh holds to the man page's
 * OPTIONS) are all made from it.  Rows are in --help's order, grouped. */
enum options_group {
	OPTG_SAMPLING,
	OPTG_RUNS,
	OPTG_OUTPUT,
	OPTG_RECORD,
	OPTG_TALK,
	OPTG_EXPORT,
	OPTG_END,    /* -h, -V: after a blank line, no heading */
	OPTG_HIDDEN, /* not in --help (--list-options) */
};

/* What the checks after the parse need to know of an option (OPTW_*). */
#define OPTW_LIVE   1u	/* only a live run takes it: not with --replay */
#define OPTW_RUN    2u	/* only runs use it: "nothing to run" without -s/--cmd */
#define OPTW_NOPICK 4u	/* a run option the TUI's picker ignores */
#define OPTW_SVG    8u	/* only --export-svg takes it */
#define OPTW_EXPORT 16u /* an export or a comparison takes it */
#define OPTW_EITHER 32u /* means one thing for runs, another for --export-svg */
#define OPTW_SECRET 64u /* a tool for tests: not in --help, --list-options or the man page */
/* Given again, it adds one more (--cmd, --name).  Any other option given
 * twice is a usage error ("--results given twice"): nothing is taken
 * silently over something else. */
#define OPTW_MULTI 128u

struct options_pass; /* the state of one options_parse (options_impl.h) */

struct options_entry {
	int flag;	     /* short option letter, 0 = none */
	const char *name;    /* long option without "--", NULL = short only */
	int has_arg;	     /* getopt's no_argument, required_argument, ... */
	const char *metavar; /* the argument in --help ("SEC"), NULL = none */
	enum options_group group;
	const char *help; /* --help text; '\n' starts an indented line */
	unsigned what;	  /* OPTW_* */
	const char *say;  /* its name in messages, NULL = "--name" */
	size_t off;	  /* the field of struct options a generic handler sets */
	int val;	  /* the value set_action / set_true store */
	/* Takes the option's argument (NULL without one): 0, or -1 with the
	 * message in the pass's error buffer.  NULL: a row that only shows an
	 * option of another row in one more --help section. */
	int (*set)(struct options_pass *p, const struct options_entry *e, const char *arg);
};

/* The table and its length. */
const struct options_entry *options_table(size_t *n);

void options_init(struct options *o);
int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen);

/* After --demo and the batch decision: run options without anything to run
 * (-s, --cmd, --demo) are a usage error in batch mode (in the TUI they seed
 * the picker, except --baseline and --name); more --name than --cmd is one
 * too, and so is -q in the TUI.  0 or -1 + err. */
int options_check_runs(const struct options *o, char *err, size_t errlen);

/* The run configuration the options give (what session_init takes): c,
 * filled; its strings are o's (argv's). */
struct run_config *options_run_config(const struct options *o, struct run_config *c);

/* The part of the options an export or a comparison reads (export.h). */
struct export_req options_export_req(const struct options *o);

/* The --help text into buf (made from the table): the length it needs,
 * as snprintf. */
size_t options_usage(char *buf, size_t len);
/* --list-options: every option getopt knows, "-x" or "--name", one a line,
 * into buf: the length it needs, as snprintf. */
size_t options_list(char *buf, size_t len);

#endif
