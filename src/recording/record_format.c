#include "recording/record_format.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/parse.h" /* INTERVAL_MIN, INTERVAL_MAX: what -i takes */
#include "recording/record.h"
#include "model/runlog.h"
#include "base/util.h"

/* ---- what a number may be ------------------------------------------------ */

/* A century, the bound of every time (CLOCK_MONOTONIC since boot, a run's
 * seconds): 3.16e18 ns, below INT64_MAX. */
#define CENTURY_S  3155760000LL /* 100 × 365.25 × 86400 */
#define CENTURY_MS (CENTURY_S * 1000)
#define CENTURY_US (CENTURY_S * 1000000)
#define CENTURY_NS (CENTURY_S * 1000000000)
/* A result's rates and ratios, from the bounds of what they are made of:
 * MiB/s is at most the most bytes a file has (INT64_MAX) in a nanosecond;
 * %CPU two centuries of CPU (user + sys) in one; a CV of n rates (each
 * >= 0) is at most sqrt(n - 1), n at most a century of the shortest
 * interval (test_record_range checks the rounding); rd@b is a read rate
 * over another, the smaller at least a sector in a century. */
#define MBS_MAX	      ((double)INT64_MAX / 1048576.0 / 1e-9)
#define CPU_PCT_MAX   (100.0 * 2 * (double)CENTURY_S / 1e-9)
#define CV_MAX	      251228.0 /* ceil(sqrt(CENTURY_S / INTERVAL_MIN)) */
#define RD_BURST_MAX  (MBS_MAX / (512.0 / 1048576.0 / (double)CENTURY_S))
#define PAGE_SIZE_MAX (1 << 20) /* Linux's largest base page (hexagon) */

/* a row's range (its .range: a row of record_key_ranges may say its
 * member after it, by name) */
#define RI(l, h)      .range = {.lo = (l), .hi = (h)}
#define RR(l, h)      .range = {.rlo = (l), .rhi = (h), .real = 1}
#define RR_NULL(l, h) .range = {.rlo = (l), .rhi = (h), .real = 1, .null_ok = 1}
/* a row's member: where the number goes (record_key_range) */
#define MEMBER(st, m, t) .off = offsetof(struct st, m), .type = (t)
#define COUNT	RI(0, INT64_MAX)	 /* a counter or a size: the kernel's unsigned long */
#define POS	RI(1, INT64_MAX)	 /* one that is never 0 (MemTotal, a file's pages) */
#define ANY_U64 RI(INT64_MIN, INT64_MAX) /* any uint64_t (two's complement) */
#define U32R	RI(0, UINT32_MAX)	 /* the kernel's unsigned int */
#define NS	RI(0, CENTURY_NS)	 /* a time, ns */
#define US	RI(0, CENTURY_US)
#define MS	RI(0, CENTURY_MS)
#define PCT	RR(0, 100) /* a PSI avg10 share */
#define FLAG	RI(0, 1)

/* ---- the sample's fields ---------------------------------------------- */

/* a row of the table: key, have bit, the member, its type and its range
 * (variadic: a range's braces hold commas) */
#define FIELD(k, g, m, t, ...)                                                                     \
	{                                                                                          \
		k, g, offsetof(struct sample, m), t, __VA_ARGS__                                   \
	}
#define U64(k, g, m, ...) FIELD(k, g, m, F_U64, __VA_ARGS__)
#define U32(k, g, m, ...) FIELD(k, g, m, F_U32, __VA_ARGS__)
#define U8(k, g, m, ...)  FIELD(k, g, m, F_U8, __VA_ARGS__)
#define F32(k, g, m, ...) FIELD(k, g, m, F_F32, __VA_ARGS__)

const struct field record_fields[] = {
    U64("mt", SAMPLE_HAVE_MEM, mem_total, POS),
    U64("mf", SAMPLE_HAVE_MEM, mem_free, COUNT),
    U64("ma", SAMPLE_HAVE_MEM, mem_avail, COUNT),
    U64("ac", SAMPLE_HAVE_MEM, active, COUNT),
    U64("in", SAMPLE_HAVE_MEM, inactive, COUNT),
    U64("af", SAMPLE_HAVE_MEM, active_file, COUNT),
    U64("if", SAMPLE_HAVE_MEM, inactive_file, COUNT),
    U64("aa", SAMPLE_HAVE_MEM, active_anon, COUNT),
    U64("ia", SAMPLE_HAVE_MEM, inactive_anon, COUNT),
    U64("ca", SAMPLE_HAVE_MEM, cached, COUNT),
    U64("dy", SAMPLE_HAVE_MEM, dirty, COUNT),
    U64("wb", SAMPLE_HAVE_MEM, writeback, COUNT),
    U64("swt", SAMPLE_HAVE_MEM, swap_total, COUNT),
    U64("swf", SAMPLE_HAVE_MEM, swap_free, COUNT),

    U64("pga", SAMPLE_HAVE_VM, pgactivate, COUNT),
    U64("pgd", SAMPLE_HAVE_VM, pgdeactivate, COUNT),
    U64("sck", SAMPLE_HAVE_VM, pgscan_kswapd, COUNT),
    U64("scd", SAMPLE_HAVE_VM, pgscan_direct, COUNT),
    U64("stk", SAMPLE_HAVE_VM, pgsteal_kswapd, COUNT),
    U64("std", SAMPLE_HAVE_VM, pgsteal_direct, COUNT),
    U64("mjf", SAMPLE_HAVE_VM, pgmajfault, COUNT),
    U64("pgi", SAMPLE_HAVE_VM, pgpgin, COUNT),
    U64("pgo", SAMPLE_HAVE_VM, pgpgout, COUNT),
    U64("swi", SAMPLE_HAVE_VM, pswpin, COUNT),
    U64("swo", SAMPLE_HAVE_VM, pswpout, COUNT),

    U64("scf", SAMPLE_HAVE_VMX, pgscan_file, COUNT),
    U64("sca", SAMPLE_HAVE_VMX, pgscan_anon, COUNT),
    U64("stf", SAMPLE_HAVE_VMX, pgsteal_file, COUNT),
    U64("sta", SAMPLE_HAVE_VMX, pgsteal_anon, COUNT),
    U64("rff", SAMPLE_HAVE_VMX, refault_file, COUNT),
    U64("acf", SAMPLE_HAVE_VMX, activate_file, COUNT),

    U64("rio", SAMPLE_HAVE_DISK, rd_ios, COUNT),
    U64("rse", SAMPLE_HAVE_DISK, rd_sectors, COUNT),
    U64("wio", SAMPLE_HAVE_DISK, wr_ios, COUNT),
    U64("wse", SAMPLE_HAVE_DISK, wr_sectors, COUNT),
    U64("iom", SAMPLE_HAVE_DISK, io_ms, MS),
    U32("ifl", SAMPLE_HAVE_DISK, in_flight, U32R),
    U32("did", SAMPLE_HAVE_DISK, disk_id, U32R),

    U64("cu", SAMPLE_HAVE_CPU, cpu_user, COUNT),
    U64("cn", SAMPLE_HAVE_CPU, cpu_nice, COUNT),
    U64("cs", SAMPLE_HAVE_CPU, cpu_sys, COUNT),
    U64("ci", SAMPLE_HAVE_CPU, cpu_idle, COUNT),
    U64("cw", SAMPLE_HAVE_CPU, cpu_iowait, COUNT),
    U64("cq", SAMPLE_HAVE_CPU, cpu_irq, COUNT),
    U64("csq", SAMPLE_HAVE_CPU, cpu_softirq, COUNT),
    U64("cst", SAMPLE_HAVE_CPU, cpu_steal, COUNT),
    U64("itr", SAMPLE_HAVE_CPU, intr, COUNT),
    U64("ctx", SAMPLE_HAVE_CPU, ctxt, COUNT),
    U32("prr", SAMPLE_HAVE_CPU, procs_running, U32R),
    U32("prb", SAMPLE_HAVE_CPU, procs_blocked, U32R),

    F32("pms", SAMPLE_HAVE_PSI_MEM, psi_mem_some, PCT),
    F32("pmf", SAMPLE_HAVE_PSI_MEM, psi_mem_full, PCT),
    U64("pmu", SAMPLE_HAVE_PSI_MEM, psi_mem_some_us, US),
    F32("pis", SAMPLE_HAVE_PSI_IO, psi_io_some, PCT),
    F32("pif", SAMPLE_HAVE_PSI_IO, psi_io_full, PCT),
    U64("piu", SAMPLE_HAVE_PSI_IO, psi_io_some_us, US),

    U64("gaf", SAMPLE_HAVE_CG, cg_active_file, COUNT),
    U64("gif", SAMPLE_HAVE_CG, cg_inactive_file, COUNT),
    U64("gca", SAMPLE_HAVE_CG, cg_cache, COUNT),
    U64("gus", SAMPLE_HAVE_CG, cg_usage, COUNT),
    U64("gli", SAMPLE_HAVE_CG, cg_limit, ANY_U64),
    U64("gdy", SAMPLE_HAVE_CG, cg_dirty, COUNT),
    U64("gpd", SAMPLE_HAVE_CG_DEACT, cg_pgdeactivate, COUNT),

    /* page-cache residency (minor 1): source "pcs*", destination "pcd*" */
    U64("pcsp", SAMPLE_HAVE_RES, res_src.pages, COUNT),
    U64("pcsc", SAMPLE_HAVE_RES, res_src.cached, COUNT),
    U64("pcsd", SAMPLE_HAVE_RES, res_src.dirty, COUNT),
    U64("pcsw", SAMPLE_HAVE_RES, res_src.writeback, COUNT),
    U64("pcse", SAMPLE_HAVE_RES, res_src.evicted, COUNT),
    U64("pcsr", SAMPLE_HAVE_RES, res_src.recently_evicted, COUNT),
    U8("pcsm", SAMPLE_HAVE_RES, res_src.method, RI(RESIDENCY_NONE, RESIDENCY_MINCORE)),
    U64("pcdp", SAMPLE_HAVE_RES, res_dst.pages, COUNT),
    U64("pcdc", SAMPLE_HAVE_RES, res_dst.cached, COUNT),
    U64("pcdd", SAMPLE_HAVE_RES, res_dst.dirty, COUNT),
    U64("pcdw", SAMPLE_HAVE_RES, res_dst.writeback, COUNT),
    U64("pcde", SAMPLE_HAVE_RES, res_dst.evicted, COUNT),
    U64("pcdr", SAMPLE_HAVE_RES, res_dst.recently_evicted, COUNT),
    U8("pcdm", SAMPLE_HAVE_RES, res_dst.method, RI(RESIDENCY_NONE, RESIDENCY_MINCORE)),
    U32("prn", SAMPLE_HAVE_PROBE, probe_n, U32R),
    U32("prs", SAMPLE_HAVE_PROBE, probe_slow, U32R),
    U64("pr5", SAMPLE_HAVE_PROBE, probe_p50, NS),
    U64("pr9", SAMPLE_HAVE_PROBE, probe_p99, NS),
    U64("prx", SAMPLE_HAVE_PROBE, probe_max, NS),

    /* the run's own disk bytes from its io cgroup (cgio.h) */
    U64("gir", SAMPLE_HAVE_CG_IO, cg_rd_bytes, COUNT),
    U64("giw", SAMPLE_HAVE_CG_IO, cg_wr_bytes, COUNT),
    U32("gig", SAMPLE_HAVE_CG_IO, cg_io_gen, U32R),

    /* MGLRU's generations (minor 2): file pages, youngest first */
    U64("lg0", SAMPLE_HAVE_GEN, gen_file[0], COUNT),
    U64("lg1", SAMPLE_HAVE_GEN, gen_file[1], COUNT),
    U64("lg2", SAMPLE_HAVE_GEN, gen_file[2], COUNT),
    U64("lg3", SAMPLE_HAVE_GEN, gen_file[3], COUNT),
    U64("lgs", SAMPLE_HAVE_GEN, gen_seq, COUNT),
    U8("lgn", SAMPLE_HAVE_GEN, gen_n, RI(0, SAMPLE_GENS)),
};

/* ---- every other number's range ------------------------------------------ */

const struct record_key_range record_key_ranges[] = {
    {"header", "lrutop_record", RI(RECORD_MAJOR, RECORD_MAJOR)},
    /* a newer minor's lines are read past */
    {"header", "minor", RI(0, INT32_MAX), MEMBER(record_header, minor, F_INT)},
    {"header", "page_size", .range = {.lo = 4096, .hi = PAGE_SIZE_MAX, .pow2 = 1},
     MEMBER(record_header, page_size, F_LONG)},
    {"header", "cpus", RI(1, INT32_MAX), MEMBER(record_header, cpus, F_INT)},
    {"header", "mem_total_kb", POS, MEMBER(record_header, mem_total_kb, F_U64)},
    {"header", "cgroup", RI(0, 2), MEMBER(record_header, cgroup_version, F_INT)},
    {"header", "start_mono_ns", NS, MEMBER(record_header, start_mono_ns, F_U64)},
    {"header", "interval_s", RR(INTERVAL_MIN, INTERVAL_MAX),
     MEMBER(record_header, interval_s, F_F64)},
    /* the runs' configuration (minor 4): what the options take */
    {"header.config", "size", COUNT, MEMBER(record_config, size, F_U64)},      /* 0: the default */
    {"header.config", "bs", RI(1, 1 << 30), MEMBER(record_config, bs, F_U64)}, /* at most 1G */
    /* any size --mem-limit takes, 0 none */
    {"header.config", "mem_limit", ANY_U64, MEMBER(record_config, mem_limit, F_U64)},
    {"header.config", "disk_limit", ANY_U64, MEMBER(record_config, disk_limit, F_U64)},
    {"header.config", "repeat", RI(1, RUN_CONFIG_REPEAT_MAX), MEMBER(record_config, repeat, F_INT)},
    {"header.config", "prealloc", FLAG, MEMBER(record_config, prealloc, F_INT)},
    {"header.config", "rehearsal", FLAG, MEMBER(record_config, rehearsal, F_INT)},
    {"header.config", "sweep_values", POS}, /* each: a size or a rate above 0 */

    {"sample", "t", NS},
    {"sample", "run", RI(-1, INT16_MAX)},
    {"sample", "ph", RI(0, 127)}, /* and an index into the header's phases */
    {"sample", "st", RI(0, UINT8_MAX)},
    {"sample", "hv", RI(0, UINT32_MAX)},
    {"sample", "dkt", RI(-CENTURY_NS, CENTURY_NS)},

    {"disk", "rd_ios", COUNT},
    {"disk", "rd_merges", COUNT},
    {"disk", "rd_sectors", COUNT},
    {"disk", "rd_ms", COUNT}, /* a sum over requests: more than the uptime */
    {"disk", "wr_ios", COUNT},
    {"disk", "wr_merges", COUNT},
    {"disk", "wr_sectors", COUNT},
    {"disk", "wr_ms", COUNT},
    {"disk", "io_ms", MS},
    {"disk", "weighted_ms", COUNT},
    {"disk", "in_flight", U32R},
    {"disk", "is_disk", FLAG},

    {"event", "t", NS},
    {"event", "run", RI(0, INT16_MAX)},

    {"pcmap", "t", NS},
    {"pcmap.src", "p", POS},
    {"pcmap.src", "n", RI(1, RESIDENCY_MAP_MAX)}, /* and at most p */
    {"pcmap.src", "m", RI(RESIDENCY_CACHESTAT, RESIDENCY_MINCORE)},
    {"pcmap.dst", "p", POS},
    {"pcmap.dst", "n", RI(1, RESIDENCY_MAP_MAX)},
    {"pcmap.dst", "m", RI(RESIDENCY_CACHESTAT, RESIDENCY_MINCORE)},

    {"result", "cmd", RI(-1, INT32_MAX), MEMBER(run_result, cmd, F_INT)},
    {"result", "repeat", RI(0, INT32_MAX), MEMBER(run_result, repeat, F_INT)},
    {"result", "finished", FLAG, MEMBER(run_result, finished, F_INT)},
    {"result", "ok", FLAG, MEMBER(run_result, ok, F_INT)},
    {"result", "cancelled", FLAG, MEMBER(run_result, cancelled, F_INT)},
    {"result", "exit_code", RI(-1, 255)}, /* later: absent is what ok says; a shell's $? */
    {"result", "bursts", RI(0, INT32_MAX), MEMBER(run_result, bursts, F_INT)},
    {"result", "verified", RI(RUN_UNVERIFIABLE, 1), MEMBER(run_result, verified, F_INT)},
    {"result", "majflt", RI(0, LONG_MAX), MEMBER(run_result, majflt, F_LONG)},
    {"result", "minflt", RI(0, LONG_MAX), MEMBER(run_result, minflt, F_LONG)},
    {"result", "inblock", RI(0, LONG_MAX), MEMBER(run_result, inblock, F_LONG)},
    {"result", "oublock", RI(0, LONG_MAX), MEMBER(run_result, oublock, F_LONG)},
    {"result", "bytes", COUNT, MEMBER(run_result, bytes, F_U64)},
    {"result", "peak_active_file_kb", COUNT, MEMBER(run_result, peak_active_file_kb, F_U64)},
    {"result", "pgdeactivate", COUNT, MEMBER(run_result, pgdeactivate, F_U64)},
    {"result", "refault_file", COUNT, MEMBER(run_result, refault_file, F_U64)},
    {"result", "t_start_ns", NS, MEMBER(run_result, t_start_ns, F_U64)},
    {"result", "t_copy_ns", NS, MEMBER(run_result, t_copy_ns, F_U64)},
    {"result", "t_end_ns", NS, MEMBER(run_result, t_end_ns, F_U64)},
    {"result", "elapsed_s", RR(0, CENTURY_S), MEMBER(run_result, elapsed_s, F_F64)},
    {"result", "user_s", RR(0, CENTURY_S), MEMBER(run_result, user_s, F_F64)},
    {"result", "sys_s", RR(0, CENTURY_S), MEMBER(run_result, sys_s, F_F64)},
    {"result", "cpu_pct", RR(0, CPU_PCT_MAX), MEMBER(run_result, cpu_pct, F_F64)},
    {"result", "mbs", RR(0, MBS_MAX), MEMBER(run_result, mbs, F_F64)},
    {"result", "read_cv", RR_NULL(0, CV_MAX), MEMBER(run_result, read_cv, F_F64)},
    {"result", "write_cv", RR_NULL(0, CV_MAX), MEMBER(run_result, write_cv, F_F64)},
    {"result", "read_at_burst", RR_NULL(0, RD_BURST_MAX)}, /* later: absent is unknown */
    {"result", "sweep_value", POS},			   /* with "sweep" only */
    {"result.res", "dst_dirty_peak_kb", COUNT, MEMBER(run_result, res_dst_dirty_peak_kb, F_U64)},
    {"result.res", "src_cached_end", COUNT, MEMBER(run_result, res_src_cached_end, F_U64)},
    {"result.res", "src_pages_end", COUNT, MEMBER(run_result, res_src_pages_end, F_U64)},
    {"result.res", "recent_end", COUNT, MEMBER(run_result, res_recent_end, F_U64)},
    {"result.probe", "n", COUNT, MEMBER(probe_figures, n, F_U64)},
    {"result.probe", "p50_ns", NS, MEMBER(probe_figures, p50_ns, F_U64)},
    {"result.probe", "p99_ns", NS, MEMBER(probe_figures, p99_ns, F_U64)},
    {"result.probe", "p999_ns", NS, MEMBER(probe_figures, p999_ns, F_U64)},
    {"result.probe", "max_ns", NS, MEMBER(probe_figures, max_ns, F_U64)},
    {"result.probe", "slow", COUNT, MEMBER(probe_figures, slow, F_U64)},
    {"result.probe", "idle_n", COUNT, MEMBER(probe_figures, idle_n, F_U64)},
    {"result.probe", "idle_p99_ns", NS, MEMBER(probe_figures, idle_p99_ns, F_U64)},
};
const size_t record_nkey_ranges = ARRAY_LEN(record_key_ranges);

int64_t record_int_get(const void *p, enum ftype t)
{
	uint64_t u64;
	uint32_t u32;
	uint8_t u8;
	int i;
	long l;
	switch (t) {
	case F_U64:
		memcpy(&u64, p, sizeof(u64));
		return (int64_t)u64;
	case F_U32:
		memcpy(&u32, p, sizeof(u32));
		return u32;
	case F_U8:
		memcpy(&u8, p, sizeof(u8));
		return u8;
	case F_INT:
		memcpy(&i, p, sizeof(i));
		return i;
	case F_LONG:
		memcpy(&l, p, sizeof(l));
		return l;
	default:
		return 0; /* not an integer */
	}
}

void record_int_set(void *p, enum ftype t, int64_t v)
{
	uint64_t u64 = (uint64_t)v;
	uint32_t u32 = (uint32_t)v;
	uint8_t u8 = (uint8_t)v;
	int i = (int)v;
	long l = (long)v;
	switch (t) {
	case F_U64:
		memcpy(p, &u64, sizeof(u64));
		break;
	case F_U32:
		memcpy(p, &u32, sizeof(u32));
		break;
	case F_U8:
		memcpy(p, &u8, sizeof(u8));
		break;
	case F_INT:
		memcpy(p, &i, sizeof(i));
		break;
	case F_LONG:
		memcpy(p, &l, sizeof(l));
		break;
	default:
		break; /* not an integer */
	}
}

const struct record_key_range *record_member_next(const char *line,
						  const struct record_key_range *k)
{
	for (size_t i = k ? (size_t)(k - record_key_ranges) + 1 : 0; i < record_nkey_ranges; i++)
		if (record_key_ranges[i].type != F_NONE && !strcmp(record_key_ranges[i].line, line))
			return &record_key_ranges[i];
	return NULL;
}

const struct record_range *record_range_of(const char *line, const char *key)
{
	for (size_t i = 0; i < record_nkey_ranges; i++)
		if (!strcmp(record_key_ranges[i].key, key) &&
		    !strcmp(record_key_ranges[i].line, line))
			return &record_key_ranges[i].range;
	return NULL;
}

void record_range_text(const struct record_range *g, char *buf, size_t len)
{
	if (g->real)
		snprintf(buf, len, "%g to %g", g->rlo, g->rhi);
	else
		snprintf(buf, len, "%s%lld to %lld", g->pow2 ? "a power of two, " : "",
			 (long long)g->lo, (long long)g->hi);
}

const char *const record_disk_columns[NDCOL] = {
    "rd_ios",	  "rd_merges", "rd_sectors", "rd_ms",	    "wr_ios",	 "wr_merges",
    "wr_sectors", "wr_ms",     "io_ms",	     "weighted_ms", "in_flight", "is_disk",
};
const size_t record_nfields = ARRAY_LEN(record_fields);

void record_disk_row(const struct disk_counters *d, uint64_t v[NDCOL])
{
	v[0] = d->rd_ios, v[1] = d->rd_merges, v[2] = d->rd_sectors, v[3] = d->rd_ms;
	v[4] = d->wr_ios, v[5] = d->wr_merges, v[6] = d->wr_sectors, v[7] = d->wr_ms;
	v[8] = d->io_ms, v[9] = d->weighted_ms, v[10] = d->in_flight, v[11] = (uint64_t)d->is_disk;
}

int record_disk_set(struct disk_counters *d, const uint64_t v[NDCOL])
{
	if (v[10] > UINT32_MAX || v[11] > 1)
		return -1;
	d->rd_ios = v[0], d->rd_merges = v[1], d->rd_sectors = v[2], d->rd_ms = v[3];
	d->wr_ios = v[4], d->wr_merges = v[5], d->wr_sectors = v[6], d->wr_ms = v[7];
	d->io_ms = v[8], d->weighted_ms = v[9], d->in_flight = (uint32_t)v[10];
	d->is_disk = (int)v[11];
	return 0;
}

const struct disk_counters *record_disk_find(const struct disktab *t, const char *name)
{
	for (int k = 0; t && k < t->n; k++)
		if (!strcmp(t->dev[k].name, name))
			return &t->dev[k];
	return NULL;
}

/* ---- the page-cache map ----------------------------------------------- */

const struct record_map_col record_map_cols[RECORD_MAP_NCOLS] = {
    {"c", offsetof(struct residency_map_file, cached)},
    {"d", offsetof(struct residency_map_file, dirty)},
    {"w", offsetof(struct residency_map_file, writeback)},
    {"e", offsetof(struct residency_map_file, evicted)},
    {"r", offsetof(struct residency_map_file, recent)},
};

void record_map_encode(const uint32_t *v, int n, char buf[RECORD_MAP_TEXT])
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < n;) {
		int k = i + 1;
		while (k < n && v[k] == v[i])
			k++;
		/* a run of 2 is no shorter as "V*2" unless V is long */
		size_t room = RECORD_MAP_TEXT - len;
		int w = k - i > 1 ? snprintf(buf + len, room, "%s%x*%d", i ? "," : "", v[i], k - i)
				  : snprintf(buf + len, room, "%s%x", i ? "," : "", v[i]);
		if (w < 0 || (size_t)w >= room)
			return; /* cannot happen: each range takes at most 9 bytes */
		len += (size_t)w;
		i = k;
	}
}

/* A number in base (16 or 10) at *s, no sign, at most max; advances *s. */
static int map_number(const char **s, int base, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = *s;
	for (;; p++) {
		int d = *p >= '0' && *p <= '9'		   ? *p - '0'
			: base == 16 && *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
							       : -1;
		if (d < 0)
			break;
		v = v * (uint64_t)base + (uint64_t)d;
		if (v > max)
			return -1;
	}
	if (p == *s)
		return -1;
	*s = p;
	*out = v;
	return 0;
}

int record_map_decode(const char *s, uint32_t *v, int n)
{
	int i = 0;
	while (*s) {
		uint64_t x, k = 1;
		if (map_number(&s, 16, UINT32_MAX, &x) < 0)
			return -1;
		if (*s == '*') {
			s++;
			if (map_number(&s, 10, (uint64_t)n, &k) < 0 || k < 1)
				return -1;
		}
		if (k > (uint64_t)(n - i))
			return -1;
		for (uint64_t j = 0; j < k; j++)
			v[i++] = (uint32_t)x;
		if (*s == ',' && s[1])
			s++;
		else if (*s)
			return -1;
	}
	return i == n ? 0 : -1;
}
