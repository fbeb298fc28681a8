#include "model/burst.h"

#include <math.h>
#include <string.h>

#include "model/rates.h"

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

uint64_t burst_window_ns(uint64_t read_ahead, uint64_t limit_bps)
{
	if (!read_ahead || !limit_bps)
		return 0;
	double w = (double)read_ahead / (double)limit_bps * 1e9;
	return w < 3600e9 ? (uint64_t)(w + 0.5) : 3600000000000ull;
}

/* A bucket of dt seconds, windows win_s apart: can a flat copy's count of
 * windows in it (floor(k) or ceil(k) of k = dt / win_s; under one window,
 * 0 or 1) spread by more than BURST_ALIAS_CV?  The measured times jitter,
 * so a sample a little short of a whole window is a whole window: its
 * spread is small by the same formula. */
static int bucket_long_enough(double dt, double win_s)
{
	if (!(win_s > 0))
		return 1;
	double k = dt / win_s;
	if (!(k > 0))
		return 0;
	double f = k - floor(k);
	return sqrt(f * (1 - f)) / k <= BURST_ALIAS_CV;
}

/* The buckets of one rate (reads or writes): the open one, the last closed
 * one held back (a short remainder joins it), and the closed ones' moments. */
struct buckets {
	double win_s;	/* the throttle's windows apart, s; 0: each interval a bucket */
	double mib, dt; /* open */
	int burst;
	double held_mib, held_dt;
	int held_burst, held;
	double sum, sq, dt_sum, at[2]; /* at: rates of buckets with a burst / the others */
	int n, nat[2];
};

static void buckets_count(struct buckets *k, double mib, double dt, int burst)
{
	double rate = mib / dt;
	k->sum += rate;
	k->sq += rate * rate;
	k->dt_sum += dt;
	k->n++;
	k->at[!burst] += rate;
	k->nat[!burst]++;
}

/* Closes the open bucket: the held one is counted, this one held. */
static void buckets_close(struct buckets *k)
{
	if (k->held)
		buckets_count(k, k->held_mib, k->held_dt, k->held_burst);
	k->held_mib = k->mib, k->held_dt = k->dt, k->held_burst = k->burst, k->held = 1;
	k->mib = k->dt = 0;
	k->burst = 0;
}

static void buckets_add(struct buckets *k, double mbs, double dt, int burst)
{
	k->mib += mbs * dt;
	k->dt += dt;
	k->burst |= burst;
	if (bucket_long_enough(k->dt, k->win_s))
		buckets_close(k);
}

static void buckets_finish(struct buckets *k)
{
	if (k->dt > 0 && k->held) { /* a remainder: into the last bucket */
		k->held_mib += k->mib, k->held_dt += k->dt, k->held_burst |= k->burst;
		k->mib = k->dt = 0;
	} else if (k->dt > 0) {
		buckets_close(k);
	}
	if (k->held)
		buckets_count(k, k->held_mib, k->held_dt, k->held_burst);
	k->held = 0;
}

static double buckets_cv(const struct buckets *k)
{
	if (k->n < 2)
		return NAN;
	double mean = k->sum / k->n;
	double var = k->sq / k->n - mean * mean;
	return mean > 0 ? sqrt(var > 0 ? var : 0) / mean : NAN;
}

void burst_run_figures(const struct series *ser, uint64_t t_copy_ns, uint64_t t_flush_ns,
		       uint64_t t_end_ns, struct run_figures *r)
{
	burst_run_figures_in(ser, t_copy_ns, t_flush_ns, t_end_ns, 0, r);
}

void burst_run_figures_in(const struct series *ser, uint64_t t_copy_ns, uint64_t t_flush_ns,
			  uint64_t t_end_ns, uint64_t window_ns, struct run_figures *r)
{
	if (!t_flush_ns || t_flush_ns > t_end_ns)
		t_flush_ns = t_end_ns;
	memset(r, 0, sizeof(*r));
	struct buckets bk[2]; /* reads, writes */
	memset(bk, 0, sizeof(bk));
	bk[0].win_s = bk[1].win_s = (double)window_ns / 1e9;
	/* indices, not pointers, for the ends: the walk reads on (series.h) */
	const struct sample *prev = NULL;
	long i_first = -1, i_last = -1;
	uint64_t peak = 0;
	for (size_t i = 0; i < series_len(ser); i++) {
		const struct sample *b = series_at(ser, i);
		if (b->t_ns < t_copy_ns) {
			prev = b;
			continue;
		}
		if (b->t_ns > t_end_ns)
			break;
		if (i_first < 0)
			i_first = prev ? (long)i - 1 : (long)i;
		i_last = (long)i;
		uint64_t af =
		    (b->have & SAMPLE_HAVE_CG) ? b->cg_active_file / 1024 : b->active_file;
		peak = af > peak ? af : peak;
		if (prev && b->t_ns > prev->t_ns) {
			struct rates rt;
			double rd, wr; /* the run's own, from its cgroup where it can */
			double dt = (double)(b->t_ns - prev->t_ns) / 1e9;
			rates_compute(prev, b, &rt);
			rates_run_io(prev, b, &rt, &rd, &wr);
			/* The CVs and rd@burst take whole intervals of the copy:
			 * one that began in the prepare phase (caches dropped,
			 * nothing read) or ended in lrutop's flush (reads done)
			 * would be a dip of lrutop's making in every strategy. */
			int whole = prev->t_ns >= t_copy_ns;
			int burst = burst_between(prev, b);
			r->bursts += burst;
			if (whole && b->t_ns <= t_flush_ns && !isnan(rd))
				buckets_add(&bk[0], rd, dt, burst);
			if (whole && !isnan(wr))
				buckets_add(&bk[1], wr, dt, burst);
		}
		prev = b;
	}
	buckets_finish(&bk[0]);
	buckets_finish(&bk[1]);
	r->peak_active_file_kb = peak;
	r->read_cv = buckets_cv(&bk[0]);
	r->write_cv = buckets_cv(&bk[1]);
	const double *at = bk[0].at;
	const int *nat = bk[0].nat;
	r->read_at_burst =
	    nat[0] && nat[1] && at[1] > 0 ? (at[0] / nat[0]) / (at[1] / nat[1]) : NAN;
	r->read_buckets = bk[0].n;
	r->bucket_s = bk[0].n ? bk[0].dt_sum / bk[0].n : NAN;
	if (i_first >= 0 && i_last > i_first) {
		const struct sample fs = *series_at(ser, (size_t)i_first), *first = &fs;
		const struct sample *last = series_at(ser, (size_t)i_last);
		int own = (first->have & last->have & SAMPLE_HAVE_CG_DEACT) != 0;
		int64_t d = own ? rate_delta(first->cg_pgdeactivate, last->cg_pgdeactivate)
				: rate_delta(first->pgdeactivate, last->pgdeactivate);
		int64_t f = rate_delta(first->refault_file, last->refault_file);
		r->pgdeactivate = d > 0 ? (uint64_t)d : 0;
		r->refault_file = f > 0 ? (uint64_t)f : 0;
	}
}
