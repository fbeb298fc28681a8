/*
 * livefix — a history that grows a sample at a time as the live TUI's
 * does, for the suites that check a window moved on (test_plot's scroll,
 * test_scroll's frames) against one built from nothing: jittered times;
 * disk reads and writes of uneven size with a spike now and then and a
 * counter reset (a NAN rate) once in a while; a run every 300 samples in
 * its cgroup (prepare, a copy with its own bytes and demotion bursts,
 * flush), which the run log and the runs' progress follow; MGLRU
 * generations over a stretch.  A small history (cap) drops its oldest
 * samples, so the window's start moves too.  static inline: a suite that
 * does not use one gets no unused-function warning.
 */
#ifndef LRUTOP_LIVEFIX_H
#define LRUTOP_LIVEFIX_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "model/phase.h"
#include "modelfix.h"

#define LIVE_DT	 250000000ull /* 0.25 s */
#define LIVE_MIB (1024ull * 1024)

struct live {
	struct model m;
	struct runlog *log;
	uint64_t t, x;
	uint64_t rd, wr, deact, act, scan, refault, cg_rd, cg_wr, cg_deact;
	int i;
};

static inline uint64_t live_rand(struct live *l)
{
	l->x = l->x * 6364136223846793005ull + 1442695040888963407ull;
	return l->x >> 33;
}

/* A model with a history of cap samples at 0.25 s, disk "vda"; seed: the
 * stream's. */
static inline void live_init(struct live *l, size_t cap, uint64_t seed)
{
	memset(l, 0, sizeof(*l));
	mf_model(&l->m, &l->log, cap, 0.25, "vda");
	l->t = 100000000000ull;
	l->x = seed;
	l->m.runs.current = -1;
}

/* The run log and progress as a session leaves them at sample i (phase
 * ph of the run's 300 samples). */
static inline void live_runs(struct live *l, int ph)
{
	struct runlog *log = l->log;
	struct run_progress *rp = &l->m.runs;
	if (ph == 100 && log->nresults < RUNLOG_MAX_RUNS) {
		struct run_result *r = &log->results[log->nresults++];
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s",
			 log->nresults % 2 ? "rw_cp" : "mm_sync_cp");
		r->cmd = -1;
		r->t_start_ns = l->t;
		runlog_add_event(log, l->t, PHASE_PREPARE);
		rp->state = RUNS_RUNNING;
		rp->current = (long)log->nresults - 1;
		rp->queue_next = log->nresults;
		rp->queue_len = log->nresults + 1;
		rp->total = 400 * LIVE_MIB;
		rp->done = 0;
		rp->phase = PHASE_PREPARE;
	} else if (ph == 110 && rp->current >= 0) {
		log->results[rp->current].t_copy_ns = l->t;
		runlog_add_event(log, l->t, PHASE_COPY);
		rp->phase = PHASE_COPY;
	} else if (ph > 110 && ph < 200 && rp->current >= 0) {
		rp->done += (3 + live_rand(l) % 3) * LIVE_MIB; /* the expected end moves */
	} else if (ph == 200 && rp->current >= 0) {
		runlog_add_event(log, l->t, PHASE_FLUSH);
		rp->phase = PHASE_FLUSH;
	} else if (ph == 220 && rp->current >= 0) {
		struct run_result *r = &log->results[rp->current];
		r->finished = r->ok = 1;
		r->t_end_ns = l->t;
		runlog_add_event(log, l->t, PHASE_IDLE);
		rp->state = RUNS_IDLE;
		rp->current = -1;
	}
}

/* The next sample. */
static inline void live_push(struct live *l)
{
	int i = l->i++, ph = i % 300;
	uint64_t r = live_rand(l);
	l->t += LIVE_DT - LIVE_DT / 8 + r % (LIVE_DT / 4);
	live_runs(l, ph);
	struct sample s;
	mf_sample(&s, l->t, (2ull << 20) - (uint64_t)(i % 500) * 64, (512ull << 10) + r % 4096);
	s.active_anon = 100000 + r % 512;
	if (ph >= 100 && ph < 220 && l->m.runs.current >= 0) {
		s.run = (int16_t)l->m.runs.current;
		s.phase = (int8_t)(ph < 110 ? PHASE_PREPARE : ph < 200 ? PHASE_COPY : PHASE_FLUSH);
		s.have |= SAMPLE_HAVE_CG | SAMPLE_HAVE_CG_IO | SAMPLE_HAVE_CG_DEACT;
		if ((i / 300) % 2)
			s.have |= SAMPLE_HAVE_CG_IO_WB;
		s.cg_limit = 64 * LIVE_MIB;
		s.cg_usage = 60 * LIVE_MIB;
		s.cg_active_file = (20 + r % 8) * LIVE_MIB;
		s.cg_inactive_file = 30 * LIVE_MIB;
		l->cg_rd += (r % 16) * LIVE_MIB * (r % 41 == 0 ? 20 : 1);
		l->cg_wr += (r >> 4) % 12 * LIVE_MIB;
		l->cg_deact += r % 13 == 0 ? 40000 : (r >> 8) % 300; /* bursts */
		s.cg_io_gen = 1;
	}
	s.cg_rd_bytes = l->cg_rd;
	s.cg_wr_bytes = l->cg_wr;
	s.cg_pgdeactivate = l->cg_deact;
	l->rd += (r >> 3) % 40000 * (r % 97 == 0 ? 50 : 1);
	l->wr += (r >> 7) % 10000;
	if (r % 331 == 0)
		l->rd = 0; /* a counter reset: a NAN rate */
	l->deact += r % 17 == 0 ? 2000000 : (r >> 5) % 400;
	l->act += (r >> 9) % 200;
	l->scan += (r >> 11) % 3000 * (r % 53 == 0 ? 100 : 1);
	l->refault += (r >> 13) % 50;
	s.rd_sectors = l->rd;
	s.wr_sectors = l->wr;
	s.pgdeactivate = l->deact;
	s.pgactivate = l->act;
	s.pgscan_kswapd = l->scan;
	s.refault_file = l->refault;
	s.have |= SAMPLE_HAVE_VMX;
	if (i % 1000 >= 700) {
		s.have |= SAMPLE_HAVE_GEN;
		s.gen_n = 4;
		for (int k = 0; k < 4; k++)
			s.gen_file[k] = 10000 + (r >> k) % 5000;
	}
	series_push(l->m.series, &s);
}

static inline void live_done(struct live *l)
{
	mf_model_free(&l->m, l->log);
}

#endif
