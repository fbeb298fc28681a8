/*
 * sawtooth — the one number that tells mm_sync_cp's run from rw_cp's at
 * every sampling interval, throttled or not: rd/cp, the bytes a run read
 * from the disk for each byte it copied.
 *
 * What it counts is what memory pressure costs a copy's reads.  A mapped
 * copy's page fault reads a window around the faulting page, half of it
 * behind (mm/filemap.c, do_sync_mmap_readahead: "mmap read-around"), and
 * a read-ahead only reads pages that are not cached; in the 2008 demo's
 * 40M cgroup the pages behind the copy are gone, so mm_sync_cp reads its
 * source about twice: 1.84-2.80 against rw_cp's 1.00-1.13 over -i 0.1,
 * 0.25 and 1 with --disk-limit 30M, 32M and none (docs/output.md has the
 * table, six runs a setting).  MADV_SEQUENTIAL reads ahead only
 * (mm_sync_madv_cp 1.00-1.64); without a cgroup mm_sync_cp reads its file
 * once (1.00).  It is not the demotion bursts (a 160M source at 30M:
 * rd/cp 2.11 with none), but under a disk limit it is why mm_sync_cp
 * takes twice rw_cp's time: the throttle lets its bytes through at the
 * limit either way.
 *
 * The shape of the read rate does not separate the two at every interval:
 * the throttle lets reads through one read-ahead window (8 MiB) at a time,
 * so a flat copy's 0.1 s samples hold 0 or 1 window and its 1 s samples 3
 * or 4, while mm_sync_cp's stalls and catch-ups last under a second, and
 * on a loaded machine rw_cp's own reads come late and in pairs.  rdCV, the
 * share of samples below half the median rate, the periodogram's peak and
 * the lag of the bytes behind a steady copy each failed at most settings;
 * a count of bytes over the whole copy has no interval in it.
 *
 * The bytes are the worker's own, from its rusage: ru_inblock, the
 * kernel's read_bytes of the task (and of the children a --cmd waited
 * for) in 512-byte units, counted where the read is submitted, read-ahead
 * included, over copy and flush only.  They agree with the run's blkio
 * cgroup's bytes over its samples to 0.1 % wherever the samples cover the
 * copy's last read, and are exact where they do not (a copy shorter than
 * a sample, a last read after the last sample): the cgroup's count is
 * read once a tick, the rusage at the end.  A kernel without
 * CONFIG_TASK_IO_ACCOUNTING reports 0, as a copy from a cached source
 * (--no-drop-caches) does.
 *
 * Invariants: a pure function of the result's stored fields, so a replay
 * of any recording (those made before this figure too) shows the same
 * value the live run did.
 */
#ifndef LRUTOP_SAWTOOTH_H
#define LRUTOP_SAWTOOTH_H

#include "model/runlog.h"

/* rd/cp of r: inblock x 512 over the bytes it copied; NAN for a run that
 * copied nothing or has a negative count (a recording's). */
double sawtooth_read_ratio(const struct run_result *r);

#endif
