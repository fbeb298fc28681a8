/*
 * cgroup — a memory cgroup for one run (--mem-limit, docs/design.md §3, §8).
 *
 * The cgroup, named "lrutop-<pid>-<tag>", is made where struct
 * cgroup_home (below; docs/cgroups.md) says: cgroup v1's memory hierarchy
 * beneath lrutop's own cgroup (memory.limit_in_bytes,
 * memory.memsw.limit_in_bytes where present); on cgroup v2 (memory.max,
 * memory.swap.max = 0) inside a scope systemd delegated to lrutop, or,
 * with no manager, beneath the nearest ancestor that hands the controller
 * on.  Our cgroup comes from /proc/self/cgroup, in the hierarchy
 * /proc/self/mountinfo shows; the roots are parameters so tests point the
 * module at a directory of their own.
 *
 * --disk-limit adds a throttle of the watched disk (struct cgroup_io): v2
 * io.max in the same cgroup ("+io" in the parent's cgroup.subtree_control),
 * v1 blkio.throttle.{read,write}_bps_device in a blkio cgroup of the same
 * name beside the memory one (the worker joins both); a run with only
 * --disk-limit gets only the io cgroup.  Without --disk-limit a run with a
 * memory cgroup is still put in an io / blkio cgroup (no throttle) where
 * the controller is there, so its own disk bytes can be read (io_stat);
 * where that cannot be made the run goes on without it.
 *
 * Implemented by five files, one job each (cgroup_int.h: what they
 * share): cgroup_find.c the hierarchy, cgroup_run.c one run's cgroup,
 * cgroup_stale.c the stale clean-up, cgroup_mark.c the markers in
 * /run/lrutop, cgroup_home.c struct cgroup_home.
 *
 * Invariants: only a cgroup lrutop created is ever removed (this run's, or
 * by cgroup_reap_stale one named lrutop-<pid>-* whose pid is gone); removal
 * kills what is left inside (the worker, a --cmd's children) and is
 * idempotent, so every exit path may call it.  No cgroup.subtree_control
 * is written but the delegated scope's and, with a marker that outlives a
 * SIGKILL and restored, the top's.  Nothing here prints or exits.
 */
#ifndef LRUTOP_CGROUP_H
#define LRUTOP_CGROUP_H

#include <stddef.h>
#include <stdint.h>

struct cgroup {
	int version;	   /* 1 or 2 */
	char path[4096];   /* the cgroup's directory */
	char procs[4096];  /* cgroup.procs: the worker writes its pid here */
	char stat[4096];   /* memory.stat */
	char usage[4096];  /* v2 memory.current, v1 memory.usage_in_bytes */
	char peak[4096];   /* v2 memory.peak, v1 memory.max_usage_in_bytes; "" if absent */
	char events[4096]; /* v2 cgroup.events; "" on v1 */
	uint64_t limit;	   /* bytes, 0: no memory cgroup (only a disk throttle) */
	int created;	   /* 1 while the directory is ours to remove */
	/* --disk-limit: where the throttle lives when path does not hold it
	 * (v1: the blkio cgroup of the same name), "" otherwise */
	char io_path[4096];
	char io_procs[4096]; /* its cgroup.procs: the worker joins it too */
	int io_version;
	int io_created;
	/* the run's own I/O counters (cgio.h): v2 io.stat, v1
	 * blkio.throttle.io_service_bytes of the cgroup the worker's I/O is
	 * charged to; "" when there is none.  io_stat_version: 1 or 2. */
	char io_stat[4096];
	int io_stat_version;
};

/* --disk-limit: one disk throttled to bps bytes per second, read and write. */
struct cgroup_io {
	unsigned major, minor;
	uint64_t bps;
};

/* Where run cgroups are made: our own cgroup in the hierarchy that holds
 * the memory controller. */
struct cgroup_base {
	int version;   /* 1 or 2 */
	int enable_v2; /* v2 root cgroup: "+memory" is still to be written to
			* its cgroup.subtree_control */
	char dir[4096];
	/* the io controller (--disk-limit), found whether or not memory is:
	 * io_version 0 = none, 2 = "io" in the unified hierarchy, 1 = v1
	 * blkio; io_enable_v2: "+io" is still to be written */
	int io_version;
	int io_enable_v2;
	char io_dir[4096];
	/* the unified hierarchy, where a cgroup2 mount shows our cgroup (v2
	 * 1): our cgroup's path in it ("/user.slice/user-0.slice/session-1.scope"),
	 * the mount's top directory and our own directory below it */
	int v2;
	char v2_path[4096];
	char v2_top[4096];
	char v2_self[4096];
};

/* Chooses the hierarchy from what is mounted, changing nothing:
 * mountinfo is text in the format of /proc/self/mountinfo, self that of
 * /proc/self/cgroup, and each mount point is looked up below root ("" for
 * the running system; a test passes a directory laid out as the kernel
 * would).  cgroup v2 when a cgroup2 mount shows our cgroup and the nearest
 * of our cgroup and its ancestors whose cgroup.subtree_control lists memory
 * is dir (run cgroups are made there, as its children: the controller is
 * already on for them); when none does but the top of the mount's
 * cgroup.controllers lists memory, dir is the top and enable_v2 says
 * "+memory" would have to be written there (cgroup_home does that, and
 * restores it).  Else v1 when a cgroup mount carries the memory controller
 * and our cgroup's memory.limit_in_bytes is writable.  -1 and a reason in
 * why otherwise.  The io controller is looked up the same way ("io" in v2,
 * else v1 blkio with a writable blkio.throttle.read_bps_device) and filled
 * in even when memory is not found (io_version 0 when neither has it).
 * Where systemd manages the tree this is only what is there: cgroup_home
 * asks systemd for a delegated scope instead of using an ancestor. */
int cgroup_find_base(const char *mountinfo, const char *self, const char *root,
		     struct cgroup_base *b, char *why, size_t whylen);
/* cgroup_find_base on /proc/self/mountinfo and /proc/self/cgroup, as root. */
int cgroup_base_detect(struct cgroup_base *b, char *why, size_t whylen);

/* 0 when a memory cgroup can be made here (root, and the memory controller
 * delegated in the unified hierarchy or mounted as v1); else -1 and
 * "--mem-limit needs root and the memory cgroup controller (<reason>)". */
int cgroup_available(char *err, size_t errlen);

/* 0 when the watched disk can be throttled here (root and the io / blkio
 * controller); else -1 and "--disk-limit needs root and the io (v2) or
 * blkio (v1) cgroup controller (<reason>)". */
int cgroup_io_available(char *err, size_t errlen);

/* Creates the cgroup "lrutop-<pid>-<tag>" beneath b->dir with a memory
 * limit of limit bytes (0: none) and, when io is not NULL, the disk
 * throttle (beneath b->io_dir where that is another directory); with a
 * limit and no io, an io cgroup without a throttle where b has the
 * controller (best effort: io_stat stays "" without).  At least
 * one of the two.  tag is a short label (characters other than
 * [A-Za-z0-9._-] become '_').  On failure nothing is left.  A base that
 * still needs a controller enabled (enable_v2, io_enable_v2 for a
 * throttle) is refused: only cgroup_home enables one, as it restores it;
 * an io cgroup only for the counters is then left out. */
int cgroup_create_in(struct cgroup *cg, const struct cgroup_base *b, uint64_t limit,
		     const struct cgroup_io *io, const char *tag, char *err, size_t errlen);
/* cgroup_create_in beneath cgroup_base_detect's base (no systemd scope,
 * nothing enabled: tests and tools; lrutop itself uses cgroup_home). */
int cgroup_create_run(struct cgroup *cg, uint64_t limit, const struct cgroup_io *io,
		      const char *tag, char *err, size_t errlen);
/* cgroup_create_in beneath cgroup_base_detect's base. */
int cgroup_create(struct cgroup *cg, uint64_t limit, const char *tag, char *err, size_t errlen);
/* The second half of cgroup_create_in, for a directory the kernel has just
 * made: fills the paths, writes the limit (v2 memory.max, memory.swap.max
 * = 0; v1 memory.limit_in_bytes, memory.memsw.limit_in_bytes where
 * present) and keeps what the kernel rounded it to.  Marks the cgroup as
 * ours to remove.  Public so tests can run it on a directory laid out as
 * the kernel documents it. */
int cgroup_adopt(struct cgroup *cg, int version, const char *dir, uint64_t limit, char *err,
		 size_t errlen);
/* Writes the throttle into an existing cgroup directory: v2 io.max
 * "MAJ:MIN rbps=N wbps=N", v1 blkio.throttle.read_bps_device and
 * write_bps_device "MAJ:MIN N".  Public for the same reason. */
int cgroup_write_io(int version, const char *dir, const struct cgroup_io *io, char *err,
		    size_t errlen);

/* Removes stale run cgroups beneath b->dir (and b->io_dir where that is
 * another directory: a memory cgroup and its blkio namesake count as one
 * run's cgroup): "lrutop-<pid>-<tag>" directories whose pid is gone
 * (tasks still inside are killed, as in cgroup_remove).  Returns how many were removed; *pid_out
 * (may be NULL) is the pid of the first. */
int cgroup_reap_stale(const struct cgroup_base *b, long *pid_out);

/* ---- cgroup_home: where this process makes its run cgroups ------------
 *
 * Decided once per process, on the first question (a limit, --demo, the
 * picker), and kept here rather than in a global (docs/style.md rule 5):
 *  - cgroup v1 (or a hybrid system whose memory controller is on v1): as
 *    cgroup_find_base says, beneath our own cgroup, nothing else.
 *  - cgroup v2 where systemd manages the tree (run/systemd/system exists
 *    and we are not in the root cgroup): systemd's rule is that only a
 *    delegated subtree is ours to write (CGROUP_DELEGATION), so we ask it
 *    for a transient scope lrutop-<pid>.scope with Delegate=yes holding
 *    lrutop itself, in the slice we are in (delegate.h; the user manager
 *    when not root), move into its leaf "monitor" (a cgroup with processes
 *    cannot hand controllers to children), write "+memory" and "+io" to
 *    the scope's own cgroup.subtree_control and make the run cgroups in
 *    the scope.  systemd removes the scope when lrutop is gone, SIGKILL
 *    included.  No ancestor is ever written to.
 *  - cgroup v2 with nothing managing it: the nearest ancestor that already
 *    hands the controller to its children (nothing changed); only where no
 *    ancestor does, "+memory" / "+io" into the top's cgroup.subtree_control,
 *    with a marker in run_dir (pid, start time, boot id, what was enabled,
 *    what is used) written first, so the marker outlives a SIGKILL:
 *    cgroup_home_done and, for a gone owner, the next start's reap write
 *    "-memory" / "-io" back, except for a controller another live lrutop
 *    still uses (its marker takes over the duty).  A controller that was on
 *    before lrutop is never turned off.
 *
 * A marker is acted on only when lrutop can vouch for it: a regular file
 * of root's, mode 0600 (0644: lrutop before), named for the pid it holds,
 * in a run_dir that is root's and writable by no one else and not a
 * symbolic link, whose dir is absolute and canonical and is the cgroup2
 * top (statfs: top_magic) or, for a debugfs marker, root +
 * SAMPLER_DEBUGFS (unmounted only while statfs there says debugfs_magic).
 * Anything else is renamed aside to NAME.bad with one warning
 * (cgroup_home_take_warnings) and nothing is written or unmounted for it.
 * Markers are written 0600 and fsynced, then renamed into place.
 */
#define CGROUP_RUN_DIR "/run/lrutop"

enum cgroup_mode {
	CGROUP_MODE_NONE,  /* nothing usable (why, io_why say what is missing) */
	CGROUP_MODE_V1,	   /* as cgroup_find_base: v1, or v2 found without asking */
	CGROUP_MODE_OWN,   /* v2, no manager: an ancestor, or the top enabled */
	CGROUP_MODE_SCOPE, /* v2 under systemd: our delegated scope */
};

struct cgroup_home {
	char root[256];	   /* prefix the system's files are looked up below ("" real) */
	char run_dir[512]; /* markers of a top's cgroup.subtree_control changed */
	int no_systemd;	   /* tests: never ask systemd */
	int tried;	   /* cgroup_home_setup ran */
	enum cgroup_mode mode;
	struct cgroup_base base; /* enable flags cleared once enabled */
	char why[600];		 /* no memory controller: why */
	char io_why[600];	 /* no io controller: why */
	char scope[4096];	 /* SCOPE: the scope's directory */
	char marker[600];	 /* OWN at the top: our marker file, "" none */
	unsigned enabled;	 /* CGROUP_CTL_* we wrote "+" for (the marker's "enabled") */
	unsigned uses;		 /* CGROUP_CTL_* used at the top (the marker's "uses") */
	char mount_marker[600];	 /* debugfs mounted or used: its marker, "" none */
	/* the statfs magic a marker's dir must have before anything is
	 * written there or unmounted: cgroup2's and debugfs' (init sets them;
	 * a test's layout below root puts its own filesystem's) */
	long top_magic, debugfs_magic;
	char warning[4096];	/* markers set aside: lines not yet taken */
	unsigned warnings_lost; /* lines that did not fit */
	int run_dir_said;	/* run_dir is not lrutop's to use: said once */
};

#define CGROUP_CTL_MEMORY 1u
#define CGROUP_CTL_IO	  2u
/* not a controller: a debugfs mount (cgroup_home_mark_mount) */
#define CGROUP_MOUNT_DEBUGFS 4u

/* No question asked yet.  root: "" for the running system, else a test's
 * directory laid out as the kernel would (and run/systemd/system there as
 * systemd would); run_dir: where markers go (CGROUP_RUN_DIR). */
void cgroup_home_init(struct cgroup_home *h, const char *root, const char *run_dir);
/* Decides where run cgroups go (above), once; later calls return what the
 * first found.  0 when at least one controller is usable. */
int cgroup_home_setup(struct cgroup_home *h);
/* As cgroup_home_setup on texts instead of /proc/self (tests), and the
 * scope step given its directory instead of asking systemd. */
int cgroup_home_setup_from(struct cgroup_home *h, const char *mountinfo, const char *self);
/* The scope step alone: scope_dir is the delegated scope we are in; makes
 * the leaf "monitor" and moves us there, enables memory and io in the
 * scope's cgroup.subtree_control where its cgroup.controllers lists them. */
int cgroup_home_adopt_scope(struct cgroup_home *h, const char *scope_dir, char *err, size_t errlen);
/* 0 when a memory cgroup can be made (enabling memory at the top now, see
 * above); else -1 and a sentence naming the real reason:
 * "--mem-limit needs root and the memory cgroup controller (not root)" to
 * a user, "--mem-limit: cgroup v2: ..." to root. */
int cgroup_home_available(struct cgroup_home *h, char *err, size_t errlen);
/* The same for --disk-limit and the io (v2) / blkio (v1) controller. */
int cgroup_home_io_available(struct cgroup_home *h, char *err, size_t errlen);
/* cgroup_create_in where the home says; limit: cgroup_home_available
 * first, io: cgroup_home_io_available first. */
int cgroup_home_create(struct cgroup_home *h, struct cgroup *cg, uint64_t limit,
		       const struct cgroup_io *io, const char *tag, char *err, size_t errlen);
/* What a SIGKILLed lrutop left, asking no one and enabling nothing: its
 * run cgroups where ours would go (cgroup_reap_stale), its lrutop-<pid>.scope
 * beside ours with what is inside, and markers of gone owners (their
 * controllers restored).  Returns how many cgroups were removed; *pid_out
 * (may be NULL) the pid of the first; *restored (may be NULL) how many
 * controllers were turned off again.  Not root: only the user's own
 * lrutop-<pid>.scope units, in the slice of h's scope (SCOPE) or in the
 * one its user manager would put ours in. */
int cgroup_home_reap(struct cgroup_home *h, long *pid_out, int *restored);
/* The sampler's debugfs at dir (root + SAMPLER_DEBUGFS: no other is
 * marked), mounted by us (mounted) or found: a marker
 * run_dir/mount-PID (the same format and lock as a top's), so the last
 * lrutop that uses it unmounts it if an lrutop mounted it — at
 * cgroup_home_done, or after a SIGKILL at the next start's reap — and one
 * leaving while another uses it hands the duty over.  Root only; -1 + err
 * when the marker cannot be written (the sampler then unmounts itself). */
int cgroup_home_mark_mount(struct cgroup_home *h, const char *dir, int mounted, char *err,
			   size_t errlen);
/* The scope part of cgroup_home_reap: in dir (a slice's directory), each
 * lrutop-<pid>.scope with lrutop's "monitor" leaf whose pid is gone or no
 * longer in it loses its run cgroups and that leaf (tasks inside killed;
 * a scope of that name without the leaf is left alone); the emptied scope
 * itself is systemd's to remove.  Returns how many scopes were cleared. */
int cgroup_reap_scopes(const char *dir, long *pid_out);
/* Restores what this process enabled (unless another live lrutop uses it)
 * and forgets its marker.  Run cgroups must be gone first.  Idempotent. */
void cgroup_home_done(struct cgroup_home *h);
/* What was found wrong with run_dir and the markers in it since the last
 * call (a marker set aside, and why; a run_dir not lrutop's to use), one
 * sentence a line for main to say as warnings, into out; then forgotten.
 * Returns the length ("" none). */
size_t cgroup_home_take_warnings(struct cgroup_home *h, char *out, size_t len);

/* Removes the cgroup (and the io one beside it); tasks still inside are sent SIGKILL and awaited
 * (v2: cgroup.events "populated 0", v1: cgroup.procs empty, bounded).
 * No-op on a cgroup not created or already removed. */
int cgroup_remove(struct cgroup *cg, char *err, size_t errlen);

/* How many tasks the kernel's OOM killer has killed in the cgroup: the
 * "oom_kill" line of v2 memory.events or of v1 memory.oom_control (kernel
 * 4.13+).  0, or -1 where the file or the line is missing. */
int cgroup_oom_kills(const struct cgroup *cg, uint64_t *n);

#endif
