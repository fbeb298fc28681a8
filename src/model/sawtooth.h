/*
 * sawtooth — the sawtooth in one number: rd/cp, the bytes a run read from
 * the disk for each byte it copied.
 *
 * mm_sync_cp's active list saws, and the pages it demotes and loses
 * before it is done with them it reads again: under the 2008 demo's 40M
 * cgroup it read the 320M source 1.84-2.44 times, rw_cp 1.00-1.08 and
 * mm_sync_madv_cp 1.00-1.61 (docs/output.md has the table: -i 0.1, 0.25
 * and 1 with --disk-limit 30M, 32M and none, three runs each).  Under a
 * disk limit that is why it takes twice as long: the throttle lets its
 * bytes through at the limit either way.  What the samples of the read
 * rate show of it depends on the interval: the throttle lets reads
 * through one read-ahead window (8 MiB) at a time, so a flat copy's 0.1 s
 * samples hold 0 or 1 window and its 1 s samples 3 or 4, while
 * mm_sync_cp's stalls and catch-ups last under a second.  rdCV, the share
 * of samples below half the median rate, the periodogram's peak and the
 * lag of the bytes behind a steady copy each failed to separate the two
 * at one interval or more; a count of bytes over the whole copy has no
 * interval in it.
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

#include "runlog.h"

/* rd/cp of r: inblock x 512 over the bytes it copied; NAN for a run that
 * copied nothing or has a negative count (a recording's). */
double sawtooth_read_ratio(const struct run_result *r);

#endif
