/* The Runs view's half of the plot model (plot.h, "the Runs view's
 * picture"): a block of columns per shown run over its copy, and the rate
 * and active scales every block shares, for the TUI's Runs view and the
 * SVG's alike.  plot.c is the Overview's half. */
#include "model/plot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/phase.h"
#include "model/rates.h"
#include "base/util.h"

/* ---- the Runs view's blocks ---------------------------------------------- */

void plot_run_columns(const struct series *ser, double interval, const struct run_result *r,
		      int run, uint64_t span, int n, double *rd, double *wr, double *af,
		      double *burst)
{
	uint64_t end = r->t_copy_ns + (uint64_t)(r->elapsed_s * 1e9);
	long counted = -1; /* the newest sample whose burst is on a column */
	long next = -2;	   /* series_find of the last column's end: this one's start */
	for (int i = 0; i < n; i++) {
		uint64_t ta = r->t_copy_ns + (uint64_t)((double)span * i / n);
		uint64_t tb = r->t_copy_ns + (uint64_t)((double)span * (i + 1) / n);
		rd[i] = wr[i] = af[i] = NAN;
		burst[i] = 0;
		long prev = next;
		next = -2;
		if (tb > end + (uint64_t)(interval * 1e9))
			continue; /* the sample that holds the end still counts */
		long b = series_find(ser, tb);
		next = b;
		if (b < 1)
			continue;
		long a = prev != -2 ? prev : series_find(ser, ta);
		if (a < 0 || a >= b)
			a = b - 1;
		const struct sample *sb = series_at(ser, (size_t)b);
		/* only the copy itself: not the verify pass that follows */
		if (!sample_in_copy(sb, run))
			continue;
		struct rates rt;
		rates_compute(series_at(ser, (size_t)a), sb, &rt);
		/* the run's own bytes (its cgroup) where known, else the disk's */
		rates_run_io(series_at(ser, (size_t)a), sb, &rt, &rd[i], &wr[i]);
		af[i] = (sb->have & SAMPLE_HAVE_CG) ? (double)sb->cg_active_file / 1024.0
						    : (double)sb->active_file;
		for (long k = a + 1 > counted + 1 ? a + 1 : counted + 1; k <= b; k++)
			if (burst_between(series_at(ser, (size_t)k - 1), series_at(ser, (size_t)k)))
				burst[i] = 1;
		counted = b;
	}
}

double plot_rate_scale(const double *v, size_t stride, size_t rows, int n, double *rates,
		       double *tmp)
{
	int m = 0;
	double peak = 0, top = 0;
	for (size_t row = 0; row < rows; row++) {
		const double *x = v + row * stride;
		for (int i = 0; i < n; i++)
			if (!isnan(x[i])) {
				rates[m++] = x[i];
				peak = fmax(peak, x[i]);
			}
	}
	if (m)
		top = fmin(peak, chart_quantile(rates, m, 0.98, tmp) * 1.2);
	struct autoscale fine = {0, 0}; /* no history: the fine step above it */
	return autoscale_update_fine(&fine, top, 1.0, 1);
}

/* ---- the Runs view's picture --------------------------------------------- */

void plot_runs_init(struct plot_runs *pr)
{
	memset(pr, 0, sizeof(*pr));
}

void plot_runs_done(struct plot_runs *pr)
{
	free(pr->v);
	free(pr->scratch);
	plot_runs_init(pr);
}

static double *grow(double *buf, size_t *cap, size_t want)
{
	if (want <= *cap)
		return buf;
	free(buf);
	*cap = want;
	return xmalloc(sizeof(double) * want);
}

/* The samples in [t_copy, t_copy + span] of run r: the columns a block's
 * scale is taken on (at least 1). */
static int samples_in(const struct series *ser, const struct run_result *r, uint64_t span)
{
	long a = series_find(ser, r->t_copy_ns), b = series_find(ser, r->t_copy_ns + span);
	long len = (long)series_len(ser);
	if (a < 0)
		return 1;
	long k = (b < 0 ? len : b) - a;
	return k < 1 ? 1 : k > 65536 ? 65536 : (int)k;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull; /* FNV-1a's prime, a word at a time */
}

/* What the scale columns read: the runs and their times, the span, the
 * oldest sample (the ring drops old ones), and the newest one until the
 * samples have passed every shown run's window (then new samples change
 * nothing: a finished run's samples never do). */
static uint64_t scale_key(const struct series *ser, double interval, const struct run_result *runs,
			  const size_t *shown, size_t nrows, uint64_t span)
{
	uint64_t h = mix(14695981039346656037ull, (uint64_t)(uintptr_t)ser), limit = 0;
	h = mix(h, span);
	for (size_t k = 0; k < nrows; k++) {
		const struct run_result *r = &runs[shown[k]];
		h = mix(mix(mix(h, shown[k]), r->t_copy_ns), (uint64_t)(r->elapsed_s * 1e9));
		uint64_t end = r->t_copy_ns + span + (uint64_t)(2 * interval * 1e9);
		limit = end > limit ? end : limit;
	}
	size_t len = series_len(ser);
	uint64_t now = len ? series_t(ser, len - 1) : 0;
	h = mix(h, series_t(ser, 0));
	return mix(h, now && now < limit ? now : 1);
}

void plot_runs_build(struct plot_runs *pr, const struct series *ser, double interval,
		     const struct run_result *runs, const size_t *shown, size_t nrows,
		     double mem_limit_kib, int n)
{
	pr->nrows = nrows;
	pr->span = 0;
	pr->af_max = fmax(1, mem_limit_kib);
	const struct run_result *longest = NULL;
	for (size_t k = 0; k < nrows; k++) {
		const struct run_result *r = &runs[shown[k]];
		uint64_t sp = (uint64_t)(r->elapsed_s * 1e9);
		if (!longest || sp > pr->span) {
			pr->span = sp;
			longest = r;
		}
		pr->af_max = fmax(pr->af_max, (double)r->peak_active_file_kb);
	}
	if (!pr->span)
		pr->span = 1;
	pr->scale_n = longest ? samples_in(ser, longest, pr->span) : 1;
	pr->n = n > 0 ? n : pr->scale_n;
	size_t cells = nrows * (size_t)pr->n, scells = nrows * (size_t)pr->scale_n;
	pr->v = grow(pr->v, &pr->vcap, PLOT_RUN_NROW * (cells ? cells : 1));
	/* the scale's columns, then its rates and their quantile's scratch */
	pr->scratch = grow(pr->scratch, &pr->scap, (PLOT_RUN_NROW + 2) * (scells ? scells : 1));
	double *sv = pr->scratch, *rates = sv + PLOT_RUN_NROW * scells, *tmp = rates + scells;
	int sn = pr->scale_n;
	/* the scale's columns only when what they read changed (a finished
	 * run's Runs view is drawn every tick, its samples never change) */
	uint64_t key = scale_key(ser, interval, runs, shown, nrows, pr->span);
	int rescale = key != pr->scale_key;
	pr->scale_key = key;
	for (size_t k = 0; k < nrows; k++) {
		const struct run_result *r = &runs[shown[k]];
		double *row[PLOT_RUN_NROW];
		for (int j = 0; j < PLOT_RUN_NROW; j++)
			row[j] = plot_runs_row(pr, k, j);
		plot_run_columns(ser, interval, r, (int)shown[k], pr->span, pr->n,
				 row[PLOT_RUN_READ], row[PLOT_RUN_WRITE], row[PLOT_RUN_AF],
				 row[PLOT_RUN_BURST]);
		for (int j = 0; j < pr->n; j++)
			if (!isnan(row[PLOT_RUN_AF][j]))
				pr->af_max = fmax(pr->af_max, row[PLOT_RUN_AF][j]);
		if (!rescale)
			continue;
		for (int j = 0; j < PLOT_RUN_NROW; j++)
			row[j] = sv + (k * PLOT_RUN_NROW + (size_t)j) * (size_t)sn;
		plot_run_columns(ser, interval, r, (int)shown[k], pr->span, sn, row[PLOT_RUN_READ],
				 row[PLOT_RUN_WRITE], row[PLOT_RUN_AF], row[PLOT_RUN_BURST]);
	}
	pr->af_unit = mem_unit_of(pr->af_max);
	if (!rescale)
		return;
	size_t stride = PLOT_RUN_NROW * (size_t)sn;
	pr->read_max = plot_rate_scale(sv + PLOT_RUN_READ * sn, stride, nrows, sn, rates, tmp);
	pr->write_max = plot_rate_scale(sv + PLOT_RUN_WRITE * sn, stride, nrows, sn, rates, tmp);
}

double plot_series_interval(const struct series *ser)
{
	size_t len = ser ? series_len(ser) : 0;
	if (len < 2)
		return 0;
	return (double)(series_t(ser, len - 1) - series_t(ser, 0)) / 1e9 /
	       (double)(len - 1);
}
