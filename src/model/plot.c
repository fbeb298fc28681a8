/* The Overview's half of the plot model (plot.h): the window, the columns,
 * the scales, the marks and ticks of a struct plot; plot_runs.c is the
 * Runs view's half.
 *
 * A build either moves the last build's window on (build_moved(): the
 * window slid by whole columns, so the rows slide by an offset, only the
 * new columns are computed, and the sets the scales are taken from lose
 * the columns that left and gain those that came, taken again whole only
 * when one of those reaches the top) or builds it from the column cache
 * (build_cached()).  Either gives what a build from nothing gives, column
 * for column and scale for scale (test_plot.c, test_overview.c). */
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
	p->moved = -1;
	p->cg_col = -1;
}

/* The column buffers (ensure's); the marks are kept apart. */
static void free_columns(struct plot *p)
{
	for (int b = 0; b < 2; b++) {
		free(p->vbuf[b]);
		free(p->kbuf[b]);
	}
	free(p->lobuf);
	free(p->hibuf);
	free(p->tmp);
	free(p->from);
}

void plot_done(struct plot *p)
{
	free_columns(p);
	free(p->marks);
	plot_init(p);
}

/* The window's pointers into the current buffer at its offset. */
static void place(struct plot *p)
{
	p->v = p->vbuf[p->cur] + p->off;
	p->key = p->kbuf[p->cur] + 2 * (size_t)p->off;
	p->lo = p->lobuf + p->off;
	p->hi = p->hibuf + p->off;
}

/* Grows the buffers to n columns (rows of 2n: room for the window to
 * slide n columns before it is moved back); the scales' state and the
 * marks stay (a resize must not reset the autoscale), the cache does not. */
static void ensure(struct plot *p, int n)
{
	if (n <= p->cap)
		return;
	free_columns(p);
	p->cap = n;
	p->stride = 2 * n;
	size_t st = (size_t)p->stride;
	for (int b = 0; b < 2; b++) {
		p->vbuf[b] = xmalloc(sizeof(double) * PLOT_NSER * st);
		p->kbuf[b] = xmalloc(sizeof(uint64_t) * 2 * st);
	}
	p->lobuf = xmalloc(sizeof(long) * st);
	p->hibuf = xmalloc(sizeof(long) * st);
	p->tmp = xmalloc(sizeof(double) * 2 * (size_t)n);
	p->from = xmalloc(sizeof(int) * (size_t)n);
	p->cur = p->off = 0;
	place(p);
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

/* The window's frame, ending at series index `end`.  Fit (the default
 * while runs are shown, not scrolled back): from the first run's start to
 * the runs' expected end, a sample stretched over several columns or
 * several in one (once the queue is done, the window ends with the last
 * run), at most as long as the history holds; or zoomed: n columns of
 * 2^zoom intervals.  Both are a grid of whole columns (t0_ns, col_ns set
 * here; returns 1).  Else (zoom 0) a sample a column, the last n: returns
 * 0, and window_axis() takes the times from the samples. */
static int window_frame(struct plot *p, const struct model *m, const struct plot_opts *o, long end,
			int n)
{
	/* times, not pointers: the finds read other blocks of the history
	 * (series.h) */
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
			return 1;
		}
	}
	if (o->zoom == 0)
		return 0;
	/* columns on a grid of whole col_ns since boot, the newest sample in
	 * the last: a window that moves on moves by whole columns, and each
	 * keeps its samples (the scroll, the column cache) */
	double f = o->zoom > 0 ? (double)(1 << o->zoom) : 1.0 / (double)(1 << -o->zoom);
	uint64_t cw = (uint64_t)llround(m->interval * 1e9 * f);
	cw = cw ? cw : 1;
	uint64_t last = t_end / cw;
	p->col_ns = (double)cw;
	p->t0_ns = last >= (uint64_t)(n - 1) ? (last - (uint64_t)(n - 1)) * cw : 0;
	return 1;
}

/* The samples columns [i0, i1) cover: a sample each (grid 0), or those
 * whose times fall in the column (the one before when none does). */
static void window_cols(struct plot *p, const struct series *ser, long end, int grid, int i0,
			int i1)
{
	int n = p->n;
	if (!grid) {
		for (int i = i0; i < i1; i++)
			p->lo[i] = p->hi[i] = end - (n - 1 - i) >= 0 ? end - (n - 1 - i) : -1;
		return;
	}
	uint64_t t_end = series_t(ser, (size_t)end), t_oldest = series_t(ser, 0);
	long len = (long)series_len(ser);
	long next = -2; /* series_find of the last column's end: this one's start */
	for (int i = i0; i < i1; i++) {
		uint64_t a = p->t0_ns + (uint64_t)(p->col_ns * i);
		uint64_t b = p->t0_ns + (uint64_t)(p->col_ns * (i + 1));
		long lo = next != -2 ? next : series_find(ser, a);
		long nb = series_find(ser, b);
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

/* A sample a column: the time a column stands for, from the samples. */
static void window_axis(struct plot *p, const struct model *m, long end)
{
	int n = p->n;
	uint64_t t_end = series_t(m->series, (size_t)end);
	uint64_t t_f =
	    p->lo[0] >= 0 ? series_t(m->series, (size_t)p->lo[0]) : series_t(m->series, 0);
	p->col_ns = n > 1 ? (double)(t_end - t_f) / (p->lo[0] >= 0 ? n - 1 : end + 1) : 1e9;
	if (!(p->col_ns > 0))
		p->col_ns = m->interval * 1e9;
	p->t0_ns = t_end - (uint64_t)(p->col_ns * (n - 1));
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

/* The key of column i: the times of the samples its values read (the one
 * before lo, and hi).  A column that starts at the history's oldest
 * sample has none before it (its rates are NAN, its burst walk starts at
 * lo): the time of lo, marked in the top bit — not a constant, as it was,
 * with which a column that lost its first sample to the history's start
 * kept the burst that sample had.  1, 0 for a column without samples. */
static void column_key(const struct plot *p, const struct series *ser, int i, uint64_t *k)
{
	long lo = p->lo[i];
	k[0] = lo >= 1	 ? series_t(ser, (size_t)lo - 1)
	       : lo == 0 ? series_t(ser, 0) | 1ull << 63
			 : 1;
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

/* Every column's values (a window that changed other than by moving on):
 * copied from the last build (ov, ok: its rows and keys) where the key is
 * the same, else computed.  Keys grow with the column, so one pass over
 * both finds them; the copies go a run of consecutive columns at a time,
 * one memcpy per series. */
static void columns(struct plot *p, const struct series *ser, int cg, const double *ov,
		    const uint64_t *ok)
{
	int n = p->n, j = 0;
	int reuse = p->old_valid && p->old_cg == cg;
	int *from = p->from; /* the old column, or COL_NEW, COL_EMPTY */
	enum { COL_NEW = -1, COL_EMPTY = -2 };
	p->computed = 0;
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
				       ov + (size_t)s * (size_t)p->stride + (size_t)from[i],
				       sizeof(double) * (size_t)(e - i));
		} else {
			for (int c = i; c < e; c++)
				column(p, ser, c, cg);
			p->computed += e - i;
		}
	}
}

/* ---- the window's sums --------------------------------------------------- */

/* The series each level is of (plot.h: PLOT_LV_*). */
static const enum plot_series lv_series[PLOT_LV_N] = {PLOT_READ, PLOT_WRITE, PLOT_DEACT,
						      PLOT_ACT,	 PLOT_SCAN,  PLOT_REFAULT};

/* A largest value from 0 on, and how many values are it. */
struct peak {
	double x;
	int n;
};

static void peak_see(struct peak *k, double x)
{
	if (x > k->x) {
		k->x = x;
		k->n = 1;
	} else if (x == k->x) {
		k->n++;
	}
}

/* k after the values rm counted at or above it left (at) and the values
 * of ad came: 0, or -1 when none of the largest is left (a pass finds the
 * next). */
static int peak_move(struct peak *k, int at, const struct peak *ad)
{
	if (ad->x > k->x) {
		*k = *ad;
		return 0;
	}
	k->n += -at + (ad->x == k->x ? ad->n : 0);
	return k->n > 0 || k->x == 0 ? 0 : -1; /* 0: the floor holds with none at it */
}

/* What a set of columns holds of the window's sums, counted against the
 * kept levels (their sets, q and peaks), rates and stack, so that a
 * window moved on takes the columns that left off and adds those that
 * came. */
struct sum {
	int copycols; /* PLOT_COPY columns */
	int ncopy[PLOT_LV_N], nall[PLOT_LV_N];
	/* of each level's set: values below its q, at or below, at or
	 * above its peak; the largest */
	int lt[PLOT_LV_N], le[PLOT_LV_N], top[PLOT_LV_N];
	struct peak max[PLOT_LV_N];
	int own[2], bursts, gens, clip[3];
	double rlo, rhi;  /* positive deactivate (scope) and scan: smallest, largest */
	int at_rate;	  /* those equal to the kept rate_lo or rate_hi */
	struct peak used; /* stacks of lists and anon */
	int at_used;	  /* stacks at or above the kept mem_used */
};

static void sum_init(struct sum *u)
{
	memset(u, 0, sizeof(*u));
	u->rlo = INFINITY;
}

/* A column's stack of lists and anon (KiB), for the memory axis' cut. */
static double stack_of(double af, double inf, double an)
{
	return af + (isnan(inf) ? 0 : inf) + (isnan(an) ? 0 : an);
}

/* Adds columns [a, b) of the rows at base (row s at base + s·stride). */
static void sum_cols(const struct plot *p, const double *base, int a, int b, struct sum *u)
{
	size_t st = (size_t)p->stride;
#define ROW(s) (base + (size_t)(s)*st)
	const double *copy = ROW(PLOT_COPY);
	for (int i = a; i < b; i++)
		u->copycols += copy[i] > 0;
	for (int k = 0; k < PLOT_LV_N; k++) {
		const struct plot_level *l = &p->lv[k];
		const double *v = ROW(lv_series[k]);
		for (int i = a; i < b; i++) {
			double x = v[i];
			if (isnan(x))
				continue;
			int c = copy[i] > 0;
			u->nall[k]++;
			u->ncopy[k] += c;
			if (l->copy && !c)
				continue;
			u->lt[k] += x < l->q;
			u->le[k] += x <= l->q;
			u->top[k] += x >= l->peak;
			peak_see(&u->max[k], x);
		}
	}
	const double *rr = ROW(PLOT_READ_RUN), *wr = ROW(PLOT_WRITE_RUN), *bu = ROW(PLOT_BURST),
		     *g0 = ROW(PLOT_G0), *ds = ROW(PLOT_DEACT_SCOPE), *sc = ROW(PLOT_SCAN),
		     *af = ROW(PLOT_AF), *inf = ROW(PLOT_IF), *an = ROW(PLOT_ANON);
	for (int i = a; i < b; i++) {
		u->own[0] += !isnan(rr[i]);
		u->own[1] += !isnan(wr[i]);
		u->bursts += bu[i] > 0;
		u->gens += !isnan(g0[i]);
		for (int c = 0; c < 3; c++)
			u->clip[c] += ROW(PLOT_CLIP_READ + c)[i] > 0;
		double x[2] = {ds[i], sc[i]};
		for (int k = 0; k < 2; k++)
			if (!isnan(x[k]) && x[k] > 0) {
				u->rlo = fmin(u->rlo, x[k]);
				u->rhi = fmax(u->rhi, x[k]);
				u->at_rate += x[k] == p->rate_lo || x[k] == p->rate_hi;
			}
		if (!isnan(af[i])) {
			double s = stack_of(af[i], inf[i], an[i]);
			peak_see(&u->used, s);
			u->at_used += s >= p->mem_used;
		}
	}
#undef ROW
}

/* Level k taken whole: its set (the copy columns' values; with copy -1,
 * those when any copy column has one; else every column's), its 98th
 * percentile and peak, and the counts that keep them. */
static void level_full(struct plot *p, int k, int copy)
{
	struct plot_level *l = &p->lv[k];
	const double *v = plot_col(p, lv_series[k]), *run = plot_col(p, PLOT_COPY);
	double *tmp = p->tmp, *set = p->tmp + p->cap;
	l->ncopy = l->nall = 0;
	for (int i = 0; i < p->n; i++)
		if (!isnan(v[i])) {
			l->nall++;
			l->ncopy += run[i] > 0;
		}
	l->copy = copy < 0 ? l->ncopy > 0 : copy;
	int m = 0;
	for (int i = 0; i < p->n; i++)
		if (!isnan(v[i]) && (!l->copy || run[i] > 0))
			set[m++] = v[i];
	l->q = m ? chart_quantile(set, m, 0.98, tmp) : -1;
	struct peak pk = {0, 0};
	l->lt = l->le = 0;
	for (int j = 0; j < m; j++) {
		l->lt += set[j] < l->q;
		l->le += set[j] <= l->q;
		peak_see(&pk, set[j]);
	}
	l->peak = pk.x;
	l->npeak = pk.n;
}

/* Level k after the columns counted in rm left and those in ad came
 * (copy: its set is now the copy columns'): 0 when its q and peak are
 * still the set's, -1 when it must be taken whole (a value at its top
 * left or came, the set changed kind). */
static int level_move(struct plot_level *l, int k, const struct sum *rm, const struct sum *ad,
		      int copy)
{
	int ncopy = l->ncopy - rm->ncopy[k] + ad->ncopy[k];
	int nall = l->nall - rm->nall[k] + ad->nall[k];
	if (copy != l->copy)
		return -1;
	int was = l->copy ? l->ncopy : l->nall, m = l->copy ? ncopy : nall;
	l->ncopy = ncopy;
	l->nall = nall;
	if (m == 0) {
		l->q = -1;
		l->lt = l->le = l->npeak = 0;
		l->peak = 0;
		return 0;
	}
	if (was == 0)
		return -1;
	/* q stays the set's nearest-rank 98th percentile (chart_quantile's
	 * rank) while the values below it and at it straddle that rank */
	int lt = l->lt - rm->lt[k] + ad->lt[k], le = l->le - rm->le[k] + ad->le[k];
	int r = (int)ceil(0.98 * m) - 1;
	r = r < 0 ? 0 : r >= m ? m - 1 : r;
	if (!(lt <= r && r < le))
		return -1;
	l->lt = lt;
	l->le = le;
	struct peak pk = {l->peak, l->npeak};
	if (peak_move(&pk, rm->top[k], &ad->max[k]) < 0)
		return -1;
	l->peak = pk.x;
	l->npeak = pk.n;
	return 0;
}

/* The disk scale's level: the 98th percentile of the copy columns (all
 * columns when none is a copy), with a fifth of headroom. */
static double disk_level(const struct plot_level *l)
{
	return l->q > 0 ? l->q * 1.2 : 0;
}

/* A reclaim series' level: with copy columns in the window, the 98th
 * percentile of their values with a fifth of headroom, or their peak
 * when that is lower (a scale no higher than what is drawn); without
 * copies the peak of all columns (the plain monitor's scale as before). */
static double reclaim_level(const struct plot_level *l)
{
	return l->copy ? fmin(l->peak, l->q * 1.2) : l->peak;
}

/* The smallest and largest positive deactivate (scope) and scan. */
static void rates_whole(struct plot *p)
{
	p->rate_lo = INFINITY;
	p->rate_hi = 0;
	for (int i = 0; i < p->n; i++) {
		double v[2] = {plot_col(p, PLOT_DEACT_SCOPE)[i], plot_col(p, PLOT_SCAN)[i]};
		for (int k = 0; k < 2; k++)
			if (!isnan(v[k]) && v[k] > 0) {
				p->rate_hi = fmax(p->rate_hi, v[k]);
				p->rate_lo = fmin(p->rate_lo, v[k]);
			}
	}
}

/* The largest stack the memory chart draws (mem_scale()). */
static void used_whole(struct plot *p)
{
	const double *af = plot_col(p, PLOT_AF), *inf = plot_col(p, PLOT_IF),
		     *an = plot_col(p, PLOT_ANON);
	struct peak u = {0, 0};
	for (int i = 0; i < p->n; i++)
		if (!isnan(af[i]))
			peak_see(&u, stack_of(af[i], inf[i], an[i]));
	p->mem_used = u.x;
	p->nused = u.n;
}

/* Every sum of the window from its columns. */
static void sums_whole(struct plot *p)
{
	const double *copy = plot_col(p, PLOT_COPY);
	p->ncopycols = 0;
	for (int i = 0; i < p->n; i++)
		p->ncopycols += copy[i] > 0;
	for (int k = 0; k < PLOT_LV_N; k++)
		level_full(p, k, k <= PLOT_LV_WRITE ? p->ncopycols > 0 : -1);
	p->nbursts = p->ngens = 0;
	for (int i = 0; i < p->n; i++) {
		p->nbursts += plot_col(p, PLOT_BURST)[i] > 0;
		p->ngens += !isnan(plot_col(p, PLOT_G0)[i]);
	}
	p->gens = p->ngens > 0;
	rates_whole(p);
	used_whole(p);
}

/* The sums after the columns counted in rm left and those in ad came:
 * each taken whole only where the move cannot say (disk_whole: the disk
 * halves' rows were replaced). */
static void sums_move(struct plot *p, const struct sum *rm, const struct sum *ad, int disk_whole)
{
	p->ncopycols += -rm->copycols + ad->copycols;
	for (int k = 0; k < PLOT_LV_N; k++) {
		struct plot_level *l = &p->lv[k];
		int copy = k <= PLOT_LV_WRITE ? p->ncopycols > 0
					      : l->ncopy - rm->ncopy[k] + ad->ncopy[k] > 0;
		if ((disk_whole && k <= PLOT_LV_WRITE) || level_move(l, k, rm, ad, copy) < 0)
			level_full(p, k, copy);
	}
	p->nbursts += -rm->bursts + ad->bursts;
	p->ngens += -rm->gens + ad->gens;
	p->gens = p->ngens > 0;
	if (rm->at_rate) {
		rates_whole(p);
	} else {
		p->rate_lo = fmin(p->rate_lo, ad->rlo);
		p->rate_hi = fmax(p->rate_hi, ad->rhi);
	}
	struct peak u = {p->mem_used, p->nused};
	if (peak_move(&u, rm->at_used, &ad->used) < 0) {
		used_whole(p);
	} else {
		p->mem_used = u.x;
		p->nused = u.n;
	}
}

/* ---- scales -------------------------------------------------------------- */

double plot_last(const struct plot *p, enum plot_series s)
{
	const double *v = plot_col(p, s);
	for (int i = p->n - 1; i >= 0; i--)
		if (!isnan(v[i]))
			return v[i];
	return NAN;
}

/* A scale from its autoscale state.  A frozen picture (paused, a replay
 * paused or at its end) is drawn again every tick: it takes the scale from
 * a copy of the state, so the shrink countdown does not run and the charts
 * stay as they were (on a speaker's last slide too).  seen (NULL: none)
 * keeps the level the state was last stepped with: the same level again,
 * neither growing the scale nor counting down to a shrink, leaves the
 * state as it is, so the step (a pow and two log10s) is left out — as for
 * most windows that moved on. */
static double frozen_scale(struct autoscale *a, double *seen, int frozen, int fine, double level,
			   double floor)
{
	double s = level > floor ? level : floor; /* autoscale_update's */
	if (seen && a->max > 0 && s == *seen && !(s < 0.4 * a->max)) {
		if (!frozen)
			a->low_ticks = 0;
		return a->max;
	}
	struct autoscale copy = *a, *st = frozen ? &copy : a;
	double r = fine ? autoscale_update_fine(st, level, floor, 40)
			: autoscale_update(st, level, floor, 40);
	if (seen && !frozen)
		*seen = s;
	return r;
}

/* The scales from the window's levels (sums_whole, sums_move). */
static void scales(struct plot *p, int frozen, int disk_limited, double limit_mbs, int one_axis)
{
	/* While runs are on screen the disk scale follows their copies: a
	 * burst outside them (a prepare phase writing back the scratch input
	 * at several GB/s into a VM host's cache) would otherwise flatten
	 * every copy.  And the 98th percentile, not the peak, with headroom:
	 * one spike clips at the top edge instead of setting the scale. */
	double dmax = disk_level(&p->lv[PLOT_LV_READ]);
	double wmax = disk_level(&p->lv[PLOT_LV_WRITE]);
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
	double ds = frozen_scale(as[0], as[0] == &fresh[0] ? NULL : &p->as_seen[0], frozen, 1,
				 split ? dmax : hi, 1.0);
	double ws = frozen_scale(as[1], as[1] == &fresh[1] ? NULL : &p->as_seen[1], frozen, 1,
				 split ? wmax : hi, 1.0);
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
	for (int k = PLOT_LV_ACT; k <= PLOT_LV_REFAULT; k++) {
		double v = reclaim_level(&p->lv[k]);
		rmax = v > rmax ? v : rmax;
	}
	p->reclaim_max = frozen_scale(&p->as_reclaim, &p->as_seen[2], frozen, 0, rmax, 10.0);
	/* deactivate, the signal that defines a burst, on a scale of its own
	 * (an area under the other lines): scan at 10M never flattens it */
	p->deact_max = frozen_scale(&p->as_deact, &p->as_seen[3], frozen, 1,
				    reclaim_level(&p->lv[PLOT_LV_DEACT]), 10.0);
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
 * was asked for.  cg_find: the newest column of [from, to) whose sample
 * has one (cg_col), its limit; 0 when none. */
static uint64_t cg_find(struct plot *p, const struct series *ser, int from, int to)
{
	for (int i = to - 1; i >= from; i--) {
		/* (most windows have no run: their blocks are passed by packed) */
		if (p->hi[i] < 0 || !series_may_have(ser, (size_t)p->hi[i], SAMPLE_HAVE_CG))
			continue;
		const struct sample *s = series_at(ser, (size_t)p->hi[i]);
		if ((s->have & SAMPLE_HAVE_CG) && s->cg_limit) {
			p->cg_col = i;
			return s->cg_limit;
		}
	}
	return 0;
}

/* The scope from the limit cg_find gave.  Its top: that limit, else the
 * newest shown sample's MemTotal. */
static void scope_set(struct plot *p, const struct series *ser, uint64_t cg_limit)
{
	p->cg = cg_limit != 0;
	p->cg_limit = cg_limit;
	if (!p->cg)
		p->cg_col = -1;
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
 * sets the scale), else the device's.  Whether a column is the run's
 * depends on the others: nown counts the columns with own bytes, and a
 * window moved on copies the new columns' (returns 0) unless the main
 * series changed, when every column's is copied (returns 1).  The columns
 * that came: [0, h) and [t, n); rm: the columns that left (whole: all
 * columns from nothing, h = t = 0 with rm NULL). */
static int disk_main(struct plot *p, const struct sum *rm, int h, int t)
{
	static const enum plot_series run[2] = {PLOT_READ_RUN, PLOT_WRITE_RUN},
				      dev[2] = {PLOT_READ_DEV, PLOT_WRITE_DEV},
				      out[2] = {PLOT_READ, PLOT_WRITE};
	int *own[2] = {&p->own_read, &p->own_write}, whole = !rm, n = p->n;
	for (int k = 0; k < 2; k++) {
		const double *rv = plot_col(p, run[k]);
		int c = rm ? p->nown[k] - rm->own[k] : 0;
		for (int i = 0; i < h; i++)
			c += !isnan(rv[i]);
		for (int i = t; i < n; i++)
			c += !isnan(rv[i]);
		p->nown[k] = c;
		const double *src = c > 0 ? rv : plot_col(p, dev[k]);
		double *dst = plot_col(p, out[k]);
		if (!rm || (c > 0) != *own[k]) {
			*own[k] = c > 0;
			whole = 1;
			memcpy(dst, src, sizeof(double) * (size_t)n);
		} else {
			memcpy(dst, src, sizeof(double) * (size_t)h);
			memcpy(dst + t, src + t, sizeof(double) * (size_t)(n - t));
		}
	}
	return whole;
}

/* Column i's marks for a value above its chart's scale (clipped at the
 * top edge): the renderers mark them (the TUI an arrow, the SVG a wedge),
 * so a spike that does not set the scale is not hidden either. */
static void clip_col(struct plot *p, int i)
{
	double *cr = plot_col(p, PLOT_CLIP_READ), *cw = plot_col(p, PLOT_CLIP_WRITE),
	       *cc = plot_col(p, PLOT_CLIP_RECLAIM);
	cr[i] = p->read_max > 0 && plot_col(p, PLOT_READ)[i] > p->read_max;
	cw[i] = p->write_max > 0 && plot_col(p, PLOT_WRITE)[i] > p->write_max;
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

static void clipped(struct plot *p)
{
	p->nclip_read = p->nclip_write = p->nclip_reclaim = 0;
	for (int i = 0; i < p->n; i++)
		clip_col(p, i);
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
 * cgroup's other usage: mem_used) stays under the share above; then a
 * fine step (1 1.5 2 3 4 5 6 8 ×10^k MiB, or GiB from a GiB up) above the
 * largest shown stack, with the autoscale's hysteresis so the axis does
 * not follow every tick, frozen while the picture is.  Free or headroom
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
	double used = p->mem_used;
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
	double top =
	    frozen_scale(as, as == &fresh ? NULL : &p->as_seen[4], frozen, 1, used / unit, 1.0) *
	    unit;
	if (top < total) {
		p->mem_top = top;
		p->mem_cut = 1;
		p->mem_unit = mem_unit_of(top);
	}
}

/* ---- a window from the cache, a window moved on ------------------------- */

/* A build from the column cache (ov, ok: the last build's rows and keys):
 * scope, columns, the disk halves, the sums, scales, clipped columns,
 * marks — each over the whole window. */
static void finish(struct plot *p, const struct plot_src *src, int frozen, int mem_system,
		   const double *ov, const uint64_t *ok)
{
	p->cg_col = -1;
	scope_set(p, src->ser, mem_system ? 0 : cg_find(p, src->ser, 0, p->n));
	columns(p, src->ser, p->cg, ov, ok);
	disk_main(p, NULL, 0, 0);
	sums_whole(p);
	scales(p, frozen, src->disk_limited, src->disk_limit_mbs, src->one_disk_axis);
	clipped(p);
	marks(p, src);
	p->moved = -1;
	p->head = p->tail = 0;
}

/* A window that changed other than by moving on (its size, zoom, fit,
 * scope; the first build): into the other buffer from its start, so the
 * last build's rows stay for the cache. */
static void build_cached(struct plot *p, const struct model *m, const struct plot_opts *o,
			 const struct plot_src *src, long end, int grid)
{
	const double *ov = p->v;
	const uint64_t *ok = p->key;
	p->cur = !p->cur;
	p->off = 0;
	place(p);
	window_cols(p, m->series, end, grid, 0, p->n);
	finish(p, src, o->frozen, o->mem_system, ov, ok);
}

/* By how many columns the window moved on since the last build, when
 * nothing else changed (the history — its sample there is the same —,
 * the columns' count, kind and width, the scope asked for): 0 <= k < n,
 * and *d the samples the history dropped since; -1 otherwise.  The
 * frame (fit, t0_ns, col_ns) is this build's (window_frame). */
static int scroll_by(const struct plot *p, const struct series *ser, long end, int n, int grid,
		     int mem_system, long *d)
{
	if (!p->old_valid || p->old_ser != ser || n != p->old_n || grid != p->old_grid ||
	    mem_system != p->old_mem_system)
		return -1;
	unsigned long long base = series_pushed(ser) - series_len(ser);
	if (base < p->old_base || p->old_end < base)
		return -1;
	unsigned long long idx = p->old_end - base;
	if (idx > (unsigned long long)end || series_t(ser, (size_t)idx) != p->old_t_end)
		return -1; /* the end moved back, or another history */
	long long k;
	if (grid) {
		uint64_t cw = (uint64_t)p->col_ns;
		if (p->fit != p->old_fit || p->col_ns != p->old_col_ns || p->t0_ns < p->old_t0 ||
		    !cw || (p->t0_ns - p->old_t0) % cw)
			return -1;
		k = (long long)((p->t0_ns - p->old_t0) / cw);
	} else {
		k = (long long)(base + (unsigned long long)end) - (long long)p->old_end;
	}
	if (k < 0 || k >= n)
		return -1;
	*d = (long)(base - p->old_base);
	return (int)k;
}

/* The window moved on by k columns, the history by d samples dropped: the
 * rows slide (the offset), the columns that came and the last build's
 * that have more samples now ([t, n)) or lost some to the history's start
 * ([0, h)) are computed, the rest are the last build's; the sums lose
 * what the columns that went held and gain the new columns', and each
 * scale's set is taken whole only when its top moved.  -1 when the
 * memory chart's scope changed (every column again: build_cached). */
static int build_moved(struct plot *p, const struct model *m, const struct plot_opts *o,
		       const struct plot_src *src, long end, int k, long d, int grid)
{
	const struct series *ser = m->series;
	int n = p->n, t = n - k, h = 0;
	if (grid) { /* the column the last build's newest sample is in, and on */
		uint64_t cw = (uint64_t)p->col_ns;
		uint64_t e = p->old_t_end >= p->t0_ns ? (p->old_t_end - p->t0_ns) / cw : 0;
		t = e < (uint64_t)t ? (int)e : t;
	}
	if (d > 0) /* the columns whose samples, or the one before them, left */
		for (int i = 0; i < t; i++) {
			long lo = p->lo[i + k]; /* still the last build's */
			if (p->hi[i + k] < 0)
				continue;
			if (lo - d > 0)
				break;
			h = i + 1;
		}
	struct sum rm, ad;
	sum_init(&rm);
	sum_init(&ad);
	sum_cols(p, p->v, 0, k + h, &rm);
	sum_cols(p, p->v, t + k, n, &rm);
	const double was[4] = {p->read_max, p->write_max, p->reclaim_max, p->deact_max};

	/* the rows slide; at the end of their room the window goes back to
	 * its start, once every n columns or so */
	p->off += k;
	if (p->off + n > p->stride) {
		size_t keep = (size_t)(n - k), st = (size_t)p->stride, at = (size_t)p->off;
		double *vb = p->vbuf[p->cur];
		for (size_t s = 0; s < PLOT_NSER; s++)
			memmove(vb + s * st, vb + s * st + at, keep * sizeof(double));
		memmove(p->kbuf[p->cur], p->kbuf[p->cur] + 2 * at, 2 * keep * sizeof(uint64_t));
		memmove(p->lobuf, p->lobuf + at, keep * sizeof(long));
		memmove(p->hibuf, p->hibuf + at, keep * sizeof(long));
		p->off = 0;
	}
	place(p);
	for (int i = h; i < t && d > 0; i++)
		if (p->hi[i] >= 0) {
			p->lo[i] -= d;
			p->hi[i] -= d;
		}
	window_cols(p, ser, end, grid, 0, h);
	window_cols(p, ser, end, grid, t, n);

	/* the scope: a new column's run, else the last build's newest one's
	 * while it is shown, else the others' */
	uint64_t lim = 0;
	if (!o->mem_system && p->old_cg) {
		int j = p->cg_col - k;
		if (!(lim = cg_find(p, ser, t, n)) && j >= h && j < t) {
			lim = p->cg_limit;
			p->cg_col = j;
		} else if (!lim) {
			lim = cg_find(p, ser, 0, t);
		}
	} else if (!o->mem_system) {
		lim = cg_find(p, ser, t, n);
	}
	if ((lim != 0) != p->old_cg)
		return -1;
	scope_set(p, ser, lim);

	p->computed = 0;
	for (int i = 0; i < h; i++) {
		column_key(p, ser, i, p->key + 2 * i);
		if (p->hi[i] < 0) {
			blank(p, i, 1);
		} else {
			column(p, ser, i, p->cg);
			p->computed++;
		}
	}
	for (int i = t; i < n; i++) {
		uint64_t key[2], *kk = p->key + 2 * i;
		column_key(p, ser, i, key);
		/* the last build's column here with the same samples, or an
		 * empty one repeating the column before: copied */
		int same = i < n - k && kk[0] == key[0] && kk[1] == key[1];
		int again = i > 0 && p->hi[i - 1] >= 0 && kk[-2] == key[0] && kk[-1] == key[1];
		kk[0] = key[0];
		kk[1] = key[1];
		if (p->hi[i] < 0) {
			blank(p, i, 1);
		} else if (again && !same) {
			for (int s = 0; s < PLOT_NSER; s++)
				plot_col(p, s)[i] = plot_col(p, s)[i - 1];
		} else if (!same) {
			column(p, ser, i, p->cg);
			p->computed++;
		}
	}

	int disk_whole = disk_main(p, &rm, h, t);
	sum_cols(p, p->v, 0, h, &ad);
	sum_cols(p, p->v, t, n, &ad);
	sums_move(p, &rm, &ad, disk_whole);
	scales(p, o->frozen, src->disk_limited, src->disk_limit_mbs, src->one_disk_axis);
	if (disk_whole || was[0] != p->read_max || was[1] != p->write_max ||
	    was[2] != p->reclaim_max || was[3] != p->deact_max) {
		clipped(p);
	} else { /* the same scales: only the new columns' marks */
		p->nclip_read -= rm.clip[0];
		p->nclip_write -= rm.clip[1];
		p->nclip_reclaim -= rm.clip[2];
		for (int i = 0; i < h; i++)
			clip_col(p, i);
		for (int i = t; i < n; i++)
			clip_col(p, i);
	}
	marks(p, src);
	p->moved = k;
	p->head = h;
	p->tail = t;
	return 0;
}

/* What the next build compares its window with (scroll_by). */
static void remember(struct plot *p, const struct series *ser, long end, int grid, int mem_system)
{
	p->old_ser = ser;
	p->old_base = series_pushed(ser) - series_len(ser);
	p->old_end = p->old_base + (unsigned long long)end;
	p->old_t_end = series_t(ser, (size_t)end);
	p->old_t0 = p->t0_ns;
	p->old_col_ns = p->col_ns;
	p->old_n = p->n;
	p->old_cg = p->cg;
	p->old_grid = grid;
	p->old_fit = p->fit;
	p->old_mem_system = mem_system;
	p->old_valid = 1;
}

void plot_build(struct plot *p, const struct model *m, const struct plot_opts *o, long end, int n)
{
	ensure(p, n > 0 ? n : 1);
	p->builds++;
	if (o->jumps != p->jumps) { /* another history: nothing carries over */
		fresh(p);
		p->jumps = o->jumps;
	}
	p->n = n;
	p->end = end;
	p->nmarks = p->nticks = 0;
	if (end < 0 || n <= 0) {
		p->off = 0;
		place(p);
		for (int i = 0; i < n; i++)
			p->lo[i] = p->hi[i] = -1;
		for (int s = 0; s < PLOT_NSER; s++)
			for (int i = 0; i < p->cap; i++)
				plot_col(p, s)[i] = NAN;
		p->cg = 0;
		p->cg_col = -1;
		p->mem_total = p->mem_top = NAN;
		p->mem_cut = 0;
		p->mem_unit = mem_unit_of(NAN);
		p->old_valid = 0;
		p->own_read = p->own_write = p->nown[0] = p->nown[1] = 0;
		sums_whole(p); /* of no column: the empty charts' floors */
		scales(p, o->frozen, 0, 0, 0);
		clipped(p);
		p->moved = -1;
		return;
	}
	int grid = window_frame(p, m, o, end, n);
	struct plot_src src = {m->series,
			       m->log->events,
			       m->log->nevents,
			       m->log->results,
			       m->log->nresults,
			       m->log->disk_limit != 0,
			       (double)m->log->disk_limit / (1024.0 * 1024.0),
			       0}; /* the TUI: a disk half each */
	long d = 0;
	int k = scroll_by(p, m->series, end, n, grid, o->mem_system, &d);
	if (k < 0 || build_moved(p, m, o, &src, end, k, d, grid) < 0)
		build_cached(p, m, o, &src, end, grid);
	if (!grid)
		window_axis(p, m, end);
	mem_scale(p, o->frozen, p->mem_total);
	ticks(p, m->series, m->log, o->xdots > 0 ? o->xdots : 1);
	remember(p, m->series, end, grid, o->mem_system);
}

void plot_build_samples(struct plot *p, const struct plot_src *src, size_t i0, size_t i1)
{
	int n = (int)(i1 - i0 + 1);
	ensure(p, n);
	p->n = n;
	p->end = (long)i1;
	p->fit = 0;
	p->off = 0;
	place(p);
	for (int i = 0; i < n; i++)
		p->lo[i] = p->hi[i] = (long)i0 + i;
	p->t0_ns = series_t(src->ser, i0);
	p->col_ns = n > 1 ? (double)(series_t(src->ser, i1) - p->t0_ns) / (n - 1) : 1e9;
	fresh(p);
	finish(p, src, 0, 0, p->v, p->key);
	mem_peak(p, src->ser, i0, i1);
	mem_scale(p, 0, p->mem_peak > 0 ? p->mem_peak : NAN);
	p->nticks = 0;
	p->old_valid = 0; /* a picture drawn once: no window moves on from it */
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
