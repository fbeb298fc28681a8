/*
 * svg — a slide-ready picture of a session: the Overview (disk MiB/s,
 * memory lists, reclaim on one time axis) or the Runs view (one row per
 * run on one shared time and rate scale), written as a standalone SVG.
 *
 * Invariants: the picture is drawn from the same data and the same rules
 * as the screen — rates from two samples and their measured time delta
 * (rates_compute), bursts by burst_between, scales rounded by nice_ceil —
 * so a ▼ on a slide is a ▼ in the TUI.  A rate scale reaches the largest
 * value unless that is an outlier (above 1.5 × the 98th percentile: one
 * short interval that caught a batch of completions), which is clipped at
 * the top edge as on screen.  Labels are placed, shortened or left out so
 * that none overlaps another (svg_place_labels), and text is shrunk or
 * cut to stay inside its column.  The output is well-formed XML
 * whatever the labels hold (every text is escaped) and uses '.' in numbers
 * whatever the locale.  Every write is checked; svg_write never prints and
 * never exits.  Text sizes scale with the width: tick labels are 24 px at
 * 1920 px wide, readable from the back of a room.
 *
 * Implemented by svg.c (the page), svg_draw.c (the writer and elements,
 * svg_draw.h), svg_overview.c, svg_runs.c and svg_sweep.c (the views).
 */
#ifndef LRUTOP_SVG_H
#define LRUTOP_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/series.h"
#include "model/runlog.h"

/* Colours, 0xRRGGBB.  The default (svg_theme_light) is dark text on white
 * with Okabe-Ito series colours (safe for the common colour blindnesses);
 * text colours keep a contrast of at least 4.5:1 on the background. */
struct svg_theme {
	uint32_t bg, text, dim, grid, marker;
	uint32_t read, write;		  /* disk */
	uint32_t io;			  /* read+write (Runs view) */
	uint32_t active, inactive, free_; /* memory stack, strongest at the bottom */
	uint32_t deact, scan;		  /* reclaim */
	uint32_t burst;			  /* ▼ demotion bursts */
};
extern const struct svg_theme svg_theme_light;

/* A picture's column of demotion bursts, from a reduced recording
 * (export_reduce.h): at t_ns (the first one's), n of them. */
struct svg_burst {
	uint64_t t_ns;
	unsigned n;
};

/* What to draw.  Events and runs are plain arrays (the session's today; a
 * recording's tomorrow).  Header facts may be NULL or "". */
struct svg_input {
	const struct series *ser;
	const struct run_event *events;
	size_t nevents;
	const struct run_result *runs;
	size_t nruns;
	const char *host, *kernel, *disk;
	int mglru; /* the recording's kernel ran MGLRU: "active" = 2 youngest gens */
	uint64_t mem_limit; /* bytes; 0: the largest cgroup limit the samples
			     * carry, none without one */
	/* A reduced series (export_reduce.h: a bounded subset of a long
	 * recording's samples, reduced != 0): nsamples is how many the
	 * recording has in the range (the header's count), the bursts are
	 * bursts[0..nbursts) (counted per column, not from the series), and
	 * the Overview is drawn at a px a column: marks that share a px are
	 * one element whose data-n says how many it stands for. */
	int reduced;
	size_t nsamples;
	const struct svg_burst *bursts;
	size_t nbursts;
};

enum svg_view { SVG_OVERVIEW, SVG_RUNS, SVG_SWEEP };

struct svg_opts {
	int width, height; /* px, 0: 1920 x 1080 */
	enum svg_view view;
	uint64_t from_ns, to_ns; /* Overview: CLOCK_MONOTONIC range, 0: the whole series */
	int run;		 /* Runs view: only runs[run]; -1 (not 0!) every finished run */
	const struct svg_theme *theme; /* NULL: svg_theme_light */
};

/* Writes the picture to f.  0, or -1 + a sentence in err (nothing to
 * draw in the range, a size out of [320, 16384], a write error). */
int svg_write(FILE *f, const struct svg_input *in, const struct svg_opts *o, char *err,
	      size_t errlen);

/* The Overview's plot width, px, for a picture of o's size: the columns a
 * recording is reduced to (export_reduce.h). */
size_t svg_plot_columns(const struct svg_opts *o);
/* The Runs view's rows at o's size: the last so many shown runs are drawn. */
size_t svg_runs_rows(const struct svg_opts *o);

/* --view sweep (svg_sweep.c): elapsed and bursts against a sweep's
 * parameter, from the runs alone (no samples needed); svg_write calls it
 * with the picture's size and the C locale set. */
int svg_sweep_draw(FILE *f, const struct svg_input *in, const struct svg_opts *o, double W,
		   double H, char *err, size_t errlen);

/* Writes s as XML text (the five specials escaped, control characters
 * and invalid UTF-8 as '?'); a failed write stays in ferror(f). */
void svg_escape(FILE *f, const char *s);

/* Label placement, shared by the run and phase labels of both views and
 * exposed for the tests.  A label wants to start at x (its marker); text
 * and, optionally, a shorter form are tried in turn at x and a little to
 * the right, and the first that fits without touching an earlier label's
 * box (plus a gap) or leaving [lo, hi] is taken; a label that fits in
 * neither form is dropped (shown = 0).  Widths are computed for a
 * monospaced font of size font_px (the labels are drawn in one). */
struct svg_label {
	double x;		   /* wanted left edge, px */
	const char *text, *abbrev; /* abbrev may be NULL */
	/* out */
	int shown;	    /* 0 dropped, 1 text, 2 abbrev */
	double left, right; /* the box drawn */
};
/* Places l[0..n) in order (earlier labels win); returns how many are shown. */
int svg_place_labels(struct svg_label *l, size_t n, double lo, double hi, double font_px);
/* Width of s (UTF-8) in a monospaced font of size font_px. */
double svg_text_width(const char *s, double font_px);

#endif
