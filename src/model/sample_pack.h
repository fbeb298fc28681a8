/*
 * sample_pack — a sample as its difference from the one before it.
 *
 * The history (series.h) keeps most of its samples packed: a sample is
 * mostly counters that moved a little since the last tick, so each of its
 * 64-bit words is stored as the zigzag varint of its difference from what
 * was expected — the same word of the sample before; for the time, that
 * plus the interval before it; for the cgroup's byte counts, the
 * difference in whole pages where it divides — and a bitmap says which
 * words differ at all, itself stored as its change from the words that
 * moved the tick before (the same counters move tick after tick).  A packed sample of a copy is 60-90 bytes where
 * struct sample is 704 (docs and figures: bench/README.md "History").
 *
 * Invariants: lossless — sample_unpack(prev2, prev, sample_pack(prev2,
 * prev, cur)) gives cur back byte for byte, padding included, for any
 * samples (the differences wrap modulo 2^64).  prev NULL stands for a
 * sample of zeros (how a block of packed samples starts), prev2 NULL for
 * "no interval known".  Nothing allocates.
 */
#ifndef LRUTOP_SAMPLE_PACK_H
#define LRUTOP_SAMPLE_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "sampling/sample.h"

#define SAMPLE_PACK_WORDS (sizeof(struct sample) / sizeof(uint64_t))
#define SAMPLE_PACK_BITMAP ((SAMPLE_PACK_WORDS + 7) / 8)
/* the most a packed sample can take: the bitmap's mask and bytes, a
 * 10-byte varint a word */
#define SAMPLE_PACK_MAX (2 + SAMPLE_PACK_BITMAP + SAMPLE_PACK_WORDS * 10)

/* Packs cur against prev and the one before it, prev2 (either may be
 * NULL), into out, which holds at least SAMPLE_PACK_MAX bytes.  Returns
 * the bytes written. */
size_t sample_pack(const struct sample *prev2, const struct sample *prev, const struct sample *cur,
		   uint8_t *out);
/* Unpacks the sample at in (n bytes available) against the prev2 and prev
 * it was packed against, into out (which may be prev).  Returns the bytes
 * read, 0 when in is cut short or malformed. */
size_t sample_unpack(const struct sample *prev2, const struct sample *prev, const uint8_t *in,
		     size_t n, struct sample *out);

/* A block of packed samples written or read in order from its start:
 * each packed against the two before it in the block (the first against
 * zeros).  The chain keeps those two, so a writer and a reader agree. */
struct sample_chain {
	struct sample s[3];
	size_t n; /* samples so far in the block */
};
/* A new block: its first sample is packed against zeros. */
void sample_chain_reset(struct sample_chain *c);
/* cur, the block's next sample, packed into out (SAMPLE_PACK_MAX bytes);
 * returns the bytes written. */
size_t sample_chain_pack(struct sample_chain *c, const struct sample *cur, uint8_t *out);
/* The block's next sample unpacked from in (n bytes available), *used the
 * bytes it took; NULL when in is cut short or malformed (the chain is then
 * as before).  The sample is the chain's until the next call. */
const struct sample *sample_chain_unpack(struct sample_chain *c, const uint8_t *in, size_t n,
					 size_t *used);

#endif
