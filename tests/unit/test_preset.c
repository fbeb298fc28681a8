/* The --demo presets: names parsed, values filled in, and what the user
 * gave kept.  The limits depend on this machine (root, cgroup controllers):
 * where one cannot be enforced the test checks that the note says so. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "runs/cgroup.h"
#include "screen/chart.h"
#include "app/options.h"
#include "optparse.h"
#include "app/preset.h"

#define MIB (1024ull * 1024)

static const struct preset *chosen(const struct options *o)
{
	return o->preset ? o->preset : preset_find(PRESET_DEFAULT);
}

static void test_names(void **state)
{
	(void)state;
	struct options o;
	char err[256];
	assert_int_equal(PARSE(&o, err, "--demo"), 0);
	assert_true(o.demo);
	assert_null(o.preset);
	assert_string_equal(chosen(&o)->name, "2008");
	assert_int_equal(PARSE(&o, err, "--demo=today"), 0);
	assert_true(o.demo);
	assert_string_equal(o.preset->name, "today");
	assert_int_equal(PARSE(&o, err, "--demo=2008"), 0);
	assert_string_equal(o.preset->name, "2008");
	static const char *const bad[] = {"--demo=foo", "--demo=", "--demo=2008x", "--demo=Today"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(PARSE(&o, err, (char *)bad[i]), -1);
		char want[64];
		snprintf(want, sizeof(want), "--demo %s: not 2008 or today", bad[i] + 7);
		assert_string_equal(err, want);
	}
	/* the name is no separate argument: "today" is a stray one */
	assert_int_equal(PARSE(&o, err, "--demo", "today"), -1);
	assert_non_null(strstr(err, "today: unexpected argument"));
}

/* Applies the preset --demo[=NAME] args... chose; returns the note. */
static void apply(struct options *o, char *note, size_t notelen, char *desc, size_t desclen)
{
	struct cgroup_home h;
	cgroup_home_init(&h, "", CGROUP_RUN_DIR);
	preset_apply(chosen(o), o, &h, note, notelen, desc, desclen);
	cgroup_home_done(&h);
}

static void test_defaults(void **state)
{
	(void)state;
	struct options o;
	char err[256], note[400], desc[64], why[300];
	int mem_ok = cgroup_available(why, sizeof(why)) == 0;
	int io_ok = cgroup_io_available(why, sizeof(why)) == 0;

	assert_int_equal(PARSE(&o, err, "--demo"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_string_equal(o.strategies, "rw_cp,mm_sync_cp,mm_sync_madv_cp");
	assert_true(o.no_verify);
	assert_int_equal(o.glyphs, CHART_BLOCK);
	if (mem_ok) {
		assert_int_equal(o.mem_limit, 40 * MIB);
		assert_int_equal(o.size, 320 * MIB);
	} else {
		assert_int_equal(o.mem_limit, 0);
		assert_non_null(strstr(note, "demo 2008 without a memory cgroup"));
		assert_non_null(strstr(desc, "no memory pressure (no cgroup)"));
	}
	/* /var/tmp is on a disk in the test machines; the session checks it */
	if (io_ok && o.disk_limit) {
		assert_int_equal(o.disk_limit, 32 * MIB);
		assert_non_null(strstr(desc, "32M/s disk"));
	} else {
		assert_int_equal(o.disk_limit, 0);
		assert_non_null(strstr(note, "disk throttle"));
		assert_non_null(strstr(desc, "no disk throttle"));
	}
	if (mem_ok && o.disk_limit) {
		assert_string_equal(desc, "demo 2008: 40M mem, 32M/s disk");
		assert_string_equal(note, "");
	}

	assert_int_equal(PARSE(&o, err, "--demo=today"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.disk_limit, 0);
	if (mem_ok) {
		assert_int_equal(o.mem_limit, 64 * MIB);
		assert_int_equal(o.size, 32 * 64 * MIB);
		assert_string_equal(desc, "demo today: 64M mem, full-speed disk");
		assert_string_equal(note, "");
	} else {
		assert_int_equal(o.size, 1024 * MIB);
		assert_non_null(strstr(note, "demo today without a memory cgroup"));
	}
}

/* Whatever the user gave stays: limits, size, source, strategies, glyphs. */
static void test_overrides(void **state)
{
	(void)state;
	struct options o;
	char err[256], note[400], desc[64];

	assert_int_equal(PARSE(&o, err, "--demo", "--mem-limit", "24M", "--disk-limit", "40M",
			       "--size", "100M", "-s", "rw_cp", "--glyphs", "braille"),
			 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.mem_limit, 24 * MIB);
	assert_int_equal(o.disk_limit, 40 * MIB);
	assert_int_equal(o.size, 100 * MIB);
	assert_string_equal(o.strategies, "rw_cp");
	assert_int_equal(o.glyphs, CHART_BRAILLE);
	assert_string_equal(desc, "demo 2008: 24M mem, 40M/s disk");
	assert_string_equal(note, "");

	/* today with a throttle the user asked for; the size follows the limit */
	assert_int_equal(
	    PARSE(&o, err, "--demo=today", "--disk-limit", "50M", "--mem-limit", "16M"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.disk_limit, 50 * MIB);
	assert_int_equal(o.mem_limit, 16 * MIB);
	assert_int_equal(o.size, 32 * 16 * MIB);
	assert_string_equal(desc, "demo today: 16M mem, 50M/s disk");

	/* --src: no size is made up; --cmd: no strategies are added */
	assert_int_equal(PARSE(&o, err, "--demo", "--src", "/etc/hostname", "--cmd", "true"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.size, 0);
	assert_null(o.strategies);
}

/* A parameter --sweep sets is the sweep's: the preset neither fills it
 * (--demo --sweep mem-limit=... recorded the preset's 40M as the run's
 * limit and said "40M mem") nor names a value for it. */
static void test_swept(void **state)
{
	(void)state;
	struct options o;
	char err[256], note[400], desc[64];
	assert_int_equal(PARSE(&o, err, "--demo", "--sweep", "mem-limit=8M,16M"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.mem_limit, 0);
	assert_non_null(strstr(desc, "demo 2008: mem-limit swept, "));
	assert_null(strstr(note, "memory cgroup")); /* the session checks the cgroup */
	assert_int_equal(PARSE(&o, err, "--demo", "--sweep", "disk-limit=2M,4M"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.disk_limit, 0);
	assert_non_null(strstr(desc, ", disk-limit swept"));
	assert_null(strstr(note, "disk throttle"));
	assert_int_equal(PARSE(&o, err, "--demo=today", "--sweep", "size=1M,2M"), 0);
	apply(&o, note, sizeof(note), desc, sizeof(desc));
	assert_int_equal(o.size, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_defaults),
	    cmocka_unit_test(test_overrides),
	    cmocka_unit_test(test_swept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
