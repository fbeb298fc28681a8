#include "probe_acc.h"

#include <string.h>

#include "strategy.h"
#include "util.h"

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
	else if (smp->phase == PHASE_COPY || smp->phase == PHASE_FLUSH)
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
