/*
 * sample — one tick's raw counters, exactly as the kernel reported them.
 *
 * Invariants: a sample holds absolute values only (never rates: rates are
 * computed later from two samples and their measured time delta, see
 * rates.h).  Each group of fields is meaningful only when its SAMPLE_HAVE_*
 * bit is set in `have`; a missing /proc file clears its bit instead of
 * inventing zeros.  The struct is plain data so the series can copy it and a
 * recording can store it field by field.
 */
#ifndef LRUTOP_SAMPLE_H
#define LRUTOP_SAMPLE_H

#include <stdint.h>

enum {
	SAMPLE_HAVE_MEM = 1u << 0,  /* /proc/meminfo */
	SAMPLE_HAVE_VM = 1u << 1,   /* /proc/vmstat via libproc2 */
	SAMPLE_HAVE_VMX = 1u << 2,  /* /proc/vmstat keys libproc2 lacks */
	SAMPLE_HAVE_DISK = 1u << 3, /* the watched disk in /proc/diskstats */
	SAMPLE_HAVE_CPU = 1u << 4,  /* /proc/stat */
	SAMPLE_HAVE_PSI_MEM = 1u << 5,
	SAMPLE_HAVE_PSI_IO = 1u << 6,
	SAMPLE_HAVE_CG = 1u << 7, /* a run's memory cgroup */
	SAMPLE_HAVE_CG_DEACT = 1u << 8, /* ... with its own pgdeactivate (v2) */
	SAMPLE_HAVE_RES = 1u << 9, /* page-cache residency of the run's files */
	SAMPLE_HAVE_PROBE = 1u << 11,	/* --probe: its reads since the last sample */
	SAMPLE_HAVE_CG_IO = 1u << 12,	 /* the run's own disk bytes, its io cgroup */
	SAMPLE_HAVE_CG_IO_WB = 1u << 13, /* ... writes with write-back (v2) */
	SAMPLE_HAVE_GEN = 1u << 14,	 /* MGLRU's generations, debugfs lru_gen */
	SAMPLE_HAVE_GEN_CG = 1u << 15,	 /* ... of the run's memcg, not the system */
	SAMPLE_HAVE_MGLRU = 1u << 16,	 /* a flag, no fields: the kernel ran MGLRU (machine.h) */
};

#define SAMPLE_GENS 4 /* LRU_GEN_MAX: MGLRU generations a sample holds */

/* struct sample's strategy when the run is no strategy of the table. */
#define SAMPLE_STRATEGY_NONE UINT8_MAX

struct sample {
	uint64_t t_ns; /* CLOCK_MONOTONIC when the sample was taken */
	uint32_t have; /* SAMPLE_HAVE_* */

	/* /proc/meminfo, KiB */
	uint64_t mem_total, mem_free, mem_avail;
	uint64_t active, inactive, active_file, inactive_file, active_anon, inactive_anon;
	uint64_t cached, dirty, writeback, swap_total, swap_free;

	/* /proc/vmstat event counters (pages or events since boot) */
	uint64_t pgactivate, pgdeactivate;
	uint64_t pgscan_kswapd, pgscan_direct, pgsteal_kswapd, pgsteal_direct;
	uint64_t pgmajfault, pgpgin, pgpgout, pswpin, pswpout;
	/* ... and those libproc2 4.0.x cannot see (SAMPLE_HAVE_VMX) */
	uint64_t pgscan_file, pgscan_anon, pgsteal_file, pgsteal_anon;
	uint64_t refault_file, activate_file;

	/* the watched disk, /proc/diskstats (sectors are 512 bytes, always) */
	uint64_t rd_ios, rd_sectors, wr_ios, wr_sectors, io_ms;
	uint32_t in_flight;
	uint32_t disk_id; /* changes when the watched device is re-created */

	/* /proc/stat */
	uint64_t cpu_user, cpu_nice, cpu_sys, cpu_idle, cpu_iowait, cpu_irq, cpu_softirq,
	    cpu_steal;
	uint64_t intr, ctxt;
	uint32_t procs_running, procs_blocked;

	/* /proc/pressure/{memory,io}: avg10 in percent, totals in µs */
	float psi_mem_some, psi_mem_full, psi_io_some, psi_io_full;
	uint64_t psi_mem_some_us, psi_io_some_us;

	/* the run's memory cgroup (SAMPLE_HAVE_CG), bytes */
	uint64_t cg_active_file, cg_inactive_file, cg_cache, cg_usage, cg_limit;
	uint64_t cg_pgdeactivate; /* v2 memory.stat only (SAMPLE_HAVE_CG_DEACT) */
	uint64_t cg_dirty;	  /* file pages dirty or under writeback (v1 dirty +
				   * writeback, v2 file_dirty + file_writeback) */

	/* page-cache residency of the run's source and destination
	 * (SAMPLE_HAVE_RES, residency.h), in pages.  method: enum
	 * residency_method, 0 when that file was not read; under mincore only
	 * pages and cached are known (the rest stay 0). */
	struct sample_res {
		uint64_t pages, cached, dirty, writeback, evicted, recently_evicted;
		uint8_t method;
	} res_src, res_dst;

	/* --probe (SAMPLE_HAVE_PROBE): the reads that arrived since the last
	 * sample, their p50 / p99 / max latency (ns, histogram.h) and how many
	 * took over 100 ms; n == 0: no read arrived (a stalled probe) */
	uint32_t probe_n, probe_slow;
	uint64_t probe_p50, probe_p99, probe_max;
	/* the run's own bytes read and written on the watched disk, from its
	 * io (v2) / blkio (v1) cgroup (SAMPLE_HAVE_CG_IO, cgio.h), counted
	 * since the cgroup was made; cg_io_gen changes with the cgroup.  v1
	 * charges buffered write-back to the root cgroup: cg_wr_bytes is the
	 * run's writes only with SAMPLE_HAVE_CG_IO_WB (v2). */
	uint64_t cg_rd_bytes, cg_wr_bytes;
	uint32_t cg_io_gen;

	/* MGLRU's generations (SAMPLE_HAVE_GEN, lru_gen.h): of the run's
	 * memcg with SAMPLE_HAVE_GEN_CG, else of every memcg summed by age.
	 * gen_file: file pages per generation, [0] the youngest, gen_n of
	 * them; gen_seq: max_seq summed over the lruvecs read, so it grows by
	 * one for every aging of each (a new youngest generation). */
	uint64_t gen_file[SAMPLE_GENS];
	uint64_t gen_seq;
	uint8_t gen_n;

	/* what the worker was doing when the sample was taken */
	int16_t run;   /* run index, -1 while idle */
	int8_t phase;  /* enum phase */
	uint8_t strategy; /* index into the strategy table, valid when run >= 0;
			   * SAMPLE_STRATEGY_NONE: a --cmd, or one this build lacks */
};

/* Per-device counters for the iostat view (all devices, not just the watched
 * one).  Kept outside struct sample so the history ring stays small. */
#define DISKTAB_MAX 64
struct disk_counters {
	char name[32];
	int is_disk;
	uint64_t rd_ios, rd_merges, rd_sectors, rd_ms;
	uint64_t wr_ios, wr_merges, wr_sectors, wr_ms;
	uint64_t io_ms, weighted_ms;
	uint32_t in_flight;
};
struct disktab {
	uint64_t t_ns;
	int n;
	struct disk_counters dev[DISKTAB_MAX];
};

#endif
