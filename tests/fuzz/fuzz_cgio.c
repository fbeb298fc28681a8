/*
 * cgio_parse_v1 / cgio_parse_v2: a cgroup's blkio.throttle.io_service_bytes
 * and io.stat texts.
 *
 * Contract: the result is -1, 0 or 1; 0 leaves both counts 0; 1 only when a
 * line starts with DIGITS:DIGITS naming the device, then a blank; the text twice gives
 * the same result and counts for v2 (its first line of the device wins)
 * and the same result for v1.
 */
#include "fuzz.h"

#include "sampling/cgio.h"

/* A line starts with DIGITS:DIGITS naming major:minor, then a blank. */
static int has_dev(const char *buf, unsigned major, unsigned minor)
{
	for (const char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char *e;
		if (*l < '0' || *l > '9')
			continue;
		unsigned long ma = strtoul(l, &e, 10);
		if (*e != ':' || e[1] < '0' || e[1] > '9')
			continue;
		unsigned long mi = strtoul(e + 1, &e, 10);
		if ((*e == ' ' || *e == '\t') && ma == major && mi == minor)
			return 1;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	char *twice = fuzz_twice(buf);
	static const unsigned devs[][2] = {{254, 0}, {8, 16}, {0, 0}};
	for (size_t d = 0; d < sizeof(devs) / sizeof(devs[0]); d++) {
		for (int v = 1; v <= 2; v++) {
			uint64_t rd = 1, wr = 1, rd2, wr2;
			int rc = v == 1 ? cgio_parse_v1(buf, devs[d][0], devs[d][1], &rd, &wr)
					: cgio_parse_v2(buf, devs[d][0], devs[d][1], &rd, &wr);
			FUZZ_REQUIRE(rc >= -1 && rc <= 1);
			FUZZ_REQUIRE(rc != 0 || (rd == 0 && wr == 0));
			FUZZ_REQUIRE(rc != 1 || has_dev(buf, devs[d][0], devs[d][1]));
			if (v == 2) {
				int rc2 = cgio_parse_v2(twice, devs[d][0], devs[d][1], &rd2, &wr2);
				FUZZ_REQUIRE(rc2 == rc && (rc != 1 || (rd2 == rd && wr2 == wr)));
			}
		}
	}
	free(twice);
	free(buf);
	return 0;
}
