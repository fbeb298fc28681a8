#include "model/rates.h"

#include <math.h>
#include <string.h>
#include <unistd.h>

int64_t rate_delta(uint64_t a, uint64_t b)
{
	if (b >= a)
		return (int64_t)(b - a);
	if (a <= UINT32_MAX && a >= 0xC0000000u && b < 0x40000000u)
		return (int64_t)((UINT32_MAX - a) + b + 1);
	return -1;
}

double rate_per_s(uint64_t a, uint64_t b, double dt)
{
	if (!(dt > 0))
		return NAN;
	int64_t d = rate_delta(a, b);
	return d < 0 ? NAN : (double)d / dt;
}

double rate_sectors_mibs(uint64_t a, uint64_t b, double dt)
{
	return rate_per_s(a, b, dt) * 512.0 / (1024.0 * 1024.0);
}

uint64_t sample_pgscan(const struct sample *s)
{
	if (s->have & SAMPLE_HAVE_VMX)
		return s->pgscan_file + s->pgscan_anon;
	return s->pgscan_kswapd + s->pgscan_direct;
}

uint64_t sample_pgsteal(const struct sample *s)
{
	if (s->have & SAMPLE_HAVE_VMX)
		return s->pgsteal_file + s->pgsteal_anon;
	return s->pgsteal_kswapd + s->pgsteal_direct;
}

static void all_nan(struct rates *r)
{
	double *p = (double *)r;
	for (size_t i = 0; i < sizeof(*r) / sizeof(double); i++)
		p[i] = NAN;
}

void rates_compute(const struct sample *a, const struct sample *b, struct rates *r)
{
	all_nan(r);
	if (!a || !b || b->t_ns <= a->t_ns)
		return;
	double dt = (double)(b->t_ns - a->t_ns) / 1e9;
	uint32_t both = a->have & b->have;
	r->dt = dt;
	if ((both & SAMPLE_HAVE_DISK) && a->disk_id == b->disk_id) {
		r->read_mbs = rate_sectors_mibs(a->rd_sectors, b->rd_sectors, dt);
		r->write_mbs = rate_sectors_mibs(a->wr_sectors, b->wr_sectors, dt);
		r->read_iops = rate_per_s(a->rd_ios, b->rd_ios, dt);
		r->write_iops = rate_per_s(a->wr_ios, b->wr_ios, dt);
		r->util_pct = rate_per_s(a->io_ms, b->io_ms, dt) / 10.0;
		if (r->util_pct > 100.0)
			r->util_pct = 100.0;
	}
	if (both & SAMPLE_HAVE_VM) {
		r->pgactivate_s = rate_per_s(a->pgactivate, b->pgactivate, dt);
		r->pgdeactivate_s = rate_per_s(a->pgdeactivate, b->pgdeactivate, dt);
		r->majflt_s = rate_per_s(a->pgmajfault, b->pgmajfault, dt);
		r->pgpgin_kbs = rate_per_s(a->pgpgin, b->pgpgin, dt);
		r->pgpgout_kbs = rate_per_s(a->pgpgout, b->pgpgout, dt);
		double page_kb = (double)sysconf(_SC_PAGESIZE) / 1024.0;
		r->swpin_kbs = rate_per_s(a->pswpin, b->pswpin, dt) * page_kb;
		r->swpout_kbs = rate_per_s(a->pswpout, b->pswpout, dt) * page_kb;
		if ((a->have & SAMPLE_HAVE_VMX) == (b->have & SAMPLE_HAVE_VMX)) {
			r->pgscan_s = rate_per_s(sample_pgscan(a), sample_pgscan(b), dt);
			r->pgsteal_s = rate_per_s(sample_pgsteal(a), sample_pgsteal(b), dt);
		}
	}
	if (both & SAMPLE_HAVE_VMX) {
		r->refault_file_s = rate_per_s(a->refault_file, b->refault_file, dt);
		r->activate_file_s = rate_per_s(a->activate_file, b->activate_file, dt);
	}
	if (both & SAMPLE_HAVE_CG)
		r->cg_pgdeactivate_s = rate_per_s(a->cg_pgdeactivate, b->cg_pgdeactivate, dt);
	if (both & SAMPLE_HAVE_CPU) {
		r->intr_s = rate_per_s(a->intr, b->intr, dt);
		r->ctxt_s = rate_per_s(a->ctxt, b->ctxt, dt);
		int64_t du = rate_delta(a->cpu_user + a->cpu_nice, b->cpu_user + b->cpu_nice);
		int64_t ds = rate_delta(a->cpu_sys + a->cpu_irq + a->cpu_softirq,
					b->cpu_sys + b->cpu_irq + b->cpu_softirq);
		int64_t di = rate_delta(a->cpu_idle, b->cpu_idle);
		int64_t dw = rate_delta(a->cpu_iowait, b->cpu_iowait);
		int64_t dst = rate_delta(a->cpu_steal, b->cpu_steal);
		if (du >= 0 && ds >= 0 && di >= 0 && dw >= 0 && dst >= 0) {
			double tot = (double)(du + ds + di + dw + dst);
			if (tot > 0) {
				r->cpu_user = 100.0 * (double)du / tot;
				r->cpu_sys = 100.0 * (double)ds / tot;
				r->cpu_idle = 100.0 * (double)di / tot;
				r->cpu_iowait = 100.0 * (double)dw / tot;
				r->cpu_steal = 100.0 * (double)dst / tot;
			}
		}
	}
}

void rates_run_io(const struct sample *a, const struct sample *b, const struct rates *r,
		  double *read_mbs, double *write_mbs)
{
	*read_mbs = r->read_mbs;
	*write_mbs = r->write_mbs;
	if (!a || !b || b->t_ns <= a->t_ns || !(b->have & SAMPLE_HAVE_CG_IO))
		return;
	double dt = (double)(b->t_ns - a->t_ns) / 1e9;
	int same = (a->have & SAMPLE_HAVE_CG_IO) && a->cg_io_gen == b->cg_io_gen;
	const double mib = 1024.0 * 1024.0;
	*read_mbs = rate_per_s(same ? a->cg_rd_bytes : 0, b->cg_rd_bytes, dt) / mib;
	if (b->have & SAMPLE_HAVE_CG_IO_WB)
		*write_mbs = rate_per_s(same ? a->cg_wr_bytes : 0, b->cg_wr_bytes, dt) / mib;
}
