/*
 * Tests for the key tables (actions.c, talk.c's): every entry of every
 * mode's table is complete; the help overlay drawn for a mode (the real
 * views into a grid) lists every key handled in it once, with the help of
 * the handler that runs for it; no key means two things in two
 * tables unless the upper one says it overrides; the dispatch order of the
 * layers and the reactions the handlers report.  Real apps: a live one
 * with no runs, a replay of a real recording (examples/), a talk.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/actions.h"
#include "app/app.h"
#include "app/options.h"
#include "screen/grid.h"
#include "gridtest.h"
#include "screen/screen.h"
#include "talk/talk.h"
#include "talk/talk_script.h"
#include "base/util.h"
#include "screen/views.h"

#define REC LRUTOP_SRCDIR "/examples/copy-64M.jsonl.gz"

static struct options live_opt, replay_opt;

static void live_app(struct app *a)
{
	char err[700];
	options_init(&live_opt);
	assert_int_equal(app_init(a, &live_opt, NULL, err, sizeof(err)), 0);
}

static void replay_app(struct app *a)
{
	char err[700];
	options_init(&replay_opt);
	replay_opt.replay = REC;
	assert_int_equal(app_init(a, &replay_opt, NULL, err, sizeof(err)), 0);
	app_tick(a); /* the loop's first sample */
}

static int is_key(const struct action *e, int key)
{
	for (int k = 0; k < ACTION_KEYS && e->keys[k]; k++)
		if (e->keys[k] == key)
			return 1;
	return 0;
}

/* Every entry: a name, keys, how the help writes them, help, a handler;
 * a key once in its table; the same key in two tables is the same action
 * (its name) or the upper table's entry overrides. */
static void test_tables(void **state)
{
	(void)state;
	size_t n = keymap_count();
	assert_true(n >= 8);
	assert_null(keymap_at(n));
	int talk_seen = 0;
	for (size_t i = 0; i < n; i++) {
		const struct keymap *km = keymap_at(i);
		assert_non_null(km->name);
		assert_non_null(km->title);
		talk_seen |= km == &talk_keymap;
		assert_true(km->n > 0 || km->any); /* a table that does something */
		if (km->any)
			assert_true(km->modal);
		for (size_t j = 0; j < km->n; j++) {
			const struct action *e = &km->actions[j];
			assert_non_null(e->name);
			assert_true(e->name[0] != '\0');
			assert_non_null(e->keys_help);
			assert_true(e->keys_help[0] != '\0');
			assert_non_null(e->help);
			assert_true(e->help[0] != '\0');
			assert_non_null(e->run);
			assert_true(e->keys[0] != 0);
			for (int k = 0; k < ACTION_KEYS && e->keys[k]; k++) {
				for (size_t l = j + 1; l < km->n; l++) /* bound once here */
					assert_false(is_key(&km->actions[l], e->keys[k]));
				for (size_t lo = i + 1; lo < n; lo++) {
					const struct keymap *below = keymap_at(lo);
					for (size_t l = 0; l < below->n; l++) {
						const struct action *b = &below->actions[l];
						if (!is_key(b, e->keys[k]) ||
						    !strcmp(b->name, e->name))
							continue;
						if (!e->overrides)
							print_error(
							    "%s %s and %s %s share key %d\n",
							    km->name, e->name, below->name, b->name,
							    e->keys[k]);
						assert_true(e->overrides);
					}
				}
			}
		}
	}
	assert_true(talk_seen);
	/* t is the theme in every table it is bound in */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < keymap_at(i)->n; j++)
			if (is_key(&keymap_at(i)->actions[j], 't'))
				assert_string_equal(keymap_at(i)->actions[j].name, "theme");
	/* the global table through the old calls */
	assert_ptr_equal(action_for_key('q'), action_find("quit"));
	assert_ptr_equal(action_for_key('t'), action_find("theme"));
	assert_non_null(action_find("view"));
	assert_non_null(action_find("talk-blank"));
	assert_null(action_find("no-such-action"));
	assert_null(action_for_key('X'));
}

static const struct keymap *named(const char *name)
{
	for (size_t i = 0; i < keymap_count(); i++)
		if (!strcmp(keymap_at(i)->name, name))
			return keymap_at(i);
	fail_msg("no table %s", name);
	return NULL;
}

/* Rows of the grid that hold needle. */
static int count_rows(const struct grid *g, const char *needle)
{
	int n = 0;
	for (int y = 0; y < g->h; y++) {
		char *t = row_text(g, y);
		n += strstr(t, needle) != NULL;
		free(t);
	}
	return n;
}

/* The entry of the first of layers[0..n) that binds key (the dispatch
 * order, top first: its handler is the one that runs), NULL when none. */
static const struct action *runs_for(const struct keymap *const *layers, size_t n, int key)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < layers[i]->n; j++)
			if (is_key(&layers[i]->actions[j], key))
				return &layers[i]->actions[j];
	return NULL;
}

/* How the help must write the keys of e that run it: its keys_help when
 * all do (returns 1), else those keys by name (the test's own names). */
static int own_keys(const struct action *e, const struct keymap *const *layers, size_t n, char *buf,
		    size_t len)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {{' ', "space"},	  {SKEY_LEFT, "\xe2\x86\x90"}, {SKEY_RIGHT, "\xe2\x86\x92"},
		     {SKEY_HOME, "Home"}, {SKEY_END, "End"},	       {SKEY_UP, "Up"},
		     {SKEY_DOWN, "Down"}, {SKEY_PGUP, "PgUp"},	       {SKEY_PGDN, "PgDn"}};
	int all = 1;
	buf[0] = '\0';
	for (int k = 0; k < ACTION_KEYS && e->keys[k]; k++) {
		if (runs_for(layers, n, e->keys[k]) != e) {
			all = 0;
			continue;
		}
		char one[2] = {(char)e->keys[k], 0};
		const char *nm = one;
		for (size_t i = 0; i < ARRAY_LEN(names); i++)
			if (names[i].key == e->keys[k])
				nm = names[i].name;
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? " " : "", nm);
	}
	if (all)
		snprintf(buf, len, "%s", e->keys_help);
	return all;
}

/* The help overlay drawn for the app's current mode: h opens it; it lists
 * the help's own keys, and of the mode's tables (the layers a key goes
 * through with the help closed, down to the first modal one) each key
 * once, on the row of the entry whose handler runs for it, with the help
 * text of that entry; an entry none of whose keys runs it is not there.
 * The mode's own table is one of those listed. */
static void help_shows(struct app *a, const struct keymap *mode, const char *absent)
{
	const struct keymap *layers[KEYS_LAYERS_MAX];
	size_t n = keys_layers(a, layers, KEYS_LAYERS_MAX), nl = 0;
	while (nl < n && !layers[nl++]->modal) /* the mode's: those a key can reach */
		;
	assert_int_equal(keys_dispatch(a, 'h', 200), REDRAW_VIEW);
	assert_true(a->ui.help);
	int listed = 0;
	for (int i = 0; i < a->help_nmaps; i++)
		listed |= a->help_maps[i] == mode;
	assert_true(listed);
	struct views v;
	struct grid g;
	views_init(&v);
	grid_init(&g, 200, 100);
	views_draw(&v, &a->model, &a->ui, &g);
	assert_true(find_row(&g, "Help") >= 0);
	/* the help's own table: what q and any other key do while it is open */
	const struct keymap *own = named("help");
	assert_ptr_equal(a->help_maps[0], own);
	for (size_t j = 0; j < own->n; j++)
		assert_int_equal(count_rows(&g, own->actions[j].help), 1);
	assert_int_equal(count_rows(&g, own->any_help), 1);
	int shown = 0, hidden = 0, partial = 0;
	for (size_t i = 0; i < nl; i++) {
		const struct keymap *km = layers[i];
		assert_true(find_row(&g, km->title) >= 0);
		for (size_t j = 0; j < km->n; j++) {
			const struct action *e = &km->actions[j];
			int runs = 0; /* keys of e whose handler is e's */
			for (int k = 0; k < ACTION_KEYS && e->keys[k]; k++)
				runs += runs_for(layers, nl, e->keys[k]) == e;
			int rows = count_rows(&g, e->help);
			if (!runs) { /* every key of it is an upper table's */
				if (rows)
					print_error("%s: %s shown, its keys are others'\n",
						    km->name, e->name);
				assert_int_equal(rows, 0);
				hidden++;
				continue;
			}
			if (rows != 1)
				print_error("%s: %s on %d rows\n", km->name, e->name, rows);
			assert_int_equal(rows, 1);
			char want[64];
			int all = own_keys(e, layers, nl, want, sizeof(want));
			char *row = row_text(&g, find_row(&g, e->help));
			if (!strstr(row, want))
				print_error("%s: %s: '%s' not in '%s'\n", km->name, e->name, want,
					    row);
			assert_non_null(strstr(row, want));
			if (!all) /* not the keys an upper table takes */
				assert_null(strstr(row, e->keys_help));
			partial += !all;
			free(row);
			shown++;
		}
		if (km->any_help)
			assert_true(find_row(&g, km->any_help) >= 0);
	}
	assert_true(shown > 0);
	if (mode == named("replay") || mode == &talk_keymap) /* they take keys of the global's */
		assert_true(hidden > 0);
	if (mode == &talk_keymap) /* Home: the global Home End is End alone */
		assert_true(partial > 0);
	if (absent) /* a modal mode: the keys under it are not listed */
		assert_int_equal(find_row(&g, absent), -1);
	/* any other key closes it, and does only that */
	int view = a->ui.view;
	assert_int_equal(keys_dispatch(a, '2', 200), REDRAW_VIEW);
	assert_false(a->ui.help);
	assert_int_equal((int)a->ui.view, view);
	grid_done(&g);
	views_done(&v);
}

static void test_help_per_mode(void **state)
{
	(void)state;
	struct app a;
	live_app(&a);
	help_shows(&a, named("global"), NULL);
	/* the picker: its keys, not the monitor's under it */
	assert_int_equal(keys_dispatch(&a, 'r', 200), REDRAW_VIEW);
	assert_true(a.ui.picker.open);
	help_shows(&a, named("picker"), "pick strategies and start runs");
	assert_true(a.ui.picker.open);
	assert_int_equal(keys_dispatch(&a, 'q', 200), REDRAW_VIEW); /* the picker's q closes it */
	assert_false(a.ui.picker.open);
	assert_false(a.quit);
	app_done(&a);

	replay_app(&a);
	help_shows(&a, named("replay"), NULL);
	/* what the help says runs is what runs: space is the replay's pause
	 * (its playback), not the live display's */
	int was = a.model.replay.paused;
	assert_int_equal(keys_dispatch(&a, ' ', 200), REDRAW_VIEW);
	assert_int_not_equal(a.model.replay.paused, was);
	assert_false(a.ui.paused);
	assert_int_equal(keys_dispatch(&a, 'j', 200), REDRAW_STATUS);
	assert_true(a.ui.prompt);
	help_shows(&a, named("prompt"), "next colour theme");
	assert_int_equal(keys_dispatch(&a, '1', 200), REDRAW_STATUS); /* typed, not a view */
	assert_string_equal(a.ui.prompt_buf, "1");
	assert_int_equal(keys_dispatch(&a, SKEY_ESC, 200), REDRAW_STATUS);
	assert_false(a.ui.prompt);
	app_done(&a);

	live_app(&a);
	char err[600];
	struct talk_script *s =
	    talk_script_parse("caption hi\npause\n", LRUTOP_SRCDIR "/examples/k.talk", &live_opt, 0,
			      err, sizeof(err));
	assert_non_null(s);
	a.talk = talk_new(s, &a, 0);
	talk_update(a.talk, &a, 200);
	help_shows(&a, &talk_keymap, NULL);
	/* b blanks; the blank layer takes the next key, whatever it is */
	assert_int_equal(keys_dispatch(&a, 'b', 200), REDRAW_VIEW);
	assert_true(a.ui.blank);
	assert_int_equal(keys_dispatch(&a, 'h', 200), REDRAW_VIEW);
	assert_false(a.ui.blank);
	assert_false(a.ui.help);
	talk_end(a.talk, &a);
	app_done(&a);
	talk_free(a.talk);
}

/* t is the theme in a replay too; n N step; the reactions. */
static void test_dispatch(void **state)
{
	(void)state;
	struct app a;
	replay_app(&a);
	struct replay_pos p0, p1;
	source_replay_pos(a.src, &p0);
	char theme[THEME_NAME_MAX];
	strcpy(theme, a.ui.theme.name);
	unsigned gen = a.ui.theme_gen;
	assert_int_equal(keys_dispatch(&a, 't', 200), REDRAW_VIEW);
	assert_int_not_equal(a.ui.theme_gen, gen);
	assert_string_not_equal(a.ui.theme.name, theme);
	source_replay_pos(a.src, &p1);
	assert_int_equal(p1.pos, p0.pos); /* no step */
	assert_int_equal(keys_dispatch(&a, 'n', 200), REDRAW_VIEW);
	source_replay_pos(a.src, &p1);
	assert_int_equal(p1.pos, p0.pos + 1);
	assert_int_equal(keys_dispatch(&a, 'N', 200), REDRAW_VIEW);
	source_replay_pos(a.src, &p1);
	assert_int_equal(p1.pos, p0.pos);
	app_done(&a);

	live_app(&a);
	assert_int_equal(keys_dispatch(&a, 'X', 80), REDRAW_NONE); /* nobody's key */
	assert_int_equal(keys_dispatch(&a, '1', 80), REDRAW_NONE); /* already the Overview */
	assert_int_equal(keys_dispatch(&a, '2', 80), REDRAW_VIEW);
	assert_int_equal((int)a.ui.view, VIEW_IOSTAT);
	assert_int_equal(keys_dispatch(&a, 12, 80), REDRAW_ALL);     /* ^L */
	assert_int_equal(keys_dispatch(&a, 'n', 80), REDRAW_STATUS); /* a replay's key, live */
	assert_non_null(strstr(a.ui.status, "only in a replay"));
	assert_int_equal(keys_dispatch(&a, SKEY_RIGHT, 80), REDRAW_NONE); /* live, not paused */
	assert_int_equal(keys_dispatch(&a, 'q', 80), REACT_QUIT);
	assert_true(a.quit);
	app_done(&a);
}

/* The tables written out: --help's keys are plain ASCII, every table
 * with keys under its title and every entry's name (without its table's)
 * after its keys, no line past 79 columns, and --help holds them (not the
 * hand-written "t T step" it had: a replay steps with n N); docs/keys.md's
 * markdown has every table and a row of every entry. */
static void test_written(void **state)
{
	(void)state;
	size_t need = keys_usage(NULL, 0);
	char *u = malloc(need + 1), small[40];
	assert_int_equal(keys_usage(u, need + 1), need);
	assert_int_equal(strlen(u), need);
	assert_int_equal(keys_usage(small, sizeof(small)), need);
	assert_memory_equal(small, u, sizeof(small) - 1);
	size_t col = 0;
	for (const char *c = u; *c; c++) {
		assert_true((unsigned char)*c < 0x80);
		col = *c == '\n' ? 0 : col + 1;
		assert_true(col <= 79);
	}
	for (size_t t = 0; t < keymap_count(); t++) {
		const struct keymap *km = keymap_at(t);
		char title[64];
		snprintf(title, sizeof(title), "\n  %s:", km->title);
		const char *at = strstr(u, title);
		if (!km->n) { /* the blank screen binds nothing */
			assert_null(at);
			continue;
		}
		assert_non_null(at);
		/* its entries, in its order, before the next table's title */
		const char *end = strstr(at + 1, ":  ");
		const char *next = end ? strstr(end, "\n  ") : NULL;
		while (next && next[3] == ' ')
			next = strstr(next + 1, "\n  ");
		for (size_t k = 0; k < km->n; k++) {
			const char *nm = km->actions[k].name, *dash = strchr(nm, '-');
			size_t l = strlen(km->name);
			if (dash && (size_t)(dash - nm) == l && !strncmp(nm, km->name, l))
				nm = dash + 1;
			char word[64];
			snprintf(word, sizeof(word), " %s", nm);
			const char *w = strstr(at, word);
			if (!w || (next && w > next))
				fail_msg("--help: table %s: no entry %s", km->name, nm);
			at = w + 1;
		}
	}
	assert_non_null(strstr(u, "n N step"));
	assert_non_null(strstr(u, "Left Right scroll"));

	need = options_usage(NULL, 0);
	char *help = malloc(need + 1);
	options_usage(help, need + 1);
	assert_non_null(strstr(help, u));
	assert_null(strstr(help, " t T "));
	assert_non_null(strstr(help, "\n\nExit status: 0 ok"));
	free(help);
	free(u);

	need = keys_markdown(NULL, 0);
	char *md = malloc(need + 1);
	assert_int_equal(keys_markdown(md, need + 1), need);
	for (size_t t = 0; t < keymap_count(); t++) {
		const struct keymap *km = keymap_at(t);
		char line[256];
		snprintf(line, sizeof(line), "### %s: `%s`%s\n", km->title, km->name,
			 km->modal ? " (modal)" : "");
		assert_non_null(strstr(md, line));
		for (size_t k = 0; k < km->n; k++) {
			const struct action *e = &km->actions[k];
			snprintf(line, sizeof(line), "\n| `%s` | `%s` | %s |\n", e->keys_help,
				 e->name, e->help);
			if (!strstr(md, line))
				fail_msg("--list-keys: no row %s", line);
		}
	}
	free(md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_tables),
	    cmocka_unit_test(test_help_per_mode),
	    cmocka_unit_test(test_dispatch),
	    cmocka_unit_test(test_written),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
