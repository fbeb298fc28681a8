/*
 * Tests for sampler against this machine's real /proc, /sys and cgroup fs
 * (no mocks).  Every value is checked against a second reading taken here
 * with plain stdio, not libproc2:
 *
 *  - event counters (vmstat, diskstats sectors, PSI totals) only grow, so the
 *    sampler's value must lie between our reading just before and our
 *    reading just after sampler_read(): an exact bracket, no tolerance;
 *  - gauges (Active(file) ...) may move either way between two reads, so
 *    they get a 2 % band around the bracket; other processes build and run
 *    tests on this machine at the same time, so a gauge is given a few
 *    attempts and must fall in its band in one of them (a wrong or swapped
 *    field fails all of them).
 *
 * A source the kernel lacks makes its test print "SKIP name: reason" and
 * call skip(), so a missing file is reported, not passed silently.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "sampling/kvfile.h"
#include "model/rates.h"
#include "sampling/sample.h"
#include "sampling/sampler.h"
#include "base/util.h"
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PATH_MAX_LEN 1024

#define SKIP_TEST(name, ...)                                                                       \
	do {                                                                                       \
		printf("SKIP %s: ", name);                                                         \
		printf(__VA_ARGS__);                                                               \
		printf("\n");                                                                      \
		fflush(stdout);                                                                    \
		skip();                                                                            \
	} while (0)

/* snprintf that fails the test instead of truncating a path or message. */
static void fmt(char *out, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *out, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(out, len, f, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		fail_msg("path or message too long: %s...", out);
}

/* ---- independent readers ---------------------------------------------- */

/* "Key:   123 kB" from /proc/meminfo, in kB (as printed). */
static int meminfo_kb(const char *key, unsigned long long *out)
{
	FILE *f = fopen("/proc/meminfo", "re");
	if (!f)
		return -1;
	char line[256], name[64];
	unsigned long long v;
	int rc = -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63[^:]: %llu", name, &v) == 2 && strcmp(name, key) == 0) {
			*out = v;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}


static unsigned long long vmstat(const char *key)
{
	unsigned long long v = 0;
	if (tu_key_value("/proc/vmstat", key, &v) < 0)
		fail_msg("/proc/vmstat: no %s", key);
	return v;
}

/* Field `field` (1-based, as in the kernel's iostats.rst: 3 is the name,
 * 6 sectors read, 10 sectors written) of name's line in /proc/diskstats. */
static unsigned long long diskstats_field(const char *name, int field)
{
	FILE *f = fopen("/proc/diskstats", "re");
	assert_non_null(f);
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok[32];
		int n = 0;
		for (char *t = strtok_r(line, " \t\n", &save); t && n < 32;
		     t = strtok_r(NULL, " \t\n", &save))
			tok[n++] = t;
		if (n >= field && n >= 3 && strcmp(tok[2], name) == 0) {
			unsigned long long v = strtoull(tok[field - 1], NULL, 10);
			fclose(f);
			return v;
		}
	}
	fclose(f);
	fail_msg("/proc/diskstats: no line for %s", name);
	return 0;
}

static int read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	size_t n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	int e = errno;
	close(fd);
	errno = e;
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* total=N of the "some" line of a PSI file. */
static int psi_some_total(const char *path, unsigned long long *out)
{
	char buf[512];
	if (read_text(path, buf, sizeof(buf)) < 0)
		return -1;
	const char *p = strstr(buf, "some ");
	if (!p || !(p = strstr(p, "total=")))
		return -1;
	*out = strtoull(p + 6, NULL, 10);
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The first whole disk in /sys/block (by name) with a nonzero size. */
static int first_disk(char *name, size_t len)
{
	struct dirent **ents;
	int n = scandir("/sys/block", &ents, NULL, alphasort);
	if (n < 0)
		return -1;
	int found = -1;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX_LEN], buf[64];
		if (found < 0 && ents[i]->d_name[0] != '.') {
			fmt(path, sizeof(path), "/sys/block/%s/size", ents[i]->d_name);
			if (read_text(path, buf, sizeof(buf)) == 0 && strtoull(buf, NULL, 10) > 0) {
				fmt(name, len, "%s", ents[i]->d_name);
				found = 0;
			}
		}
		free(ents[i]);
	}
	free(ents);
	return found;
}

#define MEMINFO_ATTEMPTS 5

static int in_band(unsigned long long got, unsigned long long a, unsigned long long b, double rel)
{
	double lo = (double)(a < b ? a : b) * (1 - rel), hi = (double)(a > b ? a : b) * (1 + rel);
	return (double)got >= lo && (double)got <= hi;
}

/* ---- tests ------------------------------------------------------------ */

static void test_sampler_basic(void **state)
{
	(void)state;
	char err[256] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(sampler_disk(s), "");
	assert_non_null(sampler_missing(s));

	struct sample a, b;
	uint64_t t0 = now_ns();
	assert_int_equal(sampler_read(s, &a), 0);
	uint64_t t1 = now_ns();
	assert_int_equal(sampler_read(s, &b), 0);
	uint64_t t2 = now_ns();
	/* CLOCK_MONOTONIC, taken during the read */
	assert_true(t0 <= a.t_ns && a.t_ns <= t1);
	assert_true(t1 <= b.t_ns && b.t_ns <= t2);
	assert_true(b.t_ns > a.t_ns);

	uint32_t need = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_CPU;
	assert_int_equal(a.have & need, need);
	assert_int_equal(b.have & need, need);
	assert_int_equal(a.have & SAMPLE_HAVE_DISK, 0); /* no disk asked for */
	assert_int_equal(a.have & SAMPLE_HAVE_CG, 0);
	assert_int_equal(a.run, -1); /* idle */

	unsigned long long total = 0;
	assert_int_equal(meminfo_kb("MemTotal", &total), 0);
	assert_int_equal(a.mem_total, total);
	assert_true(a.mem_free <= a.mem_total);
	assert_true(a.active_file + a.inactive_file <= a.mem_total);

	/* CPU ticks only grow; two reads give sane percentages */
	assert_true(b.cpu_idle >= a.cpu_idle);
	assert_true(b.ctxt >= a.ctxt);
	struct rates r;
	rates_compute(&a, &b, &r);
	assert_true(r.dt > 0);
	assert_false(isnan(r.pgdeactivate_s));
	assert_true(r.pgdeactivate_s >= 0);
	sampler_free(s);
	sampler_free(NULL);
}

static void test_sampler_meminfo(void **state)
{
	(void)state;
	char err[256] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	static const char *const keys[] = {"Active(file)", "Inactive(file)", "Active", "Inactive",
					   "Active(anon)", "Inactive(anon)", "Cached"};
	enum { N = sizeof(keys) / sizeof(keys[0]) };
	int ok[N] = {0};
	unsigned long long last_got[N] = {0}, last_before[N] = {0}, last_after[N] = {0};
	for (int attempt = 0; attempt < MEMINFO_ATTEMPTS; attempt++) {
		unsigned long long before[N], after[N];
		struct sample smp;
		for (int k = 0; k < N; k++)
			assert_int_equal(meminfo_kb(keys[k], &before[k]), 0);
		sampler_read(s, &smp);
		for (int k = 0; k < N; k++)
			assert_int_equal(meminfo_kb(keys[k], &after[k]), 0);
		const uint64_t got[N] = {smp.active_file, smp.inactive_file, smp.active,
					 smp.inactive,	  smp.active_anon,   smp.inactive_anon,
					 smp.cached};
		int all = 1;
		for (int k = 0; k < N; k++) {
			last_got[k] = got[k];
			last_before[k] = before[k];
			last_after[k] = after[k];
			/* 2 % of the value, plus 16 KiB (4 pages) so a tiny
			 * list is not held to a few hundred bytes */
			double rel = 0.02 + 16.0 / (double)(before[k] + after[k] + 1);
			ok[k] = in_band(got[k], before[k], after[k], rel);
			all &= ok[k];
		}
		if (all)
			break;
		/* a list moved the other way and back within our reads (a
		 * neighbour's burst of page cache): said, and again */
		for (int k = 0; k < N && attempt + 1 < MEMINFO_ATTEMPTS; k++)
			if (!ok[k]) {
				print_message("# retry: %s: sampler %llu kB, /proc/meminfo %llu..%llu kB\n",
					      keys[k], last_got[k], last_before[k], last_after[k]);
				break;
			}
	}
	for (int k = 0; k < N; k++)
		if (!ok[k])
			fail_msg("%s: sampler %llu kB, /proc/meminfo %llu..%llu kB", keys[k],
				 last_got[k], last_before[k], last_after[k]);
	sampler_free(s);
}

static void test_sampler_vmstat(void **state)
{
	(void)state;
	unsigned long long probe;
	if (tu_key_value("/proc/vmstat", "workingset_refault_file", &probe) < 0)
		SKIP_TEST("sampler_vmstat", "/proc/vmstat has no workingset_refault_file "
					    "(kernel < 5.9)");
	char err[256] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	struct sample smp;
	unsigned long long rf0 = vmstat("workingset_refault_file");
	unsigned long long de0 = vmstat("pgdeactivate");
	unsigned long long sf0 = vmstat("pgscan_file");
	unsigned long long mj0 = vmstat("pgmajfault");
	sampler_read(s, &smp);
	unsigned long long rf1 = vmstat("workingset_refault_file");
	unsigned long long de1 = vmstat("pgdeactivate");
	unsigned long long sf1 = vmstat("pgscan_file");
	unsigned long long mj1 = vmstat("pgmajfault");

	assert_int_equal(smp.have & SAMPLE_HAVE_VMX, SAMPLE_HAVE_VMX);
	/* counters only grow: the sampler's value lies between our reads */
	if (!(rf0 <= smp.refault_file && smp.refault_file <= rf1))
		fail_msg("refault_file %llu not in [%llu, %llu]",
			 (unsigned long long)smp.refault_file, rf0, rf1);
	if (!(de0 <= smp.pgdeactivate && smp.pgdeactivate <= de1))
		fail_msg("pgdeactivate %llu not in [%llu, %llu]",
			 (unsigned long long)smp.pgdeactivate, de0, de1);
	if (!(sf0 <= smp.pgscan_file && smp.pgscan_file <= sf1))
		fail_msg("pgscan_file %llu not in [%llu, %llu]",
			 (unsigned long long)smp.pgscan_file, sf0, sf1);
	if (!(mj0 <= smp.pgmajfault && smp.pgmajfault <= mj1))
		fail_msg("pgmajfault %llu not in [%llu, %llu]", (unsigned long long)smp.pgmajfault,
			 mj0, mj1);
	/* whole-system pgscan is the by-type sum when the kernel has it */
	assert_int_equal(sample_pgscan(&smp), smp.pgscan_file + smp.pgscan_anon);
	sampler_free(s);
}

static void test_sampler_disk(void **state)
{
	(void)state;
	char disk[64];
	if (first_disk(disk, sizeof(disk)) < 0)
		SKIP_TEST("sampler_disk", "no disk with a nonzero size in /sys/block");
	char err[256] = "";
	struct sampler *s = sampler_new(disk, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(sampler_disk(s), disk);

	struct sample a, b;
	unsigned long long rs0 = diskstats_field(disk, 6), ws0 = diskstats_field(disk, 10);
	unsigned long long ri0 = diskstats_field(disk, 4);
	sampler_read(s, &a);
	unsigned long long rs1 = diskstats_field(disk, 6), ws1 = diskstats_field(disk, 10);
	unsigned long long ri1 = diskstats_field(disk, 4);
	assert_int_equal(a.have & SAMPLE_HAVE_DISK, SAMPLE_HAVE_DISK);
	/* Sector counters only grow, so the value read between our two reads
	 * must lie between them: no tolerance is needed at all. */
	if (!(rs0 <= a.rd_sectors && a.rd_sectors <= rs1))
		fail_msg("%s rd_sectors %llu not in [%llu, %llu]", disk,
			 (unsigned long long)a.rd_sectors, rs0, rs1);
	if (!(ws0 <= a.wr_sectors && a.wr_sectors <= ws1))
		fail_msg("%s wr_sectors %llu not in [%llu, %llu]", disk,
			 (unsigned long long)a.wr_sectors, ws0, ws1);
	if (!(ri0 <= a.rd_ios && a.rd_ios <= ri1))
		fail_msg("%s rd_ios %llu not in [%llu, %llu]", disk, (unsigned long long)a.rd_ios,
			 ri0, ri1);

	/* same device on the next read: a rate, not a "re-created" gap */
	sampler_read(s, &b);
	assert_int_equal(b.have & SAMPLE_HAVE_DISK, SAMPLE_HAVE_DISK);
	assert_int_equal(a.disk_id, b.disk_id);
	struct rates r;
	rates_compute(&a, &b, &r);
	assert_false(isnan(r.read_mbs));
	assert_true(r.read_mbs >= 0);
	assert_false(isnan(r.util_pct));
	sampler_free(s);
}

static void test_sampler_no_such_disk(void **state)
{
	(void)state;
	char err[256] = "";
	struct sampler *s = sampler_new("lrutop-no-such-disk0", err, sizeof(err));
	assert_non_null(s);
	struct sample smp;
	assert_int_equal(sampler_read(s, &smp), 0);
	assert_int_equal(smp.have & SAMPLE_HAVE_DISK, 0);
	/* the rest of the sample is still there */
	assert_int_equal(smp.have & SAMPLE_HAVE_MEM, SAMPLE_HAVE_MEM);
	assert_int_equal(sampler_read(s, &smp), 0);
	assert_int_equal(smp.have & SAMPLE_HAVE_DISK, 0);
	sampler_free(s);

	s = sampler_new("", err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(sampler_read(s, &smp), 0);
	assert_int_equal(smp.have & SAMPLE_HAVE_DISK, 0);
	sampler_free(s);
}

static void test_sampler_read_disks(void **state)
{
	(void)state;
	char disk[64];
	if (first_disk(disk, sizeof(disk)) < 0)
		SKIP_TEST("sampler_read_disks", "no disk with a nonzero size in /sys/block");
	char err[256] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	struct disktab *tab = xcalloc(1, sizeof(*tab));
	struct sample smp;
	/* the table is the one the last sampler_read saw */
	assert_int_equal(sampler_read(s, &smp), 0);
	assert_int_equal(sampler_read_disks(s, tab), 0);

	/* as many devices as /proc/diskstats has lines (up to the table size) */
	FILE *f = fopen("/proc/diskstats", "re");
	assert_non_null(f);
	int lines = 0;
	char line[512];
	while (fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	assert_int_equal(tab->n, lines < DISKTAB_MAX ? lines : DISKTAB_MAX);

	int seen_partition = 0, found = -1;
	for (int i = 0; i < tab->n; i++) {
		const struct disk_counters *d = &tab->dev[i];
		/* a whole disk is what /sys/block lists ('/' in a name is '!') */
		char path[PATH_MAX_LEN], sysname[64];
		fmt(sysname, sizeof(sysname), "%s", d->name);
		for (char *p = sysname; *p; p++)
			if (*p == '/')
				*p = '!';
		fmt(path, sizeof(path), "/sys/block/%s", sysname);
		int in_sys_block = access(path, F_OK) == 0;
		if (in_sys_block != !!d->is_disk)
			fail_msg("%s: is_disk %d but /sys/block says %d", d->name, d->is_disk,
				 in_sys_block);
		if (!d->is_disk)
			seen_partition = 1;
		else if (seen_partition)
			fail_msg("whole disk %s listed after a partition", d->name);
		if (i > 0 && !!tab->dev[i - 1].is_disk == !!d->is_disk &&
		    strcmp(tab->dev[i - 1].name, d->name) > 0)
			fail_msg("%s listed before %s", tab->dev[i - 1].name, d->name);
		if (strcmp(d->name, disk) == 0)
			found = i;
	}
	assert_true(found >= 0);
	assert_true(tab->dev[found].is_disk);
	/* its counters are the disk's own: bracket the sectors read */
	unsigned long long rs1 = diskstats_field(disk, 6);
	assert_true(tab->dev[found].rd_sectors <= rs1);
	assert_true(tab->dev[found].rd_sectors > 0 || rs1 == 0);
	free(tab);
	sampler_free(s);
}

static void test_sampler_psi(void **state)
{
	(void)state;
	if (access("/proc/pressure/memory", R_OK) != 0 || access("/proc/pressure/io", R_OK) != 0)
		SKIP_TEST("sampler_psi", "no /proc/pressure (kernel without CONFIG_PSI or psi=0)");
	char err[256] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	/* PSI present: the sampler must not call it missing */
	assert_null(strstr(sampler_missing(s), "pressure"));
	unsigned long long m0, m1, i0, i1;
	struct sample smp;
	assert_int_equal(psi_some_total("/proc/pressure/memory", &m0), 0);
	assert_int_equal(psi_some_total("/proc/pressure/io", &i0), 0);
	sampler_read(s, &smp);
	assert_int_equal(psi_some_total("/proc/pressure/memory", &m1), 0);
	assert_int_equal(psi_some_total("/proc/pressure/io", &i1), 0);
	uint32_t both = SAMPLE_HAVE_PSI_MEM | SAMPLE_HAVE_PSI_IO;
	assert_int_equal(smp.have & both, both);
	if (!(m0 <= smp.psi_mem_some_us && smp.psi_mem_some_us <= m1))
		fail_msg("psi_mem_some_us %llu not in [%llu, %llu]",
			 (unsigned long long)smp.psi_mem_some_us, m0, m1);
	if (!(i0 <= smp.psi_io_some_us && smp.psi_io_some_us <= i1))
		fail_msg("psi_io_some_us %llu not in [%llu, %llu]",
			 (unsigned long long)smp.psi_io_some_us, i0, i1);
	/* avg10 is a percentage; "full" can never exceed "some" */
	assert_true(smp.psi_mem_some >= 0 && smp.psi_mem_some <= 100);
	assert_true(smp.psi_io_some >= 0 && smp.psi_io_some <= 100);
	assert_true(smp.psi_io_full <= smp.psi_io_some + 0.01f);
	sampler_free(s);
}

/* ---- cgroup ----------------------------------------------------------- */

struct cg {
	int v2;
	char dir[PATH_MAX_LEN];	     /* the cgroup we created */
	char stat[PATH_MAX_LEN];     /* its memory.stat */
	char usage[PATH_MAX_LEN];    /* memory.usage_in_bytes / memory.current */
	char limit[PATH_MAX_LEN];    /* memory.limit_in_bytes / memory.max */
	char file[PATH_MAX_LEN];     /* page cache charged to it */
	char skip[3 * PATH_MAX_LEN]; /* why the test cannot run, "" if it can */
};

#define CG_LIMIT      (64ull << 20)
#define CG_FILE_BYTES (4u << 20)

/* This process's cgroup path for the v1 memory controller, or the v2 path
 * when want_v2. */
static int self_cgroup(int want_v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return -1;
	char line[1024];
	int rc = -1;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c2 = '\0';
		const char *ctrls = c1 + 1, *path = c2 + 1;
		if (want_v2 ? strcmp(line, "0") == 0 && *ctrls == '\0' : 0) {
			fmt(out, len, "%s", path);
			rc = 0;
		} else if (!want_v2) {
			char copy[256], *save = NULL;
			fmt(copy, sizeof(copy), "%s", ctrls);
			for (char *t = strtok_r(copy, ",", &save); t;
			     t = strtok_r(NULL, ",", &save))
				if (strcmp(t, "memory") == 0) {
					fmt(out, len, "%s", path);
					rc = 0;
				}
		}
	}
	fclose(f);
	return rc;
}

static int cg_setup(void **state)
{
	struct cg *cg = xcalloc(1, sizeof(*cg));
	*state = cg;
	if (geteuid() != 0) {
		fmt(cg->skip, sizeof(cg->skip), "not root: cannot create a memory cgroup");
		return 0;
	}
	char self[512], base[PATH_MAX_LEN];
	if (self_cgroup(0, self, sizeof(self)) == 0 &&
	    access("/sys/fs/cgroup/memory/memory.limit_in_bytes", F_OK) == 0) {
		fmt(base, sizeof(base), "/sys/fs/cgroup/memory%s", self);
	} else if (self_cgroup(1, self, sizeof(self)) == 0) {
		const char *root = access("/sys/fs/cgroup/cgroup.controllers", F_OK) == 0
				       ? "/sys/fs/cgroup"
				       : "/sys/fs/cgroup/unified";
		fmt(base, sizeof(base), "%s%s", root, self);
		cg->v2 = 1;
	} else {
		fmt(cg->skip, sizeof(cg->skip), "no memory cgroup controller");
		return 0;
	}
	fmt(cg->dir, sizeof(cg->dir), "%s/lrutop-test-%ld", base, (long)getpid());
	if (mkdir(cg->dir, 0755) < 0) {
		fmt(cg->skip, sizeof(cg->skip), "mkdir %s: %s", cg->dir, strerror(errno));
		cg->dir[0] = '\0';
		return 0;
	}
	fmt(cg->stat, sizeof(cg->stat), "%s/memory.stat", cg->dir);
	fmt(cg->usage, sizeof(cg->usage), "%s/%s", cg->dir,
	    cg->v2 ? "memory.current" : "memory.usage_in_bytes");
	fmt(cg->limit, sizeof(cg->limit), "%s/%s", cg->dir,
	    cg->v2 ? "memory.max" : "memory.limit_in_bytes");
	if (cg->v2 && access(cg->limit, F_OK) != 0) {
		char ctl[PATH_MAX_LEN];
		fmt(ctl, sizeof(ctl), "%s/cgroup.subtree_control", base);
		(void)write_text(ctl, "+memory");
	}
	char num[32];
	fmt(num, sizeof(num), "%llu", CG_LIMIT);
	if (access(cg->limit, F_OK) != 0) {
		fmt(cg->skip, sizeof(cg->skip), "memory controller not enabled below %s", base);
		return 0;
	}
	if (write_text(cg->limit, num) < 0) {
		fmt(cg->skip, sizeof(cg->skip), "%s: %s", cg->limit, strerror(errno));
		return 0;
	}
	return 0;
}

static int cg_teardown(void **state)
{
	struct cg *cg = *state;
	if (cg->file[0])
		unlink(cg->file); /* uncharges the page cache */
	if (cg->dir[0] && rmdir(cg->dir) < 0)
		fprintf(stderr, "test_sampler: rmdir %s: %s\n", cg->dir, strerror(errno));
	free(cg);
	return 0;
}

/* A child joins the cgroup, writes and reads back a file, and exits: its
 * page cache stays charged to the cgroup. */
static void charge_page_cache(struct cg *cg)
{
	fmt(cg->file, sizeof(cg->file), "/var/tmp/lrutop-test-cg-%ld", (long)getpid());
	char procs[PATH_MAX_LEN];
	fmt(procs, sizeof(procs), "%s/cgroup.procs", cg->dir);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char buf[65536];
		memset(buf, 'x', sizeof(buf));
		if (write_text(procs, "0") < 0)
			_exit(10);
		int fd = open(cg->file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd < 0)
			_exit(11);
		for (unsigned done = 0; done < CG_FILE_BYTES; done += sizeof(buf))
			if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
				_exit(12);
		for (off_t off = 0; off < CG_FILE_BYTES; off += (off_t)sizeof(buf))
			if (pread(fd, buf, sizeof(buf), off) != (ssize_t)sizeof(buf))
				_exit(13);
		close(fd);
		_exit(0);
	}
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		fail_msg("cgroup child failed: status %#x", st);
}

static void test_sampler_cgroup(void **state)
{
	struct cg *cg = *state;
	if (cg->skip[0])
		SKIP_TEST("sampler_cgroup", "%s", cg->skip);
	charge_page_cache(cg);

	char err[512] = "";
	struct sampler *s = sampler_new(NULL, err, sizeof(err));
	assert_non_null(s);
	struct sample smp;
	sampler_read(s, &smp);
	assert_int_equal(smp.have & SAMPLE_HAVE_CG, 0); /* not asked for yet */

	assert_int_equal(sampler_set_cgroup(s, cg->stat, cg->usage, CG_LIMIT, err, sizeof(err)), 0);
	unsigned long long af0 = 0, if0 = 0, af1 = 0, if1 = 0, us0 = 0, us1 = 0;
	assert_int_equal(tu_key_value(cg->stat, "active_file", &af0), 0);
	assert_int_equal(tu_key_value(cg->stat, "inactive_file", &if0), 0);
	char num[64];
	assert_int_equal(read_text(cg->usage, num, sizeof(num)), 0);
	us0 = strtoull(num, NULL, 10);
	sampler_read(s, &smp);
	assert_int_equal(tu_key_value(cg->stat, "active_file", &af1), 0);
	assert_int_equal(tu_key_value(cg->stat, "inactive_file", &if1), 0);
	assert_int_equal(read_text(cg->usage, num, sizeof(num)), 0);
	us1 = strtoull(num, NULL, 10);

	assert_int_equal(smp.have & SAMPLE_HAVE_CG, SAMPLE_HAVE_CG);
	assert_int_equal(smp.cg_limit, CG_LIMIT);
	/* Nothing runs in the cgroup any more, so its file LRUs stay put
	 * between our reads (reclaim could only shrink them; 64 MiB limit
	 * leaves no reason to).  Allow 4 pages either way. */
	unsigned long long got = smp.cg_active_file + smp.cg_inactive_file;
	unsigned long long lo = (af0 + if0 < af1 + if1 ? af0 + if0 : af1 + if1),
			   hi = (af0 + if0 > af1 + if1 ? af0 + if0 : af1 + if1);
	if (got + 16384 < lo || got > hi + 16384)
		fail_msg("cgroup file LRUs %llu B, memory.stat %llu..%llu B", got, lo, hi);
	/* the child's 4 MiB are on them (bytes, not pages or KiB) */
	if (got < CG_FILE_BYTES * 9ull / 10)
		fail_msg("cgroup file LRUs %llu B, expected at least ~%u B", got, CG_FILE_BYTES);
	if (smp.cg_usage + 65536 < (us0 < us1 ? us0 : us1) ||
	    smp.cg_usage > (us0 > us1 ? us0 : us1) + 65536)
		fail_msg("cgroup usage %llu B, usage file %llu..%llu B",
			 (unsigned long long)smp.cg_usage, us0, us1);
	assert_true(smp.cg_usage >= got / 2);

	/* NULL stops it */
	assert_int_equal(sampler_set_cgroup(s, NULL, NULL, 0, err, sizeof(err)), 0);
	sampler_read(s, &smp);
	assert_int_equal(smp.have & SAMPLE_HAVE_CG, 0);

	/* a path that does not exist: -1 and the path in the message */
	char bad[PATH_MAX_LEN + 16];
	fmt(bad, sizeof(bad), "%s/no-such-file", cg->dir);
	err[0] = '\0';
	assert_int_equal(sampler_set_cgroup(s, bad, cg->usage, CG_LIMIT, err, sizeof(err)), -1);
	assert_non_null(strstr(err, bad));
	sampler_read(s, &smp);
	assert_int_equal(smp.have & SAMPLE_HAVE_CG, 0);
	sampler_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_sampler_basic),
	    cmocka_unit_test(test_sampler_meminfo),
	    cmocka_unit_test(test_sampler_vmstat),
	    cmocka_unit_test(test_sampler_disk),
	    cmocka_unit_test(test_sampler_no_such_disk),
	    cmocka_unit_test(test_sampler_read_disks),
	    cmocka_unit_test(test_sampler_psi),
	    cmocka_unit_test_setup_teardown(test_sampler_cgroup, cg_setup, cg_teardown),
	};
	return cmocka_run_group_tests_name("sampler", tests, NULL, NULL);
}
