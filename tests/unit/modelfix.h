/*
 * modelfix — the start of a synthetic model the view and plot suites
 * build by hand: an empty series and run log tied together, the sample
 * interval and the disk's name, and a machine-wide sample of a 4 GiB box
 * outside any run.  Shared so each suite does not carry its own copy.
 * static inline: a suite that does not use one gets no unused-function
 * warning.
 */
#ifndef LRUTOP_MODELFIX_H
#define LRUTOP_MODELFIX_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"

/* m's series (cap samples) and a new run log in *log, tied to m; disk
 * NULL leaves the disk's name empty. */
static inline void mf_model(struct model *m, struct runlog **log, size_t cap, double interval,
			    const char *disk)
{
	m->series = series_new(cap);
	*log = runlog_new();
	m->log = *log;
	m->interval = interval;
	if (disk)
		snprintf(m->disk, sizeof(m->disk), "%s", disk);
}

/* A zeroed sample at t_ns with memory, vmstat and disk figures: 4 GiB of
 * memory (in KiB), free KiB free, file KiB on each file LRU, no run. */
static inline void mf_sample(struct sample *s, uint64_t t_ns, uint64_t free, uint64_t file)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = t_ns;
	s->have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK;
	s->mem_total = 4ull << 20;
	s->mem_free = free;
	s->active_file = s->inactive_file = file;
	s->run = -1;
}

/* The end of a model begun by mf_model. */
static inline void mf_model_free(struct model *m, struct runlog *log)
{
	series_free(m->series);
	runlog_free(log);
}

#endif
