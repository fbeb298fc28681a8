#include "sampling/sampler.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libproc2/diskstats.h>
#include <libproc2/meminfo.h>
#include <libproc2/pids.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "sampling/kvfile.h"
#include "sampling/lru_gen.h"
#include "sampling/machine.h"
#include "base/util.h"

_Static_assert(SAMPLE_GENS == LRU_GEN_MAX, "a sample holds every generation lru_gen gives");

#define DEBUGFS SAMPLER_DEBUGFS

/* Item lists: the position in each list is the index used below, so the
 * enums beside them must stay in the same order. */
static enum meminfo_item mem_items[] = {
	MEMINFO_MEM_TOTAL,	 MEMINFO_MEM_FREE,	  MEMINFO_MEM_AVAILABLE,
	MEMINFO_MEM_ACTIVE,	 MEMINFO_MEM_INACTIVE,	  MEMINFO_MEM_ACTIVE_FILE,
	MEMINFO_MEM_INACTIVE_FILE, MEMINFO_MEM_ACTIVE_ANON, MEMINFO_MEM_INACTIVE_ANON,
	MEMINFO_MEM_CACHED,	 MEMINFO_MEM_DIRTY,	  MEMINFO_MEM_WRITEBACK,
	MEMINFO_SWAP_TOTAL,	 MEMINFO_SWAP_FREE,
};
enum { M_TOTAL, M_FREE, M_AVAIL, M_ACT, M_INACT, M_ACTF, M_INACTF, M_ACTA, M_INACTA, M_CACHED,
       M_DIRTY, M_WB, M_SWT, M_SWF, M_N };

/* The by-type scan and steal counters (kernel 5.8+) are libproc2 items
 * too; on an older kernel they read 0, and the workingset keys below (5.9+)
 * are absent, which is what SAMPLE_HAVE_VMX goes by. */
static enum vmstat_item vm_items[] = {
	VMSTAT_PGACTIVATE,    VMSTAT_PGDEACTIVATE,   VMSTAT_PGSCAN_KSWAPD, VMSTAT_PGSCAN_DIRECT,
	VMSTAT_PGSTEAL_KSWAPD, VMSTAT_PGSTEAL_DIRECT, VMSTAT_PGMAJFAULT,	   VMSTAT_PGPGIN,
	VMSTAT_PGPGOUT,	      VMSTAT_PSWPIN,	     VMSTAT_PSWPOUT,	   VMSTAT_PGSCAN_FILE,
	VMSTAT_PGSCAN_ANON,   VMSTAT_PGSTEAL_FILE,   VMSTAT_PGSTEAL_ANON,
};
enum { V_ACT, V_DEACT, V_SCANK, V_SCAND, V_STEALK, V_STEALD, V_MAJ, V_PGIN, V_PGOUT, V_SWIN,
       V_SWOUT, V_SCANF, V_SCANA, V_STEALF, V_STEALA, V_N };

/* The vmstat keys libproc2 4.0.x has no items for (docs/libproc2.md §4, §9; its
 * VMSTAT_WORKINGSET_REFAULT is the pre-5.9 name).  They are node counters,
 * so each NUMA node's vmstat file in sysfs has them too: summing those
 * leaves /proc/vmstat to libproc2 alone (one read a tick), and a node file
 * is cheaper for the kernel to print (no per-CPU event sums).  Without
 * node files (CONFIG_NUMA=n) they are read from /proc/vmstat after all. */
static const char *const vmx_keys[] = {"workingset_refault_file", "workingset_activate_file"};
enum { X_REFAULT, X_ACTIVATE, X_N };
#define NODE_DIR "/sys/devices/system/node"
/* More nodes than this: /proc/vmstat is cheaper than a file per node. */
#define SAMPLER_MAX_NODES 64

static enum stat_item cpu_items[] = {
	STAT_TIC_USER,	 STAT_TIC_NICE,	  STAT_TIC_SYSTEM,	 STAT_TIC_IDLE,
	STAT_TIC_IOWAIT, STAT_TIC_IRQ,	  STAT_TIC_SOFTIRQ,	 STAT_TIC_STOLEN,
	STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
};
enum { C_USER, C_NICE, C_SYS, C_IDLE, C_IOW, C_IRQ, C_SIRQ, C_STEAL, C_INTR, C_CTXT, C_RUN, C_BLK,
       C_N };

static enum diskstats_item disk_items[] = {
	DISKSTATS_NAME,		DISKSTATS_TYPE,		 DISKSTATS_READS,
	DISKSTATS_READS_MERGED, DISKSTATS_READ_SECTORS,	 DISKSTATS_READ_TIME,
	DISKSTATS_WRITES,	DISKSTATS_WRITES_MERGED, DISKSTATS_WRITE_SECTORS,
	DISKSTATS_WRITE_TIME,	DISKSTATS_IO_TIME,	 DISKSTATS_WEIGHTED_TIME,
	DISKSTATS_IO_INPROGRESS, DISKSTATS_MAJOR,	 DISKSTATS_MINOR,
};
enum { D_NAME, D_TYPE, D_RIO, D_RMRG, D_RSEC, D_RMS, D_WIO, D_WMRG, D_WSEC, D_WMS, D_IOMS, D_WTMS,
       D_INFL, D_MAJ, D_MIN, D_N };

/* cgroup memory.stat: v2 names first, v1 names after; whichever exist. */
static const char *const cg_keys[] = {
	"active_file", "inactive_file", "file",	     "cache",	  "pgdeactivate",
	"file_dirty",  "file_writeback", "dirty", "writeback",
};
enum { G_ACTF, G_INACTF, G_FILE, G_CACHE, G_DEACT, G_FDIRTY, G_FWB, G_DIRTY, G_WB, G_N };

_Static_assert(ARRAY_LEN(mem_items) == M_N, "meminfo item list and enum differ");
_Static_assert(ARRAY_LEN(vm_items) == V_N, "vmstat item list and enum differ");
_Static_assert(ARRAY_LEN(vmx_keys) == X_N, "vmstat key list and enum differ");
_Static_assert(ARRAY_LEN(cpu_items) == C_N, "stat item list and enum differ");
_Static_assert(ARRAY_LEN(disk_items) == D_N, "diskstats item list and enum differ");
_Static_assert(ARRAY_LEN(cg_keys) == G_N, "cgroup key list and enum differ");

struct sampler {
	struct meminfo_info *mem;
	struct vmstat_info *vm;
	struct stat_info *st;
	struct diskstats_info *disks;
	struct pids_info *pids; /* made on the first sampler_task_io */
	struct kvfile *vmx[SAMPLER_MAX_NODES]; /* one per node, or /proc/vmstat */
	int nvmx;
	struct kvfile *psi_mem, *psi_io, *cg_stat, *cg_usage;
	uint64_t cg_limit;
	/* MGLRU's generations: debugfs lru_gen (-1: not read), the memcg
	 * directory wanted ("" the system), 1 when we mounted debugfs (and
	 * unmount it in sampler_free), a buffer of its lines */
	int lg_fd;
	int lg_mounted;
	int mglru; /* machine_mglru at sampler_new */
	char lg_want[4096];
	char lg_buf[16384];
	char disk[64];
	uint32_t disk_id; /* major<<20|minor of the watched disk as last seen */
	uint32_t disk_gen;
	unsigned long nreads;
	struct disktab tab; /* every device, from the last sampler_read */
	char missing[256];
};

static void note_missing(struct sampler *s, const char *what)
{
	size_t len = strlen(s->missing);
	snprintf(s->missing + len, sizeof(s->missing) - len, "%s%s", len ? "; " : "", what);
}

/* MGLRU on: its generations from debugfs, mounting it (read-only) when
 * root finds it absent; what fails is said in sampler_missing. */
static void open_lru_gen(struct sampler *s)
{
	s->lg_fd = open(LRU_GEN_PATH, O_RDONLY | O_CLOEXEC);
	if (s->lg_fd < 0 && errno == ENOENT && geteuid() == 0) {
		struct stat a, b; /* not a mount point: the same device as its parent */
		if (stat(DEBUGFS, &a) == 0 && stat("/sys/kernel", &b) == 0 &&
		    a.st_dev == b.st_dev &&
		    mount("debugfs", DEBUGFS, "debugfs",
			  MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0) {
			s->lg_mounted = 1;
			s->lg_fd = open(LRU_GEN_PATH, O_RDONLY | O_CLOEXEC);
		}
	}
	if (s->lg_fd < 0) {
		char why[160];
		snprintf(why, sizeof(why), "no %s (%s): MGLRU's generations not drawn",
			 LRU_GEN_PATH, strerror(errno));
		note_missing(s, why);
		if (s->lg_mounted && umount2(DEBUGFS, 0) == 0)
			s->lg_mounted = 0;
	}
}

/* vmx_keys' files: every NUMA node's vmstat, or /proc/vmstat when there
 * are none (or more than SAMPLER_MAX_NODES). */
static void open_vmx(struct sampler *s)
{
	DIR *d = opendir(NODE_DIR);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char path[sizeof(NODE_DIR) + 300];
		unsigned node;
		char end;
		if (sscanf(e->d_name, "node%u%c", &node, &end) != 1)
			continue;
		snprintf(path, sizeof(path), "%s/%s/vmstat", NODE_DIR, e->d_name);
		struct kvfile *kv = kvfile_open(path, vmx_keys, X_N, NULL, 0);
		if (!kv)
			continue;
		if (s->nvmx == SAMPLER_MAX_NODES) {
			kvfile_free(kv);
			s->nvmx = SAMPLER_MAX_NODES + 1;
			break;
		}
		s->vmx[s->nvmx++] = kv;
	}
	if (d)
		closedir(d);
	if (s->nvmx > 0 && s->nvmx <= SAMPLER_MAX_NODES)
		return;
	for (int i = 0; i < s->nvmx && i < SAMPLER_MAX_NODES; i++)
		kvfile_free(s->vmx[i]);
	s->vmx[0] = kvfile_open("/proc/vmstat", vmx_keys, X_N, NULL, 0);
	s->nvmx = s->vmx[0] != NULL;
}

struct sampler *sampler_new(const char *disk, char *err, size_t errlen)
{
	struct sampler *s = xcalloc(1, sizeof(*s));
	int rc = procps_meminfo_new(&s->mem);
	if (rc < 0) {
		errf(err, errlen, "/proc/meminfo: %s", strerror(-rc));
		free(s);
		return NULL;
	}
	if (procps_vmstat_new(&s->vm) < 0)
		note_missing(s, "no /proc/vmstat");
	if (procps_stat_new(&s->st) < 0)
		note_missing(s, "no /proc/stat");
	if (procps_diskstats_new(&s->disks) < 0)
		note_missing(s, "no /proc/diskstats");
	open_vmx(s);
	s->psi_mem = kvfile_open("/proc/pressure/memory", NULL, 0, NULL, 0);
	s->psi_io = kvfile_open("/proc/pressure/io", NULL, 0, NULL, 0);
	if (!s->psi_mem || !s->psi_io)
		note_missing(s, "no /proc/pressure (kernel without PSI)");
	s->lg_fd = -1;
	s->mglru = machine_mglru(NULL);
	if (s->mglru)
		open_lru_gen(s);
	if (disk)
		strlcpy_(s->disk, disk, sizeof(s->disk));
	return s;
}

void sampler_free(struct sampler *s)
{
	if (!s)
		return;
	if (s->mem)
		procps_meminfo_unref(&s->mem);
	if (s->vm)
		procps_vmstat_unref(&s->vm);
	if (s->st)
		procps_stat_unref(&s->st);
	if (s->disks)
		procps_diskstats_unref(&s->disks);
	if (s->pids)
		procps_pids_unref(&s->pids);
	for (int i = 0; i < s->nvmx; i++)
		kvfile_free(s->vmx[i]);
	kvfile_free(s->psi_mem);
	kvfile_free(s->psi_io);
	kvfile_free(s->cg_stat);
	kvfile_free(s->cg_usage);
	if (s->lg_fd >= 0)
		close(s->lg_fd);
	/* what we mounted, we unmount (lazily if someone is reading it) */
	if (s->lg_mounted && umount2(DEBUGFS, 0) < 0)
		(void)umount2(DEBUGFS, MNT_DETACH);
	free(s);
}

int sampler_debugfs_mounted(const struct sampler *s)
{
	return s->lg_mounted;
}

int sampler_debugfs_used(const struct sampler *s)
{
	return s->lg_fd >= 0;
}

void sampler_debugfs_disown(struct sampler *s)
{
	s->lg_mounted = 0;
}

const char *sampler_missing(const struct sampler *s)
{
	return s->missing;
}

const char *sampler_disk(const struct sampler *s)
{
	return s->disk;
}

static void read_mem(struct sampler *s, struct sample *o)
{
	struct meminfo_stack *m = procps_meminfo_select(s->mem, mem_items, M_N);
	if (!m)
		return;
	struct meminfo_result *r = m->head;
	o->mem_total = r[M_TOTAL].result.ul_int;
	o->mem_free = r[M_FREE].result.ul_int;
	o->mem_avail = r[M_AVAIL].result.ul_int;
	o->active = r[M_ACT].result.ul_int;
	o->inactive = r[M_INACT].result.ul_int;
	o->active_file = r[M_ACTF].result.ul_int;
	o->inactive_file = r[M_INACTF].result.ul_int;
	o->active_anon = r[M_ACTA].result.ul_int;
	o->inactive_anon = r[M_INACTA].result.ul_int;
	o->cached = r[M_CACHED].result.ul_int;
	o->dirty = r[M_DIRTY].result.ul_int;
	o->writeback = r[M_WB].result.ul_int;
	o->swap_total = r[M_SWT].result.ul_int;
	o->swap_free = r[M_SWF].result.ul_int;
	o->have |= SAMPLE_HAVE_MEM;
}

static void read_vm(struct sampler *s, struct sample *o)
{
	struct vmstat_stack *v = s->vm ? procps_vmstat_select(s->vm, vm_items, V_N) : NULL;
	if (v) {
		struct vmstat_result *r = v->head;
		o->pgactivate = r[V_ACT].result.ul_int;
		o->pgdeactivate = r[V_DEACT].result.ul_int;
		o->pgscan_kswapd = r[V_SCANK].result.ul_int;
		o->pgscan_direct = r[V_SCAND].result.ul_int;
		o->pgsteal_kswapd = r[V_STEALK].result.ul_int;
		o->pgsteal_direct = r[V_STEALD].result.ul_int;
		o->pgmajfault = r[V_MAJ].result.ul_int;
		o->pgpgin = r[V_PGIN].result.ul_int;
		o->pgpgout = r[V_PGOUT].result.ul_int;
		o->pswpin = r[V_SWIN].result.ul_int;
		o->pswpout = r[V_SWOUT].result.ul_int;
		o->have |= SAMPLE_HAVE_VM;
	}
	/* All six or nothing: the workingset keys (5.9+) imply the by-type
	 * scan and steal counters (5.8+), which libproc2 reads as 0 when the
	 * kernel lacks them. */
	uint64_t sum[X_N] = {0};
	if (!v || s->nvmx == 0)
		return;
	for (int i = 0; i < s->nvmx; i++) {
		uint64_t x[X_N];
		if (kvfile_read(s->vmx[i], x) != X_N)
			return;
		for (int k = 0; k < X_N; k++)
			sum[k] += x[k];
	}
	struct vmstat_result *r = v->head;
	o->pgscan_file = r[V_SCANF].result.ul_int;
	o->pgscan_anon = r[V_SCANA].result.ul_int;
	o->pgsteal_file = r[V_STEALF].result.ul_int;
	o->pgsteal_anon = r[V_STEALA].result.ul_int;
	o->refault_file = sum[X_REFAULT];
	o->activate_file = sum[X_ACTIVATE];
	o->have |= SAMPLE_HAVE_VMX;
}

static void read_cpu(struct sampler *s, struct sample *o)
{
	struct stat_stack *c = s->st ? procps_stat_select(s->st, cpu_items, C_N) : NULL;
	if (!c)
		return;
	struct stat_result *r = c->head;
	o->cpu_user = r[C_USER].result.ull_int;
	o->cpu_nice = r[C_NICE].result.ull_int;
	o->cpu_sys = r[C_SYS].result.ull_int;
	o->cpu_idle = r[C_IDLE].result.ull_int;
	o->cpu_iowait = r[C_IOW].result.ull_int;
	o->cpu_irq = r[C_IRQ].result.ull_int;
	o->cpu_softirq = r[C_SIRQ].result.ull_int;
	o->cpu_steal = r[C_STEAL].result.ull_int;
	o->intr = r[C_INTR].result.ul_int;
	o->ctxt = r[C_CTXT].result.ul_int;
	o->procs_running = (uint32_t)r[C_RUN].result.ul_int;
	o->procs_blocked = (uint32_t)r[C_BLK].result.ul_int;
	o->have |= SAMPLE_HAVE_CPU;
}

static void fill_counters(struct disk_counters *d, struct diskstats_result *r)
{
	strlcpy_(d->name, r[D_NAME].result.str, sizeof(d->name));
	d->is_disk = r[D_TYPE].result.s_int == DISKSTATS_TYPE_DISK;
	d->rd_ios = r[D_RIO].result.ul_int;
	d->rd_merges = r[D_RMRG].result.ul_int;
	d->rd_sectors = r[D_RSEC].result.ul_int;
	d->rd_ms = r[D_RMS].result.ul_int;
	d->wr_ios = r[D_WIO].result.ul_int;
	d->wr_merges = r[D_WMRG].result.ul_int;
	d->wr_sectors = r[D_WSEC].result.ul_int;
	d->wr_ms = r[D_WMS].result.ul_int;
	d->io_ms = r[D_IOMS].result.ul_int;
	d->weighted_ms = r[D_WTMS].result.ul_int;
	d->in_flight = (uint32_t)r[D_INFL].result.s_int;
}

static int disk_cmp(const void *a, const void *b)
{
	const struct disk_counters *x = a, *y = b;
	if (x->is_disk != y->is_disk)
		return y->is_disk - x->is_disk;
	return strcmp(x->name, y->name);
}

/* One read of /proc/diskstats per tick serves both the watched disk and the
 * iostat table.  reap keeps listing a device that has gone (docs/libproc2.md §7
 * pitfall 4), so every DISK_PRUNE_EVERY reads a select on the watched name
 * lets the library notice and prune it. */
#define DISK_PRUNE_EVERY 16
static void read_disks(struct sampler *s, struct sample *o)
{
	s->tab.n = 0;
	if (!s->disks)
		return;
	if (s->disk[0] && s->nreads++ % DISK_PRUNE_EVERY == 0 &&
	    !procps_diskstats_select(s->disks, s->disk, disk_items, D_N))
		s->disk_id = 0; /* ENXIO: gone; a re-created one starts afresh */
	struct diskstats_reaped *rp = procps_diskstats_reap(s->disks, disk_items, D_N);
	if (!rp)
		return;
	s->tab.t_ns = mono_ns();
	struct diskstats_result *watched = NULL;
	for (int i = 0; i < rp->total; i++) {
		struct diskstats_result *r = rp->stacks[i]->head;
		if (s->tab.n < DISKTAB_MAX)
			fill_counters(&s->tab.dev[s->tab.n++], r);
		if (s->disk[0] && strcmp(r[D_NAME].result.str, s->disk) == 0)
			watched = r;
	}
	qsort(s->tab.dev, (size_t)s->tab.n, sizeof(s->tab.dev[0]), disk_cmp);
	if (!watched)
		return;
	uint32_t id = (uint32_t)watched[D_MAJ].result.s_int << 20 |
		      (uint32_t)watched[D_MIN].result.s_int;
	if (id != s->disk_id) {
		s->disk_id = id;
		s->disk_gen++;
	}
	o->rd_ios = watched[D_RIO].result.ul_int;
	o->rd_sectors = watched[D_RSEC].result.ul_int;
	o->wr_ios = watched[D_WIO].result.ul_int;
	o->wr_sectors = watched[D_WSEC].result.ul_int;
	o->io_ms = watched[D_IOMS].result.ul_int;
	o->in_flight = (uint32_t)watched[D_INFL].result.s_int;
	o->disk_id = s->disk_gen;
	o->have |= SAMPLE_HAVE_DISK;
}

static void read_psi(struct sampler *s, struct sample *o)
{
	struct psi p;
	if (s->psi_mem && kvfile_read_psi(s->psi_mem, &p) == 0) {
		o->psi_mem_some = (float)p.some_avg10;
		o->psi_mem_full = (float)p.full_avg10;
		o->psi_mem_some_us = p.some_total;
		o->have |= SAMPLE_HAVE_PSI_MEM;
	}
	if (s->psi_io && kvfile_read_psi(s->psi_io, &p) == 0) {
		o->psi_io_some = (float)p.some_avg10;
		o->psi_io_full = (float)p.full_avg10;
		o->psi_io_some_us = p.some_total;
		o->have |= SAMPLE_HAVE_PSI_IO;
	}
}

static uint64_t or_zero(uint64_t v)
{
	return v == KVFILE_MISSING ? 0 : v;
}

static void read_cgroup(struct sampler *s, struct sample *o)
{
	uint64_t g[G_N], usage;
	if (!s->cg_stat || kvfile_read(s->cg_stat, g) < 2 || g[G_ACTF] == KVFILE_MISSING)
		return;
	if (kvfile_read_number(s->cg_usage, &usage) < 0)
		return;
	o->cg_active_file = g[G_ACTF];
	o->cg_inactive_file = or_zero(g[G_INACTF]);
	o->cg_cache = g[G_FILE] != KVFILE_MISSING ? g[G_FILE] : or_zero(g[G_CACHE]);
	o->cg_pgdeactivate = or_zero(g[G_DEACT]);
	o->cg_dirty = g[G_FDIRTY] != KVFILE_MISSING ? g[G_FDIRTY] + or_zero(g[G_FWB])
						      : or_zero(g[G_DIRTY]) + or_zero(g[G_WB]);
	if (g[G_DEACT] != KVFILE_MISSING)
		o->have |= SAMPLE_HAVE_CG_DEACT;
	o->cg_usage = or_zero(usage);
	o->cg_limit = s->cg_limit;
	o->have |= SAMPLE_HAVE_CG;
}

/* The generations of the run's memcg (or all), read in pieces of lg_buf:
 * the file grows with the number of cgroups. */
static void read_lru_gen(struct sampler *s, struct sample *o)
{
	if (s->lg_fd < 0)
		return;
	struct lru_gen_parser p;
	lru_gen_begin(&p, s->lg_want[0] ? s->lg_want : NULL);
	char err[128];
	size_t have = 0;
	off_t off = 0;
	for (;;) {
		ssize_t n = pread(s->lg_fd, s->lg_buf + have, sizeof(s->lg_buf) - have, off);
		if (n < 0)
			return;
		off += n;
		have += (size_t)n;
		char *line = s->lg_buf, *end = s->lg_buf + have, *nl;
		while ((nl = memchr(line, '\n', (size_t)(end - line)))) {
			if (lru_gen_line(&p, line, (size_t)(nl - line), err, sizeof(err)) < 0)
				return;
			line = nl + 1;
		}
		have = (size_t)(end - line);
		if (n == 0) { /* the end: a last line without its newline */
			if (have && lru_gen_line(&p, line, have, err, sizeof(err)) < 0)
				return;
			break;
		}
		if (have == sizeof(s->lg_buf))
			return; /* one line longer than the buffer: not this format */
		memmove(s->lg_buf, line, have);
	}
	struct lru_gen g;
	if (lru_gen_end(&p, &g, err, sizeof(err)) < 0)
		return;
	for (int i = 0; i < SAMPLE_GENS; i++)
		o->gen_file[i] = g.file[i];
	o->gen_seq = g.seq;
	o->gen_n = (uint8_t)g.nr_gens;
	o->have |= SAMPLE_HAVE_GEN | (s->lg_want[0] ? SAMPLE_HAVE_GEN_CG : 0);
}

int sampler_read(struct sampler *s, struct sample *out)
{
	memset(out, 0, sizeof(*out));
	out->run = -1;
	read_mem(s, out);
	read_vm(s, out);
	read_disks(s, out);
	read_cpu(s, out);
	read_psi(s, out);
	read_cgroup(s, out);
	read_lru_gen(s, out);
	if (s->mglru)
		out->have |= SAMPLE_HAVE_MGLRU;
	out->t_ns = mono_ns();
	return 0;
}

int sampler_read_disks(struct sampler *s, struct disktab *tab)
{
	if (!s->disks)
		return -1;
	*tab = s->tab;
	return 0;
}

int sampler_set_cgroup(struct sampler *s, const char *stat_path, const char *usage_path,
		       uint64_t limit, char *err, size_t errlen)
{
	kvfile_free(s->cg_stat);
	kvfile_free(s->cg_usage);
	s->cg_stat = s->cg_usage = NULL;
	s->cg_limit = 0;
	s->lg_want[0] = '\0';
	if (!stat_path)
		return 0;
	s->cg_stat = kvfile_open(stat_path, cg_keys, G_N, err, errlen);
	if (!s->cg_stat)
		return -1;
	s->cg_usage = kvfile_open(usage_path, NULL, 0, err, errlen);
	if (!s->cg_usage) {
		kvfile_free(s->cg_stat);
		s->cg_stat = NULL;
		return -1;
	}
	s->cg_limit = limit;
	/* its generations: the memcg whose path ends the cgroup's directory */
	strlcpy_(s->lg_want, stat_path, sizeof(s->lg_want));
	char *slash = strrchr(s->lg_want, '/');
	if (slash)
		*slash = '\0';
	else
		s->lg_want[0] = '\0';
	return 0;
}

int sampler_task_io(struct sampler *s, pid_t pid, uint64_t *write_bytes)
{
	static enum pids_item items[] = {PIDS_IO_WRITE_BYTES};
	if (!s->pids && procps_pids_new(&s->pids, items, 1) < 0) {
		s->pids = NULL;
		return -1;
	}
	unsigned want = (unsigned)pid;
	struct pids_fetch *f = procps_pids_select(s->pids, &want, 1, PIDS_SELECT_PID);
	if (!f || !f->counts || f->counts->total < 1 || !f->stacks || !f->stacks[0])
		return -1;
	*write_bytes = (uint64_t)f->stacks[0]->head[0].result.ul_int;
	return 0;
}

int sampler_pid_start(pid_t pid, unsigned long long *ticks)
{
	static enum pids_item items[] = {PIDS_TICS_BEGAN};
	struct pids_info *info = NULL;
	int rc = -1;
	if (procps_pids_new(&info, items, 1) < 0)
		return -1;
	unsigned want = (unsigned)pid;
	struct pids_fetch *f = procps_pids_select(info, &want, 1, PIDS_SELECT_PID);
	if (f && f->counts && f->counts->total == 1 && f->stacks && f->stacks[0]) {
		*ticks = f->stacks[0]->head[0].result.ull_int;
		rc = 0;
	}
	procps_pids_unref(&info);
	return rc;
}
