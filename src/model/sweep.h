/*
 * sweep — parameter sweeps (`--sweep PARAM=V1,V2,…`, `--sweep
 * PARAM=LO..HI:xF`) and their bisection (`--sweep-until 'bursts>=1'`):
 * the parsed spec, the label suffix each run carries (`@m32M`), the sweep
 * table (rows: values, columns: strategies; cells: the median elapsed with
 * its 95 % confidence interval, bursts, rdCV) and which value a bisection
 * runs next.  Everything here is a pure function of the spec and the
 * finished runs, so a replay rebuilds the same table and the same bracket
 * from the run log as the live session did.
 *
 * Invariants: a spec's values are ascending and distinct, at most
 * SWEEP_MAX_VALUES; a run belongs to a sweep when its run_result has a
 * sweep_param (its value in sweep_value); the table groups runs by their
 * label without the sweep suffix, in the order of first appearance.  The
 * bisection assumes the condition is monotone in the parameter: it runs
 * both ends, then halves the index range between a value where the
 * condition does not hold and one where it does.
 */
#ifndef LRUTOP_SWEEP_H
#define LRUTOP_SWEEP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/runlog.h"

#define SWEEP_MAX_VALUES 64
/* Columns of the sweep table: every label a live queue can have (the 13
 * strategies and RUN_CONFIG_MAX_CMDS --cmds, 29: test_sweep checks it);
 * a recording with more is drawn up to this and says how many it left
 * out (sweep_table.dropped). */
#define SWEEP_MAX_STRATEGIES 32

enum sweep_param {
	SWEEP_NONE,
	SWEEP_MEM_LIMIT,
	SWEEP_DISK_LIMIT,
	SWEEP_BS,
	SWEEP_SIZE,
	SWEEP_NPARAM
};
enum sweep_metric { SWEEP_BURSTS, SWEEP_RDCV, SWEEP_ELAPSED };
enum sweep_op { SWEEP_GE, SWEEP_GT, SWEEP_LE, SWEEP_LT };

/* --sweep-until METRIC OP NUMBER; set 0: none. */
struct sweep_cond {
	int set;
	enum sweep_metric metric;
	enum sweep_op op;
	double threshold;
	char text[32]; /* as given, for the report */
};

struct sweep_spec {
	enum sweep_param param; /* SWEEP_NONE: no sweep */
	int n;
	uint64_t v[SWEEP_MAX_VALUES]; /* ascending, distinct */
	double factor;		      /* LO..HI:xF: F; 0 for a list */
	struct sweep_cond until;
};

/* Parses "mem-limit=24M..96M:x2" or "bs=4K,64K,1M" into sp (until left
 * as it was); size parses one value ("32M": 0 or -1).  0, or -1 + a
 * sentence naming --sweep in err. */
int sweep_parse(const char *arg, int (*size)(const char *, uint64_t *), struct sweep_spec *sp,
		char *err, size_t errlen);
/* Parses "bursts>=1", "rdcv>0.5", "elapsed<=3" (blanks allowed). */
int sweep_until_parse(const char *arg, struct sweep_cond *c, char *err, size_t errlen);
/* c (one sweep_until_parse made) as text sweep_until_parse reads back to
 * the same condition, threshold bit for bit: the fewest decimal places
 * that do, as the option takes a number ("elapsed<=1000000", where
 * c->text says "elapsed<=1e+06").  As snprintf. */
int sweep_until_format(const struct sweep_cond *c, char *buf, size_t len);
/* How many of sp's values one entry of the queue runs at most (each
 * --repeat times): all of them, or with --sweep-until both ends and one
 * value a halving of the bracket (the session's bound on a bisection). */
int sweep_values_most(const struct sweep_spec *sp);
/* qsort order of two uint64_t sweep values, smallest first. */
int sweep_cmp_value(const void *a, const void *b);

/* "mem-limit"; 'm' (the label prefix); from a name, SWEEP_NONE if none. */
const char *sweep_param_name(enum sweep_param p);
enum sweep_param sweep_param_find(const char *name);
/* "@m32M": the suffix a run of value v carries. */
void sweep_suffix(char *buf, size_t len, enum sweep_param p, uint64_t v);
/* The value as the table prints it ("32M", "64K"). */
void sweep_value_str(char *buf, size_t len, uint64_t v);

/* One cell: the OK runs of one strategy at one value. */
struct sweep_cell {
	int runs, ok;
	double elapsed_med, ci_lo, ci_hi; /* NAN without OK runs; ci NAN below 2 */
	double bursts_med, rdcv_med;
};

struct sweep_table {
	enum sweep_param param;
	int geometric; /* the values are a geometric range (log x axis) */
	int nv, ns;
	int dropped;		      /* the sweep's labels past SWEEP_MAX_STRATEGIES: not in it */
	uint64_t v[SWEEP_MAX_VALUES]; /* ascending */
	char strat[SWEEP_MAX_STRATEGIES][32];
	struct sweep_cell cell[SWEEP_MAX_VALUES][SWEEP_MAX_STRATEGIES];
};

/* Builds t from the runs of a sweep in r[0..n): the values of sp when
 * given (NULL: the values the runs carry), the confidence intervals when
 * ci (a percentile bootstrap of the median, compare.h's method; it
 * allocates, so not on the per-tick path).  Returns how many runs were a
 * sweep's (0: no sweep, t->nv == 0). */
size_t sweep_table_build(struct sweep_table *t, const struct sweep_spec *sp,
			 const struct run_result *r, size_t n, int ci);
/* Whether a row has any run. */
int sweep_row_used(const struct sweep_table *t, int vi);
/* The table batch prints: a title line, column heads, one row per value
 * that has runs; then a line saying how many labels it has no column for
 * (dropped), if any. */
void sweep_table_print(FILE *f, const struct sweep_table *t);

/* The bisection of one strategy (column s; -1: one without runs yet,
 * which needs both ends) under c with `repeat` runs a value.  Returns how many values it needs next
 * (0..2) in next[]; with 0 it is done and b says the result. */
enum sweep_bracket_kind {
	SWEEP_BRACKET, /* not at no_v, holds at yes_v (adjacent values of the grid) */
	SWEEP_ALWAYS,  /* holds at both ends */
	SWEEP_NEVER,   /* holds at neither end */
	SWEEP_FAILED,  /* no OK run at a value it needed (no_v) */
};
struct sweep_bracket {
	enum sweep_bracket_kind kind;
	uint64_t no_v, yes_v;
};
int sweep_bisect_next(const struct sweep_table *t, int s, const struct sweep_cond *c, int repeat,
		      int next[2], struct sweep_bracket *b);
/* The bracket lines batch prints under the table ("mm_sync_cp: bursts>=1
 * first holds at 32M (not at 48M)"). */
void sweep_bracket_print(FILE *f, const struct sweep_table *t, const struct sweep_cond *c,
			 int repeat);
/* One bracket as a sentence. */
void sweep_bracket_str(char *buf, size_t len, const struct sweep_table *t, int s,
		       const struct sweep_cond *c, const struct sweep_bracket *b);

/* The picture of a sweep (--export-svg --view sweep): where each value
 * sits on the x axis (0..1; a log axis for a geometric range, else
 * linear) and the scales of the two charts (elapsed and bursts against
 * the parameter), nice-rounded tops.  Rows without runs are left out. */
struct sweep_plot {
	int n;			    /* values with runs */
	int vi[SWEEP_MAX_VALUES];   /* their index in the table */
	double x[SWEEP_MAX_VALUES]; /* 0..1 */
	int log_x;
	double elapsed_top, bursts_top; /* the y scales' tops (>0) */
};
void sweep_plot_build(struct sweep_plot *p, const struct sweep_table *t);

/* The base label of a sweep run (its name without the sweep suffix). */
void sweep_base_label(char *buf, size_t len, const struct run_result *r);

/* What one run ran with: the limits the session gave every run (the run
 * log's mem_limit and disk_limit) with its sweep's value in place of the
 * option it sweeps.  The one answer to "this run's configuration" the
 * exports give (--export-json, --export-markdown, the OpenMetrics run
 * info): the run log's limit of a sweep is one value for all (live the
 * largest, the Runs view's scale; a replay's the first cgroup's). */
struct run_setting {
	uint64_t mem_limit;	/* bytes, 0 none */
	uint64_t disk_limit;	/* bytes/s, 0 none */
	enum sweep_param param; /* the parameter its sweep set, SWEEP_NONE */
	uint64_t value;		/* and its value (bytes, bytes/s), 0 none */
};
void sweep_run_setting(const struct run_result *r, uint64_t mem_limit, uint64_t disk_limit,
		       struct run_setting *out);

#endif
