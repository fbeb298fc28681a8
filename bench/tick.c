/*
 * bench/tick — what one tick costs, beside the raw pread() floor of the same
 * /proc files measured in the same run (see bench/README.md).
 *
 * Rows, each a median and p99 over N rounds (-n, default 2000):
 *   floor           one pread() per file the sampler reads, fds kept open,
 *                   no parsing: meminfo, vmstat (once, libproc2's), each
 *                   NUMA node's vmstat (kvfile: the workingset counters),
 *                   diskstats (one reap serves the watched disk and the
 *                   iostat table), stat, pressure/memory, io: also the floor
 *                   of a whole tick;
 *   sampler_read    vs the first floor (target <= 1.5x);
 *   sampler_read_disks  vs one diskstats pread;
 *   tick WxH        what app_tick plus a redraw cost: sampler_read +
 *                   series_push + sampler_read_disks + views_draw of the
 *                   overview into a grid (no terminal), at 200x50 (target
 *                   <= 350 us) and 80x24;
 *   cold            (--cold K) floor and 200x50 tick each after 250 ms idle,
 *                   as the TUI runs (target <= 250 us);
 *   allocations     malloc/calloc/realloc calls per tick over 1000 ticks
 *                   after warm-up, the overview and then the Runs view (with
 *                   finished runs in the run log) drawn (target 0, docs/style.md
 *                   rule 4).
 *
 * The measurements are interleaved round-robin, each round starting at the
 * next one, so machine noise and cache warmth fall on all of them alike.
 * A bench reports; it exits 0 whatever it measured unless --strict.
 */
#include <fcntl.h>
#include <glob.h>
#include <malloc.h>

#include "alloc_count.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <libproc2/diskstats.h>
#include <libproc2/meminfo.h>
#include <libproc2/stat.h>
#include <libproc2/vmstat.h>

#include "sampling/device.h"
#include "screen/grid.h"
#include "model/model.h"
#include "model/runlog.h"
#include "sampling/sampler.h"
#include "model/series.h"
#include "model/stats.h"
#include "runs/strategy.h"
#include "screen/ui.h"
#include "base/util.h"
#include "screen/views.h"

#define WARMUP	       100
#define ALLOC_TICKS    1000
#define SAMPLER_TARGET 1.5   /* x floor */
#define TICK_TARGET_US 350.0 /* 200x50 */
#define COLD_TARGET_US 250.0 /* 200x50, after 250 ms idle */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the floor ---------------------------------------------------------- */

/* The reads sampler_read makes without a cgroup (sampler.c), in its order.
 * Checked with strace: each file once — libproc2 reads /proc/vmstat, the
 * two workingset counters it has no items for come from each NUMA node's
 * vmstat file (/proc/vmstat again only without node files); one diskstats
 * reap serves the watched disk and the iostat table (sampler_read_disks
 * copies it; every 16th tick adds a select that lets libproc2 prune a
 * vanished disk, left out here). */
enum { F_MEM, F_VM, F_VMX, F_DISK, F_STAT, F_PSIM, F_PSIIO, F_N };
static const char *const floor_path[F_N] = {
    "/proc/meminfo",	 "/proc/vmstat", "/sys/devices/system/node/node*/vmstat",
    "/proc/diskstats",	 "/proc/stat",	 "/proc/pressure/memory",
    "/proc/pressure/io",
};
static const char *const floor_name[F_N] = {
    "meminfo", "vmstat (libproc2)", "node vmstat (kvfile)", "diskstats (reap, all disks)",
    "stat",    "pressure/memory",   "pressure/io",
};

#define FLOOR_NODES 64 /* sampler.c's SAMPLER_MAX_NODES */

struct floor {
	int fd[F_N];		  /* -1: not read by the sampler either */
	int node_fd[FLOOR_NODES]; /* F_VMX: one per node */
	int nnode;
	char buf[65536];
};

/* F_VMX's files as sampler.c opens them: every node's vmstat, or
 * /proc/vmstat when there are none or too many. */
static void floor_open_nodes(struct floor *f)
{
	glob_t g;
	f->nnode = 0;
	if (glob(floor_path[F_VMX], 0, NULL, &g) == 0 && g.gl_pathc <= FLOOR_NODES)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			int fd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC);
			if (fd >= 0)
				f->node_fd[f->nnode++] = fd;
		}
	globfree(&g);
	if (f->nnode == 0) {
		int fd = open("/proc/vmstat", O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			f->node_fd[f->nnode++] = fd;
	}
}

static int floor_open(struct floor *f, int have_disk)
{
	for (int i = 0; i < F_N; i++) {
		f->fd[i] = -1;
		if (i == F_DISK && !have_disk)
			continue; /* no watched disk: sampler_read skips diskstats */
		if (i == F_VMX) {
			floor_open_nodes(f);
			f->fd[i] = f->nnode ? f->node_fd[0] : -1;
			continue;
		}
		f->fd[i] = open(floor_path[i], O_RDONLY | O_CLOEXEC);
		if (f->fd[i] < 0 && i == F_MEM)
			return -1;
	}
	/* One pread must return the whole file, or the floor is too low. */
	for (int i = 0; i < F_N; i++) {
		if (f->fd[i] < 0)
			continue;
		ssize_t n = pread(f->fd[i], f->buf, sizeof(f->buf), 0);
		if (n <= 0 || (size_t)n == sizeof(f->buf) ||
		    pread(f->fd[i], f->buf, sizeof(f->buf), n) != 0) {
			fprintf(stderr, "tick: %s does not fit one pread of %zu bytes\n",
				floor_path[i], sizeof(f->buf));
			return -1;
		}
	}
	return 0;
}

/* One round: t[i] is the time of read i alone, t[F_N] the whole round. */
static void floor_round(struct floor *f, uint64_t t[F_N + 1])
{
	uint64_t t0 = now_ns(), prev = t0;
	for (int i = 0; i < F_N; i++) {
		int nfd = i == F_VMX ? f->nnode : f->fd[i] >= 0;
		for (int k = 0; k < nfd; k++) {
			int fd = i == F_VMX ? f->node_fd[k] : f->fd[i];
			if (pread(fd, f->buf, sizeof(f->buf), 0) < 0)
				perror(floor_path[i]);
		}
		uint64_t t1 = now_ns();
		t[i] = t1 - prev;
		prev = t1;
	}
	t[F_N] = prev - t0;
}

/* ---- the floor with libproc2 -------------------------------------------- */

/* The brief has libproc2 read what it covers, so a second floor: each
 * libproc2 call sampler_read makes, alone on a handle of its own, with as
 * many items (the cost hardly depends on them: every call reads and
 * parses the whole file), plus the preads of the files lrutop reads
 * itself (node vmstat, PSI).  sampler_read over it is what lrutop adds;
 * it over the pread floor is what the library costs. */
enum { L_MEM, L_VM, L_STAT, L_DISK, L_OWN, L_N };
static const char *const lib_name[L_N] = {"meminfo select", "vmstat select", "stat select",
					  "diskstats reap", "node vmstat + PSI preads"};

struct libfloor {
	struct meminfo_info *mem;
	struct vmstat_info *vm;
	struct stat_info *st;
	struct diskstats_info *disk;
};

static enum meminfo_item lf_mem[] = {
    MEMINFO_MEM_TOTAL,	       MEMINFO_MEM_FREE,	MEMINFO_MEM_AVAILABLE,
    MEMINFO_MEM_ACTIVE,	       MEMINFO_MEM_INACTIVE,	MEMINFO_MEM_ACTIVE_FILE,
    MEMINFO_MEM_INACTIVE_FILE, MEMINFO_MEM_ACTIVE_ANON, MEMINFO_MEM_INACTIVE_ANON,
    MEMINFO_MEM_CACHED,	       MEMINFO_MEM_DIRTY,	MEMINFO_MEM_WRITEBACK,
    MEMINFO_SWAP_TOTAL,	       MEMINFO_SWAP_FREE,
};
static enum vmstat_item lf_vm[] = {
    VMSTAT_PGACTIVATE,	   VMSTAT_PGDEACTIVATE,	  VMSTAT_PGSCAN_KSWAPD, VMSTAT_PGSCAN_DIRECT,
    VMSTAT_PGSTEAL_KSWAPD, VMSTAT_PGSTEAL_DIRECT, VMSTAT_PGMAJFAULT,	VMSTAT_PGPGIN,
    VMSTAT_PGPGOUT,	   VMSTAT_PSWPIN,	  VMSTAT_PSWPOUT,	VMSTAT_PGSCAN_FILE,
    VMSTAT_PGSCAN_ANON,	   VMSTAT_PGSTEAL_FILE,	  VMSTAT_PGSTEAL_ANON,
};
static enum stat_item lf_stat[] = {
    STAT_TIC_USER,	 STAT_TIC_NICE,		STAT_TIC_SYSTEM,       STAT_TIC_IDLE,
    STAT_TIC_IOWAIT,	 STAT_TIC_IRQ,		STAT_TIC_SOFTIRQ,      STAT_TIC_STOLEN,
    STAT_SYS_INTERRUPTS, STAT_SYS_CTX_SWITCHES, STAT_SYS_PROC_RUNNING, STAT_SYS_PROC_BLOCKED,
};
static enum diskstats_item lf_disk[] = {
    DISKSTATS_NAME,	     DISKSTATS_TYPE,	   DISKSTATS_READS,   DISKSTATS_READS_MERGED,
    DISKSTATS_READ_SECTORS,  DISKSTATS_READ_TIME,  DISKSTATS_WRITES,  DISKSTATS_WRITES_MERGED,
    DISKSTATS_WRITE_SECTORS, DISKSTATS_WRITE_TIME, DISKSTATS_IO_TIME, DISKSTATS_WEIGHTED_TIME,
    DISKSTATS_IO_INPROGRESS, DISKSTATS_MAJOR,	   DISKSTATS_MINOR,
};

/* 0, or -1 when a handle cannot be made (the row is left out). */
static int libfloor_open(struct libfloor *l, int have_disk)
{
	memset(l, 0, sizeof(*l));
	if (procps_meminfo_new(&l->mem) < 0 || procps_vmstat_new(&l->vm) < 0 ||
	    procps_stat_new(&l->st) < 0)
		return -1;
	if (have_disk && procps_diskstats_new(&l->disk) < 0)
		return -1;
	return 0;
}

static void libfloor_close(struct libfloor *l)
{
	if (l->mem)
		procps_meminfo_unref(&l->mem);
	if (l->vm)
		procps_vmstat_unref(&l->vm);
	if (l->st)
		procps_stat_unref(&l->st);
	if (l->disk)
		procps_diskstats_unref(&l->disk);
}

/* One round: t[i] each part alone, t[L_N] the whole. */
static void libfloor_round(struct libfloor *l, struct floor *f, uint64_t t[L_N + 1])
{
	uint64_t t0 = now_ns(), t1;
	int bad = !procps_meminfo_select(l->mem, lf_mem, (int)ARRAY_LEN(lf_mem));
	t[L_MEM] = (t1 = now_ns()) - t0;
	bad |= !procps_vmstat_select(l->vm, lf_vm, (int)ARRAY_LEN(lf_vm));
	t[L_VM] = now_ns() - t1;
	t1 = now_ns();
	bad |= !procps_stat_select(l->st, lf_stat, (int)ARRAY_LEN(lf_stat));
	t[L_STAT] = now_ns() - t1;
	t1 = now_ns();
	if (l->disk)
		bad |= !procps_diskstats_reap(l->disk, lf_disk, (int)ARRAY_LEN(lf_disk));
	t[L_DISK] = now_ns() - t1;
	t1 = now_ns();
	static const int own[] = {F_VMX, F_PSIM, F_PSIIO};
	for (size_t i = 0; i < ARRAY_LEN(own); i++) {
		int nfd = own[i] == F_VMX ? f->nnode : f->fd[own[i]] >= 0;
		for (int k = 0; k < nfd; k++)
			bad |= pread(own[i] == F_VMX ? f->node_fd[k] : f->fd[own[i]], f->buf,
				     sizeof(f->buf), 0) < 0;
	}
	t[L_OWN] = now_ns() - t1;
	t[L_N] = now_ns() - t0;
	if (bad)
		fprintf(stderr, "tick: a libproc2 floor read failed\n");
}

/* ---- the app's tick ------------------------------------------------------ */

struct tick {
	struct model mon;
	struct ui ui;
	struct sampler *s;
};

/* A screen's own state: what the TUI keeps per terminal. */
struct screenful {
	struct views views;
	struct grid grid;
};

/* app_tick without CSV, then the redraw tui.c does after it.  part[] gets
 * sample, push, disks and draw times. */
static void tick_once(struct tick *tk, struct screenful *sc, uint64_t part[4])
{
	struct model *m = &tk->mon;
	struct sample smp;
	uint64_t t0 = now_ns();
	sampler_read(tk->s, &smp);
	uint64_t t1 = now_ns();
	series_push(m->series, &smp);
	uint64_t t2 = now_ns();
	int next = m->disks_cur < 0 ? 0 : !m->disks_cur;
	if (sampler_read_disks(tk->s, &m->disks[next]) == 0) {
		m->disks_cur = next;
		m->disks_n++;
	}
	uint64_t t3 = now_ns();
	views_draw(&sc->views, m, &tk->ui, &sc->grid);
	uint64_t t4 = now_ns();
	part[0] = t1 - t0;
	part[1] = t2 - t1;
	part[2] = t3 - t2;
	part[3] = t4 - t3;
}

/* Three finished runs of two strategies over the newest samples, with
 * their events, as a session would leave them. */
static void fake_runs(struct runlog *log, const struct series *ser)
{
	const struct sample *last = series_back(ser, 0), *first = series_back(ser, 300);
	if (!last || !first)
		return;
	uint64_t t0 = first->t_ns, span = (last->t_ns - t0) / 3;
	static const char *const names[] = {"rw_cp", "mm_sync_cp", "rw_cp"};
	for (int i = 0; i < 3; i++) {
		struct run_result *r = &log->results[log->nresults++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", names[i]);
		r->cmd = -1;
		r->repeat = i / 2 + 1;
		r->finished = r->ok = 1;
		r->verified = -1;
		r->t_start_ns = t0 + (uint64_t)i * span;
		r->t_copy_ns = r->t_start_ns + span / 10;
		r->t_end_ns = r->t_start_ns + span;
		r->elapsed_s = (double)(r->t_end_ns - r->t_copy_ns) / 1e9;
		r->bytes = 64ull << 20;
		r->mbs = (double)r->bytes / 1048576.0 / r->elapsed_s;
		runlog_add_event(log, r->t_start_ns, PHASE_PREPARE);
		runlog_add_event(log, r->t_copy_ns, PHASE_COPY);
		runlog_add_event(log, r->t_end_ns, PHASE_IDLE);
	}
	snprintf(log->baseline, sizeof(log->baseline), "rw_cp");
}

/* ---- statistics ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct stat_us {
	double med, p99;
};

/* Sorts v in place. */
static struct stat_us stats(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_u64);
	size_t i99 = (n * 99 + 99) / 100; /* nearest rank */
	if (i99 > n)
		i99 = n;
	double med = n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
	return (struct stat_us){med / 1000.0, (double)v[i99 - 1] / 1000.0};
}

static void row(const char *what, struct stat_us st, double floor_us, const char *target,
		int verdict)
{
	char ratio[16] = "";
	if (floor_us > 0)
		snprintf(ratio, sizeof(ratio), "%.2f", st.med / floor_us);
	printf("%-34s %9.1f %9.1f %8s  %-14s %s\n", what, st.med, st.p99, ratio, target,
	       verdict < 0 ? ""
	       : verdict   ? "PASS"
			   : "FAIL");
}

/* ---- main ---------------------------------------------------------------- */

enum { R_FLOOR, R_LIB, R_SAMPLER, R_DISKS, R_TICK_BIG, R_TICK_SMALL, R_N };
/* Series per round: floor parts and total, sampler, disks, two ticks, the
 * 200x50 tick's four parts, the libproc2 floor's parts and total. */
enum {
	S_FLOOR7 = F_N + 1,
	S_FLOOR8,
	S_SAMPLER,
	S_DISKS,
	S_BIG,
	S_SMALL,
	S_P0,
	S_L0 = S_P0 + 4,
	S_N = S_L0 + L_N + 1
};

static void usage(FILE *f)
{
	fprintf(f, "usage: tick [-n ROUNDS] [-v] [--cold K] [--strict]\n"
		   "  -n ROUNDS  rounds per measurement (default 2000, at least 1000 is the rule)\n"
		   "  -v         also print each file's pread time\n"
		   "  --cold K   also K ticks and K floors each after 250 ms idle, as in the TUI\n"
		   "  --strict   exit 1 if a target is missed\n");
}

int main(int argc, char **argv)
{
	long n = 2000, cold = 0;
	int verbose = 0, strict = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc) {
			char *end;
			n = strtol(argv[++i], &end, 10);
			if (*end || n < 1) {
				fprintf(stderr, "tick: -n %s: need a positive number\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--cold") && i + 1 < argc) {
			char *end;
			cold = strtol(argv[++i], &end, 10);
			if (*end || cold < 0) {
				fprintf(stderr, "tick: --cold %s: need a number\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "-v")) {
			verbose = 1;
		} else if (!strcmp(argv[i], "--strict")) {
			strict = 1;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}

	char err[256], how[160] = "";
	struct tick tk;
	memset(&tk, 0, sizeof(tk));
	struct model *m = &tk.mon;
	if (device_for_path("/var/tmp", m->disk, sizeof(m->disk), how, sizeof(how), err,
			    sizeof(err)) < 0) {
		fprintf(stderr, "tick: %s; measuring without a watched disk\n", err);
		m->disk[0] = '\0';
	}
	snprintf(m->disk_how, sizeof(m->disk_how), "%s", how);
	tk.s = sampler_new(m->disk, err, sizeof(err));
	if (!tk.s) {
		fprintf(stderr, "tick: %s\n", err);
		return 1;
	}
	snprintf(m->missing, sizeof(m->missing), "%s", sampler_missing(tk.s));
	struct utsname u;
	if (uname(&u) == 0) {
		snprintf(m->host, sizeof(m->host), "%.63s", u.nodename);
		snprintf(m->kernel, sizeof(m->kernel), "%.63s", u.release);
	}
	m->interval = 0.25; /* the default; only labels depend on it here */
	m->disks_cur = -1;
	tk.ui.view = VIEW_OVERVIEW;
	tk.ui.glyphs = CHART_BRAILLE;
	m->series = series_new(series_capacity_for(3600, 0.25));
	struct runlog *log = runlog_new();
	m->log = log;

	static struct floor fl;
	if (floor_open(&fl, m->disk[0] != '\0') < 0) {
		fprintf(stderr, "tick: cannot open /proc/meminfo\n");
		return 1;
	}

	static struct libfloor lf;
	int have_lib = libfloor_open(&lf, m->disk[0] != '\0') == 0;
	if (!have_lib)
		fprintf(stderr, "tick: a libproc2 handle failed; no libproc2 floor row\n");

	struct screenful big, small;
	views_init(&big.views);
	views_init(&small.views);
	grid_init(&big.grid, 200, 50);
	grid_init(&small.grid, 80, 24);

	/* History: enough real samples for 200 columns of braille (2 dots a
	 * column), taken at full speed. */
	uint64_t part[4];
	for (int i = 0; i < 2 * 200 + 16; i++) {
		struct sample smp;
		sampler_read(tk.s, &smp);
		series_push(m->series, &smp);
	}

	uint64_t *v[S_N];
	for (int k = 0; k < S_N; k++) {
		v[k] = calloc((size_t)n, sizeof(uint64_t));
		if (!v[k]) {
			fprintf(stderr, "tick: out of memory\n");
			return 1;
		}
	}
	struct sample scratch;
	struct disktab *tab = malloc(sizeof(*tab));
	for (long r = -WARMUP; r < n; r++) {
		for (int j = 0; j < R_N; j++) {
			int what = (int)((r + WARMUP + j) % R_N);
			uint64_t t0, t[F_N + 1];
			switch (what) {
			case R_FLOOR:
				floor_round(&fl, t);
				if (r >= 0) {
					for (int f = 0; f <= F_N; f++)
						v[f][r] = t[f];
					v[S_FLOOR7][r] = t[F_N];
					v[S_FLOOR8][r] = t[F_N];
				}
				break;
			case R_LIB: {
				uint64_t tl[L_N + 1] = {0};
				if (have_lib)
					libfloor_round(&lf, &fl, tl);
				if (r >= 0)
					for (int k = 0; k <= L_N; k++)
						v[S_L0 + k][r] = tl[k];
				break;
			}
			case R_SAMPLER:
				t0 = now_ns();
				sampler_read(tk.s, &scratch);
				if (r >= 0)
					v[S_SAMPLER][r] = now_ns() - t0;
				break;
			case R_DISKS:
				t0 = now_ns();
				sampler_read_disks(tk.s, tab);
				if (r >= 0)
					v[S_DISKS][r] = now_ns() - t0;
				break;
			case R_TICK_BIG:
				t0 = now_ns();
				tick_once(&tk, &big, part);
				if (r >= 0) {
					v[S_BIG][r] = now_ns() - t0;
					for (int p = 0; p < 4; p++)
						v[S_P0 + p][r] = part[p];
				}
				break;
			case R_TICK_SMALL:
				t0 = now_ns();
				tick_once(&tk, &small, part);
				if (r >= 0)
					v[S_SMALL][r] = now_ns() - t0;
				break;
			}
		}
	}

	/* Allocations on the tick path, after warm-up. */
	struct mallinfo2 before = mallinfo2();
	alloc_count_start();
	for (int i = 0; i < ALLOC_TICKS; i++)
		tick_once(&tk, &big, part);
	alloc_count_stop();
	unsigned long long overview_calls = alloc_count_calls(),
			   overview_bytes = alloc_count_bytes();
	struct mallinfo2 after_overview = mallinfo2();
	/* The Runs view too: three finished runs over the newest samples
	 * (its columns, scales and statistics are computed on every draw). */
	fake_runs(log, m->series);
	struct strategy_stats sstats[MODEL_MAX_STRATEGIES];
	m->stats = sstats;
	m->nstats =
	    stats_compute(log->results, log->nresults, log->baseline, sstats, MODEL_MAX_STRATEGIES);
	tk.ui.view = VIEW_RUNS;
	tick_once(&tk, &big, part); /* its buffers are sized on the first draw */
	struct mallinfo2 before_runs = mallinfo2();
	alloc_count_start();
	for (int i = 0; i < ALLOC_TICKS; i++)
		tick_once(&tk, &big, part);
	alloc_count_stop();
	unsigned long long count_calls = overview_calls + alloc_count_calls(),
			   count_bytes = overview_bytes + alloc_count_bytes();
	tk.ui.view = VIEW_OVERVIEW;
	struct mallinfo2 after = mallinfo2();

	/* Cold: the TUI sleeps an interval between ticks, and after a sleep
	 * the kernel's and our caches are cold (docs/libproc2.md §9). */
	uint64_t *cv[6];
	for (int k = 0; k < 6; k++)
		cv[k] = calloc((size_t)cold + 1, sizeof(uint64_t));
	const struct timespec idle = {0, 250000000};
	for (long r = 0; r < cold; r++) {
		uint64_t t[F_N + 1], t0;
		nanosleep(&idle, NULL);
		floor_round(&fl, t);
		cv[0][r] = t[F_N];
		nanosleep(&idle, NULL);
		t0 = now_ns();
		tick_once(&tk, &big, part);
		cv[1][r] = now_ns() - t0;
		for (int p = 0; p < 4; p++)
			cv[2 + p][r] = part[p];
	}

	struct stat_us st[S_N];
	for (int k = 0; k < S_N; k++)
		st[k] = stats(v[k], (size_t)n);
	int nfloor = 0;
	for (int f = 0; f < F_N; f++)
		nfloor += f == F_VMX ? fl.nnode : fl.fd[f] >= 0;

	printf("lrutop bench: %s %s, %ld online CPUs, disk %s, %ld rounds after %d warm-up\n",
	       u.sysname, u.release, sysconf(_SC_NPROCESSORS_ONLN), m->disk[0] ? m->disk : "none",
	       n, WARMUP);
	if (m->missing[0])
		printf("missing: %s\n", m->missing);
	printf("%-34s %9s %9s %8s  %-14s %s\n", "what", "median µs", "p99 µs", "x floor", "target",
	       "");
	char what[64];
	snprintf(what, sizeof(what), "pread floor, sampler (%d reads)", nfloor);
	row(what, st[S_FLOOR7], 0, "", -1);
	if (verbose)
		for (int f = 0; f < F_N; f++)
			if (fl.fd[f] >= 0) {
				snprintf(what, sizeof(what), "  pread %s", floor_name[f]);
				row(what, st[f], 0, "", -1);
			}
	row("sampler_read", st[S_SAMPLER], st[S_FLOOR7].med, "<= 1.5x floor",
	    st[S_SAMPLER].med <= SAMPLER_TARGET * st[S_FLOOR7].med);
	if (have_lib) {
		row("libproc2 floor (vs pread floor)", st[S_L0 + L_N], st[S_FLOOR7].med, "", -1);
		if (verbose)
			for (int k = 0; k < L_N; k++) {
				snprintf(what, sizeof(what), "  %s", lib_name[k]);
				row(what, st[S_L0 + k], 0, "", -1);
			}
		row("sampler_read vs libproc2 floor", st[S_SAMPLER], st[S_L0 + L_N].med, "", -1);
	}
	row("sampler_read_disks (table copy)", st[S_DISKS], st[F_DISK].med, "", -1);
	row("tick 200x50 (vs floor)", st[S_BIG], st[S_FLOOR8].med, "<= 350 µs",
	    st[S_BIG].med <= TICK_TARGET_US);
	const char *part_name[4] = {"  sampler_read", "  series_push", "  sampler_read_disks",
				    "  views_draw 200x50"};
	for (int p = 0; p < 4; p++)
		row(part_name[p], st[S_P0 + p], 0, "", -1);
	row("tick 80x24 (vs floor)", st[S_SMALL], st[S_FLOOR8].med, "<= 350 µs",
	    st[S_SMALL].med <= TICK_TARGET_US);
	int cold_ok = 1;
	if (cold > 0) {
		struct stat_us cs[6];
		for (int k = 0; k < 6; k++)
			cs[k] = stats(cv[k], (size_t)cold);
		printf("cold: %ld rounds, each after 250 ms idle (p99 column: nearest rank)\n",
		       cold);
		snprintf(what, sizeof(what), "cold pread floor, tick (%d reads)", nfloor);
		row(what, cs[0], 0, "", -1);
		row("cold tick 200x50 (vs cold floor)", cs[1], cs[0].med, "<= 250 µs",
		    cs[1].med <= COLD_TARGET_US);
		cold_ok = cs[1].med <= COLD_TARGET_US;
		for (int p = 0; p < 4; p++)
			row(part_name[p], cs[2 + p], 0, "", -1);
	}
	for (int k = 0; k < 6; k++)
		free(cv[k]);
	long long net = (long long)after_overview.uordblks - (long long)before.uordblks +
			(long long)after.uordblks - (long long)before_runs.uordblks;
	int alloc_ok = net == 0;
	if (alloc_count_off()) {
		printf("%-34s %9s   counting is off: %s (the heap growth below still counts)\n",
		       "allocations per tick (calls)", "-", alloc_count_off());
	} else {
		alloc_ok = alloc_ok && count_calls == 0;
		printf("%-34s %9.2f %9s %8s  %-14s %s\n", "allocations per tick (calls)",
		       (double)count_calls / ALLOC_TICKS / 2, "", "", "0",
		       count_calls ? "FAIL" : "PASS");
		printf("%-34s %9.2f\n", "  overview", (double)overview_calls / ALLOC_TICKS);
		printf("%-34s %9.2f\n", "  Runs view",
		       (double)(count_calls - overview_calls) / ALLOC_TICKS);
		printf("%-34s %9.1f %9s %8s  %-14s %s\n", "allocated bytes per tick",
		       (double)count_bytes / ALLOC_TICKS / 2, "", "", "0",
		       count_bytes ? "FAIL" : "PASS");
	}
	printf("%-34s %9lld %9s %8s  %-14s %s\n", "heap growth over 2x1000 ticks (B)", net, "", "",
	       "0", net ? "FAIL" : "PASS");

	int ok = st[S_SAMPLER].med <= SAMPLER_TARGET * st[S_FLOOR7].med &&
		 st[S_BIG].med <= TICK_TARGET_US && st[S_SMALL].med <= TICK_TARGET_US && alloc_ok &&
		 cold_ok;
	for (int k = 0; k < S_N; k++)
		free(v[k]);
	free(tab);
	grid_done(&big.grid);
	grid_done(&small.grid);
	views_done(&big.views);
	views_done(&small.views);
	series_free(m->series);
	runlog_free(log);
	sampler_free(tk.s);
	libfloor_close(&lf);
	for (int f = 0; f < F_N; f++)
		if (fl.fd[f] >= 0 && f != F_VMX)
			close(fl.fd[f]);
	for (int k = 0; k < fl.nnode; k++)
		close(fl.node_fd[k]);
	return strict && !ok ? 1 : 0;
}
