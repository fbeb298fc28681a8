/*
 * theme_parse: theme files (docs/design.md §7).
 *
 * Contract: on error *t is untouched and the message starts "FILE:N: " with
 * N at most the number of lines of the input; on success every role either
 * keeps its default or was named by a theme[KEY] line of the input, a
 * glyphs value is one of the three, and parsing the same text again over
 * the result gives the same theme (parsing is idempotent).  Error paths
 * (issue 15): the message holds no control character, and a line that is
 * a good one with a "# comment" after it parses as the good line does.
 */
#include "fuzz.h"

#include <stdio.h>

#include "screen/palette.h"
#include "screen/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	struct theme t, before, again;
	char err[256];
	theme_default(&t);
	before = t;
	int rc = theme_parse(&t, buf, "f.theme", err, sizeof(err));
	if (rc < 0) {
		for (const char *p = err; *p; p++)
			FUZZ_REQUIRE((unsigned char)*p >= 0x20 && *p != 0x7f);
		FUZZ_REQUIRE(!memcmp(&t, &before, sizeof(t)));
		FUZZ_REQUIRE(!strncmp(err, "f.theme:", 8));
		long line = strtol(err + 8, NULL, 10);
		size_t lines = 1;
		for (const char *p = buf; *p; p++)
			lines += *p == '\n';
		FUZZ_REQUIRE(line >= 1 && (size_t)line <= lines);
	} else {
		FUZZ_REQUIRE(rc == 0);
		FUZZ_REQUIRE(t.glyphs >= -1 && t.glyphs <= 2);
		for (int r = 0; r < ROLE_COUNT; r++) {
			if (t.rgb[r] == before.rgb[r] && t.term_fg[r] == before.term_fg[r])
				continue;
			char key[64];
			snprintf(key, sizeof(key), "%s", palette_style((enum role)r)->key);
			FUZZ_REQUIRE(strstr(buf, "theme[") && strstr(buf, key));
			FUZZ_REQUIRE(t.rgb[r] <= 0xffffff);
		}
		again = t;
		FUZZ_REQUIRE(theme_parse(&again, buf, "f.theme", err, sizeof(err)) == 0);
		FUZZ_REQUIRE(!memcmp(&t, &again, sizeof(t)));
	}
	/* the first line with a trailing comment: the same outcome as without */
	size_t l1 = strcspn(buf, "\n");
	if (l1 < 200 && !memchr(buf, '#', l1) && memchr(buf, '"', l1)) {
		char one[256], com[300];
		memcpy(one, buf, l1);
		one[l1] = '\0';
		snprintf(com, sizeof(com), "%s  # a comment", one);
		struct theme a, b;
		char e1[256], e2[256];
		theme_default(&a);
		theme_default(&b);
		int r1 = theme_parse(&a, one, "f.theme", e1, sizeof(e1));
		int r2 = theme_parse(&b, com, "f.theme", e2, sizeof(e2));
		/* an open quote takes the comment into the value: only a good
		 * line must stay good */
		if (r1 == 0 && one[strlen(one) - 1] == '"')
			FUZZ_REQUIRE(r2 == 0 && !memcmp(&a, &b, sizeof(a)));
	}
	free(buf);
	return 0;
}
