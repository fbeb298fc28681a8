#include "model/sample_pack.h"

#include <stddef.h>
#include <string.h>

_Static_assert(sizeof(struct sample) % sizeof(uint64_t) == 0,
	       "struct sample is packed as whole 64-bit words");

static void words_of(const struct sample *s, uint64_t *w)
{
	if (s)
		memcpy(w, s, sizeof(*s));
	else
		memset(w, 0, sizeof(*s));
}

/* The words counted in bytes that move by whole pages: their differences
 * are stored in pages when they divide (a flag in the varint's low bit). */
#define W(f) (offsetof(struct sample, f) / sizeof(uint64_t))
static int in_bytes(size_t w)
{
	return w == W(cg_active_file) || w == W(cg_inactive_file) || w == W(cg_cache) ||
	       w == W(cg_usage) || w == W(cg_limit) || w == W(cg_dirty) || w == W(cg_rd_bytes) ||
	       w == W(cg_wr_bytes);
}

/* What word i is expected to be: the one before; the time, the one before
 * plus the interval before it (a tick is late or early by microseconds,
 * not by a whole interval). */
static uint64_t predict(const uint64_t *a2, const uint64_t *a, size_t i)
{
	return i == W(t_ns) && a2 && a2[i] <= a[i] ? a[i] + (a[i] - a2[i]) : a[i];
}

static uint64_t zigzag(uint64_t d)
{
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
	return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static uint8_t *put_varint(uint8_t *p, uint64_t z)
{
	while (z >= 0x80) {
		*p++ = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	*p++ = (uint8_t)z;
	return p;
}

/* NULL when the varint runs past end or past 64 bits */
static const uint8_t *get_varint(const uint8_t *p, const uint8_t *end, uint64_t *z)
{
	*z = 0;
	for (unsigned shift = 0; shift <= 63; shift += 7) {
		if (p == end)
			return NULL;
		uint8_t c = *p++;
		*z |= (uint64_t)(c & 0x7f) << shift;
		if (!(c & 0x80))
			return p;
	}
	return NULL;
}

/* Which words moved from prev2 to prev (none without both): the words a
 * sample's bitmap is stored against, since the same counters move tick
 * after tick. */
static void moved(const uint64_t *a2, const uint64_t *a, int have, uint8_t *bm)
{
	memset(bm, 0, SAMPLE_PACK_BITMAP);
	for (size_t i = 0; have && i < SAMPLE_PACK_WORDS; i++)
		if (a[i] != a2[i])
			bm[i / 8] |= (uint8_t)(1u << (i % 8));
}

_Static_assert(SAMPLE_PACK_BITMAP <= 16, "the bitmap's mask is 16 bits");

size_t sample_pack(const struct sample *prev2, const struct sample *prev, const struct sample *cur,
		   uint8_t *out)
{
	uint64_t a2[SAMPLE_PACK_WORDS], a[SAMPLE_PACK_WORDS], b[SAMPLE_PACK_WORDS];
	words_of(prev2, a2);
	words_of(prev, a);
	words_of(cur, b);
	int two = prev2 && prev;
	uint8_t bm[SAMPLE_PACK_BITMAP], was[SAMPLE_PACK_BITMAP];
	moved(a2, a, two, was);
	memset(bm, 0, sizeof(bm));
	for (size_t i = 0; i < SAMPLE_PACK_WORDS; i++)
		if (b[i] != predict(two ? a2 : NULL, a, i))
			bm[i / 8] |= (uint8_t)(1u << (i % 8));
	/* the bitmap as its change from the last one: a mask of the bytes
	 * that changed, then those bytes */
	unsigned mask = 0;
	for (size_t k = 0; k < SAMPLE_PACK_BITMAP; k++)
		mask |= (unsigned)(bm[k] != was[k]) << k;
	uint8_t *p = put_varint(out, mask);
	for (size_t k = 0; k < SAMPLE_PACK_BITMAP; k++)
		if (mask & (1u << k))
			*p++ = bm[k] ^ was[k];
	for (size_t i = 0; i < SAMPLE_PACK_WORDS; i++) {
		if (!(bm[i / 8] & (1u << (i % 8))))
			continue;
		uint64_t d = b[i] - predict(two ? a2 : NULL, a, i);
		/* zigzag: a counter that fell (a gauge, a re-created disk)
		 * costs as little as one that rose by as much */
		if (!in_bytes(i)) {
			p = put_varint(p, zigzag(d));
			continue;
		}
		/* whole pages, the low bit saying whether bytes follow */
		int64_t sd = (int64_t)d, q = sd / 4096, r = sd % 4096;
		p = put_varint(p, zigzag((uint64_t)q) << 1 | (r != 0));
		if (r)
			p = put_varint(p, zigzag((uint64_t)r));
	}
	return (size_t)(p - out);
}

size_t sample_unpack(const struct sample *prev2, const struct sample *prev, const uint8_t *in,
		     size_t n, struct sample *out)
{
	uint64_t a2[SAMPLE_PACK_WORDS], w[SAMPLE_PACK_WORDS];
	words_of(prev2, a2);
	words_of(prev, w);
	int two = prev2 && prev;
	uint8_t bm[SAMPLE_PACK_BITMAP];
	moved(a2, w, two, bm);
	const uint8_t *p = in, *end = in + n;
	uint64_t mask;
	if (!(p = get_varint(p, end, &mask)) || mask >> SAMPLE_PACK_BITMAP)
		return 0;
	for (size_t k = 0; k < SAMPLE_PACK_BITMAP; k++) {
		if (!(mask & (1u << k)))
			continue;
		if (p == end || !*p)
			return 0; /* a changed byte that did not change */
		bm[k] ^= *p++;
	}
	/* bits past the last word must be clear: no two packings of one sample */
	for (size_t i = SAMPLE_PACK_WORDS; i < SAMPLE_PACK_BITMAP * 8; i++)
		if (bm[i / 8] & (1u << (i % 8)))
			return 0;
	for (size_t i = 0; i < SAMPLE_PACK_WORDS; i++) {
		uint64_t base = predict(two ? a2 : NULL, w, i);
		if (!(bm[i / 8] & (1u << (i % 8)))) {
			w[i] = base;
			continue;
		}
		uint64_t z, r = 0;
		if (!(p = get_varint(p, end, &z)))
			return 0;
		if (in_bytes(i)) {
			if ((z & 1) && !(p = get_varint(p, end, &r)))
				return 0;
			/* pages times 4096 as the encoder divided: modulo 2^64 */
			z = (unzigzag(z >> 1) << 12) + unzigzag(r);
		} else {
			z = unzigzag(z);
		}
		w[i] = base + z;
	}
	memcpy(out, w, sizeof(*out));
	return (size_t)(p - in);
}

void sample_chain_reset(struct sample_chain *c)
{
	c->n = 0;
}

/* The two samples before the next one, NULL where the block has none. */
static const struct sample *chain_back(const struct sample_chain *c, size_t back)
{
	return c->n >= back ? &c->s[(c->n - back) % 3] : NULL;
}

size_t sample_chain_pack(struct sample_chain *c, const struct sample *cur, uint8_t *out)
{
	size_t n = sample_pack(chain_back(c, 2), chain_back(c, 1), cur, out);
	c->s[c->n++ % 3] = *cur;
	return n;
}

const struct sample *sample_chain_unpack(struct sample_chain *c, const uint8_t *in, size_t n,
					 size_t *used)
{
	struct sample *out = &c->s[c->n % 3];
	*used = sample_unpack(chain_back(c, 2), chain_back(c, 1), in, n, out);
	return *used ? &c->s[c->n++ % 3] : NULL;
}
