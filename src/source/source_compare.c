/* The compare source (`--compare A B [C…]` in the TUI): every recording is
 * loaded (rec_load_read), then replayed into one model, one after the other —
 * B's samples shifted to start a gap after A's last, C's after B's, … —
 * with each run's label prefixed by its recording's letter ("A rw_cp",
 * "B rw_cp").  The Runs view then draws every recording's runs on one time
 * and rate scale, and the comparison (compare_compute on the unprefixed
 * labels) is kept for the table under them.  Everything is delivered on
 * the first step: there is nothing to pace and nothing to seek. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "source/load.h"
#include "source/source.h"
#include "base/util.h"

struct cmp_src {
	struct source src;
	int n, delivered;
	struct rec_load r[COMPARE_MAX_RECORDINGS];
	char labels[COMPARE_MAX_RECORDINGS][COMPARE_LABEL_MAX];
	struct compare *c;
	char warn[2048];
};

static struct cmp_src *cs_of(const struct source *src)
{
	return (struct cmp_src *)src;
}

/* The gap between two recordings on the common clock: ten samples. */
static uint64_t gap_ns(const struct rec_load *r)
{
	double iv = r->hdr.interval_s > 0 ? r->hdr.interval_s : 0.5;
	return (uint64_t)(iv * 10 * 1e9);
}

static int cs_step(struct source *src)
{
	struct cmp_src *p = cs_of(src);
	if (p->delivered)
		return -1;
	p->delivered = 1;
	const struct source_sink *k = &src->sink;
	struct runlog *log = src->log;
	uint64_t base = 0;
	for (int i = 0; i < p->n; i++) {
		const struct rec_load *r = &p->r[i];
		size_t len = series_len(r->ser);
		if (!len)
			continue;
		uint64_t t0 = series_at(r->ser, 0)->t_ns;
		if (i == 0)
			base = t0;
		/* t -> t - t0 + base on the common clock */
		size_t run0 = log->nresults;
		size_t nres = r->log->nresults;
		if (run0 + nres > RUNLOG_MAX_RUNS)
			nres = RUNLOG_MAX_RUNS - run0;
#define SHIFT(t) ((t) ? (t)-t0 + base : 0)
		for (size_t j = 0; j < nres; j++) {
			struct run_result *d = &log->results[run0 + j];
			*d = r->log->results[j];
			snprintf(d->name, sizeof(d->name), "%c %.29s", 'A' + i,
				 r->log->results[j].name);
			d->t_start_ns = SHIFT(d->t_start_ns);
			d->t_copy_ns = SHIFT(d->t_copy_ns);
			d->t_end_ns = SHIFT(d->t_end_ns);
		}
		log->nresults = run0 + nres;
		if (r->log->mem_limit > log->mem_limit)
			log->mem_limit = r->log->mem_limit;
		for (size_t j = 0; j < r->log->nevents && log->nevents < RUNLOG_MAX_EVENTS; j++) {
			struct run_event e = r->log->events[j];
			if (e.run < 0 || (size_t)e.run >= nres)
				continue;
			e.t_ns = SHIFT(e.t_ns);
			e.run = (int16_t)(e.run + (int)run0);
			log->events[log->nevents++] = e;
		}
		uint64_t last = 0;
		for (size_t j = 0; j < len; j++) {
			struct sample s = *series_at(r->ser, j);
			s.t_ns = SHIFT(s.t_ns);
			if (s.run >= 0)
				s.run = (size_t)s.run < nres ? (int16_t)(s.run + (int)run0) : -1;
			last = s.t_ns;
			if (k->sample)
				k->sample(k->ctx, &s, NULL);
		}
#undef SHIFT
		for (size_t j = 0; j < nres && k->result; j++)
			k->result(k->ctx, &log->results[run0 + j]);
		base = last + gap_ns(r);
	}
	return 0;
}

static void cs_progress(const struct source *src, struct run_progress *out)
{
	memset(out, 0, sizeof(*out));
	out->current = -1;
	out->state = RUNS_FINISHED;
	out->queue_len = out->queue_next = src->log->nresults;
}

static void cs_free(struct source *src)
{
	struct cmp_src *p = cs_of(src);
	for (int i = 0; i < p->n; i++)
		rec_load_done(&p->r[i]);
	free(p->c);
	free(p);
}

static const struct source_ops compare_ops = {
    .name = "compare",
    .step = cs_step,
    .progress = cs_progress,
    .free = cs_free,
};

struct source *source_compare_new(const char *const *paths, int n, struct runlog *log,
				  const struct source_sink *sink,
				  const struct record_argv_parser *ap, char *err, size_t errlen)
{
	if (n < 2 || n > COMPARE_MAX_RECORDINGS) {
		errf(err, errlen, "--compare: needs 2 to %d recordings", COMPARE_MAX_RECORDINGS);
		return NULL;
	}
	struct cmp_src *p = xcalloc(1, sizeof(*p));
	p->src.ops = &compare_ops;
	p->src.sink = *sink;
	p->src.log = log;
	size_t woff = 0;
	for (; p->n < n; p->n++) {
		char w[512];
		if (rec_load_read(&p->r[p->n], paths[p->n], ap, w, sizeof(w), err, errlen) < 0)
			goto fail;
		size_t fin = 0;
		for (size_t k = 0; k < p->r[p->n].log->nresults; k++)
			fin += p->r[p->n].log->results[k].finished != 0;
		if (!fin) {
			errf(err, errlen,
			     "--compare %s: no finished run in it (recorded without -s or --cmd?)",
			     paths[p->n]);
			p->n++;
			goto fail;
		}
		if (w[0] && woff < sizeof(p->warn))
			woff += (size_t)snprintf(p->warn + woff, sizeof(p->warn) - woff, "%s%s",
						 woff ? "; " : "", w);
	}
	struct compare_origin org[COMPARE_MAX_RECORDINGS];
	struct compare_input in[COMPARE_MAX_RECORDINGS];
	for (int i = 0; i < n; i++)
		org[i] = (struct compare_origin){
		    .kernel = p->r[i].hdr.kernel, .host = p->r[i].hdr.host, .path = p->r[i].path};
	compare_labels(p->labels, org, n);
	for (int i = 0; i < n; i++)
		in[i] = (struct compare_input){.label = p->labels[i],
					       .runs = p->r[i].log->results,
					       .nruns = p->r[i].log->nresults};
	p->c = xcalloc(1, sizeof(*p->c));
	if (compare_compute(p->c, in, n, err, errlen) < 0)
		goto fail;
	return &p->src;
fail:
	cs_free(&p->src);
	return NULL;
}

int source_is_compare(const struct source *src)
{
	return src && src->ops == &compare_ops;
}

const struct compare *source_compare_result(const struct source *src)
{
	return source_is_compare(src) ? cs_of(src)->c : NULL;
}

size_t source_compare_samples(const struct source *src)
{
	size_t n = 0;
	if (source_is_compare(src))
		for (int i = 0; i < cs_of(src)->n; i++)
			n += series_len(cs_of(src)->r[i].ser);
	return n;
}

double source_compare_interval(const struct source *src)
{
	double iv = 0;
	if (source_is_compare(src))
		for (int i = 0; i < cs_of(src)->n; i++)
			if (cs_of(src)->r[i].hdr.interval_s > iv)
				iv = cs_of(src)->r[i].hdr.interval_s;
	return iv;
}

const char *source_compare_warning(const struct source *src)
{
	return source_is_compare(src) && cs_of(src)->warn[0] ? cs_of(src)->warn : NULL;
}
