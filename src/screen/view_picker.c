/* The run picker overlay (key r): strategies to check, then repeat, source
 * size and memory limit; Enter queues the runs. */
#include <stdio.h>
#include <string.h>

#include "runs/strategy.h"
#include "base/util.h"
#include "screen/views.h"

const unsigned long long picker_sizes[] = {64ull << 20, 256ull << 20, 512ull << 20, 1ull << 30,
					   2ull << 30,	4ull << 30,   8ull << 30};
const unsigned long long picker_limits[] = {0, 32ull << 20, 64ull << 20, 128ull << 20,
					    256ull << 20, 512ull << 20, 1ull << 30};
const int picker_nsizes = (int)ARRAY_LEN(picker_sizes);
const int picker_nlimits = (int)ARRAY_LEN(picker_limits);

int picker_rows(void)
{
	return (int)strategy_count() + 3;
}

void view_picker(const struct model *m, const struct ui *u, struct grid *g)
{
	const struct picker *p = &u->picker;
	int ns = (int)strategy_count();
	int bw = g->w < 84 ? g->w - 2 : 82;
	int bh = ns + 3 + 5;
	if (bh > g->h - 1)
		bh = g->h - 1;
	int x0 = (g->w - bw) / 2, y0 = (g->h - bh) / 2;
	grid_box(g, x0, y0, bw, bh, "Pick runs");
	/* rows scroll so the cursor stays visible on a short terminal */
	int body = bh - 4, total = picker_rows();
	int first = p->cursor >= body ? p->cursor - body + 1 : 0;
	char buf[160];
	for (int row = first, y = y0 + 1; row < total && y < y0 + 1 + body; row++, y++) {
		enum role role = row == p->cursor ? ROLE_SELECT : ROLE_DEFAULT;
		if (row < ns) {
			const struct strategy *st = strategy_at((size_t)row);
			snprintf(buf, sizeof(buf), "[%c] %-16s %s", p->checked[row] ? 'x' : ' ',
				 st->name, st->what);
		} else if (row == ns) {
			snprintf(buf, sizeof(buf), "    repeat      \xe2\x86\x90 %d \xe2\x86\x92  (runs interleave: A B A B)",
				 p->repeat);
		} else if (row == ns + 1) {
			char sz[16];
			fmt_size(sz, sizeof(sz), picker_sizes[p->size_i]);
			if (m->runs.have_input)
				fmt_size(sz, sizeof(sz), m->runs.src_size);
			snprintf(buf, sizeof(buf), "    size        \xe2\x86\x90 %s \xe2\x86\x92%s", sz,
				 m->runs.have_input ? "  (source already made)"
								       : "  (scratch source)");
		} else {
			char sz[16] = "none";
			if (picker_limits[p->limit_i])
				fmt_size(sz, sizeof(sz), picker_limits[p->limit_i]);
			snprintf(buf, sizeof(buf), "    mem limit   \xe2\x86\x90 %s \xe2\x86\x92  (memory cgroup, root)", sz);
		}
		grid_fill(g, x0 + 1, y, bw - 2, 1, ' ', role);
		grid_text(g, x0 + 2, y, bw - 4, role, buf);
	}
	int n = 0;
	for (int i = 0; i < ns; i++)
		n += p->checked[i];
	snprintf(buf, sizeof(buf), "%d strateg%s x %d = %d runs", n, n == 1 ? "y" : "ies", p->repeat,
		 n * p->repeat);
	grid_text(g, x0 + 2, y0 + bh - 3, bw - 4, ROLE_TITLE, buf);
	grid_text(g, x0 + 2, y0 + bh - 2, bw - 4, ROLE_DIM,
		  "\xe2\x86\x91\xe2\x86\x93 move  space check  \xe2\x86\x90\xe2\x86\x92 change  "
		  "Enter start  Esc close");
}
