/*
 * model — what lrutop knows: the history, the latest per-device tables, the
 * run log and the runs' progress, the machine's names, and the model clock.
 * The UI state (what the user looks at) is apart, in ui.h.
 *
 * Invariants: only the source's sink (app.c) writes here, once per item;
 * views get a const pointer and never change history (htop's mistake of
 * appending history from draw code is what this split prevents).
 */
#ifndef LRUTOP_MODEL_H
#define LRUTOP_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "sampling/residency.h"
#include "model/runlog.h"
#include "sampling/sample.h"
#include "model/series.h"

struct strategy_stats; /* stats.h */
struct compare;
#define MODEL_MAX_STRATEGIES 64 /* = SESSION_MAX_STRATEGIES */
#define MODEL_HOST_MAX	     64 /* the host's name with its NUL (--host-label's bound) */

struct model {
	struct series *series;
	/* Times the history stopped following on from itself: a replay's
	 * seek (forwards too: its frames were drawn from other samples), its
	 * reset, another source (a talk's next stage).  The Overview's plot
	 * starts afresh on a new count (plot_opts.jumps). */
	unsigned long jumps;
	struct disktab disks[2]; /* previous and current, see disks_cur */
	int disks_cur;		 /* index of the newer table; -1 before the first */
	int disks_n;		 /* how many tables have been read (0, 1, 2+) */
	/* where in the run's files the cache is: the newest tick's map
	 * (residency.h; n = 0 for a file without one) */
	struct residency_map map;
	/* the source can deliver maps (live; a recording of minor 3 or
	 * later): only then has the strip its map rows, so an older
	 * recording's strip does not spend them on "no map yet"; and the
	 * page size of the machine they were read on (a recording's header) */
	int map_source;
	long map_page_size;

	char host[MODEL_HOST_MAX], kernel[64];
	char disk[64];		/* watched disk ("" for none) */
	char disk_how[160];	/* how it was chosen, e.g. "/var/tmp is on vda" */
	char missing[256];	/* sources that could not be read */
	/* machine.h: MGLRU on (the "active" lists are its two youngest
	 * generations); the watched disk's virtual kind ("virtio", "loop", ...,
	 * "" for a physical one) */
	int mglru;
	int mglru_gens; /* ... and its generations are read (debugfs lru_gen) */
	char disk_kind[24];
	double interval;

	const struct runlog *log; /* results, events, baseline (never NULL after app_init) */
	struct run_progress runs; /* what the runs are doing now (RUNS_NONE: none asked for) */
	/* The per-strategy statistics of the run log (MODEL_MAX_STRATEGIES
	 * entries), computed when the log changes, not by the views. */
	struct strategy_stats *stats;
	int nstats;

	/* A replay (replay.on): where it is; recording: --record or R is
	 * writing a file now (the header's REC mark). */
	struct {
		int on;
		char date[40]; /* the recording's start, "2026-12-01 09:10" */
		double t_s, len_s, speed; /* speed 0: as fast as possible */
		int paused, at_end;
		int fallback; /* a talk's recorded run, played because the live one failed */
	} replay;
	/* --follow (follow.on): the writer's newest sample against now
	 * (behind_known: a sample came and the writer's start is known), a
	 * writer saying nothing (stalled, for idle_s whole seconds), the end
	 * (enum follow_end, source.h; 0 still following) and its sentence */
	struct {
		int on;
		double behind_s;
		int behind_known;
		long idle_s;
		int stalled;
		int end;
		char note[640];
	} follow;
	int recording;
	char probe_mode[8]; /* --probe: "cold" / "direct", "" without (strip_probe) */
	/* --compare in the TUI: the comparison of the recordings, NULL else */
	const struct compare *compare;
};

/* The model clock: what "now" is for everything drawn — the time of the
 * newest sample (live: the last tick; a replay: its position), 0 before
 * the first.  Views never read the system clock, so a paused or replayed
 * screen shows the figures of its own moment. */
uint64_t model_now(const struct model *m);

#endif
