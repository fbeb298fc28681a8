#include "screen/palette.h"

#include <math.h>
#include <string.h>

#include "base/util.h"

/* Header and select are drawn reversed: their colour is the background
 * behind text in the terminal's own background colour, so they are light.
 * Read/write and active/inactive are chosen to stay apart for the common
 * colour-vision deficiencies (blue vs orange) and on a washed-out projector.
 * themes/default.theme lists the same colours (test_theme checks it). */
static const struct role_style styles[ROLE_COUNT] = {
	[ROLE_DEFAULT] = {"default", 0, 0, 0, 0, 1},
	[ROLE_HEADER] = {"header", 0x5fafd7, 1, 1, 0, 0},
	[ROLE_TITLE] = {"title", 0, 1, 0, 0, 1},
	[ROLE_AXIS] = {"axis", 0x8a8a8a, 0, 0, 1, 0},
	[ROLE_DIM] = {"dim", 0x8a8a8a, 0, 0, 1, 0},
	[ROLE_KEY] = {"key", 0xffd75f, 1, 0, 0, 0},
	[ROLE_READ] = {"read", 0x3aa0ff, 0, 0, 0, 0},
	[ROLE_WRITE] = {"write", 0xff8c1a, 0, 0, 0, 0},
	[ROLE_ACTIVE] = {"active", 0xe0457b, 0, 0, 0, 0},
	[ROLE_INACTIVE] = {"inactive", 0x2fbf71, 0, 0, 0, 0},
	[ROLE_ANON] = {"anon", 0x9d7bd8, 0, 0, 0, 0},
	[ROLE_FREE] = {"free", 0x6c7a89, 0, 0, 1, 0},
	[ROLE_DEACT] = {"deactivate", 0xff5f5f, 1, 0, 0, 0},
	[ROLE_ACT] = {"activate", 0x2fbf71, 0, 0, 0, 0},
	[ROLE_SCAN] = {"scan", 0xffd75f, 0, 0, 0, 0},
	[ROLE_REFAULT] = {"refault", 0x00d7d7, 0, 0, 0, 0},
	[ROLE_PSI] = {"psi", 0xd7afff, 0, 0, 0, 0},
	[ROLE_BURST] = {"burst", 0xff3030, 1, 0, 0, 0},
	[ROLE_MARKER] = {"marker", 0xffffff, 1, 0, 0, 0},
	[ROLE_WARN] = {"warn", 0xff5f5f, 1, 0, 0, 0},
	[ROLE_SELECT] = {"select", 0xafd7ff, 1, 1, 0, 0},
	/* MGLRU's generations, youngest first: the kernel calls the two
	 * youngest active, so they are active's colour and a lighter one,
	 * the two oldest a lighter inactive and inactive's own */
	[ROLE_GEN0] = {"gen0", 0xe0457b, 0, 0, 0, 0},
	[ROLE_GEN1] = {"gen1", 0xe97da3, 0, 0, 0, 0},
	[ROLE_GEN2] = {"gen2", 0x6dd29c, 0, 0, 0, 0},
	[ROLE_GEN3] = {"gen3", 0x2fbf71, 0, 0, 0, 0},
	/* the device's total behind the run's own read and write: read's and
	 * write's hues, darker (and dim where there is no colour) */
	[ROLE_DISK_READ] = {"disk_read", 0x2f6b9f, 0, 0, 1, 0},
	[ROLE_DISK_WRITE] = {"disk_write", 0x9f5a1f, 0, 0, 1, 0},
};

const struct role_style *palette_style(enum role r)
{
	return &styles[(unsigned)r < ROLE_COUNT ? r : ROLE_DEFAULT];
}

int palette_role_by_key(const char *key)
{
	for (int r = 0; r < ROLE_COUNT; r++)
		if (!strcmp(styles[r].key, key))
			return r;
	return -1;
}

/* xterm's default first 16 colours (its XTerm resources). */
static const uint32_t xterm16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};
static const int cube[6] = {0, 95, 135, 175, 215, 255};

uint32_t palette_xterm_rgb(int idx)
{
	if (idx < 0 || idx > 255)
		return 0;
	if (idx < 16)
		return xterm16[idx];
	if (idx >= 232) {
		uint32_t v = (uint32_t)(8 + 10 * (idx - 232));
		return v << 16 | v << 8 | v;
	}
	idx -= 16;
	return (uint32_t)cube[idx / 36] << 16 | (uint32_t)cube[idx / 6 % 6] << 8 |
	       (uint32_t)cube[idx % 6];
}

static long dist2(uint32_t a, uint32_t b)
{
	long dr = (long)(a >> 16 & 0xff) - (long)(b >> 16 & 0xff);
	long dg = (long)(a >> 8 & 0xff) - (long)(b >> 8 & 0xff);
	long db = (long)(a & 0xff) - (long)(b & 0xff);
	return dr * dr + dg * dg + db * db;
}

/* Nearest of xterm colours lo..hi-1; the lower index wins a tie. */
static int nearest(uint32_t rgb, int lo, int hi)
{
	int best = lo;
	long bd = -1;
	for (int i = lo; i < hi; i++) {
		long d = dist2(rgb, palette_xterm_rgb(i));
		if (bd < 0 || d < bd) {
			bd = d;
			best = i;
		}
	}
	return best;
}

int palette_rgb_to_256(uint32_t rgb)
{
	return nearest(rgb, 16, 256);
}

int palette_rgb_to_16(uint32_t rgb)
{
	return nearest(rgb, 0, 16);
}

int palette_rgb_to_8(uint32_t rgb)
{
	return nearest(rgb, 0, 8);
}

int palette_index(enum palette_depth d, uint32_t rgb)
{
	switch (d) {
	case PALETTE_256: return palette_rgb_to_256(rgb);
	case PALETTE_16: return palette_rgb_to_16(rgb);
	case PALETTE_8: return palette_rgb_to_8(rgb);
	case PALETTE_DIRECT: return (int)(rgb & 0xffffff);
	case PALETTE_MONO: break;
	}
	return -1;
}

int palette_index_on(enum palette_depth d, uint32_t rgb, int bg)
{
	int n = d == PALETTE_16 ? 16 : d == PALETTE_8 ? 8 : 0;
	if (!n || bg < 0)
		return palette_index(d, rgb);
	uint32_t b = palette_xterm_rgb(bg);
	int best = -1;
	long bd = -1;
	for (int i = 0; i < n; i++) {
		uint32_t x = palette_xterm_rgb(i);
		long dd = dist2(rgb, x);
		if (palette_contrast(x, b) >= PALETTE_MIN_CONTRAST && (bd < 0 || dd < bd)) {
			bd = dd;
			best = i;
		}
	}
	return best >= 0 ? best : palette_index(d, rgb);
}

static double lin(double c)
{
	c /= 255.0;
	return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

double palette_luminance(uint32_t rgb)
{
	return 0.2126 * lin(rgb >> 16 & 0xff) + 0.7152 * lin(rgb >> 8 & 0xff) +
	       0.0722 * lin(rgb & 0xff);
}

double palette_contrast(uint32_t a, uint32_t b)
{
	double la = palette_luminance(a), lb = palette_luminance(b);
	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

static double lab_f(double t)
{
	return t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16.0) / 116.0;
}

static void to_lab(uint32_t rgb, double lab[3])
{
	double r = lin(rgb >> 16 & 0xff), g = lin(rgb >> 8 & 0xff), b = lin(rgb & 0xff);
	double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
	double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
	double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
	double fx = lab_f(x), fy = lab_f(y), fz = lab_f(z);
	lab[0] = 116.0 * fy - 16.0;
	lab[1] = 500.0 * (fx - fy);
	lab[2] = 200.0 * (fy - fz);
}

double palette_delta_e(uint32_t a, uint32_t b)
{
	double la[3], lb[3];
	to_lab(a, la);
	to_lab(b, lb);
	return sqrt((la[0] - lb[0]) * (la[0] - lb[0]) + (la[1] - lb[1]) * (la[1] - lb[1]) +
		    (la[2] - lb[2]) * (la[2] - lb[2]));
}

/* Which series share a chart (the views draw them, each with a ■ swatch
 * in its legend; a number a legend shows without drawing it has no
 * swatch and no entry).  A view's new series is added here, e.g. MGLRU's
 * generations as a chart of their own beside the lists'. */
static const struct palette_chart charts[] = {
    /* while runs are shown the device's total is drawn behind the run's */
    {"disk", 4, {ROLE_READ, ROLE_WRITE, ROLE_DISK_READ, ROLE_DISK_WRITE}},
    {"memory", 4, {ROLE_ACTIVE, ROLE_INACTIVE, ROLE_ANON, ROLE_FREE}},
    /* under MGLRU with its generations (view_overview.c), instead */
    {"memory (MGLRU)", 6, {ROLE_GEN0, ROLE_GEN1, ROLE_GEN2, ROLE_GEN3, ROLE_ANON, ROLE_FREE}},
    /* (PSI is a number in the legend, without a swatch) */
    {"reclaim", 4, {ROLE_DEACT, ROLE_ACT, ROLE_SCAN, ROLE_REFAULT}},
    /* strip_residency.c: src cached, dst cached, dirty, writeback */
    {"residency", 4, {ROLE_READ, ROLE_WRITE, ROLE_REFAULT, ROLE_SCAN}},
    /* strip_probe.c: p50, p99, max */
    {"probe", 3, {ROLE_ACTIVE, ROLE_READ, ROLE_PSI}},
    /* view_runs.c's bars (its burst marks are a glyph of their own, ▼) */
    {"runs", 3, {ROLE_READ, ROLE_WRITE, ROLE_ACTIVE}},
    /* not a chart: the selected tab sits in the header line */
    {"header", 2, {ROLE_HEADER, ROLE_SELECT}},
};

const struct palette_chart *palette_charts(int *n)
{
	*n = (int)(sizeof(charts) / sizeof(charts[0]));
	return charts;
}

/* Whether roles a and b share a chart. */
static int share_chart(enum role a, enum role b)
{
	for (size_t k = 0; k < sizeof(charts) / sizeof(charts[0]); k++) {
		int ha = 0, hb = 0;
		for (int i = 0; i < charts[k].n; i++) {
			ha |= charts[k].series[i] == a;
			hb |= charts[k].series[i] == b;
		}
		if (ha && hb)
			return 1;
	}
	return 0;
}

/* Whether (fg, pat) is free for role r: no already placed role of its
 * charts has it. */
static int look_free(const struct palette_look *l, const unsigned char *placed, enum role r,
		     int fg, int pat)
{
	for (int o = 0; o < ROLE_COUNT; o++)
		if (placed[o] && o != (int)r && l->fg[o] == fg && l->pattern[o] == pat &&
		    share_chart(r, (enum role)o))
			return 0;
	return 1;
}

/* The colour of this depth nearest rgb that keeps the contrast on bg and
 * whose (colour, pat) is free for r; -1 if none. */
static int nearest_free(enum palette_depth d, const struct palette_look *l,
			const unsigned char *placed, enum role r, uint32_t rgb, int bg, int pat)
{
	int lo = d == PALETTE_256 ? 16 : 0;
	int hi = d == PALETTE_256 ? 256 : d == PALETTE_16 ? 16 : d == PALETTE_8 ? 8 : 0;
	int best = -1;
	long bd = -1;
	for (int i = lo; i < hi; i++) {
		uint32_t x = palette_xterm_rgb(i);
		if (bg >= 0 && palette_contrast(x, palette_xterm_rgb(bg)) < PALETTE_MIN_CONTRAST)
			continue;
		long dd = dist2(rgb, x);
		if ((bd < 0 || dd < bd) && look_free(l, placed, r, i, pat)) {
			bd = dd;
			best = i;
		}
	}
	return best;
}

int palette_resolve(enum palette_depth d, const uint32_t *rgb, const unsigned char *term_fg,
		    int bg, struct palette_look *out)
{
	unsigned char placed[ROLE_COUNT] = {0};
	for (int r = 0; r < ROLE_COUNT; r++) {
		out->pattern[r] = 0;
		out->fg[r] = d == PALETTE_MONO || term_fg[r] ? -1
			   : d == PALETTE_DIRECT	     ? (int)rgb[r]
						     : palette_index_on(d, rgb[r], bg);
	}
	if (d == PALETTE_MONO)
		return 0;
	int shared = 0;
	for (size_t k = 0; k < sizeof(charts) / sizeof(charts[0]); k++)
		for (int i = 0; i < charts[k].n; i++) {
			enum role r = charts[k].series[i];
			if (placed[r])
				continue;
			int fg = out->fg[r], pat = 0;
			if (!look_free(out, placed, r, fg, 0)) {
				/* another colour, else the pattern in this or another */
				int c = term_fg[r] || d == PALETTE_DIRECT
					  ? -1
					  : nearest_free(d, out, placed, r, rgb[r], bg, 0);
				if (c >= 0)
					fg = c;
				else if (look_free(out, placed, r, fg, 1))
					pat = 1;
				else if (!term_fg[r] && d != PALETTE_DIRECT &&
					 (c = nearest_free(d, out, placed, r, rgb[r], bg, 1)) >= 0) {
					fg = c;
					pat = 1;
				} else
					shared++;
			}
			out->fg[r] = fg;
			out->pattern[r] = (unsigned char)pat;
			placed[r] = 1;
		}
	return shared;
}
