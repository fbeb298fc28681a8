#!/bin/sh
# What a SIGKILL leaves (docs/design.md §8): a SIGKILLed lrutop's scratch
# directory and run cgroup (with --disk-limit on v1 also its blkio twin)
# are removed by the next lrutop, with one line saying so; a live lrutop's
# are not; what lrutop did not make (no owner marker, a symlink, a
# stranger's file) is left alone.  And a worker killed with -9 from
# outside is reported as killed by SIGKILL, not as out of memory (its
# cgroup's OOM counter did not move).
#
# Beside other suites: an lrutop that starts a run removes the cgroups of
# dead pids among its own cgroup's children, so one of a suite beside this
# one could take the victim's before "the next lrutop" does, and this
# suite's could take (and name) a neighbour's.  So where it can (cgroup v1,
# root) the suite first moves into cgroups of its own, lrutop-test-PID
# beneath the memory and blkio cgroups it was started in: its lrutops make
# their run cgroups there and reap only there, and no other lrutop looks
# inside (lrutop-test-* is no run's name; tests/run removes one whose pid is
# gone).  Where it cannot (v2, whose scopes sit in a shared slice), the
# checks say only what this suite can know: the victim's cgroup is gone,
# whoever reaped it, the message names this lrutop's scratch directory, and
# "nothing said" means nothing of this suite's.
. "$(dirname "$0")/lib.sh"

base=$(mktemp -d /var/tmp/lrt-stale.XXXXXX) || exit 2
tmp=$(mktemp -d /tmp/lrutop-stale.XXXXXX) || exit 2
bg="" bg2=""
own_mem="" own_io=""
# own_cgroups: into lrutop-test-$$ of v1's memory (and blkio) hierarchy;
# own_mem/own_io name the parents left, for leave_cgroups
own_cgroups() {
	[ "$(id -u)" -eq 0 ] && [ -d /sys/fs/cgroup/memory ] || return 1
	_m=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	[ -n "$_m" ] || return 1
	_m=/sys/fs/cgroup/memory${_m%/}
	[ -w "$_m/cgroup.procs" ] && mkdir "$_m/lrutop-test-$$" 2>/dev/null || return 1
	own_mem=$_m
	echo $$ >"$own_mem/lrutop-test-$$/cgroup.procs" || return 1
	_b=$(sed -n 's/^[0-9]*:blkio:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
	[ -n "$_b" ] || return 0
	_b=/sys/fs/cgroup/blkio${_b%/}
	[ -w "$_b/cgroup.procs" ] && mkdir "$_b/lrutop-test-$$" 2>/dev/null || return 1
	own_io=$_b
	echo $$ >"$own_io/lrutop-test-$$/cgroup.procs"
}
leave_cgroups() {
	for _p in $own_mem $own_io; do
		echo $$ >"$_p/cgroup.procs"
		# a run's cgroup still inside (a check above failed): its
		# processes killed, then it goes, said
		for _c in "$_p/lrutop-test-$$"/*/; do
			[ -d "$_c" ] || continue
			xargs kill -9 <"$_c/cgroup.procs" 2>/dev/null
			wait_for 5 "[ -z \"\$(cat '$_c/cgroup.procs')\" ]" 0.05
			rmdir "$_c" && echo "# stale.sh: removed $_c (a run's, left inside ours)"
		done
		rmdir "$_p/lrutop-test-$$" || echo "# stale.sh: could not remove $_p/lrutop-test-$$"
	done
	own_mem="" own_io=""
}
cleanup() {
	[ -n "$bg" ] && lrt_stop "$bg"
	[ -n "$bg2" ] && lrt_stop "$bg2"
	leave_cgroups
	rm -rf "$base" "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
alone=0
if own_cgroups; then
	alone=1
elif [ -n "$own_mem" ]; then
	echo "# could not move into cgroups of our own (memory $own_mem, blkio ${own_io:-none}): the checks tolerate neighbours"
	leave_cgroups
fi
cgroot=$(lrt_cgroot) || cgroot=""
cg_ok=0
[ "$(id -u)" -eq 0 ] && [ -n "$cgroot" ] && [ -w "$cgroot" ] && cg_ok=1
echo "# cgroups of our own: $([ "$alone" -eq 1 ] && echo "yes, $cgroot" || echo "no (beside neighbours the checks say only what is ours)")"
# said_none FILE TEXT...: no line of FILE mentions one of TEXTs (what this
# suite made); in cgroups of our own, FILE is empty
said_none() {
	_f=$1
	shift
	[ "$alone" -eq 1 ] && { [ ! -s "$_f" ]; return; }
	for _x; do grep -qF -- "$_x" "$_f" && return 1; done
	return 0
}
show() { tr '\n' '|' <"$1" | cut -c1-300; }
# the lrutop-XXXXXX directory in $1 (one), printed
scratch_of() { ls -d "$1"/lrutop-?????? 2>/dev/null | head -n 1; }

if [ "$cg_ok" -eq 1 ]; then LIM="--mem-limit 64M"; else LIM=""; fi
# --disk-limit on v1: a blkio cgroup of the same name beside the memory one
_l=$(sed -n 's/^[0-9]*:blkio:\(.*\)$/\1/p' /proc/self/cgroup | head -n 1)
ioroot=/sys/fs/cgroup/blkio${_l%/}
if [ "$cg_ok" -eq 1 ] && [ -n "$_l" ] && [ -w "$ioroot/blkio.throttle.read_bps_device" ]; then
	LIM="$LIM --disk-limit 200M"
else
	ioroot=""
fi

# 1. A SIGKILLed lrutop ------------------------------------------------------
lrt_newdir
D1=$d
# shellcheck disable=SC2086
"$LRUTOP" --batch -q -s rw_cp --size 256M $LIM --no-verify --dir "$D1" </dev/null >/dev/null 2>&1 &
bg=$!
if [ "$cg_ok" -eq 1 ]; then
	cond='ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1'
	[ -n "$ioroot" ] && cond="$cond"' && ls -d "$ioroot/lrutop-$bg-"* >/dev/null 2>&1'
else
	cond='[ -f "$(scratch_of "$D1")/dst" ]'
fi
if ! wait_for 30 "$cond" 0.05; then
	notok "SIGKILLed lrutop: its run started" "no cgroup or dst after 30 s"
else
	S1=$(scratch_of "$D1")
	check "owner marker names the pid" 'grep -qx "pid $bg" "$S1/owner"' "$(cat "$S1/owner" 2>/dev/null)"
	kill -9 "$bg"
	wait "$bg" 2>/dev/null
	victim=$bg
	bg=""
	check "kill -9 left the scratch directory" '[ -d "$S1" ]'
	[ "$cg_ok" -eq 1 ] &&
		check "kill -9 left the cgroup" 'ls -d "$cgroot/lrutop-$victim-"* >/dev/null 2>&1'
	[ -n "$ioroot" ] &&
		check "kill -9 left the blkio cgroup" 'ls -d "$ioroot/lrutop-$victim-"* >/dev/null 2>&1'
	timeout 60 "$LRUTOP" --batch -q -s rw_cp --size 1M --no-verify --dir "$D1" </dev/null \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "next lrutop: exit 0" '[ "$rc" -eq 0 ]' "exit $rc; stderr: $(show "$tmp/err")"
	check "next lrutop: scratch directory removed" '[ ! -e "$S1" ] && lrt_empty "$D1"' \
		"left: $(ls -A "$D1" | tr '\n' ' ')"
	if [ "$cg_ok" -eq 1 ]; then
		check "next lrutop: cgroup removed" '! ls -d "$cgroot/lrutop-$victim-"* >/dev/null 2>&1'
		[ -n "$ioroot" ] && check "next lrutop: blkio cgroup removed" \
			'! ls -d "$ioroot/lrutop-$victim-"* >/dev/null 2>&1'
		pat="^lrutop: removed 1 stale scratch directory \($S1, [0-9.]+[KMG]\) and 1 cgroup of pid $victim that is gone\$"
	else
		skip "next lrutop: cgroup removed" "needs root and a writable memory cgroup"
		pat="^lrutop: removed 1 stale scratch directory \($S1, [0-9.]+[KMG]\) of pid $victim that is gone\$"
	fi
	# beside neighbours (no cgroups of our own) one of theirs may have
	# reaped the cgroup first, or ours reaped one of theirs too: what this
	# lrutop must say is its scratch directory, the victim's
	[ "$alone" -eq 1 ] || pat="^lrutop: removed 1 stale scratch directory \($S1, [0-9.]+[KMG]\)"
	check "next lrutop: one line says what went" \
		'{ [ "$alone" -eq 0 ] || [ "$(wc -l <"$tmp/err")" -eq 1 ]; } && grep -Eq "$pat" "$tmp/err"' "stderr: $(show "$tmp/err")"
fi

# 2. A live lrutop's directory and cgroup stay --------------------------------
lrt_newdir
D2=$d
mkfifo "$tmp/hold"
# --cmd cat of a FIFO: a run that lasts until we open the FIFO (it copies
# nothing: --no-verify, or it fails as "no copy").
# shellcheck disable=SC2086
"$LRUTOP" --batch -q --cmd "cat $tmp/hold" --no-verify --size 1M $LIM --dir "$D2" </dev/null >/dev/null 2>&1 &
bg=$!
if [ "$cg_ok" -eq 1 ]; then
	cond='ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1'
else
	cond='[ -f "$(scratch_of "$D2")/src" ]'
fi
if ! wait_for 30 "$cond" 0.05; then
	notok "live lrutop: its run started" "no cgroup or source after 30 s"
else
	S2=$(scratch_of "$D2")
	timeout 60 "$LRUTOP" --batch -q -s rw_cp --size 1M --no-verify --dir "$D2" </dev/null \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "second lrutop beside a live one: exit 0, nothing said" \
		'[ "$rc" -eq 0 ] && said_none "$tmp/err" "$D2" "pid $bg "' "exit $rc; stderr: $(show "$tmp/err")"
	check "live lrutop's scratch directory kept" '[ -f "$S2/owner" ] && [ -f "$S2/src" ]'
	[ "$cg_ok" -eq 1 ] &&
		check "live lrutop's cgroup kept" 'ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1'
	: >"$tmp/hold" # lets cat end
	wait_for 30 "proc_gone $bg" 0.05
	wait "$bg"
	rc=$?
	bg=""
	check "live lrutop ends cleanly after all" '[ "$rc" -eq 0 ] && lrt_empty "$D2"' "exit $rc"
fi

# 3. What lrutop did not make is left alone -------------------------------------
lrt_newdir
D3=$d
mkdir "$D3/lrutop-nomark" "$D3/lrutop-AAAAAA" "$D3/lrutop-BBBBBB" "$D3/target" "$D3/lrutop-DDDDDD"
echo keep >"$D3/lrutop-AAAAAA/src" # no marker: not ours to judge
boot=$(cat /proc/sys/kernel/random/boot_id)
# a marker of a dead owner (this shell's pid with a start time it never had)
printf 'lrutop-scratch-owner 1\npid %s\nstart 1\nboot %s\n' $$ "$boot" >"$D3/lrutop-BBBBBB/owner"
echo data >"$D3/lrutop-BBBBBB/dst"
echo stranger >"$D3/lrutop-BBBBBB/notes.txt"
cp "$D3/lrutop-BBBBBB/owner" "$D3/target/owner"
echo keep >"$D3/target/src"
ln -s "$D3/target" "$D3/lrutop-CCCCCC"
# our own start time: the marker names a live owner
start=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f20)
printf 'lrutop-scratch-owner 1\npid %s\nstart %s\nboot %s\n' $$ "$start" "$boot" >"$D3/lrutop-DDDDDD/owner"
echo keep >"$D3/lrutop-DDDDDD/src"
timeout 60 "$LRUTOP" --batch -q -s rw_cp --size 1M --no-verify --dir "$D3" </dev/null \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "foreign entries: exit 0" '[ "$rc" -eq 0 ]' "exit $rc; stderr: $(show "$tmp/err")"
check "no marker: left alone" '[ "$(cat "$D3/lrutop-AAAAAA/src")" = keep ]'
check "badly named directory: left alone" '[ -d "$D3/lrutop-nomark" ]'
check "symlink: not followed" '[ -L "$D3/lrutop-CCCCCC" ] && [ "$(cat "$D3/target/src")" = keep ] && [ -f "$D3/target/owner" ]'
check "live owner (same pid and start time): left alone" '[ "$(cat "$D3/lrutop-DDDDDD/src")" = keep ]'
check "reused pid (start time differs): lrutop's files go, a stranger's stays" \
	'[ ! -e "$D3/lrutop-BBBBBB/dst" ] && [ ! -e "$D3/lrutop-BBBBBB/owner" ] && [ "$(cat "$D3/lrutop-BBBBBB/notes.txt")" = stranger ]'
check "nothing removed: nothing said" 'said_none "$tmp/err" "$D3"' "stderr: $(show "$tmp/err")"

# 4. A worker killed with -9 from outside ----------------------------------------
T="worker killed -9 from outside:"
if [ "$cg_ok" -ne 1 ]; then
	skip "$T" "needs root and a writable memory cgroup"
else
	lrt_newdir
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q --cmd "cat $tmp/hold" --size 1M --mem-limit 64M --dir "$d" </dev/null \
		>"$tmp/out" 2>"$tmp/err" &
	bg=$!
	w=""
	if wait_for 30 'w=$(cat "$cgroot"/lrutop-$bg-*/cgroup.procs 2>/dev/null | head -n 1); [ -n "$w" ]' 0.05; then
		kill -9 "$w"
		wait_for 30 "proc_gone $bg" 0.05
		wait "$bg"
		rc=$?
		bg=""
		check "$T exit 1, says SIGKILL" '[ "$rc" -eq 1 ] && grep -q "SIGKILL" "$tmp/err"' \
			"exit $rc; stderr: $(show "$tmp/err")"
		check "$T no OOM hint" '! grep -Eiq "out of memory|oom" "$tmp/err" "$tmp/out"' \
			"stderr: $(show "$tmp/err")"
	else
		notok "$T" "no worker in the cgroup after 30 s"
	fi
fi
