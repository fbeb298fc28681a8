/*
 * The runs' configuration a recording keeps (record.h: the header's
 * "config", minor 4) and how every reader finds it (issue 28, part 16 §3):
 *  - a recording made by the app (app_record_start, the real writer) with
 *    -m 64M, --mem=64M and the abbreviation --mem-l 64M says mem_limit
 *    64M in its "config", and replays with that limit though the reader
 *    is given no way to read argv;
 *  - a recording before minor 4 (no "config") gets the same from its
 *    command line through the program's own option parser
 *    (app_argv_parser), in every form getopt takes; the hand parser this
 *    replaced saw only "--mem-limit V" and "--mem-limit=V", so the other
 *    forms replayed without a limit (0 here, where no sample carries the
 *    cgroup's);
 *  - the real old recordings of the repository (examples/, tests/data/)
 *    replay with the baseline and limits they had, and a talk's
 *    rehearsal is still known as one;
 *  - an old command line this build's options refuse leaves the
 *    configuration unknown and the recording replays;
 *  - the writer and the reader agree on every field, and a bad "config"
 *    is "FILE:1: header: config: ...".
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/argv_config.h"
#include "base/parse.h"
#include "model/runlog.h"
#include "model/sweep.h"
#include "recording/record.h"
#include "source/record_sink.h"
#include "source/source.h"
#include "talk/talk_script.h"
#include "base/util.h"

#include "optparse.h"
#include "testutil.h"

TU_TMPDIR_SUITE("rconfig")

#define MIB64 (64ull << 20)

/* The forms one option can take on the command line: a short option, a
 * long one with '=', getopt's abbreviation, and the whole name. */
static char *const mem_forms[][3] = {
    {"-m", "64M", NULL},
    {"--mem=64M", NULL, NULL},
    {"--mem-l", "64M", NULL},
    {"--mem-limit", "64M", NULL},
};
#define NFORMS (sizeof(mem_forms) / sizeof(mem_forms[0]))

/* The recording at path replayed to its end: its run log (the caller
 * frees it), the configuration the source found into *c. */
static struct runlog *replay(const char *path, const struct record_argv_parser *ap,
			     struct record_config *c)
{
	struct runlog *log = runlog_new();
	struct source_sink sink = {0};
	char err[600];
	struct source *src = source_replay_new(path, 0, log, &sink, ap, err, sizeof(err));
	if (!src)
		fail_msg("%s: %s", path, err);
	while (source_step(src) == 0)
		;
	if (c)
		*c = *source_replay_config(src);
	source_free(src);
	return log;
}

/* ---- new recordings: the app writes the typed configuration ----------- */

static void test_app_records_every_form(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFORMS; f++) {
		char path[128], err[700];
		snprintf(path, sizeof(path), "%s/new%zu.jsonl", dir, f);
		/* the TUI's command line: the limit seeds the picker, no runs */
		struct options o;
		int rc = mem_forms[f][1]
			     ? tu_parse(&o, err, sizeof(err), mem_forms[f][0], mem_forms[f][1],
					(char *)NULL)
			     : tu_parse(&o, err, sizeof(err), mem_forms[f][0], (char *)NULL);
		assert_int_equal(rc, 0);
		assert_true(o.mem_limit == MIB64);
		struct app a;
		assert_int_equal(app_init(&a, &o, NULL, err, sizeof(err)), 0);
		if (app_record_start(&a, path, err, sizeof(err)) < 0)
			fail_msg("%s: %s", mem_forms[f][0], err);
		assert_int_equal(app_tick(&a), 0); /* a sample: a replay needs one */
		assert_int_equal(record_sink_stop(&a.rec, err, sizeof(err)), 0);
		app_done(&a);

		struct recording *r = recording_open(path, err, sizeof(err));
		assert_non_null(r);
		const struct record_header *h = recording_header(r);
		assert_int_equal(h->minor, RECORD_MINOR);
		assert_true(h->config.have);
		assert_true(h->config.mem_limit == MIB64);
		assert_string_equal(h->argv[1], mem_forms[f][0]); /* kept as given */
		recording_close(r);

		/* no parser for argv: the limit comes from "config" alone */
		struct record_config c;
		struct runlog *log = replay(path, NULL, &c);
		assert_true(c.have);
		assert_true(log->mem_limit == MIB64);
		runlog_free(log);
	}
}

/* Every field of the configuration, written and read back the same. */
static void test_round_trip(void **state)
{
	(void)state;
	char path[128], err[600];
	snprintf(path, sizeof(path), "%s/all.jsonl", dir);
	struct run_config rc = {.strategies = "copybench,stream_cp",
				.cmds = {"cp {src} {dst}", "dd if={src} of={dst}"},
				.names = {"mine"},
				.ncmds = 2,
				.nnames = 1,
				.size = 3ull << 30,
				.mem_limit = UINT64_MAX, /* any size --mem-limit takes */
				.disk_limit = 30ull << 20,
				.repeat = RUN_CONFIG_REPEAT_MAX,
				.baseline = "mm_sync_cp",
				.bs = 1 << 30,
				.prealloc = 1};
	assert_int_equal(sweep_parse("size=32M..256M:x2", parse_size, &rc.sweep, err, sizeof(err)),
			 0);
	assert_int_equal(sweep_until_parse("rdcv > 0.5", &rc.sweep.until, err, sizeof(err)), 0);
	struct record_header h;
	record_header_init(&h);
	record_config_of_run(&h.config, &rc);
	strcpy(h.config.probe, "direct");
	h.config.rehearsal = 1;
	assert_int_equal(h.config.nstrategies, 9); /* copybench's eight, stream_cp */
	assert_string_equal(h.config.strategies[8], "stream_cp");
	assert_int_equal(h.config.ncmds, 2);
	assert_string_equal(h.config.cmds[0], "mine");
	assert_string_equal(h.config.cmds[1], ""); /* no --name: its program labels it */
	assert_true(h.config.sweep.n == 4 && h.config.sweep.until.set);
	struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(w);
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
	struct recording *r = recording_open(path, err, sizeof(err));
	if (!r)
		fail_msg("%s", err);
	struct record_header back = *recording_header(r);
	const struct record_config *c = &back.config, *w0 = &h.config;
	assert_true(c->have && c->nstrategies == 9 && c->ncmds == 2);
	for (int i = 0; i < c->nstrategies; i++)
		assert_string_equal(c->strategies[i], w0->strategies[i]);
	assert_string_equal(c->cmds[0], "mine");
	assert_string_equal(c->cmds[1], "");
	assert_true(c->size == w0->size && c->bs == w0->bs && c->disk_limit == w0->disk_limit);
	assert_true(c->mem_limit == UINT64_MAX);
	assert_int_equal(c->repeat, RUN_CONFIG_REPEAT_MAX);
	assert_string_equal(c->baseline, "mm_sync_cp");
	assert_string_equal(c->probe, "direct");
	assert_true(c->prealloc == 1 && c->rehearsal == 1);
	assert_true(c->sweep.param == SWEEP_SIZE && c->sweep.n == 4);
	assert_memory_equal(c->sweep.v, w0->sweep.v, 4 * sizeof(c->sweep.v[0]));
	assert_true(c->sweep.until.set && c->sweep.until.metric == w0->sweep.until.metric &&
		    c->sweep.until.op == w0->sweep.until.op && c->sweep.until.threshold == 0.5);
	assert_string_equal(c->sweep.until.text, "rdcv>0.5");
	recording_close(r);
}

/* A threshold %g would write with an exponent, which the option (and so
 * the reader) does not take, comes back bit for bit. */
static void test_until_round_trip(void **state)
{
	(void)state;
	const char *conds[] = {"elapsed<=1000000", "rdcv>0.000001234567891", "bursts>=3"};
	for (size_t i = 0; i < sizeof(conds) / sizeof(conds[0]); i++) {
		char path[128], err[600], text[128];
		snprintf(path, sizeof(path), "%s/until%zu.jsonl", dir, i);
		struct record_header h;
		record_header_init(&h);
		h.config.have = 1;
		h.config.repeat = 1;
		h.config.bs = 8192;
		struct sweep_spec *sw = &h.config.sweep;
		assert_int_equal(sweep_parse("bs=4K,8K", parse_size, sw, err, sizeof(err)), 0);
		assert_int_equal(sweep_until_parse(conds[i], &sw->until, err, sizeof(err)), 0);
		sweep_until_format(&sw->until, text, sizeof(text));
		assert_string_equal(text, conds[i]);
		struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
		assert_non_null(w);
		assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
		struct recording *r = recording_open(path, err, sizeof(err));
		if (!r)
			fail_msg("%s: %s", conds[i], err);
		const struct sweep_cond *u = &recording_header(r)->config.sweep.until;
		assert_true(u->threshold == sw->until.threshold);
		assert_string_equal(u->text, sw->until.text); /* "elapsed<=1e+06", as live */
		recording_close(r);
	}
}

/* A bad "config": the first line's error, naming the key. */
static void expect_config_refused(const char *config, const char *want)
{
	char path[128], err[600];
	static int n;
	snprintf(path, sizeof(path), "%s/bad%d.jsonl", dir, n++);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"lrutop_record\":1,\"minor\":4,\"config\":%s}\n", config);
	assert_int_equal(fclose(f), 0);
	struct recording *r = recording_open(path, err, sizeof(err));
	if (r)
		fail_msg("%s was taken", config);
	char at[160];
	snprintf(at, sizeof(at), "%s:1: ", path);
	if (strncmp(err, at, strlen(at)) || !strstr(err, want))
		fail_msg("%s: \"%s\", not \"%s%s\"", config, err, at, want);
}

static void test_bad_config(void **state)
{
	(void)state;
#define KEYS                                                                                       \
	"\"strategies\":[],\"cmds\":[],\"size\":0,\"bs\":8192,\"mem_limit\":0,\"disk_limit\":0,"   \
	"\"repeat\":1,\"baseline\":\"\",\"prealloc\":0,\"rehearsal\":0"
	expect_config_refused("[]", "header: \"config\" is not an object");
	expect_config_refused("{" KEYS ",\"probe\":\"warm\"}",
			      "header: config: \"probe\" is not cold, direct or \"\"");
	expect_config_refused("{" KEYS "}", "header: config: \"probe\" missing or not a string");
	expect_config_refused("{" KEYS ",\"probe\":\"\",\"sweep\":\"bs\",\"sweep_values\":[2,1]}",
			      "header: config: \"sweep_values\" not ascending");
	expect_config_refused("{" KEYS ",\"probe\":\"\",\"sweep\":\"speed\",\"sweep_values\":[1]}",
			      "header: config: \"sweep\" is not mem-limit, disk-limit, bs or size");
	expect_config_refused("{" KEYS ",\"probe\":\"\",\"sweep\":\"bs\",\"sweep_values\":[1],"
			      "\"sweep_until\":\"bursts=1\"}",
			      "header: config: \"sweep_until\" is not a condition");
	expect_config_refused("{\"strategies\":[\"a_name_longer_than_thirty_one_bytes\"]}",
			      "header: config: \"strategies\": not a name of at most 31 bytes");
	expect_config_refused("{\"strategies\":[],\"cmds\":[],\"size\":-1}",
			      "header: config: \"size\": -1 is out of range");
#undef KEYS
}

/* ---- recordings before minor 4: argv through the option parser -------- */

/* An old recording: a header with argv and no "config" (the writer leaves
 * it out when not known), a sample without the cgroup's figures, one
 * finished run. */
static void write_old(const char *path, int argc, char **argv)
{
	struct record_header h;
	record_header_init(&h);
	strcpy(h.version, "old");
	h.minor = 3;
	h.interval_s = 0.25;
	h.argc = argc;
	h.argv = argv;
	char err[600];
	struct recorder *w = recorder_open(path, RECORD_PLAIN, &h, err, sizeof(err));
	assert_non_null(w);
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = 1000000000ull;
	s.run = -1;
	assert_int_equal(recorder_sample(w, &s, NULL, err, sizeof(err)), 0);
	struct run_result x;
	memset(&x, 0, sizeof(x));
	strcpy(x.name, "rw_cp");
	strcpy(x.strategy, "rw_cp");
	x.cmd = -1;
	x.repeat = x.finished = x.ok = 1;
	x.elapsed_s = 1;
	assert_int_equal(recorder_result(w, &x, err, sizeof(err)), 0);
	assert_int_equal(recorder_close(w, err, sizeof(err)), 0);
}

static void test_old_recording_every_form(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFORMS; f++) {
		char path[128];
		snprintf(path, sizeof(path), "%s/old%zu.jsonl", dir, f);
		char *argv[16] = {"lrutop", "--batch", "-s", "rw_cp,mm_sync_cp"};
		int argc = 4;
		for (int k = 0; k < 3 && mem_forms[f][k]; k++)
			argv[argc++] = mem_forms[f][k];
		argv[argc++] = "--base";
		argv[argc++] = "mm_sync_cp";
		argv[argc++] = "--pro";
		argv[argc++] = "cold";
		argv[argc++] = "--record";
		argv[argc++] = path;
		write_old(path, argc, argv);

		struct record_config c;
		struct runlog *log = replay(path, &app_argv_parser, &c);
		assert_true(c.have);
		assert_true(log->mem_limit == MIB64);
		assert_string_equal(log->baseline, "mm_sync_cp");
		assert_string_equal(c.probe, "cold");
		assert_int_equal(c.nstrategies, 2);
		runlog_free(log);
		/* without the parser nothing of argv is known: the first run's
		 * label, no limit (no sample has the cgroup's) */
		log = replay(path, NULL, &c);
		assert_false(c.have);
		assert_true(log->mem_limit == 0);
		assert_string_equal(log->baseline, "rw_cp");
		runlog_free(log);
	}
}

/* A command line this build's options refuse: not known, and it replays. */
static void test_old_recording_unparsable(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof(path), "%s/odd.jsonl", dir);
	char *argv[] = {"lrutop", "--mem-limit", "64M", "--an-option-since-gone", "-s", "rw_cp"};
	write_old(path, 6, argv);
	struct record_config c;
	struct runlog *log = replay(path, &app_argv_parser, &c);
	assert_false(c.have);
	assert_true(log->mem_limit == 0);
	assert_string_equal(log->baseline, "rw_cp");
	assert_int_equal(log->nresults, 1);
	runlog_free(log);
}

/* The repository's real old recordings, as they replayed before. */
static void test_real_old_recordings(void **state)
{
	(void)state;
	struct record_config c;
	/* minor 0: -s rw_cp,mm_sync_cp --mem-limit 64M --size 1G */
	struct runlog *log =
	    replay(LRUTOP_SRCDIR "/examples/copy-64M.jsonl.gz", &app_argv_parser, &c);
	assert_true(c.have);
	assert_int_equal(c.nstrategies, 2);
	assert_string_equal(c.strategies[1], "mm_sync_cp");
	assert_true(c.size == 1ull << 30);
	assert_true(log->mem_limit == MIB64);
	assert_string_equal(log->baseline, "rw_cp");
	assert_true(log->disk_limit == 0);
	runlog_free(log);
	/* minor 3: --mem-limit 40M --disk-limit 30M --repeat 3 -i 1: the disk
	 * limit is what the runs' labels say (@30M), as before */
	log = replay(LRUTOP_SRCDIR "/tests/data/sawtooth-30M-i1.jsonl.gz", &app_argv_parser, &c);
	assert_true(c.have);
	assert_int_equal(c.repeat, 3);
	assert_true(c.disk_limit == 0);
	assert_true(log->mem_limit == 40ull << 20);
	assert_true(log->disk_limit == 30ull << 20);
	runlog_free(log);
	/* a talk's rehearsal (minor 1: --talk examples/2008.talk --rehearse) */
	assert_int_equal(talk_made_by_rehearsal(LRUTOP_SRCDIR "/examples/2008-copies.jsonl.gz"), 1);
	assert_int_equal(talk_made_by_rehearsal(LRUTOP_SRCDIR "/examples/copy-64M.jsonl.gz"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_app_records_every_form),
	    cmocka_unit_test(test_round_trip),
	    cmocka_unit_test(test_until_round_trip),
	    cmocka_unit_test(test_bad_config),
	    cmocka_unit_test(test_old_recording_every_form),
	    cmocka_unit_test(test_old_recording_unparsable),
	    cmocka_unit_test(test_real_old_recordings),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
