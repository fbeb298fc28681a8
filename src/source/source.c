#include "source/source.h"

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

/* Each callback of the three sinks in order; ctx is the tee. */
#define TEE_EACH(t, cb, ...)                                                                      \
	do {                                                                                      \
		if ((t)->before.cb)                                                               \
			(t)->before.cb((t)->before.ctx, __VA_ARGS__);                             \
		if ((t)->next.cb)                                                                 \
			(t)->next.cb((t)->next.ctx, __VA_ARGS__);                                 \
		if ((t)->after.cb)                                                                \
			(t)->after.cb((t)->after.ctx, __VA_ARGS__);                               \
	} while (0)

static void tee_sample(void *ctx, const struct sample *s, const struct disktab *tab)
{
	TEE_EACH((struct sink_tee *)ctx, sample, s, tab);
}

static void tee_map(void *ctx, const struct residency_map *m)
{
	TEE_EACH((struct sink_tee *)ctx, map, m);
}

static void tee_event(void *ctx, const struct run_event *e)
{
	TEE_EACH((struct sink_tee *)ctx, event, e);
}

static void tee_result(void *ctx, const struct run_result *r)
{
	TEE_EACH((struct sink_tee *)ctx, result, r);
}

static void tee_note(void *ctx, const char *msg)
{
	TEE_EACH((struct sink_tee *)ctx, note, msg);
}

static void tee_loading(void *ctx, double done, size_t samples)
{
	TEE_EACH((struct sink_tee *)ctx, loading, done, samples);
}

static void tee_reset(void *ctx)
{
	struct sink_tee *t = ctx;
	if (t->before.reset)
		t->before.reset(t->before.ctx);
	if (t->next.reset)
		t->next.reset(t->next.ctx);
	if (t->after.reset)
		t->after.reset(t->after.ctx);
}

void sink_tee_init(struct sink_tee *t, const struct source_sink *before,
		   const struct source_sink *next, const struct source_sink *after,
		   struct source_sink *out)
{
	static const struct source_sink none;
	t->before = before ? *before : none;
	t->next = next ? *next : none;
	t->after = after ? *after : none;
	*out = (struct source_sink){
	    .ctx = t,
	    .sample = tee_sample,
	    .map = tee_map,
	    .event = tee_event,
	    .result = tee_result,
	    .note = tee_note,
	    .reset = tee_reset,
	    .loading = tee_loading,
	};
}
