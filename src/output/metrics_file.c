#include "output/metrics_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output/openmetrics.h"
#include "base/util.h"

#define METRICS_EVERY_NS 1000000000ull

static void note(struct metrics_file *mf, const char *msg)
{
	if (mf->tee.next.note)
		mf->tee.next.note(mf->tee.next.ctx, msg);
}

/* The model as text into a whole new file in place of PATH (outfile.h,
 * OUTFILE_REPLACE: linked the first time, an existing PATH refused; after
 * that in place of our own, only while PATH is still it); mf->ended: the
 * file left at exit.  -1 + err; lost set when PATH is not ours any more. */
static int write_file(struct metrics_file *mf, char *err, size_t errlen)
{
	int rc = outfile_open(&mf->out, mf->path, "--metrics-file", OUTFILE_REPLACE, err, errlen);
	if (rc == 0) {
		const struct model *m = mf->model;
		struct om_input in = {
		    .ser = m->series,
		    .runs = m->log ? m->log->results : NULL,
		    .nruns = m->log ? m->log->nresults : 0,
		    .host = m->host,
		    .session = mf->session,
		    .kernel = m->kernel,
		    .device = m->disk,
		    .mem_limit = m->log ? m->log->mem_limit : 0,
		    .disk_limit = m->log ? m->log->disk_limit : 0,
		    .page_size = sysconf(_SC_PAGESIZE),
		    .probe_reads = mf->probe_reads,
		    .probe_slow = mf->probe_slow,
		    .ended = mf->ended,
		};
		errno = 0;
		if (om_write(mf->out.f, &in, OM_TEXTFILE, NULL) < 0)
			outfile_write_error(&mf->out, errno, err, errlen);
		/* after a failure: only the temporary file goes */
		rc = outfile_close(&mf->out, err, errlen);
	}
	if (rc == OWNFILE_NOT_OURS) {
		mf->lost = 1;
		return errf(err, errlen,
			    "--metrics-file %s: replaced or removed by someone else; no longer "
			    "written",
			    mf->path);
	}
	return rc;
}

/* Each second (and after a run's end), from the model the next sink has
 * just updated; a failure is said once, then retried quietly. */
static void tick(struct metrics_file *mf, uint64_t t_ns)
{
	if (!mf->path || mf->lost)
		return;
	if (!mf->due && mf->last_ns && t_ns - mf->last_ns < METRICS_EVERY_NS)
		return;
	mf->due = 0;
	mf->last_ns = t_ns ? t_ns : 1;
	char err[600];
	if (write_file(mf, err, sizeof(err)) < 0) {
		if (!mf->failing || mf->lost) {
			strlcpy_(mf->error, err, sizeof(mf->error));
			mf->errors++;
			note(mf, err);
		}
		mf->failing = 1;
		return;
	}
	mf->failing = 0;
}

/* What the metrics file takes of each item once the next sink (the app,
 * whose model it writes out) has it. */
static void mf_sample(void *ctx, const struct sample *s, const struct disktab *t)
{
	struct metrics_file *mf = ctx;
	(void)t;
	if (s->have & SAMPLE_HAVE_PROBE) {
		mf->probe_reads += s->probe_n;
		mf->probe_slow += s->probe_slow;
	}
	tick(mf, s->t_ns);
}

static void mf_result(void *ctx, const struct run_result *r)
{
	struct metrics_file *mf = ctx;
	(void)r;
	mf->due = 1;
}

void metrics_file_init(struct metrics_file *mf, const struct model *model,
		       const struct source_sink *next, struct source_sink *out)
{
	memset(mf, 0, sizeof(*mf));
	mf->model = model;
	const struct source_sink after = {
	    .ctx = mf,
	    .sample = mf_sample,
	    .result = mf_result,
	};
	sink_tee_init(&mf->tee, NULL, next, &after, out);
}

int metrics_file_start(struct metrics_file *mf, const char *path, const char *session, char *err,
		       size_t errlen)
{
	mf->path = path;
	mf->session = session;
	if (write_file(mf, err, errlen) < 0) {
		mf->path = NULL;
		return -1;
	}
	return 0;
}

int metrics_file_finish(struct metrics_file *mf, int remove, char *err, size_t errlen)
{
	if (!mf->path)
		return 0;
	int rc = 0;
	if (!remove && !mf->lost) {
		mf->ended = 1;
		rc = write_file(mf, err, errlen);
		if (rc < 0 && !mf->lost) { /* the last file says up 1: it must not stay */
			size_t l = strlen(err);
			snprintf(err + l, errlen > l ? errlen - l : 0, "; removed at exit");
		}
	}
	if (rc == 0 && !remove)
		outfile_forget(&mf->out); /* the file stays, the user's now */
	metrics_file_done(mf);
	return rc;
}

void metrics_file_done(struct metrics_file *mf)
{
	outfile_discard(&mf->out); /* PATH, if still ours, and the temporary file */
	mf->path = NULL;
}
