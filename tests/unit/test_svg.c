/*
 * Tests for the SVG exporter (svg.h), with the real renderer:
 *
 *  - every picture passes `xmllint --noout`, `rsvg-convert -w 1920` turns
 *    it into a 1920 px PNG, and ImageMagick finds that PNG is not blank
 *    (standard deviation of its pixels);
 *  - inputs: a series synthesised from real-looking samples (two runs, a
 *    sawtooth of the cgroup's active list with demotion bursts), one
 *    taken by the real sampler over ~2 s while a file is written, and one
 *    of a real copy (rw_cp, then mm_sync_cp, 256 MiB under a 64M memory
 *    cgroup; skipped where no memory cgroup can be made);
 *  - the title names the strategies and the limit, every axis its unit;
 *  - placed labels never overlap, long ones are abbreviated or dropped;
 *  - hostile labels (&, <, quotes, control bytes, invalid UTF-8) come out
 *    escaped and the XML stays well formed;
 *  - numbers use '.' under a locale whose decimal point is ',' (de_DE,
 *    compiled by localedef into the test's directory; skipped without it);
 *  - a write error (/dev/full) and bad requests are reported as sentences.
 * Skipped, with the reason, where xmllint, rsvg-convert or ImageMagick is
 * missing (tools/deps installs them; tools/imagemagick tells a real
 * ImageMagick from a stand-in `convert`).  Whatever fails, the real copy's
 * cgroup and scratch directory go in its teardown: a failed assertion
 * longjmps out of the test, past any clean-up at its end.
 *
 * SVG_EXAMPLE_DIR=dir copies 1 GiB instead, samples every 50 ms and keeps
 * the real copy's pictures there (how examples/overview.svg and
 * examples/runs.svg were made).  SVG_KEEP=1 leaves the test's directory
 * with every SVG and PNG it made, to look at.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/burst.h"
#include "runs/cgroup.h"
#include "model/rates.h"
#include "sampling/sampler.h"
#include "runs/scratch.h"
#include "model/series.h"
#include "runs/session.h"
#include "runs/strategy.h"
#include "output/svg.h"
#include "base/util.h"
#include "runs/worker.h"
#include "testutil.h"

#include <ctype.h>
#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KIB  1024ull
#define MIB  (1024ull * KIB)
#define TICK 250000000ull

static char tmpdir[64];

/* The ImageMagick converter tools/imagemagick found ("" before the first
 * look, "-" when there is none): a `convert` on PATH may be a stand-in. */
static char magick[64];

static int have_tool(const char *name)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
	return system(cmd) == 0;
}

static void need_tools(void)
{
	static const char *tools[] = {"xmllint", "rsvg-convert"};
	for (size_t i = 0; i < ARRAY_LEN(tools); i++)
		if (!have_tool(tools[i])) {
			printf("skipped: %s is not installed (tools/deps installs it)\n", tools[i]);
			skip();
		}
	if (!magick[0]) {
		FILE *p = popen(LRUTOP_SRCDIR "/tools/imagemagick", "r");
		if (!p || !fgets(magick, sizeof magick, p))
			magick[0] = '\0';
		magick[strcspn(magick, "\n")] = '\0';
		if ((p && pclose(p) != 0) || !magick[0])
			snprintf(magick, sizeof magick, "-");
	}
	if (strcmp(magick, "-") == 0) {
		printf("skipped: no ImageMagick (a convert on PATH that does not say ImageMagick "
		       "and convert a PNG is a stand-in; tools/deps installs it)\n");
		skip();
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	assert_non_null(b);
	assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	return b;
}

/* Writes the picture to tmpdir/name.svg; returns the SVG text. */
static char *write_svg(const struct svg_input *in, const struct svg_opts *o, const char *name)
{
	char path[128], err[256];
	snprintf(path, sizeof path, "%s/%s.svg", tmpdir, name);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	if (svg_write(f, in, o, err, sizeof err) < 0)
		fail_msg("svg_write %s: %s", name, err);
	assert_int_equal(fclose(f), 0);
	return slurp(path);
}

/* xmllint, rsvg-convert -w 1920, then the PNG's size and pixel spread. */
static void render_check(const char *name)
{
	char cmd[512], out[128];
	snprintf(cmd, sizeof cmd, "xmllint --noout %s/%s.svg", tmpdir, name);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "rsvg-convert -w 1920 -o %s/%s.png %s/%s.svg", tmpdir, name,
		 tmpdir, name);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof cmd,
		 "%s %s/%s.png -format '%%w %%[fx:standard_deviation]' info:", magick, tmpdir,
		 name);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof out, p));
	assert_int_equal(pclose(p), 0);
	int w = 0;
	double sd = 0;
	assert_int_equal(sscanf(out, "%d %lf", &w, &sd), 2);
	printf("%s: %d px wide, pixel standard deviation %.3f\n", name, w, sd);
	assert_int_equal(w, 1920);
	/* blank white is 0; a rendered chart is well above 0.1 */
	assert_true(sd > 0.1);
}

/* ---- a synthesised session --------------------------------------------- */

struct synth {
	struct series *ser;
	struct run_event ev[32];
	size_t nev;
	struct run_result runs[2];
};

static void event(struct synth *sy, uint64_t t, int run, int phase)
{
	sy->ev[sy->nev].t_ns = t;
	sy->ev[sy->nev].run = (int16_t)run;
	sy->ev[sy->nev].phase = (int8_t)phase;
	sy->nev++;
}

/* Two runs in a 64M cgroup, 0.25 s ticks: rw_cp copies with a small
 * active list; mm_sync_cp's active list climbs and falls back (a demotion
 * burst every ~2.5 s), as measured on kernel 6.18 (burst.h).  One tick
 * has a 20 GiB/s write spike, which the scale must not follow. */
/* 1: the runs' samples carry MGLRU's generations of their memcg (gen0
 * the list's active, gen2 its inactive) */
static int synth_gens;

static void synth_make(struct synth *sy, const char *name0, const char *name1)
{
	memset(sy, 0, sizeof *sy);
	sy->ser = series_new(1024);
	struct sample s;
	memset(&s, 0, sizeof s);
	s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CG;
	s.mem_total = 24ull << 20;
	s.cg_limit = 64 * MIB;
	uint64_t act = 2 * MIB, inact = 2 * MIB;
	const int start[2] = {4, 60}, copy_end[2] = {44, 108}, end[2] = {52, 116};
	const char *names[2] = {name0, name1};
	for (int r = 0; r < 2; r++) {
		struct run_result *x = &sy->runs[r];
		snprintf(x->name, sizeof x->name, "%s", names[r]);
		snprintf(x->strategy, sizeof(x->strategy), "%s", strategy_find(names[r]) ? names[r] : "");
		x->cmd = x->strategy[0] ? -1 : 0;
		x->repeat = 1;
		x->finished = x->ok = 1;
		x->t_start_ns = 1000000000ull + (uint64_t)start[r] * TICK;
		x->t_copy_ns = x->t_start_ns + 2 * TICK;
		x->t_end_ns = 1000000000ull + (uint64_t)end[r] * TICK;
		x->elapsed_s = (double)(copy_end[r] - start[r] - 2) * TICK / 1e9;
		x->mbs = 256.0 / x->elapsed_s;
	}
	for (int i = 0; i <= 124; i++) {
		s.t_ns = 1000000000ull + (uint64_t)i * TICK + (uint64_t)(i % 3) * 1000000ull;
		s.run = -1;
		s.phase = PHASE_IDLE;
		int r = i >= start[1] ? 1 : 0;
		double rd = 0, wr = 0;
		if (i >= start[r] && i < end[r]) {
			s.run = (int16_t)r;
			int ph = i < start[r] + 2      ? PHASE_PREPARE
				 : i < copy_end[r] - 4 ? PHASE_COPY
				 : i < copy_end[r]     ? PHASE_FLUSH
				 : i == copy_end[r]    ? PHASE_DONE
						       : PHASE_VERIFY;
			s.phase = (int8_t)ph;
			if (ph == PHASE_COPY) {
				rd = r ? 160 + 40 * ((i * 7) % 5) : 230 + 10 * (i % 4);
				wr = r ? 140 + 60 * ((i * 3) % 4) : 220 + 15 * (i % 3);
				if (r && act >= 48 * MIB) { /* a demotion burst */
					inact += act - 18 * MIB;
					act = 18 * MIB;
					s.cg_pgdeactivate += 8000;
				} else {
					act += r ? 6 * MIB : (act < 6 * MIB ? MIB : 0);
					inact =
					    inact + 4 * MIB > 44 * MIB ? 44 * MIB : inact + 4 * MIB;
				}
			} else if (ph == PHASE_FLUSH) {
				wr = 300;
			} else if (ph == PHASE_VERIFY) {
				rd = 400;
			}
		}
		if (i == 80) /* one tick whose completions came in a batch */
			wr = 20000;
		if (act + inact > 60 * MIB)
			inact = 60 * MIB - act;
		s.rd_sectors += (uint64_t)(rd * MIB / 512 * 0.25);
		s.wr_sectors += (uint64_t)(wr * MIB / 512 * 0.25);
		s.pgdeactivate += 200 + (uint64_t)(i % 7) * 40 + (s.run == 1 ? 5000 : 0);
		s.pgscan_kswapd += s.run >= 0 ? 60000 + (uint64_t)(i % 5) * 9000 : 100;
		s.cg_active_file = act;
		s.cg_inactive_file = inact;
		s.cg_usage = act + inact + 3 * MIB;
		s.cg_cache = act + inact;
		s.mem_free = (20ull << 20) - (uint64_t)i * 1000;
		s.active_file = (1ull << 20) + act / KIB;
		s.inactive_file = (2ull << 20) + inact / KIB;
		s.have &= ~(uint32_t)(SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG | SAMPLE_HAVE_MGLRU);
		if (synth_gens && s.run >= 0) {
			s.have |= SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG | SAMPLE_HAVE_MGLRU;
			s.gen_n = 4;
			s.gen_file[0] = act / 4096, s.gen_file[2] = inact / 4096;
		}
		s.strategy = 0;
		series_push(sy->ser, &s);
		const struct sample *prev =
		    series_len(sy->ser) > 1 ? series_back(sy->ser, 1) : NULL;
		if (prev && prev->phase != s.phase) {
			if (s.run >= 0)
				event(sy, s.t_ns, s.run, s.phase);
			else
				event(sy, s.t_ns, prev->run, PHASE_IDLE);
		}
	}
	for (int r = 0; r < 2; r++) {
		struct run_figures fig;
		burst_run_figures(sy->ser, sy->runs[r].t_copy_ns, 0,
				  sy->runs[r].t_copy_ns + (uint64_t)(sy->runs[r].elapsed_s * 1e9),
				  &fig);
		sy->runs[r].bursts = fig.bursts;
		sy->runs[r].peak_active_file_kb = fig.peak_active_file_kb;
	}
}

static void synth_input(struct synth *sy, struct svg_input *in)
{
	memset(in, 0, sizeof *in);
	in->ser = sy->ser;
	in->events = sy->ev;
	in->nevents = sy->nev;
	in->runs = sy->runs;
	in->nruns = 2;
	in->host = "testhost";
	in->kernel = "6.18.0";
	in->disk = "vda";
	in->mem_limit = 64 * MIB;
}

static void test_synth_overview(void **state)
{
	(void)state;
	need_tools();
	struct synth sy;
	struct svg_input in;
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	assert_true(sy.runs[1].bursts >= 3 && sy.runs[0].bursts == 0);
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = write_svg(&in, &o, "synth-overview");
	render_check("synth-overview");
	/* the title says what is shown; every axis has its unit */
	assert_non_null(strstr(svg, "rw_cp vs mm_sync_cp under a 64 MiB memory limit"));
	assert_non_null(strstr(svg, "kernel 6.18.0"));
	assert_non_null(strstr(svg, "disk vda"));
	assert_non_null(strstr(svg, ">MiB/s<"));
	assert_non_null(strstr(svg, ">MiB<"));
	assert_non_null(strstr(svg, ">pages/s<"));
	assert_non_null(strstr(svg, ">time (s)<"));
	/* one ▼ per burst: a fill-only path with the burst colour, drawn
	 * by triangle(); the legend adds one */
	int tri = 0;
	for (const char *p = svg; (p = strstr(p, "h")) && (p = strstr(p, "z\" fill=\"#1a1a1a\""));
	     p++)
		tri++;
	assert_int_equal(tri, sy.runs[1].bursts + 1);
	/* the disk scale ignores the one spike (clipped at the top) */
	assert_non_null(strstr(svg, ">400<"));
	assert_null(strstr(svg, ">20k<"));
	assert_null(strstr(svg, ">25k<"));
	/* tick labels: 24 px at 1920 wide */
	assert_non_null(strstr(svg, "font-size=\"24.0\""));
	assert_null(strstr(svg, "font-size=\"23"));
	free(svg);

	/* a range: the second run only; the title names what is in it */
	o.from_ns = sy.runs[1].t_start_ns;
	o.to_ns = sy.runs[1].t_end_ns;
	svg = write_svg(&in, &o, "synth-range");
	assert_non_null(strstr(svg, ">mm_sync_cp under a 64 MiB memory limit<"));
	assert_null(strstr(svg, ">rw_cp"));
	char want[64];
	uint64_t first = 0, last = 0; /* the samples in [from, to] */
	for (size_t i = 0; i < series_len(sy.ser); i++) {
		uint64_t t = series_at(sy.ser, i)->t_ns;
		if (t >= o.from_ns && t <= o.to_ns) {
			first = first ? first : t;
			last = t;
		}
	}
	snprintf(want, sizeof want, ">%.1f s, ", (double)(last - first) / 1e9);
	assert_non_null(strstr(svg, want));
	free(svg);
	o.from_ns = o.to_ns = 0;

	/* no limit given (a recording's header has none): the samples' */
	in.mem_limit = 0;
	svg = write_svg(&in, &o, "synth-nolimit");
	assert_non_null(strstr(svg, "rw_cp vs mm_sync_cp under a 64 MiB memory limit"));
	free(svg);
	in.mem_limit = 64 * MIB;

	/* half the width: text scales with it */
	o.width = 960;
	o.height = 540;
	svg = write_svg(&in, &o, "synth-small");
	assert_non_null(strstr(svg, "font-size=\"12.0\""));
	free(svg);
	series_free(sy.ser);
}

/* MGLRU with its generations: the memory chart stacks them and says so. */
static void test_synth_gens(void **state)
{
	(void)state;
	need_tools();
	struct synth sy;
	struct svg_input in;
	synth_gens = 1;
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_gens = 0;
	synth_input(&sy, &in);
	in.mglru = 1;
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = write_svg(&in, &o, "synth-gens");
	render_check("synth-gens");
	assert_non_null(strstr(svg, "cgroup, MGLRU gens<"));
	assert_non_null(strstr(svg, ">gen0 young<"));
	assert_non_null(strstr(svg, ">gen3 old<"));
	assert_null(strstr(svg, "2 youngest MGLRU generations")); /* the lists' legend */
	free(svg);
	series_free(sy.ser);
	/* without the generations: the lists, labelled for MGLRU */
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	in.mglru = 1;
	svg = write_svg(&in, &o, "synth-mglru-lists");
	assert_null(strstr(svg, "MGLRU gens"));
	assert_non_null(strstr(svg, "2 youngest MGLRU generations"));
	free(svg);
	series_free(sy.ser);
}

static void test_synth_runs(void **state)
{
	(void)state;
	need_tools();
	struct synth sy;
	struct svg_input in;
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	struct svg_opts o = {.view = SVG_RUNS, .run = -1};
	char *svg = write_svg(&in, &o, "synth-runs");
	render_check("synth-runs");
	assert_non_null(strstr(svg, "rw_cp vs mm_sync_cp under a 64 MiB memory limit"));
	assert_non_null(strstr(svg, "MiB/s<"));
	assert_non_null(strstr(svg, " MiB<"));
	assert_non_null(strstr(svg, "time since the copy started (s)"));
	/* one shared rate scale, the same top label on every row, and not
	 * one that follows the spike */
	const char *a = strstr(svg, " MiB/s</text>");
	assert_non_null(a);
	const char *b = a;
	while (*b != '>')
		b--;
	char top[32];
	snprintf(top, sizeof top, "%.*s", (int)(a - b - 1), b + 1);
	printf("rate scale top: %s MiB/s\n", top);
	/* the runs' reads (at most 320 MiB/s), not read + write (up to 640):
	 * a flush's write-back would stand in for the read sawtooth */
	assert_true(atof(top) > 300 && atof(top) <= 400);
	assert_non_null(strstr(a + 1, top));
	assert_non_null(strstr(svg, ">read MiB/s, the run&apos;s own (left axis)<") ||
			strstr(svg, ">read MiB/s, the run's own (left axis)<"));
	assert_null(strstr(svg, "read+write"));
	free(svg);

	/* every label ends in the same --disk-limit suffix: the title says
	 * it once, the rows go without it */
	snprintf(sy.runs[0].name, sizeof sy.runs[0].name, "rw_cp@32M");
	snprintf(sy.runs[1].name, sizeof sy.runs[1].name, "mm_sync_cp@32M");
	svg = write_svg(&in, &o, "synth-runs-limit");
	assert_non_null(
	    strstr(svg, ">rw_cp vs mm_sync_cp under a 64 MiB memory limit, disk at 32M/s<"));
	assert_null(strstr(svg, "@32M"));
	free(svg);
	/* different limits: the labels keep theirs, the title names none */
	snprintf(sy.runs[1].name, sizeof sy.runs[1].name, "mm_sync_cp@64M");
	svg = write_svg(&in, &o, "synth-runs-limits");
	assert_non_null(strstr(svg, ">rw_cp@32M vs mm_sync_cp@64M under a 64 MiB memory limit<"));
	free(svg);
	snprintf(sy.runs[0].name, sizeof sy.runs[0].name, "rw_cp");
	snprintf(sy.runs[1].name, sizeof sy.runs[1].name, "mm_sync_cp");

	/* one run only */
	o.run = 1;
	svg = write_svg(&in, &o, "synth-run1");
	assert_non_null(strstr(svg, ">mm_sync_cp under a 64 MiB"));
	assert_null(strstr(svg, ">rw_cp"));
	free(svg);
	series_free(sy.ser);
}

/* WCAG 2 contrast ratio of two 0xRRGGBB colours. */
static double lum(uint32_t c)
{
	double v[3];
	for (int i = 0; i < 3; i++) {
		double x = (double)((c >> (16 - 8 * i)) & 0xff) / 255.0;
		v[i] = x <= 0.03928 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
}
static double contrast(uint32_t a, uint32_t b)
{
	double la = lum(a), lb = lum(b);
	return (fmax(la, lb) + 0.05) / (fmin(la, lb) + 0.05);
}

static void test_theme_contrast(void **state)
{
	(void)state;
	const struct svg_theme *t = &svg_theme_light;
	/* every colour text is drawn in: titles, figures, phase labels, the
	 * right axis of the Runs view (active) */
	const uint32_t text_colours[] = {t->text, t->dim, t->marker, t->active};
	for (size_t i = 0; i < ARRAY_LEN(text_colours); i++) {
		double r = contrast(text_colours[i], t->bg);
		printf("#%06x on #%06x: %.1f:1\n", (unsigned)text_colours[i], (unsigned)t->bg, r);
		assert_true(r >= 4.5);
	}
	/* the stacked areas stay apart from each other */
	assert_true(contrast(t->active, t->inactive) >= 2.0);
	assert_true(contrast(t->inactive, t->free_) >= 1.5);
}

/* n short runs of three labels, repeated (so "#2" labels), one of them
 * long and not ASCII: crowded run and phase labels, many Runs rows. */
static struct series *synth_many(int n, struct run_event *ev, size_t *nev, struct run_result *runs)
{
	static const char *names[] = {"rw_cp", "mm_sync_cp", "mm_sync_madv_cp_\xe2\x82\xac_copy"};
	struct series *ser = series_new(4096);
	struct sample s;
	memset(&s, 0, sizeof s);
	s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CG;
	s.mem_total = 24ull << 20;
	s.cg_limit = 64 * MIB;
	*nev = 0;
	int t = 0;
	for (int r = 0; r < n; r++) {
		struct run_result *x = &runs[r];
		memset(x, 0, sizeof *x);
		snprintf(x->name, sizeof x->name, "%s", names[r % 3]);
		x->repeat = r / 3 + 1;
		x->finished = x->ok = 1;
		static const int phases[] = {PHASE_PREPARE, PHASE_COPY,	  PHASE_COPY, PHASE_COPY,
					     PHASE_COPY,    PHASE_COPY,	  PHASE_COPY, PHASE_FLUSH,
					     PHASE_DONE,    PHASE_VERIFY, PHASE_IDLE};
		for (size_t k = 0; k < ARRAY_LEN(phases); k++, t++) {
			s.t_ns = 1000000000ull + (uint64_t)t * TICK;
			s.run = phases[k] == PHASE_IDLE ? -1 : (int16_t)r;
			s.phase = (int8_t)phases[k];
			if (k == 0 || phases[k] != phases[k - 1])
				ev[(*nev)++] =
				    (struct run_event){s.t_ns, (int16_t)r, (int8_t)phases[k]};
			if (k == 0)
				x->t_start_ns = s.t_ns;
			if (k == 1)
				x->t_copy_ns = s.t_ns - TICK / 2;
			s.rd_sectors +=
			    phases[k] == PHASE_COPY ? (uint64_t)(100 + 30 * r) * MIB / 512 / 4 : 0;
			s.wr_sectors +=
			    phases[k] == PHASE_COPY ? (uint64_t)(90 + 20 * k) * MIB / 512 / 4 : 0;
			s.cg_active_file =
			    (r % 3 == 1 && phases[k] == PHASE_COPY) ? (10 + 6 * k) * MIB : MIB;
			s.cg_inactive_file = 40 * MIB;
			s.cg_usage = s.cg_active_file + s.cg_inactive_file + MIB;
			s.pgdeactivate += 1000;
			s.pgscan_kswapd += 50000;
			series_push(ser, &s);
		}
		x->t_end_ns = s.t_ns;
		x->elapsed_s = 6.5 * TICK / 1e9;
		x->mbs = 100 + 30 * r;
	}
	return ser;
}

static void test_many_runs(void **state)
{
	(void)state;
	need_tools();
	struct run_event ev[512];
	struct run_result runs[24];
	size_t nev;
	struct series *ser = synth_many(24, ev, &nev, runs);
	struct svg_input in = {.ser = ser,
			       .events = ev,
			       .nevents = nev,
			       .runs = runs,
			       .nruns = 24,
			       .kernel = "6.18.0",
			       .disk = "vda",
			       .mem_limit = 64 * MIB};
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = write_svg(&in, &o, "many-overview");
	render_check("many-overview");
	/* three labels: the title names them, no more than that */
	assert_non_null(
	    strstr(svg, ">rw_cp vs mm_sync_cp vs mm_sync_madv_cp_\xe2\x82\xac_copy under"));
	free(svg);
	o.view = SVG_RUNS;
	svg = write_svg(&in, &o, "many-runs");
	render_check("many-runs");
	/* 24 rows do not fit at 70 px each: the latest, and a note */
	assert_non_null(strstr(svg, "earlier runs not shown"));
	assert_non_null(strstr(svg, ">rw_cp #8<"));
	assert_null(strstr(svg, ">rw_cp #1<"));
	/* a long label is shortened before its run number, never after */
	assert_non_null(strstr(svg, ">mm_sync_madv_c\xe2\x80\xa6 #8<"));
	free(svg);
	series_free(ser);
}

/* A long recording: 100 000 samples (7 hours at 0.25 s) must give a
 * picture a renderer takes (libxml2 refuses an attribute over 10 MB; all
 * points drawn made one 5 MB path and a 25 MB file from 200 000). */
static void test_long_recording(void **state)
{
	(void)state;
	need_tools();
	struct series *ser = series_new(100000);
	struct sample s;
	memset(&s, 0, sizeof s);
	s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CG;
	s.cg_limit = 64 * MIB;
	s.mem_total = 24ull << 20;
	for (int i = 0; i < 100000; i++) {
		s.t_ns = 1000000000ull + (uint64_t)i * TICK;
		s.run = -1;
		s.rd_sectors += (uint64_t)(i % 17) * 1000;
		s.wr_sectors += (uint64_t)(i % 13) * 1000;
		s.cg_active_file = (uint64_t)(i % 50) * MIB;
		s.cg_inactive_file = 10 * MIB;
		s.cg_usage = s.cg_active_file + s.cg_inactive_file;
		s.pgdeactivate += (uint64_t)(i % 7) * 100;
		s.pgscan_kswapd += 1000;
		series_push(ser, &s);
	}
	struct svg_input in = {.ser = ser, .disk = "vda"};
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = write_svg(&in, &o, "long");
	printf("100000 samples: %zu bytes of SVG\n", strlen(svg));
	assert_true(strlen(svg) < 2000000);
	render_check("long");
	free(svg);
	series_free(ser);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* A dense signal with holes: 100 000 samples, 0.25 s apart, whose read
 * rate goes 400, 0, 100 MiB/s and then has none (4 samples repeated as
 * they are: the counters start over), a short recording repeated; drawn
 * a px a column (a
 * reduced series, svg_input.reduced) and at half px (not reduced).  A
 * NAN among the values of one column is no gap: each series is one
 * <path> of one stretch, reaching the signal's top (the scale's, 400:
 * the frame's top), at most a megabyte.  Before, each run of points
 * between two NANs was a path: 100,004 of them, 14 MB. */
static void test_dense_holes(void **state)
{
	(void)state;
	need_tools();
	struct series *ser = series_new(100000);
	struct sample s;
	memset(&s, 0, sizeof s);
	s.mem_total = 4ull << 20;
	s.run = -1;
	/* the counters of the 4 samples: MiB read and written at 0.25 s */
	static const double mib_rd[4] = {0, 100, 100, 125}, mib_wr[4] = {0, 10, 60, 60};
	s.have = SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_DISK;
	for (int i = 0; i < 100000; i++) {
		s.t_ns = 1000000000ull + (uint64_t)i * TICK;
		s.rd_sectors = (uint64_t)(mib_rd[i % 4] * MIB / 512);
		s.wr_sectors = (uint64_t)(mib_wr[i % 4] * MIB / 512);
		s.active_file = (1ull << 20) + (uint64_t)(i % 4) * (256ull << 10);
		s.inactive_file = 1ull << 20;
		s.mem_free = (4ull << 20) - s.active_file - s.inactive_file;
		s.pgdeactivate = (uint64_t)(i % 4) * 500;
		s.pgscan_kswapd = (uint64_t)(i % 4) * 2000;
		series_push(ser, &s);
	}
	struct svg_input in = {.ser = ser, .disk = "vda"};
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	for (int reduced = 1; reduced >= 0; reduced--) {
		in.reduced = reduced;
		const char *name = reduced ? "dense-reduced" : "dense";
		char *svg = write_svg(&in, &o, name);
		size_t paths = count(svg, "<path");
		printf("%s: %zu bytes, %zu paths\n", name, strlen(svg), paths);
		assert_true(strlen(svg) <= 1000000);
		/* read, write, deactivate, scan, three memory bands, the legend's ▼ */
		assert_true(paths <= 10);
		const char *rd = strstr(svg, "<path fill=\"none\" stroke=\"#0072b2\"");
		assert_non_null(rd);
		const char *d = strstr(rd, " d=\""), *end = strchr(d + 4, '"');
		size_t moves = 0;
		for (const char *p = d; p < end; p++)
			moves += *p == 'M';
		assert_int_equal(moves, 1);
		/* the top tick (400) is the frame's top: the line reaches it */
		const char *top = strstr(svg, ">400</text>");
		assert_non_null(top);
		while (top > svg && strncmp(top, "<line", 5) != 0)
			top--;
		double y_top = -1, y_min = 1e9;
		assert_int_equal(sscanf(top, "<line x1=\"%*[0-9.]\" y1=\"%lf\"", &y_top), 1);
		for (const char *p = d + 4; p < end; p++)
			if (*p == 'V' || *p == 'L' || *p == 'M') {
				double x, y;
				int n = *p == 'V' ? sscanf(p + 1, "%lf", &y)
						  : sscanf(p + 1, "%lf %lf", &x, &y) - 1;
				if (n == 1 && y < y_min)
					y_min = y;
			}
		assert_true(fabs(y_min - y_top) <= 0.05);
		free(svg);
		render_check(name);
	}
	series_free(ser);
}

/* ---- labels -------------------------------------------------------------- */

static void assert_no_overlap(const struct svg_label *l, size_t n, double lo, double hi, double fs)
{
	for (size_t i = 0; i < n; i++) {
		if (!l[i].shown)
			continue;
		const char *t = l[i].shown == 1 ? l[i].text : l[i].abbrev;
		assert_true(l[i].left >= lo && l[i].right <= hi);
		assert_true(fabs(l[i].right - l[i].left - svg_text_width(t, fs)) < 1e-9);
		for (size_t j = 0; j < i; j++)
			if (l[j].shown)
				assert_true(l[i].left >= l[j].right || l[i].right <= l[j].left);
	}
}

static void test_labels(void **state)
{
	(void)state;
	double fs = 24;
	/* 40 run starts 30 px apart on a 1000 px axis: most cannot fit */
	struct svg_label l[40];
	memset(l, 0, sizeof l);
	for (int i = 0; i < 40; i++) {
		l[i].x = 100 + 30.0 * i;
		l[i].text = i % 2 ? "mm_sync_madv_cp #2" : "rw_cp #1";
		l[i].abbrev = i % 2 ? "mm_sync\xe2\x80\xa6" : "rw_cp";
	}
	int shown = svg_place_labels(l, 40, 100, 1100, fs);
	assert_no_overlap(l, 40, 100, 1100, fs);
	assert_true(shown >= 5 && shown < 40);
	assert_int_equal(l[0].shown, 1); /* the first always wins */
	assert_true(fabs(l[0].left - 100) < 1e-9);
	/* "mm_sync_madv_cp #2" does not fit beside rw_cp #1, "mm_sync…" could not
	 * either: a dropped or abbreviated label, never an overlapping one */
	int abbrev = 0;
	for (int i = 0; i < 40; i++)
		abbrev += l[i].shown == 2;

	/* two labels just far enough apart for the short form only */
	struct svg_label two[2] = {
	    {.x = 0, .text = "copy"},
	    {.x = svg_text_width("copy", fs) + 0.6 * fs + 1,
	     .text = "verify verify verify",
	     .abbrev = "vfy"},
	};
	assert_int_equal(svg_place_labels(two, 2, 0, 200, fs), 2);
	assert_int_equal(two[1].shown, 2);
	assert_no_overlap(two, 2, 0, 200, fs);
	(void)abbrev;

	/* a label at the right edge ends there instead of sticking out */
	struct svg_label edge = {.x = 990, .text = "flush"};
	assert_int_equal(svg_place_labels(&edge, 1, 0, 1000, fs), 1);
	assert_true(edge.right <= 1000 && edge.left < 990);

	/* the synthesised session at slide size: its phase labels crowd
	 * (done, verify, end within 2 s); the SVG holds only placed ones */
	struct synth sy;
	struct svg_input in;
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1, .width = 640, .height = 480};
	char *svg = write_svg(&in, &o, "synth-tiny");
	int mono = 0;
	for (const char *p = svg; (p = strstr(p, "font-family=\"DejaVu Sans Mono")); p++)
		mono++;
	assert_true(mono >= 2 && mono <= (int)sy.nev);
	free(svg);
	series_free(sy.ser);
}

/* ---- hostile labels, errors -------------------------------------------- */

static void test_escaping(void **state)
{
	(void)state;
	need_tools();
	struct synth sy;
	struct svg_input in;
	synth_make(&sy, "a&b <\"x\"> 'q'", "cp -a");
	synth_input(&sy, &in);
	in.host = "<host>&\x01\xff";
	for (int v = 0; v < 2; v++) {
		struct svg_opts o = {.view = v ? SVG_RUNS : SVG_OVERVIEW, .run = -1};
		char *svg = write_svg(&in, &o, v ? "hostile-runs" : "hostile");
		render_check(v ? "hostile-runs" : "hostile");
		assert_non_null(strstr(svg, "a&amp;b &lt;&quot;x&quot;&gt; &apos;q&apos;"));
		assert_non_null(strstr(svg, "cp -a"));
		assert_non_null(strstr(svg, "host &lt;host&gt;&amp;??"));
		assert_null(strstr(svg, "a&b"));
		assert_null(strstr(svg, "<host>"));
		free(svg);
	}
	series_free(sy.ser);
}

static void test_errors(void **state)
{
	(void)state;
	struct synth sy;
	struct svg_input in;
	char err[256];
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};

	FILE *f = fopen("/dev/full", "w");
	assert_non_null(f);
	err[0] = '\0';
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	printf("/dev/full: %s\n", err);
	assert_non_null(strstr(err, "write error: No space left on device"));
	fclose(f);

	f = fopen("/dev/null", "w");
	assert_non_null(f);
	o.width = 100;
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	assert_non_null(strstr(err, "picture size 100x1080: out of range"));
	o.width = 0;
	/* a range with no samples */
	o.from_ns = 500ull * 1000000000ull;
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	assert_non_null(strstr(err, "nothing to draw"));
	o.from_ns = 0;
	/* the Runs view of a run that has not finished */
	sy.runs[1].finished = 0;
	o.view = SVG_RUNS;
	o.run = 1;
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	assert_string_equal(err, "run 2 has no finished copy to draw");
	o.run = -1;
	sy.runs[0].finished = 0;
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	assert_string_equal(err, "no finished run to draw");
	/* an empty series */
	struct series *empty = series_new(64);
	in.ser = empty;
	o.view = SVG_OVERVIEW;
	assert_int_equal(svg_write(f, &in, &o, err, sizeof err), -1);
	assert_non_null(strstr(err, "nothing to draw"));
	fclose(f);
	series_free(empty);
	series_free(sy.ser);
}

static void test_locale(void **state)
{
	(void)state;
	char cmd[256], buf[16];
	snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 %s/de_DE.UTF-8 >/dev/null 2>&1",
		 tmpdir);
	if (!have_tool("localedef") || system(cmd) != 0) {
		printf("skipped: localedef cannot compile de_DE.UTF-8 here\n");
		skip();
	}
	setenv("LOCPATH", tmpdir, 1);
	if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
		unsetenv("LOCPATH");
		printf("skipped: the compiled de_DE.UTF-8 does not load\n");
		skip();
	}
	snprintf(buf, sizeof buf, "%.1f", 1.5);
	assert_string_equal(buf, "1,5"); /* the locale is in effect */
	struct synth sy;
	struct svg_input in;
	synth_make(&sy, "rw_cp", "mm_sync_cp");
	synth_input(&sy, &in);
	for (int v = 0; v < 2; v++) {
		struct svg_opts o = {.view = v ? SVG_RUNS : SVG_OVERVIEW, .run = -1};
		char *svg = write_svg(&in, &o, "locale");
		for (const char *p = svg; *p; p++)
			if (*p == ',' && p > svg && isdigit((unsigned char)p[-1]) &&
			    isdigit((unsigned char)p[1]))
				fail_msg("a decimal comma: %.40s", p - 10 > svg ? p - 10 : svg);
		assert_non_null(strstr(svg, "font-size=\"24.0\""));
		free(svg);
	}
	snprintf(buf, sizeof buf, "%.1f", 1.5);
	assert_string_equal(buf, "1,5"); /* ... and still is: svg_write restored it */
	setlocale(LC_NUMERIC, "C");
	unsetenv("LOCPATH");
	series_free(sy.ser);
}

/* ---- real samples ---------------------------------------------------------- */

/* The first whole disk /proc/diskstats lists, or "". */
static void first_disk(char *buf, size_t len)
{
	char err[256];
	struct disktab tab;
	struct sample smp;
	buf[0] = '\0';
	struct sampler *sm = sampler_new(NULL, err, sizeof err);
	assert_non_null(sm);
	sampler_read(sm, &smp);
	if (sampler_read_disks(sm, &tab) == 0)
		for (int i = 0; i < tab.n && !buf[0]; i++)
			if (tab.dev[i].is_disk && strncmp(tab.dev[i].name, "loop", 4) &&
			    strncmp(tab.dev[i].name, "ram", 3))
				snprintf(buf, len, "%s", tab.dev[i].name);
	sampler_free(sm);
}

static void test_real_sampler(void **state)
{
	(void)state;
	need_tools();
	char disk[32], err[256], path[128];
	first_disk(disk, sizeof disk);
	struct sampler *sm = sampler_new(disk, err, sizeof err);
	assert_non_null(sm);
	struct series *ser = series_new(256);
	struct sample smp;
	snprintf(path, sizeof path, "%s/traffic", tmpdir);
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	char *block = calloc(1, 1 << 20);
	assert_non_null(block);
	/* 20 samples on 0.1 s deadlines; 4 MiB written and synced between */
	uint64_t next = mono_ns();
	for (int i = 0; i < 20; i++) {
		while (mono_ns() < next)
			poll(NULL, 0, (int)((next - mono_ns()) / 1000000u) + 1);
		sampler_read(sm, &smp);
		series_push(ser, &smp);
		next += 100000000ull;
		for (int k = 0; k < 4; k++)
			assert_int_equal(write(fd, block, 1 << 20), 1 << 20);
		fdatasync(fd);
	}
	close(fd);
	unlink(path);
	free(block);
	sampler_free(sm);
	struct svg_input in = {.ser = ser, .disk = disk, .kernel = "test"};
	struct svg_opts o = {.view = SVG_OVERVIEW, .run = -1};
	char *svg = write_svg(&in, &o, "real-sampler");
	render_check("real-sampler");
	assert_non_null(strstr(svg, "Disk and memory, no memory limit"));
	assert_non_null(strstr(svg, "Memory, whole system"));
	/* no label with more digits than a slide can take (">23.5401<") */
	for (const char *p = strchr(svg, '>'); p; p = strchr(p + 1, '>')) {
		const char *q = p + 1;
		while (isdigit((unsigned char)*q))
			q++;
		if (q == p + 1 || *q != '.')
			continue;
		const char *d = ++q;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == '<' && q - d > 2)
			fail_msg("a long number: %.20s", p);
	}
	free(svg);
	series_free(ser);
}

/* Runs strategy `name` on src -> dst in cg while sampling every 0.1 s,
 * with run/phase annotations and events as the session makes them. */
static void real_run(const char *name, int ri, const char *src, const char *dst, struct cgroup *cg,
		     struct sampler *sm, struct series *ser, struct run_event *ev, size_t *nev,
		     struct run_result *res)
{
	struct worker w;
	struct worker_spec spec;
	struct worker_event e;
	struct worker_result wr;
	struct sample smp;
	char err[512];
	int phase = PHASE_PREPARE, r, done = 0;
	memset(&spec, 0, sizeof spec);
	memset(res, 0, sizeof *res);
	spec.strategy = strategy_find(name);
	spec.src = src;
	spec.dst = dst;
	spec.cgroup_procs = cg->procs;
	spec.drop_caches = 1;
	snprintf(res->name, sizeof res->name, "%s", name);
	snprintf(res->strategy, sizeof(res->strategy), "%s", spec.strategy->name);
	res->cmd = -1;
	res->repeat = 1;
	res->t_start_ns = mono_ns();
	ev[*nev] = (struct run_event){res->t_start_ns, (int16_t)ri, PHASE_PREPARE};
	(*nev)++;
	if (worker_start(&spec, &w, err, sizeof err) < 0)
		fail_msg("worker_start: %s", err);
	worker_go(&w);
	uint64_t next = mono_ns();
	while (!done) {
		uint64_t now = mono_ns();
		if (now >= next) {
			sampler_read(sm, &smp);
			smp.run = (int16_t)ri;
			smp.phase = (int8_t)phase;
			series_push(ser, &smp);
			next += getenv("SVG_EXAMPLE_DIR") ? 50000000ull : 100000000ull;
			continue;
		}
		struct pollfd p = {w.event_fd, POLLIN, 0};
		poll(&p, 1, (int)((next - now) / 1000000u) + 1);
		while ((r = worker_read_event(&w, &e)) == 1) {
			phase = e.phase;
			if (e.phase == PHASE_COPY)
				res->t_copy_ns = e.t_ns;
			if (*nev < 64)
				ev[(*nev)++] =
				    (struct run_event){e.t_ns, (int16_t)ri, (int8_t)e.phase};
		}
		done = r < 0;
	}
	assert_int_equal(worker_reap(&w, 1, &wr), 1);
	if (!wr.ok)
		fail_msg("%s: %s", name, wr.message);
	sampler_read(sm, &smp);
	smp.run = -1;
	smp.phase = PHASE_IDLE;
	series_push(ser, &smp);
	res->t_end_ns = smp.t_ns;
	ev[(*nev)++] = (struct run_event){smp.t_ns, (int16_t)ri, PHASE_IDLE};
	res->finished = res->ok = 1;
	res->elapsed_s = wr.elapsed_s;
	res->mbs = (double)wr.bytes_done / 1048576.0 / wr.elapsed_s;
	struct run_figures fig;
	burst_run_figures(ser, res->t_copy_ns, 0, wr.t_done_ns, &fig);
	res->bursts = fig.bursts;
	res->peak_active_file_kb = fig.peak_active_file_kb;
	worker_done(&w);
	unlink(dst);
}

/* What test_real_copy makes, so its teardown can undo it however the test
 * ended. */
struct copy_fix {
	struct cgroup cg;
	struct scratch s;
	char dst[4096];
	struct sampler *sm;
	struct series *ser;
};

static int copy_setup(void **state)
{
	struct copy_fix *f = calloc(1, sizeof *f);
	if (!f)
		return -1;
	f->s.dir_fd = -1;
	*state = f;
	return 0;
}

/* Kills and removes the cgroup (cgroup_remove: a no-op when none was
 * made), then the copy's file (the worker makes it, so it is not the
 * scratch directory's to take) and the directory. */
static int copy_teardown(void **state)
{
	struct copy_fix *f = *state;
	char err[512];
	int rc = 0;
	sampler_free(f->sm);
	series_free(f->ser);
	if (cgroup_remove(&f->cg, err, sizeof err) < 0) {
		printf("teardown: cgroup_remove: %s\n", err);
		rc = -1;
	}
	if (f->dst[0])
		unlink(f->dst);
	scratch_remove(&f->s);
	free(f);
	return rc;
}

static void test_real_copy(void **state)
{
	struct copy_fix *fx = *state;
	need_tools();
	struct cgroup *cg = &fx->cg;
	struct scratch *s = &fx->s;
	char err[512], disk[32];
	if (cgroup_available(err, sizeof err) < 0) {
		printf("skipped: %s\n", err);
		skip();
	}
	if (scratch_open(s, "/var/tmp", err, sizeof err) < 0 ||
	    scratch_make_input(s, getenv("SVG_EXAMPLE_DIR") ? 1024 * MIB : 256 * MIB, NULL, NULL,
				err, sizeof err) < 0)
		fail_msg("scratch: %s", err);
	assert_int_equal(scratch_path(s, "dst", fx->dst, sizeof fx->dst), 0);
	if (cgroup_create(cg, 64 * MIB, "svg", err, sizeof err) < 0)
		fail_msg("cgroup_create: %s", err);
	first_disk(disk, sizeof disk);
	struct sampler *sm = fx->sm = sampler_new(disk, err, sizeof err);
	assert_non_null(sm);
	assert_int_equal(sampler_set_cgroup(sm, cg->stat, cg->usage, cg->limit, err, sizeof err),
			 0);
	struct series *ser = fx->ser = series_new(8192);
	struct run_event ev[64];
	struct run_result runs[2];
	size_t nev = 0;
	real_run("rw_cp", 0, s->src, fx->dst, cg, sm, ser, ev, &nev, &runs[0]);
	real_run("mm_sync_cp", 1, s->src, fx->dst, cg, sm, ser, ev, &nev, &runs[1]);
	printf("rw_cp %.2f s %d bursts, mm_sync_cp %.2f s %d bursts, %zu samples\n",
	       runs[0].elapsed_s, runs[0].bursts, runs[1].elapsed_s, runs[1].bursts,
	       series_len(ser));

	char kernel[128] = "";
	FILE *f = fopen("/proc/sys/kernel/osrelease", "r");
	if (f) {
		if (fgets(kernel, sizeof kernel, f))
			kernel[strcspn(kernel, "\n")] = '\0';
		fclose(f);
	}
	struct svg_input in = {.ser = ser,
			       .events = ev,
			       .nevents = nev,
			       .runs = runs,
			       .nruns = 2,
			       .kernel = kernel,
			       .disk = disk,
			       .mem_limit = 64 * MIB};
	for (int v = 0; v < 2; v++) {
		const char *name = v ? "runs" : "overview";
		struct svg_opts o = {.view = v ? SVG_RUNS : SVG_OVERVIEW, .run = -1};
		char *svg = write_svg(&in, &o, name);
		render_check(name);
		assert_non_null(strstr(svg, "rw_cp vs mm_sync_cp under a 64 MiB memory limit"));
		free(svg);
		const char *keep = getenv("SVG_EXAMPLE_DIR");
		if (keep) {
			char cmd[512];
			snprintf(cmd, sizeof cmd, "cp %s/%s.svg %s/%s.png %s/", tmpdir, name,
				 tmpdir, name, keep);
			assert_int_equal(system(cmd), 0);
		}
	}
	/* the removal itself is asserted here; the teardown only catches
	 * what a failure left */
	sampler_free(sm);
	fx->sm = NULL;
	assert_int_equal(cgroup_remove(cg, err, sizeof err), 0);
}

static int setup(void **state)
{
	(void)state;
	return tu_tmpdir(tmpdir, sizeof tmpdir, "svg");
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("SVG_KEEP")) {
		printf("SVG_KEEP: the pictures are in %s\n", tmpdir);
		return 0;
	}
	return tu_rmtree(tmpdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_synth_overview),
	    cmocka_unit_test(test_synth_runs),
	    cmocka_unit_test(test_many_runs),
	    cmocka_unit_test(test_long_recording),
	    cmocka_unit_test(test_dense_holes),
	    cmocka_unit_test(test_theme_contrast),
	    cmocka_unit_test(test_labels),
	    cmocka_unit_test(test_escaping),
	    cmocka_unit_test(test_errors),
	    cmocka_unit_test(test_locale),
	    cmocka_unit_test(test_real_sampler),
	    cmocka_unit_test_setup_teardown(test_real_copy, copy_setup, copy_teardown),
	    cmocka_unit_test(test_synth_gens),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
