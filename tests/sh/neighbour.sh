#!/bin/sh
# Bursts belong to the run (burst.h): beside a real neighbour — a second
# lrutop copying with mm_sync_cp in its own 64M memory cgroup, so the
# system-wide pgdeactivate runs at its pace — an rw_cp run under 64M must
# still show 0 bursts, while the neighbour's own mm_sync_cp runs show
# bursts.  Before, v1 took the system count and gave rw_cp up to 10.
. "$(dirname "$0")/lib.sh"

base=$(mktemp -d /var/tmp/lrt-nb.XXXXXX) || exit 2
tmp=$(mktemp -d /tmp/lrutop-nb.XXXXXX) || exit 2
bg=""
cgroot=$(lrt_cgroot) || cgroot=""
cleanup() {
	[ -n "$bg" ] && lrt_stop "$bg"
	rm -rf "$base" "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
show() { tr '\n' '|' <"$1" | cut -c1-300; }
# col FILE STRATEGY N: column N of every results row of STRATEGY
col() { awk -F, -v s="$2" -v n="$3" '$1 == s { print $n }' "$1"; }

T="neighbour:"
if [ "$(id -u)" -ne 0 ] || [ -z "$cgroot" ] || [ ! -w "$cgroot" ]; then
	skip "$T" "needs root and a writable memory cgroup"
	exit 0
fi

# rw_cp's source first, so its run starts at once.
head -c $((512 << 20)) /dev/urandom >"$base/src" || exit 2
lrt_newdir
"$LRUTOP" --batch -q -s mm_sync_cp --repeat 2 --size 1G --mem-limit 64M --no-verify \
	--dir "$d" --csv "$tmp/nb.csv" --results "$tmp/nb-res.csv" </dev/null >"$tmp/nb.out" 2>&1 &
bg=$!
if ! wait_for 40 'grep -q ",mm_sync_cp,copy$" "$tmp/nb.csv" 2>/dev/null' 0.05; then
	notok "$T neighbour is copying" "no copy phase in its --csv after 40 s: $(show "$tmp/nb.out")"
	exit 0
fi
lrt_newdir
timeout 60 "$LRUTOP" --batch -q -s rw_cp --repeat 2 --src "$base/src" --mem-limit 64M --no-verify \
	--dir "$d" --csv "$tmp/rw.csv" --results "$tmp/rw-res.csv" </dev/null >"$tmp/rw.out" 2>&1
rc=$?
check "$T rw_cp run ok" '[ "$rc" -eq 0 ]' "exit $rc: $(show "$tmp/rw.out")"

# The system deactivated pages at the old rule's threshold (a quarter of
# 64M per second = 4096 pages/s) while rw_cp copied: the neighbour was busy.
peak=$(awk -F, '$24 == "rw_cp" && $25 == "copy" && $14 != "" { if ($14 + 0 > m) m = $14 + 0 }
	END { printf "%d", m }' "$tmp/rw.csv")
old=$(awk -F, '$24 == "rw_cp" && $25 == "copy" {
		if (p != "" && $19 + 0 < p && $14 + 0 >= 4096) n++; p = $19 }
	END { printf "%d", n }' "$tmp/rw.csv")
echo "# system pgdeactivate during rw_cp's copy: up to $peak/s; the old v1 rule: $old bursts"
check "$T the neighbour was reclaiming during rw_cp's copy" '[ "$peak" -ge 4096 ]' \
	"system pgdeactivate peaked at $peak/s"
br=$(col "$tmp/rw-res.csv" rw_cp 18)
check "$T rw_cp 0 bursts" '[ "$(echo $br)" = "0 0" ]' "bursts $(echo $br)"

if wait_for 50 "proc_gone $bg" 0.1; then
	wait "$bg"
	rc=$?
	bg=""
	bm=$(col "$tmp/nb-res.csv" mm_sync_cp 18 | tr '\n' ' ')
	echo "# neighbour mm_sync_cp bursts: $bm"
	check "$T neighbour ok" '[ "$rc" -eq 0 ]' "exit $rc: $(show "$tmp/nb.out")"
	check "$T neighbour's mm_sync_cp runs burst" \
		'[ -n "$bm" ] && (for b in $bm; do [ "$b" -gt 0 ] || exit 1; done)' "bursts '$bm'"
else
	notok "$T neighbour ok" "still running after 50 s"
fi
