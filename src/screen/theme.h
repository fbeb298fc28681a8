/*
 * theme — colour themes (docs/design.md §7): parsing theme files and finding them.
 *
 * A theme file holds lines `theme[KEY]="VALUE"` (the quotes are optional),
 * blank lines and `#` comments; `# description: TEXT` is the one-line
 * description --list-themes shows.  KEY is a role of palette.h ("read",
 * "active", ...: the value is "#RRGGBB" or "default", the terminal's own
 * foreground), "background" ("#RRGGBB": lrutop paints it behind every
 * cell; "default": the terminal's own background, assumed dark by the
 * contrast test), "glyphs" (braille, blocks or ascii: the theme's chart
 * glyphs, --glyphs wins) or "version" ("1" or "1.N": format version 1; an
 * unknown major is an error, a newer minor of 1 is read).  Keys left out
 * keep the built-in default theme (palette.c).
 *
 * Invariants: theme_parse leaves *t unchanged on error; it stops at the
 * first bad line and names it `FILE:LINE: reason`.  Nothing here prints or
 * exits; nothing here talks to the terminal (screen.c turns a theme into
 * colour pairs).
 */
#ifndef LRUTOP_THEME_H
#define LRUTOP_THEME_H

#include <stddef.h>
#include <stdint.h>

#include "screen/palette.h"

#define THEME_NAME_MAX 64
#define THEME_DESC_MAX 120
#define THEME_VERSION_MAJOR 1
/* theme_list reports at most this many themes */
#define THEME_LIST_MAX 64

struct theme {
	char name[THEME_NAME_MAX];	/* "default", or the file name without .theme */
	char description[THEME_DESC_MAX];
	uint32_t rgb[ROLE_COUNT];
	unsigned char term_fg[ROLE_COUNT]; /* 1: the terminal's own foreground */
	uint32_t bg;
	int term_bg;			/* 1: the terminal's own background */
	int glyphs;			/* enum chart_glyphs, -1: the theme does not say */
};

struct theme_entry {
	char name[THEME_NAME_MAX];
	char path[4096];
	char description[THEME_DESC_MAX];
};

/* The built-in default theme (palette.c's colours, name "default"). */
void theme_default(struct theme *t);
/* Parses text (a whole file) over a copy of *t: keys it does not set keep
 * *t's values.  fname names the file in errors.  0, or -1 + err
 * "FILE:LINE: reason" with *t untouched. */
int theme_parse(struct theme *t, const char *text, const char *fname, char *err,
		size_t errlen);
/* Reads the theme file path over the built-in default; the name is the file
 * name without ".theme".  0 or -1 + err. */
int theme_load_file(struct theme *t, const char *path, char *err, size_t errlen);
/* Where theme name lives: a name containing '/' is a path and is taken as
 * it is; otherwise NAME.theme is searched in $XDG_CONFIG_HOME/lrutop/themes
 * (default ~/.config), then PREFIX/share/lrutop/themes, then the source
 * tree's themes/.  0 + path, or -1 + err when it is nowhere (the SVG export
 * uses this too). */
int theme_find(const char *name, char *path, size_t pathlen, char *err, size_t errlen);
/* theme_find then theme_load_file; "default" without a file is the
 * built-in one.  0 or -1 + err. */
int theme_load(struct theme *t, const char *name, char *err, size_t errlen);
/* The themes of the search path, each name once (the first directory that
 * has it wins), sorted by name, at most max.  Returns how many. */
size_t theme_list(struct theme_entry *out, size_t max);
/* The name after cur in theme_list's order (wrapping round), "default" if
 * there is no theme file at all.  Copies into next. */
void theme_next(const char *cur, char *next, size_t len);

#endif
