/*
 * om_wall_parse: a recording's "start_wall" ("2026-12-01T09:10:42.123Z"),
 * and om_label_value: any text as an OpenMetrics label value.
 *
 * Contract: a time is -1 or finite and >= 0, and only a text ending in 'Z'
 * gives one; an escaped value holds no newline or control byte, every '"'
 * in it is escaped, and unescaping it gives the input with its control
 * bytes (but newline) as '?'.
 */
#include "fuzz.h"

#include <math.h>

#include "output/openmetrics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	double t = om_wall_parse(buf);
	FUZZ_REQUIRE(t == -1 || (isfinite(t) && t >= 0));
	if (t >= 0)
		FUZZ_REQUIRE(strlen(buf) > 0 && buf[strlen(buf) - 1] == 'Z');

	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	FUZZ_REQUIRE(f);
	om_label_value(f, buf);
	FUZZ_REQUIRE(fclose(f) == 0);
	size_t in = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)out[i];
		FUZZ_REQUIRE(c >= 0x20 && c != 0x7f);
		char want;
		if (c == '\\') {
			FUZZ_REQUIRE(i + 1 < len);
			char e = out[++i];
			FUZZ_REQUIRE(e == '\\' || e == '"' || e == 'n');
			want = e == 'n' ? '\n' : e;
		} else {
			FUZZ_REQUIRE(c != '"');
			want = (char)c;
		}
		unsigned char s = (unsigned char)buf[in++];
		FUZZ_REQUIRE(want == ((s < 0x20 && s != '\n') || s == 0x7f ? '?' : (char)s));
	}
	FUZZ_REQUIRE(buf[in] == '\0');
	free(out);
	free(buf);
	return 0;
}
