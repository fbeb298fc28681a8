/*
 * Tests for record: the --record format (docs/design.md §5) written and read
 * back through real files in a private temporary directory — round trips
 * that compare every byte of what went in, gzip, a prefix cut at every
 * byte, bad files, a full filesystem (a small tmpfs) and a SIGKILLed writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "recording/record.h"
#include "sampling/sampler.h"
#include "runs/strategy.h"
#include "base/util.h"
#include "testutil.h"

#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

TU_TMPDIR_SUITE("record")

static void tpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

static char *argv_demo[] = {"lrutop", "--record", "x.jsonl", "-s", "rw_cp,mm_sync_cp", "--note=é"};

static void header_demo(struct record_header *h)
{
	record_header_init(h);
	strcpy(h->version, "0.1.0-test");
	strcpy(h->device, "vda");
	strcpy(h->device_how, "/var/tmp is on vda");
	strcpy(h->device_kind, "virtio");
	h->mglru = 1;
	h->cgroup_version = 1;
	h->interval_s = 0.25;
	h->argc = (int)ARRAY_LEN(argv_demo);
	h->argv = argv_demo;
	strcpy(h->notes, "no PSI");
}

/* A sample with every field of the groups in `have` set to a value that
 * depends on i and on the field (so a swapped pair of fields fails), the
 * others zero, as the sampler leaves them.  Some at the top of their range
 * (record_format.c): a counter's INT64_MAX, a time's century, PSI's 100,
 * the limit's any uint64_t. */
#define CENTURY_NS 3155760000000000000ull
static void sample_demo(struct sample *s, int i, uint32_t have)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = 1000000000ull + (uint64_t)i * 250000000ull;
	s->have = have;
	s->run = (int16_t)(i % 3 - 1);
	s->phase = (int8_t)(i % PHASE_COUNT);
	s->strategy = (uint8_t)(i % (int)strategy_count());
	uint64_t k = (uint64_t)i * 1000003u;
	if (have & SAMPLE_HAVE_MEM) {
		s->mem_total = 4020000 + k, s->mem_free = 1 + k, s->mem_avail = 2 + k;
		s->active = 3 + k, s->inactive = 4 + k, s->active_file = 5 + k;
		s->inactive_file = 6 + k, s->active_anon = 7 + k, s->inactive_anon = 8 + k;
		s->cached = 9 + k, s->dirty = 10 + k, s->writeback = 11 + k;
		s->swap_total = 0, s->swap_free = (uint64_t)INT64_MAX - k;
	}
	if (have & SAMPLE_HAVE_VM) {
		s->pgactivate = 12 + k, s->pgdeactivate = 13 + k, s->pgscan_kswapd = 14 + k;
		s->pgscan_direct = 15 + k, s->pgsteal_kswapd = 16 + k, s->pgsteal_direct = 17 + k;
		s->pgmajfault = 18 + k, s->pgpgin = 19 + k, s->pgpgout = 20 + k;
		s->pswpin = 21 + k, s->pswpout = (uint64_t)INT64_MAX - 1 - k;
	}
	if (have & SAMPLE_HAVE_VMX) {
		s->pgscan_file = 22 + k, s->pgscan_anon = 23 + k, s->pgsteal_file = 24 + k;
		s->pgsteal_anon = 25 + k, s->refault_file = 26 + k, s->activate_file = 27 + k;
	}
	if (have & SAMPLE_HAVE_DISK) {
		s->rd_ios = 28 + k, s->rd_sectors = 29 + k, s->wr_ios = 30 + k;
		s->wr_sectors = 31 + k, s->io_ms = 32 + k;
		s->in_flight = UINT32_MAX - (uint32_t)i, s->disk_id = 33 + (uint32_t)i;
	}
	if (have & SAMPLE_HAVE_CPU) {
		s->cpu_user = 34 + k, s->cpu_nice = 35 + k, s->cpu_sys = 36 + k;
		s->cpu_idle = 37 + k, s->cpu_iowait = 38 + k, s->cpu_irq = 39 + k;
		s->cpu_softirq = 40 + k, s->cpu_steal = 41 + k, s->intr = 42 + k, s->ctxt = 43 + k;
		s->procs_running = 44 + (uint32_t)i, s->procs_blocked = 45 + (uint32_t)i;
	}
	if (have & SAMPLE_HAVE_PSI_MEM) {
		s->psi_mem_some = 0.1f * (float)i, s->psi_mem_full = 1.0f / 3.0f;
		s->psi_mem_some_us = 46 + k;
	}
	if (have & SAMPLE_HAVE_PSI_IO) {
		s->psi_io_some = FLT_MIN, s->psi_io_full = 100.0f / (float)(i + 1);
		s->psi_io_some_us = 47 + k;
	}
	if (have & SAMPLE_HAVE_CG) {
		s->cg_active_file = 48 + k, s->cg_inactive_file = 49 + k, s->cg_cache = 50 + k;
		s->cg_usage = 51 + k, s->cg_limit = UINT64_MAX, s->cg_dirty = 52 + k; /* -1 */
	}
	if (have & SAMPLE_HAVE_CG_DEACT)
		s->cg_pgdeactivate = 53 + k;
	if (have & SAMPLE_HAVE_RES) {
		s->res_src = (struct sample_res){54 + k, 55 + k, 56 + k, 57 + k, 58 + k, 59 + k, 1};
		/* the destination not made yet (every other sample): all zero */
		if (i % 2)
			s->res_dst = (struct sample_res){60 + k, 61 + k, 62 + k, 63 + k,
							 (uint64_t)INT64_MAX - k, 65 + k, 2};
	}
	if (have & SAMPLE_HAVE_PROBE) { /* --probe */
		s->probe_n = 54 + (uint32_t)i, s->probe_slow = (uint32_t)i;
		s->probe_p50 = 55 + k, s->probe_p99 = 56 + k, s->probe_max = CENTURY_NS - k;
	}
	if (have & SAMPLE_HAVE_CG_IO) {
		s->cg_rd_bytes = (uint64_t)INT64_MAX - 66 - k, s->cg_wr_bytes = 67 + k;
		s->cg_io_gen = UINT32_MAX - (uint32_t)i;
	}
	if (have & SAMPLE_HAVE_GEN) { /* MGLRU's generations (minor 2) */
		for (int g = 0; g < SAMPLE_GENS; g++)
			s->gen_file[g] = 68 + (uint64_t)g + k;
		s->gen_seq = (uint64_t)INT64_MAX - k, s->gen_n = (uint8_t)(1 + i % SAMPLE_GENS);
	}
}

#define HAVE_ALL (0x3ffu | SAMPLE_HAVE_CG_IO | SAMPLE_HAVE_CG_IO_WB)

/* This machine's real disk table, then changed a little per sample i: a
 * counter moves on the first device, and from i = 3 on a made-up device
 * joins (the set changes), from i = 5 on the second real device leaves. */
static void disks_demo(struct disktab *t, int i)
{
	static struct disktab real;
	static int have;
	if (!have) {
		char err[256];
		struct sampler *sm = sampler_new("", err, sizeof(err));
		assert_non_null(sm);
		struct sample s;
		sampler_read(sm, &s);
		assert_int_equal(sampler_read_disks(sm, &real), 0);
		sampler_free(sm);
		assert_true(real.n >= 1);
		have = 1;
	}
	*t = real;
	t->t_ns = 1000000000ull + (uint64_t)i * 250000000ull + (uint64_t)(i % 2) * 1234;
	t->dev[0].rd_ios += (uint64_t)i * 7;
	t->dev[0].weighted_ms = (uint64_t)INT64_MAX - (uint64_t)i;
	if (i >= 3 && t->n < DISKTAB_MAX) {
		struct disk_counters *d = &t->dev[t->n++];
		memset(d, 0, sizeof(*d));
		strcpy(d->name, "zz-test0");
		d->wr_sectors = (uint64_t)i;
		d->in_flight = 3;
	}
	if (i >= 5 && t->n > 2) {
		memmove(&t->dev[1], &t->dev[2], sizeof(t->dev[0]) * (size_t)(t->n - 2));
		t->n--;
	}
}

static void assert_disks_equal(const struct disktab *a, const struct disktab *b)
{
	assert_int_equal(a->n, b->n);
	assert_true(a->t_ns == b->t_ns);
	for (int i = 0; i < a->n; i++)
		assert_memory_equal(&a->dev[i], &b->dev[i], sizeof(a->dev[i]));
}

static void result_demo(struct run_result *x, int i)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->strategy, sizeof(x->strategy), "%s",
		 i % 2 ? "" : strategy_at((size_t)i % strategy_count())->name);
	x->cmd = x->strategy[0] ? -1 : i;
	snprintf(x->name, sizeof(x->name), "%s", x->strategy[0] ? x->strategy : "gnu-cp");
	x->repeat = i + 1, x->finished = 1, x->ok = i != 2, x->cancelled = i == 3;
	x->exit_code = i == 2 ? 137 : i == 3 ? -1 : 0; /* SIGKILL; no worker */
	x->elapsed_s = 1.0 / 3.0 + i, x->user_s = 0.1, x->sys_s = DBL_MIN / 4; /* subnormal */
	/* the extremes of what a run can have (the reader refuses the rest) */
	x->cpu_pct = -0.0, x->majflt = 12345678901l, x->minflt = LONG_MAX, x->inblock = 0;
	x->oublock = 987654321, x->bytes = (uint64_t)INT64_MAX - 5, x->mbs = 123.456789012345678;
	x->read_cv = NAN, x->write_cv = i ? 251228.0 : 0.0; /* the CV's top */
	x->peak_active_file_kb = 99999, x->pgdeactivate = (uint64_t)INT64_MAX, x->refault_file = 7;
	x->bursts = 4, x->verified = i % 3 - 1;
	snprintf(x->message, sizeof(x->message), "run %d: \"quoted\", a comma and ü", i);
	x->t_start_ns = 1, x->t_copy_ns = 2, x->t_end_ns = CENTURY_NS;
	if (i % 2) { /* page-cache figures (minor 1); the others have none, as before it */
		x->res_have = 1, x->res_dst_dirty_peak_kb = 123456, x->res_src_cached_end = 7;
		x->res_src_pages_end = (uint64_t)INT64_MAX, x->res_recent_end = 0;
	}
	if (i % 2 == 0) { /* --probe: a run with its figures, one without */
		snprintf(x->probe.mode, sizeof(x->probe.mode), "%s", i ? "direct" : "cold");
		x->probe.n = 300 + (uint64_t)i, x->probe.p50_ns = 250000, x->probe.p99_ns = 17500000;
		x->probe.p999_ns = 27300000, x->probe.max_ns = CENTURY_NS, x->probe.slow = 3;
		x->probe.idle_n = (uint64_t)i * 60, x->probe.idle_p99_ns = 7800000;
	}
}

/* Bit for bit, NaN included. */
static void assert_double_bits(double a, double b)
{
	assert_memory_equal(&a, &b, sizeof(a));
}

static void assert_result_equal(const struct run_result *a, const struct record_item *it)
{
	const struct run_result *b = &it->result;
	assert_string_equal(a->strategy, b->strategy);
	assert_string_equal(it->strategy_name, a->strategy);
	assert_int_equal(a->cmd, b->cmd);
	assert_string_equal(a->name, b->name);
	assert_int_equal(a->repeat, b->repeat);
	assert_int_equal(a->finished, b->finished);
	assert_int_equal(a->ok, b->ok);
	assert_int_equal(a->cancelled, b->cancelled);
	assert_int_equal(a->exit_code, b->exit_code);
	assert_double_bits(a->elapsed_s, b->elapsed_s);
	assert_double_bits(a->user_s, b->user_s);
	assert_double_bits(a->sys_s, b->sys_s);
	assert_double_bits(a->cpu_pct, b->cpu_pct);
	assert_true(a->majflt == b->majflt && a->minflt == b->minflt);
	assert_true(a->inblock == b->inblock && a->oublock == b->oublock);
	assert_true(a->bytes == b->bytes);
	assert_double_bits(a->mbs, b->mbs);
	assert_double_bits(a->read_cv, b->read_cv);
	assert_double_bits(a->write_cv, b->write_cv);
	assert_true(a->peak_active_file_kb == b->peak_active_file_kb);
	assert_true(a->pgdeactivate == b->pgdeactivate && a->refault_file == b->refault_file);
	assert_int_equal(a->bursts, b->bursts);
	assert_int_equal(a->verified, b->verified);
	assert_string_equal(a->message, b->message);
	assert_true(a->t_start_ns == b->t_start_ns && a->t_copy_ns == b->t_copy_ns &&
		    a->t_end_ns == b->t_end_ns);
	assert_int_equal(a->res_have, b->res_have);
	assert_true(a->res_dst_dirty_peak_kb == b->res_dst_dirty_peak_kb &&
		    a->res_src_cached_end == b->res_src_cached_end &&
		    a->res_src_pages_end == b->res_src_pages_end &&
		    a->res_recent_end == b->res_recent_end);
	assert_memory_equal(&a->probe, &b->probe, sizeof(a->probe));
}

/* The demo recording: what each line holds, so a reader's items can be
 * checked against it.  Line l (2-based; 1 is the header) is item l - 2. */
enum { NSAMPLES = 13, NITEMS = NSAMPLES + 4 };
struct expect {
	enum record_kind kind;
	struct sample s;
	int have_disks;
	struct disktab d;
	struct run_event ev;
	struct run_result res;
};
static struct expect expected[NITEMS];

static const uint32_t haves[NSAMPLES] = {
    HAVE_ALL,
    HAVE_ALL & ~(SAMPLE_HAVE_PSI_MEM | SAMPLE_HAVE_PSI_IO), /* a kernel without PSI */
    0,
    SAMPLE_HAVE_MEM,
    HAVE_ALL & ~(SAMPLE_HAVE_CG | SAMPLE_HAVE_CG_DEACT | SAMPLE_HAVE_CG_IO |
		 SAMPLE_HAVE_CG_IO_WB), /* no cgroup (or before the io one) */
    HAVE_ALL | SAMPLE_HAVE_PROBE,
    HAVE_ALL & ~SAMPLE_HAVE_CG_IO_WB, /* v1 io cgroup: writes not the run's */
    HAVE_ALL & ~SAMPLE_HAVE_DISK,
    HAVE_ALL & ~SAMPLE_HAVE_RES, /* as before minor 1, or between runs */
    SAMPLE_HAVE_PROBE,
    HAVE_ALL | SAMPLE_HAVE_MGLRU | SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG, /* MGLRU, a memcg's */
    HAVE_ALL | SAMPLE_HAVE_MGLRU | SAMPLE_HAVE_GEN, /* the system's generations */
    HAVE_ALL | SAMPLE_HAVE_MGLRU,			    /* MGLRU without debugfs */
};


/* Writes the demo recording; bytes_after[l] is the file size once line l
 * (1-based) was written.  Returns the number of lines. */
static int write_demo(const char *path, enum record_compress z, uint64_t *bytes_after)
{
	struct record_header h;
	char err[512];
	int nl = 0, ni = 0;

	header_demo(&h);
	struct recorder *r = recorder_open(path, z, &h, err, sizeof(err));
	assert_non_null(r);
	if (bytes_after)
		bytes_after[++nl] = recorder_bytes(r);
	for (int i = 0; i < NSAMPLES; i++) {
		struct expect *e = &expected[ni++];
		memset(e, 0, sizeof(*e));
		e->kind = RECORD_SAMPLE;
		sample_demo(&e->s, i, haves[i]);
		e->have_disks = i != 4; /* one sample without a table */
		if (e->have_disks)
			disks_demo(&e->d, i);
		assert_int_equal(
		    recorder_sample(r, &e->s, e->have_disks ? &e->d : NULL, err, sizeof(err)), 0);
		if (bytes_after)
			bytes_after[++nl] = recorder_bytes(r);
		if (i == 1 || i == 6) {
			e = &expected[ni++];
			memset(e, 0, sizeof(*e));
			e->kind = RECORD_EVENT;
			e->ev.t_ns = 5000 + (uint64_t)i, e->ev.run = (int16_t)i;
			e->ev.phase = i == 1 ? PHASE_COPY : PHASE_IDLE;
			assert_int_equal(recorder_event(r, &e->ev, err, sizeof(err)), 0);
			if (bytes_after)
				bytes_after[++nl] = recorder_bytes(r);
		}
		if (i == 3 || i == 7) {
			e = &expected[ni++];
			memset(e, 0, sizeof(*e));
			e->kind = RECORD_RESULT;
			result_demo(&e->res, i == 3 ? 0 : 1);
			assert_int_equal(recorder_result(r, &e->res, err, sizeof(err)), 0);
			if (bytes_after)
				bytes_after[++nl] = recorder_bytes(r);
		}
	}
	assert_int_equal(ni, NITEMS);
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
	return nl;
}

static void assert_item(const struct record_item *it, int i)
{
	const struct expect *e = &expected[i];
	assert_int_equal(it->kind, e->kind);
	if (e->kind == RECORD_SAMPLE) {
		assert_memory_equal(&it->sample, &e->s, sizeof(e->s));
		assert_int_equal(it->have_disks, e->have_disks);
		if (e->have_disks)
			assert_disks_equal(&it->disks, &e->d);
	} else if (e->kind == RECORD_EVENT) {
		assert_true(it->event.t_ns == e->ev.t_ns);
		assert_int_equal(it->event.run, e->ev.run);
		assert_int_equal(it->event.phase, e->ev.phase);
	} else {
		assert_result_equal(&e->res, it);
	}
}

static void assert_header(const struct recording *rec)
{
	const struct record_header *h = recording_header(rec);
	struct record_header want;
	header_demo(&want);
	assert_int_equal(h->major, RECORD_MAJOR);
	assert_int_equal(h->minor, RECORD_MINOR);
	assert_string_equal(h->version, want.version);
	assert_string_equal(h->kernel, want.kernel);
	assert_string_equal(h->host, want.host);
	assert_int_equal(h->page_size, want.page_size);
	assert_int_equal(h->cpus, want.cpus);
	assert_true(h->mem_total_kb == want.mem_total_kb && h->mem_total_kb > 0);
	assert_string_equal(h->device, "vda");
	assert_string_equal(h->device_how, want.device_how);
	assert_string_equal(h->device_kind, "virtio");
	assert_int_equal(h->mglru, 1);
	assert_int_equal(h->cgroup_version, 1);
	assert_double_bits(h->interval_s, 0.25);
	assert_int_equal(h->argc, want.argc);
	for (int i = 0; i < h->argc; i++)
		assert_string_equal(h->argv[i], want.argv[i]);
	assert_int_equal(strlen(h->start_wall), 24); /* 2026-12-01T09:10:42.123Z */
	assert_int_equal(h->start_wall[23], 'Z');
	assert_true(h->start_mono_ns > 0);
	assert_string_equal(h->notes, "no PSI");
}

static void round_trip(enum record_compress z, const char *name)
{
	char path[128], err[512];
	struct record_item it;

	tpath(path, sizeof(path), name);
	write_demo(path, z, NULL);
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	assert_header(rec);
	int n = 0, rc;
	while ((rc = recording_next(rec, &it, err, sizeof(err))) == 1) {
		assert_true(n < NITEMS);
		assert_item(&it, n);
		n++;
	}
	if (rc < 0)
		fail_msg("%s", err);
	assert_int_equal(n, NITEMS);
	assert_null(recording_warning(rec));
	assert_int_equal(recording_is_gzip(rec), z == RECORD_GZIP || strstr(name, ".gz") != NULL);
	recording_close(rec);
}

static void test_round_trip_plain(void **state)
{
	(void)state;
	round_trip(RECORD_BY_NAME, "plain.jsonl");
}

static void test_round_trip_gzip(void **state)
{
	(void)state;
	char path[128];
	round_trip(RECORD_BY_NAME, "by-name.jsonl.gz");
	round_trip(RECORD_GZIP, "forced");
	/* the gzip magic, not the name, told the reader */
	tpath(path, sizeof(path), "forced");
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fgetc(f), 0x1f);
	assert_int_equal(fgetc(f), 0x8b);
	fclose(f);
}

/* The file is JSON Lines: every line an object, the header first. */
static void test_lines_are_json(void **state)
{
	(void)state;
	char path[128], line[1 << 16];
	tpath(path, sizeof(path), "lines.jsonl");
	write_demo(path, RECORD_PLAIN, NULL);
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	int n = 0;
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		assert_true(len > 2 && line[len - 1] == '\n' && line[0] == '{' &&
			    line[len - 2] == '}');
		if (n == 0)
			assert_non_null(strstr(line, "\"lrutop_record\":1,\"minor\":4"));
		else
			assert_non_null(strstr(line, "{\"k\":\""));
		n++;
	}
	fclose(f);
	assert_int_equal(n, 1 + NITEMS);
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	unsigned char *buf = xmalloc(1 << 20);
	*n = fread(buf, 1, 1 << 20, f);
	assert_true(*n < (1 << 20));
	fclose(f);
	return buf;
}

static void put_file(const char *path, const void *data, size_t n)
{
	unlink(path);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
}

/* Every prefix of a recording: either an error that names the file (a cut
 * inside the header line), or exactly the items of the lines before the cut
 * (plain), at least those whose sync flush was complete (gzip), each equal
 * to what was written, and a warning when the cut left a partial line. */
static void prefix_cut(enum record_compress z, const char *name)
{
	char path[128], cut[140], err[512];
	uint64_t after[NITEMS + 2];
	size_t size;

	tpath(path, sizeof(path), name);
	int nl = write_demo(path, z, after);
	assert_int_equal(nl, NITEMS + 1);
	unsigned char *all = slurp(path, &size);
	assert_true(after[nl] <= size);
	snprintf(cut, sizeof(cut), "%s.cut", path);
	for (size_t k = 0; k <= size; k++) {
		put_file(cut, all, k);
		struct recording *rec = recording_open(cut, err, sizeof(err));
		if (!rec) {
			/* only a cut before the header's sync point may fail to open */
			assert_true(k < after[1]);
			assert_true(!strncmp(err, cut, strlen(cut)));
			continue;
		}
		assert_true(k >= (z == RECORD_PLAIN ? after[1] - 1 : 1));
		struct record_item it;
		int n = 0, rc;
		while ((rc = recording_next(rec, &it, err, sizeof(err))) == 1) {
			assert_true(n < NITEMS);
			assert_item(&it, n);
			n++;
		}
		assert_true(rc == 0 || !strncmp(err, cut, strlen(cut)));
		/* line n + 2 was not returned: it was not complete before the cut */
		if (z == RECORD_PLAIN) {
			assert_int_equal(rc, 0);
			int whole = 0;
			while (whole + 2 <= nl && after[whole + 2] <= k)
				whole++;
			assert_int_equal(n, whole);
			int boundary = k == after[whole + 1];
			assert_int_equal(recording_warning(rec) == NULL, boundary);
			if (!boundary)
				assert_non_null(
				    strstr(recording_warning(rec), "truncated last line"));
		} else {
			for (int l = 2; l <= nl; l++)
				if (after[l] <= k && rc == 0)
					assert_true(n >= l - 1);
			if (k < size)
				assert_true(rc < 0 || recording_warning(rec) != NULL);
			else
				assert_true(rc == 0 && n == NITEMS && !recording_warning(rec));
		}
		recording_close(rec);
	}
	unlink(cut);
	free(all);
}

static void test_prefix_cut_plain(void **state)
{
	(void)state;
	prefix_cut(RECORD_PLAIN, "cut.jsonl");
}

static void test_prefix_cut_gzip(void **state)
{
	(void)state;
	prefix_cut(RECORD_GZIP, "cut.jsonl.gz");
}

/* The error of opening a file with these bytes (which must fail). */
static void open_fails(const char *name, const char *data, size_t n, const char *want)
{
	char path[128], err[512];
	tpath(path, sizeof(path), name);
	put_file(path, data, n);
	struct recording *rec = recording_open(path, err, sizeof(err));
	assert_null(rec);
	assert_true(!strncmp(err, path, strlen(path)));
	if (!strstr(err, want))
		fail_msg("\"%s\" lacks \"%s\"", err, want);
}

static void test_bad_files(void **state)
{
	(void)state;
	char err[512];

	open_fails("empty", "", 0, ": empty file");
	open_fails("text", "hello world\n", 12, ":1: not a recording (not JSON");
	open_fails("array", "[1,2]\n", 6, ":1: not a recording (not a JSON object)");
	open_fails("other-json", "{\"a\":1}\n", 8, ":1: not an lrutop recording");
	open_fails("major2", "{\"lrutop_record\":2,\"minor\":0}\n", 30,
		   ":1: recording format version 2 is not supported");
	open_fails("major-str", "{\"lrutop_record\":\"1\"}\n", 22, ":1: \"lrutop_record\" is not");
	open_fails("half-header", "{\"lrutop_record\":1,\"mi", 22, ":1: truncated header line");

	assert_null(recording_open(dir, err, sizeof(err)));
	assert_non_null(strstr(err, ": is a directory"));
	/* a device or a FIFO is not read at all (a FIFO would block) */
	assert_null(recording_open("/dev/zero", err, sizeof(err)));
	assert_string_equal(err, "/dev/zero: not a regular file (a character device; give a file, "
				 "or - for standard input)");
	assert_null(recording_open("/nonexistent/x", err, sizeof(err)));
	assert_string_equal(err, "/nonexistent/x: No such file or directory");
}

/* An unknown minor version, unknown keys and unknown kinds are read past. */
static void test_newer_minor(void **state)
{
	(void)state;
	char path[128], err[512];
	const char text[] =
	    "{\"lrutop_record\":1,\"minor\":9,\"future\":[1,2]}\n"
	    "{\"k\":\"hologram\",\"x\":1}\n"
	    "\n"
	    "{\"k\":\"event\",\"t\":77,\"run\":2,\"phase\":\"flush\",\"new\":true}\n";
	tpath(path, sizeof(path), "minor9");
	put_file(path, text, sizeof(text) - 1);
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	assert_int_equal(recording_header(rec)->minor, 9);
	struct record_item it;
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
	assert_int_equal(it.kind, RECORD_EVENT);
	assert_int_equal(it.line, 4);
	assert_int_equal(it.event.phase, PHASE_FLUSH);
	assert_int_equal(it.event.t_ns, 77);
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 0);
	assert_null(recording_warning(rec));
	recording_close(rec);
}

/* A bad line in the middle: the items before it, then FILE:LINE, then the
 * same error again. */
static void corrupt_line(int line, const char *replacement, const char *want)
{
	char path[128], bad[140], err[512];
	size_t size;

	tpath(path, sizeof(path), "whole.jsonl");
	unlink(path);
	write_demo(path, RECORD_PLAIN, NULL);
	unsigned char *all = slurp(path, &size);
	snprintf(bad, sizeof(bad), "%s/bad-%d.jsonl", dir, line);
	FILE *f = fopen(bad, "wb");
	assert_non_null(f);
	int l = 1;
	for (size_t i = 0; i < size; i++) {
		if (l == line) {
			fputs(replacement, f);
			while (all[i] != '\n')
				i++;
		}
		fputc(all[i], f);
		if (all[i] == '\n')
			l++;
	}
	fclose(f);
	free(all);

	struct recording *rec = recording_open(bad, err, sizeof(err));
	assert_non_null(rec);
	struct record_item it;
	for (int i = 0; i < line - 2; i++) {
		assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
		assert_item(&it, i);
	}
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), -1);
	char prefix[200];
	snprintf(prefix, sizeof(prefix), "%s:%d: ", bad, line);
	if (strncmp(err, prefix, strlen(prefix)) || !strstr(err, want))
		fail_msg("\"%s\" is not \"%s...%s\"", err, prefix, want);
	char again[512];
	assert_int_equal(recording_next(rec, &it, again, sizeof(again)), -1);
	assert_string_equal(again, err);
	recording_close(rec);
}

/* A recording of minor 0 (before page-cache residency; the fuzz corpus
 * keeps one from a real run) still loads: every sample with the residency
 * bit clear and its block zero, every result without residency. */
static void test_minor0_loads(void **state)
{
	(void)state;
	char err[512];
	struct recording *r =
	    recording_open(LRUTOP_SRCDIR "/tests/fuzz/corpus/fuzz_record/run-excerpt.jsonl", err,
			   sizeof(err));
	assert_non_null(r);
	assert_int_equal(recording_header(r)->minor, 0);
	struct record_item it;
	int rc, samples = 0, results = 0;
	static const struct sample_res zero;
	while ((rc = recording_next(r, &it, err, sizeof(err))) == 1) {
		if (it.kind == RECORD_SAMPLE) {
			samples++;
			assert_false(it.sample.have & SAMPLE_HAVE_RES);
			assert_memory_equal(&it.sample.res_src, &zero, sizeof(zero));
			assert_memory_equal(&it.sample.res_dst, &zero, sizeof(zero));
		} else if (it.kind == RECORD_RESULT) {
			results++;
			assert_int_equal(it.result.res_have, 0);
		}
	}
	assert_int_equal(rc, 0);
	assert_true(samples > 0);
	recording_close(r);
}

/* A result line with one field changed (from -> to, the first match):
 * NULL + want in the error, or the item when want is NULL. */
static void result_edit(const char *from, const char *to, const char *want, struct record_item *it)
{
	char path[128], err[512];
	struct record_header h;
	struct run_result x;
	size_t size;

	tpath(path, sizeof(path), "edit.jsonl");
	unlink(path);
	header_demo(&h);
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);
	result_demo(&x, 0);
	assert_int_equal(recorder_result(r, &x, err, sizeof(err)), 0);
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
	char *all = (char *)slurp(path, &size);
	char *at = strstr(all, from);
	assert_non_null(at);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fwrite(all, 1, (size_t)(at - all), f);
	fputs(to, f);
	fputs(at + strlen(from), f);
	fclose(f);
	free(all);
	struct recording *rec = recording_open(path, err, sizeof(err));
	assert_non_null(rec);
	int rc = recording_next(rec, it, err, sizeof(err));
	if (want) {
		if (rc != -1 || !strstr(err, want))
			fail_msg("%s -> %s: got %d '%s', want '%s'", from, to, rc, err, want);
		assert_non_null(strstr(err, "edit.jsonl:2: result: "));
	} else {
		assert_int_equal(rc, 1);
	}
	recording_close(rec);
	unlink(path);
}

/* issue 15 #6: "mbs": null became nan, "bytes": -1 18446744073709551615;
 * #4: a name's escape sequence reached the terminal. */
static void test_result_ranges(void **state)
{
	(void)state;
	struct record_item it;
	result_edit("\"bytes\":", "\"bytes\":-1,\"x\":", "\"bytes\": -1 is out of range", &it);
	result_edit("\"mbs\":", "\"mbs\":null,\"x\":", "\"mbs\": null is not a value", &it);
	result_edit("\"ok\":", "\"ok\":2,\"x\":", "\"ok\": 2 is out of range (0 to 1)", &it);
	result_edit("\"elapsed_s\":", "\"elapsed_s\":\"inf\",\"x\":",
		    "\"elapsed_s\": inf is out of range", &it);
	result_edit("\"verified\":", "\"verified\":-3,\"x\":", "\"verified\": -3 is out of range",
		    &it);
	result_edit("\"read_cv\":", "\"read_cv\":-0.5,\"x\":", "\"read_cv\": -0.5 is out of range",
		    &it);
	result_edit("\"name\":", "\"name\":\"a\\u001b[1m\\nb\",\"x\":", NULL, &it);
	assert_string_equal(it.result.name, "a?[1m?b");
	result_edit("\"exit_code\":", "\"exit_code\":256,\"x\":",
		    "\"exit_code\": 256 is out of range (-1 to 255)", &it);
	/* a recording from before the key: what ok says (1 failed, 0 OK) */
	result_edit("\"exit_code\":0,", "", NULL, &it);
	assert_int_equal(it.result.exit_code, 0);
	result_edit("\"ok\":1,\"cancelled\":0,\"exit_code\":0,", "\"ok\":0,\"cancelled\":0,", NULL,
		    &it);
	assert_int_equal(it.result.exit_code, 1);
}

static void test_corrupt_middle_line(void **state)
{
	(void)state;
	corrupt_line(3, "{\"k\":\"sample\",\"t\":1,\"run\"", "not JSON");
	corrupt_line(3, "{\"k\":\"sample\",\"t\":1,\"run\":-1,\"ph\":0,\"st\":0,\"hv\":1}",
		     "sample: \"mt\" missing or not an integer");
	corrupt_line(3, "{\"k\":\"sample\",\"t\":1,\"run\":40000,\"ph\":0,\"st\":0,\"hv\":0}",
		     "sample: \"run\": 40000 is out of range (-1 to 32767)");
	corrupt_line(3, "[]", "not a JSON object");
	corrupt_line(4, "{\"k\":\"event\",\"t\":1,\"run\":0,\"phase\":\"dancing\"}",
		     "event: \"phase\" missing or unknown");
	corrupt_line(2, "{\"k\":\"sample\",\"t\":1,\"run\":0,\"ph\":0,\"st\":0,\"hv\":0,\"dk\":{}}",
		     "disk rows without \"dkn\"");
	corrupt_line(2,
		     "{\"k\":\"sample\",\"t\":1,\"run\":0,\"ph\":0,\"st\":0,\"hv\":0,\"dk\":{},"
		     "\"dkn\":[\"sdq\"]}",
		     "no row for new device sdq");
	corrupt_line(3, "{\"t\":1}", "no \"k\"");
}

static void test_refuses_existing_file(void **state)
{
	(void)state;
	char path[128], err[512];
	struct record_header h;
	size_t n;

	tpath(path, sizeof(path), "precious");
	put_file(path, "keep me\n", 8);
	header_demo(&h);
	assert_null(recorder_open(path, RECORD_BY_NAME, &h, err, sizeof(err)));
	char want[256];
	snprintf(want, sizeof(want), "--record %s: already exists (use a new path)", path);
	assert_string_equal(err, want);
	unsigned char *b = slurp(path, &n);
	assert_int_equal(n, 8);
	assert_memory_equal(b, "keep me\n", 8);
	free(b);
	/* a symlink is not followed, even to a new name */
	char link[140];
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink("/tmp/lrutop-record-never-made", link), 0);
	assert_null(recorder_open(link, RECORD_BY_NAME, &h, err, sizeof(err)));
	assert_int_equal(access("/tmp/lrutop-record-never-made", F_OK), -1);
}

/* Records into a 64 KiB tmpfs until it is full: the sentence names the
 * file and ENOSPC, later calls repeat it, close reports it too. */
static void full_fs(enum record_compress z)
{
	char mnt[128], path[160], err[512];
	struct record_header h;

	tpath(mnt, sizeof(mnt), "small");
	mkdir(mnt, 0700);
	if (mount("lrutop-test", mnt, "tmpfs", 0, "size=64k") != 0) {
		print_message("skip: cannot mount a tmpfs: %s\n", strerror(errno));
		rmdir(mnt);
		skip();
		return;
	}
	snprintf(path, sizeof(path), "%s/rec%s", mnt, z == RECORD_GZIP ? ".gz" : "");
	header_demo(&h);
	struct recorder *r = recorder_open(path, z, &h, err, sizeof(err));
	assert_non_null(r);
	struct sample s;
	struct disktab d;
	int rc = 0, i;
	for (i = 0; i < 200000 && rc == 0; i++) {
		sample_demo(&s, i, HAVE_ALL);
		disks_demo(&d, i);
		for (int k = 0; k < d.n; k++)
			d.dev[k].wr_ios +=
			    (uint64_t)i * 1000003u * (uint64_t)(k + 1); /* defeat gzip */
		rc = recorder_sample(r, &s, &d, err, sizeof(err));
	}
	assert_int_equal(rc, -1);
	char want[256];
	snprintf(want, sizeof(want), "--record %s: write error: No space left on device", path);
	assert_string_equal(err, want);
	char again[512];
	assert_int_equal(recorder_sample(r, &s, &d, again, sizeof(again)), -1);
	assert_string_equal(again, want);
	assert_int_equal(recorder_close(r, again, sizeof(again)), -1);
	assert_string_equal(again, want);
	/* what made it to the disk reads back: the i - 1 samples before the
	 * one that failed, each intact.  gzip: that one too when all its
	 * deflate bytes reached the disk and only the rest of its sync flush
	 * (the empty stored block ending in 00 00 ff ff) did not: the reader
	 * rightly replays a complete line.  Where the 64 KiB cut falls moves
	 * with the header's start time; 6 of 400 header lengths tried put it
	 * there, which was this test's flake (it asserted fewer than i). */
	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	struct record_item it;
	int n = 0, got;
	while ((got = recording_next(rec, &it, err, sizeof(err))) == 1) {
		assert_int_equal(it.kind, RECORD_SAMPLE);
		assert_int_equal(it.sample.mem_free, 1 + (uint64_t)n * 1000003u);
		n++;
	}
	if (got != 0)
		fail_msg("after %d samples: %s", n, err);
	if (z == RECORD_GZIP) {
		if (n != i)
			assert_int_equal(n, i - 1);
		/* no gzip trailer: always cut short */
		assert_non_null(recording_warning(rec));
	} else {
		assert_int_equal(n, i - 1);
	}
	recording_close(rec);
	assert_int_equal(umount(mnt), 0);
	rmdir(mnt);
}

static void test_full_filesystem_plain(void **state)
{
	(void)state;
	full_fs(RECORD_PLAIN);
}

static void test_full_filesystem_gzip(void **state)
{
	(void)state;
	full_fs(RECORD_GZIP);
}

/* A child records in a loop and is SIGKILLed once it has written at least
 * 50 samples; the prefix it left reads back, every sample intact. */
static void sigkill(enum record_compress z, const char *name)
{
	char path[128], err[512];
	int p[2];

	tpath(path, sizeof(path), name);
	assert_int_equal(pipe(p), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(p[0]);
		struct record_header h;
		header_demo(&h);
		struct recorder *r = recorder_open(path, z, &h, err, sizeof(err));
		if (!r)
			_exit(3);
		struct sample s;
		struct disktab d;
		for (int i = 0;; i++) {
			sample_demo(&s, i, HAVE_ALL);
			disks_demo(&d, i % 4);
			if (recorder_sample(r, &s, &d, err, sizeof(err)) != 0)
				_exit(4);
			if (i == 50 && write(p[1], "x", 1) != 1)
				_exit(5);
		}
	}
	close(p[1]);
	struct pollfd pfd = {.fd = p[0], .events = POLLIN};
	assert_int_equal(poll(&pfd, 1, 20000), 1);
	char c;
	assert_int_equal(read(p[0], &c, 1), 1);
	close(p[0]);
	kill(pid, SIGKILL);
	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);

	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec)
		fail_msg("%s", err);
	struct record_item it;
	int n = 0, rc;
	while ((rc = recording_next(rec, &it, err, sizeof(err))) == 1) {
		struct sample want;
		sample_demo(&want, n, HAVE_ALL);
		assert_int_equal(it.kind, RECORD_SAMPLE);
		assert_memory_equal(&it.sample, &want, sizeof(want));
		n++;
	}
	if (rc != 0)
		fail_msg("%s", err);
	assert_true(n >= 51);
	/* gzip without its trailer always says so; plain only when cut mid-line */
	if (z == RECORD_GZIP)
		assert_non_null(recording_warning(rec));
	if (recording_warning(rec))
		assert_non_null(strstr(recording_warning(rec), "the rest replays"));
	recording_close(rec);
}

static void test_sigkill_plain(void **state)
{
	(void)state;
	sigkill(RECORD_PLAIN, "killed.jsonl");
}

static void test_sigkill_gzip(void **state)
{
	(void)state;
	sigkill(RECORD_GZIP, "killed.jsonl.gz");
}

/* Doubles chosen to need all 17 digits, and floats all 9. */
static void test_doubles_bit_exact(void **state)
{
	(void)state;
	char path[128], err[512];
	struct record_header h;
	/* within every range they go to (PSI at most 100, a CV 251228) */
	const double ds[] = {0.1,
			     1.0 / 3.0,
			     2.0 / 3.0,
			     M_PI,
			     1e-310,
			     nextafter(100.0, 0.0),
			     -DBL_MIN,
			     nextafter(1.0, 2.0),
			     12.3456789012345678,
			     5e-324,
			     -0.0};
	tpath(path, sizeof(path), "doubles.jsonl");
	header_demo(&h);
	h.interval_s = 0.1 + 0.2;
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);
	for (size_t i = 0; i < ARRAY_LEN(ds); i++) {
		struct run_result x;
		result_demo(&x, 1);
		/* results take no negative or infinite figure: the magnitudes */
		x.mbs = fabs(ds[i]), x.elapsed_s = fabs(ds[i]), x.read_cv = fabs(ds[i]) / 7;
		assert_int_equal(recorder_result(r, &x, err, sizeof(err)), 0);
		struct sample s;
		sample_demo(&s, 1, SAMPLE_HAVE_PSI_MEM | SAMPLE_HAVE_PSI_IO);
		s.psi_mem_some = (float)ds[i], s.psi_io_full = nextafterf((float)ds[i], 1.0f);
		assert_int_equal(recorder_sample(r, &s, NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
	struct recording *rec = recording_open(path, err, sizeof(err));
	assert_non_null(rec);
	assert_double_bits(recording_header(rec)->interval_s, 0.1 + 0.2);
	struct record_item it;
	for (size_t i = 0; i < ARRAY_LEN(ds); i++) {
		assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
		assert_double_bits(it.result.mbs, fabs(ds[i]));
		assert_double_bits(it.result.elapsed_s, fabs(ds[i]));
		assert_double_bits(it.result.read_cv, fabs(ds[i]) / 7);
		assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 1);
		float a = (float)ds[i], b = nextafterf((float)ds[i], 1.0f);
		assert_memory_equal(&it.sample.psi_mem_some, &a, sizeof(a));
		assert_memory_equal(&it.sample.psi_io_full, &b, sizeof(b));
	}
	assert_int_equal(recording_next(rec, &it, err, sizeof(err)), 0);
	recording_close(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_round_trip_plain),
	    cmocka_unit_test(test_result_ranges),
	    cmocka_unit_test(test_round_trip_gzip),
	    cmocka_unit_test(test_lines_are_json),
	    cmocka_unit_test(test_doubles_bit_exact),
	    cmocka_unit_test(test_prefix_cut_plain),
	    cmocka_unit_test(test_prefix_cut_gzip),
	    cmocka_unit_test(test_bad_files),
	    cmocka_unit_test(test_newer_minor),
	    cmocka_unit_test(test_minor0_loads),
	    cmocka_unit_test(test_corrupt_middle_line),
	    cmocka_unit_test(test_refuses_existing_file),
	    cmocka_unit_test(test_full_filesystem_plain),
	    cmocka_unit_test(test_full_filesystem_gzip),
	    cmocka_unit_test(test_sigkill_plain),
	    cmocka_unit_test(test_sigkill_gzip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
