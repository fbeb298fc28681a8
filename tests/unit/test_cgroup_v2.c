/*
 * Tests for the cgroup module against directories laid out as the kernel
 * documents them (Documentation/admin-guide/cgroup-v2.rst: "Mounting",
 * "Controlling Controllers" — cgroup.controllers, cgroup.subtree_control
 * "+memory"; "Core Interface Files" — cgroup.procs, cgroup.events
 * "populated"; "Memory Interface Files" — memory.current, memory.max
 * ("max" until written), memory.swap.max, memory.peak, memory.events
 * (low high max oom oom_kill oom_group_kill), memory.stat) and as cgroup v1
 * is mounted on this machine.  No kernel here runs cgroup v2 with the
 * memory controller (v1 memory and blkio), so this is the only test the v2
 * paths get; v1 is also tested for real in test_cgroup.c and tests/sh.
 *
 *  - which hierarchy: cgroup_find_base on mountinfo texts (pure v2 as on
 *    Debian 12 / Ubuntu 24.04, v2 root cgroup, this machine's hybrid
 *    layout, a bind-mounted subtree, an escaped mount point, nothing
 *    usable) with a fake root directory, and on the real
 *    /proc/self/mountinfo (must agree with cgroup_base_detect);
 *  - the files: cgroup_adopt writes memory.max and memory.swap.max (v2),
 *    memory.limit_in_bytes and memory.memsw.limit_in_bytes (v1); a real
 *    worker writes its pid into cgroup.procs; the real sampler reads a v2
 *    memory.stat with the key set of a 6.x kernel (its own pgdeactivate,
 *    active_file not confused with workingset_activate_file) and the burst
 *    rule uses that counter; cgroup_oom_kills reads memory.events and v1
 *    memory.oom_control;
 *  - the stale reap removes only lrutop-<pid>-* directories of dead pids;
 *  - --disk-limit: the io controller is found beside memory (v2 "io" in
 *    cgroup.subtree_control, this machine's v1 blkio mount), io.max gets
 *    "MAJ:MIN rbps=N wbps=N" ("IO Interface Files"), v1 the two
 *    blkio.throttle.*_bps_device files "MAJ:MIN N"; a v2 run cgroup is one
 *    directory, a v1 one a memory and a blkio directory of the same name,
 *    and the reap removes both as one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/burst.h"
#include "runs/cgroup.h"
#include "runs/delegate.h"
#include "sampling/sampler.h"
#include "runs/scratch.h"
#include "base/util.h"
#include "testutil.h"
#include "runs/worker.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/file.h>
#include <linux/magic.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

/* The key set of a 6.x kernel's v2 memory.stat (mm/memcontrol.c
 * memory_stats[] and memcg_vm_event_stat[], 6.8+), bytes and events. */
static const char v2_stat[] = "anon 1531904\n"
			      "file 52375552\n"
			      "kernel 1310720\n"
			      "kernel_stack 65536\n"
			      "pagetables 135168\n"
			      "sec_pagetables 0\n"
			      "percpu 7040\n"
			      "sock 0\n"
			      "vmalloc 8192\n"
			      "shmem 0\n"
			      "zswap 0\n"
			      "zswapped 0\n"
			      "file_mapped 34537472\n"
			      "file_dirty 1323008\n"
			      "file_writeback 0\n"
			      "swapcached 0\n"
			      "anon_thp 0\n"
			      "file_thp 0\n"
			      "shmem_thp 0\n"
			      "inactive_anon 1523712\n"
			      "active_anon 8192\n"
			      "inactive_file 19615744\n"
			      "active_file 32759808\n"
			      "unevictable 0\n"
			      "slab_reclaimable 766280\n"
			      "slab_unreclaimable 240888\n"
			      "slab 1007168\n"
			      "workingset_refault_anon 0\n"
			      "workingset_refault_file 4109\n"
			      "workingset_activate_anon 0\n"
			      "workingset_activate_file 771\n"
			      "workingset_restore_anon 0\n"
			      "workingset_restore_file 12\n"
			      "workingset_nodereclaim 0\n"
			      "pgdemote_kswapd 0\n"
			      "pgdemote_direct 0\n"
			      "pgdemote_khugepaged 0\n"
			      "pgscan 301187\n"
			      "pgsteal 298820\n"
			      "pgscan_kswapd 0\n"
			      "pgscan_direct 301187\n"
			      "pgscan_khugepaged 0\n"
			      "pgsteal_kswapd 0\n"
			      "pgsteal_direct 298820\n"
			      "pgsteal_khugepaged 0\n"
			      "pgfault 360521\n"
			      "pgmajfault 639\n"
			      "pgrefill 265840\n"
			      "pgactivate 280134\n"
			      "pgdeactivate %llu\n"
			      "pglazyfree 0\n"
			      "pglazyfreed 0\n"
			      "zswpin 0\n"
			      "zswpout 0\n"
			      "zswpwb 0\n"
			      "thp_fault_alloc 0\n"
			      "thp_collapse_alloc 0\n"
			      "thp_swpout 0\n"
			      "thp_swpout_fallback 0\n";

static char root[256];

static void put(const char *rel, const char *content)
{
	char path[4096], dir[8192];
	snprintf(path, sizeof path, "%s/%s", root, rel);
	snprintf(dir, sizeof dir, "mkdir -p '%s'", path);
	*strrchr(dir, '/') = '\0';
	strcat(dir, "'");
	assert_int_equal(system(dir), 0);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(content, f);
	assert_int_equal(fclose(f), 0);
}

static char *get(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static int setup(void **state)
{
	(void)state;
	return tu_tmpdir(root, sizeof root, "cgv2");
}

static int teardown(void **state)
{
	(void)state;
	return tu_rmtree(root);
}

/* The statfs magic of the layout's filesystem: what its "top" is on, put
 * in place of cgroup2's (cgroup_home's top_magic) for the layout. */
static long layout_magic(void)
{
	struct statfs sf;
	assert_int_equal(statfs(root, &sf), 0);
	return (long)sf.f_type;
}

/* Debian 12 / Ubuntu 24.04: only the unified hierarchy is mounted. */
static const char mi_v2[] =
    "22 28 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
    "35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";

static void test_find_v2(void **state)
{
	struct cgroup_base b;
	char why[256], want[8192];
	(void)state;

	/* A delegated cgroup of ours whose children get the memory controller. */
	put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "cpuset cpu io memory pids\n");
	put("sys/fs/cgroup/lab.slice/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/lab.slice/cgroup.subtree_control", "io memory\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 2);
	assert_int_equal(b.enable_v2, 0);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/lab.slice", root);
	assert_string_equal(b.dir, want);

	assert_int_equal(b.v2, 1);
	assert_string_equal(b.v2_path, "/lab.slice");
	snprintf(want, sizeof want, "%s/sys/fs/cgroup", root);
	assert_string_equal(b.v2_top, want);

	/* The same cgroup without memory for its children: the nearest
	 * ancestor that hands memory on (here the root) takes the run
	 * cgroups, nothing to enable. */
	put("sys/fs/cgroup/lab.slice/cgroup.subtree_control", "io\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.enable_v2, 0);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup", root);
	assert_string_equal(b.dir, want);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/lab.slice", root);
	assert_string_equal(b.io_dir, want);

	/* No ancestor hands it on, the kernel offers it: the top, where
	 * "+memory" would have to be written (enable_v2; cgroup_home's job). */
	put("sys/fs/cgroup/cgroup.subtree_control", "");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.enable_v2, 1);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup", root);
	assert_string_equal(b.dir, want);
	/* ... and from the root cgroup itself */
	assert_int_equal(cgroup_find_base(mi_v2, "0::/\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 2);
	assert_int_equal(b.enable_v2, 1);
	assert_string_equal(b.dir, want);

	/* A base that still needs "+memory" is refused by cgroup_create_in,
	 * which never writes a cgroup.subtree_control: only cgroup_home does,
	 * as it restores it. */
	struct cgroup cg;
	char err[512], buf[256];
	assert_int_equal(cgroup_create_in(&cg, &b, 64 << 20, NULL, "t", err, sizeof err), -1);
	assert_non_null(
	    strstr(err, "cgroup v2: the memory controller is not on for the children of"));
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/cgroup.subtree_control", root);
	assert_string_equal(get(want, buf, sizeof buf), "");
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/lrutop-%d-t", root, (int)getpid());
	assert_int_equal(access(want, F_OK), -1);

	/* The kernel does not offer memory at all: said so. */
	put("sys/fs/cgroup/cgroup.controllers", "cpu io pids\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), -1);
	assert_non_null(strstr(why, "no memory controller: cgroup v2 does not offer it ("));
	assert_non_null(strstr(why, "/sys/fs/cgroup/cgroup.controllers) and no cgroup v1 memory "
				    "hierarchy is mounted"));
	assert_string_equal(b.dir, "");
}

/* This machine (kernel 6.18): v1 controllers each on their own mount, an
 * empty cgroup2 at /sys/fs/cgroup/unified ("hybrid"). */
static const char mi_hybrid[] =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
static const char self_hybrid[] = "8:pids:/\n7:blkio:/\n4:memory:/process_api/28a59e\n"
				  "1:cpu:/\n0::/\n";

static void test_find_v1(void **state)
{
	struct cgroup_base b;
	char why[256], want[8192];
	(void)state;

	put("sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");
	put("sys/fs/cgroup/unified/cgroup.subtree_control", "");
	put("sys/fs/cgroup/memory/process_api/28a59e/memory.limit_in_bytes",
	    "9223372036854771712\n");
	assert_int_equal(cgroup_find_base(mi_hybrid, self_hybrid, root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 1);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/memory/process_api/28a59e", root);
	assert_string_equal(b.dir, want);

	/* The v2 mount wins once it has the memory controller for us. */
	put("sys/fs/cgroup/unified/cgroup.controllers", "memory hugetlb\n");
	assert_int_equal(cgroup_find_base(mi_hybrid, self_hybrid, root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 2);
	assert_int_equal(b.enable_v2, 1);
	put("sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");

	/* No memory mount at all. */
	assert_int_equal(
	    cgroup_find_base("32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n",
			     self_hybrid, root, &b, why, sizeof why),
	    -1);
	assert_string_equal(why, "no memory controller mounted");

	/* A mount showing a subtree (a bind mount, a container): our path is
	 * taken below its root; a cgroup outside it is not reachable. */
	const char mi_sub[] = "35 31 0:32 /process_api /mnt/mem rw - cgroup cgroup rw,memory\n";
	put("mnt/mem/28a59e/memory.limit_in_bytes", "9223372036854771712\n");
	assert_int_equal(cgroup_find_base(mi_sub, self_hybrid, root, &b, why, sizeof why), 0);
	snprintf(want, sizeof want, "%s/mnt/mem/28a59e", root);
	assert_string_equal(b.dir, want);
	assert_int_equal(cgroup_find_base(mi_sub, "4:memory:/other/x\n", root, &b, why, sizeof why),
			 -1);

	/* A blank in the mount point is escaped as \040 in mountinfo. */
	const char mi_esc[] = "35 31 0:32 / /cg\\040mem rw - cgroup cgroup rw,memory\n";
	put("cg mem/memory.limit_in_bytes", "9223372036854771712\n");
	assert_int_equal(cgroup_find_base(mi_esc, "4:memory:/\n", root, &b, why, sizeof why), 0);
	snprintf(want, sizeof want, "%s/cg mem", root);
	assert_string_equal(b.dir, want);

	/* Optional fields (shared:N master:N) before the separator. */
	const char mi_opt[] =
	    "35 31 0:32 / /cg rw shared:7 master:3 - cgroup cgroup rw,nosuid,memory\n";
	put("cg/memory.limit_in_bytes", "9223372036854771712\n");
	assert_int_equal(cgroup_find_base(mi_opt, "4:memory:/\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 1);
}

/* The running system: the text of /proc/self/mountinfo and an empty root
 * must give what cgroup_base_detect gives. */
static void test_find_real(void **state)
{
	struct cgroup_base a, b;
	char why[256], why2[256], mi[65536], self[4096];
	(void)state;

	if (geteuid() != 0) {
		printf("skipped: not root\n");
		skip();
	}
	get("/proc/self/mountinfo", mi, sizeof mi);
	get("/proc/self/cgroup", self, sizeof self);
	int ra = cgroup_base_detect(&a, why, sizeof why);
	int rb = cgroup_find_base(mi, self, "", &b, why2, sizeof why2);
	assert_int_equal(ra, rb);
	printf("this machine: %s\n", ra == 0 ? (a.version == 2 ? "cgroup v2" : "cgroup v1") : why);
	if (ra == 0) {
		assert_int_equal(a.version, b.version);
		assert_string_equal(a.dir, b.dir);
	}
}

static void test_v2_files(void **state)
{
	struct cgroup cg;
	struct worker w;
	struct worker_spec spec;
	struct worker_result res;
	char err[512], buf[8192], dir[8192], stat[8192];
	char *argv[] = {"true", NULL};
	uint64_t n = 0;
	(void)state;

	/* A new v2 cgroup as the kernel makes it (memory controller on). */
	put("v2/lrutop-1-x/cgroup.procs", "");
	put("v2/lrutop-1-x/cgroup.events", "populated 0\nfrozen 0\n");
	put("v2/lrutop-1-x/memory.current", "0\n");
	put("v2/lrutop-1-x/memory.max", "max\n");
	put("v2/lrutop-1-x/memory.swap.max", "max\n");
	put("v2/lrutop-1-x/memory.peak", "0\n");
	put("v2/lrutop-1-x/memory.events",
	    "low 0\nhigh 0\nmax 0\noom 0\noom_kill 0\noom_group_kill 0\n");
	snprintf(stat, sizeof stat, v2_stat, 0ull);
	put("v2/lrutop-1-x/memory.stat", stat);
	snprintf(dir, sizeof dir, "%s/v2/lrutop-1-x", root);

	assert_int_equal(cgroup_adopt(&cg, 2, dir, 64 << 20, err, sizeof err), 0);
	assert_int_equal(cg.created, 1);
	assert_int_equal(cg.limit, 64 << 20);
	assert_string_equal(get(strcat(strcpy(buf, dir), "/memory.max"), buf, sizeof buf),
			    "67108864");
	assert_string_equal(get(strcat(strcpy(buf, dir), "/memory.swap.max"), buf, sizeof buf),
			    "0");
	assert_non_null(strstr(cg.usage, "/memory.current"));
	assert_non_null(strstr(cg.peak, "/memory.peak"));
	assert_non_null(strstr(cg.events, "/cgroup.events"));
	assert_non_null(strstr(cg.stat, "/memory.stat"));

	/* memory.events oom_kill */
	assert_int_equal(cgroup_oom_kills(&cg, &n), 0);
	assert_int_equal(n, 0);
	put("v2/lrutop-1-x/memory.events",
	    "low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n");
	assert_int_equal(cgroup_oom_kills(&cg, &n), 0);
	assert_int_equal(n, 1);

	/* A real worker joins through cgroup.procs before anything else. */
	memset(&spec, 0, sizeof spec);
	spec.argv = argv;
	spec.cgroup_procs = cg.procs;
	assert_int_equal(worker_start(&spec, &w, err, sizeof err), 0);
	pid_t pid = w.pid;
	worker_go(&w);
	assert_int_equal(worker_reap(&w, 1, &res), 1);
	assert_true(res.ok);
	worker_done(&w);
	assert_int_equal(atoi(get(cg.procs, buf, sizeof buf)), pid);

	/* The real sampler reads the v2 memory.stat: the cgroup's own
	 * pgdeactivate, and the burst rule counts with it. */
	char e2[256];
	struct sampler *sm = sampler_new(NULL, e2, sizeof e2);
	struct sample a, b;
	assert_non_null(sm);
	assert_int_equal(sampler_set_cgroup(sm, cg.stat, cg.usage, cg.limit, e2, sizeof e2), 0);
	sampler_read(sm, &a);
	assert_true(a.have & SAMPLE_HAVE_CG);
	assert_true(a.have & SAMPLE_HAVE_CG_DEACT);
	assert_int_equal(a.cg_active_file, 32759808);
	assert_int_equal(a.cg_inactive_file, 19615744);
	assert_int_equal(a.cg_cache, 52375552);
	assert_int_equal(a.cg_pgdeactivate, 0);
	assert_int_equal(a.cg_dirty, 1323008); /* file_dirty + file_writeback */
	assert_int_equal(a.cg_limit, 64 << 20);
	/* 40000 pages deactivated in the cgroup, whatever the system did. */
	snprintf(stat, sizeof stat, v2_stat, 40000ull);
	put("v2/lrutop-1-x/memory.stat", stat);
	sampler_read(sm, &b);
	assert_int_equal(b.cg_pgdeactivate, 40000);
	b.pgdeactivate = a.pgdeactivate; /* the system saw nothing */
	assert_int_equal(burst_between(&a, &b), 1);
	b.cg_pgdeactivate = 0;
	a.pgdeactivate = 0;
	b.pgdeactivate = 1u << 30; /* ... and the system alone is not ours */
	assert_int_equal(burst_between(&a, &b), 0);
	sampler_free(sm);
	cg.created = 0; /* a plain directory: not cgroup_remove's to rmdir */
}

static void test_v1_files(void **state)
{
	struct cgroup cg;
	char err[512], buf[8192], dir[8192];
	uint64_t n = 0;
	(void)state;

	put("v1/lrutop-1-x/cgroup.procs", "");
	put("v1/lrutop-1-x/memory.usage_in_bytes", "0\n");
	put("v1/lrutop-1-x/memory.limit_in_bytes", "9223372036854771712\n");
	put("v1/lrutop-1-x/memory.memsw.limit_in_bytes", "9223372036854771712\n");
	put("v1/lrutop-1-x/memory.max_usage_in_bytes", "0\n");
	put("v1/lrutop-1-x/memory.oom_control", "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n");
	/* kernel 6.18's v1 memory.stat, as read on this machine (abridged) */
	put("v1/lrutop-1-x/memory.stat",
	    "cache 1220608\nrss 1736704\nrss_huge 0\nshmem 0\nmapped_file 0\ndirty 954368\n"
	    "writeback 4096\nworkingset_refault_anon 0\nworkingset_refault_file 61\nswap 0\n"
	    "pgpgin 21889\npgpgout 21216\npgfault 50756\npgmajfault 4\ninactive_anon 1560576\n"
	    "active_anon 12288\ninactive_file 520192\nactive_file 700416\nunevictable 0\n"
	    "hierarchical_memory_limit 9223372036854771712\ntotal_cache 1220608\n"
	    "total_dirty 954368\ntotal_writeback 0\ntotal_inactive_file 520192\n"
	    "total_active_file 700416\n");
	snprintf(dir, sizeof dir, "%s/v1/lrutop-1-x", root);
	assert_int_equal(cgroup_adopt(&cg, 1, dir, 64 << 20, err, sizeof err), 0);
	assert_string_equal(
	    get(strcat(strcpy(buf, dir), "/memory.limit_in_bytes"), buf, sizeof buf), "67108864");
	assert_string_equal(
	    get(strcat(strcpy(buf, dir), "/memory.memsw.limit_in_bytes"), buf, sizeof buf),
	    "67108864");
	assert_non_null(strstr(cg.usage, "/memory.usage_in_bytes"));
	assert_non_null(strstr(cg.peak, "/memory.max_usage_in_bytes"));
	assert_string_equal(cg.events, "");
	/* The sampler reads the cgroup's own lines, not the total_ ones, and
	 * finds no pgdeactivate there. */
	char e2[256];
	struct sampler *sm = sampler_new(NULL, e2, sizeof e2);
	struct sample a;
	assert_non_null(sm);
	assert_int_equal(sampler_set_cgroup(sm, cg.stat, cg.usage, cg.limit, e2, sizeof e2), 0);
	sampler_read(sm, &a);
	assert_true(a.have & SAMPLE_HAVE_CG);
	assert_false(a.have & SAMPLE_HAVE_CG_DEACT);
	assert_int_equal(a.cg_active_file, 700416);
	assert_int_equal(a.cg_inactive_file, 520192);
	assert_int_equal(a.cg_cache, 1220608);
	assert_int_equal(a.cg_dirty, 954368 + 4096);
	sampler_free(sm);
	assert_int_equal(cgroup_oom_kills(&cg, &n), 0);
	assert_int_equal(n, 2);
	/* A read-only limit file: the error names the file. */
	strcat(strcpy(buf, dir), "/memory.limit_in_bytes");
	if (geteuid() != 0) { /* root writes through mode 0444 */
		chmod(buf, 0444);
		assert_int_equal(cgroup_adopt(&cg, 1, dir, 64 << 20, err, sizeof err), -1);
		assert_non_null(strstr(err, "memory.limit_in_bytes"));
	}
	unlink(buf);
	assert_int_equal(cgroup_adopt(&cg, 1, dir, 64 << 20, err, sizeof err), -1);
	assert_non_null(strstr(err, "memory.limit_in_bytes to 67108864: No such file"));
	cg.created = 0;
}

/* --disk-limit on cgroup v2: the io controller beside memory, io.max. */
static void test_v2_io(void **state)
{
	struct cgroup_base b;
	struct cgroup cg;
	const struct cgroup_io io = {254, 0, 30u << 20};
	char why[256], err[512], want[8192], buf[256];
	(void)state;

	put("sys/fs/cgroup/lab.slice/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/lab.slice/cgroup.subtree_control", "io memory\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.io_version, 2);
	assert_int_equal(b.io_enable_v2, 0);
	assert_string_equal(b.io_dir, b.dir);
	/* memory delegated, io not: no throttle here */
	put("sys/fs/cgroup/lab.slice/cgroup.subtree_control", "memory\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.io_version, 0);
	/* io without memory: the throttle alone is still possible */
	put("sys/fs/cgroup/lab.slice/cgroup.subtree_control", "io\n");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/lab.slice\n", root, &b, why, sizeof why), -1);
	assert_int_equal(b.io_version, 2);

	/* The writer, on a new cgroup as the kernel lays it out: io.max is
	 * empty until written. */
	put("v2/lrutop-1-io/io.max", "");
	snprintf(want, sizeof want, "%s/v2/lrutop-1-io", root);
	assert_int_equal(cgroup_write_io(2, want, &io, err, sizeof err), 0);
	assert_string_equal(get(strcat(strcpy(buf, want), "/io.max"), buf, sizeof buf),
			    "254:0 rbps=31457280 wbps=31457280");
	/* no io.max (the io controller is not on in this cgroup): named */
	snprintf(want, sizeof want, "%s/v2/none", root);
	mkdir(want, 0755);
	assert_int_equal(cgroup_write_io(2, want, &io, err, sizeof err), -1);
	assert_non_null(strstr(err, "/io.max to \"254:0 rbps=31457280 wbps=31457280\": No such"));

	/* The root cgroup where io is not yet on: cgroup_create_in refuses
	 * (cgroup_home enables it), the file is left as it was. */
	put("sys/fs/cgroup/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/\n", root, &b, why, sizeof why), 0);
	assert_int_equal(b.io_version, 2);
	assert_int_equal(b.io_enable_v2, 1);
	assert_int_equal(cgroup_create_in(&cg, &b, 0, &io, "t", err, sizeof err), -1);
	assert_non_null(strstr(err, "cgroup v2: the io controller is not on for the children of"));
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/cgroup.subtree_control", root);
	assert_string_equal(get(want, buf, sizeof buf), "");
	/* io on, the kernel would fill the new directory; here writing
	 * io.max fails, and nothing stays */
	b.io_enable_v2 = 0;
	assert_int_equal(cgroup_create_in(&cg, &b, 0, &io, "t", err, sizeof err), -1);
	assert_non_null(strstr(err, "/io.max to \"254:0 rbps=31457280 wbps=31457280\""));
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/lrutop-%d-t", root, (int)getpid());
	assert_int_equal(access(want, F_OK), -1);
	assert_int_equal(cg.created, 0);
	assert_int_equal(cg.io_created, 0);
	/* neither a memory limit nor a throttle: nothing to make */
	assert_int_equal(cgroup_create_in(&cg, &b, 0, NULL, "t", err, sizeof err), -1);
}

/* --disk-limit on cgroup v1 (this machine's layout): a blkio hierarchy of
 * its own, the two throttle files. */
static void test_v1_io(void **state)
{
	struct cgroup_base b;
	const struct cgroup_io io = {254, 0, 30u << 20};
	char why[256], err[512], want[8192], buf[256];
	(void)state;

	put("sys/fs/cgroup/unified/cgroup.controllers", "hugetlb\n");
	put("sys/fs/cgroup/unified/cgroup.subtree_control", "");
	put("sys/fs/cgroup/memory/process_api/28a59e/memory.limit_in_bytes",
	    "9223372036854771712\n");
	put("sys/fs/cgroup/blkio/blkio.throttle.read_bps_device", "");
	assert_int_equal(cgroup_find_base(mi_hybrid, self_hybrid, root, &b, why, sizeof why), 0);
	assert_int_equal(b.version, 1);
	assert_int_equal(b.io_version, 1);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/blkio", root);
	assert_string_equal(b.io_dir, want);
	/* no blkio mount: no throttle, memory as before */
	const char mi_nob[] = "35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
	assert_int_equal(cgroup_find_base(mi_nob, self_hybrid, root, &b, why, sizeof why), 0);
	assert_int_equal(b.io_version, 0);
	assert_string_equal(b.io_dir, "");

	put("v1io/lrutop-1-x/blkio.throttle.read_bps_device", "");
	put("v1io/lrutop-1-x/blkio.throttle.write_bps_device", "");
	snprintf(want, sizeof want, "%s/v1io/lrutop-1-x", root);
	assert_int_equal(cgroup_write_io(1, want, &io, err, sizeof err), 0);
	assert_string_equal(
	    get(strcat(strcpy(buf, want), "/blkio.throttle.read_bps_device"), buf, sizeof buf),
	    "254:0 31457280");
	assert_string_equal(
	    get(strcat(strcpy(buf, want), "/blkio.throttle.write_bps_device"), buf, sizeof buf),
	    "254:0 31457280");
}

static void test_reap(void **state)
{
	struct cgroup_base b;
	char path[8192], name[64];
	long pid = 0;
	(void)state;

	/* A pid that is gone: a child we have reaped. */
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	assert_true(dead > 0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);

	memset(&b, 0, sizeof b);
	b.version = 2;
	snprintf(b.dir, sizeof b.dir, "%s/reap", root);
	mkdir(b.dir, 0755);
	const char *keep[] = {"lrutop-1-run1", "lrutop-abc-run1", "other-5-x", NULL};
	for (int i = 0; keep[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", b.dir, keep[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof path, "%s/lrutop-%d-run1", b.dir, (int)getpid());
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(name, sizeof name, "lrutop-%d-run2", (int)dead);
	snprintf(path, sizeof path, "%s/%s", b.dir, name);
	assert_int_equal(mkdir(path, 0755), 0);

	assert_int_equal(cgroup_reap_stale(&b, &pid), 1);
	assert_int_equal(pid, dead);
	assert_int_equal(access(path, F_OK), -1);
	for (int i = 0; keep[i]; i++) {
		snprintf(path, sizeof path, "%s/%s", b.dir, keep[i]);
		assert_int_equal(access(path, F_OK), 0);
	}
	snprintf(path, sizeof path, "%s/lrutop-%d-run1", b.dir, (int)getpid());
	assert_int_equal(access(path, F_OK), 0); /* ours: alive */
	assert_int_equal(cgroup_reap_stale(&b, &pid), 0);

	/* v1 with a blkio hierarchy apart: a dead run's memory cgroup and its
	 * blkio namesake go as one; a blkio cgroup of a run with only
	 * --disk-limit goes on its own; a live one stays. */
	b.version = 1;
	b.io_version = 1;
	snprintf(b.io_dir, sizeof b.io_dir, "%s/reap-blkio", root);
	mkdir(b.io_dir, 0755);
	char p2[8192];
	snprintf(path, sizeof path, "%s/lrutop-%d-run3", b.dir, (int)dead);
	snprintf(p2, sizeof p2, "%s/lrutop-%d-run3", b.io_dir, (int)dead);
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(mkdir(p2, 0755), 0);
	assert_int_equal(cgroup_reap_stale(&b, &pid), 1);
	assert_int_equal(access(path, F_OK), -1);
	assert_int_equal(access(p2, F_OK), -1);
	snprintf(p2, sizeof p2, "%s/lrutop-%d-run4", b.io_dir, (int)dead);
	assert_int_equal(mkdir(p2, 0755), 0);
	snprintf(path, sizeof path, "%s/lrutop-%d-run1", b.io_dir, (int)getpid());
	assert_int_equal(mkdir(path, 0755), 0);
	assert_int_equal(cgroup_reap_stale(&b, &pid), 1);
	assert_int_equal(access(p2, F_OK), -1);
	assert_int_equal(access(path, F_OK), 0);
}

/* The nearest ancestor that hands a controller on takes its run cgroups,
 * each controller on its own: memory two levels up, io at the top. */
static void test_ancestor(void **state)
{
	struct cgroup_base b;
	char why[600], want[8192];
	(void)state;

	put("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "io memory pids\n");
	put("sys/fs/cgroup/user.slice/cgroup.subtree_control", "memory pids\n");
	put("sys/fs/cgroup/user.slice/user-0.slice/cgroup.subtree_control", "pids\n");
	put("sys/fs/cgroup/user.slice/user-0.slice/session-1.scope/cgroup.subtree_control", "");
	assert_int_equal(cgroup_find_base(mi_v2, "0::/user.slice/user-0.slice/session-1.scope\n",
					  root, &b, why, sizeof why),
			 0);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/user.slice", root);
	assert_string_equal(b.dir, want);
	assert_int_equal(b.enable_v2, 0);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup", root);
	assert_string_equal(b.io_dir, want);
	assert_int_equal(b.io_enable_v2, 0);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/user.slice/user-0.slice/session-1.scope",
		 root);
	assert_string_equal(b.v2_self, want);
	/* a cgroup namespace (the mount shows /user.slice as its top): the
	 * walk stops at the top, the host's root is not looked at */
	const char mi_ns[] = "35 24 0:30 /user.slice /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
	put("sys/fs/cgroup/cgroup.subtree_control", "pids\n");
	put("sys/fs/cgroup/cgroup.controllers", "pids\n");
	put("sys/fs/cgroup/user-0.slice/cgroup.subtree_control", "io\n");
	assert_int_equal(
	    cgroup_find_base(mi_ns, "0::/user.slice/user-0.slice/x\n", root, &b, why, sizeof why),
	    -1);
	snprintf(want, sizeof want, "%s/sys/fs/cgroup/user-0.slice", root);
	assert_string_equal(b.io_dir, want);
}

static void slurp_into(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
}

static void home_lab(struct cgroup_home *h, char *run, size_t runlen, char *top, size_t toplen);
static int mounted_at(const char *dir);

/* Nothing manages the tree and no ancestor enables memory: cgroup_home
 * writes its marker, then "+memory" at the top; cgroup_home_done writes
 * "-memory" back and forgets the marker.  A marker of a gone owner is
 * restored by the reap; one whose controller a live lrutop uses hands
 * the duty over instead. */
static void test_home_top(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], mark[8192], buf[1024], err[600];
	(void)state;

	if (geteuid() != 0)
		skip(); /* only root enables a controller */
	snprintf(run, sizeof run, "%s/run/lrutop", root);
	snprintf(top, sizeof top, "%s/sys/fs/cgroup/cgroup.subtree_control", root);
	put("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "");
	put("sys/fs/cgroup/lab/cgroup.subtree_control", "");
	put("run/.keep", "");
	cgroup_home_init(&h, root, run);
	h.no_systemd = 1;
	h.top_magic = layout_magic();
	int rc = cgroup_home_setup_from(&h, mi_v2, "0::/lab\n");
	if (rc)
		fail_msg("%s", h.why);
	assert_int_equal(h.mode, CGROUP_MODE_OWN);
	assert_int_equal(h.base.enable_v2, 1);
	if (cgroup_home_available(&h, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(h.base.enable_v2, 0);
	assert_int_equal(h.base.version, 2);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "+memory");
	snprintf(mark, sizeof mark, "%s/subtree-%d", run, (int)getpid());
	assert_string_equal(h.marker, mark);
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "lrutop-subtree 1\npid "));
	assert_non_null(strstr(buf, "\nenabled memory\nuses memory\n"));
	char dirline[4200];
	snprintf(dirline, sizeof dirline, "\ndir %s/sys/fs/cgroup\n", root);
	assert_non_null(strstr(buf, dirline));
	/* io too, the same marker */
	assert_int_equal(cgroup_home_io_available(&h, err, sizeof err), 0);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "+io");
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nenabled memory io\nuses memory io\n"));
	cgroup_home_done(&h);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "-io"); /* the last of "-memory", "-io" */
	assert_int_equal(access(mark, F_OK), -1);
	assert_string_equal(h.marker, "");

	/* SIGKILL: the marker of a pid that is gone; the next start's reap
	 * turns both off again and removes it. */
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	char dead_mark[8192], text[8192];
	snprintf(dead_mark, sizeof dead_mark, "%s/subtree-%d", run, (int)dead);
	char boot[64];
	scratch_boot_id(boot, sizeof boot);
	snprintf(text, sizeof text,
		 "lrutop-subtree 1\npid %d\nstart 1\nboot %s\ndir %s/sys/fs/cgroup\nenabled memory "
		 "io\nuses memory io\n",
		 (int)dead, boot, root);
	put(dead_mark + strlen(root) + 1, text);
	home_lab(&h, run, sizeof run, top, sizeof top); /* the next lrutop, as it starts */
	put("sys/fs/cgroup/cgroup.subtree_control", "memory io\n");
	long pid = 0;
	int restored = -1;
	cgroup_home_reap(&h, &pid, &restored);
	assert_int_equal(restored, 2);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "-io");
	assert_int_equal(access(dead_mark, F_OK), -1);
}

/* The layout test_home_top starts from: memory and io offered at the top,
 * nothing enabled; h set up as an lrutop running in /lab. */
static void home_lab(struct cgroup_home *h, char *run, size_t runlen, char *top, size_t toplen)
{
	snprintf(run, runlen, "%s/run/lrutop", root);
	snprintf(top, toplen, "%s/sys/fs/cgroup/cgroup.subtree_control", root);
	put("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "");
	put("sys/fs/cgroup/lab/cgroup.subtree_control", "");
	put("run/.keep", "");
	cgroup_home_init(h, root, run);
	h->no_systemd = 1;
	h->top_magic = layout_magic();
	assert_int_equal(cgroup_home_setup_from(h, mi_v2, "0::/lab\n"), 0);
	assert_int_equal(h->mode, CGROUP_MODE_OWN);
}

/* A second lrutop, forked: its own cgroup_home in /lab asks for memory,
 * says 'r' on *ready (or 'f' when that failed), then waits for a byte on
 * go: 'd' runs cgroup_home_done, EOF just exits (an lrutop killed). */
static pid_t second_home(const char *run, int *ready, int *go)
{
	int a[2], b[2];
	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cgroup_home h;
		char err[600], c = 'f';
		close(a[0]);
		close(b[1]);
		cgroup_home_init(&h, root, run);
		h.no_systemd = 1;
		h.top_magic = layout_magic();
		if (cgroup_home_setup_from(&h, mi_v2, "0::/lab\n") == 0 &&
		    cgroup_home_available(&h, err, sizeof err) == 0)
			c = 'r';
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			_exit(2);
		if (c == 'd')
			cgroup_home_done(&h);
		_exit(0);
	}
	close(a[1]);
	close(b[0]);
	*ready = a[0];
	*go = b[1];
	return pid;
}

static void wait_ready(int ready)
{
	char c = 0;
	assert_int_equal(read(ready, &c, 1), 1);
	assert_int_equal(c, 'r');
}

static void reap(pid_t pid)
{
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
}

static int markers_left(const char *run)
{
	char cmd[4200], buf[64];
	snprintf(cmd, sizeof cmd, "ls '%s' | grep -c '^subtree-'", run);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	buf[0] = '\0';
	if (!fgets(buf, sizeof buf, p))
		buf[0] = '\0';
	pclose(p);
	return atoi(buf);
}

/* Two lrutops at the top: A enables memory; B, started later, finds it on
 * and enables nothing, but writes its marker all the same ("uses
 * memory"), so A's exit hands B the duty instead of turning memory off
 * under B's run cgroups; B's exit then turns it off. */
static void test_home_two(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], buf[1024], err[600], mark[8192];
	int ready, go;
	(void)state;

	if (geteuid() != 0)
		skip();
	home_lab(&h, run, sizeof run, top, sizeof top);
	if (cgroup_home_available(&h, err, sizeof err) < 0)
		fail_msg("%s", err);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "+memory");
	put("sys/fs/cgroup/cgroup.subtree_control", "memory\n"); /* what the kernel shows */
	pid_t b = second_home(run, &ready, &go);
	wait_ready(ready);
	snprintf(mark, sizeof mark, "%s/subtree-%d", run, (int)b);
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nenabled -\nuses memory\n"));
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "memory\n"); /* B wrote nothing there */
	cgroup_home_done(&h);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "memory\n"); /* B still runs: memory stays on */
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nenabled memory\nuses memory\n"));
	assert_int_equal(write(go, "d", 1), 1);
	reap(b);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "-memory");
	assert_int_equal(markers_left(run), 0);
	close(ready);
	close(go);
}

/* A duty handed over is kept: B enabled memory and is SIGKILLed; A, which
 * uses memory, takes the duty over when it next enables something (io,
 * on already), and its exit turns memory off. */
static void test_home_inherit(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], buf[1024], err[600], mark[8192];
	int ready, go;
	(void)state;

	if (geteuid() != 0)
		skip();
	home_lab(&h, run, sizeof run, top, sizeof top);
	pid_t b = second_home(run, &ready, &go);
	wait_ready(ready);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "+memory"); /* B enabled it */
	put("sys/fs/cgroup/cgroup.subtree_control", "memory\n");
	if (cgroup_home_available(&h, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(kill(b, SIGKILL), 0);
	reap(b);
	put("sys/fs/cgroup/cgroup.subtree_control", "memory io\n");
	if (cgroup_home_io_available(&h, err, sizeof err) < 0)
		fail_msg("%s", err);
	snprintf(mark, sizeof mark, "%s/subtree-%d", run, (int)getpid());
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nenabled memory\nuses memory io\n"));
	cgroup_home_done(&h);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "-memory");
	assert_int_equal(markers_left(run), 0);
	close(ready);
	close(go);
}

/* A marker from another boot speaks of a top that has been rebuilt since:
 * it goes, and nothing is written into this boot's top. */
static void test_home_other_boot(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], buf[1024], text[8192];
	(void)state;

	if (geteuid() != 0)
		skip();
	home_lab(&h, run, sizeof run, top, sizeof top);
	put("sys/fs/cgroup/cgroup.subtree_control", "memory io\n");
	snprintf(text, sizeof text,
		 "lrutop-subtree 1\npid %d\nstart 1\nboot 00000000-other-boot\ndir "
		 "%s/sys/fs/cgroup\nenabled memory io\nuses memory io\n",
		 (int)getppid(), root);
	char name[64];
	snprintf(name, sizeof name, "run/lrutop/subtree-%d", (int)getppid());
	put(name, text);
	long pid = 0;
	int restored = -1;
	cgroup_home_reap(&h, &pid, &restored);
	assert_int_equal(restored, 0);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "memory io\n");
	assert_int_equal(markers_left(run), 0);
}

/* The layout's top is a plain directory, not cgroup2, when top_magic is
 * left as cgroup_home_init sets it (cgroup2's): a gone owner's marker of it
 * is set aside with one warning naming it, and nothing is written there.
 * A debugfs marker whose directory is no debugfs (a tmpfs, statfs says so)
 * has nothing mounted to give back: nothing is unmounted, it goes. */
static void test_home_not_cgroup2(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], buf[1024], text[8192], name[64], w[4400];
	(void)state;

	if (geteuid() != 0)
		skip();
	home_lab(&h, run, sizeof run, top, sizeof top);
	h.top_magic = CGROUP2_SUPER_MAGIC;
	put("sys/fs/cgroup/cgroup.subtree_control", "memory io\n");
	long dead = 1048601; /* 4x above PID_MAX_LIMIT (4194304): no such process */
	char boot[64];
	scratch_boot_id(boot, sizeof boot);
	snprintf(
	    text, sizeof text,
	    "lrutop-subtree 1\npid %ld\nstart 1\nboot %s\ndir %s/sys/fs/cgroup\nenabled memory "
	    "io\nuses memory io\n",
	    dead * 4, boot, root);
	snprintf(name, sizeof name, "run/lrutop/subtree-%ld", dead * 4);
	put(name, text);
	char dir[4096];
	snprintf(dir, sizeof dir, "%s/sys/kernel/debug", root);
	put("sys/kernel/debug/.keep", "");
	assert_int_equal(mount("none", dir, "tmpfs", 0, "size=64k"), 0);
	snprintf(text, sizeof text,
		 "lrutop-subtree 1\npid %ld\nstart 1\nboot %s\ndir %s\nenabled debugfs\nuses "
		 "debugfs\n",
		 dead * 4 + 1, boot, dir);
	snprintf(name, sizeof name, "run/lrutop/mount-%ld", dead * 4 + 1);
	put(name, text);
	long pid = 0;
	int restored = -1;
	cgroup_home_reap(&h, &pid, &restored);
	int still = mounted_at(dir);
	umount2(dir, MNT_DETACH);
	assert_true(still);
	assert_int_equal(restored, 0);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "memory io\n");
	char path[8192];
	snprintf(path, sizeof path, "%s/subtree-%ld.bad", run, dead * 4);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof path, "%s/mount-%ld", run, dead * 4 + 1);
	assert_int_equal(access(path, F_OK), -1); /* valid, and moot */
	cgroup_home_take_warnings(&h, w, sizeof w);
	snprintf(text, sizeof text,
		 "%s/subtree-%ld: its dir %s/sys/fs/cgroup is not a cgroup2 filesystem; moved "
		 "aside to subtree-%ld.bad, nothing done by it",
		 run, dead * 4, root, dead * 4);
	assert_string_equal(w, text);
}

/* cgroup_home_done that cannot get the lock (another lrutop holds it past
 * the bound) leaves its marker for the next start's reap and touches
 * nothing. */
static void test_home_done_unlocked(void **state)
{
	struct cgroup_home h;
	char run[4096], top[4096], buf[1024], err[600], lock[4200];
	(void)state;

	if (geteuid() != 0)
		skip();
	home_lab(&h, run, sizeof run, top, sizeof top);
	if (cgroup_home_available(&h, err, sizeof err) < 0)
		fail_msg("%s", err);
	put("sys/fs/cgroup/cgroup.subtree_control", "memory\n");
	snprintf(lock, sizeof lock, "%s/lock", run);
	int fd = open(lock, O_RDWR | O_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0); /* another open: it conflicts */
	cgroup_home_done(&h);
	slurp_into(top, buf, sizeof buf);
	assert_string_equal(buf, "memory\n");
	assert_int_equal(markers_left(run), 1);
	close(fd);
}

/* 1 while dir is a mount point (not on its parent's device). */
static int mounted_at(const char *dir)
{
	char parent[4200];
	struct stat a, b;
	snprintf(parent, sizeof parent, "%s/..", dir);
	return stat(dir, &a) == 0 && stat(parent, &b) == 0 && a.st_dev != b.st_dev;
}

/* A second lrutop, forked, whose sampler mounted dir: its marker is
 * written, 'r' said on *ready; then 'd' on go runs cgroup_home_done, EOF
 * just exits (as after a SIGKILL). */
static pid_t second_mount(const char *run, const char *dir, int *ready, int *go)
{
	int a[2], b[2];
	assert_int_equal(pipe(a), 0);
	assert_int_equal(pipe(b), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct cgroup_home h;
		char err[600], c = 'f';
		close(a[0]);
		close(b[1]);
		cgroup_home_init(&h, root, run);
		h.debugfs_magic = TMPFS_MAGIC;
		if (cgroup_home_mark_mount(&h, dir, 1, err, sizeof err) == 0)
			c = 'r';
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			_exit(2);
		if (c == 'd')
			cgroup_home_done(&h);
		_exit(0);
	}
	close(a[1]);
	close(b[0]);
	*ready = a[0];
	*go = b[1];
	return pid;
}

/* debugfs an lrutop mounted (a tmpfs stands in: a real mount all the
 * same): it leaves while another lrutop uses it -> still mounted, the
 * duty handed over, the other's exit unmounts it; one that is SIGKILLed
 * -> the next start's reap unmounts it. */
static void test_home_mount(void **state)
{
	struct cgroup_home h;
	char run[4096], dir[4096], buf[1024], err[600], mark[8192];
	int ready, go;
	(void)state;

	if (geteuid() != 0)
		skip(); /* to mount */
	snprintf(run, sizeof run, "%s/run/lrutop", root);
	snprintf(dir, sizeof dir, "%s/sys/kernel/debug", root);
	put("run/.keep", "");
	put("sys/kernel/.keep", "");
	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mount("none", dir, "tmpfs", 0, "size=64k"), 0);
	pid_t b = second_mount(run, dir, &ready, &go);
	wait_ready(ready);
	cgroup_home_init(&h, root, run);
	h.debugfs_magic = TMPFS_MAGIC;
	if (cgroup_home_mark_mount(&h, dir, 0, err, sizeof err) < 0)
		fail_msg("%s", err);
	assert_int_equal(write(go, "d", 1), 1);
	reap(b);
	close(ready);
	close(go);
	assert_true(mounted_at(dir)); /* we still use it */
	snprintf(mark, sizeof mark, "%s/mount-%d", run, (int)getpid());
	slurp_into(mark, buf, sizeof buf);
	assert_non_null(strstr(buf, "\nenabled debugfs\nuses debugfs\n"));
	cgroup_home_done(&h);
	assert_false(mounted_at(dir));
	assert_int_equal(access(mark, F_OK), -1);

	assert_int_equal(mount("none", dir, "tmpfs", 0, "size=64k"), 0);
	b = second_mount(run, dir, &ready, &go);
	wait_ready(ready);
	assert_int_equal(kill(b, SIGKILL), 0);
	reap(b);
	close(ready);
	close(go);
	assert_true(mounted_at(dir));
	cgroup_home_init(&h, root, run);
	h.debugfs_magic = TMPFS_MAGIC;
	long pid = 0;
	cgroup_home_reap(&h, &pid, NULL);
	int still = mounted_at(dir);
	if (still)
		umount2(dir, MNT_DETACH);
	assert_false(still);
	assert_int_equal(markers_left(run), 0);
	snprintf(mark, sizeof mark, "%s/mount-%d", run, (int)b);
	assert_int_equal(access(mark, F_OK), -1);
}

/* The scope systemd delegated: lrutop moves into its leaf "monitor" and
 * enables memory and io in the scope's own cgroup.subtree_control; a
 * scope without memory is named as such. */
static void test_home_scope(void **state)
{
	struct cgroup_home h;
	char scope[4096], want[8192], buf[256], err[600];
	(void)state;

	const char *s = "sys/fs/cgroup/user.slice/user-0.slice/lrutop-1.scope";
	char f[4200];
	snprintf(f, sizeof f, "%s/cgroup.controllers", s);
	put(f, "cpu io memory pids\n");
	snprintf(f, sizeof f, "%s/cgroup.subtree_control", s);
	put(f, "");
	snprintf(f, sizeof f, "%s/monitor/cgroup.procs", s);
	put(f, "");
	snprintf(scope, sizeof scope, "%s/%s", root, s);
	cgroup_home_init(&h, root, "/nonexistent");
	assert_int_equal(cgroup_home_adopt_scope(&h, scope, err, sizeof err), 0);
	assert_int_equal(h.mode, CGROUP_MODE_SCOPE);
	assert_int_equal(h.base.version, 2);
	assert_int_equal(h.base.io_version, 2);
	assert_string_equal(h.base.dir, scope);
	assert_string_equal(h.base.io_dir, scope);
	snprintf(want, sizeof want, "%s/monitor/cgroup.procs", scope);
	assert_int_equal(atoi(get(want, buf, sizeof buf)), (int)getpid());
	snprintf(want, sizeof want, "%s/cgroup.subtree_control", scope);
	assert_string_equal(get(want, buf, sizeof buf), "+io");
	assert_int_equal(cgroup_home_available(&h, err, sizeof err), 0);

	/* the user manager delegated pids and cpu only */
	snprintf(f, sizeof f, "%s/cgroup.controllers", s);
	put(f, "cpu pids\n");
	cgroup_home_init(&h, root, "/nonexistent");
	assert_int_equal(cgroup_home_adopt_scope(&h, scope, err, sizeof err), -1);
	h.tried = 1;
	assert_int_equal(cgroup_home_available(&h, err, sizeof err), -1);
	snprintf(want, sizeof want,
		 "systemd delegated %s without the memory controller (its cgroup.controllers: cpu "
		 "pids)",
		 scope);
	assert_non_null(strstr(err, want));
	assert_int_equal(cgroup_home_io_available(&h, err, sizeof err), -1);
	assert_non_null(strstr(err, "without the io controller"));
}

/* Where systemd manages the tree and will not delegate (this machine has
 * busctl but no systemd bus): the message names that, never "needs root"
 * to root; and nothing was written anywhere. */
static void test_home_systemd_refused(void **state)
{
	struct cgroup_home h;
	char err[600], buf[256], want[8192];
	(void)state;

	put("run/systemd/system/.keep", "");
	put("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
	put("sys/fs/cgroup/cgroup.subtree_control", "cpu io memory pids\n");
	put("sys/fs/cgroup/user.slice/cgroup.subtree_control", "cpu io memory pids\n");
	put("sys/fs/cgroup/user.slice/user-0.slice/cgroup.subtree_control", "cpu io memory pids\n");
	put("sys/fs/cgroup/user.slice/user-0.slice/session-1.scope/cgroup.subtree_control", "");
	cgroup_home_init(&h, root, "/nonexistent");
	if (access("/run/systemd/system", F_OK) == 0)
		skip(); /* a real systemd would answer */
	assert_int_equal(
	    cgroup_home_setup_from(&h, mi_v2, "0::/user.slice/user-0.slice/session-1.scope\n"), -1);
	assert_int_equal(cgroup_home_available(&h, err, sizeof err), -1);
	if (geteuid() == 0) {
		assert_null(strstr(err, "needs root"));
		assert_non_null(strstr(err,
				       "--mem-limit: cgroup v2 under systemd: "
				       "/user.slice/user-0.slice/session-1.scope is systemd's, "
				       "and systemd did not delegate a scope to lrutop: "));
		assert_int_equal(cgroup_home_io_available(&h, err, sizeof err), -1);
		assert_non_null(strstr(err, "--disk-limit: cgroup v2 under systemd: "));
	} else {
		assert_non_null(strstr(err,
				       "--mem-limit needs root, or a systemd user manager that "
				       "delegates the memory controller (cgroup v2 under "
				       "systemd: "));
	}
	snprintf(want, sizeof want,
		 "%s/sys/fs/cgroup/user.slice/user-0.slice/cgroup.subtree_control", root);
	assert_string_equal(get(want, buf, sizeof buf), "cpu io memory pids\n");
}

/* The next start after a SIGKILL: a scope whose lrutop is gone loses
 * what is inside (systemd then removes the emptied scope); ours stays. */
static void test_reap_scopes(void **state)
{
	char slice[4096], path[8192];
	long pid = 0;
	(void)state;

	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(slice, sizeof slice, "%s/user-0.slice", root);
	const char *dirs[] = {"lrutop-%d.scope", "lrutop-%d.scope/monitor",
			      "lrutop-%d.scope/lrutop-%d-run1"};
	for (size_t i = 0; i < 3; i++) {
		char rel[128];
		snprintf(rel, sizeof rel, dirs[i], (int)dead, (int)dead);
		snprintf(path, sizeof path, "%s/%s", slice, rel);
		assert_int_equal(system(strcat(strcpy((char[8300]){0}, "mkdir -p "), path)), 0);
		snprintf(rel, sizeof rel, dirs[i], (int)getpid(), (int)getpid());
		snprintf(path, sizeof path, "%s/%s", slice, rel);
		assert_int_equal(system(strcat(strcpy((char[8300]){0}, "mkdir -p "), path)), 0);
	}
	snprintf(path, sizeof path, "%s/session-1.scope", slice);
	mkdir(path, 0755);
	/* named so, with a run cgroup's name inside, but without the monitor
	 * leaf lrutop makes first thing in its scope: not lrutop's, kept */
	char other[8192];
	snprintf(other, sizeof other, "%s/lrutop-%d.scope/lrutop-%d-run1", slice, (int)dead + 1,
		 (int)dead + 1);
	assert_int_equal(system(strcat(strcpy((char[8300]){0}, "mkdir -p "), other)), 0);
	assert_int_equal(cgroup_reap_scopes(slice, &pid), 1);
	assert_int_equal(access(other, F_OK), 0);
	assert_int_equal(pid, dead);
	snprintf(path, sizeof path, "%s/lrutop-%d.scope/monitor", slice, (int)dead);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof path, "%s/lrutop-%d.scope/lrutop-%d-run1", slice, (int)dead,
		 (int)dead);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof path, "%s/lrutop-%d.scope/monitor", slice, (int)getpid());
	assert_int_equal(access(path, F_OK), 0);
	snprintf(path, sizeof path, "%s/session-1.scope", slice);
	assert_int_equal(access(path, F_OK), 0);
	assert_int_equal(cgroup_reap_scopes(slice, &pid), 0);
}

/* An lrutop that is not root, in the scope its user manager delegated:
 * the start-up reap takes the gone lrutop scopes beside it all the same
 * (they are the user's). */
static void test_reap_scopes_user(void **state)
{
	char slice[4096], path[8192], cmd[8400];
	int st;
	(void)state;

	if (geteuid() != 0)
		skip(); /* to become another user */
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	assert_int_equal(waitpid(dead, NULL, 0), dead);
	snprintf(slice, sizeof slice, "%s/sys/fs/cgroup/app.slice", root);
	snprintf(path, sizeof path, "sys/fs/cgroup/app.slice/lrutop-%d.scope/lrutop-%d-run1/x",
		 (int)dead, (int)dead);
	put(path, "");
	snprintf(path, sizeof path, "%s/sys/fs/cgroup/app.slice/lrutop-%d.scope/lrutop-%d-run1/x",
		 root, (int)dead, (int)dead);
	unlink(path);
	snprintf(path, sizeof path, "sys/fs/cgroup/app.slice/lrutop-%d.scope/monitor/x", (int)dead);
	put(path, "");
	snprintf(path, sizeof path, "%s/sys/fs/cgroup/app.slice/lrutop-%d.scope/monitor/x", root,
		 (int)dead);
	unlink(path);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		/* the live one: this child, in lrutop-CHILD.scope */
		char s[512], f[8300], err[600];
		snprintf(s, sizeof s, "sys/fs/cgroup/app.slice/lrutop-%d.scope", (int)getpid());
		snprintf(f, sizeof f, "%s/cgroup.controllers", s);
		put(f, "memory io\n");
		snprintf(f, sizeof f, "%s/cgroup.subtree_control", s);
		put(f, "");
		snprintf(f, sizeof f, "%s/monitor/cgroup.procs", s);
		put(f, "");
		snprintf(f, sizeof f, "chown -R 65534 '%s/sys' && chmod 755 '%s'", root, root);
		if (system(f) != 0 || setgid(65534) < 0 || setuid(65534) < 0)
			_exit(3);
		struct cgroup_home h;
		long pid = 0;
		cgroup_home_init(&h, root, "/nonexistent/lrutop");
		snprintf(f, sizeof f, "%s/%s", root, s);
		if (cgroup_home_adopt_scope(&h, f, err, sizeof err) < 0)
			_exit(4);
		_exit(cgroup_home_reap(&h, &pid, NULL) == 1 && pid == dead ? 0 : 1);
	}
	assert_int_equal(waitpid(child, &st, 0), child);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	snprintf(path, sizeof path, "%s/lrutop-%d.scope/monitor", slice, (int)dead);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof path, "%s/lrutop-%d.scope/monitor", slice, (int)child);
	assert_int_equal(access(path, F_OK), 0);
	snprintf(cmd, sizeof cmd, "chmod 700 '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* The slice a scope beside ours goes in. */
static void test_slice(void **state)
{
	char s[64];
	(void)state;

	assert_int_equal(delegate_slice("/user.slice/user-0.slice/session-1.scope", 0, s, sizeof s),
			 0);
	assert_string_equal(s, "user-0.slice");
	assert_int_equal(delegate_slice("/system.slice/ssh.service", 0, s, sizeof s), 0);
	assert_string_equal(s, "system.slice");
	assert_int_equal(delegate_slice("/system.slice/docker.service/x/y", 0, s, sizeof s), 0);
	assert_string_equal(s, "system.slice");
	/* root by sudo from a user manager's unit: the system manager's slice
	 * is the last of the leading .slice run, not the user's app.slice */
	assert_int_equal(delegate_slice("/user.slice/user-1000.slice/user@1000.service/app.slice/"
					"app-X.scope",
					0, s, sizeof s),
			 0);
	assert_string_equal(s, "user-1000.slice");
	assert_int_equal(
	    delegate_slice("/machine.slice/c.scope/inner.slice/x.scope", 0, s, sizeof s), 0);
	assert_string_equal(s, "machine.slice");
	assert_int_equal(delegate_slice("/init.scope", 0, s, sizeof s), 0);
	assert_string_equal(s, "-.slice");
	assert_int_equal(delegate_slice("/user.slice/user-1000.slice/user@1000.service/app.slice/"
					"app-foo.scope",
					1, s, sizeof s),
			 0);
	assert_string_equal(s, "app.slice");
	assert_int_equal(delegate_slice("/user.slice/user-1000.slice/user@1000.service/init.scope",
					1, s, sizeof s),
			 0);
	assert_string_equal(s, "-.slice");
	/* a login session is the system manager's: not the user's to name */
	assert_int_equal(
	    delegate_slice("/user.slice/user-1000.slice/session-2.scope", 1, s, sizeof s), -1);
	assert_int_equal(delegate_slice("/a.slice/b.scope", 0, s, 4), -1);
	char u[64];
	delegate_unit_name(123, u, sizeof u);
	assert_string_equal(u, "lrutop-123.scope");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_find_v2, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_find_v1, setup, teardown),
	    cmocka_unit_test(test_find_real),
	    cmocka_unit_test_setup_teardown(test_v2_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_v1_files, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_v2_io, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_v1_io, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reap, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_ancestor, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_top, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_two, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_inherit, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_other_boot, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_not_cgroup2, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_done_unlocked, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_mount, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_scope, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_home_systemd_refused, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reap_scopes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reap_scopes_user, setup, teardown),
	    cmocka_unit_test(test_slice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
