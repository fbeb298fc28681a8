/*
 * Tests for the talk script parser (talk_script.c): every step kind parsed
 * into what the runner needs, and every error reported as FILE:LINE with
 * its reason before anything would run.  Recordings for the fallback and
 * replay checks are written with the real recorder into a temporary
 * directory; one carries a rehearsal's command line, one does not.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "screen/chart.h"
#include "screen/grid.h"
#include "gridtest.h"
#include "app/options.h"
#include "recording/record.h"
#include "talk/talk.h"
#include "talk/talk_script.h"
#include "screen/ui.h"
#include "screen/views.h"
#include "testutil.h"

static char dir[64];
static char rec_plain[128], rec_rehearsed[128], script[128];
static struct options base;

static void write_rec(const char *path, int argc, char **argv)
{
	struct record_header h;
	record_header_init(&h);
	strcpy(h.version, "test");
	h.interval_s = 0.25;
	h.argc = argc;
	h.argv = argv;
	char err[300];
	struct recorder *r = recorder_open(path, RECORD_BY_NAME, &h, err, sizeof(err));
	assert_non_null(r);
	struct sample s;
	memset(&s, 0, sizeof(s));
	s.t_ns = 1000000000ull;
	s.run = -1;
	assert_int_equal(recorder_sample(r, &s, NULL, err, sizeof(err)), 0);
	assert_int_equal(recorder_close(r, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	(void)state;
	assert_int_equal(tu_tmpdir(dir, sizeof(dir), "talk"), 0);
	snprintf(rec_plain, sizeof(rec_plain), "%s/plain.jsonl", dir);
	snprintf(rec_rehearsed, sizeof(rec_rehearsed), "%s/rehearsed.jsonl.gz", dir);
	snprintf(script, sizeof(script), "%s/x.talk", dir);
	char *a1[] = {"lrutop", "--record", "x"};
	char *a2[] = {"lrutop", "--talk", "x.talk", "--rehearse"};
	write_rec(rec_plain, 3, a1);
	write_rec(rec_rehearsed, 4, a2);
	options_init(&base);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tu_rmtree(dir);
}

static struct talk_script *parse(const char *text, int rehearse, char *err, size_t len)
{
	err[0] = '\0';
	return talk_script_parse(text, script, &base, rehearse, err, len);
}

static void test_every_step(void **state)
{
	(void)state;
	char err[600], text[2048];
	snprintf(text, sizeof(text),
		 "# a comment\n"
		 "\n"
		 "caption   The 2008 thread:  1 GiB on 512 MiB  \n"
		 "caption\n"
		 "pause\n"
		 "view 4\n"
		 "view iostat\n"
		 "theme projector\n"
		 "glyphs blocks\n"
		 "run rw_cp,mm_sync_cp -m 32M --disk-limit 30M --size 256M --no-verify "
		 "fallback plain.jsonl --expect-bursts 3\n"
		 "wait mm_sync_cp\n"
		 "wait 2\n"
		 "wait\n"
		 "replay %s --from 1:30 --to 100 --speed 2\n"
		 "export-svg %s/new.svg\n"
		 "\t  # indented comment\r\n"
		 "run mm_sync_madv_cp --cmd 'cat {src}' --name cat\n",
		 rec_plain, dir);
	struct talk_script *s = parse(text, 0, err, sizeof(err));
	assert_non_null(s);
	assert_string_equal(err, "");
	assert_int_equal(s->n, 14);
	const struct talk_step *st = s->steps;
	assert_int_equal(st[0].kind, TALK_CAPTION);
	assert_int_equal(st[0].line, 3);
	assert_string_equal(st[0].text, "The 2008 thread:  1 GiB on 512 MiB");
	assert_int_equal(st[1].kind, TALK_CAPTION);
	assert_null(st[1].text);
	assert_int_equal(st[2].kind, TALK_PAUSE);
	assert_int_equal(st[3].kind, TALK_VIEW);
	assert_int_equal(st[3].n, VIEW_RUNS);
	assert_int_equal(st[4].n, VIEW_IOSTAT);
	assert_int_equal(st[5].kind, TALK_THEME);
	assert_string_equal(st[5].text, "projector");
	assert_int_equal(st[6].kind, TALK_GLYPHS);
	assert_int_equal(st[6].n, CHART_BLOCK);
	/* the run's options through options_parse, the talk's own words out */
	const struct talk_step *r = &st[7];
	assert_int_equal(r->kind, TALK_RUN);
	assert_string_equal(r->opt.strategies, "rw_cp,mm_sync_cp");
	assert_int_equal(r->opt.mem_limit, 32ull << 20);
	assert_int_equal(r->opt.disk_limit, 30ull << 20);
	assert_int_equal(r->opt.size, 256ull << 20);
	assert_int_equal(r->opt.no_verify, 1);
	assert_int_equal(r->expect_bursts, 3);
	assert_string_equal(r->fallback, rec_plain); /* beside the script */
	assert_string_equal(r->opt.dir, "/var/tmp");
	assert_int_equal(st[8].kind, TALK_WAIT);
	assert_string_equal(st[8].wait_name, "mm_sync_cp");
	assert_int_equal(st[9].n, 2);
	assert_null(st[10].wait_name);
	assert_int_equal(st[10].n, 0);
	const struct talk_step *p = &st[11];
	assert_int_equal(p->kind, TALK_REPLAY);
	assert_string_equal(p->text, rec_plain);
	assert_true(p->from_s == 90 && p->to_s == 100 && p->speed == 2);
	assert_int_equal(st[12].kind, TALK_EXPORT_SVG);
	assert_int_equal(st[13].kind, TALK_RUN);
	assert_int_equal(st[13].opt.ncmds, 1);
	assert_string_equal(st[13].opt.cmds[0], "cat {src}");
	assert_int_equal(st[13].line, 17);
	assert_string_equal(talk_kind_name(TALK_EXPORT_SVG), "export-svg");
	talk_script_free(s);
}

/* Each bad script, the line it names and a word of the reason. */
static void test_errors(void **state)
{
	(void)state;
	char svg[160];
	snprintf(svg, sizeof(svg), "%s/exists.svg", dir);
	FILE *f = fopen(svg, "w");
	assert_non_null(f);
	fclose(f);
	struct {
		const char *text;
		int rehearse;
		int line;
		const char *why;
	} cases[] = {
	    {"frob\n", 0, 1, "frob: not a step"},
	    {"# c\n\nview 5\n", 0, 3, "view 5: not a view"},
	    {"view\n", 0, 1, "not a view"},
	    {"pause now\n", 0, 1, "pause: takes nothing"},
	    {"theme no-such-theme\n", 0, 1, "theme no-such-theme:"},
	    {"theme\n", 0, 1, "theme: one NAME"},
	    {"glyphs dots\n", 0, 1, "glyphs dots: not braille"},
	    {"run\n", 0, 1, "which strategies"},
	    {"run no_such_cp\n", 0, 1, "no_such_cp"},
	    {"run rw_cp --bogus\n", 0, 1, "--bogus: unknown option"},
	    {"run rw_cp -m\n", 0, 1, "needs an argument"},
	    {"run rw_cp --size 0\n", 0, 1, "--size 0"},
	    {"run rw_cp extra\n", 0, 1, "extra: unexpected argument"},
	    {"run rw_cp --record x.jsonl\n", 0, 1, "--record"},
	    {"run rw_cp --replay x.jsonl\n", 0, 1, "--replay"},
	    {"run rw_cp --batch\n", 0, 1, "--batch"},
	    {"run rw_cp -t light\n", 0, 1, "theme and glyphs are steps"},
	    {"run rw_cp --src /no/such/file\n", 0, 1, "--src /no/such/file"},
	    {"run rw_cp fallback\n", 0, 1, "fallback: which recording"},
	    {"run rw_cp fallback missing.jsonl\n", 0, 1, "missing.jsonl: No such file"},
	    {"run rw_cp fallback x.talk\n", 0, 1, "run: fallback"},
	    {"run rw_cp fallback plain.jsonl fallback plain.jsonl\n", 0, 1, "given twice"},
	    {"run rw_cp --expect-bursts\n", 0, 1, "needs a number"},
	    {"run rw_cp --expect-bursts 0\n", 0, 1, "--expect-bursts 0"},
	    {"run rw_cp --expect-bursts=x\n", 0, 1, "--expect-bursts x"},
	    {"run rw_cp fallback plain.jsonl\n", 1, 1, "not made by a rehearsal"},
	    {"replay\n", 0, 1, "replay: which recording"},
	    {"replay missing.jsonl\n", 0, 1, "replay "},
	    {"replay plain.jsonl --from\n", 0, 1, "--from: needs a value"},
	    {"replay plain.jsonl --from x\n", 0, 1, "--from x: not a time"},
	    {"replay plain.jsonl --speed 99\n", 0, 1, "--speed 99"},
	    {"replay plain.jsonl --from 10 --to 5\n", 0, 1, "not after --from"},
	    {"replay plain.jsonl --loop\n", 0, 1, "--loop: not --from"},
	    {"export-svg\n", 0, 1, "export-svg: one OUT"},
	    {"wait\n", 0, 1, "wait: no run or replay step before it"},
	    {"run rw_cp\nwait mm_sync_cp\n", 0, 2, "does not run it"},
	    {"run rw_cp\nwait no_such\n", 0, 2, "not a strategy or a run number"},
	    {"run rw_cp,mm_sync_cp\nwait 3\n", 0, 2, "queues 2 runs"},
	    {"run rw_cp\nwait 1 2\n", 0, 2, "one RUN at most"},
	    /* issue 15 #10: `caption "unterminated` was accepted */
	    {"caption 'open quote\nrun rw_cp 'x\n", 0, 1, "quote is not closed"},
	    {"caption \"unterminated\n", 0, 1, "quote is not closed"},
	    {"caption ok\nrun rw_cp 'x\n", 0, 2, "quote is not closed"},
	    {"caption a\x01\n", 0, 1, "control character"},
	    /* issue 15 #3: refused at load, as the command line refuses them */
	    {"run rw_cp --dir /dev/shm\n", 0, 1, "no disk I/O would happen"},
	    {"caption x\nrun rw_cp --dir /proc/no_such\n", 0, 2, "--dir /proc/no_such"},
	    {"", 0, 0, "no steps"},
	    {"# only a comment\n", 0, 0, "no steps"},
	};
	char err[600], want[200];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct talk_script *s = parse(cases[i].text, cases[i].rehearse, err, sizeof(err));
		if (s || !strstr(err, cases[i].why))
			fail_msg("case %zu (%s): got '%s'", i, cases[i].text, err);
		if (cases[i].line)
			snprintf(want, sizeof(want), "%s:%d: ", script, cases[i].line);
		else
			snprintf(want, sizeof(want), "%s: ", script);
		if (strncmp(err, want, strlen(want)) != 0)
			fail_msg("case %zu: '%s' does not start with '%s'", i, err, want);
	}
	/* export-svg never names a file that exists */
	char text[300];
	snprintf(text, sizeof(text), "caption x\nexport-svg %s\n", svg);
	assert_null(parse(text, 0, err, sizeof(err)));
	assert_non_null(strstr(err, ":2: export-svg"));
	assert_non_null(strstr(err, "already exists"));
	unlink(svg);
}

/* --rehearse: a missing fallback is fine (it will be written), and so is
 * one a rehearsal wrote; a plain recording is refused (above). */
static void test_rehearse(void **state)
{
	(void)state;
	char err[600];
	assert_int_equal(talk_made_by_rehearsal(rec_rehearsed), 1);
	assert_int_equal(talk_made_by_rehearsal(rec_plain), 0);
	assert_int_equal(talk_made_by_rehearsal("/no/such/file"), 0);
	struct talk_script *s =
	    parse("run rw_cp fallback new.jsonl.gz\nrun rw_cp fallback rehearsed.jsonl.gz\n", 1,
		  err, sizeof(err));
	assert_non_null(s);
	talk_script_free(s);
	/* an export-svg file that exists is no error in a rehearsal (it skips
	 * the step) */
	char text[300];
	snprintf(text, sizeof(text), "export-svg %s\n", rec_plain);
	s = parse(text, 1, err, sizeof(err));
	assert_non_null(s);
	talk_script_free(s);
	assert_null(parse(text, 0, err, sizeof(err)));
	/* without --rehearse the missing one is an error on its line */
	assert_null(parse("run rw_cp fallback rehearsed.jsonl.gz\nrun rw_cp fallback "
			  "new.jsonl.gz\n",
			  0, err, sizeof(err)));
	assert_non_null(strstr(err, "x.talk:2: run: fallback"));
	/* a .part left by a rehearsal cut short is in the way */
	char part[160];
	snprintf(part, sizeof(part), "%s/new.jsonl.gz.part.gz", dir);
	FILE *f = fopen(part, "w");
	assert_non_null(f);
	fclose(f);
	assert_null(parse("run rw_cp fallback new.jsonl.gz\n", 1, err, sizeof(err)));
	assert_non_null(strstr(err, "is in the way"));
	unlink(part);
}

/* talk_script_load: the file itself. */
static void test_load(void **state)
{
	(void)state;
	char err[600];
	assert_null(talk_script_load("/no/such.talk", &base, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "--talk /no/such.talk: No such file"));
	assert_null(talk_script_load(dir, &base, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "a directory"));
	FILE *f = fopen(script, "w");
	assert_non_null(f);
	fputs("caption hi\npause\n", f);
	fclose(f);
	struct talk_script *s = talk_script_load(script, &base, 0, err, sizeof(err));
	assert_non_null(s);
	assert_int_equal(s->n, 2);
	talk_script_free(s);
	f = fopen(script, "w");
	fputs("caption hi\n\0pause\n", f);
	fwrite("x\0y\n", 1, 4, f);
	fclose(f);
	assert_null(talk_script_load(script, &base, 0, err, sizeof(err)));
	assert_non_null(strstr(err, "NUL byte"));
	unlink(script);
}

/* The caption box: every word on screen, in order, wrapped inside the box,
 * drawn in the select role (bold, reversed), with its title. */
static void test_caption_box(void **state)
{
	(void)state;
	struct ui u;
	memset(&u, 0, sizeof(u));
	strcpy(u.caption, "mm_sync_cp: both files mapped, one memcpy, msync. The active list "
			  "fills and collapses and the read rate saws: reclaim threw away pages "
			  "the copy reads again. averyveryveryveryveryveryveryveryveryverylongword"
			  "thatmustbecutsomewhere");
	strcpy(u.caption_title, "2/9 space");
	struct grid g;
	grid_init(&g, 80, 24);
	grid_clear(&g);
	view_caption(&u, &g, 1, 21);
	char *d = grid_dump(&g);
	/* the words come back in order when the lines are joined */
	char joined[4096] = "";
	int lines = 0, top = -1, selected = 0;
	char *save, *line = strtok_r(d, "\n", &save);
	for (int y = 0; line; y++, line = strtok_r(NULL, "\n", &save)) {
		(void)y;
		const char *t = line + strspn(line, " ");
		if (!*t)
			continue;
		if (strstr(t, "2/9 space"))
			continue;
		lines++;
		strcat(joined, t);
		strcat(joined, " ");
	}
	for (int y = 0; y < g.h; y++)
		for (int x = 0; x < g.w; x++)
			if (grid_at(&g, x, y)->role == ROLE_SELECT) {
				selected++;
				if (top < 0)
					top = y;
			}
	assert_true(lines >= 3);
	assert_non_null(strstr(joined, "mm_sync_cp: both files mapped, one memcpy, msync. The"));
	assert_non_null(strstr(joined, "reads again."));
	assert_non_null(strstr(joined, "averyvery"));
	/* the box is inside the grid, at the foot of the chart area */
	assert_true(top > 1 && top + lines + 2 <= 22);
	assert_true(selected >= 76 * (lines + 2));
	free(d);
	/* no caption: nothing drawn */
	grid_clear(&g);
	u.caption[0] = '\0';
	view_caption(&u, &g, 1, 21);
	for (int y = 0; y < g.h; y++)
		for (int x = 0; x < g.w; x++)
			assert_int_not_equal(grid_at(&g, x, y)->role, ROLE_SELECT);
	grid_done(&g);
}

/* The screen of an app drawn headless, one string a row; the status line
 * is left out (it says why a fallback plays), " (fallback)" taken out of
 * the header and runs of spaces squeezed (the tabs move right by as
 * much). */
#define DRAW_W 160
#define DRAW_H 40
static void draw_app(struct app *a, char *rows[DRAW_H])
{
	struct views v;
	struct grid g;
	views_init(&v);
	grid_init(&g, DRAW_W, DRAW_H);
	views_draw(&v, &a->model, &a->ui, &g);
	for (int y = 0; y < DRAW_H; y++) {
		char *t = y < DRAW_H - 1 ? row_text(&g, y) : strdup(""),
		     *f = strstr(t, " (fallback)");
		if (f)
			memmove(f, f + 11, strlen(f + 11) + 1);
		char *w = t; /* the tabs are right-aligned: runs of spaces as one */
		for (const char *p = t; *p; p++)
			if (*p != ' ' || w == t || w[-1] != ' ')
				*w++ = *p;
		*w = '\0';
		rows[y] = t;
	}
	grid_done(&g);
	views_done(&v);
}

/* A talk's fallback replay shows what --replay of the same file shows:
 * both take the recording's header through app_switch_source (MGLRU, the
 * disk's kind, the notes, the date).  The real recording of an MGLRU
 * machine; the live run cannot start (no room for 100 TiB), so the
 * fallback plays at once. */
static void test_fallback_header(void **state)
{
	(void)state;
	const char *rec = LRUTOP_SRCDIR "/examples/mglru-vm.jsonl.gz";
	char err[700];
	struct options o;
	options_init(&o);
	o.replay = rec;
	struct app r;
	assert_int_equal(app_init(&r, &o, NULL, err, sizeof(err)), 0);
	app_tick(&r); /* the loop's first sample */
	char *want[DRAW_H], *got[DRAW_H];
	draw_app(&r, want);
	assert_true(r.model.mglru);
	assert_string_equal(r.model.disk_kind, "virtio");
	assert_non_null(strstr(want[0], " REPLAY "));
	assert_non_null(strstr(want[0], " MGLRU"));

	struct options lo;
	options_init(&lo);
	struct app a;
	assert_int_equal(app_init(&a, &lo, NULL, err, sizeof(err)), 0);
	struct talk_script *s =
	    talk_script_parse("run rw_cp --size 100T fallback mglru-vm.jsonl.gz\npause\n",
			      LRUTOP_SRCDIR "/examples/h.talk", &lo, 0, err, sizeof(err));
	assert_non_null(s);
	struct talk *t = talk_new(s, &a, 0);
	a.talk = t;
	talk_update(t, &a, 160);
	assert_true(a.model.replay.on);
	assert_true(a.model.replay.fallback);
	assert_string_equal(a.model.disk_kind, r.model.disk_kind);
	assert_int_equal(a.model.mglru, r.model.mglru);
	assert_int_equal(a.model.mglru_gens, r.model.mglru_gens);
	assert_string_equal(a.model.probe_mode, r.model.probe_mode);
	a.ui.caption_title[0] = '\0'; /* the talk's pause title is not the header */
	draw_app(&a, got);
	for (int y = 0; y < DRAW_H; y++) {
		assert_string_equal(got[y], want[y]);
		free(got[y]);
		free(want[y]);
	}
	talk_end(t, &a);
	app_stop_runs(&a);
	app_done(&a);
	talk_free(t);
	app_done(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_step),	cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_rehearse),	cmocka_unit_test(test_load),
	    cmocka_unit_test(test_caption_box), cmocka_unit_test(test_fallback_header),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
