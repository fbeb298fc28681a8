#include "output/export_markdown.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/compare.h"
#include "model/stats.h"
#include "model/sweep.h"
#include "base/util.h"

/* A label as a table cell: in backticks, '|' escaped (GFM), control
 * characters as '?'. */
static void cell_name(FILE *f, const char *s)
{
	fputc('`', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '|')
			fputs("\\|", f);
		else
			text_put(f, s, 1, "`");
	}
	fputc('`', f);
}

/* Text in a line of its own (a host name, a path): control characters as '?'. */
static void text(FILE *f, const char *s)
{
	text_put(f, s, SIZE_MAX, NULL);
}

/* The limits every finished run of sd had (0: none, or they differ — a
 * sweep's: its column says each) and the parameter a sweep set
 * (SWEEP_NONE: no sweep), from each run's own setting. */
static void side_limits(const struct export_side *sd, uint64_t *mem, uint64_t *disk,
			enum sweep_param *swept)
{
	int first = 1;
	*mem = sd->mem_limit;
	*disk = sd->disk_limit;
	*swept = SWEEP_NONE;
	for (size_t i = 0; i < sd->nruns; i++) {
		struct run_setting set;
		if (!sd->runs[i].finished)
			continue;
		sweep_run_setting(&sd->runs[i], sd->mem_limit, sd->disk_limit, &set);
		if (set.param)
			*swept = set.param;
		if (first) {
			*mem = set.mem_limit;
			*disk = set.disk_limit;
			first = 0;
			continue;
		}
		if (set.mem_limit != *mem)
			*mem = 0;
		if (set.disk_limit != *disk)
			*disk = 0;
	}
}

/* "on `box`, kernel 6.18.0, disk vda (virtio), memory limit 64M" */
static void where(FILE *f, const struct export_side *sd)
{
	char b[32];
	uint64_t mem, disk;
	enum sweep_param swept;
	side_limits(sd, &mem, &disk, &swept);
	fputs("Runs", f);
	if (sd->host && *sd->host)
		fputs(" on `", f), text(f, sd->host), fputc('`', f);
	if (sd->kernel && *sd->kernel)
		fputs(", kernel ", f), text(f, sd->kernel);
	if (sd->disk && *sd->disk) {
		fputs(", disk ", f), text(f, sd->disk);
		if (sd->disk_kind && *sd->disk_kind)
			fputs(" (", f), text(f, sd->disk_kind), fputc(')', f);
	}
	if (sd->mglru)
		fputs(", MGLRU", f);
	if (mem) {
		fmt_size(b, sizeof(b), mem);
		fprintf(f, ", memory limit %s", b);
	}
	if (disk) {
		fmt_size(b, sizeof(b), disk);
		fprintf(f, ", disk limit %s/s", b);
	}
	if (swept)
		fprintf(f, ", a sweep of %s", sweep_param_name(swept));
	if (sd->path)
		fputs(" (recording `", f), text(f, sd->path), fputs("`)", f);
	fputs(":\n\n", f);
}

static void num(FILE *f, const char *fmt, double v)
{
	char b[32];
	stats_num(b, sizeof(b), fmt, v);
	fprintf(f, " %s |", b);
}

static void results_table(FILE *f, const struct export_side *sd, const struct strategy_stats *st,
			  int ns)
{
	int by_base = stats_by_base(st, ns);
	uint64_t mem, disk;
	enum sweep_param swept;
	side_limits(sd, &mem, &disk, &swept);
	/* a sweep: each row's value in a column of its own (the line above
	 * says no limit that differs between the rows) */
	fputs("| Command |", f);
	if (swept)
		fprintf(f, " %s |", sweep_param_name(swept));
	fputs(" Mean [s] | Min [s] | Max [s] | Relative | Median [s] | OK runs | MiB/s "
	      "| Bursts | rdCV | rd/cp | Peak active(file) | Refaults | Major faults |\n"
	      "|:---|",
	      f);
	if (swept)
		fputs("---:|", f);
	fputs("---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (int j = 0; j < ns; j++) {
		const struct strategy_stats *s = &st[j];
		struct export_spread sp;
		export_spread_of(sd->runs, sd->nruns, s->name, &sp);
		char mean[48], vs[16], peak[16];
		struct run_setting set;
		export_setting_of(sd, s->name, &set);
		if (isnan(sp.mean))
			snprintf(mean, sizeof(mean), "-");
		else if (isnan(sp.stddev))
			snprintf(mean, sizeof(mean), "%.3f", sp.mean);
		else
			snprintf(mean, sizeof(mean), "%.3f ± %.3f", sp.mean, sp.stddev);
		stats_cells(s, vs, sizeof(vs), peak, sizeof(peak));
		fputs("| ", f);
		cell_name(f, s->name);
		fputs(" |", f);
		if (swept && set.param == swept) {
			char v[24];
			sweep_value_str(v, sizeof(v), set.value);
			fprintf(f, " %s%s |", v, swept == SWEEP_DISK_LIMIT ? "/s" : "");
		} else if (swept) {
			fputs(" - |", f);
		}
		fprintf(f, " %s |", mean);
		num(f, "%.3f", sp.min);
		num(f, "%.3f", sp.max);
		num(f, "%.2f", by_base ? s->ratio_base : s->ratio);
		num(f, "%.3f", s->elapsed_med);
		fprintf(f, " %d/%d |", s->ok, s->runs);
		num(f, "%.1f", s->mbs_med);
		num(f, "%.1f", s->bursts_med);
		num(f, "%.2f", s->read_cv_med);
		num(f, "%.2f", s->read_ratio_med); /* rd/cp (sawtooth.h) */
		fprintf(f, " %s |", peak);
		num(f, "%.0f", s->refault_med);
		num(f, "%.0f", s->majflt_med);
		fputc('\n', f);
	}
	/* what Relative is: lrutop's ratio, of medians */
	const struct strategy_stats *ref = NULL;
	for (int j = 0; j < ns; j++)
		if (by_base ? st[j].baseline && st[j].ok : st[j].fastest)
			ref = &st[j];
	if (ref) {
		fputs("\nRelative: median elapsed over ", f);
		cell_name(f, ref->name);
		fprintf(f,
			"'s (%s). Mean ± σ, Min and Max over every run that took a time, failed "
			"ones too (hyperfine's -i).\n",
			by_base ? "the baseline" : "the fastest");
	}
	char note[256];
	for (int k = 0; stats_note(st, ns, k, note, sizeof(note)); k++)
		fputs(k ? "" : "\n", f), fputs("- ", f), text(f, note), fputc('\n', f);
}

static int any_probe(const struct strategy_stats *st, int ns)
{
	for (int j = 0; j < ns; j++)
		if (st[j].probe_runs)
			return 1;
	return 0;
}

/* --probe: the neighbour's latency, medians over the runs it read beside. */
static void probe_table(FILE *f, const struct strategy_stats *st, int ns)
{
	fputs("\n| Command | Probe | Reads | p50 [ms] | p99 [ms] | p99.9 [ms] | Max [ms] | >100 ms "
	      "| p99 rise [ms] |\n"
	      "|:---|:---|---:|---:|---:|---:|---:|---:|---:|\n",
	      f);
	for (int j = 0; j < ns; j++) {
		const struct strategy_stats *s = &st[j];
		if (!s->probe_runs)
			continue;
		fputs("| ", f);
		cell_name(f, s->name);
		fputs(" | ", f);
		text(f, s->probe_mode);
		fputs(" |", f);
		num(f, "%.0f", s->probe_n);
		num(f, "%.2f", s->probe_p50);
		num(f, "%.2f", s->probe_p99);
		num(f, "%.2f", s->probe_p999);
		num(f, "%.2f", s->probe_max);
		num(f, "%.0f", s->probe_slow);
		num(f, "%+.2f", s->probe_rise);
		fputc('\n', f);
	}
}

static int side(FILE *f, const struct export_side *sd)
{
	struct strategy_stats *st = calloc(RUNLOG_MAX_STRATEGIES, sizeof(*st));
	if (!st)
		return -1;
	int ns = stats_compute(sd->runs, sd->nruns, sd->baseline, st, RUNLOG_MAX_STRATEGIES);
	if (sd->label)
		fputs("**", f), text(f, sd->label), fputs("**\n\n", f);
	where(f, sd);
	results_table(f, sd, st, ns);
	if (any_probe(st, ns))
		probe_table(f, st, ns);
	free(st);
	return 0;
}

static const char *const verdict_text[] = {
    [COMPARE_NONE] = "-",
    [COMPARE_NO_CI] = "no confidence interval",
    [COMPARE_SAME] = "no significant difference",
    [COMPARE_SLOWER] = "slower",
    [COMPARE_FASTER] = "faster",
};

static void differences(FILE *f, const struct compare *c)
{
	fputs("\nRatio of median elapsed (bootstrap 95% CI, Mann-Whitney p):\n\n"
	      "| Command | vs | Runs | Ratio | 95% CI | p | Verdict |\n"
	      "|:---|:---|---:|---:|---:|---:|:---|\n",
	      f);
	for (int i = 0; i < c->nrows; i++) {
		const struct compare_row *w = &c->rows[i];
		for (int r = 1; r < c->nrec; r++) {
			const struct compare_cell *e = &w->cell[r];
			fputs("| ", f);
			cell_name(f, w->name);
			fprintf(f, " | %c/A | %d+%d |", 'A' + r, w->cell[0].ok, e->ok);
			num(f, "%.3f", e->ratio);
			if (isnan(e->ci_lo))
				fputs(" - |", f);
			else
				fprintf(f, " [%.3f, %.3f] |", e->ci_lo, e->ci_hi);
			if (isnan(e->p))
				fputs(" - |", f);
			else if (e->p < 0.001)
				fputs(" <0.001 |", f);
			else
				fprintf(f, " %.3f |", e->p);
			if (e->verdict == COMPARE_SLOWER || e->verdict == COMPARE_FASTER)
				fprintf(f, " %c %s |\n", 'A' + r, verdict_text[e->verdict]);
			else
				fprintf(f, " %s |\n", verdict_text[e->verdict]);
		}
	}
	char note[256];
	for (int k = 0; compare_note(c, k, note, sizeof(note)); k++)
		fputs(k ? "" : "\n", f), fputs("- ", f), text(f, note), fputc('\n', f);
}

int export_markdown_write(FILE *f, const struct export_side *sides, int n, const struct compare *c)
{
	for (int i = 0; i < n; i++) {
		if (i)
			fputc('\n', f);
		if (side(f, &sides[i]) < 0)
			return -1;
	}
	if (c)
		differences(f, c);
	return ferror(f) ? -1 : 0;
}
