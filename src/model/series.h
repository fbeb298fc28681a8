/*
 * series — the history: a preallocated ring of samples, oldest evicted first.
 *
 * Invariants: the ring is allocated once by series_new and never grows, so
 * pushing a sample allocates nothing; index 0 is the oldest sample still
 * held, series_len()-1 the newest.  Views read the series; only the sampling
 * loop (or a replay reader) pushes.
 */
#ifndef LRUTOP_SERIES_H
#define LRUTOP_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "sample.h"

struct series;

struct series *series_new(size_t capacity);
void series_free(struct series *s);
void series_push(struct series *s, const struct sample *smp);
size_t series_len(const struct series *s);
size_t series_capacity(const struct series *s);
/* i in [0, len): 0 oldest.  NULL when out of range. */
const struct sample *series_at(const struct series *s, size_t i);
/* back in [0, len): 0 newest.  NULL when out of range. */
const struct sample *series_back(const struct series *s, size_t back);
/* Index of the first sample taken at or after t_ns (the sample whose
 * interval holds an event at t_ns), or -1.  Binary search: samples are
 * pushed in time order. */
long series_find(const struct series *s, uint64_t t_ns);
/* Total samples ever pushed (for "n samples" labels and batch -n). */
unsigned long long series_pushed(const struct series *s);

/* Capacity that holds `seconds` of history at `interval` seconds, clamped to
 * [64, 200000] samples. */
size_t series_capacity_for(double seconds, double interval);

#endif
