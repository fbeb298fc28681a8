/*
 * series — the history: a ring of samples, oldest evicted first, kept
 * packed (series.c: all but the newest two blocks of 32 samples, each
 * sample as its difference from the one before, sample_pack.h), ~90 bytes
 * a sample where struct sample is 704.
 *
 * Invariants: everything is allocated by series_new and never grows, so
 * pushing a sample allocates nothing (the pool for packed blocks is sized
 * for the worst case; its pages are touched as the history fills);
 * index 0 is the oldest sample still held, series_len()-1 the newest;
 * what series_at returns is the sample pushed, byte for byte.  A pointer
 * from series_at / series_back is good until the next push and until
 * eight other packed blocks have been read: a walk may hold a pair (the
 * sample before and the sample) but copies what it keeps across other
 * reads (sanitizer builds keep two blocks and free what gives way, so the
 * tests catch a pointer held too long).  Views read the series; only the
 * sampling loop (or a replay reader) pushes.
 */
#ifndef LRUTOP_SERIES_H
#define LRUTOP_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "sampling/sample.h"

struct series;

struct series *series_new(size_t capacity);
void series_free(struct series *s);
void series_push(struct series *s, const struct sample *smp);
size_t series_len(const struct series *s);
size_t series_capacity(const struct series *s);
/* i in [0, len): 0 oldest.  NULL when out of range. */
const struct sample *series_at(const struct series *s, size_t i);
/* Sample i's t_ns without reading the sample (0 when out of range): what
 * finds, time axes and column keys need. */
uint64_t series_t(const struct series *s, size_t i);
/* 0 when no sample near index i (its block of the history) has any of
 * the SAMPLE_HAVE_* bits: a walk that looks for one can pass it by
 * without unpacking it.  1 when one may. */
int series_may_have(const struct series *s, size_t i, uint32_t bits);
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
