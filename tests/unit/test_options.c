/*
 * Tests for options: sizes, intervals, the command line and its checks.
 *
 * Expected values are worked out here from the contracts in the headers and
 * docs/design.md, never copied from a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "app/options.h"
#include "model/glyphs.h"
#include "optparse.h"
#include "base/util.h"
#include "near.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- options ---------------------------------------------------------- */

static void test_parse_size(void **state)
{
	(void)state;
	uint64_t v;
	static const struct {
		const char *s;
		uint64_t want;
	} ok[] = {
	    {"0", 0},
	    {"1", 1},
	    {"4K", 4096},
	    {"4k", 4096},
	    {"1.5M", 3ull << 19},
	    {"2G", 2ull << 30},
	    {"1T", 1ull << 40},
	    {"512MiB", 512ull << 20},
	    {"8KB", 8192},
	    {"16777215T", (16777215ull) << 40}, /* 2^64 - 2^40: still fits */
	};
	for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
		v = 12345;
		if (parse_size(ok[i].s, &v) != 0)
			fail_msg("parse_size(\"%s\") rejected", ok[i].s);
		if (v != ok[i].want)
			fail_msg("parse_size(\"%s\") = %llu, want %llu", ok[i].s,
				 (unsigned long long)v, (unsigned long long)ok[i].want);
	}
	static const char *const bad[] = {
	    "-1",
	    "+1",
	    "abc",
	    "",
	    "12Q",
	    "1e400",
	    "4K4",
	    "K",
	    " 4K",
	    "4K ",
	    "nan",
	    "inf",
	    "16777216T", /* 2^64 */
	    "99999999999999999999999",
	};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		v = 777;
		if (parse_size(bad[i], &v) == 0)
			fail_msg("parse_size(\"%s\") accepted (%llu)", bad[i],
				 (unsigned long long)v);
		assert_int_equal(v, 777); /* untouched on error */
	}
	assert_int_equal(parse_size(NULL, &v), -1);
}

static void test_parse_interval(void **state)
{
	(void)state;
	double d = -1;
	char err[256] = "";
	assert_int_equal(parse_interval("0.05", &d, err, sizeof(err)), 0);
	assert_near(d, 0.05, 1e-12);
	assert_int_equal(parse_interval("60", &d, err, sizeof(err)), 0);
	assert_near(d, 60.0, 0.0);
	assert_int_equal(parse_interval("0.25", &d, err, sizeof(err)), 0);
	assert_near(d, 0.25, 0.0);
	static const char *const bad[] = {"0.049", "61", "60.001", "0",	  "-1",
					  "abc",   "",	 "0.25s",  "nan", "inf"};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		d = 42;
		err[0] = '\0';
		if (parse_interval(bad[i], &d, err, sizeof(err)) == 0)
			fail_msg("parse_interval(\"%s\") accepted", bad[i]);
		assert_near(d, 42.0, 0.0);
		if (strncmp(err, "-i", 2) != 0)
			fail_msg("parse_interval(\"%s\"): error \"%s\" does not start with -i",
				 bad[i], err);
	}
}

/* The one rule for a whole number (parse_whole: a talk's counts used to
 * take " 5", the options did not), the messages an option's whole-number
 * and size arguments get, and the glyphs' names, read in one place. */
static void test_parse_whole(void **state)
{
	(void)state;
	static const struct {
		const char *s;
		long want;
	} ok[] = {{"0", 0}, {"42", 42}, {"-3", -3}, {"007", 7}, {"100000", 100000}};
	long v;
	for (size_t i = 0; i < ARRAY_LEN(ok); i++) {
		v = 42;
		if (parse_whole(ok[i].s, &v) != 0 || v != ok[i].want)
			fail_msg("parse_whole(\"%s\"): %ld", ok[i].s, v);
	}
	static const char *const bad[] = {"",
					  "  5",
					  " 5",
					  "5 ",
					  "+5",
					  "-",
					  "--5",
					  "5.0",
					  "5x",
					  "0x10",
					  "1e3",
					  "nan",
					  "99999999999999999999"};
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		v = 42;
		if (parse_whole(bad[i], &v) == 0 || v != 42)
			fail_msg("parse_whole(\"%s\") accepted", bad[i]);
	}
	char err[128];
	assert_int_equal(parse_whole_arg("-n", "x", 1, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "-n x: not a whole number");
	assert_int_equal(parse_whole_arg("-n", "0", 1, &v, err, sizeof(err)), -1);
	assert_string_equal(err, "-n 0: must be at least 1");
	assert_int_equal(parse_whole_arg("--stall-timeout", "0", 0, &v, err, sizeof(err)), 0);
	assert_int_equal(v, 0);
	uint64_t u = 7;
	assert_int_equal(parse_size_arg("--bs", "x", &u, err, sizeof(err)), -1);
	assert_string_equal(err, "--bs x: not a size (use e.g. 512M, 4G)");
	assert_int_equal(parse_size_arg("--bs", "0", &u, err, sizeof(err)), -1);
	assert_string_equal(err, "--bs 0: must be larger than zero");
	assert_int_equal(u, 7);
	assert_int_equal(parse_size_arg("--bs", "64K", &u, err, sizeof(err)), 0);
	assert_int_equal(u, 65536);

	assert_int_equal(glyphs_parse("braille"), CHART_BRAILLE);
	assert_int_equal(glyphs_parse("blocks"), CHART_BLOCK);
	assert_int_equal(glyphs_parse("ascii"), CHART_ASCII);
	for (int g = CHART_BRAILLE; g <= CHART_ASCII; g++)
		assert_int_equal(glyphs_parse(glyphs_name(g)), g);
	assert_int_equal(glyphs_parse("Braille"), -1);
	assert_int_equal(glyphs_parse("block"), -1);
	assert_int_equal(glyphs_parse(""), -1);
	assert_string_equal(glyphs_name(3), "?");
	assert_string_equal(glyphs_name(-1), "?");
}

static void test_options_defaults(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	char *argv[] = {"lrutop", NULL};
	assert_int_equal(tu_parse_argv(&o, err, sizeof(err), 1, argv), 0);
	assert_int_equal(o.action, OPTA_RUN);
	assert_near(o.interval, 0.25, 0.0);
	assert_string_equal(o.dir, "/var/tmp");
	assert_int_equal(o.repeat, 1);
	assert_int_equal(o.count, 0);
	assert_null(o.device);
	assert_null(o.csv);
	assert_int_equal(o.batch, 0);
	assert_int_equal(o.size, 0);
	assert_int_equal(o.mem_limit, 0);
}

static void test_options_values(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(
	    PARSE(&o, err, "-i", "0.5", "-n", "10", "-d", "vda", "--batch", "--csv", "x.csv"), 0);
	assert_near(o.interval, 0.5, 0.0);
	assert_int_equal(o.count, 10);
	assert_string_equal(o.device, "vda");
	assert_int_equal(o.batch, 1);
	assert_string_equal(o.csv, "x.csv");

	assert_int_equal(PARSE(&o, err, "--interval=2", "--count", "3", "--repeat", "3", "--size",
			       "64M", "--mem-limit", "128M", "--dir", "/srv", "-q", "--ascii"),
			 0);
	assert_near(o.interval, 2.0, 0.0);
	assert_int_equal(o.count, 3);
	assert_int_equal(o.repeat, 3);
	assert_int_equal(o.size, 64ull << 20);
	assert_int_equal(o.mem_limit, 128ull << 20);
	assert_string_equal(o.dir, "/srv");
	assert_int_equal(o.quiet, 1);
	assert_int_equal(o.ascii, 1);

	assert_int_equal(PARSE(&o, err, "--help"), 0);
	assert_int_equal(o.action, OPTA_HELP);
	assert_int_equal(PARSE(&o, err, "-V"), 0);
	assert_int_equal(o.action, OPTA_VERSION);
	assert_int_equal(PARSE(&o, err, "--list-strategies"), 0);
	assert_int_equal(o.action, OPTA_LIST_STRATEGIES);
}

static void expect_error(int rc, const char *err, const char *needle)
{
	assert_int_equal(rc, -1);
	if (!strstr(err, needle))
		fail_msg("error \"%s\" does not contain \"%s\"", err, needle);
}

static void test_options_errors(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	expect_error(PARSE(&o, err, "--bogus"), err, "unknown option");
	expect_error(PARSE(&o, err, "--bogus"), err, "--bogus");
	expect_error(PARSE(&o, err, "-Z"), err, "unknown option");
	expect_error(PARSE(&o, err, "-i"), err, "needs an argument");
	expect_error(PARSE(&o, err, "-n", "5", "--csv"), err, "needs an argument");
	expect_error(PARSE(&o, err, "-n", "0"), err, "-n");
	expect_error(PARSE(&o, err, "-n", "ten"), err, "-n");
	expect_error(PARSE(&o, err, "-i", "0.01"), err, "-i");
	expect_error(PARSE(&o, err, "--size", "0"), err, "larger than zero");
	expect_error(PARSE(&o, err, "--size", "garbage"), err, "--size");
	expect_error(PARSE(&o, err, "--mem-limit", "-5M"), err, "--mem-limit");
	expect_error(PARSE(&o, err, "--repeat", "0"), err, "--repeat");
	expect_error(PARSE(&o, err, "-d", ""), err, "-d");
	expect_error(PARSE(&o, err, "stray"), err, "stray");
	expect_error(PARSE(&o, err, "-n", "5", "stray"), err, "stray");
	expect_error(PARSE(&o, err, "stray", "-n", "5"), err, "stray");
	/* error messages are one sentence: no newline, no "lrutop: " prefix
	 * (main adds it) */
	assert_null(strchr(err, '\n'));
	assert_int_not_equal(strncmp(err, "lrutop:", 7), 0);
}

static void test_options_reparse(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	/* Stop getopt in the middle of a cluster of short options; the next
	 * parse must start from a clean state, not from "-qZ"'s leftovers. */
	expect_error(PARSE(&o, err, "-qZn", "4"), err, "unknown option");
	assert_int_equal(PARSE(&o, err, "-n", "5"), 0);
	assert_int_equal(o.count, 5);
	assert_int_equal(o.quiet, 0);
	expect_error(PARSE(&o, err, "-i"), err, "needs an argument");
	assert_int_equal(PARSE(&o, err, "-q", "-i", "1"), 0);
	assert_int_equal(o.quiet, 1);
	assert_near(o.interval, 1.0, 0.0);
}

/* --cmd is repeatable; --name labels the commands in order; where -s stood
 * among them is kept for the queue order. */
static void test_options_cmds(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(PARSE(&o, err, "--cmd", "cp {src} {dst}", "--name", "cp", "-s", "rw_cp",
			       "--cmd", "dd if={src} of={dst}", "--cmd", "true"),
			 0);
	assert_int_equal(o.ncmds, 3);
	assert_string_equal(o.cmds[0], "cp {src} {dst}");
	assert_string_equal(o.cmds[2], "true");
	assert_int_equal(o.nnames, 1);
	assert_string_equal(o.names[0], "cp");
	assert_int_equal(o.cmds_before_s, 1);
	assert_string_equal(o.strategies, "rw_cp");
	expect_error(PARSE(&o, err, "--cmd", "  "), err, "--cmd: empty command");
	char *argv[2 * OPTIONS_MAX_CMDS + 3] = {"lrutop"};
	int argc = 1;
	for (int i = 0; i <= OPTIONS_MAX_CMDS; i++) {
		argv[argc++] = "--cmd";
		argv[argc++] = "true";
	}
	expect_error(tu_parse_argv(&o, err, sizeof(err), argc, argv), err, "at most");
}

/* Run options without anything to run: an error in batch mode; in the TUI
 * only those the picker does not use. */
static void test_options_check_runs(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	static const char *const opts[][2] = {
	    {"--src", "/x"}, {"--size", "8M"},	  {"--mem-limit", "64M"},    {"--bs", "4K"},
	    {"--repeat", "2"}, {"--baseline", "rw_cp"}, {"--no-verify", NULL}, {"--no-drop-caches", NULL},
	    {"--results", "r.csv"},
	};
	for (size_t i = 0; i < ARRAY_LEN(opts); i++) {
		char msg[128];
		snprintf(msg, sizeof(msg), "%s: nothing to run (add -s STRATEGIES or --cmd)",
			 opts[i][0]);
		assert_int_equal(PARSE(&o, err, "--batch", (char *)opts[i][0], (char *)opts[i][1]), 0);
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), -1);
		assert_string_equal(err, msg);
		/* with something to run, fine */
		assert_int_equal(PARSE(&o, err, "--batch", "-s", "rw_cp", (char *)opts[i][0],
				       (char *)opts[i][1]),
				 0);
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
		o.strategies = NULL;
		o.demo = 1;
		assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	}
	/* the TUI: --size seeds the picker, --baseline does not */
	assert_int_equal(PARSE(&o, err, "--size", "8M", "--repeat", "2"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	assert_int_equal(PARSE(&o, err, "--size", "8M", "--baseline", "x"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "--baseline: nothing to run (add -s STRATEGIES or --cmd)");
	/* nothing given at all: monitoring */
	assert_int_equal(PARSE(&o, err, "--batch", "-n", "3"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	/* more names than commands */
	assert_int_equal(PARSE(&o, err, "--cmd", "true", "--name", "a", "--name", "b"), 0);
	expect_error(options_check_runs(&o, err, sizeof(err)), err, "--name b: no --cmd");
}

/* Numbers by one rule (util.h decimal_prefix): every value parser takes a
 * plain decimal and nothing strtod would also take.  --sweep-until
 * 'bursts>=0x10' was taken (16) while -i 0x10 was refused (issue 26, 9),
 * and so were --from 0x10, --replay-at 0x10 and --sweep ...:x0x2. */
static void test_numbers(void **state)
{
	(void)state;
	static const char *const bad[] = {"0x10", "1e1", "1E1", "inf", "nan",  " 1",	"1 ",
					  "+1",	  "-1",	 "",	".",   "1..2", "1.2.3", "0x1p3"};
	struct options o;
	char err[256], arg[64];
	double d;
	uint64_t u;
	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		const char *w = bad[i];
		d = 42;
		if (decimal_parse(w, &d) == 0 || d != 42)
			fail_msg("decimal_parse(\"%s\") accepted", w);
		if (parse_interval(w, &d, err, sizeof(err)) == 0)
			fail_msg("-i %s accepted", w);
		if (parse_clock(w, &d) == 0)
			fail_msg("parse_clock(\"%s\") accepted", w);
		snprintf(arg, sizeof(arg), "%sK", w);
		if (parse_size(w, &u) == 0 || parse_size(arg, &u) == 0)
			fail_msg("parse_size(\"%s\") accepted", w);
		expect_error(PARSE(&o, err, "--replay", "r.jsonl", "--speed", (char *)w), err,
			     "--speed");
		expect_error(PARSE(&o, err, "--replay", "r.jsonl", "--replay-at", (char *)w), err,
			     "--replay-at");
		expect_error(
		    PARSE(&o, err, "--export-svg", "o.svg", "--from", (char *)w, "r.jsonl"), err,
		    "--from");
		expect_error(PARSE(&o, err, "-n", (char *)w), err, "-n");
		expect_error(PARSE(&o, err, "--repeat", (char *)w), err, "--repeat");
		snprintf(arg, sizeof(arg), "bursts>=%s", w);
		if (!strchr(w, ' ')) /* COND may have blanks around its words */
			expect_error(PARSE(&o, err, "--sweep", "bs=4K,8K", "--sweep-until", arg),
				     err, "--sweep-until");
		snprintf(arg, sizeof(arg), "mem-limit=8M..64M:x%s", w);
		expect_error(PARSE(&o, err, "--sweep", arg), err, "--sweep");
	}
	/* what a number is: digits, at most one '.', one digit at least */
	static const struct {
		const char *s;
		double v;
	} good[] = {{"12", 12}, {"0.25", 0.25}, {".5", 0.5}, {"5.", 5}, {"007", 7}};
	for (size_t i = 0; i < ARRAY_LEN(good); i++) {
		assert_int_equal(decimal_parse(good[i].s, &d), 0);
		assert_near(d, good[i].v, 0.0);
		assert_int_equal(parse_clock(good[i].s, &d), 0);
		assert_near(d, good[i].v, 0.0);
	}
	const char *end;
	assert_int_equal(decimal_prefix("1.5K", &d, &end), 0);
	assert_near(d, 1.5, 0.0);
	assert_string_equal(end, "K");
	assert_int_equal(decimal_prefix("1e3", &d, &end), 0); /* "1", then "e3" is not its */
	assert_string_equal(end, "e3");
	assert_int_equal(PARSE(&o, err, "--sweep", "bs=4K,8K", "--sweep-until", "bursts >= .5 "),
			 0);
	assert_near(o.sweep.until.threshold, 0.5, 0.0);
	assert_int_equal(PARSE(&o, err, "--export-svg", "o.svg", "--from", "1:02:03", "--to",
			       "3730.5", "r.jsonl"),
			 0);
	assert_near(o.from_s, 3723, 0.0);
	assert_near(o.to_s, 3730.5, 0.0);
	assert_int_equal(PARSE(&o, err, "--replay", "r.jsonl", "--speed", "0.5x"), 0);
	assert_near(o.speed, 0.5, 0.0);
}

/* Two actions, a picture of the sweep with one run, an option the other
 * makes moot: one line, not the last action silently nor --run, --size,
 * --glyphs, -t or -q ignored (issue 26, 9). */
static void test_option_pairs(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(PARSE(&o, err, "--help", "--version"), -1);
	assert_string_equal(err, "--version: not with --help (one at a time)");
	assert_int_equal(PARSE(&o, err, "-V", "--list-strategies"), -1);
	assert_string_equal(err, "--list-strategies: not with -V (one at a time)");
	assert_int_equal(PARSE(&o, err, "--list-themes", "-h"), -1);
	assert_string_equal(err, "-h: not with --list-themes (one at a time)");
	assert_int_equal(
	    PARSE(&o, err, "--export-svg", "o.svg", "--view", "sweep", "--run", "2", "r.jsonl"),
	    -1);
	assert_string_equal(err,
			    "--run 2: not with --view sweep (the sweep picture draws every run)");
	assert_int_equal(
	    PARSE(&o, err, "--export-svg", "o.svg", "--view", "sweep", "--to", "5", "r.jsonl"), -1);
	assert_string_equal(err, "--to: only for the Overview (the sweep picture draws every run)");
	assert_int_equal(
	    PARSE(&o, err, "--export-svg", "o.svg", "--view", "runs", "--from", "5", "r.jsonl"),
	    -1);
	assert_string_equal(err, "--from: only for the Overview (the Runs view takes --run N)");
	/* one option that the other makes moot, either way round */
	assert_int_equal(PARSE(&o, err, "--src", "/etc/hostname", "--size", "8M"), -1);
	assert_string_equal(err,
			    "--size 8M: not with --src (the copy is of FILE, at its own size)");
	assert_int_equal(PARSE(&o, err, "--size", "8M", "--src", "/etc/hostname"), -1);
	assert_int_equal(PARSE(&o, err, "--glyphs", "blocks", "--ascii"), -1);
	assert_string_equal(err, "--glyphs blocks: not with --ascii (its charts are ASCII)");
	assert_int_equal(PARSE(&o, err, "--ascii", "--glyphs", "ascii"), 0);
	assert_int_equal(PARSE(&o, err, "--export-csv", "o.csv", "-t", "light", "r.jsonl"), -1);
	assert_string_equal(err, "--export-csv: -t does not go with it (no colours)");
	assert_int_equal(
	    PARSE(&o, err, "--export-openmetrics", "o.prom", "--theme", "light", "r.jsonl"), -1);
	assert_int_equal(PARSE(&o, err, "--export-svg", "o.svg", "-t", "light", "r.jsonl"), 0);
	/* -q: batch mode only (decided after the parse: options_check_runs) */
	assert_int_equal(PARSE(&o, err, "-q", "-n", "1"), 0);
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), -1);
	assert_string_equal(err, "-q: only in batch mode (--batch, or stdout not a terminal)");
	o.batch = 1;
	assert_int_equal(options_check_runs(&o, err, sizeof(err)), 0);
	/* --run is the Runs view's row and the Overview's time range */
	assert_int_equal(
	    PARSE(&o, err, "--export-svg", "o.svg", "--view", "runs", "--run", "2", "r.jsonl"), 0);
	assert_int_equal(PARSE(&o, err, "--export-svg", "o.svg", "--run", "2", "r.jsonl"), 0);
	assert_int_equal(o.run, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options_cmds),    cmocka_unit_test(test_options_check_runs),
	    cmocka_unit_test(test_parse_size),	    cmocka_unit_test(test_parse_interval),
	    cmocka_unit_test(test_parse_whole),	    cmocka_unit_test(test_options_defaults),
	    cmocka_unit_test(test_options_values),  cmocka_unit_test(test_options_errors),
	    cmocka_unit_test(test_options_reparse), cmocka_unit_test(test_numbers),
	    cmocka_unit_test(test_option_pairs),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
