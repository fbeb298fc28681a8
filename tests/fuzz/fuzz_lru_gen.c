/*
 * lru_gen_parse / lru_gen_line: the text of /sys/kernel/debug/lru_gen.
 *
 * Contract: the result is 0 or -1; 0 means found, 1..LRU_GEN_MAX
 * generation slots and at least one lruvec, -1 leaves the figures zero;
 * the text fed line by line gives what the whole text gives; a memcg
 * found by path is found in the sum too, with no more lruvecs than it.
 */
#include "fuzz.h"

#include "sampling/lru_gen.h"

static void check(const struct lru_gen *g, int rc)
{
	FUZZ_REQUIRE(rc == 0 || rc == -1);
	if (rc == 0)
		FUZZ_REQUIRE(g->found == 1 && g->nr_gens >= 1 && g->nr_gens <= LRU_GEN_MAX &&
			     g->lruvecs >= 1);
	else
		FUZZ_REQUIRE(!g->found && !g->nr_gens && !g->lruvecs && !g->seq && !g->file[0]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	char err[128];
	struct lru_gen all, one, bylines;
	int rc_all = lru_gen_parse(text, size, NULL, &all, err, sizeof(err));
	check(&all, rc_all);
	int rc_one =
	    lru_gen_parse(text, size, "/sys/fs/cgroup/lrutop-1-run", &one, err, sizeof(err));
	check(&one, rc_one);
	if (rc_one == 0)
		FUZZ_REQUIRE(rc_all == 0 && one.lruvecs <= all.lruvecs);

	struct lru_gen_parser p;
	lru_gen_begin(&p, NULL);
	int rc = 0;
	for (size_t i = 0; i < size && rc == 0;) {
		const char *nl = memchr(text + i, '\n', size - i);
		size_t e = nl ? (size_t)(nl - text) : size;
		rc = lru_gen_line(&p, text + i, e - i, err, sizeof(err));
		i = e + 1;
	}
	if (rc == 0)
		rc = lru_gen_end(&p, &bylines, err, sizeof(err));
	FUZZ_REQUIRE(rc == rc_all);
	if (rc == 0)
		FUZZ_REQUIRE(!memcmp(&bylines, &all, sizeof(all)));
	return 0;
}
