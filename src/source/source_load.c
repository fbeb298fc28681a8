#include "source/load.h"

#include <string.h>

#include "base/util.h"
#include "source/source.h"

static void loader_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct rec_loader *l = ctx;
	l->sample(l->ctx, s, t);
}

static void loader_note(void *ctx, const char *msg)
{
	struct rec_loader *l = ctx;
	if (!l->note[0])
		strlcpy_(l->note, msg, sizeof(l->note));
}

struct source *rec_load_open(struct rec_load *r, struct rec_loader *l, const char *path,
			     const struct record_argv_parser *ap, struct replay_pos *pos,
			     char *warn, size_t warnlen, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	if (warnlen)
		warn[0] = '\0';
	l->note[0] = '\0';
	r->log = runlog_new();
	struct source_sink sink = {.ctx = l, .sample = loader_sample, .note = loader_note};
	struct source *src = source_replay_new(path, 0, r->log, &sink, ap, err, errlen);
	if (src)
		source_replay_pos(src, pos);
	else
		rec_load_done(r);
	return src;
}

int rec_load_end(struct rec_load *r, const struct rec_loader *l, struct source *src, int short_read,
		 char *warn, size_t warnlen, char *err, size_t errlen)
{
	r->hdr = *source_replay_header(src);
	r->hdr.argc = 0;
	r->hdr.argv = NULL;
	const char *w = source_replay_warning(src);
	if (w && warnlen)
		strlcpy_(warn, w, warnlen);
	source_free(src);
	if (!l->note[0] && !short_read)
		return 0;
	errf(err, errlen, "%s", l->note[0] ? l->note : "the recording changed while it was read");
	rec_load_done(r);
	return -1;
}

/* The sample of a load: into the history (the replay source appends the
 * events and the results to the run log itself). */
static void load_sample(void *ser, const struct sample *s, const struct disktab *t)
{
	(void)t;
	series_push(ser, s);
}

int rec_load_read(struct rec_load *r, const char *path, const struct record_argv_parser *ap,
		  char *warn, size_t warnlen, char *err, size_t errlen)
{
	struct rec_loader l = {.sample = load_sample};
	struct replay_pos pos;
	struct source *src = rec_load_open(r, &l, path, ap, &pos, warn, warnlen, err, errlen);
	if (!src)
		return -1;
	/* the whole recording, however long: a history that holds every sample */
	r->ser = series_new(pos.n);
	l.ctx = r->ser;
	while (source_step(src) == 0)
		;
	return rec_load_end(r, &l, src, series_len(r->ser) != pos.n, warn, warnlen, err, errlen);
}

void rec_load_done(struct rec_load *r)
{
	if (!r)
		return;
	series_free(r->ser);
	runlog_free(r->log);
	r->ser = NULL;
	r->log = NULL;
}
