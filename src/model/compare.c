#include "model/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/stats.h"
#include "base/util.h"

/* ---- labels ---- */

/* The last k '/'-separated parts of path ("d1/r.jsonl" for k = 2), or the
 * whole path when it has fewer. */
static const char *path_tail(const char *path, int k)
{
	const char *p = path + strlen(path);
	while (p > path && p[-1] == '/') /* "dir/" names dir */
		p--;
	while (p > path) {
		if (p[-1] == '/' && --k == 0)
			return p;
		p--;
	}
	return path;
}

static int hosts_differ(const struct compare_origin *o, int n)
{
	for (int i = 1; i < n; i++)
		if (strcmp(o[0].host ? o[0].host : "", o[i].host ? o[i].host : ""))
			return 1;
	return 0;
}

void compare_labels(char (*labels)[COMPARE_LABEL_MAX], const struct compare_origin *o, int n)
{
	int hosts = hosts_differ(o, n);
	for (int i = 0; i < n; i++) {
		const char *path = o[i].path ? o[i].path : "";
		/* the file's base name, with parents until no other file has it */
		int k = 1;
		for (;;) {
			const char *t = path_tail(path, k);
			int clash = 0;
			for (int j = 0; j < n && !clash; j++) {
				const char *pj = o[j].path ? o[j].path : "";
				clash = j != i && strcmp(pj, path) && !strcmp(path_tail(pj, k), t);
			}
			if (!clash || t == path)
				break;
			k++;
		}
		char kern[32] = "", host[24] = "", file[COMPARE_LABEL_MAX];
		if (o[i].kernel && *o[i].kernel)
			path_short(kern, sizeof(kern), o[i].kernel, 24);
		if (hosts && o[i].host && *o[i].host)
			path_short(host, sizeof(host), o[i].host, 16);
		/* "X: " kern " " host " (" file ")" and the NUL: at most 48 bytes
		 * before the file, which gets the rest */
		size_t used = 3 + strlen(kern) + 1 + strlen(host) + 1 + 2 + 1;
		path_short(file, sizeof(file), path_tail(path, k), COMPARE_LABEL_MAX - used);
		char out[COMPARE_LABEL_MAX * 2], letter = (char)('A' + i % 26);
		int m = snprintf(out, sizeof(out), "%c:", letter);
		if (*kern)
			m += snprintf(out + m, sizeof(out) - (size_t)m, " %s", kern);
		if (*host)
			m += snprintf(out + m, sizeof(out) - (size_t)m, " %s", host);
		if (*file)
			snprintf(out + m, sizeof(out) - (size_t)m, m > 2 ? " (%s)" : " %s", file);
		strlcpy_(labels[i], out, COMPARE_LABEL_MAX);
	}
}

/* ---- statistics ---- */

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

uint64_t compare_seed(const char *name, int rec)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * UINT64_C(0x100000001b3);
	return COMPARE_SEED ^ h ^ (uint64_t)rec;
}

/* One sample made ready for resampling: its values sorted, and for each
 * original position its place in that order, so a resample's median is
 * found by counting draws per place (O(n), not a sort per resample) and
 * is the very value a sort of the drawn values would give. */
struct resample {
	size_t n;
	double *sorted;
	size_t *place; /* original index -> index into sorted */
	size_t *count; /* draws per place, one resample */
};

struct valpos {
	double v;
	size_t i;
};

static int cmp_valpos(const void *x, const void *y)
{
	const struct valpos *p = x, *q = y;
	return p->v < q->v ? -1 : p->v > q->v ? 1 : (p->i > q->i) - (p->i < q->i);
}

static void sample_init(struct resample *sm, const double *v, size_t n)
{
	struct valpos *vp = xmalloc(sizeof(*vp) * n);
	sm->n = n;
	sm->sorted = xmalloc(sizeof(double) * n);
	sm->place = xmalloc(sizeof(size_t) * n);
	sm->count = xmalloc(sizeof(size_t) * n);
	for (size_t i = 0; i < n; i++)
		vp[i] = (struct valpos){v[i], i};
	qsort(vp, n, sizeof(*vp), cmp_valpos);
	for (size_t k = 0; k < n; k++) {
		sm->sorted[k] = vp[k].v;
		sm->place[vp[k].i] = k;
	}
	free(vp);
}

static void sample_done(struct resample *sm)
{
	free(sm->sorted);
	free(sm->place);
	free(sm->count);
}

/* Median of n draws with replacement: draw i picks original index
 * next() % n (the order tests replay); the median of an even count is the
 * mean of the two middle values, as stats_median's. */
static double resample_median(struct resample *sm, uint64_t *s)
{
	size_t n = sm->n;
	memset(sm->count, 0, sizeof(size_t) * n);
	for (size_t i = 0; i < n; i++)
		sm->count[sm->place[splitmix64(s) % n]]++;
	/* the values of 0-based ranks lo_rank and hi_rank of the draws */
	size_t lo_rank = (n - 1) / 2, hi_rank = n / 2, seen = 0, k = 0;
	while (seen + sm->count[k] <= lo_rank)
		seen += sm->count[k++];
	double lo = sm->sorted[k];
	while (seen + sm->count[k] <= hi_rank)
		seen += sm->count[k++];
	return (n % 2) ? lo : (lo + sm->sorted[k]) / 2.0;
}

int compare_bootstrap(const double *a, size_t na, const double *b, size_t nb, uint64_t seed,
		      double *lo, double *hi)
{
	if (na < 2 || nb < 2)
		return -1;
	struct resample sa, sb;
	sample_init(&sa, a, na);
	sample_init(&sb, b, nb);
	double ma = (na % 2) ? sa.sorted[na / 2] : (sa.sorted[na / 2 - 1] + sa.sorted[na / 2]) / 2;
	double mb = (nb % 2) ? sb.sorted[nb / 2] : (sb.sorted[nb / 2 - 1] + sb.sorted[nb / 2]) / 2;
	int rc = -1;
	/* A's smallest value positive: every resample median of A is too */
	if (sa.sorted[0] > 0 && ma > 0 && mb > 0) {
		double *r = xmalloc(sizeof(double) * COMPARE_RESAMPLES);
		uint64_t s = seed;
		for (int i = 0; i < COMPARE_RESAMPLES; i++) {
			/* each of A's draws, then each of B's: tests replay this order */
			double x = resample_median(&sa, &s);
			double y = resample_median(&sb, &s);
			r[i] = y / x;
		}
		qsort(r, COMPARE_RESAMPLES, sizeof(*r), stats_cmp_double);
		*lo = r[COMPARE_RESAMPLES / 40 - 1];
		*hi = r[COMPARE_RESAMPLES - COMPARE_RESAMPLES / 40 - 1];
		free(r);
		rc = 0;
	}
	sample_done(&sa);
	sample_done(&sb);
	return rc;
}

/* Midranks of the pooled values v[0..n) (1-based) into rank; the sum of
 * t^3 - t over groups of ties into *ties. */
static void midranks(const double *v, size_t n, double *rank, double *ties)
{
	size_t *ix = xmalloc(sizeof(size_t) * n);
	for (size_t i = 0; i < n; i++)
		ix[i] = i;
	/* insertion sort of indices: n is a few repeats, at most a few thousand */
	for (size_t i = 1; i < n; i++) {
		size_t x = ix[i], j = i;
		while (j > 0 && v[ix[j - 1]] > v[x]) {
			ix[j] = ix[j - 1];
			j--;
		}
		ix[j] = x;
	}
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[ix[j + 1]] == v[ix[i]])
			j++;
		double mid = (double)(i + j + 2) / 2.0, t = (double)(j - i + 1);
		for (size_t k = i; k <= j; k++)
			rank[ix[k]] = mid;
		*ties += t * t * t - t;
		i = j + 1;
	}
	free(ix);
}

/* C(n, k) as a double, saturating above limit. */
static double choose(size_t n, size_t k, double limit)
{
	double c = 1;
	if (k > n - k)
		k = n - k;
	for (size_t i = 1; i <= k && c <= limit; i++)
		c = c * (double)(n - k + i) / (double)i;
	return c;
}

double compare_mann_whitney(const double *a, size_t na, const double *b, size_t nb, int *exact)
{
	if (exact)
		*exact = 0;
	if (!na || !nb)
		return NAN;
	size_t n = na + nb;
	double *v = xmalloc(sizeof(double) * n), *rank = xmalloc(sizeof(double) * n), ties;
	memcpy(v, a, sizeof(double) * na);
	memcpy(v + na, b, sizeof(double) * nb);
	midranks(v, n, rank, &ties);
	double w = 0, mean = (double)na * (double)(n + 1) / 2.0; /* rank sum of a, its mean */
	for (size_t i = 0; i < na; i++)
		w += rank[i];
	double dev = fabs(w - mean), p;
	double splits = choose(n, na, COMPARE_EXACT_MAX);
	if (splits <= COMPARE_EXACT_MAX) {
		/* every choice of na of the n pooled runs as "a": how many are at
		 * least as far from the mean rank sum as the real one */
		size_t *ix = xmalloc(sizeof(size_t) * na);
		for (size_t i = 0; i < na; i++)
			ix[i] = i;
		double total = 0, extreme = 0;
		for (;;) {
			double s = 0;
			for (size_t i = 0; i < na; i++)
				s += rank[ix[i]];
			total++;
			/* midranks are halves: exact in binary, the slack is for sums */
			extreme += fabs(s - mean) >= dev - 1e-9;
			size_t i = na;
			while (i > 0 && ix[i - 1] == n - na + i - 1)
				i--;
			if (i == 0)
				break;
			ix[i - 1]++;
			for (size_t j = i; j < na; j++)
				ix[j] = ix[j - 1] + 1;
		}
		free(ix);
		p = extreme / total;
		if (exact)
			*exact = 1;
	} else {
		double nn = (double)n;
		double var = (double)na * (double)nb / 12.0 * ((nn + 1) - ties / (nn * (nn - 1)));
		double z = var > 0 ? (dev - 0.5) / sqrt(var) : 0;
		p = z > 0 ? erfc(z / sqrt(2.0)) : 1.0;
	}
	free(v);
	free(rank);
	return p > 1 ? 1 : p;
}

/* Elapsed times of the OK runs of name in in (buf holds in->nruns). */
static size_t ok_elapsed(const struct compare_input *in, const char *name, double *buf)
{
	size_t k = 0;
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (r->finished && r->ok && !strcmp(r->name, name))
			buf[k++] = r->elapsed_s;
	}
	return k;
}

/* --probe: the probe p99 (ms) of the OK runs of name that had reads
 * enough for one (probe_quantile_known) into buf; *runs: the OK runs that
 * had the probe at all, *reads their median count of reads. */
static size_t ok_probe_p99(const struct compare_input *in, const char *name, double *buf,
			   int *runs, double *reads)
{
	size_t k = 0, nr = 0;
	double v[RUNLOG_MAX_RUNS];
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (!r->finished || !r->ok || !r->probe.n || strcmp(r->name, name))
			continue;
		if (nr < RUNLOG_MAX_RUNS)
			v[nr++] = (double)r->probe.n;
		if (probe_quantile_known(r->probe.n, 0.99))
			buf[k++] = (double)r->probe.p99_ns / 1e6;
	}
	*runs = (int)nr;
	*reads = stats_median(v, nr);
	return k;
}

/* --probe: the p99 medians and their ratios to the first recording's
 * (a and b: scratch of the largest run count). */
static void probe_compare(struct compare *c, const struct compare_input *in, int n, double *a,
			  double *b)
{
	for (int row = 0; row < c->nrows; row++) {
		struct compare_row *w = &c->rows[row];
		int runs0;
		double reads0;
		size_t na = ok_probe_p99(&in[0], w->name, a, &runs0, &reads0);
		for (int r = 0; r < n; r++) {
			struct compare_cell *e = &w->cell[r];
			e->probe_p99 = e->probe_ratio = e->probe_lo = e->probe_hi = NAN;
			double *v = r ? b : a;
			e->probe_runs = runs0;
			e->probe_n = reads0;
			size_t nv = r ? ok_probe_p99(&in[r], w->name, b, &e->probe_runs, &e->probe_n)
				      : na;
			if (!nv)
				continue;
			double tmp[RUNLOG_MAX_RUNS];
			memcpy(tmp, v, nv * sizeof(*v));
			e->probe_p99 = stats_median(tmp, nv);
			if (!r || !na || !(w->cell[0].probe_p99 > 0))
				continue;
			e->probe_ratio = e->probe_p99 / w->cell[0].probe_p99;
			if (compare_bootstrap(a, na, b, nv, compare_seed(w->name, r) ^ 0x70726f6265ull,
					      &e->probe_lo, &e->probe_hi) < 0)
				e->probe_lo = e->probe_hi = NAN;
		}
	}
}

int compare_compute(struct compare *c, const struct compare_input *in, int n, char *err,
		    size_t errlen)
{
	if (n < 2)
		return errf(err, errlen, "--compare needs at least two recordings");
	if (n > COMPARE_MAX_RECORDINGS)
		return errf(err, errlen, "--compare takes at most %d recordings, not %d",
			    COMPARE_MAX_RECORDINGS, n);
	memset(c, 0, sizeof(*c));
	c->nrec = n;
	struct strategy_stats *st = xcalloc(COMPARE_MAX_STRATEGIES, sizeof(*st));
	for (int r = 0; r < n; r++) {
		strlcpy_(c->label[r], in[r].label ? in[r].label : "?", sizeof(c->label[r]));
		int ns = stats_compute(in[r].runs, in[r].nruns, NULL, st, COMPARE_MAX_STRATEGIES);
		for (int j = 0; j < ns; j++) {
			int row = 0;
			while (row < c->nrows && strcmp(c->rows[row].name, st[j].name))
				row++;
			if (row == c->nrows) {
				if (c->nrows == COMPARE_MAX_STRATEGIES)
					continue;
				strlcpy_(c->rows[row].name, st[j].name, sizeof(c->rows[row].name));
				for (int q = 0; q < COMPARE_MAX_RECORDINGS; q++) {
					struct compare_cell *e = &c->rows[row].cell[q];
					e->elapsed_med = e->mbs_med = e->bursts_med = NAN;
					e->peak_af_med = e->refault_med = e->majflt_med = NAN;
					e->ratio = e->ci_lo = e->ci_hi = e->p = e->p_min = NAN;
				}
				c->nrows++;
			}
			struct compare_cell *e = &c->rows[row].cell[r];
			e->present = 1;
			e->runs = st[j].runs;
			e->ok = st[j].ok;
			e->elapsed_med = st[j].elapsed_med;
			e->mbs_med = st[j].mbs_med;
			e->bursts_med = st[j].bursts_med;
			e->peak_af_med = st[j].peak_af_med;
			e->refault_med = st[j].refault_med;
			e->majflt_med = st[j].majflt_med;
		}
	}
	free(st);

	size_t most = 1;
	for (int r = 0; r < n; r++)
		most = in[r].nruns > most ? in[r].nruns : most;
	double *a = xmalloc(sizeof(double) * most), *b = xmalloc(sizeof(double) * most);
	for (int row = 0; row < c->nrows; row++) {
		struct compare_row *w = &c->rows[row];
		w->common = 1;
		for (int r = 0; r < n; r++)
			w->common &= w->cell[r].ok > 0;
		c->ncommon += w->common;
		const struct compare_cell *ca = &w->cell[0];
		if (!ca->ok)
			continue;
		size_t na = ok_elapsed(&in[0], w->name, a);
		for (int r = 1; r < n; r++) {
			struct compare_cell *e = &w->cell[r];
			if (!e->ok)
				continue;
			size_t nb = ok_elapsed(&in[r], w->name, b);
			e->ratio = ca->elapsed_med > 0 ? e->elapsed_med / ca->elapsed_med : NAN;
			e->verdict = COMPARE_NO_CI;
			if (na < 2 || nb < 2 || isnan(e->ratio))
				continue;
			e->p = compare_mann_whitney(a, na, b, nb, &e->p_exact);
			double sp = choose(na + nb, na, 1e300);
			e->p_min = sp > 2 ? 2 / sp : 1;
			if (compare_bootstrap(a, na, b, nb, compare_seed(w->name, r), &e->ci_lo,
					      &e->ci_hi) < 0)
				continue;
			e->verdict = e->ci_lo > 1   ? COMPARE_SLOWER
				     : e->ci_hi < 1 ? COMPARE_FASTER
						    : COMPARE_SAME;
		}
	}
	probe_compare(c, in, n, a, b);
	free(a);
	free(b);
	return 0;
}

void compare_scale(const struct compare_input *in, int n, double *elapsed_max, double *mbs_max)
{
	*elapsed_max = 0;
	*mbs_max = 0;
	for (int r = 0; r < n; r++)
		for (size_t i = 0; i < in[r].nruns; i++) {
			const struct run_result *x = &in[r].runs[i];
			if (!x->finished || !x->ok)
				continue;
			if (x->elapsed_s > *elapsed_max)
				*elapsed_max = x->elapsed_s;
			if (x->mbs > *mbs_max)
				*mbs_max = x->mbs;
		}
}

/* ---- notes and table ---- */

/* A recording's letter: its label before ": " ("A"), or the whole label. */
static void tag(const struct compare *c, int r, char *buf, size_t len)
{
	const char *colon = strstr(c->label[r], ": ");
	size_t k = colon ? (size_t)(colon - c->label[r]) : strlen(c->label[r]);
	snprintf(buf, len, "%.*s", (int)k, c->label[r]);
}

/* The recordings of row w for which want(cell) holds, as "B, C"; their
 * count. */
static int tags_where(const struct compare *c, const struct compare_row *w,
		      int (*want)(const struct compare_cell *), char *buf, size_t len)
{
	int k = 0;
	size_t used = 0;
	buf[0] = 0;
	for (int r = 0; r < c->nrec; r++) {
		if (!want(&w->cell[r]))
			continue;
		char t[COMPARE_LABEL_MAX];
		tag(c, r, t, sizeof(t));
		int m = snprintf(buf + used, len - used, "%s%s", k ? ", " : "", t);
		if (m > 0 && (size_t)m < len - used)
			used += (size_t)m;
		k++;
	}
	return k;
}

static int cell_missing(const struct compare_cell *e)
{
	return !e->present;
}
static int cell_present(const struct compare_cell *e)
{
	return e->present;
}
static int cell_failed(const struct compare_cell *e)
{
	return e->present && e->ok < e->runs;
}
static int cell_one(const struct compare_cell *e)
{
	return e->ok == 1;
}
static int cell_some(const struct compare_cell *e)
{
	return e->ok > 0;
}

int compare_note(const struct compare *c, int k, char *buf, size_t len)
{
	char t[160], u[160];
	if (c->ncommon == 0 && k-- == 0) {
		snprintf(buf, len,
			 "no common strategy: none has a successful run in every recording");
		return 1;
	}
	for (int i = 0; i < c->nrows; i++) {
		const struct compare_row *w = &c->rows[i];
		if (tags_where(c, w, cell_missing, t, sizeof(t)) && k-- == 0) {
			if (tags_where(c, w, cell_present, u, sizeof(u)) == 1)
				snprintf(buf, len, "%s: only in %s", w->name, u);
			else
				snprintf(buf, len, "%s: missing in %s", w->name, t);
			return 1;
		}
		for (int r = 0; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			if (cell_failed(e) && k-- == 0) {
				tag(c, r, t, sizeof(t));
				snprintf(buf, len, "%s: %d of %d runs in %s succeeded", w->name,
					 e->ok, e->runs, t);
				return 1;
			}
		}
		int some = tags_where(c, w, cell_some, u, sizeof(u));
		int one = tags_where(c, w, cell_one, t, sizeof(t));
		if (one && some >= 2 && k-- == 0) {
			if (one == some)
				snprintf(buf, len, "%s: one run each: no confidence interval",
					 w->name);
			else
				snprintf(buf, len, "%s: one run in %s: no confidence interval",
					 w->name, t);
			return 1;
		}
		for (int r = 1; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			if ((e->verdict == COMPARE_SLOWER || e->verdict == COMPARE_FASTER) &&
			    e->p_min > 0.05 && k-- == 0) {
				tag(c, 0, t, sizeof(t));
				tag(c, r, u, sizeof(u));
				snprintf(
				    buf, len,
				    "%s: %d and %d runs (%s, %s): too few for any test to reach "
				    "p < 0.05, the interval is optimistic (use --repeat 5)",
				    w->name, w->cell[0].ok, e->ok, t, u);
				return 1;
			}
		}
	}
	return 0;
}

/* MiB/s in 5 columns: one decimal below 100 */
static void fmt_mbs(char *buf, size_t len, double v)
{
	stats_num(buf, len, v < 99.95 ? "%.1f" : "%.0f", v);
}

#define GROUP_W 41 /* one recording's medians: "elapsed MiB/s bursts  peak refault majflt" */
#define NAME_W	15

/* Terminal columns of a UTF-8 string (path_short's "…" is 3 bytes, 1 column). */
static int cols(const char *s)
{
	return (int)utf8_chars(s);
}

/* The recording's label centred in a rule of dashes GROUP_W wide (only its
 * letter when the label is too long for it). */
static int group_rule(FILE *f, const struct compare *c, int r)
{
	char t[COMPARE_LABEL_MAX];
	const char *l = c->label[r];
	if (cols(l) > GROUP_W - 4) {
		tag(c, r, t, sizeof(t));
		l = t;
	}
	int len = cols(l) + 2, left = (GROUP_W - len) / 2, right = GROUP_W - len - left;
	if (left < 0)
		left = right = 0;
	return fprintf(f, " %.*s %s %.*s", left, "------------------------", l, right,
		       "------------------------");
}

/* --probe: the neighbours' p99 per strategy and recording, the ratio to
 * the first with its 95 % CI; nothing when no recording had the probe. */
static int probe_table(FILE *f, const struct compare *c)
{
	int any = 0, bad = 0;
	for (int i = 0; i < c->nrows; i++)
		for (int r = 0; r < c->nrec; r++)
			any |= c->rows[i].cell[r].probe_runs > 0;
	if (!any)
		return 0;
	bad |= fprintf(f, "\nthe neighbours' latency: probe p99 (ms, median), ratio (bootstrap 95%% CI)\n") < 0;
	/* n: reads per run (median); p99 "-" when no run had 100 */
	bad |= fprintf(f, "%-*s %-5s %7s %7s %8s %7s  %s\n", NAME_W, "strategy", "rec", "runs",
		       "n", "p99", "ratio", "95% CI") < 0;
	for (int i = 0; i < c->nrows; i++) {
		const struct compare_row *w = &c->rows[i];
		for (int r = 0; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			char t[COMPARE_LABEL_MAX], p99[16], ratio[16], ci[40], nr[24];
			if (!e->probe_runs)
				continue;
			tag(c, r, t, sizeof(t));
			stats_num(p99, sizeof(p99), "%.2f", e->probe_p99);
			stats_num(nr, sizeof(nr), "%.0f", e->probe_n);
			stats_num(ratio, sizeof(ratio), "%.3f", e->probe_ratio);
			if (isnan(e->probe_lo))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%.3f, %.3f]", e->probe_lo, e->probe_hi);
			bad |= fprintf(f, "%-*s %-5.2s %7d %7s %8s %7s  %s\n", NAME_W, w->name, t,
				       e->probe_runs, nr, p99, ratio, ci) < 0;
		}
	}
	return bad ? -1 : 0;
}

int compare_table(FILE *f, const struct compare *c)
{
	int bad = 0;
#define W(x) (bad |= (x) < 0)
	for (int r = 0; r < c->nrec; r++)
		W(fprintf(f, "%s\n", c->label[r]));
	W(fprintf(f, "\nmedians of the successful runs\n%-*s", NAME_W, ""));
	for (int r = 0; r < c->nrec; r++)
		W(group_rule(f, c, r));
	W(fprintf(f, "\n%-*s", NAME_W, "strategy"));
	for (int r = 0; r < c->nrec; r++)
		W(fprintf(f, " %7s %5s %6s %5s %7s %6s", "elapsed", "MiB/s", "bursts", "peak",
			  "refault", "majflt"));
	W(fprintf(f, "\n"));
	for (int i = 0; i < c->nrows; i++) {
		const struct compare_row *w = &c->rows[i];
		W(fprintf(f, "%-*s", NAME_W, w->name));
		for (int r = 0; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			char el[16], mbs[16], bu[16], pk[16], rf[16], mj[16];
			stats_num(el, sizeof(el), "%.2fs", e->elapsed_med);
			fmt_mbs(mbs, sizeof(mbs), e->mbs_med);
			stats_num(bu, sizeof(bu), "%.1f", e->bursts_med);
			if (isnan(e->peak_af_med))
				snprintf(pk, sizeof(pk), "-");
			else
				fmt_size(pk, sizeof(pk), (uint64_t)e->peak_af_med * 1024);
			stats_num(rf, sizeof(rf), "%.0f", e->refault_med);
			stats_num(mj, sizeof(mj), "%.0f", e->majflt_med);
			W(fprintf(f, " %7s %5s %6s %5s %7s %6s", el, mbs, bu, pk, rf, mj));
		}
		W(fprintf(f, "\n"));
	}

	W(fprintf(f, "\nratio of median elapsed (bootstrap 95%% CI, Mann-Whitney p)\n"));
	W(fprintf(f, "%-*s %-5s %7s %7s  %-16s %6s  %s\n", NAME_W, "strategy", "vs", "runs",
		  "ratio", "95% CI", "p", "verdict"));
	for (int i = 0; i < c->nrows; i++) {
		const struct compare_row *w = &c->rows[i];
		for (int r = 1; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			char ta[COMPARE_LABEL_MAX], tb[COMPARE_LABEL_MAX], vs[40], runs[24];
			char ratio[16], ci[40], p[16], verdict[COMPARE_LABEL_MAX + 32];
			tag(c, 0, ta, sizeof(ta));
			tag(c, r, tb, sizeof(tb));
			snprintf(vs, sizeof(vs), "%.2s/%.2s", tb, ta);
			snprintf(runs, sizeof(runs), "%d+%d", w->cell[0].ok, e->ok);
			stats_num(ratio, sizeof(ratio), "%.3f", e->ratio);
			if (isnan(e->ci_lo))
				snprintf(ci, sizeof(ci), "-");
			else
				snprintf(ci, sizeof(ci), "[%.3f, %.3f]", e->ci_lo, e->ci_hi);
			if (isnan(e->p))
				snprintf(p, sizeof(p), "-");
			else if (e->p < 0.001)
				snprintf(p, sizeof(p), "<0.001");
			else
				snprintf(p, sizeof(p), "%.3f", e->p);
			switch (e->verdict) {
			case COMPARE_SAME:
				snprintf(verdict, sizeof(verdict), "no significant difference");
				break;
			case COMPARE_SLOWER:
				snprintf(verdict, sizeof(verdict), "%s slower", tb);
				break;
			case COMPARE_FASTER:
				snprintf(verdict, sizeof(verdict), "%s faster", tb);
				break;
			case COMPARE_NO_CI:
				snprintf(verdict, sizeof(verdict), "no confidence interval");
				break;
			default:
				snprintf(verdict, sizeof(verdict), "-");
			}
			W(fprintf(f, "%-*s %-5s %7s %7s  %-16s %6s  %s\n", NAME_W, w->name, vs,
				  runs, ratio, ci, p, verdict));
		}
	}
	W(probe_table(f, c));
	char note[256];
	int first = 1;
	for (int k = 0; compare_note(c, k, note, sizeof(note)); k++) {
		W(fprintf(f, "%s%s\n", first ? "\n" : "", note));
		first = 0;
	}
#undef W
	if (fflush(f) == EOF || ferror(f))
		bad = 1;
	return bad ? -1 : 0;
}
