#!/bin/sh
# tests/run: once
# tests/run: alone
# rdCV under a disk limit that aliases (burst.h): the 2008 demo's cgroup
# with rw_cp at --disk-limit 30M (both strategies under ASan), one lrutop per
# interval (-i 0.1, 0.25, 1).  30 MiB/s is 3.75 of this disk's 8 MiB
# read-ahead windows a second, so per sample a flat copy read 0, 1 or 2
# windows (rw_cp's rdCV 1.35 at 0.1 s, 0.34 at 0.25 s); over the buckets
# lrutop takes it reads flat: rdCV < 0.4 at each interval.
#
# Not asserted: the issue's "mm_sync_cp's rdCV at least 2x rw_cp's".
# Under the throttle mm_sync_cp's own read rate saws below a second
# (stall, then the throttle's catch-up; its CV over 0.25, 0.5, 1, 1.6 s
# buckets 0.81, 0.38, 0.14, 0.08), the same scale the aliasing needs to
# average out, so over buckets free of aliasing its rdCV was 0.66-3.1x
# rw_cp's from run to run (runs of this script).  Its figures and the
# ratio are in docs/output.md; mm_sync_cp's sawtooth is asserted by
# demo.sh (bursts; at 32M, where samples are whole windows, its rdCV).
# Both strategies' rdCV come from the runs' own blkio bytes (--results).
#
# What does separate the two at every interval is rd/cp (sawtooth.h, the
# last --results column, read_ratio): the bytes a run read per byte it
# copied.  Asserted here at -i 0.1, the interval where the issue found
# rdCV failing: mm_sync_cp on the same 160 MiB reads it about twice
# (2.11 measured; 1.84-2.24 on 320 MiB, docs/output.md), rw_cp once.
#
# ~30 s (three 160 MiB copies by rw_cp at 30 MiB/s, one by mm_sync_cp):
# once per tests/run; an ASan build (BUILD *asan*) runs one small pair only.
. "$(dirname "$0")/lib.sh"

T=spreads
base=$(mktemp -d /var/tmp/lrt-spreads.XXXXXX) || exit 2
trap 'rm -rf "$base"' EXIT
trap 'exit 2' INT TERM HUP
show() { tr '\n' '|' <"$1" | cut -c1-400; }

if [ "$(id -u)" -ne 0 ]; then
	skip "$T" "needs root (memory cgroup, disk throttle, drop caches)"
	exit 0
fi
if ! lrt_cgroot >/dev/null || [ -z "$(lrt_ioroot)" ]; then
	skip "$T" "no memory cgroup or no io controller to throttle with"
	exit 0
fi
dev=$(find_disk "$base")
ra=$(cat "/sys/block/$dev/queue/read_ahead_kb" 2>/dev/null)
if [ "$ra" != 8192 ]; then
	skip "$T" "the figures are for 8 MiB read-ahead windows ($dev has ${ra:-?} KiB)"
	exit 0
fi

# run INTERVAL SIZE [STRATEGIES]: under the 2008 demo's 40M cgroup
run() {
	"$LRUTOP" --batch -q --demo -s "${3:-rw_cp,mm_sync_cp}" --disk-limit 30M -i "$1" \
		--src "$base/src$2" --dir "$base" --results "$base/r$1.csv" \
		</dev/null >"$base/out" 2>"$base/err"
}
# cv STRATEGY INTERVAL: its rdCV; results: strategy(1),...,read_cv(13)
cv() { awk -F, -v s="$1@30M" '$1 == s { print $13 }' "$base/r$2.csv"; }
# rr STRATEGY FILE: its rd/cp, the last column (read_ratio)
rr() { awk -F, -v s="$1@30M" 'NR == 1 && $NF != "read_ratio" { exit } $1 == s { print $NF }' "$2"; }

case "$BUILD" in
*asan*)
	head -c $((24 * 1048576)) /dev/urandom >"$base/src24"
	run 0.1 24
	rc=$?
	check "$T (ASan, 24M source): both copies, the bucket named under the table" \
		'[ "$rc" -eq 0 ] && [ "$(grep -c "@30M,1," "$base/r0.1.csv")" -eq 2 ] && grep -q "^  rdCV, wrCV, rd@b: over buckets of [0-9.-]* s " "$base/out"' \
		"exit $rc; out: $(show "$base/out"); stderr: $(show "$base/err")"
	check "$T (ASan): both runs have their rd/cp" \
		'[ -n "$(rr rw_cp "$base/r0.1.csv")" ] && [ -n "$(rr mm_sync_cp "$base/r0.1.csv")" ]' \
		"results: $(show "$base/r0.1.csv")"
	skip "$T: figures" "ASan build: the figures are measured in the plain build"
	exit 0
	;;
esac

# rw_cp alone on 160 MiB (~5.5 s a run, what make check can afford; the
# flatness is rw_cp's): mm_sync_cp's figures beside it are in the man
# page's note and in the commit that made the buckets.
head -c $((160 * 1048576)) /dev/urandom >"$base/src160"
# bucket_ok / flat_ok: the figures of the run at interval $i
bucket_ok() {
	[ "$rc" -eq 0 ] && [ "$(grep -c "@30M,1," "$base/r$i.csv")" -eq 1 ] &&
		awk -v n="${note%% s}" -v w="$want" 'BEGIN { split(w, r, " "); k = split(n, b, "-"); exit !(k >= 1 && b[1] + 0 >= r[1] && b[k] + 0 <= r[2]) }'
}
flat_ok() { awk -v a="$rw" 'BEGIN { exit !(a != "" && a < 0.4) }'; }
one() { # INTERVAL: the run, its rc, rdCV and the bucket the note names
	rm -f "$base/r$1.csv"
	run "$1" 160 rw_cp
	rc=$?
	rw=$(cv rw_cp "$1")
	note=$(sed -n 's/^  rdCV, wrCV, rd@b: over buckets of \([0-9.-]* s\).*/\1/p' "$base/out")
}
for i in 0.1 0.25 1; do
	# 8 MiB windows at 30M: 8 samples (0.8 s), 4 (1 s), 1 (1 s); the
	# note gives the runs' mean bucket, the remainder joined to the last
	case $i in
	0.1) want="0.78 0.95" ;;
	0.25) want="0.98 1.25" ;;
	*) want="0.98 1.25" ;;
	esac
	one "$i"
	# the buckets are whole samples: ticks a busy machine delays (beside
	# the hog at load 16, -i 0.1's were 0.74 s) move them; once more then
	if ! bucket_ok || ! flat_ok; then
		echo "# retry: -i $i: exit $rc, buckets of ${note:-?} (want $want s), rdCV ${rw:-?} (want < 0.4): ticks held up?"
		one "$i"
	fi
	check "$T: -i $i: exit 0, the result, the bucket named ($note)" bucket_ok \
		"exit $rc; out: $(show "$base/out"); stderr: $(show "$base/err")"
	check "$T: -i $i: rw_cp reads flat at 30M (rdCV $rw < 0.4)" flat_ok "rdCV '$rw'"
done

# rd/cp at -i 0.1: mm_sync_cp beside the rw_cp run above (r0.1.csv)
"$LRUTOP" --batch -q --demo -s mm_sync_cp --disk-limit 30M -i 0.1 --src "$base/src160" \
	--dir "$base" --results "$base/rmm.csv" </dev/null >"$base/out" 2>"$base/err"
rc=$?
a=$(rr mm_sync_cp "$base/rmm.csv") b=$(rr rw_cp "$base/r0.1.csv")
echo "# -i 0.1 at 30M: rd/cp mm_sync_cp $a, rw_cp $b; rdCV mm_sync_cp" \
	"$(awk -F, '$1 == "mm_sync_cp@30M" { print $13 }' "$base/rmm.csv"), rw_cp $(cv rw_cp 0.1)"
check "$T: -i 0.1: mm_sync_cp reads its source about twice, rw_cp once (rd/cp $a >= 1.5 and 1.5x $b; $b <= 1.15)" \
	'[ "$rc" -eq 0 ] && awk -v a="$a" -v b="$b" "BEGIN { exit !(a != \"\" && b != \"\" && a >= 1.5 && a >= 1.5 * b && b <= 1.15) }"' \
	"exit $rc; rd/cp mm_sync_cp '$a', rw_cp '$b'; stderr: $(show "$base/err")"
