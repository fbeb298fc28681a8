/*
 * Tests for theme and palette: the theme file parser (fallback of missing
 * keys, errors with line numbers, versions), the search path, the nearest
 * xterm colour, and the readability of every shipped theme.
 *
 * Readability (docs/design.md §7), computed from each shipped theme file:
 *   - text roles: WCAG 2 contrast ratio >= 4.5:1 against the background;
 *   - every chart series >= 3:1 against the background;
 *   - series drawn in one chart (palette_charts) differ by CIE76
 *     Delta-E*ab >= 15 (CIELAB,
 *     D65): well above the ~2.3 "just noticeable" difference, so two
 *     neighbouring bands or lines read as different at a glance, and low
 *     enough for the grey-only mono theme; or are the very same colour,
 *     told apart by palette_resolve's pattern;
 *   - at 8, 16 and 256 colours and in 24-bit colour, no two series of one
 *     chart look alike (palette_resolve: colour and pattern), for every
 *     theme in themes/.
 * A theme on the terminal's own background ("default") is measured on
 * black, the background such themes are made for; a role in the terminal's
 * own foreground is then the terminal's own pair and is not measured (on a
 * painted background it must be set: the terminal's colour is unknown).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "screen/chart.h"
#include "screen/palette.h"
#include "screen/theme.h"
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIN_TEXT 4.5
#define MIN_SERIES 3.0
#define MIN_DELTA_E 15.0

static const enum role text_roles[] = {
    ROLE_DEFAULT, ROLE_HEADER, ROLE_TITLE, ROLE_AXIS,	ROLE_DIM,
    ROLE_KEY,	  ROLE_WARN,   ROLE_SELECT, ROLE_MARKER,
};
static const enum role series_roles[] = {
    ROLE_READ, ROLE_WRITE, ROLE_ACTIVE,	 ROLE_INACTIVE, ROLE_ANON, ROLE_FREE,
    ROLE_DEACT, ROLE_ACT,  ROLE_SCAN,	 ROLE_REFAULT,	ROLE_PSI,  ROLE_BURST,
    ROLE_GEN0,	ROLE_GEN1, ROLE_GEN2,	 ROLE_GEN3,  ROLE_DISK_READ, ROLE_DISK_WRITE,
};

/* The MGLRU memory chart stacks its bands in this order: each band must
 * differ from the next by Delta-E, never only by a pattern (neighbours
 * are what the eye compares; palette_charts' "memory (MGLRU)" keeps all
 * six apart, in mono's four greys with patterns). */
static const int stacked[] = {ROLE_GEN0, ROLE_GEN1, ROLE_GEN2, ROLE_GEN3, ROLE_ANON, -1};
/* Violations of the readability rules by t, each one described into log
 * (may be NULL). */
static int theme_violations(const struct theme *t, FILE *log)
{
	uint32_t bg = t->term_bg ? 0x000000 : t->bg;
	int bad = 0;
	for (size_t i = 0; i < sizeof(text_roles) / sizeof(text_roles[0]); i++) {
		enum role r = text_roles[i];
		if (t->term_fg[r]) {
			if (!t->term_bg) {
				bad++;
				if (log)
					fprintf(log, "%s: %s: the terminal's colour on a painted "
						     "background\n", t->name, palette_style(r)->key);
			}
			continue;
		}
		double c = palette_contrast(t->rgb[r], bg);
		if (c < MIN_TEXT) {
			bad++;
			if (log)
				fprintf(log, "%s: text %s #%06x: contrast %.2f < %.1f\n", t->name,
					palette_style(r)->key, (unsigned)t->rgb[r], c, MIN_TEXT);
		}
	}
	for (size_t i = 0; i < sizeof(series_roles) / sizeof(series_roles[0]); i++) {
		enum role r = series_roles[i];
		double c = t->term_fg[r] ? 0 : palette_contrast(t->rgb[r], bg);
		if (c < MIN_SERIES) {
			bad++;
			if (log)
				fprintf(log, "%s: series %s #%06x: contrast %.2f < %.1f\n", t->name,
					palette_style(r)->key, (unsigned)t->rgb[r], c, MIN_SERIES);
		}
	}
	/* the series of one chart (palette_charts), by CIE76 Delta-E; the very
	 * same colour is palette_resolve's to tell apart by a pattern (a user's
	 * theme of few colours), test_colours_apart checks that */
	int nc;
	const struct palette_chart *charts = palette_charts(&nc);
	for (int k = 0; k < nc; k++)
		for (int i = 0; i < charts[k].n; i++)
			for (int j = i + 1; j < charts[k].n; j++) {
				enum role a = charts[k].series[i], b = charts[k].series[j];
				double d = palette_delta_e(t->rgb[a], t->rgb[b]);
				if (d < MIN_DELTA_E && t->rgb[a] != t->rgb[b]) {
					bad++;
					if (log)
						fprintf(log, "%s: %s: %s vs %s: Delta-E %.1f < %.0f\n",
							t->name, charts[k].name, palette_style(a)->key,
							palette_style(b)->key, d, MIN_DELTA_E);
				}
			}
	for (int i = 0; stacked[i + 1] >= 0; i++) {
		int a = stacked[i], b = stacked[i + 1];
		double d = palette_delta_e(t->rgb[a], t->rgb[b]);
		if (d < MIN_DELTA_E) {
			bad++;
			if (log)
				fprintf(log, "%s: %s vs %s: Delta-E %.1f < %.0f\n", t->name,
					palette_style(a)->key, palette_style(b)->key, d, MIN_DELTA_E);
		}
	}
	return bad;
}

static const char *const shipped[] = {"default", "light", "projector", "mono", "okabe-ito"};

static void test_shipped_themes_readable(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++) {
		char path[4096], err[512];
		struct theme t;
		snprintf(path, sizeof(path), "%s/themes/%s.theme", LRUTOP_SRCDIR, shipped[i]);
		int rc = theme_load_file(&t, path, err, sizeof(err));
		if (rc < 0)
			fprintf(stderr, "%s\n", err);
		assert_int_equal(rc, 0);
		assert_string_equal(t.name, shipped[i]);
		assert_true(t.description[0] != '\0');
		int bad = theme_violations(&t, stderr);
		assert_int_equal(bad, 0);
	}
}

/* The check itself can fail: a theme with each kind of flaw is caught. */
static void test_violations_are_caught(void **state)
{
	(void)state;
	struct theme t;
	char err[256];
	theme_default(&t);
	assert_int_equal(theme_violations(&t, NULL), 0);
	assert_int_equal(theme_parse(&t, "theme[marker]=\"#202020\"\n", "x", err, sizeof(err)), 0);
	assert_int_equal(theme_violations(&t, NULL), 1); /* text on black */
	theme_default(&t);
	assert_int_equal(theme_parse(&t, "theme[background]=\"#ffffff\"\n", "x", err, sizeof(err)), 0);
	/* yellow key and scan, white marker on white; default/title unset */
	assert_true(theme_violations(&t, NULL) >= 4);
	theme_default(&t);
	assert_int_equal(theme_parse(&t, "theme[write]=\"#3aa2ff\"\n", "x", err, sizeof(err)), 0);
	/* read and write alike: in the disk chart, the residency strip, the Runs view */
	assert_int_equal(theme_violations(&t, NULL), 3);
}

/* Series of one chart that look alike at depth d (colour and pattern) in
 * the look palette_resolve gives t on its background; described into log. */
static int looks_alike(const struct theme *t, enum palette_depth d, FILE *log)
{
	int on = palette_index(d, t->term_bg ? 0x000000 : t->bg);
	struct palette_look l;
	int bad = palette_resolve(d, t->rgb, t->term_fg, on, &l);
	int nc;
	const struct palette_chart *charts = palette_charts(&nc);
	for (int k = 0; k < nc; k++)
		for (int i = 0; i < charts[k].n; i++)
			for (int j = i + 1; j < charts[k].n; j++) {
				enum role a = charts[k].series[i], b = charts[k].series[j];
				if (l.fg[a] == l.fg[b] && l.pattern[a] == l.pattern[b]) {
					bad++;
					if (log)
						fprintf(log, "%s depth %d: %s: %s and %s both colour %d%s\n",
							t->name, (int)d, charts[k].name,
							palette_style(a)->key, palette_style(b)->key,
							l.fg[a], l.pattern[a] ? " patterned" : "");
				}
			}
	/* a new colour keeps its contrast on the background */
	for (int r = 0; r < ROLE_COUNT; r++)
		if (d != PALETTE_DIRECT && l.fg[r] >= 0 &&
		    l.fg[r] != palette_index_on(d, t->rgb[r], on) &&
		    palette_contrast(palette_xterm_rgb(l.fg[r]), palette_xterm_rgb(on)) <
			PALETTE_MIN_CONTRAST) {
			bad++;
			if (log)
				fprintf(log, "%s depth %d: %s moved to colour %d, unreadable\n",
					t->name, (int)d, palette_style((enum role)r)->key, l.fg[r]);
		}
	return bad;
}

static const enum palette_depth depths[] = {PALETTE_8, PALETTE_16, PALETTE_256,
					     PALETTE_DIRECT};

/* Every theme file in themes/ (not only the shipped list: a theme added
 * there is checked too), at every depth. */
static void test_colours_apart(void **state)
{
	(void)state;
	char dir[4096];
	snprintf(dir, sizeof(dir), "%s/themes", LRUTOP_SRCDIR);
	DIR *d = opendir(dir);
	assert_non_null(d);
	struct dirent *de;
	int themes = 0;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);
		if (n <= 6 || strcmp(de->d_name + n - 6, ".theme"))
			continue;
		char path[8192], err[512];
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		struct theme t;
		assert_int_equal(theme_load_file(&t, path, err, sizeof(err)), 0);
		for (size_t i = 0; i < sizeof(depths) / sizeof(depths[0]); i++)
			assert_int_equal(looks_alike(&t, depths[i], stderr), 0);
		themes++;
	}
	closedir(d);
	assert_true(themes >= 5);
}

/* The clashes the nearest colour alone made at 8 and 16 colours (xterm's
 * TERM=xterm, the Linux console, tmux's screen) are real, and resolved:
 * inactive(file) and headroom, activate and refault, dst cached and
 * writeback were one colour each. */
static void test_nearest_alone_clashes(void **state)
{
	(void)state;
	struct theme t;
	theme_default(&t);
	int on = palette_index(PALETTE_8, 0x000000);
	assert_int_equal(palette_index_on(PALETTE_8, t.rgb[ROLE_INACTIVE], on),
			 palette_index_on(PALETTE_8, t.rgb[ROLE_FREE], on));
	assert_int_equal(palette_index_on(PALETTE_8, t.rgb[ROLE_WRITE], on),
			 palette_index_on(PALETTE_8, t.rgb[ROLE_SCAN], on));
	struct palette_look l;
	assert_int_equal(palette_resolve(PALETTE_8, t.rgb, t.term_fg, on, &l), 0);
	assert_int_not_equal(l.fg[ROLE_INACTIVE], l.fg[ROLE_FREE]);
	assert_int_not_equal(l.fg[ROLE_WRITE], l.fg[ROLE_SCAN]);
	assert_int_not_equal(l.fg[ROLE_ACT], l.fg[ROLE_REFAULT]);
	/* the first series of a chart keeps its nearest colour */
	assert_int_equal(l.fg[ROLE_READ], palette_index_on(PALETTE_8, t.rgb[ROLE_READ], on));
	/* 8 colours on white leave four readable: patterns, never a clash */
	assert_int_equal(theme_parse(&t, "theme[background]=\"#ffffff\"\n", "x", NULL, 0), 0);
	on = palette_index(PALETTE_8, 0xffffff);
	assert_int_equal(palette_resolve(PALETTE_8, t.rgb, t.term_fg, on, &l), 0);
	int patterned = 0;
	for (int r = 0; r < ROLE_COUNT; r++)
		patterned += l.pattern[r];
	assert_true(patterned > 0);
	assert_int_equal(looks_alike(&t, PALETTE_8, stderr), 0);
	/* too few colours for the pattern to rescue: the count says so */
	theme_default(&t);
	for (int r = 0; r < ROLE_COUNT; r++)
		t.term_fg[r] = 1;
	assert_true(palette_resolve(PALETTE_8, t.rgb, t.term_fg, -1, &l) > 0);
	assert_true(looks_alike(&t, PALETTE_8, NULL) > 0);
	/* NO_COLOR: no colour at all, nothing patterned */
	theme_default(&t);
	assert_int_equal(palette_resolve(PALETTE_MONO, t.rgb, t.term_fg, -1, &l), 0);
	for (int r = 0; r < ROLE_COUNT; r++) {
		assert_int_equal(l.fg[r], -1);
		assert_int_equal(l.pattern[r], 0);
	}
}

/* themes/default.theme is the built-in default, key for key. */
static void test_default_file_is_builtin(void **state)
{
	(void)state;
	char path[4096], err[512];
	struct theme f, b;
	snprintf(path, sizeof(path), "%s/themes/default.theme", LRUTOP_SRCDIR);
	assert_int_equal(theme_load_file(&f, path, err, sizeof(err)), 0);
	theme_default(&b);
	for (int r = 0; r < ROLE_COUNT; r++) {
		assert_int_equal(f.term_fg[r], b.term_fg[r]);
		if (!b.term_fg[r])
			assert_int_equal(f.rgb[r], b.rgb[r]);
	}
	assert_int_equal(f.term_bg, b.term_bg);
	assert_int_equal(f.glyphs, -1);
	/* every key is in the file: a role added to palette.c must be added there */
	FILE *fp = fopen(path, "r");
	assert_non_null(fp);
	char text[8192];
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	for (int r = 0; r < ROLE_COUNT; r++) {
		char key[64];
		snprintf(key, sizeof(key), "theme[%s]=", palette_style((enum role)r)->key);
		if (!strstr(text, key))
			fprintf(stderr, "default.theme lacks %s\n", key);
		assert_non_null(strstr(text, key));
	}
}

static void test_missing_keys_fall_back(void **state)
{
	(void)state;
	struct theme t, d;
	char err[256];
	theme_default(&t);
	theme_default(&d);
	const char *text = "# description: only two keys\n\n  theme[read] = \"#010203\"  \n"
			   "theme[title]=#ABCDEF\n";
	assert_int_equal(theme_parse(&t, text, "t.theme", err, sizeof(err)), 0);
	assert_int_equal(t.rgb[ROLE_READ], 0x010203);
	assert_int_equal(t.rgb[ROLE_TITLE], 0xabcdef);
	assert_int_equal(t.term_fg[ROLE_TITLE], 0);
	assert_string_equal(t.description, "only two keys");
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (r == ROLE_READ || r == ROLE_TITLE)
			continue;
		assert_int_equal(t.rgb[r], d.rgb[r]);
		assert_int_equal(t.term_fg[r], d.term_fg[r]);
	}
	assert_int_equal(t.term_bg, 1);
	assert_int_equal(theme_parse(&t, "theme[read]=\"default\"\ntheme[background]=\"#102030\"\n"
					 "theme[glyphs]=\"blocks\"\n", "t", err, sizeof(err)), 0);
	assert_int_equal(t.term_fg[ROLE_READ], 1);
	assert_int_equal(t.term_bg, 0);
	assert_int_equal(t.bg, 0x102030);
	assert_int_equal(t.glyphs, CHART_BLOCK);
}

/* A bad line: the error names file and line, and *t is untouched. */
static void expect_error(const char *text, const char *want)
{
	struct theme t, before;
	char err[256] = "";
	theme_default(&t);
	before = t;
	assert_int_equal(theme_parse(&t, text, "themes/x.theme", err, sizeof(err)), -1);
	if (!strstr(err, want))
		fprintf(stderr, "got '%s', want '%s'\n", err, want);
	assert_non_null(strstr(err, want));
	assert_memory_equal(&t, &before, sizeof(t));
}

static void test_errors_name_the_line(void **state)
{
	(void)state;
	expect_error("# c\n\ntheme[read]=\"#000001\"\n\n\n\n\n\n\n\n\ntheme[foo]=\"#ffffff\"\n",
		     "themes/x.theme:12: unknown key 'foo'");
	expect_error("theme[read]=\"#12345\"\n", "themes/x.theme:1: theme[read]: bad colour '#12345'");
	expect_error("\ntheme[read]=\"#12345g\"\n", "themes/x.theme:2: theme[read]: bad colour");
	expect_error("theme[read]=\"red\"\n", "x.theme:1: theme[read]: bad colour 'red'");
	expect_error("theme[read]=\"#123456\n", "x.theme:1: theme[read]: unterminated quote");
	expect_error("read=#123456\n", "x.theme:1: not a theme[key]=\"value\" line");
	expect_error("theme[read \"#123456\"\n", "x.theme:1: no ']'");
	expect_error("theme[read] \"#123456\"\n", "x.theme:1: no '='");
	expect_error("theme[glyphs]=\"dots\"\n", "x.theme:1: glyphs 'dots'");
	expect_error("theme[version]=\"2\"\n", "x.theme:1: version 2: this lrutop reads theme version 1");
	expect_error("theme[version]=\"one\"\n", "x.theme:1: version 'one'");
}

/* issue 15 #10: 'theme[read]="#123456"  # warm' was "unterminated quote". */
static void test_trailing_comment(void **state)
{
	(void)state;
	struct theme t;
	char err[256] = "";
	theme_default(&t);
	assert_int_equal(theme_parse(&t,
				     "theme[read]=\"#123456\"  # warm\n"
				     "theme[write]=#654321 # unquoted\n",
				     "x", err, sizeof(err)),
			 0);
	assert_int_equal(t.rgb[ROLE_READ], 0x123456);
	assert_int_equal(t.rgb[ROLE_WRITE], 0x654321);
	expect_error("theme[read]=\"#123456\" junk\n",
		     "x.theme:1: theme[read]: 'junk' after the closing quote");
	expect_error("theme[read]=\"#123456 # no close\n",
		     "x.theme:1: theme[read]: unterminated quote");
}

static void test_versions(void **state)
{
	(void)state;
	struct theme t;
	char err[256];
	theme_default(&t);
	assert_int_equal(theme_parse(&t, "theme[version]=\"1\"\n", "x", err, sizeof(err)), 0);
	/* a newer minor of 1 is read */
	assert_int_equal(theme_parse(&t, "theme[version]=\"1.7\"\n", "x", err, sizeof(err)), 0);
	assert_int_equal(theme_parse(&t, "theme[version]=\"1.\"\n", "x", err, sizeof(err)), -1);
}

static void test_nearest_xterm(void **state)
{
	(void)state;
	assert_int_equal(palette_rgb_to_256(0x5f87af), 67);
	assert_int_equal(palette_rgb_to_256(0xff0000), 196);
	assert_int_equal(palette_rgb_to_256(0x000000), 16);
	assert_int_equal(palette_rgb_to_256(0xffffff), 231);
	/* the grey ramp 8, 18, ..., 238 */
	assert_int_equal(palette_rgb_to_256(0x080808), 232);
	assert_int_equal(palette_rgb_to_256(0x808080), 244);
	assert_int_equal(palette_rgb_to_256(0x7f7f7f), 244);
	assert_int_equal(palette_rgb_to_256(0xeeeeee), 255);
	assert_int_equal(palette_rgb_to_256(0x8a8a8a), 245);
	/* btop's round(c/51) takes 0x5f (95) to level 2 (102): xterm's 95 is level 1 */
	assert_int_equal(palette_rgb_to_256(0x5f5f5f), 59);
	/* nearest, not per-channel rounding: #3aa0ff is 33 (#0087ff)? 75 (#5fafff) */
	int c = palette_rgb_to_256(0x3aa0ff);
	uint32_t got = palette_xterm_rgb(c);
	for (int i = 16; i < 256; i++) {
		uint32_t x = palette_xterm_rgb(i);
		long d1 = 0, d2 = 0;
		for (int s = 0; s < 24; s += 8) {
			long a = (long)(0x3aa0ff >> s & 0xff);
			d1 += (a - (long)(got >> s & 0xff)) * (a - (long)(got >> s & 0xff));
			d2 += (a - (long)(x >> s & 0xff)) * (a - (long)(x >> s & 0xff));
		}
		assert_true(d1 <= d2);
	}
	assert_int_equal(palette_xterm_rgb(67), 0x5f87af);
	assert_int_equal(palette_xterm_rgb(232), 0x080808);
	/* 16 and 8 colours */
	assert_int_equal(palette_rgb_to_16(0xff0000), 9);
	assert_int_equal(palette_rgb_to_8(0xff0000), 1);
	assert_int_equal(palette_rgb_to_8(0xffffff), 7);
	assert_int_equal(palette_rgb_to_16(0xffffff), 15);
	assert_int_equal(palette_rgb_to_8(0x0060c0), 4);
	assert_int_equal(palette_index(PALETTE_MONO, 0xff0000), -1);
	/* at 8 colours on white (xterm's 7, #e5e5e5) light's dark teal is cyan
	 * (1.6:1): the nearest colour that can be read there is blue */
	assert_int_equal(palette_rgb_to_8(0x005f87), 6);
	assert_int_equal(palette_index_on(PALETTE_8, 0x005f87, 7), 4);
	/* readable already: the nearest */
	assert_int_equal(palette_index_on(PALETTE_16, 0xff0000, 0), 9);
	/* 256 colours and an unknown background: the plain nearest */
	assert_int_equal(palette_index_on(PALETTE_256, 0xffffff, 231), 231);
	assert_int_equal(palette_index_on(PALETTE_8, 0x005f87, -1), 6);
	assert_int_equal(palette_index(PALETTE_256, 0x5f87af), 67);
}

static void test_contrast_values(void **state)
{
	(void)state;
	assert_true(palette_contrast(0x000000, 0xffffff) > 20.99);
	assert_true(palette_contrast(0xffffff, 0x000000) < 21.01);
	/* #767676 on white is the well-known 4.54:1 */
	double c = palette_contrast(0x767676, 0xffffff);
	assert_true(c > 4.5 && c < 4.6);
	assert_true(palette_delta_e(0x123456, 0x123456) < 1e-9);
	assert_true(palette_delta_e(0x000000, 0xffffff) > 99.9);
}

static char tmp[64];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* $XDG_CONFIG_HOME/lrutop/themes first, then the source tree; a '/' means
 * a path; --list-themes' order and each name once. */
static void test_search_path(void **state)
{
	(void)state;
	char dir[256], path[4096], err[512];
	assert_int_equal(tu_tmpdir(tmp, sizeof(tmp), "theme"), 0);
	snprintf(dir, sizeof(dir), "%s/lrutop", tmp);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/lrutop/themes", tmp);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/light.theme", dir);
	write_file(path, "# description: mine\ntheme[read]=\"#111111\"\n");
	snprintf(path, sizeof(path), "%s/zz-mine.theme", dir);
	write_file(path, "theme[bogus]=\"#111111\"\n");
	setenv("XDG_CONFIG_HOME", tmp, 1);

	struct theme t;
	assert_int_equal(theme_load(&t, "light", err, sizeof(err)), 0);
	assert_int_equal(t.rgb[ROLE_READ], 0x111111); /* the user's shadows the shipped one */
	assert_string_equal(t.description, "mine");
	assert_int_equal(theme_load(&t, "projector", err, sizeof(err)), 0); /* source tree */
	assert_int_equal(t.glyphs, CHART_BLOCK);
	assert_int_equal(theme_load(&t, "zz-mine", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "zz-mine.theme:1: unknown key 'bogus'"));
	assert_int_equal(theme_load(&t, "nosuch", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "-t nosuch: no theme"));
	snprintf(path, sizeof(path), "%s/light.theme", dir);
	assert_int_equal(theme_load(&t, path, err, sizeof(err)), 0); /* a path */
	assert_string_equal(t.name, "light");
	assert_int_equal(theme_load(&t, "./nosuch.theme", err, sizeof(err)), -1);
	assert_non_null(strstr(err, "./nosuch.theme: No such file"));

	struct theme_entry e[THEME_LIST_MAX];
	size_t n = theme_list(e, THEME_LIST_MAX);
	assert_true(n >= 6);
	int light = 0;
	for (size_t i = 0; i < n; i++) {
		if (i)
			assert_true(strcmp(e[i - 1].name, e[i].name) < 0);
		if (!strcmp(e[i].name, "light")) {
			light++;
			assert_string_equal(e[i].description, "mine");
		}
	}
	assert_int_equal(light, 1);
	char next[THEME_NAME_MAX];
	theme_next(e[n - 1].name, next, sizeof(next));
	assert_string_equal(next, e[0].name); /* wraps round */
	theme_next("light", next, sizeof(next));
	assert_string_equal(next, "mono");

	assert_int_equal(tu_rmtree(tmp), 0);
	unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shipped_themes_readable),
	    cmocka_unit_test(test_violations_are_caught),
	    cmocka_unit_test(test_colours_apart),
	    cmocka_unit_test(test_nearest_alone_clashes),
	    cmocka_unit_test(test_default_file_is_builtin),
	    cmocka_unit_test(test_missing_keys_fall_back),
	    cmocka_unit_test(test_errors_name_the_line),
	    cmocka_unit_test(test_trailing_comment),
	    cmocka_unit_test(test_versions),
	    cmocka_unit_test(test_nearest_xterm),
	    cmocka_unit_test(test_contrast_values),
	    cmocka_unit_test(test_search_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
