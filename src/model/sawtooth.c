#include "model/sawtooth.h"

#include <math.h>

double sawtooth_read_ratio(const struct run_result *r)
{
	if (!r || !r->bytes || r->inblock < 0)
		return NAN;
	return (double)r->inblock * 512.0 / (double)r->bytes;
}
