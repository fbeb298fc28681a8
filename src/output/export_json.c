#include "output/export_json.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "model/pagecache.h"
#include "output/results.h"
#include "model/sawtooth.h"
#include "model/stats.h"
#include "runs/strategy.h"
#include "model/sweep.h"
#include "base/version.h"

/* The format of the document: a new key is a new minor, not a new major. */
#define EXPORT_JSON_MAJOR 1

/* ---- values: null where unknown ----------------------------------------- */

static json_t *jnum(double v)
{
	return isnan(v) || isinf(v) ? json_null() : json_real(v);
}

static json_t *ju64(uint64_t v)
{
	return v > (uint64_t)INT64_MAX ? json_real((double)v) : json_integer((json_int_t)v);
}

/* 0 means "none": null */
static json_t *jlimit(uint64_t v)
{
	return v ? ju64(v) : json_null();
}

/* an exit code, null unknown (-1: no worker ran) */
static json_t *jcode(int code)
{
	return code >= 0 ? json_integer(code) : json_null();
}

static json_t *jstr(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

/* A probe quantile of n reads: ms, null when the reads do not tell it. */
static json_t *jquant(uint64_t ns, uint64_t n, double q)
{
	return probe_quantile_known(n, q) ? json_real((double)ns / 1e6) : json_null();
}

/* Sets o[k] = v (stolen); *bad once any set failed. */
static void put(json_t *o, const char *k, json_t *v, int *bad)
{
	if (!v || json_object_set_new(o, k, v) != 0)
		*bad = 1;
}

static void append(json_t *a, json_t *v, int *bad)
{
	if (!v || json_array_append_new(a, v) != 0)
		*bad = 1;
}

/* ---- one run, under the --results column names ------------------------- */

static json_t *run_probe(const struct probe_figures *p, int *bad)
{
	json_t *o = json_object();
	if (!o)
		return *bad = 1, NULL;
	put(o, "mode", json_string(p->mode), bad);
	put(o, "n", ju64(p->n), bad);
	put(o, "p50_ms", jquant(p->p50_ns, p->n, 0.50), bad);
	put(o, "p99_ms", jquant(p->p99_ns, p->n, 0.99), bad);
	put(o, "p999_ms", jquant(p->p999_ns, p->n, 0.999), bad);
	put(o, "max_ms", json_real((double)p->max_ns / 1e6), bad);
	put(o, "slow", ju64(p->slow), bad);
	put(o, "idle_p99_ms", jquant(p->idle_p99_ns, p->idle_n, 0.99), bad);
	put(o, "rise_ms", jnum(probe_figures_rise_ms(p)), bad);
	return o;
}

static json_t *run_json(const struct run_result *x, int *bad)
{
	json_t *o = json_object();
	if (!o)
		return *bad = 1, NULL;
	int nc = results_never_copied(x);
	put(o, "repeat", json_integer(x->repeat), bad);
	put(o, "ok", json_boolean(x->ok), bad);
	put(o, "exit_code", jcode(x->exit_code), bad);
	put(o, "elapsed_s", nc ? json_null() : jnum(x->elapsed_s), bad);
	put(o, "user_s", nc ? json_null() : jnum(x->user_s), bad);
	put(o, "sys_s", nc ? json_null() : jnum(x->sys_s), bad);
	put(o, "cpu_pct", nc ? json_null() : jnum(x->cpu_pct), bad);
	put(o, "majflt", json_integer(x->majflt), bad);
	put(o, "minflt", json_integer(x->minflt), bad);
	put(o, "inblock", json_integer(x->inblock), bad);
	put(o, "oublock", json_integer(x->oublock), bad);
	put(o, "bytes", ju64(x->bytes), bad);
	put(o, "mbs", nc ? json_null() : jnum(x->mbs), bad);
	put(o, "read_cv", jnum(x->read_cv), bad);
	put(o, "write_cv", jnum(x->write_cv), bad);
	put(o, "peak_active_file_kb", ju64(x->peak_active_file_kb), bad);
	put(o, "pgdeactivate", ju64(x->pgdeactivate), bad);
	put(o, "refault_file", ju64(x->refault_file), bad);
	put(o, "bursts", json_integer(x->bursts), bad);
	put(o, "verified", jstr(results_verified(x)), bad);
	put(o, "rd_at_burst", jnum(x->read_at_burst), bad);
	put(o, "read_ratio", nc ? json_null() : jnum(sawtooth_read_ratio(x)), bad);
	put(o, "dst_dirty_peak_kb", x->res_have ? ju64(x->res_dst_dirty_peak_kb) : json_null(),
	    bad);
	put(o, "src_cached_end_pct",
	    x->res_have ? jnum(pagecache_src_cached_end_pct(x)) : json_null(), bad);
	put(o, "recently_evicted_end", x->res_have ? ju64(x->res_recent_end) : json_null(), bad);
	put(o, "probe", x->probe.n ? run_probe(&x->probe, bad) : json_null(), bad);
	put(o, "message", jstr(x->message), bad);
	return o;
}

/* ---- one strategy: hyperfine's keys, then lrutop's ---------------------- */

static json_t *stats_probe(const struct strategy_stats *s, int *bad)
{
	json_t *o = json_object();
	if (!o)
		return *bad = 1, NULL;
	put(o, "mode", json_string(s->probe_mode), bad);
	put(o, "runs", json_integer(s->probe_runs), bad);
	put(o, "n", jnum(s->probe_n), bad);
	put(o, "p50_ms", jnum(s->probe_p50), bad);
	put(o, "p99_ms", jnum(s->probe_p99), bad);
	put(o, "p999_ms", jnum(s->probe_p999), bad);
	put(o, "max_ms", jnum(s->probe_max), bad);
	put(o, "slow", jnum(s->probe_slow), bad);
	put(o, "idle_p99_ms", jnum(s->probe_idle_p99), bad);
	put(o, "rise_ms", jnum(s->probe_rise), bad);
	return o;
}

/* --sweep: {"param": "bs", "value": 65536} (--results's sweep column) */
static json_t *sweep_json(const struct run_setting *set, int *bad)
{
	json_t *o = json_object();
	if (!o)
		return *bad = 1, NULL;
	put(o, "param", json_string(sweep_param_name(set->param)), bad);
	put(o, "value", ju64(set->value), bad);
	return o;
}

static json_t *result_json(const struct export_side *sd, int rec, const struct strategy_stats *s,
			   int by_base, int *bad)
{
	json_t *o = json_object(), *times = json_array(), *codes = json_array(),
	       *runs = json_array();
	if (!o || !times || !codes || !runs) {
		json_decref(o), json_decref(times), json_decref(codes), json_decref(runs);
		return *bad = 1, NULL;
	}
	struct export_spread sp;
	export_spread_of(sd->runs, sd->nruns, s->name, &sp);
	for (size_t i = 0; i < sd->nruns; i++) {
		const struct run_result *x = &sd->runs[i];
		if (!x->finished || strcmp(x->name, s->name))
			continue;
		if (export_timed(x, s->name)) { /* hyperfine -i: failed runs too */
			append(times, json_real(x->elapsed_s), bad);
			append(codes, jcode(x->exit_code), bad);
		}
		append(runs, run_json(x, bad), bad);
	}
	if (sd->label) { /* "A rw_cp": the same strategy in two recordings stays two */
		char cmd[COMPARE_LABEL_MAX + 40];
		snprintf(cmd, sizeof(cmd), "%c %s", 'A' + rec, s->name);
		put(o, "command", json_string(cmd), bad);
	} else {
		put(o, "command", json_string(s->name), bad);
	}
	put(o, "mean", jnum(sp.mean), bad);
	put(o, "stddev", jnum(sp.stddev), bad);
	put(o, "median", jnum(sp.median), bad);
	put(o, "user", jnum(sp.user), bad);
	put(o, "system", jnum(sp.sys), bad);
	put(o, "min", jnum(sp.min), bad);
	put(o, "max", jnum(sp.max), bad);
	put(o, "times", times, bad);
	put(o, "exit_codes", codes, bad);
	/* lrutop's */
	put(o, "name", json_string(s->name), bad);
	if (sd->label)
		put(o, "recording", json_integer(rec), bad);
	put(o, "strategy", s->strategy[0] ? json_string(s->strategy) : json_null(), bad);
	put(o, "n_runs", json_integer(s->runs), bad);
	put(o, "n_ok", json_integer(s->ok), bad);
	put(o, "relative", jnum(by_base ? s->ratio_base : s->ratio), bad);
	put(o, "relative_to", json_string(by_base ? "baseline" : "fastest"), bad);
	put(o, "baseline", json_boolean(s->baseline && s->ok), bad);
	put(o, "fastest", json_boolean(s->fastest), bad);
	put(o, "noisy", json_boolean(s->noisy), bad);
	put(o, "mbs_median", jnum(s->mbs_med), bad);
	put(o, "mbs_min", jnum(s->mbs_min), bad);
	put(o, "mbs_max", jnum(s->mbs_max), bad);
	put(o, "bursts", jnum(s->bursts_med), bad);
	put(o, "read_cv", jnum(s->read_cv_med), bad);
	put(o, "write_cv", jnum(s->write_cv_med), bad);
	put(o, "rd_at_burst", jnum(s->read_at_burst_med), bad);
	put(o, "read_ratio", jnum(s->read_ratio_med), bad);
	put(o, "peak_active_file_kb", jnum(s->peak_af_med), bad);
	put(o, "refault_file", jnum(s->refault_med), bad);
	put(o, "majflt", jnum(s->majflt_med), bad);
	put(o, "minflt", jnum(s->minflt_med), bad);
	put(o, "dst_dirty_peak_kb", jnum(s->res_dirty_med), bad);
	put(o, "src_cached_end_pct", jnum(s->res_src_cached_med), bad);
	put(o, "recently_evicted_end", jnum(s->res_recent_med), bad);
	put(o, "probe", s->probe_runs ? stats_probe(s, bad) : json_null(), bad);
	/* this strategy's runs' own: a sweep's value, not the session's one */
	struct run_setting set;
	export_setting_of(sd, s->name, &set);
	put(o, "mem_limit_bytes", jlimit(set.mem_limit), bad);
	put(o, "disk_limit_bytes_per_s", jlimit(set.disk_limit), bad);
	put(o, "sweep", set.param ? sweep_json(&set, bad) : json_null(), bad);
	put(o, "runs", runs, bad);
	return o;
}

static json_t *machine_json(const struct export_side *sd, int *bad)
{
	json_t *o = json_object();
	if (!o)
		return *bad = 1, NULL;
	put(o, "host", jstr(sd->host), bad);
	put(o, "kernel", jstr(sd->kernel), bad);
	put(o, "disk", jstr(sd->disk), bad);
	put(o, "disk_kind", jstr(sd->disk_kind), bad);
	put(o, "mglru", json_boolean(sd->mglru), bad);
	put(o, "recording_file", jstr(sd->path), bad);
	put(o, "started", jstr(sd->started), bad);
	return o;
}

/* Every strategy of one side into results. */
static void side_results(json_t *results, const struct export_side *sd, int rec, int *bad)
{
	struct strategy_stats *st = calloc(RUNLOG_MAX_STRATEGIES, sizeof(*st));
	if (!st) {
		*bad = 1;
		return;
	}
	int ns = stats_compute(sd->runs, sd->nruns, sd->baseline, st, RUNLOG_MAX_STRATEGIES);
	int by_base = stats_by_base(st, ns);
	for (int j = 0; j < ns && !*bad; j++)
		append(results, result_json(sd, rec, &st[j], by_base, bad), bad);
	free(st);
}

/* ---- a comparison: the ratios -------------------------------------------- */

static const char *const verdict_key[] = {
    [COMPARE_NONE] = NULL,	 [COMPARE_NO_CI] = "no_ci",   [COMPARE_SAME] = "same",
    [COMPARE_SLOWER] = "slower", [COMPARE_FASTER] = "faster",
};

static json_t *differences_json(const struct compare *c, int *bad)
{
	json_t *a = json_array();
	if (!a)
		return *bad = 1, NULL;
	for (int i = 0; i < c->nrows && !*bad; i++) {
		const struct compare_row *w = &c->rows[i];
		for (int r = 1; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			json_t *o = json_object();
			if (!o) {
				*bad = 1;
				break;
			}
			char vs[8];
			snprintf(vs, sizeof(vs), "%c/A", 'A' + r);
			put(o, "command", json_string(w->name), bad);
			put(o, "vs", json_string(vs), bad);
			put(o, "ok_a", json_integer(w->cell[0].ok), bad);
			put(o, "ok", json_integer(e->ok), bad);
			put(o, "ratio", jnum(e->ratio), bad);
			put(o, "ci_lo", jnum(e->ci_lo), bad);
			put(o, "ci_hi", jnum(e->ci_hi), bad);
			put(o, "p", jnum(e->p), bad);
			put(o, "p_exact", json_boolean(e->p_exact), bad);
			put(o, "verdict", jstr(verdict_key[e->verdict]), bad);
			put(o, "probe_p99_ratio", jnum(e->probe_ratio), bad);
			put(o, "probe_ci_lo", jnum(e->probe_lo), bad);
			put(o, "probe_ci_hi", jnum(e->probe_hi), bad);
			append(a, o, bad);
		}
	}
	return a;
}

char *export_json_text(const struct export_side *sides, int n, const struct compare *c, size_t *len)
{
	int bad = 0;
	json_t *doc = json_object(), *results = json_array();
	if (!doc || !results) {
		json_decref(doc), json_decref(results);
		return NULL;
	}
	put(doc, "lrutop_results", json_integer(EXPORT_JSON_MAJOR), &bad);
	put(doc, "lrutop", json_string(LRUTOP_VERSION), &bad);
	for (int i = 0; i < n && !bad; i++)
		side_results(results, &sides[i], i, &bad);
	put(doc, "results", results, &bad);
	if (c) {
		json_t *recs = json_array();
		put(doc, "recordings", recs, &bad);
		for (int i = 0; recs && i < n && !bad; i++) {
			json_t *o = json_object();
			put(o, "label", json_string(c->label[i]), &bad);
			put(o, "machine", machine_json(&sides[i], &bad), &bad);
			append(recs, o, &bad);
		}
		put(doc, "differences", differences_json(c, &bad), &bad);
	} else if (n > 0) {
		put(doc, "machine", machine_json(&sides[0], &bad), &bad);
	}
	char *text = bad ? NULL : json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(doc);
	if (!text)
		return NULL;
	size_t l = strlen(text);
	char *out = realloc(text, l + 2);
	if (!out) {
		free(text);
		return NULL;
	}
	out[l] = '\n';
	out[l + 1] = '\0';
	*len = l + 1;
	return out;
}
