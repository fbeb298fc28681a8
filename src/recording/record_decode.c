/* The recording reader's decoders (record_reader.h): the header line and
 * each item kind (sample with its disk table, event, page-cache map,
 * result), every number in its range (record_format.h), and the key table
 * a sample line is read through. */
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recording/record_reader.h"
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

/* ---- a sample line's keys (record_reader.h) ------------------------------ */

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

void keytab_init(struct keytab *t)
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

/* The numbers of obj, a line of kind, that are members of base's struct
 * (record_member_next), each in its range (rd_int_in, rd_real_in).  optional: a key the
 * file does not have is 0 (else it is an error). */
static int rd_members(struct recording *r, const char *kind, const char *line, const json_t *obj,
		      void *base, int optional, char *err, size_t errlen)
{
	for (const struct record_key_range *k = NULL; (k = record_member_next(line, k));) {
		const json_t *j = json_object_get(obj, k->key);
		char *p = (char *)base + k->off;
		if (k->type == F_F64) {
			double d = 0;
			if ((j || !optional) &&
			    rd_real_in(r, kind, k->key, j, &k->range, &d, err, errlen) < 0)
				return -1;
			memcpy(p, &d, sizeof(d));
		} else {
			json_int_t v = 0;
			if ((j || !optional) &&
			    rd_int_in(r, kind, k->key, j, &k->range, &v, err, errlen) < 0)
				return -1;
			record_int_set(p, k->type, v);
		}
	}
	return 0;
}

/* ---- the header ------------------------------------------------------- */

static void copy_str(char *dst, size_t n, const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	strlcpy_(dst, s ? s : "", n);
}

/* The header's "config" list key: at most max names, each shorter than
 * RECORD_CONFIG_NAME, into out; *n how many. */
static int rd_config_names(struct recording *r, const json_t *c, const char *key,
			   char (*out)[RECORD_CONFIG_NAME], int max, int *n, char *err,
			   size_t errlen)
{
	const json_t *a = json_object_get(c, key);
	if (!json_is_array(a) || json_array_size(a) > (size_t)max)
		return rd_fail(r, err, errlen, r->line,
			       "header: config: \"%s\" is not a list of at most %d names", key,
			       max);
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *s = json_array_get(a, i);
		if (!json_is_string(s) || json_string_length(s) >= RECORD_CONFIG_NAME)
			return rd_fail(r, err, errlen, r->line,
				       "header: config: \"%s\": not a name of at most %d bytes",
				       key, RECORD_CONFIG_NAME - 1);
		strlcpy_(out[i], json_string_value(s), RECORD_CONFIG_NAME);
		text_clean(out[i]); /* names reach terminals: no control character does */
	}
	*n = (int)json_array_size(a);
	return 0;
}

/* A string key of "config" into out (len bytes with its NUL). */
static int rd_config_str(struct recording *r, const json_t *c, const char *key, char *out,
			 size_t len, char *err, size_t errlen)
{
	const json_t *s = json_object_get(c, key);
	if (!json_is_string(s) || json_string_length(s) >= len)
		return rd_fail(
		    r, err, errlen, r->line,
		    "header: config: \"%s\" missing or not a string of at most %zu bytes", key,
		    len - 1);
	strlcpy_(out, json_string_value(s), len);
	text_clean(out);
	return 0;
}

/* The runs' configuration (minor 4, record.h): every key, each number in
 * its range (record_format.c's "header.config" rows), each name in its
 * buffer, the sweep's values ascending and its condition one
 * --sweep-until takes.  Absent (an older minor): have 0. */
static int rd_config(struct recording *r, const json_t *c, char *err, size_t errlen)
{
	struct record_config *x = &r->h.config;
	const char *kind = "header: config", *line = "header.config";
	memset(x, 0, sizeof(*x));
	if (!c)
		return 0;
	if (!json_is_object(c))
		return rd_fail(r, err, errlen, r->line, "header: \"config\" is not an object");
	if (rd_config_names(r, c, "strategies", x->strategies, RUNLOG_MAX_STRATEGIES,
			    &x->nstrategies, err, errlen) < 0 ||
	    rd_config_names(r, c, "cmds", x->cmds, RUN_CONFIG_MAX_CMDS, &x->ncmds, err, errlen) < 0)
		return -1;
	if (rd_members(r, kind, line, c, x, 0, err, errlen) < 0)
		return -1;
	if (rd_config_str(r, c, "baseline", x->baseline, sizeof(x->baseline), err, errlen) < 0 ||
	    rd_config_str(r, c, "probe", x->probe, sizeof(x->probe), err, errlen) < 0)
		return -1;
	if (x->probe[0] && strcmp(x->probe, "cold") && strcmp(x->probe, "direct"))
		return rd_fail(r, err, errlen, r->line,
			       "header: config: \"probe\" is not cold, direct or \"\"");
	const json_t *sw = json_object_get(c, "sweep");
	if (sw) {
		const json_t *vals = json_object_get(c, "sweep_values");
		x->sweep.param = json_is_string(sw) ? sweep_param_find(json_string_value(sw)) : 0;
		if (!x->sweep.param)
			return rd_fail(r, err, errlen, r->line,
				       "header: config: \"sweep\" is not mem-limit, disk-limit, bs "
				       "or size");
		if (!json_is_array(vals) || json_array_size(vals) < 1 ||
		    json_array_size(vals) > SWEEP_MAX_VALUES)
			return rd_fail(r, err, errlen, r->line,
				       "header: config: \"sweep_values\" is not a list of 1 to %d "
				       "values",
				       SWEEP_MAX_VALUES);
		const struct record_range *g = rd_range(r, line, "sweep_values", err, errlen);
		if (!g)
			return -1;
		json_int_t v;
		for (size_t i = 0; i < json_array_size(vals); i++) {
			if (rd_int_in(r, kind, "sweep_values", json_array_get(vals, i), g, &v, err,
				      errlen) < 0)
				return -1;
			x->sweep.v[i] = (uint64_t)v;
			if (i && x->sweep.v[i] <= x->sweep.v[i - 1])
				return rd_fail(r, err, errlen, r->line,
					       "header: config: \"sweep_values\" not ascending");
		}
		x->sweep.n = (int)json_array_size(vals);
		const json_t *u = json_object_get(c, "sweep_until");
		char why[200];
		if (u &&
		    (!json_is_string(u) || sweep_until_parse(json_string_value(u), &x->sweep.until,
							     why, sizeof(why)) < 0))
			return rd_fail(r, err, errlen, r->line,
				       "header: config: \"sweep_until\" is not a condition "
				       "--sweep-until takes");
	}
	x->have = 1;
	return 0;
}

int rd_header(struct recording *r, json_t *o, char *err, size_t errlen)
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
	if (rd_members(r, "header", "header", o, h, 1, err, errlen) < 0)
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
	if (rd_config(r, json_object_get(o, "config"), err, errlen) < 0)
		return -1;

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

/* ---- the items -------------------------------------------------------- */

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
			const struct disk_counters *p =
			    record_disk_find(r->have_prev ? &r->prev : NULL, d->name);
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
		record_int_set(p, f->type, v);
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
	NEED_INT(o, "n", v, 1,
		 (json_int_t)(f->pages < RESIDENCY_MAP_MAX ? f->pages : RESIDENCY_MAP_MAX));
	f->n = (uint16_t)v;
	KEY_INT(line, o, "m", v);
	f->method = (uint8_t)v;
	for (size_t i = 0; i < RECORD_MAP_NCOLS; i++) {
		uint32_t *col = (uint32_t *)((char *)f + record_map_cols[i].off);
		json_t *j = json_object_get(o, record_map_cols[i].key);
		if (!j)
			continue; /* all zeros */
		if (!json_is_string(j) || record_map_decode(json_string_value(j), col, f->n) < 0)
			return rd_fail(r, err, errlen, r->line, "%s: \"%s\" is not %d counts", kind,
				       record_map_cols[i].key, f->n);
	}
	return 0;
}

static int rd_map(struct recording *r, json_t *o, struct record_item *it, char *err, size_t errlen)
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
	if (rd_members(r, "result: res", "result.res", res, x, 0, err, errlen) < 0)
		return -1;
	x->res_have = 1;
	return 0;
}

/* The probe's figures (--probe) came later: none in a recording without. */
static int rd_probe(struct recording *r, json_t *p, struct run_result *x, char *err, size_t errlen)
{
	memset(&x->probe, 0, sizeof(x->probe));
	if (!p)
		return 0;
	const json_t *mode = json_object_get(p, "mode");
	if (!json_is_object(p) || !json_is_string(mode) ||
	    json_string_length(mode) >= sizeof(x->probe.mode))
		return rd_fail(r, err, errlen, r->line,
			       "result: \"probe\" is not a probe's figures");
	strlcpy_(x->probe.mode, json_string_value(mode), sizeof(x->probe.mode));
	return rd_members(r, "result: probe", "result.probe", p, &x->probe, 0, err, errlen);
}

/* --sweep's keys (optional): the parameter by name, its value. */
static int rd_sweep(struct recording *r, json_t *o, struct run_result *x, char *err, size_t errlen)
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
	 * byte count would become 18446744073709551615 in --results,
	 * "elapsed_s":1e308 was finite, and "inf ± inf" in the table */
	if (rd_members(r, kind, kind, o, x, 0, err, errlen) < 0)
		return -1;
	/* the exit code came later: without it, what ok says */
	x->exit_code = x->ok ? 0 : 1;
	if (json_object_get(o, "exit_code")) {
		json_int_t v;
		KEY_INT(kind, o, "exit_code", v);
		x->exit_code = (int)v;
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

/* Line r->line, parsed into o: its item in *it.  1 an item, 0 a kind from
 * a newer minor version (skipped), -1 + err. */
int rd_item(struct recording *r, json_t *o, struct record_item *it, char *err, size_t errlen)
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
