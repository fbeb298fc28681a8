/*
 * record_format — what the --record writer and reader share (internal to
 * src/recording/, not part of record.h's API): the table of a sample's
 * fields with their short keys and the disk table's columns.  The keys and
 * the column names are the file format: changing one is a major version
 * (record.h); adding one is a minor.
 */
#ifndef LRUTOP_RECORD_FORMAT_H
#define LRUTOP_RECORD_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "sampling/residency.h"
#include "sampling/sample.h"

/* A number's member: its C type.  F_NONE: a row of record_key_ranges the
 * reader takes by hand (record_key_range). */
enum ftype { F_NONE, F_U64, F_U32, F_F32, F_U8, F_INT, F_LONG, F_F64 };

/* The integer member of type t (F_U64 to F_LONG, not the reals) at p as
 * the file holds it, an int64 (a uint64_t as its two's complement); and v
 * stored back into one. */
int64_t record_int_get(const void *p, enum ftype t);
void record_int_set(void *p, enum ftype t, int64_t v);

/* What a number read from a recording may be (issue 26, 7): the range the
 * kernel, or lrutop's own options and arithmetic, can produce — counters
 * not negative and within their type, PSI 0 to 100, times below a
 * century, the page size a power of two, the interval the CLI's — so that
 * a value no run can have is "FILE:LINE: KIND: \"KEY\": V is out of range
 * (LO to HI)", exit 2, and not 18446744073709551611 or inf further on.
 * An integer is compared as the file holds it, an int64 (a uint64_t is
 * written as its two's complement: a counter's range ends at INT64_MAX, a
 * row that takes any uint64_t says INT64_MIN to INT64_MAX); a real must
 * be finite, and null (NaN: unknown) only where null_ok says so.  The
 * sample's fields have theirs as a column of record_fields; every other
 * number's is a row of record_key_ranges.  tests/unit/test_record_range.c
 * tries every bound of both, and that every number the writer emits has
 * one. */
struct record_range {
	int64_t lo, hi;	 /* an integer's bounds */
	double rlo, rhi; /* a real's */
	uint8_t real;	 /* a number (written as a double), not an integer */
	uint8_t null_ok; /* null is a value it can have */
	uint8_t pow2;	 /* a power of two, too */
};

struct field {
	const char *key; /* stable: changing one is a major version */
	uint32_t group;	 /* SAMPLE_HAVE_* */
	size_t off;
	enum ftype type;
	struct record_range range;
};

/* The sample's fields in file order: a group's fields are written when its
 * have bit is set and read back into the same offsets. */
extern const struct field record_fields[];
extern const size_t record_nfields;

/* The have bits a file may carry; others are dropped on write and read. */
#define HAVE_KNOWN                                                                                 \
	(SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_VMX | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CPU | \
	 SAMPLE_HAVE_PSI_MEM | SAMPLE_HAVE_PSI_IO | SAMPLE_HAVE_CG | SAMPLE_HAVE_CG_DEACT |        \
	 SAMPLE_HAVE_RES | SAMPLE_HAVE_PROBE | SAMPLE_HAVE_CG_IO | SAMPLE_HAVE_CG_IO_WB |          \
	 SAMPLE_HAVE_GEN | SAMPLE_HAVE_GEN_CG | SAMPLE_HAVE_MGLRU)

/* A column of the page-cache map ("pcmap" lines, residency.h): n counts as
 * text, lowercase hex numbers split by ',', a run of K equal ones written
 * once as "V*K" (K decimal): "1000*40,3a7,0*23".  RECORD_MAP_TEXT bytes
 * hold any column (the NUL included). */
#define RECORD_MAP_TEXT (RESIDENCY_MAP_MAX * 9 + 1)
/* The columns of a file's map: key and member (uint32_t[n]). */
#define RECORD_MAP_NCOLS 5
extern const struct record_map_col {
	const char *key;
	size_t off;
} record_map_cols[RECORD_MAP_NCOLS];
void record_map_encode(const uint32_t *v, int n, char buf[RECORD_MAP_TEXT]);
/* The text back into exactly n counts: 0, or -1 (bad syntax, a number
 * past UINT32_MAX, more or fewer than n). */
int record_map_decode(const char *s, uint32_t *v, int n);

/* Every number of a recording but the sample's fields, by the line kind
 * and key docs/recording.md names it with ("header", "header.config",
 * "sample" for the sample's own keys, "disk" for a disk row's columns,
 * "event", "pcmap", "pcmap.src", "pcmap.dst", "result", "result.res",
 * "result.probe").  A row with a type is also where the reader puts the
 * number and the writer takes it from: the member at off of the line's
 * struct (record_header, record_config, run_result, probe_figures), read
 * in the table's order; F_NONE rows the reader takes by hand. */
struct record_key_range {
	const char *line, *key;
	struct record_range range;
	size_t off;
	enum ftype type;
};
extern const struct record_key_range record_key_ranges[];
extern const size_t record_nkey_ranges;
/* The row of line after k (NULL: the first) that has a member, NULL
 * after the last: the numbers the reader puts into line's struct and the
 * writer takes from it, in the table's order. */
const struct record_key_range *record_member_next(const char *line,
						  const struct record_key_range *k);
/* The row of line's key; NULL when there is none. */
const struct record_range *record_range_of(const char *line, const char *key);
/* The range as the error sentence says it: "0 to 100", "a power of two,
 * 4096 to 1048576". */
void record_range_text(const struct record_range *g, char *buf, size_t len);

/* The disk table's columns, in "disk_columns" order. */
#define NDCOL 12
extern const char *const record_disk_columns[NDCOL];

/* A disk's counters as one row of the table. */
void record_disk_row(const struct disk_counters *d, uint64_t v[NDCOL]);
/* A row back into counters; -1 when a uint32/int column is out of range. */
int record_disk_set(struct disk_counters *d, const uint64_t v[NDCOL]);
/* The row of the device named name in t (the table before: a row left
 * out is the same as there), NULL when t is NULL or has none. */
const struct disk_counters *record_disk_find(const struct disktab *t, const char *name);

#endif
