/*
 * The command line: options_parse over an argv, and parse_size /
 * parse_interval over each of its words.
 *
 * Input: argv words separated by NUL or newline (argv[0] is "lrutop").
 * Contract: options_parse returns 0 or -1; -1 comes with one line of error
 * text (no newline); 0 leaves the interval within its bounds and the sizes
 * above zero.  parse_size accepts only words that start with a digit or '.'
 * and gives the same bytes as the plain number for a word of digits only;
 * parse_interval returns a value within its bounds or an error naming -i.
 * Numbers by one rule (issue 26): decimal_parse takes only digits with at
 * most one '.', parse_interval only what decimal_parse takes (the same
 * value), parse_size no sign, blank, exponent or hex.
 */
#include "fuzz.h"

#include <errno.h>
#include <math.h>

#include "app/options.h"
#include "base/util.h"

#define MAX_ARGS 32

static void check_word(const char *w)
{
	uint64_t sz;
	double iv;
	char err[256] = "";

	double d;
	if (decimal_parse(w, &d) == 0) {
		FUZZ_REQUIRE(w[strspn(w, "0123456789.")] == '\0' &&
			     strchr(w, '.') == strrchr(w, '.'));
		FUZZ_REQUIRE(isfinite(d) && d >= 0);
	}
	if (parse_size(w, &sz) == 0) {
		FUZZ_REQUIRE((w[0] >= '0' && w[0] <= '9') || w[0] == '.');
		FUZZ_REQUIRE(!strpbrk(w, "eExX+- \t"));
		if (w[strspn(w, "0123456789")] == '\0' && strlen(w) < 20) {
			errno = 0;
			FUZZ_REQUIRE(strtoull(w, NULL, 10) == sz);
		}
	}
	if (parse_interval(w, &iv, err, sizeof(err)) == 0)
		FUZZ_REQUIRE(iv >= INTERVAL_MIN && iv <= INTERVAL_MAX &&
			     decimal_parse(w, &d) == 0 && d == iv);
	else
		FUZZ_REQUIRE(!strncmp(err, "-i ", 3) && !strchr(err, '\n'));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	char *argv[MAX_ARGS + 2];
	size_t n = fuzz_split(buf, size, argv + 1, MAX_ARGS);
	struct options o;
	char err[512] = "";

	argv[0] = "lrutop";
	argv[n + 1] = NULL;
	for (size_t i = 1; i <= n; i++)
		check_word(argv[i]);

	options_init(&o);
	int rc = options_parse(&o, (int)n + 1, argv, err, sizeof(err));
	if (rc == 0) {
		FUZZ_REQUIRE(o.interval >= INTERVAL_MIN && o.interval <= INTERVAL_MAX);
		FUZZ_REQUIRE(o.repeat >= 1 && o.repeat <= 1000);
		FUZZ_REQUIRE(o.bs > 0 && o.bs <= 1024 * 1024 * 1024);
		FUZZ_REQUIRE(!o.device || o.device[0]);
		FUZZ_REQUIRE(o.count >= 0);
		FUZZ_REQUIRE(sweep_values_most(&o.sweep) >= 0 &&
			     sweep_values_most(&o.sweep) <= o.sweep.n);
	} else {
		FUZZ_REQUIRE(rc == -1 && err[0] && !strchr(err, '\n'));
	}
	free(buf);
	return 0;
}
