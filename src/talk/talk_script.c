#include "talk/talk_script.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/argv_config.h"
#include "model/glyphs.h"
#include "recording/record.h"
#include "runs/rundir.h"
#include "runs/session.h"
#include "runs/strategy.h"
#include "screen/theme.h"
#include "screen/ui.h"
#include "base/parse.h"
#include "base/util.h"

static const char *const kind_names[] = {
	[TALK_CAPTION] = "caption", [TALK_PAUSE] = "pause",	[TALK_VIEW] = "view",
	[TALK_THEME] = "theme",	    [TALK_GLYPHS] = "glyphs",	[TALK_RUN] = "run",
	[TALK_REPLAY] = "replay",   [TALK_EXPORT_SVG] = "export-svg", [TALK_WAIT] = "wait",
};

const char *talk_kind_name(enum talk_kind k)
{
	return (unsigned)k < ARRAY_LEN(kind_names) ? kind_names[k] : "?";
}

void talk_script_free(struct talk_script *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++) {
		struct talk_step *st = &s->steps[i];
		free(st->text);
		free(st->wait_name);
		free(st->fallback);
		for (int k = 0; k < st->argc; k++)
			free(st->argv[k]);
	}
	free(s->steps);
	free(s->path);
	free(s);
}

/* ---- words ---------------------------------------------------------- */

/* Splits line into words: blanks separate, '...' and "..." quote (no
 * escapes inside).  -1 + err for an open quote or too many words. */
static int split_words(const char *line, char **w, int max, int *n, char *err, size_t errlen)
{
	*n = 0;
	const char *p = line;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			return 0;
		if (*n == max)
			return errf(err, errlen, "more than %d words", max);
		size_t cap = strlen(p) + 1, l = 0;
		char *out = xmalloc(cap);
		while (*p && *p != ' ' && *p != '\t') {
			if (*p == '\'' || *p == '"') {
				char q = *p++;
				const char *end = strchr(p, q);
				if (!end) {
					free(out);
					return errf(err, errlen, "a %c quote is not closed", q);
				}
				memcpy(out + l, p, (size_t)(end - p));
				l += (size_t)(end - p);
				p = end + 1;
			} else {
				out[l++] = *p++;
			}
		}
		out[l] = '\0';
		w[(*n)++] = out;
	}
}

static void free_words(char **w, int n)
{
	for (int i = 0; i < n; i++)
		free(w[i]);
}

/* ---- checks on files ---------------------------------------------------- */

/* path relative to the script's directory (dir "" = the current one). */
static char *beside(const char *dir, const char *path)
{
	if (path[0] == '/' || !dir[0])
		return xstrdup(path);
	size_t l = strlen(dir) + strlen(path) + 2;
	char *out = xmalloc(l);
	snprintf(out, l, "%s/%s", dir, path);
	return out;
}

/* A prefix of the long option name that getopt_long would take for it. */
static int is_opt(const char *arg, const char *name, size_t min)
{
	size_t l = strlen(arg);
	return l >= min && !strncmp(arg, name, l);
}

static int not_regular(const char *path, char *err, size_t errlen);

int talk_made_by_rehearsal(const char *path)
{
	char e[300];
	if (not_regular(path, e, sizeof(e)) < 0)
		return 0;
	struct recording *r = recording_open(path, e, sizeof(e));
	if (!r)
		return 0;
	struct record_config c; /* the header's, or its command line's */
	record_config_resolve(recording_header(r), &app_argv_parser, &c);
	recording_close(r);
	return c.rehearsal;
}

/* Only regular files are read while checking: a FIFO or /dev/stdin
 * would hold the check (and the talk) until someone writes to it. */
static int not_regular(const char *path, char *err, size_t errlen)
{
	struct stat sb;
	if (stat(path, &sb) < 0)
		return errf(err, errlen, "%s: %s", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return errf(err, errlen, "%s: not a regular file", path);
	return 0;
}

/* FILE names a readable recording (its header reads). */
static int check_recording(const char *what, const char *path, char *err, size_t errlen)
{
	char e[400];
	if (not_regular(path, e, sizeof(e)) < 0)
		return errf(err, errlen, "%s %s", what, e);
	struct recording *r = recording_open(path, e, sizeof(e));
	if (!r)
		return errf(err, errlen, "%s %s", what, e);
	recording_close(r);
	return 0;
}

/* ---- steps ------------------------------------------------------------ */

static int parse_view(const char *s, int *out)
{
	static const char *const names[VIEW_COUNT] = {"overview", "iostat", "vmstat", "runs"};
	for (int i = 0; i < VIEW_COUNT; i++)
		if (!strcmp(s, names[i]) || (s[0] == '1' + i && !s[1])) {
			*out = i;
			return 0;
		}
	return -1;
}

/* The options of a run step that a talk manages itself, or that describe
 * something other than runs. */
static const char *not_in_run(const struct options *o)
{
	if (o->action != OPTA_RUN)
		return "--export-svg, --export-csv, --compare, --help, --version and the lists";
	if (o->replay)
		return "--replay (a replay step plays a recording)";
	if (o->record)
		return "--record (--rehearse records each run to its fallback)";
	if (o->record_gzip)
		return "-z";
	if (o->csv || o->results)
		return o->csv ? "--csv" : "--results";
	if (o->batch || o->quiet)
		return o->batch ? "--batch" : "-q";
	if (o->count)
		return "-n";
	if (o->demo)
		return "--demo (give its options: -s, --mem-limit, --size)";
	if (o->theme || o->glyphs >= 0 || o->ascii)
		return "-t, --glyphs and --ascii (theme and glyphs are steps)";
	if (o->talk || o->rehearse)
		return "--talk and --rehearse";
	return NULL;
}

static int parse_run(struct talk_step *st, char **w, int n, const char *dir,
		     const struct options *base, int rehearse, char *err, size_t errlen)
{
	if (n < 2)
		return errf(err, errlen, "run: which strategies? (run LIST [OPTIONS])");
	st->argv[st->argc++] = xstrdup("lrutop");
	st->argv[st->argc++] = xstrdup("-s");
	st->argv[st->argc++] = xstrdup(w[1]);
	for (int i = 2; i < n; i++) {
		const char *a = w[i];
		const char *eq = strchr(a, '=');
		if (!strcmp(a, "fallback")) {
			if (i + 1 >= n || !w[i + 1][0])
				return errf(err, errlen, "run: fallback: which recording? (fallback FILE)");
			if (st->fallback)
				return errf(err, errlen, "run: fallback given twice");
			st->fallback = beside(dir, w[++i]);
			continue;
		}
		if (is_opt(eq ? "" : a, "--expect-bursts", 5) ||
		    (eq && !strncmp(a, "--expect-bursts", (size_t)(eq - a)) && eq - a >= 5)) {
			const char *v = eq ? eq + 1 : i + 1 < n ? w[++i] : NULL;
			long b;
			if (!v)
				return errf(err, errlen, "run: --expect-bursts: needs a number");
			if (parse_whole(v, &b) < 0 || b < 1 || b > 100000)
				return errf(err, errlen, "run: --expect-bursts %s: not a count of bursts "
						"(1 or more)", v);
			st->expect_bursts = (int)b;
			continue;
		}
		if (st->argc >= TALK_MAX_ARGS)
			return errf(err, errlen, "run: more than %d words", TALK_MAX_ARGS);
		st->argv[st->argc++] = xstrdup(a);
	}
	st->argv[st->argc] = NULL;
	struct options *o = &st->opt;
	options_init(o);
	o->dir = base->dir;
	o->dir_given = base->dir_given;
	o->device = base->device;
	o->interval = base->interval;
	o->history_s = base->history_s;
	char e[400];
	if (options_parse(o, st->argc, st->argv, e, sizeof(e)) < 0)
		return errf(err, errlen, "run: %s", e);
	/* the array moves with the steps (realloc); recordings take the
	 * command line of lrutop itself */
	o->argc = 0;
	o->argv = NULL;
	const char *bad = not_in_run(o);
	if (bad)
		return errf(err, errlen, "run: %s: not in a talk's run step", bad);
	if (options_check_runs(o, e, sizeof(e)) < 0)
		return errf(err, errlen, "run: %s", e);
	const struct strategy *list[SESSION_MAX_STRATEGIES];
	size_t nl = 0;
	if (strategy_parse_list(o->strategies, list, SESSION_MAX_STRATEGIES, &nl, e, sizeof(e)) < 0)
		return errf(err, errlen, "run: %s", e);
	if (o->mem_limit && o->mem_limit < 4 * 1024 * 1024)
		return errf(err, errlen, "run: --mem-limit: at least 4M");
	if (o->src && access(o->src, R_OK) < 0)
		return errf(err, errlen, "run: --src %s: %s", o->src, strerror(errno));
	/* --dir /proc, /dev/shm, --size 200G: refused now, as the command line
	 * would be, not when the TUI already hides the line — unless a
	 * fallback is there to play when the run cannot start */
	struct stat ss;
	struct run_config rc;
	options_run_config(o, &rc);
	uint64_t size =
	    o->src && stat(o->src, &ss) == 0 ? (uint64_t)ss.st_size : run_config_default_size(&rc);
	if (!st->fallback &&
	    rundir_check_space(o->dir, run_config_need_bytes(&rc, size), e, sizeof(e)) < 0)
		return errf(err, errlen, "run: %s (a fallback FILE would play instead)", e);
	if (!st->fallback)
		return 0;
	struct stat sb;
	if (rehearse) {
		/* written by this rehearsal: new, or a rehearsal's own */
		char part[4200];
		snprintf(part, sizeof(part), "%s.part%s", st->fallback,
			 strlen(st->fallback) > 3 &&
				 !strcmp(st->fallback + strlen(st->fallback) - 3, ".gz")
			     ? ".gz"
			     : "");
		if (lstat(part, &sb) == 0)
			return errf(err, errlen, "run: fallback %s: %s is in the way (a rehearsal "
					"cut short? remove it)", st->fallback, part);
		if (lstat(st->fallback, &sb) == 0 && !talk_made_by_rehearsal(st->fallback))
			return errf(err, errlen, "run: fallback %s: exists and was not made by "
					"a rehearsal (lrutop replaces only what --rehearse "
					"wrote; move it away)", st->fallback);
		return 0;
	}
	if (lstat(st->fallback, &sb) < 0)
		return errf(err, errlen, "run: fallback %s: %s (make it with --talk FILE "
				"--rehearse)", st->fallback, strerror(errno));
	return check_recording("run: fallback", st->fallback, err, errlen);
}

static int parse_replay(struct talk_step *st, char **w, int n, const char *dir, char *err,
			size_t errlen)
{
	if (n < 2 || !w[1][0])
		return errf(err, errlen, "replay: which recording? (replay FILE [--from T] "
				"[--to T] [--speed X])");
	st->text = beside(dir, w[1]);
	st->from_s = st->to_s = -1;
	st->speed = 1;
	for (int i = 2; i < n; i++) {
		const char *a = w[i];
		int from = !strcmp(a, "--from"), to = !strcmp(a, "--to"),
		    speed = !strcmp(a, "--speed");
		if (!from && !to && !speed)
			return errf(err, errlen, "replay: %s: not --from, --to or --speed", a);
		if (i + 1 >= n)
			return errf(err, errlen, "replay: %s: needs a value", a);
		const char *v = w[++i];
		if (speed) {
			if (parse_speed(v, &st->speed) < 0)
				return errf(err, errlen, "replay: --speed %s: a factor from %g to %g",
					    v, SPEED_MIN, SPEED_MAX);
			continue;
		}
		double t;
		if (parse_clock(v, &t) < 0)
			return errf(err, errlen, "replay: %s %s: not a time (42, 1.5 or 1:30)", a, v);
		*(from ? &st->from_s : &st->to_s) = t;
	}
	if (st->from_s >= 0 && st->to_s >= 0 && st->to_s <= st->from_s)
		return errf(err, errlen, "replay: --to %g: not after --from %g", st->to_s, st->from_s);
	return check_recording("replay", st->text, err, errlen);
}

/* The strategies the last run step queued: what `wait NAME` may name. */
static int run_has(const struct talk_step *run, const char *name, size_t *count)
{
	const struct strategy *list[SESSION_MAX_STRATEGIES];
	size_t n = 0;
	if (strategy_parse_list(run->opt.strategies, list, SESSION_MAX_STRATEGIES, &n, NULL, 0) < 0)
		return 0;
	*count = n * (size_t)run->opt.repeat + (size_t)run->opt.ncmds;
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(list[i]->name, name))
			return 1;
	return 0;
}

static int parse_step(struct talk_step *st, const char *line, const char *dir,
		      const struct options *base, int rehearse, const struct talk_step *last,
		      char *err, size_t errlen)
{
	char *w[TALK_MAX_ARGS + 2];
	int n = 0;
	/* caption takes the rest of the line as it is */
	const char *p = line + strspn(line, " \t");
	size_t kl = strcspn(p, " \t");
	if (kl == 7 && !strncmp(p, "caption", 7)) {
		st->kind = TALK_CAPTION;
		const char *t = p + kl + strspn(p + kl, " \t");
		size_t l = strlen(t);
		while (l && (t[l - 1] == ' ' || t[l - 1] == '\t'))
			l--;
		if (l > 1000)
			return errf(err, errlen, "caption: longer than 1000 bytes");
		/* a quoted caption is one quoted string: an open quote is the
		 * same error as in any other step, the quotes are not shown */
		if (l && (t[0] == '"' || t[0] == '\'')) {
			if (l < 2 || t[l - 1] != t[0] || memchr(t + 1, t[0], l - 2))
				return errf(err, errlen,
					    "caption: a %c quote is not closed (at the end of the "
					    "line)",
					    t[0]);
			t++;
			l -= 2;
		}
		if (l) {
			st->text = xmalloc(l + 1);
			memcpy(st->text, t, l);
			st->text[l] = '\0';
		}
		return 0;
	}
	if (split_words(line, w, TALK_MAX_ARGS + 2, &n, err, errlen) < 0) {
		free_words(w, n);
		return -1;
	}
	int rc = 0;
	const char *k = w[0];
	size_t nruns = 0;
	long v;
	if (!strcmp(k, "pause")) {
		st->kind = TALK_PAUSE;
		if (n > 1)
			rc = errf(err, errlen, "pause: takes nothing (%s?)", w[1]);
	} else if (!strcmp(k, "view")) {
		st->kind = TALK_VIEW;
		if (n != 2 || parse_view(w[1], &st->n) < 0)
			rc = errf(err, errlen, "view %s: not a view (1-4, overview, iostat, vmstat, "
					"runs)", n > 1 ? w[1] : "");
	} else if (!strcmp(k, "theme")) {
		st->kind = TALK_THEME;
		struct theme th;
		char e[400];
		if (n != 2)
			rc = errf(err, errlen, "theme: one NAME (see --list-themes)");
		else if (strchr(w[1], '/') && not_regular(w[1], e, sizeof(e)) < 0)
			rc = errf(err, errlen, "theme %s", e);
		else if (theme_load(&th, w[1], e, sizeof(e)) < 0)
			rc = errf(err, errlen, "theme %s: %s", w[1], e);
		else
			st->text = xstrdup(w[1]);
	} else if (!strcmp(k, "glyphs")) {
		st->kind = TALK_GLYPHS;
		int g = n == 2 ? glyphs_parse(w[1]) : -1;
		if (g < 0)
			rc = errf(err, errlen, "glyphs %s: not braille, blocks or ascii",
				  n > 1 ? w[1] : "");
		else
			st->n = g;
	} else if (!strcmp(k, "run")) {
		st->kind = TALK_RUN;
		rc = parse_run(st, w, n, dir, base, rehearse, err, errlen);
	} else if (!strcmp(k, "replay")) {
		st->kind = TALK_REPLAY;
		rc = parse_replay(st, w, n, dir, err, errlen);
	} else if (!strcmp(k, "export-svg")) {
		st->kind = TALK_EXPORT_SVG;
		struct stat sb;
		if (n != 2 || !w[1][0])
			rc = errf(err, errlen, "export-svg: one OUT file (export-svg OUT)");
		else if (!rehearse && lstat(w[1], &sb) == 0) /* a rehearsal skips it */
			rc = errf(err, errlen, "export-svg %s: already exists (lrutop makes a new "
					"file; move it away)", w[1]);
		else
			st->text = xstrdup(w[1]);
	} else if (!strcmp(k, "wait")) {
		st->kind = TALK_WAIT;
		if (n > 2)
			rc = errf(err, errlen, "wait: one RUN at most (wait [STRATEGY|N])");
		else if (!last)
			rc = errf(err, errlen, "wait: no run or replay step before it");
		else if (n == 2 && parse_whole(w[1], &v) == 0 && v >= 1 && v <= RUNLOG_MAX_RUNS) {
			st->n = (int)v;
			if (last->kind == TALK_RUN && run_has(last, NULL, &nruns) >= 0 &&
			    (size_t)v > nruns)
				rc = errf(err, errlen, "wait %ld: the run step on line %u queues %zu "
						"run%s", v, last->line, nruns, nruns == 1 ? "" : "s");
		} else if (n == 2) {
			st->wait_name = xstrdup(w[1]);
			if (!strategy_find(w[1]))
				rc = errf(err, errlen, "wait %s: not a strategy or a run number", w[1]);
			else if (last->kind == TALK_RUN && !run_has(last, w[1], &nruns))
				rc = errf(err, errlen, "wait %s: the run step on line %u does not run "
						"it", w[1], last->line);
		}
	} else {
		rc = errf(err, errlen, "%s: not a step (caption, pause, view, theme, glyphs, run, "
				"replay, export-svg, wait)", k);
	}
	free_words(w, n);
	return rc;
}

struct talk_script *talk_script_parse(const char *text, const char *fname,
				      const struct options *base, int rehearse, char *err,
				      size_t errlen)
{
	struct talk_script *s = xcalloc(1, sizeof(*s));
	s->path = xstrdup(fname);
	char *dir = xstrdup(fname);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		dir[0] = '\0';
	size_t cap = 0;
	unsigned lineno = 0;
	const struct talk_step *last = NULL; /* the last run or replay */
	char e[1200];
	for (const char *p = text; *p || lineno == 0;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		char *line = xmalloc(l + 1);
		memcpy(line, p, l);
		line[l] = '\0';
		p += l + (nl != NULL);
		if (l && line[l - 1] == '\r')
			line[--l] = '\0';
		const char *q = line + strspn(line, " \t");
		int bad_byte = 0;
		for (const char *c = line; *c; c++)
			bad_byte |= (unsigned char)*c < 0x20 && *c != '\t';
		if (bad_byte) {
			free(line);
			errf(err, errlen, "%s:%u: a control character in the line", fname, lineno);
			goto fail;
		}
		if (!*q || *q == '#') {
			free(line);
			if (!nl)
				break;
			continue;
		}
		if (s->n == TALK_MAX_STEPS) {
			free(line);
			errf(err, errlen, "%s:%u: more than %d steps", fname, lineno, TALK_MAX_STEPS);
			goto fail;
		}
		s->steps = xgrow(s->steps, s->n, &cap, sizeof(*s->steps), 32);
		struct talk_step *st = &s->steps[s->n++];
		memset(st, 0, sizeof(*st));
		st->line = lineno;
		st->from_s = st->to_s = -1;
		int rc = parse_step(st, line, dir, base, rehearse, last, e, sizeof(e));
		free(line);
		if (rc < 0) {
			errf(err, errlen, "%s:%u: %s", fname, lineno, e);
			goto fail;
		}
		if (st->kind == TALK_RUN || st->kind == TALK_REPLAY)
			last = st;
		if (!nl)
			break;
	}
	if (!s->n) {
		errf(err, errlen, "%s: no steps (a talk needs at least one line)", fname);
		goto fail;
	}
	free(dir);
	return s;
fail:
	free(dir);
	talk_script_free(s);
	return NULL;
}

struct talk_script *talk_script_load(const char *path, const struct options *base, int rehearse,
				     char *err, size_t errlen)
{
	char why[200];
	int fd = open_input(path, why, sizeof(why)); /* never waits on a FIFO */
	if (fd < 0) {
		errf(err, errlen, "--talk %s: %s", path, why);
		return NULL;
	}
	struct stat sb;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size > (1 << 20)) {
		errf(err, errlen, "--talk %s: %s", path,
		     S_ISDIR(sb.st_mode) ? "a directory" : "not a script (a file up to 1 MiB)");
		close(fd);
		return NULL;
	}
	size_t len = (size_t)sb.st_size;
	char *buf = xmalloc(len + 1);
	ssize_t got = read_full(fd, buf, len);
	close_keep_errno(fd);
	if (got < 0) {
		errf(err, errlen, "--talk %s: %s", path, strerror(errno));
		free(buf);
		return NULL;
	}
	buf[got] = '\0';
	if (strlen(buf) != (size_t)got) {
		free(buf);
		errf(err, errlen, "--talk %s: a NUL byte in the file (not a text script)", path);
		return NULL;
	}
	struct talk_script *s = talk_script_parse(buf, path, base, rehearse, err, errlen);
	free(buf);
	return s;
}
