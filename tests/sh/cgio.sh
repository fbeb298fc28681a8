#!/bin/sh
# tests/run: alone
# A run's own read rate (cgio.h): while a neighbour reads a 512 MiB file
# from the same disk at full speed (dd iflag=direct in a loop), rw_cp under
# --disk-limit 30M -m 40M reads at 30 MiB/s +-15 % by the per-sample
# figures lrutop records from its cgroup (their median over the copy
# phase; measured 32.0 in 4 runs, the mean 27.4), while the disk reads more
# than twice that (540-860 MiB/s measured); a replay gives the same
# --results; a run with only -m is in an io/blkio cgroup too (its samples
# carry the bytes); the cgroups are gone afterwards.  ~11 s.
. "$(dirname "$0")/lib.sh"

T=cgio
base=$(mktemp -d /var/tmp/lrt-cgio.XXXXXX) || exit 2
tmp=$(mktemp -d /tmp/lrutop-cgio.XXXXXX) || exit 2
nb="" bg=""
cgroot=$(lrt_cgroot) || cgroot=""
cleanup() {
	[ -n "$bg" ] && lrt_stop "$bg"
	if [ -n "$nb" ]; then # the neighbour stops after its current pass
		: >"$tmp/stop"
		kill "$nb" 2>/dev/null
		wait_for 30 "proc_gone $nb" 0.1
	fi
	rm -rf "$base" "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
show() { tr '\n' '|' <"$1" | cut -c1-300; }

ior=$(lrt_ioroot) || ior=""
disk=$(find_disk "$base") || disk=""
if [ "$(id -u)" -ne 0 ] || [ -z "$ior" ] || [ -z "$cgroot" ] || [ -z "$disk" ] ||
	! command -v jq >/dev/null 2>&1; then
	skip "$T" "needs root, the io/blkio and memory cgroup controllers, $base on a disk and jq"
	exit 0
fi

# -- the neighbour: a 512 MiB file of its own, read past the page cache ----
dd if=/dev/zero of="$base/big" bs=1M count=512 conv=fsync 2>/dev/null || exit 2
(while [ ! -e "$tmp/stop" ]; do dd if="$base/big" of=/dev/null bs=1M iflag=direct 2>/dev/null; done) &
nb=$!

# From the recording: run 0's copy-phase samples (the phase index from the
# header), the median of its own per-sample read rate (robust to the ticks
# where rw_cp waits for write-back under 40M) and the disk's mean rate.
rates() {
	jq -rs '(.[0].phases | index("copy")) as $c
		| [.[] | select(.k == "sample" and .run == 0 and .ph == $c)]
		| if length < 4 then "- -" else
		  . as $s | (.[0]) as $a | (.[-1]) as $b
		  | [range(1; length) | ($s[.].gir - $s[. - 1].gir) / 1048576
			/ (($s[.].t - $s[. - 1].t) / 1e9)] | sort as $r
		  | ($r[($r | length) / 2 | floor]) as $med
		  | "\($med) \(($b.rse - $a.rse) * 512 / 1048576 / (($b.t - $a.t) / 1e9))"
		  end' "$1" 2>/dev/null || echo "- -"
}

lrt_newdir
lrt_fresh "$tmp/out" "$tmp/err"
"$LRUTOP" --batch -q -i 0.25 -s rw_cp --size 64M -m 40M --disk-limit 30M --no-verify \
	--dir "$d" --record "$tmp/r.jsonl" --results "$tmp/r.csv" </dev/null >"$tmp/out" 2>"$tmp/err" &
bg=$!
wait_for 120 "proc_gone $bg" 0.1
wait "$bg"
rc=$?
bg_done=$bg bg=""
set -- $(rates "$tmp/r.jsonl")
own=$1 dsk=$2
echo "# rw_cp@30M beside a reader: own $own MiB/s (median of its samples), disk $dsk MiB/s"
check "$T: rw_cp@30M beside a reader: exit 0, a result" \
	'[ "$rc" -eq 0 ] && grep -q "^rw_cp@30M,1," "$tmp/r.csv"' "exit $rc; stderr: $(show "$tmp/err")"
check "$T: the run's own read rate is 30 MiB/s +-15 % ($own)" \
	'awk -v r="$own" "BEGIN { exit !(r + 0 >= 25.5 && r + 0 <= 34.5) }"' \
	"own $own MiB/s, disk $dsk MiB/s; samples with gir: $(grep -c '"gir"' "$tmp/r.jsonl")"
check "$T: ... while the disk read more than twice that ($dsk)" \
	'awk -v r="$own" -v d="$dsk" "BEGIN { exit !(d + 0 > 2 * r && r + 0 > 0) }"' \
	"own $own MiB/s, disk $dsk MiB/s"
"$LRUTOP" --batch -q --replay "$tmp/r.jsonl" --results "$tmp/replay.csv" </dev/null \
	>/dev/null 2>"$tmp/err2"
check "$T: the replay gives the same --results" 'cmp -s "$tmp/r.csv" "$tmp/replay.csv"' \
	"$(diff "$tmp/r.csv" "$tmp/replay.csv" 2>&1 | head -c 300); $(show "$tmp/err2")"
check "$T: rw_cp@30M: its cgroups are gone" \
	'! ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* >/dev/null 2>&1' \
	"left: $(ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* 2>/dev/null)"

# -- only -m: an io cgroup all the same -----------------------------------
lrt_newdir
lrt_fresh "$tmp/out" "$tmp/err"
"$LRUTOP" --batch -q -i 0.1 -s rw_cp --size 16M -m 40M --no-verify --dir "$d" \
	--record "$tmp/m.jsonl" </dev/null >"$tmp/out" 2>"$tmp/err" &
bg=$!
wait_for 60 "proc_gone $bg" 0.1
wait "$bg"
rc=$?
bg_done=$bg bg=""
n=$(grep -c '"gir"' "$tmp/m.jsonl")
check "$T: only -m: the run's samples carry its own bytes" '[ "$rc" -eq 0 ] && [ "$n" -ge 1 ]' \
	"exit $rc, $n samples with gir; stderr: $(show "$tmp/err")"
check "$T: only -m: its cgroups are gone" \
	'! ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* >/dev/null 2>&1' \
	"left: $(ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* 2>/dev/null)"
