#include "model/units.h"

#include <math.h>
#include <stdio.h>

double nice_ceil(double v)
{
	if (!(v > 0))
		return 1;
	double e = pow(10, floor(log10(v)));
	double m = v / e;
	double n = m <= 1.0000001 ? 1 : m <= 2.0000001 ? 2 : m <= 5.0000001 ? 5 : 10;
	return n * e;
}

static double autoscale_step(struct autoscale *a, double seen_max, double floor, int patience,
			     int fine)
{
	if (!(seen_max > floor))
		seen_max = floor;
	double want = nice_ceil(seen_max * 1.05);
	if (fine) {
		static const double steps[] = {1, 1.5, 2, 3, 4, 5, 6, 8, 10};
		double e =
		    pow(10, (double)(long)log10(seen_max * 1.05) - (log10(seen_max * 1.05) < 0));
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
			if (steps[i] * e >= seen_max * 1.05 * 0.9999999) {
				want = steps[i] * e;
				break;
			}
	}
	if (!(a->max > 0) || want > a->max) {
		a->max = want;
		a->low_ticks = 0;
	} else if (seen_max < 0.4 * a->max) {
		if (++a->low_ticks >= patience) {
			a->max = want;
			a->low_ticks = 0;
		}
	} else {
		a->low_ticks = 0;
	}
	return a->max;
}

double autoscale_update(struct autoscale *a, double seen_max, double floor, int patience)
{
	return autoscale_step(a, seen_max, floor, patience, 0);
}

double autoscale_update_fine(struct autoscale *a, double seen_max, double floor, int patience)
{
	return autoscale_step(a, seen_max, floor, patience, 1);
}

void fmt_num(char *buf, size_t len, double v)
{
	static const char *suffix[] = {"", "k", "M", "G", "T"};
	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	int s = 0;
	double a = fabs(v);
	while (a >= 999.5 && s < 4) {
		a /= 1000;
		v /= 1000;
		s++;
	}
	if (a == 0)
		snprintf(buf, len, "0");
	else if (a < 9.95)
		snprintf(buf, len, "%.*f%s", s == 0 && a < 0.995 ? 2 : 1, v, suffix[s]);
	else
		snprintf(buf, len, "%.0f%s", v, suffix[s]);
}

void fmt_mib(char *buf, size_t len, uint64_t bytes)
{
	double m = (double)bytes / 1048576.0;
	if (m >= 1024)
		snprintf(buf, len, "%.4g GiB", m / 1024);
	else
		snprintf(buf, len, "%.4g MiB", m);
}

static const struct mem_unit mem_units[] = {
    {1.0, "KiB"},	      /* fmt_size's K */
    {1024.0, "MiB"},	      /* M */
    {1048576.0, "GiB"},	      /* G */
    {1073741824.0, "TiB"},    /* T */
    {1099511627776.0, "PiB"}, /* P: fmt_size's last */
};

const struct mem_unit *mem_unit_of(double top_kib)
{
	if (!(top_kib > 0))
		return &mem_units[1];
	size_t i = 0;
	while (i + 1 < sizeof(mem_units) / sizeof(mem_units[0]) && top_kib >= mem_units[i + 1].kib)
		i++;
	return &mem_units[i];
}

void fmt_mem_axis(char *buf, size_t len, double top_kib, const struct mem_unit *u)
{
	double v = top_kib / u->kib;
	snprintf(buf, len, v < 10.0 && v != (double)(uint64_t)v ? "%.1f%c" : "%.0f%c", v,
		 u->name[0]);
}

/* The k-th smallest of a[0..n) (0-based), a reordered: quickselect with
 * a median-of-three pivot, in place.  qsort would do, but glibc's merge
 * sort mallocs a buffer for arrays over a page, and this runs every tick
 * (the per-tick path allocates nothing). */
static double select_kth(double *a, int n, int k)
{
	int lo = 0, hi = n - 1;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		double x = a[lo], y = a[mid], z = a[hi];
		double p = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		int i = lo, j = hi;
		while (i <= j) {
			while (a[i] < p)
				i++;
			while (a[j] > p)
				j--;
			if (i <= j) {
				double t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return a[k];
	}
	return a[k];
}

double chart_quantile(const double *v, int n, double q, double *tmp)
{
	int m = 0;
	for (int i = 0; i < n; i++)
		if (!isnan(v[i]))
			tmp[m++] = v[i];
	if (!m)
		return -1;
	int k = (int)ceil(q * m) - 1;
	return select_kth(tmp, m, k < 0 ? 0 : k >= m ? m - 1 : k);
}
