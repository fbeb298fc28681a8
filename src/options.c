#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "util.h"

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval = 0.25;
	o->dir = "/var/tmp";
	o->history_s = 3600;
	o->stall_timeout_s = 30;
	o->repeat = 1;
	o->bs = 8192;
	o->glyphs = -1;
}

int parse_size(const char *s, uint64_t *out)
{
	/* strtod would also skip blanks and take signs, "inf" and hex */
	if (!s || !((*s >= '0' && *s <= '9') || *s == '.') || strpbrk(s, "xX"))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
	const char *num_end = end;
	double mul = 1;
	switch (*end) {
	case 'k': case 'K': mul = 1024.0; end++; break;
	case 'm': case 'M': mul = 1024.0 * 1024; end++; break;
	case 'g': case 'G': mul = 1024.0 * 1024 * 1024; end++; break;
	case 't': case 'T': mul = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if ((*end == 'i' || *end == 'I') && mul > 1 && (end[1] == 'B' || end[1] == 'b'))
		end += 2;
	else if ((*end == 'B' || *end == 'b') && mul > 1)
		end++;
	if (*end)
		return -1;
	/* A whole number is counted exactly: a double holds only 53 bits, so
	 * "9007199254740993" would otherwise come back one byte short. */
	if (strspn(s, "0123456789") == (size_t)(num_end - s)) {
		errno = 0;
		unsigned long long n = strtoull(s, NULL, 10);
		uint64_t m = (uint64_t)mul;
		if (errno || (m && n > UINT64_MAX / m))
			return -1;
		*out = (uint64_t)n * m;
		return 0;
	}
	double bytes = v * mul;
	if (bytes >= 18446744073709551615.0 || bytes != floor(bytes))
		return -1;
	*out = (uint64_t)bytes;
	return 0;
}

int parse_interval(const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v))
		return errf(err, errlen, "-i %s: not a number of seconds", s);
	if (v < INTERVAL_MIN || v > INTERVAL_MAX)
		return errf(err, errlen, "-i %s: interval must be between %.2f and %.0f seconds", s,
			    INTERVAL_MIN, INTERVAL_MAX);
	*out = v;
	return 0;
}

static int parse_long(const char *opt, const char *s, long min, long *out, char *err,
		      size_t errlen)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end)
		return errf(err, errlen, "%s %s: not a whole number", opt, s);
	if (v < min)
		return errf(err, errlen, "%s %s: must be at least %ld", opt, s, min);
	*out = v;
	return 0;
}

static int size_opt(const char *opt, const char *s, uint64_t *out, char *err, size_t errlen)
{
	if (parse_size(s, out) < 0)
		return errf(err, errlen, "%s %s: not a size (use e.g. 512M, 4G)", opt, s);
	if (*out == 0)
		return errf(err, errlen, "%s %s: must be larger than zero", opt, s);
	return 0;
}

const char *options_usage(void)
{
	return "Usage: lrutop [OPTIONS]            live monitor (TUI)\n"
	       "       lrutop [OPTIONS] -s LIST    TUI that also runs copy strategies\n"
	       "       lrutop --batch [OPTIONS]    no TUI: sample lines (and results)\n"
	       "\n"
	       "Sampling:\n"
	       "  -i, --interval SEC     seconds between samples (0.05-60, default 0.25)\n"
	       "  -n, --count N          stop after N samples\n"
	       "  -d, --device NAME      disk to watch (default: the disk holding --dir)\n"
	       "      --history SEC      seconds of history kept (default 3600)\n"
	       "\n"
	       "Copy runs:\n"
	       "  -s, --strategies LIST  comma list of strategies, 'copybench' or 'all'\n"
	       "      --list-strategies  list the strategies and what each shows\n"
	       "      --src FILE         copy this file (never modified)\n"
	       "      --size SIZE        scratch source size when --src is absent (K/M/G/T)\n"
	       "      --dir DIR          scratch directory on a disk (default /var/tmp)\n"
	       "      --mem-limit SIZE   run the copy in a memory cgroup of SIZE (root)\n"
	       "      --repeat N         run each strategy N times (interleaved: A B A B)\n"
	       "      --baseline NAME    ratios and +-% relative to NAME (default: first)\n"
	       "      --bs SIZE          buffer size of read/write strategies (default 8K)\n"
	       "      --no-drop-caches   do not drop caches before a run\n"
	       "      --no-verify        do not compare the copy with the source\n"
	       "      --cmd 'PROG ARGS'  one more run: PROG ({src} {dst} substituted), repeatable\n"
	       "      --name NAME        label of the i-th --cmd (default: its program)\n"
	       "      --stall-timeout SEC fail a copy without progress for SEC s (30; 0: never)\n"
	       "      --prealloc         mm_*: fallocate the copy (label +prealloc), not sparse\n"
	       "      --demo             the talk preset: rw_cp, mm_sync_cp, mm_sync_madv_cp\n"
	       "\n"
	       "Output:\n"
	       "      --batch            no TUI (automatic when stdout is not a terminal)\n"
	       "  -q, --quiet            batch: print only the results table\n"
	       "      --csv FILE         write the sample series as CSV\n"
	       "      --results FILE     write the results table as CSV\n"
	       "      --ascii            ASCII charts and no colour\n"
	       "  -t, --theme NAME|PATH  colour theme (default; a path if it has a '/')\n"
	       "      --list-themes      list the themes found and where\n"
	       "      --glyphs G         chart glyphs: braille, blocks or ascii\n"
	       "\n"
	       "  -h, --help             this text\n"
	       "  -V, --version          version\n"
	       "\n"
	       "Keys: 1 overview  2 iostat  3 vmstat  h help  space pause  +/- interval\n"
	       "      4 runs  r pick runs  c cancel run  C cancel queue  a runs/strategies\n"
	       "      left/right scroll while paused  p partitions  g glyphs  t theme  q quit\n"
	       "\n"
	       "Exit status: 0 ok, 1 a run failed / -n with runs not done / a write error,\n"
	       "             2 usage or environment error (nothing left), 128+N signal N.\n";
}

enum {
	OPT_BATCH = 256,
	OPT_CSV,
	OPT_ASCII,
	OPT_HISTORY,
	OPT_LIST,
	OPT_SRC,
	OPT_SIZE,
	OPT_DIR,
	OPT_MEMLIMIT,
	OPT_REPEAT,
	OPT_BS,
	OPT_NODROP,
	OPT_NOVERIFY,
	OPT_CMD,
	OPT_RESULTS,
	OPT_DEMO,
	OPT_BASELINE,
	OPT_NAME,
	OPT_STALL,
	OPT_PREALLOC,
	OPT_LIST_THEMES,
	OPT_GLYPHS,
};

/* Remembers the first option that only runs use (and of those the picker
 * does not use). */
static void run_opt(struct options *o, const char *name)
{
	if (!o->run_opt)
		o->run_opt = name;
	if (!o->run_opt_nopick && (!strcmp(name, "--baseline") || !strcmp(name, "--name") ||
				   !strcmp(name, "--results")))
		o->run_opt_nopick = name;
}

int options_check_runs(const struct options *o, char *err, size_t errlen)
{
	if (o->nnames > o->ncmds)
		return errf(err, errlen, "--name %s: no --cmd for it to name (the i-th --name "
				"labels the i-th --cmd)", o->names[o->ncmds]);
	if (o->strategies || o->ncmds || o->demo || !o->run_opt)
		return 0;
	/* the picker of the TUI starts runs with --src, --size, ... */
	const char *bad = o->batch ? o->run_opt : o->run_opt_nopick;
	if (!bad)
		return 0;
	return errf(err, errlen, "%s: nothing to run (add -s STRATEGIES or --cmd)", bad);
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{"interval", required_argument, NULL, 'i'},
		{"count", required_argument, NULL, 'n'},
		{"device", required_argument, NULL, 'd'},
		{"strategies", required_argument, NULL, 's'},
		{"quiet", no_argument, NULL, 'q'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"batch", no_argument, NULL, OPT_BATCH},
		{"csv", required_argument, NULL, OPT_CSV},
		{"ascii", no_argument, NULL, OPT_ASCII},
		{"history", required_argument, NULL, OPT_HISTORY},
		{"list-strategies", no_argument, NULL, OPT_LIST},
		{"src", required_argument, NULL, OPT_SRC},
		{"size", required_argument, NULL, OPT_SIZE},
		{"dir", required_argument, NULL, OPT_DIR},
		{"mem-limit", required_argument, NULL, OPT_MEMLIMIT},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"bs", required_argument, NULL, OPT_BS},
		{"no-drop-caches", no_argument, NULL, OPT_NODROP},
		{"no-verify", no_argument, NULL, OPT_NOVERIFY},
		{"cmd", required_argument, NULL, OPT_CMD},
		{"results", required_argument, NULL, OPT_RESULTS},
		{"demo", no_argument, NULL, OPT_DEMO},
		{"baseline", required_argument, NULL, OPT_BASELINE},
		{"name", required_argument, NULL, OPT_NAME},
		{"stall-timeout", required_argument, NULL, OPT_STALL},
		{"prealloc", no_argument, NULL, OPT_PREALLOC},
		{"theme", required_argument, NULL, 't'},
		{"list-themes", no_argument, NULL, OPT_LIST_THEMES},
		{"glyphs", required_argument, NULL, OPT_GLYPHS},
		{NULL, 0, NULL, 0},
	};
	long l;
	uint64_t u;
	int c;
	optind = 0; /* full reset: tests parse several command lines */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:n:d:s:t:qhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'i':
			if (parse_interval(optarg, &o->interval, err, errlen) < 0)
				return -1;
			break;
		case 'n':
			if (parse_long("-n", optarg, 1, &o->count, err, errlen) < 0)
				return -1;
			break;
		case 'd':
			/* "/dev/sda" names the same disk as "sda" */
			o->device = strncmp(optarg, "/dev/", 5) == 0 ? optarg + 5 : optarg;
			if (!*o->device)
				return errf(err, errlen, "-d: empty device name");
			break;
		case 's':
			o->strategies = optarg;
			o->cmds_before_s = o->ncmds;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			o->action = ACTION_HELP;
			break;
		case 'V':
			o->action = ACTION_VERSION;
			break;
		case OPT_BATCH:
			o->batch = 1;
			break;
		case OPT_CSV:
			if (!*optarg)
				return errf(err, errlen, "--csv: empty file name");
			o->csv = optarg;
			break;
		case OPT_ASCII:
			o->ascii = 1;
			break;
		case OPT_HISTORY:
			if (parse_long("--history", optarg, 10, &l, err, errlen) < 0)
				return -1;
			o->history_s = (double)l;
			break;
		case OPT_LIST:
			o->action = ACTION_LIST_STRATEGIES;
			break;
		case OPT_SRC:
			run_opt(o, "--src");
			o->src = optarg;
			break;
		case OPT_SIZE:
			run_opt(o, "--size");
			if (size_opt("--size", optarg, &o->size, err, errlen) < 0)
				return -1;
			break;
		case OPT_DIR:
			if (!*optarg)
				return errf(err, errlen, "--dir: empty directory name");
			o->dir = optarg;
			o->dir_given = 1;
			break;
		case OPT_MEMLIMIT:
			run_opt(o, "--mem-limit");
			if (size_opt("--mem-limit", optarg, &o->mem_limit, err, errlen) < 0)
				return -1;
			break;
		case OPT_REPEAT:
			run_opt(o, "--repeat");
			if (parse_long("--repeat", optarg, 1, &l, err, errlen) < 0)
				return -1;
			if (l > 1000)
				return errf(err, errlen, "--repeat %s: at most 1000", optarg);
			o->repeat = (int)l;
			break;
		case OPT_BS:
			run_opt(o, "--bs");
			if (size_opt("--bs", optarg, &u, err, errlen) < 0)
				return -1;
			if (u > 1024 * 1024 * 1024)
				return errf(err, errlen, "--bs %s: at most 1G", optarg);
			o->bs = (size_t)u;
			break;
		case OPT_NODROP:
			run_opt(o, "--no-drop-caches");
			o->no_drop_caches = 1;
			break;
		case OPT_NOVERIFY:
			run_opt(o, "--no-verify");
			o->no_verify = 1;
			break;
		case OPT_PREALLOC:
			run_opt(o, "--prealloc");
			o->prealloc = 1;
			break;
		case OPT_CMD:
			if (o->ncmds == OPTIONS_MAX_CMDS)
				return errf(err, errlen, "--cmd: at most %d commands", OPTIONS_MAX_CMDS);
			if (strspn(optarg, " \t") == strlen(optarg))
				return errf(err, errlen, "--cmd: empty command");
			o->cmds[o->ncmds++] = optarg;
			break;
		case OPT_NAME:
			if (o->nnames == OPTIONS_MAX_CMDS)
				return errf(err, errlen, "--name: at most %d names", OPTIONS_MAX_CMDS);
			o->names[o->nnames++] = optarg;
			run_opt(o, "--name");
			break;
		case OPT_RESULTS:
			run_opt(o, "--results");
			if (!*optarg)
				return errf(err, errlen, "--results: empty file name");
			o->results = optarg;
			break;
		case OPT_DEMO:
			o->demo = 1;
			break;
		case OPT_BASELINE:
			run_opt(o, "--baseline");
			o->baseline = optarg;
			break;
		case 't':
			if (!*optarg)
				return errf(err, errlen, "-t: empty theme name");
			o->theme = optarg;
			break;
		case OPT_LIST_THEMES:
			o->action = ACTION_LIST_THEMES;
			break;
		case OPT_GLYPHS:
			if (!strcmp(optarg, "braille"))
				o->glyphs = CHART_BRAILLE;
			else if (!strcmp(optarg, "blocks"))
				o->glyphs = CHART_BLOCK;
			else if (!strcmp(optarg, "ascii"))
				o->glyphs = CHART_ASCII;
			else
				return errf(err, errlen, "--glyphs %s: not braille, blocks or ascii",
					    optarg);
			break;
		case OPT_STALL:
			run_opt(o, "--stall-timeout");
			if (parse_long("--stall-timeout", optarg, 0, &o->stall_timeout_s, err,
				       errlen) < 0)
				return -1;
			break;
		case ':':
			return errf(err, errlen, "%s: needs an argument (see --help)",
				    argv[optind - 1]);
		default:
			if (optopt)
				return errf(err, errlen, "-%c: unknown option (see --help)", optopt);
			return errf(err, errlen, "%s: unknown option (see --help)",
				    argv[optind - 1]);
		}
	}
	if (optind < argc)
		return errf(err, errlen, "%s: unexpected argument (see --help)", argv[optind]);
	return 0;
}
