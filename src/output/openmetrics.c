#include "output/openmetrics.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/phase.h"
#include "model/sawtooth.h"
#include "sampling/sample.h"
#include "recording/spool.h"
#include "model/sweep.h"
#include "base/util.h"

/* ---- the machine's series: one row per series, rows of a family together -- */

enum om_kind {
	K_U64,	   /* a uint64_t field times mul (or divided by div) */
	K_U32,	   /* a uint32_t field */
	K_F32,	   /* a float field divided by div (PSI's percent -> ratio) */
	K_RES,	   /* a struct sample_res's page count: only when that file was read */
	K_RUN,	   /* the run of the moment, 1-based, 0 between runs */
	K_PHASE,   /* enum phase of the moment */
	K_PROBE_N, /* the probe's reads, summed (a counter) */
	K_PROBE_SLOW,
	K_PROBE_LAT, /* a latency, ns, when a read arrived */
};

struct om_metric {
	const char *name;
	const char *type;   /* "gauge", "counter" */
	const char *unit;   /* gauges: "bytes", "seconds", "ratio", NULL none */
	const char *help;   /* the family's; one line */
	const char *labels; /* this series' own label pairs, NULL none */
	uint32_t have;	    /* SAMPLE_HAVE_* it needs, 0: every sample */
	enum om_kind kind;
	size_t off;
	uint64_t mul;
	double div; /* 0: integer (mul) */
};

#define F(field)	 offsetof(struct sample, field)
#define RES(file, field) (offsetof(struct sample, file) + offsetof(struct sample_res, field))
#define KIB(n, f, h, l)                                                                            \
	{                                                                                          \
		n, "gauge", "bytes", h, l, SAMPLE_HAVE_MEM, K_U64, F(f), 1024, 0                   \
	}
#define VMC(n, f, h, l, hv)                                                                        \
	{                                                                                          \
		n, "counter", NULL, h, l, hv, K_U64, F(f), 1, 0                                    \
	}

static const struct om_metric metrics[] = {
    /* clang-format off */
	KIB("lrutop_memory_total_bytes", mem_total, "MemTotal.", NULL),
	KIB("lrutop_memory_free_bytes", mem_free, "MemFree: memory nothing uses.", NULL),
	KIB("lrutop_memory_available_bytes", mem_avail, "MemAvailable: what could be had without swapping.", NULL),
	KIB("lrutop_memory_lru_bytes", active_file, "The kernel's LRU lists (under MGLRU active: the two youngest generations).", "lru=\"active_file\""),
	KIB("lrutop_memory_lru_bytes", inactive_file, NULL, "lru=\"inactive_file\""),
	KIB("lrutop_memory_lru_bytes", active_anon, NULL, "lru=\"active_anon\""),
	KIB("lrutop_memory_lru_bytes", inactive_anon, NULL, "lru=\"inactive_anon\""),
	KIB("lrutop_memory_cached_bytes", cached, "Cached: the page cache.", NULL),
	KIB("lrutop_memory_dirty_bytes", dirty, "Dirty: file pages to write back.", NULL),
	KIB("lrutop_memory_writeback_bytes", writeback, "Writeback: file pages being written.", NULL),
	VMC("lrutop_vmstat_pgactivate_total", pgactivate, "Pages moved to the active list.", NULL, SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgdeactivate_total", pgdeactivate, "Pages moved to the inactive list.", NULL, SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgscan_total", pgscan_kswapd, "Pages scanned by reclaim, by kswapd or direct reclaim.", "by=\"kswapd\"", SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgscan_total", pgscan_direct, NULL, "by=\"direct\"", SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgsteal_total", pgsteal_kswapd, "Pages reclaimed, by kswapd or direct reclaim.", "by=\"kswapd\"", SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgsteal_total", pgsteal_direct, NULL, "by=\"direct\"", SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_pgmajfault_total", pgmajfault, "Major page faults.", NULL, SAMPLE_HAVE_VM),
	VMC("lrutop_vmstat_workingset_refault_file_total", refault_file, "File pages read again soon after they were evicted.", NULL, SAMPLE_HAVE_VMX),
	VMC("lrutop_vmstat_workingset_activate_file_total", activate_file, "Refaulted file pages activated at once.", NULL, SAMPLE_HAVE_VMX),
	{"lrutop_disk_read_bytes_total", "counter", NULL, "Bytes read from the watched disk.", NULL, SAMPLE_HAVE_DISK, K_U64, F(rd_sectors), 512, 0},
	{"lrutop_disk_written_bytes_total", "counter", NULL, "Bytes written to the watched disk.", NULL, SAMPLE_HAVE_DISK, K_U64, F(wr_sectors), 512, 0},
	{"lrutop_disk_io_time_seconds_total", "counter", NULL, "Time the watched disk was busy.", NULL, SAMPLE_HAVE_DISK, K_U64, F(io_ms), 1, 1e3},
	{"lrutop_disk_io_now", "gauge", NULL, "I/Os in flight on the watched disk.", NULL, SAMPLE_HAVE_DISK, K_U32, F(in_flight), 1, 0},
	{"lrutop_pressure_stalled_seconds_total", "counter", NULL, "PSI: time some task stalled on memory or I/O.", "resource=\"memory\",kind=\"some\"", SAMPLE_HAVE_PSI_MEM, K_U64, F(psi_mem_some_us), 1, 1e6},
	{"lrutop_pressure_stalled_seconds_total", "counter", NULL, NULL, "resource=\"io\",kind=\"some\"", SAMPLE_HAVE_PSI_IO, K_U64, F(psi_io_some_us), 1, 1e6},
	{"lrutop_pressure_avg10_ratio", "gauge", "ratio", "PSI: the share of the last 10 s stalled.", "resource=\"memory\",kind=\"some\"", SAMPLE_HAVE_PSI_MEM, K_F32, F(psi_mem_some), 1, 100},
	{"lrutop_pressure_avg10_ratio", "gauge", "ratio", NULL, "resource=\"memory\",kind=\"full\"", SAMPLE_HAVE_PSI_MEM, K_F32, F(psi_mem_full), 1, 100},
	{"lrutop_pressure_avg10_ratio", "gauge", "ratio", NULL, "resource=\"io\",kind=\"some\"", SAMPLE_HAVE_PSI_IO, K_F32, F(psi_io_some), 1, 100},
	{"lrutop_pressure_avg10_ratio", "gauge", "ratio", NULL, "resource=\"io\",kind=\"full\"", SAMPLE_HAVE_PSI_IO, K_F32, F(psi_io_full), 1, 100},
	{"lrutop_cgroup_memory_usage_bytes", "gauge", "bytes", "The run's memory cgroup: its usage.", NULL, SAMPLE_HAVE_CG, K_U64, F(cg_usage), 1, 0},
	{"lrutop_cgroup_memory_limit_bytes", "gauge", "bytes", "The run's memory cgroup: its limit.", NULL, SAMPLE_HAVE_CG, K_U64, F(cg_limit), 1, 0},
	{"lrutop_cgroup_lru_bytes", "gauge", "bytes", "The run's memory cgroup: its file LRU lists.", "lru=\"active_file\"", SAMPLE_HAVE_CG, K_U64, F(cg_active_file), 1, 0},
	{"lrutop_cgroup_lru_bytes", "gauge", "bytes", NULL, "lru=\"inactive_file\"", SAMPLE_HAVE_CG, K_U64, F(cg_inactive_file), 1, 0},
	{"lrutop_cgroup_dirty_bytes", "gauge", "bytes", "The run's memory cgroup: file pages dirty or under write-back.", NULL, SAMPLE_HAVE_CG, K_U64, F(cg_dirty), 1, 0},
	VMC("lrutop_cgroup_pgdeactivate_total", cg_pgdeactivate, "The run's memory cgroup: pages deactivated.", NULL, SAMPLE_HAVE_CG_DEACT),
	{"lrutop_cgroup_disk_read_bytes_total", "counter", NULL, "The run's own bytes read from the watched disk (its io cgroup).", NULL, SAMPLE_HAVE_CG_IO, K_U64, F(cg_rd_bytes), 1, 0},
	{"lrutop_cgroup_disk_written_bytes_total", "counter", NULL, "The run's own bytes written to the watched disk, with write-back (cgroup v2).", NULL, SAMPLE_HAVE_CG_IO_WB, K_U64, F(cg_wr_bytes), 1, 0},
	{"lrutop_page_cache_file_bytes", "gauge", "bytes", "The run's source and destination: their size and how much is cached.", "file=\"src\",state=\"size\"", SAMPLE_HAVE_RES, K_RES, RES(res_src, pages), 1, 0},
	{"lrutop_page_cache_file_bytes", "gauge", "bytes", NULL, "file=\"src\",state=\"cached\"", SAMPLE_HAVE_RES, K_RES, RES(res_src, cached), 1, 0},
	{"lrutop_page_cache_file_bytes", "gauge", "bytes", NULL, "file=\"dst\",state=\"size\"", SAMPLE_HAVE_RES, K_RES, RES(res_dst, pages), 1, 0},
	{"lrutop_page_cache_file_bytes", "gauge", "bytes", NULL, "file=\"dst\",state=\"cached\"", SAMPLE_HAVE_RES, K_RES, RES(res_dst, cached), 1, 0},
	{"lrutop_probe_latency_seconds", "gauge", "seconds", "--probe: the latency of its reads since the sample before.", "stat=\"p50\"", SAMPLE_HAVE_PROBE, K_PROBE_LAT, F(probe_p50), 1, 1e9},
	{"lrutop_probe_latency_seconds", "gauge", "seconds", NULL, "stat=\"p99\"", SAMPLE_HAVE_PROBE, K_PROBE_LAT, F(probe_p99), 1, 1e9},
	{"lrutop_probe_latency_seconds", "gauge", "seconds", NULL, "stat=\"max\"", SAMPLE_HAVE_PROBE, K_PROBE_LAT, F(probe_max), 1, 1e9},
	{"lrutop_probe_reads_total", "counter", NULL, "--probe: its 4K reads.", NULL, SAMPLE_HAVE_PROBE, K_PROBE_N, 0, 1, 0},
	{"lrutop_probe_slow_reads_total", "counter", NULL, "--probe: its reads that took over 100 ms.", NULL, SAMPLE_HAVE_PROBE, K_PROBE_SLOW, 0, 1, 0},
	{"lrutop_run_current", "gauge", NULL, "The run of the moment (the run label of lrutop_run_info), 0 between runs.", NULL, 0, K_RUN, 0, 1, 0},
	{"lrutop_run_phase", "gauge", NULL, "The phase of the moment (the code label of lrutop_phase_info).", NULL, 0, K_PHASE, 0, 1, 0},
    /* clang-format on */
};
#define NMETRICS (sizeof(metrics) / sizeof(metrics[0]))

/* ---- the per-run families, a point at each finished run's end ---------- */

enum run_fig {
	R_ELAPSED,
	R_USER,
	R_SYS,
	R_BYTES,
	R_RATE,
	R_BURSTS,
	R_READ_CV,
	R_WRITE_CV,
	R_READ_RATIO,
	R_PEAK_ACTIVE,
	R_DEACT,
	R_REFAULT,
	R_MAJFLT,
	R_SUCCEEDED,
	R_PROBE_P50,
	R_PROBE_P99,
	R_PROBE_P999,
	R_PROBE_MAX,
};

struct om_run_metric {
	const char *name, *unit, *help, *labels;
	enum run_fig fig;
};

static const struct om_run_metric run_metrics[] = {
    /* clang-format off */
	{"lrutop_run_elapsed_seconds", "seconds", "A run's elapsed time (its copy, flush and sync).", NULL, R_ELAPSED},
	{"lrutop_run_user_seconds", "seconds", "A run's user CPU time.", NULL, R_USER},
	{"lrutop_run_system_seconds", "seconds", "A run's system CPU time.", NULL, R_SYS},
	{"lrutop_run_copied_bytes", "bytes", "The bytes a run copied.", NULL, R_BYTES},
	{"lrutop_run_throughput_bytes_per_second", NULL, "A run's bytes over its elapsed time.", NULL, R_RATE},
	{"lrutop_run_bursts", NULL, "A run's write-back bursts (the saw-tooth).", NULL, R_BURSTS},
	{"lrutop_run_read_cv_ratio", "ratio", "A run's read rate: its coefficient of variation (rdCV).", NULL, R_READ_CV},
	{"lrutop_run_write_cv_ratio", "ratio", "A run's write rate: its coefficient of variation (wrCV).", NULL, R_WRITE_CV},
	{"lrutop_run_read_copy_ratio", "ratio", "The bytes a run read from the disk per byte it copied (rd/cp).", NULL, R_READ_RATIO},
	{"lrutop_run_peak_active_file_bytes", "bytes", "The most active file memory during a run.", NULL, R_PEAK_ACTIVE},
	{"lrutop_run_deactivated_pages", NULL, "Pages deactivated during a run.", NULL, R_DEACT},
	{"lrutop_run_refaulted_pages", NULL, "File pages refaulted during a run.", NULL, R_REFAULT},
	{"lrutop_run_major_faults", NULL, "A run's major page faults.", NULL, R_MAJFLT},
	{"lrutop_run_ok", NULL, "1 when a run succeeded, 0 when it failed or was cancelled.", NULL, R_SUCCEEDED},
    /* clang-format on */
};
#define NRUN_METRICS (sizeof(run_metrics) / sizeof(run_metrics[0]))

/* --probe's latency during a run: a summary family, not a gauge (a
 * "quantile" label is a summary's own: promtool refuses it on anything
 * else).  Per run its quantiles that enough reads tell, the maximum as
 * quantile 1.0 (OpenMetrics' canonical rendering of 1), then NAME_count,
 * the reads; no NAME_sum, which both text formats let a summary leave
 * out: the probe keeps a histogram, not a sum. */
#define PROBE_SUMMARY "lrutop_run_probe_latency_seconds"
static const struct {
	const char *quantile;
	enum run_fig fig;
} probe_quantiles[] = {
    {"0.5", R_PROBE_P50},
    {"0.99", R_PROBE_P99},
    {"0.999", R_PROBE_P999},
    {"1.0", R_PROBE_MAX},
};

const char *om_metric_name(size_t i)
{
	if (i < NMETRICS)
		return metrics[i].name;
	i -= NMETRICS;
	if (i < NRUN_METRICS)
		return run_metrics[i].name;
	i -= NRUN_METRICS;
	static const char *const more[] = {"lrutop_bursts_total",   "lrutop_runs_total",
					   "lrutop_run_info",	    "lrutop_phase_info",
					   "lrutop_recording_info", "lrutop_up"};
	return i < sizeof(more) / sizeof(more[0]) ? more[i] : NULL;
}

/* ---- text ----------------------------------------------------------------- */

void om_label_value(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\')
			fputs("\\\\", f);
		else if (c == '"')
			fputs("\\\"", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (text_ctrl(c))
			fputc('?', f);
		else
			fputc(c, f);
	}
}

int om_name_valid(const char *name)
{
	if (!name || !*name)
		return 0;
	for (const char *p = name; *p; p++) {
		char c = *p;
		int alpha =
		    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
		if (!alpha && !(p > name && c >= '0' && c <= '9'))
			return 0;
	}
	return 1;
}

double om_wall_parse(const char *iso)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	const char *end = iso ? strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	if (!end)
		return -1;
	double frac = 0;
	if (*end == '.') {
		char *e2;
		frac = strtod(end, &e2);
		end = e2;
	}
	if (strcmp(end, "Z"))
		return -1;
	time_t t = timegm(&tm);
	return t < 0 ? -1 : (double)t + frac;
}

/* The writer's state: the style, the labels every series carries, the
 * family whose header is out. */
struct om_out {
	FILE *f;
	const struct om_input *in;
	enum om_style style;
	const char *family; /* the last header written, NULL none */
	int nlabels;	    /* of the series being written */
};

/* The family's header once, before its first point. */
static void family(struct om_out *o, const char *name, const char *type, const char *unit,
		   const char *help)
{
	if (o->family && !strcmp(o->family, name))
		return;
	o->family = name;
	fprintf(o->f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
	if (unit && o->style == OM_EXPORT)
		fprintf(o->f, "# UNIT %s %s\n", name, unit);
}

static void label(struct om_out *o, const char *key, const char *value)
{
	fprintf(o->f, "%s%s=\"", o->nlabels++ ? "," : "{", key);
	om_label_value(o->f, value ? value : "");
	fputc('"', o->f);
}

/* A series' name and labels: open_series (the host and the session every
 * series has), then label() or raw pairs (labels()), then the value
 * (put_*) closes the braces. */
static void open_series(struct om_out *o, const char *name)
{
	fputs(name, o->f);
	o->nlabels = 0;
	label(o, "host", o->in->host);
	label(o, "session", o->in->session);
}

/* pairs already escaped (the tables' constants), NULL none */
static void labels(struct om_out *o, const char *pairs)
{
	if (pairs)
		fprintf(o->f, "%s%s", o->nlabels++ ? "," : "{", pairs);
}

/* the series' labels end, its value follows */
static void end_labels(struct om_out *o)
{
	if (o->nlabels)
		fputc('}', o->f);
	o->nlabels = 0;
}

static void stamp(struct om_out *o, long ts)
{
	if (o->style == OM_EXPORT)
		fprintf(o->f, " %ld", ts);
	fputc('\n', o->f);
}

static void put_u64(struct om_out *o, uint64_t v, long ts)
{
	end_labels(o);
	fprintf(o->f, " %" PRIu64, v);
	stamp(o, ts);
}

/* digits: 15 for a double's figure, 7 for a float's (PSI), so neither
 * shows the binary's noise */
static void put_num(struct om_out *o, double v, int digits, long ts)
{
	end_labels(o);
	fprintf(o->f, " %.*g", digits, v);
	stamp(o, ts);
}

static void put_dbl(struct om_out *o, double v, long ts)
{
	put_num(o, v, 15, ts);
}

static long wall_of(const struct om_input *in, uint64_t t_ns)
{
	double d = ((double)t_ns - (double)in->mono0_ns) / 1e9;
	return (long)floor(in->wall0_s + d);
}

static uint64_t field_u64(const struct sample *s, size_t off)
{
	uint64_t v;
	memcpy(&v, (const char *)s + off, sizeof(v));
	return v;
}

/* One point of metric m at sample s: 0 when s has none (its group
 * missing, no probe read, the file not read). */
static int point(const struct om_metric *m, const struct sample *s, const struct om_input *in,
		 uint64_t *u, double *d, int *is_dbl, uint64_t sum_n, uint64_t sum_slow)
{
	if (m->have && !(s->have & m->have))
		return 0;
	*is_dbl = 0;
	long ps = in->page_size > 0 ? in->page_size : 4096;
	switch (m->kind) {
	case K_U64:
		*u = field_u64(s, m->off) * m->mul;
		if (m->div > 0) {
			*d = (double)*u / m->div;
			*is_dbl = 1;
		}
		return 1;
	case K_U32: {
		uint32_t v;
		memcpy(&v, (const char *)s + m->off, sizeof(v));
		*u = v;
		return 1;
	}
	case K_F32: {
		float v;
		memcpy(&v, (const char *)s + m->off, sizeof(v));
		if (isnan(v))
			return 0;
		*d = (double)v / m->div;
		*is_dbl = 7;
		return 1;
	}
	case K_RES: {
		const struct sample_res *r =
		    m->off >= offsetof(struct sample, res_dst) ? &s->res_dst : &s->res_src;
		if (!r->method)
			return 0;
		*u = field_u64(s, m->off) * (uint64_t)ps;
		return 1;
	}
	case K_RUN:
		*u = s->run >= 0 ? (uint64_t)s->run + 1 : 0;
		return 1;
	case K_PHASE:
		*u = s->phase >= 0 ? (uint64_t)s->phase : 0;
		return 1;
	case K_PROBE_N:
		*u = sum_n;
		return 1;
	case K_PROBE_SLOW:
		*u = sum_slow;
		return 1;
	case K_PROBE_LAT:
		if (!s->probe_n)
			return 0;
		*d = (double)field_u64(s, m->off) / m->div;
		*is_dbl = 1;
		return 1;
	}
	return 0;
}

/* Row m's line for sample s, after its family's header when help is not
 * NULL: 1 when it has a point there, 0 when not. */
static int series_point(struct om_out *o, const struct om_metric *m, const char *help,
			const struct sample *s, uint64_t sum_n, uint64_t sum_slow, long ts)
{
	uint64_t u = 0;
	double d = 0;
	int dbl = 0;
	if (!point(m, s, o->in, &u, &d, &dbl, sum_n, sum_slow))
		return 0;
	if (help)
		family(o, m->name, m->type, m->unit, help);
	open_series(o, m->name);
	labels(o, m->labels);
	if (dbl)
		put_num(o, d, dbl == 7 ? 7 : 15, ts);
	else
		put_u64(o, u, ts);
	return 1;
}

/* One row of the table over the series: every sample that is the last of
 * its second (OM_EXPORT), or the newest (OM_TEXTFILE). */
static void machine_series(struct om_out *o, const struct om_metric *m, const char *help)
{
	const struct om_input *in = o->in;
	size_t n = series_len(in->ser);
	size_t from = o->style == OM_TEXTFILE && n ? n - 1 : 0;
	uint64_t sum_n = in->probe_reads, sum_slow = in->probe_slow;
	if (o->style == OM_EXPORT)
		sum_n = sum_slow = 0;
	for (size_t i = from; i < n; i++) {
		const struct sample *s = series_at(in->ser, i);
		long ts = 0;
		if (o->style == OM_EXPORT) {
			if (s->have & SAMPLE_HAVE_PROBE) {
				sum_n += s->probe_n;
				sum_slow += s->probe_slow;
			}
			ts = wall_of(in, s->t_ns);
			if (i + 1 < n && wall_of(in, series_at(in->ser, i + 1)->t_ns) == ts)
				continue; /* the second's last sample stands for it */
		}
		series_point(o, m, help, s, sum_n, sum_slow, ts);
	}
}

/* ---- runs ------------------------------------------------------------------ */

static int run_fig(const struct run_result *r, enum run_fig fig, double *v)
{
	const struct probe_figures *p = &r->probe;
	*v = NAN;
	switch (fig) {
	case R_ELAPSED:
		*v = r->elapsed_s;
		break;
	case R_USER:
		*v = r->user_s;
		break;
	case R_SYS:
		*v = r->sys_s;
		break;
	case R_BYTES:
		*v = (double)r->bytes;
		break;
	case R_RATE:
		*v = r->elapsed_s > 0 ? (double)r->bytes / r->elapsed_s : NAN;
		break;
	case R_BURSTS:
		*v = r->bursts;
		break;
	case R_READ_CV:
		*v = r->read_cv;
		break;
	case R_WRITE_CV:
		*v = r->write_cv;
		break;
	case R_READ_RATIO:
		*v = sawtooth_read_ratio(r);
		break;
	case R_PEAK_ACTIVE:
		*v = (double)r->peak_active_file_kb * 1024;
		break;
	case R_DEACT:
		*v = (double)r->pgdeactivate;
		break;
	case R_REFAULT:
		*v = (double)r->refault_file;
		break;
	case R_MAJFLT:
		*v = (double)r->majflt;
		break;
	case R_SUCCEEDED:
		*v = r->ok && !r->cancelled;
		break;
	case R_PROBE_P50:
		*v = probe_quantile_known(p->n, 0.5) ? (double)p->p50_ns / 1e9 : NAN;
		break;
	case R_PROBE_P99:
		*v = probe_quantile_known(p->n, 0.99) ? (double)p->p99_ns / 1e9 : NAN;
		break;
	case R_PROBE_P999:
		*v = probe_quantile_known(p->n, 0.999) ? (double)p->p999_ns / 1e9 : NAN;
		break;
	case R_PROBE_MAX:
		*v = p->n ? (double)p->max_ns / 1e9 : NAN;
		break;
	}
	if ((fig >= R_PROBE_P50 && !p->n) || !isfinite(*v))
		return 0;
	return 1;
}

/* A limit as its option takes it and the exact unit it is a whole number
 * of ("64M", "1536M", "100000000"), "" none: a label value, exact where
 * the strategy label's "@32M" rounds. */
static void limit_text(char *buf, size_t len, uint64_t v)
{
	if (v)
		sweep_value_str(buf, len, v);
	else
		buf[0] = '\0';
}

/* NAME{host,session,run="N",strategy="LABEL",mem_limit,disk_limit[,pairs]}:
 * the run's own limits (a sweep's value, not the session's one). */
static void run_series(struct om_out *o, const char *name, size_t i, const struct run_result *r,
		       const char *pairs)
{
	char num[24], mem[24], disk[24];
	struct run_setting set;
	sweep_run_setting(r, o->in->mem_limit, o->in->disk_limit, &set);
	limit_text(mem, sizeof(mem), set.mem_limit);
	limit_text(disk, sizeof(disk), set.disk_limit);
	snprintf(num, sizeof(num), "%zu", i + 1);
	open_series(o, name);
	label(o, "run", num);
	label(o, "strategy", r->name);
	label(o, "mem_limit", mem);
	label(o, "disk_limit", disk);
	labels(o, pairs);
}

static long run_ts(const struct om_out *o, const struct run_result *r)
{
	return o->style == OM_EXPORT ? wall_of(o->in, r->t_end_ns ? r->t_end_ns : r->t_start_ns)
				     : 0;
}

static const char *verified_word(int v)
{
	return v == 1 ? "yes" : v == 0 ? "no" : v == -1 ? "unchecked" : "unverifiable";
}

/* The probe's summary, a run's points together (OpenMetrics: the points
 * of one series are not interleaved with another's). */
static void probe_summary(struct om_out *o)
{
	const struct om_input *in = o->in;
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (!r->finished || !r->probe.n)
			continue;
		family(o, PROBE_SUMMARY, "summary", "seconds",
		       "--probe: its read latency during a run, by quantile (when enough reads "
		       "tell it; 1.0 the slowest), and its reads (_count).");
		for (size_t q = 0; q < ARRAY_LEN(probe_quantiles); q++) {
			double v;
			if (!run_fig(r, probe_quantiles[q].fig, &v))
				continue;
			run_series(o, PROBE_SUMMARY, i, r, NULL);
			label(o, "quantile", probe_quantiles[q].quantile);
			put_dbl(o, v, run_ts(o, r));
		}
		run_series(o, PROBE_SUMMARY "_count", i, r, NULL);
		put_u64(o, r->probe.n, run_ts(o, r));
	}
}

static void runs_families(struct om_out *o)
{
	const struct om_input *in = o->in;
	char rep[16], sw[48];
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		if (!r->finished)
			continue;
		struct run_setting set;
		sweep_run_setting(r, in->mem_limit, in->disk_limit, &set);
		family(o, "lrutop_run_info", "gauge", NULL,
		       "A finished run (its run labels: strategy label and limits), its repeat, "
		       "the value its sweep set, the kernel and whether its copy was verified.");
		run_series(o, "lrutop_run_info", i, r, NULL);
		snprintf(rep, sizeof(rep), "%d", r->repeat);
		label(o, "repeat", rep);
		if (set.param) { /* --results's sweep column: PARAM=VALUE */
			snprintf(sw, sizeof(sw), "%s=%" PRIu64, sweep_param_name(set.param),
				 set.value);
			label(o, "sweep", sw);
		}
		label(o, "kernel", in->kernel);
		label(o, "verified", verified_word(r->verified));
		put_u64(o, 1, run_ts(o, r));
	}
	for (size_t k = 0; k < NRUN_METRICS; k++) {
		const struct om_run_metric *m = &run_metrics[k];
		const char *help = m->help;
		for (size_t j = k; !help && j-- > 0;)
			help = run_metrics[j].help;
		for (size_t i = 0; i < in->nruns; i++) {
			const struct run_result *r = &in->runs[i];
			double v;
			if (!r->finished || !run_fig(r, m->fig, &v))
				continue;
			family(o, m->name, "gauge", m->unit, help);
			run_series(o, m->name, i, r, m->labels);
			put_dbl(o, v, run_ts(o, r));
		}
	}
	probe_summary(o);
}

/* The counters of each strategy (label): bursts and runs so far, a point
 * at each of its runs' ends (the text file: the sum). */
static void strategy_counters(struct om_out *o, const char *name, const char *help, int bursts)
{
	const struct om_input *in = o->in;
	for (size_t i = 0; i < in->nruns; i++) {
		const struct run_result *r = &in->runs[i];
		int first = r->finished;
		for (size_t j = 0; j < i && first; j++)
			first = !in->runs[j].finished || strcmp(in->runs[j].name, r->name);
		if (!first)
			continue;
		uint64_t sum = 0;
		for (size_t j = i; j < in->nruns; j++) {
			const struct run_result *q = &in->runs[j];
			if (!q->finished || strcmp(q->name, r->name))
				continue;
			sum += bursts ? (uint64_t)(q->bursts > 0 ? q->bursts : 0) : 1;
			size_t k = j + 1; /* the strategy's next finished run */
			while (k < in->nruns &&
			       (!in->runs[k].finished || strcmp(in->runs[k].name, r->name)))
				k++;
			/* the text file: only the sum; an export: a point at each
			 * end but when the next ends in the same second */
			if (k < in->nruns &&
			    (o->style == OM_TEXTFILE || run_ts(o, &in->runs[k]) == run_ts(o, q)))
				continue;
			family(o, name, "counter", NULL, help);
			open_series(o, name);
			label(o, "strategy", r->name);
			put_u64(o, sum, run_ts(o, q));
		}
	}
}

/* What only the run log knows, after the machine's series: the runs'
 * families and the per-strategy counters (the export and the stream end
 * alike). */
static void result_families(struct om_out *o)
{
	runs_families(o);
	strategy_counters(o, "lrutop_bursts_total",
			  "Write-back bursts of the finished runs, by strategy.", 1);
	strategy_counters(o, "lrutop_runs_total", "Finished runs, by strategy.", 0);
}

/* What the codes of lrutop_run_phase mean, and the recording's machine:
 * at the first sample's time. */
static void info_families(struct om_out *o, long ts)
{
	const struct om_input *in = o->in;
	for (int p = 0; p < PHASE_COUNT; p++) {
		char code[8];
		snprintf(code, sizeof(code), "%d", p);
		family(o, "lrutop_phase_info", "gauge", NULL,
		       "The phases of a run and their codes in lrutop_run_phase.");
		open_series(o, "lrutop_phase_info");
		label(o, "phase", phase_name((enum phase)p));
		label(o, "code", code);
		put_u64(o, 1, ts);
	}
	family(o, "lrutop_recording_info", "gauge", NULL,
	       "The machine lrutop watched: its kernel and watched disk.");
	open_series(o, "lrutop_recording_info");
	label(o, "kernel", in->kernel);
	label(o, "device", in->device);
	put_u64(o, 1, ts);
}

int om_write(FILE *f, const struct om_input *in, enum om_style style, int (*stop)(void))
{
	struct om_out o = {.f = f, .in = in, .style = style};
	if (!series_len(in->ser) && style == OM_EXPORT)
		return ferror(f) ? -1 : 0;
	size_t n = series_len(in->ser);
	if (style == OM_TEXTFILE) {
		family(
		    &o, "lrutop_up", "gauge", NULL,
		    "1 while lrutop runs and rewrites this file, 0 in the file it leaves at exit.");
		open_series(&o, "lrutop_up");
		put_u64(&o, !in->ended, 0);
	}
	info_families(&o, n ? wall_of(in, series_at(in->ser, 0)->t_ns) : 0);
	const char *help = NULL;
	/* the file left at exit: no values of the moment, which the collector
	 * would serve as current for as long as the file stays */
	for (size_t k = 0; k < NMETRICS && !(style == OM_TEXTFILE && in->ended); k++) {
		if (metrics[k].help)
			help = metrics[k].help; /* the family's first row says it */
		machine_series(&o, &metrics[k], help);
		if (ferror(f))
			return -1;
		if (stop && stop())
			return 1;
	}
	result_families(&o);
	if (style == OM_EXPORT)
		fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}

/* ---- OM_EXPORT streamed: a file a row, joined at the end ------------------ */

/* OpenMetrics wants each family's points together, a recording gives them
 * a moment at a time: each row of the table gets a spool file of its own
 * (spool.h: no name, in OUT's directory), so the text is on disk, not in
 * memory; om_stream_finish writes the headers and copies the rows in the
 * table's order. */
struct om_stream {
	const struct om_input *in;
	FILE *f[NMETRICS];
	uint64_t nlines[NMETRICS];
	struct sample pending; /* the newest sample: the last of its second? */
	int have_pending;
	size_t nsamples;
	long pending_ts, ts0;
	uint64_t sum_n, sum_slow; /* the probe's reads so far */
	int failed;		  /* a row's file failed (ferror; errno as left) */
};

struct om_stream *om_stream_new(const char *dir, const struct om_input *in, char *err,
				size_t errlen)
{
	struct om_stream *x = xcalloc(1, sizeof(*x));
	x->in = in;
	for (size_t k = 0; k < NMETRICS; k++) {
		errno = 0;
		x->f[k] = spool_file(dir);
		if (!x->f[k]) {
			errf(err, errlen, "%s: cannot make a temporary file: %s", dir,
			     strerror(errno ? errno : EIO));
			om_stream_free(x);
			return NULL;
		}
	}
	return x;
}

/* The pending sample's lines, one a row that has a point there. */
static void stream_emit(struct om_stream *x)
{
	struct om_out o = {.in = x->in, .style = OM_EXPORT};
	for (size_t k = 0; k < NMETRICS; k++) {
		o.f = x->f[k];
		x->nlines[k] += (uint64_t)series_point(&o, &metrics[k], NULL, &x->pending,
						       x->sum_n, x->sum_slow, x->pending_ts);
		if (ferror(o.f))
			x->failed = 1;
	}
}

int om_stream_sample(struct om_stream *x, const struct sample *s)
{
	if (x->failed)
		return -1;
	long ts = wall_of(x->in, s->t_ns);
	/* the second's last sample stands for it (machine_series) */
	if (x->have_pending && ts != x->pending_ts)
		stream_emit(x);
	if (!x->nsamples++)
		x->ts0 = ts;
	if (s->have & SAMPLE_HAVE_PROBE) {
		x->sum_n += s->probe_n;
		x->sum_slow += s->probe_slow;
	}
	x->pending = *s;
	x->pending_ts = ts;
	x->have_pending = 1;
	return x->failed ? -1 : 0;
}

int om_stream_finish(struct om_stream *x, FILE *f, int (*stop)(void))
{
	if (x->have_pending) {
		stream_emit(x);
		x->have_pending = 0;
	}
	if (x->failed)
		return -1;
	struct om_out o = {.f = f, .in = x->in, .style = OM_EXPORT};
	if (!x->nsamples) /* as om_write: nothing at all */
		return ferror(f) ? -1 : 0;
	info_families(&o, x->ts0);
	const char *help = NULL;
	for (size_t k = 0; k < NMETRICS; k++) {
		if (metrics[k].help)
			help = metrics[k].help;
		if (x->nlines[k]) {
			family(&o, metrics[k].name, metrics[k].type, metrics[k].unit, help);
			if (spool_copy(x->f[k], f) < 0)
				return -1;
		}
		if (ferror(f))
			return -1;
		if (stop && stop())
			return 1;
	}
	result_families(&o);
	fputs("# EOF\n", f);
	return ferror(f) ? -1 : 0;
}

void om_stream_free(struct om_stream *x)
{
	if (!x)
		return;
	for (size_t k = 0; k < NMETRICS; k++)
		if (x->f[k])
			fclose(x->f[k]);
	free(x);
}
