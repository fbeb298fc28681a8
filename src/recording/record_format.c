#include "record_format.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util.h"

/* ---- the sample's fields ---------------------------------------------- */

/* a row of the table: key, have bit, the member and its type */
#define FIELD(k, g, m, t)                                                                          \
	{                                                                                          \
		k, g, offsetof(struct sample, m), t                                                \
	}
#define U64(k, g, m) FIELD(k, g, m, F_U64)
#define U32(k, g, m) FIELD(k, g, m, F_U32)
#define U8(k, g, m)  FIELD(k, g, m, F_U8)
#define F32(k, g, m) FIELD(k, g, m, F_F32)

const struct field record_fields[] = {
    U64("mt", SAMPLE_HAVE_MEM, mem_total),
    U64("mf", SAMPLE_HAVE_MEM, mem_free),
    U64("ma", SAMPLE_HAVE_MEM, mem_avail),
    U64("ac", SAMPLE_HAVE_MEM, active),
    U64("in", SAMPLE_HAVE_MEM, inactive),
    U64("af", SAMPLE_HAVE_MEM, active_file),
    U64("if", SAMPLE_HAVE_MEM, inactive_file),
    U64("aa", SAMPLE_HAVE_MEM, active_anon),
    U64("ia", SAMPLE_HAVE_MEM, inactive_anon),
    U64("ca", SAMPLE_HAVE_MEM, cached),
    U64("dy", SAMPLE_HAVE_MEM, dirty),
    U64("wb", SAMPLE_HAVE_MEM, writeback),
    U64("swt", SAMPLE_HAVE_MEM, swap_total),
    U64("swf", SAMPLE_HAVE_MEM, swap_free),

    U64("pga", SAMPLE_HAVE_VM, pgactivate),
    U64("pgd", SAMPLE_HAVE_VM, pgdeactivate),
    U64("sck", SAMPLE_HAVE_VM, pgscan_kswapd),
    U64("scd", SAMPLE_HAVE_VM, pgscan_direct),
    U64("stk", SAMPLE_HAVE_VM, pgsteal_kswapd),
    U64("std", SAMPLE_HAVE_VM, pgsteal_direct),
    U64("mjf", SAMPLE_HAVE_VM, pgmajfault),
    U64("pgi", SAMPLE_HAVE_VM, pgpgin),
    U64("pgo", SAMPLE_HAVE_VM, pgpgout),
    U64("swi", SAMPLE_HAVE_VM, pswpin),
    U64("swo", SAMPLE_HAVE_VM, pswpout),

    U64("scf", SAMPLE_HAVE_VMX, pgscan_file),
    U64("sca", SAMPLE_HAVE_VMX, pgscan_anon),
    U64("stf", SAMPLE_HAVE_VMX, pgsteal_file),
    U64("sta", SAMPLE_HAVE_VMX, pgsteal_anon),
    U64("rff", SAMPLE_HAVE_VMX, refault_file),
    U64("acf", SAMPLE_HAVE_VMX, activate_file),

    U64("rio", SAMPLE_HAVE_DISK, rd_ios),
    U64("rse", SAMPLE_HAVE_DISK, rd_sectors),
    U64("wio", SAMPLE_HAVE_DISK, wr_ios),
    U64("wse", SAMPLE_HAVE_DISK, wr_sectors),
    U64("iom", SAMPLE_HAVE_DISK, io_ms),
    U32("ifl", SAMPLE_HAVE_DISK, in_flight),
    U32("did", SAMPLE_HAVE_DISK, disk_id),

    U64("cu", SAMPLE_HAVE_CPU, cpu_user),
    U64("cn", SAMPLE_HAVE_CPU, cpu_nice),
    U64("cs", SAMPLE_HAVE_CPU, cpu_sys),
    U64("ci", SAMPLE_HAVE_CPU, cpu_idle),
    U64("cw", SAMPLE_HAVE_CPU, cpu_iowait),
    U64("cq", SAMPLE_HAVE_CPU, cpu_irq),
    U64("csq", SAMPLE_HAVE_CPU, cpu_softirq),
    U64("cst", SAMPLE_HAVE_CPU, cpu_steal),
    U64("itr", SAMPLE_HAVE_CPU, intr),
    U64("ctx", SAMPLE_HAVE_CPU, ctxt),
    U32("prr", SAMPLE_HAVE_CPU, procs_running),
    U32("prb", SAMPLE_HAVE_CPU, procs_blocked),

    F32("pms", SAMPLE_HAVE_PSI_MEM, psi_mem_some),
    F32("pmf", SAMPLE_HAVE_PSI_MEM, psi_mem_full),
    U64("pmu", SAMPLE_HAVE_PSI_MEM, psi_mem_some_us),
    F32("pis", SAMPLE_HAVE_PSI_IO, psi_io_some),
    F32("pif", SAMPLE_HAVE_PSI_IO, psi_io_full),
    U64("piu", SAMPLE_HAVE_PSI_IO, psi_io_some_us),

    U64("gaf", SAMPLE_HAVE_CG, cg_active_file),
    U64("gif", SAMPLE_HAVE_CG, cg_inactive_file),
    U64("gca", SAMPLE_HAVE_CG, cg_cache),
    U64("gus", SAMPLE_HAVE_CG, cg_usage),
    U64("gli", SAMPLE_HAVE_CG, cg_limit),
    U64("gdy", SAMPLE_HAVE_CG, cg_dirty),
    U64("gpd", SAMPLE_HAVE_CG_DEACT, cg_pgdeactivate),

    /* page-cache residency (minor 1): source "pcs*", destination "pcd*" */
    U64("pcsp", SAMPLE_HAVE_RES, res_src.pages),
    U64("pcsc", SAMPLE_HAVE_RES, res_src.cached),
    U64("pcsd", SAMPLE_HAVE_RES, res_src.dirty),
    U64("pcsw", SAMPLE_HAVE_RES, res_src.writeback),
    U64("pcse", SAMPLE_HAVE_RES, res_src.evicted),
    U64("pcsr", SAMPLE_HAVE_RES, res_src.recently_evicted),
    U8("pcsm", SAMPLE_HAVE_RES, res_src.method),
    U64("pcdp", SAMPLE_HAVE_RES, res_dst.pages),
    U64("pcdc", SAMPLE_HAVE_RES, res_dst.cached),
    U64("pcdd", SAMPLE_HAVE_RES, res_dst.dirty),
    U64("pcdw", SAMPLE_HAVE_RES, res_dst.writeback),
    U64("pcde", SAMPLE_HAVE_RES, res_dst.evicted),
    U64("pcdr", SAMPLE_HAVE_RES, res_dst.recently_evicted),
    U8("pcdm", SAMPLE_HAVE_RES, res_dst.method),
    U32("prn", SAMPLE_HAVE_PROBE, probe_n),
    U32("prs", SAMPLE_HAVE_PROBE, probe_slow),
    U64("pr5", SAMPLE_HAVE_PROBE, probe_p50),
    U64("pr9", SAMPLE_HAVE_PROBE, probe_p99),
    U64("prx", SAMPLE_HAVE_PROBE, probe_max),

    /* the run's own disk bytes from its io cgroup (cgio.h) */
    U64("gir", SAMPLE_HAVE_CG_IO, cg_rd_bytes),
    U64("giw", SAMPLE_HAVE_CG_IO, cg_wr_bytes),
    U32("gig", SAMPLE_HAVE_CG_IO, cg_io_gen),

    /* MGLRU's generations (minor 2): file pages, youngest first */
    U64("lg0", SAMPLE_HAVE_GEN, gen_file[0]),
    U64("lg1", SAMPLE_HAVE_GEN, gen_file[1]),
    U64("lg2", SAMPLE_HAVE_GEN, gen_file[2]),
    U64("lg3", SAMPLE_HAVE_GEN, gen_file[3]),
    U64("lgs", SAMPLE_HAVE_GEN, gen_seq),
    U8("lgn", SAMPLE_HAVE_GEN, gen_n),
};

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
