/*
 * sample_pack.c's unpacker: sample_unpack reads a packed sample back (the
 * history's blocks, the replay's spool on disk).
 *
 * Input: the first 2 * sizeof(struct sample) bytes (zero-padded) are the
 * two samples before (prev2, prev); the rest is packed bytes, unpacked one
 * sample after another as a block is, each unpacked sample becoming the
 * next one's prev.  Contract: an unpack reads no more than it was given
 * and either refuses (0) or returns the bytes it took, at least one; what
 * it gives back packs again (sample_pack against the same two) into at
 * most SAMPLE_PACK_MAX bytes that unpack, all of them, to the same sample
 * (what the packer writes is read back as written, whatever else the
 * unpacker also accepts).
 */
#include "fuzz.h"

#include "model/sample_pack.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sample s[3];
	memset(s, 0, sizeof(s));
	size_t head = 2 * sizeof(struct sample);
	memcpy(s, data, size < head ? size : head);
	const uint8_t *p = size > head ? data + head : data + size;
	size_t left = size > head ? size - head : 0;
	uint8_t again[SAMPLE_PACK_MAX];
	for (int j = 0; left; j++) {
		struct sample *prev2 = &s[j % 3], *prev = &s[(j + 1) % 3], *out = &s[(j + 2) % 3];
		size_t n = sample_unpack(j % 4 == 3 ? NULL : prev2, prev, p, left, out);
		if (!n)
			break;
		if (n > left)
			abort();
		const struct sample *p2 = j % 4 == 3 ? NULL : prev2;
		size_t m = sample_pack(p2, prev, out, again);
		struct sample back;
		if (m > SAMPLE_PACK_MAX || sample_unpack(p2, prev, again, m, &back) != m ||
		    memcmp(&back, out, sizeof(back)))
			abort();
		p += n;
		left -= n;
	}
	return 0;
}
