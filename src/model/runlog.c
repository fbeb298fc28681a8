#include "runlog.h"

#include <stdlib.h>

#include "util.h"

struct runlog *runlog_new(void)
{
	return xcalloc(1, sizeof(struct runlog));
}

void runlog_free(struct runlog *l)
{
	free(l);
}

void runlog_add_event(struct runlog *l, uint64_t t_ns, int phase)
{
	if (l->nevents >= RUNLOG_MAX_EVENTS || !l->nresults)
		return;
	struct run_event *e = &l->events[l->nevents++];
	e->t_ns = t_ns;
	e->run = (int16_t)(l->nresults - 1);
	e->phase = (int8_t)phase;
}

struct run_result *runlog_current(struct runlog *l)
{
	return l->nresults && !l->results[l->nresults - 1].finished
		       ? &l->results[l->nresults - 1]
		       : NULL;
}
