#include "source/load.h"

#include <string.h>

#include "base/util.h"
#include "source/source.h"

/* The sink of a load: every sample into the history; the events and the
 * results the replay source appends to the run log itself. */
struct load {
	struct series *ser;
	char note[600]; /* the source's first note: a line that went bad since it was checked */
};

static void load_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct load *l = ctx;
	series_push(l->ser, s);
}

static void load_note(void *ctx, const char *msg)
{
	struct load *l = ctx;
	if (!l->note[0])
		strlcpy_(l->note, msg, sizeof(l->note));
}

int rec_load_read(struct rec_load *r, const char *path, const struct record_argv_parser *ap,
		  char *warn, size_t warnlen, char *err, size_t errlen)
{
	memset(r, 0, sizeof(*r));
	r->path = path;
	if (warnlen)
		warn[0] = '\0';
	r->log = runlog_new();
	struct load l = {0};
	struct source_sink sink = {.ctx = &l, .sample = load_sample, .note = load_note};
	/* speed 0: every sample is due at once; nothing waits on the timer */
	struct source *src = source_replay_new(path, 0, r->log, &sink, ap, err, errlen);
	if (!src) {
		rec_load_done(r);
		return -1;
	}
	/* the whole recording, however long: a history that holds every sample */
	struct replay_pos pos;
	source_replay_pos(src, &pos);
	r->ser = l.ser = series_new(pos.n);
	while (source_step(src) == 0)
		;
	rec_load_take(r, src, warn, warnlen);
	if (l.note[0] || series_len(r->ser) != pos.n) {
		errf(err, errlen, "%s",
		     l.note[0] ? l.note : "the recording changed while it was read");
		rec_load_done(r);
		return -1;
	}
	return 0;
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

void rec_load_take(struct rec_load *r, struct source *src, char *warn, size_t warnlen)
{
	r->hdr = *source_replay_header(src);
	r->hdr.argc = 0;
	r->hdr.argv = NULL;
	const char *w = source_replay_warning(src);
	if (w && warnlen)
		strlcpy_(warn, w, warnlen);
	source_free(src);
}
