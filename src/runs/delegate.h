/*
 * delegate — asks systemd for a delegated transient scope that holds
 * lrutop itself (systemd's "Control Group APIs and Delegation",
 * CGROUP_DELEGATION: where systemd manages the cgroup tree, a program
 * builds its own cgroups only below a unit with Delegate=yes).
 *
 * The request is systemd's own D-Bus call, made by busctl(1) (no new
 * library): Manager.StartTransientUnit("lrutop-<pid>.scope", "fail",
 * PIDs=[<pid>], Delegate=true, Slice=<the slice we are in>,
 * CollectMode=inactive-or-failed) on the system bus, or the user's bus
 * (--user) when not root.  systemd moves us into the scope; when every
 * process in it has gone (SIGKILL included) it stops the unit and removes
 * its cgroup, so nothing of it outlives lrutop.
 *
 * Invariants: nothing here prints or exits; busctl is forked with signals
 * blocked and the child resets them (docs/style.md rule 6); every wait is bounded.
 */
#ifndef LRUTOP_DELEGATE_H
#define LRUTOP_DELEGATE_H

#include <stddef.h>

/* 1 when systemd manages the cgroup tree: root is the prefix the
 * running system's files are looked up below ("" for the real one; a
 * test's directory), and sd_booted()'s test is run/systemd/system there. */
int delegate_systemd_booted(const char *root);

/* The slice a scope beside our cgroup goes in, from our cgroup's path in
 * the v2 hierarchy: the last of the leading run of components named
 * *.slice ("/user.slice/user-0.slice/session-1.scope" -> "user-0.slice";
 * ".../user-1000.slice/user@1000.service/app.slice/x.scope" ->
 * "user-1000.slice": below a unit the slices are another manager's),
 * "-.slice" when there is none.  user: the path is read below the user manager's
 * user@UID.service (its own slices); no such component there -> -1.
 * -1 when out is too small. */
int delegate_slice(const char *self_path, int user, char *out, size_t len);

/* Our cgroup path in the v2 hierarchy from text in the format of
 * /proc/self/cgroup: its "0::PATH" line; -1 when there is none (or out is
 * too small).  The one parser of that line (cgroup_find.c uses it too). */
int delegate_v2_path(const char *text, char *out, size_t len);

/* "lrutop-<pid>.scope". */
void delegate_unit_name(long pid, char *out, size_t len);

/* Starts the scope through busctl (user: the user manager) in slice and
 * waits, bounded, until /proc/self/cgroup shows us in it; then fills
 * path with our new cgroup path in the v2 hierarchy (".../lrutop-<pid>.scope").
 * -1 + err with busctl's own words when systemd refuses or is not there. */
int delegate_start_scope(int user, const char *slice, char *path, size_t pathlen, char *err,
			 size_t errlen);

#endif
