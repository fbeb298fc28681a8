/*
 * kvfile_parse: `key value` lines (/proc/vmstat, cgroup memory.stat).
 *
 * Contract: the found count is the number of keys that got a value (a key
 * whose value is UINT64_MAX reads as KVFILE_MISSING yet counts, so found may
 * exceed the visible count); a key that got a value has a line "KEY<blank>
 * DIGITS" in the input; a file made of the same lines twice gives the same
 * values (the first occurrence wins).
 */
#include "fuzz.h"

#include "sampling/kvfile.h"

static const char *const keys[] = {
    "pgscan_direct", "pgscan_direct_throttle", "workingset_refault_file", "a", "", "active_file",
};
enum { N = sizeof(keys) / sizeof(keys[0]) };

/* buf has a line starting with key followed by a blank and a digit. */
static int has_line(const char *buf, const char *key)
{
	size_t k = strlen(key);
	const char *line = buf;

	while (line && *line) {
		if (!strncmp(line, key, k) && (line[k] == ' ' || line[k] == '\t')) {
			const char *p = line + k;

			while (*p == ' ' || *p == '\t')
				p++;
			if (*p >= '0' && *p <= '9')
				return 1;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	uint64_t vals[N], again[N];
	int found = kvfile_parse(buf, keys, N, vals), present = 0;

	for (int i = 0; i < N; i++) {
		if (vals[i] == KVFILE_MISSING)
			continue;
		present++;
		FUZZ_REQUIRE(keys[i][0] && has_line(buf, keys[i]));
	}
	FUZZ_REQUIRE(found >= present && found <= N);

	/* the same text twice: the first occurrence of each key wins */
	char *twice = fuzz_twice(buf);
	kvfile_parse(twice, keys, N, again);
	for (int i = 0; i < N; i++)
		FUZZ_REQUIRE(vals[i] == KVFILE_MISSING || again[i] == vals[i]);
	free(twice);
	free(buf);
	return 0;
}
