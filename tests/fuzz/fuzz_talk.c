/*
 * The talk script parser: talk_script_parse over any text.
 *
 * Input: a script (a NUL ends it early).  Contract: the parser returns a
 * script or NULL; NULL comes with one line of error text (no newline)
 * that starts with the script's name and a colon; a script has 1 to
 * TALK_MAX_STEPS steps, in the order of their lines, each of a known kind,
 * every run step with its strategies and a NULL-terminated argv, every
 * replay with a file and a speed within 0.25-16.  The error paths (issue
 * 15): the error holds no control character (a script's bytes reach the
 * terminal through it), a caption never keeps an open leading quote, a
 * run step whose --dir is refused names it, and a caption's text holds no
 * control character.
 */
#include "fuzz.h"

#include "talk/talk_script.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	struct options base;
	options_init(&base);
	char err[1400] = "";
	struct talk_script *s = talk_script_parse(buf, "fuzz.talk", &base, size & 1, err,
						  sizeof(err));
	if (!s) {
		FUZZ_REQUIRE(err[0] && !strchr(err, '\n'));
		FUZZ_REQUIRE(!strncmp(err, "fuzz.talk:", 10));
		for (const char *p = err; *p; p++)
			FUZZ_REQUIRE((unsigned char)*p >= 0x20 && *p != 0x7f);
	} else {
		FUZZ_REQUIRE(s->n >= 1 && s->n <= TALK_MAX_STEPS);
		unsigned last = 0;
		for (size_t i = 0; i < s->n; i++) {
			const struct talk_step *st = &s->steps[i];
			FUZZ_REQUIRE(st->line > last);
			last = st->line;
			FUZZ_REQUIRE(st->kind >= TALK_CAPTION && st->kind <= TALK_WAIT);
			if (st->kind == TALK_RUN) {
				FUZZ_REQUIRE(st->opt.strategies && st->argc >= 3);
				FUZZ_REQUIRE(st->argv[st->argc] == NULL);
			}
			if (st->kind == TALK_CAPTION && st->text) {
				for (const char *p = st->text; *p; p++)
					FUZZ_REQUIRE((unsigned char)*p >= 0x20 || *p == '\t');
			}
			if (st->kind == TALK_REPLAY)
				FUZZ_REQUIRE(st->text && st->speed >= 0.25 && st->speed <= 16);
		}
	}
	talk_script_free(s);
	free(buf);
	return 0;
}
