#include "burst.h"

#include <math.h>
#include <string.h>

#include "rates.h"

/* The file bytes of the two youngest MGLRU generations and of the older
 * ones, from the generations where the sample has the right ones (own:
 * the run's memcg), else from the lists (the kernel's active(file) is the
 * two youngest). */
static void mglru_young_old(const struct sample *s, int cg, int gens, double *young, double *old)
{
	if (gens) {
		*young = (double)(s->gen_file[0] + s->gen_file[1]) * 4096.0;
		*old = (double)(s->gen_file[2] + s->gen_file[3]) * 4096.0;
	} else if (cg) {
		*young = (double)s->cg_active_file;
		*old = (double)s->cg_inactive_file;
	} else {
		*young = (double)s->active_file * 1024.0;
		*old = (double)s->inactive_file * 1024.0;
	}
}

static int mglru_burst(const struct sample *a, const struct sample *b, double dt)
{
	uint32_t both = a->have & b->have;
	int cg = (both & SAMPLE_HAVE_CG) && b->cg_limit;
	double size = cg ? (double)b->cg_limit : (double)b->mem_total * 1024.0;
	if (!cg && !(both & SAMPLE_HAVE_MEM))
		return 0;
	/* generations of the same scope as the chart: the run's memcg for a
	 * run's cgroup (of one run: another's memcg has other max_seq), the
	 * system's without */
	int gens = (both & SAMPLE_HAVE_GEN) && (cg ? (both & SAMPLE_HAVE_GEN_CG) && a->run == b->run
						   : !((a->have | b->have) & SAMPLE_HAVE_GEN_CG));
	double ya, oa, yb, ob;
	mglru_young_old(a, cg, gens, &ya, &oa);
	mglru_young_old(b, cg, gens, &yb, &ob);
	double fell = ya - yb;
	if (!(size > 0) || !(fell > 0) || fell / dt < BURST_MGLRU_PER_S * size)
		return 0;
	return gens ? b->gen_seq > a->gen_seq : ob - oa >= fell / 2;
}

int burst_between(const struct sample *a, const struct sample *b)
{
	if (!a || !b || b->t_ns <= a->t_ns)
		return 0;
	double dt = (double)(b->t_ns - a->t_ns) / 1e9;
	uint32_t both = a->have & b->have;
	if (both & SAMPLE_HAVE_MGLRU)
		return mglru_burst(a, b, dt);
	if ((both & SAMPLE_HAVE_CG) && b->cg_limit) {
		double limit_pages = (double)b->cg_limit / 4096.0;
		if (both & SAMPLE_HAVE_CG_DEACT) {
			int64_t d = rate_delta(a->cg_pgdeactivate, b->cg_pgdeactivate);
			return d > 0 && (double)d / dt >= BURST_PER_S * limit_pages;
		}
		/* v1: the cgroup's own lists (see burst.h for the figures). */
		if (b->cg_active_file >= a->cg_active_file)
			return 0;
		double fell = (double)(a->cg_active_file - b->cg_active_file);
		double grew = (double)b->cg_inactive_file - (double)a->cg_inactive_file;
		double limit = (double)b->cg_limit;
		double clean = (double)a->cg_active_file - (double)a->cg_dirty;
		return fell / dt >= BURST_PER_S * limit && clean >= BURST_V1_HELD * limit &&
		       grew >= fell / 2;
	}
	if (!(both & SAMPLE_HAVE_VM) || !(b->have & SAMPLE_HAVE_MEM))
		return 0;
	int64_t d = rate_delta(a->pgdeactivate, b->pgdeactivate);
	double watched_pages = (double)b->mem_total / 4.0;
	return d > 0 && watched_pages > 0 && (double)d / dt >= BURST_PER_S * watched_pages;
}

void burst_run_figures(const struct series *ser, uint64_t t_copy_ns, uint64_t t_flush_ns,
		       uint64_t t_end_ns, struct run_figures *r)
{
	if (!t_flush_ns || t_flush_ns > t_end_ns)
		t_flush_ns = t_end_ns;
	memset(r, 0, sizeof(*r));
	double sum[2] = {0, 0}, sq[2] = {0, 0}, at[2] = {0, 0}; /* read in burst / other */
	int n[2] = {0, 0}, nat[2] = {0, 0}; /* read / write samples */
	const struct sample *first = NULL, *last = NULL, *prev = NULL;
	uint64_t peak = 0;
	for (size_t i = 0; i < series_len(ser); i++) {
		const struct sample *b = series_at(ser, i);
		if (b->t_ns < t_copy_ns) {
			prev = b;
			continue;
		}
		if (b->t_ns > t_end_ns)
			break;
		if (!first)
			first = prev ? prev : b;
		last = b;
		uint64_t af = (b->have & SAMPLE_HAVE_CG) ? b->cg_active_file / 1024 : b->active_file;
		peak = af > peak ? af : peak;
		if (prev) {
			struct rates rt;
			double rd, wr; /* the run's own, from its cgroup where it can */
			rates_compute(prev, b, &rt);
			rates_run_io(prev, b, &rt, &rd, &wr);
			/* The CVs and rd@burst take whole intervals of the copy:
			 * one that began in the prepare phase (caches dropped,
			 * nothing read) or ended in lrutop's flush (reads done)
			 * would be a dip of lrutop's making in every strategy. */
			int whole = prev->t_ns >= t_copy_ns;
			int rd_ok = whole && b->t_ns <= t_flush_ns && !isnan(rd);
			if (rd_ok) {
				sum[0] += rd;
				sq[0] += rd * rd;
				n[0]++;
			}
			if (whole && !isnan(wr)) {
				sum[1] += wr;
				sq[1] += wr * wr;
				n[1]++;
			}
			int burst = burst_between(prev, b);
			r->bursts += burst;
			if (rd_ok) {
				at[!burst] += rd;
				nat[!burst]++;
			}
		}
		prev = b;
	}
	r->peak_active_file_kb = peak;
	r->read_cv = r->write_cv = NAN;
	r->read_at_burst = nat[0] && nat[1] && at[1] > 0
			       ? (at[0] / nat[0]) / (at[1] / nat[1]) : NAN;
	for (int k = 0; k < 2; k++) {
		if (n[k] < 2)
			continue;
		double mean = sum[k] / n[k];
		double var = sq[k] / n[k] - mean * mean;
		double cv = mean > 0 ? sqrt(var > 0 ? var : 0) / mean : NAN;
		if (k == 0)
			r->read_cv = cv;
		else
			r->write_cv = cv;
	}
	if (first && last && first != last) {
		int own = (first->have & last->have & SAMPLE_HAVE_CG_DEACT) != 0;
		int64_t d = own ? rate_delta(first->cg_pgdeactivate, last->cg_pgdeactivate)
				: rate_delta(first->pgdeactivate, last->pgdeactivate);
		int64_t f = rate_delta(first->refault_file, last->refault_file);
		r->pgdeactivate = d > 0 ? (uint64_t)d : 0;
		r->refault_file = f > 0 ? (uint64_t)f : 0;
	}
}
