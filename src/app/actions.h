/*
 * actions — what a key does: one key table per mode (htop's key tables,
 * nnn's key → action list), each entry with its key(s), a name, a
 * one-line help text and the handler.  The keyboard, the help overlay
 * (generated from the tables of the current mode) and a scripted talk
 * (action_find by name) share them.  docs/keys.md: the modes, the
 * dispatch order, how to add a key.
 *
 * The layers a key goes through, top first (keys_layers):
 *   screen  ^L                         always; passes other keys on
 *   help    the overlay                modal: any key closes it, q quits too
 *   prompt  the j prompt of a replay   modal
 *   picker  the run picker (r)         modal
 *   blank   a talk's blanked screen    modal: any key shows it again
 *   talk    --talk's steps             passes other keys on
 *   replay  --replay's controls        passes other keys on
 *   global  every mode                 the last
 * A modal layer takes every key (those it does not bind do nothing); a
 * key no layer takes that the replay table binds says "only in a replay".
 * A key means the same in every table it is bound in (the same name)
 * unless the entry of the upper table says it overrides.
 *
 * Invariants: a handler only changes the app's model/UI state or asks the
 * source (interval, cancel); it never draws.  It returns what changed (a
 * reaction); the front end redraws accordingly.
 */
#ifndef LRUTOP_ACTIONS_H
#define LRUTOP_ACTIONS_H

#include <stddef.h>

struct app;

#define ACTION_KEYS 12

/* What a key changed (htop's Htop_Reaction): the front end redraws by it.
 * Bits, except REACT_PASS. */
enum reaction {
	REACT_PASS = -1,   /* not taken: the next layer down gets the key */
	REDRAW_NONE = 0,   /* nothing changed */
	REDRAW_STATUS = 1, /* the status line (a message, the prompt) */
	REDRAW_VIEW = 2,   /* what the views show */
	REDRAW_ALL = 4,	   /* the whole terminal again (^L) */
	REACT_QUIT = 8,	   /* the loop ends (a->quit is set) */
};

struct action {
	const char *name;	/* "quit", "view", "pause", ...: for action_find */
	int keys[ACTION_KEYS];	/* key codes (a code point or SKEY_*), 0-terminated */
	const char *keys_help;	/* how the help overlay writes the keys */
	const char *help;	/* one line */
	/* key: the key that was pressed (the view actions use it); width: the
	 * screen's, for page-sized scrolls.  Returns a reaction. */
	int (*run)(struct app *a, int key, int width);
	int overrides; /* its keys mean something else in the tables below */
};

struct keymap {
	const char *name;  /* "global", "replay", "picker", ...: the help's heading */
	const char *title; /* the help's heading for it */
	const struct action *actions;
	size_t n;
	int modal; /* takes every key: those not bound go to any (or nowhere) */
	int (*any)(struct app *a, int key, int width);
	const char *any_help; /* the help line of any, NULL when none */
};

#define KEYS_LAYERS_MAX 8

/* The talk's table (talk.c): on, back, first, blank. */
extern const struct keymap talk_keymap;

/* The tables, in dispatch order (top first), whether active or not. */
size_t keymap_count(void);
const struct keymap *keymap_at(size_t i);
/* The tables a key goes through now, top first; returns how many. */
size_t keys_layers(const struct app *a, const struct keymap **out, size_t max);
/* One key through the layers: the reaction (REDRAW_NONE when no layer
 * took it).  A resize only redraws. */
int keys_dispatch(struct app *a, int key, int width);
/* What the help overlay lists (app.help_maps, and their lines in
 * ui.help_lines): the help's own table, then the layers under it down to
 * the first modal one, then the screen's. */
void keys_help_refresh(struct app *a);

/* How the help overlay writes the keys of entry k of app.help_maps[t]:
 * each key is listed once, under the table whose handler runs for it in
 * the current mode (the first in the dispatch order that binds it; the
 * help's own table aside, it is about the open overlay).  The entry's
 * keys_help when all its keys are its own there, the names of those that
 * are (in buf) when some are an upper table's, NULL when none is. */
const char *keys_help_text(const struct app *a, int t, size_t k, char *buf, size_t len);

/* The tables written out (keys_doc.c), the bottom layer first, each with
 * the length it needs, as snprintf: --help's keys (ASCII: each entry's
 * keys and its name without the table's, a few a line) and docs/keys.md's
 * tables (markdown: keys, name, help, and the any-key line; what
 * --list-keys prints and tools/keys-doc puts in the file). */
size_t keys_usage(char *buf, size_t len);
size_t keys_markdown(char *buf, size_t len);

/* The global table (every mode's keys), as before the modes had tables. */
size_t action_count(void);
const struct action *action_at(size_t i);
/* The global action bound to key, NULL when none. */
const struct action *action_for_key(int key);
/* The action called name (the global table first), NULL when none. */
const struct action *action_find(const char *name);
/* What `t` and `g` do, with an argument (a talk's theme and glyphs
 * steps): loads theme name (its glyphs too, as `t` does); 0 or -1 + err. */
int action_set_theme(struct app *a, const char *name, char *err, size_t errlen);
/* Sets the chart glyphs (enum chart_glyphs); ASCII-only screens keep ASCII. */
void action_set_glyphs(struct app *a, int glyphs);

#endif
