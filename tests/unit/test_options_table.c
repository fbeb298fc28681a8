/*
 * Tests for the options table (options.h): that getopt's options, --help
 * and --list-options are all made from it and agree, that a few messages
 * name an option as it was given, and that options_run_config hands a
 * session what the command line said, that each option is given once
 * (unless its row says it adds) and that --sweep refuses the option it
 * sets.  tests/sh/options_table.sh holds the same table to the man page.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/options.h"
#include "optparse.h"
#include "runs/run_config.h"
#include "model/sweep.h"

/* buf holds line as a whole line. */
static int has_line(const char *buf, const char *line)
{
	size_t n = strlen(line);
	for (const char *p = buf; (p = strstr(p, line)); p++)
		if ((p == buf || p[-1] == '\n') && p[n] == '\n')
			return 1;
	return 0;
}

/* Every row getopt knows has a name or a flag, no name or flag twice, and a
 * --help-only row shows an option a handler row has. */
static void test_table_rows(void **state)
{
	(void)state;
	size_t n;
	const struct options_entry *t = options_table(&n);
	assert_true(n >= 45);
	for (size_t i = 0; i < n; i++) {
		const struct options_entry *e = &t[i];
		assert_true(e->name || e->flag);
		if (e->name)
			assert_true(!strncmp(e->name, "--", 2) && e->name[2]);
		/* a --help row says something; the hidden ones have no text */
		assert_true((e->group >= OPTG_HIDDEN) == !e->help);
		int twin = 0;
		for (size_t j = 0; j < n; j++) {
			if (j == i || !t[j].set)
				continue;
			int same = (e->name && t[j].name && !strcmp(e->name, t[j].name)) ||
				   (e->flag && e->flag == t[j].flag);
			if (same && e->set) {
				print_error("%s/%c given twice\n", e->name ? e->name : "", e->flag);
				fail();
			}
			twin |= same;
		}
		if (!e->set)
			assert_true(twin);
	}
}

/* --list-options is exactly the handler rows (but itself), and --help
 * shows each of them. */
static void test_list_and_help(void **state)
{
	(void)state;
	size_t n, need = options_list(NULL, 0);
	char *list = malloc(need + 1), *help;
	assert_int_equal(options_list(list, need + 1), need);
	assert_int_equal(strlen(list), need);
	need = options_usage(NULL, 0);
	help = malloc(need + 1);
	assert_int_equal(options_usage(help, need + 1), need);
	assert_int_equal(strlen(help), need);
	/* a short buffer: cut, terminated, the same length wanted */
	char small[32];
	assert_int_equal(options_usage(small, sizeof(small)), need);
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, help, sizeof(small) - 1);

	const struct options_entry *t = options_table(&n);
	size_t lines = 0;
	for (const char *p = list; *p; p++)
		lines += *p == '\n';
	size_t want = 0;
	for (size_t i = 0; i < n; i++) {
		const struct options_entry *e = &t[i];
		char f[4];
		snprintf(f, sizeof(f), "-%c", e->flag);
		if (!e->set || e->what & OPTW_SECRET) {
			if (e->set) {
				assert_false(has_line(list, e->name));
				assert_null(strstr(help, e->name));
			}
			continue;
		}
		want += !!e->name + !!e->flag;
		if (e->name) {
			assert_true(has_line(list, e->name));
			assert_non_null(strstr(help, e->name));
		}
		if (e->flag) {
			assert_true(has_line(list, f));
			assert_non_null(strstr(help, f));
		}
	}
	assert_int_equal(lines, want);
	/* the layout --help always had: an entry, a continued line, a heading */
	assert_non_null(strstr(help, "\n  -i, --interval SEC     seconds between samples"));
	assert_non_null(strstr(help, "\n      --demo[=NAME]      the talk:"));
	assert_non_null(strstr(help, "\n                         (default: 40M cgroup"));
	assert_non_null(strstr(help, "\n  -z                     gzip --record"));
	assert_non_null(strstr(help, "\n\nRecord and replay:\n      --record FILE"));
	assert_non_null(strstr(help, "\n\n  -h, --help             this text\n"));
	free(list);
	free(help);

	struct options o;
	char err[256];
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--list-options", NULL), 0);
	assert_int_equal(o.action, OPTA_LIST_OPTIONS);
}

/* An export names the option it refuses as it was given, -m or --mem-limit;
 * the checks after the loop are the old ones. */
static void test_messages(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(
	    tu_parse(&o, err, sizeof(err), "--export-svg", "o.svg", "r.jsonl", "-m", "64M", NULL),
	    -1);
	assert_string_equal(err, "--export-svg: -m does not go with it");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--export-csv", "o.csv", "r.jsonl",
				  "--mem-limit", "64M", NULL),
			 -1);
	assert_string_equal(err, "--export-csv: --mem-limit does not go with it");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--replay", "r.jsonl", "-m", "64M", NULL),
			 -1);
	assert_string_equal(err, "--mem-limit: not with --replay (the recording holds the run)");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--from", "10", NULL), -1);
	assert_string_equal(err, "--from: only with --export-svg");
	assert_int_equal(
	    tu_parse(&o, err, sizeof(err), "--compare", "a", "--export-svg", "b", NULL), -1);
	assert_string_equal(err, "--export-svg: not with --compare (one at a time)");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "-i", NULL), -1);
	assert_string_equal(err, "-i: needs an argument (see --help)");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--frobnicate", NULL), -1);
	assert_string_equal(err, "--frobnicate: unknown option (see --help)");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "-Q", NULL), -1);
	assert_string_equal(err, "-Q: unknown option (see --help)");
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--size", "800x600", NULL), -1);
	assert_string_equal(err, "--size 800x600: a picture's size, only with --export-svg (a "
				 "run's --size is a file size, e.g. 512M)");
	/* the first run option, and of those the first the picker ignores */
	assert_int_equal(
	    tu_parse(&o, err, sizeof(err), "--src", "/etc/hostname", "--baseline", "x", NULL), 0);
	assert_string_equal(o.run_opt, "--src");
	assert_string_equal(o.run_opt_nopick, "--baseline");
	assert_string_equal(o.live_opt, "--src");
}

/* A value for each option that takes one, good for its handler.  An
 * option added without one here fails test_once: it must say whether it
 * is given once or adds (OPTW_MULTI). */
static const char *const sample[][2] = {
    {"--interval", "1"},
    {"--count", "3"},
    {"--device", "vda"},
    {"--history", "60"},
    {"--strategies", "rw_cp"},
    {"--src", "/etc/hostname"},
    {"--size", "1M"},
    {"--dir", "/tmp"},
    {"--mem-limit", "64M"},
    {"--disk-limit", "30M"},
    {"--probe", "cold"},
    {"--repeat", "2"},
    {"--baseline", "rw_cp"},
    {"--bs", "4K"},
    {"--sweep", "bs=4K,8K"},
    {"--sweep-until", "bursts>=1"},
    {"--cmd", "true"},
    {"--name", "t"},
    {"--stall-timeout", "5"},
    {"--csv", "x.csv"},
    {"--metrics-file", "m.prom"},
    {"--host-label", "h"},
    {"--results", "r.csv"},
    {"--export-json", "r.json"},
    {"--export-markdown", "r.md"},
    {"--theme", "light"},
    {"--glyphs", "ascii"},
    {"--record", "r.jsonl"},
    {"--replay", "r.jsonl"},
    {"--replay-at", "1"},
    {"--follow", "r.jsonl"},
    {"--speed", "2"},
    {"--talk", "t.talk"},
    {"--export-svg", "o.svg"},
    {"--export-csv", "o.csv"},
    {"--export-openmetrics", "o.prom"},
    {"--compare", "a.jsonl"},
    {"--view", "runs"},
    {"--from", "1"},
    {"--to", "2"},
    {"--run", "1"},
};

static const char *sample_of(const struct options_entry *e)
{
	for (size_t i = 0; i < sizeof(sample) / sizeof(sample[0]); i++)
		if (e->name && !strcmp(sample[i][0], e->name))
			return sample[i][1];
	return NULL;
}

/* One rule for every option (issue 26, 9): given twice, it is refused
 * with "OPT given twice", named as given the second time -- unless its
 * row says it adds one more (--cmd, --name), and those take both.  The
 * first value was taken silently over, or the last, before: --results
 * twice wrote the second file. */
static void test_once(void **state)
{
	(void)state;
	size_t n, multi = 0;
	const struct options_entry *t = options_table(&n);
	struct options o;
	char err[256], want[64], f[4];
	for (size_t i = 0; i < n; i++) {
		const struct options_entry *e = &t[i];
		if (!e->set)
			continue;
		const char *v = e->has_arg == required_argument ? sample_of(e) : NULL;
		if (e->has_arg == required_argument && !v)
			fail_msg("%s: no sample value in test_options_table.c", e->name);
		snprintf(f, sizeof(f), "-%c", e->flag);
		/* long, short, and the short one then the long one */
		const char *forms[3][2] = {{e->name, e->name}, {f, f}, {f, e->name}};
		for (int k = 0; k < 3; k++) {
			const char *a = forms[k][0], *b = forms[k][1];
			if ((!e->name && (k != 1)) || (!e->flag && k))
				continue;
			int rc = v ? tu_parse(&o, err, sizeof(err), a, v, b, v, NULL)
				   : tu_parse(&o, err, sizeof(err), a, b, NULL);
			if (e->what & OPTW_MULTI) {
				if (rc != 0)
					fail_msg("%s twice: refused (\"%s\")", a, err);
				continue;
			}
			snprintf(want, sizeof(want), "%s given twice", b);
			if (rc != -1 || strcmp(err, want))
				fail_msg("%s %s %s: %d \"%s\", want \"%s\"", a, b, v ? v : "", rc,
					 err, want);
		}
		multi += !!(e->what & OPTW_MULTI);
	}
	assert_int_equal(multi, 2); /* --cmd and --name, and no more unseen */
	/* --cmd and --name add: two commands, two labels */
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--cmd", "true", "--name", "a", "--cmd",
				  "false", "--name", "b", NULL),
			 0);
	assert_int_equal(o.ncmds, 2);
	assert_int_equal(o.nnames, 2);
	/* the --demo preset fills what was not given: not "given twice" */
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--demo", "--mem-limit", "32M", NULL), 0);
	assert_int_equal(o.mem_limit, 32ull << 20);
}

/* --sweep PARAM refuses the option PARAM names beside it, for every
 * parameter by one rule: each parameter's name is an option of the table
 * that takes a value.  --sweep bs=4K,8K --bs 64K ran at 4K and 8K before,
 * saying nothing (issue 26, 8). */
static void test_sweep_rule(void **state)
{
	(void)state;
	static const char *const cases[][3] = {
	    {"mem-limit=8M,16M", "--mem-limit", "8M"},
	    {"mem-limit=8M,16M", "-m", "8M"},
	    {"disk-limit=2M,4M", "--disk-limit", "2M"},
	    {"bs=4K,8K", "--bs", "64K"},
	    {"size=1M,2M", "--size", "1M"},
	};
	size_t n;
	const struct options_entry *t = options_table(&n);
	struct options o;
	char err[256], want[128], opt[32];
	for (int p = SWEEP_NONE + 1; p < SWEEP_NPARAM; p++) {
		const char *name = sweep_param_name((enum sweep_param)p);
		snprintf(opt, sizeof(opt), "--%s", name);
		int row = 0, tested = 0;
		for (size_t i = 0; i < n; i++)
			row |= t[i].set && t[i].name && !strcmp(t[i].name, opt) &&
			       t[i].has_arg == required_argument;
		if (!row)
			fail_msg("--sweep %s: no option %s in the table", name, opt);
		for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
			if (strncmp(cases[c][0], name, strlen(name)) ||
			    cases[c][0][strlen(name)] != '=')
				continue;
			snprintf(want, sizeof(want),
				 "--sweep %s: not with %s too (the sweep sets it)", name, opt);
			/* either order */
			assert_int_equal(tu_parse(&o, err, sizeof(err), "--sweep", cases[c][0],
						  cases[c][1], cases[c][2], NULL),
					 -1);
			assert_string_equal(err, want);
			assert_int_equal(tu_parse(&o, err, sizeof(err), cases[c][1], cases[c][2],
						  "--sweep", cases[c][0], NULL),
					 -1);
			assert_string_equal(err, want);
			/* the sweep alone is taken */
			assert_int_equal(
			    tu_parse(&o, err, sizeof(err), "--sweep", cases[c][0], NULL), 0);
			assert_int_equal(o.sweep.param, p);
			tested++;
		}
		if (!tested)
			fail_msg("--sweep %s: no case here", name);
	}
	/* an option the sweep does not set is taken beside it */
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--sweep", "bs=4K,8K", "-m", "64M", NULL),
			 0);
	assert_int_equal(o.mem_limit, 64ull << 20);
}

/* What a session is handed is what the command line said. */
static void test_run_config(void **state)
{
	(void)state;
	struct options o;
	struct run_config c;
	char err[256];
	assert_int_equal(tu_parse(&o, err, sizeof(err), "--cmd", "cp {src} {dst}", "-s", "rw_cp",
				  "--cmd", "dd", "--name", "copy", "-d", "/dev/sda", "--dir",
				  "/tmp", "--src", "/etc/hostname", "-m", "64M", "--disk-limit",
				  "30M/s", "--repeat", "3", "--baseline", "rw_cp", "--bs", "1M",
				  "--no-drop-caches", "--no-verify", "--prealloc",
				  "--stall-timeout", "0", NULL),
			 0);
	assert_ptr_equal(options_run_config(&o, &c), &c);
	assert_string_equal(c.device, "sda");
	assert_string_equal(c.dir, "/tmp");
	assert_string_equal(c.src, "/etc/hostname");
	assert_string_equal(c.strategies, "rw_cp");
	assert_int_equal(c.ncmds, 2);
	assert_int_equal(c.cmds_before_s, 1);
	assert_string_equal(c.cmds[0], "cp {src} {dst}");
	assert_string_equal(c.cmds[1], "dd");
	assert_int_equal(c.nnames, 1);
	assert_string_equal(c.names[0], "copy");
	assert_int_equal(c.mem_limit, 64ull << 20);
	assert_int_equal(c.disk_limit, 30ull << 20);
	assert_int_equal(c.repeat, 3);
	assert_string_equal(c.baseline, "rw_cp");
	assert_int_equal(c.bs, 1u << 20);
	assert_int_equal(c.no_drop_caches, 1);
	assert_int_equal(c.no_verify, 1);
	assert_int_equal(c.prealloc, 1);
	assert_int_equal(c.stall_timeout_s, 0);
	assert_int_equal(c.size, 0);
	/* the scratch input: --size, else 32 x the limit, else 1G */
	assert_int_equal(run_config_default_size(&c), 32 * (64ull << 20));
	c.mem_limit = 0;
	assert_int_equal(run_config_default_size(&c), 1ull << 30);
	c.size = 5 << 20;
	assert_int_equal(run_config_default_size(&c), 5 << 20);
	/* with --src only one copy is made */
	assert_int_equal(run_config_need_bytes(&c, 100 << 20), (100ull << 20) + (64ull << 20));
	c.src = NULL;
	assert_int_equal(run_config_need_bytes(&c, 100 << 20), (200ull << 20) + (64ull << 20));

	/* the defaults options_init gives */
	assert_int_equal(tu_parse(&o, err, sizeof(err), NULL), 0);
	options_run_config(&o, &c);
	assert_string_equal(c.dir, "/var/tmp");
	assert_int_equal(c.repeat, 1);
	assert_int_equal(c.bs, 8192);
	assert_int_equal(c.stall_timeout_s, 30);
	assert_null(c.src);
	assert_null(c.strategies);
	assert_int_equal(c.ncmds, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_rows),
	    cmocka_unit_test(test_list_and_help),
	    cmocka_unit_test(test_messages),
	    cmocka_unit_test(test_run_config),
	    cmocka_unit_test(test_once),
	    cmocka_unit_test(test_sweep_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
