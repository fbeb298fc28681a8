/*
 * Tests for recording_read_ahead (issue 19): the same recording read by a
 * plain handle and by one whose lines are parsed on worker threads, in
 * step, must give the same return codes, byte for byte the same items,
 * the same error sentences, marks and warning.  The recordings are the
 * writer's (recorder_open ...), of this machine's sampler and disk table
 * changed a little per sample (rows that did not move are left out, a
 * device joins and leaves), with events, results and page-cache maps;
 * then copies with blank lines, a bad line in the middle (not JSON; JSON
 * the conversion refuses), a line too long, a run of blank lines as long
 * as a line may be and one longer, a cut last line, gzip streams made
 * from them, one cut short and one with bytes after its member (an error);
 * a SIGTERM in the middle ends either read
 * within what it had read (a child with lrutop's handler).  Also seeks (to a mark taken
 * ahead, to one taken by the plain handle, after the end) and closes in
 * the middle; the threads are counted in /proc/self/status, so a worker
 * left behind fails.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "recording/gzindex.h"
#include "recording/record.h"
#include "sampling/sampler.h"
#include "base/sigpipe.h"
#include "runs/strategy.h"
#include "base/util.h"

#include "testutil.h"

TU_TMPDIR_SUITE("rahead")

enum { NSAMP = 400 };

static void tpath(char *buf, size_t n, const char *name)
{
	snprintf(buf, n, "%s/%s", dir, name);
}

/* This process's threads, as the kernel counts them. */
static int threads_now(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	assert_non_null(f);
	char line[256];
	int n = -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %d", &n) == 1)
			break;
	fclose(f);
	assert_true(n >= 1);
	return n;
}

static int base_threads; /* before any reader (main's) */

/* The count must come to want.  A thread is counted once clone returns,
 * but a joined one a moment longer: the kernel wakes pthread_join as the
 * thread lets go of its memory and drops it from the count just after,
 * so a count going down is read again (yielding, not sleeping) until it
 * is there, a bounded number of times. */
static void assert_threads(int want)
{
	int n = threads_now();
	for (int i = 0; i < 100000 && n > want; i++) {
		sched_yield();
		n = threads_now();
	}
	assert_int_equal(n, want);
}

static void result_of(struct run_result *x, int run)
{
	memset(x, 0, sizeof(*x));
	snprintf(x->strategy, sizeof(x->strategy), "rw_cp");
	snprintf(x->name, sizeof(x->name), "rw_cp");
	x->cmd = -1;
	x->repeat = run + 1, x->finished = x->ok = 1;
	x->elapsed_s = 1.0 / 3.0 + run, x->mbs = 123.456789012345678, x->read_cv = NAN;
	x->bytes = 1ull << 30, x->t_start_ns = 1, x->t_end_ns = 2;
	x->read_at_burst = NAN;
	snprintf(x->message, sizeof(x->message), "run %d", run);
}

/* The page-cache map of sample t: a source file only, or both. */
static void map_of(struct residency_map *m, uint64_t t, int i)
{
	memset(m, 0, sizeof(*m));
	m->t_ns = t;
	m->src.pages = 1000, m->src.n = 40, m->src.method = RESIDENCY_CACHESTAT;
	for (int k = 0; k < m->src.n; k++)
		m->src.cached[k] = (uint32_t)((k * 7 + i) % 26), m->src.dirty[k] = (uint32_t)(k % 3);
	if (i % 2) {
		m->dst.pages = 900, m->dst.n = 30, m->dst.method = RESIDENCY_MINCORE;
		m->dst.cached[(unsigned)i % 30] = 30;
	}
}

/* Writes the recording: NSAMP samples (every 17th without a disk table),
 * an event at each run's start and end, a result after it, a map every
 * 25 samples. */
static void write_rec(const char *path, enum record_compress z)
{
	char err[512];
	struct record_header h;
	record_header_init(&h);
	snprintf(h.version, sizeof(h.version), "ahead-test");
	h.interval_s = 0.1;
	struct recorder *w = recorder_open(path, z, &h, err, sizeof(err));
	if (!w)
		fail_msg("%s", err);

	struct sampler *sm = sampler_new("", err, sizeof(err));
	assert_non_null(sm);
	struct sample s0;
	static struct disktab real, tab;
	assert_int_equal(sampler_read(sm, &s0), 0);
	assert_int_equal(sampler_read_disks(sm, &real), 0);
	sampler_free(sm);
	assert_true(real.n >= 1);

	static struct residency_map map;
	struct run_result x;
	for (int i = 0; i < NSAMP; i++) {
		struct sample s = s0;
		s.t_ns = s0.t_ns + (uint64_t)i * 100000000ull;
		s.run = (int16_t)(i / 50 % 2 ? i / 100 : -1);
		s.active_file += (uint64_t)i * 11, s.pgscan_kswapd += (uint64_t)i * 3;
		tab = real;
		tab.t_ns = s.t_ns + (uint64_t)(i % 3) * 777; /* "dkt" now and then */
		tab.dev[0].rd_ios += (uint64_t)(i / 2) * 7;  /* a row that moves every other */
		if (i >= 60 && i < 260 && tab.n < DISKTAB_MAX) { /* a device joins, leaves */
			struct disk_counters *d = &tab.dev[tab.n++];
			memset(d, 0, sizeof(*d));
			snprintf(d->name, sizeof(d->name), "zz-ahead0");
			d->wr_sectors = (uint64_t)i * 8;
		}
		int has_tab = i % 17 != 5;
		assert_int_equal(recorder_sample(w, &s, has_tab ? &tab : NULL, err, sizeof(err)), 0);
		if (i % 25 == 3) {
			map_of(&map, s.t_ns, i);
			assert_int_equal(recorder_map(w, &map, err, sizeof(err)), 0);
		}
		if (i % 50 == 10 || i % 50 == 40) {
			struct run_event ev = {.t_ns = s.t_ns, .run = (int16_t)(i / 50),
					       .phase = i % 50 == 10 ? PHASE_COPY : PHASE_IDLE};
			assert_int_equal(recorder_event(w, &ev, err, sizeof(err)), 0);
		}
		if (i % 50 == 40) {
			result_of(&x, i / 50);
			assert_int_equal(recorder_result(w, &x, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
}

/* ---- copies with what a reader must say something about ------------------ */

struct text {
	char *p;
	size_t n, cap;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->n + n > t->cap) {
		t->cap = (t->n + n) * 2;
		t->p = xrealloc(t->p, t->cap);
	}
	memcpy(t->p + t->n, s, n);
	t->n += n;
}

static void slurp(const char *path, struct text *t)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		put(t, buf, n);
	fclose(f);
}

/* t into path: plain (gzip 0), one gzip write (1), or a line at a time
 * with a sync flush after each, as the recorder writes (2). */
static void spill(const char *path, const struct text *t, int gzip)
{
	unlink(path);
	if (gzip) {
		gzFile g = gzopen(path, "wb");
		assert_non_null(g);
		if (gzip == 2) { /* line by line, flushed as the recorder flushes */
			for (size_t at = 0; at < t->n;) {
				const char *nl = memchr(t->p + at, '\n', t->n - at);
				size_t k = nl ? (size_t)(nl - (t->p + at)) + 1 : t->n - at;
				assert_int_equal(gzwrite(g, t->p + at, (unsigned)k), (int)k);
				assert_int_equal(gzflush(g, Z_SYNC_FLUSH), Z_OK);
				at += k;
			}
		} else {
			assert_int_equal(gzwrite(g, t->p, (unsigned)t->n), (int)t->n);
		}
		assert_int_equal(gzclose(g), Z_OK);
		return;
	}
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(t->p, 1, t->n, f), t->n);
	assert_int_equal(fclose(f), 0);
}

/* The plain recording with line `at` (1-based) replaced by `with` (NULL:
 * kept), `blank` empty lines after every 7th line, and the last `cut`
 * bytes left off. */
static void edit(const struct text *in, struct text *out, unsigned at, const char *with,
		 int blank, size_t cut)
{
	out->n = 0;
	unsigned line = 0;
	for (size_t i = 0; i < in->n;) {
		const char *nl = memchr(in->p + i, '\n', in->n - i);
		size_t len = nl ? (size_t)(nl - (in->p + i)) + 1 : in->n - i;
		line++;
		if (line == at && with)
			put(out, with, strlen(with)), put(out, "\n", 1);
		else
			put(out, in->p + i, len);
		if (blank && line % 7 == 0)
			for (int b = 0; b < blank; b++)
				put(out, "\n", 1);
		i += len;
	}
	assert_true(cut < out->n);
	out->n -= cut;
}

/* ---- the two readers in step -------------------------------------------- */

static void assert_marks_equal(const struct recording *a, const struct recording *b)
{
	struct record_mark ma = {0}, mb = {0};
	recording_mark(a, &ma);
	recording_mark(b, &mb);
	assert_true(ma.off == mb.off);
	assert_int_equal(ma.line, mb.line);
	assert_int_equal(ma.ndev, mb.ndev);
	assert_true(ma.t_ns == mb.t_ns);
	if (ma.ndev > 0)
		assert_memory_equal(ma.dev, mb.dev, (size_t)ma.ndev * sizeof(*ma.dev));
	recording_mark_free(&ma);
	recording_mark_free(&mb);
}

/* One recording_next on each: the same answer.  Returns it; the error in
 * err (when not NULL). */
static int next_both(struct recording *a, struct recording *b, char *err, size_t errlen)
{
	static struct record_item ia, ib;
	char ea[600] = "", eb[600] = "";
	memset(&ia, 0, sizeof(ia));
	memset(&ib, 0, sizeof(ib));
	int ra = recording_next(a, &ia, ea, sizeof(ea));
	int rb = recording_next(b, &ib, eb, sizeof(eb));
	assert_int_equal(ra, rb);
	assert_string_equal(ea, eb);
	if (ra > 0)
		assert_memory_equal(&ia, &ib, sizeof(ia));
	assert_marks_equal(a, b);
	if (err)
		strlcpy_(err, ea, errlen);
	return ra;
}

/* Reads on in step to the end or an error, and once more (the end and an
 * error repeat); the warnings must agree.  Items read, *rc the last. */
static int rest_both(struct recording *a, struct recording *b, int *rc, char *err, size_t errlen)
{
	int n = 0;
	while ((*rc = next_both(a, b, err, errlen)) > 0)
		n++;
	char again[600];
	assert_int_equal(next_both(a, b, again, sizeof(again)), *rc);
	assert_string_equal(again, err);
	const char *wa = recording_warning(a), *wb = recording_warning(b);
	assert_true(!wa == !wb);
	if (wa)
		assert_string_equal(wa, wb);
	return n;
}

/* Opens path twice, the second reading ahead on `threads`. */
static void open_both(const char *path, int threads, struct recording **a, struct recording **b)
{
	char err[600];
	*a = recording_open(path, err, sizeof(err));
	if (!*a)
		fail_msg("%s", err);
	*b = recording_open(path, err, sizeof(err));
	assert_non_null(*b);
	int before = base_threads;
	assert_int_equal(recording_read_ahead(*b, threads), 0);
	assert_threads(before + threads);
	assert_int_equal(recording_read_ahead(*b, threads), 0); /* once is enough */
	assert_threads(before + threads);
}

/* The whole file in step with each number of workers: the items read,
 * the last return code and error. */
static int compare(const char *path, int *rc, char *err, size_t errlen)
{
	static const int workers[] = {1, 2, 3, 8};
	int n = -1;
	for (size_t w = 0; w < ARRAY_LEN(workers); w++) {
		struct recording *a, *b;
		int base = base_threads;
		open_both(path, workers[w], &a, &b);
		int got = rest_both(a, b, rc, err, errlen);
		assert_threads(base); /* they stop at the end */
		/* at the end its buffers freed (ASan: nothing leaks, nothing
		 * used after), the handle says the same: the end again, the
		 * warning */
		if (*rc == 0) {
			recording_read_ahead_end(b);
			char again[600];
			assert_int_equal(next_both(a, b, again, sizeof(again)), 0);
			const char *wa = recording_warning(a), *wb = recording_warning(b);
			assert_true(!wa == !wb);
			if (wa)
				assert_string_equal(wa, wb);
		}
		assert_true(n < 0 || got == n);
		n = got;
		recording_close(a);
		recording_close(b);
	}
	return n;
}

static struct text plain;
static char rec_path[128];
static const int items_total = NSAMP + 2 * NSAMP / 50 + NSAMP / 50 + NSAMP / 25;

static void make_plain(void)
{
	if (plain.n)
		return;
	tpath(rec_path, sizeof(rec_path), "rec.jsonl");
	write_rec(rec_path, RECORD_PLAIN);
	slurp(rec_path, &plain);
}

static void test_clean(void **state)
{
	(void)state;
	char path[128], err[600];
	int rc;
	make_plain();
	assert_int_equal(compare(rec_path, &rc, err, sizeof(err)), items_total);
	assert_int_equal(rc, 0);
	tpath(path, sizeof(path), "rec.jsonl.gz");
	write_rec(path, RECORD_BY_NAME);
	assert_int_equal(compare(path, &rc, err, sizeof(err)), items_total);
	assert_int_equal(rc, 0);
}

/* t as plain and as gzip: the items up to where the plain reader stops,
 * and its sentence. */
static void compare_text(const char *name, const struct text *tp, int want_items, int want_rc,
			 const char *want)
{
	const struct text t = *tp;
	char path[128], err[600];
	int rc;
	for (int gz = 0; gz < 2; gz++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, gz ? ".gz" : "");
		spill(path, &t, gz);
		int got = compare(path, &rc, err, sizeof(err));
		if (want_items >= 0 && got != want_items)
			fail_msg("%s: %d items, not %d (%d: %s)", path, got, want_items, rc, err);
		assert_true(got > 0);
		assert_int_equal(rc, want_rc);
		if (want_rc < 0 && !strstr(err, want))
			fail_msg("\"%s\" lacks \"%s\"", err, want);
		if (want_rc == 0 && want) {
			struct recording *r = recording_open(path, err, sizeof(err));
			struct record_item *it = xmalloc(sizeof(*it));
			recording_read_ahead(r, 2);
			while (recording_next(r, it, err, sizeof(err)) > 0)
				;
			assert_non_null(recording_warning(r));
			if (!strstr(recording_warning(r), want))
				fail_msg("\"%s\" lacks \"%s\"", recording_warning(r), want);
			free(it);
			recording_close(r);
		}
		unlink(path);
	}
}

/* Each edit as plain and as gzip (compare_text). */
static void compare_edit(const char *name, unsigned at, const char *with, int blank, size_t cut,
			 int want_items, int want_rc, const char *want)
{
	static struct text t;
	make_plain();
	edit(&plain, &t, at, with, blank, cut);
	compare_text(name, &t, want_items, want_rc, want);
}

static void test_blank_lines(void **state)
{
	(void)state;
	compare_edit("blank1", 0, NULL, 1, 0, items_total, 0, NULL);
	compare_edit("blank3", 0, NULL, 3, 0, items_total, 0, NULL);
}

/* The plain recording with k blank lines after line `after`. */
static void insert_blanks(const struct text *in, struct text *out, unsigned after, size_t k)
{
	out->n = 0;
	unsigned line = 0;
	for (size_t i = 0; i < in->n;) {
		const char *nl = memchr(in->p + i, '\n', in->n - i);
		size_t len = nl ? (size_t)(nl - (in->p + i)) + 1 : in->n - i;
		put(out, in->p + i, len);
		if (++line == after)
			for (size_t b = 0; b < k; b++)
				put(out, "\n", 1);
		i += len;
	}
}

/* A run of blank lines counts as a line does toward RECORD_LINE_MAX (issue
 * 26, 5: a 979 KB gzip of 2e8 newlines was 49 s of reading that no SIGTERM
 * ended): as many as a line may have bytes are read past, one more is the
 * error on the line that is one too many, with or without read-ahead. */
static void test_blank_run(void **state)
{
	(void)state;
	static struct text t;
	char want[200];
	make_plain();
	insert_blanks(&plain, &t, 100, RECORD_LINE_MAX);
	compare_text("blankmax", &t, items_total, 0, NULL);
	insert_blanks(&plain, &t, 100, RECORD_LINE_MAX + 1);
	snprintf(want, sizeof(want), ":%u: more than %u blank lines in a row (not a recording)",
		 100 + RECORD_LINE_MAX + 1, RECORD_LINE_MAX);
	compare_text("blankover", &t, -1, -1, want);
	/* the limit is on a run: as many again after the next line are fine */
	insert_blanks(&plain, &t, 100, RECORD_LINE_MAX);
	static struct text t2;
	insert_blanks(&t, &t2, 101 + RECORD_LINE_MAX, RECORD_LINE_MAX); /* after line 101 */
	compare_text("blanktwice", &t2, items_total, 0, NULL);
	free(t.p), free(t2.p);
	memset(&t, 0, sizeof(t)), memset(&t2, 0, sizeof(t2));
}

/* In a child: ten items of path read (threads: read-ahead workers), then
 * SIGTERM through lrutop's own handler (sig_install: the self-pipe and
 * sig_note).  The reading ends within what was already read (a buffer, the
 * read-ahead's lines), with "PATH:LINE: interrupted", then again.  0, or
 * the check that failed. */
static int interrupted_child(const char *path, int threads)
{
	char err[600], again[600];
	static struct record_item it;
	if (sig_install(err, sizeof(err)) < 0)
		return 10;
	struct recording *r = recording_open(path, err, sizeof(err));
	if (!r)
		return 11;
	if (threads && recording_read_ahead(r, threads) < 0)
		return 12;
	for (int i = 0; i < 10; i++)
		if (recording_next(r, &it, err, sizeof(err)) != 1)
			return 13;
	struct record_mark m0 = {0}, m1 = {0};
	recording_mark(r, &m0);
	raise(SIGTERM); /* the handler has run when it returns */
	int n = 0, rc;
	while ((rc = recording_next(r, &it, err, sizeof(err))) == 1)
		n++;
	recording_mark(r, &m1);
	uint64_t after = m1.off - m0.off;
	recording_mark_free(&m0);
	recording_mark_free(&m1);
	if (rc != -1)
		return 14; /* the end: the signal stopped nothing */
	if (strncmp(err, path, strlen(path)) || !strstr(err, ": interrupted"))
		return 15;
	/* what was in the buffer (a chunk: 64 KiB) and the ring (16 lines) */
	if (after > (64u << 10) + 16 * 4096) {
		fprintf(stderr, "%d items, %llu bytes after the signal\n", n,
			(unsigned long long)after);
		return 16;
	}
	if (recording_next(r, &it, again, sizeof(again)) != -1 || strcmp(again, err))
		return 17;
	recording_close(r);
	return 0;
}

/* Every read loop (a replay's, an export's, --compare's) ends on a
 * terminating signal, whatever the file holds (issue 26, 5). */
static void test_signal(void **state)
{
	(void)state;
	char gz[128];
	make_plain();
	tpath(gz, sizeof(gz), "sig.jsonl.gz");
	spill(gz, &plain, 2);
	const char *paths[] = {rec_path, gz};
	for (size_t p = 0; p < ARRAY_LEN(paths); p++)
		for (int threads = 0; threads <= 2; threads += 2) {
			fflush(NULL);
			pid_t pid = fork();
			assert_true(pid >= 0);
			if (pid == 0)
				_exit(interrupted_child(paths[p], threads));
			int st;
			assert_int_equal(waitpid(pid, &st, 0), pid);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				fail_msg("%s, %d workers: %s %d", paths[p], threads,
					 WIFEXITED(st) ? "check" : "signal",
					 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
		}
	unlink(gz);
}

/* Line 200 is item 198 or so: counted by the plain reader, which the
 * ahead one must match; the sentence names the line. */
static void test_bad_line(void **state)
{
	(void)state;
	char want[200];
	snprintf(want, sizeof(want), ":200: not JSON");
	compare_edit("notjson", 200, "{\"k\":\"sample\",\"t\":1,\"run\"", 0, 0, -1, -1, want);
	compare_edit("notobject", 200, "[1,2]", 2, 0, -1, -1, "not a JSON object");
	compare_edit("badphase", 211, "{\"k\":\"event\",\"t\":1,\"run\":0,\"phase\":\"dancing\"}", 0,
		     0, -1, -1, ":211: event: \"phase\" missing or unknown");
	compare_edit("nok", 300, "{\"t\":1}", 1, 0, -1, -1, "no \"k\"");
}

/* A line longer than any slot's first copy (an unknown kind: skipped),
 * then one longer than RECORD_LINE_MAX: the reader's own error. */
static void test_long_lines(void **state)
{
	(void)state;
	size_t big = 100000, huge = RECORD_LINE_MAX + 10;
	char *line = xmalloc(huge + 32);
	int n = snprintf(line, 32, "{\"k\":\"future\",\"x\":\"");
	memset(line + n, 'a', big);
	strcpy(line + n + big, "\"}");
	compare_edit("long", 100, line, 0, 0, items_total - 1, 0, NULL);
	memset(line + n, 'a', huge);
	strcpy(line + n + huge, "\"}");
	compare_edit("huge", 300, line, 0, 0, -1, -1, ":300: line longer than");
	free(line);
}

/* The last line cut in half: its warning; a gzip stream cut short. */
static void test_cut(void **state)
{
	(void)state;
	char path[128], err[600];
	int rc;
	compare_edit("cutlast", 0, NULL, 0, 300, items_total - 1, 0, "truncated last line");

	static struct text gz, part;
	tpath(path, sizeof(path), "whole.jsonl.gz");
	write_rec(path, RECORD_GZIP);
	slurp(path, &gz);
	part.n = 0;
	put(&part, gz.p, gz.n * 3 / 5);
	tpath(path, sizeof(path), "short.jsonl.gz");
	spill(path, &part, 0);
	int got = compare(path, &rc, err, sizeof(err));
	assert_true(got > 0 && got < items_total);
	assert_true(rc == 0 || !strncmp(err, path, strlen(path)));
	free(gz.p);
	gz.p = NULL, gz.n = gz.cap = 0;
}

/* Bytes after a gzip recording's member (issue 26, 10: zlib's gzread ended
 * the data there without a word): every item, then the one error, which
 * names the file (no line: they are on none) and says how many bytes from
 * where, with or without read-ahead; no access points either. */
static void test_gzip_garbage(void **state)
{
	(void)state;
	char path[128], err[600], want[700];
	int rc;
	make_plain();
	tpath(path, sizeof(path), "garbage.jsonl.gz");
	spill(path, &plain, 2);
	struct stat st;
	assert_int_equal(stat(path, &st), 0);
	FILE *f = fopen(path, "ab");
	assert_non_null(f);
	fputs("GARBAGE\n", f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(compare(path, &rc, err, sizeof(err)), items_total);
	assert_int_equal(rc, -1);
	snprintf(want, sizeof(want),
		 "%s: 8 bytes after the gzip data (from byte %lld) are not gzip: the file was "
		 "appended to or is damaged",
		 path, (long long)st.st_size);
	assert_string_equal(err, want);
	struct recording *r = recording_open(path, err, sizeof(err));
	assert_non_null(r);
	struct gzindex_job *j = recording_index(r, 4096);
	assert_non_null(j);
	assert_null(gzindex_wait(j));
	gzindex_job_free(j);
	recording_close(r);
	unlink(path);
}

/* Marks taken in step, a seek back on both (each with the other's mark,
 * too), then reading on; a seek after the end starts the workers again. */
static void test_seek(void **state)
{
	(void)state;
	char err[600];
	int rc;
	for (int gz = 0; gz < 2; gz++) {
		char path[128];
		const char *p = rec_path;
		make_plain();
		if (gz) {
			tpath(path, sizeof(path), "seek.jsonl.gz");
			spill(path, &plain, 1);
			p = path;
		}
		struct recording *a, *b;
		int base = base_threads;
		open_both(p, 2, &a, &b);
		struct record_mark m0 = {0}, ma = {0}, mb = {0};
		recording_mark(b, &m0); /* before the first item */
		for (int i = 0; i < 150; i++) {
			assert_int_equal(next_both(a, b, NULL, 0), 1);
			if (i == 99) {
				recording_mark(a, &ma);
				recording_mark(b, &mb);
			}
		}
		assert_int_equal(recording_seek(a, &ma, err, sizeof(err)), 0);
		assert_int_equal(recording_seek(b, &ma, err, sizeof(err)), 0);
		for (int i = 0; i < 40; i++)
			assert_int_equal(next_both(a, b, NULL, 0), 1);
		assert_int_equal(recording_seek(a, &mb, err, sizeof(err)), 0);
		assert_int_equal(recording_seek(b, &mb, err, sizeof(err)), 0);
		assert_int_equal(rest_both(a, b, &rc, err, sizeof(err)), items_total - 100);
		assert_int_equal(rc, 0);
		assert_threads(base);
		/* after the end: from the top again, the workers with it */
		assert_int_equal(recording_seek(a, &m0, err, sizeof(err)), 0);
		assert_int_equal(recording_seek(b, &m0, err, sizeof(err)), 0);
		assert_threads(base + 2);
		assert_int_equal(rest_both(a, b, &rc, err, sizeof(err)), items_total);
		recording_mark_free(&m0);
		recording_mark_free(&ma);
		recording_mark_free(&mb);
		recording_close(a);
		recording_close(b);
		if (gz)
			unlink(path);
	}
}

/* gzip with access points (recording_index, a small span: many points):
 * seeks to marks all over the file, in a scrambled order, read on as a
 * handle that seeks with zlib's gzseek does, item for item and error for
 * error; to the end, too.  A plain file has no index. */
static void test_seek_indexed(void **state)
{
	(void)state;
	char err[600], path[128];
	int rc;
	make_plain();
	tpath(path, sizeof(path), "ix.jsonl.gz");
	spill(path, &plain, 2);
	struct recording *a, *b;
	int base = base_threads;
	open_both(path, 1, &a, &b);
	struct gzindex_job *j = recording_index(b, 4096);
	assert_non_null(j);
	recording_use_index(b, j);
	enum { NM = 24 };
	struct record_mark ma[NM] = {{0}};
	int nm = 0, n = 0;
	for (;;) {
		if (n % 13 == 0 && nm < NM)
			recording_mark(a, &ma[nm++]);
		if (next_both(a, b, NULL, 0) <= 0)
			break;
		n++;
	}
	assert_true(nm >= 10);
	const struct gzindex *ix = gzindex_wait(j);
	assert_non_null(ix);
	assert_true(gzindex_points(ix) >= 10);
	for (int k = 0; k < 3 * nm; k++) {
		int i = (k * 7 + 3) % nm;
		assert_int_equal(recording_seek(a, &ma[i], err, sizeof(err)), 0);
		assert_int_equal(recording_seek(b, &ma[i], err, sizeof(err)), 0);
		for (int s = 0; s < 1 + k % 20; s++)
			next_both(a, b, NULL, 0);
	}
	assert_int_equal(recording_seek(a, &ma[nm / 2], err, sizeof(err)), 0);
	assert_int_equal(recording_seek(b, &ma[nm / 2], err, sizeof(err)), 0);
	assert_true(rest_both(a, b, &rc, err, sizeof(err)) > 0);
	assert_int_equal(rc, 0);
	for (int i = 0; i < nm; i++)
		recording_mark_free(&ma[i]);
	recording_close(a);
	recording_close(b);
	gzindex_job_free(j);
	assert_threads(base);
	unlink(path);
	assert_null(recording_index(a = recording_open(rec_path, err, sizeof(err)), 4096));
	recording_close(a);
}

/* Closed with lines read ahead, parsed or being parsed: no thread stays
 * (ASan: nothing leaks, the spilled parts of a tree included). */
static void test_close_mid_file(void **state)
{
	(void)state;
	char err[600];
	static struct record_item it;
	make_plain();
	int base = base_threads;
	for (int k = 0; k < 60; k += 7) {
		struct recording *r = recording_open(rec_path, err, sizeof(err));
		assert_non_null(r);
		assert_int_equal(recording_read_ahead(r, 1 + k % 3), 0);
		for (int i = 0; i < k; i++)
			assert_int_equal(recording_next(r, &it, err, sizeof(err)), 1);
		assert_threads(base + 1 + k % 3);
		recording_close(r);
		assert_threads(base);
	}
	free(plain.p);
	plain.p = NULL, plain.n = plain.cap = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_clean),     cmocka_unit_test(test_blank_lines),
	    cmocka_unit_test(test_blank_run), cmocka_unit_test(test_signal),
	    cmocka_unit_test(test_bad_line),  cmocka_unit_test(test_long_lines),
	    cmocka_unit_test(test_cut),	      cmocka_unit_test(test_seek),
	    cmocka_unit_test(test_gzip_garbage),
	    cmocka_unit_test(test_seek_indexed),
	    cmocka_unit_test(test_close_mid_file),
	};
	base_threads = threads_now();
	return cmocka_run_group_tests(tests, setup, teardown);
}
