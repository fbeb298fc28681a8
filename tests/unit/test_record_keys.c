/*
 * docs/recording.md against the --record writer (issue 17 §5): the real
 * writer (recorder_open / _sample / _event / _result) writes one line of
 * every kind with every field present — a header, a sample whose have bits
 * are all the format knows (HAVE_KNOWN) with a disk table, an event, a
 * result with residency and probe figures — and each line is parsed back
 * with jansson on its own.  Every key it holds (the keys of a sub-object
 * as "result.res", "result.probe"; a disk row's columns, named by the
 * header's disk_columns, as "disk") must have a row in the document's
 * `| key | line | unit | meaning |` tables, and every row must name a key
 * the writer emitted.  So a writer that gains a key without its row, or a
 * row for a key that is gone, fails here.  Also: every key of the sample
 * field table is documented (a group whose bit a file cannot carry would
 * emit nothing to compare), and no row is there twice.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/parse.h"
#include "model/phase.h"
#include "model/sweep.h"
#include "recording/record.h"
#include "recording/record_format.h"
#include "runs/strategy.h"
#include "base/util.h"

#include "testutil.h"

TU_TMPDIR_SUITE("rkeys")

#define MAX_KEYS 1024

/* "line\tkey" pairs */
struct keyset {
	char k[MAX_KEYS][96];
	int n;
};

static int has(const struct keyset *s, const char *k)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->k[i], k))
			return 1;
	return 0;
}

static void add(struct keyset *s, const char *line, const char *key)
{
	char k[96];
	snprintf(k, sizeof(k), "%s\t%s", line, key);
	if (has(s, k))
		return;
	assert_true(s->n < MAX_KEYS);
	snprintf(s->k[s->n++], sizeof(s->k[0]), "%s", k);
}

/* The keys of o as line kind `line`; an object value's keys as
 * "line.key" (but "dk": its keys are device names, its rows the columns). */
static void collect(struct keyset *s, json_t *o, const char *line)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v)
	{
		add(s, line, key);
		if (json_is_object(v) && strcmp(key, "dk")) {
			char sub[64];
			snprintf(sub, sizeof(sub), "%s.%s", line, key);
			collect(s, v, sub);
		}
	}
}

/* One recording with a line of each kind, every field there. */
static void write_each_kind(const char *path)
{
	char err[512];
	struct record_header h;
	record_header_init(&h);
	snprintf(h.version, sizeof(h.version), "test");
	snprintf(h.device, sizeof(h.device), "vda");
	snprintf(h.device_how, sizeof(h.device_how), "/var/tmp is on vda");
	snprintf(h.device_kind, sizeof(h.device_kind), "virtio");
	snprintf(h.notes, sizeof(h.notes), "none");
	h.cgroup_version = 2;
	h.interval_s = 0.25;
	char *argv[] = {"lrutop", "--record", (char *)path};
	h.argc = 3;
	h.argv = argv;
	/* the runs' configuration with a sweep and its condition: every key */
	struct run_config rc = {.strategies = "rw_cp", .ncmds = 1, .repeat = 2, .bs = 8192};
	assert_int_equal(sweep_parse("mem-limit=32M,64M", parse_size, &rc.sweep, err, sizeof(err)),
			 0);
	assert_int_equal(sweep_until_parse("bursts>=1", &rc.sweep.until, err, sizeof(err)), 0);
	record_config_of_run(&h.config, &rc);
	struct recorder *r = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(r);

	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	smp.t_ns = mono_ns();
	smp.have = HAVE_KNOWN; /* every group the format carries */
	smp.run = 0;
	smp.phase = PHASE_COPY;
	smp.psi_mem_some = 1.5f;
	struct disktab tab;
	memset(&tab, 0, sizeof(tab));
	tab.t_ns = smp.t_ns + 1000; /* "dkt" */
	tab.n = 2;
	snprintf(tab.dev[0].name, sizeof(tab.dev[0].name), "vda");
	tab.dev[0].is_disk = 1;
	tab.dev[0].rd_ios = 7;
	snprintf(tab.dev[1].name, sizeof(tab.dev[1].name), "vda1");
	assert_int_equal(recorder_sample(r, &smp, &tab, err, sizeof(err)), 0);

	/* the page-cache map: both files, every column non-zero */
	static struct residency_map map;
	map.t_ns = smp.t_ns;
	struct residency_map_file *mf[] = {&map.src, &map.dst};
	for (int i = 0; i < 2; i++) {
		mf[i]->pages = 8, mf[i]->n = 2, mf[i]->method = RESIDENCY_CACHESTAT;
		mf[i]->cached[0] = mf[i]->dirty[0] = mf[i]->writeback[0] = 1;
		mf[i]->evicted[1] = mf[i]->recent[1] = 1;
	}
	assert_int_equal(recorder_map(r, &map, err, sizeof(err)), 0);

	struct run_event ev = {.t_ns = smp.t_ns, .run = 0, .phase = PHASE_COPY};
	assert_int_equal(recorder_event(r, &ev, err, sizeof(err)), 0);

	struct run_result *x = calloc(1, sizeof(*x));
	assert_non_null(x);
	snprintf(x->name, sizeof(x->name), "rw_cp");
	snprintf(x->strategy, sizeof(x->strategy), "rw_cp");
	x->cmd = -1;
	x->repeat = x->finished = x->ok = 1;
	x->elapsed_s = 1.0;
	x->res_have = 1; /* "res" */
	x->sweep_param = 1; /* "sweep", "sweep_value" */
	x->sweep_value = 32ull << 20;
	snprintf(x->probe.mode, sizeof(x->probe.mode), "cold");
	x->probe.n = 200; /* "probe" */
	assert_int_equal(recorder_result(r, x, err, sizeof(err)), 0);
	free(x);
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

/* The file's keys, each line parsed on its own. */
static void file_keys(const char *path, struct keyset *s)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	char *line = NULL;
	size_t cap = 0;
	int lines = 0;
	while (getline(&line, &cap, f) > 0) {
		json_error_t je;
		json_t *o = json_loads(line, 0, &je);
		assert_non_null(o);
		const char *k = json_string_value(json_object_get(o, "k"));
		if (lines == 0) {
			assert_null(k);
			collect(s, o, "header");
			size_t i;
			json_t *c;
			json_array_foreach(json_object_get(o, "disk_columns"), i, c)
			    add(s, "disk", json_string_value(c));
		} else {
			assert_non_null(k);
			collect(s, o, k);
		}
		json_decref(o);
		lines++;
	}
	free(line);
	fclose(f);
	assert_int_equal(lines, 5); /* header, sample, pcmap, event, result */
}

/* A cell without its blanks and backticks. */
static void cell(const char *p, size_t n, char *out, size_t len)
{
	while (n && (*p == ' ' || *p == '`'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '`'))
		n--;
	snprintf(out, len, "%.*s", (int)n, p);
}

/* The rows of every `| key | line | unit | meaning |` table in the doc. */
static void doc_keys(struct keyset *s, int *dups)
{
	FILE *f = fopen(LRUTOP_SRCDIR "/docs/recording.md", "r");
	assert_non_null(f);
	char buf[2048];
	int in = 0;
	*dups = 0;
	while (fgets(buf, sizeof(buf), f)) {
		if (!strncmp(buf, "| key | line | unit | meaning |", 31)) {
			in = 1;
			continue;
		}
		if (buf[0] != '|') {
			in = 0;
			continue;
		}
		if (!in || !strncmp(buf, "|---", 4))
			continue;
		char *a = buf + 1, *b = strchr(a, '|');
		assert_non_null(b);
		char *c = strchr(b + 1, '|');
		assert_non_null(c);
		char key[64], line[32], k[96];
		cell(a, (size_t)(b - a), key, sizeof(key));
		cell(b + 1, (size_t)(c - b - 1), line, sizeof(line));
		snprintf(k, sizeof(k), "%s\t%s", line, key);
		if (has(s, k)) {
			print_error("docs/recording.md lists %s (%s) twice\n", key, line);
			++*dups;
		}
		add(s, line, key);
	}
	fclose(f);
	assert_true(s->n > 100);
}

static void test_doc_lists_every_key(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof(path), "%s/all.jsonl", dir);
	write_each_kind(path);
	struct keyset *file = calloc(1, sizeof(*file)), *doc = calloc(1, sizeof(*doc));
	assert_non_null(file);
	assert_non_null(doc);
	file_keys(path, file);
	int dups;
	doc_keys(doc, &dups);
	int bad = dups;
	for (int i = 0; i < file->n; i++)
		if (!has(doc, file->k[i])) {
			char *t = strchr(file->k[i], '\t');
			print_error(
			    "the writer emits %s (%.*s line): docs/recording.md has no row\n",
			    t + 1, (int)(t - file->k[i]), file->k[i]);
			bad++;
		}
	for (int i = 0; i < doc->n; i++)
		if (!has(file, doc->k[i])) {
			char *t = strchr(doc->k[i], '\t');
			print_error("docs/recording.md lists %s (%.*s line): the writer never "
				    "emits it (or this test writes no such line)\n",
				    t + 1, (int)(t - doc->k[i]), doc->k[i]);
			bad++;
		}
	for (size_t i = 0; i < record_nfields; i++) {
		char k[96];
		snprintf(k, sizeof(k), "sample\t%s", record_fields[i].key);
		if (!has(doc, k)) {
			print_error("sample field %s: docs/recording.md has no row\n",
				    record_fields[i].key);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
	free(file);
	free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_doc_lists_every_key, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
