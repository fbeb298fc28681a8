/* The Overview's half of the plot model (plot.h): the window, the columns,
 * the scales, the marks and ticks of a struct plot; plot_runs.c is the
 * Runs view's half. */
#include "model/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/model.h"
#include "model/phase.h"
#include "model/rates.h"
#include "base/util.h"

void plot_init(struct plot *p)
{
	memset(p, 0, sizeof(*p));
	p->end = -1;
	p->mem_unit = mem_unit_of(NAN);
}

/* The column buffers (ensure's); the marks are kept apart. */
static void free_columns(struct plot *p)
{
	free(p->lo);
	free(p->hi);
	free(p->v);
	free(p->old_v);
	free(p->key);
	free(p->old_key);
	free(p->tmp);
	free(p->from);
}

void plot_done(struct plot *p)
{
	free_columns(p);
	free(p->marks);
	plot_init(p);
}

/* Grows the buffers to n columns; the scales' state and the marks stay
 * (a resize must not reset the autoscale), the cache does not. */
static void ensure(struct plot *p, int n)
{
	if (n <= p->cap)
		return;
	free_columns(p);
	p->cap = n;
	p->lo = xmalloc(sizeof(long) * (size_t)n);
	p->hi = xmalloc(sizeof(long) * (size_t)n);
	p->v = xmalloc(sizeof(double) * PLOT_NSER * (size_t)n);
	p->old_v = xmalloc(sizeof(double) * PLOT_NSER * (size_t)n);
	p->key = xmalloc(sizeof(uint64_t) * 2 * (size_t)n);
	p->old_key = xmalloc(sizeof(uint64_t) * 2 * (size_t)n);
	p->tmp = xmalloc(sizeof(double) * 2 * (size_t)n);
	p->from = xmalloc(sizeof(int) * (size_t)n);
	p->old_valid = 0;
}

/* ---- the window ---------------------------------------------------------- */

/* The expected end of the runs: the finished ones' end, the current one's
 * from its progress (bytes left at its rate so far), the queued ones at
 * the mean duration of the runs so far. */
static uint64_t runs_expected_end(const struct model *m, uint64_t now)
{
	const struct runlog *l = m->log;
	const struct run_progress *p = &m->runs;
	double sum = 0;
	int nfin = 0;
	uint64_t end = now;
	for (size_t i = 0; i < l->nresults; i++) {
		const struct run_result *r = &l->results[i];
		if (r->finished && r->t_end_ns > r->t_start_ns) {
			sum += (double)(r->t_end_ns - r->t_start_ns);
			nfin++;
			end = r->t_end_ns > end ? r->t_end_ns : end;
		}
	}
	double mean = nfin ? sum / nfin : 0;
	/* all done: the window ends with the last run, so the picture of the
	 * runs stays put while the samples go on (f shows the live ones) */
	if (p->state == RUNS_FINISHED && nfin) {
		uint64_t last = 0;
		for (size_t i = 0; i < l->nresults; i++)
			last = l->results[i].t_end_ns > last ? l->results[i].t_end_ns : last;
		return last;
	}
	if (p->current >= 0 && (size_t)p->current < l->nresults) {
		const struct run_result *r = &l->results[p->current];
		uint64_t e = now;
		if (r->t_copy_ns && now > r->t_copy_ns && p->done > 0 && p->total > p->done) {
			double rate = (double)p->done / (double)(now - r->t_copy_ns);
			e = now + (uint64_t)((double)(p->total - p->done) / rate);
		} else if (mean > 0 && r->t_start_ns + (uint64_t)mean > now) {
			e = r->t_start_ns + (uint64_t)mean;
		}
		if (!(mean > 0) && e > r->t_start_ns)
			mean = (double)(e - r->t_start_ns);
		end = e > end ? e : end;
	}
	if (p->state != RUNS_FINISHED && p->queue_len > p->queue_next)
		end +=
		    (uint64_t)((double)(p->queue_len - p->queue_next) * (mean > 0 ? mean : 10e9));
	return end;
}

/* The fitted window's column, ns: the smallest step of a ladder of
 * 2^(1/16) from the interval that is at least need (the runs' span over
 * the columns), kept while it is under two steps above need.  The
 * expected end moves a little every tick; with the column and the
 * window's start (on a grid of whole columns) kept, the columns keep
 * their samples and only the newest are computed (the cache).  The runs
 * take up to 9 % less of the width than an exact fit would give. */
static uint64_t fit_col(struct plot *p, double interval, double need)
{
	if (!(need > 0))
		need = 1;
	if ((double)p->fit_col >= need && (double)p->fit_col < need * 1.0905) /* 2^(2/16) */
		return p->fit_col;
	double base = interval > 0 ? interval * 1e9 : 1e9;
	double c = base * exp2(ceil(16.0 * log2(need / base)) / 16.0);
	p->fit_col = (uint64_t)ceil(c < need ? need : c);
	return p->fit_col;
}

/* Which samples each of the n columns covers, ending at series index
 * `end`.  Fit (the default while runs are shown, not scrolled back): from
 * the first run's start to the runs' expected end, a sample stretched over
 * several columns or several in one (once the queue is done, the window
 * ends with the last run), at most as long as the history holds; else the
 * last n samples (zoom 0) or n·2^zoom. */
static void window(struct plot *p, const struct model *m, const struct plot_opts *o, long end,
		   int n)
{
	/* times, not pointers: the finds below read other blocks of the
	 * history (series.h) */
	uint64_t t_end = series_t(m->series, (size_t)end);
	uint64_t t_oldest = series_t(m->series, 0);
	p->fit = 0;
	if (!o->no_fit && !o->scrolled && m->runs.state != RUNS_NONE && m->log->nresults &&
	    m->log->results[0].t_start_ns) {
		uint64_t t0 = m->log->results[0].t_start_ns;
		uint64_t t1 = runs_expected_end(m, t_end);
		/* runs longer than the history holds (a day's replay: thousands
		 * of runs, an hour kept) would squeeze what is held into a
		 * sliver at the left: the window is then as long as the history,
		 * from its oldest sample (or the first run's start), and slides
		 * with it once it is full */
		uint64_t holds = (uint64_t)((double)series_capacity(m->series) * m->interval * 1e9);
		uint64_t from = t0 > t_oldest ? t0 : t_oldest;
		if (holds && t1 > from && t1 - from > holds) {
			t0 = from;
			t1 = from + holds;
		}
		/* a little margin on both sides, so the edges read */
		double span = (double)(t1 > t0 ? t1 - t0 : 1) * 1.04 + 1e9 * m->interval;
		t0 = t0 > (uint64_t)(span * 0.01) ? t0 - (uint64_t)(span * 0.01) : 0;
		if (t0 < t_oldest)
			t0 = t_oldest;
		if (t1 > t0) {
			uint64_t cw = fit_col(p, m->interval, span / n);
			p->fit = 1;
			p->t0_ns = t0 / cw * cw;
			p->col_ns = (double)cw;
		}
	}
	if (!p->fit && o->zoom == 0) {
		for (int i = 0; i < n; i++)
			p->lo[i] = p->hi[i] = end - (n - 1 - i) >= 0 ? end - (n - 1 - i) : -1;
		uint64_t t_f = p->lo[0] >= 0 ? series_t(m->series, (size_t)p->lo[0]) : t_oldest;
		p->col_ns = n > 1 ? (double)(t_end - t_f) / (p->lo[0] >= 0 ? n - 1 : end + 1) : 1e9;
		if (!(p->col_ns > 0))
			p->col_ns = m->interval * 1e9;
		p->t0_ns = t_end - (uint64_t)(p->col_ns * (n - 1));
		return;
	}
	if (!p->fit) {
		/* columns on a grid of whole col_ns since boot, the newest
		 * sample in the last: a window that moves on moves by whole
		 * columns, and each keeps its samples (the column cache) */
		double f = o->zoom > 0 ? (double)(1 << o->zoom) : 1.0 / (double)(1 << -o->zoom);
		uint64_t cw = (uint64_t)llround(m->interval * 1e9 * f);
		cw = cw ? cw : 1;
		uint64_t last = t_end / cw;
		p->col_ns = (double)cw;
		p->t0_ns = last >= (uint64_t)(n - 1) ? (last - (uint64_t)(n - 1)) * cw : 0;
	}
	long len = (long)series_len(m->series);
	long next = -2; /* series_find of the last column's end: this one's start */
	for (int i = 0; i < n; i++) {
		uint64_t a = p->t0_ns + (uint64_t)(p->col_ns * i);
		uint64_t b = p->t0_ns + (uint64_t)(p->col_ns * (i + 1));
		long lo = next != -2 ? next : series_find(m->series, a);
		long nb = series_find(m->series, b);
		next = nb;
		long hi = nb < 0 ? len - 1 : nb - 1;
		if (hi > end)
			hi = end;
		if (a > t_end || b <= t_oldest || hi < 0) {
			p->lo[i] = p->hi[i] = -1; /* the future, or before the history */
			continue;
		}
		if (lo < 0 || lo > hi)
			lo = hi; /* no sample in this column: the one before holds */
		p->lo[i] = lo;
		p->hi[i] = hi;
	}
}

/* ---- the columns --------------------------------------------------------- */

/* One column's values from the samples lo..hi (rates from the one before
 * lo to hi).  cg: memory of the run's cgroup (KiB), NAN where a sample has
 * none, so a chart never mixes two scales.  PLOT_G0..G3: MGLRU's
 * generations of the same scope — the run's memcg for cg, the system's
 * otherwise — NAN where the sample has none of that scope. */
static void column(struct plot *p, const struct series *ser, int i, int cg)
{
	long lo = p->lo[i], hi = p->hi[i];
	/* a copy: the burst walk below reads other blocks of the history */
	const struct sample bs = *series_at(ser, (size_t)hi), *b = &bs;
	const struct sample *a = lo >= 1 ? series_at(ser, (size_t)lo - 1) : NULL;
	struct rates r;
	rates_compute(a, b, &r);
	plot_col(p, PLOT_READ_DEV)[i] = r.read_mbs;
	plot_col(p, PLOT_WRITE_DEV)[i] = r.write_mbs;
	/* the run's own bytes: only in a run's samples with its cgroup's
	 * counters (writes on v2 only: v1 charges write-back to the root) */
	double rd = NAN, wr = NAN;
	if (b->run >= 0 && (b->have & SAMPLE_HAVE_CG_IO))
		rates_run_io(a, b, &r, &rd, &wr);
	plot_col(p, PLOT_READ_RUN)[i] = rd;
	plot_col(p, PLOT_WRITE_RUN)[i] = (b->have & SAMPLE_HAVE_CG_IO_WB) ? wr : NAN;
	plot_col(p, PLOT_DEACT)[i] = r.pgdeactivate_s;
	plot_col(p, PLOT_ACT)[i] = r.pgactivate_s;
	plot_col(p, PLOT_SCAN)[i] = r.pgscan_s;
	plot_col(p, PLOT_REFAULT)[i] = r.refault_file_s;
	plot_col(p, PLOT_DEACT_SCOPE)[i] = (a && (a->have & b->have & SAMPLE_HAVE_CG_DEACT))
					       ? r.cg_pgdeactivate_s
					       : r.pgdeactivate_s;
	/* copying: what the disk scale follows (never a prepare phase, nor
	 * the flush: its write-back burst is not the copy's rate) */
	plot_col(p, PLOT_COPY)[i] = b->run >= 0 && b->phase == PHASE_COPY ? 1.0 : 0.0;
	int burst = 0;
	for (long k = lo > 1 ? lo : 1; k <= hi && !burst; k++)
		burst = burst_between(series_at(ser, (size_t)k - 1), series_at(ser, (size_t)k));
	plot_col(p, PLOT_BURST)[i] = burst;
	uint32_t gbits = b->have & (SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG);
	int gens = cg ? (gbits & SAMPLE_HAVE_GEN_CG) != 0 : gbits == SAMPLE_HAVE_GEN;
	for (int k = 0; k < SAMPLE_GENS; k++) {
		double kib = k < b->gen_n ? (double)b->gen_file[k] * 4.0 : 0;
		plot_col(p, PLOT_G0 + k)[i] = gens ? kib : NAN;
	}
	if (cg) {
		int have = (b->have & SAMPLE_HAVE_CG) != 0;
		double used = have ? (double)b->cg_usage : 0;
		double file = have ? (double)b->cg_active_file + (double)b->cg_inactive_file : 0;
		plot_col(p, PLOT_AF)[i] = have ? (double)b->cg_active_file / 1024.0 : NAN;
		plot_col(p, PLOT_IF)[i] = have ? (double)b->cg_inactive_file / 1024.0 : NAN;
		plot_col(p, PLOT_ANON)[i] = have ? (used > file ? used - file : 0) / 1024.0 : NAN;
		plot_col(p, PLOT_FREE)[i] = have && b->cg_limit > b->cg_usage
						? (double)(b->cg_limit - b->cg_usage) / 1024.0
					    : have ? 0
						   : NAN;
		return;
	}
	int mem = (b->have & SAMPLE_HAVE_MEM) != 0;
	plot_col(p, PLOT_AF)[i] = mem ? (double)b->active_file : NAN;
	plot_col(p, PLOT_IF)[i] = mem ? (double)b->inactive_file : NAN;
	plot_col(p, PLOT_ANON)[i] = mem ? (double)(b->active_anon + b->inactive_anon) : NAN;
	plot_col(p, PLOT_FREE)[i] = mem ? (double)b->mem_free : NAN;
}

/* The last build's values and keys become the cache; this build writes
 * into the other buffers (a swap, no copy). */
static void rotate(struct plot *p)
{
	double *tv = p->old_v;
	p->old_v = p->v;
	p->v = tv;
	uint64_t *tk = p->old_key;
	p->old_key = p->key;
	p->key = tk;
}

/* The key of column i: the times of the samples its values read (the one
 * before lo, and hi).  0, 0 for a column without samples. */
static void column_key(const struct plot *p, const struct series *ser, int i, uint64_t *k)
{
	k[0] = p->lo[i] >= 1 ? series_t(ser, (size_t)p->lo[i] - 1) : 1;
	k[1] = p->hi[i] >= 0 ? series_t(ser, (size_t)p->hi[i]) : 0;
}

/* Rows [i, i + len) of every series: NAN (0 for PLOT_COPY and
 * PLOT_BURST), a column without samples. */
static void blank(struct plot *p, int i, int len)
{
	for (int s = 0; s < PLOT_NSER; s++) {
		double *v = plot_col(p, s) + i, x = s == PLOT_COPY || s == PLOT_BURST ? 0 : NAN;
		for (int k = 0; k < len; k++)
			v[k] = x;
	}
}

/* Every column's values: copied from the last build where its key is the
 * same (the window moved on by whole columns, or nothing changed), else
 * computed.  Keys grow with the column, so one pass over both finds them;
 * the copies go a run of consecutive columns at a time, one memcpy per
 * series (a moved window is one run: every column but the new ones). */
static void columns(struct plot *p, const struct series *ser, int cg)
{
	int n = p->n, j = 0;
	int reuse = p->old_valid && p->old_cg == cg;
	int *from = p->from; /* the old column, or COL_NEW, COL_EMPTY */
	enum { COL_NEW = -1, COL_EMPTY = -2 };
	rotate(p);
	p->computed = 0;
	const uint64_t *ok = p->old_key;
	for (int i = 0; i < n; i++) {
		uint64_t *k = p->key + 2 * i;
		column_key(p, ser, i, k);
		from[i] = p->hi[i] < 0 ? COL_EMPTY : COL_NEW;
		if (from[i] == COL_EMPTY || !reuse)
			continue;
		while (j < p->old_n &&
		       (ok[2 * j + 1] < k[1] || (ok[2 * j + 1] == k[1] && ok[2 * j] < k[0])))
			j++;
		if (j < p->old_n && ok[2 * j] == k[0] && ok[2 * j + 1] == k[1])
			from[i] = j;
	}
	for (int i = 0, e; i < n; i = e) {
		for (e = i + 1; e < n && (from[i] >= 0 ? from[e] == from[e - 1] + 1
						      : from[e] == from[i]);
		     e++)
			;
		if (from[i] == COL_EMPTY) {
			blank(p, i, e - i);
		} else if (from[i] >= 0) {
			for (int s = 0; s < PLOT_NSER; s++)
				memcpy(plot_col(p, s) + i,
				       p->old_v + (size_t)s * (size_t)p->cap + (size_t)from[i],
				       sizeof(double) * (size_t)(e - i));
		} else {
			for (int c = i; c < e; c++)
				column(p, ser, c, cg);
			p->computed += e - i;
		}
	}
	p->old_n = n;
	p->old_cg = cg;
	p->old_valid = 1;
}

/* ---- scales -------------------------------------------------------------- */

static double max_of(const double *v, int n)
{
	double mx = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]) && v[i] > mx)
			mx = v[i];
	return mx;
}

double plot_last(const struct plot *p, enum plot_series s)
{
	const double *v = plot_col(p, s);
	for (int i = p->n - 1; i >= 0; i--)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

/* The disk scale's level: the 98th percentile of the copy columns (all
 * columns when none is a copy), with a fifth of headroom. */
static double disk_level(struct plot *p, const double *v)
{
	double *tmp = p->tmp, *copyv = p->tmp + p->cap;
	int m = 0, n = p->n;
	const double *run = plot_col(p, PLOT_COPY);
	for (int i = 0; i < n; i++)
		if (run[i] > 0)
			copyv[m++] = v[i];
	double q = m ? chart_quantile(copyv, m, 0.98, tmp) : chart_quantile(v, n, 0.98, tmp);
	return q > 0 ? q * 1.2 : 0;
}

/* A reclaim series' level: with copy columns in the window, the 98th
 * percentile of their values with a fifth of headroom, or their peak
 * when that is lower (a scale no higher than what is drawn); without
 * copies the peak of all columns (the plain monitor's scale as before). */
static double reclaim_level(struct plot *p, const double *v)
{
	double *tmp = p->tmp, *copyv = p->tmp + p->cap;
	int m = 0;
	double peak = 0;
	const double *run = plot_col(p, PLOT_COPY);
	for (int i = 0; i < p->n; i++)
		if (run[i] > 0 && !isnan(v[i])) {
			copyv[m++] = v[i];
			peak = fmax(peak, v[i]);
		}
	if (!m)
		return max_of(v, p->n);
	return fmin(peak, chart_quantile(copyv, m, 0.98, tmp) * 1.2);
}

/* A scale from its autoscale state.  A frozen picture (paused, a replay
 * paused or at its end) is drawn again every tick: it takes the scale from
 * a copy of the state, so the shrink countdown does not run and the charts
 * stay as they were (on a speaker's last slide too). */
static double frozen_scale(struct autoscale *a, int frozen, int fine, double level, double floor)
{
	struct autoscale copy = *a, *s = frozen ? &copy : a;
	return fine ? autoscale_update_fine(s, level, floor, 40)
		    : autoscale_update(s, level, floor, 40);
}

static void scales(struct plot *p, int frozen, int disk_limited, double limit_mbs, int one_axis)
{
	int n = p->n;
	/* While runs are on screen the disk scale follows their copies: a
	 * burst outside them (a prepare phase writing back the scratch input
	 * at several GB/s into a VM host's cache) would otherwise flatten
	 * every copy.  And the 98th percentile, not the peak, with headroom:
	 * one spike clips at the top edge instead of setting the scale. */
	double dmax = disk_level(p, plot_col(p, PLOT_READ));
	double wmax = disk_level(p, plot_col(p, PLOT_WRITE));
	/* The run's own reads under --disk-limit: the throttle lets a
	 * read-ahead window through now and then (a sample at 3x the limit),
	 * and the sawtooth lives between 0 and the limit: the scale stays
	 * within twice the limit and those samples clip, marked. */
	if (p->own_read && limit_mbs > 0 && dmax > 2 * limit_mbs)
		dmax = 2 * limit_mbs;
	p->read_level = dmax;
	p->write_level = wmax;
	/* One scale while read and write are alike; each its own when one is
	 * twice the other (and until they come within 1.5x again, so the
	 * scales do not flip with every sample): under --disk-limit reads
	 * crawl at 32 MiB/s while buffered write-back (which v1 blkio does
	 * not throttle) bursts at 150, and one scale would put the read
	 * sawtooth in the bottom fifth of its half.  Under --disk-limit
	 * always: the two are different regimes by design.  Never for a
	 * renderer with one disk axis (the SVG: plot_src.one_disk_axis),
	 * whose scale and clipped columns are then the larger half's. */
	double hi = dmax > wmax ? dmax : wmax, lo = dmax > wmax ? wmax : dmax;
	int split = !one_axis && lo > 0 && (disk_limited || hi > (p->split_state ? 1.5 : 2.0) * lo);
	/* a half that gets (or loses) a scale of its own starts afresh: the
	 * other's level must not hold it up for the shrink's 40 ticks */
	if (!frozen && split != p->split_state) {
		memset(&p->as_read, 0, sizeof(p->as_read));
		memset(&p->as_write, 0, sizeof(p->as_write));
	}
	if (!frozen)
		p->split_state = split;
	p->split = split;
	/* The run's own bytes and the device's total are two quantities: when
	 * the main series turns from one to the other the scale starts
	 * afresh, so the device's reads before the first copy (a neighbour at
	 * 2 GB/s) do not hold it up for the shrink's 40 ticks. */
	struct autoscale fresh[2] = {{0, 0}, {0, 0}}, *as[2] = {&p->as_read, &p->as_write};
	int own[2] = {p->own_read, p->own_write};
	for (int k = 0; k < 2; k++)
		if (own[k] != p->own_state[k]) {
			if (frozen) {
				as[k] = &fresh[k];
			} else {
				memset(as[k], 0, sizeof(*as[k]));
				p->own_state[k] = own[k];
			}
		}
	double ds = frozen_scale(as[0], frozen, 1, split ? dmax : hi, 1.0);
	double ws = frozen_scale(as[1], frozen, 1, split ? wmax : hi, 1.0);
	if (!split)
		ws = ds = ds > ws ? ds : ws;
	if (p->own_read && limit_mbs > 0 && ds > 2 * limit_mbs)
		ds = 2 * limit_mbs; /* not the fine step above it either */
	p->read_max = ds;
	p->write_max = ws;

	/* The reclaim chart's levels: while copies are shown, robust levels
	 * of the copy columns (reclaim_level), so a flush or a drop_caches
	 * outside them, or one spike within, clips (marked) instead of
	 * flattening the bursts; without copies the peak, as before. */
	double rmax = 0;
	for (int s = PLOT_ACT; s <= PLOT_REFAULT; s++) {
		double v = reclaim_level(p, plot_col(p, s));
		rmax = v > rmax ? v : rmax;
	}
	p->reclaim_max = frozen_scale(&p->as_reclaim, frozen, 0, rmax, 10.0);
	/* deactivate, the signal that defines a burst, on a scale of its own
	 * (an area under the other lines): scan at 10M never flattens it */
	p->deact_max =
	    frozen_scale(&p->as_deact, frozen, 1, reclaim_level(p, plot_col(p, PLOT_DEACT)), 10.0);

	p->rate_lo = INFINITY;
	p->rate_hi = 0;
	p->nbursts = 0;
	for (int i = 0; i < n; i++) {
		double v[2] = {plot_col(p, PLOT_DEACT_SCOPE)[i], plot_col(p, PLOT_SCAN)[i]};
		for (int k = 0; k < 2; k++)
			if (!isnan(v[k]) && v[k] > 0) {
				p->rate_hi = fmax(p->rate_hi, v[k]);
				p->rate_lo = fmin(p->rate_lo, v[k]);
			}
		p->nbursts += plot_col(p, PLOT_BURST)[i] > 0;
	}
	p->gens = 0;
	for (int i = 0; i < n && !p->gens; i++)
		p->gens = !isnan(plot_col(p, PLOT_G0)[i]);
}

/* ---- marks --------------------------------------------------------------- */

/* The first valid column, and one past the last: the columns between
 * cover the samples in order. */
static void valid_range(const struct plot *p, int *a, int *b)
{
	int i = 0, j = p->n;
	while (i < j && p->lo[i] < 0)
		i++;
	while (j > i && p->lo[j - 1] < 0)
		j--;
	*a = i;
	*b = j;
}

/* The column that shows series index idx: the first whose samples reach
 * it; -1 when none does (before the first column's, or after the last). */
static int col_of_idx(const struct plot *p, long idx, int a, int b)
{
	int lo = a, hi = b;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (p->hi[mid] >= idx)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (lo >= b)
		return -1;
	return p->lo[lo] <= idx || lo > 0 ? lo : -1;
}

static void marks(struct plot *p, const struct plot_src *src)
{
	p->nmarks = 0;
	int a, b;
	valid_range(p, &a, &b);
	for (size_t i = 0; i < src->nevents && a < b; i++) {
		const struct run_event *e = &src->events[i];
		long idx = series_find(src->ser, e->t_ns);
		if (idx < 0)
			continue;
		int c = col_of_idx(p, idx, a, b);
		if (c < 0)
			continue;
		if (p->nmarks == p->markcap) { /* a new run's events: rare, not per tick */
			p->markcap = p->markcap ? 2 * p->markcap : 64;
			p->marks = xrealloc(p->marks, sizeof(*p->marks) * (size_t)p->markcap);
		}
		p->marks[p->nmarks++] = (struct plot_mark){e->t_ns, c, e->run, e->phase};
	}
}

/* ---- the time axis ------------------------------------------------------- */

static const int nice_steps[] = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200};

/* Ticks under the charts.  Fitted: seconds since the first run started
 * (0s 10s 20s).  Else seconds before the newest sample taken (not the
 * newest shown: paused and scrolled back, the labels say how far back the
 * shown samples are).  About one per 12 cells. */
static void ticks(struct plot *p, const struct series *ser, const struct runlog *log, int xdots)
{
	p->nticks = 0;
	const struct sample *live = series_back(ser, 0);
	int cw = xdots > 0 ? p->n / xdots : p->n;
	if (!live || !(p->col_ns > 0) || cw <= 0)
		return;
	double cell_s = p->col_ns * xdots / 1e9;
	double span = cell_s * cw;
	double want = span / ((double)cw / 12.0);
	int step = nice_steps[ARRAY_LEN(nice_steps) - 1];
	for (size_t i = 0; i < ARRAY_LEN(nice_steps); i++)
		if (nice_steps[i] >= want) {
			step = nice_steps[i];
			break;
		}
	uint64_t ref = p->fit ? log->results[0].t_start_ns : live->t_ns;
	for (long k = p->fit ? 0 : 1; k < 100000 && p->nticks < PLOT_MAX_TICKS; k++) {
		uint64_t off = (uint64_t)k * (uint64_t)step * 1000000000ull;
		if (!p->fit && off > ref)
			break;
		uint64_t t = p->fit ? ref + off : ref - off;
		if (p->fit && t > p->t0_ns + (uint64_t)(p->col_ns * cw * xdots))
			break;
		if (t < p->t0_ns) {
			if (p->fit)
				continue;
			break;
		}
		int cx = (int)((double)(t - p->t0_ns) / p->col_ns) / xdots;
		if (cx >= cw)
			continue;
		p->ticks[p->nticks++] = (struct plot_tick){cx, p->fit ? k * step : -k * step};
	}
}

/* ---- builds -------------------------------------------------------------- */

/* Everything a build keeps for the next, as a new plot has it: the
 * autoscales, the memory axis' step unit, the split and own-bytes states, the
 * fitted column, the column cache.  A paused replay's frames take their
 * scales from copies of the state (frozen_scale), so what the frames
 * played before a jump left there would otherwise hold every frame after
 * it: a paused Home's disk top the 500 the copies had set, not a new
 * plot's 1.5, for as long as it stays paused. */
static void fresh(struct plot *p)
{
	memset(&p->as_read, 0, sizeof(p->as_read));
	memset(&p->as_write, 0, sizeof(p->as_write));
	memset(&p->as_reclaim, 0, sizeof(p->as_reclaim));
	memset(&p->as_deact, 0, sizeof(p->as_deact));
	memset(&p->as_mem, 0, sizeof(p->as_mem));
	p->mem_step = 0;
	p->split_state = 0;
	p->own_state[0] = p->own_state[1] = 0;
	p->fit_col = 0;
	p->old_valid = 0;
}

/* The memory chart's scope: a run's cgroup while any shown sample has one
 * (so a finished run stays readable on its own scale), unless the system
 * was asked for.  Its top: the newest such sample's limit, else the
 * newest shown sample's MemTotal. */
static void scope(struct plot *p, const struct series *ser, int mem_system)
{
	uint64_t cg_limit = 0;
	for (int i = p->n - 1; i >= 0 && !mem_system && !cg_limit; i--) {
		/* (most windows have no run: their blocks are passed by packed) */
		const struct sample *s =
		    p->hi[i] >= 0 && series_may_have(ser, (size_t)p->hi[i], SAMPLE_HAVE_CG)
			? series_at(ser, (size_t)p->hi[i])
			: NULL;
		if (s && (s->have & SAMPLE_HAVE_CG))
			cg_limit = s->cg_limit;
	}
	p->cg = cg_limit != 0;
	const struct sample *now = p->end >= 0 ? series_at(ser, (size_t)p->end) : NULL;
	p->mem_total = p->cg				      ? (double)cg_limit / 1024.0
		       : now && (now->have & SAMPLE_HAVE_MEM) ? (double)now->mem_total
							      : NAN;
}

/* The largest limit (or MemTotal) of the samples shown, for a picture
 * that is drawn once (the export): its axis holds every run's. */
static void mem_peak(struct plot *p, const struct series *ser, size_t i0, size_t i1)
{
	p->mem_peak = 0;
	for (size_t k = i0; k <= i1; k++) {
		const struct sample *s = series_at(ser, k);
		if (p->cg && (s->have & SAMPLE_HAVE_CG) && s->cg_limit)
			p->mem_peak = fmax(p->mem_peak, (double)s->cg_limit / 1024.0);
		else if (!p->cg && (s->have & SAMPLE_HAVE_MEM))
			p->mem_peak = fmax(p->mem_peak, (double)s->mem_total);
	}
}

/* The disk halves' main series: the run's own bytes while some shown
 * column has them (the device's total is then drawn behind, and a
 * neighbour reading the same disk neither hides the run's sawtooth nor
 * sets the scale), else the device's.  Per build, not cached: whether a
 * column is the run's depends on the others. */
static void disk_main(struct plot *p)
{
	static const enum plot_series run[2] = {PLOT_READ_RUN, PLOT_WRITE_RUN},
				      dev[2] = {PLOT_READ_DEV, PLOT_WRITE_DEV},
				      out[2] = {PLOT_READ, PLOT_WRITE};
	int *own[2] = {&p->own_read, &p->own_write};
	for (int k = 0; k < 2; k++) {
		const double *rv = plot_col(p, run[k]);
		*own[k] = 0;
		for (int i = 0; i < p->n && !*own[k]; i++)
			*own[k] = !isnan(rv[i]);
		const double *src = *own[k] ? rv : plot_col(p, dev[k]);
		memcpy(plot_col(p, out[k]), src, sizeof(double) * (size_t)p->n);
	}
}

/* Columns whose value is above its chart's scale (clipped at the top
 * edge): the renderers mark them (the TUI an arrow, the SVG a wedge), so
 * a spike that does not set the scale is not hidden either. */
static void clipped(struct plot *p)
{
	const double *rd = plot_col(p, PLOT_READ), *wr = plot_col(p, PLOT_WRITE);
	double *cr = plot_col(p, PLOT_CLIP_READ), *cw = plot_col(p, PLOT_CLIP_WRITE),
	       *cc = plot_col(p, PLOT_CLIP_RECLAIM);
	p->nclip_read = p->nclip_write = p->nclip_reclaim = 0;
	for (int i = 0; i < p->n; i++) {
		cr[i] = p->read_max > 0 && rd[i] > p->read_max;
		cw[i] = p->write_max > 0 && wr[i] > p->write_max;
		cc[i] = 0;
		if (p->deact_max > 0 && plot_col(p, PLOT_DEACT)[i] > p->deact_max)
			cc[i] = 1 + PLOT_DEACT;
		for (int s = PLOT_ACT; s <= PLOT_REFAULT && !cc[i]; s++)
			if (p->reclaim_max > 0 && plot_col(p, s)[i] > p->reclaim_max)
				cc[i] = 1 + s;
		p->nclip_read += cr[i] > 0;
		p->nclip_write += cw[i] > 0;
		p->nclip_reclaim += cc[i] > 0;
	}
}

/* ---- the memory scale ---------------------------------------------------- */

/* Below these shares of its scope the stack is cut: the system's lists
 * and anon under half of MemTotal (a 24 GiB machine at rest holds 180 MiB
 * of them: a sliver of one row), a run's under an eighth of its limit (a
 * limit is the scale the run was given: the picture of the cgroup filling
 * it is the point, so it is kept unless almost nothing of it is used). */
#define MEM_CUT_SYSTEM 0.5
#define MEM_CUT_CG     0.125

/* The memory axis' top from total (the limit or MemTotal, KiB): total,
 * unless what the stack draws (active + inactive file + anon, or the
 * cgroup's other usage) stays under the share above; then a fine step
 * (1 1.5 2 3 4 5 6 8 ×10^k MiB, or GiB from a GiB up) above the largest
 * shown stack, with the autoscale's hysteresis so the axis does not
 * follow every tick, frozen while the picture is.  Free or headroom
 * above the top is left to the legend's number.  The axis' unit follows
 * its top (mem_unit_of: GiB from a GiB, as the steps), one for both
 * renderers. */
static void mem_scale(struct plot *p, int frozen, double total)
{
	p->mem_top = total;
	p->mem_cut = 0;
	p->mem_unit = mem_unit_of(total);
	if (isnan(total) || !(total > 0))
		return;
	const double *af = plot_col(p, PLOT_AF), *inf = plot_col(p, PLOT_IF),
		     *an = plot_col(p, PLOT_ANON);
	double used = 0;
	for (int i = 0; i < p->n; i++) {
		if (isnan(af[i]))
			continue;
		double u = af[i] + (isnan(inf[i]) ? 0 : inf[i]) + (isnan(an[i]) ? 0 : an[i]);
		used = fmax(used, u);
	}
	if (!(used > 0) || used >= total * (p->cg ? MEM_CUT_CG : MEM_CUT_SYSTEM))
		return;
	double unit = used * 1.05 >= 1000.0 * 1024 ? 1048576.0 : 1024.0;
	struct autoscale fresh = {0, 0}, *as = &p->as_mem;
	if (unit != p->mem_step) { /* a new unit: its steps start afresh */
		as = &fresh;
		if (!frozen) {
			memset(&p->as_mem, 0, sizeof(p->as_mem));
			p->mem_step = unit;
			as = &p->as_mem;
		}
	}
	double top = frozen_scale(as, frozen, 1, used / unit, 1.0) * unit;
	if (top < total) {
		p->mem_top = top;
		p->mem_cut = 1;
		p->mem_unit = mem_unit_of(top);
	}
}

static void finish(struct plot *p, const struct plot_src *src, int frozen, int mem_system)
{
	scope(p, src->ser, mem_system);
	columns(p, src->ser, p->cg);
	disk_main(p);
	scales(p, frozen, src->disk_limited, src->disk_limit_mbs, src->one_disk_axis);
	clipped(p);
	marks(p, src);
}

void plot_build(struct plot *p, const struct model *m, const struct plot_opts *o, long end, int n)
{
	ensure(p, n > 0 ? n : 1);
	if (o->jumps != p->jumps) { /* another history: nothing carries over */
		fresh(p);
		p->jumps = o->jumps;
	}
	p->n = n;
	p->end = end;
	p->nmarks = p->nticks = 0;
	if (end < 0 || n <= 0) {
		for (int i = 0; i < n; i++)
			p->lo[i] = p->hi[i] = -1;
		for (size_t i = 0; i < PLOT_NSER * (size_t)p->cap; i++)
			p->v[i] = NAN;
		p->cg = p->gens = p->nbursts = 0;
		p->mem_total = p->mem_top = NAN;
		p->mem_cut = 0;
		p->mem_unit = mem_unit_of(NAN);
		p->old_valid = 0;
		p->own_read = p->own_write = 0;
		scales(p, o->frozen, 0, 0, 0); /* the empty charts' floors */
		clipped(p);
		return;
	}
	window(p, m, o, end, n);
	struct plot_src src = {m->series,
			       m->log->events,
			       m->log->nevents,
			       m->log->results,
			       m->log->nresults,
			       m->log->disk_limit != 0,
			       (double)m->log->disk_limit / (1024.0 * 1024.0),
			       0}; /* the TUI: a disk half each */
	finish(p, &src, o->frozen, o->mem_system);
	mem_scale(p, o->frozen, p->mem_total);
	ticks(p, m->series, m->log, o->xdots > 0 ? o->xdots : 1);
}

void plot_build_samples(struct plot *p, const struct plot_src *src, size_t i0, size_t i1)
{
	int n = (int)(i1 - i0 + 1);
	ensure(p, n);
	p->n = n;
	p->end = (long)i1;
	p->fit = 0;
	for (int i = 0; i < n; i++)
		p->lo[i] = p->hi[i] = (long)i0 + i;
	p->t0_ns = series_t(src->ser, i0);
	p->col_ns = n > 1 ? (double)(series_t(src->ser, i1) - p->t0_ns) / (n - 1) : 1e9;
	fresh(p);
	finish(p, src, 0, 0);
	mem_peak(p, src->ser, i0, i1);
	mem_scale(p, 0, p->mem_peak > 0 ? p->mem_peak : NAN);
	p->nticks = 0;
}

/* ---- the export's time axis (Overview and Runs) ------------------------- */

int plot_time_ticks(double span_s, int want, double *secs, int max)
{
	double step = nice_ceil(span_s / want > 0 ? span_s / want : 1);
	int n = 0;
	for (int k = 0; k * step <= span_s * 1.0001 && n < max; k++)
		secs[n++] = k * step;
	if (!n && max > 0) /* a span that is not a number: the tick at 0 */
		secs[n++] = 0;
	return n;
}
