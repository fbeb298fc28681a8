/*
 * cgio — a run's own I/O on the watched disk, from its io (v2) or blkio
 * (v1) cgroup, read once per tick while a run is on (SAMPLE_HAVE_CG_IO).
 *
 * v2 io.stat: one line per device, "MAJ:MIN rbytes=N wbytes=N rios=N ...";
 * v1 blkio.throttle.io_service_bytes: "MAJ:MIN Read N", "MAJ:MIN Write N",
 * ... and a last "Total N".  A device the cgroup has not touched yet is not
 * listed: that reads as 0 bytes, not as missing.  v1 charges buffered
 * write-back to the root cgroup (the flusher does it), so only v2's wbytes
 * are the run's writes (SAMPLE_HAVE_CG_IO_WB).
 *
 * Invariants: the file is opened once per cgroup and re-read with pread()
 * into a buffer of the handle, so a read allocates nothing; cg_io_gen
 * changes whenever another cgroup's file is opened, so a delta is only
 * taken within one cgroup.  Nothing here prints or exits.
 */
#ifndef LRUTOP_CGIO_H
#define LRUTOP_CGIO_H

#include <stdint.h>

#include "sampling/sample.h"

/* The watched disk's bytes in a v1 io_service_bytes / v2 io.stat text
 * (NUL-terminated): 1 when major:minor is listed, 0 when it is not (both
 * then 0), -1 when its line is malformed. */
int cgio_parse_v1(const char *text, unsigned major, unsigned minor, uint64_t *rd, uint64_t *wr);
int cgio_parse_v2(const char *text, unsigned major, unsigned minor, uint64_t *rd, uint64_t *wr);

struct cgio;
struct cgio *cgio_new(void);
void cgio_free(struct cgio *c);
/* Closes the file (between runs). */
void cgio_close(struct cgio *c);
/* Reads path (version 1: blkio.throttle.io_service_bytes, 2: io.stat) for
 * the disk disk (kernel name; a partition counts as its whole disk) into s
 * and sets SAMPLE_HAVE_CG_IO (and _WB on v2); opens path when it is not
 * the one open.  Leaves s alone and returns -1 when it cannot be read. */
int cgio_read(struct cgio *c, const char *path, int version, const char *disk, struct sample *s);

#endif
