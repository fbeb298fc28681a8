/*
 * runs/cgroup_mark.c's markers under /run/lrutop: mark_parse (a marker's
 * text) and mark_kind (a marker's file name).  They are static; including
 * cgroup_mark.c reaches them without widening the module's interface.
 *
 * Input: a marker's text; its first line is also taken as a file name.
 * Contract: a parsed marker's dir holds no newline and fits its buffer, its
 * boot no blank, its enabled and uses only the bits of cgroup_ctls[]; written out
 * as mark_write writes it and parsed again, it is the same marker.  A name
 * mark_kind takes is exactly "subtree-" or "mount-" and the decimal pid it
 * gives (no sign, no leading zero, no trailing byte).
 */
#include "fuzz.h"

#include "runs/cgroup_mark.c"

static unsigned all_bits(void)
{
	unsigned b = 0;
	for (size_t i = 0; i < ARRAY_LEN(cgroup_ctls); i++)
		b |= cgroup_ctls[i].bit;
	return b;
}

static void check_text(const char *text)
{
	struct mark m, again;
	char buf[4096 + 512], en[32], us[32];

	if (mark_parse(text, &m) < 0)
		return;
	FUZZ_REQUIRE(!strchr(m.dir, '\n') && strlen(m.dir) < sizeof m.dir);
	FUZZ_REQUIRE(!strpbrk(m.boot, " \t\n") && strlen(m.boot) < sizeof m.boot);
	FUZZ_REQUIRE(!(m.enabled & ~all_bits()) && !(m.uses & ~all_bits()));
	ctl_words(m.enabled, en, sizeof en);
	ctl_words(m.uses, us, sizeof us);
	int n = snprintf(buf, sizeof buf,
			 "%s\npid %ld\nstart %llu\nboot %s\ndir %s\nenabled %s\nuses %s\n",
			 MARK_MAGIC, m.pid, m.start, m.boot, m.dir, en, us);
	FUZZ_REQUIRE(n > 0 && (size_t)n < sizeof buf);
	FUZZ_REQUIRE(mark_parse(buf, &again) == 0);
	FUZZ_REQUIRE(again.pid == m.pid && again.start == m.start);
	FUZZ_REQUIRE(strcmp(again.boot, m.boot) == 0 && strcmp(again.dir, m.dir) == 0);
	FUZZ_REQUIRE(again.enabled == m.enabled && again.uses == m.uses);
}

static void check_name(const char *name)
{
	char want[96];
	long pid = 0;
	int kind = mark_kind(name, &pid);

	if (kind == MARK_NONE)
		return;
	FUZZ_REQUIRE(kind == MARK_TOP || kind == MARK_MOUNT);
	FUZZ_REQUIRE(pid > 0);
	snprintf(want, sizeof want, "%s%ld", kind == MARK_TOP ? MARK_PREFIX : MOUNT_PREFIX, pid);
	FUZZ_REQUIRE(strcmp(want, name) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);

	check_text(text);
	text[strcspn(text, "\n")] = '\0';
	check_name(text);
	free(text);
	return 0;
}
