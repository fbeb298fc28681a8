/*
 * record_reader — what the recording reader's three files share (internal
 * to src/recording/, not part of record.h's API): the handle, the jansson
 * arena a line is parsed into, the key table of a sample line and the
 * read-ahead's ring.  record_read.c is the reader's API and its loop
 * (open, read lines, next, marks, seek, close), record_decode.c the
 * decoders of the header and of each item kind with the key table and the
 * range checks, record_ahead.c the arena and the read-ahead threads.
 */
#ifndef LRUTOP_RECORD_READER_H
#define LRUTOP_RECORD_READER_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

#include "recording/gzindex.h"
#include "recording/record.h"
#include "recording/record_format.h"

/* ---- a line's allocations: a bump arena ---------------------------------- */

/* jansson allocates every value, key and hash bucket of a parsed line
 * (malloc/free were a quarter of a line's decode).  While the reader
 * parses and checks a line, jansson's allocations come from the
 * recording's arena instead: a bump pointer, reset for the next line, and
 * nothing freed one by one.  The functions are process-wide
 * (json_set_alloc_funcs) but the arena is the calling thread's and only
 * while a line is parsed (arena_cur): any other allocation, the writer's
 * or another thread's, is malloc/free as before, and so is one that does
 * not fit (a line near RECORD_LINE_MAX): free() tells the two apart by
 * the address.  With the read-ahead a line is parsed into its slot's
 * arena on a worker and converted with arena_cur on that arena on the
 * caller's thread, so the caller's frees of it are no-ops too. */
#define ARENA_SIZE (256u * 1024)

struct arena {
	char *base;
	size_t used;
	unsigned spilled; /* allocations that did not fit: malloc'd */
};

/* ---- a sample line's keys: one pass over the object ----------------------- */

/* A sample line is ~100 keys: looking each up (json_object_get: a hash of
 * the key and a walk of its bucket) cost as much as reading them once.
 * The line's object is walked once and each key of the format put in its
 * slot by a small open-addressed table of the keys packed into 32 bits
 * (every key is at most 4 bytes); the checks then read the slots in the
 * format's order, so a bad line gives the same sentence as before. */
enum {
	S_K,
	S_T,
	S_RUN,
	S_PH,
	S_ST,
	S_HV,
	S_DK,
	S_DKN,
	S_DKT,
	S_FIELD0, /* record_fields[i] is slot S_FIELD0 + i */
};
#define KEYTAB_SIZE 512 /* a power of two, > 4 × the keys */

struct keytab {
	uint32_t key[KEYTAB_SIZE]; /* packed, 0: empty */
	uint16_t slot[KEYTAB_SIZE];
	size_t nslots;
};

/* ---- the handle ------------------------------------------------------ */

struct feed; /* a stream's bytes (record_stream.c) */

struct recording {
	char *path;
	gzFile gz; /* a plain file's reader (zlib's, "direct"): NULL for gzip */
	int gzip;
	int fd;			  /* the file (gz's; pread by zr and the index's readers) */
	struct gzindex_job *zjob; /* lent by recording_use_index: seeks use its points */
	/* a gzip file's reader (gzindex.h): from the top, or after a seek from
	 * an access point.  Not zlib's gzread, which ends the data at bytes
	 * after the last member that are no gzip without a word (issue 26, 10) */
	struct gzread *zr;
	unsigned line;	/* lines consumed so far */
	unsigned blank; /* blank lines in a row just before the next (RECORD_LINE_MAX at most) */
	char *buf;	/* [pos, len) is read but not consumed */
	size_t cap, len, pos;
	size_t scan;  /* [pos, pos + scan) holds no newline (a stream's line not whole yet) */
	uint64_t got; /* bytes gzread gave so far: buf[len] is at offset got */
	int eof;      /* the last read returned nothing more */
	int cut;      /* the gzip stream stopped short */
	int failed;
	char error[512];
	char warning[512];
	/* a stream (recording_stream_new): the bytes fed, not a file (fd -1) */
	struct feed *feed;
	int have_header, over; /* the stream's header read; its end said (2 given) */
	/* recording_check_order: a sample earlier than last_t is an error */
	int in_order;
	uint64_t last_t;
	struct record_header h;
	int8_t phase_map[256]; /* recorded phase index → this build's */
	int nphases;
	uint8_t strat_map[256]; /* recorded strategy index → this build's */
	int nstrats;
	struct disktab prev; /* the last table read, for the row deltas */
	int have_prev;
	struct arena arena; /* a line's jansson values */
	struct keytab keys; /* a sample line's keys → slots */
	json_t **slot;	    /* the line's value of each slot, NULL: absent */
	/* the ranges of a sample's own keys (by slot: NULL for "k", "dk",
	 * "dkn") and of a disk row's columns, looked up once */
	const struct record_range *fixed[S_FIELD0], *disk[NDCOL];
	struct ahead *ahead; /* recording_read_ahead's pipeline, NULL: off */
};

/* ---- read-ahead: the lines parsed on other threads ----------------------- */

/* A line's parse (json_loadb) is three quarters of its cost and needs
 * nothing but the line, so it can run ahead on the other cores; reading
 * (inflating, finding the newlines) and the conversion stay on the
 * caller's thread, the conversion because a disk row is a delta against
 * the table before.  The caller reads lines into a ring of slots (each
 * with its own copy of the line and its own arena), workers parse the
 * slots in order, and recording_next takes the slot at the head (parsing
 * the next unstarted one itself while it waits for it), converts
 * it with arena_cur on the slot's arena (so jansson's frees of it stay
 * no-ops) and gives it back.  What a line has to say — its error, the cut
 * last line — is said when its slot reaches the head, so the items, the
 * errors and the warning are those the caller's thread alone would give.
 * Everything is allocated when the read-ahead starts; a slot's copy grows
 * only for a line longer than any before. */
#define AHEAD_SLOTS	  16 /* lines read ahead, at most */
#define AHEAD_THREADS_MAX 8
#define AHEAD_LINE0	  4096 /* a slot's copy at first (a sample line is ~1.4 kB) */

struct slot {
	char *text; /* the line's copy */
	size_t cap, n;
	int rc;	       /* rd_line's: 1 a line, 2 a cut last line, 0 the end, -1 an error */
	unsigned line; /* its number */
	uint64_t off;  /* where the line after it starts (recording_mark) */
	json_t *o;     /* the parse, in arena; NULL: not JSON (je), or nothing to parse */
	json_error_t je;
	int parsed; /* under mu */
	struct arena arena;
};

struct ahead {
	pthread_mutex_t mu;
	pthread_cond_t work; /* a slot to parse, or stop */
	pthread_cond_t done; /* a slot parsed */
	pthread_t tid[AHEAD_THREADS_MAX];
	int want, nthreads;
	int idle, waiting, stop; /* under mu */
	/* slot[q % AHEAD_SLOTS] holds line q of the read-ahead: [head, tail)
	 * are read, [head, parse) taken by a parser.  parse and tail change
	 * under mu; head and the rest are the caller's alone. */
	uint64_t head, parse, tail;
	int reading_done;    /* the last slot read was the end or an error */
	unsigned read_line;  /* the reader's line count (r->line is the items') */
	uint64_t off;	     /* where the line after the last one taken starts */
	char end_error[512]; /* the reader's error (rc -1) */
	struct slot slot[AHEAD_SLOTS];
};

/* ---- record_read.c: the lines ------------------------------------------- */

/* Fails the handle: one sentence "FILE:LINE: why" (line 0: "FILE: why")
 * kept in r->error and copied to err; later calls say it again.  -1. */
int rd_fail(struct recording *r, char *err, size_t errlen, unsigned line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* The next line without its newline: 1 (*line, *n), 0 at the end, 2 a last
 * line without newline (partial), 3 a stream's next line has not come
 * whole yet (feed more), -1 error. */
int rd_line(struct recording *r, char **line, size_t *n, char *err, size_t errlen);
/* recording_next on the caller's thread alone (read, parse, convert): 1
 * an item, 0 the end, 3 a stream's next line not whole yet, -1. */
int rd_next_here(struct recording *r, struct record_item *it, char *err, size_t errlen);
/* A handle that reads nothing yet: the decoders' tables and arena set up,
 * no file (fd -1). */
struct recording *rd_new(const char *path);
/* Line 1, the header, read and decoded: 0, 3 (a stream: not whole yet),
 * or -1 + err. */
int rd_open_header(struct recording *r, char *err, size_t errlen);
/* Line r->line (n bytes, not blank) parsed and decoded: rd_item's 1, 0 or
 * -1. */
int rd_decode(struct recording *r, const char *line, size_t n, struct record_item *it, char *err,
	      size_t errlen);
/* recording_check_order's rule for item it: 0, or -1 + "FILE:LINE: sample:
 * time goes backwards" (the handle failed). */
int rd_order(struct recording *r, const struct record_item *it, char *err, size_t errlen);
/* What json_loadb made of line r->line: the object, or NULL + error. */
json_t *rd_json_check(struct recording *r, json_t *j, const json_error_t *je, char *err,
		      size_t errlen);
/* The (decompressed) offset of the next line rd_line would give. */
uint64_t rd_offset(const struct recording *r);
/* How a cut's warning ends: a file's rest replays, a stream's items up to
 * the cut were given as they came. */
#define RD_CUT_FILE   "the rest replays"
#define RD_CUT_STREAM "what came before it is kept"
/* The end of the items (rd_line's 0 or 2), with the warning of a cut. */
int rd_end(struct recording *r, int rc);

/* ---- record_stream.c: a stream's bytes --------------------------------- */

/* Up to n bytes of what was fed (gzip: inflated), the way rd_fill reads a
 * file: > 0 bytes, 0 the end (the end was said and all is taken; *cut set
 * when a gzip member stopped short), FEED_WAIT for bytes not fed yet, -1
 * + why (corrupt gzip; bytes after the last member that are no gzip:
 * *garbage set). */
#define FEED_WAIT (-2)
long feed_read(struct feed *f, char *buf, size_t n, int *cut, int *garbage, char *why,
	       size_t whylen);
void feed_free(struct feed *f);

/* ---- record_decode.c: the header and the items ------------------------- */

/* The sample line's keys and their slots. */
void keytab_init(struct keytab *t);
/* The header line, parsed into o, into r->h and the name maps: 0 or -1 + err. */
int rd_header(struct recording *r, json_t *o, char *err, size_t errlen);
/* Line r->line, parsed into o: its item in *it.  1 an item, 0 a kind from
 * a newer minor version (skipped), -1 + err. */
int rd_item(struct recording *r, json_t *o, struct record_item *it, char *err, size_t errlen);

/* ---- record_ahead.c: the arena and the read-ahead ----------------------- */

/* jansson's allocation functions (json_set_alloc_funcs): the calling
 * thread's arena while a line is parsed, malloc/free otherwise. */
void *arena_malloc(size_t n);
void arena_free(void *p);
/* Parses with the arena: jansson's allocations from here to arena_end. */
void arena_begin(struct arena *a);
/* Ends the line: o's tree is dropped; only what spilled is freed. */
void arena_end(struct arena *a, json_t *o);
/* Starts the workers not running: how many run. */
int ahead_start(struct ahead *a);
/* Joins the workers; a slot one of them took is parsed by then. */
void ahead_stop(struct ahead *a);
/* Empties the ring (no worker running): the reader starts afresh. */
void ahead_drop(struct ahead *a);
void ahead_free(struct ahead *a);
/* recording_next with the read-ahead: the items of rd_next_here, from the slots. */
int rd_next_ahead(struct recording *r, struct record_item *it, char *err, size_t errlen);

#endif
