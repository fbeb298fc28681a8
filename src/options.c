#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval = 0.25;
	o->dir = "/var/tmp";
	o->history_s = 3600;
	o->repeat = 1;
	o->bs = 8192;
}

int parse_size(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || !isfinite(v) || v < 0)
		return -1;
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
	       "      --prealloc         mm_*: fallocate the copy (label +prealloc), not sparse\n"
	       "      --cmd 'PROG ARGS'  run PROG as the workload ({src} {dst} substituted)\n"
	       "      --demo             the talk preset: rw_cp, mm_sync_cp, mm_sync_madv_cp\n"
	       "\n"
	       "Output:\n"
	       "      --batch            no TUI (automatic when stdout is not a terminal)\n"
	       "  -q, --quiet            batch: print only the results table\n"
	       "      --csv FILE         write the sample series as CSV\n"
	       "      --results FILE     write the results table as CSV\n"
	       "      --ascii            ASCII charts and no colour\n"
	       "\n"
	       "  -h, --help             this text\n"
	       "  -V, --version          version\n"
	       "\n"
	       "Keys: 1 overview  2 iostat  3 vmstat  h help  space pause  +/- interval\n"
	       "      4 runs  r pick runs  c cancel run  C cancel queue  a runs/strategies\n"
	       "      left/right scroll while paused  p partitions  q quit\n";
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
	OPT_PREALLOC,
};

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
		{"prealloc", no_argument, NULL, OPT_PREALLOC},
		{NULL, 0, NULL, 0},
	};
	long l;
	uint64_t u;
	int c;
	optind = 0; /* full reset: tests parse several command lines */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":i:n:d:s:qhV", longopts, NULL)) != -1) {
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
			o->src = optarg;
			break;
		case OPT_SIZE:
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
			if (size_opt("--mem-limit", optarg, &o->mem_limit, err, errlen) < 0)
				return -1;
			break;
		case OPT_REPEAT:
			if (parse_long("--repeat", optarg, 1, &l, err, errlen) < 0)
				return -1;
			if (l > 1000)
				return errf(err, errlen, "--repeat %s: at most 1000", optarg);
			o->repeat = (int)l;
			break;
		case OPT_BS:
			if (size_opt("--bs", optarg, &u, err, errlen) < 0)
				return -1;
			if (u > 1024 * 1024 * 1024)
				return errf(err, errlen, "--bs %s: at most 1G", optarg);
			o->bs = (size_t)u;
			break;
		case OPT_NODROP:
			o->no_drop_caches = 1;
			break;
		case OPT_NOVERIFY:
			o->no_verify = 1;
			break;
		case OPT_PREALLOC:
			o->prealloc = 1;
			break;
		case OPT_CMD:
			o->cmd = optarg;
			break;
		case OPT_RESULTS:
			if (!*optarg)
				return errf(err, errlen, "--results: empty file name");
			o->results = optarg;
			break;
		case OPT_DEMO:
			o->demo = 1;
			break;
		case OPT_BASELINE:
			o->baseline = optarg;
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
