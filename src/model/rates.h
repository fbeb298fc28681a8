/*
 * rates — what two samples say happened between them: MB/s, events/s,
 * CPU shares.  Pure functions of two samples, so charts, batch lines, CSV
 * and replay all agree.
 *
 * Invariants: a rate is a counter delta divided by the *measured* time
 * between the two samples (t_ns), never by the nominal interval.  A rate
 * that cannot be known — first sample, source missing in either sample,
 * counter reset, device re-created — is NAN, which every consumer shows as
 * "no data" (empty CSV cell, gap in a chart), never as 0 or a spike.
 */
#ifndef LRUTOP_RATES_H
#define LRUTOP_RATES_H

#include <stdint.h>

#include "sampling/sample.h"

struct rates {
	double dt;			/* seconds between the samples */
	double read_mbs, write_mbs;	/* 2^20 bytes per second */
	double read_iops, write_iops;
	double util_pct;		/* io_ticks share of dt */
	double pgactivate_s, pgdeactivate_s, pgscan_s, pgsteal_s;
	double refault_file_s, activate_file_s, majflt_s;
	double pgpgin_kbs, pgpgout_kbs, swpin_kbs, swpout_kbs;
	double intr_s, ctxt_s;
	double cpu_user, cpu_sys, cpu_idle, cpu_iowait, cpu_steal; /* percent */
	double cg_pgdeactivate_s;
};

/* Counter delta b - a.  A 32-bit counter that wrapped (a in the top quarter
 * of 2^32, b in the bottom quarter) yields the wrapped delta; any other
 * decrease is a reset and yields -1. */
int64_t rate_delta(uint64_t a, uint64_t b);

/* (b - a) / dt, or NAN for a reset or dt <= 0. */
double rate_per_s(uint64_t a, uint64_t b, double dt);

/* MiB/s from two counts of 512-byte sectors (/proc/diskstats'), NAN for
 * a reset or dt <= 0: the disk charts, the iostat table. */
double rate_sectors_mibs(uint64_t a, uint64_t b, double dt);

/* Fills r from the older sample a and the newer sample b.  Everything is
 * NAN when a is NULL. */
void rates_compute(const struct sample *a, const struct sample *b, struct rates *r);

/* The run's own read and write MiB/s from a to b: the deltas of its
 * cgroup's disk bytes where b has them (SAMPLE_HAVE_CG_IO; a without them,
 * or from another cgroup, predates the cgroup, which counts from 0), else
 * the whole disk's r->read_mbs / write_mbs (r: rates_compute(a, b)).
 * Writes come from the cgroup only on v2 (SAMPLE_HAVE_CG_IO_WB): v1 blkio
 * charges buffered write-back to the root cgroup, not to the run. */
void rates_run_io(const struct sample *a, const struct sample *b, const struct rates *r,
		  double *read_mbs, double *write_mbs);

/* Scanned and stolen pages, whole-system: by type (file+anon) where the
 * kernel reports it, else by reclaimer (kswapd+direct); never both. */
uint64_t sample_pgscan(const struct sample *s);
uint64_t sample_pgsteal(const struct sample *s);

#endif
