/*
 * run_config — what a session of copy runs is asked to do: the queue (-s,
 * --cmd, --name), the source and scratch place, the limits and the knobs of
 * each run.  Filled from the command line by options_run_config (options.c)
 * or by the picker and a talk's run step; session_init copies it, so the
 * caller's may go away.  The strings are borrowed (argv, a talk script) and
 * must outlive the session.
 */
#ifndef LRUTOP_RUN_CONFIG_H
#define LRUTOP_RUN_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "model/sweep.h"

/* --cmd entries one queue can hold. */
#define RUN_CONFIG_MAX_CMDS 16
/* The most --repeat takes (options.c), and a recording's "repeat" may say. */
#define RUN_CONFIG_REPEAT_MAX 1000

struct run_config {
	const char *device;	/* -d NAME, NULL = the disk holding dir */
	const char *dir;	/* scratch directory */
	const char *src;	/* --src FILE, NULL = a scratch input of size */
	uint64_t size;		/* --size, 0 = run_config_default_size */
	uint64_t mem_limit;	/* the runs' memory cgroup, 0 = none */
	uint64_t disk_limit;	/* bytes/s of the watched disk, 0 = none */
	const char *strategies; /* -s LIST, NULL = none */
	/* the queue holds cmds[0..cmds_before_s), then -s LIST, then the rest;
	 * the i-th name labels the i-th cmd (NULL: a default label) */
	const char *cmds[RUN_CONFIG_MAX_CMDS];
	const char *names[RUN_CONFIG_MAX_CMDS];
	int ncmds, nnames, cmds_before_s;
	int repeat;	      /* each entry this many times, interleaved */
	const char *baseline; /* the label ratios are relative to, NULL = the first */
	size_t bs;	      /* buffer size of read/write strategies */
	int no_drop_caches, no_verify, prealloc;
	long stall_timeout_s; /* a copy without progress this long fails, 0 = never */
	/* --sweep (param SWEEP_NONE: none) and its --sweep-until: every entry
	 * at every value, repeat times, interleaved; a value replaces the
	 * option it sweeps (mem_limit, disk_limit, bs, size) run by run */
	struct sweep_spec sweep;
};

/* The scratch input's size without src. */
static inline uint64_t run_config_default_size(const struct run_config *c)
{
	return c->size ? c->size : c->mem_limit ? 32 * c->mem_limit : 1024ull * 1024 * 1024;
}

/* What dir must have free: the source (if we make it; src_size) + one
 * copy + 64 MiB of headroom (session_init, and a talk's run steps). */
static inline uint64_t run_config_need_bytes(const struct run_config *c, uint64_t src_size)
{
	return src_size + (c->src ? 0 : src_size) + (64ull << 20);
}

#endif
