/*
 * Tests for outfile: the files lrutop writes, on real files of a real
 * filesystem (the suite's /var/tmp directory, which hands a freed inode
 * number to the next file made beside it).
 *
 *  - OUTFILE_NEW refuses an existing file, a symlink to one and a dangling
 *    symlink, and leaves each as it was; a missing directory is said with
 *    the option and the path;
 *  - OUTFILE_WHOLE: while it is written only ".NAME.XXXXXX" is there;
 *    closed, PATH is whole and no temporary file is left; a write that
 *    fails (RLIMIT_FSIZE: EFBIG from the kernel), a discard, a file made
 *    at PATH meanwhile and a temporary file someone replaced each leave no
 *    PATH and no temporary file of ours (the stranger's stays);
 *  - the descriptor flavour (the recorder's): every byte written, a
 *    failed write said once;
 *  - a path someone replaced (rm + a new file, searched for until it has
 *    the number of lrutop's where the filesystem would give it) is never
 *    removed, renamed or written over: a NEW file kept past its close
 *    (outfile_pass), one still open, OUTFILE_REPLACE's file before the
 *    next open and between an open and its close;
 *  - outfile_put_at (the /run/lrutop markers): renamed over what is there
 *    or linked never over it, mode exact whatever the umask, no temporary
 *    file left after a success or a failure.
 *
 * Expected values come from the contracts in outfile.h.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/outfile.h"
#include "stranger.h"
#include "testutil.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

TU_TMPDIR_SUITE("outfile")

#define SEARCH_MAX 2000

/* How many entries of dir begin with prefix (".NAME." for NAME's
 * temporary files); the last one's name into last. */
static int entries(const char *prefix, char *last, size_t len)
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (!strncmp(e->d_name, prefix, strlen(prefix))) {
			n++;
			if (last)
				snprintf(last, len, "%s/%s", dir, e->d_name);
		}
	closedir(d);
	return n;
}

static int exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* ---- OUTFILE_NEW --------------------------------------------------------- */

static void test_new(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], err[512] = "", buf[64];
	snprintf(path, sizeof path, "%s/new.csv", dir);
	assert_int_equal(outfile_open(&of, path, "--csv", OUTFILE_NEW, err, sizeof err), 0);
	assert_non_null(of.f);
	assert_int_equal(outfile_write(&of, "t_s,read_mbs\n", 13, err, sizeof err), 0);
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "t_s,read_mbs\n");
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 0022, 0);			  /* not group/world writable */
	assert_int_equal(outfile_close(&of, err, sizeof err), 0); /* idempotent */
	outfile_discard(&of); /* closed: the user's, not removed */
	assert_true(exists(path));

	/* the descriptor flavour, the recorder's */
	snprintf(path, sizeof path, "%s/rec.jsonl", dir);
	assert_int_equal(outfile_open_fd(&of, path, "--record", OUTFILE_NEW, err, sizeof err), 0);
	assert_null(of.f);
	assert_int_equal(outfile_write(&of, "{\"k\":1}\n", 8, err, sizeof err), 0);
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "{\"k\":1}\n");
}

static void test_new_refuses(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], target[4200], link[4200], nowhere[4200], err[512] = "", buf[64];

	/* an existing file, in both ways that make PATH new */
	snprintf(path, sizeof path, "%s/old.csv", dir);
	st_put(path, "precious data\n");
	assert_int_equal(outfile_open(&of, path, "--csv", OUTFILE_NEW, err, sizeof err), -1);
	char want[4400];
	snprintf(want, sizeof want, "--csv %s: already exists (use a new path)", path);
	assert_string_equal(err, want);
	err[0] = '\0';
	assert_int_equal(outfile_open(&of, path, "--export-svg", OUTFILE_WHOLE, err, sizeof err),
			 -1);
	assert_non_null(strstr(err, "already exists (use a new path)"));
	assert_string_equal(st_get(path, buf, sizeof buf), "precious data\n");
	assert_int_equal(entries(".old.csv.", NULL, 0), 0);

	/* a symlink to a file: refused, the target untouched */
	snprintf(target, sizeof target, "%s/target.csv", dir);
	snprintf(link, sizeof link, "%s/link.csv", dir);
	st_put(target, "do not follow\n");
	assert_int_equal(symlink(target, link), 0);
	err[0] = '\0';
	assert_int_equal(outfile_open(&of, link, "--csv", OUTFILE_NEW, err, sizeof err), -1);
	assert_non_null(strstr(err, "already exists"));
	assert_int_equal(outfile_open(&of, link, "--export-csv", OUTFILE_WHOLE, err, sizeof err),
			 -1);
	assert_string_equal(st_get(target, buf, sizeof buf), "do not follow\n");
	assert_int_equal(outfile_open_fd(&of, link, "--record", OUTFILE_NEW, err, sizeof err), -1);
	assert_string_equal(st_get(target, buf, sizeof buf), "do not follow\n");

	/* a dangling symlink: refused, and nothing made where it points */
	snprintf(link, sizeof link, "%s/dangling.csv", dir);
	snprintf(nowhere, sizeof nowhere, "%s/nowhere.csv", dir);
	assert_int_equal(symlink(nowhere, link), 0);
	assert_int_equal(outfile_open(&of, link, "--csv", OUTFILE_NEW, err, sizeof err), -1);
	assert_int_equal(outfile_open(&of, link, "--csv", OUTFILE_WHOLE, err, sizeof err), -1);
	assert_false(exists(nowhere));

	/* a directory that is not there: the option and the path said */
	snprintf(path, sizeof path, "%s/no-such-dir/x.csv", dir);
	err[0] = '\0';
	assert_int_equal(outfile_open(&of, path, "--results", OUTFILE_NEW, err, sizeof err), -1);
	snprintf(want, sizeof want, "--results %s: No such file or directory", path);
	assert_string_equal(err, want);
	assert_int_equal(outfile_open(&of, path, "--results", OUTFILE_WHOLE, err, sizeof err), -1);
	assert_string_equal(err, want);
}

/* ---- OUTFILE_WHOLE ------------------------------------------------------- */

static void test_whole(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], tmp[4200], err[512] = "", buf[8192];
	snprintf(path, sizeof path, "%s/out.svg", dir);
	assert_int_equal(outfile_open(&of, path, "--export-svg", OUTFILE_WHOLE, err, sizeof err),
			 0);
	/* while it is written: only the temporary file beside PATH */
	assert_int_equal(entries(".out.svg.", tmp, sizeof tmp), 1);
	assert_int_equal(strlen(tmp), strlen(dir) + strlen("/.out.svg.XXXXXX"));
	assert_false(exists(path));
	char text[6000];
	for (size_t i = 0; i < sizeof text - 1; i++)
		text[i] = (char)('a' + i % 26);
	text[sizeof text - 1] = '\0';
	assert_int_equal(outfile_write(&of, text, 3000, err, sizeof err), 0);
	assert_int_equal(outfile_write(&of, text + 3000, strlen(text) - 3000, err, sizeof err), 0);
	assert_false(exists(path)); /* nothing at PATH until the close */
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), text);
	assert_int_equal(entries(".out.svg.", NULL, 0), 0);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_nlink, 1);
	assert_int_equal(st.st_mode & 07777, 0644);
}

/* A write the kernel refuses (EFBIG past RLIMIT_FSIZE, SIGXFSZ ignored):
 * said once, and the close leaves no PATH and no temporary file. */
static void test_whole_write_fails(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], err[512] = "", again[512] = "";
	char big[16384];
	memset(big, 'x', sizeof big);
	struct rlimit was, small = {8192, 0};
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &was), 0);
	small.rlim_max = was.rlim_max;
	void (*old)(int) = signal(SIGXFSZ, SIG_IGN);

	for (int fd_way = 0; fd_way < 2; fd_way++) {
		snprintf(path, sizeof path, "%s/big.csv", dir);
		int rc =
		    fd_way
			? outfile_open_fd(&of, path, "--export-csv", OUTFILE_WHOLE, err, sizeof err)
			: outfile_open(&of, path, "--export-csv", OUTFILE_WHOLE, err, sizeof err);
		assert_int_equal(rc, 0);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
		rc = outfile_write(&of, big, sizeof big, err, sizeof err);
		if (rc == 0)
			rc = outfile_flush(&of, err, sizeof err);
		assert_int_equal(setrlimit(RLIMIT_FSIZE, &was), 0);
		assert_int_equal(rc, -1);
		char want[4400];
		snprintf(want, sizeof want, "--export-csv %s: write error: File too large", path);
		assert_string_equal(err, want);
		assert_int_equal(of.failed, 1);
		/* said once: later calls are quiet */
		assert_int_equal(outfile_write(&of, "x", 1, again, sizeof again), -1);
		assert_int_equal(outfile_flush(&of, again, sizeof again), fd_way ? 0 : -1);
		assert_int_equal(outfile_close(&of, again, sizeof again), -1);
		assert_string_equal(again, "");
		assert_false(exists(path));
		assert_int_equal(entries(".big.csv.", NULL, 0), 0);
	}
	signal(SIGXFSZ, old);
}

static void test_whole_discard(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], err[512] = "";
	snprintf(path, sizeof path, "%s/cut.csv", dir);
	assert_int_equal(outfile_open(&of, path, "--export-csv", OUTFILE_WHOLE, err, sizeof err),
			 0);
	assert_int_equal(outfile_write(&of, "a,b\n", 4, err, sizeof err), 0);
	assert_int_equal(outfile_flush(&of, err, sizeof err), 0);
	outfile_discard(&of);
	assert_false(exists(path));
	assert_int_equal(entries(".cut.csv.", NULL, 0), 0);
	outfile_discard(&of); /* idempotent */
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_false(exists(path));
}

/* Someone makes PATH while the temporary file is written, or puts a file
 * of theirs under the temporary name: theirs stays, nothing is linked. */
static void test_whole_raced(void **state)
{
	(void)state;
	struct outfile of;
	char path[4200], tmp[4200], err[512] = "", buf[64], want[8600];
	snprintf(path, sizeof path, "%s/race.md", dir);
	assert_int_equal(
	    outfile_open(&of, path, "--export-markdown", OUTFILE_WHOLE, err, sizeof err), 0);
	assert_int_equal(outfile_write(&of, "| a |\n", 6, err, sizeof err), 0);
	st_put(path, "USER DATA\n");
	assert_int_equal(outfile_close(&of, err, sizeof err), -1);
	snprintf(want, sizeof want, "--export-markdown %s: already exists (use a new path)", path);
	assert_string_equal(err, want);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(entries(".race.md.", NULL, 0), 0);
	assert_int_equal(unlink(path), 0);

	assert_int_equal(
	    outfile_open(&of, path, "--export-markdown", OUTFILE_WHOLE, err, sizeof err), 0);
	assert_int_equal(outfile_write(&of, "| a |\n", 6, err, sizeof err), 0);
	assert_int_equal(entries(".race.md.", tmp, sizeof tmp), 1);
	ino_t was = st_ino(tmp);
	assert_int_equal(unlink(tmp), 0);
	st_stranger_at(tmp, was, SEARCH_MAX);
	assert_int_equal(outfile_close(&of, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "--export-markdown %s: its temporary file %s was replaced or removed by "
		 "someone else",
		 path, tmp);
	assert_string_equal(err, want);
	assert_false(exists(path));
	assert_string_equal(st_get(tmp, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(tmp), 0);
}

/* ---- a path someone replaced --------------------------------------------- */

/* rm PATH, then a stranger's file there, with the old inode number where
 * the filesystem would give it (it cannot while the proof's descriptor
 * holds the inode). */
static void replace_by_stranger(const char *path)
{
	ino_t was = st_ino(path);
	assert_int_equal(unlink(path), 0);
	int reused = st_stranger_at(path, was, SEARCH_MAX);
	printf("# the stranger's file %s\n", reused ? "got the inode number of lrutop's"
						    : "did not get the inode number of lrutop's "
						      "(held open)");
}

static void test_new_replaced(void **state)
{
	(void)state;
	struct outfile of, keep = {0};
	char path[4200], moved[4200], err[512] = "", buf[64];
	snprintf(path, sizeof path, "%s/rec.jsonl", dir);
	snprintf(moved, sizeof moved, "%s/fallback.jsonl", dir);

	/* kept past its close (a recording stopped): removed while ours */
	assert_int_equal(outfile_open_fd(&of, path, "--record", OUTFILE_NEW, err, sizeof err), 0);
	assert_int_equal(outfile_write(&of, "{}\n", 3, err, sizeof err), 0);
	outfile_pass(&of, &keep);
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_string_equal(keep.path, path);
	outfile_discard(&keep);
	assert_false(exists(path));

	/* ... and renamed while ours */
	assert_int_equal(outfile_open_fd(&of, path, "--record", OUTFILE_NEW, err, sizeof err), 0);
	outfile_pass(&of, &keep);
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	assert_int_equal(outfile_rename(&keep, moved), 0);
	assert_false(exists(path));
	assert_string_equal(keep.path, moved);
	outfile_forget(&keep);
	assert_true(exists(moved));
	assert_int_equal(unlink(moved), 0);

	/* replaced after the close: neither removed nor renamed */
	assert_int_equal(outfile_open_fd(&of, path, "--record", OUTFILE_NEW, err, sizeof err), 0);
	outfile_pass(&of, &keep);
	assert_int_equal(outfile_close(&of, err, sizeof err), 0);
	replace_by_stranger(path);
	assert_int_equal(outfile_rename(&keep, moved), OWNFILE_NOT_OURS);
	assert_false(exists(moved));
	outfile_discard(&keep);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);

	/* replaced while open (--csv, then a usage error): not removed */
	assert_int_equal(outfile_open(&of, path, "--csv", OUTFILE_NEW, err, sizeof err), 0);
	assert_int_equal(outfile_flush(&of, err, sizeof err), 0);
	replace_by_stranger(path);
	outfile_discard(&of);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);
}

/* ---- OUTFILE_REPLACE ------------------------------------------------------ */

static void replace_write(struct outfile *of, const char *path, const char *text, int want)
{
	char err[512] = "";
	int rc = outfile_open(of, path, "--metrics-file", OUTFILE_REPLACE, err, sizeof err);
	if (rc == 0) {
		assert_int_equal(outfile_write(of, text, strlen(text), err, sizeof err), 0);
		rc = outfile_close(of, err, sizeof err);
	}
	if (rc != want)
		fail_msg("REPLACE write: %d, want %d (%s)", rc, want, err);
	if (want == OWNFILE_NOT_OURS) {
		char sentence[4400];
		snprintf(sentence, sizeof sentence,
			 "--metrics-file %s: replaced or removed by someone else", path);
		assert_string_equal(err, sentence);
	}
}

/* The stranger's file at path is as they left it, no temporary file of
 * ours is beside it, and of's discard does not touch it either. */
static void stranger_left(struct outfile *of, const char *path)
{
	char buf[64];
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(entries(".e.prom.", NULL, 0), 0);
	outfile_discard(of);
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
}

static void test_replace(void **state)
{
	(void)state;
	struct outfile of = {0};
	char path[4200], err[512] = "", buf[64];
	snprintf(path, sizeof path, "%s/e.prom", dir);

	replace_write(&of, path, "one\n", 0);
	ino_t first = st_ino(path);
	replace_write(&of, path, "two\n", 0);
	assert_true(st_ino(path) != first); /* a whole new file each time */
	replace_write(&of, path, "three\n", 0);
	assert_string_equal(st_get(path, buf, sizeof buf), "three\n");
	assert_int_equal(entries(".e.prom.", NULL, 0), 0);
	outfile_discard(&of); /* ours: removed (it would go stale) */
	assert_false(exists(path));

	/* an existing PATH is refused the first time */
	memset(&of, 0, sizeof of);
	st_put(path, "USER DATA\n");
	assert_int_equal(
	    outfile_open(&of, path, "--metrics-file", OUTFILE_REPLACE, err, sizeof err), -1);
	assert_non_null(strstr(err, "already exists (use a new path)"));
	assert_string_equal(st_get(path, buf, sizeof buf), "USER DATA\n");
	assert_int_equal(unlink(path), 0);

	/* replaced between two writes (issue 26's "rm PATH; echo DATA >
	 * PATH"): the next open says so and touches nothing */
	memset(&of, 0, sizeof of);
	replace_write(&of, path, "one\n", 0);
	replace_by_stranger(path);
	replace_write(&of, path, "two\n", OWNFILE_NOT_OURS);
	stranger_left(&of, path);
	assert_int_equal(unlink(path), 0);

	/* replaced while the next file is written: the close says so, the
	 * temporary file goes, the stranger's stays */
	memset(&of, 0, sizeof of);
	replace_write(&of, path, "one\n", 0);
	assert_int_equal(
	    outfile_open(&of, path, "--metrics-file", OUTFILE_REPLACE, err, sizeof err), 0);
	assert_int_equal(outfile_write(&of, "two\n", 4, err, sizeof err), 0);
	replace_by_stranger(path);
	assert_int_equal(outfile_close(&of, err, sizeof err), OWNFILE_NOT_OURS);
	stranger_left(&of, path);

	/* removed by someone: nothing is put back */
	assert_int_equal(unlink(path), 0);
	memset(&of, 0, sizeof of);
	replace_write(&of, path, "one\n", 0);
	assert_int_equal(unlink(path), 0);
	replace_write(&of, path, "two\n", OWNFILE_NOT_OURS);
	assert_false(exists(path));
	outfile_discard(&of);
}

/* ---- outfile_put_at ------------------------------------------------------- */

static void test_put_at(void **state)
{
	(void)state;
	char path[4200], buf[128];
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(d >= 0);
	snprintf(path, sizeof path, "%s/subtree-42", dir);
	mode_t um = umask(0077);

	/* new, then renamed over by the next: mode exact, no .new file left */
	const char *one = "lrutop-subtree 1\npid 42\n",
		   *two = "lrutop-subtree 1\npid 42\nuses io\n";
	assert_int_equal(outfile_put_at(d, "subtree-42", 0600, one, strlen(one), 1), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), one);
	assert_int_equal(outfile_put_at(d, "subtree-42", 0600, two, strlen(two), 1), 0);
	assert_string_equal(st_get(path, buf, sizeof buf), two);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(entries(".subtree-42.", NULL, 0), 0);

	/* linked: never over a file there */
	umask(0);
	assert_int_equal(outfile_put_at(d, "subtree-42", 0644, one, strlen(one), 0), -1);
	assert_int_equal(errno, EEXIST);
	assert_string_equal(st_get(path, buf, sizeof buf), two);
	assert_int_equal(entries(".subtree-42.", NULL, 0), 0);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(outfile_put_at(d, "subtree-42", 0600, one, strlen(one), 0), 0);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(st.st_nlink, 1);
	assert_string_equal(st_get(path, buf, sizeof buf), one);
	assert_int_equal(entries(".subtree-42.", NULL, 0), 0);
	umask(um);

	/* a rename that fails (a directory at the name): the temporary file
	 * goes, the directory stays */
	char sub[4200];
	snprintf(sub, sizeof sub, "%s/mount-7", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	assert_int_equal(outfile_put_at(d, "mount-7", 0600, one, strlen(one), 1), -1);
	assert_int_equal(errno, EISDIR);
	assert_int_equal(entries(".mount-7.", NULL, 0), 0);
	assert_int_equal(rmdir(sub), 0);
	close(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_new, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_new_refuses, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_whole, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_whole_write_fails, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_whole_discard, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_whole_raced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_new_replaced, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_put_at, setup, teardown),
	};
	return cmocka_run_group_tests_name("outfile", tests, NULL, NULL);
}
