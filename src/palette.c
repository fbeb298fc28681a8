#include "palette.h"

#include <string.h>

#include "util.h"

/* 8-colour numbers as in curses.h, without including it. */
enum { C_BLACK, C_RED, C_GREEN, C_YELLOW, C_BLUE, C_MAGENTA, C_CYAN, C_WHITE };

/* Header and select are drawn reversed: their colour is the background
 * behind text in the terminal's own background colour, so they are light.
 * Read/write and active/inactive are chosen to stay apart for the common
 * colour-vision deficiencies (blue vs orange) and on a washed-out projector. */
static const struct role_style styles[ROLE_COUNT] = {
	[ROLE_DEFAULT] = {"default", 0, -1, 0, 0, 0, 1},
	[ROLE_HEADER] = {"header", 0x5fafd7, C_CYAN, 1, 1, 0, 0},
	[ROLE_TITLE] = {"title", 0, -1, 1, 0, 0, 1},
	[ROLE_AXIS] = {"axis", 0x8a8a8a, C_WHITE, 0, 0, 1, 0},
	[ROLE_DIM] = {"dim", 0x8a8a8a, C_WHITE, 0, 0, 1, 0},
	[ROLE_KEY] = {"key", 0xffd75f, C_YELLOW, 1, 0, 0, 0},
	[ROLE_READ] = {"read", 0x3aa0ff, C_CYAN, 0, 0, 0, 0},
	[ROLE_WRITE] = {"write", 0xff8c1a, C_YELLOW, 0, 0, 0, 0},
	[ROLE_ACTIVE] = {"active", 0xe0457b, C_MAGENTA, 0, 0, 0, 0},
	[ROLE_INACTIVE] = {"inactive", 0x2fbf71, C_GREEN, 0, 0, 0, 0},
	[ROLE_ANON] = {"anon", 0x9d7bd8, C_BLUE, 0, 0, 0, 0},
	[ROLE_FREE] = {"free", 0x6c7a89, C_WHITE, 0, 0, 1, 0},
	[ROLE_DEACT] = {"deactivate", 0xff5f5f, C_RED, 1, 0, 0, 0},
	[ROLE_ACT] = {"activate", 0x2fbf71, C_GREEN, 0, 0, 0, 0},
	[ROLE_SCAN] = {"scan", 0xffd75f, C_YELLOW, 0, 0, 0, 0},
	[ROLE_REFAULT] = {"refault", 0x3aa0ff, C_CYAN, 0, 0, 0, 0},
	[ROLE_PSI] = {"psi", 0xd7afff, C_MAGENTA, 0, 0, 0, 0},
	[ROLE_BURST] = {"burst", 0xff3030, C_RED, 1, 0, 0, 0},
	[ROLE_MARKER] = {"marker", 0xffffff, C_WHITE, 1, 0, 0, 0},
	[ROLE_WARN] = {"warn", 0xff5f5f, C_RED, 1, 0, 0, 0},
	[ROLE_SELECT] = {"select", 0xafd7ff, C_WHITE, 1, 1, 0, 0},
};

const struct role_style *palette_style(enum role r)
{
	return &styles[(unsigned)r < ROLE_COUNT ? r : ROLE_DEFAULT];
}

static int cube_level(int v)
{
	/* xterm cube levels 0, 95, 135, 175, 215, 255 */
	return v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40;
}

int palette_rgb_to_256(uint32_t rgb)
{
	int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
	int cr = cube_level(r), cg = cube_level(g), cb = cube_level(b);
	static const int lv[6] = {0, 95, 135, 175, 215, 255};
	int cube = 16 + 36 * cr + 6 * cg + cb;
	int dc = (lv[cr] - r) * (lv[cr] - r) + (lv[cg] - g) * (lv[cg] - g) +
		 (lv[cb] - b) * (lv[cb] - b);
	int avg = (r + g + b) / 3;
	int gi = avg > 238 ? 23 : avg < 8 ? 0 : (avg - 8) / 10;
	int gv = 8 + 10 * gi;
	int dg = (gv - r) * (gv - r) + (gv - g) * (gv - g) + (gv - b) * (gv - b);
	return dg < dc ? 232 + gi : cube;
}
