/*
 * main — decides what reaches the user (docs/style.md rule 3): parses options,
 * picks the front end, and prints errors as one line "lrutop: ..." after
 * the terminal has been restored.  Exit status (man page, EXIT STATUS):
 * 0 success; 1 a run failed, -n came with runs not done, or an output
 * (stdout, --csv, --results) could not be written; 2 a usage or
 * environment error found before anything ran (output files lrutop created
 * are removed again); 128 + N for signal N (130 SIGINT, 143 SIGTERM, 129
 * SIGHUP), 141 when stdout was a pipe whose reader went away.
 */
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/actions.h"
#include "app/app.h"
#include "app/argv_config.h"
#include "app/options.h"
#include "app/preset.h"
#include "model/compare.h"
#include "output/export.h"
#include "output/export_results.h"
#include "output/results.h"
#include "screen/screen.h"
#include "base/sigpipe.h"
#include "runs/strategy.h"
#include "talk/talk.h"
#include "screen/theme.h"
#include "base/util.h"
#include "base/version.h"

/* One line on stderr: "lrutop: " PREFIX and the first len bytes of msg,
 * its control characters as '?' — a path with a newline or an escape
 * sequence in it neither splits the line nor reaches the terminal. */
static void say(const char *prefix, const char *msg, size_t len)
{
	fprintf(stderr, "lrutop: %s", prefix);
	text_put(stderr, msg, len, NULL);
	fputc('\n', stderr);
}

static void say_line(const char *msg)
{
	say("", msg, strlen(msg));
}

/* Each line of text as a warning of its own. */
static void say_warnings(const char *text)
{
	for (const char *line = text, *next; line && *line; line = next)
		say("warning: ", line, text_line(line, &next));
}

/* What cgroup_home found wrong with the markers in /run/lrutop (each set
 * aside, nothing done by it), one warning a line. */
static void say_cgroup_warnings(struct cgroup_home *cgroups)
{
	char w[4400];
	cgroup_home_take_warnings(cgroups, w, sizeof(w));
	say_warnings(w);
}

static int fail(int code, const char *msg)
{
	say_line(msg);
	return code;
}

/* A closed stdin, stdout or stderr (`>&-`) is held by a read-only
 * /dev/null: no file lrutop opens may become fd 1 and receive its output,
 * and writes to a closed stdout still fail (EBADF) and are reported. */
static void hold_std_fds(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF) {
			int n = open("/dev/null", O_RDONLY);
			if (n >= 0 && n != fd) {
				dup2(n, fd);
				close(n);
			}
		}
}

/* coreutils' close_stdout: the last buffered output and the close are
 * checked too.  saved: errno of an earlier failed write, 0 if none. */
static int close_stdout(int code, int saved)
{
	errno = 0;
	int bad = fflush(stdout) == EOF;
	int e = bad ? errno : 0;
	bad |= ferror(stdout) != 0;
	if (fclose(stdout) == EOF && !bad) {
		bad = 1;
		e = errno;
	}
	if (!bad && !saved)
		return code;
	if (saved)
		e = saved;
	if (!e)
		e = EIO;
	if (e == EPIPE) /* the reader went away: quiet, as a SIGPIPE death would be */
		return code >= 128 ? code : 128 + SIGPIPE;
	fprintf(stderr, "lrutop: write error: %s\n", strerror(e));
	return code ? code : 1;
}

/* The text make writes into a buffer (--help, --list-options,
 * --list-keys) on stdout: longer than stdio's buffer, so a write can fail
 * in fputs; a text past the buffer is this build's mistake, outgrew. */
static int put_text(size_t (*make)(char *buf, size_t len), const char *outgrew)
{
	char text[8192];
	if (make(text, sizeof(text)) >= sizeof(text))
		return fail(2, outgrew);
	errno = 0;
	return close_stdout(0, fputs(text, stdout) == EOF ? errno : 0);
}

static void list_strategies(void)
{
	printf("%-16s %-12s %s\n", "STRATEGY", "FAMILY", "WHAT IT SHOWS");
	for (size_t i = 0; i < strategy_count(); i++) {
		const struct strategy *s = strategy_at(i);
		printf("%-16s %-12s %s\n", s->name, s->family, s->what);
	}
	printf("\n'copybench' = the first eight, 'all' = every strategy.\n");
}

/* --list-themes: name, where it was found, its description. */
static void list_themes(void)
{
	struct theme_entry *e = xcalloc(THEME_LIST_MAX, sizeof(*e));
	size_t n = theme_list(e, THEME_LIST_MAX);
	int builtin = 1;
	for (size_t i = 0; i < n; i++)
		builtin &= strcmp(e[i].name, "default") != 0;
	if (builtin)
		printf("%-12s %-40s %s\n", "default", "(built in)",
		       "built-in colours for a dark terminal");
	for (size_t i = 0; i < n; i++)
		printf("%-12s %-40s %s\n", e[i].name, e[i].path, e[i].description);
	free(e);
}

/* --export-svg, --export-csv, --compare: a recording in, a file or a table
 * out; nothing is sampled and nothing runs.  Exit 2 for an input that does
 * not do (nothing is created), 1 when OUT or stdout could not be written. */
/* What a recording on standard input may hold (it is kept in memory). */
#define STDIN_RECORDING_MAX (1024ull << 20)

static void export_signal(int signo)
{
	static const char term[] = "lrutop: interrupted (SIGTERM)\n",
			  intr[] = "lrutop: interrupted (SIGINT)\n",
			  hup[] = "lrutop: interrupted (SIGHUP)\n";
	sig_note(signo);
	if (sig_holding())
		return;
	const char *m = signo == SIGTERM ? term : signo == SIGINT ? intr : hup;
	size_t n = signo == SIGTERM  ? sizeof(term) - 1
		   : signo == SIGINT ? sizeof(intr) - 1
				     : sizeof(hup) - 1;
	if (write(STDERR_FILENO, m, n) < 0) {
		/* nowhere to say it: the status says it */
	}
	_exit(128 + signo);
}

static int run_export(const struct options *opt)
{
	char err[512] = "", warn[2048] = "";
	int rc, saved = 0;
	struct export_req req = options_export_req(opt);
	const struct export_req *o = &req;
	req.ap = &app_argv_parser; /* a recording before minor 4: its command line */
	/* SIGINT/TERM/HUP end an export at once while nothing is on disk; while
	 * its temporary file is written (sig_hold) they are only noted, and
	 * the file is removed instead of linked into place */
	sig_set(SIGINT, export_signal, 0);
	sig_set(SIGTERM, export_signal, 0);
	sig_set(SIGHUP, export_signal, 0);
	if (opt->action == OPTA_COMPARE) {
		rc = export_compare(stdout, o, warn, sizeof(warn), err, sizeof(err));
		if (rc == EXPORT_WRITE && !err[0]) /* stdout; with err: --export-json's file */
			saved = errno ? errno : EIO;
	} else if (opt->action == OPTA_EXPORT_SVG)
		rc = export_svg(o, warn, sizeof(warn), err, sizeof(err));
	else if (opt->action == OPTA_EXPORT_OPENMETRICS)
		rc = export_openmetrics(o, warn, sizeof(warn), err, sizeof(err));
	else
		rc = export_csv(o, warn, sizeof(warn), err, sizeof(err));
	/* a recording cut short: its prefix was used, the user should know */
	say_warnings(warn);
	/* a signal held while OUT was linked into place (or the table written)
	 * came too late to stop it: the export is whole, and it succeeded */
	int sig = rc ? sig_caught() : 0;
	if (sig) {
		const char *abbrev = sigabbrev_np(sig);
		fprintf(stderr, "lrutop: interrupted (SIG%s)\n", abbrev ? abbrev : "?");
		return close_stdout(128 + sig, 0);
	}
	if (saved)
		return close_stdout(EXPORT_WRITE, saved);
	if (rc)
		fail(rc, err);
	return close_stdout(rc, 0);
}

/* main's body; cgroups: where run cgroups go (cgroup.h), restored by main
 * on every way out of here. */
static int run_main(int argc, char **argv, struct cgroup_home *cgroups)
{
	char err[512] = "";
	hold_std_fds();
	setlocale(LC_ALL, "");
	/* Numbers in CSV, batch lines and options stay in the C format: a
	 * decimal-comma locale must not turn 0.5 into 0,5. */
	setlocale(LC_NUMERIC, "C");
	struct options opt;
	options_init(&opt);
	if (options_parse(&opt, argc, argv, err, sizeof(err)) < 0)
		return fail(2, err);
	/* a recording from a pipe (- or /dev/stdin) is read whole first: the
	 * readers open a recording again to seek, as a file can be */
	int from_stdin = opt.replay && is_stdin_name(opt.replay);
	for (int i = 0; i < opt.ninputs; i++)
		from_stdin |= is_stdin_name(opt.inputs[i]);
	if (from_stdin && stdin_to_file(STDIN_RECORDING_MAX, opt.replay ? "--replay" : "recording",
					err, sizeof(err)) < 0)
		return fail(2, err);
	/* --follow -: standard input is read as it comes; the TUI's keys
	 * then come from the terminal, put on fd 0 in its place */
	if (opt.follow && is_stdin_name(opt.follow) &&
	    (opt.follow_fd = stdin_hand_over(!opt.batch && isatty(STDOUT_FILENO), "--follow -", err,
					     sizeof(err))) < 0)
		return fail(2, err);
	switch (opt.action) {
	case OPTA_HELP:
		return put_text(options_usage, "--help: the text outgrew its buffer");
	case OPTA_LIST_OPTIONS:
		return put_text(options_list, "--list-options: the list outgrew its buffer");
	case OPTA_LIST_KEYS:
		return put_text(keys_markdown, "--list-keys: the tables outgrew their buffer");
	case OPTA_VERSION:
		printf("lrutop %s\n", LRUTOP_VERSION);
		return close_stdout(0, 0);
	case OPTA_LIST_STRATEGIES:
		list_strategies();
		return close_stdout(0, 0);
	case OPTA_COMPARE: /* a terminal shows it in the Runs view */
		if (!opt.batch && isatty(STDOUT_FILENO) && isatty(STDIN_FILENO))
			break;
		/* fall through */
	case OPTA_EXPORT_SVG:
	case OPTA_EXPORT_CSV:
	case OPTA_EXPORT_OPENMETRICS:
		return run_export(&opt);
	case OPTA_LIST_THEMES:
		list_themes();
		return close_stdout(0, 0);
	case OPTA_RUN:
		break;
	}
	if (!opt.batch && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)))
		opt.batch = 1;
	struct theme theme;
	if (theme_load(&theme, opt.theme ? opt.theme : "default", err, sizeof(err)) < 0)
		return fail(2, err);
	if (opt.glyphs < 0)
		opt.glyphs = theme.glyphs; /* --glyphs wins over the theme's */
	/* --demo: the preset fills what the command line left unset (preset.c
	 * has the table and how each value was measured) */
	char note[400] = "", preset_desc[64] = "";
	if (opt.demo)
		preset_apply(opt.preset ? opt.preset : preset_find(PRESET_DEFAULT), &opt, cgroups,
			     note, sizeof(note), preset_desc, sizeof(preset_desc));
	if (options_check_runs(&opt, err, sizeof(err)) < 0)
		return fail(2, err);
	const char *outputs[3] = {opt.results, opt.csv, opt.record};
	if (export_results_check(opt.export_json, opt.export_md, outputs, err, sizeof(err)) < 0)
		return fail(2, err);
	/* the terminal first: a TUI that cannot start must leave nothing */
	if (!opt.batch && screen_check(err, sizeof(err)) < 0)
		return fail(2, err);
	char reaped[512]; /* what a SIGKILLed lrutop left behind */
	if (!opt.replay && !opt.follow && opt.action == OPTA_RUN &&
	    session_reap_stale(opt.dir, cgroups, reaped, sizeof(reaped)) > 0)
		say_line(reaped);
	say_cgroup_warnings(cgroups);
	if (sig_install(err, sizeof(err)) < 0)
		return fail(2, err);
	/* --talk: the whole script is checked before anything runs */
	struct talk_script *script = NULL;
	if (opt.talk && (!(script = talk_script_load(opt.talk, &opt, opt.rehearse, err, sizeof(err))) ||
			 talk_check_options(&opt, err, sizeof(err)) < 0)) {
		talk_script_free(script);
		return fail(2, err);
	}
	struct app app;
	if (app_init(&app, &opt, cgroups, err, sizeof(err)) < 0) {
		app_done(&app);
		talk_script_free(script);
		/* a signal during a recording's first read ends it (record.h):
		 * the signal's status, not a bad input's */
		int sig = sig_caught();
		if (sig) {
			const char *abbrev = sigabbrev_np(sig);
			fprintf(stderr, "lrutop: interrupted (SIG%s)\n", abbrev ? abbrev : "?");
			return close_stdout(128 + sig, 0);
		}
		return fail(2, err);
	}
	app.ui.theme = theme;
	if (script)
		app.talk = talk_new(script, &app, opt.rehearse);
	strlcpy_(app.ui.preset, preset_desc, sizeof(app.ui.preset));
	if (note[0] && opt.batch) /* no status line to show it on */
		say_line(note);
	else if (note[0])
		app_status(&app, note);
	if (note[0]) { /* and it stays there once the message has gone */
		size_t l = strlen(app.model.missing);
		snprintf(app.model.missing + l, sizeof(app.model.missing) - l, "%s%s",
			 l ? "; " : "", note);
	}
	if (opt.replay && source_replay_warning(app.src)) {
		/* a recording cut short by a crash: the rest replays */
		say("warning: ", source_replay_warning(app.src),
		    strlen(source_replay_warning(app.src)));
		app_status(&app, source_replay_warning(app.src));
	}
	int stdout_err = 0;
	int rc = opt.batch ? batch_run(&app, err, sizeof(err)) : tui_run(&app, err, sizeof(err));
	app_stop_runs(&app);
	talk_end(app.talk, &app); /* a rehearsal cut short: its .part goes */
	/* The terminal is restored: the results table can reach the user. */
	if (app.model.compare) {
		if (compare_table(stdout, app.model.compare) < 0 && !stdout_err)
			stdout_err = errno ? errno : EIO;
	} else if (!opt.batch && app.model.runs.state != RUNS_NONE && app.log->nresults) {
		results_table(stdout, app.log->results, app.log->nresults);
		print_stats(stdout, app.log);
		print_mglru_note(stdout, &app.model);
	}
	int code = app.exit_code;
	struct follow_pos fp = {0};
	if (source_is_follow(app.src))
		source_follow_pos(app.src, &fp);
	/* the writer died mid-line: what came before counts (exit 0); a bad
	 * line ended the follow early (exit 1) */
	if (fp.end == FOLLOW_CUT)
		say("warning: ", fp.note, strlen(fp.note));
	if (fp.end == FOLLOW_BAD) {
		say_line(fp.note);
		code = code ? code : 1;
	}
	/* A failed run is an error: one line each on stderr too (the table
	 * on stdout has the same message under it). */
	for (size_t i = 0; i < app.log->nresults; i++) {
		const struct run_result *r = &app.log->results[i];
		if (r->finished && !r->ok && !r->cancelled && r->message[0])
			say_line(r->message);
		if (r->finished && r->probe.lost) {
			char w[160];
			snprintf(w, sizeof(w),
				 "%s #%d: the probe died during the run: no latency "
				 "figures",
				 r->name, r->repeat);
			say("warning: ", w, strlen(w));
		}
	}
	if (app.model.runs.error[0]) {
		say_line(app.model.runs.error);
		code = 1;
	}
	if (rc < 0) { /* exit 2: a recording and a metrics file this run made go again */
		record_sink_discard(&app.rec);
		metrics_file_done(&app.metrics);
	}
	char oerr[512];
	if (app_close_outputs(&app, oerr, sizeof(oerr)) < 0) {
		say_line(oerr);
		code = 1;
	}
	/* the runs are over: the metrics file's last figures stay (a warning,
	 * as its writes during the session are) */
	if (metrics_file_finish(&app.metrics, opt.metrics_remove, oerr, sizeof(oerr)) < 0)
		say("warning: ", oerr, strlen(oerr));
	if (talk_error(app.talk)) { /* a rehearsal that kept nothing, an export that failed */
		say_line(talk_error(app.talk));
		code = 1;
	}
	if (app.count_reached && app.runs_not_done) {
		fprintf(stderr, "lrutop: -n %ld samples reached with %zu run%s not done\n",
			opt.count, app.runs_not_done, app.runs_not_done == 1 ? "" : "s");
		code = 1;
	}
	/* a signal the loop had not taken yet (a replay's read it ended came
	 * first) ends it as one it took */
	int sig = app.signal ? app.signal : sig_caught();
	int stdout_errno = app.stdout_errno ? app.stdout_errno : stdout_err;
	app_done(&app);
	talk_free(app.talk);
	if (rc < 0)
		return close_stdout(fail(2, err), stdout_errno);
	if (sig) {
		const char *abbrev = sigabbrev_np(sig);
		fprintf(stderr, "lrutop: interrupted (SIG%s)\n", abbrev ? abbrev : "?");
		code = 128 + sig;
	}
	return close_stdout(code, stdout_errno);
}

int main(int argc, char **argv)
{
	struct cgroup_home cgroups;
	cgroup_home_init(&cgroups, "", CGROUP_RUN_DIR);
	int rc = run_main(argc, argv, &cgroups);
	/* the run cgroups went with app_done: a controller lrutop enabled
	 * goes back off (a SIGKILL leaves that to the next start) */
	cgroup_home_done(&cgroups);
	say_cgroup_warnings(&cgroups); /* markers found bad later (a limit, the exit) */
	return rc;
}
