/*
 * keys_doc — the key tables written out for people (actions.h): the keys
 * of --help (usage.c puts them after the options; plain ASCII, as the
 * rest of --help) and the tables of docs/keys.md (--list-keys, which
 * tools/keys-doc writes into the file and tests/sh/docs.sh holds it to).
 * Both walk keymap_at, so a key in a table is a key in both, with the
 * entry's own keys_help and name or help: nothing is written twice.
 *
 * The tables come bottom layer first (every mode's, then a replay's, a
 * talk's, the modal ones, the screen's): the order a reader meets them,
 * the reverse of the dispatch order.
 */
#include "app/actions.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* --help's width: an item goes on the next line rather than past it. */
#define USAGE_WIDTH 79
/* Where the items of a table start in --help ("  Every mode:    "). */
#define USAGE_ITEMS_COL 17

/* Appends as snprintf would at offset at of buf; the new offset, which goes
 * on past len, so the caller learns the length it needs. */
__attribute__((format(printf, 4, 5))) static size_t add(char *buf, size_t len, size_t at,
							const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k =
	    vsnprintf(buf ? buf + (at < len ? at : len) : NULL, at < len ? len - at : 0, fmt, ap);
	va_end(ap);
	return at + (k > 0 ? (size_t)k : 0);
}

/* s with the characters of the key tables that are not ASCII (arrows, the
 * speed's x) as words, into out; any other such character as '?'.  A run
 * of blanks is one ("c  C" sets two keys apart in the overlay's column). */
static const char *ascii(const char *s, char *out, size_t len)
{
	static const struct {
		const char *utf8, *ascii;
	} words[] = {
	    {"\xe2\x86\x90", "Left"},
	    {"\xe2\x86\x92", "Right"},
	    {"\xc3\x97", "x"},
	};
	size_t at = 0;
	out[0] = '\0';
	while (*s) {
		size_t i = 0;
		while (i < sizeof(words) / sizeof(words[0]) &&
		       strncmp(s, words[i].utf8, strlen(words[i].utf8)))
			i++;
		if (i < sizeof(words) / sizeof(words[0])) {
			at = add(out, len, at, "%s", words[i].ascii);
			s += strlen(words[i].utf8);
		} else if (*s == ' ' && at && out[at - 1 < len ? at - 1 : 0] == ' ') {
			s++;
		} else if ((unsigned char)*s < 0x80) {
			at = add(out, len, at, "%c", *s++);
		} else {
			at = add(out, len, at, "?");
			for (s++; ((unsigned char)*s & 0xc0) == 0x80; s++)
				;
		}
	}
	return out;
}

/* The tables in the order they are written: the dispatch order reversed. */
static const struct keymap *table_at(size_t i)
{
	size_t n = keymap_count();
	return i < n ? keymap_at(n - 1 - i) : NULL;
}

/* An entry's name without its table's ("picker-move" in the picker: "move"). */
static const char *short_name(const struct keymap *km, const struct action *e)
{
	size_t l = strlen(km->name);
	return !strncmp(e->name, km->name, l) && e->name[l] == '-' ? e->name + l + 1 : e->name;
}

size_t keys_usage(char *buf, size_t len)
{
	size_t at = add(buf, len, 0,
			"Keys of the TUI (h there says what each does in the mode it is in):\n");
	const struct keymap *km;
	for (size_t t = 0; (km = table_at(t)) != NULL; t++) {
		if (!km->n)
			continue; /* the blank screen: any key */
		char title[40];
		snprintf(title, sizeof(title), "%s:", km->title);
		int col = (int)strlen(title) + 2;
		at = add(buf, len, at, "  %s", title);
		for (size_t k = 0; k < km->n; k++) {
			char keys[64], item[96];
			const struct action *e = &km->actions[k];
			int w =
			    snprintf(item, sizeof(item), "%s %s",
				     ascii(e->keys_help, keys, sizeof(keys)), short_name(km, e));
			int pad = col < USAGE_ITEMS_COL ? USAGE_ITEMS_COL - col : 2;
			if (k && col + pad + w > USAGE_WIDTH) {
				at = add(buf, len, at, "\n");
				col = 0;
				pad = USAGE_ITEMS_COL;
			}
			at = add(buf, len, at, "%*s%s", pad, "", item);
			col += pad + w;
		}
		at = add(buf, len, at, "\n");
	}
	return at;
}

/* A markdown table cell: '|' would end it. */
static size_t add_cell(char *buf, size_t len, size_t at, const char *s)
{
	for (; *s; s++)
		at = *s == '|' ? add(buf, len, at, "\\|") : add(buf, len, at, "%c", *s);
	return at;
}

size_t keys_markdown(char *buf, size_t len)
{
	size_t at = 0;
	const struct keymap *km;
	for (size_t t = 0; (km = table_at(t)) != NULL; t++) {
		at = add(buf, len, at, "%s### %s: `%s`%s\n\n", t ? "\n" : "", km->title, km->name,
			 km->modal ? " (modal)" : "");
		at = add(buf, len, at, "| keys | action | what it does |\n|---|---|---|\n");
		for (size_t k = 0; k < km->n; k++) {
			const struct action *e = &km->actions[k];
			at = add(buf, len, at, "| `%s` | `%s` | ", e->keys_help, e->name);
			at = add_cell(buf, len, at, e->help);
			at = add(buf, len, at, " |\n");
		}
		if (km->any_help) {
			at = add(buf, len, at, "| %s | | ", km->n ? "any other" : "any");
			at = add_cell(buf, len, at, km->any_help);
			at = add(buf, len, at, " |\n");
		}
	}
	return at;
}
