/* machine.h against real files: the lru_gen switch as the kernel prints it,
 * the kinds of the block devices this machine has, and what the header,
 * the memory legend and the help overlay then say. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sampling/machine.h"
#include "model/model.h"
#include "runs/strategy.h"
#include "screen/ui.h"
#include "screen/views.h"
#include "modelfix.h"

static int mglru_of(const char *text)
{
	char path[] = "/tmp/lrutop-test-lru_gen-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	int on = machine_mglru(path);
	unlink(path);
	return on;
}

static void test_mglru_switch(void **state)
{
	(void)state;
	assert_int_equal(mglru_of("0x0007\n"), 1); /* every feature */
	assert_int_equal(mglru_of("0x0001\n"), 1); /* the main switch alone */
	assert_int_equal(mglru_of("0x0000\n"), 0);
	assert_int_equal(mglru_of("0x0006\n"), 0); /* sub-features without the switch */
	assert_int_equal(mglru_of("y\n"), 1);
	assert_int_equal(mglru_of("n\n"), 0);
	assert_int_equal(mglru_of("zz\n"), 0);
	assert_int_equal(mglru_of(""), 0);
	assert_int_equal(machine_mglru("/nonexistent/lru_gen/enabled"), 0);
	/* this machine's own answer agrees with the file */
	FILE *f = fopen(MACHINE_LRU_GEN, "r");
	if (!f)
		fprintf(stderr, "note: %s absent (kernel without CONFIG_LRU_GEN): MGLRU off\n",
			MACHINE_LRU_GEN);
	assert_int_equal(machine_mglru(NULL), f ? machine_mglru(MACHINE_LRU_GEN) : 0);
	if (f)
		fclose(f);
}

static void test_disk_kinds(void **state)
{
	(void)state;
	char kind[24];
	assert_int_equal(machine_disk_virtual("nosuchdisk0", kind, sizeof(kind)), 0);
	assert_string_equal(kind, "");
	assert_int_equal(machine_disk_virtual("../../etc", kind, sizeof(kind)), 0);
	assert_int_equal(machine_disk_virtual("", kind, sizeof(kind)), 0);
	DIR *d = opendir("/sys/block");
	assert_non_null(d);
	int seen = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		int v = machine_disk_virtual(e->d_name, kind, sizeof(kind));
		if (!strncmp(e->d_name, "loop", 4)) {
			assert_int_equal(v, 1);
			assert_string_equal(kind, "loop");
			seen++;
		} else if (!strncmp(e->d_name, "zram", 4)) {
			assert_string_equal(kind, "zram");
			seen++;
		} else {
			/* the device's own sysfs says virtio: so must the answer */
			char p[512], line[64] = "";
			snprintf(p, sizeof(p), "/sys/block/%s/device/modalias", e->d_name);
			FILE *f = fopen(p, "r");
			if (f) {
				if (!fgets(line, sizeof(line), f))
					line[0] = '\0';
				fclose(f);
			}
			if (!strncmp(line, "virtio:", 7)) {
				assert_int_equal(v, 1);
				assert_string_equal(kind, "virtio");
				seen++;
			}
		}
	}
	closedir(d);
	if (!seen)
		fprintf(stderr, "note: no loop, zram or virtio disk here to check a kind on\n");
	char l0[80], l1[80];
	assert_int_equal(machine_disk_note("vda", "virtio", 0, l0, sizeof(l0)), 1);
	assert_int_equal(machine_disk_note("vda", "virtio", 1, l1, sizeof(l1)), 1);
	assert_int_equal(machine_disk_note("vda", "virtio", 2, l1, sizeof(l1)), 0);
	assert_non_null(strstr(l0, "vda"));
	assert_non_null(strstr(l0, "virtio"));
	assert_true(strlen(l0) <= 56); /* fits the help overlay at 80 columns */
}

struct screen_fixture {
	struct model m;
	struct runlog *log;
	struct ui u;
	struct views v;
	struct grid g;
};

static char *draw(struct screen_fixture *f, int mglru, const char *kind, int help)
{
	memset(f, 0, sizeof(*f));
	mf_model(&f->m, &f->log, 64, 0.25, "vda");
	snprintf(f->m.host, sizeof(f->m.host), "box");
	snprintf(f->m.kernel, sizeof(f->m.kernel), "6.18");
	snprintf(f->m.disk_kind, sizeof(f->m.disk_kind), "%s", kind);
	f->m.mglru = mglru;
	for (int i = 0; i < 8; i++) {
		struct sample s;
		mf_sample(&s, 1000000000ull + (uint64_t)i * 250000000ull, 1ull << 20, 1ull << 20);
		series_push(f->m.series, &s);
	}
	f->u.help = help;
	views_init(&f->v);
	grid_init(&f->g, 160, 45);
	views_draw(&f->v, &f->m, &f->u, &f->g);
	return grid_dump(&f->g);
}

static void undraw(struct screen_fixture *f, char *dump)
{
	free(dump);
	views_done(&f->v);
	grid_done(&f->g);
	mf_model_free(&f->m, f->log);
}

static void test_screen_says_so(void **state)
{
	(void)state;
	struct screen_fixture f;
	char *d = draw(&f, 1, "virtio", 0);
	assert_non_null(strstr(d, "disk vda (virtio)"));
	assert_non_null(strstr(d, "MGLRU"));
	assert_non_null(strstr(d, "active(file)=2 youngest gens"));
	undraw(&f, d);
	d = draw(&f, 1, "virtio", 1);
	assert_non_null(strstr(d, "two youngest generations"));
	assert_non_null(strstr(d, "Disk vda is virtual (virtio)"));
	undraw(&f, d);
	/* a physical disk on a classic LRU: none of it */
	d = draw(&f, 0, "", 1);
	assert_null(strstr(d, "MGLRU"));
	assert_null(strstr(d, "youngest"));
	assert_null(strstr(d, "(virtio)"));
	assert_null(strstr(d, "is virtual"));
	undraw(&f, d);
}

/* The notes batch prints: what MGLRU changes, with or without its
 * generations. */
static void test_mglru_note(void **state)
{
	(void)state;
	char a[200], b[200];
	assert_int_equal(machine_mglru_note(1, 0, a, sizeof(a)), 1);
	assert_non_null(strstr(a, "two youngest generations"));
	assert_int_equal(machine_mglru_note(1, 1, a, sizeof(a)), 1);
	assert_non_null(strstr(a, "agings"));
	assert_int_equal(machine_mglru_note(0, 1, b, sizeof(b)), 1);
	assert_non_null(strstr(b, "no debugfs lru_gen"));
	assert_string_not_equal(a, b);
	assert_int_equal(machine_mglru_note(1, 2, a, sizeof(a)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_mglru_switch),
	    cmocka_unit_test(test_disk_kinds),
	    cmocka_unit_test(test_screen_says_so),
	    cmocka_unit_test(test_mglru_note),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
