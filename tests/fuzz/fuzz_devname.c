/*
 * device.c's device names: name_to_sys (a -d NAME or diskstats name to its
 * sysfs spelling), name_to_user (back), and device_exists / device_is_disk /
 * walk_name, which look the name up in the real /sys (read only).  Static
 * helpers are reached by including device.c.
 *
 * Input: one name per line.  Contract: a name that maps to sysfs has the
 * same length, no '/', is not "." or "..", and maps back to itself unless it
 * held a '!'; a name that does not map is never found; a name found as a
 * disk also exists; a walk that succeeds ends at a whole disk in
 * /sys/block (or a loop device, which is one).
 */
#include "fuzz.h"

#include "sampling/device.c"

static void check_name(const char *name)
{
	char sys[NAME_MAX + 1], back[NAME_MAX + 1], p[PATH_MAX];
	int ok = name_to_sys(name, sys, sizeof(sys)) == 0;

	if (!ok) {
		FUZZ_REQUIRE(!device_exists(name) && !device_is_disk(name));
		return;
	}
	FUZZ_REQUIRE(strlen(sys) == strlen(name));
	FUZZ_REQUIRE(!strchr(sys, '/') && strcmp(sys, ".") && strcmp(sys, ".."));
	strcpy(back, sys);
	name_to_user(back);
	if (!strchr(name, '!'))
		FUZZ_REQUIRE(!strcmp(back, name));
	if (device_is_disk(name))
		FUZZ_REQUIRE(device_exists(name));

	struct walk w;
	memset(&w, 0, sizeof(w));
	if (walk_name(&w, sys) == 0) {
		FUZZ_REQUIRE(w.disk[0] && w.steps <= WALK_MAX_STEPS);
		snprintf(p, sizeof(p), "/sys/block/%s", w.disk);
		FUZZ_REQUIRE(path_exists(p));
	} else {
		FUZZ_REQUIRE(w.why[0]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = fuzz_string(data, size);
	char *names[8];
	size_t n = fuzz_split(buf, size, names, 8);

	for (size_t i = 0; i < n; i++)
		check_name(names[i]);
	free(buf);
	return 0;
}
