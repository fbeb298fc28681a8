/*
 * options_check — the checks between options (options_impl.h): after the
 * parse loop has given every option to its handler, what the whole
 * command line says — an export and what goes with it, --size as bytes or
 * pixels, --sweep beside the option it sweeps, options one of which would
 * make the other moot — and, after --demo and the batch decision, run
 * options with nothing to run (options_check_runs).  One place, so a rule
 * between two options is written once.
 */
#include "app/options_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/glyphs.h"
#include "recording/record.h"
#include "base/util.h"

/* --size WIDTHxHEIGHT of --export-svg, pixels: what svg_write draws, 320 to
 * 16384 wide, 240 to 16384 high. */
static int parse_wxh(const char *s, int *w, int *h, char *err, size_t errlen)
{
	char *end;
	errno = 0;
	long lw = (*s >= '0' && *s <= '9') ? strtol(s, &end, 10) : -1;
	long lh = -1;
	if (lw >= 0 && !errno && (*end == 'x' || *end == 'X') && end[1] >= '0' && end[1] <= '9') {
		const char *hs = end + 1;
		lh = strtol(hs, &end, 10);
		if (errno || *end)
			lh = -1;
	}
	if (lw < 0 || lh < 0)
		return errf(err, errlen, "--size %s: not WIDTHxHEIGHT in pixels (e.g. 1920x1080)",
			    s);
	if (lw < 320 || lw > 16384 || lh < 240 || lh > 16384)
		return errf(err, errlen, "--size %s: out of range (320x240 to 16384x16384 pixels)",
			    s);
	*w = (int)lw;
	*h = (int)lh;
	return 0;
}

/* After the loop: the export action's own checks.  pos: the arguments that
 * were not options. */
static int export_check(struct options_pass *p, char **pos, int npos)
{
	struct options *o = p->o;
	int action = p->exp_action;
	const char *name = p->exp_name, *other = p->other, *svg = p->svg;
	if (!action) {
		if (svg[0])
			return ERR(p, "%s: only with --export-svg", svg);
		if (npos)
			return ERR(p, "%s: unexpected argument (see --help)", pos[0]);
		return 0;
	}
	if (other[0])
		return ERR(p, "%s: %s does not go with it", name, other);
	/* -t colours a picture or the TUI's --compare; a CSV or a metrics
	 * text would ignore it */
	if ((action == OPTA_EXPORT_CSV || action == OPTA_EXPORT_OPENMETRICS) && o->theme)
		return ERR(p, "%s: -t does not go with it (no colours)", name);
	if (action != OPTA_EXPORT_SVG && (svg[0] || p->size_arg))
		return ERR(p, "%s: only with --export-svg", svg[0] ? svg : "--size");
	if (action == OPTA_COMPARE) {
		if (npos < 1)
			return ERR(p,
				   "--compare %s: needs at least two recordings "
				   "(--compare A B [C...])",
				   o->inputs[0]);
		if (npos + 1 > OPTIONS_MAX_INPUTS)
			return ERR(p, "--compare: at most %d recordings", OPTIONS_MAX_INPUTS);
		for (int i = 0; i < npos; i++)
			o->inputs[o->ninputs++] = pos[i];
	} else {
		if (npos < 1)
			return ERR(p, "%s %s: needs the recording to read (%s OUT FILE)", name,
				   o->export_out, name);
		if (npos > 1)
			return ERR(p, "%s: unexpected argument (%s OUT FILE takes one recording)",
				   pos[1], name);
		o->inputs[o->ninputs++] = pos[0];
	}
	for (int i = 0; i < o->ninputs; i++)
		if (!*o->inputs[i])
			return ERR(p, "%s: empty file name", name);
	if (action == OPTA_EXPORT_SVG) {
		if (p->size_arg &&
		    parse_wxh(p->size_arg, &o->svg_w, &o->svg_h, p->err, p->errlen) < 0)
			return -1;
		if (o->run && (o->from_s >= 0 || o->to_s >= 0))
			return ERR(p,
				   "--run %ld: not with --from/--to (a run is its own time range)",
				   o->run);
		/* the sweep picture draws every run's result: no run of it alone */
		if (o->svg_runs == 2 && o->run)
			return ERR(p,
				   "--run %ld: not with --view sweep (the sweep picture draws "
				   "every run)",
				   o->run);
		if (o->svg_runs && (o->from_s >= 0 || o->to_s >= 0))
			return ERR(p, "%s: only for the Overview (%s)",
				   o->from_s >= 0 ? "--from" : "--to",
				   o->svg_runs == 2 ? "the sweep picture draws every run"
						    : "the Runs view takes --run N");
		if (o->from_s >= 0 && o->to_s >= 0 && o->to_s <= o->from_s)
			return ERR(p, "--to %g: not after --from %g", o->to_s, o->from_s);
	}
	/* the results of runs: a comparison's, not a picture's or a series' */
	if (action != OPTA_COMPARE && (o->export_json || o->export_md))
		return ERR(p, "%s: not with %s (a batch run, --replay or --compare)",
			   o->export_json ? "--export-json" : "--export-markdown", name);
	if (action == OPTA_COMPARE && (o->export_json || o->export_md))
		o->batch = 1; /* the files, and the tables on stdout */
	if (o->action == OPTA_RUN)
		o->action = action;
	return 0;
}

/* The row getopt takes the long option NAME ("--bs") from, NULL if none. */
static const struct options_entry *row_named(const char *name)
{
	size_t n;
	const struct options_entry *t = options_table(&n);
	for (size_t i = 0; i < n; i++)
		if (t[i].set && t[i].name && !strcmp(t[i].name, name))
			return &t[i];
	return NULL;
}

/* --sweep beside the options it sweeps: a parameter's name is its
 * option's (sweep_param_name "bs", --bs), so one rule holds for each, and
 * a value given beside the sweep is never ignored. */
static int sweep_check(struct options_pass *p)
{
	const struct sweep_spec *sw = &p->o->sweep;
	if (sw->until.set && !sw->param)
		return ERR(p, "--sweep-until: only with --sweep PARAM=...");
	if (sw->until.set && sw->n < 2)
		return ERR(p, "--sweep-until: the sweep needs two values at least");
	if (!sw->param)
		return 0;
	const char *name = sweep_param_name(sw->param);
	char opt[32];
	snprintf(opt, sizeof(opt), "--%s", name);
	const struct options_entry *e = row_named(opt);
	if (!e) /* test_options_table holds every parameter to a row */
		return ERR(p, "--sweep %s: no option of that name", name);
	size_t n;
	if (p->given[e - options_table(&n)])
		return ERR(p, "--sweep %s: not with %s too (the sweep sets it)", name, opt);
	if (sw->param == SWEEP_SIZE && p->o->src)
		return ERR(p, "--sweep size: not with --src (the scratch source is made "
			      "at each size)");
	return 0;
}

/* All the checks that need the whole command line, in one place. */
int options_validate(struct options_pass *p, char **pos, int npos)
{
	struct options *o = p->o;
	int w, h;
	if (export_check(p, pos, npos) < 0)
		return -1;
	if (!p->exp_action && p->size_arg && strpbrk(p->size_arg, "xX") &&
	    parse_wxh(p->size_arg, &w, &h, NULL, 0) == 0)
		return ERR(p,
			   "--size %s: a picture's size, only with --export-svg (a run's "
			   "--size is a file size, e.g. 512M)",
			   p->size_arg);
	if (!p->exp_action && p->size_arg &&
	    parse_size_arg("--size", p->size_arg, &o->size, p->err, p->errlen) < 0)
		return -1;
	if (sweep_check(p) < 0)
		return -1;
	/* options one of which the other would silently make moot */
	if (!p->exp_action && p->size_arg && o->src)
		return ERR(p, "--size %s: not with --src (the copy is of FILE, at its own size)",
			   p->size_arg);
	if (o->ascii && o->glyphs >= 0 && o->glyphs != CHART_ASCII)
		return ERR(p, "--glyphs %s: not with --ascii (its charts are ASCII)",
			   glyphs_name(o->glyphs));
	if (o->replay && o->live_opt)
		return ERR(p, "%s: not with --replay (the recording holds the run)", o->live_opt);
	if (o->follow && o->replay)
		return ERR(p, "--follow: not with --replay (one recording at a time)");
	if (o->follow && o->live_opt)
		return ERR(p, "%s: not with --follow (the writer's command line holds the run)",
			   o->live_opt);
	if (o->rehearse && !o->talk)
		return ERR(p, "--rehearse: only with --talk FILE");
	if (!o->replay && (o->replay_at > 0 || o->speed > 0))
		return ERR(p, "%s: only with --replay FILE",
			   o->speed > 0 ? "--speed" : "--replay-at");
	return 0;
}

int options_check_runs(const struct options *o, char *err, size_t errlen)
{
	/* the TUI's end prints the tables whole: -q would leave nothing out */
	if (o->quiet && !o->batch)
		return errf(err, errlen,
			    "-q: only in batch mode (--batch, or stdout not a terminal)");
	/* written when the batch ends (main checks the paths: export_results.h) */
	if ((o->export_json || o->export_md) && !o->batch)
		return errf(err, errlen,
			    "%s: only with --batch (the TUI's runs: --results writes them)",
			    o->export_json ? "--export-json" : "--export-markdown");
	/* the recording on stdout, where the TUI draws */
	if (record_path_stdout(o->record) && !o->batch)
		return errf(err, errlen,
			    "--record -: standard output is the TUI's terminal (use --batch, with "
			    "stdout a pipe or a file)");
	if (o->nnames > o->ncmds)
		return errf(err, errlen,
			    "--name %s: no --cmd for it to name (the i-th --name "
			    "labels the i-th --cmd)",
			    o->names[o->ncmds]);
	if (o->follow)
		return 0; /* the writer's runs: a run option is a live one (refused) */
	if (o->replay) {
		/* seeking would write the rows again; --export-csv reads a
		 * recording into a CSV without the TUI */
		if (!o->batch && (o->csv || o->results))
			return errf(err, errlen, "%s: with --replay only in --batch",
				    o->csv ? "--csv" : "--results");
		return 0;
	}
	if (o->strategies || o->ncmds || o->demo || !o->run_opt)
		return 0;
	/* the picker of the TUI starts runs with --src, --size, ... */
	const char *bad = o->batch ? o->run_opt : o->run_opt_nopick;
	if (!bad)
		return 0;
	return errf(err, errlen, "%s: nothing to run (add -s STRATEGIES or --cmd)", bad);
}
