#include "model/glyphs.h"

#include <string.h>

/* In the enum's order. */
static const char *const names[] = {
    [CHART_BRAILLE] = "braille",
    [CHART_BLOCK] = "blocks",
    [CHART_ASCII] = "ascii",
};

int glyphs_parse(const char *name)
{
	for (int g = 0; g < (int)(sizeof(names) / sizeof(names[0])); g++)
		if (!strcmp(name, names[g]))
			return g;
	return -1;
}

const char *glyphs_name(int g)
{
	return g >= 0 && g < (int)(sizeof(names) / sizeof(names[0])) ? names[g] : "?";
}
