/* The two table views: iostat (per device, like `iostat -dxm`) and vmstat
 * (one line per sample, like `vmstat -a`). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model/rates.h"
#include "base/util.h"
#include "screen/views.h"

static double per(double num, double den)
{
	return den > 0 ? num / den : 0;
}

static const struct disk_counters *find_dev(const struct disktab *t, const char *name)
{
	for (int i = 0; i < t->n; i++)
		if (strcmp(t->dev[i].name, name) == 0)
			return &t->dev[i];
	return NULL;
}

static int never_used(const struct disk_counters *d)
{
	return d->rd_ios == 0 && d->wr_ios == 0 && d->in_flight == 0;
}

static void iostat_row(const struct model *m, struct grid *g, int y, int compact,
		       const struct disk_counters *a, const struct disk_counters *b, double dt)
{
	double rio = rate_per_s(a->rd_ios, b->rd_ios, dt);
	double wio = rate_per_s(a->wr_ios, b->wr_ios, dt);
	double rmb = rate_sectors_mibs(a->rd_sectors, b->rd_sectors, dt);
	double wmb = rate_sectors_mibs(a->wr_sectors, b->wr_sectors, dt);
	double rrqm = rate_per_s(a->rd_merges, b->rd_merges, dt);
	double wrqm = rate_per_s(a->wr_merges, b->wr_merges, dt);
	double rawait = per((double)rate_delta(a->rd_ms, b->rd_ms),
			    (double)rate_delta(a->rd_ios, b->rd_ios));
	double wawait = per((double)rate_delta(a->wr_ms, b->wr_ms),
			    (double)rate_delta(a->wr_ios, b->wr_ios));
	double aqu = rate_per_s(a->weighted_ms, b->weighted_ms, dt) / 1000.0;
	double util = rate_per_s(a->io_ms, b->io_ms, dt) / 10.0;
	if (util > 100)
		util = 100;
	int watched = strcmp(b->name, m->disk) == 0;
	char name[20];
	snprintf(name, sizeof(name), "%s%.17s", b->is_disk ? "" : "  ", b->name);
	enum role role = watched ? ROLE_TITLE : ROLE_DEFAULT;
	if (compact) /* 80 columns: the merge columns go */
		grid_printf(g, 1, y, role, "%-12s %8.2f %8.2f %7.2f %8.2f %8.2f %7.2f %6.2f %5.1f",
			    name, rio, rmb, rawait, wio, wmb, wawait, aqu, util);
	else
		grid_printf(g, 1, y, role,
			    "%-12s %8.2f %8.2f %7.2f %7.2f %8.2f %8.2f %7.2f %7.2f %6.2f %5.1f", name,
			    rio, rmb, rrqm, rawait, wio, wmb, wrqm, wawait, aqu, util);
	if (watched)
		grid_text(g, 0, y, 1, ROLE_KEY, "\xe2\x96\xb8");
}

void iostat_draw(const struct model *m, const struct ui *u, struct grid *g, int y0, int h)
{
	static const char hdr[] = "Device            r/s    rMB/s  rrqm/s r_await      w/s"
				  "    wMB/s  wrqm/s w_await aqu-sz %util";
	static const char hdr_compact[] = "Device            r/s    rMB/s r_await      w/s"
					  "    wMB/s w_await aqu-sz %util";
	int compact = g->w < 96;
	int y = y0;
	char title[256];
	snprintf(title, sizeof(title),
		 "iostat -dxm: per device, over the last interval (\xe2\x96\xb8 watched: %s)",
		 m->disk_how[0] ? m->disk_how : "none");
	grid_text(g, 1, y++, -1, ROLE_TITLE, title);
	grid_text(g, 1, y++, -1, ROLE_AXIS, compact ? hdr_compact : hdr);
	if (m->disks_n < 2) {
		grid_text(g, 1, y, -1, ROLE_DIM, "waiting for a second sample...");
		return;
	}
	const struct disktab *cur = &m->disks[m->disks_cur], *prev = &m->disks[!m->disks_cur];
	double dt = (double)(cur->t_ns - prev->t_ns) / 1e9;
	if (dt <= 0)
		return;
	int hidden = 0, unused = 0;
	/* The watched disk first, then disks, then partitions (sampler order). */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < cur->n && y < y0 + h - 1; i++) {
			const struct disk_counters *b = &cur->dev[i], *a = find_dev(prev, b->name);
			int watched = strcmp(b->name, m->disk) == 0;
			if (!a || watched != (pass == 0))
				continue;
			if (!watched && !b->is_disk && !u->partitions) {
				hidden += pass;
				continue;
			}
			if (!watched && never_used(b)) {
				unused += pass;
				continue;
			}
			iostat_row(m, g, y++, compact, a, b, dt);
		}
	}
	char note[128] = "";
	if (hidden)
		snprintf(note, sizeof(note), "%d partition%s hidden (p shows them)", hidden,
			 hidden == 1 ? "" : "s");
	if (unused) {
		size_t l = strlen(note);
		snprintf(note + l, sizeof(note) - l, "%s%d never-used device%s not shown",
			 l ? "; " : "", unused, unused == 1 ? "" : "s");
	}
	if (note[0])
		grid_text(g, 1, y + 1, -1, ROLE_DIM, note);
}

/* Wide terminals get a time column and KiB (vmstat -a); below 100 columns
 * memory is in MiB (vmstat -a -S M) and the line fits 80 columns. */
static const char vm_hdr1[] = "        procs -----------------memory (KiB)------------ ---swap-- "
			      "-----io---- ---system-- -------cpu-------";
static const char vm_hdr2[] = "  time    r  b   swpd     free    inact   active   si   so    bi"
			      "    bo     in     cs  us  sy  id  wa  st";
static const char vm_hdr1c[] = "procs ------memory (MiB)------ ---swap-- -----io---- -system--"
			       " -------cpu------";
static const char vm_hdr2c[] = " r  b  swpd   free  inact active  si  so    bi    bo   in   cs"
			       " us sy  id wa st";

static long round_l(double v)
{
	return isnan(v) ? 0 : lround(v);
}

void vmstat_draw(const struct model *m, const struct ui *u, struct grid *g, int y0, int h)
{
	int compact = g->w < 100;
	int y = y0;
	grid_text(g, 0, y++, -1, ROLE_AXIS, compact ? vm_hdr1c : vm_hdr1);
	grid_text(g, 0, y++, -1, ROLE_AXIS, compact ? vm_hdr2c : vm_hdr2);
	int rows = h - 2;
	long end = view_end(m, u);
	uint64_t t_first = series_t(m->series, 0); /* a time: the rows read on */
	/* Newest line at the bottom once the page is full; until then the
	 * lines start at the top, as vmstat's own output does. */
	int lines = end < 1 ? 0 : end < rows ? (int)end : rows;
	for (int k = 0; k < lines; k++) {
		long idx = end - (lines - 1 - k);
		const struct sample *a = series_at(m->series, (size_t)idx - 1);
		const struct sample *b = series_at(m->series, (size_t)idx);
		struct rates r;
		rates_compute(a, b, &r);
		unsigned long long div = compact ? 1024 : 1;
		unsigned long long swpd = (b->swap_total - b->swap_free) / div;
		unsigned long long fr = b->mem_free / div, in = b->inactive / div,
				   ac = b->active / div;
		if (compact)
			grid_printf(g, 0, y + k, ROLE_DEFAULT,
				    "%2u %2u %5llu %6llu %6llu %6llu %3ld %3ld %5ld %5ld %4ld %4ld "
				    "%2ld %2ld %3ld %2ld %2ld",
				    b->procs_running, b->procs_blocked, swpd, fr, in, ac,
				    round_l(r.swpin_kbs), round_l(r.swpout_kbs),
				    round_l(r.pgpgin_kbs), round_l(r.pgpgout_kbs), round_l(r.intr_s),
				    round_l(r.ctxt_s), round_l(r.cpu_user), round_l(r.cpu_sys),
				    round_l(r.cpu_idle), round_l(r.cpu_iowait), round_l(r.cpu_steal));
		else
			grid_printf(g, 0, y + k, ROLE_DEFAULT,
				    "%6.1f %4u %2u %6llu %8llu %8llu %8llu %4ld %4ld %5ld %5ld %6ld "
				    "%6ld %3ld %3ld %3ld %3ld %3ld",
				    (double)(b->t_ns - t_first) / 1e9, b->procs_running,
				    b->procs_blocked, swpd, fr, in, ac, round_l(r.swpin_kbs),
				    round_l(r.swpout_kbs), round_l(r.pgpgin_kbs),
				    round_l(r.pgpgout_kbs), round_l(r.intr_s), round_l(r.ctxt_s),
				    round_l(r.cpu_user), round_l(r.cpu_sys), round_l(r.cpu_idle),
				    round_l(r.cpu_iowait), round_l(r.cpu_steal));
	}
}
