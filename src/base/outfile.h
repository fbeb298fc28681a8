/*
 * outfile — writing a file lrutop owns: the one home for how a file is
 * made, filled, put in place and taken away again (docs/design.md §8,
 * "Files it makes" and "Whole or none").  It sits on ownfile.h, whose
 * proof ("is PATH still the file I made?") is the only one used.
 *
 * Three ways to make the file at PATH:
 *  - OUTFILE_NEW: PATH itself, O_CREAT|O_EXCL|O_NOFOLLOW, 0644 (less the
 *    umask), written as it goes (--csv, --results, --record): an existing
 *    file or a symlink is refused, never opened.
 *  - OUTFILE_WHOLE: a temporary file ".NAME.XXXXXX" beside PATH (0644,
 *    whatever the umask), every write checked, then fflush, fsync and
 *    link(2) to PATH (the exports): a file made at PATH meanwhile is not
 *    replaced; a failure, a discard or a crash leaves no PATH, or the
 *    whole file, never a half.  PATH existing at the open is refused then.
 *  - OUTFILE_REPLACE: the same temporary file, put in place of the one
 *    the last close put at PATH (ownfile_replace: only while that is
 *    still there), the first linked as OUTFILE_WHOLE's is
 *    (--metrics-file).  Not fsynced: it is rewritten every second (the
 *    last, left at exit, is as durable as any file written without a
 *    sync), and an fsync a second would be disk writes in the middle of
 *    what lrutop measures.
 * outfile_put_at is the fourth, for a small file written whole at once
 * under a directory descriptor (the markers under /run/lrutop): the same
 * temporary file, written, fsynced, and linked or renamed over.
 *
 * Messages (docs/style.md rule 3) read "WHAT PATH: reason", WHAT the
 * option that named the file ("--csv"): "already exists (use a new
 * path)", "write error: REASON" (said once), strerror otherwise.
 *
 * Invariants: a file is removed, renamed or replaced only while ownfile
 * proves its path still names the file made (a stranger's file put there
 * is left as it is); NEW and WHOLE files are fsynced before the close
 * says they are done; the close lets the proof go (the file is the
 * user's) unless outfile_pass handed it on first.  Nothing prints; the
 * caller holds signals while a temporary file exists (util.h sig_hold).
 */
#ifndef LRUTOP_OUTFILE_H
#define LRUTOP_OUTFILE_H

#include <stdio.h>
#include <sys/types.h>

#include "base/ownfile.h"

enum outfile_how {
	OUTFILE_NEW,	 /* PATH itself, written as it goes */
	OUTFILE_WHOLE,	 /* a temporary file linked to PATH whole */
	OUTFILE_REPLACE, /* a temporary file in place of the last one put at PATH */
};

struct outfile {
	FILE *f;	  /* the stream written (outfile_open); NULL: none */
	int fd;		  /* the descriptor written: f's or outfile_open_fd's */
	int is_open;	  /* 1 while f or fd is open (a zeroed outfile has nothing) */
	const char *path; /* where the file goes: borrowed while open */
	const char *what; /* "--csv": the messages' first word */
	enum outfile_how how;
	int failed;	       /* a write failed: said once, nothing more is written */
	int err;	       /* its errno (EPIPE: the reader of a pipe went away) */
	struct ownfile own;    /* the file written: PATH (NEW) or the temporary file */
	struct ownfile placed; /* OUTFILE_REPLACE: the file at PATH, once one is */
};

/* Makes the file (how above) and opens a stream on it (of->f).  of owns
 * nothing before (OUTFILE_REPLACE: zeroed before its first open; the file
 * an earlier close put at PATH is kept).  0; -1 + err, nothing made;
 * OWNFILE_NOT_OURS + err "WHAT PATH: replaced or removed by someone else"
 * (OUTFILE_REPLACE: the file at PATH is no longer the one put there; it
 * is let go, never touched). */
int outfile_open(struct outfile *of, const char *path, const char *what, enum outfile_how how,
		 char *err, size_t errlen);
/* outfile_open without a stream: of->fd is written with write(2) (or a
 * dup of it handed to zlib). */
int outfile_open_fd(struct outfile *of, const char *path, const char *what, enum outfile_how how,
		    char *err, size_t errlen);
/* outfile_open_fd on standard output ("-": --record -): a descriptor of
 * its own (a dup: closing it leaves fd 1 to main), written and closed as
 * OUTFILE_NEW's; it names no file, so nothing is ever removed.  0 or -1 +
 * err. */
int outfile_open_stdout(struct outfile *of, const char *what, char *err, size_t errlen);
/* buf[0..len) whole, through the stream or the descriptor (EINTR and
 * short writes retried).  0, or -1 + err "WHAT PATH: write error: REASON"
 * (once: later calls return -1 quietly). */
int outfile_write(struct outfile *of, const void *buf, size_t len, char *err, size_t errlen);
/* fflush + ferror of the stream: 0, or -1 as outfile_write.  0 when
 * nothing is open. */
int outfile_flush(struct outfile *of, char *err, size_t errlen);
/* A write the caller made into of->f with its own functions failed (e:
 * errno, 0 for EIO): of->failed, -1 + the write error, said once. */
int outfile_write_error(struct outfile *of, int e, char *err, size_t errlen);
/* Flushes, fsyncs (not OUTFILE_REPLACE) and closes; then a temporary file
 * goes to PATH: linked (OUTFILE_WHOLE, and OUTFILE_REPLACE's first), or in
 * place of the one put there before (OUTFILE_REPLACE: of keeps the new
 * one).  0; -1 + err (a write error, "already exists (use a new path)",
 * "its temporary file TMP was replaced or removed by someone else") or
 * OWNFILE_NOT_OURS + err (as outfile_open): the temporary file is gone,
 * PATH was not made or changed.  NEW: the file stays as written either
 * way.  Idempotent (0 when nothing is open). */
int outfile_close(struct outfile *of, char *err, size_t errlen);
/* Closes without a word and removes what of still owns — the file it
 * made, the temporary file, OUTFILE_REPLACE's file at PATH — each only if
 * its path still names it (a usage error came after the file was made;
 * the session ends and a metrics file would go stale).  Idempotent. */
void outfile_discard(struct outfile *of);
/* keep (zeroed, or an outfile) takes over the proof of of's file
 * (OUTFILE_NEW; what keep owned is let go first): of still writes and closes its descriptor but no
 * longer removes anything; keep, closed, is for outfile_rename, outfile_discard or outfile_forget
 * later (a recording stopped, kept until the talk says whether it stays).  keep->path is its own
 * copy from then on. */
void outfile_pass(struct outfile *of, struct outfile *keep);
/* rename(2) of's file (closed, owned) to path, replacing what is there
 * (the caller has judged it), only while of's path is still its file; of
 * owns it at path from then on.  0, OWNFILE_NOT_OURS (nothing renamed),
 * or -1 + errno. */
int outfile_rename(struct outfile *of, const char *path);
/* Lets everything go: the descriptor closed (no flush is said), the files
 * stay.  Idempotent. */
void outfile_forget(struct outfile *of);

/* name (relative to dirfd, or AT_FDCWD) made whole with buf[0..len) and
 * mode (whatever the umask): a new temporary file ".NAME.XXXXXX" beside
 * it, written, fsynced, then — only while the temporary name is still the
 * file written — renamed over name (replace: the caller has judged what
 * is there, under its own lock) or linked to it (never over a file,
 * EEXIST).  A SIGKILL leaves the old file or the new one, at worst the
 * temporary file too.  0, or -1 + errno and the temporary file removed
 * (only if still ours). */
int outfile_put_at(int dirfd, const char *name, mode_t mode, const void *buf, size_t len,
		   int replace);

#endif
