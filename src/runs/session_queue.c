/*
 * session_queue — the queue of a session's runs (session_impl.h): built
 * from the command line (the --cmds before -s, -s LIST, the rest of the
 * --cmds, each --repeat times interleaved; --sweep's values; --baseline),
 * added to by the picker (session_enqueue), and --sweep-until's bisection
 * a step at a time.  A run's label is decided here (session_queue_label).
 */
#include "runs/session_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/sweep.h"
#include "base/util.h"

/* An entry's label before any sweep suffix: the strategy's name
 * (+prealloc for a mapped copy that preallocates) or the --cmd's label,
 * and the --disk-limit's "@30M". */
void session_queue_label(const struct session *s, const struct queued *q, char *buf, size_t len)
{
	const struct strategy *st = q->strategy;
	if (st)
		strategy_label(st, s->cfg.prealloc, s->io_label, buf, len);
	else
		snprintf(buf, len, "%.*s%s", (int)(len - 1 - strlen(s->io_label)),
			 s->cmds[q->cmd].label, s->io_label);
}

/* Two queue entries are runs of the same thing (strategy or --cmd, and
 * sweep value): their repeat numbers go on from each other. */
static int same_entry(const struct queued *a, const struct queued *b)
{
	return a->strategy == b->strategy && (a->strategy || a->cmd == b->cmd) &&
	       a->value == b->value;
}

static int enqueue(struct session *s, const struct queued *list, size_t n, int repeat, char *err,
		   size_t errlen)
{
	if (n > SESSION_MAX_RUNS || s->queue_len + n * (size_t)repeat > SESSION_MAX_RUNS)
		return errf(err, errlen, "at most %d runs in one session", SESSION_MAX_RUNS);
	/* repeat numbers go on from runs of the same entry queued before
	 * (the picker adds to a queue): labels and #N stay unique */
	int done[SESSION_MAX_RUNS] = {0};
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s->queue_len; k++)
			done[i] += same_entry(&s->queue[k], &list[i]);
	for (int r = 1; r <= repeat; r++)
		for (size_t i = 0; i < n; i++) {
			s->queue[s->queue_len] = list[i];
			s->queue[s->queue_len].repeat = r + done[i];
			s->queue_len++;
		}
	if (!s->log->baseline[0] && n)
		strlcpy_(s->log->baseline,
			 list[0].strategy ? list[0].strategy->name : s->cmds[list[0].cmd].label,
			 sizeof(s->log->baseline));
	if (s->state == SESSION_FINISHED)
		s->state = SESSION_IDLE;
	return 0;
}

/* --sweep: every entry at every value (value-major, so a repeat round
 * walks the whole range: A@1 B@1 A@2 B@2 ... A@1 ...); with --sweep-until
 * the entries are kept and the bisection queues its first step later
 * (session_queue_sweep_step). */
static int enqueue_sweep(struct session *s, const struct queued *q, size_t nq, char *err,
			 size_t errlen)
{
	const struct sweep_spec *sw = &s->cfg.sweep;
	/* a bisection's runs are queued step by step: its bound is known now,
	 * and refused now (exit 2), not at the step that would not fit */
	size_t most = nq * (size_t)sweep_values_most(sw) * (size_t)s->cfg.repeat;
	if (most > SESSION_MAX_RUNS)
		return errf(err, errlen, "at most %d runs in one session (this sweep can take %zu)",
			    SESSION_MAX_RUNS, most);
	if (sw->until.set) {
		memcpy(s->entries, q, nq * sizeof(*q));
		s->nentries = nq;
		return 0;
	}
	struct queued *all = xcalloc(SESSION_MAX_RUNS, sizeof(*all));
	size_t n = 0;
	for (int v = 0; v < sw->n; v++)
		for (size_t i = 0; i < nq; i++) {
			all[n] = q[i];
			all[n++].value = v;
		}
	int rc = enqueue(s, all, n, s->cfg.repeat, err, errlen);
	free(all);
	return rc;
}

/* The bisection's next step: for each entry the values it needs next
 * (sweep_bisect_next over the runs so far), each --repeat times,
 * interleaved.  0 when every entry is done. */
size_t session_queue_sweep_step(struct session *s)
{
	const struct sweep_spec *sw = &s->cfg.sweep;
	struct sweep_table *t = xmalloc(sizeof(*t));
	sweep_table_build(t, sw, s->log->results, s->log->nresults, 0);
	struct queued step[2 * (SESSION_MAX_STRATEGIES + SESSION_MAX_CMDS)];
	size_t n = 0;
	for (size_t e = 0; e < s->nentries; e++) {
		char lab[32];
		session_queue_label(s, &s->entries[e], lab, sizeof(lab));
		int col = -1;
		for (int k = 0; k < t->ns; k++)
			if (!strcmp(t->strat[k], lab))
				col = k;
		int next[2];
		struct sweep_bracket b;
		int k = sweep_bisect_next(t, col, &sw->until, s->cfg.repeat, next, &b);
		for (int j = 0; j < k; j++) {
			step[n] = s->entries[e];
			step[n++].value = next[j];
		}
	}
	free(t);
	char err[128];
	if (n && enqueue(s, step, n, s->cfg.repeat, err, sizeof(err)) < 0) {
		strlcpy_(s->error, err, sizeof(s->error));
		return 0;
	}
	return n;
}

int session_enqueue(struct session *s, const struct strategy *const *list, size_t n, int repeat,
		    char *err, size_t errlen)
{
	struct queued q[SESSION_MAX_STRATEGIES];
	if (n > SESSION_MAX_STRATEGIES)
		return errf(err, errlen, "at most %d strategies at once", SESSION_MAX_STRATEGIES);
	for (size_t i = 0; i < n; i++)
		q[i] = (struct queued){.strategy = list[i], .cmd = -1, .value = -1};
	return enqueue(s, q, n, repeat, err, errlen);
}

size_t session_runs_left(const struct session *s)
{
	size_t left = s->queue_len - s->next;
	const struct run_result *r = session_current(s);
	return left + (r ? 1 : 0);
}

/* The queue of the command line: the --cmds given before -s, -s LIST, the
 * rest of the --cmds, each `repeat` times interleaved; then --baseline. */
int session_queue_setup(struct session *s, const struct run_config *cfg, char *err, size_t errlen)
{
	const struct strategy *list[SESSION_MAX_STRATEGIES];
	size_t n = 0;
	if (cfg->strategies && strategy_parse_list(cfg->strategies, list, SESSION_MAX_STRATEGIES,
						   &n, err, errlen) < 0) {
		char tmp[512];
		strlcpy_(tmp, err, sizeof(tmp));
		return errf(err, errlen, "-s: %s", tmp);
	}
	if (session_cmd_setup(s, cfg, err, errlen) < 0)
		return -1;
	struct queued q[SESSION_MAX_STRATEGIES + SESSION_MAX_CMDS];
	size_t nq = 0;
	int before = cfg->strategies ? cfg->cmds_before_s : (int)s->ncmds;
	for (int i = 0; i < before; i++)
		q[nq++] = (struct queued){.cmd = i, .value = -1};
	for (size_t i = 0; i < n; i++)
		q[nq++] = (struct queued){.strategy = list[i], .cmd = -1, .value = -1};
	for (size_t i = (size_t)before; i < s->ncmds; i++)
		q[nq++] = (struct queued){.cmd = (int)i, .value = -1};
	if (cfg->sweep.param ? enqueue_sweep(s, q, nq, err, errlen) < 0
			     : enqueue(s, q, nq, cfg->repeat, err, errlen) < 0)
		return -1;
	if (cfg->baseline) {
		char all[256] = "";
		size_t l = 0;
		s->log->baseline[0] = '\0';
		for (size_t i = 0; i < nq; i++) {
			const char *name =
			    q[i].strategy ? q[i].strategy->name : s->cmds[q[i].cmd].label;
			if (strcmp(name, cfg->baseline) == 0)
				strlcpy_(s->log->baseline, name, sizeof(s->log->baseline));
			if (l < sizeof(all))
				l += (size_t)snprintf(all + l, sizeof(all) - l, "%s%s",
						      i ? ", " : "", name);
		}
		if (!s->log->baseline[0])
			return errf(err, errlen, "--baseline %s: not one of the runs (%s)",
				    cfg->baseline, all);
	}
	return 0;
}
