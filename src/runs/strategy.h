/*
 * strategy — the copy strategies the worker can run, kept in one table
 * (docs/design.md §2). Adding a strategy is one table entry plus one function.
 *
 * Invariants every strategy keeps:
 *  - the source is opened O_RDONLY (maps are PROT_READ/MAP_PRIVATE) and is
 *    never written;
 *  - the destination is created O_CREAT|O_EXCL|O_NOFOLLOW, mode 0644: an
 *    existing file (or symlink) is refused, never overwritten;
 *  - the whole file is copied and made durable (fsync or msync(MS_SYNC))
 *    before PHASE_DONE is reported;
 *  - phases are reported in the order copy, flush, done; bytes_done grows
 *    after every call that copies: each read/write or kernel-copy call,
 *    mw_*'s one write() of the whole map and mm_*'s one memcpy (copybench
 *    does not slice them, and slicing changes what the kernel sees);
 *  - the eight copybench strategies make copybench's syscalls in its order
 *    (tests/strace/copybench.seq); a mm_* copy into a sparse destination on
 *    a full disk dies of SIGBUS in memcpy, as copybench's does (the worker
 *    reports it);
 *  - on failure every fd is closed, the destination it created is unlinked,
 *    and err holds one sentence naming the file and the reason, without the
 *    strategy name (the worker prefixes it).
 * Strategies neither print nor exit; they are safe to call in a forked child.
 */
#ifndef LRUTOP_STRATEGY_H
#define LRUTOP_STRATEGY_H

#include <stdatomic.h> /* readers of struct progress use atomic_load */
#include <stddef.h>
#include <stdint.h>

#include "model/phase.h"

/* enum phase and phase_name(): phase.h */

/* Shared progress page: lives in a MAP_SHARED|MAP_ANONYMOUS page that the
 * monitor reads while the worker writes. Only the atomics may be read while
 * the worker runs; error is valid once the worker has exited. */
struct progress {
	_Atomic uint64_t bytes_done;
	uint64_t bytes_total; /* source size, set when the source is opened */
	_Atomic int phase;    /* enum phase */
	char error[256];      /* set by the worker before a failing exit */
};

struct copy_job {
	const char *src;
	const char *dst;	   /* created O_CREAT|O_EXCL|O_NOFOLLOW, never an existing file */
	size_t bs;		   /* buffer size of the read/write strategies; 0 = 8192 */
	struct progress *progress; /* may be NULL */
	void (*on_phase)(enum phase p, void *arg); /* may be NULL */
	/* called with dst's fd the moment dst is created (before anything
	 * else can fail), so a worker killed at any later point leaves a dst
	 * the monitor knows as its own; may be NULL; gets phase_arg */
	void (*on_created)(int fd, void *arg);
	void *phase_arg;
	int prealloc; /* mm_*: size dst with fallocate (--prealloc), not copybench's sparse write */
};

struct strategy {
	const char *name;   /* "rw_cp" */
	const char *family; /* "read/write", "mmap", "mmap+write", "kernel copy", "direct" */
	const char *what;   /* one line: what it demonstrates */
	/* 0 when the copy is complete and durable; -1 with err filled. */
	int (*copy)(const struct copy_job *job, char *err, size_t errlen);
};

/* The table: the eight copybench strategies first, in copybench order,
 * then the modern ones. */
size_t strategy_count(void);
const struct strategy *strategy_at(size_t i);		/* NULL when i is out of range */
const struct strategy *strategy_find(const char *name); /* NULL when unknown */
/* A run's label for strategy s: its name, "+prealloc" for a mapped copy
 * that preallocates (--prealloc), then suffix (--disk-limit's "@30M", or
 * ""): the session's rule (session_queue.c), which a follow also applies
 * to the writer's configuration to name its runs before their results. */
void strategy_label(const struct strategy *s, int prealloc, const char *suffix, char *buf,
		    size_t len);
/* name's index in the table (a sample's strategy), SAMPLE_STRATEGY_NONE
 * when it is none of them ("" for a --cmd) */
uint8_t strategy_index(const char *name);

/* Checks up front what would make s fail for a reason the user can fix
 * before the run: cfr_cp with src on a filesystem copy_file_range cannot
 * copy from into dir (EXDEV). Probes with a 0-byte copy into an O_TMPFILE
 * in dir (the scratch directory), so nothing is left behind. 0 ok (or
 * nothing to check), -1 + err naming src and --dir. */
int strategy_check(const struct strategy *s, const char *src, const char *dir, char *err,
		   size_t errlen);

/* Parses a comma list of names (blanks around names are ignored, names may
 * repeat); "copybench" expands to the eight, "all" to every strategy.
 * Fills out[0..*n). An unknown name, an empty list or more than max entries
 * give -1 and err, e.g. "unknown strategy 'x' (valid: rw_cp, ..., all)". */
int strategy_parse_list(const char *list, const struct strategy **out, size_t max, size_t *n,
			char *err, size_t errlen);

#endif
