#include "output/export_results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output/export.h"
#include "output/export_json.h"
#include "output/export_markdown.h"
#include "output/output.h"
#include "output/results.h"
#include "model/stats.h"
#include "base/util.h"

int export_timed(const struct run_result *r, const char *name)
{
	return r->finished && !r->cancelled && !results_never_copied(r) && !strcmp(r->name, name);
}

void export_spread_of(const struct run_result *runs, size_t n, const char *name,
		      struct export_spread *out)
{
	double sum = 0, su = 0, ss = 0;
	double *t = malloc((n ? n : 1) * sizeof(*t));
	size_t k = 0;
	*out = (struct export_spread){NAN, NAN, NAN, NAN, NAN, NAN, NAN, 0};
	for (size_t i = 0; t && i < n; i++)
		if (export_timed(&runs[i], name)) {
			sum += runs[i].elapsed_s;
			su += runs[i].user_s;
			ss += runs[i].sys_s;
			t[k++] = runs[i].elapsed_s;
		}
	if (!k) {
		free(t);
		return;
	}
	out->n = k;
	out->mean = sum / (double)k;
	out->user = su / (double)k;
	out->sys = ss / (double)k;
	double var = 0;
	for (size_t i = 0; i < k; i++)
		var += (t[i] - out->mean) * (t[i] - out->mean);
	if (k >= 2)
		out->stddev = sqrt(var / (double)(k - 1));
	out->median = stats_median(t, k); /* sorts t */
	out->min = t[0];
	out->max = t[k - 1];
	free(t);
}

void export_setting_of(const struct export_side *sd, const char *name, struct run_setting *out)
{
	static const struct run_result none;
	const struct run_result *r = &none;
	for (size_t i = 0; i < sd->nruns; i++)
		if (sd->runs[i].finished && !strcmp(sd->runs[i].name, name)) {
			r = &sd->runs[i];
			break;
		}
	sweep_run_setting(r, sd->mem_limit, sd->disk_limit, out);
}

int export_results_check(const char *json, const char *md, const char *const others[3], char *err,
			 size_t errlen)
{
	const char *mine[2] = {json, md};
	static const char *const my_opt[2] = {"--export-json", "--export-markdown"};
	static const char *const other_opt[3] = {"--results", "--csv", "--record"};
	for (int i = 0; i < 2; i++) {
		struct stat st;
		if (!mine[i])
			continue;
		if (lstat(mine[i], &st) == 0)
			return errf(err, errlen, "%s %s: already exists (use a new path)",
				    my_opt[i], mine[i]);
		for (int k = 0; others && k < 3; k++)
			if (others[k] && output_same_file(mine[i], others[k]))
				return errf(err, errlen,
					    "%s %s and %s: the same file (give two paths)",
					    my_opt[i], mine[i], other_opt[k]);
	}
	if (json && md && output_same_file(json, md))
		return errf(err, errlen,
			    "--export-json %s and --export-markdown %s: the same file (give two "
			    "paths)",
			    json, md);
	return 0;
}

int export_results_save(const char *json, const char *md, const struct export_side *sides, int n,
			const struct compare *c, char *err, size_t errlen)
{
	char *jtext = NULL, *mtext = NULL;
	size_t jlen = 0, mlen = 0;
	int rc = EXPORT_INPUT;
	/* both made in memory first: a failure leaves neither file */
	if (json && !(jtext = export_json_text(sides, n, c, &jlen))) {
		errf(err, errlen, "--export-json %s: could not make the JSON (out of memory?)",
		     json);
		goto out;
	}
	if (md) {
		FILE *f = open_memstream(&mtext, &mlen);
		if (!f) {
			errf(err, errlen, "--export-markdown %s: %s", md, strerror(errno));
			goto out;
		}
		int bad = export_markdown_write(f, sides, n, c) < 0;
		if (fclose(f) == EOF || bad) {
			errf(err, errlen, "--export-markdown %s: could not make the tables", md);
			goto out;
		}
	}
	rc = json ? export_write_new(json, "--export-json", jtext, jlen, err, errlen) : 0;
	if (rc == 0 && md)
		rc = export_write_new(md, "--export-markdown", mtext, mlen, err, errlen);
out:
	free(jtext);
	free(mtext);
	return rc;
}
