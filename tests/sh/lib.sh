# Shared helpers for tests/sh/*.sh (POSIX sh; sourced, not run).
#
# Protocol (see tests/run): a test prints one line per check,
#   ok - NAME | not ok - NAME: details | skip - NAME: reason
# and is run as  LRUTOP=/abs/path/lrutop BUILD=build sh tests/sh/NAME.sh
# from the repository root.
#
# Synchronisation is always "poll a condition until a deadline" (wait_for);
# the short sleeps inside the poll loops are the poll period, never the thing
# a test relies on.

: "${LRUTOP:?LRUTOP must name the lrutop binary}"
: "${BUILD:=build}"

# Tests must not be disturbed by a user's colour / locale settings unless
# they ask for them; tmux itself needs a UTF-8 locale to keep braille cells.
unset NO_COLOR
export LANG=C.UTF-8
unset LC_ALL LC_CTYPE LC_NUMERIC

ok() { echo "ok - $1"; }
notok() {
	n=$1
	shift
	echo "not ok - $n: $*"
}
skip() {
	n=$1
	shift
	echo "skip - $n: $*"
}
# check NAME CONDITION-COMMAND [DETAILS...]: ok if the command succeeds.
check() {
	_n=$1 _c=$2
	shift 2
	if eval "$_c"; then ok "$_n"; else notok "$_n" "$*"; fi
}

# Centiseconds since boot, without forking (the poll loops call it a lot).
now_cs() {
	read -r _up _ </proc/uptime
	_cs=${_up%.*}${_up#*.}
	while [ "${_cs#0}" != "$_cs" ] && [ ${#_cs} -gt 1 ]; do _cs=${_cs#0}; done
	echo "$_cs"
}

# wait_for SECONDS 'shell condition' [POLL]: poll until the condition holds;
# returns 1 if the deadline passes first.  SECONDS may be fractional.
wait_for() {
	_to=$(awk -v s="$1" 'BEGIN { printf "%d", s * 100 }')
	_deadline=$(($(now_cs) + _to))
	while :; do
		eval "$2" && return 0
		[ "$(now_cs)" -ge "$_deadline" ] && break
		sleep "${3:-0.05}"
	done
	eval "$2"
}

# proc_gone PID: the process has exited (gone, or a zombie not yet reaped).
proc_gone() {
	_st=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null)
	[ -z "$_st" ] || [ "$_st" = Z ]
}

# cksum of a file, "missing" if it is not there.
file_sum() { cksum <"$1" 2>/dev/null || echo missing; }

# find_disk PATH: the whole disk holding PATH, as lrutop's default picks it:
# st_dev -> /sys/dev/block/M:m; a partition's disk is its parent directory;
# a dm/md device with exactly one member is followed to that member.  Fails
# (prints nothing) for filesystems not on a single block device.
find_disk() {
	_dev=$(stat -c '%Hd:%Ld' "$1" 2>/dev/null) || return 1
	_p=$(readlink -f "/sys/dev/block/$_dev" 2>/dev/null) || return 1
	[ -d "$_p" ] || return 1
	while :; do
		[ -e "$_p/partition" ] && _p=${_p%/*}
		set -- "$_p"/slaves/*
		if [ $# -eq 1 ] && [ -e "$1" ]; then
			_p=$(readlink -f "$1")
			continue
		fi
		[ $# -gt 1 ] && return 1
		break
	done
	echo "${_p##*/}"
}

# sgr_colours: stdin is capture-pane -e output; prints the colour parameters
# (SGR 30-38, 40-48, 90-97, 100-107) it contains, one per line.
sgr_colours() {
	grep -o "$(printf '\033')\[[0-9;]*m" | sed 's/^.\[//; s/m$//' | tr ';' '\n' |
		grep -Ex '3[0-8]|4[0-8]|9[0-7]|10[0-7]'
}

# ---- tmux ----------------------------------------------------------------
# Every test run gets its own tmux *server* (-L socket), so neither a user's
# sessions nor a concurrent test run (or its kill-server) can interfere.
# -f /dev/null: a user's ~/.tmux.conf must not change sizes, keys or shell.
TM_SOCK=lrutop-test-$$
tm() { tmux -L "$TM_SOCK" -f /dev/null "$@"; }
tm_cleanup() {
	# the programs in the panes (children of the panes' shells), to see
	# them gone after the hangup kill-server sends
	_tm_kids=""
	for _tm_p in $(tmux -L "$TM_SOCK" list-panes -a -F '#{pane_pid}' 2>/dev/null); do
		_tm_kids="$_tm_kids $(pgrep -P "$_tm_p" | tr '\n' ' ')"
	done
	tmux -L "$TM_SOCK" kill-server >/dev/null 2>&1 || :
	# An ASan build still exiting (LeakSanitizer's stop-the-world tracer)
	# can hang for good when the hangup lands in it; nothing a test
	# started may outlive it.  Said as a comment: the sanitizer's, not
	# lrutop's (faults.sh and tui.sh test the hangup itself).
	for _tm_k in $_tm_kids; do
		wait_for 5 "proc_gone $_tm_k" 0.1 && continue
		echo "# tm_cleanup: $(ps -o args= -p "$_tm_k" 2>/dev/null | cut -c1-80) (pid $_tm_k) still there 5 s after the hangup: killed"
		pkill -9 -P "$_tm_k" 2>/dev/null
		kill -9 "$_tm_k" 2>/dev/null
	done
	# tmux 3.3 can leave the socket file of a killed server behind
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$TM_SOCK"
}

# tm_start NAME COLS ROWS 'command': a detached session running command
# through a shell that afterwards prints EXIT=<status> and the tty modes, then
# idles so the pane (and what it shows) survives the program.
tm_start() {
	# killing a suite's last session makes its tmux server exit; a
	# new-session that reaches it on its way out fails ("server exited
	# unexpectedly"): then again, once it has gone (a new one starts)
	_tm_n=0 _tm_s=$1
	until tm new-session -d -s "$1" -x "$2" -y "$3" \
		"$4; echo EXIT=\$?; stty -a; echo END-OF-STTY; sleep 300"; do
		_tm_n=$((_tm_n + 1))
		[ $_tm_n -lt 5 ] || return 1
		wait_for 2 '! tm list-sessions >/dev/null 2>&1 || tm has-session -t "$_tm_s" 2>/dev/null' 0.05
		tm has-session -t "$_tm_s" 2>/dev/null && return 0
	done
}
tm_cap() { tm capture-pane -p -t "$1" 2>/dev/null; }
# tm_has NAME FIXED-STRING: the pane currently shows the string.
tm_has() { tm_cap "$1" | grep -qF -- "$2"; }
# tm_alive NAME: the program in the pane has not ended (no EXIT= yet).
tm_alive() { ! tm_has "$1" EXIT=; }
# tm_until NAME SECONDS 'condition' [POLL]: wait_for, but give up early once
# the program has ended (nothing will change any more).
tm_until() {
	wait_for "$2" "$3 || ! tm_alive '$1'" "${4:-0.05}"
	eval "$3"
}
# tm_wait NAME FIXED-STRING [SECONDS]: poll the pane for the string.
tm_wait() { tm_until "$1" "${3:-10}" "tm_has '$1' '$2'"; }
tm_wait_gone() { wait_for "${3:-10}" "! tm_has '$1' '$2'"; }
# tm_child NAME: pid of the program the pane's shell started.
tm_child() {
	_pp=$(tm list-panes -t "$1" -F '#{pane_pid}' 2>/dev/null | head -n 1)
	[ -n "$_pp" ] && pgrep -P "$_pp" | head -n 1
}
# tm_stty_sane NAME: after the program exited, stty -a shows icanon and
# echo (not -icanon / -echo).  It waits (10 s at most) for END-OF-STTY
# first: EXIT= shows before stty has printed.
tm_stty_sane() {
	wait_for 10 "tm_has '$1' END-OF-STTY" 0.05 || return 1
	_w=$(tm_cap "$1" | tr ' ;' '\n\n')
	printf '%s\n' "$_w" | grep -qx icanon && printf '%s\n' "$_w" | grep -qx echo &&
		! printf '%s\n' "$_w" | grep -qx -- -icanon && ! printf '%s\n' "$_w" | grep -qx -- -echo
}

# --- copy-run helpers (runs.sh, faults.sh, queue.sh) ---------------------

# lrt_cgroot: the memory cgroup directory lrutop makes its run cgroups
# beneath (our own, v1 or v2); fails when there is none.
lrt_cgroot() {
	_l=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	if [ -n "$_l" ] && [ -d /sys/fs/cgroup/memory ]; then
		echo "/sys/fs/cgroup/memory${_l%/}"
		return 0
	fi
	_l=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	if [ -n "$_l" ] && grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		echo "/sys/fs/cgroup${_l%/}"
		return 0
	fi
	return 1
}

# lrt_fresh FILE...: empty files a background lrutop is about to write.  The
# shell opens `cmd >FILE &`'s redirections in the child, after `&` returns:
# a wait_for that greps FILE could otherwise see the previous run's lines.
lrt_fresh() {
	for _f; do
		: >"$_f" || return 1
	done
}

# lrt_stop PID: TERM, then KILL, a background lrutop of ours, and remove any
# run cgroup it left (needs $cgroot, may be empty).
lrt_stop() {
	kill "$1" 2>/dev/null && { wait_for 10 "proc_gone $1" || kill -9 "$1" 2>/dev/null; }
	[ -n "${cgroot:-}" ] && for _c in "$cgroot/lrutop-$1-"*; do
		[ -d "$_c" ] && rmdir "$_c" 2>/dev/null
	done
	:
}

# lrt_newdir: a fresh empty scratch --dir under $base, in $d.
_lrt_n=0
lrt_newdir() {
	_lrt_n=$((_lrt_n + 1))
	d=$base/d$_lrt_n
	mkdir "$d"
}

# lrt_empty DIR: nothing in DIR.
lrt_empty() { [ -z "$(ls -A "$1" 2>/dev/null)" ]; }

# lrt_scratch NAME: a private directory in $tmp, removed (with the tmux
# server) on exit; the test then runs inside it.
lrt_scratch() {
	tmp=$(mktemp -d "/tmp/lrutop-$1.XXXXXX") || exit 2
	trap 'tm_cleanup; rm -rf "$tmp"' EXIT
	trap 'exit 2' INT TERM HUP
	cd "$tmp" || exit 2
}

# lrt_unreap FILE: drops from an lrutop's stderr FILE the lines that say it
# reaped what another lrutop left ("removed ... of pid N that is gone",
# "turned ... off again that an lrutop that is gone had enabled"): suites
# run side by side, and a neighbour SIGKILLed on purpose (stale.sh, a
# tmux session's clean-up) leaves what the next start anywhere removes and
# says.  Each dropped line is said as a comment.  stale.sh, which checks
# those lines, reads its stderr whole.
lrt_unreap() {
	grep -E '^lrutop: (removed .* that is gone|turned .* had enabled)$' "$1" 2>/dev/null |
		sed 's/^/# a neighbour'"'"'s leftovers: /'
	sed -i -E '/^lrutop: (removed .* that is gone|turned .* had enabled)$/d' "$1" 2>/dev/null
	return 0
}

# lrt_expect NAME WANT-STATUS ARGS...: runs lrutop (120 s at most), stdout
# in ./out, stderr in ./err, and checks its exit status ($T names the test).
lrt_expect() {
	_n=$1 _want=$2
	shift 2
	timeout 120 "$LRUTOP" "$@" >out 2>err
	_st=$?
	lrt_unreap err
	[ "$_st" = "$_want" ] && ok "$T $_n: exit $_want" ||
		notok "$T $_n: exit $_want" "exit $_st: $(head -c 300 err)"
}

# err_is NAME TEXT: ./err is exactly one "lrutop: " line containing TEXT
err_is() {
	if [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$2" err && grep -q '^lrutop: ' err; then
		ok "$T $1: says '$2'"
	else
		notok "$T $1: says '$2'" "stderr: $(head -c 300 err)"
	fi
}

# lrt_ioroot: the directory run io cgroups are made beneath: v1 blkio (our
# own cgroup there), else v2 with io delegated to our cgroup's children;
# status 1 without either.
lrt_ioroot() {
	_l=$(sed -n 's/^[0-9]*:blkio:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	if [ -n "$_l" ] && [ -w "/sys/fs/cgroup/blkio${_l%/}/blkio.throttle.read_bps_device" ]; then
		echo "/sys/fs/cgroup/blkio${_l%/}"
		return 0
	fi
	_l=$(sed -n 's/^0::\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	if [ -n "$_l" ] && grep -qw io "/sys/fs/cgroup${_l%/}/cgroup.subtree_control" 2>/dev/null; then
		echo "/sys/fs/cgroup${_l%/}"
		return 0
	fi
	return 1
}

# lrt_run SECONDS ARGS...: lrutop with stdin closed, its output in
# $tmp/out and $tmp/err, killed after SECONDS; sets $rc.  errline: the
# first line of that stderr, cut to 200 characters.
lrt_run() {
	_lr_to=$1
	shift
	timeout "$_lr_to" "$LRUTOP" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	lrt_unreap "$tmp/err"
}
errline() { head -n 1 "$tmp/err" | cut -c1-200; }
