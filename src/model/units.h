/*
 * units — numbers for axes and legends: nice steps, auto-scaling with
 * hysteresis, quantiles, short number and size labels, the unit of a
 * memory axis.  Below screen/ and output/
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

/* A memory axis' unit: KiB in one, and its name. */
struct mem_unit {
	double kib;
	const char *name; /* "KiB", "MiB", "GiB", "TiB", "PiB" */
};
/* The unit a memory axis whose top is top_kib is labelled in: the largest
 * whose one is at most the top (MiB from 1 MiB, GiB from 1 GiB, ...: the
 * steps of fmt_size), MiB for an axis without a top (NAN, 0).  The plot
 * model takes it once for both renderers: the TUI's "3.9G" is the SVG's
 * "GiB" axis, never its "3994 MiB". */
const struct mem_unit *mem_unit_of(double top_kib);
/* top_kib in unit u for a terminal's axis label: "3.9G", "200M", "1000G"
 * (one decimal below 10 where it is not whole, else none). */
void fmt_mem_axis(char *buf, size_t len, double top_kib, const struct mem_unit *u);

#endif
