/*
 * history — what the history costs a sample and how fast a replay seeks
 * (issue 19; bench/README.md "History and exports").
 *
 *   build/bench/history [-n N] [--from FILE]   bytes a sample of history
 *   build/bench/history --seek FILE [-w W] [-k K] [--no-index]   seek times
 *   build/bench/history --decode FILE [-k K]   the reader's CPU a line
 *
 * Without --seek: struct sample's size, then N samples (default 36 000, an
 * hour at 10 Hz) pushed through series_push into a history of N
 * (series_new(N)), then N more, so the ring is full and old blocks leave
 * as new ones come; the process's VmRSS (/proc/self/status) before
 * series_new, when it is full (that difference / N: bytes a sample), at
 * the end (growth after full: the history must not grow) and after every
 * sample was read once (the unpacked blocks' slots touched, as a view that
 * scrolls over it all touches them).  The samples
 * are FILE's (a recording, e.g. record_size --out's, whose counters move
 * as during a copy; it needs 2N samples), or without --from a synthetic
 * stream in which a few counters move by the same step every tick (packs
 * better than real samples: the lower bound).  Nothing sleeps: "an hour"
 * is the count, not the clock.
 *
 * --seek: FILE opened as --replay opens it (source_replay_new, the first
 * read that checks every line and builds the index), then K rounds (default
 * 3) of the replay keys' seeks into a sink that pushes into a history of W
 * samples (default series_capacity_for(3600, the recording's interval): the
 * TUI's), as the TUI's model does: End (the last sample), Home (the first),
 * j to the middle, N one sample back from the end, each seek timed wall
 * (CLOCK_MONOTONIC) and CPU (CLOCK_PROCESS_CPUTIME_ID), End from the
 * start and N from the end (each reached untimed first); medians printed
 * against the 0.5 s target.  --no-index: no window given to the source, so
 * a seek reads every item from the top (backwards) or up to the sample
 * (forwards), as before the index.  The sink checks that the newest sample after
 * each seek is the one asked for and exits 1 when it is not.
 *
 * --decode: FILE read item by item (recording_open, recording_next: the
 * decode every read of a recording pays, no model), K times (default 3);
 * the median CPU time (CLOCK_PROCESS_CPUTIME_ID) over the lines read, in
 * µs a line, against the 12 µs an export that reads twice may spend.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "recording/record.h"
#include "model/runlog.h"
#include "model/series.h"
#include "source/source.h"
#include "base/util.h"

static long vm_kib(const char *key)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long v = -1;
	size_t l = strlen(key);
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, l) && line[l] == ':')
			v = atol(line + l + 1);
	if (f)
		fclose(f);
	return v;
}

static int is_gzip(const char *path)
{
	FILE *f = fopen(path, "rb");
	int a = f ? getc(f) : EOF, b = f ? getc(f) : EOF;
	if (f)
		fclose(f);
	return a == 0x1f && b == 0x8b;
}

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Samples for bytes_a_sample: the synthetic stream, or FILE's. */
struct stream {
	struct recording *rec;
	struct record_item *it;
	struct sample s;
	long k;
};

static int stream_next(struct stream *st)
{
	if (!st->rec) {
		uint64_t k = (uint64_t)st->k++;
		struct sample *s = &st->s;
		s->t_ns = 1000000000ull + k * 100000000ull;
		s->mem_free = 8000000 + (k * 7919) % 100000, s->active_file = k * 64;
		s->inactive_file = k * 61, s->cached = k * 125, s->dirty = (k * 1237) % 200000;
		s->pgactivate = k * 311, s->pgdeactivate = k * 293, s->pgscan_kswapd = k * 997;
		s->rd_ios = k * 128, s->rd_sectors = k * 65536, s->wr_sectors = k * 64000;
		s->cpu_user = k * 5, s->cpu_sys = k * 20, s->cpu_idle = k * 25;
		s->psi_io_some = (float)(k % 3000) / 100.0f;
		return 1;
	}
	char err[512];
	int r;
	while ((r = recording_next(st->rec, st->it, err, sizeof(err))) == 1)
		if (st->it->kind == RECORD_SAMPLE) {
			st->s = st->it->sample;
			st->k++;
			return 1;
		}
	if (r < 0)
		fprintf(stderr, "history: %s\n", err);
	return 0;
}

/* N samples into a history of N, then N more (the ring full: old blocks
 * leave as new ones come); VmRSS before, when full and at the end. */
static int bytes_a_sample(long n, const char *from)
{
	struct stream st = {0};
	st.s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CPU;
	st.s.run = -1;
	if (from) {
		char err[512];
		if (!(st.rec = recording_open(from, err, sizeof(err)))) {
			fprintf(stderr, "history: %s\n", err);
			return 2;
		}
		st.it = calloc(1, sizeof(*st.it));
		printf("history: %ld samples of %s pushed into a history of %ld, then %ld more\n", n,
		       from, n, n);
	} else {
		printf("history: %ld samples pushed into a history of %ld, then %ld more, synthetic "
		       "stream (an hour at 10 Hz is 36 000)\n",
		       n, n, n);
	}
	printf("%-34s %12s %12s  %s\n", "what", "value", "target", "verdict");
	/* the reader's own buffers are made by its first item, not counted */
	if (from && !stream_next(&st)) {
		fprintf(stderr, "history: %s has no sample\n", from);
		return 2;
	}
	long rss0 = vm_kib("VmRSS");
	struct series *ser = series_new((size_t)n);
	long pushed = 0, rss_full = 0;
	for (; pushed < 2 * n; pushed++) {
		if (pushed == n)
			rss_full = vm_kib("VmRSS");
		if (pushed && !stream_next(&st))
			break;
		series_push(ser, &st.s);
	}
	long rss1 = vm_kib("VmRSS");
	/* every sample read once, as a view scrolled over it all would: the
	 * unpacked blocks' slots are touched too */
	uint64_t sum = 0;
	for (size_t i = 0; i < series_len(ser); i++)
		sum += series_at(ser, i)->t_ns;
	long rss2 = vm_kib("VmRSS");
	if (pushed < 2 * n) {
		fprintf(stderr, "history: %s has %ld samples, %ld wanted\n", from, pushed, 2 * n);
		return 2;
	}
	double per = (double)(rss_full - rss0) * 1024.0 / (double)n;
	printf("%-34s %12zu %12s  %s\n", "struct sample, bytes", sizeof(struct sample), "", "");
	printf("%-34s %12.0f %12s  %s\n", "history RSS growth, B/sample", per, "<= 100",
	       per <= 100 ? "PASS" : "FAIL");
	printf("%-34s %12.2f %12s  %s\n", "history RSS when full, MiB",
	       (double)(rss_full - rss0) / 1024.0, n == 36000 ? "<= 3.6" : "",
	       n != 36000 ? "" : (rss_full - rss0) <= 3686 ? "PASS" : "FAIL");
	printf("%-34s %12ld %12s  %s\n", "  then N more, RSS growth KiB", rss1 - rss_full, "<= 256",
	       rss1 - rss_full <= 256 ? "PASS" : "FAIL");
	double all = (double)(rss2 - rss0) * 1024.0 / (double)n;
	printf("%-34s %12.0f %12s  %s\n", "  then all read, B/sample", all, "<= 100",
	       all <= 100 ? "PASS" : "FAIL");
	printf("%-34s %12.1f %12s  %s\n", "process VmRSS after, MiB", (double)rss2 / 1024.0, "",
	       "");
	if (series_len(ser) != (size_t)n || series_back(ser, 0)->t_ns != st.s.t_ns || !sum) {
		fprintf(stderr, "history: the series lost samples\n");
		return 1;
	}
	series_free(ser);
	if (st.rec)
		recording_close(st.rec);
	free(st.it);
	return 0;
}

/* The TUI's model as far as a seek is concerned: a history of W samples,
 * emptied on a reset. */
struct model_sink {
	struct series *ser;
	size_t cap;
	unsigned long delivered, resets;
};

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct model_sink *m = ctx;
	series_push(m->ser, s);
	m->delivered++;
}

static void on_reset(void *ctx)
{
	struct model_sink *m = ctx;
	series_free(m->ser);
	m->ser = series_new(m->cap);
	m->resets++;
}

static void on_note(void *ctx, const char *msg)
{
	(void)ctx;
	fprintf(stderr, "history: note: %s\n", msg);
}

enum { K_END, K_HOME, K_MIDDLE, K_BACK, NKEYS };
static const char *const seek_name[NKEYS] = {"End", "Home", "j to the middle",
					     "N (one back from the end)"};

static int seeks(const char *path, size_t window, int rounds, int index)
{
	char err[600];
	struct runlog *log = runlog_new();
	struct model_sink m = {0};
	struct source_sink sink = {
	    .ctx = &m, .sample = on_sample, .note = on_note, .reset = on_reset};
	double w0 = (double)mono_ns() / 1e9, c0 = cpu_s();
	struct source *src = source_replay_new(path, 16, log, &sink, NULL, err, sizeof(err));
	double open_w = (double)mono_ns() / 1e9 - w0, open_c = cpu_s() - c0;
	if (!src) {
		fprintf(stderr, "history: %s\n", err);
		runlog_free(log);
		return 2;
	}
	const struct record_header *h = source_replay_header(src);
	struct replay_pos p;
	source_replay_pos(src, &p);
	m.cap =
	    window ? window : series_capacity_for(3600, h->interval_s > 0 ? h->interval_s : 0.25);
	m.ser = series_new(m.cap);
	if (index)
		source_replay_set_window(src, m.cap);
	printf("history --seek: %s, %zu samples (%.1f h), %s, a history of %zu samples%s\n", path,
	       p.n, p.len_s / 3600, is_gzip(path) ? "gzip" : "plain", m.cap,
	       index ? "" : ", no index (--no-index)");
	printf("%-34s %9s %9s %9s  %s\n", "what", "wall s", "CPU s", "target", "verdict");
	printf("%-34s %9.3f %9.3f %9s  %s\n", "open (the first read, the index)", open_w, open_c,
	       "", "");
	double wall[NKEYS][16], cpu[NKEYS][16];
	int bad = 0;
	if (rounds > 16)
		rounds = 16;
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < NKEYS; k++) {
			size_t want = k == K_END      ? p.n - 1
				      : k == K_HOME   ? 0
				      : k == K_MIDDLE ? source_replay_index_at(src, p.len_s / 2)
						      : p.n - 2;
			if (k == K_BACK)
				source_replay_seek(src, p.n - 1); /* from the end, untimed */
			if (k == K_END)
				source_replay_seek(src, 0); /* from the start, untimed */
			w0 = (double)mono_ns() / 1e9, c0 = cpu_s();
			source_replay_seek(src, want);
			wall[k][r] = (double)mono_ns() / 1e9 - w0, cpu[k][r] = cpu_s() - c0;
			struct replay_pos q;
			source_replay_pos(src, &q);
			const struct sample *last = series_back(m.ser, 0);
			size_t back = want + 1 < m.cap ? want : m.cap - 1;
			if (q.pos != want + 1 || !last || series_len(m.ser) != back + 1) {
				fprintf(stderr,
					"history: %s: landed at %zu (history %zu), not %zu\n",
					seek_name[k], q.pos, series_len(m.ser), want + 1);
				bad = 1;
			}
		}
	}
	for (int k = 0; k < NKEYS; k++) {
		qsort(wall[k], (size_t)rounds, sizeof(double), cmp_d);
		qsort(cpu[k], (size_t)rounds, sizeof(double), cmp_d);
		double mw = wall[k][rounds / 2];
		printf("%-34s %9.3f %9.3f %9s  %s\n", seek_name[k], mw, cpu[k][rounds / 2],
		       "<= 0.5", mw <= 0.5 ? "PASS" : "FAIL");
	}
	printf("(medians of %d rounds; %lu samples delivered in all, %lu resets)\n", rounds,
	       m.delivered, m.resets);
	source_free(src);
	series_free(m.ser);
	runlog_free(log);
	return bad;
}

/* The reader alone: every item of path decoded, rounds times. */
static int decode(const char *path, int rounds)
{
	char err[600];
	double cpu[16];
	unsigned lines = 0;
	size_t samples = 0;
	struct record_item *it = xmalloc(sizeof(*it));
	if (rounds > 16)
		rounds = 16;
	for (int k = 0; k < rounds; k++) {
		double c0 = cpu_s();
		struct recording *r = recording_open(path, err, sizeof(err));
		if (!r) {
			fprintf(stderr, "history: %s\n", err);
			free(it);
			return 2;
		}
		int rc;
		samples = 0;
		while ((rc = recording_next(r, it, err, sizeof(err))) > 0) {
			lines = it->line;
			samples += it->kind == RECORD_SAMPLE;
		}
		recording_close(r);
		cpu[k] = cpu_s() - c0;
		if (rc < 0) {
			fprintf(stderr, "history: %s\n", err);
			free(it);
			return 1;
		}
	}
	free(it);
	qsort(cpu, (size_t)rounds, sizeof(double), cmp_d);
	double us = lines ? cpu[rounds / 2] / lines * 1e6 : 0;
	printf("history --decode: %s, %u lines (%zu samples), %s\n", path, lines, samples,
	       is_gzip(path) ? "gzip" : "plain");
	printf("decode CPU %.3f s, %.2f us a line (median of %d; target <= 12)  %s\n",
	       cpu[rounds / 2], us, rounds, us <= 12 ? "PASS" : "FAIL");
	return 0;
}

int main(int argc, char **argv)
{
	long n = 36000;
	long window = 0;
	int rounds = 3, index = 1;
	const char *seek = NULL, *dec = NULL, *from = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			n = atol(argv[++i]);
		else if (!strcmp(argv[i], "--seek") && i + 1 < argc)
			seek = argv[++i];
		else if (!strcmp(argv[i], "--from") && i + 1 < argc)
			from = argv[++i];
		else if (!strcmp(argv[i], "--decode") && i + 1 < argc)
			dec = argv[++i];
		else if (!strcmp(argv[i], "-w") && i + 1 < argc)
			window = atol(argv[++i]);
		else if (!strcmp(argv[i], "-k") && i + 1 < argc)
			rounds = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--no-index"))
			index = 0;
		else {
			fprintf(stderr, "usage: history [-n N] [--from FILE] | history --seek FILE [-w W] [-k K] "
					"[--no-index] | history --decode FILE [-k K]\n");
			return 2;
		}
	}
	if (n < 1 || window < 0 || rounds < 1) {
		fprintf(stderr, "history: -n and -k must be at least 1, -w 0 or more\n");
		return 2;
	}
	if (dec)
		return decode(dec, rounds);
	if (seek)
		return seeks(seek, (size_t)window, rounds, index);
	return bytes_a_sample(n, from);
}
