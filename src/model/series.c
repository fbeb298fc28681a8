#include "series.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

struct series {
	struct sample *ring;
	size_t cap, head, len; /* head: slot the next push writes */
	unsigned long long pushed;
};

struct series *series_new(size_t capacity)
{
	struct series *s = xcalloc(1, sizeof(*s));
	s->cap = capacity ? capacity : 1;
	s->ring = xcalloc(s->cap, sizeof(*s->ring));
	return s;
}

void series_free(struct series *s)
{
	if (!s)
		return;
	free(s->ring);
	free(s);
}

void series_push(struct series *s, const struct sample *smp)
{
	s->ring[s->head] = *smp;
	s->head = (s->head + 1) % s->cap;
	if (s->len < s->cap)
		s->len++;
	s->pushed++;
}

size_t series_len(const struct series *s)
{
	return s->len;
}

size_t series_capacity(const struct series *s)
{
	return s->cap;
}

unsigned long long series_pushed(const struct series *s)
{
	return s->pushed;
}

const struct sample *series_at(const struct series *s, size_t i)
{
	if (i >= s->len)
		return NULL;
	size_t oldest = (s->head + s->cap - s->len) % s->cap;
	return &s->ring[(oldest + i) % s->cap];
}

const struct sample *series_back(const struct series *s, size_t back)
{
	if (back >= s->len)
		return NULL;
	return series_at(s, s->len - 1 - back);
}

size_t series_capacity_for(double seconds, double interval)
{
	double n = interval > 0 ? seconds / interval : 64;
	/* written so that NAN lands on the lower bound: converting NAN (or
	 * anything out of range) to size_t is undefined */
	if (!(n >= 64))
		n = 64;
	if (n > 200000)
		n = 200000;
	return (size_t)n + 1;
}

long series_find(const struct series *s, uint64_t t_ns)
{
	long lo = 0, hi = (long)s->len - 1, ans = -1;
	while (lo <= hi) {
		long mid = lo + (hi - lo) / 2;
		if (series_at(s, (size_t)mid)->t_ns >= t_ns) {
			ans = mid;
			hi = mid - 1;
		} else {
			lo = mid + 1;
		}
	}
	return ans;
}
