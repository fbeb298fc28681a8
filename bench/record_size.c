/*
 * record_size — how big an hour of --record gets and what a line costs.
 *
 * Takes a few real samples and disk tables from this machine's /proc with
 * the sampler, then writes N samples (default 14 400: one hour at 0.25 s)
 * made from them with the counters moving as during a copy: the memory and
 * vmstat counters, the watched disk and every device that had I/O advance
 * each tick, idle devices (unused loop devices) stay put, as they do.  Runs
 * of 60 s with their phase events and results are interleaved, the run's
 * cgroup figures present while a run is on.  Plain and gzip are written
 * alike, timed per recorder_sample call (CLOCK_MONOTONIC).  --worst makes
 * every device's row change every tick (the delta encoding gains nothing).
 *
 *   build/bench/record_size [-n N] [--worst] [--keep DIR] [--limit MiB]
 *
 * The files go to a private directory under /var/tmp and are removed
 * (--keep DIR: written into DIR, which must exist, and kept).  Exits 1 when
 * the plain file exceeds --limit MiB (default 25), else 0.
 *
 * The generator of the history and export benches (bench/run, issue 19):
 *
 *   build/bench/record_size --out FILE [-n N] [-i SEC]
 *
 * writes one recording of N samples every SEC seconds (default 0.1) to FILE
 * (created new; gzip when it ends in ".gz") through the same recorder, with
 * the same runs and phases, and in every copy phase a demotion burst every
 * 40 samples (the run's cgroup v1 active_file falls by 24 of its 64 MiB
 * into inactive_file, burst.h's rule), then prints FILE's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recording/record.h"
#include "sampling/sampler.h"
#include "runs/strategy.h"
#include "base/util.h"

enum { NREAL = 16 };

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

struct figures {
	uint64_t bytes, header; /* the whole file, its header line */
	double med_us, mean_us, p99_us;
};

/* How the stream is made: every device's row changing (worst), the sampling
 * interval, and the bursts of the generator (bursts). */
struct synth {
	int worst, bursts;
	double interval_s;
};

static int write_one(const char *path, enum record_compress z, int n, const struct synth *sy,
		     const struct sample *real, const struct disktab *realtab, const char *disk,
		     struct figures *fig)
{
	int worst = sy->worst;
	uint64_t step_ns = (uint64_t)(sy->interval_s * 1e9 + 0.5);
	char err[512];
	struct record_header h;
	char *argv[] = {"lrutop", "--record", (char *)path, "-s", "rw_cp,mm_sync_cp", "-r", "30"};

	record_header_init(&h);
	strcpy(h.version, "bench");
	strlcpy_(h.device, disk, sizeof(h.device));
	snprintf(h.device_how, sizeof(h.device_how), "/var/tmp is on %s", disk);
	h.cgroup_version = 1;
	h.interval_s = sy->interval_s;
	h.argc = (int)ARRAY_LEN(argv);
	h.argv = argv;
	struct recorder *r = recorder_open(path, z, &h, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "record_size: %s\n", err);
		return -1;
	}
	fig->header = recorder_bytes(r);
	uint64_t *cost = xcalloc((size_t)n, sizeof(uint64_t));
	struct disktab tab;
	const int run_len = 240; /* 60 s at 0.25 s (24 s at the generator's 0.1 s) */
	int nruns = 0;
	for (int i = 0; i < n; i++) {
		struct sample s = real[i % NREAL];
		uint64_t k = (uint64_t)i;
		s.t_ns = real[0].t_ns + k * step_ns;
		s.mem_free += (k * 7919) % 100000, s.active_file += k * 64,
		    s.inactive_file += k * 61;
		s.cached += k * 125, s.dirty = (k * 1237) % 200000, s.writeback = (k * 97) % 8000;
		s.pgactivate += k * 311, s.pgdeactivate += k * 293, s.pgscan_kswapd += k * 997;
		s.pgsteal_kswapd += k * 991, s.pgpgin += k * 16384, s.pgpgout += k * 16000;
		s.pgscan_file += k * 997, s.pgsteal_file += k * 991, s.refault_file += k * 13;
		s.rd_ios += k * 128, s.rd_sectors += k * 65536, s.wr_ios += k * 130;
		s.wr_sectors += k * 64000, s.io_ms += k * 240, s.in_flight = (uint32_t)(k % 32);
		s.cpu_user += k * 5, s.cpu_sys += k * 20, s.cpu_idle += k * 25, s.cpu_iowait += k;
		s.intr += k * 4000, s.ctxt += k * 6000, s.procs_running = 1 + (uint32_t)(k % 3);
		s.psi_mem_some = (float)(k % 1000) / 100.0f,
		s.psi_io_some = (float)(k % 3000) / 100.0f;
		s.psi_mem_some_us += k * 1000, s.psi_io_some_us += k * 200000;

		int run = i / run_len, pos = i % run_len;
		int phase = pos < 8	? PHASE_PREPARE
			    : pos < 200 ? PHASE_COPY
			    : pos < 230 ? PHASE_FLUSH
			    : pos < 236 ? PHASE_VERIFY
					: PHASE_IDLE;
		s.run = phase == PHASE_IDLE ? -1 : (int16_t)run;
		s.phase = (int8_t)phase;
		s.strategy = (uint8_t)(run % 2 ? 2 : 0);
		if (s.run >= 0) {
			s.have |= SAMPLE_HAVE_CG;
			s.cg_active_file = (k * 4096 * 37) % (64u << 20);
			s.cg_inactive_file = (k * 4096 * 41) % (64u << 20);
			s.cg_cache = s.cg_active_file + s.cg_inactive_file;
			s.cg_usage = s.cg_cache + 1234567, s.cg_limit = 64u << 20;
			s.cg_dirty = (k * 4096 * 3) % (8u << 20);
			if (sy->bursts && phase == PHASE_COPY) {
				/* held at 40 MiB, and every 40th sample 24 MiB of it
				 * deactivated: a burst by burst.h's cgroup v1 rule */
				int b = pos % 40 == 39;
				s.cg_active_file = b ? 16u << 20 : 40u << 20;
				s.cg_inactive_file = b ? 40u << 20 : 16u << 20;
				s.cg_dirty = 1u << 20;
			}
		} else {
			s.have &= ~(uint32_t)(SAMPLE_HAVE_CG | SAMPLE_HAVE_CG_DEACT);
		}

		tab = realtab[i % NREAL];
		tab.t_ns = s.t_ns + 15000;
		for (int d = 0; d < tab.n; d++) {
			struct disk_counters *c = &tab.dev[d];
			int busy = worst || c->rd_ios + c->wr_ios > 0;
			if (!busy)
				continue;
			c->rd_ios += k * 128, c->rd_merges += k * 3, c->rd_sectors += k * 65536;
			c->rd_ms += k * 90, c->wr_ios += k * 130, c->wr_merges += k * 17;
			c->wr_sectors += k * 64000, c->wr_ms += k * 700, c->io_ms += k * 240;
			c->weighted_ms += k * 800, c->in_flight = (uint32_t)(k % 32);
		}

		uint64_t t0 = mono_ns();
		int rc = recorder_sample(r, &s, &tab, err, sizeof(err));
		cost[i] = mono_ns() - t0;
		if (rc == 0 && (pos == 0 || pos == 8 || pos == 200 || pos == 230 || pos == 236)) {
			struct run_event ev = {
			    .t_ns = s.t_ns, .run = (int16_t)run, .phase = (int8_t)phase};
			rc = recorder_event(r, &ev, err, sizeof(err));
		}
		if (rc == 0 && pos == 236) {
			struct run_result x;
			memset(&x, 0, sizeof(x));
			strlcpy_(x.strategy, strategy_at(s.strategy)->name, sizeof(x.strategy));
			x.cmd = -1;
			strlcpy_(x.name, x.strategy, sizeof(x.name));
			x.repeat = run / 2 + 1, x.finished = 1, x.ok = 1, x.verified = 1;
			x.elapsed_s = 57.25 + run * 0.01, x.user_s = 0.125, x.sys_s = 3.5;
			x.cpu_pct = 6.33, x.majflt = 12, x.minflt = 900, x.inblock = 2097152;
			x.oublock = 2097152, x.bytes = 1ull << 30, x.mbs = 17.88;
			x.read_cv = 0.21, x.write_cv = 0.73, x.peak_active_file_kb = 60000;
			x.pgdeactivate = 250000, x.refault_file = 17, x.bursts = 5;
			x.t_start_ns = s.t_ns - 236ull * step_ns, x.t_end_ns = s.t_ns;
			x.t_copy_ns = x.t_start_ns + 8 * step_ns;
			rc = recorder_result(r, &x, err, sizeof(err));
			nruns++;
		}
		if (rc != 0) {
			fprintf(stderr, "record_size: %s\n", err);
			recorder_close(r, err, sizeof(err));
			free(cost);
			return -1;
		}
	}
	if (recorder_close(r, err, sizeof(err)) != 0) {
		fprintf(stderr, "record_size: %s\n", err);
		free(cost);
		return -1;
	}
	struct stat st;
	if (stat(path, &st) != 0) {
		fprintf(stderr, "record_size: %s: %s\n", path, strerror(errno));
		free(cost);
		return -1;
	}
	fig->bytes = (uint64_t)st.st_size;
	double sum = 0;
	for (int i = 0; i < n; i++)
		sum += (double)cost[i];
	qsort(cost, (size_t)n, sizeof(cost[0]), cmp_u64);
	fig->med_us = (double)cost[n / 2] / 1e3;
	fig->p99_us = (double)cost[(size_t)n * 99 / 100] / 1e3;
	fig->mean_us = sum / n / 1e3;
	free(cost);
	(void)nruns;
	return 0;
}

int main(int argc, char **argv)
{
	int n = 14400, worst = 0;
	double limit_mib = 25, interval = 0.1;
	const char *keep = NULL, *out = NULL;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--worst"))
			worst = 1;
		else if (!strcmp(argv[i], "--keep") && i + 1 < argc)
			keep = argv[++i];
		else if (!strcmp(argv[i], "--limit") && i + 1 < argc)
			limit_mib = atof(argv[++i]);
		else if (!strcmp(argv[i], "--out") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-i") && i + 1 < argc)
			interval = atof(argv[++i]);
		else {
			fprintf(stderr,
				"usage: record_size [-n N] [--worst] [--keep DIR] [--limit MiB]\n"
				"       record_size --out FILE [-n N] [-i SEC]\n");
			return 2;
		}
	}
	if (n < 1 || !(interval > 0)) {
		fprintf(stderr, "record_size: -n must be at least 1, -i above 0\n");
		return 2;
	}

	/* real samples: first find the whole disk to watch, then sample it */
	char err[512], disk[32] = "";
	struct sampler *sm = sampler_new("", err, sizeof(err));
	if (!sm) {
		fprintf(stderr, "record_size: %s\n", err);
		return 2;
	}
	static struct disktab tabs[NREAL];
	struct sample real[NREAL];
	sampler_read(sm, &real[0]);
	sampler_read_disks(sm, &tabs[0]);
	uint64_t most = 0; /* the busiest whole disk, as --dir would usually be on */
	for (int d = 0; d < tabs[0].n; d++) {
		const struct disk_counters *c = &tabs[0].dev[d];
		if (c->is_disk && c->rd_sectors + c->wr_sectors > most) {
			most = c->rd_sectors + c->wr_sectors;
			strlcpy_(disk, c->name, sizeof(disk));
		}
	}
	sampler_free(sm);
	sm = sampler_new(disk, err, sizeof(err));
	if (!sm) {
		fprintf(stderr, "record_size: %s\n", err);
		return 2;
	}
	for (int i = 0; i < NREAL; i++) {
		sampler_read(sm, &real[i]);
		sampler_read_disks(sm, &tabs[i]);
	}
	sampler_free(sm);

	struct figures fp, fz;
	if (out) {
		struct synth gen = {.bursts = 1, .interval_s = interval};
		if (write_one(out, RECORD_BY_NAME, n, &gen, real, tabs, disk, &fp) != 0)
			return 2;
		printf("record_size: %s: %d samples every %g s (%.1f h), %llu bytes\n", out, n,
		       interval, n * interval / 3600, (unsigned long long)fp.bytes);
		return 0;
	}
	char tmp[64] = "/var/tmp/lrutop-bench-record.XXXXXX", plain[128], gz[128];
	const char *where = keep;
	if (!where) {
		if (!mkdtemp(tmp)) {
			fprintf(stderr, "record_size: %s: %s\n", tmp, strerror(errno));
			return 2;
		}
		where = tmp;
	}
	snprintf(plain, sizeof(plain), "%s/record.jsonl", where);
	snprintf(gz, sizeof(gz), "%s/record.jsonl.gz", where);
	struct synth sy = {.worst = worst, .interval_s = 0.25};
	int rc = write_one(plain, RECORD_PLAIN, n, &sy, real, tabs, disk, &fp);
	if (rc == 0)
		rc = write_one(gz, RECORD_GZIP, n, &sy, real, tabs, disk, &fz);
	if (!keep) {
		unlink(plain);
		unlink(gz);
		rmdir(tmp);
	}
	if (rc != 0)
		return 2;

	printf("record_size: %d samples at 0.25 s (%.1f h), disk %s, %d devices in the table%s\n",
	       n, n * 0.25 / 3600, disk, tabs[0].n, worst ? ", every row changing (--worst)" : "");
	printf("%-8s %12s %10s %10s %12s %12s %12s\n", "format", "bytes", "MiB", "B/sample",
	       "median µs", "mean µs", "p99 µs");
	printf("%-8s %12llu %10.2f %10.0f %12.1f %12.1f %12.1f\n", "plain",
	       (unsigned long long)fp.bytes, fp.bytes / 1048576.0, (double)fp.bytes / n, fp.med_us,
	       fp.mean_us, fp.p99_us);
	printf("%-8s %12llu %10.2f %10.0f %12.1f %12.1f %12.1f\n", "gzip",
	       (unsigned long long)fz.bytes, fz.bytes / 1048576.0, (double)fz.bytes / n, fz.med_us,
	       fz.mean_us, fz.p99_us);
	/* the header line is paid once, the rest per sample */
	double per = (double)(fp.bytes - fp.header) / n;
	double scaled = ((double)fp.header + per * 14400.0) / 1048576.0;
	printf("plain, scaled to 14 400 samples: %.2f MiB (limit %.0f MiB): %s\n", scaled,
	       limit_mib, scaled <= limit_mib ? "PASS" : "FAIL");
	return scaled <= limit_mib ? 0 : 1;
}
