/*
 * openmetrics — what lrutop knows as OpenMetrics / Prometheus text: the
 * machine's series (memory and LRU lists, vmstat's reclaim counters, the
 * watched disk, PSI, the run's cgroup, the probe) and what no exporter
 * knows (the run and phase of every moment, each finished run's figures,
 * bursts per strategy).  Two shapes from the one table of metrics:
 *
 *  - OM_EXPORT (--export-openmetrics): every sample of a recording with
 *    its timestamp, family after family (each family's samples together,
 *    in time order), "# UNIT" for gauges, ending in "# EOF".
 *  - OM_TEXTFILE (--metrics-file): lrutop_up, the newest sample and the
 *    finished runs, no timestamps, no "# UNIT" and no "# EOF": the
 *    Prometheus text format node_exporter's textfile collector reads; at
 *    the session's end (ended) lrutop_up 0 and no sample.
 *  Every series of both has a host label (recordings of many machines
 *  backfill side by side) and a session label (the session's start as its
 *  recording has it: two sessions with the same arguments, whose runs
 *  both count from 1, stay apart; a backfill of a recording and a scrape
 *  of the session's live file say the same), and every run series its
 *  run, strategy, mem_limit and disk_limit (as the options take them,
 *  "64M"; "" none).
 *
 * Invariants and choices:
 *  - Names are lrutop_..., in base units (_bytes, _seconds, _ratio);
 *    counters end in _total and are written "# TYPE NAME_total counter"
 *    without "# UNIT": promtool check metrics (2.42) lints with the
 *    Prometheus text parser, which wants the TYPE line to name the sample,
 *    and its OpenMetrics parser wants a UNIT to end the family's name.
 *    Info families are gauges named _info with the value 1.  The probe's
 *    latency during a run is a summary (quantile samples and _count, no
 *    _sum): a "quantile" label is a summary's own, promtool refuses it on
 *    a gauge.
 *  - Timestamps are whole seconds of wall time: the same promtool parses
 *    only integer timestamps (it reads them as milliseconds for the lint;
 *    create-blocks-from openmetrics reads seconds).  So an export keeps
 *    one point a second per series, the last sample of each second
 *    (counters lose nothing; a gauge its sub-second wiggles).
 *  - A family is written only when it has a point; a sample's group is
 *    used only when its SAMPLE_HAVE_* bit is set (a missing file is no
 *    series, never zeros); a NaN figure is left out.
 *  - Label values are escaped (\\, \", \n) and other control bytes become
 *    '?'; label names and metric names are this module's constants.
 *  - om_write walks a series once per family (series_at by index): memory
 *    is the series the caller holds.  --export-openmetrics does not hold
 *    one: om_export_stream reads the recording once (the reader, not a
 *    history), each sample's lines going to the temporary file of its row
 *    (om_stream), then writes the families in om_write's order and bytes;
 *    memory is a sample and the files' buffers, whatever the recording's
 *    length.  Every write is checked (ferror); nothing prints.
 */
#ifndef LRUTOP_OPENMETRICS_H
#define LRUTOP_OPENMETRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/runlog.h"
#include "model/series.h"

enum om_style {
	OM_EXPORT,
	OM_TEXTFILE,
};

struct om_input {
	const struct series *ser;      /* OM_EXPORT: all of it; OM_TEXTFILE: its newest */
	const struct run_result *runs; /* the finished ones are written */
	size_t nruns;
	const char *host, *kernel, *device; /* "" when unknown */
	/* every series' session label: the session's start as its recording's
	 * start_wall says it ("2026-12-01T09:10:42.123Z"), "" unknown */
	const char *session;
	uint64_t mem_limit, disk_limit;	    /* the runs' (runlog), 0 none */
	long page_size;			    /* for page counts; 0: 4096 */
	/* OM_EXPORT: the wall clock of monotonic mono0_ns (the recording's
	 * start_wall and start_mono_ns), seconds since the epoch */
	double wall0_s;
	uint64_t mono0_ns;
	/* OM_TEXTFILE: the probe's reads so far (the export sums the series) */
	uint64_t probe_reads, probe_slow;
	/* OM_TEXTFILE: the session is over: lrutop_up 0, and only what stays
	 * true (the runs' families and the info), no values of the moment */
	int ended;
};

/* Writes in to f in the given style.  stop (may be NULL) is asked after
 * each family: nonzero ends the writing early (a signal), and the function
 * returns 1.  0 when written; -1 when f failed (ferror, errno as left). */
int om_write(FILE *f, const struct om_input *in, enum om_style style, int (*stop)(void));

/* OM_EXPORT a sample at a time.  om_stream_new makes a temporary file a
 * row of the table in dir (without a name: O_TMPFILE, else unlinked at
 * once), NULL + err when it cannot; in is borrowed until om_stream_free
 * (its host, page size, wall0_s and mono0_ns are used from the first
 * sample on, its runs and limits by om_stream_finish).  om_stream_sample
 * takes the samples in time order: 0, or -1 when a row's file failed
 * (errno as left; later calls fail too).  om_stream_finish writes to f
 * what om_write(f, in with the series of those samples, OM_EXPORT, stop)
 * would: 0, 1 when stop ended it, -1 when a file failed. */
struct om_stream;
struct om_stream *om_stream_new(const char *dir, const struct om_input *in, char *err,
				size_t errlen);
int om_stream_sample(struct om_stream *x, const struct sample *s);
int om_stream_finish(struct om_stream *x, FILE *f, int (*stop)(void));
void om_stream_free(struct om_stream *x);

/* --export-openmetrics OUT IN: the recording at in read once (every line
 * checked, as the replay's first read does) into om_stream's files beside
 * OUT, then OUT created new through a temporary file (OUTFILE_WHOLE)
 * and the families written into it; an input error leaves nothing, a
 * write error or a signal (sig_caught) removes the temporary file.  warn:
 * the reader's warning (a cut last line), "".  ap reads an old
 * recording's command line (source_replay_new).  0, or EXPORT_INPUT /
 * EXPORT_WRITE / EXPORT_INTERRUPTED (export.h) + err. */
struct record_argv_parser;
int om_export_stream(const char *in, const char *out, const struct record_argv_parser *ap,
		     char *warn, size_t warnlen, char *err, size_t errlen);

/* One label value, escaped as the text formats want it. */
void om_label_value(FILE *f, const char *s);
/* 1 when name is a valid metric or label name ([a-zA-Z_:][a-zA-Z0-9_:]*). */
int om_name_valid(const char *name);
/* For tests: the metric names of the table, one by one (NULL past the end). */
const char *om_metric_name(size_t i);

/* A recording's "start_wall" ("2026-12-01T09:10:42.123Z") as seconds since
 * the epoch; -1 when it is not that shape. */
double om_wall_parse(const char *iso);

#endif
