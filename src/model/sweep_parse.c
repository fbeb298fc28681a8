/* --sweep and --sweep-until: the parameters' names and labels, a run's
 * setting, and the two parsers (no statistics here, so the option and
 * recording parsers, the OpenMetrics text and their fuzz targets need only
 * this file; sweep.c builds the table). */
#include "model/sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/units.h"
#include "base/parse.h"
#include "base/util.h"

static const struct {
	const char *name;
	char prefix;
	const char *unit; /* what a value is, in messages */
} params[SWEEP_NPARAM] = {
    [SWEEP_NONE] = {"", 0, ""},
    [SWEEP_MEM_LIMIT] = {"mem-limit", 'm', "bytes"},
    [SWEEP_DISK_LIMIT] = {"disk-limit", 'd', "bytes/s"},
    [SWEEP_BS] = {"bs", 'b', "bytes"},
    [SWEEP_SIZE] = {"size", 's', "bytes"},
};

/* The smallest value each parameter takes (as its own option checks). */
static uint64_t param_min(enum sweep_param p)
{
	return p == SWEEP_MEM_LIMIT ? 4ull << 20 : p == SWEEP_DISK_LIMIT ? 1ull << 20 : 1;
}

static uint64_t param_max(enum sweep_param p)
{
	return p == SWEEP_BS ? 1ull << 30 : UINT64_MAX;
}

const char *sweep_param_name(enum sweep_param p)
{
	return p > SWEEP_NONE && p < SWEEP_NPARAM ? params[p].name : "";
}

enum sweep_param sweep_param_find(const char *name)
{
	for (int p = SWEEP_NONE + 1; p < SWEEP_NPARAM; p++)
		if (!strcmp(name, params[p].name))
			return (enum sweep_param)p;
	return SWEEP_NONE;
}

void sweep_value_str(char *buf, size_t len, uint64_t v)
{
	static const char units[] = "KMGT";
	int u = -1;
	while (u < 3 && v && v % (1ull << (10 * (u + 2))) == 0)
		u++;
	if (u < 0)
		snprintf(buf, len, "%llu", (unsigned long long)v);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)(v >> (10 * (u + 1))), units[u]);
}

void sweep_suffix(char *buf, size_t len, enum sweep_param p, uint64_t v)
{
	char s[24];
	sweep_value_str(s, sizeof(s), v);
	snprintf(buf, len, "@%c%s", p > SWEEP_NONE && p < SWEEP_NPARAM ? params[p].prefix : '?', s);
}

void sweep_run_setting(const struct run_result *r, uint64_t mem_limit, uint64_t disk_limit,
		       struct run_setting *out)
{
	*out = (struct run_setting){.mem_limit = mem_limit, .disk_limit = disk_limit};
	if (r->sweep_param <= SWEEP_NONE || r->sweep_param >= SWEEP_NPARAM)
		return;
	out->param = (enum sweep_param)r->sweep_param;
	out->value = r->sweep_value;
	if (out->param == SWEEP_MEM_LIMIT)
		out->mem_limit = r->sweep_value;
	else if (out->param == SWEEP_DISK_LIMIT)
		out->disk_limit = r->sweep_value;
}

/* A geometric value rounded so that its label is short and exact: to a
 * whole unit (K, M, G) of which it holds at least 16. */
static uint64_t round_nice(double v)
{
	double unit = 1;
	while (unit < 1099511627776.0 && v / (unit * 1024) >= 16)
		unit *= 1024;
	return (uint64_t)(floor(v / unit + 0.5) * unit);
}

int sweep_cmp_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int one_value(const char *arg, const char *s, size_t l, enum sweep_param p,
		     int (*size)(const char *, uint64_t *), uint64_t *out, char *err, size_t errlen)
{
	char w[64];
	if (!l)
		return errf(err, errlen, "--sweep %s: an empty value", arg);
	if (l >= sizeof(w))
		return errf(err, errlen, "--sweep %s: a value is too long", arg);
	memcpy(w, s, l);
	w[l] = '\0';
	if (size(w, out) < 0)
		return errf(err, errlen, "--sweep %s: %s is not a size (K/M/G/T)", arg, w);
	char lo[24];
	sweep_value_str(lo, sizeof(lo), param_min(p));
	if (*out < param_min(p))
		return errf(err, errlen, "--sweep %s: %s is below the least %s takes (%s)", arg, w,
			    params[p].name, lo);
	if (*out > param_max(p))
		return errf(err, errlen, "--sweep %s: %s is above the most %s takes (1G)", arg, w,
			    params[p].name);
	return 0;
}

int sweep_parse(const char *arg, int (*size)(const char *, uint64_t *), struct sweep_spec *sp,
		char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	if (!eq)
		return errf(err, errlen,
			    "--sweep %s: not PARAM=VALUES (mem-limit, disk-limit, bs "
			    "or size)",
			    arg);
	char name[16];
	size_t nl = (size_t)(eq - arg);
	enum sweep_param p = SWEEP_NONE;
	if (nl < sizeof(name)) {
		memcpy(name, arg, nl);
		name[nl] = '\0';
		p = sweep_param_find(name);
	}
	if (p == SWEEP_NONE)
		return errf(err, errlen,
			    "--sweep %s: %.*s is not a parameter (mem-limit, "
			    "disk-limit, bs or size)",
			    arg, (int)(nl < 40 ? nl : 40), arg);
	const char *vals = eq + 1;
	if (!*vals)
		return errf(err, errlen, "--sweep %s: no values (V1,V2,... or LO..HI:xF)", arg);
	struct sweep_spec out = {.param = p, .until = sp->until};
	const char *dots = strstr(vals, "..");
	if (dots) {
		const char *colon = strchr(dots, ':');
		if (!colon || colon[1] != 'x')
			return errf(err, errlen,
				    "--sweep %s: a range needs its factor "
				    "(LO..HI:xF, e.g. 24M..96M:x2)",
				    arg);
		uint64_t lo, hi;
		if (one_value(arg, vals, (size_t)(dots - vals), p, size, &lo, err, errlen) < 0 ||
		    one_value(arg, dots + 2, (size_t)(colon - dots - 2), p, size, &hi, err,
			      errlen) < 0)
			return -1;
		const char *f = colon + 2;
		double fac;
		if (decimal_parse(f, &fac) < 0) /* the options' one rule: "x0x2" is no factor */
			return errf(err, errlen, "--sweep %s: x%s is not a factor", arg, f);
		if (!(fac > 1))
			return errf(err, errlen, "--sweep %s: the factor must be above 1", arg);
		if (lo > hi)
			return errf(err, errlen, "--sweep %s: LO is above HI", arg);
		out.factor = fac;
		double v = (double)lo;
		while (v <= (double)hi * (1 + 1e-9)) {
			uint64_t r = out.n ? round_nice(v) : lo;
			if (r > hi)
				r = hi;
			if (!out.n || r > out.v[out.n - 1]) {
				if (out.n == SWEEP_MAX_VALUES)
					return errf(err, errlen,
						    "--sweep %s: more than %d values "
						    "(a larger factor)",
						    arg, SWEEP_MAX_VALUES);
				out.v[out.n++] = r;
			}
			v *= fac;
		}
		if (out.v[out.n - 1] < hi) { /* both ends run: the bisection's bracket */
			if (out.n == SWEEP_MAX_VALUES)
				return errf(err, errlen,
					    "--sweep %s: more than %d values (a larger "
					    "factor)",
					    arg, SWEEP_MAX_VALUES);
			out.v[out.n++] = hi;
		}
	} else {
		for (const char *s = vals;;) {
			const char *c = strchr(s, ',');
			size_t l = c ? (size_t)(c - s) : strlen(s);
			if (out.n == SWEEP_MAX_VALUES)
				return errf(err, errlen, "--sweep %s: more than %d values", arg,
					    SWEEP_MAX_VALUES);
			if (one_value(arg, s, l, p, size, &out.v[out.n], err, errlen) < 0)
				return -1;
			out.n++;
			if (!c)
				break;
			s = c + 1;
		}
		qsort(out.v, (size_t)out.n, sizeof(out.v[0]), sweep_cmp_value);
		for (int i = 1; i < out.n; i++)
			if (out.v[i] == out.v[i - 1]) {
				char d[24];
				sweep_value_str(d, sizeof(d), out.v[i]);
				return errf(err, errlen, "--sweep %s: %s given twice", arg, d);
			}
	}
	*sp = out;
	return 0;
}

int sweep_values_most(const struct sweep_spec *sp)
{
	int n = sp->n;
	if (!sp->until.set || n <= 2)
		return n;
	/* both ends, then one value a halving of the n - 1 steps between */
	int most = 2;
	for (int gap = n - 1; gap > 1; gap = (gap + 1) / 2)
		most++;
	return most < n ? most : n;
}

static const char *const metric_names[] = {"bursts", "rdcv", "elapsed"};
static const char *const op_names[] = {">=", ">", "<=", "<"};

int sweep_until_format(const struct sweep_cond *c, char *buf, size_t len)
{
	/* decimal_prefix takes digits and a point, at most 63 of them: the
	 * threshold came from such a number, so one of these gives it back */
	char num[400];
	for (int places = 0; places < 64; places++) {
		snprintf(num, sizeof(num), "%.*f", places, c->threshold);
		if (strtod(num, NULL) == c->threshold)
			break;
	}
	return snprintf(buf, len, "%s%s%s", metric_names[c->metric], op_names[c->op], num);
}

int sweep_until_parse(const char *arg, struct sweep_cond *c, char *err, size_t errlen)
{
	const char *s = arg;
	while (*s == ' ')
		s++;
	int m = -1;
	for (int i = 0; i < (int)ARRAY_LEN(metric_names); i++)
		if (!strncmp(s, metric_names[i], strlen(metric_names[i])))
			m = i;
	if (m < 0)
		return errf(err, errlen,
			    "--sweep-until %s: not METRIC OP NUMBER (bursts, rdcv or "
			    "elapsed; >=, >, <=, <)",
			    arg);
	s += strlen(metric_names[m]);
	while (*s == ' ')
		s++;
	int op = -1;
	for (int i = 0; i < (int)ARRAY_LEN(op_names) && op < 0; i++) /* ">=" before ">" */
		if (!strncmp(s, op_names[i], strlen(op_names[i])))
			op = i;
	if (op < 0)
		return errf(err, errlen, "--sweep-until %s: no comparison (>=, >, <= or <)", arg);
	s += strlen(op_names[op]);
	while (*s == ' ')
		s++;
	/* a number as every option takes one (decimal_prefix): "0x10" and
	 * "1e1" are not, as -i 0x10 is not */
	const char *end;
	double t;
	int bad = decimal_prefix(s, &t, &end) < 0;
	while (!bad && *end == ' ')
		end++;
	if (bad || *end)
		return errf(err, errlen, "--sweep-until %s: not a number after %s", arg,
			    op_names[op]);
	*c = (struct sweep_cond){
	    .set = 1, .metric = (enum sweep_metric)m, .op = (enum sweep_op)op, .threshold = t};
	snprintf(c->text, sizeof(c->text), "%s%s%g", metric_names[m], op_names[op], t);
	return 0;
}
