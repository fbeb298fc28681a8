#!/bin/sh
# tests/run: once
# tests/run: vm
# MGLRU for real (issue 14 §3): Debian's 6.1 kernel under qemu
# (tools/vm/run, cgroup v2) with /sys/kernel/mm/lru_gen/enabled on and
# debugfs not mounted.  lrutop --batch, as root, runs rw_cp and mm_sync_cp
# on a 64 MiB source under --mem-limit 32M:
#  - said: batch stderr's first lines are the MGLRU notes, and so are the
#    lines under the results;
#  - drawn: lrutop mounted debugfs to read lru_gen, its recording carries
#    the run's memcg's generations ("lg0"...) and debugfs is unmounted again;
#  - without debugfs (a tmpfs over /sys/kernel/debug, so there is no
#    lru_gen and nothing to mount): said so on stderr and in the
#    recording's notes, no generations recorded, and the lists' rule
#    still tells the two apart;
#  - bursts: mm_sync_cp has at least one, rw_cp none.  Under TCG the
#    timings are emulated, so only these counts are asserted: in nine runs
#    of each (three VMs, --repeat 3) mm_sync_cp had 3-4 bursts, its two
#    youngest generations falling by 0.9-3.1x the limit per second at
#    agings (the rule: 0.25x), and rw_cp never aged during its copy
#    (docs/mglru.md).
. "$(dirname "$0")/lib.sh"

T=mglru_vm
names="said drawn unmounted bursts-mm_sync_cp bursts-rw_cp lists-said lists-bursts"
# vm.sh's checks: what the VM needs, not who runs it
kernel=/boot/vmlinuz-6.1.0-57-amd64
[ -r "$kernel" ] || kernel=$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)
why=""
[ -x tools/vm/run ] || why="no tools/vm/run in this tree"
[ -n "$why" ] || command -v qemu-system-x86_64 >/dev/null || why="no qemu-system-x86_64 (tools/deps: qemu-system-x86)"
[ -n "$why" ] || [ -r "${kernel:-/nonexistent}" ] || why="no kernel in /boot (tools/deps: linux-image-amd64)"
[ -n "$why" ] || command -v busybox >/dev/null || why="no busybox (tools/deps: busybox-static)"
[ -n "$why" ] || ! ldd "$(command -v busybox)" >/dev/null 2>&1 || why="busybox is not static (tools/deps: busybox-static)"
[ -n "$why" ] || [ -r "$kernel" ] || why="cannot read $kernel"
if [ -n "$why" ]; then
	for m in $names; do skip "$T $m" "$why"; done
	exit 0
fi

tmp=$(mktemp -d /tmp/lrutop-mglru.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
# --layout root: lrutop in the v2 root cgroup (its session-scope path is
# another test's, vm.sh's).  The script is the guest's: $OUT is its own.
# shellcheck disable=SC2016
if ! tools/vm/run -q --kernel "$kernel" --lrutop "$LRUTOP" --lru-gen y --layout root --out "$tmp" \
	--timeout "${VM_TIMEOUT:-600}" -c '
	run() { n=$1; shift; lrutop --batch --stall-timeout 0 -s rw_cp,mm_sync_cp --size 64M --mem-limit 32M "$@" \
		--results $OUT/res$n.csv --record $OUT/rec$n.jsonl >$OUT/out$n 2>$OUT/err$n; }
	mount -t tmpfs -o size=1m none /sys/kernel/debug && { run 2 --repeat 2; umount /sys/kernel/debug; }
	grep -q debugfs /proc/mounts && echo "debugfs mounted before" >$OUT/pre
	run ""
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
# the bursts column of --results (FILE STRATEGY [max|min]): the first row's,
# or the most / fewest over the strategy's rows (--repeat)
bursts() {
	awk -F, -v s="$2" -v how="${3:-}" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "bursts") c = i; next }
		$1 == s { if (how == "") { print $c; exit }
			if (v == "" || (how == "max" ? $c + 0 > v + 0 : $c + 0 < v + 0)) v = $c }
		END { if (how != "") print v }' "$1"
}
b=$(bursts "$tmp/res.csv" mm_sync_cp)
check "$T bursts-mm_sync_cp" "[ '${b:-0}' -ge 1 ]" "mm_sync_cp bursts: '$b'"
b=$(bursts "$tmp/res.csv" rw_cp)
check "$T bursts-rw_cp" "[ '$b' = 0 ]" "rw_cp bursts: '$b'"
check "$T lists-said" "grep -q 'no debugfs lru_gen: the chart shows the lists' '$tmp/err2' &&
	head -n 1 '$tmp/rec2.jsonl' | grep -q 'no /sys/kernel/debug/lru_gen' &&
	! grep -q '\"lg0\":' '$tmp/rec2.jsonl'" "stderr: $(head -n 2 "$tmp/err2" 2>/dev/null)"
# the lists' rule is the coarser one: under TCG, beside other suites, one
# mm_sync_cp run in twenty or so had none, so two runs of each (--repeat 2)
# and one of mm_sync_cp's must burst, neither of rw_cp's
bm=$(bursts "$tmp/res2.csv" mm_sync_cp max)
br=$(bursts "$tmp/res2.csv" rw_cp max)
check "$T lists-bursts" "[ '${bm:-0}' -ge 1 ] && [ '$br' = 0 ]" \
	"mm_sync_cp at most '$bm', rw_cp at most '$br': $(tr '\n' '|' <"$tmp/res2.csv" | cut -c1-300)"
