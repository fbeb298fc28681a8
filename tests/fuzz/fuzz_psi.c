/*
 * kvfile_parse_psi: /proc/pressure/{memory,io,cpu} and cgroup v2
 * memory.pressure ("some avg10=0.00 avg60=0.00 avg300=0.00 total=0").
 *
 * Contract: success only if a "some " or "full " line carries both avg10=
 * and total=; averages are finite and non-negative.
 */
#include "fuzz.h"

#include <math.h>

#include "sampling/kvfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	struct psi p;
	int rc = kvfile_parse_psi(buf, &p);

	if (rc == 0) {
		FUZZ_REQUIRE(isfinite(p.some_avg10) && p.some_avg10 >= 0);
		FUZZ_REQUIRE(isfinite(p.full_avg10) && p.full_avg10 >= 0);
		FUZZ_REQUIRE(strstr(buf, "avg10=") && strstr(buf, "total="));
		FUZZ_REQUIRE(!strncmp(buf, "some ", 5) || !strncmp(buf, "full ", 5) ||
			     strstr(buf, "\nsome ") || strstr(buf, "\nfull "));
	} else {
		FUZZ_REQUIRE(rc == -1);
	}
	free(buf);
	return 0;
}
