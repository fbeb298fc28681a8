/*
 * mountinfo — the one reader of /proc/self/mountinfo (proc(5)): device.c
 * finds the mount that holds a path there, runs/cgroup the cgroup
 * hierarchies and the cgroup2 top.
 *
 * A line is "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE
 * SOURCE SUPEROPTS", one blank between fields, as the kernel writes it
 * (show_mountinfo): a blank, tab, newline or backslash inside a field is
 * written as an octal escape ("\040"), so a field never holds a blank.
 * SOURCE may be empty (a mount of the source ""), SUPEROPTS absent (old
 * kernels, hand-made lines); every other field must be there.
 *
 * Invariants: a parsed entry's strings point into the line, which is
 * split in place; every one but optional has its escapes decoded —
 * "\OOO" with a value from 1 to 255 becomes that byte, anything else
 * (\000, \8, a lone backslash) stays as written, so a decoded field never
 * holds a NUL and never ends early.  A field written with
 * mountinfo_escape and parsed again is the same bytes.  Nothing here
 * prints; the iterator allocates once, at init.
 */
#ifndef LRUTOP_MOUNTINFO_H
#define LRUTOP_MOUNTINFO_H

#include <stddef.h>

struct mountinfo_entry {
	unsigned id, parent;   /* mount ids */
	unsigned major, minor; /* st_dev of the mount's files */
	char *root;	       /* the directory of the filesystem mounted ("/", a subvolume,
				* a cgroup namespace's root) */
	char *mountpoint;      /* where, in our mount namespace */
	char *opts;	       /* per-mount options ("rw,relatime") */
	char *optional;	       /* "shared:7 master:3" as written (not decoded), "" none */
	char *fstype;	       /* "ext4", "cgroup2", "fuse.sshfs" */
	char *source;	       /* "/dev/vda2", "overlay", "" */
	char *super;	       /* super options ("rw,memory", "lowerdir=..."), "" absent */
};

/* Splits one line (a trailing newline is dropped) in place into e and
 * decodes its escapes.  0, or -1 when the line is not a mountinfo line: a
 * field missing or empty, a number that is not decimal or does not fit,
 * no "-" separator. */
int mountinfo_parse(char *line, struct mountinfo_entry *e);

/* Decodes mountinfo's octal escapes in s, in place (see above); returns
 * the decoded length, which is strlen(s) afterwards. */
size_t mountinfo_unescape(char *s);

/* s as the kernel writes it in a field: blank, tab, newline and backslash
 * as "\OOO".  -1 when it does not fit len (out is then ""). */
int mountinfo_escape(const char *s, char *out, size_t len);

/* The length of mount point mp when it holds path (both canonical): mp is
 * path or a parent of it at a '/'; "/" holds every path and counts 1; 0
 * when it does not hold path. */
size_t mountinfo_covers(const char *mp, const char *path);

/* The value of key ("upperdir=") in a comma-separated option list, up to
 * the next ',' or ':' (overlay's lowerdir lists its layers with ':': the
 * first).  0, or -1 when the key is absent, its value empty or longer
 * than outlen - 1. */
int mountinfo_option(const char *opts, const char *key, char *out, size_t outlen);

/* Each entry of a whole mountinfo text, in order. */
struct mountinfo {
	char *text;    /* the iterator's copy, split line by line */
	char *next;    /* the first byte not yet read, NULL at the end */
	unsigned line; /* the line number of the entry last returned (from 1) */
};

/* Over a copy of text (in the format of /proc/self/mountinfo). */
void mountinfo_init_text(struct mountinfo *mi, const char *text);
/* Over the file at path (read whole now: /proc/self/mountinfo).  -1 with
 * errno when it cannot be read (mi is then empty, and done may be called). */
int mountinfo_init_file(struct mountinfo *mi, const char *path);
/* The next line that parses into *e (mountinfo_parse); a line that does
 * not is skipped.  1, or 0 at the end.  e's strings stay valid until
 * mountinfo_done. */
int mountinfo_next(struct mountinfo *mi, struct mountinfo_entry *e);
/* Frees the copy.  Idempotent. */
void mountinfo_done(struct mountinfo *mi);

#endif
