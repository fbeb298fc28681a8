/*
 * lru_gen — MGLRU's generations as /sys/kernel/debug/lru_gen shows them
 * (the kernel's Documentation/admin-guide/mm/multigen_lru.rst; written by
 * lru_gen_seq_show in mm/vmscan.c):
 *
 *   memcg     5 /lrutop-123-run
 *    node     0
 *            12       4064          0           10
 *            13       2032          0         2613
 *            14          8          0         5120
 *
 * one "memcg ID PATH" line per memory cgroup (PATH "/" for the root, ""
 * without CONFIG_MEMCG), one " node N" line per NUMA node, then one line
 * per generation, oldest first: its sequence number, its age in ms and its
 * anon and file pages (a number may carry an 'x' mark: lru_gen_full's "not
 * evictable").  The youngest generation is the one with the largest
 * sequence number, max_seq; aging creates a new one (max_seq + 1), eviction
 * empties the oldest.  The kernel's active(file) is the two youngest.
 *
 * Invariants: pure text in, figures out (no file access); the figures are
 * indexed by age, [0] the youngest of each node, and summed over the
 * nodes and, without a path to match, over every memcg (what "the
 * system's generations" means: the youngest of each memcg together).  A
 * lruvec with more than LRU_GEN_MAX generations (a kernel with a larger
 * MAX_NR_GENS) has its older ones added to the oldest slot.  The parser
 * is fed line by line so a reader need not hold the whole file (it grows
 * with the number of cgroups) and allocates nothing.
 */
#ifndef LRU_GEN_H
#define LRU_GEN_H

#include <stddef.h>
#include <stdint.h>

#define LRU_GEN_MAX  4 /* MAX_NR_GENS in include/linux/mmzone.h */
#define LRU_GEN_PATH "/sys/kernel/debug/lru_gen"

struct lru_gen {
	int found;    /* 1: the memcg asked for was in the text (or any, for the sum) */
	int nr_gens;  /* generation slots filled: the most any matched lruvec had */
	int lruvecs;  /* matched (memcg, node) pairs */
	uint64_t seq; /* max_seq summed over the matched lruvecs: +1 per aging of each */
	uint64_t file[LRU_GEN_MAX], anon[LRU_GEN_MAX]; /* pages, [0] the youngest */
};

struct lru_gen_parser {
	const char *want; /* the memcg's directory (see lru_gen_begin), NULL: all */
	size_t want_len;  /* without trailing '/' */
	size_t best;	  /* the length of the longest memcg path matched so far */
	int in_memcg;	  /* the current memcg is the one wanted (or want is NULL) */
	int in_node;	  /* a node line has been seen for the current memcg */
	int line;
	/* the current lruvec: its generations, oldest first, before they are
	 * known by age */
	int ngen;
	uint64_t last_seq;
	uint64_t gfile[LRU_GEN_MAX], ganon[LRU_GEN_MAX];
	uint64_t over_file, over_anon; /* generations beyond LRU_GEN_MAX: the oldest slot's */
	int memcgs;		       /* memcg lines seen */
	struct lru_gen acc;	       /* the result so far */
};

/* want: the run's cgroup directory (e.g. "/sys/fs/cgroup/lrutop-123-run")
 * or NULL for every memcg summed.  The kernel prints a memcg's path from
 * its hierarchy's root, the directory has the mount point before it (and
 * inside a cgroup namespace the path has more before it than the
 * directory shows): the memcg wanted is the one whose path and want end
 * alike in the most whole components, at least one, never the root "/".
 * lrutop's run cgroups have names of their own (lrutop-PID-TAG), so the
 * last component alone tells them apart. */
void lru_gen_begin(struct lru_gen_parser *p, const char *want);
/* One line without its newline (len bytes; NULs are an error).  0, or -1
 * with "line N: REASON" in err. */
int lru_gen_line(struct lru_gen_parser *p, const char *line, size_t len, char *err, size_t errlen);
/* The figures; 0, or -1 with err when the text held no generation of the
 * memcg wanted (or of any). */
int lru_gen_end(struct lru_gen_parser *p, struct lru_gen *out, char *err, size_t errlen);

/* All three over a whole text (len bytes, lines split at '\n'). */
int lru_gen_parse(const char *text, size_t len, const char *want, struct lru_gen *out, char *err,
		  size_t errlen);

/* The file pages of the two youngest generations (the kernel's
 * active(file)) and of the rest. */
uint64_t lru_gen_young_file(const struct lru_gen *g);

#endif
