#include "sampling/lru_gen.h"

#include <stdio.h>
#include <string.h>

#include "base/util.h"

void lru_gen_begin(struct lru_gen_parser *p, const char *want)
{
	memset(p, 0, sizeof(*p));
	p->want = want;
	if (want) {
		p->want_len = strlen(want);
		while (p->want_len > 1 && want[p->want_len - 1] == '/')
			p->want_len--;
	}
}

/* The lruvec read so far goes into the result, by age. */
static void end_lruvec(struct lru_gen_parser *p)
{
	if (p->ngen > 0 && p->in_memcg) {
		int n = p->ngen < LRU_GEN_MAX ? p->ngen : LRU_GEN_MAX;
		for (int j = 0; j < n; j++) { /* j: oldest first */
			p->acc.file[n - 1 - j] += p->gfile[j];
			p->acc.anon[n - 1 - j] += p->ganon[j];
		}
		p->acc.file[n - 1] += p->over_file;
		p->acc.anon[n - 1] += p->over_anon;
		p->acc.seq += p->last_seq;
		p->acc.lruvecs++;
		if (n > p->acc.nr_gens)
			p->acc.nr_gens = n;
	}
	p->ngen = 0;
	p->over_file = p->over_anon = 0;
}

static int bad(struct lru_gen_parser *p, char *err, size_t errlen, const char *why)
{
	errf(err, errlen, "line %d: %s", p->line, why);
	return -1;
}

/* An unsigned decimal at *s (after blanks); 0 with *s past it, or -1. */
static int number(const char **s, const char *end, uint64_t *v)
{
	const char *q = *s;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q == end || *q < '0' || *q > '9')
		return -1;
	uint64_t x = 0;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		unsigned d = (unsigned)(*q - '0');
		if (x > (UINT64_MAX - d) / 10)
			return -1;
		x = x * 10 + d;
	}
	*v = x;
	*s = q;
	return 0;
}

/* A blank, a word and what follows it: 1 when the line's first word is w. */
static int word(const char *s, const char *end, const char *w, const char **after)
{
	while (s < end && *s == ' ')
		s++;
	size_t l = strlen(w);
	if ((size_t)(end - s) < l || memcmp(s, w, l) || (s + l < end && s[l] != ' '))
		return 0;
	*after = s + l;
	return 1;
}

/* How much of the memcg PATH (len bytes) and want end alike, in whole
 * components ("/a/b" and "/x/a/b": 4); 0 for none or for the root "/". */
static size_t match(const struct lru_gen_parser *p, const char *path, size_t len)
{
	while (len > 1 && path[len - 1] == '/')
		len--;
	if (!p->want || len < 2 || path[0] != '/')
		return 0;
	size_t k = 0;
	while (k < len && k < p->want_len && path[len - 1 - k] == p->want[p->want_len - 1 - k])
		k++;
	while (k > 0 && path[len - k] != '/') /* back to a component's start */
		k--;
	return k >= 2 ? k : 0;
}

int lru_gen_line(struct lru_gen_parser *p, const char *line, size_t len, char *err, size_t errlen)
{
	const char *s = line, *end = line + len, *q;
	p->line++;
	if (memchr(line, '\0', len))
		return bad(p, err, errlen, "a NUL byte");
	while (s < end && (*s == ' ' || *s == '\t'))
		s++;
	if (s == end)
		return 0; /* a blank line: nothing */
	uint64_t v[4];
	if (word(line, end, "memcg", &q)) {
		end_lruvec(p);
		if (number(&q, end, &v[0]) < 0 || (q < end && *q != ' '))
			return bad(p, err, errlen, "memcg: no ID");
		const char *path = q < end ? q + 1 : end; /* "%5hu %s": one blank, the path */
		p->memcgs++;
		p->in_node = 0;
		if (!p->want) {
			p->in_memcg = 1;
			return 0;
		}
		size_t l = match(p, path, (size_t)(end - path));
		p->in_memcg = l > p->best;
		if (p->in_memcg) { /* a longer match: this one, not the earlier */
			p->best = l;
			memset(&p->acc, 0, sizeof(p->acc));
		}
		return 0;
	}
	if (word(line, end, "node", &q)) {
		if (!p->memcgs)
			return bad(p, err, errlen, "node before any memcg line");
		end_lruvec(p);
		if (number(&q, end, &v[0]) < 0)
			return bad(p, err, errlen, "node: no number");
		while (q < end && *q == ' ')
			q++;
		if (q != end)
			return bad(p, err, errlen, "node: more than a number");
		p->in_node = 1;
		return 0;
	}
	/* SEQ AGE_MS ANON FILE, a number maybe marked 'x' */
	q = s;
	for (int i = 0; i < 4; i++) {
		if (number(&q, end, &v[i]) < 0)
			return bad(p, err, errlen,
				   i ? "a generation line needs 4 numbers"
				     : "not a memcg, node or generation line");
		if (i >= 2 && q < end && *q == 'x')
			q++;
		if (q < end && *q != ' ' && *q != '\t')
			return bad(p, err, errlen, "not a number");
	}
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q != end)
		return bad(p, err, errlen, "a generation line has 4 numbers");
	if (!p->in_node)
		return bad(p, err, errlen, "generation before any node line");
	if (p->ngen && v[0] != p->last_seq + 1)
		return bad(p, err, errlen, "generations out of order");
	p->last_seq = v[0];
	if (p->ngen >= LRU_GEN_MAX) { /* the oldest kept one moves to the overflow */
		p->over_file += p->gfile[0];
		p->over_anon += p->ganon[0];
		memmove(p->gfile, p->gfile + 1, sizeof(p->gfile[0]) * (LRU_GEN_MAX - 1));
		memmove(p->ganon, p->ganon + 1, sizeof(p->ganon[0]) * (LRU_GEN_MAX - 1));
	}
	int at = p->ngen < LRU_GEN_MAX ? p->ngen : LRU_GEN_MAX - 1;
	p->ganon[at] = v[2];
	p->gfile[at] = v[3];
	p->ngen++;
	return 0;
}

int lru_gen_end(struct lru_gen_parser *p, struct lru_gen *out, char *err, size_t errlen)
{
	end_lruvec(p);
	memset(out, 0, sizeof(*out));
	if (!p->acc.lruvecs) {
		if (p->want)
			errf(err, errlen, "no generations of a memcg %s", p->want);
		else
			errf(err, errlen, "no generations");
		return -1;
	}
	*out = p->acc;
	out->found = 1;
	return 0;
}

int lru_gen_parse(const char *text, size_t len, const char *want, struct lru_gen *out, char *err,
		  size_t errlen)
{
	struct lru_gen_parser p;
	lru_gen_begin(&p, want);
	const char *s = text, *end = text + len;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *e = nl ? nl : end;
		if (lru_gen_line(&p, s, (size_t)(e - s), err, errlen) < 0) {
			memset(out, 0, sizeof(*out));
			return -1;
		}
		s = nl ? nl + 1 : end;
	}
	return lru_gen_end(&p, out, err, errlen);
}

uint64_t lru_gen_young_file(const struct lru_gen *g)
{
	return g->file[0] + g->file[1];
}
