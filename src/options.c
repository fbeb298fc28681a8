#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glyphs.h"
#include "preset.h"
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
	o->from_s = o->to_s = -1;
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

/* A plain decimal number: strtod alone also takes blanks, a sign, hex
 * ("0x10" is 16) and "inf". */
static int plain_decimal(const char *s)
{
	return ((*s >= '0' && *s <= '9') || *s == '.') && !strpbrk(s, "xXpP");
}

int parse_interval(const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (!plain_decimal(s) || errno || end == s || *end || !isfinite(v))
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
	/* strtol skips blanks and takes '+': -n ' 3' is not a number */
	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')) || errno ||
	    end == s || *end)
		return errf(err, errlen, "%s %s: not a whole number", opt, s);
	if (v < min)
		return errf(err, errlen, "%s %s: must be at least %ld", opt, s, min);
	*out = v;
	return 0;
}

int parse_clock(const char *s, double *out)
{
	double v = 0;
	int parts = 0;
	while (s && *s) {
		if (!((*s >= '0' && *s <= '9') || *s == '.'))
			return -1;
		char *end;
		errno = 0;
		double x = strtod(s, &end);
		if (errno || end == s || !isfinite(x) || x < 0 || ++parts > 3)
			return -1;
		if (*end == ':' && (x != floor(x) || !end[1]))
			return -1;
		if (parts > 1 && x >= 60)
			return -1;
		v = v * 60 + x;
		if (!*end)
			break;
		if (*end != ':')
			return -1;
		s = end + 1;
	}
	if (!parts)
		return -1;
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
	OPT_DISKLIMIT,
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
	OPT_RECORD,
	OPT_REPLAY,
	OPT_REPLAY_AT,
	OPT_SPEED,
	OPT_EXPORT_SVG,
	OPT_EXPORT_CSV,
	OPT_COMPARE,
	OPT_VIEW,
	OPT_FROM,
	OPT_TO,
	OPT_RUN,
	OPT_LIST_THEMES,
	OPT_GLYPHS,
	OPT_TALK,
	OPT_REHEARSE,
	OPT_PROBE,
};

/* ---- --export-svg, --export-csv, --compare ------------------------------ */

/* Options an export or a comparison takes; the svg ones only --export-svg. */
static int export_opt(int c)
{
	return c == OPT_EXPORT_SVG || c == OPT_EXPORT_CSV || c == OPT_COMPARE || c == OPT_BATCH ||
	       c == 'h' || c == 'V';
}
static int svg_opt(int c)
{
	return c == OPT_VIEW || c == OPT_FROM || c == OPT_TO || c == OPT_RUN;
}

/* --from / --to: seconds from the recording's start, "90", "12.5" or "1:30". */
static int parse_offset(const char *opt, const char *s, double *out, char *err, size_t errlen)
{
	char *end;
	double min = 0, v;
	const char *arg = s;
	errno = 0;
	const char *colon = strchr(s, ':');
	if (colon) {
		long m = strtol(s, &end, 10);
		if (errno || end != colon || m < 0 || s[0] < '0' || s[0] > '9')
			goto bad;
		min = (double)m;
		s = colon + 1;
	}
	if (!((*s >= '0' && *s <= '9') || *s == '.'))
		goto bad;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || (colon && v >= 60))
		goto bad;
	*out = min * 60 + v;
	return 0;
bad:
	return errf(err, errlen, "%s %s: not a time (seconds from the start: 90, 12.5 or 1:30)",
		    opt, arg);
}

/* --size WIDTHxHEIGHT of --export-svg, pixels: what svg_write draws, 320 to
 * 16384 wide, 240 to 16384 high. */
static int parse_wxh(const char *s, int *w, int *h, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	long lw = (*s >= '0' && *s <= '9') ? strtol(s, &end, 10) : -1;
	long lh = -1;
	if (lw >= 0 && !errno && (*end == 'x' || *end == 'X') && end[1] >= '0' && end[1] <= '9') {
		const char *hs = end + 1;
		lh = strtol(hs, &end, 10);
		if (errno || *end)
			lh = -1;
	}
	if (lw < 0 || lh < 0)
		return errf(err, errlen, "--size %s: not WIDTHxHEIGHT in pixels (e.g. 1920x1080)", s);
	if (lw < 320 || lw > 16384 || lh < 240 || lh > 16384)
		return errf(err, errlen, "--size %s: out of range (320x240 to 16384x16384 pixels)",
			    s);
	*w = (int)lw;
	*h = (int)lh;
	return 0;
}

/* After the loop: the export action's own checks.  other: the first option
 * given that an export does not take ("" none), svg: the first svg-only
 * one.  pos: the arguments that were not options. */
static int export_check(struct options *o, int action, const char *name, const char *other,
			const char *svg, char **pos, int npos, const char *size_arg, char *err,
			size_t errlen)
{
	if (!action) {
		if (svg[0])
			return errf(err, errlen, "%s: only with --export-svg", svg);
		if (npos)
			return errf(err, errlen, "%s: unexpected argument (see --help)", pos[0]);
		return 0;
	}
	if (other[0])
		return errf(err, errlen, "%s: %s does not go with it", name, other);
	if (action != ACTION_EXPORT_SVG && (svg[0] || size_arg))
		return errf(err, errlen, "%s: only with --export-svg", svg[0] ? svg : "--size");
	if (action == ACTION_COMPARE) {
		if (npos < 1)
			return errf(err, errlen, "--compare %s: needs at least two recordings "
					"(--compare A B [C...])", o->inputs[0]);
		if (npos + 1 > OPTIONS_MAX_INPUTS)
			return errf(err, errlen, "--compare: at most %d recordings",
				    OPTIONS_MAX_INPUTS);
		for (int i = 0; i < npos; i++)
			o->inputs[o->ninputs++] = pos[i];
	} else {
		if (npos < 1)
			return errf(err, errlen, "%s %s: needs the recording to read (%s OUT FILE)",
				    name, o->export_out, name);
		if (npos > 1)
			return errf(err, errlen, "%s: unexpected argument (%s OUT FILE takes one "
					"recording)", pos[1], name);
		o->inputs[o->ninputs++] = pos[0];
	}
	for (int i = 0; i < o->ninputs; i++)
		if (!*o->inputs[i])
			return errf(err, errlen, "%s: empty file name", name);
	if (action == ACTION_EXPORT_SVG) {
		if (size_arg && parse_wxh(size_arg, &o->svg_w, &o->svg_h, err, errlen) < 0)
			return -1;
		if (o->run && (o->from_s >= 0 || o->to_s >= 0))
			return errf(err, errlen, "--run %ld: not with --from/--to (a run is its own "
					"time range)", o->run);
		if (o->svg_runs && (o->from_s >= 0 || o->to_s >= 0))
			return errf(err, errlen, "%s: only for the Overview (the Runs view takes "
					"--run N)", o->from_s >= 0 ? "--from" : "--to");
		if (o->from_s >= 0 && o->to_s >= 0 && o->to_s <= o->from_s)
			return errf(err, errlen, "--to %g: not after --from %g", o->to_s, o->from_s);
	}
	if (o->action == ACTION_RUN)
		o->action = action;
	return 0;
}

/* Remembers the first option a replay cannot take (it describes a live
 * run, which the recording already holds). */
static void live_opt(struct options *o, const char *name)
{
	if (!o->live_opt)
		o->live_opt = name;
}

/* Remembers the first option that only runs use (and of those the picker
 * does not use). */
static void run_opt(struct options *o, const char *name)
{
	if (!o->run_opt)
		o->run_opt = name;
	if (strcmp(name, "--results"))
		live_opt(o, name);
	if (!o->run_opt_nopick && (!strcmp(name, "--baseline") || !strcmp(name, "--name") ||
				   !strcmp(name, "--results")))
		o->run_opt_nopick = name;
}

int options_check_runs(const struct options *o, char *err, size_t errlen)
{
	if (o->nnames > o->ncmds)
		return errf(err, errlen, "--name %s: no --cmd for it to name (the i-th --name "
				"labels the i-th --cmd)", o->names[o->ncmds]);
	if (o->replay) {
		/* seeking would write the rows again; --export-csv reads a
		 * recording into a CSV without the TUI */
		if (!o->batch && (o->csv || o->results))
			return errf(err, errlen, "%s: with --replay only in --batch",
				    o->csv ? "--csv" : "--results");
		return 0;
	}
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
		{"disk-limit", required_argument, NULL, OPT_DISKLIMIT},
		{"repeat", required_argument, NULL, OPT_REPEAT},
		{"bs", required_argument, NULL, OPT_BS},
		{"no-drop-caches", no_argument, NULL, OPT_NODROP},
		{"no-verify", no_argument, NULL, OPT_NOVERIFY},
		{"cmd", required_argument, NULL, OPT_CMD},
		{"results", required_argument, NULL, OPT_RESULTS},
		{"demo", optional_argument, NULL, OPT_DEMO},
		{"baseline", required_argument, NULL, OPT_BASELINE},
		{"name", required_argument, NULL, OPT_NAME},
		{"stall-timeout", required_argument, NULL, OPT_STALL},
		{"prealloc", no_argument, NULL, OPT_PREALLOC},
		{"export-svg", required_argument, NULL, OPT_EXPORT_SVG},
		{"export-csv", required_argument, NULL, OPT_EXPORT_CSV},
		{"compare", required_argument, NULL, OPT_COMPARE},
		{"view", required_argument, NULL, OPT_VIEW},
		{"from", required_argument, NULL, OPT_FROM},
		{"to", required_argument, NULL, OPT_TO},
		{"run", required_argument, NULL, OPT_RUN},
		{"theme", required_argument, NULL, 't'},
		{"record", required_argument, NULL, OPT_RECORD},
		{"replay", required_argument, NULL, OPT_REPLAY},
		{"replay-at", required_argument, NULL, OPT_REPLAY_AT},
		{"speed", required_argument, NULL, OPT_SPEED},
		{"list-themes", no_argument, NULL, OPT_LIST_THEMES},
		{"glyphs", required_argument, NULL, OPT_GLYPHS},
		{"talk", required_argument, NULL, OPT_TALK},
		{"rehearse", no_argument, NULL, OPT_REHEARSE},
		{"probe", required_argument, NULL, OPT_PROBE},
		{NULL, 0, NULL, 0},
	};
	long l;
	uint64_t u;
	int c, li;
	o->argc = argc;
	o->argv = argv;
	/* export / compare: which one, and the options it does not take */
	int exp_action = 0;
	const char *exp_name = "", *size_arg = NULL;
	char other[40] = "", svg[40] = "";
	optind = 0; /* full reset: tests parse several command lines */
	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, ":i:n:d:s:t:m:qhVz", longopts, &li)) != -1) {
		if (c != '?' && c != ':') {
			/* --size is either: a byte size or WxH, seen after the loop */
			/* -t: the TUI's theme, or the SVG's */
			char *slot = c == OPT_SIZE || c == 't' ? NULL
				     : svg_opt(c)  ? svg
				     : export_opt(c) ? NULL
						     : other;
			if (slot && !slot[0]) {
				if (li >= 0)
					snprintf(slot, sizeof(other), "--%s", longopts[li].name);
				else
					snprintf(slot, sizeof(other), "-%c", c);
			}
		}
		switch (c) {
		case 'i':
			live_opt(o, "-i");
			if (parse_interval(optarg, &o->interval, err, errlen) < 0)
				return -1;
			break;
		case 'n':
			if (parse_long("-n", optarg, 1, &o->count, err, errlen) < 0)
				return -1;
			break;
		case 'd':
			live_opt(o, "-d");
			/* "/dev/sda" names the same disk as "sda" */
			o->device = strncmp(optarg, "/dev/", 5) == 0 ? optarg + 5 : optarg;
			if (!*o->device)
				return errf(err, errlen, "-d: empty device name");
			break;
		case 's':
			live_opt(o, "-s");
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
			size_arg = optarg; /* a byte size, or WxH with --export-svg */
			break;
		case OPT_DIR:
			if (!*optarg)
				return errf(err, errlen, "--dir: empty directory name");
			o->dir = optarg;
			o->dir_given = 1;
			live_opt(o, "--dir");
			break;
		case 'm': /* -m: the short --mem-limit */
		case OPT_MEMLIMIT:
			run_opt(o, "--mem-limit");
			if (size_opt("--mem-limit", optarg, &o->mem_limit, err, errlen) < 0)
				return -1;
			break;
		case OPT_DISKLIMIT: { /* a size per second: "30M" or "30M/s" */
			char rate[64];
			size_t rl = strlen(optarg);
			run_opt(o, "--disk-limit");
			if (rl >= sizeof(rate) || parse_size(strcpy(rate, optarg), &o->disk_limit) < 0) {
				if (rl >= 2 && rl < sizeof(rate) && !strcmp(optarg + rl - 2, "/s"))
					rate[rl - 2] = '\0';
				if (rl < 2 || rl >= sizeof(rate) || parse_size(rate, &o->disk_limit) < 0)
					return errf(err, errlen, "--disk-limit %s: not a rate (bytes per "
							"second, e.g. 30M)", optarg);
			}
			if (o->disk_limit < 1024 * 1024)
				return errf(err, errlen, "--disk-limit %s: at least 1M (per second)",
					    optarg);
			break;
		}
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
			live_opt(o, "--cmd");
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
			live_opt(o, "--demo");
			o->demo = 1;
			if (optarg && !(o->preset = preset_find(optarg)))
				return errf(err, errlen, "--demo %s: not %s", optarg, preset_names());
			break;
		case OPT_BASELINE:
			run_opt(o, "--baseline");
			o->baseline = optarg;
			break;
		case OPT_LIST_THEMES:
			o->action = ACTION_LIST_THEMES;
			break;
		case OPT_PROBE: /* the neighbours' latency beside the runs */
			run_opt(o, "--probe");
			if (strcmp(optarg, "cold") && strcmp(optarg, "direct"))
				return errf(err, errlen, "--probe %s: not cold or direct", optarg);
			o->probe = !strcmp(optarg, "cold") ? 1 : 2; /* enum probe_mode */
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
		case OPT_TALK: /* the script is read and checked by main (talk_script.c) */
			live_opt(o, "--talk");
			if (!*optarg)
				return errf(err, errlen, "--talk: empty file name");
			o->talk = optarg;
			break;
		case OPT_REHEARSE:
			o->rehearse = 1;
			break;
		case OPT_STALL:
			run_opt(o, "--stall-timeout");
			if (parse_long("--stall-timeout", optarg, 0, &o->stall_timeout_s, err,
				       errlen) < 0)
				return -1;
			break;
		case OPT_EXPORT_SVG:
		case OPT_EXPORT_CSV:
		case OPT_COMPARE: {
			const char *n = c == OPT_EXPORT_SVG ? "--export-svg"
					: c == OPT_EXPORT_CSV ? "--export-csv"
							      : "--compare";
			int act = c == OPT_EXPORT_SVG ? ACTION_EXPORT_SVG
				  : c == OPT_EXPORT_CSV ? ACTION_EXPORT_CSV
							: ACTION_COMPARE;
			if (exp_action && exp_action != act)
				return errf(err, errlen, "%s: not with %s (one at a time)", n, exp_name);
			if (exp_action)
				return errf(err, errlen, "%s: given twice", n);
			if (!*optarg)
				return errf(err, errlen, "%s: empty file name", n);
			exp_action = act;
			exp_name = n;
			if (act == ACTION_COMPARE)
				o->inputs[o->ninputs++] = optarg;
			else
				o->export_out = optarg;
			break;
		}
		case OPT_VIEW:
			if (!strcmp(optarg, "runs"))
				o->svg_runs = 1;
			else if (!strcmp(optarg, "overview"))
				o->svg_runs = 0;
			else
				return errf(err, errlen, "--view %s: not a view (overview or runs)",
					    optarg);
			break;
		case OPT_FROM:
			if (parse_offset("--from", optarg, &o->from_s, err, errlen) < 0)
				return -1;
			break;
		case OPT_TO:
			if (parse_offset("--to", optarg, &o->to_s, err, errlen) < 0)
				return -1;
			break;
		case OPT_RUN:
			if (parse_long("--run", optarg, 1, &o->run, err, errlen) < 0)
				return -1;
			break;
		case 't':
			if (!*optarg)
				return errf(err, errlen, "-t: empty theme name");
			o->theme = optarg;
			break;
		case OPT_RECORD:
			live_opt(o, "--record");
			if (!*optarg)
				return errf(err, errlen, "--record: empty file name");
			o->record = optarg;
			break;
		case 'z':
			live_opt(o, "-z");
			o->record_gzip = 1;
			break;
		case OPT_REPLAY:
			if (!*optarg)
				return errf(err, errlen, "--replay: empty file name");
			o->replay = optarg;
			break;
		case OPT_REPLAY_AT:
			if (parse_clock(optarg, &o->replay_at) < 0)
				return errf(err, errlen, "--replay-at %s: not a time (e.g. 42, 1.5 "
						"or 1:30)", optarg);
			break;
		case OPT_SPEED: {
			char *end;
			errno = 0;
			o->speed = strtod(optarg, &end);
			if (!plain_decimal(optarg) || errno || end == optarg ||
			    (*end && strcmp(end, "x")) || !(o->speed >= 0.25 && o->speed <= 16))
				return errf(err, errlen, "--speed %s: a factor from 0.25 to 16", optarg);
			break;
		}
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
	if (export_check(o, exp_action, exp_name, other, svg, argv + optind, argc - optind,
			 size_arg, err, errlen) < 0)
		return -1;
	if (!exp_action && size_arg && strpbrk(size_arg, "xX") && parse_wxh(size_arg, &c, &c, NULL, 0) == 0)
		return errf(err, errlen, "--size %s: a picture's size, only with --export-svg (a run's "
				"--size is a file size, e.g. 512M)", size_arg);
	if (!exp_action && size_arg && size_opt("--size", size_arg, &o->size, err, errlen) < 0)
		return -1;
	if (o->replay && o->live_opt)
		return errf(err, errlen, "%s: not with --replay (the recording holds the run)",
			    o->live_opt);
	if (o->rehearse && !o->talk)
		return errf(err, errlen, "--rehearse: only with --talk FILE");
	if (!o->replay && (o->replay_at > 0 || o->speed > 0))
		return errf(err, errlen, "%s: only with --replay FILE",
			    o->speed > 0 ? "--speed" : "--replay-at");
	return 0;
}
