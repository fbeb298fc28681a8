/*
 * palette — colours by role.  Draw code names what a thing *is* (read
 * traffic, active memory, an axis) and never a colour; the palette maps
 * roles to colours, and theme files (docs/design.md §7) only fill in roles.
 *
 * The role table in palette.c is the one list of roles: theme keys, the
 * built-in default colours (themes/default.theme repeats them, a test keeps
 * the two equal) and the attributes.
 *
 * Invariants: every role has a 24-bit colour (or the terminal's own
 * foreground); at 256, 16 or 8 colours a colour becomes the NEAREST xterm
 * colour (squared RGB distance over xterm's real palette: cube levels 0, 95,
 * 135, 175, 215, 255 and the grey ramp 8..238); PALETTE_MONO (NO_COLOR,
 * --ascii, monochrome terminals) keeps only attributes (bold/reverse/dim),
 * so the screen stays readable without colour.
 */
#ifndef LRUTOP_PALETTE_H
#define LRUTOP_PALETTE_H

#include <stdint.h>

enum role {
	ROLE_DEFAULT,
	ROLE_HEADER,	/* top line */
	ROLE_TITLE,	/* chart titles */
	ROLE_AXIS,	/* axes, tick labels, units */
	ROLE_DIM,	/* secondary text */
	ROLE_KEY,	/* key names in help/status */
	ROLE_READ,
	ROLE_WRITE,
	ROLE_ACTIVE,	/* Active(file) */
	ROLE_INACTIVE,	/* Inactive(file) */
	ROLE_ANON,
	ROLE_FREE,
	ROLE_DEACT,	/* pgdeactivate */
	ROLE_ACT,	/* pgactivate */
	ROLE_SCAN,
	ROLE_REFAULT,
	ROLE_PSI,
	ROLE_BURST,	/* demotion-burst markers */
	ROLE_MARKER,	/* phase markers */
	ROLE_WARN,
	ROLE_SELECT,	/* selected/highlighted row */
	ROLE_GEN0,	/* MGLRU's youngest generation (file pages) */
	ROLE_GEN1,
	ROLE_GEN2,
	ROLE_GEN3,	/* ... the oldest */
	ROLE_DISK_READ,	/* the device's total read, behind the run's own (dimmer) */
	ROLE_DISK_WRITE,
	ROLE_COUNT
};

/* PALETTE_DIRECT: a direct-colour terminal (COLORS > 256, e.g.
 * TERM=xterm-direct): a colour is its own 0xRRGGBB */
enum palette_depth { PALETTE_MONO, PALETTE_8, PALETTE_16, PALETTE_256, PALETTE_DIRECT };

struct role_style {
	const char *key;   /* theme key, e.g. "read" */
	uint32_t rgb;      /* 0xRRGGBB; ignored when is_default_fg */
	int bold, reverse, dim;
	int is_default_fg; /* use the terminal's own foreground */
};

/* The series drawn together in one chart (or one legend line): the one
 * list of which roles must stay apart, read by palette_resolve and by the
 * theme tests.  A view that adds a series to a chart adds its role here. */
#define PALETTE_CHART_MAX 8
struct palette_chart {
	const char *name;
	int n;
	enum role series[PALETTE_CHART_MAX];
};
const struct palette_chart *palette_charts(int *n);

/* What a role looks like at one depth: fg is the colour index (0xRRGGBB
 * at PALETTE_DIRECT, -1 the terminal's own foreground or no colour), and
 * pattern 1 means drawn in a pattern (screen.c: braille dots stippled,
 * blocks and legend swatches as a shade), for a series that has to share
 * its colour with another of its chart because the depth ran out. */
struct palette_look {
	int fg[ROLE_COUNT];
	unsigned char pattern[ROLE_COUNT];
};
/* The look of every role at depth d for a theme's colours (rgb, term_fg as
 * in struct theme) on xterm colour bg (0xRRGGBB at PALETTE_DIRECT; -1:
 * unknown).  Each role starts at its nearest colour (palette_index_on);
 * then, series by series in palette_charts' order, one whose colour a
 * series of one of its charts already has takes the nearest colour that
 * none of them has and that keeps PALETTE_MIN_CONTRAST on bg, and when no
 * such colour is left (8 colours on white: four), the nearest colour with
 * the pattern that none of them has.  A theme's own clash (two series of
 * one chart in one 24-bit colour) gets the pattern at PALETTE_DIRECT.
 * Returns how many series were left sharing (fg, pattern) with one of
 * their chart (a user's theme with too few colours): 0 for every
 * shipped theme at every depth but PALETTE_MONO, where nothing has a
 * colour and the legends' names tell the series apart. */
int palette_resolve(enum palette_depth d, const uint32_t *rgb, const unsigned char *term_fg,
		    int bg, struct palette_look *out);

/* The built-in style of a role. */
const struct role_style *palette_style(enum role r);
/* The role whose theme key is key, -1 if none. */
int palette_role_by_key(const char *key);
/* Nearest xterm-256 colour index (16-255: the cube and the grey ramp, not
 * the user-redefinable 0-15) for 0xRRGGBB. */
int palette_rgb_to_256(uint32_t rgb);
/* Nearest colour of xterm's first 16 (depth PALETTE_16) or 8 (PALETTE_8)
 * for 0xRRGGBB; the index is a curses COLOR_* number for 0-7. */
int palette_rgb_to_16(uint32_t rgb);
int palette_rgb_to_8(uint32_t rgb);
/* The colour index a depth uses for rgb (-1 for PALETTE_MONO, rgb itself
 * for PALETTE_DIRECT). */
int palette_index(enum palette_depth d, uint32_t rgb);
/* At 16 or 8 colours the nearest colour can vanish on the background (the
 * light theme's white is xterm's light grey 7, its dark teal becomes cyan):
 * there the nearest of the colours with at least PALETTE_MIN_CONTRAST
 * against xterm colour bg is taken (the plain nearest if none has it, or
 * bg < 0, or at 256 colours, where the nearest is close enough). */
#define PALETTE_MIN_CONTRAST 3.0
int palette_index_on(enum palette_depth d, uint32_t rgb, int bg);
/* WCAG 2 relative luminance of 0xRRGGBB and the contrast ratio of two
 * colours (1..21). */
double palette_luminance(uint32_t rgb);
double palette_contrast(uint32_t a, uint32_t b);
/* CIE76 colour difference Delta-E*ab of two colours (CIELAB, D65). */
double palette_delta_e(uint32_t a, uint32_t b);
/* The 0xRRGGBB of xterm colour idx (0-255). */
uint32_t palette_xterm_rgb(int idx);

#endif
