/*
 * strategy_parse_list: the -s LIST argument ("rw_cp, mm_sync_cp",
 * "copybench", "all").
 *
 * Contract: 0 gives 1..max entries, each one of the table's strategies;
 * -1 gives an error text that adds no line break of its own (it quotes the
 * name, which may hold one); the count never exceeds max.
 */
#include "fuzz.h"

#include "runs/strategy.h"

#define MAX 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	const struct strategy *out[MAX];
	size_t n = 12345;
	char err[512] = "";
	int rc = strategy_parse_list(buf, out, MAX, &n, err, sizeof(err));

	FUZZ_REQUIRE(n <= MAX);
	if (rc == 0) {
		FUZZ_REQUIRE(n >= 1);
		for (size_t i = 0; i < n; i++)
			FUZZ_REQUIRE(out[i] && strategy_find(out[i]->name) == out[i]);
	} else {
		FUZZ_REQUIRE(rc == -1 && err[0] && (!strchr(err, '\n') || strchr(buf, '\n')));
	}
	free(buf);
	return 0;
}
