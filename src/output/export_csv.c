#include "export_csv.h"

#include <errno.h>
#include <string.h>

#include "export.h"
#include "output.h"
#include "source.h"
#include "util.h"

void export_csv_start(struct csv_stream *c, FILE *f)
{
	memset(c, 0, sizeof(*c));
	c->f = f;
	csv_header(f);
}

void export_csv_sample(struct csv_stream *c, const struct sample *s, const char *label)
{
	if (!c->n)
		c->t0 = s->t_ns;
	csv_row(c->f, c->n ? &c->prev : NULL, s, c->t0, label);
	c->prev = *s;
	c->n++;
}

int export_csv_write(FILE *f, const struct series *ser, const struct run_result *runs, size_t nruns,
		     char *err, size_t errlen)
{
	size_t n = series_len(ser);
	struct csv_stream c;
	errno = 0;
	export_csv_start(&c, f);
	for (size_t i = 0; i < n && !ferror(f); i++) {
		const struct sample *s = series_at(ser, i);
		export_csv_sample(&c, s,
				  s->run >= 0 && (size_t)s->run < nruns ? runs[s->run].name : NULL);
	}
	if (ferror(f) || fflush(f) == EOF)
		return errf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}

/* ---- --export-csv: the recording streamed into OUT ---------------------- */

/* The sink: each sample a row, labelled with the name its run has at the
 * recording's end (a run's first sample may come before the event that
 * starts it); the first note (a line gone bad since the first read) kept. */
struct stream {
	struct csv_stream c;
	struct source *src;
	char note[600];
};

static void on_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	(void)t;
	struct stream *st = ctx;
	if (ferror(st->c.f))
		return;
	export_csv_sample(&st->c, s,
			  s->run >= 0 ? source_replay_run_name(st->src, (size_t)s->run) : NULL);
}

static void on_note(void *ctx, const char *msg)
{
	struct stream *st = ctx;
	if (!st->note[0])
		strlcpy_(st->note, msg, sizeof(st->note));
}

int export_csv_stream(const char *in, const char *out, char *warn, size_t warnlen, char *err,
		      size_t errlen)
{
	if (warnlen)
		warn[0] = '\0';
	struct runlog *log = runlog_new();
	struct stream st = {0};
	struct source_sink sink = {.ctx = &st, .sample = on_sample, .note = on_note};
	/* the first read checks every line before OUT is made; speed 0: every
	 * sample is due at once */
	struct source *src = source_replay_new(in, 0, log, &sink, err, errlen);
	int rc = EXPORT_INPUT;
	struct output o = {0};
	if (!src)
		goto out;
	st.src = src;
	const char *w = source_replay_warning(src);
	if (w && warnlen)
		strlcpy_(warn, w, warnlen);
	if (sig_caught()) {
		errf(err, errlen, "interrupted");
		rc = EXPORT_INTERRUPTED;
		goto out;
	}
	/* from the temporary file's making to its link or removal a signal is
	 * only noted (main.c's export_signal _exits otherwise) */
	sig_hold(1);
	if (output_open_atomic(&o, out, "--export-csv", err, errlen) < 0)
		goto out; /* exists, or the directory is not there: nothing made */
	errno = 0;
	export_csv_start(&st.c, o.f);
	while (!ferror(o.f) && !sig_caught() && source_step(src) == 0)
		;
	struct replay_pos pos;
	source_replay_pos(src, &pos);
	if (sig_caught()) {
		errf(err, errlen, "interrupted");
		rc = EXPORT_INTERRUPTED;
	} else if (ferror(o.f) || output_flush(&o, err, errlen) < 0) {
		if (!o.failed)
			errf(err, errlen, "--export-csv %s: write error: %s", out,
			     strerror(errno ? errno : EIO));
		rc = EXPORT_WRITE;
	} else if (st.note[0] || st.c.n != pos.n) {
		errf(err, errlen, "%s",
		     st.note[0] ? st.note : "the recording changed while it was read");
	} else {
		rc = output_close(&o, err, errlen) < 0 ? EXPORT_WRITE : 0;
	}
out:
	if (o.f)
		output_discard(&o);
	sig_hold(0);
	source_free(src);
	runlog_free(log);
	return rc;
}
