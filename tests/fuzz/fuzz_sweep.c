/*
 * sweep_parse and sweep_until_parse: the --sweep and --sweep-until
 * arguments ("mem-limit=24M..96M:x2", "bs=4K,64K", "bursts>=1").
 *
 * Contract: 0 gives 1..SWEEP_MAX_VALUES values, ascending and distinct,
 * of a known parameter, with a suffix that names the parameter's prefix;
 * -1 gives one line of error text naming the option (no line break of its
 * own).  sweep_until_parse: 0 sets the condition and a text, -1 an error.
 */
#include "fuzz.h"

#include <math.h>

#include "app/options.h"
#include "model/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	struct sweep_spec sp;
	char err[512] = "";
	memset(&sp, 0, sizeof(sp));
	int rc = sweep_parse(buf, parse_size, &sp, err, sizeof(err));
	if (rc == 0) {
		FUZZ_REQUIRE(sp.param > SWEEP_NONE && sp.param < SWEEP_NPARAM);
		FUZZ_REQUIRE(sp.n >= 1 && sp.n <= SWEEP_MAX_VALUES);
		for (int i = 1; i < sp.n; i++)
			FUZZ_REQUIRE(sp.v[i] > sp.v[i - 1]);
		char suf[40];
		sweep_suffix(suf, sizeof(suf), sp.param, sp.v[0]);
		FUZZ_REQUIRE(suf[0] == '@' && suf[1] != '?');
	} else {
		FUZZ_REQUIRE(rc == -1 && !strncmp(err, "--sweep ", 8) &&
			     (!strchr(err, '\n') || strchr(buf, '\n')));
	}
	struct sweep_cond c;
	memset(&c, 0, sizeof(c));
	err[0] = '\0';
	rc = sweep_until_parse(buf, &c, err, sizeof(err));
	FUZZ_REQUIRE(rc == 0 ? c.set && c.text[0] : rc == -1 && err[0]);
	/* the threshold is a plain decimal, as every option's number */
	FUZZ_REQUIRE(rc != 0 || (isfinite(c.threshold) && c.threshold >= 0));
	free(buf);
	return 0;
}
