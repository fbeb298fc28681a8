/*
 * recording_open / recording_next: a --record file (JSON Lines, plain or
 * gzip), given as a file (a memfd).
 *
 * Contract: an error names the file (and, after the header, FILE:LINE) and
 * repeats on the next call; every item is well formed (known kind, have
 * bits known, a disk table of at most DISKTAB_MAX distinct named devices,
 * phases in range); and what the reader accepts, written again by the
 * recorder and read back, gives the same items (the writer and the reader
 * agree on everything the reader lets through).  Field ranges (issue 15):
 * every number of an accepted result is one a run can have (counts not
 * negative, flags 0/1, verified -2..1, times and rates finite and not
 * negative, CVs unknown or not negative), and its name and message hold no
 * control character.  Issue 26: every field of an accepted sample, a
 * header figure it says and an event's and a map's numbers are in the
 * range record_format.c gives them; blank lines and bytes after a gzip
 * member are said as errors naming the file.  Issue 28: the header's runs'
 * configuration ("config", minor 4) is all zero when not said, and when
 * said every number is in its range, every name fits its buffer without a
 * control character, the probe's mode is one lrutop has and the sweep is
 * one --sweep makes; written again it reads back the same.
 */
#include "fuzz.h"

#include <math.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "recording/record.h"
#include "recording/record_format.h"
#include "model/sweep.h"
#include "runs/strategy.h"

/* v (as the file held it: an int64) in g */
static int in_range(int64_t v, const char *line, const char *key)
{
	const struct record_range *g = record_range_of(line, key);
	FUZZ_REQUIRE(g && !g->real);
	return v >= g->lo && v <= g->hi && (!g->pow2 || (v & (v - 1)) == 0);
}

/* Every field of a sample's groups in its column's range. */
static void sample_in_range(const struct sample *s)
{
	for (size_t i = 0; i < record_nfields; i++) {
		const struct field *f = &record_fields[i];
		if (!(s->have & f->group))
			continue;
		const char *p = (const char *)s + f->off;
		int64_t v;
		if (f->type == F_F32) {
			float x;
			memcpy(&x, p, sizeof(x));
			FUZZ_REQUIRE(isfinite(x) && x >= f->range.rlo && x <= f->range.rhi);
			continue;
		} else if (f->type == F_U64) {
			uint64_t u;
			memcpy(&u, p, sizeof(u));
			v = (int64_t)u;
		} else if (f->type == F_U32) {
			uint32_t u;
			memcpy(&u, p, sizeof(u));
			v = u;
		} else {
			uint8_t u;
			memcpy(&u, p, sizeof(u));
			v = u;
		}
		FUZZ_REQUIRE(v >= f->range.lo && v <= f->range.hi);
	}
	FUZZ_REQUIRE(in_range((int64_t)s->t_ns, "sample", "t") &&
		     in_range(s->run, "sample", "run"));
}

/* A name of the configuration: ends inside its buffer, no control byte. */
static void clean_name(const char *s, size_t len)
{
	FUZZ_REQUIRE(memchr(s, 0, len));
	for (const char *p = s; *p; p++)
		FUZZ_REQUIRE((unsigned char)*p >= 0x20 && *p != 0x7f);
}

static void check_config(const struct record_config *c)
{
	if (!c->have) {
		static const struct record_config none;
		FUZZ_REQUIRE(!memcmp(c, &none, sizeof(none)));
		return;
	}
	FUZZ_REQUIRE(c->nstrategies >= 0 && c->nstrategies <= RUNLOG_MAX_STRATEGIES);
	FUZZ_REQUIRE(c->ncmds >= 0 && c->ncmds <= RUN_CONFIG_MAX_CMDS);
	for (int i = 0; i < c->nstrategies; i++)
		clean_name(c->strategies[i], sizeof(c->strategies[i]));
	for (int i = 0; i < c->ncmds; i++)
		clean_name(c->cmds[i], sizeof(c->cmds[i]));
	clean_name(c->baseline, sizeof(c->baseline));
	FUZZ_REQUIRE(!c->probe[0] || !strcmp(c->probe, "cold") || !strcmp(c->probe, "direct"));
	const char *l = "header.config";
	FUZZ_REQUIRE(in_range((int64_t)c->size, l, "size") && in_range((int64_t)c->bs, l, "bs") &&
		     in_range(c->repeat, l, "repeat") && in_range(c->prealloc, l, "prealloc") &&
		     in_range(c->rehearsal, l, "rehearsal"));
	const struct sweep_spec *sw = &c->sweep;
	FUZZ_REQUIRE(sw->param >= SWEEP_NONE && sw->param < SWEEP_NPARAM);
	FUZZ_REQUIRE(sw->param ? sw->n >= 1 && sw->n <= SWEEP_MAX_VALUES : sw->n == 0);
	FUZZ_REQUIRE(sw->param || !sw->until.set);
	for (int i = 0; i < sw->n; i++)
		FUZZ_REQUIRE(in_range((int64_t)sw->v[i], l, "sweep_values") &&
			     (!i || sw->v[i] > sw->v[i - 1]));
}

/* The configuration written and read back: the same, field by field (a
 * struct's padding is not), a sweep condition's threshold bit for bit
 * (sweep_until_format). */
static void same_config(const struct record_config *a, const struct record_config *b)
{
	FUZZ_REQUIRE(a->have == b->have && a->nstrategies == b->nstrategies &&
		     a->ncmds == b->ncmds);
	for (int i = 0; i < a->nstrategies; i++)
		FUZZ_REQUIRE(!strcmp(a->strategies[i], b->strategies[i]));
	for (int i = 0; i < a->ncmds; i++)
		FUZZ_REQUIRE(!strcmp(a->cmds[i], b->cmds[i]));
	FUZZ_REQUIRE(a->size == b->size && a->bs == b->bs && a->mem_limit == b->mem_limit &&
		     a->disk_limit == b->disk_limit && a->repeat == b->repeat &&
		     a->prealloc == b->prealloc && a->rehearsal == b->rehearsal);
	FUZZ_REQUIRE(!strcmp(a->baseline, b->baseline) && !strcmp(a->probe, b->probe));
	const struct sweep_spec *x = &a->sweep, *y = &b->sweep;
	FUZZ_REQUIRE(x->param == y->param && x->n == y->n && x->factor == y->factor);
	for (int i = 0; i < x->n; i++)
		FUZZ_REQUIRE(x->v[i] == y->v[i]);
	FUZZ_REQUIRE(x->until.set == y->until.set && x->until.metric == y->until.metric &&
		     x->until.op == y->until.op && !strcmp(x->until.text, y->until.text) &&
		     !memcmp(&x->until.threshold, &y->until.threshold, sizeof(double)));
}

enum { MAX_ITEMS = 64 };

static void check_item(const struct record_item *it)
{
	FUZZ_REQUIRE(it->kind == RECORD_SAMPLE || it->kind == RECORD_EVENT ||
		     it->kind == RECORD_RESULT || it->kind == RECORD_MAP);
	FUZZ_REQUIRE(it->line >= 2);
	if (it->kind == RECORD_SAMPLE) {
		FUZZ_REQUIRE((it->sample.have & ~(0x3ffu | SAMPLE_HAVE_PROBE | SAMPLE_HAVE_CG_IO |
						  SAMPLE_HAVE_CG_IO_WB)) == 0); /* the bits a reader knows */
		FUZZ_REQUIRE(it->sample.phase >= 0 && it->sample.phase < PHASE_COUNT);
		sample_in_range(&it->sample);
		if (it->have_disks) {
			const struct disktab *t = &it->disks;
			FUZZ_REQUIRE(t->n >= 0 && t->n <= DISKTAB_MAX);
			for (int i = 0; i < t->n; i++) {
				FUZZ_REQUIRE(t->dev[i].name[0]);
				FUZZ_REQUIRE(memchr(t->dev[i].name, 0, sizeof(t->dev[i].name)));
				for (int k = 0; k < i; k++)
					FUZZ_REQUIRE(strcmp(t->dev[i].name, t->dev[k].name));
			}
		}
	} else if (it->kind == RECORD_EVENT) {
		FUZZ_REQUIRE(it->event.phase >= 0 && it->event.phase < PHASE_COUNT);
		FUZZ_REQUIRE(in_range((int64_t)it->event.t_ns, "event", "t") &&
			     in_range(it->event.run, "event", "run"));
	} else if (it->kind == RECORD_MAP) {
		const struct residency_map_file *f[] = {&it->map.src, &it->map.dst};
		FUZZ_REQUIRE(f[0]->n || f[1]->n);
		for (int i = 0; i < 2; i++)
			FUZZ_REQUIRE(f[i]->n <= RESIDENCY_MAP_MAX && f[i]->n <= f[i]->pages);
		FUZZ_REQUIRE(in_range((int64_t)it->map.t_ns, "pcmap", "t"));
	} else {
		const struct run_result *x = &it->result;
		FUZZ_REQUIRE(!x->strategy[0] || !strcmp(x->strategy, it->strategy_name));
		FUZZ_REQUIRE(x->bytes <= INT64_MAX && x->peak_active_file_kb <= INT64_MAX &&
			     x->pgdeactivate <= INT64_MAX && x->refault_file <= INT64_MAX);
		FUZZ_REQUIRE((x->finished | x->ok | x->cancelled) >= 0 &&
			     (x->finished | x->ok | x->cancelled) <= 1);
		FUZZ_REQUIRE(x->verified >= RUN_UNVERIFIABLE && x->verified <= 1);
		FUZZ_REQUIRE(x->repeat >= 0 && x->bursts >= 0 && x->majflt >= 0 && x->minflt >= 0 &&
			     x->inblock >= 0 && x->oublock >= 0);
		const double must[] = {x->elapsed_s, x->user_s, x->sys_s, x->cpu_pct, x->mbs};
		for (size_t i = 0; i < sizeof(must) / sizeof(must[0]); i++)
			FUZZ_REQUIRE(isfinite(must[i]) && must[i] >= 0);
		FUZZ_REQUIRE(x->elapsed_s <= record_range_of("result", "elapsed_s")->rhi);
		FUZZ_REQUIRE(in_range((int64_t)x->t_end_ns, "result", "t_end_ns"));
		const double may[] = {x->read_cv, x->write_cv, x->read_at_burst};
		for (size_t i = 0; i < sizeof(may) / sizeof(may[0]); i++)
			FUZZ_REQUIRE(isnan(may[i]) || (isfinite(may[i]) && may[i] >= 0));
		for (const char *p = x->name; *p; p++)
			FUZZ_REQUIRE((unsigned char)*p >= 0x20 && *p != 0x7f);
		for (const char *p = x->message; *p; p++)
			FUZZ_REQUIRE((unsigned char)*p >= 0x20 && *p != 0x7f);
	}
}

static void same_item(const struct record_item *a, const struct record_item *b)
{
	FUZZ_REQUIRE(a->kind == b->kind);
	if (a->kind == RECORD_SAMPLE) {
		FUZZ_REQUIRE(!memcmp(&a->sample, &b->sample, sizeof(a->sample)));
		FUZZ_REQUIRE(a->have_disks == b->have_disks);
		if (a->have_disks) {
			FUZZ_REQUIRE(a->disks.n == b->disks.n && a->disks.t_ns == b->disks.t_ns);
			FUZZ_REQUIRE(!memcmp(a->disks.dev, b->disks.dev,
					     sizeof(a->disks.dev[0]) * (size_t)a->disks.n));
		}
	} else if (a->kind == RECORD_EVENT) {
		FUZZ_REQUIRE(a->event.t_ns == b->event.t_ns && a->event.run == b->event.run &&
			     a->event.phase == b->event.phase);
	} else if (a->kind == RECORD_MAP) {
		FUZZ_REQUIRE(!memcmp(&a->map, &b->map, sizeof(a->map)));
	} else {
		const struct run_result *x = &a->result, *y = &b->result;
		/* a strategy this build lacks is written back as a --cmd (null) */
		FUZZ_REQUIRE(!strcmp(x->strategy, y->strategy));
		FUZZ_REQUIRE(!strcmp(x->name, y->name) && !strcmp(x->message, y->message));
		FUZZ_REQUIRE(x->cmd == y->cmd && x->repeat == y->repeat &&
			     x->finished == y->finished && x->ok == y->ok &&
			     x->cancelled == y->cancelled && x->bursts == y->bursts &&
			     x->verified == y->verified);
		FUZZ_REQUIRE(x->majflt == y->majflt && x->minflt == y->minflt &&
			     x->inblock == y->inblock && x->oublock == y->oublock);
		FUZZ_REQUIRE(x->bytes == y->bytes &&
			     x->peak_active_file_kb == y->peak_active_file_kb &&
			     x->pgdeactivate == y->pgdeactivate &&
			     x->refault_file == y->refault_file && x->t_start_ns == y->t_start_ns &&
			     x->t_copy_ns == y->t_copy_ns && x->t_end_ns == y->t_end_ns);
		FUZZ_REQUIRE(x->res_have == y->res_have &&
			     x->res_dst_dirty_peak_kb == y->res_dst_dirty_peak_kb &&
			     x->res_src_cached_end == y->res_src_cached_end &&
			     x->res_src_pages_end == y->res_src_pages_end &&
			     x->res_recent_end == y->res_recent_end);
		const double *da[] = {&x->elapsed_s, &x->user_s,  &x->sys_s,   &x->cpu_pct,
				      &x->mbs,	     &x->read_cv, &x->write_cv};
		const double *db[] = {&y->elapsed_s, &y->user_s,  &y->sys_s,   &y->cpu_pct,
				      &y->mbs,	     &y->read_cv, &y->write_cv};
		for (size_t i = 0; i < sizeof(da) / sizeof(da[0]); i++)
			FUZZ_REQUIRE(!memcmp(da[i], db[i], sizeof(double)));
	}
}

static int has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64], copy[96];
	static struct record_item items[MAX_ITEMS], back;
	char err[512], again[512];

	if (fd < 0) {
		fd = memfd_create("fuzz_record", 0);
		FUZZ_REQUIRE(fd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		snprintf(copy, sizeof(copy), "/dev/shm/lrutop-fuzz-record-%d.jsonl", (int)getpid());
	}
	FUZZ_REQUIRE(ftruncate(fd, 0) == 0);
	FUZZ_REQUIRE(pwrite(fd, data, size, 0) == (ssize_t)size);

	struct recording *rec = recording_open(path, err, sizeof(err));
	if (!rec) {
		FUZZ_REQUIRE(has_prefix(err, path));
		return 0;
	}
	/* the header's figures: said and in range, or not said (0) */
	const struct record_header *hd = recording_header(rec);
	FUZZ_REQUIRE(!hd->page_size || in_range(hd->page_size, "header", "page_size"));
	FUZZ_REQUIRE(!hd->cpus || in_range(hd->cpus, "header", "cpus"));
	FUZZ_REQUIRE(!hd->mem_total_kb ||
		     in_range((int64_t)hd->mem_total_kb, "header", "mem_total_kb"));
	FUZZ_REQUIRE(in_range(hd->minor, "header", "minor") &&
		     in_range(hd->cgroup_version, "header", "cgroup"));
	const struct record_range *iv = record_range_of("header", "interval_s");
	FUZZ_REQUIRE(hd->interval_s == 0 ||
		     (hd->interval_s >= iv->rlo && hd->interval_s <= iv->rhi));
	check_config(&hd->config);
	int n = 0, rc;
	while (n < MAX_ITEMS && (rc = recording_next(rec, &items[n], err, sizeof(err))) == 1) {
		check_item(&items[n]);
		n++;
	}
	if (n < MAX_ITEMS && rc < 0) {
		char at[96];
		snprintf(at, sizeof(at), "%s:", path);
		FUZZ_REQUIRE(has_prefix(err, at));
		FUZZ_REQUIRE(recording_next(rec, &back, again, sizeof(again)) == -1);
		FUZZ_REQUIRE(!strcmp(err, again));
	}
	if (recording_warning(rec))
		FUZZ_REQUIRE(has_prefix(recording_warning(rec), path));

	/* written again and read back: the same items */
	struct record_header h = *recording_header(rec);
	unlink(copy);
	struct recorder *w = recorder_open(copy, RECORD_PLAIN, &h, err, sizeof(err));
	FUZZ_REQUIRE(w);
	for (int i = 0; i < n; i++) {
		const struct record_item *it = &items[i];
		if (it->kind == RECORD_SAMPLE)
			rc = recorder_sample(w, &it->sample, it->have_disks ? &it->disks : NULL,
					     err, sizeof(err));
		else if (it->kind == RECORD_EVENT)
			rc = recorder_event(w, &it->event, err, sizeof(err));
		else if (it->kind == RECORD_MAP)
			rc = recorder_map(w, &it->map, err, sizeof(err));
		else
			rc = recorder_result(w, &it->result, err, sizeof(err));
		FUZZ_REQUIRE(rc == 0);
	}
	FUZZ_REQUIRE(recorder_close(w, err, sizeof(err)) == 0);
	recording_close(rec);

	struct recording *rb = recording_open(copy, err, sizeof(err));
	FUZZ_REQUIRE(rb);
	same_config(&h.config, &recording_header(rb)->config);
	for (int i = 0; i < n; i++) {
		FUZZ_REQUIRE(recording_next(rb, &back, err, sizeof(err)) == 1);
		same_item(&items[i], &back);
	}
	FUZZ_REQUIRE(recording_next(rb, &back, err, sizeof(err)) == 0);
	FUZZ_REQUIRE(!recording_warning(rb));
	recording_close(rb);
	unlink(copy);
	return 0;
}
