#include "screen/strip_residency.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/pagecache.h"
#include "base/util.h"

enum { R_SRC, R_DST, R_DIRTY, R_WB, R_N };
enum { MAP_ROWS = STRIP_RESIDENCY_MAP_ROWS };

/* A map cell's glyph (Unicode, ASCII) and role; cached takes the file's. */
static const struct {
	uint32_t ch, ascii;
	enum role role;
} cell_look[] = {
    [PCELL_NONE] = {' ', ' ', ROLE_DIM},
    [PCELL_EMPTY] = {0x00b7, '.', ROLE_DIM},	   /* · */
    [PCELL_EVICTED] = {0x2591, 'x', ROLE_DEACT},	   /* ░ */
    [PCELL_SOME] = {0x2584, 'o', ROLE_DEFAULT},	   /* ▄ */
    [PCELL_CACHED] = {0x2588, '#', ROLE_DEFAULT},  /* █ */
    [PCELL_DIRTY] = {0x2593, 'D', ROLE_REFAULT},   /* ▓ */
    [PCELL_WB] = {0x2592, 'W', ROLE_SCAN},	   /* ▒ */
};

void strip_residency_done(struct res_strip *rs)
{
	canvas_done(&rs->canvas);
	free(rs->buf);
	rs->buf = NULL;
	rs->cap = 0;
	free(rs->cells);
	rs->cells = NULL;
	rs->cells_cap = 0;
}

int strip_residency_map_ranges(int w)
{
	int pw = w - 8; /* view_overview.c: YLAB + the axis */
	return pw < 1 ? 1 : pw > RESIDENCY_MAP_MAX ? RESIDENCY_MAP_MAX : pw;
}

int strip_residency_rows(const struct model *m, int plot_rows)
{
	/* The disk and memory charts carry the sawtooth: at 100x30 (20 rows)
	 * the strip is the map alone (its title and two rows), the shares
	 * stay in its legend and the results. */
	if (m->runs.state == RUNS_NONE || plot_rows < 12)
		return 0;
	const int map = m->map_source ? MAP_ROWS : 0;
	if (plot_rows < 26)
		return map ? 1 + map : 0;
	int rows = plot_rows / 8;
	return 1 + (rows < 2 ? 2 : rows > 5 ? 5 : rows) + map;
}

static double *col(struct res_strip *rs, int k)
{
	return rs->buf + (size_t)k * (size_t)rs->cap;
}

/* Title and legend with the newest values: "Page cache % ■ src 42 ...". */
static void legend(struct grid *g, int y, int compact, const struct pagecache_pct *p,
		   const char *method, enum chart_glyphs gl)
{
	/* the swatches are the map's glyphs, in the chart's colours */
	struct {
		enum role role;
		const char *name, *short_name;
		double v;
		const char *unit;
		int cell; /* enum pagecache_cell whose glyph is the swatch, 0: none */
	} it[] = {
	    {ROLE_READ, "src cached", "src", p->src_cached, "%", PCELL_CACHED},
	    {ROLE_WRITE, "dst cached", "dst", p->dst_cached, "%", PCELL_CACHED},
	    {ROLE_REFAULT, "dirty", "dirty", p->dst_dirty, "%", PCELL_DIRTY},
	    {ROLE_SCAN, "writeback", "wb", p->dst_wb, "%", PCELL_WB},
	    {ROLE_DEACT, "evicted", "evict", p->evicted, " pg", PCELL_EVICTED},
	    {ROLE_PSI, "recently evicted", "recent", p->recent, " pg", 0},
	};
	char title[64];
	if (compact)
		snprintf(title, sizeof(title), "Page cache");
	else
		snprintf(title, sizeof(title), "Page cache (%% of each file%s%s)",
			 method ? ", " : "", method ? method : "");
	int x = 1 + grid_text(g, 1, y, -1, ROLE_TITLE, title) + 2;
	for (size_t i = 0; i < ARRAY_LEN(it); i++) {
		char val[16], buf[64];
		if (isnan(it[i].v))
			snprintf(val, sizeof(val), "-");
		else
			fmt_num(val, sizeof(val), it[i].v);
		snprintf(buf, sizeof(buf), "%s %s%s", compact ? it[i].short_name : it[i].name, val,
			 isnan(it[i].v) ? "" : it[i].unit);
		if (x + 2 + (int)strlen(buf) > g->w)
			break;
		if (it[i].cell) {
			const int c = it[i].cell;
			grid_put(g, x, y, gl == CHART_ASCII ? cell_look[c].ascii : cell_look[c].ch,
				 it[i].role);
			x += 2;
		}
		x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf) + 2;
	}
}

/* The two map rows at y: "src" and "dst" in the label column, a cell a
 * range. */
static void draw_map(struct res_strip *rs, const struct model *m, enum chart_glyphs gl,
		     struct grid *g, int x, int y, int pw)
{
	if (pw > rs->cells_cap) {
		free(rs->cells);
		rs->cells_cap = pw;
		rs->cells = xmalloc((size_t)pw);
	}
	const struct residency_map_file *f[MAP_ROWS] = {&m->map.src, &m->map.dst};
	static const char *const name[MAP_ROWS] = {"src", "dst"};
	static const enum role own[MAP_ROWS] = {ROLE_READ, ROLE_WRITE};
	for (int r = 0; r < MAP_ROWS; r++) {
		grid_printf(g, 0, y + r, ROLE_AXIS, "%*s", x - 1, name[r]);
		grid_put(g, x - 1, y + r, gl == CHART_ASCII ? '|' : 0x2502, ROLE_AXIS); /* │ */
		if (!f[r]->n) {
			grid_text(g, x + 1, y + r, pw - 1, ROLE_DIM,
				  m->map.src.n || m->map.dst.n ? "-" : "no map yet (read while a run is on)");
			continue;
		}
		/* the row ends in the file's size: its cells are the file's
		 * extent, left to right, not the time axis under them */
		char size[16];
		fmt_size(size, sizeof(size), f[r]->pages * (uint64_t)m->map_page_size);
		int cells = pw;
		if (pw > 24) {
			cells = pw - (int)strlen(size) - 1;
			grid_text(g, x + cells + 1, y + r, -1, ROLE_AXIS, size);
		}
		pagecache_map_cells(f[r], cells, rs->cells);
		for (int i = 0; i < cells; i++) {
			int c = rs->cells[i];
			enum role role = cell_look[c].role == ROLE_DEFAULT ? own[r] : cell_look[c].role;
			grid_put(g, x + i, y + r, gl == CHART_ASCII ? cell_look[c].ascii : cell_look[c].ch,
				 role);
		}
	}
}

int strip_residency_draw(struct res_strip *rs, const struct model *m, const long *hi, int n,
			 enum chart_glyphs gl, struct grid *g, int x, int y, int pw, int rows,
			 int compact)
{
	if (rows < 2)
		return 0;
	if (n > rs->cap) {
		free(rs->buf);
		rs->cap = n;
		rs->buf = xmalloc(sizeof(double) * R_N * (size_t)n);
	}
	struct pagecache_pct last, p;
	pagecache_pct(NULL, &last);
	int any = 0;
	const char *method = NULL;
	for (int i = 0; i < n; i++) {
		/* a block of the history without residency is passed by packed */
		const struct sample *s =
		    hi[i] >= 0 && series_may_have(m->series, (size_t)hi[i], SAMPLE_HAVE_RES)
			? series_at(m->series, (size_t)hi[i])
			: NULL;
		pagecache_pct(s, &p);
		col(rs, R_SRC)[i] = p.src_cached;
		col(rs, R_DST)[i] = p.dst_cached;
		col(rs, R_DIRTY)[i] = p.dst_dirty;
		col(rs, R_WB)[i] = p.dst_wb;
		if (s && (s->have & SAMPLE_HAVE_RES)) {
			last = p; /* the legend's: the newest shown sample that has it */
			method = pagecache_method(s);
			any = 1;
		}
	}
	legend(g, y, compact, &last, method, gl);
	const int map = m->map_source ? MAP_ROWS : 0;
	if (map)
		draw_map(rs, m, gl, g, x, y + rows - map, pw);
	if (rows <= 1 + map)
		return rows; /* the map alone */
	int ch = rows - 1 - map;
	canvas_reset(&rs->canvas, gl, pw, ch);
	static const enum role roles[R_N] = {ROLE_READ, ROLE_WRITE, ROLE_REFAULT, ROLE_SCAN};
	int band = rs->canvas.dh;
	for (int k = 0; k < R_N; k++)
		canvas_plot(&rs->canvas, col(rs, k), n, 100.0, roles[k], CHART_LINE, band - 1, -1,
			    band);
	canvas_render(&rs->canvas, g, x, y + 1);
	for (int j = 0; j < ch; j++)
		grid_put(g, x - 1, y + 1 + j, 0x2502, ROLE_AXIS); /* │ */
	grid_printf(g, 0, y + 1, ROLE_AXIS, "%*s", x - 1, "100%");
	grid_printf(g, 0, y + ch, ROLE_AXIS, "%*s", x - 1, "0");
	if (!any)
		grid_text(g, x + 2, y + 1 + (ch - 1) / 2, -1, ROLE_DIM,
			  "no page-cache data yet (read while a run is on)");
	return rows;
}
