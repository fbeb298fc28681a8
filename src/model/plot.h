/*
 * plot — what the Overview shows, decided once for the TUI and the SVG
 * export: which samples each column covers (the window), the per-column
 * values of every series, the memory chart's scope (the run's cgroup or
 * the system), the y scales (98th percentile of the copies with headroom,
 * nice steps, autoscale with hysteresis, frozen while the picture is),
 * the disk split (read and write on scales of their own), the burst marks
 * and the phase marks.  While runs are shown the disk halves are the
 * run's own bytes (its io/blkio cgroup), the device's total beside them
 * to draw behind; scales come from the copies' 98th percentile (the
 * reclaim chart's too), so a neighbour's reads, a flush or a drop_caches
 * clip instead of setting them, and clipped columns are flagged for the
 * renderers to mark.  Renderers (screen/view_overview.c, output/svg_overview.c)
 * only place and draw what a struct plot holds, the units of its axes
 * too; nothing here draws.
 *
 * Invariants: columns are oldest first, the newest shown sample in the
 * last one; a column with no sample holds NAN (0 for PLOT_COPY and
 * PLOT_BURST); buffers grow only when the column count does, so a tick
 * allocates nothing; a column whose samples did not change since the last
 * build is copied, not computed again (samples never change once pushed,
 * so a column is known by the times of the samples it reads).  Zoomed
 * windows sit on a grid of whole columns since time 0, so a window that
 * moves on keeps its columns' samples and computes only the new ones.
 * The scales follow the builds before (hysteresis, the split, the fitted
 * column) only while the history follows on from itself: after a jump
 * (plot_opts.jumps) a build is what a new plot of the same window gives.
 */
#ifndef LRUTOP_PLOT_H
#define LRUTOP_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "model/runlog.h"
#include "sampling/sample.h"
#include "model/series.h"
#include "model/units.h"

struct model;

enum plot_series {
	PLOT_READ, /* disk MiB/s */
	PLOT_WRITE,
	PLOT_AF, /* memory lists, KiB, of the chart's scope (plot.cg) */
	PLOT_IF,
	PLOT_ANON,  /* anon, or the cgroup's other usage */
	PLOT_FREE,  /* free, or the cgroup's headroom */
	PLOT_DEACT, /* reclaim counters, pages/s, the system's */
	PLOT_ACT,
	PLOT_SCAN,
	PLOT_REFAULT,
	PLOT_DEACT_SCOPE, /* deactivate of the run's cgroup where both samples have it */
	PLOT_COPY,	  /* 1: the newest sample of the column is in a run's copy phase */
	PLOT_BURST,	  /* 1: a demotion burst within the column */
	PLOT_G0,	  /* MGLRU generations (file KiB, youngest first), NAN without */
	PLOT_G1,
	PLOT_G2,
	PLOT_G3,
	/* The disk halves while runs are shown: PLOT_READ / PLOT_WRITE are the
	 * run's own bytes (its io/blkio cgroup) where some shown column has
	 * them (own_read / own_write), NAN outside the runs; the device's
	 * total, drawn behind, is PLOT_READ_DEV / PLOT_WRITE_DEV. */
	PLOT_READ_DEV,
	PLOT_WRITE_DEV,
	PLOT_READ_RUN, /* the run's own MiB/s where the column's sample has them, NAN */
	PLOT_WRITE_RUN,
	/* clipped columns (a value above its chart's scale): 1 for the disk
	 * halves' main series, and for the reclaim chart 1 + the series that
	 * clipped (deactivate first), 0 none */
	PLOT_CLIP_READ,
	PLOT_CLIP_WRITE,
	PLOT_CLIP_RECLAIM,
	PLOT_NSER
};

/* What the user asked for (ui.h's, as far as the plot cares). */
struct plot_opts {
	int zoom;	/* 0: a sample a column; > 0: 2^zoom intervals; < 0: finer */
	int no_fit;	/* do not fit the window to the runs */
	int scrolled;	/* paused and scrolled back: the window does not fit */
	int mem_system; /* the memory chart shows the system, not the run's cgroup */
	int frozen;	/* paused / a replay paused or at its end: scales hold */
	int xdots;	/* columns a time-axis cell holds (the TUI's dots per cell) */
	/* the history's jumps so far (model.h: jumps): on a new count every
	 * state kept between builds starts afresh, so the picture after a
	 * replay's jump is a new plot's of that window */
	unsigned long jumps;
};

/* A run event inside the window: col is the column that shows it. */
struct plot_mark {
	uint64_t t_ns;
	int col;
	int run;   /* index into the runs */
	int phase; /* enum phase; PHASE_PREPARE starts a run, PHASE_IDLE ends it */
};

/* A time-axis tick: in cell col (col·xdots the column), secs seconds after
 * the first run's start (fit) or before the newest sample (negative). */
struct plot_tick {
	int cell;
	long secs;
};

#define PLOT_MAX_TICKS 128

struct plot {
	/* the window: column i covers samples lo[i]..hi[i] (-1: none) and the
	 * time [t0_ns + i·col_ns, t0_ns + (i+1)·col_ns) */
	int n, cap;
	long *lo, *hi;
	uint64_t t0_ns;
	double col_ns;
	int fit;   /* the window spans the runs */
	long end;  /* the series index of the newest shown sample, -1: none */
	double *v; /* PLOT_NSER rows of cap values: plot_col() */

	/* scope of the memory chart */
	int cg;		  /* the run's cgroup */
	double mem_total; /* the chart's top, KiB: the newest cgroup limit or MemTotal; NAN */
	double mem_peak;  /* plot_build_samples: the largest limit / MemTotal shown, KiB */
	int gens;	  /* some column has MGLRU generations of the scope */
	/* the memory axis (mem_scale() in plot.c, "The memory scale" in
	 * docs/plot-model.md): its top, KiB — mem_total (the export:
	 * mem_peak), or, cut, a fine step above what the lists and anon use
	 * when that is under half of MemTotal (an eighth of a limit); NAN */
	double mem_top;
	int mem_cut; /* mem_top < the limit / MemTotal: free or headroom above it is a number */
	/* the unit both renderers label the memory axis in: mem_unit_of(mem_top)
	 * (the TUI's "3.9G", the SVG's "GiB" axis) */
	const struct mem_unit *mem_unit;

	/* scales */
	double read_level, write_level; /* p98 of the copies, +20 % */
	int own_read, own_write;	/* PLOT_READ / WRITE are the run's own bytes */
	int nclip_read, nclip_write, nclip_reclaim; /* columns marked clipped */
	int split;			/* read and write on scales of their own */
	double read_max, write_max;	/* the disk halves' tops (equal unless split) */
	double reclaim_max, deact_max;	/* the reclaim lines' and deactivate's tops */
	double rate_lo, rate_hi;	/* smallest and largest positive deactivate/scan */
	int nbursts;			/* columns with PLOT_BURST */

	struct plot_mark *marks;
	int nmarks, markcap;
	struct plot_tick ticks[PLOT_MAX_TICKS];
	int nticks;

	/* state kept between builds (all of it forgotten at a jump: fresh()
	 * in plot.c) */
	unsigned long jumps; /* plot_opts.jumps of the last build */
	struct autoscale as_read, as_write, as_reclaim, as_deact;
	struct autoscale as_mem; /* the cut memory axis, in mem_step KiB */
	double mem_step;	 /* 1024 (MiB steps) or 1048576 (GiB steps) */
	int split_state;
	uint64_t fit_col; /* the fitted window's column, ns (fit_col() in plot.c) */
	int own_state[2]; /* own_read, own_write the autoscales followed */
	uint64_t *key; /* per column: t of lo-1 and t of hi (2 × cap) */
	double *old_v; /* the last build's values and keys, for the cache */
	uint64_t *old_key;
	int old_n, old_cg, old_valid;
	int computed; /* columns computed (not copied) by the last build */
	int *from;    /* per column: the last build's column it is copied from */
	double *tmp;  /* 2 × cap scratch for the quantiles */
};

/* The samples and the run log a plot reads. */
struct plot_src {
	const struct series *ser;
	const struct run_event *events;
	size_t nevents;
	const struct run_result *runs;
	size_t nruns;
	int disk_limited; /* --disk-limit: read and write always on own scales */
	double disk_limit_mbs; /* that limit in MiB/s where known (0: not): the
				  run's own read scale stays within twice it */
	/* the renderer draws read and write on one axis (the SVG): never
	 * split, read_max == write_max, clipped columns against that one */
	int one_disk_axis;
};

void plot_init(struct plot *p);
void plot_done(struct plot *p);

/* The TUI's plot: n columns ending at series index end (view_end()),
 * fitted to the runs (from the first run's start to their expected end)
 * unless o says otherwise, else the last n samples (zoom 0) or n columns
 * of 2^zoom intervals.  Allocates only when n grows. */
void plot_build(struct plot *p, const struct model *m, const struct plot_opts *o, long end, int n);
/* The export's plot: one column per sample i0..i1, scales as a fresh
 * (not frozen, no history) build. */
void plot_build_samples(struct plot *p, const struct plot_src *src, size_t i0, size_t i1);

/* Row s of the values: n doubles. */
static inline double *plot_col(const struct plot *p, enum plot_series s)
{
	return p->v + (size_t)s * (size_t)p->cap;
}

/* The Runs view's block of run r (index run): n columns over
 * [t_copy, t_copy + span] (span: the longest shown run's, so the blocks
 * share a time scale), each the read and write MiB/s over its samples
 * (the run's own bytes where known), active_file KiB at its end, whether
 * a burst lies in it; NAN (burst 0) outside the run's copy. */
void plot_run_columns(const struct series *ser, double interval, const struct run_result *r,
		      int run, uint64_t span, int n, double *rd, double *wr, double *af,
		      double *burst);
/* A rate scale over rows of n values (row k at v + k·stride): the 98th
 * percentile with a fifth of headroom, as the Overview's disk, so a flush
 * spike at a copy's end clips instead of flattening every strip; the peak
 * when that is lower (a flat rw_cp); a fine nice step above.  rates, tmp:
 * scratch for rows·n doubles each. */
double plot_rate_scale(const double *v, size_t stride, size_t rows, int n, double *rates,
		       double *tmp);

/* The newest value of row s that is not NAN (a legend's number), NAN. */
double plot_last(const struct plot *p, enum plot_series s);

/* ---- the Runs view's picture --------------------------------------------- */

/* A block's rows (plot_runs_row()). */
enum plot_run_row { PLOT_RUN_READ, PLOT_RUN_WRITE, PLOT_RUN_AF, PLOT_RUN_BURST, PLOT_RUN_NROW };

/* What both Runs views (the TUI's, the SVG's) show: a block per shown
 * run, n columns each over [t_copy, t_copy + span] (plot_run_columns()),
 * and the scales every block shares.  The rate scales are taken from
 * columns of the samples' own resolution (a column a sample of the
 * longest run), not the renderer's, so a 137-cell terminal and a
 * 1920 px picture of one recording have one top label. */
struct plot_runs {
	size_t nrows;		    /* blocks */
	int n;			    /* columns a block */
	uint64_t span;		    /* ns: the longest shown run's copy */
	int scale_n;		    /* the scale's columns a block (the longest run's samples) */
	double read_max, write_max; /* plot_rate_scale() of the blocks' read, write */
	double af_max; /* KiB: the active axis' top, both renderers': the memory limit, or the
			  largest active list */
	const struct mem_unit *af_unit; /* its label's unit: mem_unit_of(af_max) */
	double *v;		    /* nrows × PLOT_RUN_NROW rows of n values */
	double *scratch;
	size_t vcap, scap;
	uint64_t scale_key; /* what the scales were taken from: they are kept while it holds */
};

void plot_runs_init(struct plot_runs *pr);
void plot_runs_done(struct plot_runs *pr);
/* The blocks of runs[shown[k]], k < nrows, n columns each (n <= 0: the
 * scale's, a column a sample, for a picture drawn once); mem_limit_kib:
 * the chart's floor for the active scale (0: none).  Allocates only when
 * the blocks grow. */
void plot_runs_build(struct plot_runs *pr, const struct series *ser, double interval,
		     const struct run_result *runs, const size_t *shown, size_t nrows,
		     double mem_limit_kib, int n);

/* Row k of block b: n doubles. */
static inline double *plot_runs_row(const struct plot_runs *pr, size_t b, enum plot_run_row k)
{
	return pr->v + (b * PLOT_RUN_NROW + (size_t)k) * (size_t)pr->n;
}

/* A time axis from 0 to span_s seconds: a 1/2/5×10^k step of about
 * span_s / want, the ticks 0, step, 2·step, ... up to span_s (a span of
 * 0: the one tick at 0) into secs; how many (at most max). */
int plot_time_ticks(double span_s, int want, double *secs, int max);

/* The mean time between the samples of ser, s (0 with fewer than two):
 * the interval of a recording whose header is not at hand. */
double plot_series_interval(const struct series *ser);

#endif
