/*
 * kvfile — the one small reader for the /proc, sysfs and cgroup files that
 * libproc2 4.0.x cannot see: `key value` files (workingset_*_file from the
 * NUMA nodes' vmstat files, or /proc/vmstat without them; cgroup
 * memory.stat; single-number files such as memory.usage_in_bytes) and PSI
 * files (/proc/pressure/memory, io).
 *
 * Invariants: the file is opened once and re-read with pread() from offset 0
 * into a buffer owned by the handle, so a read allocates nothing.  Keys match
 * exactly (pgscan_direct never matches pgscan_direct_throttle).  A key absent
 * from the file reads as KVFILE_MISSING, never as 0.
 */
#ifndef LRUTOP_KVFILE_H
#define LRUTOP_KVFILE_H

#include <stddef.h>
#include <stdint.h>

#define KVFILE_MISSING UINT64_MAX

struct kvfile;

/* Opens path; keys (borrowed, must outlive the handle) are what kvfile_read
 * looks for.  nkeys may be 0 for a single-number file.  NULL + err on error. */
struct kvfile *kvfile_open(const char *path, const char *const *keys, size_t nkeys, char *err,
			   size_t errlen);
void kvfile_free(struct kvfile *kv);

/* Re-reads the file; vals[i] = value of keys[i] or KVFILE_MISSING.  Returns
 * the number of keys found, or -1 if the file could not be read. */
int kvfile_read(struct kvfile *kv, uint64_t *vals);

/* For a file holding one number (memory.usage_in_bytes, memory.max: "max"
 * reads as KVFILE_MISSING).  0 or -1. */
int kvfile_read_number(struct kvfile *kv, uint64_t *val);

struct psi {
	double some_avg10, full_avg10; /* percent */
	uint64_t some_total, full_total; /* microseconds stalled since boot */
};
/* Parses a PSI file ("some avg10=0.00 avg60=... total=N" / "full ...").
 * A missing "full" line (cpu on old kernels) leaves full_* at 0. */
int kvfile_read_psi(struct kvfile *kv, struct psi *psi);

/* Parses buf (NUL-terminated) as `key value` lines; exposed for tests and
 * the fuzz target.  Same result convention as kvfile_read. */
int kvfile_parse(const char *buf, const char *const *keys, size_t nkeys, uint64_t *vals);
int kvfile_parse_psi(const char *buf, struct psi *psi);

#endif
