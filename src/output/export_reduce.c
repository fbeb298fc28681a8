/* Reading a recording for a picture, reduced to its columns
 * (export_reduce.h). */
#include "output/export_reduce.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/burst.h"
#include "model/rates.h"
#include "source/source.h"
#include "base/util.h"

/* Samples a bucket keeps at most: last, 2 max, 2 min, 2 burst, 2 + 2 phase. */
#define PER_BUCKET 11

struct kept {
	size_t idx; /* raw index in the recording */
	struct sample s;
};

struct reducer {
	struct series *ser;
	const struct reduce_opts *ro;
	struct reduce_info *info;
	/* the ranges (one of our own for from_s..to_s, made at the first sample) */
	struct reduce_range own;
	const struct reduce_range *rg;
	size_t nrg;
	size_t k;	   /* the range the stream is in or before */
	double width_ns;   /* a bucket's time */
	int reduced;	   /* 0: push every sample */
	size_t idx;	   /* raw samples seen */
	struct sample prev; /* the raw sample before the current one */
	int have_prev, prev_in; /* prev exists; prev lay in a range */
	size_t pushed_idx; /* raw index of the last pushed sample + 1, 0 none */
	/* the current bucket */
	long bucket; /* -1: none open */
	struct kept maxp[2], minp[2], burstp[2], ph0[2], ph1[2], last;
	double max_rate, min_rate;
	int have_max, have_min, have_ph;
	unsigned bursts;
	uint64_t burst_t;
	size_t cap_marks;
	double len_s;	/* the recording's length (the replay source's index) */
	int want_rg;	/* ranges to make at the first sample */
};

static void keep_one(struct reducer *d, const struct kept *c)
{
	if (d->pushed_idx && c->idx < d->pushed_idx)
		return;
	series_push(d->ser, &c->s);
	d->pushed_idx = c->idx + 1;
}

static int cmp_kept(const void *a, const void *b)
{
	const struct kept *x = *(const struct kept *const *)a, *y = *(const struct kept *const *)b;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Pushes what the open bucket kept, in time order, and closes it. */
static void bucket_flush(struct reducer *d)
{
	if (d->bucket < 0)
		return;
	const struct kept *c[PER_BUCKET];
	int n = 0;
	if (d->have_max)
		c[n++] = &d->maxp[0], c[n++] = &d->maxp[1];
	if (d->have_min)
		c[n++] = &d->minp[0], c[n++] = &d->minp[1];
	if (d->bursts)
		c[n++] = &d->burstp[0], c[n++] = &d->burstp[1];
	if (d->have_ph) {
		c[n++] = &d->ph0[0], c[n++] = &d->ph0[1];
		if (d->have_ph > 1)
			c[n++] = &d->ph1[0], c[n++] = &d->ph1[1];
	}
	c[n++] = &d->last;
	qsort(c, (size_t)n, sizeof(c[0]), cmp_kept);
	for (int i = 0; i < n; i++)
		keep_one(d, c[i]);
	if (d->bursts) {
		struct reduce_info *in = d->info;
		in->marks = xgrow(in->marks, in->nmarks, &d->cap_marks, sizeof(*in->marks), 256);
		in->marks[in->nmarks++] = (struct svg_burst){.t_ns = d->burst_t, .n = d->bursts};
	}
	d->bucket = -1;
	d->have_max = d->have_min = d->have_ph = 0;
	d->bursts = 0;
}

/* The read rate plot.c draws for the interval a..b: the run's own bytes
 * where b has them, else the disk's. */
static double read_rate(const struct sample *a, const struct sample *b)
{
	struct rates r;
	rates_compute(a, b, &r);
	double rd = r.read_mbs;
	if (b->run >= 0 && (b->have & SAMPLE_HAVE_CG_IO)) {
		double own, wr;
		rates_run_io(a, b, &r, &own, &wr);
		if (!isnan(own))
			rd = own;
	}
	return rd;
}

static void set_pair(struct kept p[2], const struct reducer *d, const struct sample *s)
{
	p[0].idx = d->idx - 1;
	p[0].s = d->prev;
	p[1].idx = d->idx;
	p[1].s = *s;
}

/* One raw sample of a range, in bucket b (reduced). */
static void reduce_one(struct reducer *d, const struct sample *s, long b)
{
	if (b != d->bucket) {
		bucket_flush(d);
		d->bucket = b;
	}
	d->last.idx = d->idx;
	d->last.s = *s;
	if (!d->have_prev) { /* the recording's first: the time axis starts at it */
		keep_one(d, &d->last);
		return;
	}
	if (!d->prev_in) { /* the first of a range, and the one before it */
		struct kept k = {.idx = d->idx - 1, .s = d->prev};
		keep_one(d, &k);
		k.idx = d->idx;
		k.s = *s;
		keep_one(d, &k);
	}
	const struct sample *a = &d->prev;
	if (a->t_ns < s->t_ns) {
		double rd = read_rate(a, s);
		if (!isnan(rd)) {
			if (!d->have_max || rd > d->max_rate) {
				d->max_rate = rd;
				d->have_max = 1;
				set_pair(d->maxp, d, s);
			}
			if (!d->have_min || rd < d->min_rate) {
				d->min_rate = rd;
				d->have_min = 1;
				set_pair(d->minp, d, s);
			}
		}
	}
	if (burst_between(a, s)) {
		if (!d->bursts++) {
			set_pair(d->burstp, d, s);
			d->burst_t = s->t_ns;
		}
	}
	if (a->run != s->run || a->phase != s->phase) {
		if (!d->have_ph) {
			set_pair(d->ph0, d, s);
			d->have_ph = 1;
		} else {
			set_pair(d->ph1, d, s);
			d->have_ph = 2;
		}
	}
}

/* The range and bucket of t (reduced): 1 in range k, bucket *b; 0 not
 * in a range (before or between), -1 past the last. */
static int locate(struct reducer *d, uint64_t t, long *b)
{
	while (d->k < d->nrg && t > d->rg[d->k].b_ns)
		d->k++;
	if (d->k == d->nrg)
		return -1;
	const struct reduce_range *r = &d->rg[d->k];
	if (t < r->a_ns)
		return 0;
	/* buckets numbered over all ranges: range k's start after range k-1's end */
	long base = 0;
	for (size_t j = 0; j < d->k; j++)
		base += (long)floor((double)(d->rg[j].b_ns - d->rg[j].a_ns) / d->width_ns) + 1;
	*b = base + (long)floor((double)(t - r->a_ns) / d->width_ns);
	return 1;
}

/* Sets up the ranges and the bucket width at the first sample. */
static void start(struct reducer *d, uint64_t t0, double len_s)
{
	const struct reduce_opts *ro = d->ro;
	if (ro->ranges) {
		d->rg = ro->ranges;
		d->nrg = ro->nranges;
	} else {
		double from = ro->from_s >= 0 ? ro->from_s : 0;
		d->own.a_ns = t0 + (uint64_t)(from * 1e9 + 0.5);
		d->own.b_ns = ro->to_s >= 0 ? t0 + (uint64_t)(ro->to_s * 1e9 + 0.5) : UINT64_MAX;
		d->rg = &d->own;
		d->nrg = 1;
	}
	/* the time the buckets cover: the ranges, cut at the recording's end */
	uint64_t end = t0 + (uint64_t)(len_s * 1e9 + 0.5);
	double total = 0;
	for (size_t j = 0; j < d->nrg; j++) {
		uint64_t a = d->rg[j].a_ns > t0 ? d->rg[j].a_ns : t0;
		uint64_t b = d->rg[j].b_ns < end ? d->rg[j].b_ns : end;
		if (b > a)
			total += (double)(b - a);
	}
	d->width_ns = ro->cols ? total / (double)ro->cols : 0;
	if (!(d->width_ns >= 1))
		d->width_ns = 1;
}

static void red_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct reducer *d = ctx;
	struct reduce_info *in = d->info;
	if (d->idx == 0)
		in->t_first = s->t_ns;
	in->t_last = s->t_ns;
	if ((s->have & SAMPLE_HAVE_CG) && s->cg_limit > in->cg_limit_max)
		in->cg_limit_max = s->cg_limit;
	if (d->idx == 0 && d->want_rg)
		start(d, s->t_ns, d->len_s);
	int where = 1;
	long b = 0;
	if (d->rg)
		where = locate(d, s->t_ns, &b);
	if (where == 1) {
		in->in_range++;
		if (d->have_prev && burst_between(&d->prev, s))
			in->nbursts++;
	}
	if (!d->ro->no_samples) {
		if (!d->reduced)
			series_push(d->ser, s); /* every sample, as rec_load_read */
		else if (where == 1)
			reduce_one(d, s, b);
		else if (where < 0)
			bucket_flush(d);
	}
	d->prev = *s;
	d->have_prev = 1;
	d->prev_in = where == 1;
	d->idx++;
}

int export_load_reduced(struct rec_load *r, const char *path, const struct record_argv_parser *ap,
			const struct reduce_opts *ro, struct reduce_info *info, char *warn,
			size_t warnlen, char *err, size_t errlen)
{
	memset(info, 0, sizeof(*info));
	struct reducer *d = xcalloc(1, sizeof(*d));
	d->ro = ro;
	d->info = info;
	d->bucket = -1;
	struct rec_loader l = {.sample = red_sample, .ctx = d};
	struct replay_pos pos;
	struct source *src = rec_load_open(r, &l, path, ap, &pos, warn, warnlen, err, errlen);
	if (!src) {
		free(d);
		return -1;
	}
	/* a recording no longer than the picture is kept whole, as rec_load_read */
	d->reduced = ro->cols && pos.n > ro->cols;
	size_t cap = ro->no_samples ? 1
		     : d->reduced  ? ro->cols * PER_BUCKET + 2 * (ro->nranges + 1) + 8
				   : (pos.n ? pos.n : 1);
	r->ser = d->ser = series_new(cap);
	d->len_s = pos.len_s;
	d->want_rg = d->reduced || ro->ranges || ro->from_s >= 0 || ro->to_s >= 0;
	/* the samples from the first read's spool, not the JSON a second
	 * time (falls back to the JSON without one) */
	source_replay_samples_only(src);
	while (source_step(src) == 0)
		;
	bucket_flush(d);
	info->n = d->idx;
	info->reduced = d->reduced;
	int short_read =
	    d->idx != pos.n || (!d->reduced && !ro->no_samples && series_len(r->ser) != pos.n);
	int rc = rec_load_end(r, &l, src, short_read, warn, warnlen, err, errlen);
	free(d);
	if (rc < 0)
		export_reduce_done(info);
	return rc;
}

void export_reduce_done(struct reduce_info *info)
{
	if (!info)
		return;
	free(info->marks);
	info->marks = NULL;
	info->nmarks = 0;
}
