#include "model/pagecache.h"

#include <math.h>
#include <stddef.h>
#include <unistd.h>

#include "sampling/residency.h"
#include "model/phase.h"

static double share(uint64_t part, uint64_t whole, int known)
{
	return known && whole ? 100.0 * (double)part / (double)whole : NAN;
}

void pagecache_pct(const struct sample *s, struct pagecache_pct *out)
{
	out->src_cached = out->dst_cached = out->dst_dirty = out->dst_wb = NAN;
	out->evicted = out->recent = NAN;
	if (!s || !(s->have & SAMPLE_HAVE_RES))
		return;
	const struct sample_res *a = &s->res_src, *b = &s->res_dst;
	out->src_cached = share(a->cached, a->pages, a->method != RESIDENCY_NONE);
	out->dst_cached = share(b->cached, b->pages, b->method != RESIDENCY_NONE);
	int full = b->method == RESIDENCY_CACHESTAT;
	out->dst_dirty = share(b->dirty, b->pages, full);
	out->dst_wb = share(b->writeback, b->pages, full);
	/* the counts need cachestat on every file that was read */
	int ok = (a->method == RESIDENCY_CACHESTAT || a->method == RESIDENCY_NONE) &&
		 (b->method == RESIDENCY_CACHESTAT || b->method == RESIDENCY_NONE) &&
		 (a->method || b->method);
	out->evicted = ok ? (double)(a->evicted + b->evicted) : NAN;
	out->recent = ok ? (double)(a->recently_evicted + b->recently_evicted) : NAN;
}

const char *pagecache_method(const struct sample *s)
{
	if (!s || !(s->have & SAMPLE_HAVE_RES))
		return NULL;
	int m = s->res_src.method > s->res_dst.method ? s->res_src.method : s->res_dst.method;
	return m == RESIDENCY_NONE ? NULL : residency_method_name(m);
}

double pagecache_src_cached_end_pct(const struct run_result *r)
{
	return share(r->res_src_cached_end, r->res_src_pages_end, r->res_have);
}

void pagecache_run_figures(const struct series *ser, int run, uint64_t t0, uint64_t t1,
			   struct run_result *r)
{
	r->res_have = 0;
	r->res_dst_dirty_peak_kb = r->res_src_cached_end = r->res_src_pages_end = 0;
	r->res_recent_end = 0;
	uint64_t peak = 0;
	int end_copying = 0; /* the end so far is a copy phase's sample */
	long i = series_find(ser, t0);
	if (i < 0)
		return;
	for (size_t k = (size_t)i; k < series_len(ser); k++) {
		const struct sample *s = series_at(ser, k);
		if (s->t_ns > t1)
			break;
		if (s->run != run || !(s->have & SAMPLE_HAVE_RES))
			continue;
		if (s->res_dst.dirty > peak)
			peak = s->res_dst.dirty;
		/* the end is the copy's (and its flush's), not the verify's,
		 * which drops both files and reads them again */
		int copying = sample_in_copy(s, run);
		if (copying < end_copying)
			continue;
		end_copying = copying;
		r->res_have = 1;
		if (s->res_src.method != RESIDENCY_NONE) {
			r->res_src_cached_end = s->res_src.cached;
			r->res_src_pages_end = s->res_src.pages;
		}
		r->res_recent_end = s->res_src.recently_evicted + s->res_dst.recently_evicted;
	}
	long page = sysconf(_SC_PAGESIZE); /* the run's: results are made live */
	r->res_dst_dirty_peak_kb = peak * (uint64_t)(page > 0 ? page : 4096) / 1024;
}

void pagecache_map_cells(const struct residency_map_file *f, int w, unsigned char *cells)
{
	for (int i = 0; i < w; i++) {
		int n = f->n;
		if (!n) {
			cells[i] = PCELL_NONE;
			continue;
		}
		int lo = (int)((int64_t)i * n / w), hi = (int)((int64_t)(i + 1) * n / w);
		if (hi <= lo)
			hi = lo + 1;
		uint64_t pages = residency_range_start(f->pages, n, hi) -
				 residency_range_start(f->pages, n, lo);
		uint64_t c = 0, d = 0, wb = 0, e = 0;
		for (int k = lo; k < hi; k++) {
			c += f->cached[k];
			d += f->dirty[k];
			wb += f->writeback[k];
			e += f->evicted[k];
		}
		cells[i] = d + wb	 ? (wb > d ? PCELL_WB : PCELL_DIRTY)
			   : c >= pages ? PCELL_CACHED
			   : c		 ? PCELL_SOME
			   : e		 ? PCELL_EVICTED
					 : PCELL_EMPTY;
	}
}
