#include "model/model.h"

uint64_t model_now(const struct model *m)
{
	const struct sample *last = series_back(m->series, 0);
	return last ? last->t_ns : 0;
}
