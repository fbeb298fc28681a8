#include "model/sweep.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "model/stats.h"
#include "model/units.h"
#include "base/util.h"

void sweep_base_label(char *buf, size_t len, const struct run_result *r)
{
	char suf[40];
	sweep_suffix(suf, sizeof(suf), (enum sweep_param)r->sweep_param, r->sweep_value);
	size_t l = strlen(r->name), k = strlen(suf);
	if (r->sweep_param && l > k && !strcmp(r->name + l - k, suf))
		l -= k;
	snprintf(buf, len, "%.*s", (int)l, r->name);
}

static int value_index(const struct sweep_table *t, uint64_t v)
{
	for (int i = 0; i < t->nv; i++)
		if (t->v[i] == v)
			return i;
	return -1;
}

static int strat_index(struct sweep_table *t, const char *name, int add)
{
	for (int i = 0; i < t->ns; i++)
		if (!strcmp(t->strat[i], name))
			return i;
	if (!add || t->ns == SWEEP_MAX_STRATEGIES)
		return -1;
	strlcpy_(t->strat[t->ns], name, sizeof(t->strat[0]));
	return t->ns++;
}

/* Whether a run before r[i] of the table's sweep had label base but no
 * column either: a label past the columns is counted once.  Only a
 * recording with more labels than a live queue can have gets here. */
static int dropped_before(const struct sweep_table *t, const struct run_result *r, size_t i,
			  const char *base)
{
	for (size_t j = 0; j < i; j++) {
		char b[32];
		if (r[j].sweep_param != (int)t->param || !r[j].finished)
			continue;
		sweep_base_label(b, sizeof(b), &r[j]);
		if (!strcmp(b, base))
			return 1;
	}
	return 0;
}

/* A percentile bootstrap of one sample's median: compare_bootstrap's
 * ratio with a constant denominator is the resampled median itself. */
static int median_ci(const double *v, size_t n, uint64_t seed, double *lo, double *hi)
{
	static const double one[2] = {1.0, 1.0};
	return compare_bootstrap(one, 2, v, n, seed, lo, hi);
}

size_t sweep_table_build(struct sweep_table *t, const struct sweep_spec *sp,
			 const struct run_result *r, size_t n, int ci)
{
	memset(t, 0, sizeof(*t));
	size_t nsweep = 0;
	if (sp && sp->param) {
		t->param = sp->param;
		t->nv = sp->n;
		memcpy(t->v, sp->v, sizeof(t->v));
		t->geometric = sp->factor > 0;
	}
	for (size_t i = 0; i < n; i++) {
		if (!r[i].sweep_param || !r[i].finished)
			continue;
		if (!t->param)
			t->param = (enum sweep_param)r[i].sweep_param;
		if (r[i].sweep_param != (int)t->param)
			continue;
		nsweep++;
		if (value_index(t, r[i].sweep_value) < 0 && t->nv < SWEEP_MAX_VALUES)
			t->v[t->nv++] = r[i].sweep_value;
		char base[32];
		sweep_base_label(base, sizeof(base), &r[i]);
		if (strat_index(t, base, 1) < 0 && !dropped_before(t, r, i, base))
			t->dropped++;
	}
	qsort(t->v, (size_t)t->nv, sizeof(t->v[0]), sweep_cmp_value);
	/* a replay: geometric when the values step by one factor */
	if (!(sp && sp->param) && t->nv >= 3) {
		double f = (double)t->v[1] / (double)t->v[0];
		t->geometric = f > 1.05;
		for (int i = 2; i < t->nv; i++)
			if (fabs((double)t->v[i] / (double)t->v[i - 1] / f - 1) > 0.05)
				t->geometric = 0;
	}
	double el[RUNLOG_MAX_RUNS], bu[RUNLOG_MAX_RUNS], cv[RUNLOG_MAX_RUNS];
	for (int vi = 0; vi < t->nv; vi++)
		for (int s = 0; s < t->ns; s++) {
			struct sweep_cell *c = &t->cell[vi][s];
			size_t k = 0, kc = 0;
			for (size_t i = 0; i < n; i++) {
				char base[32];
				if (r[i].sweep_param != (int)t->param || !r[i].finished ||
				    r[i].sweep_value != t->v[vi])
					continue;
				sweep_base_label(base, sizeof(base), &r[i]);
				if (strcmp(base, t->strat[s]))
					continue;
				c->runs++;
				if (!r[i].ok)
					continue;
				el[k] = r[i].elapsed_s;
				bu[k++] = r[i].bursts;
				if (!isnan(r[i].read_cv))
					cv[kc++] = r[i].read_cv;
			}
			c->ok = (int)k;
			c->ci_lo = c->ci_hi = NAN;
			if (ci && k >= 2) {
				char key[64];
				snprintf(key, sizeof(key), "%s@%llu", t->strat[s],
					 (unsigned long long)t->v[vi]);
				if (median_ci(el, k, compare_seed(key, 0), &c->ci_lo, &c->ci_hi) <
				    0)
					c->ci_lo = c->ci_hi = NAN;
			}
			c->elapsed_med = stats_median(el, k);
			c->bursts_med = stats_median(bu, k);
			c->rdcv_med = stats_median(cv, kc);
		}
	return nsweep;
}

int sweep_row_used(const struct sweep_table *t, int vi)
{
	for (int s = 0; s < t->ns; s++)
		if (t->cell[vi][s].runs)
			return 1;
	return 0;
}

#define CELL_W 30 /* "12.34s [12.01-13.20]  2.0  0.45" */

void sweep_table_print(FILE *f, const struct sweep_table *t)
{
	if (!t->nv || !t->ns)
		return;
	fprintf(f, "\nsweep of %s: median elapsed [95%% CI], bursts, rdCV per value\n",
		sweep_param_name(t->param));
	fprintf(f, "%-10s", sweep_param_name(t->param));
	for (int s = 0; s < t->ns; s++)
		fprintf(f, "  %-*s", CELL_W, t->strat[s]);
	fputc('\n', f);
	fprintf(f, "%-10s", "");
	for (int s = 0; s < t->ns; s++)
		fprintf(f, "  %-21s %4s %4s", "elapsed [95% CI]", "brst", "rdCV");
	fputc('\n', f);
	for (int vi = 0; vi < t->nv; vi++) {
		if (!sweep_row_used(t, vi))
			continue;
		char v[24];
		sweep_value_str(v, sizeof(v), t->v[vi]);
		fprintf(f, "%-10s", v);
		for (int s = 0; s < t->ns; s++) {
			const struct sweep_cell *c = &t->cell[vi][s];
			char el[40], ci[32] = "", bu[16], cv[16];
			stats_num(el, sizeof(el), "%.2fs", c->elapsed_med);
			if (!isnan(c->ci_lo))
				snprintf(ci, sizeof(ci), "[%.2f-%.2f]", c->ci_lo, c->ci_hi);
			if (c->ok < c->runs) /* failed runs: how many of the value's were OK */
				snprintf(ci, sizeof(ci), "(%d/%d ok)", c->ok, c->runs);
			stats_num(bu, sizeof(bu), "%.1f", c->bursts_med);
			stats_num(cv, sizeof(cv), "%.2f", c->rdcv_med);
			char both[sizeof(el) + sizeof(ci) + 2];
			snprintf(both, sizeof(both), "%s %s", el, ci);
			fprintf(f, "  %-21s %4s %4s", both, bu, cv);
		}
		fputc('\n', f);
	}
	if (t->dropped)
		fprintf(f, "(%d more strateg%s not shown: the table has %d columns)\n", t->dropped,
			t->dropped == 1 ? "y" : "ies", SWEEP_MAX_STRATEGIES);
}

static double metric_of(const struct sweep_cell *c, enum sweep_metric m)
{
	return m == SWEEP_BURSTS ? c->bursts_med : m == SWEEP_RDCV ? c->rdcv_med : c->elapsed_med;
}

static int holds(const struct sweep_cell *c, const struct sweep_cond *k)
{
	double x = metric_of(c, k->metric);
	if (isnan(x))
		return 0;
	switch (k->op) {
	case SWEEP_GE:
		return x >= k->threshold;
	case SWEEP_GT:
		return x > k->threshold;
	case SWEEP_LE:
		return x <= k->threshold;
	case SWEEP_LT:
		return x < k->threshold;
	}
	return 0;
}

int sweep_bisect_next(const struct sweep_table *t, int s, const struct sweep_cond *c, int repeat,
		      int next[2], struct sweep_bracket *b)
{
	int n = t->nv, k = 0;
	memset(b, 0, sizeof(*b));
	if (n == 0 || s >= SWEEP_MAX_STRATEGIES)
		return 0;
#define DONE(i)	  (s >= 0 && s < t->ns && t->cell[i][s].runs >= repeat)
#define FAILED(i) (t->cell[i][s].ok == 0)
	if (!DONE(0))
		next[k++] = 0;
	if (n > 1 && !DONE(n - 1))
		next[k++] = n - 1;
	if (k)
		return k;
	int a = 0, z = n - 1;
	if (FAILED(a) || FAILED(z)) {
		b->kind = SWEEP_FAILED;
		b->no_v = t->v[FAILED(a) ? a : z];
		return 0;
	}
	int ha = holds(&t->cell[a][s], c), hz = holds(&t->cell[z][s], c);
	if (ha == hz) {
		b->kind = ha ? SWEEP_ALWAYS : SWEEP_NEVER;
		return 0;
	}
	while (z - a > 1) {
		int m = a + (z - a) / 2;
		if (!DONE(m)) {
			next[0] = m;
			return 1;
		}
		if (FAILED(m)) {
			b->kind = SWEEP_FAILED;
			b->no_v = t->v[m];
			return 0;
		}
		if (holds(&t->cell[m][s], c) == ha)
			a = m;
		else
			z = m;
	}
#undef DONE
#undef FAILED
	b->kind = SWEEP_BRACKET;
	b->no_v = ha ? t->v[z] : t->v[a];
	b->yes_v = ha ? t->v[a] : t->v[z];
	return 0;
}

void sweep_bracket_str(char *buf, size_t len, const struct sweep_table *t, int s,
		       const struct sweep_cond *c, const struct sweep_bracket *b)
{
	char no[24], yes[24], lo[24], hi[24];
	sweep_value_str(no, sizeof(no), b->no_v);
	sweep_value_str(yes, sizeof(yes), b->yes_v);
	sweep_value_str(lo, sizeof(lo), t->v[0]);
	sweep_value_str(hi, sizeof(hi), t->v[t->nv ? t->nv - 1 : 0]);
	const char *p = sweep_param_name(t->param);
	switch (b->kind) {
	case SWEEP_BRACKET:
		snprintf(buf, len, "%s: %s holds from %s=%s (not at %s): bracket [%s, %s]",
			 t->strat[s], c->text, p, yes, no, no, yes);
		break;
	case SWEEP_ALWAYS:
		snprintf(buf, len, "%s: %s holds at both ends (%s..%s): no bracket", t->strat[s],
			 c->text, lo, hi);
		break;
	case SWEEP_NEVER:
		snprintf(buf, len, "%s: %s holds at neither end (%s..%s): no bracket", t->strat[s],
			 c->text, lo, hi);
		break;
	case SWEEP_FAILED:
		snprintf(buf, len, "%s: no OK run at %s=%s: the bisection stopped", t->strat[s], p,
			 no);
		break;
	}
}

void sweep_bracket_print(FILE *f, const struct sweep_table *t, const struct sweep_cond *c,
			 int repeat)
{
	if (!c->set || !t->nv)
		return;
	fprintf(f, "\nbisection until %s (median of %d run%s a value):\n", c->text, repeat,
		repeat == 1 ? "" : "s");
	for (int s = 0; s < t->ns; s++) {
		int next[2];
		struct sweep_bracket b;
		char line[256];
		if (sweep_bisect_next(t, s, c, repeat, next, &b) > 0) {
			fprintf(f, "  %s: unfinished (the runs were stopped)\n", t->strat[s]);
			continue;
		}
		sweep_bracket_str(line, sizeof(line), t, s, c, &b);
		fprintf(f, "  %s\n", line);
	}
}

void sweep_plot_build(struct sweep_plot *p, const struct sweep_table *t)
{
	memset(p, 0, sizeof(*p));
	p->log_x = t->geometric;
	double emax = 0, bmax = 0;
	for (int vi = 0; vi < t->nv; vi++) {
		if (!sweep_row_used(t, vi))
			continue;
		p->vi[p->n++] = vi;
		for (int s = 0; s < t->ns; s++) {
			const struct sweep_cell *c = &t->cell[vi][s];
			double e = !isnan(c->ci_hi) ? c->ci_hi : c->elapsed_med;
			if (!isnan(e) && e > emax)
				emax = e;
			if (!isnan(c->bursts_med) && c->bursts_med > bmax)
				bmax = c->bursts_med;
		}
	}
	p->elapsed_top = nice_ceil(emax > 0 ? emax : 1);
	p->bursts_top = nice_ceil(bmax > 0 ? bmax : 1);
	if (p->n < 2)
		return; /* one value: at 0 */
	double lo = (double)t->v[p->vi[0]], hi = (double)t->v[p->vi[p->n - 1]];
	for (int i = 0; i < p->n; i++) {
		double v = (double)t->v[p->vi[i]];
		p->x[i] = p->log_x ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
	}
}
