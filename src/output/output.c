#include "output/output.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>

#include "model/rates.h"
#include "runs/strategy.h"
#include "base/util.h"

/* dir part resolved, base name as given; "" when the directory is not there */
static void canonical(const char *path, char *out, size_t len)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	char *real = realpath(dir, NULL);
	if (!real) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", base);
	free(real);
}

int output_same_file(const char *a, const char *b)
{
	char ca[8192], cb[8192];
	if (strcmp(a, b) == 0)
		return 1;
	canonical(a, ca, sizeof(ca));
	canonical(b, cb, sizeof(cb));
	if (ca[0] && strcmp(ca, cb) == 0)
		return 1;
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

void csv_header(FILE *f)
{
	fputs("t_s,read_mbs,write_mbs,mem_free_kb,active_kb,inactive_kb,active_file_kb,"
	      "inactive_file_kb,active_anon_kb,inactive_anon_kb,dirty_kb,writeback_kb,"
	      "pgactivate_s,pgdeactivate_s,pgscan_s,pgsteal_s,refault_file_s,majflt_s,"
	      "cg_active_file_kb,cg_inactive_file_kb,psi_mem_some,psi_io_some,run,strategy,"
	      "phase\n",
	      f);
}

static void cell_d(FILE *f, double v, int prec)
{
	if (!isnan(v))
		fprintf(f, "%.*f", prec, v);
	fputc(',', f);
}

static void cell_u(FILE *f, int have, uint64_t v)
{
	if (have)
		fprintf(f, "%llu", (unsigned long long)v);
	fputc(',', f);
}

void csv_row(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns,
	     const char *strategy)
{
	struct rates r;
	rates_compute(prev, cur, &r);
	int mem = cur->have & SAMPLE_HAVE_MEM, cg = cur->have & SAMPLE_HAVE_CG;
	fprintf(f, "%.6f,", (double)(cur->t_ns - t0_ns) / 1e9);
	cell_d(f, r.read_mbs, 3);
	cell_d(f, r.write_mbs, 3);
	cell_u(f, mem, cur->mem_free);
	cell_u(f, mem, cur->active);
	cell_u(f, mem, cur->inactive);
	cell_u(f, mem, cur->active_file);
	cell_u(f, mem, cur->inactive_file);
	cell_u(f, mem, cur->active_anon);
	cell_u(f, mem, cur->inactive_anon);
	cell_u(f, mem, cur->dirty);
	cell_u(f, mem, cur->writeback);
	cell_d(f, r.pgactivate_s, 1);
	cell_d(f, r.pgdeactivate_s, 1);
	cell_d(f, r.pgscan_s, 1);
	cell_d(f, r.pgsteal_s, 1);
	cell_d(f, r.refault_file_s, 1);
	cell_d(f, r.majflt_s, 1);
	cell_u(f, cg, cur->cg_active_file / 1024);
	cell_u(f, cg, cur->cg_inactive_file / 1024);
	cell_d(f, cur->have & SAMPLE_HAVE_PSI_MEM ? cur->psi_mem_some : NAN, 2);
	cell_d(f, cur->have & SAMPLE_HAVE_PSI_IO ? cur->psi_io_some : NAN, 2);
	if (cur->run >= 0 && strategy) {
		fprintf(f, "%d,", cur->run + 1);
		csv_field(f, strategy);
		fprintf(f, ",%s\n", phase_name((enum phase)cur->phase));
	} else
		fputs(",,\n", f);
}

void batch_header(FILE *f)
{
	fprintf(f, "%8s %8s %8s %8s %8s %8s %8s %7s %7s %8s %8s %8s %8s %7s %5s %5s\n", "time",
		"rMB/s", "wMB/s", "free", "act(f)", "inact(f)", "anon", "dirty", "wback",
		"deact/s", "act/s", "scan/s", "steal/s", "rflt/s", "psiM", "psiIO");
}

static void col_num(FILE *f, int width, double v)
{
	char buf[32];
	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else if (v < 100)
		snprintf(buf, sizeof(buf), "%.1f", v);
	else
		snprintf(buf, sizeof(buf), "%.0f", v);
	fprintf(f, " %*s", width, buf);
}

static void col_kb(FILE *f, int width, int have, uint64_t kb)
{
	char buf[32];
	if (have)
		fmt_size(buf, sizeof(buf), kb * 1024);
	else
		snprintf(buf, sizeof(buf), "-");
	fprintf(f, " %*s", width, buf);
}

void batch_line(FILE *f, const struct sample *prev, const struct sample *cur, uint64_t t0_ns)
{
	struct rates r;
	rates_compute(prev, cur, &r);
	int mem = cur->have & SAMPLE_HAVE_MEM;
	fprintf(f, "%8.2f", (double)(cur->t_ns - t0_ns) / 1e9);
	col_num(f, 8, r.read_mbs);
	col_num(f, 8, r.write_mbs);
	col_kb(f, 8, mem, cur->mem_free);
	col_kb(f, 8, mem, cur->active_file);
	col_kb(f, 8, mem, cur->inactive_file);
	col_kb(f, 8, mem, cur->active_anon + cur->inactive_anon);
	col_kb(f, 7, mem, cur->dirty);
	col_kb(f, 7, mem, cur->writeback);
	col_num(f, 8, r.pgdeactivate_s);
	col_num(f, 8, r.pgactivate_s);
	col_num(f, 8, r.pgscan_s);
	col_num(f, 8, r.pgsteal_s);
	col_num(f, 7, r.refault_file_s);
	col_num(f, 5, cur->have & SAMPLE_HAVE_PSI_MEM ? cur->psi_mem_some : NAN);
	col_num(f, 5, cur->have & SAMPLE_HAVE_PSI_IO ? cur->psi_io_some : NAN);
	fputc('\n', f);
}
