/*
 * glyphs — which characters the charts draw with.  A choice made by
 * options, presets, talk scripts and theme files and honoured by the
 * screen layer; kept here so that those do not include screen/ headers
 * for an enum, and its names are read and written in one place.
 */
#ifndef LRUTOP_GLYPHS_H
#define LRUTOP_GLYPHS_H

/* braille: 2x4 dots a cell (UTF-8); block: half blocks, 1x2; ascii: 1x1 */
enum chart_glyphs { CHART_BRAILLE, CHART_BLOCK, CHART_ASCII };

/* The glyphs a name gives ("braille", "blocks", "ascii": --glyphs, a talk's
 * glyphs step, a theme's glyphs key), -1 when it is none of them. */
int glyphs_parse(const char *name);
/* The name of g, as glyphs_parse takes it ("?" for no enum value). */
const char *glyphs_name(int g);

#endif
