/*
 * preset — the named run presets of --demo[=NAME], in one table: which
 * strategies, memory limit, disk throttle and source size a talk starts
 * with.  "2008" (the default) is the 2008 machine: a small memory cgroup
 * and a throttled disk, so mm_sync_cp's demotion bursts show in the read
 * rate too; "today" is this machine's fast disk, where they show in the
 * LRU lists only.  Every value in the table says how it was measured.
 *
 * Invariants: a value the user gave (-s/--cmd, --mem-limit, --disk-limit,
 * --size/--src, --glyphs) is never replaced, nor the parameter --sweep
 * sets (it is the sweep's); a limit this machine cannot
 * enforce (not root, no memory or blkio/io controller, --dir not on a
 * disk) is left out and the note says so — the demo still runs.
 */
#ifndef LRUTOP_PRESET_H
#define LRUTOP_PRESET_H

#include <stddef.h>
#include <stdint.h>

struct options;
struct cgroup_home;

struct preset {
	const char *name;	/* what --demo=NAME takes */
	const char *strategies; /* -s LIST unless -s or --cmd was given */
	uint64_t mem_limit;	/* --mem-limit, 0 = none */
	uint64_t disk_limit;	/* --disk-limit, bytes/s, 0 = none */
	uint64_t size;		/* --size; 0 = size_x times the memory limit */
	unsigned size_x;
	uint64_t size_nocg; /* --size when no memory cgroup can be made */
};

/* The preset --demo without a name means. */
#define PRESET_DEFAULT "2008"

/* The preset called name, NULL if there is none. */
const struct preset *preset_find(const char *name);
/* "2008 or today": the names, for an error message. */
const char *preset_names(void);

/* Fills what o leaves unset from p (see the invariants); whether a limit
 * can be had is asked of cgroups (which may ask systemd for a scope).
 * note gets a sentence for the status line and batch stderr when a limit
 * had to be left out (why, and that the run has no memory pressure / no
 * throttle), else ""; desc gets what the header shows, e.g. "demo 2008:
 * 40M mem, 32M/s disk", "demo 2008: no memory pressure (no cgroup), no
 * disk throttle" (the values in effect, the user's included). */
void preset_apply(const struct preset *p, struct options *o, struct cgroup_home *cgroups, char *note,
		  size_t notelen, char *desc, size_t desclen);

#endif
