#include "recording/record.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "base/outfile.h"
#include "recording/record_format.h"
#include "runs/strategy.h"
#include "model/sweep.h"
#include "base/util.h"

/* ---- values ----------------------------------------------------------- */

/* uint64 as jansson's signed integer, two's complement (see record.h). */
static json_t *ju64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* A double: null for NaN, "inf"/"-inf" for the infinities. */
static json_t *jdouble(double v)
{
	if (isnan(v))
		return json_null();
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

/* Sets obj[key] = v, stealing v; -1 when jansson could not allocate. */
static int put(json_t *obj, const char *key, json_t *v)
{
	return v && json_object_set_new(obj, key, v) == 0 ? 0 : -1;
}

/* The numbers of base's struct that are members of line's rows
 * (record_member_next); nonzero when a put failed. */
static int put_members(json_t *o, const char *line, const void *base)
{
	int bad = 0;
	for (const struct record_key_range *k = NULL; (k = record_member_next(line, k));) {
		const char *p = (const char *)base + k->off;
		if (k->type == F_F64) {
			double d;
			memcpy(&d, p, sizeof(d));
			bad |= put(o, k->key, jdouble(d));
		} else {
			bad |= put(o, k->key, json_integer(record_int_get(p, k->type)));
		}
	}
	return bad;
}

/* o whole, or NULL (o freed) when bad: a put into it failed. */
static json_t *whole(json_t *o, int bad)
{
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- writer ----------------------------------------------------------- */

struct recorder {
	char *path;
	struct outfile out; /* the file made at path; plain: written directly */
	gzFile gz;	    /* NULL for plain; gzip: writes a dup of out's descriptor */
	uint64_t bytes;
	char *buf; /* one dumped line */
	size_t cap;
	struct disktab prev; /* the last table written, for the row deltas */
	int have_prev;
	char error[512]; /* the first write error, repeated by later calls */
	int err_no;	 /* its errno, 0 when it had none */
};

static int rec_fail(struct recorder *r, char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int rec_fail(struct recorder *r, char *err, size_t errlen, const char *fmt, ...)
{
	if (!r->error[0]) {
		va_list ap;
		char why[256];

		va_start(ap, fmt);
		vsnprintf(why, sizeof(why), fmt, ap);
		va_end(ap);
		errf(r->error, sizeof(r->error), "--record %s: %s", r->path, why);
	}
	return errf(err, errlen, "%s", r->error);
}

static int gz_fail(struct recorder *r, char *err, size_t errlen, int e)
{
	int code = Z_OK;
	const char *msg = gzerror(r->gz, &code);

	if (code == Z_ERRNO) {
		if (!r->error[0])
			r->err_no = e ? e : EIO;
		return rec_fail(r, err, errlen, "write error: %s", strerror(e ? e : EIO));
	}
	return rec_fail(r, err, errlen, "write error: %s", msg && *msg ? msg : "zlib failed");
}

/* Dumps obj as one line (with its newline) and hands it to the kernel;
 * frees obj. */
static int rec_line(struct recorder *r, json_t *obj, size_t flags, char *err, size_t errlen)
{
	if (r->error[0]) {
		json_decref(obj);
		return errf(err, errlen, "%s", r->error);
	}
	if (!obj)
		return rec_fail(
		    r, err, errlen,
		    "could not build a line (out of memory, or a name that is not UTF-8)");
	flags |= JSON_COMPACT | JSON_ENSURE_ASCII;
	size_t n = json_dumpb(obj, r->buf, r->cap ? r->cap - 1 : 0, flags);
	if (n + 1 > r->cap) {
		r->cap = n + 1 + n / 2 + 256;
		r->buf = xrealloc(r->buf, r->cap);
		n = json_dumpb(obj, r->buf, r->cap - 1, flags);
	}
	json_decref(obj);
	if (n == 0 || n + 1 > r->cap)
		return rec_fail(r, err, errlen, "could not encode a line");
	r->buf[n++] = '\n';

	if (r->gz) {
		errno = 0;
		if (gzwrite(r->gz, r->buf, (unsigned)n) != (int)n)
			return gz_fail(r, err, errlen, errno);
		errno = 0;
		if (gzflush(r->gz, Z_SYNC_FLUSH) != Z_OK)
			return gz_fail(r, err, errlen, errno);
		off_t pos = lseek(r->out.fd, 0, SEEK_CUR);
		if (pos >= 0)
			r->bytes = (uint64_t)pos;
		return 0;
	}
	/* "--record PATH: write error: REASON" into r->error, to repeat */
	if (outfile_write(&r->out, r->buf, n, r->error, sizeof(r->error)) < 0) {
		r->err_no = r->out.err;
		return errf(err, errlen, "%s", r->error);
	}
	r->bytes += n;
	return 0;
}

/* s as a JSON string even when it is not valid UTF-8: bytes of 0x80 and up
 * then become '?', so a strange host name cannot fail a recording. */
static json_t *jstr(const char *s)
{
	json_t *j = json_string(s);
	if (j)
		return j;
	char *c = xstrdup(s);
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(c);
	free(c);
	return j;
}

/* A list of names (strategies, --names) as a JSON array. */
static json_t *names_json(const char (*names)[RECORD_CONFIG_NAME], int n)
{
	json_t *a = json_array();
	int bad = !a;
	for (int i = 0; !bad && i < n; i++)
		bad |= json_array_append_new(a, jstr(names[i])) != 0;
	return whole(a, bad);
}

/* The runs' configuration (minor 4): every key, the sweep's only with one. */
static json_t *config_json(const struct record_config *c)
{
	json_t *o = json_object();
	int bad = !o;
	bad |= put(o, "strategies", names_json(c->strategies, c->nstrategies));
	bad |= put(o, "cmds", names_json(c->cmds, c->ncmds));
	bad |= put(o, "size", ju64(c->size));
	bad |= put(o, "bs", ju64(c->bs));
	bad |= put(o, "mem_limit", ju64(c->mem_limit));
	bad |= put(o, "disk_limit", ju64(c->disk_limit));
	bad |= put(o, "repeat", json_integer(c->repeat));
	bad |= put(o, "baseline", jstr(c->baseline));
	bad |= put(o, "probe", jstr(c->probe));
	bad |= put(o, "prealloc", json_integer(c->prealloc));
	bad |= put(o, "rehearsal", json_integer(c->rehearsal));
	if (c->sweep.param) {
		json_t *v = json_array();
		bad |= !v;
		for (int i = 0; !bad && i < c->sweep.n && i < SWEEP_MAX_VALUES; i++)
			bad |= json_array_append_new(v, ju64(c->sweep.v[i])) != 0;
		bad |= put(o, "sweep", json_string(sweep_param_name(c->sweep.param)));
		bad |= put(o, "sweep_values", v);
		if (c->sweep.until.set) { /* read back to the same threshold */
			char until[128];
			sweep_until_format(&c->sweep.until, until, sizeof(until));
			bad |= put(o, "sweep_until", json_string(until));
		}
	}
	return whole(o, bad);
}

static json_t *header_json(const struct record_header *h)
{
	json_t *o = json_object(), *argv = json_array(), *ph = json_array(), *st = json_array(),
	       *dc = json_array();
	int bad = !o || !argv || !ph || !st || !dc;

	for (int i = 0; !bad && i < h->argc; i++)
		bad |= json_array_append_new(argv, json_string(h->argv[i] ? h->argv[i] : "")) != 0;
	for (int i = 0; !bad && i < PHASE_COUNT; i++)
		bad |= json_array_append_new(ph, json_string(phase_name((enum phase)i))) != 0;
	for (size_t i = 0; !bad && i < strategy_count(); i++)
		bad |= json_array_append_new(st, json_string(strategy_at(i)->name)) != 0;
	for (int i = 0; !bad && i < NDCOL; i++)
		bad |= json_array_append_new(dc, json_string(record_disk_columns[i])) != 0;
	if (bad) {
		json_decref(o), json_decref(argv), json_decref(ph), json_decref(st),
		    json_decref(dc);
		return NULL;
	}
#define STR(k, v) bad |= put(o, k, jstr(v))
	bad |= put(o, "lrutop_record", json_integer(RECORD_MAJOR));
	bad |= put(o, "minor", json_integer(RECORD_MINOR));
	STR("version", h->version);
	STR("kernel", h->kernel);
	STR("host", h->host);
	/* a figure not known (0: a hand-made header read back) is left out,
	 * as the reader takes a missing one: there, 0 is out of range */
	if (h->page_size)
		bad |= put(o, "page_size", json_integer(h->page_size));
	if (h->cpus)
		bad |= put(o, "cpus", json_integer(h->cpus));
	if (h->mem_total_kb)
		bad |= put(o, "mem_total_kb", ju64(h->mem_total_kb));
	STR("device", h->device);
	STR("device_how", h->device_how);
	STR("device_kind", h->device_kind);
	bad |= put(o, "mglru", json_boolean(h->mglru));
	bad |= put(o, "cgroup", json_integer(h->cgroup_version));
	if (h->interval_s != 0)
		bad |= put(o, "interval_s", jdouble(h->interval_s));
	bad |= put(o, "argv", argv);
	if (h->config.have) /* minor 4; a header that does not know it leaves it out */
		bad |= put(o, "config", config_json(&h->config));
	STR("start_wall", h->start_wall);
	bad |= put(o, "start_mono_ns", ju64(h->start_mono_ns));
	STR("notes", h->notes);
	bad |= put(o, "phases", ph);
	bad |= put(o, "strategies", st);
	bad |= put(o, "disk_columns", dc);
#undef STR
	return whole(o, bad);
}

void record_header_init(struct record_header *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	h->major = RECORD_MAJOR;
	h->minor = RECORD_MINOR;
	if (uname(&u) == 0) {
		strlcpy_(h->kernel, u.release, sizeof(h->kernel));
		strlcpy_(h->host, u.nodename, sizeof(h->host));
	}
	h->page_size = sysconf(_SC_PAGESIZE);
	h->cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/proc/meminfo", "re");
	if (f) {
		char line[256];
		unsigned long long kb;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "MemTotal: %llu kB", &kb) == 1) {
				h->mem_total_kb = kb;
				break;
			}
		fclose(f);
	}
	record_stamp_now(h->start_wall, sizeof(h->start_wall), &h->start_mono_ns);
}

void record_stamp_now(char *wall, size_t len, uint64_t *mono)
{
	struct timespec ts;
	struct tm tm;
	*mono = mono_ns();
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(wall, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(wall + n, len - n, ".%03uZ", (unsigned)(ts.tv_nsec / 1000000) % 1000u);
}

int record_path_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

int recorder_errno(const struct recorder *r)
{
	return r->err_no;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

struct recorder *recorder_open(const char *path, enum record_compress z,
			       const struct record_header *h, char *err, size_t errlen)
{
	struct recorder *r = xcalloc(1, sizeof(*r));
	r->path = xstrdup(path);
	int made = record_path_stdout(path)
		       ? outfile_open_stdout(&r->out, "--record", err, errlen)
		       : outfile_open_fd(&r->out, r->path, "--record", OUTFILE_NEW, err, errlen);
	if (made < 0) {
		free(r->path);
		free(r);
		return NULL;
	}
	if (z == RECORD_GZIP || (z == RECORD_BY_NAME && ends_with(path, ".gz"))) {
		/* gzclose closes its fd; a dup keeps out's for lseek (the size) */
		int gfd = dup(r->out.fd);
		r->gz = gfd >= 0 ? gzdopen(gfd, "wb") : NULL;
		if (!r->gz) {
			if (gfd >= 0)
				close(gfd);
			errf(err, errlen, "--record %s: cannot start gzip: %s", path,
			     strerror(errno ? errno : ENOMEM));
			goto fail;
		}
	}
	if (rec_line(r, header_json(h), JSON_REAL_PRECISION(17), err, errlen) != 0)
		goto fail;
	return r;
fail:
	if (r->gz)
		gzclose(r->gz);
	outfile_discard(&r->out); /* what we created, only if the path still names it */
	free(r->buf);
	free(r->path);
	free(r);
	return NULL;
}

static json_t *disks_json(struct recorder *r, const struct disktab *tab, json_t *o)
{
	int n = tab->n < 0 ? 0 : tab->n > DISKTAB_MAX ? DISKTAB_MAX : tab->n;
	int same_set = r->have_prev && r->prev.n == n;
	json_t *dk = json_object();
	int bad = !dk;

	for (int i = 0; same_set && i < n; i++)
		same_set = !strcmp(r->prev.dev[i].name, tab->dev[i].name);
	for (int i = 0; !bad && i < n; i++) {
		const struct disk_counters *d = &tab->dev[i];
		/* a row is compared with the previous row of that name */
		const struct disk_counters *p =
		    record_disk_find(r->have_prev ? &r->prev : NULL, d->name);
		uint64_t v[NDCOL], pv[NDCOL];

		record_disk_row(d, v);
		if (p) {
			record_disk_row(p, pv);
			if (!memcmp(v, pv, sizeof(v)))
				continue;
		}
		json_t *row = json_array();
		bad |= !row;
		for (int c = 0; !bad && c < NDCOL; c++)
			bad |= json_array_append_new(row, ju64(v[c])) != 0;
		bad |= put(dk, d->name, row);
	}
	bad |= put(o, "dk", dk);
	if (!same_set && !bad) {
		json_t *names = json_array();
		bad |= !names;
		for (int i = 0; !bad && i < n; i++)
			bad |= json_array_append_new(names, json_string(tab->dev[i].name)) != 0;
		bad |= put(o, "dkn", names);
	}
	return bad ? NULL : o;
}

int recorder_sample(struct recorder *r, const struct sample *smp, const struct disktab *tab,
		    char *err, size_t errlen)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= put(o, "k", json_string("sample"));
	bad |= put(o, "t", ju64(smp->t_ns));
	bad |= put(o, "run", json_integer(smp->run));
	bad |= put(o, "ph", json_integer(smp->phase));
	bad |= put(o, "st", json_integer(smp->strategy));
	bad |= put(o, "hv", json_integer(smp->have & HAVE_KNOWN));
	for (size_t i = 0; !bad && i < record_nfields; i++) {
		const struct field *f = &record_fields[i];
		const char *p = (const char *)smp + f->off;
		if (!(smp->have & f->group))
			continue;
		if (f->type == F_F32) {
			float v;
			memcpy(&v, p, sizeof(v));
			bad |= put(o, f->key, jdouble(v));
		} else {
			bad |= put(o, f->key, json_integer(record_int_get(p, f->type)));
		}
	}
	if (tab && !bad) {
		bad |= disks_json(r, tab, o) == NULL;
		if (!bad && tab->t_ns != smp->t_ns)
			bad |= put(o, "dkt", json_integer((json_int_t)(tab->t_ns - smp->t_ns)));
	}
	o = whole(o, bad);
	/* floats need 9 significant digits to come back bit for bit */
	int rc = rec_line(r, o, JSON_REAL_PRECISION(9), err, errlen);
	if (rc == 0 && tab) {
		r->prev = *tab;
		if (r->prev.n < 0)
			r->prev.n = 0;
		if (r->prev.n > DISKTAB_MAX)
			r->prev.n = DISKTAB_MAX;
		r->have_prev = 1;
	}
	return rc;
}

/* One file's map: its size, ranges, reader and the non-zero columns. */
static json_t *map_json(const struct residency_map_file *f)
{
	json_t *o = json_object();
	int bad = !o;
	bad |= put(o, "p", ju64(f->pages));
	bad |= put(o, "n", json_integer(f->n));
	bad |= put(o, "m", json_integer(f->method));
	for (size_t i = 0; !bad && i < RECORD_MAP_NCOLS; i++) {
		const uint32_t *v = (const uint32_t *)((const char *)f + record_map_cols[i].off);
		int any = 0;
		for (int k = 0; k < f->n && !any; k++)
			any = v[k] != 0;
		if (!any)
			continue; /* a column of zeros is left out */
		char buf[RECORD_MAP_TEXT];
		record_map_encode(v, f->n, buf);
		bad |= put(o, record_map_cols[i].key, json_string(buf));
	}
	return whole(o, bad);
}

int recorder_map(struct recorder *r, const struct residency_map *m, char *err, size_t errlen)
{
	if (!m->src.n && !m->dst.n)
		return 0;
	json_t *o = json_object();
	int bad = !o;
	bad |= put(o, "k", json_string("pcmap"));
	bad |= put(o, "t", ju64(m->t_ns));
	if (m->src.n)
		bad |= put(o, "src", map_json(&m->src));
	if (m->dst.n)
		bad |= put(o, "dst", map_json(&m->dst));
	return rec_line(r, whole(o, bad), 0, err, errlen);
}

int recorder_event(struct recorder *r, const struct run_event *ev, char *err, size_t errlen)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= put(o, "k", json_string("event"));
	bad |= put(o, "t", ju64(ev->t_ns));
	bad |= put(o, "run", json_integer(ev->run));
	bad |= put(o, "phase", json_string(phase_name((enum phase)ev->phase)));
	o = whole(o, bad);
	return rec_line(r, o, JSON_REAL_PRECISION(17), err, errlen);
}

/* The probe's figures of a run (--probe), a sub-object only when it ran. */
static json_t *probe_json(const struct probe_figures *f)
{
	json_t *o = json_object();
	int bad = !o;
	bad |= put(o, "mode", jstr(f->mode));
	bad |= put_members(o, "result.probe", f);
	return whole(o, bad);
}

int recorder_result(struct recorder *r, const struct run_result *x, char *err, size_t errlen)
{
	json_t *o = json_object();
	int bad = !o;

	bad |= put(o, "k", json_string("result"));
	bad |= put(o, "name", jstr(x->name));
	bad |= put(o, "strategy", x->strategy[0] ? json_string(x->strategy) : json_null());
	bad |= put(o, "cmd", json_integer(x->cmd));
	bad |= put(o, "repeat", json_integer(x->repeat));
	bad |= put(o, "finished", json_integer(x->finished));
	bad |= put(o, "ok", json_integer(x->ok));
	bad |= put(o, "cancelled", json_integer(x->cancelled));
	bad |= put(o, "exit_code", json_integer(x->exit_code));
	bad |= put(o, "elapsed_s", jdouble(x->elapsed_s));
	bad |= put(o, "user_s", jdouble(x->user_s));
	bad |= put(o, "sys_s", jdouble(x->sys_s));
	bad |= put(o, "cpu_pct", jdouble(x->cpu_pct));
	bad |= put(o, "majflt", json_integer(x->majflt));
	bad |= put(o, "minflt", json_integer(x->minflt));
	bad |= put(o, "inblock", json_integer(x->inblock));
	bad |= put(o, "oublock", json_integer(x->oublock));
	bad |= put(o, "bytes", ju64(x->bytes));
	bad |= put(o, "mbs", jdouble(x->mbs));
	bad |= put(o, "read_cv", jdouble(x->read_cv));
	bad |= put(o, "write_cv", jdouble(x->write_cv));
	bad |= put(o, "peak_active_file_kb", ju64(x->peak_active_file_kb));
	bad |= put(o, "pgdeactivate", ju64(x->pgdeactivate));
	bad |= put(o, "refault_file", ju64(x->refault_file));
	bad |= put(o, "bursts", json_integer(x->bursts));
	bad |= put(o, "read_at_burst", jdouble(x->read_at_burst));
	bad |= put(o, "verified", json_integer(x->verified));
	bad |= put(o, "message", jstr(x->message));
	bad |= put(o, "t_start_ns", ju64(x->t_start_ns));
	bad |= put(o, "t_copy_ns", ju64(x->t_copy_ns));
	bad |= put(o, "t_end_ns", ju64(x->t_end_ns));
	if (x->res_have) { /* minor 1 */
		json_t *res = json_object();
		bad |= !res || put_members(res, "result.res", x);
		bad |= put(o, "res", res);
	}
	if (x->probe.n)
		bad |= put(o, "probe", probe_json(&x->probe));
	if (x->sweep_param) { /* --sweep */
		bad |= put(o, "sweep", json_string(sweep_param_name((enum sweep_param)x->sweep_param)));
		bad |= put(o, "sweep_value", ju64(x->sweep_value));
	}
	o = whole(o, bad);
	return rec_line(r, o, JSON_REAL_PRECISION(17), err, errlen);
}

uint64_t recorder_bytes(const struct recorder *r)
{
	return r ? r->bytes : 0;
}

void recorder_take_file(struct recorder *r, struct outfile *keep)
{
	outfile_pass(&r->out, keep);
}

int recorder_close(struct recorder *r, char *err, size_t errlen)
{
	if (!r)
		return 0;
	int rc = 0;
	if (r->error[0])
		rc = errf(err, errlen, "%s", r->error);
	if (r->gz) {
		errno = 0;
		int z = gzclose(r->gz);
		if (z != Z_OK && rc == 0)
			rc = rec_fail(r, err, errlen, "write error: %s",
				      z == Z_ERRNO ? strerror(errno ? errno : EIO) : "zlib failed");
	}
	char e[sizeof(r->error)];
	if (outfile_close(&r->out, e, sizeof(e)) < 0 && rc == 0) /* fsynced first */
		rc = errf(err, errlen, "%s", e);
	free(r->buf);
	free(r->path);
	free(r);
	return rc;
}
