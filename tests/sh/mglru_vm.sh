#!/bin/sh
# tests/run: once
# MGLRU for real (issue 14 §3): Debian's 6.1 kernel under qemu
# (tools/vm/run, cgroup v2) with /sys/kernel/mm/lru_gen/enabled on and
# debugfs not mounted.  lrutop --batch, as root, runs rw_cp and mm_sync_cp
# on a 64 MiB source under --mem-limit 32M:
#  - said: batch stderr's first lines are the MGLRU notes, and so are the
#    lines under the results;
#  - drawn: lrutop mounted debugfs to read lru_gen, its recording carries
#    the run's memcg's generations ("lg0"...) and debugfs is unmounted again;
#  - bursts: mm_sync_cp has at least one, rw_cp none.  Under TCG the
#    timings are emulated, so only these counts are asserted: in nine runs
#    of each (three VMs, --repeat 3) mm_sync_cp had 3-4 bursts, its two
#    youngest generations falling by 0.9-3.1x the limit per second at
#    agings (the rule: 0.25x), and rw_cp never aged during its copy
#    (docs/mglru.md).
. "$(dirname "$0")/lib.sh"

T=mglru_vm
names="said drawn unmounted bursts-mm_sync_cp bursts-rw_cp"
why=""
[ -x tools/vm/run ] || why="no tools/vm/run in this tree"
[ -n "$why" ] || command -v qemu-system-x86_64 >/dev/null || why="no qemu-system-x86_64 (tools/deps: qemu-system-x86)"
[ -n "$why" ] || [ "$(id -u)" -eq 0 ] || why="the kernel's modules and /boot need root to read"
if [ -n "$why" ]; then
	for m in $names; do skip "$T $m" "$why"; done
	exit 0
fi

tmp=$(mktemp -d /tmp/lrutop-mglru.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
# --layout root: lrutop in the v2 root cgroup (its session-scope path is
# another test's, vm.sh's)
if ! tools/vm/run -q --lrutop "$LRUTOP" --lru-gen y --layout root --out "$tmp" \
	--timeout "${VM_TIMEOUT:-300}" -c '
	grep -q debugfs /proc/mounts && echo "debugfs mounted before" >$OUT/pre
	lrutop --batch -s rw_cp,mm_sync_cp --size 64M --mem-limit 32M \
		--results $OUT/res.csv --record $OUT/rec.jsonl >$OUT/out 2>$OUT/err
	echo $? >$OUT/rc
	grep debugfs /proc/mounts >$OUT/mounts; true' >"$tmp/vm.log" 2>&1; then
	for m in $names; do notok "$T $m" "the VM failed: $(tail -n 3 "$tmp/vm.log")"; done
	exit 0
fi
rc=$(cat "$tmp/rc" 2>/dev/null)
check "$T said" "[ '$rc' = 0 ] && head -n 1 '$tmp/err' | grep -q '^lrutop: note: MGLRU is on' &&
	grep -q '^note: MGLRU: bursts are agings' '$tmp/out'" \
	"rc $rc; stderr: $(head -n 2 "$tmp/err")"
check "$T drawn" "[ ! -e '$tmp/pre' ] && grep -q '\"k\":\"sample\",.*\"lg0\":' '$tmp/rec.jsonl'" \
	"no generations in the recording"
check "$T unmounted" "[ ! -s '$tmp/mounts' ]" "left: $(cat "$tmp/mounts" 2>/dev/null)"
# the bursts column of --results
bursts() {
	awk -F, -v s="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bursts") c = i; next }
		$1 == s || $2 == s { print $c; exit }' "$tmp/res.csv"
}
b=$(bursts mm_sync_cp)
check "$T bursts-mm_sync_cp" "[ '${b:-0}' -ge 1 ]" "mm_sync_cp bursts: '$b'"
b=$(bursts rw_cp)
check "$T bursts-rw_cp" "[ '$b' = 0 ]" "rw_cp bursts: '$b'"
