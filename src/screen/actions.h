/*
 * actions — what a key does, as one table (nnn's key → action list): each
 * action has its key(s), a name, a one-line help text and the function.
 * The keyboard, the help overlay (generated from the table) and, later, a
 * scripted talk (action_find by name) share it.
 *
 * Invariants: an action only changes the app's model/UI state or asks the
 * source (interval, cancel); it never draws.  The modal keys of the picker
 * are not here (they mean something else while it is open).
 */
#ifndef LRUTOP_ACTIONS_H
#define LRUTOP_ACTIONS_H

#include <stddef.h>

struct app;

#define ACTION_KEYS 4

struct action {
	const char *name;	/* "quit", "view", "pause", ...: for action_find */
	int keys[ACTION_KEYS];	/* key codes (a code point or SKEY_*), 0-terminated */
	const char *keys_help;	/* how the help overlay writes the keys, NULL: not listed */
	const char *help;	/* one line */
	/* key: the key that was pressed (the view actions use it); width: the
	 * screen's, for page-sized scrolls. */
	void (*run)(struct app *a, int key, int width); /* NULL: the front end does it */
};

size_t action_count(void);
const struct action *action_at(size_t i);
/* The action bound to key, NULL when none. */
const struct action *action_for_key(int key);
/* The action called name, NULL when none. */
const struct action *action_find(const char *name);
/* What `t` and `g` do, with an argument (a talk's theme and glyphs
 * steps): loads theme name (its glyphs too, as `t` does); 0 or -1 + err. */
int action_set_theme(struct app *a, const char *name, char *err, size_t errlen);
/* Sets the chart glyphs (enum chart_glyphs); ASCII-only screens keep ASCII. */
void action_set_glyphs(struct app *a, int glyphs);

#endif
