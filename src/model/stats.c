#include "model/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/pagecache.h"
#include "model/sawtooth.h"
#include "base/util.h"

int stats_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

double stats_median(double *v, size_t n)
{
	if (!n)
		return NAN;
	qsort(v, n, sizeof(*v), stats_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Runs group by label: a strategy's name or a --cmd's unique label. */
static int same_strategy(const struct run_result *r, const struct strategy_stats *s)
{
	return !strcmp(r->name, s->name);
}

/* Median of one field over the OK runs of one strategy. */
static double field_median(const struct run_result *runs, size_t n, const struct strategy_stats *s,
			   double (*get)(const struct run_result *), double *mn, double *mx)
{
	double v[RUNLOG_MAX_RUNS]; /* no allocation: the Runs view calls this on every draw */
	size_t k = 0;
	for (size_t i = 0; i < n && k < RUNLOG_MAX_RUNS; i++)
		if (runs[i].finished && runs[i].ok && same_strategy(&runs[i], s) &&
		    !isnan(get(&runs[i]))) /* unknown (a CV of one sample): not a value */
			v[k++] = get(&runs[i]);
	double med = stats_median(v, k);
	if (mn)
		*mn = k ? v[0] : NAN;
	if (mx)
		*mx = k ? v[k - 1] : NAN;
	return med;
}

static double get_elapsed(const struct run_result *r) { return r->elapsed_s; }
static double get_mbs(const struct run_result *r) { return r->mbs; }
static double get_majflt(const struct run_result *r) { return (double)r->majflt; }
static double get_minflt(const struct run_result *r) { return (double)r->minflt; }
static double get_bursts(const struct run_result *r) { return r->bursts; }
static double get_peak(const struct run_result *r) { return (double)r->peak_active_file_kb; }
static double get_refault(const struct run_result *r) { return (double)r->refault_file; }
static double get_wcv(const struct run_result *r) { return r->write_cv; }
static double get_rcv(const struct run_result *r) { return r->read_cv; }
static double get_rab(const struct run_result *r) { return r->read_at_burst; }
static double get_rdcp(const struct run_result *r) { return sawtooth_read_ratio(r); }

/* Median of a residency figure over the OK runs of s that had residency
 * (older recordings, --cmd runs without a source may not). */
static double res_median(const struct run_result *runs, size_t n, const struct strategy_stats *s,
			 int which)
{
	double v[RUNLOG_MAX_RUNS];
	size_t k = 0;
	for (size_t i = 0; i < n && k < RUNLOG_MAX_RUNS; i++) {
		const struct run_result *r = &runs[i];
		if (!r->finished || !r->ok || !r->res_have || !same_strategy(r, s))
			continue;
		double x = which == 0   ? (double)r->res_dst_dirty_peak_kb
			   : which == 1 ? pagecache_src_cached_end_pct(r)
					: (double)r->res_recent_end;
		if (!isnan(x))
			v[k++] = x;
	}
	return stats_median(v, k);
}

/* --probe: the medians of the probe's figures over the strategy's OK runs
 * that had it. */
static void probe_stats(const struct run_result *runs, size_t n, struct strategy_stats *s)
{
	double v[8][RUNLOG_MAX_RUNS];
	size_t k = 0, ki = 0, kr = 0, kq[3] = {0, 0, 0};
	static const double q[3] = {0.50, 0.99, 0.999};
	for (size_t i = 0; i < n && k < RUNLOG_MAX_RUNS; i++) {
		const struct run_result *r = &runs[i];
		if (!r->finished || !r->ok || !same_strategy(r, s) || !r->probe.n)
			continue;
		strlcpy_(s->probe_mode, r->probe.mode, sizeof(s->probe_mode));
		const uint64_t qv[3] = {r->probe.p50_ns, r->probe.p99_ns, r->probe.p999_ns};
		/* a quantile of too few reads is not one (probe_quantile_known) */
		for (int j = 0; j < 3; j++)
			if (probe_quantile_known(r->probe.n, q[j]))
				v[j][kq[j]++] = (double)qv[j] / 1e6;
		v[3][k] = (double)r->probe.max_ns / 1e6;
		v[4][k] = (double)r->probe.slow;
		v[7][k] = (double)r->probe.n;
		k++;
		if (probe_quantile_known(r->probe.idle_n, 0.99))
			v[5][ki++] = (double)r->probe.idle_p99_ns / 1e6;
		double rise = probe_figures_rise_ms(&r->probe); /* both p99s known */
		if (!isnan(rise))
			v[6][kr++] = rise;
	}
	s->probe_runs = (int)k;
	s->probe_p50 = stats_median(v[0], kq[0]);
	s->probe_p99 = stats_median(v[1], kq[1]);
	s->probe_p999 = stats_median(v[2], kq[2]);
	s->probe_max = stats_median(v[3], k);
	s->probe_slow = stats_median(v[4], k);
	s->probe_n = stats_median(v[7], k);
	s->probe_idle_p99 = stats_median(v[5], ki);
	s->probe_rise = stats_median(v[6], kr);
}

int stats_compute(const struct run_result *runs, size_t n, const char *baseline,
		  struct strategy_stats *out, int max)
{
	int ns = 0;
	for (size_t i = 0; i < n; i++) {
		if (!runs[i].finished)
			continue;
		int j = 0;
		while (j < ns && !same_strategy(&runs[i], &out[j]))
			j++;
		if (j == ns) {
			if (ns == max)
				continue;
			memset(&out[ns], 0, sizeof(out[ns]));
			strlcpy_(out[ns].strategy, runs[i].strategy, sizeof(out[ns].strategy));
			strlcpy_(out[ns].name, runs[i].name, sizeof(out[ns].name));
			ns++;
		}
		out[j].runs++;
		out[j].ok += runs[i].ok;
	}
	double fastest = INFINITY, base = NAN;
	for (int j = 0; j < ns; j++) {
		struct strategy_stats *s = &out[j];
		s->elapsed_med = field_median(runs, n, s, get_elapsed, &s->elapsed_min, &s->elapsed_max);
		s->mbs_med = field_median(runs, n, s, get_mbs, &s->mbs_min, &s->mbs_max);
		s->majflt_med = field_median(runs, n, s, get_majflt, NULL, NULL);
		s->minflt_med = field_median(runs, n, s, get_minflt, NULL, NULL);
		s->bursts_med = field_median(runs, n, s, get_bursts, NULL, NULL);
		s->peak_af_med = field_median(runs, n, s, get_peak, NULL, NULL);
		s->refault_med = field_median(runs, n, s, get_refault, NULL, NULL);
		s->write_cv_med = field_median(runs, n, s, get_wcv, NULL, NULL);
		s->read_cv_med = field_median(runs, n, s, get_rcv, NULL, NULL);
		s->read_at_burst_med = field_median(runs, n, s, get_rab, NULL, NULL);
		s->read_ratio_med = field_median(runs, n, s, get_rdcp, NULL, NULL);
		s->res_dirty_med = res_median(runs, n, s, 0);
		s->res_src_cached_med = res_median(runs, n, s, 1);
		s->res_recent_med = res_median(runs, n, s, 2);
		s->noisy = s->ok >= 2 && s->elapsed_min > 0 &&
			   (s->elapsed_max - s->elapsed_min) / s->elapsed_min > STATS_NOISY;
		if (s->ok && s->elapsed_med < fastest)
			fastest = s->elapsed_med;
		/* the label, or the strategy of a labelled run (+prealloc, @30M) */
		s->baseline = baseline && (!strcmp(s->name, baseline) ||
					   (s->strategy[0] && !strcmp(s->strategy, baseline)));
		if (s->baseline && s->ok)
			base = s->elapsed_med;
		double best = INFINITY;
		s->median_run = SIZE_MAX;
		for (size_t i = 0; i < n; i++)
			if (runs[i].finished && same_strategy(&runs[i], s)) {
				double d = runs[i].ok ? fabs(runs[i].elapsed_s - s->elapsed_med)
						      : INFINITY;
				if (s->median_run == SIZE_MAX || d < best) {
					best = d;
					s->median_run = i;
				}
			}
	}
	for (int j = 0; j < ns; j++)
		probe_stats(runs, n, &out[j]);
	for (int j = 0; j < ns; j++) {
		struct strategy_stats *s = &out[j];
		s->ratio = s->ok && isfinite(fastest) ? s->elapsed_med / fastest : NAN;
		s->ratio_base = s->ok && !isnan(base) ? s->elapsed_med / base : NAN;
		s->fastest = s->ok && s->elapsed_med == fastest;
		s->vs_base_pct = s->ok && !isnan(base) ? (s->elapsed_med / base - 1.0) * 100.0 : NAN;
	}
	return ns;
}

void stats_cells(const struct strategy_stats *s, char *vs, size_t vslen, char *peak,
		 size_t peaklen)
{
	if (isnan(s->peak_af_med))
		snprintf(peak, peaklen, "-");
	else
		fmt_size(peak, peaklen, (uint64_t)s->peak_af_med * 1024);
	if (s->baseline && s->ok)
		snprintf(vs, vslen, "base");
	else if (isnan(s->vs_base_pct))
		snprintf(vs, vslen, "-");
	else
		snprintf(vs, vslen, "%+.1f%%", s->vs_base_pct);
}

int stats_by_base(const struct strategy_stats *st, int n)
{
	for (int i = 0; i < n; i++)
		if (st[i].baseline && st[i].ok)
			return 1;
	return 0;
}

void stats_ratio_cell(const struct strategy_stats *s, int by_base, char *buf, size_t len)
{
	stats_num(buf, len, "%.2fx", by_base ? s->ratio_base : s->ratio);
}

void stats_num(char *buf, size_t len, const char *fmt, double v)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

int stats_note(const struct strategy_stats *st, int n, int k, char *buf, size_t len)
{
	for (int i = 0; i < n; i++) {
		if (st[i].ok < st[i].runs && k-- == 0) {
			snprintf(buf, len, "%s: %d of %d runs succeeded", st[i].name, st[i].ok,
				 st[i].runs);
			return 1;
		}
	}
	for (int i = 0; i < n; i++)
		if (st[i].baseline && !st[i].ok && k-- == 0) {
			snprintf(buf, len, "baseline %s has no successful run", st[i].name);
			return 1;
		}
	return 0;
}

/* The label column: as wide as the longest label, at least 16. */
static int name_width(const struct strategy_stats *st, int n)
{
	int w = 16;
	for (int i = 0; i < n; i++)
		if ((int)strlen(st[i].name) > w)
			w = (int)strlen(st[i].name);
	return w;
}

void stats_table(FILE *f, const struct strategy_stats *st, int n)
{
	int w = name_width(st, n), by_base = stats_by_base(st, n);
	/* hyperfine's labels: the first figure of each group is the median */
	fprintf(f, "%-*s %4s %-29s %s\n", w, "", "", "---------- elapsed ----------",
		"--------- MiB/s ----------");
	fprintf(f, "%-*s %4s %9s %9s %9s %8s %8s %8s %8s %7s %8s %6s %5s %9s %8s %8s %6s\n",
		w, "strategy", "runs", "median", "min", "max", "median", "min", "max",
		STATS_RATIO_LABEL(by_base), "vs base", "majflt", "bursts", "rd/cp", "peakAct",
		"refault", "dstDirty", "srcC%");
	int noisy = 0;
	for (int i = 0; i < n; i++) {
		const struct strategy_stats *s = &st[i];
		char peak[16], vs[16], runs[16], c[11][24];
		stats_cells(s, vs, sizeof(vs), peak, sizeof(peak));
		snprintf(runs, sizeof(runs), s->ok == s->runs ? "%d" : "%d/%d", s->ok, s->runs);
		stats_num(c[0], sizeof(c[0]), "%.3fs", s->elapsed_med);
		stats_num(c[1], sizeof(c[1]), "%.3fs", s->elapsed_min);
		stats_num(c[2], sizeof(c[2]), "%.3fs", s->elapsed_max);
		stats_num(c[3], sizeof(c[3]), "%.1f", s->mbs_med);
		stats_num(c[4], sizeof(c[4]), "%.1f", s->mbs_min);
		stats_num(c[5], sizeof(c[5]), "%.1f", s->mbs_max);
		stats_ratio_cell(s, by_base, c[6], sizeof(c[6]));
		stats_num(c[7], sizeof(c[7]), "%.0f", s->majflt_med);
		stats_num(c[8], sizeof(c[8]), "%.1f", s->bursts_med);
		stats_num(c[9], sizeof(c[9]), "%.0f", s->refault_med);
		stats_num(c[10], sizeof(c[10]), "%.2f", s->read_ratio_med);
		char res[2][24] = {"-", "-"};
		if (!isnan(s->res_dirty_med))
			fmt_size(res[0], sizeof(res[0]), (uint64_t)s->res_dirty_med * 1024);
		stats_num(res[1], sizeof(res[1]), "%.0f%%", s->res_src_cached_med);
		fprintf(f, "%-*s %4s %9s %9s %9s %8s %8s %8s %8s %7s %8s %6s %5s %9s %8s %8s %6s%s%s\n",
			w, s->name, runs, c[0], c[1], c[2], c[3], c[4], c[5], c[6], vs, c[7], c[8],
			c[10], peak, c[9], res[0], res[1],
			s->fastest ? "  fastest" : "", s->noisy ? "  noisy" : "");
		noisy |= s->noisy;
	}
	char note[96];
	for (int k = 0; stats_note(st, n, k, note, sizeof(note)); k++)
		fprintf(f, "%s\n", note);
	if (noisy)
		fprintf(f, "noisy: min-max spread of elapsed above %.0f%%: consider --repeat 5\n",
			STATS_NOISY * 100);
}

void stats_probe_table(FILE *f, const struct strategy_stats *st, int n)
{
	const char *mode = NULL;
	for (int i = 0; i < n; i++)
		if (st[i].probe_runs)
			mode = st[i].probe_mode;
	if (!mode)
		return;
	fprintf(f, "\nthe neighbours' latency: probe %s, 4 KiB reads beside each copy (ms, medians)\n",
		mode);
	int w = name_width(st, n);
	/* n: the reads of a run (median); a quantile of runs with too few
	 * reads for it is "-" (probe_quantile_known) */
	fprintf(f, "%-*s %4s %7s %8s %8s %8s %8s %7s %8s %10s\n", w, "strategy", "runs", "n", "p50",
		"p99", "p99.9", "max", ">100ms", "idle p99", "p99 rise");
	for (int i = 0; i < n; i++) {
		const struct strategy_stats *s = &st[i];
		char c[8][24];
		stats_num(c[0], sizeof(c[0]), "%.2f", s->probe_p50);
		stats_num(c[1], sizeof(c[1]), "%.2f", s->probe_p99);
		stats_num(c[2], sizeof(c[2]), "%.2f", s->probe_p999);
		stats_num(c[3], sizeof(c[3]), "%.1f", s->probe_max);
		stats_num(c[4], sizeof(c[4]), "%.0f", s->probe_slow);
		stats_num(c[5], sizeof(c[5]), "%.2f", s->probe_idle_p99);
		stats_num(c[6], sizeof(c[6]), "%+.2f", s->probe_rise);
		stats_num(c[7], sizeof(c[7]), "%.0f", s->probe_n);
		fprintf(f, "%-*s %4d %7s %8s %8s %8s %8s %7s %8s %10s\n", w, s->name, s->probe_runs,
			c[7], c[0], c[1], c[2], c[3], c[4], c[5], c[6]);
	}
}
