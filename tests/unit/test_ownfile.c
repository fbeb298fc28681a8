/*
 * Tests for ownfile: "is PATH still the file I made?" on real files of a
 * real filesystem (the suite's /var/tmp directory, ext4 here, which hands
 * a freed inode number to the next file made beside it).
 *
 *  - a file made stays ours through its own writes, a chmod, a second
 *    name and a rename of ours;
 *  - issue 26's --metrics-file: PATH removed and made again by someone
 *    else, the new file searched for until it has the number of the one
 *    lrutop made (as "rm PATH; echo DATA > PATH" got it) and renamed onto
 *    PATH: not ours, and ownfile_remove leaves it with its data; the same
 *    for another file renamed onto PATH and for a symlink put there;
 *  - without a descriptor (struct ownfile_id) the same search does give
 *    the new file the old number: the birth time still tells them apart
 *    (skipped where the filesystem keeps none, or never reuses numbers);
 *  - ownfile_replace (the metrics file's temp+rename): the new file takes
 *    the path and is owned from then on, the old one and the temporary
 *    name are gone; a PATH replaced or removed meanwhile is left as the
 *    stranger left it, the temporary file kept for the caller to remove;
 *  - ownfile_link never replaces; ownfile_create refuses an existing name
 *    and a dangling symlink.
 *
 * Expected values come from the contracts in ownfile.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/ownfile.h"
#include "stranger.h"
#include "testutil.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

TU_TMPDIR_SUITE("own")

#define SEARCH_MAX 4000

static void test_own_writes(void **state)
{
	(void)state;
	struct ownfile of = {0};
	char path[4200], second[4200], moved[4200], buf[64];
	snprintf(path, sizeof path, "%s/out.csv", dir);
	snprintf(second, sizeof second, "%s/second", dir);
	snprintf(moved, sizeof moved, "%s/moved", dir);
	assert_int_equal(ownfile_is_ours(&of), 0); /* a zeroed one owns nothing */
	int fd = ownfile_create(&of, path, O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_true(of.fd != fd);
	assert_int_equal(ownfile_is_ours(&of), 1);
	assert_int_equal(write(fd, "a,b\n", 4), 4);
	assert_int_equal(fchmod(fd, 0600), 0);
	assert_int_equal(close(fd), 0); /* the caller's: ours all the same */
	assert_int_equal(ownfile_is_ours(&of), 1);
	assert_int_equal(link(path, second), 0);
	assert_int_equal(ownfile_is_ours(&of), 1);
	assert_int_equal(ownfile_rename(&of, moved), 0);
	assert_string_equal(of.path, moved);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(ownfile_is_ours(&of), 1);
	assert_int_equal(ownfile_remove(&of), 1);
	assert_int_equal(access(moved, F_OK), -1);
	assert_int_equal(of.made, 0);
	assert_string_equal(st_get(second, buf, sizeof buf), "a,b\n"); /* the other name stays */
	assert_int_equal(ownfile_remove(&of), 0);		    /* idempotent */

	/* an existing name, a dangling symlink: never made over */
	assert_int_equal(ownfile_create(&of, second, O_WRONLY, 0644), -1);
	assert_int_equal(errno, EEXIST);
	char link_path[4200];
	snprintf(link_path, sizeof link_path, "%s/dangling", dir);
	assert_int_equal(symlink("/nonexistent/lrutop-own", link_path), 0);
	assert_int_equal(ownfile_create(&of, link_path, O_WRONLY, 0644), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(access("/nonexistent/lrutop-own", F_OK), -1);
	assert_int_equal(of.made, 0);
}

/* The reproducer, in one process: lrutop's file removed and a
 * stranger's put at PATH, with the freed number if the filesystem gives
 * it (it cannot: our descriptor keeps the inode). */
static void test_same_number(void **state)
{
	(void)state;
	struct ownfile of = {0};
	char path[4200], buf[64];
	snprintf(path, sizeof path, "%s/e.prom", dir);
	int fd = ownfile_create(&of, path, O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "# lrutop\n", 9), 9);
	close(fd);
	ino_t was = st_ino(path);
	assert_int_equal(unlink(path), 0);
	int reused = st_stranger_at(path, was, SEARCH_MAX);
	printf("# the stranger's file %s\n", reused ? "got the inode number of lrutop's"
						    : "did not get the inode number of lrutop's "
						      "(held open)");
	assert_int_equal(ownfile_is_ours(&of), 0);
	assert_int_equal(ownfile_remove(&of), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);

	/* another file renamed onto the path */
	fd = ownfile_create(&of, path, O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	char other[4200];
	snprintf(other, sizeof other, "%s/other", dir);
	st_put(other, "USER DATA\n");
	assert_int_equal(rename(other, path), 0);
	assert_int_equal(ownfile_is_ours(&of), 0);
	assert_int_equal(ownfile_rename(&of, other), OWNFILE_NOT_OURS);
	assert_int_equal(access(other, F_OK), -1);
	assert_int_equal(ownfile_remove(&of), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);

	/* a symlink to our own file put at the path: not the file we made
	 * there (the last component is never followed) */
	char real[4200];
	snprintf(real, sizeof real, "%s/real", dir);
	fd = ownfile_create(&of, real, O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(symlink(real, path), 0);
	assert_int_equal(ownfile_fd_is_at(of.fd, AT_FDCWD, path), 0);
	assert_int_equal(ownfile_fd_is_at(of.fd, AT_FDCWD, real), 1);
	assert_int_equal(ownfile_remove(&of), 1);
	assert_int_equal(unlink(path), 0);
}

/* No descriptor: the old number does come back, and the birth time is
 * what tells the stranger's file from lrutop's. */
static void test_id_reused(void **state)
{
	(void)state;
	char path[4200];
	struct ownfile_id mine, now;
	snprintf(path, sizeof path, "%s/dst", dir);
	st_put(path, "copy\n");
	assert_int_equal(ownfile_id_at(AT_FDCWD, path, &mine), 0);
	assert_int_equal(ownfile_id_at(AT_FDCWD, path, &now), 0);
	assert_int_equal(ownfile_id_same(&mine, &now), 1);
	if (!mine.have_btime) {
		unlink(path);
		skip(); /* no birth time on this filesystem: dev and ino are all there is */
	}
	assert_int_equal(unlink(path), 0);
	if (!st_stranger_at(path, (ino_t)mine.ino, SEARCH_MAX)) {
		unlink(path);
		skip(); /* this filesystem never gave the number out again */
	}
	assert_int_equal(ownfile_id_at(AT_FDCWD, path, &now), 0);
	assert_true(now.dev == mine.dev && now.ino == mine.ino); /* what dev/ino alone saw */
	assert_int_equal(ownfile_id_same(&mine, &now), 0);
	assert_int_equal(unlink(path), 0);
}

static int make_temp(struct ownfile *of, const char *text)
{
	char tmpl[4200];
	snprintf(tmpl, sizeof tmpl, "%s/.e.prom.XXXXXX", dir);
	int fd = ownfile_create_temp(of, tmpl);
	assert_true(fd >= 0);
	assert_string_equal(of->path, tmpl);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return 0;
}

/* The metrics file: a whole new file each time in place of ours. */
static void test_replace(void **state)
{
	(void)state;
	struct ownfile cur = {0}, next = {0};
	char path[4200], buf[64], tmp[4200];
	snprintf(path, sizeof path, "%s/e.prom", dir);

	make_temp(&next, "one\n");
	assert_int_equal(ownfile_link(&next, path), 0); /* the first: linked */
	assert_int_equal(access(path, F_OK), 0);
	cur = next;
	memset(&next, 0, sizeof next);
	assert_int_equal(ownfile_is_ours(&cur), 1);
	ino_t first = st_ino(path);
	for (int i = 0; i < 3; i++) {
		make_temp(&next, i == 2 ? "four\n" : "more\n");
		strlcpy_(tmp, next.path, sizeof tmp);
		assert_int_equal(ownfile_replace(&cur, &next), 0);
		assert_int_equal(next.made, 0);
		assert_int_equal(access(tmp, F_OK), -1);
		assert_int_equal(ownfile_is_ours(&cur), 1);
		assert_string_equal(cur.path, path);
	}
	assert_true(st_ino(path) != first);
	assert_string_equal(st_get(path, buf, sizeof buf), "four\n");

	/* never over an existing name */
	make_temp(&next, "x\n");
	assert_int_equal(ownfile_link(&next, path), -1);
	assert_int_equal(errno, EEXIST);
	assert_int_equal(ownfile_is_ours(&next), 1);

	/* replaced by a stranger (with the old number where it can be had) */
	ino_t was = st_ino(path);
	assert_int_equal(unlink(path), 0);
	st_stranger_at(path, was, SEARCH_MAX);
	assert_int_equal(ownfile_replace(&cur, &next), OWNFILE_NOT_OURS);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(ownfile_is_ours(&next), 1); /* still the caller's to remove */
	assert_int_equal(ownfile_remove(&next), 1);
	assert_int_equal(ownfile_remove(&cur), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);

	/* removed by someone: nothing is put back */
	make_temp(&next, "one\n");
	assert_int_equal(ownfile_link(&next, path), 0);
	cur = next;
	memset(&next, 0, sizeof next);
	assert_int_equal(unlink(path), 0);
	make_temp(&next, "two\n");
	assert_int_equal(ownfile_replace(&cur, &next), OWNFILE_NOT_OURS);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(ownfile_remove(&next), 1);
	ownfile_forget(&cur);
	ownfile_forget(&cur);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_own_writes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_same_number, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_id_reused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
