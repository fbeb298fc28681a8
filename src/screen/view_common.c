#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sampling/machine.h"
#include "model/glyphs.h"
#include "model/pagecache.h"
#include "model/phase.h"
#include "output/results.h"
#include "runs/strategy.h"
#include "source/source.h"
#include "base/util.h"
#include "screen/views.h"

void views_init(struct views *v)
{
	memset(v, 0, sizeof(*v));
	canvas_init(&v->overview.disk);
	canvas_init(&v->overview.reclaim);
	plot_init(&v->overview.plot);
	canvas_init(&v->runs.canvas);
}

void views_done(struct views *v)
{
	canvas_done(&v->overview.disk);
	canvas_done(&v->overview.reclaim);
	strip_residency_done(&v->overview.res);
	canvas_done(&v->overview.probe);
	plot_done(&v->overview.plot);
	free(v->overview.buf);
	v->overview.buf = NULL;
	canvas_done(&v->runs.canvas);
	plot_runs_done(&v->runs.plot);
}

long view_end(const struct model *m, const struct ui *u)
{
	size_t n = series_len(m->series);
	if (!n)
		return -1;
	size_t back = u->paused ? u->scroll : 0;
	if (back >= n)
		back = n - 1;
	return (long)(n - 1 - back);
}

void view_burst_bands(struct grid *g, const double *burst, int burst_y, int x0, int cw, int xdots,
		      int chart_top, int chart_bottom, const int *skip_rows, int nskip)
{
	for (int cx = 0; cx < cw; cx++) {
		int b = 0;
		for (int k = 0; k < xdots; k++)
			b |= burst[cx * xdots + k] > 0;
		if (!b)
			continue;
		grid_put(g, x0 + cx, burst_y, 0x25bc, ROLE_BURST); /* ▼ */
		for (int yy = chart_top; yy < chart_bottom; yy++) {
			int title = 0;
			for (int k = 0; k < nskip; k++)
				title |= skip_rows[k] == yy;
			struct cell *c = title ? NULL : grid_at(g, x0 + cx, yy);
			if (c && (!c->ch || c->ch == ' ')) {
				c->ch = 0x2502; /* │ */
				c->role = ROLE_BURST;
			}
		}
	}
}

static const char *const view_names[VIEW_COUNT] = {"Overview", "iostat", "vmstat", "Runs"};

/* --follow: how far behind the writer the screen is ("behind 0.3 s", in
 * the unit that suits: a remote clock set wrong shows as it is, a clock
 * ahead as a negative figure), "ended" after the end, "waiting" before
 * the first sample. */
static void follow_state(const struct model *m, char *buf, size_t len)
{
	double s = m->follow.behind_s, a = s < 0 ? -s : s;
	if (m->follow.end)
		snprintf(buf, len, "ended");
	else if (!m->follow.behind_known)
		snprintf(buf, len, "waiting");
	else if (a < 60)
		snprintf(buf, len, "behind %.1f s", s);
	else if (a < 3600)
		snprintf(buf, len, "behind %.0f min", s / 60);
	else if (a < 48 * 3600)
		snprintf(buf, len, "behind %.1f h", s / 3600);
	else
		snprintf(buf, len, "behind %.0f d", s / 86400);
}

static void view_header(const struct model *m, const struct ui *u, struct grid *g)
{
	static const char *const short_names[VIEW_COUNT] = {"Ovw", "io", "vm", "Runs"};
	grid_fill(g, 0, 0, g->w, 1, ' ', ROLE_HEADER);
	int compact = g->w < 120;
	char buf[384], lim[24] = ""; /* --disk-limit: "@30M/s" after the disk */
	char kind[32] = ""; /* a virtual disk: " (virtio)" after its name */
	if (m->disk[0] && m->disk_kind[0])
		snprintf(kind, sizeof(kind), " (%s)", m->disk_kind);
	if (m->log && m->log->disk_limit) {
		fmt_size(lim + 1, sizeof(lim) - 3, m->log->disk_limit);
		lim[0] = '@';
		strcat(lim, "/s");
	}
	int x0 = 0;
	if (m->recording)
		x0 = grid_text(g, 0, 0, -1, ROLE_WARN, " \xe2\x97\x8f REC");
	if (m->replay.on) {
		char speed[16];
		if (m->replay.speed > 0)
			snprintf(speed, sizeof(speed), "%g\xc3\x97", m->replay.speed);
		else
			snprintf(speed, sizeof(speed), "max");
		x0 += grid_text(g, x0, 0, -1, ROLE_WARN, m->replay.fallback ? " REPLAY (fallback)" : " REPLAY");
		const char *state = m->replay.paused ? " paused" : m->replay.at_end ? " end" : "";
		/* the recording's kernel ran MGLRU: its figures mean what it says */
		snprintf(buf, sizeof(buf),
			 compact ? " %s %s%s %s  t = %.1f s / %.1f s %s%s"
				 : " %s  Linux %s%s  %s  t = %.1f s / %.1f s  %s%s",
			 m->host, m->kernel, m->mglru ? " MGLRU" : "", m->replay.date,
			 m->replay.t_s, m->replay.len_s, speed, state);
		/* narrow (80 columns): the recording's date goes before the
		 * glyphs and the replay clock are cut */
		if (compact && x0 + (int)strlen(buf) + 9 > g->w)
			snprintf(buf, sizeof(buf), " %s %s%s  t = %.1f s / %.1f s %s%s", m->host,
				 m->kernel, m->mglru ? " MGLRU" : "", m->replay.t_s,
				 m->replay.len_s, speed, state);
	} else if (m->follow.on) {
		/* whose machine, and how far behind its writer the screen is */
		char state[48];
		follow_state(m, state, sizeof(state));
		x0 += grid_text(g, x0, 0, -1, ROLE_WARN, " FOLLOW");
		snprintf(buf, sizeof(buf),
			 compact ? " %s %s%s  disk %s%s  %s" : " %s  Linux %s%s  disk %s%s%s  %s",
			 m->host, m->kernel, m->mglru ? " MGLRU" : "",
			 m->disk[0] ? m->disk : "none", lim, compact ? "" : kind, state);
	} else if (compact)
		snprintf(buf, sizeof(buf), " lrutop  %s  %s%s  disk %s%s%s  %gs", m->host,
			 m->kernel, m->mglru ? " MGLRU" : "", m->disk[0] ? m->disk : "none", lim,
			 kind, m->interval);
	else
		snprintf(buf, sizeof(buf), " lrutop  %s  Linux %s%s  disk %s%s%s  every %gs",
			 m->host, m->kernel, m->mglru ? " MGLRU" : "",
			 m->disk[0] ? m->disk : "none", lim, kind, m->interval);
	size_t bl = strlen(buf);
	snprintf(buf + bl, sizeof(buf) - bl, "  %s", glyphs_name((int)u->glyphs));
	if (m->probe_mode[0]) { /* --probe: which reads the strip shows */
		bl = strlen(buf);
		snprintf(buf + bl, sizeof(buf) - bl, "  probe %s", m->probe_mode);
	}
	/* view tabs on the right, the current one marked */
	const char *const *names = compact ? short_names : view_names;
	int tabs_w = 0;
	for (int i = 0; i < VIEW_COUNT; i++)
		tabs_w += 5 + (int)strlen(names[i]); /* " 1 name " and a gap */
	/* --demo: "demo 2008: 40M mem, 32M/s disk", else "demo 2008"; the tabs stay */
	if (u->preset[0] && !m->replay.on && !m->follow.on) {
		int room = g->w - tabs_w - x0 - (int)strlen(buf) - 2;
		int pl = (int)strlen(u->preset);
		if (compact || pl > room)
			pl = (int)strcspn(u->preset, ":");
		bl = strlen(buf);
		if (pl <= room)
			snprintf(buf + bl, sizeof(buf) - bl, "  %.*s", pl, u->preset);
	}
	int x = x0 + grid_text(g, x0, 0, -1, ROLE_HEADER, buf);
	int tx = g->w - tabs_w + 1;
	/* which reader the page-cache strip's figures come from, where it
	 * fits before the tabs */
	const char *cache = pagecache_method(series_at(m->series, (size_t)view_end(m, u)));
	if (cache) {
		snprintf(buf, sizeof(buf), compact ? "  %s" : "  cache: %s", cache);
		if (x + (int)strlen(buf) < tx)
			x += grid_text(g, x, 0, -1, ROLE_HEADER, buf);
	}
	if (tx < x + 1)
		return; /* too narrow: the header keeps host and disk */
	for (int i = 0; i < VIEW_COUNT; i++) {
		snprintf(buf, sizeof(buf), " %d %s ", i + 1, names[i]);
		enum role r = (int)u->view == i && !u->help ? ROLE_SELECT : ROLE_HEADER;
		tx += grid_text(g, tx, 0, -1, r, buf) + 1;
	}
}

static void view_status(const struct model *m, const struct ui *u, struct grid *g)
{
	int y = g->h - 1;
	grid_fill(g, 0, y, g->w, 1, ' ', ROLE_DEFAULT);
	int x = 1;
	if (u->paused) {
		const struct sample *end = series_at(m->series, (size_t)view_end(m, u));
		const struct sample *last = series_back(m->series, 0);
		double back = end && last ? (double)(last->t_ns - end->t_ns) / 1e9 : 0;
		char buf[64];
		snprintf(buf, sizeof(buf), "PAUSED  -%.1fs ", back);
		x += grid_text(g, x, y, -1, ROLE_WARN, buf);
		x += grid_text(g, x, y, -1, ROLE_DIM, " \xe2\x86\x90/\xe2\x86\x92 scroll  space resume ");
	}
	if (u->prompt) {
		x += grid_text(g, x, y, -1, ROLE_KEY, "jump to (s or m:ss): ");
		x += grid_text(g, x, y, -1, ROLE_DEFAULT, u->prompt_buf);
		grid_put(g, x, y, 0x2588, ROLE_DIM);
		grid_text(g, x + 2, y, -1, ROLE_DIM, " Enter jumps, Esc cancels");
		return;
	}
	if (u->status[0]) {
		grid_text(g, x + 1, y, -1, ROLE_WARN, u->status);
		return;
	}
	/* --follow: a writer that says nothing, and how the follow ended (its
	 * warning or error stays while the screen stays on the data) */
	if (m->follow.on && (m->follow.end || m->follow.stalled)) {
		char buf[80];
		const char *say = m->follow.note;
		if (!m->follow.end) {
			snprintf(buf, sizeof(buf), "no data for %ld s", m->follow.idle_s);
			say = buf;
		}
		grid_text(g, x + 1, y, -1, m->follow.end == FOLLOW_ENDED ? ROLE_TITLE : ROLE_WARN,
			  say);
		return;
	}
	if (m->missing[0]) {
		x += grid_text(g, x + 1, y, -1, ROLE_DIM, m->missing) + 2;
		return;
	}
	if (u->paused)
		return; /* the pause hints above are the ones that apply */
	struct hint {
		const char *key, *what;
	};
	static const struct hint live[] = {{"1-4", "views"}, {"r", "runs"},  {"space", "pause"},
		     {"+/-", "interval"}, {"R", "record"}, {"h", "help"}, {"q", "quit"}};
	static const struct hint replay[] = {{"1-4", "views"}, {"space", "pause"}, {"< >", "speed"},
		     {"\xe2\x86\x90/\xe2\x86\x92", "seek"}, {"[ ]", "events"}, {"j", "jump"},
		     {"h", "help"}, {"q", "quit"}};
	static const struct hint follow[] = {
	    {"1-4", "views"}, {"space", "pause"}, {"R", "record"}, {"h", "help"}, {"q", "quit"}};
	const struct hint *hints = m->replay.on ? replay : m->follow.on ? follow : live;
	size_t nh = m->replay.on   ? ARRAY_LEN(replay)
		    : m->follow.on ? ARRAY_LEN(follow)
				   : ARRAY_LEN(live);
	for (size_t i = 0; i < nh; i++) {
		x += grid_text(g, x + 1, y, -1, ROLE_KEY, hints[i].key) + 1;
		x += grid_text(g, x + 1, y, -1, ROLE_DIM, hints[i].what) + 2;
	}
}

/* The explanation under the keys of the help overlay. */
static const char *const help_notes[] = {
	"",
	"Disk: read up, write down, MiB/s (iostat -m).",
	"Memory: active(file), inactive(file), anon stacked",
	"up to MemTotal (a run: its cgroup's limit).",
	"Reclaim: pages/s from /proc/vmstat, deactivate on",
	"its own scale; PSI avg10.",
	"\xe2\x96\xbc \xe2\x94\x82: demotion burst, \xe2\x94\x86: run phase change.",
};

#define HELP_KEY_W 9 /* the key column */

/* What this machine changes about the figures (machine.h), after the
 * notes: MGLRU's "active", a virtual disk.  NULL past the end. */
static const char *machine_line(const struct model *m, int i, char *buf, size_t len)
{
	static const char *const mglru[] = {
	    "MGLRU: active(file) is its two youngest generations,",
	    "not a list pages are demoted from; bursts are aging.",
	};
	if (m->mglru) {
		if (i < (int)ARRAY_LEN(mglru))
			return mglru[i];
		i -= (int)ARRAY_LEN(mglru);
	}
	if (m->disk[0] && m->disk_kind[0] && machine_disk_note(m->disk, m->disk_kind, i, buf, len))
		return buf;
	return NULL;
}

/* Line i of the help overlay: the key lines of the current mode first
 * (ui.help_lines, each table under its title), then the notes and what
 * this machine changes.  NULL past the end; *is_key says whether the line
 * starts with a key column. */
static const char *help_line(const struct model *m, const struct ui *u, int i, char *buf,
			     size_t len, int *is_key)
{
	*is_key = 0;
	if (i < u->help_nlines) {
		const struct help_line *h = &u->help_lines[i];
		if (h->title) {
			snprintf(buf, len, "%s:", h->title);
			return buf;
		}
		int pad = HELP_KEY_W; /* in columns: "← →" is 3, not 7 bytes */
		pad -= (int)utf8_chars(h->keys);
		snprintf(buf, len, "%s%*s %s", h->keys, pad > 0 ? pad : 0, "", h->text);
		*is_key = h->keys[0] != '\0';
		return buf;
	}
	i -= u->help_nlines;
	if (i < (int)ARRAY_LEN(help_notes))
		return help_notes[i];
	return machine_line(m, i - (int)ARRAY_LEN(help_notes), buf, len);
}

static void view_help(const struct model *m, const struct ui *u, struct grid *g)
{
	/* Keys first: when the terminal is short the explanation goes. */
	char buf[128];
	int n = 0, bw = 0, is_key;
	for (const char *line; (line = help_line(m, u, n, buf, sizeof(buf), &is_key)) != NULL;
	     n++) {
		int l = (int)utf8_chars(line); /* columns, not bytes */
		bw = l > bw ? l : bw;
	}
	bw += 4;
	if (bw > g->w)
		bw = g->w;
	int rows = n, bh = n + 2;
	if (bh > g->h - 2) {
		bh = g->h - 2;
		rows = bh - 3; /* room for the "more" line */
	}
	int x0 = (g->w - bw) / 2, y0 = (g->h - bh) / 2;
	grid_box(g, x0, y0, bw, bh, "Help");
	for (int i = 0; i < rows; i++) {
		const char *line = help_line(m, u, i, buf, sizeof(buf), &is_key);
		grid_text(g, x0 + 2, y0 + 1 + i, bw - 4, ROLE_DEFAULT, line);
		if (is_key)
			grid_paint(g, x0 + 2, y0 + 1 + i, HELP_KEY_W, 1, ROLE_KEY);
	}
	if (rows < n)
		grid_text(g, x0 + 2, y0 + 1 + rows, bw - 4, ROLE_DIM,
			  "... (a taller terminal shows more)");
}

/* The run line: queue position, phase, bytes, a bar, rate, elapsed, ETA. */
static void view_progress(const struct model *m, struct grid *g, int y)
{
	const struct run_progress *s = &m->runs;
	const struct runlog *log = m->log;
	grid_fill(g, 0, y, g->w, 1, ' ', ROLE_DEFAULT);
	if (s->state == RUNS_NONE)
		return;
	const struct run_result *r = s->current >= 0 ? &log->results[s->current] : NULL;
	char buf[256];
	if (s->state == RUNS_MAKING_INPUT) {
		uint64_t done = s->done;
		char d[16], t[16];
		fmt_size(d, sizeof(d), done);
		fmt_size(t, sizeof(t), s->src_size);
		snprintf(buf, sizeof(buf), "writing the scratch source (random data): %s of %s  ", d, t);
		int x = 1 + grid_text(g, 1, y, -1, ROLE_DIM, buf);
		int bar = g->w >= 120 ? 30 : 12;
		int fill = s->src_size ? (int)((double)done / (double)s->src_size * bar + 0.5) : 0;
		for (int i = 0; i < bar; i++)
			grid_put(g, x + i, y, i < fill ? 0x2588 : 0x2591, i < fill ? ROLE_WRITE : ROLE_DIM);
		return;
	}
	if (s->error[0]) {
		grid_text(g, 1, y, -1, ROLE_WARN, s->error);
		return;
	}
	if (!r) {
		if (s->state == RUNS_FINISHED && !log->nresults) {
			grid_text(g, 1, y, -1, ROLE_DIM, "no runs queued - r picks strategies");
		} else if (s->state == RUNS_FINISHED) {
			snprintf(buf, sizeof(buf), "all %zu run%s done%s - q quits, the results table "
				 "follows on exit", log->nresults, log->nresults == 1 ? "" : "s",
				 s->failed ? " (some FAILED)" : "");
			grid_text(g, 1, y, -1, s->failed ? ROLE_WARN : ROLE_TITLE, buf);
		} else {
			grid_text(g, 1, y, -1, ROLE_DIM, "starting the next run...");
		}
		return;
	}
	uint64_t done = s->done, total = s->total;
	uint64_t now = model_now(m);
	double el = r->t_copy_ns && now > r->t_copy_ns ? (double)(now - r->t_copy_ns) / 1e9 : 0;
	double rate = el > 0 ? (double)done / 1048576.0 / el : 0;
	double pct = total ? 100.0 * (double)done / (double)total : 0;
	char d[16], t[16];
	fmt_size(d, sizeof(d), done);
	fmt_size(t, sizeof(t), total);
	const char *phase = s->state == RUNS_DRAIN ? "draining" : phase_name((enum phase)s->phase);
	int x = 1;
	/* narrower than 120: the counts and spaces go first, so the ETA stays
	 * on the line at 80 columns */
	int narrow = g->w < 120;
	if (narrow)
		snprintf(buf, sizeof(buf), "\xe2\x96\xb6 run %zu/%zu ", s->queue_next, s->queue_len);
	else
		snprintf(buf, sizeof(buf), "\xe2\x96\xb6 run %zu/%zu (%zu done, %zu left) ",
			 s->queue_next, s->queue_len, s->queue_next - 1, s->queue_len - s->queue_next);
	x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf);
	x += grid_text(g, x, y, -1, ROLE_TITLE, r->name);
	if (m->follow.on && !total) { /* a followed run: its bytes are not recorded */
		snprintf(buf, sizeof(buf), narrow ? " %s" : "  %s", phase);
		grid_text(g, x, y, -1, ROLE_DEFAULT, buf);
		return;
	}
	snprintf(buf, sizeof(buf), narrow ? " %s %s/%s %.0f%% " : "  %-7s %s/%s %3.0f%% ", phase, d,
		 t, pct);
	x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf);
	int bar = g->w >= 120 ? 30 : g->w >= 90 ? 16 : 8;
	int fill = (int)(pct / 100.0 * bar + 0.5);
	for (int i = 0; i < bar; i++)
		grid_put(g, x + i, y, i < fill ? 0x2588 : 0x2591, i < fill ? ROLE_READ : ROLE_DIM);
	x += bar + 1;
	if (phase_moves_bytes(s->phase)) {
		double eta = rate > 0 && total > done ? (double)(total - done) / 1048576.0 / rate : 0;
		snprintf(buf, sizeof(buf), narrow ? "%.0fMiB/s %.1fs ETA %.0fs" : " %.0f MiB/s  %.1fs  ETA %.0fs",
			 rate, el, eta);
		x += grid_text(g, x, y, -1, ROLE_DEFAULT, buf);
	}
	if (x + 12 < g->w)
		grid_text(g, g->w - 10, y, -1, ROLE_KEY, "c cancel");
}

static void too_small(struct grid *g)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "terminal too small (need %dx%d)", VIEW_MIN_W, VIEW_MIN_H);
	int l = (int)strlen(buf);
	int x = (g->w - l) / 2;
	grid_text(g, x < 0 ? 0 : x, g->h / 2, -1, ROLE_WARN, buf);
}

void views_draw(struct views *v, const struct model *m, const struct ui *u, struct grid *g)
{
	grid_clear(g);
	if (u->blank)
		return; /* a talk's b: nothing, not even the header */
	if (g->w < VIEW_MIN_W || g->h < VIEW_MIN_H) {
		too_small(g);
		return;
	}
	view_header(m, u, g);
	int y0 = 1, h = g->h - 2;
	if (m->runs.state != RUNS_NONE) {
		h--;
		view_progress(m, g, g->h - 2);
	}
	switch (u->view) {
	case VIEW_OVERVIEW:
		overview_draw(&v->overview, m, u, g, y0, h);
		break;
	case VIEW_IOSTAT:
		iostat_draw(m, u, g, y0, h);
		break;
	case VIEW_VMSTAT:
		vmstat_draw(m, u, g, y0, h);
		break;
	case VIEW_RUNS:
		runs_draw(&v->runs, m, u, g, y0, h);
		break;
	default:
		break;
	}
	if (u->caption[0] && !u->help && !u->picker.open)
		view_caption(u, g, y0, h);
	view_status(m, u, g);
	if (u->picker.open)
		view_picker(m, u, g);
	if (u->help) /* over the picker too: h there lists its keys */
		view_help(m, u, g);
}
