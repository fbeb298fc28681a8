#include "app/app.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "app/argv_config.h"
#include "runs/cgroup.h"
#include "sampling/device.h"
#include "sampling/machine.h"
#include "output/output.h"
#include "runs/probe.h"
#include "recording/record.h"
#include "source/record_sink.h"
#include "output/results.h"
#include "sampling/sampler.h"
#include "source/source.h"
#include "model/stats.h"
#include "base/util.h"
#include "base/version.h"

/* ---- the sink: what the source yields goes into the model and the files -- */

/* An output file failed: say so once and end the loop. */
static void output_failed(struct app *a, const char *msg)
{
	if (!a->out_err[0])
		strlcpy_(a->out_err, msg, sizeof(a->out_err));
	a->quit = 1;
}

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct app *a = ctx;
	struct model *m = &a->model;
	const struct sample *prev = series_back(m->series, 0);
	if (!prev)
		a->t0_ns = s->t_ns;
	if (a->csv.f && !a->csv.failed) {
		char e[400];
		csv_row(a->csv.f, prev, s, a->t0_ns,
			s->run >= 0 ? a->log->results[s->run].name : NULL);
		if (outfile_flush(&a->csv, e, sizeof(e)) < 0)
			output_failed(a, e);
	}
	series_push(m->series, s);
	/* a map goes with its sample: one comes after it or none (a replay
	 * between runs), never the previous tick's */
	m->map.src.n = m->map.dst.n = 0;
	if (a->ui.paused && a->ui.scroll + 1 < series_len(m->series))
		a->ui.scroll++; /* a paused view stays on the same samples */
	if (t) {
		int next = m->disks_cur < 0 ? 0 : !m->disks_cur;
		m->disks[next] = *t;
		m->disks_cur = next;
		m->disks_n++;
	}
}

static void on_map(void *ctx, const struct residency_map *map)
{
	struct app *a = ctx;
	a->model.map = *map;
}

static void on_result(void *ctx, const struct run_result *r)
{
	struct app *a = ctx;
	if (a->results.f && !a->results.failed) {
		char e[400];
		results_csv_row(a->results.f, r);
		if (outfile_flush(&a->results, e, sizeof(e)) < 0)
			output_failed(a, e);
	}
	char buf[400];
	results_summary(buf, sizeof(buf), r);
	app_status(a, buf);
}

static void on_note(void *ctx, const char *msg)
{
	app_status(ctx, msg);
}

/* The first read of a long recording before the TUI's first frame: a
 * line on the terminal that says how far it is, gone when it ends. */
static void on_loading(void *ctx, double done, size_t samples)
{
	struct app *a = ctx;
	if (!a->opening) /* replay_init takes the line away */
		return;
	a->opening = 2;
	fprintf(stderr, "\rlrutop: reading %s: %2.0f %% (%zu samples)\033[K", a->opt->replay,
		done * 100, samples);
	fflush(stderr);
}

/* A replay seeks backwards: the model starts over (the run log the source
 * has emptied already). */
static void on_reset(void *ctx)
{
	struct app *a = ctx;
	struct model *m = &a->model;
	size_t cap = series_capacity(m->series);
	series_free(m->series);
	m->series = series_new(cap);
	m->disks_cur = -1;
	m->disks_n = 0;
	m->map.src.n = m->map.dst.n = 0;
	a->t0_ns = 0;
	a->stats_key = (size_t)-1;
	m->jumps++;
}

/* --record - whose reader went away (EPIPE): the session ends as a closed
 * stdout ends it, without a word, and main exits 141 (128 + SIGPIPE). */
static int record_reader_gone(const struct app *a)
{
	return a->rec.error && a->rec.err_no == EPIPE && record_path_stdout(a->rec.path);
}

static void on_record_failed(void *ctx, const char *msg)
{
	struct app *a = ctx;
	if (!record_reader_gone(a)) {
		output_failed(a, msg);
		return;
	}
	if (!a->stdout_errno)
		a->stdout_errno = EPIPE;
	a->quit = 1;
}

/* The model's snapshot of the runs and their statistics, after anything
 * that moves them (the statistics only when a run started or ended). */
static void refresh_runs(struct app *a)
{
	struct model *m = &a->model;
	source_progress(a->src, &m->runs);
	m->recording = record_sink_active(&a->rec) && !a->rec.error;
	if (m->follow.on) {
		struct follow_pos f;
		source_follow_pos(a->src, &f);
		m->follow.behind_s = f.behind_s;
		m->follow.behind_known = f.behind_known;
		m->follow.idle_s = f.idle_s;
		m->follow.stalled = f.stalled;
		m->follow.end = (int)f.end;
		strlcpy_(m->follow.note, f.note ? f.note : "", sizeof(m->follow.note));
	}
	if (m->replay.on) {
		struct replay_pos p;
		source_replay_pos(a->src, &p);
		m->replay.t_s = p.t_s;
		m->replay.len_s = p.len_s;
		m->replay.speed = p.speed;
		m->replay.paused = p.paused;
		m->replay.at_end = p.at_end;
	}
	const struct runlog *l = a->log;
	size_t key = l->nresults * 2 + (l->nresults && l->results[l->nresults - 1].finished);
	if (key != a->stats_key) {
		a->stats_key = key;
		m->nstats = stats_compute(l->results, l->nresults, l->baseline, m->stats,
					  MODEL_MAX_STRATEGIES);
	}
}

void app_refresh(struct app *a)
{
	refresh_runs(a);
}

/* The machine's part of the model, which a talk saves before its stages
 * and puts back after (struct app_machine): each member once, at its
 * offset in both, the same size in both. */
#define MACHINE_MEMBERS(X)                                                                         \
	X(host) X(kernel) X(disk) X(disk_how) X(disk_kind) X(missing) X(mglru) X(mglru_gens)       \
	X(probe_mode) X(map_source) X(map_page_size)
#define MACHINE_ROW(x)                                                                             \
	{offsetof(struct model, x), offsetof(struct app_machine, x), sizeof(((struct model *)0)->x)},
#define MACHINE_SAME(x)                                                                            \
	_Static_assert(sizeof(((struct model *)0)->x) == sizeof(((struct app_machine *)0)->x),   \
		       #x " is the same size in both");
MACHINE_MEMBERS(MACHINE_SAME)
static const struct {
	size_t in_model, in_saved, size;
} machine_members[] = {MACHINE_MEMBERS(MACHINE_ROW)};

void app_machine_save(const struct app *a, struct app_machine *mc)
{
	for (size_t i = 0; i < ARRAY_LEN(machine_members); i++)
		memcpy((char *)mc + machine_members[i].in_saved,
		       (const char *)&a->model + machine_members[i].in_model, machine_members[i].size);
}

static void machine_restore(struct model *m, const struct app_machine *mc)
{
	for (size_t i = 0; i < ARRAY_LEN(machine_members); i++)
		memcpy((char *)m + machine_members[i].in_model,
		       (const char *)mc + machine_members[i].in_saved, machine_members[i].size);
}

/* A recording's header and its runs' configuration into the model: what
 * --replay and a talk's replay and fallback stages show alike. */
static void header_to_model(struct model *m, const struct record_header *h,
			    const struct record_config *c)
{
	strlcpy_(m->host, h->host, sizeof(m->host));
	strlcpy_(m->kernel, h->kernel, sizeof(m->kernel));
	strlcpy_(m->disk, h->device, sizeof(m->disk));
	strlcpy_(m->disk_how, h->device_how, sizeof(m->disk_how));
	strlcpy_(m->disk_kind, h->device_kind, sizeof(m->disk_kind));
	m->mglru = h->mglru;
	/* minor 2 records the generations; the notes say when they were not read */
	m->mglru_gens = h->mglru && h->minor >= 2 && !strstr(h->notes, "lru_gen");
	strlcpy_(m->missing, h->notes, sizeof(m->missing));
	strlcpy_(m->probe_mode, c->probe, sizeof(m->probe_mode));
	m->map_source = h->minor >= 3; /* minor 3 writes pcmap lines */
	m->map_page_size = h->page_size > 0 ? h->page_size : 4096;
	/* "2026-12-01T09:10:42.123Z" -> "2026-12-01 09:10" */
	snprintf(m->replay.date, sizeof(m->replay.date), "%.10s %.5s", h->start_wall,
		 strlen(h->start_wall) > 11 ? h->start_wall + 11 : "");
}

void app_switch_source(struct app *a, const struct app_source *s)
{
	struct model *m = &a->model;
	if (a->src) { /* a talk's next stage: the old one ends */
		if (record_sink_active(&a->rec))
			app_record_toggle(a); /* R's recording: of one stage, it ends here */
		if (source_pending(a->src))
			source_stop(a->src, "stopped: the talk went on to its next run");
		source_free(a->src);
	}
	if (m->series != s->ser)
		series_free(m->series);
	if (a->log != s->log)
		runlog_free(a->log);
	a->src = s->src;
	a->session = s->session;
	a->log = s->log;
	m->log = s->log;
	m->series = s->ser;
	m->jumps++; /* another history: the plot starts afresh */
	m->interval = s->interval;
	m->disks_cur = -1;
	m->disks_n = 0;
	memset(&m->replay, 0, sizeof(m->replay));
	memset(&m->follow, 0, sizeof(m->follow));
	m->compare = NULL;
	if (source_is_replay(s->src)) {
		m->replay.on = 1;
		m->replay.fallback = s->fallback;
		header_to_model(m, source_replay_header(s->src), source_replay_config(s->src));
	} else if (source_is_follow(s->src)) {
		m->follow.on = 1;
		header_to_model(m, source_follow_header(s->src), source_follow_config(s->src));
	} else if (source_is_compare(s->src)) {
		m->compare = source_compare_result(s->src);
		m->map_source = 0; /* the compare source forwards no map */
	} else if (s->machine) {
		machine_restore(m, s->machine);
	}
	/* a live source's runs (their log starts here) are a session of
	 * their own: its label, and the start a recording of it gets */
	if (!source_is_replay(s->src) && !source_is_compare(s->src))
		record_stamp_now(a->session_start, sizeof(a->session_start), &a->session_start_ns);
	a->t0_ns = 0;
	a->stats_key = (size_t)-1;
	a->stopped = 0;
	a->error_reported = 0;
	a->ui.paused = 0;
	a->ui.scroll = 0;
	source_progress(a->src, &m->runs);
}

static int choose_disk(struct app *a, char *err, size_t errlen)
{
	struct model *m = &a->model;
	const struct options *o = a->opt;
	if (o->device) {
		if (!device_exists(o->device)) {
			char list[256];
			device_list_disks(list, sizeof(list));
			return errf(err, errlen, "-d %s: no such disk (available: %s)", o->device,
				    list[0] ? list : "none");
		}
		strlcpy_(m->disk, o->device, sizeof(m->disk));
		snprintf(m->disk_how, sizeof(m->disk_how), "-d %s", o->device);
		return 0;
	}
	char why[256];
	if (device_for_path(o->dir, m->disk, sizeof(m->disk), m->disk_how, sizeof(m->disk_how),
			    why, sizeof(why)) < 0) {
		/* An explicit --dir must name a disk; the default one may not
		 * (a /var/tmp on tmpfs): monitoring then goes on without a disk
		 * and the status line says why. */
		if (o->dir_given && !o->strategies && !o->ncmds) /* runs check it themselves */
			return errf(err, errlen, "--dir %s: %s (use -d NAME to pick a disk)", o->dir,
				    why);
		m->disk[0] = '\0';
		snprintf(m->missing, sizeof(m->missing), "%s", why);
	}
	return 0;
}

/* The picker starts from the command line's choices. */
static void picker_init(struct app *a)
{
	struct picker *p = &a->ui.picker;
	const struct options *o = a->opt;
	p->repeat = o->repeat;
	p->size_i = 3; /* 1G */
	for (int i = 0; i < picker_nsizes; i++)
		if (o->size && picker_sizes[i] <= o->size)
			p->size_i = i;
	for (int i = 0; i < picker_nlimits; i++)
		if (picker_limits[i] == o->mem_limit)
			p->limit_i = i;
	const struct strategy *list[PICKER_MAX];
	size_t n = 0;
	if (o->strategies &&
	    strategy_parse_list(o->strategies, list, PICKER_MAX, &n, NULL, 0) == 0)
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < strategy_count() && j < PICKER_MAX; j++)
				if (strategy_at(j) == list[i])
					p->checked[j] = 1;
}

int app_start_picked(struct app *a, char *err, size_t errlen)
{
	struct picker *p = &a->ui.picker;
	const struct strategy *list[PICKER_MAX];
	size_t n = 0;
	for (size_t j = 0; j < strategy_count() && j < PICKER_MAX; j++)
		if (p->checked[j])
			list[n++] = strategy_at(j);
	if (!n)
		return errf(err, errlen, "check at least one strategy (space)");
	uint64_t limit = picker_limits[p->limit_i];
	if (limit && cgroup_home_available(a->cgroups, err, errlen) < 0)
		return -1;
	if (!a->session) {
		a->pick_opt = *a->opt;
		a->pick_opt.strategies = NULL;
		a->pick_opt.ncmds = a->pick_opt.nnames = 0;
		a->pick_opt.baseline = NULL;
		a->pick_opt.size = a->opt->src ? 0 : picker_sizes[p->size_i];
		a->pick_opt.mem_limit = limit;
		struct session *s = xcalloc(1, sizeof(*s));
		if (session_init(s, options_run_config(&a->pick_opt, &(struct run_config){0}), a->log,
				 a->cgroups, err, errlen) < 0) {
			free(s);
			return -1;
		}
		a->session = s;
		source_live_attach(a->src, s);
		if (source_live_probe(a->src, a->opt->probe, err, errlen) < 0)
			return -1;
		if (a->opt->probe)
			strlcpy_(a->model.probe_mode, probe_mode_name(a->opt->probe),
				 sizeof(a->model.probe_mode));
	}
	a->session->mem_limit = limit;
	a->log->mem_limit = limit;
	int rc = session_enqueue(a->session, list, n, p->repeat, err, errlen);
	refresh_runs(a);
	if (rc < 0)
		return -1;
	char buf[64];
	snprintf(buf, sizeof(buf), "queued %zu run%s", n * (size_t)p->repeat,
		 n * (size_t)p->repeat == 1 ? "" : "s");
	app_status(a, buf);
	return 0;
}

/* --csv and --results naming one file: -1 + err. */
static int rows_apart(const struct options *opt, char *err, size_t errlen)
{
	if (opt->csv && opt->results && output_same_file(opt->csv, opt->results))
		return errf(err, errlen,
			    "--csv %s and --results %s: the same file (give two paths)", opt->csv,
			    opt->results);
	return 0;
}

/* A CSV file the rows go to as they come (--csv, --results): made new,
 * its header written and handed to the kernel.  0 or -1 + err. */
static int open_rows(struct outfile *of, const char *path, const char *what,
		     void (*header)(FILE *f), char *err, size_t errlen)
{
	if (outfile_open(of, path, what, OUTFILE_NEW, err, errlen) < 0)
		return -1;
	header(of->f);
	return outfile_flush(of, err, errlen);
}

/* --csv and --results, once every check has passed (and --record), then
 * what the front ends start from.  app_done removes the files while
 * init_failed is set. */
static int finish_init(struct app *a, char *err, size_t errlen)
{
	const struct options *opt = a->opt;
	a->init_failed = 1; /* until the end: app_done removes what was created */
	if (opt->csv && open_rows(&a->csv, opt->csv, "--csv", csv_header, err, errlen) < 0)
		return -1;
	if (opt->results &&
	    open_rows(&a->results, opt->results, "--results", results_csv_header, err, errlen) < 0)
		return -1;
	if (opt->record && app_record_start(a, opt->record, err, errlen) < 0)
		return -1;
	if (opt->metrics_file &&
	    metrics_file_start(&a->metrics, opt->metrics_file, a->session_start, err, errlen) < 0)
		return -1;
	a->init_failed = 0;
	picker_init(a);
	refresh_runs(a);
	return 0;
}

/* A recording's source (a replay, a follow) with its history: the
 * recorded interval (this session's when the header's is none it takes),
 * --history's seconds of it. */
static struct app_source recording_source(const struct app *a, struct source *src,
					  const struct record_header *h)
{
	double iv = h->interval_s >= INTERVAL_MIN && h->interval_s <= INTERVAL_MAX ? h->interval_s
										   : a->model.interval;
	return (struct app_source){
	    .src = src,
	    .log = a->log,
	    .ser = series_new(series_capacity_for(a->opt->history_s, iv)),
	    .interval = iv,
	};
}

/* --replay: the model takes the recording's names and notes
 * (app_switch_source). */
static int replay_init(struct app *a, const struct source_sink *sink, char *err, size_t errlen)
{
	const struct options *opt = a->opt;
	struct model *m = &a->model;
	double speed = opt->speed > 0 ? opt->speed : opt->batch ? 0 : 1;
	a->opening = !opt->batch && isatty(STDERR_FILENO);
	struct source *src =
	    source_replay_new(opt->replay, speed, a->log, sink, &app_argv_parser, err, errlen);
	if (a->opening == 2) /* also before an error: its line starts clean */
		fputs("\r\033[K", stderr);
	a->opening = 0;
	if (!src)
		return -1;
	struct app_source as = recording_source(a, src, source_replay_header(src));
	/* a seek refills only the history, from the offset index (--csv wants
	 * every row, as a replay from the top writes them) */
	if (!opt->csv)
		source_replay_set_window(src, series_capacity(as.ser));
	app_switch_source(a, &as);
	source_progress(a->src, &m->runs);
	if (opt->results && m->runs.state == RUNS_NONE)
		return errf(err, errlen, "--results: %s has no runs", opt->replay);
	if (rows_apart(opt, err, errlen) < 0)
		return -1;
	struct replay_pos rp;
	source_replay_pos(a->src, &rp);
	if (opt->replay_at > 0 && opt->replay_at >= rp.len_s) /* as an export's --from */
		return errf(err, errlen, "--replay-at %g: past the end of %s (%.1f s long)",
			    opt->replay_at, opt->replay, rp.len_s);
	if (finish_init(a, err, errlen) < 0)
		return -1;
	if (opt->replay_at > 0) {
		/* the loop's first sample is the one at --replay-at */
		size_t i = source_replay_index_at(a->src, opt->replay_at);
		if (i > 0)
			source_replay_seek(a->src, i - 1);
		refresh_runs(a);
	}
	return 0;
}

/* Samples a step of a followed recording delivers at most in the TUI (one
 * frame for them all; batch: one, each its line). */
#define FOLLOW_TUI_STEP 64

/* --follow: the recording as it is written, its machine's names in the
 * model (app_switch_source) once its header has come. */
static int follow_init(struct app *a, const struct source_sink *sink, char *err, size_t errlen)
{
	const struct options *opt = a->opt;
	/* the header may be a while (an ssh connecting): say what is waited for */
	int say = !opt->batch && isatty(STDERR_FILENO);
	if (say) {
		fprintf(stderr, "\rlrutop: following %s: waiting for its header\033[K",
			opt->follow);
		fflush(stderr);
	}
	struct source *src =
	    source_follow_new(opt->follow, opt->follow_fd, opt->batch ? 1 : FOLLOW_TUI_STEP, a->log,
			      sink, &app_argv_parser, err, errlen);
	if (say)
		fputs("\r\033[K", stderr);
	if (!src)
		return -1;
	struct app_source as = recording_source(a, src, source_follow_header(src));
	app_switch_source(a, &as);
	if (rows_apart(opt, err, errlen) < 0)
		return -1;
	return finish_init(a, err, errlen);
}

/* --compare in the TUI: every recording in one model, the Runs view first. */
static int compare_init(struct app *a, const struct source_sink *sink, char *err, size_t errlen)
{
	const struct options *opt = a->opt;
	struct source *src = source_compare_new(opt->inputs, opt->ninputs, a->log, sink,
						&app_argv_parser, err, errlen);
	if (!src)
		return -1;
	double iv = source_compare_interval(src);
	struct app_source as = {
	    .src = src,
	    .log = a->log,
	    .ser = series_new(source_compare_samples(src) + 1),
	    .interval = iv >= INTERVAL_MIN && iv <= INTERVAL_MAX ? iv : a->model.interval,
	};
	app_switch_source(a, &as);
	a->ui.view = VIEW_RUNS;
	a->ui.runs_by_strategy = 0;
	if (source_compare_warning(a->src))
		app_status(a, source_compare_warning(a->src));
	picker_init(a);
	return 0;
}

int app_init(struct app *a, const struct options *opt, struct cgroup_home *cgroups, char *err,
	     size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->opt = opt;
	a->cgroups = cgroups;
	struct model *m = &a->model;
	m->interval = opt->interval;
	m->disks_cur = -1;
	a->ui.glyphs = opt->ascii ? CHART_ASCII
		     : opt->glyphs >= 0 ? (enum chart_glyphs)opt->glyphs : CHART_BRAILLE;
	theme_default(&a->ui.theme);
	struct utsname u;
	if (uname(&u) == 0) {
		strlcpy_(m->host, u.nodename, sizeof(m->host));
		strlcpy_(m->kernel, u.release, sizeof(m->kernel));
	}
	if (opt->host_label) /* the fleet's name for it (tools/vm-run: the kernel's) */
		strlcpy_(m->host, opt->host_label, sizeof(m->host));
	int compare = opt->action == OPTA_COMPARE;
	if (!opt->replay && !opt->follow && !compare) {
		if (choose_disk(a, err, errlen) < 0)
			return -1;
		m->mglru = machine_mglru(NULL);
		m->map_source = 1;
		m->map_page_size = sysconf(_SC_PAGESIZE);
		if (m->disk[0])
			machine_disk_virtual(m->disk, m->disk_kind, sizeof(m->disk_kind));
	}
	a->log = runlog_new();
	m->log = a->log;
	m->stats = xcalloc(MODEL_MAX_STRATEGIES, sizeof(*m->stats));
	struct source_sink sink = {
		.ctx = a,
		.sample = on_sample,
		.map = on_map,
		.result = on_result,
		.note = on_note,
		.reset = on_reset,
		.loading = on_loading,
	}, msink, tee;
	/* the source pushes into the recording tee, which forwards to the
	 * metrics file's, which forwards to sink */
	metrics_file_init(&a->metrics, m, &sink, &msink);
	record_sink_init(&a->rec, &msink, on_record_failed, a, &tee);
	a->tee = tee;
	if (opt->replay)
		return replay_init(a, &tee, err, errlen);
	if (opt->follow)
		return follow_init(a, &tee, err, errlen);
	if (compare)
		return compare_init(a, &tee, err, errlen);
	struct series *ser = series_new(series_capacity_for(opt->history_s, opt->interval));
	struct source *src =
	    source_live_new(m->disk, opt->interval, ser, a->log, &tee, err, errlen);
	if (!src) {
		series_free(ser);
		return -1;
	}
	struct app_source as = {.src = src, .log = a->log, .ser = ser, .interval = opt->interval};
	app_switch_source(a, &as);
	/* debugfs for MGLRU's generations: the last lrutop using it unmounts
	 * it (also after a SIGKILL: the next start's sweep), not the one that
	 * mounted it while another still reads it */
	struct sampler *smp = source_live_sampler(a->src);
	if (geteuid() == 0 && a->cgroups && sampler_debugfs_used(smp)) { /* NULL: a test's */
		char e[600];
		if (cgroup_home_mark_mount(a->cgroups, SAMPLER_DEBUGFS,
					   sampler_debugfs_mounted(smp), e, sizeof e) == 0)
			sampler_debugfs_disown(smp);
	}
	const char *miss = source_live_missing(a->src);
	m->mglru_gens = m->mglru && !strstr(miss, "lru_gen"); /* sampler.c names it when not */
	if (miss[0]) {
		size_t l = strlen(m->missing);
		snprintf(m->missing + l, sizeof(m->missing) - l, "%s%s", l ? "; " : "", miss);
	}
	/* LRUTOP_NOTE: what the caller knows about this machine and lrutop
	 * cannot see (tools/vm-run: "qemu TCG: timings are emulated"); it
	 * joins the notes the header shows and the recording keeps. */
	const char *note = getenv("LRUTOP_NOTE");
	if (note && note[0]) {
		size_t l = strlen(m->missing);
		snprintf(m->missing + l, sizeof(m->missing) - l, "%s%s", l ? "; " : "", note);
	}
	/* Every check before any output file exists: a usage error must not
	 * leave a header-only --csv that makes the corrected rerun fail. */
	int runs = opt->strategies || opt->ncmds;
	if (opt->results && !runs)
		return errf(err, errlen, "--results: nothing to run (add -s STRATEGIES or --cmd)");
	if (rows_apart(opt, err, errlen) < 0)
		return -1;
	struct stat mst;
	if (opt->metrics_file && lstat(opt->metrics_file, &mst) == 0)
		return errf(err, errlen, "--metrics-file %s: already exists (use a new path)",
			    opt->metrics_file);
	if (opt->metrics_remove && !opt->metrics_file)
		return errf(err, errlen, "--metrics-file-remove: no --metrics-file to remove");
	const char *other = opt->csv && opt->record && output_same_file(opt->csv, opt->record)
				? "--csv"
			    : opt->results && opt->record && output_same_file(opt->results, opt->record)
				? "--results"
				: NULL;
	if (other)
		return errf(err, errlen, "%s and --record %s: the same file (give two paths)", other,
			    opt->record);
	if (runs) {
		a->session = xcalloc(1, sizeof(*a->session));
		if (session_init(a->session, options_run_config(opt, &(struct run_config){0}), a->log,
				 a->cgroups, err, errlen) < 0) {
			free(a->session);
			a->session = NULL;
			return -1;
		}
		source_live_attach(a->src, a->session);
		if (source_live_probe(a->src, opt->probe, err, errlen) < 0)
			return -1;
		if (opt->probe)
			strlcpy_(a->model.probe_mode, probe_mode_name(opt->probe),
				 sizeof(a->model.probe_mode));
	}
	return finish_init(a, err, errlen);
}

/* ---- recording ---------------------------------------------------------- */

int app_record_start(struct app *a, const char *path, char *err, size_t errlen)
{
	const struct options *o = a->opt;
	const struct model *m = &a->model;
	if (m->replay.on)
		return errf(err, errlen, "recording is for live runs (this is a replay)");
	const struct record_header *followed =
	    source_is_follow(a->src) ? source_follow_header(a->src) : NULL;
	char name[96];
	if (!path) {
		/* a new name in the current directory; O_EXCL never overwrites */
		char stamp[32];
		time_t now = time(NULL);
		struct tm tm;
		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		struct stat st;
		for (int i = 1; i < 100; i++) {
			if (i == 1)
				snprintf(name, sizeof(name), "lrutop-%s.jsonl%s", stamp,
					 o->record_gzip ? ".gz" : "");
			else
				snprintf(name, sizeof(name), "lrutop-%s-%d.jsonl%s", stamp, i,
					 o->record_gzip ? ".gz" : "");
			if (lstat(name, &st) != 0)
				break;
		}
		path = name;
	}
	struct record_header h;
	if (followed) {
		/* the followed stream as it comes: the writer's header (its
		 * machine, its clocks, its runs), so the file is that recording
		 * from here on */
		h = *followed;
		if (record_sink_start(&a->rec, path, o->record_gzip ? RECORD_GZIP : RECORD_BY_NAME,
				      &h, a->log, err, errlen) < 0)
			return -1;
		refresh_runs(a);
		return 0;
	}
	record_header_init(&h);
	strlcpy_(h.version, LRUTOP_VERSION, sizeof(h.version));
	/* the session's host and start (a recording begun later with R holds
	 * its earlier runs too): --metrics-file's labels, its export's */
	strlcpy_(h.host, m->host, sizeof(h.host));
	strlcpy_(h.start_wall, a->session_start, sizeof(h.start_wall));
	h.start_mono_ns = a->session_start_ns;
	strlcpy_(h.device, m->disk, sizeof(h.device));
	strlcpy_(h.device_how, m->disk_how, sizeof(h.device_how));
	strlcpy_(h.device_kind, m->disk_kind, sizeof(h.device_kind));
	h.mglru = m->mglru;
	struct cgroup_base cb;
	char why[256];
	h.cgroup_version = a->cgroups && a->cgroups->tried ? a->cgroups->base.version
			   : cgroup_base_detect(&cb, why, sizeof(why)) == 0 ? cb.version
									    : 0;
	h.interval_s = m->interval;
	h.argc = o->argc;
	h.argv = o->argv;
	strlcpy_(h.notes, m->missing, sizeof(h.notes));
	/* the runs' configuration, typed (a replay reads it, not argv): the
	 * session's, with the baseline and limits it set up in the run log;
	 * before any session (R before the picker started one) the command
	 * line's, which the picker starts from */
	struct run_config rc;
	record_config_of_run(&h.config, a->session ? &a->session->cfg : options_run_config(o, &rc));
	if (a->session) {
		strlcpy_(h.config.baseline, a->log->baseline, sizeof(h.config.baseline));
		h.config.mem_limit = a->log->mem_limit;
		h.config.disk_limit = a->log->disk_limit;
	}
	strlcpy_(h.config.probe, m->probe_mode, sizeof(h.config.probe));
	h.config.rehearsal = o->talk && o->rehearse;
	if (record_sink_start(&a->rec, path, o->record_gzip ? RECORD_GZIP : RECORD_BY_NAME, &h,
			      a->log, err, errlen) < 0)
		return -1;
	refresh_runs(a);
	return 0;
}

void app_record_toggle(struct app *a)
{
	char err[600], buf[700];
	if (record_sink_active(&a->rec)) {
		snprintf(buf, sizeof(buf), "recorded %.300s", a->rec.path);
		if (record_sink_stop(&a->rec, err, sizeof(err)) < 0)
			output_failed(a, err);
		else
			app_status(a, buf);
	} else if (app_record_start(a, NULL, err, sizeof(err)) < 0) {
		app_status(a, err);
	} else {
		snprintf(buf, sizeof(buf), "recording to %.300s (R stops)", a->rec.path);
		app_status(a, buf);
	}
	refresh_runs(a);
}

/* ---- a replay's controls ------------------------------------------------ */

void app_replay_seek(struct app *a, size_t index)
{
	if (!a->model.replay.on)
		return;
	source_replay_seek(a->src, index);
	a->model.jumps++; /* forwards within the history too (model.h) */
	app_poll_runs(a);
}

void app_replay_step(struct app *a, long delta)
{
	if (!a->model.replay.on)
		return;
	struct replay_pos p;
	source_replay_pos(a->src, &p);
	long cur = (long)p.pos - 1, to = cur + delta;
	app_replay_seek(a, to < 0 ? 0 : (size_t)to);
}

void app_replay_jump(struct app *a, double t_s)
{
	if (a->model.replay.on)
		app_replay_seek(a, source_replay_index_at(a->src, t_s));
}

void app_replay_event(struct app *a, int dir)
{
	if (!a->model.replay.on)
		return;
	long i = source_replay_event_index(a->src, dir);
	if (i < 0)
		app_status(a, dir < 0 ? "no earlier run event" : "no later run event");
	else
		app_replay_seek(a, (size_t)i);
}

static const double speeds[] = {SPEED_MIN, 0.5, 1, 2, 4, 8, SPEED_MAX};

void app_replay_speed(struct app *a, int dir)
{
	if (!a->model.replay.on)
		return;
	double cur = a->model.replay.speed, next = cur;
	size_t n = sizeof(speeds) / sizeof(speeds[0]);
	if (cur <= 0)
		next = dir > 0 ? speeds[n - 1] : speeds[0];
	else if (dir > 0) {
		for (size_t i = 0; i < n; i++)
			if (speeds[i] > cur + 1e-9) {
				next = speeds[i];
				break;
			}
	} else {
		for (size_t i = n; i-- > 0;)
			if (speeds[i] < cur - 1e-9) {
				next = speeds[i];
				break;
			}
	}
	source_replay_set_speed(a->src, next);
	refresh_runs(a);
	char buf[48];
	snprintf(buf, sizeof(buf), "speed %g\xc3\x97", next);
	app_status(a, buf);
}

void app_replay_pause(struct app *a)
{
	if (!a->model.replay.on)
		return;
	source_replay_pause(a->src, !a->model.replay.paused);
	refresh_runs(a);
}

int app_close_outputs(struct app *a, char *err, size_t errlen)
{
	int rc = 0;
	char e[400];
	if (outfile_close(&a->csv, e, sizeof(e)) < 0 && !a->out_err[0])
		strlcpy_(a->out_err, e, sizeof(a->out_err));
	if (outfile_close(&a->results, e, sizeof(e)) < 0 && !a->out_err[0])
		strlcpy_(a->out_err, e, sizeof(a->out_err));
	if (record_sink_stop(&a->rec, e, sizeof(e)) < 0 && !a->out_err[0] && !record_reader_gone(a))
		strlcpy_(a->out_err, e, sizeof(a->out_err));
	if (a->out_err[0]) {
		strlcpy_(err, a->out_err, errlen);
		rc = -1;
	}
	return rc;
}

void app_stop_runs(struct app *a)
{
	if (a->stopped || a->model.runs.state == RUNS_NONE)
		return;
	a->stopped = 1;
	if (!app_runs_pending(a))
		return;
	char why[96];
	if (a->signal)
		snprintf(why, sizeof(why), "stopped: lrutop was interrupted (SIG%s)",
			 sigabbrev_np(a->signal) ? sigabbrev_np(a->signal) : "?");
	else if (a->count_reached)
		snprintf(why, sizeof(why), "stopped: -n %ld samples reached", a->opt->count);
	else if (a->out_err[0] || a->stdout_errno)
		snprintf(why, sizeof(why), "stopped: an output could not be written");
	else
		snprintf(why, sizeof(why), "stopped: lrutop was quit during the run");
	a->runs_not_done = source_stop(a->src, why);
	refresh_runs(a);
}

void app_done(struct app *a)
{
	/* the live source ends the session it owns */
	source_free(a->src);
	a->src = NULL;
	a->session = NULL;
	if (a->init_failed) {
		outfile_discard(&a->results);
		outfile_discard(&a->csv);
		record_sink_discard(&a->rec);
	}
	record_sink_stop(&a->rec, NULL, 0);
	metrics_file_done(&a->metrics); /* made by us, stale once we are gone */
	outfile_close(&a->results, NULL, 0);
	outfile_close(&a->csv, NULL, 0);
	series_free(a->model.series);
	a->model.series = NULL;
	runlog_free(a->log);
	a->log = NULL;
	free(a->model.stats);
	a->model.stats = NULL;
	a->model.log = NULL;
}

int app_tick(struct app *a)
{
	int rc = source_step(a->src);
	refresh_runs(a);
	return rc;
}

void app_set_interval(struct app *a, double interval)
{
	if (a->model.replay.on) {
		app_status(a, "a replay keeps the recorded interval (< > change the speed)");
		return;
	}
	if (a->model.follow.on) {
		app_status(a, "following: the writer samples at its own interval");
		return;
	}
	if (interval < INTERVAL_MIN)
		interval = INTERVAL_MIN;
	if (interval > INTERVAL_MAX)
		interval = INTERVAL_MAX;
	a->model.interval = interval;
	source_set_interval(a->src, interval);
	char buf[64];
	snprintf(buf, sizeof(buf), "interval %gs", interval);
	app_status(a, buf);
}

void app_status(struct app *a, const char *msg)
{
	strlcpy_(a->ui.status, msg, sizeof(a->ui.status));
	a->ui.status_until_ns = mono_ns() + 3000000000ull;
}

int app_status_expire(struct app *a, uint64_t now)
{
	if (!a->ui.status[0] || now < a->ui.status_until_ns)
		return 0;
	a->ui.status[0] = '\0';
	return 1;
}

int app_runs_fd(const struct app *a)
{
	return source_runs_fd(a->src);
}

int app_runs_pending(const struct app *a)
{
	return source_pending(a->src);
}

int app_poll_runs(struct app *a)
{
	int ended = source_poll(a->src);
	refresh_runs(a);
	const struct run_progress *p = &a->model.runs;
	if (p->failed)
		a->exit_code = 1;
	if (p->error[0] && !a->error_reported) {
		app_status(a, p->error);
		a->error_reported = 1;
	}
	return ended;
}

int app_cancel(struct app *a, int queue)
{
	if (source_cancel(a->src, queue) < 0)
		return -1;
	app_poll_runs(a);
	return 0;
}
