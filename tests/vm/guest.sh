#!/bin/sh
# The guest half of tests/sh/vm.sh: run by tools/vm/run inside the VM (busybox
# sh, root, cgroup v2 only, systemd's layout), with tests/sh/lib.sh in
# /vm/in/.  Prints ok / not ok lines; the host forwards them.
#
#   guest.sh session   from session-1.scope: --mem-limit 32M, --disk-limit 8M,
#                      clean-up after success / a failed run / SIGKILL, the
#                      controllers as they were, MGLRU off, mincore residency
#   guest.sh mglru     lru_gen on: a run works and the recording says mglru;
#                      debugfs lrutop mounted: two lrutops, SIGKILL
#   guest.sh bare      from the root cgroup with no controller enabled
#                      anywhere: --mem-limit works and the root's
#                      cgroup.subtree_control is empty again afterwards;
#                      two lrutops (the first one's exit leaves memory on
#                      under the second's run), SIGKILL with memory on at
#                      the root and the next start turning it off
#
# lrutop's own cgroups are found without knowing where lrutop puts them: the
# cgroup of the copy worker (a child of lrutop) and its ancestors.  The
# limit is the smallest memory.max on that path; the throttle the io.max
# line for the disk on it.
. /vm/in/lib.sh

mode=${1:-session}
T=vm-$mode
cg=/sys/fs/cgroup
dev=$(cat /sys/block/vda/dev)
lim32=33554432
dn=0
show() { tr '\n' '|' <"$1" | cut -c1-400; }
newdir() {
	dn=$((dn + 1))
	d=$DISK/t$dn
	mkdir -p "$d"
}

# What must be as it was after every run: every cgroup directory and the
# controllers enabled in the root, user.slice, user-0.slice and the scope.
state() {
	find $cg -type d | sort
	for c in "" /user.slice /user.slice/user-0.slice /user.slice/user-0.slice/session-1.scope; do
		[ -d "$cg$c" ] && echo "${c:-/}: $(cat "$cg$c/cgroup.subtree_control")"
	done
}
state >/tmp/state0
same_state() {
	state >/tmp/state1
	if cmp -s /tmp/state0 /tmp/state1; then
		ok "$T $1: no cgroup left, the controllers as they were"
	else
		notok "$T $1: no cgroup left, the controllers as they were" \
			"$(diff /tmp/state0 /tmp/state1 | grep '^[-+][^-+]' | tr '\n' ' ' | cut -c1-400)"
	fi
	# the next check starts from this state, whatever it is
	cp /tmp/state1 /tmp/state0
}
no_scratch() {
	_d=$2
	check "$T $1: no scratch directory left in --dir" '[ -z "$(ls -A "$_d")" ]' "left: $(ls -A "$_d" | tr '\n' ' ')"
}
# children PID: the pids whose parent is PID (busybox has no pgrep)
children() {
	awk -v p="$1" '{ sub(/.*\) /, ""); if ($2 == p) { f = FILENAME; gsub(/[^0-9]/, "", f); print f } }' \
		/proc/[0-9]*/stat 2>/dev/null
}

# watch PID: until lrutop PID ends, every 0.1 s: the cgroups of its children
# (the worker) and their ancestors.  Writes to /tmp/watch:
#   procs  the worker seen in a cgroup other than lrutop's own
#   max    the smallest memory.max on the worker's path (bytes)
#   file   the largest "file" of memory.stat in the cgroup that has that max
#   io     the io.max line of the disk on the worker's path
# kill_at: when set, lrutop is SIGKILLed as soon as the limit is seen.
watch() {
	_self=$(sed -n 's/^0:://p' "/proc/$1/cgroup")
	_max="" _file=0 _io="" _procs=0
	while ! proc_gone "$1"; do
		for _c in $(children "$1"); do
			_p=$(sed -n 's/^0:://p' "/proc/$_c/cgroup" 2>/dev/null)
			[ -n "$_p" ] || continue
			[ "$_p" != "$_self" ] && _procs=1
			while [ -n "$_p" ] && [ "$_p" != / ]; do
				_m=$(cat "$cg$_p/memory.max" 2>/dev/null)
				case "$_m" in
				[0-9]*)
					if [ -z "$_max" ] || [ "$_m" -le "$_max" ]; then
						_max=$_m
						_f=$(sed -n 's/^file //p' "$cg$_p/memory.stat")
						[ -n "$_f" ] && [ "$_f" -gt "$_file" ] && _file=$_f
					fi
					;;
				esac
				_i=$(grep "^$dev " "$cg$_p/io.max" 2>/dev/null)
				[ -n "$_i" ] && _io=$_i
				_p=${_p%/*}
			done
		done
		if [ -n "${kill_at:-}" ] && [ -n "$_max" ]; then
			kill -9 "$1"
			break
		fi
		sleep 0.1
	done
	printf 'procs=%s\nmax=%s\nfile=%s\nio=%s\n' "$_procs" "$_max" "$_file" "$_io" >/tmp/watch
}
w() { sed -n "s/^$1=//p" /tmp/watch; }
# col FILE ROW COLUMN: a --results cell by its header name
col() {
	awk -F, -v r="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		NR == r + 1 { print (k ? $k : "NOCOL"); exit }' "$1" 2>/dev/null
}
# run NAME ARGS...: lrutop --batch in the background, watched; exit status
# in $rc, stdout in /tmp/out, stderr in /tmp/err.  No stall watchdog: under
# TCG on a busy host a copy under a small limit can crawl below a MiB in
# 30 s (seen in vm_systemd's guest: "no progress for 30 s"); the guest's
# time limit is the hang guard, and faults.sh tests the watchdog.
run() {
	_name=$1
	shift
	"$LRUTOP" --batch --stall-timeout 0 "$@" </dev/null >/tmp/out 2>/tmp/err &
	_bg=$!
	watch "$_bg"
	wait "$_bg" 2>/dev/null
	rc=$?
}

session() {
	check "$T the script runs in the session scope" \
		'grep -qx "0::/user.slice/user-0.slice/session-1.scope" /proc/self/cgroup' "$(cat /proc/self/cgroup)"
	# 6.1 has no cachestat (6.5 added it): residency comes from mincore.
	# A newer kernel is made to use the fallback all the same.
	case "$(uname -r)" in
	[1-5].* | 6.[0-4].*) echo "# $T no cachestat on $(uname -r): residency comes from mincore" ;;
	*)
		export LRUTOP_RESIDENCY=mincore
		echo "# $T $(uname -r) has cachestat: LRUTOP_RESIDENCY=mincore forces the fallback"
		;;
	esac

	# 0. no limit: residency from the mincore reader; the recording says MGLRU off
	newdir
	run plain -q -i 0.1 -s rw_cp --size 32M --dir "$d" --results /tmp/plain.csv --record "$OUT/plain.jsonl"
	unset LRUTOP_RESIDENCY
	check "$T no limit: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	_sc=$(col /tmp/plain.csv 1 src_cached_end_pct)
	check "$T mincore residency: rw_cp's src_cached_end_pct is filled (0 < $_sc <= 100)" \
		'awk -v s="$_sc" "BEGIN { exit !(s + 0 > 0 && s + 0 <= 100) }"' "$(head -c 400 /tmp/plain.csv 2>/dev/null)"
	_pc=$(grep -c '"pcsc":' "$OUT/plain.jsonl" 2>/dev/null)
	check "$T mincore residency: the recording's samples carry the source's counts ($_pc)" \
		'[ "${_pc:-0}" -ge 2 ]' "$(grep -m 1 '"k":"sample"' "$OUT/plain.jsonl" 2>/dev/null | head -c 300)"
	check "$T MGLRU off: the recording says mglru false" \
		'head -n 1 "$OUT/plain.jsonl" | grep -q "\"mglru\":false"' "$(head -c 300 "$OUT/plain.jsonl" 2>/dev/null)"
	same_state "after a run without limits"
	no_scratch "after a run without limits" "$d"

	# 1. --mem-limit 32M: memory.max on the copy's cgroup, its file pages within
	newdir
	run mem -q -i 0.1 -s rw_cp,mm_sync_cp --size 64M --mem-limit 32M --dir "$d" \
		--results /tmp/mem.csv --record "$OUT/mem.jsonl"
	check "$T --mem-limit 32M: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T --mem-limit 32M: the copy ran in a cgroup of its own" '[ "$(w procs)" = 1 ]' "$(show /tmp/watch)"
	check "$T --mem-limit 32M: memory.max $lim32 on the copy's cgroup" '[ "$(w max)" = "$lim32" ]' \
		"$(show /tmp/watch)"
	check "$T --mem-limit 32M: its file pages grew (> 8 MiB) and never passed 32 MiB" \
		'[ "$(w file)" -gt 8388608 ] && [ "$(w file)" -le "$lim32" ]' "$(show /tmp/watch)"
	same_state "after --mem-limit"
	no_scratch "after --mem-limit" "$d"

	# 2. --disk-limit 8M: io.max on the copy's path, rw_cp at most 8.5 MiB/s
	newdir
	run disk -q -i 0.25 -s rw_cp --size 32M --disk-limit 8M --no-verify --dir "$d" --results /tmp/disk.csv
	check "$T --disk-limit 8M: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T --disk-limit 8M: io.max '$dev rbps=8388608' on the copy's path" \
		'w io | grep -q "^$dev rbps=8388608 "' "$(show /tmp/watch)"
	_mbs=$(col /tmp/disk.csv 1 mbs)
	check "$T --disk-limit 8M: rw_cp at most 8.5 MiB/s ($_mbs)" \
		'awk -v m="$_mbs" "BEGIN { exit !(m != \"\" && m + 0 > 0 && m + 0 <= 8.5) }"' \
		"$(cat /tmp/disk.csv 2>/dev/null | head -c 400)"
	same_state "after --disk-limit"
	no_scratch "after --disk-limit" "$d"

	# 3. a failed run: its cgroup goes all the same.  The command fails at
	# once, too soon for watch's 0.1 s polls to see it, so it says itself
	# what limit it ran under (the smallest memory.max on its path) and
	# then fails.
	newdir
	cat >/tmp/failcmd <<-'EOS'
		#!/bin/sh
		p=$(sed -n 's/^0:://p' /proc/self/cgroup) m=""
		while [ -n "$p" ] && [ "$p" != / ]; do
			v=$(cat "/sys/fs/cgroup$p/memory.max" 2>/dev/null)
			case "$v" in [0-9]*) [ -z "$m" ] || [ "$v" -lt "$m" ] && m=$v ;; esac
			p=${p%/*}
		done
		echo "${m:-none}" >/tmp/failmax
		exit 1
	EOS
	chmod +x /tmp/failcmd
	rm -f /tmp/failmax
	run fail -q --cmd '/tmp/failcmd {src} {dst}' --size 1M --mem-limit 32M --disk-limit 8M --dir "$d"
	check "$T a failed run: exit 1 (a run failed)" '[ "$rc" -eq 1 ]' "exit $rc: $(show /tmp/err)"
	check "$T a failed run: it had its limit" '[ "$(cat /tmp/failmax 2>/dev/null)" = "$lim32" ]' \
		"the command saw: $(cat /tmp/failmax 2>/dev/null || echo nothing); $(show /tmp/watch)"
	same_state "after a failed run"
	no_scratch "after a failed run" "$d"

	# 4. SIGKILL: whatever is left, the next start removes it
	newdir
	kill_at=1 run kill -q -s rw_cp --size 256M --mem-limit 32M --disk-limit 8M --no-verify --dir "$d"
	kill_at=""
	check "$T SIGKILL: lrutop was killed with its limit in place" \
		'[ "$rc" -eq 137 ] && [ "$(w max)" = "$lim32" ]' "exit $rc; $(show /tmp/watch)"
	# its worker dies with it (PR_SET_PDEATHSIG)
	wait_for 30 '[ -z "$(pidof lrutop)" ]' 0.1
	check "$T SIGKILL: the worker went with lrutop" '[ -z "$(pidof lrutop)" ]' "$(pidof lrutop)"
	_k=$d
	check "$T SIGKILL: it left its scratch directory (for the next start to remove)" \
		'[ -n "$(ls -A "$_k")" ]' "nothing in $_k"
	# the next start in the same --dir, as lrutop's stale sweep expects
	run next -q -s rw_cp --size 1M --mem-limit 32M --dir "$_k"
	check "$T SIGKILL: the next start: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	same_state "SIGKILL, then the next start"
	check "$T SIGKILL: the next start removed the scratch directory" \
		'[ -z "$(ls -A "$_k")" ]' "left: $(ls -A "$_k" | tr '\n' ' ')"
}

mglru() {
	check "$T lru_gen is on" '[ "$(cat /sys/kernel/mm/lru_gen/enabled)" != 0x0000 ]' \
		"$(cat /sys/kernel/mm/lru_gen/enabled)"
	newdir
	run plain -q -i 0.1 -s rw_cp --size 16M --dir "$d" --record "$OUT/plain.jsonl"
	check "$T no limit: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T the recording says mglru true" \
		'head -n 1 "$OUT/plain.jsonl" | grep -q "\"mglru\":true"' "$(head -c 300 "$OUT/plain.jsonl" 2>/dev/null)"
	same_state "after a run without limits"
	no_scratch "after a run without limits" "$d"
	newdir
	run mglru -q -i 0.1 -s rw_cp,mm_sync_cp --size 64M --mem-limit 32M --dir "$d" \
		--results /tmp/mglru.csv --record "$OUT/mglru.jsonl"
	check "$T --mem-limit 32M: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T --mem-limit 32M: memory.max $lim32 on the copy's cgroup" '[ "$(w max)" = "$lim32" ]' \
		"$(show /tmp/watch)"
	check "$T --mem-limit 32M: its file pages never passed 32 MiB" \
		'[ "$(w file)" -gt 8388608 ] && [ "$(w file)" -le "$lim32" ]' "$(show /tmp/watch)"
	check "$T --mem-limit 32M: rw_cp and mm_sync_cp have results" \
		'[ "$(grep -c "^rw_cp,\|^mm_sync_cp," /tmp/mglru.csv 2>/dev/null)" = 2 ]' \
		"$(head -c 400 /tmp/mglru.csv 2>/dev/null)"
	same_state "after the MGLRU run"
	no_scratch "after the MGLRU run" "$d"
	mglru_debugfs
}

# debugfs (not mounted here: lrutop mounts it for lru_gen): two lrutops,
# the one that mounted it leaving first -> still mounted for the other,
# whose exit unmounts it; SIGKILL -> the next start unmounts it.
dbg_on() { grep -q " /sys/kernel/debug debugfs " /proc/mounts; }
mglru_debugfs() {
	check "$T debugfs not mounted before" '! dbg_on' "$(grep debugfs /proc/mounts)"
	rm -f /tmp/go.a /tmp/go.b
	newdir
	"$LRUTOP" --batch -q --cmd "sh /tmp/hold.sh /tmp/go.a {src} {dst}" --size 1M --no-verify \
		--dir "$d" </dev/null >/tmp/out.a 2>/tmp/err.a &
	_a=$!
	wait_for 60 '[ -f /run/lrutop/mount-$_a ]' 0.1
	check "$T debugfs: the first lrutop mounted it, its marker says so" \
		'dbg_on && grep -qx "enabled debugfs" /run/lrutop/mount-$_a' "$(show /tmp/err.a)"
	newdir
	"$LRUTOP" --batch -q --cmd "sh /tmp/hold.sh /tmp/go.b {src} {dst}" --size 1M --no-verify \
		--dir "$d" </dev/null >/tmp/out.b 2>/tmp/err.b &
	_b=$!
	wait_for 60 '[ -f /run/lrutop/mount-$_b ]' 0.1
	check "$T debugfs: the second uses it" 'grep -qx "uses debugfs" /run/lrutop/mount-$_b' "$(show /tmp/err.b)"
	touch /tmp/go.a
	wait "$_a"
	_rc=$?
	check "$T debugfs: the first lrutop: exit 0" '[ "$_rc" -eq 0 ]' "exit $_rc: $(show /tmp/err.a)"
	check "$T debugfs: still mounted for the second, which has the duty now" \
		'dbg_on && grep -qx "enabled debugfs" /run/lrutop/mount-$_b' \
		"$(grep debugfs /proc/mounts); $(cat /run/lrutop/mount-$_b 2>&1 | tr '\n' ' ')"
	touch /tmp/go.b
	wait "$_b"
	_rc=$?
	check "$T debugfs: the second lrutop: exit 0" '[ "$_rc" -eq 0 ]' "exit $_rc: $(show /tmp/err.b)"
	check "$T debugfs: unmounted after both, no marker" \
		'! dbg_on && [ -z "$(ls /run/lrutop 2>/dev/null | grep mount-)" ]' \
		"$(grep debugfs /proc/mounts); $(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	rm -f /tmp/go.a /tmp/go.b
	newdir
	kill_at=1 run kill -q -s rw_cp --size 256M --mem-limit 32M --no-verify --dir "$d"
	kill_at=""
	wait_for 30 '[ -z "$(pidof lrutop)" ]' 0.1
	check "$T debugfs: SIGKILL leaves it mounted, and the marker" \
		'[ "$rc" -eq 137 ] && dbg_on && ls /run/lrutop | grep -q "^mount-"' \
		"exit $rc; $(grep debugfs /proc/mounts); $(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	_k=$d
	run next -q -s rw_cp --size 1M --no-verify --dir "$_k"
	check "$T debugfs: the next start: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T debugfs: the next start unmounted it and removed the marker" \
		'! dbg_on && [ -z "$(ls /run/lrutop 2>/dev/null | grep mount-)" ]' \
		"$(grep debugfs /proc/mounts); $(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	same_state "debugfs: SIGKILL, then the next start"
	no_scratch "debugfs: SIGKILL, then the next start" "$_k"
}

bare() {
	# nothing enabled anywhere: undo tools/vm/init's layout bottom-up
	for c in /user.slice/user-0.slice /user.slice ""; do
		for x in pids cpu io memory; do
			echo "-$x" >"$cg$c/cgroup.subtree_control" || notok "$T setup: -$x in ${c:-/}" "refused"
		done
	done
	check "$T the script runs in the root cgroup" '[ "$(cat /proc/self/cgroup)" = "0::/" ]' "$(cat /proc/self/cgroup)"
	check "$T the root's cgroup.subtree_control is empty" '[ -z "$(cat $cg/cgroup.subtree_control)" ]' \
		"$(cat $cg/cgroup.subtree_control)"
	state >/tmp/state0
	newdir
	run bare -q -s rw_cp --size 32M --mem-limit 32M --disk-limit 8M --no-verify --dir "$d"
	check "$T --mem-limit 32M --disk-limit 8M from the root: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T memory.max $lim32 on the copy's cgroup" '[ "$(w max)" = "$lim32" ]' "$(show /tmp/watch)"
	check "$T io.max on the copy's path" 'w io | grep -q "^$dev rbps=8388608 "' "$(show /tmp/watch)"
	same_state "afterwards (the root's subtree_control empty again)"
	no_scratch "afterwards" "$d"
	bare_two
	bare_kill
}

# wmax PID: memory.max of the cgroup of lrutop PID's worker (a child), if any
wmax() {
	for _c in $(children "$1"); do
		_p=$(sed -n 's/^0:://p' "/proc/$_c/cgroup" 2>/dev/null)
		[ -n "$_p" ] && [ "$_p" != / ] && cat "$cg$_p/memory.max" 2>/dev/null && return 0
	done
	return 1
}
# hold FILE: a --cmd workload that copies once FILE exists (bounded: 120 s)
cat >/tmp/hold.sh <<'EOH'
i=0
while [ ! -e "$1" ] && [ "$i" -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
cp "$2" "$3"
EOH

# Two lrutops at the root: A enables memory there, B (started later) finds
# it on; A's exit must leave it on under B's running cgroup, B's exit turns
# it off.
bare_two() {
	rm -f /tmp/go.a /tmp/go.b
	newdir
	"$LRUTOP" --batch -q --cmd "sh /tmp/hold.sh /tmp/go.a {src} {dst}" --size 1M --mem-limit 32M \
		--no-verify --dir "$d" </dev/null >/tmp/out.a 2>/tmp/err.a &
	_a=$!
	wait_for 60 '[ "$(wmax $_a)" = "$lim32" ]' 0.1
	check "$T two: the first lrutop's run has memory.max $lim32" '[ "$(wmax $_a)" = "$lim32" ]' "$(show /tmp/err.a)"
	newdir
	"$LRUTOP" --batch -q --cmd "sh /tmp/hold.sh /tmp/go.b {src} {dst}" --size 1M --mem-limit 32M \
		--no-verify --dir "$d" </dev/null >/tmp/out.b 2>/tmp/err.b &
	_b=$!
	wait_for 60 '[ "$(wmax $_b)" = "$lim32" ]' 0.1
	check "$T two: the second lrutop's run has memory.max $lim32" '[ "$(wmax $_b)" = "$lim32" ]' "$(show /tmp/err.b)"
	touch /tmp/go.a
	wait "$_a"
	_rc=$?
	check "$T two: the first lrutop: exit 0" '[ "$_rc" -eq 0 ]' "exit $_rc: $(show /tmp/err.a)"
	check "$T two: the second's memory.max survives the first's exit" '[ "$(wmax $_b)" = "$lim32" ]' \
		"root: $(cat $cg/cgroup.subtree_control); $(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	check "$T two: memory still on at the root" 'grep -qw memory $cg/cgroup.subtree_control' \
		"$(cat $cg/cgroup.subtree_control)"
	touch /tmp/go.b
	wait "$_b"
	_rc=$?
	check "$T two: the second lrutop: exit 0" '[ "$_rc" -eq 0 ]' "exit $_rc: $(show /tmp/err.b)"
	check "$T two: no marker left" '[ -z "$(ls /run/lrutop 2>/dev/null | grep subtree-)" ]' \
		"$(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	same_state "two lrutops, both done (the root's subtree_control empty again)"
	rm -f /tmp/go.a /tmp/go.b
}

# SIGKILL with memory enabled at the root: the marker stays, the next start
# (no limit asked) turns memory off again and removes the run's cgroup.
bare_kill() {
	newdir
	kill_at=1 run kill -q -s rw_cp --size 256M --mem-limit 32M --no-verify --dir "$d"
	kill_at=""
	check "$T SIGKILL: lrutop was killed with its limit in place" \
		'[ "$rc" -eq 137 ] && [ "$(w max)" = "$lim32" ]' "exit $rc; $(show /tmp/watch)"
	wait_for 30 '[ -z "$(pidof lrutop)" ]' 0.1
	check "$T SIGKILL: memory left on at the root, its marker there" \
		'grep -qw memory $cg/cgroup.subtree_control && ls /run/lrutop | grep -q "^subtree-"' \
		"root: $(cat $cg/cgroup.subtree_control); $(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	_k=$d
	run next -q -s rw_cp --size 1M --no-verify --dir "$_k"
	check "$T SIGKILL: the next start: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show /tmp/err)"
	check "$T SIGKILL: the next start removed the marker" \
		'[ -z "$(ls /run/lrutop 2>/dev/null | grep subtree-)" ]' "$(ls /run/lrutop 2>&1 | tr '\n' ' ')"
	same_state "SIGKILL, then the next start (the root's subtree_control empty again)"
	no_scratch "SIGKILL, then the next start" "$_k"
}

case "$mode" in
session | mglru | bare) "$mode"; echo "# guest.sh $mode: done" ;;
*) notok "$T" "unknown mode" ;;
esac
