/*
 * probe_acc — what the monitor makes of the probe's latencies (probe.h):
 * per sample, the p50 / p99 / max of the reads that arrived since the last
 * one (into struct sample, SAMPLE_HAVE_PROBE, so a recording replays the
 * strip); per run, the reads from its copy to its end (copy and flush
 * phases) and the idle baseline — the reads while the session holds a
 * drained system still before the copy (session_quiet), pooled over every
 * run so far — into the run's probe_figures.
 *
 * Invariants: three preallocated histograms, nothing allocates; a run's
 * histogram is reset when a new run starts.
 */
#ifndef LRUTOP_PROBE_ACC_H
#define LRUTOP_PROBE_ACC_H

#include "model/histogram.h"
#include "model/runlog.h"
#include "sampling/sample.h"

struct probe_acc {
	char mode[8]; /* "cold" / "direct": what the figures say */
	struct histogram tick, run, idle;
	int run_idx; /* the run the run histogram is of, -1 */
};

void probe_acc_init(struct probe_acc *a, const char *mode);
/* One latency (ns) that arrived while smp's run and phase held (smp
 * annotated already); quiet: the session holds still before a copy. */
void probe_acc_add(struct probe_acc *a, const struct sample *smp, int quiet, uint64_t ns);
/* The tick's figures into smp (SAMPLE_HAVE_PROBE), and a new tick. */
void probe_acc_tick(struct probe_acc *a, struct sample *smp);
/* The finished run r, index idx in the run log: its probe figures. */
void probe_acc_result(const struct probe_acc *a, struct run_result *r, int idx);

/* The probe's figures over the samples [lo, hi] of a series (a chart
 * column), ms: the largest p50, p99 and max of the samples with reads;
 * NAN where none had any (no probe, or a read stalled the whole tick). */
struct series;
void probe_acc_span(const struct series *ser, long lo, long hi, double *p50, double *p99,
		    double *max);
/* 1 when a sample of ser has the probe's figures (the Overview's strip). */
int probe_acc_seen(const struct series *ser);

#endif
