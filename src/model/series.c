#include "model/series.h"

#include <stdlib.h>
#include <string.h>

#include "model/sample_pack.h"
#include "base/util.h"

/*
 * The history is blocks of SERIES_BLOCK samples, numbered from the first
 * push (sample n is in block n / SERIES_BLOCK).  The newest two blocks are
 * kept as they are, so the samples every tick reads (the newest, the one
 * before) cost a pointer; older blocks are packed (sample_pack.h, each
 * block starting from zeros so it unpacks on its own) into a pool of small
 * chunks, and a read of one unpacks its whole block into one of
 * SLOTS slots, the least recently used giving way.  Every sample's time
 * is kept apart as well (8 bytes), so a find or a time axis unpacks
 * nothing.  Chunks freed by the oldest
 * block are taken again first, so the memory the pool touches is what the
 * packed history holds, not the pool's size; the pool is sized for the
 * worst case (no word compresses), so the history always holds its
 * capacity.
 */
#define SERIES_BLOCK 32
#define CHUNK 4096
#define BLOCK_MAX (SERIES_BLOCK * SAMPLE_PACK_MAX)
/* Unpacked blocks kept.  A pointer from series_at stays valid while fewer
 * than SLOTS other packed blocks are read after its own (series.h says
 * eight: keep SLOTS there in step); sanitizer builds
 * keep two, in memory of their own that is freed when a slot gives way, so
 * a pointer held too long is a use after free the tests see. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOTS 2
#define SLOT_FRESH 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLOTS 2
#define SLOT_FRESH 1
#endif
#endif
#ifndef SLOTS
#define SLOTS 8
#define SLOT_FRESH 0
#endif

struct block {
	uint32_t chunk, off; /* where it starts: next[] chains the chunks on */
	uint32_t len;	     /* packed bytes */
	uint32_t have_or; /* its samples' have bits, or'd */
};

struct slot {
	unsigned long long blk; /* block number + 1; 0: empty */
	unsigned long long used;
	struct sample *smp;
};

struct series {
	size_t cap;
	unsigned long long pushed, first; /* first: the oldest sample held */
	uint64_t *t; /* every sample's t_ns, by number % cap: finds and time
		      * axes read no block */
	struct sample *raw[2];		  /* block b, for the newest two, is raw[b & 1] */
	uint32_t raw_or[2];		  /* their have bits, or'd */
	/* packed blocks, [pk_first, pk_end), in a ring of nblk descriptors */
	struct block *blk;
	size_t nblk;
	unsigned long long pk_first, pk_end;
	uint8_t *pool;
	uint32_t *next, free_head, nchunks;
	uint32_t fresh; /* chunks from here on were never taken */
	uint32_t tail, tail_off; /* the chunk the next block is written into */
	uint8_t *scratch; /* a block packed, or gathered from its chunks */
	/* the unpacked blocks: mutable through a const series (a read fills
	 * them) */
	struct cache {
		struct slot slot[SLOTS];
		unsigned long long tick;
	} *cache;
};

#define NO_CHUNK UINT32_MAX

struct series *series_new(size_t capacity)
{
	struct series *s = xcalloc(1, sizeof(*s));
	s->cap = capacity ? capacity : 1;
	s->t = xcalloc(s->cap, sizeof(*s->t));
	for (int i = 0; i < 2; i++)
		s->raw[i] = xcalloc(SERIES_BLOCK, sizeof(struct sample));
	/* at most cap / BLOCK + 2 blocks hold a sample still in the history,
	 * two of them raw */
	s->nblk = s->cap / SERIES_BLOCK + 2;
	s->blk = xcalloc(s->nblk, sizeof(*s->blk));
	/* the blocks follow each other in one chain of chunks (no chunk
	 * half-empty between two blocks): at worst every block at its
	 * worst, and the chunk being filled */
	s->nchunks = (uint32_t)((s->nblk * BLOCK_MAX + CHUNK - 1) / CHUNK + 2);
	s->pool = xcalloc(s->nchunks, CHUNK);
	/* untouched until taken, like the pool: the chunks given back are
	 * the free list, the rest are fresh */
	s->next = xcalloc(s->nchunks, sizeof(*s->next));
	s->free_head = s->tail = NO_CHUNK;
	s->scratch = xmalloc(BLOCK_MAX);
	s->cache = xcalloc(1, sizeof(*s->cache));
	/* one allocation (mapped, so a slot's pages count once it is used) */
	if (!SLOT_FRESH) {
		struct sample *all = xcalloc((size_t)SLOTS * SERIES_BLOCK, sizeof(struct sample));
		for (int i = 0; i < SLOTS; i++)
			s->cache->slot[i].smp = all + (size_t)i * SERIES_BLOCK;
	}
	return s;
}

void series_free(struct series *s)
{
	if (!s)
		return;
	for (int i = 0; i < 2; i++)
		free(s->raw[i]);
	if (SLOT_FRESH)
		for (int i = 0; i < SLOTS; i++)
			free(s->cache->slot[i].smp);
	else
		free(s->cache->slot[0].smp);
	free(s->cache);
	free(s->scratch);
	free(s->next);
	free(s->pool);
	free(s->blk);
	free(s->t);
	free(s);
}

static struct block *blk_of(const struct series *s, unsigned long long b)
{
	return &s->blk[b % s->nblk];
}

/* The oldest packed block gives its chunks back (first to be taken
 * again) and leaves the unpacked slots. */
static void drop_oldest(struct series *s)
{
	/* its chunks up to the one the next block starts in (or the one
	 * being filled): blocks leave in the order they came */
	uint32_t c = blk_of(s, s->pk_first)->chunk;
	uint32_t keep = s->pk_first + 1 < s->pk_end ? blk_of(s, s->pk_first + 1)->chunk : s->tail;
	while (c != keep && c != NO_CHUNK) {
		uint32_t n = s->next[c];
		s->next[c] = s->free_head;
		s->free_head = c;
		c = n;
	}
	for (int i = 0; i < SLOTS; i++) {
		struct slot *sl = &s->cache->slot[i];
		if (sl->blk == s->pk_first + 1) {
			sl->blk = 0;
			if (SLOT_FRESH) {
				free(sl->smp);
				sl->smp = NULL;
			}
		}
	}
	s->pk_first++;
}

/* Block b (raw, about to be reused) packed into the pool. */
static void pack_block(struct series *s, unsigned long long b)
{
	const struct sample *in = s->raw[b & 1];
	size_t len = 0;
	for (int i = 0; i < SERIES_BLOCK; i++)
		len += sample_pack(i > 1 ? &in[i - 2] : NULL, i ? &in[i - 1] : NULL, &in[i],
				   s->scratch + len);
	struct block *d = blk_of(s, b);
	d->len = (uint32_t)len;
	d->have_or = s->raw_or[b & 1];
	for (size_t off = 0; off < len;) {
		if (s->tail == NO_CHUNK || s->tail_off == CHUNK) {
			/* the pool holds every block at its worst: never empty */
			uint32_t c = s->free_head;
			if (c != NO_CHUNK)
				s->free_head = s->next[c];
			else
				c = s->fresh++;
			s->next[c] = NO_CHUNK;
			if (s->tail != NO_CHUNK)
				s->next[s->tail] = c;
			s->tail = c;
			s->tail_off = 0;
		}
		if (off == 0) {
			d->chunk = s->tail;
			d->off = s->tail_off;
		}
		size_t n = len - off < CHUNK - s->tail_off ? len - off : CHUNK - s->tail_off;
		memcpy(s->pool + (size_t)s->tail * CHUNK + s->tail_off, s->scratch + off, n);
		s->tail_off += (uint32_t)n;
		off += n;
	}
	s->pk_end = b + 1;
}

void series_push(struct series *s, const struct sample *smp)
{
	unsigned long long n = s->pushed, b = n / SERIES_BLOCK;
	if (n % SERIES_BLOCK == 0 && b >= 2) {
		/* raw[b & 1] holds block b - 2: pack it first */
		if (s->pk_first == s->pk_end)
			s->pk_first = s->pk_end = b - 2;
		pack_block(s, b - 2);
	}
	if (n % SERIES_BLOCK == 0)
		s->raw_or[b & 1] = 0;
	s->raw_or[b & 1] |= smp->have;
	s->raw[b & 1][n % SERIES_BLOCK] = *smp;
	s->t[n % s->cap] = smp->t_ns;
	s->pushed++;
	if (s->pushed - s->first > s->cap)
		s->first = s->pushed - s->cap;
	while (s->pk_first < s->pk_end && (s->pk_first + 1) * SERIES_BLOCK <= s->first)
		drop_oldest(s);
}

size_t series_len(const struct series *s)
{
	return (size_t)(s->pushed - s->first);
}

size_t series_capacity(const struct series *s)
{
	return s->cap;
}

unsigned long long series_pushed(const struct series *s)
{
	return s->pushed;
}

/* Packed block b unpacked into a slot (the least recently used). */
static const struct sample *unpacked(const struct series *s, unsigned long long b)
{
	struct cache *c = s->cache;
	struct slot *sl = &c->slot[0];
	for (int i = 0; i < SLOTS; i++) {
		if (c->slot[i].blk == b + 1) {
			c->slot[i].used = ++c->tick;
			return c->slot[i].smp;
		}
		if (c->slot[i].used < sl->used)
			sl = &c->slot[i];
	}
	if (SLOT_FRESH) {
		free(sl->smp);
		sl->smp = xcalloc(SERIES_BLOCK, sizeof(struct sample));
	}
	const struct block *d = blk_of(s, b);
	uint32_t k = d->chunk, at = d->off;
	for (size_t off = 0; off < d->len; k = s->next[k], at = 0) {
		size_t n = d->len - off < CHUNK - at ? d->len - off : CHUNK - at;
		memcpy(s->scratch + off, s->pool + (size_t)k * CHUNK + at, n);
		off += n;
	}
	const uint8_t *p = s->scratch;
	size_t left = d->len;
	for (int i = 0; i < SERIES_BLOCK; i++) {
		size_t used = sample_unpack(i > 1 ? &sl->smp[i - 2] : NULL, i ? &sl->smp[i - 1] : NULL, p,
					    left, &sl->smp[i]);
		p += used;
		left -= used;
	}
	sl->blk = b + 1;
	sl->used = ++c->tick;
	return sl->smp;
}

const struct sample *series_at(const struct series *s, size_t i)
{
	if (i >= series_len(s))
		return NULL;
	unsigned long long n = s->first + i, b = n / SERIES_BLOCK;
	if (b >= s->pk_end)
		return &s->raw[b & 1][n % SERIES_BLOCK];
	return &unpacked(s, b)[n % SERIES_BLOCK];
}

int series_may_have(const struct series *s, size_t i, uint32_t bits)
{
	if (i >= series_len(s))
		return 0;
	unsigned long long b = (s->first + i) / SERIES_BLOCK;
	return ((b >= s->pk_end ? s->raw_or[b & 1] : blk_of(s, b)->have_or) & bits) != 0;
}

const struct sample *series_back(const struct series *s, size_t back)
{
	size_t len = series_len(s);
	if (back >= len)
		return NULL;
	return series_at(s, len - 1 - back);
}

size_t series_capacity_for(double seconds, double interval)
{
	double n = interval > 0 ? seconds / interval : 64;
	/* written so that NAN lands on the lower bound: converting NAN (or
	 * anything out of range) to size_t is undefined */
	if (!(n >= 64))
		n = 64;
	if (n > 200000)
		n = 200000;
	return (size_t)n + 1;
}

uint64_t series_t(const struct series *s, size_t i)
{
	return i < series_len(s) ? s->t[(s->first + i) % s->cap] : 0;
}

long series_find(const struct series *s, uint64_t t_ns)
{
	long lo = 0, hi = (long)series_len(s) - 1, ans = -1;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		if (series_t(s, (size_t)mid) >= t_ns) {
			ans = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return ans;
}
