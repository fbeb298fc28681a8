#include "output/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/compare.h"
#include "output/export_csv.h"
#include "output/export_reduce.h"
#include "output/export_results.h"
#include "output/openmetrics.h"
#include "source/source.h"
#include "output/svg.h"
#include "base/outfile.h"
#include "base/util.h"

/* ---- OUT: made in memory, then written to a file of our own ------------ */

static int interrupted(char *err, size_t errlen)
{
	errf(err, errlen, "interrupted");
	return EXPORT_INTERRUPTED;
}

int export_write_file(const char *path, const char *what,
		      int (*fill)(FILE *f, void *ctx, char *err, size_t errlen), void *ctx,
		      char *err, size_t errlen)
{
	if (sig_caught())
		return interrupted(err, errlen);
	sig_hold(1);
	struct outfile of;
	int rc = EXPORT_INPUT; /* exists, or the directory is not there: nothing made */
	if (outfile_open(&of, path, what, OUTFILE_WHOLE, err, errlen) == 0) {
		errno = 0;
		int w = fill(of.f, ctx, err, errlen);
		if (w == 0 && outfile_flush(&of, err, errlen) < 0)
			w = -1;
		if (w == -1)
			outfile_write_error(&of, errno, err, errlen); /* said once */
		if (w < 0)
			rc = EXPORT_WRITE;
		else if (w > 0 || sig_caught()) /* the last moment a signal can leave nothing */
			rc = interrupted(err, errlen);
		else /* a failure: the temporary file went, path was not made */
			rc = outfile_close(&of, err, errlen) < 0 ? EXPORT_WRITE : 0;
	}
	/* the temporary file, when it is left */
	outfile_discard(&of);
	sig_release(rc == 0);
	return rc;
}

struct buf_fill {
	const char *buf;
	size_t len;
};

static int buf_fill(FILE *f, void *ctx, char *err, size_t errlen)
{
	const struct buf_fill *b = ctx;
	(void)err, (void)errlen;
	return fwrite(b->buf, 1, b->len, f) == b->len ? 0 : -1;
}

int export_write_new(const char *path, const char *what, const char *buf, size_t len, char *err,
		     size_t errlen)
{
	struct buf_fill b = {buf, len};
	return export_write_file(path, what, buf_fill, &b, err, errlen);
}

/* A memory FILE for the picture or the CSV. */
struct membuf {
	char *buf;
	size_t len;
	FILE *f;
};

static int membuf_open(struct membuf *m, char *err, size_t errlen)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f)
		return errf(err, errlen, "cannot make a buffer in memory: %s", strerror(errno));
	return 0;
}

/* Closes the stream (buf stays, free it with membuf_done); -1 when the
 * stream failed (out of memory). */
static int membuf_close(struct membuf *m, char *err, size_t errlen)
{
	errno = 0;
	int bad = ferror(m->f) != 0;
	if (fclose(m->f) == EOF)
		bad = 1;
	m->f = NULL;
	if (bad)
		return errf(err, errlen, "cannot make a buffer in memory: %s",
			    strerror(errno ? errno : ENOMEM));
	return 0;
}

/* Closes the stream and creates path new with what it holds (write_new):
 * its code, EXPORT_INPUT when the stream failed. */
static int membuf_save(struct membuf *m, const char *path, const char *what, char *err,
		       size_t errlen)
{
	if (membuf_close(m, err, errlen) < 0)
		return EXPORT_INPUT;
	return export_write_new(path, what, m->buf, m->len, err, errlen);
}

static void membuf_done(struct membuf *m)
{
	if (m->f)
		fclose(m->f);
	free(m->buf);
	m->buf = NULL;
	m->f = NULL;
}

/* ---- --export-svg ----------------------------------------------------- */

/* -t NAME: the built-in slide theme is the only one there is so far. */
static const struct svg_theme *svg_theme_by_name(const char *name, char *err, size_t errlen)
{
	if (!name || !strcmp(name, "light"))
		return &svg_theme_light;
	errf(err, errlen, "-t %s: no such theme (--export-svg has: light)", name);
	return NULL;
}

/* The time range and the run the options ask for, checked against the
 * recording. */
static int svg_range(const struct export_req *o, const struct rec_load *r,
		     const struct reduce_info *ri, struct svg_opts *so, char *err, size_t errlen)
{
	/* the recording's ends, not the (reduced) history's */
	uint64_t t0 = ri->t_first, t1 = ri->t_last;
	double len_s = (double)(t1 - t0) / 1e9;
	so->run = -1;
	if (o->run) {
		const struct runlog *l = r->log;
		if ((size_t)o->run > l->nresults)
			return errf(err, errlen, "--run %ld: %s has %zu run%s", o->run, r->path,
				    l->nresults, l->nresults == 1 ? "" : "s");
		const struct run_result *res = &l->results[o->run - 1];
		if (o->svg_runs) {
			if (!res->finished)
				return errf(err, errlen,
					    "--run %ld: %s ends before the run does (the "
					    "recording was cut short)",
					    o->run, r->path);
			so->run = (int)(o->run - 1);
		} else {
			so->from_ns = res->t_start_ns > t0 ? res->t_start_ns : t0;
			so->to_ns = res->finished && res->t_end_ns ? res->t_end_ns : t1;
		}
		return 0;
	}
	if (o->from_s >= 0 || o->to_s >= 0) {
		double from = o->from_s >= 0 ? o->from_s : 0;
		double to = o->to_s >= 0 && o->to_s < len_s ? o->to_s : len_s;
		if (from >= len_s)
			return errf(err, errlen, "--from %g: past the end of %s (%.1f s long)",
				    from, r->path, len_s);
		so->from_ns = t0 + (uint64_t)(from * 1e9 + 0.5);
		so->to_ns = t0 + (uint64_t)(to * 1e9 + 0.5);
		if (so->to_ns > t1)
			so->to_ns = t1;
	}
	return 0;
}

int export_svg(const struct export_req *o, char *warn, size_t warnlen, char *err, size_t errlen)
{
	struct svg_opts so;
	memset(&so, 0, sizeof(so));
	so.theme = svg_theme_by_name(o->theme, err, errlen);
	if (!so.theme)
		return EXPORT_INPUT;
	so.width = o->svg_w;
	so.height = o->svg_h;
	so.view = o->svg_runs == 2 ? SVG_SWEEP : o->svg_runs ? SVG_RUNS : SVG_OVERVIEW;
	/* read once, reduced to the picture's columns over the range drawn
	 * (export_reduce.h); a long recording drawn for its runs (--run, the
	 * Runs view) is read again, reduced over those runs alone */
	struct rec_load r;
	struct reduce_info ri;
	struct reduce_opts ro = {.cols = svg_plot_columns(&so), .from_s = o->from_s, .to_s = o->to_s};
	if (o->run)
		ro.from_s = ro.to_s = -1;
	if (export_load_reduced(&r, o->inputs[0], o->ap, &ro, &ri, warn, warnlen, err, errlen) < 0)
		return EXPORT_INPUT;
	int rc = EXPORT_INPUT;
	struct membuf m = {0};
	struct reduce_range *rg = NULL;
	if (svg_range(o, &r, &ri, &so, err, errlen) < 0)
		goto out;
	if (ri.reduced && (o->run || so.view == SVG_RUNS)) {
		size_t nr = 0;
		rg = xcalloc(r.log->nresults + 1, sizeof(*rg));
		if (so.view != SVG_RUNS) {
			rg[nr++] = (struct reduce_range){so.from_ns, so.to_ns};
		} else { /* the runs the view has room for: the last shown */
			size_t fit = svg_runs_rows(&so), want = 0;
			for (size_t i = r.log->nresults; i-- > 0 && want < fit;) {
				const struct run_result *res = &r.log->results[i];
				if ((so.run >= 0 && (size_t)so.run != i) || !res->finished ||
				    !res->t_copy_ns || !(res->elapsed_s > 0))
					continue;
				want++;
				uint64_t b = res->t_end_ns ? res->t_end_ns : ri.t_last;
				rg[nr++] = (struct reduce_range){res->t_start_ns, b};
			}
			for (size_t i = 0; i < nr / 2; i++) { /* oldest first */
				struct reduce_range t = rg[i];
				rg[i] = rg[nr - 1 - i];
				rg[nr - 1 - i] = t;
			}
		}
		ro.ranges = rg;
		ro.nranges = nr;
		rec_load_done(&r);
		export_reduce_done(&ri);
		if (nr && export_load_reduced(&r, o->inputs[0], o->ap, &ro, &ri, warn, warnlen, err,
					      errlen) < 0) {
			free(rg);
			return EXPORT_INPUT;
		}
		if (!nr) { /* no run to draw: the whole, for svg_write to say so */
			ro.ranges = NULL;
			if (export_load_reduced(&r, o->inputs[0], o->ap, &ro, &ri, warn, warnlen,
						err, errlen) < 0) {
				free(rg);
				return EXPORT_INPUT;
			}
		}
		if (svg_range(o, &r, &ri, &so, err, errlen) < 0)
			goto out;
	}
	if (membuf_open(&m, err, errlen) < 0)
		goto out;
	struct svg_input in = {
	    .ser = r.ser,
	    .events = r.log->events,
	    .nevents = r.log->nevents,
	    .runs = r.log->results,
	    .nruns = r.log->nresults,
	    .host = r.hdr.host,
	    .kernel = r.hdr.kernel,
	    .disk = r.hdr.device,
	    .mglru = r.hdr.mglru,
	    .mem_limit = r.log->mem_limit,
	    .reduced = ri.reduced,
	    .nsamples = ri.in_range,
	    .bursts = ri.marks,
	    .nbursts = ri.nmarks,
	};
	/* no limit in the header: the runs' cgroups say it, every sample's
	 * (a reduced history holds some of them) */
	if (ri.reduced && !in.mem_limit)
		in.mem_limit = ri.cg_limit_max;
	char e[400];
	if (svg_write(m.f, &in, &so, e, sizeof(e)) < 0) {
		errf(err, errlen, "--export-svg %s: %s", r.path, e);
		goto out;
	}
	rc = membuf_save(&m, o->out, "--export-svg", err, errlen);
out:
	membuf_done(&m);
	free(rg);
	rec_load_done(&r);
	export_reduce_done(&ri);
	return rc;
}

int export_svg_new(const char *out, const struct svg_input *in, const struct svg_opts *so,
		   char *err, size_t errlen)
{
	struct membuf m = {0};
	char e[400];
	int rc = EXPORT_INPUT;
	if (membuf_open(&m, err, errlen) < 0)
		goto out;
	if (svg_write(m.f, in, so, e, sizeof(e)) < 0) {
		errf(err, errlen, "export-svg %s: %s", out, e);
		goto out;
	}
	rc = membuf_save(&m, out, "export-svg", err, errlen);
out:
	membuf_done(&m);
	return rc;
}

/* ---- --export-csv ----------------------------------------------------- */

int export_csv(const struct export_req *o, char *warn, size_t warnlen, char *err, size_t errlen)
{
	/* streamed (export_csv.c): memory bounded by a sample, not the recording */
	return export_csv_stream(o->inputs[0], o->out, warn, warnlen, err, errlen);
}

/* ---- --export-openmetrics ---------------------------------------------- */

/* Streamed from the reader (openmetrics.c), no history loaded: memory is
 * bounded by a sample, not the recording. */
int export_openmetrics(const struct export_req *o, char *warn, size_t warnlen, char *err,
		       size_t errlen)
{
	return om_export_stream(o->inputs[0], o->out, o->ap, warn, warnlen, err, errlen);
}

/* ---- --compare -------------------------------------------------------- */

int export_compare(FILE *out, const struct export_req *o, char *warn, size_t warnlen, char *err,
		   size_t errlen)
{
	int n = o->ninputs;
	if (n < 2 || n > COMPARE_MAX_RECORDINGS) {
		errf(err, errlen, "--compare: needs 2 to %d recordings", COMPARE_MAX_RECORDINGS);
		return EXPORT_INPUT;
	}
	struct rec_load r[COMPARE_MAX_RECORDINGS];
	memset(r, 0, sizeof(r));
	int rc = EXPORT_INPUT, loaded = 0;
	size_t woff = 0;
	if (warnlen)
		warn[0] = '\0';
	if (export_results_check(o->export_json, o->export_md, NULL, err, errlen) < 0)
		return EXPORT_INPUT;
	for (; loaded < n; loaded++) {
		char w[512];
		if (rec_load_read(&r[loaded], o->inputs[loaded], o->ap, w, sizeof(w), err, errlen) <
		    0)
			goto out;
		/* nothing to compare: say which file, not an empty table */
		size_t fin = 0;
		for (size_t k = 0; k < r[loaded].log->nresults; k++)
			fin += r[loaded].log->results[k].finished != 0;
		if (!fin) {
			errf(err, errlen,
			     "--compare %s: no finished run in it (recorded without -s "
			     "or --cmd?)",
			     o->inputs[loaded]);
			loaded++;
			goto out;
		}
		/* one warning a line, for every recording that has one */
		if (w[0] && woff < warnlen)
			woff += (size_t)snprintf(warn + woff, warnlen - woff, "%s%s",
						 woff ? "\n" : "", w);
	}
	struct compare_origin org[COMPARE_MAX_RECORDINGS];
	struct compare_input in[COMPARE_MAX_RECORDINGS];
	char labels[COMPARE_MAX_RECORDINGS][COMPARE_LABEL_MAX];
	for (int i = 0; i < n; i++)
		org[i] = (struct compare_origin){
		    .kernel = r[i].hdr.kernel, .host = r[i].hdr.host, .path = r[i].path};
	compare_labels(labels, org, n);
	for (int i = 0; i < n; i++)
		in[i] = (struct compare_input){
		    .label = labels[i], .runs = r[i].log->results, .nruns = r[i].log->nresults};
	struct compare *c = xcalloc(1, sizeof(*c));
	if (compare_compute(c, in, n, err, errlen) < 0) {
		free(c);
		goto out;
	}
	if (o->export_json || o->export_md) { /* the files first: a failure prints no table */
		struct export_side sd[COMPARE_MAX_RECORDINGS];
		for (int i = 0; i < n; i++)
			sd[i] = (struct export_side){
			    .label = c->label[i],
			    .path = r[i].path,
			    .host = r[i].hdr.host,
			    .kernel = r[i].hdr.kernel,
			    .disk = r[i].hdr.device,
			    .disk_kind = r[i].hdr.device_kind,
			    .mglru = r[i].hdr.mglru,
			    .started = r[i].hdr.start_wall,
			    .mem_limit = r[i].log->mem_limit,
			    .disk_limit = r[i].log->disk_limit,
			    .baseline = r[i].log->baseline,
			    .runs = r[i].log->results,
			    .nruns = r[i].log->nresults,
			};
		rc = export_results_save(o->export_json, o->export_md, sd, n, c, err, errlen);
		if (rc) {
			free(c);
			goto out;
		}
		rc = EXPORT_INPUT;
	}
	/* made whole in memory: a signal leaves no half table on out */
	struct membuf m;
	if (membuf_open(&m, err, errlen) < 0) {
		free(c);
		goto out;
	}
	int bad = compare_table(m.f, c) < 0;
	free(c);
	if (bad || membuf_close(&m, err, errlen) < 0) {
		membuf_done(&m);
		goto out;
	}
	if (sig_caught()) {
		rc = interrupted(err, errlen);
	} else {
		errno = 0;
		sig_hold(1);
		rc = fwrite(m.buf, 1, m.len, out) != m.len || fflush(out) == EOF ? EXPORT_WRITE : 0;
		sig_release(rc == 0);
	}
	membuf_done(&m);
out:
	for (int i = 0; i < loaded; i++)
		rec_load_done(&r[i]);
	return rc;
}

/* ---- the streaming exports' reading ----------------------------------- */

int export_read_open(struct export_read *x, const char *path, char *warn, size_t warnlen, char *err,
		     size_t errlen)
{
	memset(x, 0, sizeof(*x));
	x->path = path;
	if (warnlen)
		warn[0] = '\0';
	x->rec = recording_open(path, err, errlen);
	if (!x->rec)
		return -1;
	recording_read_ahead(x->rec, recording_read_threads());
	x->it = xmalloc(sizeof(*x->it));
	return 0;
}

int export_read_next(struct export_read *x, char *err, size_t errlen)
{
	const struct record_item *it = x->it;
	int r = recording_next(x->rec, x->it, err, errlen);
	if (r > 0 && it->kind == RECORD_SAMPLE) {
		if (x->nsamples &&
		    it->sample.t_ns < x->last_t) /* as the replay's first read says */
			return errf(err, errlen, "%s:%u: sample: time goes backwards", x->path,
				    it->line);
		x->last_t = it->sample.t_ns;
		x->nsamples++;
	} else if (r > 0 && it->kind == RECORD_RESULT) {
		x->res = xgrow(x->res, x->nres, &x->cap, sizeof(*x->res), 64);
		x->res[x->nres++] = it->result;
	}
	return r;
}

int export_read_end(struct export_read *x, char *warn, size_t warnlen, char *err, size_t errlen)
{
	if (!x->nsamples)
		return errf(err, errlen, "%s: no samples in the recording", x->path);
	const char *w = recording_warning(x->rec);
	if (w && warnlen)
		strlcpy_(warn, w, warnlen);
	return 0;
}

void export_read_close(struct export_read *x)
{
	free(x->res);
	free(x->it);
	recording_close(x->rec);
	memset(x, 0, sizeof(*x));
}
