/* The runs' configuration a recording keeps (record.h: struct
 * record_config, the header's "config"): made from a run configuration for
 * the writer, and found for a reader — the header's, or an old recording's
 * command line read by the parser the caller hands down. */
#include <string.h>

#include "recording/record.h"
#include "runs/strategy.h"
#include "base/util.h"

void record_config_of_run(struct record_config *c, const struct run_config *rc)
{
	memset(c, 0, sizeof(*c));
	c->have = 1;
	const struct strategy *list[RUNLOG_MAX_STRATEGIES];
	size_t n = 0;
	char err[256];
	/* the session took the list (session_init): a parse fails only for a
	 * configuration no session ran, which then names none */
	if (rc->strategies && strategy_parse_list(rc->strategies, list, RUNLOG_MAX_STRATEGIES, &n,
						  err, sizeof(err)) < 0)
		n = 0;
	for (size_t i = 0; i < n; i++)
		strlcpy_(c->strategies[i], list[i]->name, sizeof(c->strategies[i]));
	c->nstrategies = (int)n;
	c->ncmds = rc->ncmds < 0		     ? 0
		   : rc->ncmds > RUN_CONFIG_MAX_CMDS ? RUN_CONFIG_MAX_CMDS
						     : rc->ncmds;
	for (int i = 0; i < c->ncmds && i < rc->nnames; i++)
		strlcpy_(c->cmds[i], rc->names[i] ? rc->names[i] : "", sizeof(c->cmds[i]));
	c->size = rc->size;
	c->bs = rc->bs;
	c->mem_limit = rc->mem_limit;
	c->disk_limit = rc->disk_limit;
	c->repeat = rc->repeat;
	strlcpy_(c->baseline, rc->baseline ? rc->baseline : "", sizeof(c->baseline));
	c->prealloc = rc->prealloc;
	c->sweep = rc->sweep;
	c->sweep.factor = 0; /* not kept: a replay sees a geometric range in the values */
}

void record_config_resolve(const struct record_header *h, const struct record_argv_parser *p,
			   struct record_config *out)
{
	if (h->config.have) {
		*out = h->config;
		return;
	}
	memset(out, 0, sizeof(*out));
	if (p && p->parse && h->argc > 0 && h->argv && p->parse(h->argc, h->argv, out) < 0)
		memset(out, 0, sizeof(*out));
}
