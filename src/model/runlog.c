#include "model/runlog.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"

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

const char *runlog_common_limit(const struct run_result *r, size_t n)
{
	const char *suf = NULL;
	for (size_t i = 0; i < n; i++) {
		const char *at = strrchr(r[i].name, '@');
		if (!at || at == r[i].name || (suf && strcmp(at, suf) != 0))
			return NULL;
		suf = at;
	}
	return suf;
}

int runlog_label_len(const struct run_result *r, const char *lim)
{
	size_t l = strlen(r->name), k = lim ? strlen(lim) : 0;
	return (int)(l > k ? l - k : l);
}
