#include "app.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cgroup.h"
#include "device.h"
#include "output.h"
#include "results.h"
#include "util.h"

static int choose_disk(struct app *a, char *err, size_t errlen)
{
	struct monitor *m = &a->mon;
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
		if (o->dir_given && !o->strategies && !o->cmd) /* runs check it themselves */
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
	struct picker *p = &a->mon.picker;
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
	struct picker *p = &a->mon.picker;
	const struct strategy *list[PICKER_MAX];
	size_t n = 0;
	for (size_t j = 0; j < strategy_count() && j < PICKER_MAX; j++)
		if (p->checked[j])
			list[n++] = strategy_at(j);
	if (!n)
		return errf(err, errlen, "check at least one strategy (space)");
	uint64_t limit = picker_limits[p->limit_i];
	if (limit && cgroup_available(err, errlen) < 0)
		return -1;
	if (!a->session) {
		a->pick_opt = *a->opt;
		a->pick_opt.strategies = NULL;
		a->pick_opt.cmd = NULL;
		a->pick_opt.baseline = NULL;
		a->pick_opt.size = a->opt->src ? 0 : picker_sizes[p->size_i];
		a->pick_opt.mem_limit = limit;
		struct session *s = xcalloc(1, sizeof(*s));
		if (session_init(s, &a->pick_opt, err, errlen) < 0) {
			free(s);
			return -1;
		}
		a->session = s;
		a->mon.session = s;
	}
	a->session->mem_limit = limit;
	if (session_enqueue(a->session, list, n, p->repeat, err, errlen) < 0)
		return -1;
	char buf[64];
	snprintf(buf, sizeof(buf), "queued %zu run%s", n * (size_t)p->repeat,
		 n * (size_t)p->repeat == 1 ? "" : "s");
	app_status(a, buf);
	return 0;
}

int app_init(struct app *a, const struct options *opt, char *err, size_t errlen)
{
	memset(a, 0, sizeof(*a));
	a->opt = opt;
	a->tick.fd = -1;
	struct monitor *m = &a->mon;
	m->interval = opt->interval;
	m->disks_cur = -1;
	m->glyphs = opt->ascii ? CHART_ASCII : CHART_BRAILLE;
	struct utsname u;
	if (uname(&u) == 0) {
		strlcpy_(m->host, u.nodename, sizeof(m->host));
		strlcpy_(m->kernel, u.release, sizeof(m->kernel));
	}
	if (choose_disk(a, err, errlen) < 0)
		return -1;
	a->sampler = sampler_new(m->disk, err, errlen);
	if (!a->sampler)
		return -1;
	const char *miss = sampler_missing(a->sampler);
	if (miss[0]) {
		size_t l = strlen(m->missing);
		snprintf(m->missing + l, sizeof(m->missing) - l, "%s%s", l ? "; " : "", miss);
	}
	m->series = series_new(series_capacity_for(opt->history_s, opt->interval));
	if (opt->csv) {
		a->csv = output_create(opt->csv, "--csv", err, errlen);
		if (!a->csv)
			return -1;
		csv_header(a->csv);
	}
	if (opt->results && !(opt->strategies || opt->cmd))
		return errf(err, errlen, "--results %s: needs runs (-s LIST or --cmd)", opt->results);
	if (opt->baseline && !opt->strategies)
		return errf(err, errlen, "--baseline %s: needs -s LIST", opt->baseline);
	if (opt->strategies || opt->cmd) {
		a->session = xcalloc(1, sizeof(*a->session));
		if (session_init(a->session, opt, err, errlen) < 0) {
			free(a->session);
			a->session = NULL;
			return -1;
		}
		m->session = a->session;
		if (opt->results) {
			a->results = output_create(opt->results, "--results", err, errlen);
			if (!a->results)
				return -1;
			results_csv_header(a->results);
			fflush(a->results);
		}
	}
	if (ticker_open(&a->tick, opt->interval, err, errlen) < 0)
		return -1;
	picker_init(a);
	return 0;
}

void app_done(struct app *a)
{
	if (a->session) {
		session_done(a->session);
		free(a->session);
		a->session = NULL;
		a->mon.session = NULL;
	}
	if (a->results)
		fclose(a->results);
	a->results = NULL;
	if (a->csv)
		fclose(a->csv);
	a->csv = NULL;
	ticker_close(&a->tick);
	sampler_free(a->sampler);
	a->sampler = NULL;
	series_free(a->mon.series);
	a->mon.series = NULL;
}

void app_tick(struct app *a)
{
	struct monitor *m = &a->mon;
	struct sample s;
	sampler_read(a->sampler, &s);
	if (a->session)
		session_annotate(a->session, &s);
	const struct sample *prev = series_back(m->series, 0);
	if (!prev)
		a->t0_ns = s.t_ns;
	if (a->csv)
		csv_row(a->csv, prev, &s, a->t0_ns,
			s.run >= 0 && a->session ? a->session->results[s.run].name : NULL);
	series_push(m->series, &s);
	if (a->session)
		session_tick(a->session, a->sampler, m->series);
	if (m->paused && m->scroll + 1 < series_len(m->series))
		m->scroll++; /* a paused view stays on the same samples */
	int next = m->disks_cur < 0 ? 0 : !m->disks_cur;
	if (sampler_read_disks(a->sampler, &m->disks[next]) == 0) {
		m->disks_cur = next;
		m->disks_n++;
	}
}

void app_set_interval(struct app *a, double interval)
{
	if (interval < INTERVAL_MIN)
		interval = INTERVAL_MIN;
	if (interval > INTERVAL_MAX)
		interval = INTERVAL_MAX;
	a->mon.interval = interval;
	ticker_set(&a->tick, interval);
	char buf[64];
	snprintf(buf, sizeof(buf), "interval %gs", interval);
	app_status(a, buf);
}

void app_status(struct app *a, const char *msg)
{
	strlcpy_(a->mon.status, msg, sizeof(a->mon.status));
	a->mon.status_until_ns = mono_ns() + 3000000000ull;
}

int app_runs_fd(const struct app *a)
{
	return a->session ? session_fd(a->session) : -1;
}

int app_runs_pending(const struct app *a)
{
	return a->session && a->session->state != SESSION_FINISHED;
}

int app_poll_runs(struct app *a)
{
	if (!a->session)
		return 0;
	int ended = session_poll(a->session, a->sampler, a->mon.series);
	struct session *s = a->session;
	for (; a->results_written < s->nresults && s->results[a->results_written].finished;
	     a->results_written++) {
		const struct run_result *r = &s->results[a->results_written];
		if (a->results) {
			results_csv_row(a->results, r);
			fflush(a->results);
		}
		char buf[400];
		results_summary(buf, sizeof(buf), r);
		app_status(a, buf);
	}
	if (s->failed)
		a->exit_code = 1;
	if (s->error[0] && !a->error_reported) {
		app_status(a, s->error);
		a->error_reported = 1;
	}
	return ended;
}
