/*
 * bench/residency — what one residency read of a big file costs, by each
 * reader (see bench/README.md, "Page-cache residency"):
 *
 *   cachestat      one cachestat(2) call over the whole file;
 *   mincore        the fallback over the whole file: read-only shared maps
 *                  of 64 MiB, mincore over each, the resident pages counted;
 *   mincore/tick   what the live source's tick pays with the fallback
 *                  (residency_read, LRUTOP_RESIDENCY=mincore): after the
 *                  whole walk when the file is opened, RESIDENCY_BUDGET
 *                  (256 MiB) of it a tick;
 *   tick + map     the tick with the map of where the cache is
 *                  (residency_read_map) in RANGES ranges (-r, default 64):
 *                  one cachestat(2) per range in place of the whole-file
 *                  call; under mincore the per-tick walk and the map
 *                  counted from its vector.
 *
 * The file: SIZE (-s, default 4096 MiB) made sparse in DIR (-d, default
 * /var/tmp), its first CACHED MiB (-c, default 512) written and fsynced,
 * so the cache holds that much of it (a run's source is in between "all"
 * and "nothing" most of the time); that part is also mapped and touched
 * by the bench, because drop_caches (every lrutop run's prepare phase,
 * other test suites on the machine) leaves mapped pages alone.  N rounds (-n, default 100), the two
 * readers interleaved, after 5 warm-up rounds; median and p99 in µs of
 * wall time, or with -C of the thread's CPU time (what the tick costs the
 * machine, less the noise of other programs on a shared one).  The
 * file is removed on every exit.  A bench reports: exit 0 whatever it
 * measured.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#include "sampling/residency.h"

static char path[4096];

static void cleanup(void)
{
	if (path[0])
		unlink(path);
}

static void on_signal(int sig)
{
	(void)sig;
	cleanup();
	_exit(130);
}

static clockid_t clock_id = CLOCK_MONOTONIC; /* -C: the thread's CPU time */

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(clock_id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* lo..hi: the cached pages the reader saw over the rounds (another
 * program's drop_caches shows as a low lo). */
static void row(const char *name, uint64_t *t, int n, uint64_t lo, uint64_t hi, uint64_t pages)
{
	qsort(t, (size_t)n, sizeof(t[0]), cmp_u64);
	double med = (double)t[n / 2] / 1e3,
	       p99 = (double)t[(n * 99) / 100 < n ? (n * 99) / 100 : n - 1] / 1e3;
	printf("%-34s %9.1f %9.1f  %llu..%llu of %llu pages cached\n", name, med, p99,
	       (unsigned long long)lo, (unsigned long long)hi, (unsigned long long)pages);
}

int main(int argc, char **argv)
{
	const char *dir = "/var/tmp";
	long size_mb = 4096, cached_mb = 512;
	int n = 100, ranges = 64, opt;
	while ((opt = getopt(argc, argv, "d:s:c:n:r:C")) != -1) {
		switch (opt) {
		case 'd':
			dir = optarg;
			break;
		case 's':
			size_mb = atol(optarg);
			break;
		case 'c':
			cached_mb = atol(optarg);
			break;
		case 'n':
			n = atoi(optarg);
			break;
		case 'r':
			ranges = atoi(optarg);
			break;
		case 'C':
			clock_id = CLOCK_THREAD_CPUTIME_ID;
			break;
		default:
			fprintf(stderr,
				"usage: residency [-d DIR] [-s MiB] [-c MiB] [-n ROUNDS] [-r RANGES] [-C]\n");
			return 2;
		}
	}
	if (n < 1 || size_mb < 1 || cached_mb < 0 || cached_mb > size_mb || ranges < 1 ||
	    ranges > RESIDENCY_MAP_MAX) {
		fprintf(stderr, "residency: bad -n, -s, -c or -r\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/lrutop-bench-residency.%ld", dir, (long)getpid());
	atexit(cleanup);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		path[0] = 0;
		fprintf(stderr, "residency: %s/lrutop-bench-residency.*: %s\n", dir,
			strerror(errno));
		return 2;
	}
	if (ftruncate(fd, (off_t)size_mb << 20) < 0) {
		fprintf(stderr, "residency: ftruncate: %s\n", strerror(errno));
		return 2;
	}
	char *buf = malloc(1 << 20);
	memset(buf, 0x5a, 1 << 20);
	for (long i = 0; i < cached_mb; i++)
		if (pwrite(fd, buf, 1 << 20, (off_t)i << 20) != 1 << 20) {
			fprintf(stderr, "residency: write: %s\n", strerror(errno));
			return 2;
		}
	free(buf);
	fsync(fd);
	size_t keep = (size_t)cached_mb << 20;
	volatile unsigned char *hold = NULL;
	if (keep) {
		hold = mmap(NULL, keep, PROT_READ, MAP_SHARED, fd, 0);
		if (hold == MAP_FAILED) {
			fprintf(stderr, "residency: mmap: %s\n", strerror(errno));
			return 2;
		}
		unsigned sum = 0;
		for (size_t off = 0; off < keep; off += 4096)
			sum += hold[off];
		(void)sum;
	}

	struct residency *r = residency_new();
	struct residency_counts c[2];
	int have_cs = residency_fd(r, fd, 1, &c[0]) == 0;
	if (!have_cs)
		printf("%-34s %9s  (%s)\n", "cachestat", "skipped", strerror(errno));
	setenv("LRUTOP_RESIDENCY", "mincore", 1);
	struct residency *tick = residency_new();
	unsetenv("LRUTOP_RESIDENCY");
	struct sample smp;
	memset(&smp, 0, sizeof(smp));
	residency_read(tick, path, NULL, &smp); /* the open: walked whole */
	struct residency *live = residency_new(); /* cachestat where it can */
	struct sample lsmp;
	memset(&lsmp, 0, sizeof(lsmp));
	residency_read(live, path, NULL, &lsmp);
	static struct residency_map map;
	uint64_t *t[6];
	for (int k = 0; k < 6; k++)
		t[k] = calloc((size_t)n, sizeof(uint64_t));
	uint64_t lo[6] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX},
		 hi[6] = {0};
	for (int i = -5; i < n; i++)
		for (int k = 0; k < 2; k++) {
			int m = (i + k) % 2 ? 1 - k : k; /* alternate which goes first */
			if (m == 0 && !have_cs)
				continue;
			uint64_t t0 = now_ns();
			residency_fd(r, fd, m == 0, &c[m]);
			uint64_t dt = now_ns() - t0;
			if (i < 0)
				continue;
			t[m][i] = dt;
			lo[m] = c[m].cached < lo[m] ? c[m].cached : lo[m];
			hi[m] = c[m].cached > hi[m] ? c[m].cached : hi[m];
		}
	for (int i = -5; i < n; i++) {
		uint64_t t0 = now_ns();
		residency_read(tick, path, NULL, &smp);
		uint64_t dt = now_ns() - t0;
		if (i < 0)
			continue;
		t[2][i] = dt;
		lo[2] = smp.res_src.cached < lo[2] ? smp.res_src.cached : lo[2];
		hi[2] = smp.res_src.cached > hi[2] ? smp.res_src.cached : hi[2];
	}
	/* the tick with the map: 3 cachestat (when the kernel has it), 4 mincore
	 * (its walk included, as row 2 is); 5 the cachestat tick without it */
	for (int i = -5; i < n; i++)
		for (int k = 3; k < 6; k++) {
			if (k != 4 && !have_cs)
				continue;
			struct sample *ks = k == 4 ? &smp : &lsmp;
			uint64_t t0 = now_ns();
			residency_read_map(k == 4 ? tick : live, path, NULL, ks, k == 5 ? 0 : ranges,
					   k == 5 ? NULL : &map);
			uint64_t dt = now_ns() - t0;
			if (i < 0)
				continue;
			t[k][i] = dt;
			lo[k] = ks->res_src.cached < lo[k] ? ks->res_src.cached : lo[k];
			hi[k] = ks->res_src.cached > hi[k] ? ks->res_src.cached : hi[k];
		}
	printf("file %ld MiB (%ld MiB cached) in %s, %d rounds, %s\n", size_mb, cached_mb, dir, n,
	       clock_id == CLOCK_MONOTONIC ? "wall time" : "CPU time (-C)");
	printf("%-34s %9s %9s\n", "reader", "median us", "p99 us");
	if (have_cs)
		row("cachestat (one call)", t[0], n, lo[0], hi[0], c[0].pages);
	row("mincore, whole file (64 MiB maps)", t[1], n, lo[1], hi[1], c[1].pages);
	row("mincore per tick (256 MiB of it)", t[2], n, lo[2], hi[2], smp.res_src.pages);
	char name[64];
	if (have_cs) {
		row("tick, cachestat (no map)", t[5], n, lo[5], hi[5], lsmp.res_src.pages);
		snprintf(name, sizeof(name), "tick + map, cachestat x %d", ranges);
		row(name, t[3], n, lo[3], hi[3], map.src.pages);
	}
	snprintf(name, sizeof(name), "tick + map, mincore, %d ranges", ranges);
	row(name, t[4], n, lo[4], hi[4], map.src.pages);
	residency_free(r);
	residency_free(tick);
	residency_free(live);
	for (int k = 0; k < 6; k++)
		free(t[k]);
	close(fd);
	return 0;
}
