#include "output/results.h"

#include <math.h>
#include <string.h>

#include "model/pagecache.h"
#include "model/phase.h"
#include "model/sawtooth.h"
#include "model/sweep.h"
#include "base/util.h"

int results_never_copied(const struct run_result *x)
{
	return !x->ok && x->elapsed_s <= 0;
}

const char *results_verified(const struct run_result *x)
{
	return x->ok	      ? (x->verified > 0		   ? "yes"
				 : x->verified == 0		   ? "no"
				 : x->verified == RUN_UNVERIFIABLE ? "unverified"
								   : "")
	       : x->cancelled ? "cancelled"
			      : "failed";
}

static const char *verified_str(int v)
{
	return v > 0 ? "yes" : v == 0 ? "no" : v == RUN_UNVERIFIABLE ? "unv" : "-";
}

/* The page-cache cells of a run (before "ok", which stays last): the
 * destination's peak dirty, the source's cached share and the recently
 * evicted pages at the copy's end; "-" without residency. */
static void res_cells(char *buf, size_t len, const struct run_result *x)
{
	char dd[16] = "-", sc[16] = "-", re[16] = "-";
	if (x->res_have) {
		fmt_size(dd, sizeof(dd), x->res_dst_dirty_peak_kb * 1024);
		double pct = pagecache_src_cached_end_pct(x);
		if (!isnan(pct))
			snprintf(sc, sizeof(sc), "%.0f%%", pct);
		snprintf(re, sizeof(re), "%llu", (unsigned long long)x->res_recent_end);
	}
	snprintf(buf, len, "%8s %6s %8s", dd, sc, re);
}

/* --probe: trailing columns, only when a run had the probe beside it. */
static int any_probe(const struct run_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r[i].probe.n || r[i].probe.lost)
			return 1;
	return 0;
}

static void probe_ms(char *buf, size_t len, uint64_t ns, int have)
{
	snprintf(buf, len, have ? "%.2f" : "-", (double)ns / 1e6);
}

static void probe_header(FILE *f, const struct run_result *r, size_t n)
{
	const char *mode = "probe";
	for (size_t i = 0; i < n; i++)
		if (r[i].probe.n || r[i].probe.lost)
			mode = r[i].probe.mode;
	fprintf(f, " %7s %7s %7s %7s %8s %6s %7s", "n", "p50ms", "p99ms", "p99.9ms", "maxms",
		">100ms", "rise");
	fprintf(f, "  (probe %s)", mode);
}

static void probe_cells(FILE *f, const struct probe_figures *p)
{
	char a[16], b[16], c[16], d[16], e[16], g[16], n[24];
	/* a quantile of too few reads is "-", the count beside it */
	snprintf(n, sizeof(n), "%llu", (unsigned long long)p->n);
	probe_ms(a, sizeof(a), p->p50_ns, probe_quantile_known(p->n, 0.50));
	probe_ms(b, sizeof(b), p->p99_ns, probe_quantile_known(p->n, 0.99));
	probe_ms(c, sizeof(c), p->p999_ns, probe_quantile_known(p->n, 0.999));
	probe_ms(d, sizeof(d), p->max_ns, p->n > 0);
	snprintf(e, sizeof(e), p->n ? "%llu" : "-", (unsigned long long)p->slow);
	double rise = probe_figures_rise_ms(p);
	snprintf(g, sizeof(g), isnan(rise) ? "-" : "%+.2f", rise);
	fprintf(f, " %7s %7s %7s %7s %8s %6s %7s", n, a, b, c, d, e, g);
}

/* What the spreads were taken over under a disk limit (burst.h): the runs'
 * mean bucket, once for all (a range where -i differed between runs);
 * nothing without buckets (each sample its own, as before). */
static void bucket_note(FILE *f, const struct run_result *r, size_t n)
{
	double lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		double b = r[i].cv_bucket_s;
		if (!(b > 0))
			continue;
		lo = lo > 0 && lo < b ? lo : b;
		hi = hi > b ? hi : b;
	}
	if (!(lo > 0))
		return;
	char a[16], b[16], span[40];
	snprintf(a, sizeof(a), "%.2f", lo);
	snprintf(b, sizeof(b), "%.2f", hi);
	snprintf(span, sizeof(span), strcmp(a, b) ? "%s-%s s" : "%s s", a, b);
	fprintf(f,
		"  rdCV, wrCV, rd@b: over buckets of %s (whole samples that hold the disk "
		"limit's read-ahead windows evenly: lrutop(1))\n",
		span);
}

void results_table(FILE *f, const struct run_result *r, size_t n)
{
	int probe = any_probe(r, n);
	int w = 16; /* the label column: as wide as the longest label */
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(r[i].name) > w)
			w = (int)strlen(r[i].name);
	fprintf(f, "%-*s %3s %8s %7s %7s %5s %7s %8s %9s %9s %8s %5s %5s %5s %5s %9s %8s %7s %6s %8s %6s %8s %4s",
		w, "strategy", "rep", "elapsed", "user", "sys", "%cpu", "majflt", "minflt",
		"inblock", "oublock", "MiB/s", "rd/cp", "rdCV", "wrCV", "rd@b", "peakAct", "deact",
		"refault", "bursts", "dstDirty", "srcC%", "recEvict", "ok");
	if (probe)
		probe_header(f, r, n);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		const struct run_result *x = &r[i];
		char name[sizeof(x->name)];
		strlcpy_(name, x->name, sizeof(name));
		text_clean(name); /* a terminal gets no control character */
		char peak[16], rcv[16], wcv[16], rab[16], el[16], us[16], sy[16], cpu[16], mbs[16];
		char rdcp[16];
		fmt_size(peak, sizeof(peak), x->peak_active_file_kb * 1024);
		double ratio = sawtooth_read_ratio(x);
		snprintf(rdcp, sizeof(rdcp), isnan(ratio) ? "-" : "%.2f", ratio);
		snprintf(rcv, sizeof(rcv), isnan(x->read_cv) ? "-" : "%.2f", x->read_cv);
		snprintf(wcv, sizeof(wcv), isnan(x->write_cv) ? "-" : "%.2f", x->write_cv);
		snprintf(rab, sizeof(rab), isnan(x->read_at_burst) ? "-" : "%.2f", x->read_at_burst);
		int nc = results_never_copied(x);
		snprintf(el, sizeof(el), nc ? "-" : "%.2fs", x->elapsed_s);
		snprintf(us, sizeof(us), nc ? "-" : "%.2fs", x->user_s);
		snprintf(sy, sizeof(sy), nc ? "-" : "%.2fs", x->sys_s);
		snprintf(cpu, sizeof(cpu), nc ? "-" : "%.0f%%", x->cpu_pct);
		snprintf(mbs, sizeof(mbs), nc ? "-" : "%.1f", x->mbs);
		char res[48];
		res_cells(res, sizeof(res), x);
		fprintf(f,
			"%-*s %3d %8s %7s %7s %5s %7ld %8ld %9ld %9ld %8s %5s %5s %5s %5s %9s "
			"%8llu %7llu %6d %s %4s",
			w, name, x->repeat, el, us, sy, cpu, x->majflt, x->minflt, x->inblock,
			x->oublock, mbs, rdcp, rcv, wcv, rab, peak, (unsigned long long)x->pgdeactivate,
			(unsigned long long)x->refault_file, x->bursts, res,
			x->ok	       ? verified_str(x->verified)
			: x->cancelled ? "cncl"
				       : "FAIL");
		if (probe)
			probe_cells(f, &x->probe);
		fputc('\n', f);
	}
	bucket_note(f, r, n);
	for (size_t i = 0; i < n; i++)
		if (r[i].probe.lost)
			fprintf(f, "  %s #%d: the probe died during the run: no latency figures\n",
				r[i].name, r[i].repeat);
	for (size_t i = 0; i < n; i++)
		if (!r[i].ok && r[i].message[0] && strcmp(r[i].message, "cancelled") != 0) {
			char nm[sizeof(r[i].name)], msg[sizeof(r[i].message)];
			strlcpy_(nm, r[i].name, sizeof(nm));
			strlcpy_(msg, r[i].message, sizeof(msg));
			text_clean(nm);
			text_clean(msg);
			fprintf(f, "  %s #%d: %s\n", nm, r[i].repeat, msg);
		}
}

void results_csv_header(FILE *f)
{
	fputs("strategy,repeat,elapsed_s,user_s,sys_s,cpu_pct,majflt,minflt,inblock,oublock,"
	      "bytes,mbs,read_cv,write_cv,peak_active_file_kb,pgdeactivate,refault_file,bursts,"
	      "verified,rd_at_burst,dst_dirty_peak_kb,src_cached_end_pct,recently_evicted_end,"
	      "probe_mode,probe_p50_ms,probe_p99_ms,probe_p999_ms,probe_max_ms,probe_slow,"
	      "probe_idle_p99_ms,probe_rise_ms,probe_n,sweep,read_ratio\n",
	      f);
}

static void cv_cell(FILE *f, double v)
{
	if (!isnan(v))
		fprintf(f, "%.4f", v);
	fputc(',', f);
}

/* The page-cache cells (trailing, empty without residency): peak dirty
 * KiB of the destination, the source's cached share and recently evicted
 * pages of both files at the copy's end. */
static void res_csv(FILE *f, const struct run_result *x)
{
	if (!x->res_have) {
		fputs(",,,", f);
		return;
	}
	fprintf(f, ",%llu,", (unsigned long long)x->res_dst_dirty_peak_kb);
	double pct = pagecache_src_cached_end_pct(x);
	if (!isnan(pct))
		fprintf(f, "%.1f", pct);
	fprintf(f, ",%llu", (unsigned long long)x->res_recent_end);
}

void results_csv_row(FILE *f, const struct run_result *x)
{
	csv_field(f, x->name); /* RFC 4180: a name may hold a comma or a quote */
	if (results_never_copied(x)) /* unknown: empty cells */
		fprintf(f, ",%d,,,,,%ld,%ld,%ld,%ld,%llu,,", x->repeat, x->majflt, x->minflt,
			x->inblock, x->oublock, (unsigned long long)x->bytes);
	else
		fprintf(f, ",%d,%.4f,%.4f,%.4f,%.1f,%ld,%ld,%ld,%ld,%llu,%.3f,", x->repeat,
			x->elapsed_s, x->user_s, x->sys_s, x->cpu_pct, x->majflt, x->minflt,
			x->inblock, x->oublock, (unsigned long long)x->bytes, x->mbs);
	cv_cell(f, x->read_cv);
	cv_cell(f, x->write_cv);
	fprintf(f, "%llu,%llu,%llu,%d,%s,", (unsigned long long)x->peak_active_file_kb,
		(unsigned long long)x->pgdeactivate, (unsigned long long)x->refault_file, x->bursts,
		results_verified(x));
	if (!isnan(x->read_at_burst))
		fprintf(f, "%.4f", x->read_at_burst);
	res_csv(f, x);
	if (x->probe.n) { /* --probe: empty cells without it */
		const struct probe_figures *p = &x->probe;
		fprintf(f, ",%s,", p->mode);
		/* a quantile of too few reads: an empty cell (probe_n says how many) */
		static const double q[3] = {0.50, 0.99, 0.999};
		const uint64_t qv[3] = {p->p50_ns, p->p99_ns, p->p999_ns};
		for (int i = 0; i < 3; i++) {
			if (probe_quantile_known(p->n, q[i]))
				fprintf(f, "%.3f", (double)qv[i] / 1e6);
			fputc(',', f);
		}
		fprintf(f, "%.3f,%llu,", (double)p->max_ns / 1e6, (unsigned long long)p->slow);
		if (probe_quantile_known(p->idle_n, 0.99))
			fprintf(f, "%.3f,", (double)p->idle_p99_ns / 1e6);
		else
			fputc(',', f);
		double rise = probe_figures_rise_ms(p);
		if (!isnan(rise))
			fprintf(f, "%.3f", rise);
		fprintf(f, ",%llu", (unsigned long long)p->n);
	} else if (x->probe.lost) { /* the mode, and "lost" where figures would be */
		fprintf(f, ",%s (lost),,,,,,,,", x->probe.mode);
	} else {
		fputs(",,,,,,,,,", f);
	}
	if (x->sweep_param) /* --sweep: PARAM=VALUE (bytes, bytes/s) */
		fprintf(f, ",%s=%llu", sweep_param_name((enum sweep_param)x->sweep_param),
			(unsigned long long)x->sweep_value);
	else
		fputc(',', f);
	fputc(',', f);
	double ratio = sawtooth_read_ratio(x); /* rd/cp: appended, the order is a contract */
	if (!isnan(ratio))
		fprintf(f, "%.4f", ratio);
	fputc('\n', f);
}

void results_event_line(FILE *f, const struct run_event *e, const struct run_result *runs,
			uint64_t t0_ns)
{
	const struct run_result *r = &runs[e->run];
	double t = e->t_ns >= t0_ns ? (double)(e->t_ns - t0_ns) / 1e9 : 0;
	if (e->phase == PHASE_IDLE) {
		char buf[400];
		results_summary(buf, sizeof(buf), r);
		fprintf(f, "# %8.2f run %d %s end: %s\n", t, e->run + 1, r->name, buf);
	} else {
		fprintf(f, "# %8.2f run %d %s %s\n", t, e->run + 1, r->name,
			phase_name((enum phase)e->phase));
	}
}

void results_summary(char *buf, size_t len, const struct run_result *r)
{
	if (r->cancelled)
		snprintf(buf, len, "%s #%d cancelled", r->name, r->repeat);
	else if (!r->ok)
		snprintf(buf, len, "%s", r->message[0] ? r->message : "failed");
	else
		snprintf(buf, len, "%s #%d: %.2f s, %.0f MiB/s, %d burst%s%s", r->name, r->repeat,
			 r->elapsed_s, r->mbs, r->bursts, r->bursts == 1 ? "" : "s",
			 r->verified > 0		   ? ", verified"
			 : r->verified == RUN_UNVERIFIABLE ? ", unverified (no {dst})"
							   : "");
}
