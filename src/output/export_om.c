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
#include "base/util.h"

/* OUT's content: the families om_stream kept (a signal stops it); a
 * row's file that failed is said as OUT's write error, a stream that
 * could not be made in its own words. */
struct om_fill {
	struct om_stream *x;
	int werr;
	const char *what, *why;
};

static int om_fill(FILE *f, void *ctx, char *err, size_t errlen)
{
	const struct om_fill *c = ctx;
	if (!c->x) {
		errf(err, errlen, "%s %s", c->what, c->why);
		return -2;
	}
	if (c->werr) {
		errno = c->werr;
		return -1;
	}
	return om_stream_finish(c->x, f, sig_caught);
}

int om_export_stream(const char *inp, const char *out, const struct record_argv_parser *ap,
		     char *warn, size_t warnlen, char *err, size_t errlen)
{
	const char *what = "--export-openmetrics";
	struct export_read rd;
	if (export_read_open(&rd, inp, warn, warnlen, err, errlen) < 0) {
		export_read_close(&rd);
		return EXPORT_INPUT;
	}
	const struct record_header *h = recording_header(rd.rec);
	struct runlog *log = runlog_new();
	size_t nev = 0;
	uint64_t cg_limit = 0;
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
	int rc = EXPORT_INPUT, werr = 0, r;
	while ((r = export_read_next(&rd, err, errlen)) > 0) {
		const struct record_item *it = rd.it;
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
		} else if (it->kind == RECORD_RESULT && log->nresults < RUNLOG_MAX_RUNS) {
			log->results[log->nresults++] = it->result;
		}
	}
	if (r < 0 || export_read_end(&rd, warn, warnlen, err, errlen) < 0)
		goto out;
	if (in.wall0_s < 0) {
		errf(err, errlen, "%s %s: the recording's start_wall \"%s\" is not a time", what,
		     inp, h->start_wall);
		goto out;
	}
	struct record_config cfg;
	record_config_resolve(h, ap, &cfg);
	/* every result, for the limits (as the replay's) */
	source_replay_setup(log, &cfg, rd.res, rd.nres, cg_limit);
	in.runs = log->results;
	in.nruns = log->nresults;
	in.mem_limit = log->mem_limit;
	in.disk_limit = log->disk_limit;
	/* the rows' files have no names: a signal leaves nothing of them */
	struct om_fill fill = {x, werr, what, terr};
	rc = export_write_file(out, what, om_fill, &fill, err, errlen);
out:
	om_stream_free(x);
	runlog_free(log);
	export_read_close(&rd);
	return rc;
}
