#include "model/probe_acc.h"

#include <math.h>
#include <string.h>

#include "model/phase.h"
#include "model/series.h"

#include "base/util.h"

void probe_acc_init(struct probe_acc *a, const char *mode)
{
	memset(a, 0, sizeof(*a));
	strlcpy_(a->mode, mode, sizeof(a->mode));
	a->run_idx = -1;
}

void probe_acc_add(struct probe_acc *a, const struct sample *smp, int quiet, uint64_t ns)
{
	hist_add(&a->tick, ns);
	if (smp->run < 0)
		return;
	if (smp->run != a->run_idx) {
		hist_reset(&a->run);
		a->run_idx = smp->run;
	}
	if (smp->phase == PHASE_PREPARE && quiet)
		hist_add(&a->idle, ns);
	else if (phase_moves_bytes(smp->phase))
		hist_add(&a->run, ns);
}

void probe_acc_tick(struct probe_acc *a, struct sample *smp)
{
	smp->have |= SAMPLE_HAVE_PROBE;
	smp->probe_n = (uint32_t)a->tick.count;
	smp->probe_p50 = hist_quantile(&a->tick, 0.50);
	smp->probe_p99 = hist_quantile(&a->tick, 0.99);
	smp->probe_max = a->tick.count ? a->tick.max : 0;
	smp->probe_slow = (uint32_t)hist_count_above(&a->tick, PROBE_SLOW_NS);
	hist_reset(&a->tick);
}

void probe_acc_result(const struct probe_acc *a, struct run_result *r, int idx)
{
	static const struct histogram none;
	memset(&r->probe, 0, sizeof(r->probe));
	strlcpy_(r->probe.mode, a->mode, sizeof(r->probe.mode));
	probe_figures_fill(&r->probe, idx == a->run_idx ? &a->run : &none, &a->idle);
}

void probe_acc_span(const struct series *ser, long lo, long hi, double *p50, double *p99,
		    double *max)
{
	*p50 = *p99 = *max = NAN;
	for (long k = lo < 0 ? 0 : lo; hi >= 0 && k <= hi; k++) {
		const struct sample *s = series_at(ser, (size_t)k);
		if (!(s->have & SAMPLE_HAVE_PROBE) || !s->probe_n)
			continue;
		double a = (double)s->probe_p50 / 1e6, b = (double)s->probe_p99 / 1e6,
		       c = (double)s->probe_max / 1e6;
		*p50 = isnan(*p50) || a > *p50 ? a : *p50;
		*p99 = isnan(*p99) || b > *p99 ? b : *p99;
		*max = isnan(*max) || c > *max ? c : *max;
	}
}

int probe_acc_seen(const struct series *ser)
{
	size_t n = series_len(ser);
	/* the probe runs for the whole session: the newest sample tells */
	return n && (series_at(ser, n - 1)->have & SAMPLE_HAVE_PROBE);
}
