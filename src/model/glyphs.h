/*
 * glyphs — which characters the charts draw with.  A choice made by
 * options, presets and talk scripts and honoured by the screen layer; kept
 * here so that those do not include screen/ headers for an enum.
 */
#ifndef LRUTOP_GLYPHS_H
#define LRUTOP_GLYPHS_H

/* braille: 2x4 dots a cell (UTF-8); block: half blocks, 1x2; ascii: 1x1 */
enum chart_glyphs { CHART_BRAILLE, CHART_BLOCK, CHART_ASCII };

#endif
