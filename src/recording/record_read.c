#include "recording/record.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recording/record_reader.h"
#include "base/util.h"

/* The recording reader's API and its loop (record.h): open, read the lines
 * (plain through zlib's direct reader, gzip through gzindex.h's), the next
 * item, marks, seeks, close; the decoders are record_decode.c's, the arena
 * and the read-ahead record_ahead.c's (record_reader.h). */

#define CHUNK 65536

int rd_fail(struct recording *r, char *err, size_t errlen, unsigned line, const char *fmt, ...)
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

/* Reads more bytes into the buffer: 1 some, 0 none (eof), 2 none yet (a
 * stream: not fed), -1 error.
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
	if (r->feed) { /* a stream: the bytes fed so far */
		char why[200] = "";
		int garbage = 0;
		n = feed_read(r->feed, r->buf + r->len, r->cap - r->len, &r->cut, &garbage, why,
			      sizeof(why));
		if (n == FEED_WAIT)
			return 2;
		if (n < 0)
			return rd_fail(r, err, errlen, garbage ? 0 : r->line + 1, "%s", why);
	} else if (r->zr) { /* gzip */
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
int rd_line(struct recording *r, char **line, size_t *n, char *err, size_t errlen)
{
	for (;;) {
		char *nl = r->len > r->pos + r->scan
			       ? memchr(r->buf + r->pos + r->scan, '\n', r->len - r->pos - r->scan)
			       : NULL;
		if (nl) {
			r->scan = 0;
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
				continue;
			}
			r->blank = 0;
			return 1;
		}
		/* kept over a stream's wait: its line is not searched again */
		r->scan = r->len - r->pos;
		if (r->scan > RECORD_LINE_MAX)
			return rd_fail(r, err, errlen, r->line + 1,
				       "line longer than %u bytes (not a recording)",
				       RECORD_LINE_MAX);
		int f = rd_fill(r, err, errlen);
		if (f < 0)
			return -1;
		if (f == 2)
			return 3;
		if (f == 0) {
			r->scan = 0;
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
json_t *rd_json_check(struct recording *r, json_t *j, const json_error_t *je, char *err,
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
uint64_t rd_offset(const struct recording *r)
{
	return r->got - (r->len - r->pos);
}

struct recording *rd_new(const char *path)
{
	struct recording *r = xcalloc(1, sizeof(*r));
	r->fd = -1;
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
	return r;
}

int rd_open_header(struct recording *r, char *err, size_t errlen)
{
	char *line;
	size_t n;
	int rc = rd_line(r, &line, &n, err, errlen);
	if (rc < 0 || rc == 3)
		return rc;
	if (rc == 0) {
		if (r->cut)
			return rd_fail(r, err, errlen, 0,
				       "gzip stream cut short before the header");
		return rd_fail(r, err, errlen, 0,
			       r->feed ? "the writer ended before the header (not a recording)"
				       : "empty file (not a recording)");
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
		return -1;
	}
	int partial = rc == 2;
	rc = rd_header(r, o, err, errlen);
	json_decref(o);
	if (rc != 0)
		return -1;
	if (partial)
		snprintf(r->warning, sizeof(r->warning),
			 "%s:1: truncated last line (the recording was cut short); %s", r->path,
			 r->feed ? RD_CUT_STREAM : RD_CUT_FILE);
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
	struct recording *r = rd_new(path);
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
	if (rd_open_header(r, err, errlen) < 0) {
		recording_close(r);
		return NULL;
	}
	return r;
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

/* The end of the items: rd_line's 0 (the end) or 2 (a cut last line),
 * with the warning that says what was cut. */
int rd_end(struct recording *r, int rc)
{
	const char *rest = r->feed ? RD_CUT_STREAM : RD_CUT_FILE;
	if (rc == 2)
		/* a crash mid-line: what came before replays */
		snprintf(r->warning, sizeof(r->warning),
			 "%s:%u: truncated last line (the recording was cut short); %s", r->path,
			 r->line, rest);
	else if (r->cut && !r->warning[0])
		snprintf(r->warning, sizeof(r->warning),
			 "%s:%u: gzip stream cut short after the last complete line "
			 "(the recording was cut short); %s",
			 r->path, r->line, rest);
	return 0;
}

int rd_decode(struct recording *r, const char *line, size_t n, struct record_item *it, char *err,
	      size_t errlen)
{
	arena_begin(&r->arena);
	json_t *o = rd_json(r, line, n, err, errlen);
	int got = o ? rd_item(r, o, it, err, errlen) : -1;
	arena_end(&r->arena, o);
	return got;
}

int rd_next_here(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	for (;;) {
		char *line;
		size_t n;
		int rc = rd_line(r, &line, &n, err, errlen);
		if (rc < 0 || rc == 3)
			return rc;
		if (rc != 1)
			return rd_end(r, rc);
		if (n == 0)
			continue; /* a blank line carries nothing */
		int got = rd_decode(r, line, n, it, err, errlen);
		if (got != 0)
			return got;
	}
}

int rd_order(struct recording *r, const struct record_item *it, char *err, size_t errlen)
{
	if (!r->in_order || it->kind != RECORD_SAMPLE)
		return 0;
	if (it->sample.t_ns < r->last_t)
		return rd_fail(r, err, errlen, it->line, "sample: time goes backwards");
	r->last_t = it->sample.t_ns;
	return 0;
}

void recording_check_order(struct recording *r)
{
	r->in_order = 1;
}

int recording_next(struct recording *r, struct record_item *it, char *err, size_t errlen)
{
	if (r->failed)
		return errf(err, errlen, "%s", r->error);
	int rc = r->ahead ? rd_next_ahead(r, it, err, errlen) : rd_next_here(r, it, err, errlen);
	return rc == 1 && rd_order(r, it, err, errlen) < 0 ? -1 : rc;
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
	r->pos = r->len = r->scan = 0;
	r->eof = r->cut = 0;
	r->line = m->line;
	r->blank = 0; /* a mark is taken after an item: no blank line is before it */
	r->last_t = 0; /* recording_check_order starts again from the mark */
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
	feed_free(r->feed);
	free(r->buf);
	free(r->arena.base);
	free(r->slot);
	free(r->path);
	free(r);
}
