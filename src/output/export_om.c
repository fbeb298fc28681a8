/* --export-openmetrics: the reader into om_stream, then OUT (openmetrics.h's
 * om_export_stream).  Apart from openmetrics.c, which only turns samples
 * into text (its fuzz target links it alone). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "output/export.h"
#include "output/openmetrics.h"
#include "recording/record.h"
#include "source/source.h"
#include "recording/spool.h"
#include "base/outfile.h"
#include "base/util.h"

int om_export_stream(const char *inp, const char *out, const struct record_argv_parser *ap,
		     char *warn, size_t warnlen, char *err, size_t errlen)
{
	const char *what = "--export-openmetrics";
	if (warnlen)
		warn[0] = '\0';
	struct recording *rec = recording_open(inp, err, errlen);
	if (!rec)
		return EXPORT_INPUT;
	recording_read_ahead(rec, recording_read_threads());
	const struct record_header *h = recording_header(rec);
	struct runlog *log = runlog_new();
	struct record_item *it = xmalloc(sizeof(*it));
	struct run_result *res = NULL; /* every result, for the limits (as the replay's) */
	size_t nres = 0, cap = 0, nev = 0, n = 0;
	uint64_t last_t = 0, cg_limit = 0;
	struct om_input in = {
	    .host = h->host,
	    .session = h->start_wall, /* the session's start (record.h) */
	    .kernel = h->kernel,
	    .device = h->device,
	    .page_size = h->page_size,
	    .wall0_s = om_wall_parse(h->start_wall),
	    .mono0_ns = h->start_mono_ns,
	};
	char dir[4096], terr[600] = "";
	spool_dir_of(out, dir, sizeof(dir));
	/* a directory that is not there: the input is still read first, and
	 * outfile_open says what is wrong with OUT */
	struct om_stream *x = in.wall0_s >= 0 ? om_stream_new(dir, &in, terr, sizeof(terr)) : NULL;
	int rc = EXPORT_INPUT, werr = 0;
	struct outfile o = {0};
	for (;;) {
		int r = export_next(rec, it, inp, &last_t, &n, err, errlen);
		if (r < 0)
			goto out;
		if (r == 0)
			break;
		if (it->kind == RECORD_SAMPLE) {
			const struct sample *s = &it->sample;
			if ((s->have & SAMPLE_HAVE_CG) && !cg_limit && s->cg_limit < (1ull << 60))
				cg_limit = s->cg_limit;
			errno = 0;
			if (x && !werr && om_stream_sample(x, s) < 0)
				werr = errno ? errno : EIO;
		} else if (it->kind == RECORD_EVENT) {
			/* the replay's run log: an event after its run's result
			 * gives it a start it lacks (source_replay.c deliver) */
			const struct run_event *e = &it->event;
			if (e->run >= 0 && e->run < RUNLOG_MAX_RUNS && nev++ < RUNLOG_MAX_EVENTS &&
			    (size_t)e->run < log->nresults && !log->results[e->run].t_start_ns)
				log->results[e->run].t_start_ns = e->t_ns;
		} else if (it->kind == RECORD_RESULT) {
			if (nres == cap) {
				cap = cap ? 2 * cap : 64;
				res = xrealloc(res, cap * sizeof(*res));
			}
			res[nres++] = it->result;
			if (log->nresults < RUNLOG_MAX_RUNS)
				log->results[log->nresults++] = it->result;
		}
	}
	if (!n) {
		errf(err, errlen, "%s: no samples in the recording", inp);
		goto out;
	}
	const char *w = recording_warning(rec);
	if (w && warnlen)
		strlcpy_(warn, w, warnlen);
	if (in.wall0_s < 0) {
		errf(err, errlen, "%s %s: the recording's start_wall \"%s\" is not a time", what,
		     inp, h->start_wall);
		goto out;
	}
	struct record_config cfg;
	record_config_resolve(h, ap, &cfg);
	source_replay_setup(log, &cfg, res, nres, cg_limit);
	in.runs = log->results;
	in.nruns = log->nresults;
	in.mem_limit = log->mem_limit;
	in.disk_limit = log->disk_limit;
	if (sig_caught()) {
		errf(err, errlen, "interrupted");
		rc = EXPORT_INTERRUPTED;
		goto out;
	}
	/* from the temporary file's making to its link or removal a signal is
	 * only noted (main.c's export_signal _exits otherwise; the rows'
	 * files have no names) */
	sig_hold(1);
	if (outfile_open(&o, out, what, OUTFILE_WHOLE, err, errlen) < 0)
		goto out;
	if (!x || werr) {
		if (x)
			outfile_write_error(&o, werr, err, errlen);
		else
			errf(err, errlen, "%s %s", what, terr);
		rc = EXPORT_WRITE;
		goto out;
	}
	errno = 0;
	int wr = om_stream_finish(x, o.f, sig_caught);
	if (wr == 0 && outfile_flush(&o, err, errlen) < 0)
		wr = -1;
	if (wr < 0)
		outfile_write_error(&o, errno, err, errlen); /* said once */
	if (wr || sig_caught()) {
		rc = wr < 0 ? EXPORT_WRITE : EXPORT_INTERRUPTED;
		if (wr >= 0)
			errf(err, errlen, "interrupted");
	} else {
		rc = outfile_close(&o, err, errlen) < 0 ? EXPORT_WRITE : 0;
	}
out:
	outfile_discard(&o); /* the temporary file, when it is left */
	sig_release(rc == 0);
	om_stream_free(x);
	free(res);
	free(it);
	runlog_free(log);
	recording_close(rec);
	return rc;
}
