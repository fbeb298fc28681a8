/*
 * Tests for output: the --csv contract of docs/design.md §5 (the files
 * the rows go to: test_outfile.c).  The column list below is copied from
 * docs/design.md, not from output.c, so a column that moves, disappears or
 * is renamed fails here.
 * Rows are written to open_memstream() buffers and split back into cells.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "output/output.h"
#include "sampling/sample.h"
#include "runs/strategy.h"
#include "base/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* docs/design.md §5, "--csv": at least these columns in this order. */
static const char *const design_columns[] = {
    "t_s",
    "read_mbs",
    "write_mbs",
    "mem_free_kb",
    "active_kb",
    "inactive_kb",
    "active_file_kb",
    "inactive_file_kb",
    "active_anon_kb",
    "inactive_anon_kb",
    "dirty_kb",
    "writeback_kb",
    "pgactivate_s",
    "pgdeactivate_s",
    "pgscan_s",
    "pgsteal_s",
    "refault_file_s",
    "majflt_s",
    "cg_active_file_kb",
    "cg_inactive_file_kb",
    "psi_mem_some",
    "psi_io_some",
    "run",
    "strategy",
    "phase",
};
#define NCOLS ((int)ARRAY_LEN(design_columns))

/* ---- helpers ---------------------------------------------------------- */

struct mem {
	char *buf;
	size_t len;
	FILE *f;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
}

/* Closes the stream; m->buf holds everything written. */
static void mem_close(struct mem *m)
{
	assert_int_equal(fclose(m->f), 0);
	m->f = NULL;
}

static int count_char(const char *s, char c)
{
	int n = 0;
	for (; *s; s++)
		n += *s == c;
	return n;
}

/* Splits one line (with its '\n') into at most max cells, keeping empty
 * ones; returns the number of cells. */
static int split_cells(char *line, char **cells, int max)
{
	size_t n = strlen(line);
	assert_true(n > 0);
	assert_int_equal(line[n - 1], '\n');
	line[n - 1] = '\0';
	assert_null(strchr(line, '\n')); /* exactly one line */
	int k = 0;
	char *p = line;
	while (k < max) {
		cells[k++] = strsep(&p, ",");
		if (!p)
			break;
	}
	assert_null(p); /* no more cells than max */
	return k;
}

static int col(const char *name)
{
	for (int i = 0; i < NCOLS; i++)
		if (strcmp(design_columns[i], name) == 0)
			return i;
	fail_msg("no column %s in docs/design.md's list", name);
	return -1;
}

static double num(const char *cell)
{
	char *end;
	assert_true(*cell != '\0');
	double v = strtod(cell, &end);
	if (*end)
		fail_msg("cell \"%s\" is not a number", cell);
	return v;
}

/* A sample with memory and vmstat/disk counters; t in seconds. */
static void make_sample(struct sample *s, double t)
{
	memset(s, 0, sizeof(*s));
	s->t_ns = (uint64_t)llround(t * 1e9);
	s->have =
	    SAMPLE_HAVE_MEM | SAMPLE_HAVE_VM | SAMPLE_HAVE_VMX | SAMPLE_HAVE_DISK | SAMPLE_HAVE_CPU;
	s->run = -1;
	s->disk_id = 1;
	s->mem_total = 24000000;
	s->mem_free = 123456;
	s->active = 200001;
	s->inactive = 300002;
	s->active_file = 40003;
	s->inactive_file = 50004;
	s->active_anon = 60005;
	s->inactive_anon = 70006;
	s->dirty = 77;
	s->writeback = 8;
	s->cg_active_file = 8u << 20;
	s->cg_inactive_file = 1u << 20;
}

/* Writes one row and returns its cells (pointing into *m's buffer). */
static void row_cells(struct mem *m, const struct sample *prev, const struct sample *cur,
		      uint64_t t0, const char *strategy, char **cells)
{
	mem_open(m);
	csv_row(m->f, prev, cur, t0, strategy);
	mem_close(m);
	assert_int_equal(count_char(m->buf, ','), NCOLS - 1);
	assert_int_equal(split_cells(m->buf, cells, NCOLS), NCOLS);
}

/* ---- csv -------------------------------------------------------------- */

static void test_csv_header(void **state)
{
	(void)state;
	struct mem m;
	mem_open(&m);
	csv_header(m.f);
	mem_close(&m);
	char *cells[NCOLS + 8];
	int n = split_cells(m.buf, cells, NCOLS + 8);
	assert_int_equal(n, NCOLS);
	for (int i = 0; i < NCOLS; i++)
		assert_string_equal(cells[i], design_columns[i]);
	free(m.buf);
}

static void test_csv_first_row(void **state)
{
	(void)state;
	struct sample cur;
	make_sample(&cur, 101.5);
	char *c[NCOLS];
	struct mem m;
	row_cells(&m, NULL, &cur, 100 * 1000000000ull, NULL, c);

	assert_true(fabs(num(c[col("t_s")]) - 1.5) < 1e-6);
	/* no previous sample: every rate is unknown, an empty cell */
	static const char *const rates[] = {"read_mbs",	      "write_mbs", "pgactivate_s",
					    "pgdeactivate_s", "pgscan_s",  "pgsteal_s",
					    "refault_file_s", "majflt_s"};
	for (size_t i = 0; i < ARRAY_LEN(rates); i++)
		if (*c[col(rates[i])])
			fail_msg("%s = \"%s\" without a previous sample", rates[i],
				 c[col(rates[i])]);
	/* memory is a level, known from one sample: KiB as in /proc/meminfo */
	assert_string_equal(c[col("mem_free_kb")], "123456");
	assert_string_equal(c[col("active_kb")], "200001");
	assert_string_equal(c[col("inactive_kb")], "300002");
	assert_string_equal(c[col("active_file_kb")], "40003");
	assert_string_equal(c[col("inactive_file_kb")], "50004");
	assert_string_equal(c[col("active_anon_kb")], "60005");
	assert_string_equal(c[col("inactive_anon_kb")], "70006");
	assert_string_equal(c[col("dirty_kb")], "77");
	assert_string_equal(c[col("writeback_kb")], "8");
	/* no cgroup, no PSI, idle */
	assert_string_equal(c[col("cg_active_file_kb")], "");
	assert_string_equal(c[col("cg_inactive_file_kb")], "");
	assert_string_equal(c[col("psi_mem_some")], "");
	assert_string_equal(c[col("psi_io_some")], "");
	assert_string_equal(c[col("run")], "");
	assert_string_equal(c[col("strategy")], "");
	assert_string_equal(c[col("phase")], "");
	free(m.buf);
}

static void test_csv_rates(void **state)
{
	(void)state;
	struct sample a, b;
	make_sample(&a, 10.0);
	make_sample(&b, 10.5);
	b.rd_sectors = 2048; /* 1 MiB in 0.5 s: 2 MiB/s */
	b.wr_sectors = 4096; /* 2 MiB in 0.5 s: 4 MiB/s */
	a.pgdeactivate = 1000;
	b.pgdeactivate = 2000; /* 2000/s */
	b.pgmajfault = 5;      /* 10/s */
	b.refault_file = 50;   /* 100/s */
	b.run = 0;
	b.phase = PHASE_COPY;
	char *c[NCOLS];
	struct mem m;
	row_cells(&m, &a, &b, a.t_ns, "rw_cp", c);
	assert_true(fabs(num(c[col("t_s")]) - 0.5) < 1e-6);
	assert_true(fabs(num(c[col("read_mbs")]) - 2.0) < 1e-3);
	assert_true(fabs(num(c[col("write_mbs")]) - 4.0) < 1e-3);
	assert_true(fabs(num(c[col("pgdeactivate_s")]) - 2000.0) < 0.1);
	assert_true(fabs(num(c[col("pgactivate_s")]) - 0.0) < 0.1);
	assert_true(fabs(num(c[col("majflt_s")]) - 10.0) < 0.1);
	assert_true(fabs(num(c[col("refault_file_s")]) - 100.0) < 0.1);
	/* a run is going on: its number, strategy and phase */
	(void)num(c[col("run")]);
	assert_string_equal(c[col("strategy")], "rw_cp");
	assert_string_equal(c[col("phase")], "copy");
	free(m.buf);

	/* the disk missing in the newer sample: empty, not 0 */
	b.have &= ~(uint32_t)SAMPLE_HAVE_DISK;
	row_cells(&m, &a, &b, a.t_ns, "rw_cp", c);
	assert_string_equal(c[col("read_mbs")], "");
	assert_string_equal(c[col("write_mbs")], "");
	assert_true(fabs(num(c[col("pgdeactivate_s")]) - 2000.0) < 0.1);
	free(m.buf);
}

static void test_csv_cgroup_psi(void **state)
{
	(void)state;
	struct sample cur;
	make_sample(&cur, 3);
	char *c[NCOLS];
	struct mem m;

	/* the cg_* bytes are there but the bit is not: empty */
	row_cells(&m, NULL, &cur, 0, NULL, c);
	assert_string_equal(c[col("cg_active_file_kb")], "");
	assert_string_equal(c[col("cg_inactive_file_kb")], "");
	free(m.buf);

	/* with a cgroup: bytes shown in KiB (8 MiB = 8192 KiB) */
	cur.have |= SAMPLE_HAVE_CG;
	cur.have |= SAMPLE_HAVE_PSI_MEM;
	cur.psi_mem_some = 1.25f;
	cur.psi_io_some = 9.5f; /* no PSI_IO bit: not shown */
	row_cells(&m, NULL, &cur, 0, NULL, c);
	assert_string_equal(c[col("cg_active_file_kb")], "8192");
	assert_string_equal(c[col("cg_inactive_file_kb")], "1024");
	assert_true(fabs(num(c[col("psi_mem_some")]) - 1.25) < 1e-6);
	assert_string_equal(c[col("psi_io_some")], "");
	free(m.buf);

	/* no /proc/meminfo: memory cells empty rather than invented zeros */
	cur.have &= ~(uint32_t)SAMPLE_HAVE_MEM;
	row_cells(&m, NULL, &cur, 0, NULL, c);
	assert_string_equal(c[col("mem_free_kb")], "");
	assert_string_equal(c[col("active_file_kb")], "");
	assert_string_equal(c[col("writeback_kb")], "");
	free(m.buf);
}

static void test_csv_comma_count(void **state)
{
	(void)state;
	/* header and rows in one stream: every line has the header's commas */
	struct mem m;
	struct sample s[4];
	mem_open(&m);
	csv_header(m.f);
	for (int i = 0; i < 4; i++) {
		make_sample(&s[i], 1.0 + i);
		s[i].have |= i & 1 ? SAMPLE_HAVE_CG | SAMPLE_HAVE_PSI_IO : 0;
		s[i].run = (int16_t)(i >= 2 ? i - 2 : -1);
		s[i].phase = PHASE_FLUSH;
		csv_row(m.f, i ? &s[i - 1] : NULL, &s[i], 0, i >= 2 ? "mm_sync_cp" : NULL);
	}
	mem_close(&m);
	assert_int_equal(count_char(m.buf, '\n'), 5);
	char *save = NULL;
	int lines = 0;
	for (char *l = strtok_r(m.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		assert_int_equal(count_char(l, ','), NCOLS - 1);
		lines++;
	}
	assert_int_equal(lines, 5);
	free(m.buf);
}

static void test_batch_line(void **state)
{
	(void)state;
	struct mem m;
	struct sample a, b;
	make_sample(&a, 1);
	make_sample(&b, 2);
	b.rd_sectors = 2048;
	mem_open(&m);
	batch_header(m.f);
	batch_line(m.f, NULL, &a, 0);
	batch_line(m.f, &a, &b, 0);
	mem_close(&m);
	/* three lines, each with as many blank-separated columns as the header */
	char *save = NULL, *l;
	int ncols = -1, lines = 0;
	for (l = strtok_r(m.buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		int n = 0;
		char *s2 = NULL;
		char *copy = xstrdup(l);
		for (char *t = strtok_r(copy, " ", &s2); t; t = strtok_r(NULL, " ", &s2))
			n++;
		free(copy);
		if (ncols < 0)
			ncols = n;
		else if (n != ncols)
			fail_msg("line \"%s\": %d columns, header has %d", l, n, ncols);
		/* the first row has no rates: shown as "-", never as 0 */
		if (lines == 1) {
			if (!strstr(l, " -"))
				fail_msg("first batch line without \"-\" rates: \"%s\"", l);
		}
		lines++;
	}
	assert_int_equal(lines, 3);
	free(m.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_csv_header),
	    cmocka_unit_test(test_csv_first_row),
	    cmocka_unit_test(test_csv_rates),
	    cmocka_unit_test(test_csv_cgroup_psi),
	    cmocka_unit_test(test_csv_comma_count),
	    cmocka_unit_test(test_batch_line),
	};
	return cmocka_run_group_tests_name("output", tests, NULL, NULL);
}
