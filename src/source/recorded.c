#include "source/recorded.h"

#include <stdio.h>
#include <string.h>

#include "model/phase.h"
#include "recording/record.h"
#include "base/util.h"

void recorded_init(struct recorded_runs *rr, struct runlog *log)
{
	memset(rr, 0, sizeof(*rr));
	rr->log = log;
	rr->cur_run = -1;
}

void recorded_reset(struct recorded_runs *rr)
{
	rr->log->nresults = 0;
	rr->log->nevents = 0;
	rr->results_seen = 0;
	rr->runs_started = 0;
	rr->cur_run = -1;
	rr->failed = 0;
}

/* The slot of run i, made (from the result known for it, when there is
 * one) the first time an item names it. */
static struct run_result *slot(struct recorded_runs *rr, long i)
{
	struct runlog *log = rr->log;
	if (i < 0 || i >= RUNLOG_MAX_RUNS)
		return NULL;
	while (log->nresults <= (size_t)i) {
		struct run_result *r = &log->results[log->nresults];
		memset(r, 0, sizeof(*r));
		r->cmd = -1;
		r->verified = -1;
		if (log->nresults < rr->nknown) {
			const struct run_result *x = &rr->known[log->nresults];
			strlcpy_(r->strategy, x->strategy, sizeof(r->strategy));
			r->cmd = x->cmd;
			r->repeat = x->repeat;
			strlcpy_(r->name, x->name, sizeof(r->name));
		} else {
			snprintf(r->name, sizeof(r->name), "run %zu", log->nresults + 1);
		}
		log->nresults++;
	}
	return &log->results[i];
}

void recorded_event(struct recorded_runs *rr, const struct run_event *e,
		    const struct source_sink *k)
{
	struct runlog *log = rr->log;
	struct run_result *r = slot(rr, e->run);
	if (!r || log->nevents >= RUNLOG_MAX_EVENTS)
		return;
	if (!r->t_start_ns)
		r->t_start_ns = e->t_ns;
	if (e->phase == PHASE_COPY && !r->t_copy_ns)
		r->t_copy_ns = e->t_ns;
	if ((size_t)e->run + 1 > rr->runs_started)
		rr->runs_started = (size_t)e->run + 1;
	rr->cur_run = e->phase == PHASE_IDLE ? -1 : e->run;
	rr->cur_phase = e->phase;
	log->events[log->nevents++] = *e;
	if (k->event)
		k->event(k->ctx, &log->events[log->nevents - 1]);
}

void recorded_result(struct recorded_runs *rr, const struct run_result *res,
		     const struct source_sink *k)
{
	struct runlog *log = rr->log;
	size_t i = rr->results_seen++;
	if (i >= RUNLOG_MAX_RUNS)
		return;
	slot(rr, (long)i);
	log->results[i] = *res;
	if (rr->cur_run == (long)i)
		rr->cur_run = -1;
	if (res->finished && !res->ok && !res->cancelled)
		rr->failed = 1;
	if (k->result)
		k->result(k->ctx, &log->results[i]);
}

void recorded_item(struct recorded_runs *rr, const struct record_item *it,
		   const struct source_sink *k)
{
	switch (it->kind) {
	case RECORD_SAMPLE:
		if (k->sample)
			k->sample(k->ctx, &it->sample, it->have_disks ? &it->disks : NULL);
		break;
	case RECORD_MAP:
		if (k->map)
			k->map(k->ctx, &it->map);
		break;
	case RECORD_EVENT:
		recorded_event(rr, &it->event, k);
		break;
	case RECORD_RESULT:
		recorded_result(rr, &it->result, k);
		break;
	}
}

void recorded_progress(const struct recorded_runs *rr, size_t total, struct run_progress *out)
{
	memset(out, 0, sizeof(*out));
	out->current = -1;
	out->failed = rr->failed;
	out->queue_next = rr->runs_started;
	out->queue_len = total > rr->runs_started ? total : rr->runs_started;
	if (rr->cur_run >= 0 && (size_t)rr->cur_run < rr->log->nresults) {
		out->state = RUNS_RUNNING;
		out->current = rr->cur_run;
		out->phase = rr->cur_phase;
	} else {
		out->state = RUNS_IDLE;
	}
}
