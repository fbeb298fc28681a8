/* lru_gen.h on texts in the format lru_gen_seq_show (mm/vmscan.c) prints:
 * "memcg %5hu %s", " node %5d", " %10lu %10u %10lu%c %10lu%c" per
 * generation, oldest first.  The figures come back by age, youngest first,
 * for one memcg matched by its directory's path or for all summed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "sampling/lru_gen.h"

/* Two memcgs on one node, the run's with four generations, laid out as
 * the kernel prints them (the numbers made up). */
static const char two[] = "memcg     1 /\n"
			  " node     0\n"
			  "          3     123456          0         120 \n"
			  "          4      60012        450        2200 \n"
			  "          5       3004         10         300 \n"
			  "memcg     7 /lrutop-321-run\n"
			  " node     0\n"
			  "         20       4064          0           10 \n"
			  "         21       2032          0        2613 \n"
			  "         22       1016          0        3000 \n"
			  "         23          8          0        1200 \n";

static int parse(const char *text, const char *want, struct lru_gen *g, char *err)
{
	return lru_gen_parse(text, strlen(text), want, g, err, 128);
}

static void test_one_memcg_by_path(void **state)
{
	(void)state;
	struct lru_gen g;
	char err[128] = "";
	assert_int_equal(parse(two, "/sys/fs/cgroup/lrutop-321-run", &g, err), 0);
	assert_int_equal(g.found, 1);
	assert_int_equal(g.nr_gens, 4);
	assert_int_equal(g.lruvecs, 1);
	assert_int_equal(g.seq, 23);
	/* youngest first */
	assert_int_equal(g.file[0], 1200);
	assert_int_equal(g.file[1], 3000);
	assert_int_equal(g.file[2], 2613);
	assert_int_equal(g.file[3], 10);
	assert_int_equal(lru_gen_young_file(&g), 4200);
	/* a trailing slash, and a v1 mount point before the same path */
	assert_int_equal(parse(two, "/sys/fs/cgroup/memory/lrutop-321-run/", &g, err), 0);
	assert_int_equal(g.file[0], 1200);
	/* inside a cgroup namespace the kernel's path is longer than ours */
	char ns[sizeof(two) + 32];
	snprintf(ns, sizeof(ns), "%s", two);
	char *at = strstr(ns, "/lrutop-321-run");
	memmove(at + 10, at, strlen(at) + 1);
	memcpy(at, "/docker/ab", 10);
	assert_int_equal(parse(ns, "/sys/fs/cgroup/lrutop-321-run", &g, err), 0);
	assert_int_equal(g.file[0], 1200);
	/* the root memcg alone matches nothing */
	assert_int_equal(parse("memcg 1 /\n node 0\n 1 0 0 5\n", "/sys/fs/cgroup/x", &g, err), -1);
	/* a name that only ends the same way is not it */
	assert_int_equal(parse(two, "/sys/fs/cgroup/xlrutop-321-run", &g, err), -1);
	assert_non_null(strstr(err, "no generations"));
	assert_int_equal(g.found, 0);
}

static void test_system_sum_by_age(void **state)
{
	(void)state;
	struct lru_gen g;
	char err[128];
	assert_int_equal(parse(two, NULL, &g, err), 0);
	assert_int_equal(g.lruvecs, 2);
	assert_int_equal(g.nr_gens, 4);
	assert_int_equal(g.seq, 5 + 23);
	/* the root's three by age (300, 2200, 120) on the run's four */
	assert_int_equal(g.file[0], 1200 + 300);
	assert_int_equal(g.file[1], 3000 + 2200);
	assert_int_equal(g.file[2], 2613 + 120);
	assert_int_equal(g.file[3], 10);
	assert_int_equal(g.anon[1], 450);
	assert_int_equal(g.anon[0], 10);
}

static void test_nodes_and_longest_match(void **state)
{
	(void)state;
	/* the run's memcg on two nodes: the memcg line only before the first */
	const char *t = "memcg    10 /a\n"
			" node     0\n"
			"          1 5 0 7\n"
			"          2 5 0 8\n"
			"memcg    11 /b/a\n"
			" node     0\n"
			"          8 1 0 100\n"
			"          9 1 0 200\n"
			" node     1\n"
			"          4 1 0 1000x\n" /* a mark after a number */
			"          5 1 0 2000\n"
			"          6 1 0 3000\n";
	struct lru_gen g;
	char err[128];
	assert_int_equal(parse(t, "/sys/fs/cgroup/b/a", &g, err), 0);
	assert_int_equal(g.lruvecs, 2);
	assert_int_equal(g.nr_gens, 3);
	assert_int_equal(g.seq, 9 + 6);
	assert_int_equal(g.file[0], 200 + 3000);
	assert_int_equal(g.file[1], 100 + 2000);
	assert_int_equal(g.file[2], 1000);
	/* "/a" alone is the other memcg */
	assert_int_equal(parse(t, "/sys/fs/cgroup/a", &g, err), 0);
	assert_int_equal(g.file[0], 8);
	assert_int_equal(g.seq, 2);
}

static void test_more_gens_fold_into_oldest(void **state)
{
	(void)state;
	const char *t = "memcg 1 /\n node 0\n"
			" 10 0 0 1\n 11 0 0 2\n 12 0 0 4\n 13 0 0 8\n 14 0 0 16\n 15 0 0 32\n";
	struct lru_gen g;
	char err[128];
	assert_int_equal(parse(t, NULL, &g, err), 0);
	assert_int_equal(g.nr_gens, LRU_GEN_MAX);
	assert_int_equal(g.file[0], 32);
	assert_int_equal(g.file[1], 16);
	assert_int_equal(g.file[2], 8);
	assert_int_equal(g.file[3], 1 + 2 + 4);
	assert_int_equal(g.seq, 15);
}

static void test_bad_lines(void **state)
{
	(void)state;
	static const struct {
		const char *text, *why;
	} cases[] = {
	    {"memcg 1 /\n node 0\n 3 1 2\n", "line 3: a generation line needs 4 numbers"},
	    {"memcg 1 /\n node 0\n 3 1 2 4 5\n", "line 3: a generation line has 4 numbers"},
	    {"memcg 1 /\n node 0\n 3 1 2 4\n 5 1 2 4\n", "line 4: generations out of order"},
	    {" node 0\n", "line 1: node before any memcg line"},
	    {"memcg 1 /\n 3 1 2 4\n", "line 2: generation before any node line"},
	    {"memcg x /\n", "line 1: memcg: no ID"},
	    {"memcg 1 /\n node 0\n 3 1 2y 4\n", "line 3: not a number"},
	    {"hello\n", "line 1: not a memcg, node or generation line"},
	    {"memcg 1 /\n node 0\n 99999999999999999999 1 2 4\n",
	     "line 3: not a memcg, node or generation line"},
	    {"memcg 1 /\n node 0\n", "no generations"},
	    {"", "no generations"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lru_gen g;
		char err[128] = "";
		assert_int_equal(parse(cases[i].text, NULL, &g, err), -1);
		if (strcmp(err, cases[i].why))
			fail_msg("case %zu: \"%s\", not \"%s\"", i, err, cases[i].why);
		assert_int_equal(g.found, 0);
	}
	/* a NUL inside a line */
	struct lru_gen g;
	char err[128];
	assert_int_equal(lru_gen_parse("memcg 1 /\n no\0de 0\n", 19, NULL, &g, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "line 2: a NUL byte");
}

/* Fed in pieces (as the sampler reads the file), the same figures. */
static void test_line_by_line(void **state)
{
	(void)state;
	struct lru_gen_parser p;
	struct lru_gen a, b;
	char err[128];
	lru_gen_begin(&p, "/sys/fs/cgroup/lrutop-321-run");
	for (const char *s = two; *s;) {
		const char *nl = strchr(s, '\n');
		assert_int_equal(lru_gen_line(&p, s, (size_t)(nl - s), err, sizeof(err)), 0);
		s = nl + 1;
	}
	assert_int_equal(lru_gen_end(&p, &a, err, sizeof(err)), 0);
	assert_int_equal(parse(two, "/sys/fs/cgroup/lrutop-321-run", &b, err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_memcg_by_path),
	    cmocka_unit_test(test_system_sum_by_age),
	    cmocka_unit_test(test_nodes_and_longest_match),
	    cmocka_unit_test(test_more_gens_fold_into_oldest),
	    cmocka_unit_test(test_bad_lines),
	    cmocka_unit_test(test_line_by_line),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
