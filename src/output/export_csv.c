#include "output/export_csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "output/output.h"
#include "model/phase.h"
#include "recording/record.h"
#include "recording/spool.h"
#include "base/util.h"

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

/* A row's label is the name its run has at the recording's end (a run's
 * first sample may come before the event that starts it, its result comes
 * after its last): the one read writes each row without it into a spool
 * file beside OUT (spool.h), after "RUN PHASE " saying what the label
 * needs, and the copy into OUT puts the label in.  So the recording is
 * read (and every line checked) once, and the copy costs a memchr a row. */

/* The label of run i as the replay names it (source_replay_run_name): the
 * result's name, "run N" for a run only its events tell of, NULL past. */
static const char *run_label(const struct run_result *res, size_t nres, size_t runs, size_t i,
			     char *buf, size_t len)
{
	if (i < nres)
		return res[i].name;
	if (i >= runs)
		return NULL;
	snprintf(buf, len, "run %zu", i + 1);
	return buf;
}

/* The spooled rows into out with their labels: 0, or -1 (ferror). */
static int csv_unspool(FILE *sp, FILE *out, const struct run_result *res, size_t nres,
		       size_t runs)
{
	char *line = NULL, name[32];
	size_t cap = 0;
	ssize_t n;
	if (fflush(sp) == EOF || fseek(sp, 0, SEEK_SET) != 0)
		return -1;
	while ((n = getline(&line, &cap, sp)) > 0) {
		char *end;
		long run = strtol(line, &end, 10);
		long ph = strtol(end, &end, 10);
		char *row = end + 1;
		size_t len = (size_t)(line + n - row);
		if (*end != ' ' || len < 3 || memcmp(line + n - 3, ",,\n", 3)) {
			free(line);
			errno = EIO; /* cannot happen: the spool is ours */
			return -1;
		}
		/* csv_row's end for a run with a label (output.c) */
		const char *label =
		    run >= 0 ? run_label(res, nres, runs, (size_t)run, name, sizeof(name)) : NULL;
		fwrite(row, 1, len - 3, out);
		if (run >= 0 && label) {
			fprintf(out, "%ld,", run + 1);
			csv_field(out, label);
			fprintf(out, ",%s\n", phase_name((enum phase)ph));
		} else {
			fputs(",,\n", out);
		}
		if (ferror(out))
			break;
	}
	free(line);
	return ferror(sp) || ferror(out) ? -1 : 0;
}

/* OUT's content: the header, then the spooled rows with their labels;
 * spool_err, when the spool failed, is said as OUT's write error. */
struct csv_fill {
	FILE *sp;
	int spool_err;
	const struct run_result *res;
	size_t nres, runs;
};

static int csv_fill(FILE *f, void *ctx, char *err, size_t errlen)
{
	const struct csv_fill *c = ctx;
	(void)err, (void)errlen;
	csv_header(f);
	if (c->spool_err) {
		errno = c->spool_err;
		return -1;
	}
	return csv_unspool(c->sp, f, c->res, c->nres, c->runs) < 0 ? -1 : 0;
}

int export_csv_stream(const char *in, const char *out, char *warn, size_t warnlen, char *err,
		      size_t errlen)
{
	struct export_read x;
	if (export_read_open(&x, in, warn, warnlen, err, errlen) < 0) {
		export_read_close(&x);
		return EXPORT_INPUT;
	}
	size_t runs = 0;
	int rc = EXPORT_INPUT, werr = 0, r;
	struct csv_stream c;
	char dir[4096];
	spool_dir_of(out, dir, sizeof(dir));
	/* a directory that is not there: the input is still read first, and
	 * outfile_open says what is wrong with OUT */
	errno = 0;
	FILE *sp = spool_file(dir);
	if (!sp)
		werr = errno ? errno : EIO;
	memset(&c, 0, sizeof(c));
	c.f = sp;
	while ((r = export_read_next(&x, err, errlen)) > 0) {
		const struct record_item *it = x.it;
		if (it->kind == RECORD_SAMPLE) {
			const struct sample *s = &it->sample;
			if (werr)
				continue;
			fprintf(sp, "%d %d ", s->run, s->phase);
			export_csv_sample(&c, s, NULL);
			if (ferror(sp))
				werr = errno ? errno : EIO;
		} else if (it->kind == RECORD_EVENT) {
			if (it->event.run >= 0 && (size_t)it->event.run + 1 > runs)
				runs = (size_t)it->event.run + 1;
		}
	}
	if (r < 0 || export_read_end(&x, warn, warnlen, err, errlen) < 0)
		goto out;
	if (x.nres > runs)
		runs = x.nres;
	/* the spool has no name: a signal leaves nothing of it */
	struct csv_fill fill = {sp, werr, x.res, x.nres, runs};
	rc = export_write_file(out, "--export-csv", csv_fill, &fill, err, errlen);
out:
	if (sp)
		fclose(sp);
	export_read_close(&x);
	return rc;
}
