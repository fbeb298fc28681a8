/*
 * strace driver: runs one strategy's copy() and nothing else between two
 * marker syscalls, so `strace -e trace=memory,file,desc` of this program
 * shows exactly the syscalls of the copy (tests/sh/strace.sh cuts the trace
 * at access("LRUTOP-STRACE-BEGIN") and access("LRUTOP-STRACE-END")).
 *
 *   driver [--prealloc] STRATEGY SRC DST     exit 0 copied, 1 failed, 2 usage
 *
 * Built by tests/sh/strace.sh from src/runs/strategy.c and src/base/util.c.
 */
#include "runs/strategy.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const struct strategy *st;
	struct copy_job job;
	char err[512];
	int i = 1, rc;

	memset(&job, 0, sizeof job);
	if (argc > 1 && strcmp(argv[1], "--prealloc") == 0) {
		job.prealloc = 1;
		i++;
	}
	if (argc - i != 3 || !(st = strategy_find(argv[i]))) {
		fprintf(stderr, "usage: driver [--prealloc] STRATEGY SRC DST\n");
		return 2;
	}
	job.src = argv[i + 1];
	job.dst = argv[i + 2];
	access("LRUTOP-STRACE-BEGIN", F_OK);
	rc = st->copy(&job, err, sizeof err);
	access("LRUTOP-STRACE-END", F_OK);
	if (rc < 0) {
		fprintf(stderr, "driver: %s: %s\n", st->name, err);
		return 1;
	}
	return 0;
}
