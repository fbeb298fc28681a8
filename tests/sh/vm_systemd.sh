#!/bin/sh
# tests/run: once
# tests/run: timeout 1800
# tests/run: vm
# lrutop where most users start it: as root in a login session's scope
# (/user.slice/user-0.slice/session-N.scope) of a real systemd, cgroup v2
# only.  tools/vm/systemd-guest boots Debian 12 (systemd as PID 1) in qemu
# and runs the guest half below from `su -l` (pam_systemd -> logind), with
# this build's lrutop copied in.  Asserted in the guest:
#  - --mem-limit 32M: the copies run in a child of lrutop inside a cgroup
#    whose memory.max is 32M; its file pages never above that; exit 0
#  - --disk-limit 8M: io.max rbps=8M on the scratch disk (vdb); rw_cp at
#    most 8.5 MiB/s (the unthrottled copy reaches ~11-20 under TCG)
#  - after each run: no lrutop-* cgroup, no lrutop* unit, and the
#    cgroup.subtree_control of /, /user.slice and user-0.slice as before
#  - a failed run (--cmd false, in its limit): exit 1, nothing left
#  - SIGKILL of lrutop mid-run: the next start leaves nothing (cgroups,
#    units, the old scratch directory)
#  - --demo: its 40M cgroup and 32M/s throttle apply, and batch stderr says
#    nothing is left out
# Under TCG only functional facts count: no timing ratio is asserted.
. "$(dirname "$0")/lib.sh"
T=vm_systemd
tool=tools/vm/systemd-guest

[ "$(id -u)" -eq 0 ] || { skip "$T" "needs root (mmdebstrap's image, the guest's run cgroups)"; exit 0; }
for c in qemu-system-x86_64 mmdebstrap cpio; do
	command -v $c >/dev/null 2>&1 || { skip "$T" "$c not found (make deps)"; exit 0; }
done
[ -f "${VM_KERNEL:-/boot/vmlinuz-6.1.0-57-amd64}" ] ||
	{ skip "$T" "no ${VM_KERNEL:-/boot/vmlinuz-6.1.0-57-amd64} (make deps)"; exit 0; }
# an ASan build needs its runtime in the guest; the plain build is the one
ldd "$LRUTOP" 2>/dev/null | grep -q libasan && { skip "$T" "$LRUTOP is an ASan build"; exit 0; }

tmp=$(mktemp -d /tmp/lrutop-vm_systemd.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

t0=$(date +%s)
if "$tool" build 2>"$tmp/build.err"; then
	# (a prebuild started by make check may have made it meanwhile: then
	# this is how long the suite waited for it)
	where=${VM_IMAGES:-}
	[ -z "$where" ] && [ -n "${VM_BUILD:-}${VM_CACHE:-}" ] && where=${VM_BUILD:-$VM_CACHE}/systemd-guest
	ok "$T image: Debian 12 with systemd ($(($(date +%s) - t0)) s; cached in ${where:-/var/cache/lrutop-vm})"
else
	notok "$T image" "$(tail -n 5 "$tmp/build.err")"
	exit 1
fi

# ---- the guest half (dash, in /mnt/scratch/payload, lib.sh beside it) ----
cat >"$tmp/guest.sh" <<'GUEST'
. ./lib.sh
T=vm_systemd
cg=/sys/fs/cgroup
export SYSTEMD_PAGER=cat SYSTEMD_COLORS=0

me=$(sed -n 's/^0:://p' /proc/self/cgroup)
case "$me" in
/user.slice/user-0.slice/session-*.scope)
	if [ "$(cat /proc/1/comm)" = systemd ] && ! grep -q ' cgroup ' /proc/mounts; then
		ok "$T: root in a login session's scope ($me), systemd as PID 1, cgroup v2 only"
	else
		notok "$T: systemd, cgroup v2 only" "pid 1 $(cat /proc/1/comm); $(grep cgroup /proc/mounts | tr '\n' ' ')"
	fi
	;;
*)
	notok "$T: in a login session's scope" "/proc/self/cgroup: $(cat /proc/self/cgroup)"
	echo "# guest done"
	exit 1
	;;
esac

ctl() { for c in "" /user.slice /user.slice/user-0.slice; do echo "${c:-/}: $(cat $cg$c/cgroup.subtree_control)"; done; }
ctl_before=$(ctl)
echo "# subtree_control before: $(echo "$ctl_before" | tr '\n' ';')"
vdb=$(cat /sys/block/vdb/dev)

# what lrutop made and may leave: cgroups lrutop-*, units lrutop*
traces() {
	find $cg -type d -name 'lrutop-*' 2>/dev/null
	systemctl list-units --all --no-legend --plain 'lrutop*' 2>/dev/null | awk '{ print "unit " $1 " " $3 "/" $4 }'
}
# gone NAME: nothing of lrutop's left (systemd stops an emptied scope on
# its own time: polled), and the controllers as they were
gone() {
	if wait_for 15 '[ -z "$(traces)" ]' 0.2; then
		ok "$T $1: no lrutop cgroup or unit left"
	else
		notok "$T $1: no lrutop cgroup or unit left" "$(traces | tr '\n' ' ')"
	fi
	_t0=$(now_cs)
	if wait_for 10 '[ "$(ctl)" = "$ctl_before" ]' 0.2; then
		_t=$(($(now_cs) - _t0))
		ok "$T $1: subtree_control of /, /user.slice, user-0.slice unchanged$([ $_t -gt 50 ] && echo " (again after $((_t / 100)).$((_t / 10 % 10)) s)")"
	else
		notok "$T $1: subtree_control of /, /user.slice, user-0.slice unchanged" \
			"before: $(echo "$ctl_before" | tr '\n' ';') after: $(ctl | tr '\n' ';')"
	fi
}

# desc_of P A: P is A or one of A's descendants
desc_of() {
	_p=$1
	while [ -n "$_p" ] && [ "$_p" -gt 1 ] 2>/dev/null; do
		[ "$_p" = "$2" ] && return 0
		_p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$_p/status" 2>/dev/null)
	done
	return 1
}
# watch LPID: while LPID runs (240 s at most), every 0.2 s, one line per
# lrutop-* cgroup holding a process of LPID's tree:
#   DIR pid=P self=0|1 max=memory.max io=io.max file=BYTES
watch_runs() {
	_end=$(($(now_cs) + 24000))
	while ! proc_gone "$1" && [ "$(now_cs)" -lt $_end ]; do
		for _d in $(find $cg -type d -name 'lrutop-*' 2>/dev/null); do
			for _q in $(cat "$_d/cgroup.procs" 2>/dev/null); do
				desc_of "$_q" "$1" || continue
				_s=0
				[ "$_q" = "$1" ] && _s=1
				_m=$(cat "$_d/memory.max" 2>/dev/null)
				_i=$(tr ' ' , 2>/dev/null <"$_d/io.max")
				_f=$(awk '$1 == "file" { print $2 }' "$_d/memory.stat" 2>/dev/null)
				# a cgroup removed while we read it (its run just ended):
				# what was read after the rmdir is empty, so drop it all
				# (seen once: max= read, then io= and file= empty)
				{ [ -d "$_d" ] && { [ -n "$_f" ] || [ -n "$_i" ]; }; } || break
				echo "$_d pid=$_q self=$_s max=${_m:-none} io=$_i file=$_f"
				break
			done
		done
		sleep 0.2
	done
}
# seen_ok NAME FILE MAX IO: the watch saw run cgroups, each holding a child
# of lrutop (not lrutop), with memory.max MAX (and io.max containing IO)
seen_ok() {
	if [ ! -s "$2" ]; then
		notok "$T $1: a run cgroup held the copy" "no lrutop-* cgroup with a process of lrutop's seen"
		return
	fi
	_bad=$(awk -v max="$3" -v io="$4" '{
		for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = substr($i, length(kv[1]) + 2) }
		if (v["self"] != 0 || v["max"] != max || (io != "" && index(v["io"], io) == 0)) { print; exit }
	}' "$2")
	if [ -z "$_bad" ]; then
		ok "$T $1: the copies ran in a child of lrutop in $(awk '{ print $1 }' "$2" | sort -u | sed 's|.*/user-0.slice/||' | tr '\n' ' ')(memory.max $3${4:+, io.max $4})"
	else
		notok "$T $1: the copies in a child of lrutop, memory.max $3${4:+, io.max $4}" "$_bad"
	fi
}
# results_ok NAME FILE OK STRATEGY...: each strategy's line in the -q table
# has OK in its ok column (yes: verified; -: not verified, --no-verify or the demo)
results_ok() {
	_n=$1 _f=$2 _w=$3
	shift 3
	for _s; do
		if awk -v s="$_s" -v w="$_w" '$1 == s && $2 == 1 && $NF == w { f = 1 } END { exit !f }' "$_f"; then
			ok "$T $_n: $_s copied$([ "$_w" = yes ] && echo " and verified")"
		else
			notok "$T $_n: $_s copied (ok column $_w)" "$(grep -F -- "$_s" "$_f" | head -c 300)"
		fi
	done
}

mkdir -p "$SCRATCH/mem" "$SCRATCH/disk" "$SCRATCH/fail" "$SCRATCH/kill" "$SCRATCH/demo" || exit 2

# ---- --mem-limit 32M ----
lrt_fresh out err
"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp,mm_sync_cp --size 64M --mem-limit 32M --dir "$SCRATCH/mem" >out 2>err &
lp=$!
watch_runs $lp >seen
wait $lp
st=$?
[ $st -eq 0 ] && ok "$T mem-limit: exit 0" || notok "$T mem-limit: exit 0" "exit $st: $(head -c 400 err)"
seen_ok mem-limit seen 33554432
results_ok mem-limit out yes rw_cp mm_sync_cp
fmax=$(awk '{ for (i = 2; i <= NF; i++) if ($i ~ /^file=/) { v = substr($i, 6) + 0; if (v > m) m = v } } END { print m + 0 }' seen)
[ "$fmax" -gt 0 ] && [ "$fmax" -le 33554432 ] && ok "$T mem-limit: the run cgroup's file pages at most 32M (max seen $fmax)" ||
	notok "$T mem-limit: the run cgroup's file pages at most 32M" "max seen $fmax"
gone mem-limit

# ---- --disk-limit 8M ----
# 32M, not verified (as vm.sh's guest): 4 s at 8 MiB/s; reading both files
# back through the same throttle was 16 s of the guest's time, and the
# copies under --mem-limit above are verified
lrt_fresh out err
"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp --size 32M --disk-limit 8M --no-verify --dir "$SCRATCH/disk" >out 2>err &
lp=$!
watch_runs $lp >seen
wait $lp
st=$?
[ $st -eq 0 ] && ok "$T disk-limit: exit 0" || notok "$T disk-limit: exit 0" "exit $st: $(head -c 400 err)"
seen_ok disk-limit seen max "$vdb,rbps=8388608"
results_ok disk-limit out - rw_cp@8M
rate=$(awk '$1 == "rw_cp@8M" && $2 == 1 { print $11; exit }' out)
awk -v r="$rate" 'BEGIN { exit !(r != "" && r + 0 <= 8.5) }' && ok "$T disk-limit: rw_cp at most 8.5 MiB/s ($rate)" ||
	notok "$T disk-limit: rw_cp at most 8.5 MiB/s" "${rate:-no rate}: $(head -c 300 out)"
gone disk-limit

# ---- a failed run (--cmd false) in its limit ----
lrt_fresh out err
"$LRUTOP" --batch -q --cmd false --size 4M --mem-limit 32M --dir "$SCRATCH/fail" >out 2>err
st=$?
[ $st -eq 1 ] && ok "$T failed run: exit 1" || notok "$T failed run: exit 1" "exit $st: $(head -c 400 err)"
gone "failed run"
lrt_empty "$SCRATCH/fail" && ok "$T failed run: its scratch directory removed" ||
	notok "$T failed run: its scratch directory removed" "$(ls -A "$SCRATCH/fail")"

# ---- SIGKILL mid-run, then the next start ----
lrt_fresh out err
"$LRUTOP" --batch -q --stall-timeout 0 -s mm_sync_cp --size 64M --mem-limit 32M --disk-limit 8M --dir "$SCRATCH/kill" >out 2>err &
lp=$!
# (cgroup files have no size: read them)
if wait_for 120 '[ -n "$(find $cg -type d -name "lrutop-$lp-*" 2>/dev/null | while read -r d; do cat "$d/cgroup.procs"; done)" ] || proc_gone $lp' 0.2 && ! proc_gone $lp; then
	echo "# subtree_control mid-run (systemd's, for the delegated scope): $(ctl | tr '\n' ';')"
	kill -9 $lp
	{ wait $lp; } 2>/dev/null # not the shell's "Killed" line
	echo "# SIGKILLed lrutop $lp mid-run; left before the next start: $(traces | tr '\n' ' ')"
	lrt_fresh out2 err2
	"$LRUTOP" --batch -q --stall-timeout 0 -s rw_cp --size 4M --mem-limit 32M --dir "$SCRATCH/kill" >out2 2>err2
	st=$?
	echo "# the next start said: $(head -c 300 err2)"
	[ $st -eq 0 ] && ok "$T SIGKILL: the next start exits 0" || notok "$T SIGKILL: the next start exits 0" "exit $st: $(head -c 400 err2)"
	gone SIGKILL
	if wait_for 10 '! pgrep -f "^$LRUTOP" >/dev/null'; then
		ok "$T SIGKILL: no lrutop process left"
	else
		notok "$T SIGKILL: no lrutop process left" "$(pgrep -af "^$LRUTOP" | head -c 300)"
	fi
	lrt_empty "$SCRATCH/kill" && ok "$T SIGKILL: the killed run's scratch directory removed" ||
		notok "$T SIGKILL: the killed run's scratch directory removed" "$(ls -A "$SCRATCH/kill")"
else
	notok "$T SIGKILL: a run cgroup appeared to kill lrutop in" "exit? $(head -c 400 err)"
	kill -9 $lp 2>/dev/null
	wait $lp
fi

# ---- --demo (2008: 40M cgroup, 32M/s disk), a small source for TCG ----
# (32M: the limits are what is asserted here, not a sawtooth)
lrt_fresh out err
"$LRUTOP" --demo --batch -q --stall-timeout 0 --size 32M --dir "$SCRATCH/demo" >out 2>err &
lp=$!
watch_runs $lp >seen
wait $lp
st=$?
[ $st -eq 0 ] && ok "$T demo: exit 0" || notok "$T demo: exit 0" "exit $st: $(head -c 400 err)"
seen_ok demo seen 41943040 "$vdb,rbps=33554432"
results_ok demo out - rw_cp@32M mm_sync_cp@32M mm_sync_madv_cp@32M
if grep -qi 'without\|no memory pressure\|no disk throttle\|left out' err; then
	notok "$T demo: batch stderr says no limit was left out" "$(head -c 400 err)"
else
	ok "$T demo: batch stderr says no limit was left out"
fi
gone demo
# the delegated scope itself (tests/vm/systemd-scope.sh): the leaf, the
# unit beside the session, SIGKILL with a --cmd's children inside, --disk-limit
# alone, --probe beside a limited run
mkdir -p "$SCRATCH/scope"
SCRATCH=$SCRATCH/scope sh ./systemd-scope.sh 2>&1 |
	sed 's/^ok - /ok - vm_systemd scope: /; s/^not ok - /not ok - vm_systemd scope: /'
echo "# guest done"
GUEST

VM_TIMEOUT=${VM_TIMEOUT:-1200} "$tool" run "$tmp/guest.sh" tests/sh/lib.sh tests/vm/systemd-scope.sh >"$tmp/out" 2>"$tmp/err"
rc=$?
cat "$tmp/out"
sed 's/^/# /' "$tmp/err"
if [ $rc -eq 125 ] || ! grep -qx '# guest done' "$tmp/out"; then
	notok "$T guest: ran to its end" "exit $rc; $(tail -n 3 "$tmp/err" | tr '\n' ' ')"
fi
exit 0
