#include "source.h"

int source_fd(const struct source *src)
{
	return src->ops->fd ? src->ops->fd(src) : -1;
}

int source_runs_fd(const struct source *src)
{
	return src->ops->runs_fd ? src->ops->runs_fd(src) : -1;
}

int source_probe_fd(const struct source *src)
{
	return src->ops->probe_fd ? src->ops->probe_fd(src) : -1;
}

void source_probe_drain(struct source *src)
{
	if (src->ops->probe_drain)
		src->ops->probe_drain(src);
}

unsigned long source_ready(struct source *src)
{
	return src->ops->ready ? src->ops->ready(src) : 0;
}

int source_step(struct source *src)
{
	return src->ops->step ? src->ops->step(src) : -1;
}

int source_poll(struct source *src)
{
	return src->ops->poll ? src->ops->poll(src) : 0;
}

int source_pending(const struct source *src)
{
	return src->ops->pending ? src->ops->pending(src) : 0;
}

void source_set_interval(struct source *src, double interval)
{
	if (src->ops->set_interval)
		src->ops->set_interval(src, interval);
}

int source_cancel(struct source *src, int queue)
{
	return src->ops->cancel ? src->ops->cancel(src, queue) : -1;
}

size_t source_stop(struct source *src, const char *why)
{
	return src->ops->stop ? src->ops->stop(src, why) : 0;
}

void source_progress(const struct source *src, struct run_progress *out)
{
	if (src->ops->progress) {
		src->ops->progress(src, out);
		return;
	}
	out->state = RUNS_NONE;
	out->current = -1;
}

void source_free(struct source *src)
{
	if (src)
		src->ops->free(src);
}
