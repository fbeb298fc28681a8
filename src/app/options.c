/*
 * options — the options table (options.h): one row per option with its
 * handler, the parse loop that gives each option given to its row's
 * handler (once, unless the row says it adds), and what the table makes:
 * getopt's tables, --list-options, a session's run_config and an export's
 * request.  The checks between options after the loop are
 * options_check.c; --help's text is usage.c.
 */
#include "app/options_impl.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/glyphs.h"
#include "model/model.h"
#include "app/preset.h"
#include "runs/rundir.h"
#include "base/util.h"

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->interval = 0.25;
	o->dir = RUNDIR_DEFAULT;
	o->history_s = 3600;
	o->stall_timeout_s = 30;
	o->repeat = 1;
	o->bs = 8192;
	o->from_s = o->to_s = -1;
	o->glyphs = -1;
	o->follow_fd = -1;
}

/* ---- one parse ------------------------------------------------------------ */

#define FIELD(p, e, type) ((type *)((char *)(p)->o + (e)->off))

/* e's name in messages: "-i" or "--src" (the table's: it outlives the parse). */
static const char *say(const struct options_entry *e)
{
	return e->say ? e->say : e->name;
}

/* ---- generic handlers ------------------------------------------------------ */

static int set_true(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)arg;
	*FIELD(p, e, int) = 1;
	return 0;
}

/* --help, --version, --list-*: one of them (the last would win silently). */
static int set_action(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)arg;
	if (p->act[0])
		return ERR(p, "%s: not with %s (one at a time)", p->as_given, p->act);
	snprintf(p->act, sizeof(p->act), "%s", p->as_given);
	p->o->action = (enum options_action)e->val;
	return 0;
}

static int set_string(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	*FIELD(p, e, const char *) = arg;
	return 0;
}

/* A file name: not empty. */
static int set_file(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	if (!*arg)
		return ERR(p, "%s: empty file name", say(e));
	return set_string(p, e, arg);
}

/* --host-label NAME: one line the model's host holds. */
static int set_host_label(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	size_t n = strlen(arg);
	if (!n || n >= MODEL_HOST_MAX || strchr(arg, '\n'))
		return ERR(p, "%s: not a name of 1 to %d bytes on one line", say(e),
			   MODEL_HOST_MAX - 1);
	return set_string(p, e, arg);
}

/* ---- Sampling -------------------------------------------------------------- */

static int set_interval(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	return parse_interval(arg, &p->o->interval, p->err, p->errlen);
}

static int set_count(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	return parse_whole_arg("-n", arg, 1, &p->o->count, p->err, p->errlen);
}

static int set_device(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	/* "/dev/sda" names the same disk as "sda" */
	p->o->device = strncmp(arg, "/dev/", 5) == 0 ? arg + 5 : arg;
	if (!*p->o->device)
		return ERR(p, "-d: empty device name");
	return 0;
}

static int set_history(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	long l;
	(void)e;
	if (parse_whole_arg("--history", arg, 10, &l, p->err, p->errlen) < 0)
		return -1;
	p->o->history_s = (double)l;
	return 0;
}

/* ---- Copy runs --------------------------------------------------------------- */

static int set_strategies(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	p->o->strategies = arg;
	p->o->cmds_before_s = p->o->ncmds;
	return 0;
}

static int set_size(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	p->size_arg = arg; /* a byte size, or WxH with --export-svg: seen after the loop */
	return 0;
}

static int set_dir(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (!*arg)
		return ERR(p, "--dir: empty directory name");
	p->o->dir = arg;
	p->o->dir_given = 1;
	return 0;
}

/* A size larger than zero into the uint64_t field. */
static int set_bytes(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	return parse_size_arg(say(e), arg, FIELD(p, e, uint64_t), p->err, p->errlen);
}

static int set_disk_limit(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	/* a size per second: "30M" or "30M/s" */
	char rate[64];
	size_t rl = strlen(arg);
	(void)e;
	if (rl >= sizeof(rate) || parse_size(strcpy(rate, arg), &p->o->disk_limit) < 0) {
		if (rl >= 2 && rl < sizeof(rate) && !strcmp(arg + rl - 2, "/s"))
			rate[rl - 2] = '\0';
		if (rl < 2 || rl >= sizeof(rate) || parse_size(rate, &p->o->disk_limit) < 0)
			return ERR(p, "--disk-limit %s: not a rate (bytes per second, e.g. 30M)",
				   arg);
	}
	if (p->o->disk_limit < 1024 * 1024)
		return ERR(p, "--disk-limit %s: at least 1M (per second)", arg);
	return 0;
}

static int set_probe(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (strcmp(arg, "cold") && strcmp(arg, "direct"))
		return ERR(p, "--probe %s: not cold or direct", arg);
	p->o->probe = !strcmp(arg, "cold") ? 1 : 2; /* enum probe_mode */
	return 0;
}

static int set_repeat(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	long l;
	(void)e;
	if (parse_whole_arg("--repeat", arg, 1, &l, p->err, p->errlen) < 0)
		return -1;
	if (l > RUN_CONFIG_REPEAT_MAX)
		return ERR(p, "--repeat %s: at most %d", arg, RUN_CONFIG_REPEAT_MAX);
	p->o->repeat = (int)l;
	return 0;
}

static int set_bs(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	uint64_t u;
	(void)e;
	if (parse_size_arg("--bs", arg, &u, p->err, p->errlen) < 0)
		return -1;
	if (u > 1024 * 1024 * 1024)
		return ERR(p, "--bs %s: at most 1G", arg);
	p->o->bs = (size_t)u;
	return 0;
}

static int set_sweep(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	return sweep_parse(arg, parse_size, &p->o->sweep, p->err, p->errlen);
}

static int set_sweep_until(struct options_pass *p, const struct options_entry *e,
			   const char *arg)
{
	(void)e;
	return sweep_until_parse(arg, &p->o->sweep.until, p->err, p->errlen);
}

static int set_cmd(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (p->o->ncmds == OPTIONS_MAX_CMDS)
		return ERR(p, "--cmd: at most %d commands", OPTIONS_MAX_CMDS);
	if (strspn(arg, " \t") == strlen(arg))
		return ERR(p, "--cmd: empty command");
	p->o->cmds[p->o->ncmds++] = arg;
	return 0;
}

static int set_name(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (p->o->nnames == OPTIONS_MAX_CMDS)
		return ERR(p, "--name: at most %d names", OPTIONS_MAX_CMDS);
	p->o->names[p->o->nnames++] = arg;
	return 0;
}

static int set_stall(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	return parse_whole_arg("--stall-timeout", arg, 0, &p->o->stall_timeout_s, p->err,
			       p->errlen);
}

static int set_demo(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	p->o->demo = 1;
	if (arg && !(p->o->preset = preset_find(arg)))
		return ERR(p, "--demo %s: not %s", arg, preset_names());
	return 0;
}

/* ---- Output ---------------------------------------------------------------- */

static int set_theme(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (!*arg)
		return ERR(p, "-t: empty theme name");
	p->o->theme = arg;
	return 0;
}

static int set_glyphs(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	int g = glyphs_parse(arg);
	if (g < 0)
		return ERR(p, "--glyphs %s: not braille, blocks or ascii", arg);
	p->o->glyphs = g;
	return 0;
}

/* ---- Record and replay ------------------------------------------------------- */

static int set_replay_at(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (parse_clock(arg, &p->o->replay_at) < 0)
		return ERR(p, "--replay-at %s: not a time (e.g. 42, 1.5 or 1:30)", arg);
	return 0;
}

static int set_speed(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (parse_speed(arg, &p->o->speed) < 0)
		return ERR(p, "--speed %s: a factor from %g to %g", arg, SPEED_MIN, SPEED_MAX);
	return 0;
}

/* ---- Export ------------------------------------------------------------------- */

/* --export-svg OUT, --export-csv OUT, --compare A: one of them, once. */
static int set_export(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	const char *n = say(e);
	int act = e->val;
	if (p->exp_action) /* another of them: the same one twice is refused before */
		return ERR(p, "%s: not with %s (one at a time)", n, p->exp_name);
	if (!*arg)
		return ERR(p, "%s: empty file name", n);
	p->exp_action = act;
	p->exp_name = n;
	if (act == OPTA_COMPARE)
		p->o->inputs[p->o->ninputs++] = arg;
	else
		p->o->export_out = arg;
	return 0;
}

static int set_view(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	if (!strcmp(arg, "runs"))
		p->o->svg_runs = 1;
	else if (!strcmp(arg, "overview"))
		p->o->svg_runs = 0;
	else if (!strcmp(arg, "sweep"))
		p->o->svg_runs = 2; /* SVG_SWEEP */
	else
		return ERR(p, "--view %s: not a view (overview, runs or sweep)", arg);
	return 0;
}

/* --from / --to: seconds from the recording's start, "90", "12.5" or "1:30". */
static int set_offset(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	if (parse_clock(arg, FIELD(p, e, double)) < 0)
		return ERR(p, "%s %s: not a time (seconds from the start: 90, 12.5 or 1:30)",
			   say(e), arg);
	return 0;
}

static int set_run(struct options_pass *p, const struct options_entry *e, const char *arg)
{
	(void)e;
	return parse_whole_arg("--run", arg, 1, &p->o->run, p->err, p->errlen);
}

/* ---- the table ------------------------------------------------------------------- */

#define OFF(f) offsetof(struct options, f)
#define N      no_argument
#define R      required_argument
#define L      OPTW_LIVE
#define U      (OPTW_RUN | OPTW_LIVE)

/* ROW("long", argument, flag, METAVAR, group, help, what, say, field, val, handler) */
#define ROW(name, arg, flag, meta, group, help, what, say, off, val, set)                          \
	{                                                                                          \
		flag, "--" name, arg, meta, group, help, what, say, off, val, set                  \
	}
#define SHORT(flag, meta, group, help, what, say, off, val, set)                                   \
	{                                                                                          \
		flag, NULL, no_argument, meta, group, help, what, say, off, val, set               \
	}

static const struct options_entry table[] = {
    /* clang-format off */
	/* Sampling */
	ROW("interval", R, 'i', "SEC", OPTG_SAMPLING, "seconds between samples (" INTERVAL_MIN_TEXT "-" INTERVAL_MAX_TEXT ", default 0.25)", L, "-i", 0, 0, set_interval),
	ROW("count", R, 'n', "N", OPTG_SAMPLING, "stop after N samples", 0, "-n", 0, 0, set_count),
	ROW("device", R, 'd', "NAME", OPTG_SAMPLING, "disk to watch (default: the disk holding --dir)", L, "-d", 0, 0, set_device),
	ROW("history", R, 0, "SEC", OPTG_SAMPLING, "seconds of history kept (default 3600)", 0, NULL, 0, 0, set_history),
	/* Copy runs */
	ROW("strategies", R, 's', "LIST", OPTG_RUNS, "comma list of strategies, 'copybench' or 'all'", L, "-s", 0, 0, set_strategies),
	ROW("list-strategies", N, 0, NULL, OPTG_RUNS, "list the strategies and what each shows", 0, NULL, 0, OPTA_LIST_STRATEGIES, set_action),
	ROW("src", R, 0, "FILE", OPTG_RUNS, "copy this file (never modified)", U, NULL, OFF(src), 0, set_string),
	ROW("size", R, 0, "SIZE", OPTG_RUNS, "scratch source size when --src is absent (K/M/G/T)", U | OPTW_EITHER, NULL, 0, 0, set_size),
	ROW("dir", R, 0, "DIR", OPTG_RUNS, "scratch directory on a disk (default /var/tmp)", L, NULL, 0, 0, set_dir),
	ROW("mem-limit", R, 'm', "SIZE", OPTG_RUNS, "run the copy in a memory cgroup of SIZE (root)", U, "--mem-limit", OFF(mem_limit), 0, set_bytes),
	ROW("disk-limit", R, 0, "RATE", OPTG_RUNS, "throttle the watched disk to RATE/s in each run (root;\ncgroup v1: reads and direct I/O, not write-back)", U, NULL, 0, 0, set_disk_limit),
	ROW("probe", R, 0, "MODE", OPTG_RUNS, "a neighbour reading 4K beside the runs, its latency:\ncold (buffered, after DONTNEED) or direct (O_DIRECT)", U, NULL, 0, 0, set_probe),
	ROW("repeat", R, 0, "N", OPTG_RUNS, "run each strategy N times (interleaved: A B A B)", U, NULL, 0, 0, set_repeat),
	ROW("baseline", R, 0, "NAME", OPTG_RUNS, "ratios and +-% relative to NAME (default: first)", U | OPTW_NOPICK, NULL, OFF(baseline), 0, set_string),
	ROW("bs", R, 0, "SIZE", OPTG_RUNS, "buffer size of read/write strategies (default 8K)", U, NULL, 0, 0, set_bs),
	ROW("sweep", R, 0, "PARAM=V1,V2|LO..HI:xF", OPTG_RUNS, "every run at each value of mem-limit, disk-limit, bs\nor size (label @m32M, @d30M, @b64K, @s256M)", U | OPTW_NOPICK, NULL, 0, 0, set_sweep),
	ROW("sweep-until", R, 0, "COND", OPTG_RUNS, "bisect the sweep to where COND first holds per\nstrategy: bursts, rdcv or elapsed, >= > <= <, a number", U | OPTW_NOPICK, NULL, 0, 0, set_sweep_until),
	ROW("no-drop-caches", N, 0, NULL, OPTG_RUNS, "do not drop caches before a run", U, NULL, OFF(no_drop_caches), 0, set_true),
	ROW("no-verify", N, 0, NULL, OPTG_RUNS, "do not compare the copy with the source", U, NULL, OFF(no_verify), 0, set_true),
	ROW("cmd", R, 0, "'PROG ARGS'", OPTG_RUNS, "one more run: PROG ({src} {dst} substituted), repeatable", L | OPTW_MULTI, NULL, 0, 0, set_cmd),
	ROW("name", R, 0, "NAME", OPTG_RUNS, "label of the i-th --cmd (default: its program)", U | OPTW_NOPICK | OPTW_MULTI, NULL, 0, 0, set_name),
	ROW("stall-timeout", R, 0, "SEC", OPTG_RUNS, "fail a copy without progress for SEC s (30; 0: never)", U, NULL, 0, 0, set_stall),
	ROW("prealloc", N, 0, NULL, OPTG_RUNS, "mm_*: fallocate the copy (label +prealloc), not sparse", U, NULL, OFF(prealloc), 0, set_true),
	ROW("demo", optional_argument, 0, "NAME", OPTG_RUNS, "the talk: rw_cp, mm_sync_cp, mm_sync_madv_cp; NAME 2008\n(default: 40M cgroup, disk at 32M/s) or today (64M,\nfull-speed disk); the options above override it", L, NULL, 0, 0, set_demo),
	/* Output */
	ROW("batch", N, 0, NULL, OPTG_OUTPUT, "no TUI (automatic when stdout is not a terminal)", OPTW_EXPORT, NULL, OFF(batch), 0, set_true),
	ROW("quiet", N, 'q', NULL, OPTG_OUTPUT, "batch: print only the results table", 0, "-q", OFF(quiet), 0, set_true),
	ROW("csv", R, 0, "FILE", OPTG_OUTPUT, "write the sample series as CSV", 0, NULL, OFF(csv), 0, set_file),
	ROW("metrics-file", R, 0, "PATH", OPTG_OUTPUT, "the current values as Prometheus text every second\n(node_exporter's textfile collector); the runs' figures\nstay at exit", L, NULL, OFF(metrics_file), 0, set_file),
	ROW("metrics-file-remove", N, 0, NULL, OPTG_OUTPUT, "remove --metrics-file at exit instead", L, NULL, OFF(metrics_remove), 0, set_true),
	ROW("host-label", R, 0, "NAME", OPTG_OUTPUT, "the host the recording and --metrics-file name\n(default: the host name)", L, NULL, OFF(host_label), 0, set_host_label),
	ROW("results", R, 0, "FILE", OPTG_OUTPUT, "write the results table as CSV", OPTW_RUN | OPTW_NOPICK, NULL, OFF(results), 0, set_file),
	ROW("export-json", R, 0, "FILE", OPTG_OUTPUT, "write the results as JSON (hyperfine's shape; batch,\n--replay, --compare)", OPTW_RUN | OPTW_NOPICK | OPTW_EXPORT, NULL, OFF(export_json), 0, set_file),
	ROW("export-markdown", R, 0, "FILE", OPTG_OUTPUT, "write the results as Markdown tables (as --export-json)", OPTW_RUN | OPTW_NOPICK | OPTW_EXPORT, NULL, OFF(export_md), 0, set_file),
	ROW("ascii", N, 0, NULL, OPTG_OUTPUT, "ASCII charts and no colour", 0, NULL, OFF(ascii), 0, set_true),
	ROW("theme", R, 't', "NAME|PATH", OPTG_OUTPUT, "colour theme (default; a path if it has a '/')", OPTW_EITHER, "-t", 0, 0, set_theme),
	ROW("list-themes", N, 0, NULL, OPTG_OUTPUT, "list the themes found and where", 0, NULL, 0, OPTA_LIST_THEMES, set_action),
	ROW("glyphs", R, 0, "G", OPTG_OUTPUT, "chart glyphs: braille, blocks or ascii", 0, NULL, 0, 0, set_glyphs),
	/* Record and replay */
	ROW("record", R, 0, "FILE", OPTG_RECORD, "record the run as JSON Lines (FILE.gz: gzip)", L, NULL, OFF(record), 0, set_file),
	SHORT('z', NULL, OPTG_RECORD, "gzip --record and the files the R key starts", L, "-z", OFF(record_gzip), 0, set_true),
	ROW("replay", R, 0, "FILE", OPTG_RECORD, "show a recording instead of this machine", 0, NULL, OFF(replay), 0, set_file),
	ROW("follow", R, 0, "FILE|-", OPTG_RECORD, "show a recording as it is written: a growing FILE, or -\n(... --batch --record - | lrutop --follow -)", 0, NULL, OFF(follow), 0, set_file),
	ROW("replay-at", R, 0, "T", OPTG_RECORD, "start the replay at T (seconds or m:ss)", 0, NULL, 0, 0, set_replay_at),
	ROW("speed", R, 0, "X", OPTG_RECORD, "replay speed " SPEED_MIN_TEXT "-" SPEED_MAX_TEXT " (default 1; batch: no pacing)", 0, NULL, 0, 0, set_speed),
	/* Talk */
	ROW("talk", R, 0, "FILE", OPTG_TALK, "run the script FILE: captions, views, runs, replays\n(space or right: on, left: back a step)", L, NULL, OFF(talk), 0, set_file),
	ROW("rehearse", N, 0, NULL, OPTG_TALK, "run every step live, record each run to its fallback", 0, NULL, OFF(rehearse), 0, set_true),
	/* Export: --export-svg, --export-csv and --compare are in the synopsis */
	ROW("export-svg", R, 0, NULL, OPTG_HIDDEN, NULL, OPTW_EXPORT, NULL, 0, OPTA_EXPORT_SVG, set_export),
	ROW("export-csv", R, 0, NULL, OPTG_HIDDEN, NULL, OPTW_EXPORT, NULL, 0, OPTA_EXPORT_CSV, set_export),
	ROW("export-openmetrics", R, 0, NULL, OPTG_HIDDEN, NULL, OPTW_EXPORT, NULL, 0, OPTA_EXPORT_OPENMETRICS, set_export),
	ROW("compare", R, 0, NULL, OPTG_HIDDEN, NULL, OPTW_EXPORT, NULL, 0, OPTA_COMPARE, set_export),
	ROW("view", R, 0, "overview|runs|sweep", OPTG_EXPORT, "what to draw (default overview)", OPTW_SVG, NULL, 0, 0, set_view),
	ROW("from", R, 0, "T", OPTG_EXPORT, "a time range, seconds from the start (90, 1:30)", OPTW_SVG, NULL, OFF(from_s), 0, set_offset),
	ROW("to", R, 0, "T", OPTG_EXPORT, "the end of the range (90, 1:30)", OPTW_SVG, NULL, OFF(to_s), 0, set_offset),
	ROW("run", R, 0, "N", OPTG_EXPORT, "only the N-th run", OPTW_SVG, NULL, 0, 0, set_run),
	ROW("size", R, 0, "WxH", OPTG_EXPORT, "picture size in pixels (default 1920x1080)", 0, NULL, 0, 0, NULL),
	ROW("theme", R, 't', "NAME", OPTG_EXPORT, "colours: light (the only one so far)", 0, NULL, 0, 0, NULL),
	/* the end */
	ROW("help", N, 'h', NULL, OPTG_END, "this text", OPTW_EXPORT, "-h", 0, OPTA_HELP, set_action),
	ROW("version", N, 'V', NULL, OPTG_END, "version", OPTW_EXPORT, "-V", 0, OPTA_VERSION, set_action),
	ROW("list-options", N, 0, NULL, OPTG_HIDDEN, NULL, OPTW_SECRET, NULL, 0, OPTA_LIST_OPTIONS, set_action),
	ROW("list-keys", N, 0, NULL, OPTG_HIDDEN, NULL, OPTW_SECRET, NULL, 0, OPTA_LIST_KEYS, set_action),
    /* clang-format on */
};

#undef N
#undef R
#undef L
#undef U

#define NTABLE (sizeof(table) / sizeof(table[0]))
_Static_assert(NTABLE <= OPTIONS_ROWS_MAX, "options_pass.given: raise OPTIONS_ROWS_MAX");

const struct options_entry *options_table(size_t *n)
{
	*n = NTABLE;
	return table;
}

size_t options_list(char *buf, size_t len)
{
	size_t at = 0;
	for (size_t i = 0; i < NTABLE; i++) {
		const struct options_entry *e = &table[i];
		if (!e->set || e->what & OPTW_SECRET)
			continue;
		int k = e->flag ? snprintf(buf + (at < len ? at : len), at < len ? len - at : 0,
					   "-%c\n", e->flag)
				: 0;
		at += (size_t)k;
		if (e->name)
			at += (size_t)snprintf(buf + (at < len ? at : len), at < len ? len - at : 0,
					       "%s\n", e->name);
	}
	return at;
}

/* Remembers what the checks need of an option given: the first a replay
 * cannot take (it describes a live run, which the recording already holds),
 * the first only runs use and of those the first the picker ignores; and
 * for an export, the first it does not take and the first svg-only one
 * (named as given: "-m" or "--mem-limit"). */
static void mark(struct options_pass *p, const struct options_entry *e)
{
	struct options *o = p->o;
	char *slot = e->what & OPTW_EITHER   ? NULL
		     : e->what & OPTW_SVG    ? p->svg
		     : e->what & OPTW_EXPORT ? NULL
					     : p->other;
	if (slot && !slot[0])
		snprintf(slot, sizeof(p->other), "%s", p->as_given);
	if (e->what & OPTW_RUN && !o->run_opt)
		o->run_opt = say(e);
	if (e->what & OPTW_LIVE && !o->live_opt)
		o->live_opt = say(e);
	if (e->what & OPTW_NOPICK && !o->run_opt_nopick)
		o->run_opt_nopick = say(e);
}

struct export_req options_export_req(const struct options *o)
{
	_Static_assert(EXPORT_MAX_INPUTS >= OPTIONS_MAX_INPUTS, "--compare's inputs fit");
	struct export_req r = {.out = o->export_out,
			       .ninputs = o->ninputs,
			       .svg_runs = o->svg_runs,
			       .from_s = o->from_s,
			       .to_s = o->to_s,
			       .run = o->run,
			       .svg_w = o->svg_w,
			       .svg_h = o->svg_h,
			       .theme = o->theme,
			       .export_json = o->export_json,
			       .export_md = o->export_md};
	for (int i = 0; i < o->ninputs && i < EXPORT_MAX_INPUTS; i++)
		r.inputs[i] = o->inputs[i];
	return r;
}

struct run_config *options_run_config(const struct options *o, struct run_config *c)
{
	*c = (struct run_config){
	    .device = o->device,
	    .dir = o->dir,
	    .src = o->src,
	    .size = o->size,
	    .mem_limit = o->mem_limit,
	    .disk_limit = o->disk_limit,
	    .strategies = o->strategies,
	    .ncmds = o->ncmds,
	    .nnames = o->nnames,
	    .cmds_before_s = o->cmds_before_s,
	    .repeat = o->repeat,
	    .baseline = o->baseline,
	    .bs = o->bs,
	    .no_drop_caches = o->no_drop_caches,
	    .no_verify = o->no_verify,
	    .prealloc = o->prealloc,
	    .stall_timeout_s = o->stall_timeout_s,
	    .sweep = o->sweep,
	};
	memcpy(c->cmds, o->cmds, sizeof(c->cmds));
	memcpy(c->names, o->names, sizeof(c->names));
	return c;
}

int options_parse(struct options *o, int argc, char **argv, char *err, size_t errlen)
{
	/* getopt's tables, made from the options table */
	struct option longopts[NTABLE + 1];
	char shorts[2 + 2 * NTABLE + 1];
	size_t nl = 0, ns = 0;
	shorts[ns++] = ':';
	for (size_t i = 0; i < NTABLE; i++) {
		const struct options_entry *e = &table[i];
		if (!e->set)
			continue;
		if (e->name)
			longopts[nl++] =
			    (struct option){e->name + 2, e->has_arg, NULL, 256 + (int)i};
		if (e->flag) {
			shorts[ns++] = (char)e->flag;
			if (e->has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	longopts[nl] = (struct option){NULL, 0, NULL, 0};
	shorts[ns] = '\0';

	struct options_pass p = {.o = o, .err = err, .errlen = errlen, .exp_name = ""};
	int c, li;
	o->argc = argc;
	o->argv = argv;
	optind = 0; /* full reset: tests parse several command lines */
	opterr = 0;
	while ((li = -1, c = getopt_long(argc, argv, shorts, longopts, &li)) != -1) {
		if (c == ':')
			return errf(err, errlen, "%s: needs an argument (see --help)",
				    argv[optind - 1]);
		const struct options_entry *e = NULL;
		if (c >= 256)
			e = &table[c - 256];
		else
			for (size_t i = 0; c != '?' && i < NTABLE && !e; i++)
				if (table[i].flag == c && table[i].set)
					e = &table[i];
		if (!e) {
			if (optopt)
				return errf(err, errlen, "-%c: unknown option (see --help)",
					    optopt);
			return errf(err, errlen, "%s: unknown option (see --help)",
				    argv[optind - 1]);
		}
		if (li >= 0)
			snprintf(p.as_given, sizeof(p.as_given), "%s", e->name);
		else
			snprintf(p.as_given, sizeof(p.as_given), "-%c", e->flag);
		/* one rule for every option: once, unless the table says it adds */
		if (p.given[e - table] && !(e->what & OPTW_MULTI))
			return errf(err, errlen, "%s given twice", p.as_given);
		p.given[e - table] = 1;
		mark(&p, e);
		if (e->set(&p, e, e->has_arg == no_argument ? NULL : optarg) < 0)
			return -1;
	}
	return options_validate(&p, argv + optind, argc - optind);
}
