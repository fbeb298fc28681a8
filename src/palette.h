/*
 * palette — colours by role.  Draw code names what a thing *is* (read
 * traffic, active memory, an axis) and never a colour; the palette maps
 * roles to colours, and theme files (DESIGN §7) only fill in roles.
 *
 * Invariants: every role has a 24-bit colour and an 8-colour fallback;
 * PALETTE_MONO (NO_COLOR, --ascii, monochrome terminals) keeps only
 * attributes (bold/reverse/dim), so the screen stays readable without
 * colour.
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
	ROLE_COUNT
};

enum palette_depth { PALETTE_MONO, PALETTE_8, PALETTE_256, PALETTE_RGB };

struct role_style {
	const char *key;   /* theme key, e.g. "read" */
	uint32_t rgb;      /* 0xRRGGBB; ignored when is_default_fg */
	int color8;        /* COLOR_* number 0-7, -1 for the terminal default */
	int bold, reverse, dim;
	int is_default_fg; /* use the terminal's own foreground */
};

/* The built-in style of a role. */
const struct role_style *palette_style(enum role r);
/* Nearest xterm-256 colour index for 0xRRGGBB. */
int palette_rgb_to_256(uint32_t rgb);

#endif
