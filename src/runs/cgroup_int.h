/*
 * cgroup_int — what the files behind cgroup.h share (internal to
 * src/runs/cgroup_*.c, not part of cgroup.h's API; docs/style.md rule 1):
 *
 *   cgroup_find.c   the hierarchy: v1, v2 or hybrid from mountinfo and
 *                   /proc/self/cgroup (struct cgroup_base), and the small
 *                   helpers every part uses (paths, control files, lists)
 *   cgroup_run.c    one run's cgroup: create, limits, throttle, remove
 *   cgroup_stale.c  the stale clean-up: dead owners' run cgroups and scopes
 *   cgroup_mark.c   the markers in run_dir: written, judged, restored
 *   cgroup_home.c   the home policy: where run cgroups go, once a process
 *
 * Nothing here prints or exits; the helpers keep errno for their caller.
 */
#ifndef LRUTOP_CGROUP_INT_H
#define LRUTOP_CGROUP_INT_H

#include "runs/cgroup.h"

#include <stddef.h>

/* ---- cgroup_find.c ------------------------------------------------------ */

int cgroup_path_join(char *out, size_t len, const char *a, const char *b);

/* Writes s to an existing control file; -1 with errno on failure.
 * O_TRUNC as a shell's "echo 0 > memory.max": cgroupfs ignores it, a
 * plain file (a test's layout) then holds just what was written. */
int cgroup_write_ctl(const char *path, const char *s);

/* 1 when word is one of the seps-separated items of list. */
int cgroup_has_item(const char *list, const char *word, const char *seps);

/* The first mount of fstype in mountinfo text (for "cgroup": the one whose
 * super options carry the controller ctl): its mount point and the
 * root of the hierarchy it shows (not "/" in a cgroup namespace or a bind
 * mount). */
int cgroup_find_mount(const char *mountinfo, const char *fstype, const char *ctl, char *mnt,
		      size_t mlen, char *root, size_t rlen);

/* dir's control file name lists word. */
int cgroup_ctl_lists(const char *dir, const char *name, const char *word);

/* Reads a whole /proc text file (small) into a malloc'd string. */
char *cgroup_slurp(const char *path);

/* cgroup v2's controllers are there at all (a hybrid system's unified
 * mount offers none: its controllers are on v1). */
int cgroup_v2_in_use(const struct cgroup_base *b);

/* ---- cgroup_run.c ------------------------------------------------------- */

/* Fills the paths of the control files the rest of lrutop reads. */
int cgroup_fill_paths(struct cgroup *cg);

/* ---- cgroup_home.c ------------------------------------------------------ */

/* "+memory" / "+io" into the v2 root's cgroup.subtree_control. */
int cgroup_enable_v2(const char *dir, const char *what, char *err, size_t errlen);

/* ---- cgroup_mark.c ------------------------------------------------------ */

/* What a marker can say was enabled / is used: two controllers, and the
 * debugfs mount (not a controller: given back by unmounting). */
struct cgroup_ctl {
	unsigned bit;
	const char *name;
	int controller;
};
#define CGROUP_NCTLS 3
extern const struct cgroup_ctl cgroup_ctls[CGROUP_NCTLS];

/* OWN at the top: controllers in want that the top does not yet hand to
 * its children are enabled there, the marker written first. */
int cgroup_home_enable_top(struct cgroup_home *h, unsigned want, char *err, size_t errlen);

/* The stale clean-up's part in run_dir, under its lock: every marker of a
 * gone owner gives back what it enabled (root only; without run_dir no
 * marker was ever written).  A run_dir that is not lrutop's to use is said
 * once (cgroup_home_take_warnings).  Returns how many controllers were
 * turned off again. */
int cgroup_marks_reap(struct cgroup_home *h);

#endif
