#include "model/phase.h"

#include <stddef.h>

static const struct {
	const char *name, *label, *abbrev;
} phases[PHASE_COUNT] = {
    [PHASE_IDLE] = {"idle", "end", NULL},  [PHASE_PREPARE] = {"prepare", "prep", NULL},
    [PHASE_COPY] = {"copy", "copy", "c"},  [PHASE_FLUSH] = {"flush", "flush", "fl"},
    [PHASE_DONE] = {"done", "done", NULL}, [PHASE_VERIFY] = {"verify", "vrfy", "vfy"},
};

const char *phase_name(enum phase p)
{
	return (unsigned)p < PHASE_COUNT ? phases[p].name : "?";
}

const char *phase_label(int p)
{
	return (unsigned)p < PHASE_COUNT ? phases[p].label : "end";
}

const char *phase_abbrev(int p)
{
	return (unsigned)p < PHASE_COUNT ? phases[p].abbrev : NULL;
}

int sample_in_copy(const struct sample *s, int run)
{
	return s && s->run >= 0 && (run < 0 || s->run == run) && s->phase >= PHASE_COPY &&
	       s->phase <= PHASE_DONE;
}

int phase_moves_bytes(int phase)
{
	return phase == PHASE_COPY || phase == PHASE_FLUSH;
}
