/*
 * spool — temporary files an export writes before it writes OUT: without a
 * name (O_TMPFILE, else made and unlinked at once) in OUT's directory, so
 * the bytes are on OUT's file system, not in memory or /tmp's tmpfs, and
 * nothing is left behind whatever ends the process (a SIGKILL included:
 * the kernel frees a file without a name).
 */
#ifndef LRUTOP_SPOOL_H
#define LRUTOP_SPOOL_H

#include <stddef.h>
#include <stdio.h>

/* path's directory ("." for a bare name) into out. */
void spool_dir_of(const char *path, char *out, size_t len);
/* A file without a name in dir, open to write and then read back ("w+");
 * NULL + errno when it cannot be made. */
FILE *spool_file(const char *dir);
/* A spool file for work on path: in path's directory, else in $TMPDIR,
 * /var/tmp or /tmp (the first that takes one); NULL when none does. */
FILE *spool_file_near(const char *path);
/* f (a spool file) from its start appended to out: 0, or -1 when either
 * failed (ferror; errno as left). */
int spool_copy(FILE *f, FILE *out);

#endif
