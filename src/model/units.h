/*
 * units — numbers for axes and legends: nice steps, auto-scaling with
 * hysteresis, quantiles, short number labels.  Below screen/ and output/
 * alike (both label the same scales), so neither reaches into the other
 * for them.  Pure functions of their arguments and the caller's state.
 */
#ifndef LRUTOP_UNITS_H
#define LRUTOP_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* The value at quantile q (0..1) of the non-NAN values in v[0..n), or -1
 * when there are none.  tmp: scratch for n doubles. */
double chart_quantile(const double *v, int n, double q, double *tmp);

/* Auto-scale with hysteresis: grows at once to a nice value above what is
 * visible, shrinks only after the data has stayed below 40 % of the scale
 * for `patience` consecutive updates, so the axis does not jump every tick. */
struct autoscale {
	double max;
	int low_ticks;
};
double autoscale_update(struct autoscale *a, double seen_max, double floor, int patience);
/* The same in steps of 1 1.5 2 3 4 5 6 8 ×10^k, not 1 2 5: the data fills
 * more of the chart's height. */
double autoscale_update_fine(struct autoscale *a, double seen_max, double floor, int patience);

/* Smallest 1/2/5×10^k that is >= v (v > 0). */
double nice_ceil(double v);
/* Short number for axis labels and legends: 0.42, 4.2, 42, 420, 4.2k, 42k, 4.2M. */
void fmt_num(char *buf, size_t len, double v);
/* A size for titles and messages, in the binary units every axis uses:
 * "64 MiB", "3.312 MiB", "1.937 GiB" (four significant digits, GiB from
 * 1024 MiB on).  The SVG's titles and legends, the stall watchdog's
 * message. */
void fmt_mib(char *buf, size_t len, uint64_t bytes);

#endif
