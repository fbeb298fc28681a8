#include "source/record_sink.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"

static void tee_failed(struct record_sink *t, const char *msg)
{
	if (t->error)
		return;
	t->error = 1;
	t->err_no = recorder_errno(t->rec);
	if (t->failed)
		t->failed(t->failed_ctx, msg);
}

/* What the recording sees of each item, before the next sink has it. */
static void rec_sample(void *ctx, const struct sample *s, const struct disktab *tab)
{
	struct record_sink *t = ctx;
	char err[600];
	if (t->rec && !t->error && recorder_sample(t->rec, s, tab, err, sizeof(err)) < 0)
		tee_failed(t, err);
}

static void rec_map(void *ctx, const struct residency_map *m)
{
	struct record_sink *t = ctx;
	char err[600];
	if (t->rec && !t->error && recorder_map(t->rec, m, err, sizeof(err)) < 0)
		tee_failed(t, err);
}

static void rec_event(void *ctx, const struct run_event *e)
{
	struct record_sink *t = ctx;
	char err[600];
	if (t->rec && !t->error && recorder_event(t->rec, e, err, sizeof(err)) < 0)
		tee_failed(t, err);
}

static void rec_result(void *ctx, const struct run_result *r)
{
	struct record_sink *t = ctx;
	char err[600];
	if (t->rec && !t->error && recorder_result(t->rec, r, err, sizeof(err)) < 0)
		tee_failed(t, err);
}

void record_sink_init(struct record_sink *t, const struct source_sink *next,
		      void (*failed)(void *ctx, const char *msg), void *failed_ctx,
		      struct source_sink *out)
{
	memset(t, 0, sizeof(*t));
	t->failed = failed;
	t->failed_ctx = failed_ctx;
	const struct source_sink rec = {
	    .ctx = t,
	    .sample = rec_sample,
	    .map = rec_map,
	    .event = rec_event,
	    .result = rec_result,
	};
	sink_tee_init(&t->tee, &rec, next, NULL, out);
}

int record_sink_start(struct record_sink *t, const char *path, enum record_compress z,
		      const struct record_header *h, const struct runlog *log, char *err,
		      size_t errlen)
{
	if (t->rec)
		return errf(err, errlen, "already recording to %s", t->path);
	outfile_forget(&t->file); /* a recording stopped before is the user's */
	t->rec = recorder_open(path, z, h, err, errlen);
	if (!t->rec)
		return -1;
	strlcpy_(t->path, path, sizeof(t->path));
	t->error = t->err_no = 0;
	for (size_t i = 0; log && i < log->nevents; i++)
		if (recorder_event(t->rec, &log->events[i], err, errlen) < 0)
			goto fail;
	for (size_t i = 0; log && i < log->nresults && log->results[i].finished; i++)
		if (recorder_result(t->rec, &log->results[i], err, errlen) < 0)
			goto fail;
	return 0;
fail:
	record_sink_discard(t);
	return -1;
}

int record_sink_stop(struct record_sink *t, char *err, size_t errlen)
{
	if (!t->rec)
		return 0;
	recorder_take_file(t->rec, &t->file);
	int rc = recorder_close(t->rec, err, errlen);
	t->rec = NULL;
	return rc;
}

void record_sink_discard(struct record_sink *t)
{
	if (!t->rec)
		return;
	record_sink_stop(t, NULL, 0);
	record_sink_remove(t);
}

int record_sink_rename(struct record_sink *t, const char *path)
{
	if (t->rec) {
		errno = EBUSY;
		return -1;
	}
	int rc = outfile_rename(&t->file, path);
	if (rc == 0)
		outfile_forget(&t->file); /* the fallback: the user's now */
	return rc;
}

void record_sink_remove(struct record_sink *t)
{
	if (!t->rec)
		outfile_discard(&t->file); /* only while its path still names it */
}

int record_sink_active(const struct record_sink *t)
{
	return t->rec != NULL;
}
