#include "output/metrics_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/openmetrics.h"
#include "base/util.h"

#define METRICS_EVERY_NS 1000000000ull

static void note(struct metrics_file *mf, const char *msg)
{
	if (mf->tee.next.note)
		mf->tee.next.note(mf->tee.next.ctx, msg);
}

/* The model as text into a new temporary file beside path (mf->tmp).  0
 * or -1 + err; no temporary file is left on -1. */
static int write_tmp(struct metrics_file *mf, char *err, size_t errlen)
{
	const char *slash = strrchr(mf->path, '/');
	size_t dl = slash ? (size_t)(slash - mf->path) + 1 : 0;
	char tmpl[PATH_MAX];
	if ((size_t)snprintf(tmpl, sizeof(tmpl), "%.*s.%s.XXXXXX", (int)dl, mf->path,
			     mf->path + dl) >= sizeof(tmpl))
		return errf(err, errlen, "--metrics-file %s: name too long", mf->path);
	int fd = ownfile_create_temp(&mf->tmp, tmpl);
	if (fd < 0)
		return errf(err, errlen, "--metrics-file %s: %s", mf->path, strerror(errno));
	FILE *f = fchmod(fd, 0644) == 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		int e = errno;
		close(fd);
		ownfile_remove(&mf->tmp);
		return errf(err, errlen, "--metrics-file %s: %s", mf->path, strerror(e));
	}
	const struct model *m = mf->model;
	struct om_input in = {
	    .ser = m->series,
	    .runs = m->log ? m->log->results : NULL,
	    .nruns = m->log ? m->log->nresults : 0,
	    .host = m->host,
	    .kernel = m->kernel,
	    .device = m->disk,
	    .mem_limit = m->log ? m->log->mem_limit : 0,
	    .disk_limit = m->log ? m->log->disk_limit : 0,
	    .page_size = sysconf(_SC_PAGESIZE),
	    .probe_reads = mf->probe_reads,
	    .probe_slow = mf->probe_slow,
	};
	errno = 0;
	int bad = om_write(f, &in, OM_TEXTFILE, NULL) < 0 || fflush(f) == EOF || ferror(f);
	int e = errno;
	if (fclose(f) == EOF && !bad) {
		bad = 1;
		e = errno;
	}
	if (bad) {
		ownfile_remove(&mf->tmp);
		return errf(err, errlen, "--metrics-file %s: write error: %s", mf->path,
			    strerror(e ? e : EIO));
	}
	return 0;
}

/* A new file in place of path: linked the first time (an existing path is
 * not replaced), put in place of our own after (ownfile_replace: only
 * while path is still ours).  -1 + err; lost set when path is not ours
 * any more. */
static int write_file(struct metrics_file *mf, char *err, size_t errlen)
{
	if (mf->cur.made && !ownfile_is_ours(&mf->cur)) {
		mf->lost = 1;
		return errf(err, errlen,
			    "--metrics-file %s: replaced or removed by someone else; no longer "
			    "written",
			    mf->path);
	}
	if (write_tmp(mf, err, errlen) < 0)
		return -1;
	if (!mf->cur.made) {
		if (ownfile_link(&mf->tmp, mf->path) != 0) {
			int e = errno;
			ownfile_remove(&mf->tmp);
			return e == EEXIST
				   ? errf(err, errlen,
					  "--metrics-file %s: already exists (use a new path)",
					  mf->path)
				   : errf(err, errlen, "--metrics-file %s: %s", mf->path,
					  strerror(e));
		}
		mf->cur = mf->tmp; /* the descriptor moves with it */
		memset(&mf->tmp, 0, sizeof(mf->tmp));
		return 0;
	}
	int rc = ownfile_replace(&mf->cur, &mf->tmp);
	if (rc == 0)
		return 0;
	int e = errno;
	ownfile_remove(&mf->tmp);
	if (rc == OWNFILE_NOT_OURS) {
		mf->lost = 1;
		return errf(err, errlen,
			    "--metrics-file %s: replaced or removed by someone else; no longer "
			    "written",
			    mf->path);
	}
	return errf(err, errlen, "--metrics-file %s: %s", mf->path, strerror(e));
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

int metrics_file_start(struct metrics_file *mf, const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) == 0)
		return errf(err, errlen, "--metrics-file %s: already exists (use a new path)",
			    path);
	mf->path = path;
	if (write_file(mf, err, errlen) < 0) {
		mf->path = NULL;
		return -1;
	}
	return 0;
}

void metrics_file_done(struct metrics_file *mf)
{
	ownfile_remove(&mf->tmp);
	ownfile_remove(&mf->cur); /* ours: stale values must not be served */
	mf->path = NULL;
}
