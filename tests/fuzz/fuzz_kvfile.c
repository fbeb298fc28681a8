/*
 * libFuzzer target for the kvfile parsers (STYLE.md rule 8: every parser has
 * a fuzz target).  Build and run:
 *
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE -Isrc \
 *       tests/fuzz/fuzz_kvfile.c src/kvfile.c src/util.c -o build/fuzz_kvfile
 *   build/fuzz_kvfile -max_total_time=60 -max_len=40000
 *
 * Besides "no crash", it checks the parsers' contracts: the found count
 * matches the values that are not KVFILE_MISSING (or is -1), and a PSI parse
 * that succeeds gives non-negative averages.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kvfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = {
	    "pgscan_direct", "pgscan_direct_throttle", "workingset_refault_file", "a", "",
	    "active_file",
	};
	enum { N = sizeof(keys) / sizeof(keys[0]) };
	char *buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';

	uint64_t vals[N];
	int found = kvfile_parse(buf, keys, N, vals);
	int present = 0;
	for (int i = 0; i < N; i++)
		present += vals[i] != KVFILE_MISSING;
	/* UINT64_MAX itself is a valid number that reads as "missing" */
	if (found < present || found > N)
		abort();

	struct psi p;
	if (kvfile_parse_psi(buf, &p) == 0 && (!(p.some_avg10 >= 0) || !(p.full_avg10 >= 0)))
		abort();
	free(buf);
	return 0;
}
