#include "recording/record.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "recording/gzindex.h"
#include "recording/record_format.h"
#include "runs/strategy.h"
#include "model/sweep.h"
#include "base/util.h"

/* ---- values ----------------------------------------------------------- */

/* Reads a double written by jdouble (an integer is accepted too). */
static int get_double(const json_t *j, double *out)
{
	if (json_is_null(j)) {
		*out = NAN;
		return 0;
	}
	if (json_is_string(j)) {
		if (!strcmp(json_string_value(j), "inf"))
			*out = INFINITY;
		else if (!strcmp(json_string_value(j), "-inf"))
			*out = -INFINITY;
		else
			return -1;
		return 0;
	}
	if (!json_is_number(j))
		return -1;
	*out = json_number_value(j);
	return 0;
}

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

static _Thread_local struct arena *arena_cur;

static void *arena_malloc(size_t n)
{
	struct arena *a = arena_cur;
	if (a) {
		size_t at = (a->used + 15) & ~(size_t)15;
		if (n <= ARENA_SIZE && at <= ARENA_SIZE - n) {
			a->used = at + n;
			return a->base + at;
		}
		a->spilled++;
	}
	return malloc(n);
}

static void arena_free(void *p)
{
	struct arena *a = arena_cur;
	if (a && (char *)p >= a->base && (char *)p < a->base + ARENA_SIZE)
		return; /* the arena's: reset with the line */
	free(p);
}

/* Parses with the arena: jansson's allocations from here to arena_end. */
static void arena_begin(struct arena *a)
{
	a->used = 0;
	a->spilled = 0;
	arena_cur = a;
}

/* Drops a tree parsed into a (on any thread): only what spilled is freed,
 * and arena_free must see a's range to leave the rest alone. */
static void arena_drop(struct arena *a, json_t *o)
{
	if (!o || !a->spilled)
		return;
	struct arena *was = arena_cur;
	arena_cur = a;
	json_decref(o);
	arena_cur = was;
}

/* Ends the line: o's tree is dropped; only what spilled is freed. */
static void arena_end(struct arena *a, json_t *o)
{
	if (a->spilled)
		json_decref(o); /* the arena's parts are no-ops in arena_free */
	arena_cur = NULL;
}

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

/* The key's bytes (1 to 4) as a number; 0 for any other length. */
static uint32_t key_pack(const char *k, size_t n)
{
	if (n < 1 || n > 4)
		return 0;
	uint32_t v = 0;
	for (size_t i = 0; i < n; i++)
		v = v << 8 | (unsigned char)k[i];
	return v;
}

static unsigned key_hash(uint32_t v)
{
	return (unsigned)((v * 2654435761u) >> 23) & (KEYTAB_SIZE - 1);
}

static void keytab_add(struct keytab *t, const char *k, unsigned slot)
{
	uint32_t v = key_pack(k, strlen(k));
	unsigned h = key_hash(v);
	while (t->key[h] && t->key[h] != v)
		h = (h + 1) & (KEYTAB_SIZE - 1);
	t->key[h] = v;
	t->slot[h] = (uint16_t)slot;
}

static void keytab_init(struct keytab *t)
{
	static const char *const fixed[S_FIELD0] = {"k",  "t",	"run", "ph", "st",
						    "hv", "dk", "dkn", "dkt"};
	memset(t, 0, sizeof(*t));
	for (unsigned i = 0; i < S_FIELD0; i++)
		keytab_add(t, fixed[i], i);
	for (size_t i = 0; i < record_nfields; i++)
		keytab_add(t, record_fields[i].key, (unsigned)(S_FIELD0 + i));
	t->nslots = S_FIELD0 + record_nfields;
}

/* The slot of key k (n bytes), -1 for a key the format does not have. */
static int keytab_find(const struct keytab *t, const char *k, size_t n)
{
	uint32_t v = key_pack(k, n);
	if (!v)
		return -1;
	for (unsigned h = key_hash(v); t->key[h]; h = (h + 1) & (KEYTAB_SIZE - 1))
		if (t->key[h] == v)
			return t->slot[h];
	return -1;
}

/* ---- reader ----------------------------------------------------------- */

#define CHUNK 65536

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
	char *buf;     /* [pos, len) is read but not consumed */
	size_t cap, len, pos;
	uint64_t got; /* bytes gzread gave so far: buf[len] is at offset got */
	int eof; /* the last read returned nothing more */
	int cut; /* the gzip stream stopped short */
	int failed;
	char error[512];
	char warning[512];
	struct record_header h;
	int8_t phase_map[256]; /* recorded phase index → this build's */
	int nphases;
	uint8_t strat_map[256]; /* recorded strategy index → this build's */
	int nstrats;
	struct disktab prev; /* the last table read, for the row deltas */
	int have_prev;
	struct arena arena;  /* a line's jansson values */
	struct keytab keys;  /* a sample line's keys → slots */
	json_t **slot;	     /* the line's value of each slot, NULL: absent */
	/* the ranges of a sample's own keys (by slot: NULL for "k", "dk",
	 * "dkn") and of a disk row's columns, looked up once */
	const struct record_range *fixed[S_FIELD0], *disk[NDCOL];
	struct ahead *ahead; /* recording_read_ahead's pipeline, NULL: off */
};

static int rd_fail(struct recording *r, char *err, size_t errlen, unsigned line, const char *fmt,
		   ...) __attribute__((format(printf, 5, 6)));
static int rd_fail(struct recording *r, char *err, size_t errlen, unsigned line, const char *fmt,
		   ...)
{
	va_list ap;
	char why[320];

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (line)
		errf(r->error, sizeof(r->error), "%s:%u: %s", r->path, line, why);
	else
		errf(r->error, sizeof(r->error), "%s: %s", r->path, why);
	r->failed = 1;
	return errf(err, errlen, "%s", r->error);
}

/* j as an int64 (any integer); -1 when missing or not an integer. */
static int get_int(const json_t *j, json_int_t *out)
{
	if (!json_is_integer(j))
		return -1;
	*out = json_integer_value(j);
	return 0;
}

/* ---- every number in its range (record_format.h) ------------------------- */

static int rd_out_of_range(struct recording *r, const char *kind, const char *key,
			   const struct record_range *g, const char *value, char *err,
			   size_t errlen)
{
	char t[96];
	record_range_text(g, t, sizeof(t));
	return rd_fail(r, err, errlen, r->line, "%s: \"%s\": %s is out of range (%s)", kind, key,
		       value, t);
}

/* j, the value of key on a line of kind (the sentence's word), as an
 * integer in g: 0 with *v, or -1 + "KIND: "KEY" missing or not an
 * integer" / "KIND: "KEY": V is out of range (LO to HI)". */
static int rd_int_in(struct recording *r, const char *kind, const char *key, const json_t *j,
		     const struct record_range *g, json_int_t *v, char *err, size_t errlen)
{
	if (get_int(j, v) != 0)
		return rd_fail(r, err, errlen, r->line, "%s: \"%s\" missing or not an integer",
			       kind, key);
	if (*v < g->lo || *v > g->hi || (g->pow2 && (*v & (*v - 1)))) {
		char n[32];
		snprintf(n, sizeof(n), "%lld", (long long)*v);
		return rd_out_of_range(r, kind, key, g, n, err, errlen);
	}
	return 0;
}

/* The same for a real (get_double: null is NaN, "inf" infinity): finite
 * and in g, or NaN where g->null_ok. */
static int rd_real_in(struct recording *r, const char *kind, const char *key, const json_t *j,
		      const struct record_range *g, double *d, char *err, size_t errlen)
{
	if (!j || get_double(j, d) != 0)
		return rd_fail(r, err, errlen, r->line, "%s: \"%s\" missing or not a number", kind,
			       key);
	if (isnan(*d)) {
		if (g->null_ok)
			return 0;
		return rd_fail(r, err, errlen, r->line,
			       "%s: \"%s\": null is not a value it can have", kind, key);
	}
	if (!(*d >= g->rlo && *d <= g->rhi)) {
		char n[32];
		snprintf(n, sizeof(n), "%g", *d);
		return rd_out_of_range(r, kind, key, g, n, err, errlen);
	}
	return 0;
}

/* The range of line's key from record_key_ranges; a key without one is
 * this build's mistake (test_record_range finds it first). */
static const struct record_range *rd_range(struct recording *r, const char *line, const char *key,
					   char *err, size_t errlen)
{
	const struct record_range *g = record_range_of(line, key);
	if (!g)
		rd_fail(r, err, errlen, r->line, "%s: \"%s\": no range for it in this build", line,
			key);
	return g;
}

/* obj[key] on a line of kind, in its table range (rd_int_in); line names
 * the row (the sentence says kind: "result: probe" for "result.probe"). */
static int rd_int(struct recording *r, const char *kind, const char *line, const json_t *obj,
		  const char *key, json_int_t *v, char *err, size_t errlen)
{
	const struct record_range *g = rd_range(r, line, key, err, errlen);
	return g ? rd_int_in(r, kind, key, json_object_get(obj, key), g, v, err, errlen) : -1;
}

static int rd_real(struct recording *r, const char *kind, const char *line, const json_t *obj,
		   const char *key, double *d, char *err, size_t errlen)
{
	const struct record_range *g = rd_range(r, line, key, err, errlen);
	return g ? rd_real_in(r, kind, key, json_object_get(obj, key), g, d, err, errlen) : -1;
}

/* Reads more bytes into the buffer: 1 some, 0 none (eof), -1 error.
 * Every read loop comes here once its buffer (a chunk, a long line at
 * most) is used up, whatever the lines were (blank, of a kind skipped),
 * so this is where a terminating signal (sig_caught: SIGINT, SIGTERM,
 * SIGHUP) ends the reading, as the exports' loops check it: "FILE:LINE:
 * interrupted", and main exits 128 + N. */
static int rd_fill(struct recording *r, char *err, size_t errlen)
{
	if (r->eof)
		return 0;
	if (sig_caught())
		return rd_fail(r, err, errlen, r->line + 1, "interrupted");
	if (r->pos > 0) {
		memmove(r->buf, r->buf + r->pos, r->len - r->pos);
		r->len -= r->pos;
		r->pos = 0;
	}
	if (r->cap - r->len < CHUNK) {
		size_t want = r->len + CHUNK;
		if (want > RECORD_LINE_MAX + CHUNK)
			want = RECORD_LINE_MAX + CHUNK;
		if (want > r->cap) {
			r->buf = xrealloc(r->buf, want);
			r->cap = want;
		}
	}
	long n;
	if (r->zr) { /* gzip */
		char why[200] = "";
		n = gzread_read(r->zr, r->buf + r->len, r->cap - r->len, &r->cut, why, sizeof(why));
		if (n < 0) /* bytes after the data are the file's fault, on no line */
			return rd_fail(r, err, errlen, gzread_garbage(r->zr) ? 0 : r->line + 1,
				       "%s", why);
	} else {
		errno = 0;
		n = gzread(r->gz, r->buf + r->len, (unsigned)(r->cap - r->len));
		int code = Z_OK;
		const char *msg = gzerror(r->gz, &code);
		if (n < 0 || (code != Z_OK && code != Z_BUF_ERROR)) {
			if (code == Z_ERRNO)
				return rd_fail(r, err, errlen, r->line + 1, "read error: %s",
					       strerror(errno ? errno : EIO));
			return rd_fail(r, err, errlen, r->line + 1, "corrupt gzip data (%s)",
				       msg && *msg ? msg : "zlib failed");
		}
		if (code == Z_BUF_ERROR)
			r->cut = 1;
	}
	if (n == 0) {
		r->eof = 1;
		return 0;
	}
	r->len += (size_t)n;
	r->got += (uint64_t)n;
	return 1;
}

/* Counts the line rd_line is about to give: -1 + err past UINT_MAX lines
 * (a line number would wrap). */
static int rd_count(struct recording *r, char *err, size_t errlen)
{
	if (r->line == UINT_MAX)
		return rd_fail(r, err, errlen, r->line, "more than %u lines (not a recording)",
			       UINT_MAX);
	r->line++;
	return 0;
}

/* The next line without its newline: 1 (*line, *n), 0 at the end, 2 a last
 * line without newline (partial), -1 error.  A blank line after the
 * header carries nothing and is passed over here (counted: the line
 * numbers stay the file's), but a run of them counts as one line does
 * toward RECORD_LINE_MAX: a megabyte of newlines is no more a recording
 * than a megabyte without one (2e8 of them were 49 s of reading, deaf to
 * SIGTERM). */
static int rd_line(struct recording *r, char **line, size_t *n, char *err, size_t errlen)
{
	size_t scanned = 0;
	for (;;) {
		char *nl = r->len > r->pos + scanned
			       ? memchr(r->buf + r->pos + scanned, '\n', r->len - r->pos - scanned)
			       : NULL;
		if (nl) {
			*line = r->buf + r->pos;
			*n = (size_t)(nl - *line);
			r->pos += *n + 1;
			if (rd_count(r, err, errlen) < 0)
				return -1;
			if (*n > RECORD_LINE_MAX)
				return rd_fail(r, err, errlen, r->line,
					       "line longer than %u bytes (not a recording)",
					       RECORD_LINE_MAX);
			if (*n == 0 && r->line > 1) {
				if (++r->blank > RECORD_LINE_MAX)
					return rd_fail(
					    r, err, errlen, r->line,
					    "more than %u blank lines in a row (not a recording)",
					    RECORD_LINE_MAX);
				scanned = 0;
				continue;
			}
			r->blank = 0;
			return 1;
		}
		scanned = r->len - r->pos;
		if (scanned > RECORD_LINE_MAX)
			return rd_fail(r, err, errlen, r->line + 1,
				       "line longer than %u bytes (not a recording)",
				       RECORD_LINE_MAX);
		int f = rd_fill(r, err, errlen);
		if (f < 0)
			return -1;
		if (f == 0) {
			if (r->len == r->pos)
				return 0;
			*line = r->buf + r->pos;
			*n = r->len - r->pos;
			r->pos = r->len;
			if (rd_count(r, err, errlen) < 0)
				return -1;
			return 2;
		}
	}
}

/* What json_loadb made of line r->line (j, or NULL and je): the object, or
 * NULL + error naming the line.  Apart from the parse, which the
 * read-ahead does on another thread. */
static json_t *rd_json_check(struct recording *r, json_t *j, const json_error_t *je, char *err,
			     size_t errlen)
{
	if (!j) {
		rd_fail(r, err, errlen, r->line, "not JSON (%s at column %d)", je->text, je->column);
		return NULL;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		rd_fail(r, err, errlen, r->line, "not a JSON object");
		return NULL;
	}
	return j;
}

/* Parses one line as a JSON object; NULL + error naming the line. */
static json_t *rd_json(struct recording *r, const char *line, size_t n, char *err, size_t errlen)
{
	json_error_t je;
	json_t *j = json_loadb(line, n, 0, &je);
	return rd_json_check(r, j, &je, err, errlen);
}

/* The (decompressed) offset of the next line rd_line would give. */
static uint64_t rd_offset(const struct recording *r)
{
	return r->got - (r->len - r->pos);
}

static void copy_str(char *dst, size_t n, const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	strlcpy_(dst, s ? s : "", n);
}

static int rd_header(struct recording *r, json_t *o, char *err, size_t errlen)
{
	json_t *maj = json_object_get(o, "lrutop_record");
	if (!maj)
		return rd_fail(r, err, errlen, 1,
			       "not an lrutop recording (no \"lrutop_record\" key)");
	if (!json_is_integer(maj))
		return rd_fail(r, err, errlen, 1, "\"lrutop_record\" is not a version number");
	json_int_t v = json_integer_value(maj);
	const struct record_range *g = record_range_of("header", "lrutop_record");
	if (v < g->lo || v > g->hi)
		return rd_fail(r, err, errlen, 1,
			       "recording format version %lld is not supported (this lrutop reads "
			       "version %d)",
			       (long long)v, RECORD_MAJOR);
	struct record_header *h = &r->h;
	h->major = (int)v;
	/* each number in its range; one the file does not say is not known
	 * (0), as the writer leaves out what it does not know — "page_size":0
	 * is a lie, no page size an honest hand-made file.  A minor above
	 * this build's is read: its new keys and lines are skipped. */
	const char *kind = "header";
#define HDR_INT(key, dst, type)                                                                    \
	do {                                                                                       \
		v = 0;                                                                             \
		if (json_object_get(o, key) && rd_int(r, kind, kind, o, key, &v, err, errlen) < 0) \
			return -1;                                                                 \
		(dst) = (type)v;                                                                   \
	} while (0)
	HDR_INT("minor", h->minor, int);
	HDR_INT("page_size", h->page_size, long);
	HDR_INT("cpus", h->cpus, int);
	HDR_INT("mem_total_kb", h->mem_total_kb, uint64_t);
	HDR_INT("cgroup", h->cgroup_version, int);
	HDR_INT("start_mono_ns", h->start_mono_ns, uint64_t);
#undef HDR_INT
	h->interval_s = 0;
	if (json_object_get(o, "interval_s") &&
	    rd_real(r, kind, kind, o, "interval_s", &h->interval_s, err, errlen) < 0)
		return -1;
	copy_str(h->version, sizeof(h->version), o, "version");
	copy_str(h->kernel, sizeof(h->kernel), o, "kernel");
	copy_str(h->host, sizeof(h->host), o, "host");
	copy_str(h->device, sizeof(h->device), o, "device");
	copy_str(h->device_how, sizeof(h->device_how), o, "device_how");
	copy_str(h->device_kind, sizeof(h->device_kind), o, "device_kind");
	h->mglru = json_is_true(json_object_get(o, "mglru")); /* absent in older recordings: off */
	copy_str(h->start_wall, sizeof(h->start_wall), o, "start_wall");
	copy_str(h->notes, sizeof(h->notes), o, "notes");
	json_t *argv = json_object_get(o, "argv");
	size_t na = json_is_array(argv) ? json_array_size(argv) : 0;
	if (na > 4096)
		return rd_fail(r, err, errlen, 1, "\"argv\" has %zu entries (at most 4096)", na);
	h->argv = xcalloc(na + 1, sizeof(char *));
	for (size_t i = 0; i < na; i++) {
		const char *s = json_string_value(json_array_get(argv, i));
		h->argv[h->argc++] = xstrdup(s ? s : "");
	}

	/* this build's indices for the recorded phase and strategy names;
	 * without the lists (a hand-made file) the indices are taken as they are */
	json_t *ph = json_object_get(o, "phases"), *st = json_object_get(o, "strategies");
	r->nphases = json_is_array(ph) ? (int)json_array_size(ph) : -1;
	r->nstrats = json_is_array(st) ? (int)json_array_size(st) : -1;
	if (r->nphases > 128 || r->nstrats > 255)
		return rd_fail(r, err, errlen, 1, "too many phases or strategies in the header");
	for (int i = 0; i < r->nphases; i++) {
		const char *s = json_string_value(json_array_get(ph, (size_t)i));
		r->phase_map[i] = -1;
		for (int p = 0; s && p < PHASE_COUNT; p++)
			if (!strcmp(s, phase_name((enum phase)p)))
				r->phase_map[i] = (int8_t)p;
	}
	for (int i = 0; i < r->nstrats; i++) {
		const char *s = json_string_value(json_array_get(st, (size_t)i));
		r->strat_map[i] = RECORD_STRATEGY_UNKNOWN;
		for (size_t k = 0; s && k < strategy_count() && k < RECORD_STRATEGY_UNKNOWN; k++)
			if (!strcmp(s, strategy_at(k)->name))
				r->strat_map[i] = (uint8_t)k;
	}
	json_t *dc = json_object_get(o, "disk_columns");
	if (dc) {
		int same = json_is_array(dc) && (int)json_array_size(dc) == NDCOL;
		for (int i = 0; same && i < NDCOL; i++) {
			const char *s = json_string_value(json_array_get(dc, (size_t)i));
			same = s && !strcmp(s, record_disk_columns[i]);
		}
		if (!same)
			return rd_fail(
			    r, err, errlen, 1,
			    "unknown \"disk_columns\" (not written by this format version)");
	}
	return 0;
}

struct recording *recording_open(const char *path, char *err, size_t errlen)
{
	/* a FIFO would block here forever: a regular file, or - / /dev/stdin
	 * (which main made a file: stdin_to_file) */
	char why[200];
	int fd = open_input(path, why, sizeof(why));
	if (fd < 0) {
		errf(err, errlen, "%s: %s%s", path, why,
		     !strcmp(why, "is a directory") ? " (not a recording)" : "");
		return NULL;
	}
	unsigned char magic[2];
	ssize_t m = pread(fd, magic, 2, 0);
	struct recording *r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	r->arena.base = xmalloc(ARENA_SIZE);
	keytab_init(&r->keys);
	r->slot = xcalloc(r->keys.nslots, sizeof(*r->slot));
	static const char *const fixed_key[S_FIELD0] = {
	    [S_T] = "t",   [S_RUN] = "run", [S_PH] = "ph",
	    [S_ST] = "st", [S_HV] = "hv",   [S_DKT] = "dkt"};
	for (int i = 0; i < S_FIELD0; i++)
		r->fixed[i] = fixed_key[i] ? record_range_of("sample", fixed_key[i]) : NULL;
	for (int c = 0; c < NDCOL; c++)
		r->disk[c] = record_range_of("disk", record_disk_columns[c]);
	/* the same two functions every time: they hand out the arena only
	 * while a line is parsed (arena_begin), malloc/free otherwise */
	json_set_alloc_funcs(arena_malloc, arena_free);
	r->gzip = m == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
	r->fd = fd;
	why[0] = '\0';
	if (r->gzip) {
		r->zr = gzread_open(NULL, fd, 0, why, sizeof(why));
	} else {
		r->gz = gzdopen(fd, "rb");
		if (r->gz)
			gzbuffer(r->gz, CHUNK);
		else
			strlcpy_(why, strerror(errno ? errno : ENOMEM), sizeof(why));
	}
	if (!r->zr && !r->gz) {
		errf(err, errlen, "%s: %s", path, why);
		recording_close(r); /* closes fd */
		return NULL;
	}

	char *line;
	size_t n;
	int rc = rd_line(r, &line, &n, err, errlen);
	if (rc < 0)
		goto fail;
	if (rc == 0) {
		if (r->cut)
			rd_fail(r, err, errlen, 0, "gzip stream cut short before the header");
		else
			rd_fail(r, err, errlen, 0, "empty file (not a recording)");
		goto fail;
	}
	json_error_t je;
	json_t *o = json_loadb(line, n, 0, &je);
	if (!o || !json_is_object(o)) {
		if (rc == 2 && n > 0 && line[0] == '{')
			rd_fail(r, err, errlen, 1,
				"truncated header line (the recording was cut short)");
		else if (!o)
			rd_fail(r, err, errlen, 1, "not a recording (not JSON: %s)", je.text);
		else
			rd_fail(r, err, errlen, 1, "not a recording (not a JSON object)");
		json_decref(o);
		goto fail;
	}
	int partial = rc == 2;
	rc = rd_header(r, o, err, errlen);
	json_decref(o);
	if (rc != 0)
		goto fail;
	if (partial)
		snprintf(r->warning, sizeof(r->warning),
			 "%s:1: truncated last line (the recording was cut short); the rest "
			 "replays",
			 path);
	return r;
fail:
	recording_close(r);
	return NULL;
}

const struct record_header *recording_header(const struct recording *r)
{
	return &r->h;
}

int recording_is_gzip(const struct recording *r)
{
	return r->gzip;
}

const char *recording_warning(const struct recording *r)
{
	return r->warning[0] ? r->warning : NULL;
}

/* NEED_INT reads obj[key]; NEED_J a value already looked up (a slot) */
#define NEED_INT(o, key, v, lo, hi) NEED_J(json_object_get(o, key), key, v, lo, hi)
#define NEED_J(j, key, v, lo, hi)                                                                  \
	do {                                                                                       \
		if (get_int(j, &(v)) != 0)                                                         \
			return rd_fail(r, err, errlen, r->line,                                    \
				       "%s: \"%s\" missing or not an integer", kind, key);         \
		if ((v) < (lo) || (v) > (hi))                                                      \
			return rd_fail(r, err, errlen, r->line,                                    \
				       "%s: \"%s\": %lld is out of range (%lld to %lld)", kind,    \
				       key, (long long)(v), (long long)(lo), (long long)(hi));     \
	} while (0)

/* v = j, in range g (rd_int_in), or return -1 */
#define IN_RANGE(j, key, g, v)                                                                     \
	do {                                                                                       \
		if (rd_int_in(r, kind, key, j, g, &(v), err, errlen) < 0)                          \
			return -1;                                                                 \
	} while (0)
/* v = obj[key], in the range of the row (line, key), or return -1 */
#define KEY_INT(line, obj, key, v)                                                                 \
	do {                                                                                       \
		if (rd_int(r, kind, line, obj, key, &(v), err, errlen) < 0)                        \
			return -1;                                                                 \
	} while (0)

static int rd_disks(struct recording *r, json_t *o, struct record_item *it, char *err,
		    size_t errlen)
{
	const char *kind = "sample";
	json_t *dk = r->slot[S_DK], *dkn = r->slot[S_DKN];
	struct disktab *t = &it->disks;
	(void)o;

	if (!json_is_object(dk))
		return rd_fail(r, err, errlen, r->line, "sample: \"dk\" is not an object");
	memset(t, 0, sizeof(*t));
	if (dkn) {
		if (!json_is_array(dkn) || json_array_size(dkn) > DISKTAB_MAX)
			return rd_fail(r, err, errlen, r->line,
				       "sample: \"dkn\" is not a list of at most %d names",
				       DISKTAB_MAX);
		for (size_t i = 0; i < json_array_size(dkn); i++) {
			const char *s = json_string_value(json_array_get(dkn, i));
			if (!s || !*s || strlen(s) >= sizeof(t->dev[0].name))
				return rd_fail(r, err, errlen, r->line,
					       "sample: bad device name in \"dkn\"");
			for (size_t k = 0; k < i; k++)
				if (!strcmp(t->dev[k].name, s))
					return rd_fail(r, err, errlen, r->line,
						       "sample: device %s twice in \"dkn\"", s);
			strlcpy_(t->dev[i].name, s, sizeof(t->dev[i].name));
		}
		t->n = (int)json_array_size(dkn);
	} else {
		if (!r->have_prev)
			return rd_fail(r, err, errlen, r->line,
				       "sample: disk rows without \"dkn\" and no earlier table");
		t->n = r->prev.n;
		for (int i = 0; i < t->n; i++)
			memcpy(t->dev[i].name, r->prev.dev[i].name, sizeof(t->dev[i].name));
	}
	for (int i = 0; i < t->n; i++) {
		struct disk_counters *d = &t->dev[i];
		json_t *row = json_object_get(dk, d->name);
		if (!row) {
			const struct disk_counters *p = NULL;
			for (int k = 0; r->have_prev && k < r->prev.n && !p; k++)
				if (!strcmp(r->prev.dev[k].name, d->name))
					p = &r->prev.dev[k];
			if (!p)
				return rd_fail(r, err, errlen, r->line,
					       "sample: no row for new device %s", d->name);
			*d = *p;
			continue;
		}
		uint64_t v[NDCOL];
		if (!json_is_array(row) || json_array_size(row) != NDCOL)
			return rd_fail(r, err, errlen, r->line,
				       "sample: device %s: not a list of %d numbers", d->name,
				       NDCOL);
		char dkind[64];
		snprintf(dkind, sizeof(dkind), "sample: device %s", d->name);
		for (int c = 0; c < NDCOL; c++) {
			json_t *j = json_array_get(row, (size_t)c);
			json_int_t x;
			if (!json_is_integer(j))
				return rd_fail(r, err, errlen, r->line,
					       "sample: device %s: %s is not an integer", d->name,
					       record_disk_columns[c]);
			if (rd_int_in(r, dkind, record_disk_columns[c], j, r->disk[c], &x, err,
				      errlen) < 0)
				return -1;
			v[c] = (uint64_t)x;
		}
		if (record_disk_set(d, v) != 0)
			return rd_fail(r, err, errlen, r->line,
				       "sample: device %s: value out of range", d->name);
	}
	/* every row must belong to a listed device */
	const char *key;
	json_t *val;
	json_object_foreach(dk, key, val)
	{
		int found = 0;
		for (int i = 0; i < t->n && !found; i++)
			found = !strcmp(t->dev[i].name, key);
		if (!found)
			return rd_fail(r, err, errlen, r->line,
				       "sample: row for unlisted device %.32s", key);
	}
	json_int_t dt = 0;
	if (r->slot[S_DKT])
		IN_RANGE(r->slot[S_DKT], "dkt", r->fixed[S_DKT], dt);
	t->t_ns = it->sample.t_ns + (uint64_t)dt;
	it->have_disks = 1;
	r->prev = *t;
	r->have_prev = 1;
	return 0;
}

static int rd_sample(struct recording *r, json_t *o, struct record_item *it, char *err,
		     size_t errlen)
{
	const char *kind = "sample";
	struct sample *s = &it->sample;
	json_int_t v;

	json_t **sl = r->slot;
	IN_RANGE(sl[S_T], "t", r->fixed[S_T], v);
	s->t_ns = (uint64_t)v;
	IN_RANGE(sl[S_RUN], "run", r->fixed[S_RUN], v);
	s->run = (int16_t)v;
	IN_RANGE(sl[S_PH], "ph", r->fixed[S_PH], v);
	/* and an index into the header's list (this build's without one) */
	NEED_J(sl[S_PH], "ph", v, 0, r->nphases >= 0 ? r->nphases - 1 : PHASE_COUNT - 1);
	s->phase = r->nphases >= 0 ? r->phase_map[v] : (int8_t)v;
	if (s->phase < 0)
		return rd_fail(r, err, errlen, r->line, "sample: phase %lld has an unknown name",
			       (long long)v);
	IN_RANGE(sl[S_ST], "st", r->fixed[S_ST], v);
	s->strategy = (uint8_t)v;
	if (r->nstrats >= 0)
		s->strategy = v < r->nstrats ? r->strat_map[v] : RECORD_STRATEGY_UNKNOWN;
	else if ((size_t)v >= strategy_count()) /* no list: this build's indexes */
		s->strategy = RECORD_STRATEGY_UNKNOWN;
	IN_RANGE(sl[S_HV], "hv", r->fixed[S_HV], v);
	s->have = (uint32_t)v & HAVE_KNOWN;
	for (size_t i = 0; i < record_nfields; i++) {
		const struct field *f = &record_fields[i];
		char *p = (char *)s + f->off;
		if (!(s->have & f->group))
			continue;
		json_t *j = sl[S_FIELD0 + i];
		/* each in its range (record_format.c's column): "mf":-5 was
		 * MemFree 18446744073709551611, "pms":1e300 PSI inf */
		if (f->type == F_F32) {
			double d;
			if (rd_real_in(r, kind, f->key, j, &f->range, &d, err, errlen) < 0)
				return -1;
			float x = (float)d;
			memcpy(p, &x, sizeof(x));
			continue;
		}
		IN_RANGE(j, f->key, &f->range, v);
		if (f->type == F_U32) {
			uint32_t x = (uint32_t)v;
			memcpy(p, &x, sizeof(x));
		} else if (f->type == F_U8) {
			uint8_t x = (uint8_t)v;
			memcpy(p, &x, sizeof(x));
		} else {
			uint64_t x = (uint64_t)v;
			memcpy(p, &x, sizeof(x));
		}
	}
	if (sl[S_DK])
		return rd_disks(r, o, it, err, errlen);
	return 0;
}

static int rd_phase(struct recording *r, const json_t *j, int8_t *out)
{
	const char *s = json_string_value(j);
	for (int p = 0; s && p < PHASE_COUNT; p++)
		if (!strcmp(s, phase_name((enum phase)p))) {
			*out = (int8_t)p;
			return 0;
		}
	(void)r;
	return -1;
}

static int rd_event(struct recording *r, json_t *o, struct record_item *it, char *err,
		    size_t errlen)
{
	const char *kind = "event";
	json_int_t v;

	KEY_INT(kind, o, "t", v);
	it->event.t_ns = (uint64_t)v;
	KEY_INT(kind, o, "run", v);
	it->event.run = (int16_t)v;
	if (rd_phase(r, json_object_get(o, "phase"), &it->event.phase) != 0)
		return rd_fail(r, err, errlen, r->line, "event: \"phase\" missing or unknown");
	return 0;
}

/* One file of a "pcmap" line (absent: no map, n = 0). */
static int rd_map_file(struct recording *r, json_t *o, const char *kind, const char *line,
		       struct residency_map_file *f, char *err, size_t errlen)
{
	json_int_t v;
	memset(f, 0, sizeof(*f));
	if (!o)
		return 0;
	if (!json_is_object(o))
		return rd_fail(r, err, errlen, r->line, "%s: not an object", kind);
	KEY_INT(line, o, "p", v);
	f->pages = (uint64_t)v;
	KEY_INT(line, o, "n", v);
	/* and no more ranges than pages */
	NEED_INT(o, "n", v, 1, (json_int_t)(f->pages < RESIDENCY_MAP_MAX ? f->pages : RESIDENCY_MAP_MAX));
	f->n = (uint16_t)v;
	KEY_INT(line, o, "m", v);
	f->method = (uint8_t)v;
	for (size_t i = 0; i < RECORD_MAP_NCOLS; i++) {
		uint32_t *col = (uint32_t *)((char *)f + record_map_cols[i].off);
		json_t *j = json_object_get(o, record_map_cols[i].key);
		if (!j)
			continue; /* all zeros */
		if (!json_is_string(j) || record_map_decode(json_string_value(j), col, f->n) < 0)
			return rd_fail(r, err, errlen, r->line,
				       "%s: \"%s\" is not %d counts", kind, record_map_cols[i].key, f->n);
	}
	return 0;
}

static int rd_map(struct recording *r, json_t *o, struct record_item *it, char *err,
		  size_t errlen)
{
	const char *kind = "pcmap";
	json_int_t v;
	KEY_INT(kind, o, "t", v);
	it->map.t_ns = (uint64_t)v;
	if (rd_map_file(r, json_object_get(o, "src"), "pcmap: src", "pcmap.src", &it->map.src, err,
			errlen) < 0 ||
	    rd_map_file(r, json_object_get(o, "dst"), "pcmap: dst", "pcmap.dst", &it->map.dst, err,
			errlen) < 0)
		return -1;
	if (!it->map.src.n && !it->map.dst.n) /* the writer never writes one */
		return rd_fail(r, err, errlen, r->line, "pcmap: neither \"src\" nor \"dst\"");
	return 0;
}

/* A result's page-cache figures (minor 1): absent in older recordings,
 * which leaves res_have 0. */
static int rd_result_res(struct recording *r, json_t *o, struct run_result *x, char *err,
			 size_t errlen)
{
	json_t *res = json_object_get(o, "res");
	if (!res)
		return 0;
	if (!json_is_object(res))
		return rd_fail(r, err, errlen, r->line, "result: \"res\" not an object");
	json_int_t v;
	static const struct {
		const char *key;
		size_t off;
	} u64s[] = {
	    {"dst_dirty_peak_kb", offsetof(struct run_result, res_dst_dirty_peak_kb)},
	    {"src_cached_end", offsetof(struct run_result, res_src_cached_end)},
	    {"src_pages_end", offsetof(struct run_result, res_src_pages_end)},
	    {"recent_end", offsetof(struct run_result, res_recent_end)},
	};
	const char *kind = "result: res";
	for (size_t i = 0; i < ARRAY_LEN(u64s); i++) {
		KEY_INT("result.res", res, u64s[i].key, v);
		uint64_t u = (uint64_t)v;
		memcpy((char *)x + u64s[i].off, &u, sizeof(u));
	}
	x->res_have = 1;
	return 0;
}

/* The probe's figures (--probe) came later: none in a recording without. */
static int rd_probe(struct recording *r, json_t *p, struct run_result *x, char *err, size_t errlen)
{
	const char *kind = "result: probe";
	json_int_t v;
	memset(&x->probe, 0, sizeof(x->probe));
	if (!p)
		return 0;
	const json_t *mode = json_object_get(p, "mode");
	if (!json_is_object(p) || !json_is_string(mode) ||
	    json_string_length(mode) >= sizeof(x->probe.mode))
		return rd_fail(r, err, errlen, r->line, "result: \"probe\" is not a probe's figures");
	strlcpy_(x->probe.mode, json_string_value(mode), sizeof(x->probe.mode));
	static const struct {
		const char *key;
		size_t off;
	} u64s[] = {
	    {"n", offsetof(struct probe_figures, n)},
	    {"p50_ns", offsetof(struct probe_figures, p50_ns)},
	    {"p99_ns", offsetof(struct probe_figures, p99_ns)},
	    {"p999_ns", offsetof(struct probe_figures, p999_ns)},
	    {"max_ns", offsetof(struct probe_figures, max_ns)},
	    {"slow", offsetof(struct probe_figures, slow)},
	    {"idle_n", offsetof(struct probe_figures, idle_n)},
	    {"idle_p99_ns", offsetof(struct probe_figures, idle_p99_ns)},
	};
	for (size_t i = 0; i < ARRAY_LEN(u64s); i++) {
		KEY_INT("result.probe", p, u64s[i].key, v);
		uint64_t u = (uint64_t)v;
		memcpy((char *)&x->probe + u64s[i].off, &u, sizeof(u));
	}
	return 0;
}

/* --sweep's keys (optional): the parameter by name, its value. */
static int rd_sweep(struct recording *r, json_t *o, struct run_result *x, char *err,
		    size_t errlen)
{
	const json_t *p = json_object_get(o, "sweep");
	if (!p)
		return 0;
	if (!json_is_string(p) || !sweep_param_find(json_string_value(p)))
		return rd_fail(r, err, errlen, r->line,
			       "result: \"sweep\" is not mem-limit, disk-limit, bs or size");
	json_int_t v;
	if (rd_int(r, "result", "result", o, "sweep_value", &v, err, errlen) < 0)
		return -1;
	x->sweep_param = (int)sweep_param_find(json_string_value(p));
	x->sweep_value = (uint64_t)v;
	return 0;
}

static int rd_result(struct recording *r, json_t *o, struct record_item *it, char *err,
		     size_t errlen)
{
	const char *kind = "result";
	struct run_result *x = &it->result;
	json_int_t v;

	const json_t *name = json_object_get(o, "name");
	if (!json_is_string(name))
		return rd_fail(r, err, errlen, r->line, "result: \"name\" missing or not a string");
	if (json_string_length(name) >= sizeof(x->name))
		return rd_fail(r, err, errlen, r->line, "result: \"name\" longer than %zu bytes",
			       sizeof(x->name) - 1);
	strlcpy_(x->name, json_string_value(name), sizeof(x->name));
	const json_t *st = json_object_get(o, "strategy");
	if (json_is_string(st)) {
		if (json_string_length(st) >= sizeof(it->strategy_name))
			return rd_fail(r, err, errlen, r->line, "result: \"strategy\" is too long");
		strlcpy_(it->strategy_name, json_string_value(st), sizeof(it->strategy_name));
		if (strategy_find(it->strategy_name)) /* one this build lacks: as a --cmd */
			strlcpy_(x->strategy, it->strategy_name, sizeof(x->strategy));
	} else if (!json_is_null(st)) {
		return rd_fail(r, err, errlen, r->line,
			       "result: \"strategy\" is not a name or null");
	}
	const json_t *msg = json_object_get(o, "message");
	if (msg && !json_is_string(msg))
		return rd_fail(r, err, errlen, r->line, "result: \"message\" is not a string");
	if (msg && json_string_length(msg) >= sizeof(x->message))
		return rd_fail(r, err, errlen, r->line, "result: \"message\" longer than %zu bytes",
			       sizeof(x->message) - 1);
	strlcpy_(x->message, msg ? json_string_value(msg) : "", sizeof(x->message));
	/* a recording's text reaches terminals: no control character does */
	text_clean(x->name);
	text_clean(x->message);

	/* every number in the range a run can have (record_format.c): a -1
	 * byte count would become 18446744073709551615 in --results */
	KEY_INT(kind, o, "cmd", v);
	x->cmd = (int)v;
	KEY_INT(kind, o, "repeat", v);
	x->repeat = (int)v;
	KEY_INT(kind, o, "finished", v);
	x->finished = (int)v;
	KEY_INT(kind, o, "ok", v);
	x->ok = (int)v;
	KEY_INT(kind, o, "cancelled", v);
	x->cancelled = (int)v;
	KEY_INT(kind, o, "bursts", v);
	x->bursts = (int)v;
	KEY_INT(kind, o, "verified", v);
	x->verified = (int)v;
	KEY_INT(kind, o, "majflt", v);
	x->majflt = (long)v;
	KEY_INT(kind, o, "minflt", v);
	x->minflt = (long)v;
	KEY_INT(kind, o, "inblock", v);
	x->inblock = (long)v;
	KEY_INT(kind, o, "oublock", v);
	x->oublock = (long)v;

	static const struct {
		const char *key;
		size_t off;
	} u64s[] = {
	    {"bytes", offsetof(struct run_result, bytes)},
	    {"peak_active_file_kb", offsetof(struct run_result, peak_active_file_kb)},
	    {"pgdeactivate", offsetof(struct run_result, pgdeactivate)},
	    {"refault_file", offsetof(struct run_result, refault_file)},
	    {"t_start_ns", offsetof(struct run_result, t_start_ns)},
	    {"t_copy_ns", offsetof(struct run_result, t_copy_ns)},
	    {"t_end_ns", offsetof(struct run_result, t_end_ns)},
	};
	for (size_t i = 0; i < ARRAY_LEN(u64s); i++) {
		KEY_INT(kind, o, u64s[i].key, v);
		uint64_t u = (uint64_t)v;
		memcpy((char *)x + u64s[i].off, &u, sizeof(u));
	}
	static const struct {
		const char *key;
		size_t off;
	} dbls[] = {
	    {"elapsed_s", offsetof(struct run_result, elapsed_s)},
	    {"user_s", offsetof(struct run_result, user_s)},
	    {"sys_s", offsetof(struct run_result, sys_s)},
	    {"cpu_pct", offsetof(struct run_result, cpu_pct)},
	    {"mbs", offsetof(struct run_result, mbs)},
	    {"read_cv", offsetof(struct run_result, read_cv)},
	    {"write_cv", offsetof(struct run_result, write_cv)},
	};
	for (size_t i = 0; i < ARRAY_LEN(dbls); i++) {
		double d; /* "elapsed_s":1e308 was finite, and "inf ± inf" in the table */
		if (rd_real(r, kind, kind, o, dbls[i].key, &d, err, errlen) < 0)
			return -1;
		memcpy((char *)x + dbls[i].off, &d, sizeof(d));
	}
	/* rd@burst came later: a recording without it has it unknown */
	x->read_at_burst = NAN;
	if (json_object_get(o, "read_at_burst") &&
	    rd_real(r, kind, kind, o, "read_at_burst", &x->read_at_burst, err, errlen) < 0)
		return -1;
	if (rd_result_res(r, o, x, err, errlen) != 0 || rd_sweep(r, o, x, err, errlen) != 0)
		return -1;
	return rd_probe(r, json_object_get(o, "probe"), x, err, errlen);
}

/* The end of the items: rd_line's 0 (the end) or 2 (a cut last line),
 * with the warning that says what was cut. */
static int rd_end(struct recording *r, int rc)
{
	if (rc == 2)
		/* a crash mid-line: what came before replays */
		snprintf(r->warning, sizeof(r->warning),
			 "%s:%u: truncated last line (the recording was cut short); the "
			 "rest replays",
			 r->path, r->line);
	else if (r->cut && !r->warning[0])
		snprintf(r->warning, sizeof(r->warning),
			 "%s:%u: gzip stream cut short after the last complete line "
			 "(the recording was cut short); the rest replays",
			 r->path, r->line);
	return 0;
}

/* Line r->line, parsed into o: its item in *it.  1 an item, 0 a kind from
 * a newer minor version (skipped), -1 + err. */
static int rd_item(struct recording *r, json_t *o, struct record_item *it, char *err,
		   size_t errlen)
{
	/* every key in its slot, in one walk (a later duplicate wins, as in
	 * jansson's object) */
	memset(r->slot, 0, r->keys.nslots * sizeof(*r->slot));
	const char *key;
	size_t key_len;
	json_t *val;
	json_object_keylen_foreach(o, key, key_len, val)
	{
		int sl = keytab_find(&r->keys, key, key_len);
		if (sl >= 0 && strlen(key) == key_len)
			r->slot[sl] = val;
	}
	const char *k = json_string_value(r->slot[S_K]);
	memset(it, 0, sizeof(*it));
	it->line = r->line;
	int rc;
	if (!k)
		rc = rd_fail(r, err, errlen, r->line, "no \"k\" (line kind)");
	else if (!strcmp(k, "sample"))
		it->kind = RECORD_SAMPLE, rc = rd_sample(r, o, it, err, errlen);
	else if (!strcmp(k, "event"))
		it->kind = RECORD_EVENT, rc = rd_event(r, o, it, err, errlen);
	else if (!strcmp(k, "result"))
		it->kind = RECORD_RESULT, rc = rd_result(r, o, it, err, errlen);
	else if (!strcmp(k, "pcmap"))
		it->kind = RECORD_MAP, rc = rd_map(r, o, it, err, errlen);
	else
		return 0; /* a kind from a newer minor version */
	return rc != 0 ? -1 : 1;
}

/* recording_next on the caller's thread alone: read, parse, convert. */
static int rd_next_here(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	for (;;) {
		char *line;
		size_t n;
		int rc = rd_line(r, &line, &n, err, errlen);
		if (rc < 0)
			return -1;
		if (rc != 1)
			return rd_end(r, rc);
		if (n == 0)
			continue; /* a blank line carries nothing */
		arena_begin(&r->arena);
		json_t *o = rd_json(r, line, n, err, errlen);
		int got = o ? rd_item(r, o, it, err, errlen) : -1;
		arena_end(&r->arena, o);
		if (got != 0)
			return got;
	}
}

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
#define AHEAD_SLOTS 16	      /* lines read ahead, at most */
#define AHEAD_THREADS_MAX 8
#define AHEAD_LINE0 4096      /* a slot's copy at first (a sample line is ~1.4 kB) */

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
	int reading_done;   /* the last slot read was the end or an error */
	unsigned read_line; /* the reader's line count (r->line is the items') */
	uint64_t off;	    /* where the line after the last one taken starts */
	char end_error[512]; /* the reader's error (rc -1) */
	struct slot slot[AHEAD_SLOTS];
};

/* json_loadb into the slot's own arena (on whichever thread). */
static void slot_parse(struct slot *s)
{
	if (s->rc != 1 || !s->n)
		return;
	arena_begin(&s->arena);
	s->o = json_loadb(s->text, s->n, 0, &s->je);
	arena_cur = NULL;
}

static void *ahead_work(void *arg)
{
	struct ahead *a = arg;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (!a->stop && a->parse == a->tail) {
			a->idle++;
			pthread_cond_wait(&a->work, &a->mu);
			a->idle--;
		}
		if (a->stop)
			break;
		struct slot *s = &a->slot[a->parse++ % AHEAD_SLOTS];
		pthread_mutex_unlock(&a->mu);
		slot_parse(s);
		pthread_mutex_lock(&a->mu);
		s->parsed = 1;
		if (a->waiting)
			pthread_cond_signal(&a->done);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

/* Starts the workers not running: how many run. */
static int ahead_start(struct ahead *a)
{
	sigset_t all, was;
	/* a worker takes no signal: the program's handlers run where they did */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &was);
	a->stop = 0;
	while (a->nthreads < a->want &&
	       pthread_create(&a->tid[a->nthreads], NULL, ahead_work, a) == 0)
		a->nthreads++;
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return a->nthreads;
}

/* Joins the workers; a slot one of them took is parsed by then. */
static void ahead_stop(struct ahead *a)
{
	if (!a->nthreads)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->mu);
	for (int i = 0; i < a->nthreads; i++)
		pthread_join(a->tid[i], NULL);
	a->nthreads = 0;
}

/* Empties the ring (no worker running): the reader starts afresh. */
static void ahead_drop(struct ahead *a)
{
	for (uint64_t q = a->head; q < a->tail; q++) {
		struct slot *s = &a->slot[q % AHEAD_SLOTS];
		arena_drop(&s->arena, s->o);
		s->o = NULL;
	}
	a->head = a->parse = a->tail = 0;
	a->reading_done = 0;
}

static void ahead_free(struct ahead *a)
{
	if (!a)
		return;
	ahead_stop(a);
	ahead_drop(a);
	for (int i = 0; i < AHEAD_SLOTS; i++) {
		free(a->slot[i].text);
		free(a->slot[i].arena.base);
	}
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	pthread_mutex_destroy(&a->mu);
	free(a);
}

/* Reads the next line into slot s: its copy, number and end. */
static void ahead_read(struct recording *r, struct slot *s)
{
	struct ahead *a = r->ahead;
	char *line;
	size_t n = 0;
	s->rc = rd_line(r, &line, &n, a->end_error, sizeof(a->end_error));
	s->n = s->rc == 1 ? n : 0;
	if (s->n > s->cap) {
		while (s->cap < s->n)
			s->cap *= 2;
		s->text = xrealloc(s->text, s->cap);
	}
	if (s->n)
		memcpy(s->text, line, s->n);
	s->line = r->line;
	s->off = rd_offset(r);
	s->o = NULL;
	s->parsed = 0;
	if (s->rc != 1) {
		a->reading_done = 1;
		r->failed = 0; /* said when the slot is taken */
	}
}

/* Reads lines into the free slots, each handed to the workers at once;
 * only when half the ring is free, so that workers that have caught up
 * are woken for a few lines, not one at a time. */
static void ahead_fill(struct recording *r)
{
	struct ahead *a = r->ahead;
	if (a->reading_done || a->tail - a->head > AHEAD_SLOTS / 2)
		return;
	unsigned items_line = r->line;
	r->line = a->read_line;
	while (!a->reading_done && a->tail - a->head < AHEAD_SLOTS) {
		ahead_read(r, &a->slot[a->tail % AHEAD_SLOTS]);
		pthread_mutex_lock(&a->mu);
		a->tail++;
		if (a->idle)
			pthread_cond_signal(&a->work);
		pthread_mutex_unlock(&a->mu);
	}
	a->read_line = r->line;
	r->line = items_line;
}

/* The slot at the head, parsed.  While a worker parses it, the caller
 * parses the next line no worker has started rather than sleep: a wait
 * and a wake-up a line cost more than the caller's part of it, and with
 * the caller as a parser, one worker keeps two cores busy. */
static struct slot *ahead_take(struct recording *r)
{
	struct ahead *a = r->ahead;
	ahead_fill(r);
	struct slot *s = &a->slot[a->head % AHEAD_SLOTS];
	pthread_mutex_lock(&a->mu);
	while (!s->parsed) {
		if (a->parse < a->tail) {
			struct slot *p = &a->slot[a->parse++ % AHEAD_SLOTS];
			pthread_mutex_unlock(&a->mu);
			slot_parse(p);
			pthread_mutex_lock(&a->mu);
			p->parsed = 1;
			continue;
		}
		a->waiting = 1;
		pthread_cond_wait(&a->done, &a->mu);
		a->waiting = 0;
	}
	pthread_mutex_unlock(&a->mu);
	return s;
}

/* recording_next with the read-ahead: the items of rd_next_here, from the
 * slots.  The workers stop at the end or an error (a seek starts them). */
static int rd_next_ahead(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	struct ahead *a = r->ahead;
	for (;;) {
		struct slot *s = ahead_take(r);
		r->line = s->line;
		a->off = s->off;
		if (s->rc != 1) { /* stays at the head: the next call says it again */
			ahead_stop(a);
			if (s->rc >= 0)
				return rd_end(r, s->rc);
			r->failed = 1;
			strlcpy_(r->error, a->end_error, sizeof(r->error));
			return errf(err, errlen, "%s", r->error);
		}
		int got = 0;
		if (s->n) {
			arena_cur = &s->arena;
			json_t *o = rd_json_check(r, s->o, &s->je, err, errlen);
			got = o ? rd_item(r, o, it, err, errlen) : -1;
			arena_end(&s->arena, o);
		}
		s->o = NULL;
		a->head++;
		if (got < 0)
			ahead_stop(a);
		if (got != 0)
			return got;
	}
}

int recording_read_ahead(struct recording *r, int threads)
{
	if (threads <= 0 || r->ahead)
		return 0;
	struct ahead *a = xcalloc(1, sizeof(*a));
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->done, NULL);
	for (int i = 0; i < AHEAD_SLOTS; i++) {
		a->slot[i].cap = AHEAD_LINE0;
		a->slot[i].text = xmalloc(AHEAD_LINE0);
		a->slot[i].arena.base = xmalloc(ARENA_SIZE);
	}
	a->want = threads < AHEAD_THREADS_MAX ? threads : AHEAD_THREADS_MAX;
	a->read_line = r->line;
	a->off = rd_offset(r);
	if (!ahead_start(a)) {
		ahead_free(a);
		return -1;
	}
	r->ahead = a;
	return 0;
}

void recording_read_ahead_end(struct recording *r)
{
	ahead_free(r->ahead);
	r->ahead = NULL;
}

int recording_read_threads(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN) - 1;
	return n < 0 ? 0 : n > 3 ? 3 : (int)n;
}

int recording_next(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	if (r->failed)
		return errf(err, errlen, "%s", r->error);
	return r->ahead ? rd_next_ahead(r, it, err, errlen) : rd_next_here(r, it, err, errlen);
}

/* ---- marks: where to read on from (the replay's seek index) ------------ */

void recording_mark(const struct recording *r, struct record_mark *m)
{
	m->off = r->ahead ? r->ahead->off : rd_offset(r);
	m->line = r->line;
	m->ndev = r->have_prev ? r->prev.n : -1;
	m->t_ns = r->prev.t_ns;
	free(m->dev);
	m->dev = NULL;
	if (m->ndev > 0) {
		m->dev = xcalloc((size_t)m->ndev, sizeof(*m->dev));
		memcpy(m->dev, r->prev.dev, (size_t)m->ndev * sizeof(*m->dev));
	}
}

void recording_position(const struct recording *r, uint64_t *done, uint64_t *size)
{
	struct stat st;
	z_off_t o = r->gz ? gzoffset(r->gz) : -1;
	*done = r->zr ? gzread_offset(r->zr) : o > 0 ? (uint64_t)o : 0;
	*size = fstat(r->fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

struct gzindex_job *recording_index(const struct recording *r, uint64_t span)
{
	return r->gzip ? gzindex_start(r->fd, span) : NULL;
}

void recording_use_index(struct recording *r, struct gzindex_job *j)
{
	r->zjob = j;
}

void recording_mark_free(struct record_mark *m)
{
	free(m->dev);
	m->dev = NULL;
}

int recording_seek(struct recording *r, const struct record_mark *m, char *err, size_t errlen)
{
	if (r->failed)
		return errf(err, errlen, "%s", r->error);
	if (r->ahead) { /* what was read ahead is from before the seek */
		ahead_stop(r->ahead);
		ahead_drop(r->ahead);
	}
	if (r->gzip) { /* from the access point before off, or from the top */
		char why[200] = "";
		struct gzread *z =
		    gzread_open(gzindex_wait(r->zjob), r->fd, m->off, why, sizeof(why));
		if (!z)
			return rd_fail(r, err, errlen, m->line + 1, "cannot seek: %s", why);
		gzread_close(r->zr);
		r->zr = z;
	} else if ((errno = 0, gzseek(r->gz, (z_off_t)m->off, SEEK_SET)) != (z_off_t)m->off) {
		int code = Z_OK;
		const char *msg = gzerror(r->gz, &code);
		return rd_fail(r, err, errlen, m->line + 1, "cannot seek: %s",
			       code == Z_ERRNO	  ? strerror(errno ? errno : EIO)
			       : msg && *msg ? msg
					      : "the file is shorter than it was");
	}
	r->got = m->off;
	r->pos = r->len = 0;
	r->eof = r->cut = 0;
	r->line = m->line;
	r->blank = 0; /* a mark is taken after an item: no blank line is before it */
	r->have_prev = m->ndev >= 0;
	r->prev.n = m->ndev > 0 ? m->ndev : 0;
	r->prev.t_ns = m->t_ns;
	if (m->ndev > 0)
		memcpy(r->prev.dev, m->dev, (size_t)m->ndev * sizeof(*m->dev));
	if (r->ahead) {
		r->ahead->read_line = r->line;
		r->ahead->off = m->off;
		ahead_start(r->ahead); /* none: the caller parses each line itself */
	}
	return 0;
}

void recording_close(struct recording *r)
{
	if (!r)
		return;
	ahead_free(r->ahead); /* first: a worker may still be parsing */
	gzread_close(r->zr);
	if (r->gz)
		gzclose(r->gz); /* and fd */
	else if (r->fd >= 0)
		close(r->fd);
	for (int i = 0; i < r->h.argc; i++)
		free(r->h.argv[i]);
	free(r->h.argv);
	free(r->buf);
	free(r->arena.base);
	free(r->slot);
	free(r->path);
	free(r);
}
