#include "runs/cgroup_int.h"
#include "base/outfile.h"
#include "base/ownfile.h"
#include "sampling/sampler.h"
#include "runs/scratch.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define MARK_MAGIC   "lrutop-subtree 1"
#define MARK_PREFIX  "subtree-"
#define MOUNT_PREFIX "mount-"
#define LOCK_WAIT_MS 3000
#define MARKS_MAX    32

const struct cgroup_ctl cgroup_ctls[CGROUP_NCTLS] = {{CGROUP_CTL_MEMORY, "memory", 1},
						     {CGROUP_CTL_IO, "io", 1},
						     {CGROUP_MOUNT_DEBUGFS, "debugfs", 0}};

/* One line for main to say as a warning (cgroup_home_take_warnings). */
static void home_warn(struct cgroup_home *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void home_warn(struct cgroup_home *h, const char *fmt, ...)
{
	char line[sizeof h->warning];
	va_list ap;
	size_t l = strlen(h->warning);

	va_start(ap, fmt);
	verrf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (l + strlen(line) + 2 > sizeof h->warning) {
		h->warnings_lost++;
		return;
	}
	snprintf(h->warning + l, sizeof h->warning - l, "%s%s", l ? "\n" : "", line);
}

size_t cgroup_home_take_warnings(struct cgroup_home *h, char *out, size_t len)
{
	size_t l = strlcpy_(out, h->warning, len);

	if (l >= len)
		l = len - 1;
	if (h->warnings_lost && l + 1 < len)
		l += (size_t)snprintf(out + l, len - l, "%s%u more warnings about %s not said",
				      l ? "\n" : "", h->warnings_lost, h->run_dir);
	h->warning[0] = '\0';
	h->warnings_lost = 0;
	return strlen(out);
}

static void ctl_words(unsigned set, char *out, size_t len)
{
	size_t l = 0;

	out[0] = '\0';
	for (size_t i = 0; i < ARRAY_LEN(cgroup_ctls); i++)
		if (set & cgroup_ctls[i].bit)
			l += (size_t)snprintf(out + l, len > l ? len - l : 0, "%s%s", l ? " " : "",
					      cgroup_ctls[i].name);
	if (!out[0])
		strlcpy_(out, "-", len);
}

static unsigned ctl_parse(const char *words)
{
	unsigned set = 0;

	for (size_t i = 0; i < ARRAY_LEN(cgroup_ctls); i++)
		if (cgroup_has_item(words, cgroup_ctls[i].name, " "))
			set |= cgroup_ctls[i].bit;
	return set;
}

/* One marker: who changed which top's cgroup.subtree_control (or mounted
 * which debugfs). */
struct mark {
	long pid;
	unsigned long long start;
	char boot[64];
	char dir[4096];
	unsigned enabled, uses;
};

/* A marker of this process (its pid, start time and boot) for dir, nothing
 * enabled or used yet. */
static void mark_ours(struct mark *m, const char *dir)
{
	memset(m, 0, sizeof *m);
	m->pid = (long)getpid();
	scratch_pid_start(m->pid, &m->start);
	scratch_boot_id(m->boot, sizeof m->boot);
	strlcpy_(m->dir, dir, sizeof m->dir);
}

/* The run directory, judged, and its lock held: every look at or change of
 * the markers and of a top's cgroup.subtree_control happens between
 * lock_marks and unlock_marks, through dir. */
struct marks_lock {
	int fd;	 /* run_dir/lock, flock()ed */
	int dir; /* run_dir */
};

/* name in dir (under the lock) replaced whole by m (outfile_put_at): a
 * temporary .NAME.XXXXXX (0600, O_EXCL) written, fsynced, then renamed
 * over name, so a SIGKILL leaves the old marker or the new one (and at
 * worst the temporary file, which nothing reads). */
static int mark_write(int dir, const char *name, const struct mark *m)
{
	char buf[4096 + 512], en[32], us[32];

	ctl_words(m->enabled, en, sizeof en);
	ctl_words(m->uses, us, sizeof us);
	int n = snprintf(buf, sizeof buf,
			 "%s\npid %ld\nstart %llu\nboot %s\ndir %s\nenabled %s\nuses %s\n", MARK_MAGIC,
			 m->pid, m->start, m->boot, m->dir, en, us);
	if (n < 0 || (size_t)n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	/* 0600 whatever the umask: mark_open takes no other mode of ours */
	return outfile_put_at(dir, name, 0600, buf, (size_t)n, 1);
}

/* A marker's text into m; -1 when it is not one. */
static int mark_parse(const char *buf, struct mark *m)
{
	char en[64], us[64];
	const char *p;

	memset(m, 0, sizeof *m);
	if (strncmp(buf, MARK_MAGIC "\n", strlen(MARK_MAGIC) + 1) != 0 ||
	    sscanf(buf + strlen(MARK_MAGIC) + 1, "pid %ld start %llu boot %63s", &m->pid, &m->start,
		   m->boot) != 3 ||
	    !(p = strstr(buf, "\ndir ")))
		return -1;
	p += 5;
	size_t n = strcspn(p, "\n");
	if (n >= sizeof m->dir)
		return -1;
	memcpy(m->dir, p, n);
	m->dir[n] = '\0';
	if (!(p = strstr(buf, "\nenabled ")) || sscanf(p + 9, "%63[^\n]", en) != 1 ||
	    !(p = strstr(buf, "\nuses ")) || sscanf(p + 6, "%63[^\n]", us) != 1)
		return -1;
	m->enabled = ctl_parse(en);
	m->uses = ctl_parse(us);
	return 0;
}

enum { MARK_NONE, MARK_TOP, MARK_MOUNT };

/* The kind of a marker's name: "subtree-PID" a top's, "mount-PID" a
 * debugfs's, exactly (*pid: PID); MARK_NONE for any other name (the lock,
 * a .NAME.XXXXXX being written, a NAME.bad set aside). */
static int mark_kind(const char *name, long *pid)
{
	const char *p;
	int kind;
	char *end;

	if (strncmp(name, MARK_PREFIX, strlen(MARK_PREFIX)) == 0) {
		p = name + strlen(MARK_PREFIX);
		kind = MARK_TOP;
	} else if (strncmp(name, MOUNT_PREFIX, strlen(MOUNT_PREFIX)) == 0) {
		p = name + strlen(MOUNT_PREFIX);
		kind = MARK_MOUNT;
	} else {
		return MARK_NONE;
	}
	if (*p < '1' || *p > '9' || strlen(name) >= 64)
		return MARK_NONE;
	errno = 0;
	*pid = strtol(p, &end, 10);
	return *end || errno ? MARK_NONE : kind;
}

/* The cgroup2 top a marker may speak of: where cgroup_home_enable_top enables
 * controllers (the base's top once set up, else the first cgroup2 mount in
 * /proc/self/mountinfo, below root); "" when no cgroup2 is mounted. */
static void marks_top(const struct cgroup_home *h, char *out, size_t len)
{
	char mnt[4096], mroot[4096], *mi;

	out[0] = '\0';
	if (h->tried && h->base.v2 && h->base.v2_top[0]) {
		strlcpy_(out, h->base.v2_top, len);
		return;
	}
	mi = cgroup_slurp("/proc/self/mountinfo");
	if (mi &&
	    cgroup_find_mount(mi, "cgroup2", NULL, mnt, sizeof mnt, mroot, sizeof mroot) == 0 &&
	    (size_t)snprintf(out, len, "%s%s", h->root, mnt) >= len)
		out[0] = '\0';
	free(mi);
}

/* 1 when path is on a filesystem of that statfs magic. */
static int fs_is(const char *path, long magic)
{
	struct statfs sf;

	return statfs(path, &sf) == 0 && (long)sf.f_type == magic;
}

/* Opens and judges the marker name in dir (its kind and pid from the
 * name): a regular file of root's, mode 0600 (or 0644, what lrutop wrote
 * before), holding a marker of its own pid whose dir is absolute and
 * canonical and is what a marker of that kind speaks of — top, on cgroup2,
 * for a top's; root + SAMPLER_DEBUGFS for a mount's (whether debugfs is
 * still mounted there is asked when it would be unmounted).  The
 * descriptor (what is removed later must be this file: ownfile_fd_is_at)
 * and *m, or -1 and why it is not a marker lrutop made. */
static int mark_open(const struct cgroup_home *h, int dir, const char *name, int kind, long pid,
		     const char *top, struct mark *m, char *why, size_t whylen)
{
	char buf[4096 + 512], want[sizeof h->root + 64];
	struct stat st;
	ssize_t n;
	int fd;

	memset(m, 0, sizeof *m);
	if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errf(why, whylen, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode))
		return errf(why, whylen, "not a regular file");
	/* O_NONBLOCK: should it be a FIFO by now, it does not hold us */
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errf(why, whylen, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		errf(why, whylen, "not a regular file");
		goto bad;
	}
	if (st.st_uid != 0) {
		errf(why, whylen, "owned by uid %u, not root", (unsigned)st.st_uid);
		goto bad;
	}
	if ((st.st_mode & 07777) != 0600 && (st.st_mode & 07777) != 0644) {
		errf(why, whylen, "mode %04o, not 0600", (unsigned)(st.st_mode & 07777));
		goto bad;
	}
	n = st.st_size < (off_t)sizeof buf ? read(fd, buf, sizeof buf - 1) : -1;
	if (n <= 0 || (buf[n] = '\0', mark_parse(buf, m) < 0)) {
		errf(why, whylen,
		     "not a marker of lrutop's (\"%s\", pid, start, boot, dir, enabled, uses)",
		     MARK_MAGIC);
		goto bad;
	}
	if (m->pid != pid) {
		errf(why, whylen, "it says pid %ld, its name %ld", m->pid, pid);
		goto bad;
	}
	if (m->dir[0] != '/') {
		errf(why, whylen, "its dir %s is not an absolute path", m->dir);
		goto bad;
	}
	char *real = realpath(m->dir, NULL);
	int canonical = real && strcmp(real, m->dir) == 0;
	if (!canonical) {
		errf(why, whylen, "its dir %s is not a canonical path (%s)", m->dir,
		     real ? real : strerror(errno));
		free(real);
		goto bad;
	}
	free(real);
	if (kind == MARK_TOP) {
		if ((m->enabled | m->uses) & ~(CGROUP_CTL_MEMORY | CGROUP_CTL_IO)) {
			errf(why, whylen, "a top's marker that names debugfs");
			goto bad;
		}
		if (!top[0] || strcmp(m->dir, top) != 0) {
			errf(why, whylen, "its dir %s is not the top of the cgroup2 hierarchy (%s)",
			     m->dir, top[0] ? top : "none is mounted");
			goto bad;
		}
		if (!fs_is(m->dir, h->top_magic)) {
			errf(why, whylen, "its dir %s is not a cgroup2 filesystem", m->dir);
			goto bad;
		}
	} else {
		if ((m->enabled | m->uses) & ~CGROUP_MOUNT_DEBUGFS) {
			errf(why, whylen, "a debugfs marker that names a controller");
			goto bad;
		}
		snprintf(want, sizeof want, "%s%s", h->root, SAMPLER_DEBUGFS);
		if (strcmp(m->dir, want) != 0) {
			errf(why, whylen, "its dir %s is not %s", m->dir, want);
			goto bad;
		}
	}
	return fd;
bad:
	close(fd);
	return -1;
}

/* A marker lrutop cannot vouch for: renamed aside to NAME.bad (NAME.bad2
 * ... when taken), never removed, and said once. */
static void mark_set_aside(struct cgroup_home *h, int dir, const char *name, const char *why)
{
	char aside[96];
	int e = 0;

	for (int k = 1; k <= 9; k++) {
		snprintf(aside, sizeof aside, k == 1 ? "%s.bad" : "%s.bad%d", name, k);
		int rc = renameat2(dir, name, dir, aside, RENAME_NOREPLACE);
		if (rc < 0 && errno == EINVAL) { /* no NOREPLACE here: look first */
			struct stat st;
			rc = fstatat(dir, aside, &st, AT_SYMLINK_NOFOLLOW) == 0
				 ? (errno = EEXIST, -1)
				 : renameat(dir, name, dir, aside);
		}
		if (rc == 0) {
			home_warn(h, "%s/%s: %s; moved aside to %s, nothing done by it", h->run_dir,
				  name, why, aside);
			return;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	home_warn(h, "%s/%s: %s; not used (cannot move it aside: %s)", h->run_dir, name, why,
		  strerror(e));
}

/* Our own marker name, when a file is there: read back (1, *m) if it is a
 * marker lrutop can vouch for, else set aside (0): it is then written anew,
 * never over what was not lrutop's. */
static int mark_read_own(struct cgroup_home *h, const struct marks_lock *mk, const char *name,
			 int kind, const char *top, struct mark *m)
{
	char why[600];
	struct stat st;
	long pid;

	if (fstatat(mk->dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || mark_kind(name, &pid) != kind)
		return 0;
	int fd = mark_open(h, mk->dir, name, kind, pid, top, m, why, sizeof why);
	if (fd < 0) {
		mark_set_aside(h, mk->dir, name, why);
		return 0;
	}
	close(fd);
	return 1;
}

static int mark_alive(const struct mark *m)
{
	char boot[64];

	scratch_boot_id(boot, sizeof boot);
	return strcmp(boot, m->boot) == 0 && scratch_pid_alive(m->pid, m->start);
}

/* Lets go of the lock and the directory (either may not be open). */
static void unlock_marks(struct marks_lock *mk)
{
	if (mk->fd >= 0)
		close(mk->fd); /* the flock goes with it */
	if (mk->dir >= 0)
		close(mk->dir);
	mk->fd = mk->dir = -1;
}

/* The run directory judged and its lock taken, bounded (LOCK_WAIT_MS: two
 * lrutops starting together must not both think the other one enabled
 * memory).  run_dir is made 0700 when it is not there; one that is there
 * must be root's directory that nobody else may write (0700 as made, or
 * 0755 as lrutop made it before), not a symbolic link, and its lock a
 * regular file of root's (0600, or 0644 as before): else nothing in it is
 * used — lrutop repairs nothing it did not make.  0; -1 + err (the lock
 * is held elsewhere, or failed); -2 + err: run_dir or its lock is not
 * lrutop's to use. */
static int lock_marks(const struct cgroup_home *h, struct marks_lock *mk, char *err, size_t errlen)
{
	uint64_t deadline = mono_ns() + (uint64_t)LOCK_WAIT_MS * 1000000u;
	struct stat st;

	mk->fd = mk->dir = -1;
	int made = mkdir(h->run_dir, 0700) == 0;
	if (!made && errno != EEXIST)
		return errf(err, errlen, "cannot make %s: %s", h->run_dir, strerror(errno));
	mk->dir = open(h->run_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (made && mk->dir >= 0)
		fchmod(mk->dir, 0700); /* whatever the umask took away */
	if (mk->dir < 0) {
		int e = errno;
		errf(err, errlen, "%s: %s", h->run_dir,
		     e == ELOOP || e == ENOTDIR ? "not a directory (a symbolic link?): not used"
						: strerror(e));
		return e == ELOOP || e == ENOTDIR ? -2 : -1;
	}
	if (fstat(mk->dir, &st) < 0 || st.st_uid != 0 || (st.st_mode & 022)) {
		errf(err, errlen,
		     "%s is not root's own directory (uid %u, mode %04o; lrutop makes it 0700): "
		     "its markers are not used",
		     h->run_dir, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(mk->dir);
		mk->dir = -1;
		return -2;
	}
	/* the lock's inode must be the same for every lrutop: made once, 0600,
	 * and never removed */
	mk->fd = openat(mk->dir, "lock",
			O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
			0600);
	if (mk->fd >= 0)
		fchmod(mk->fd, 0600);
	else if (errno == EEXIST)
		mk->fd = openat(mk->dir, "lock",
				O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (mk->fd < 0 || fstat(mk->fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
	    (st.st_mode & 022)) {
		int refused = mk->fd >= 0 || errno == ELOOP;
		if (refused)
			errf(err, errlen,
			     "%s/lock is not root's own regular file (lrutop makes it 0600): the "
			     "markers are not used",
			     h->run_dir);
		else
			errf(err, errlen, "%s/lock: %s", h->run_dir, strerror(errno));
		unlock_marks(mk);
		return refused ? -2 : -1;
	}
	while (flock(mk->fd, LOCK_EX | LOCK_NB) < 0) {
		if ((errno != EWOULDBLOCK && errno != EINTR) || mono_ns() >= deadline) {
			errf(err, errlen, "cannot lock %s/lock: %s", h->run_dir,
			     errno == EWOULDBLOCK ? "another lrutop holds it" : strerror(errno));
			unlock_marks(mk);
			return -1;
		}
		poll(NULL, 0, 5);
	}
	return 0;
}

/* "-memory" / "-io" into a marker's top: the directory opened without
 * following a link and its control file both on cgroup2 (top_magic). */
static int top_write(const struct cgroup_home *h, const char *top, const char *what)
{
	struct statfs sf;
	int d = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), fd = -1, rc = -1;

	if (d >= 0 && fstatfs(d, &sf) == 0 && (long)sf.f_type == h->top_magic)
		fd = openat(d, "cgroup.subtree_control",
			    O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0 && fstatfs(fd, &sf) == 0 && (long)sf.f_type == h->top_magic)
		rc = write_all(fd, what, strlen(what));
	if (fd >= 0)
		close(fd);
	if (d >= 0)
		close(d);
	return rc;
}

/* Under the lock: every marker whose owner is gone (or is us, when
 * leaving) gives back what it enabled — "-memory" / "-io" into its top's
 * cgroup.subtree_control, or its debugfs unmounted — unless a live owner's
 * marker uses the same in the same place: that marker then takes the duty
 * over.  A marker lrutop cannot vouch for (mark_open) is set aside and
 * nothing is done by it; one of another boot goes.  Returns how many
 * controllers were turned off. */
static int marks_restore(struct cgroup_home *h, const struct marks_lock *mk, int leaving)
{
	struct mark ms[MARKS_MAX];
	char names[MARKS_MAX][64], boot[64], top[4096], why[600];
	int fds[MARKS_MAX], alive[MARKS_MAX], n = 0, restored = 0;
	int dfd = fcntl(mk->dir, F_DUPFD_CLOEXEC, 3);
	DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
	struct dirent *e;

	if (!d) {
		if (dfd >= 0)
			close(dfd);
		return 0;
	}
	scratch_boot_id(boot, sizeof boot);
	marks_top(h, top, sizeof top);
	while ((e = readdir(d)) != NULL && n < MARKS_MAX) {
		long pid;
		int kind = mark_kind(e->d_name, &pid);
		if (kind == MARK_NONE)
			continue;
		int fd = mark_open(h, mk->dir, e->d_name, kind, pid, top, &ms[n], why, sizeof why);
		if (fd < 0) {
			mark_set_aside(h, mk->dir, e->d_name, why);
			continue;
		}
		if (strcmp(ms[n].boot, boot) != 0) {
			/* another boot's: rebuilt since, nothing of it to give back */
			if (ownfile_fd_is_at(fd, mk->dir, e->d_name))
				unlinkat(mk->dir, e->d_name, 0);
			close(fd);
			continue;
		}
		strlcpy_(names[n], e->d_name, sizeof names[n]);
		fds[n] = fd;
		alive[n] = !(leaving && ms[n].pid == (long)getpid()) && mark_alive(&ms[n]);
		n++;
	}
	closedir(d);
	for (int i = 0; i < n; i++) {
		if (alive[i])
			continue;
		for (size_t c = 0; c < ARRAY_LEN(cgroup_ctls); c++) {
			if (!(ms[i].enabled & cgroup_ctls[c].bit))
				continue;
			int heir = -1;
			for (int j = 0; j < n && heir < 0; j++)
				if (alive[j] && strcmp(ms[j].dir, ms[i].dir) == 0 &&
				    ((ms[j].uses | ms[j].enabled) & cgroup_ctls[c].bit))
					heir = j;
			if (heir >= 0) {
				ms[heir].enabled |= cgroup_ctls[c].bit;
				mark_write(mk->dir, names[heir], &ms[heir]);
				continue;
			}
			if (!cgroup_ctls[c].controller) {
				/* still debugfs there (else nothing is mounted to give
				 * back); busy (someone reads it): left mounted */
				if (fs_is(ms[i].dir, h->debugfs_magic))
					umount2(ms[i].dir, UMOUNT_NOFOLLOW);
				continue;
			}
			char what[16];
			snprintf(what, sizeof what, "-%s", cgroup_ctls[c].name);
			/* EBUSY: someone made it theirs (a child enables it
			 * further down); it is not ours to take away then */
			if (top_write(h, ms[i].dir, what) == 0)
				restored++;
		}
		if (ownfile_fd_is_at(fds[i], mk->dir, names[i]))
			unlinkat(mk->dir, names[i], 0);
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);
	return restored;
}

int cgroup_home_enable_top(struct cgroup_home *h, unsigned want, char *err, size_t errlen)
{
	const char *top = h->base.v2_top;
	struct marks_lock mk;
	struct mark m, old;
	unsigned need = 0;
	char e[600];

	if (geteuid() != 0)
		return errf(err, errlen, "not root");
	if (lock_marks(h, &mk, e, sizeof e) < 0)
		return errf(err, errlen,
			    "%s/cgroup.subtree_control is changed only with a marker: %s", top, e);
	marks_restore(h, &mk, 0);
	for (size_t c = 0; c < ARRAY_LEN(cgroup_ctls); c++)
		if ((want & cgroup_ctls[c].bit) &&
		    !cgroup_ctl_lists(top, "cgroup.subtree_control", cgroup_ctls[c].name))
			need |= cgroup_ctls[c].bit;
	mark_ours(&m, top);
	if (!h->marker[0])
		snprintf(h->marker, sizeof h->marker, "%s/" MARK_PREFIX "%ld", h->run_dir, m.pid);
	const char *name = strrchr(h->marker, '/') + 1;
	/* a reap may have handed a gone owner's duty to our marker: kept */
	if (mark_read_own(h, &mk, name, MARK_TOP, top, &old) && old.pid == m.pid &&
	    strcmp(old.dir, top) == 0) {
		h->enabled |= old.enabled;
		h->uses |= old.uses;
	}
	m.enabled = h->enabled | need;
	m.uses = h->uses | want;
	if (mark_write(mk.dir, name, &m) < 0) {
		int en = errno;
		unlock_marks(&mk);
		return errf(
		    err, errlen,
		    "cannot write the marker %s (it restores %s/cgroup.subtree_control): %s",
		    h->marker, top, strerror(en));
	}
	h->uses = m.uses;
	for (size_t c = 0; c < ARRAY_LEN(cgroup_ctls); c++) {
		char what[16];
		if (!(need & cgroup_ctls[c].bit))
			continue;
		snprintf(what, sizeof what, "+%s", cgroup_ctls[c].name);
		if (cgroup_enable_v2(top, what, err, errlen) < 0) {
			m.enabled &= ~cgroup_ctls[c].bit;
			mark_write(mk.dir, name, &m);
			unlock_marks(&mk);
			return -1;
		}
		h->enabled |= cgroup_ctls[c].bit;
	}
	unlock_marks(&mk);
	return 0;
}

int cgroup_marks_reap(struct cgroup_home *h)
{
	int r = 0;

	/* markers of gone owners (only root writes them; no run_dir, none
	 * was ever written) */
	struct stat st;
	if (geteuid() == 0 && lstat(h->run_dir, &st) == 0) {
		struct marks_lock mk;
		char e[600];
		int l = lock_marks(h, &mk, e, sizeof e);
		if (l == 0) {
			r = marks_restore(h, &mk, 0);
			unlock_marks(&mk);
		} else if (l == -2 && !h->run_dir_said) {
			home_warn(h, "%s", e);
			h->run_dir_said = 1;
		}
	}
	return r;
}

int cgroup_home_mark_mount(struct cgroup_home *h, const char *dir, int mounted, char *err,
			   size_t errlen)
{
	struct marks_lock mk;
	struct mark m, old;
	char e[600], want[sizeof h->root + 64];

	if (geteuid() != 0)
		return errf(err, errlen, "not root");
	snprintf(want, sizeof want, "%s%s", h->root, SAMPLER_DEBUGFS);
	if (strcmp(dir, want) != 0)
		return errf(err, errlen, "%s: a marker is kept only for the debugfs at %s", dir,
			    want);
	if (lock_marks(h, &mk, e, sizeof e) < 0)
		return errf(err, errlen, "%s", e);
	mark_ours(&m, dir);
	m.enabled = mounted ? CGROUP_MOUNT_DEBUGFS : 0;
	m.uses = CGROUP_MOUNT_DEBUGFS;
	if (!h->mount_marker[0])
		snprintf(h->mount_marker, sizeof h->mount_marker, "%s/" MOUNT_PREFIX "%ld",
			 h->run_dir, m.pid);
	const char *name = strrchr(h->mount_marker, '/') + 1;
	/* a duty handed to us meanwhile is kept */
	if (mark_read_own(h, &mk, name, MARK_MOUNT, "", &old) && old.pid == m.pid)
		m.enabled |= old.enabled;
	int rc = mark_write(mk.dir, name, &m);
	int en = errno;
	unlock_marks(&mk);
	if (rc < 0) {
		h->mount_marker[0] = '\0';
		return errf(err, errlen, "cannot write the marker of %s in %s: %s", dir, h->run_dir,
			    strerror(en));
	}
	return 0;
}

void cgroup_home_done(struct cgroup_home *h)
{
	struct marks_lock mk;
	char e[600];

	if (!h->marker[0] && !h->mount_marker[0])
		return;
	/* without the lock another lrutop may be deciding on the same top:
	 * the marker stays, and the next start's reap gives it back */
	if (lock_marks(h, &mk, e, sizeof e) == 0) {
		marks_restore(h, &mk, 1);
		unlock_marks(&mk);
	}
	h->marker[0] = h->mount_marker[0] = '\0';
	h->enabled = h->uses = 0;
}
