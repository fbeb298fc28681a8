/*
 * Tests for sampling/mountinfo: the running system's /proc/self/mountinfo
 * read whole and checked line by line against /proc/self/mounts as libc's
 * getmntent reads it (a second reader, with its own unescaping); lines
 * made by hand for what a system seldom shows — escapes of every kind,
 * optional fields, no super options, an empty source, bad lines — and the
 * iterator over a text and a file.
 *
 * Expected values are worked out from proc(5) and the kernel's
 * show_mountinfo, never copied from a run of the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sampling/mountinfo.h"
#include "base/util.h"
#include "testutil.h"

#include <errno.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

/* ---- hand-made lines --------------------------------------------------- */

/* e's seven strings, in the line's order: root, mount point, options,
 * optional fields, type, source, super options. */
static void assert_fields(const struct mountinfo_entry *e, const char *root, const char *mp,
			  const char *opts, const char *optional, const char *fstype,
			  const char *source, const char *super)
{
	assert_string_equal(e->root, root);
	assert_string_equal(e->mountpoint, mp);
	assert_string_equal(e->opts, opts);
	assert_string_equal(e->optional, optional);
	assert_string_equal(e->fstype, fstype);
	assert_string_equal(e->source, source);
	assert_string_equal(e->super, super);
}

static void test_documented_line(void **state)
{
	(void)state;
	/* proc(5)'s example */
	char line[] = "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root "
		      "rw,errors=continue\n";
	struct mountinfo_entry e;

	assert_int_equal(mountinfo_parse(line, &e), 0);
	assert_int_equal(e.id, 36);
	assert_int_equal(e.parent, 35);
	assert_int_equal(e.major, 98);
	assert_int_equal(e.minor, 0);
	assert_fields(&e, "/mnt1", "/mnt2", "rw,noatime", "master:1", "ext3", "/dev/root",
		      "rw,errors=continue");
}

static void test_optional_fields(void **state)
{
	(void)state;
	struct mountinfo_entry e;
	char none[] = "22 27 0:21 / /proc rw,relatime - proc proc rw";
	char three[] = "35 31 0:32 / /cg rw shared:7 master:3 propagate_from:2 - cgroup cgroup "
		       "rw,memory";

	assert_int_equal(mountinfo_parse(none, &e), 0);
	assert_fields(&e, "/", "/proc", "rw,relatime", "", "proc", "proc", "rw");
	assert_int_equal(mountinfo_parse(three, &e), 0);
	assert_fields(&e, "/", "/cg", "rw", "shared:7 master:3 propagate_from:2", "cgroup",
		      "cgroup", "rw,memory");
}

static void test_escapes(void **state)
{
	(void)state;
	struct mountinfo_entry e;
	/* what the kernel escapes (blank, tab, newline, backslash) in the
	 * root, the mount point, the type, the source and an option's value */
	char line[] = "61 25 0:52 /a\\134b /mnt/a\\040b\\012c rw shared:30 - fuse.x\\040y "
		      "my\\011src rw,dir=/u\\040v\n";

	assert_int_equal(mountinfo_parse(line, &e), 0);
	assert_fields(&e, "/a\\b", "/mnt/a b\nc", "rw", "shared:30", "fuse.x y", "my\tsrc",
		      "rw,dir=/u v");

	/* not escapes: \000 (a NUL would end the field early), a first
	 * digit above 3, too few digits, a digit 8, a lone backslash at
	 * the end -- each stays as written */
	char odd[] = "1 2 3:4 /r\\000s /m\\400\\07x\\128 rw - t s\\ o\\";
	assert_int_equal(mountinfo_parse(odd, &e), 0);
	assert_fields(&e, "/r\\000s", "/m\\400\\07x\\128", "rw", "", "t", "s\\", "o\\");

	char s[] = "a\\101\\000\\377z";
	assert_int_equal(mountinfo_unescape(s), 8);
	assert_string_equal(s, "aA\\000\377z");
}

static void test_escape_round_trip(void **state)
{
	(void)state;
	const char *text = "a b\\c\td\ne\\040";
	char out[64], small[8];

	assert_int_equal(mountinfo_escape(text, out, sizeof out), 0);
	assert_string_equal(out, "a\\040b\\134c\\011d\\012e\\134040");
	assert_int_equal(mountinfo_unescape(out), strlen(text));
	assert_string_equal(out, text);
	assert_int_equal(mountinfo_escape(text, small, sizeof small), -1);
	assert_string_equal(small, "");
	assert_int_equal(mountinfo_escape("", small, sizeof small), 0);
	assert_string_equal(small, "");
}

static void test_no_super_options_and_empty_source(void **state)
{
	(void)state;
	struct mountinfo_entry e;
	char nosuper[] = "36 35 98:0 /mnt1 /mnt rw - ext3 /dev/root";
	/* a mount of the source "": the kernel writes two blanks */
	char nosource[] = "40 1 0:50 / /x rw,relatime - tmpfs  rw,size=4k";

	assert_int_equal(mountinfo_parse(nosuper, &e), 0);
	assert_fields(&e, "/mnt1", "/mnt", "rw", "", "ext3", "/dev/root", "");
	assert_int_equal(mountinfo_parse(nosource, &e), 0);
	assert_fields(&e, "/", "/x", "rw,relatime", "", "tmpfs", "", "rw,size=4k");
}

static void test_bad_lines(void **state)
{
	(void)state;
	const char *const bad[] = {
	    "",
	    "36 35 98:0 /mnt1 /mnt rw",			    /* no separator */
	    "36 35 98:0 /mnt1 /mnt rw master:1",	    /* nor here */
	    "36 35 98:0 /mnt1 /mnt rw -",		    /* nothing after it */
	    "36 35 98:0 /mnt1 /mnt rw - ",		    /* an empty type */
	    "36 35 98:0 /mnt1 /mnt rw - ext3",		    /* no source */
	    "36 35 98:0 /mnt1 - ext3 /dev/root rw",	    /* a field short */
	    "x6 35 98:0 /mnt1 /mnt rw - ext3 /dev/root rw", /* not a number */
	    "-1 35 98:0 /mnt1 /mnt rw - ext3 /dev/root rw", /* a sign */
	    "36 35 980 /mnt1 /mnt rw - ext3 /dev/root rw",  /* no MAJ:MIN */
	    "36 35 98: /mnt1 /mnt rw - ext3 /dev/root rw",
	    "4294967296 35 98:0 / /mnt rw - ext3 /dev/root rw", /* above UINT_MAX */
	    "36  35 98:0 /mnt1 /mnt rw - ext3 /dev/root rw",	/* an empty field */
	    "36 35 98:0 /mnt1 /mnt rw  - ext3 /dev/root rw",	/* an empty tag */
	};
	struct mountinfo_entry e;

	for (size_t i = 0; i < ARRAY_LEN(bad); i++) {
		char *line = xstrdup(bad[i]);
		if (mountinfo_parse(line, &e) != -1)
			fail_msg("parsed: \"%s\"", bad[i]);
		free(line);
	}
	/* the largest number is taken */
	char max[] = "4294967295 0 0:0 / / rw - t s";
	assert_int_equal(mountinfo_parse(max, &e), 0);
	assert_int_equal(e.id, 4294967295u);
}

static void test_covers_and_option(void **state)
{
	(void)state;
	char out[16];
	const char *opts = "rw,lowerdir=/l1:/l2,upperdir=/var/tmp/up,workdir=/w";

	assert_int_equal(mountinfo_covers("/", "/anything"), 1);
	assert_int_equal(mountinfo_covers("/mnt", "/mnt"), 4);
	assert_int_equal(mountinfo_covers("/mnt", "/mnt/a"), 4);
	assert_int_equal(mountinfo_covers("/mnt", "/mntx"), 0);
	assert_int_equal(mountinfo_covers("/mnt/a", "/mnt"), 0);

	assert_int_equal(mountinfo_option(opts, "lowerdir=", out, sizeof out), 0);
	assert_string_equal(out, "/l1");
	assert_int_equal(mountinfo_option(opts, "upperdir=", out, sizeof out), 0);
	assert_string_equal(out, "/var/tmp/up");
	assert_int_equal(mountinfo_option(opts, "upperdir=", out, 11), -1);
	assert_int_equal(mountinfo_option(opts, "datadir=", out, sizeof out), -1);
	assert_int_equal(mountinfo_option("rw,upperdir=,x", "upperdir=", out, sizeof out), -1);
}

/* ---- the iterator -------------------------------------------------------- */

static void test_iterator_text(void **state)
{
	(void)state;
	const char *text = "22 27 0:21 / /proc rw - proc proc rw\n"
			   "a bad line\n"
			   "\n"
			   "27 1 254:0 / / rw - ext4 /dev/vda rw\n";
	struct mountinfo mi;
	struct mountinfo_entry e;

	mountinfo_init_text(&mi, text);
	assert_int_equal(mountinfo_next(&mi, &e), 1);
	assert_int_equal(mi.line, 1);
	assert_string_equal(e.mountpoint, "/proc");
	assert_int_equal(mountinfo_next(&mi, &e), 1);
	assert_int_equal(mi.line, 4);
	assert_string_equal(e.mountpoint, "/");
	assert_int_equal(e.major, 254);
	assert_int_equal(mountinfo_next(&mi, &e), 0);
	assert_int_equal(mountinfo_next(&mi, &e), 0);
	mountinfo_done(&mi);
	mountinfo_done(&mi);
}

static void test_iterator_file(void **state)
{
	(void)state;
	char dir[256], path[300];
	struct mountinfo mi;
	struct mountinfo_entry e;
	FILE *f;

	assert_int_equal(tu_tmpdir(dir, sizeof dir, "mountinfo"), 0);
	snprintf(path, sizeof path, "%s/mi", dir);
	assert_int_equal(mountinfo_init_file(&mi, path), -1);
	assert_int_equal(errno, ENOENT);
	mountinfo_done(&mi);

	assert_non_null(f = fopen(path, "w"));
	fclose(f);
	assert_int_equal(mountinfo_init_file(&mi, path), 0);
	assert_int_equal(mountinfo_next(&mi, &e), 0);
	mountinfo_done(&mi);

	assert_non_null(f = fopen(path, "w"));
	fputs("36 35 98:0 /mnt1 /mnt\\040x rw - ext3 /dev/root rw", f); /* no newline */
	fclose(f);
	assert_int_equal(mountinfo_init_file(&mi, path), 0);
	assert_int_equal(mountinfo_next(&mi, &e), 1);
	assert_string_equal(e.mountpoint, "/mnt x");
	assert_int_equal(mountinfo_next(&mi, &e), 0);
	mountinfo_done(&mi);
	assert_int_equal(tu_rmtree(dir), 0);
}

/* ---- the running system ------------------------------------------------- */

/* A whole /proc file as a heap string. */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t cap = 0;

	assert_non_null(f);
	assert_true(getdelim(&buf, &cap, '\0', f) > 0);
	fclose(f);
	return buf;
}

/* Every line of /proc/self/mountinfo parses, and says what /proc/self/mounts
 * says of the same mount (the kernel walks the same list for both): its
 * mount point, type and source.  Mounts come and go beside us (other
 * tests), so the comparison is made again until mountinfo read before and
 * after /proc/self/mounts is the same text. */
static void test_self_mountinfo(void **state)
{
	(void)state;
	for (int attempt = 0; attempt < 50; attempt++) {
		char *before = read_all("/proc/self/mountinfo");
		FILE *m = setmntent("/proc/self/mounts", "re");
		struct mountinfo mi;
		struct mountinfo_entry e;
		struct mntent *me;
		unsigned lines = 0, n = 0;
		int differ = 0;

		assert_non_null(m);
		for (const char *p = before; *p; p++)
			lines += *p == '\n';
		mountinfo_init_text(&mi, before);
		while (mountinfo_next(&mi, &e)) {
			n++;
			me = getmntent(m);
			if (!me || strcmp(me->mnt_dir, e.mountpoint) ||
			    strcmp(me->mnt_type, e.fstype) || strcmp(me->mnt_fsname, e.source))
				differ = 1;
		}
		if (getmntent(m))
			differ = 1;
		endmntent(m);
		mountinfo_done(&mi);
		char *after = read_all("/proc/self/mountinfo");
		int stable = strcmp(before, after) == 0;
		free(before);
		free(after);
		if (!stable)
			continue;
		assert_true(lines > 0);
		assert_int_equal(n, lines); /* every line parses */
		assert_false(differ);
		return;
	}
	fail_msg("/proc/self/mountinfo changed on every one of 50 reads");
}

/* The mount that holds "/" is there, and the one mounted last at "/" has
 * the device stat says (btrfs gives a subvolume a device of its own). */
static void test_self_root_device(void **state)
{
	(void)state;
	struct mountinfo mi;
	struct mountinfo_entry e;
	unsigned maj = 0, min = 0, found = 0, btrfs = 0;
	struct stat st;

	assert_int_equal(mountinfo_init_file(&mi, "/proc/self/mountinfo"), 0);
	while (mountinfo_next(&mi, &e))
		if (strcmp(e.mountpoint, "/") == 0) {
			maj = e.major;
			min = e.minor;
			btrfs = strcmp(e.fstype, "btrfs") == 0;
			found = 1;
		}
	mountinfo_done(&mi);
	assert_true(found);
	assert_int_equal(stat("/", &st), 0);
	if (btrfs)
		skip();
	assert_int_equal(maj, major(st.st_dev));
	assert_int_equal(min, minor(st.st_dev));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_documented_line),
	    cmocka_unit_test(test_optional_fields),
	    cmocka_unit_test(test_escapes),
	    cmocka_unit_test(test_escape_round_trip),
	    cmocka_unit_test(test_no_super_options_and_empty_source),
	    cmocka_unit_test(test_bad_lines),
	    cmocka_unit_test(test_covers_and_option),
	    cmocka_unit_test(test_iterator_text),
	    cmocka_unit_test(test_iterator_file),
	    cmocka_unit_test(test_self_mountinfo),
	    cmocka_unit_test(test_self_root_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
