#!/bin/sh
# tests/run: alone
# --disk-limit RATE (docs/design.md §3): the run's cgroup throttles the watched
# disk.  A bad rate is one line and exit 2 with nothing created; rw_cp under
# --disk-limit 30M and a 64 MiB memory cgroup copies at 30 MiB/s +-10 % (the
# mean over its copy phase: bytes / (flush - copy) from its own events, so
# other I/O on the disk does not count); the throttle is in place during the
# run and its cgroup is gone afterwards; a run with only --disk-limit gets a
# cgroup too; without root it is refused up front; the TUI header shows it.
. "$(dirname "$0")/lib.sh"

base=$(mktemp -d /var/tmp/lrt-disklimit.XXXXXX) || exit 2
tmp=$(mktemp -d /tmp/lrutop-disklimit.XXXXXX) || exit 2
bg=""
cgroot=$(lrt_cgroot) || cgroot=""
cleanup() {
	[ -n "$bg" ] && lrt_stop "$bg"
	rm -rf "$base" "$tmp"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP
show() { tr '\n' '|' <"$1" | cut -c1-300; }


# 1. A bad RATE: one line, exit 2, nothing made ---------------------------------
for r in abc 0 512K 30X -5M ""; do
	lrt_newdir
	"$LRUTOP" --batch -q -s rw_cp --size 1M --disk-limit "$r" --dir "$d" --csv "$d/s.csv" \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "--disk-limit '$r': exit 2, one lrutop: line naming it" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: --disk-limit $r: " "$tmp/err"' \
		"exit $rc; stderr: $(show "$tmp/err")"
	check "--disk-limit '$r': nothing created" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
done
"$LRUTOP" --help >"$tmp/help" 2>&1
check "--help says v1 does not throttle write-back" \
	'grep -q -- "--disk-limit RATE" "$tmp/help" && grep -q "not write-back" "$tmp/help"' \
	"$(grep -A1 -- --disk-limit "$tmp/help" | tr '\n' '|')"

# Without root no cgroup can be made: said before anything is created.
if [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	lrt_newdir
	chmod 777 "$d"
	runuser -u nobody -- "$LRUTOP" --batch -q -s rw_cp --size 1M --disk-limit 30M --dir "$d" \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "--disk-limit without root: exit 2, says what it needs, nothing created" \
		'[ "$rc" -eq 2 ] && grep -qx "lrutop: --disk-limit needs root and the io (v2) or blkio (v1) cgroup controller (not root)" "$tmp/err" && lrt_empty "$d"' \
		"exit $rc; stderr: $(show "$tmp/err"); left: $(ls -A "$d" | tr '\n' ' ')"
else
	skip "--disk-limit without root" "needs root, runuser and the user nobody"
fi

ior=$(lrt_ioroot) || ior=""
disk=$(find_disk "$base") || disk=""
if [ "$(id -u)" -ne 0 ] || [ -z "$ior" ] || [ -z "$cgroot" ] || [ -z "$disk" ]; then
	why="needs root, the io/blkio and memory cgroup controllers and $base on a disk"
	skip "rw_cp under --disk-limit 30M" "$why"
	skip "only --disk-limit: a cgroup all the same" "$why"
	exit 0
fi
devnum=$(cat "/sys/block/$(echo "$disk" | tr / !)/dev")

# 2. rw_cp at 30 MiB/s ---------------------------------------------------------
lrt_newdir
lrt_fresh "$tmp/out" "$tmp/err"
"$LRUTOP" --batch -i 0.5 -s rw_cp --size 256M --mem-limit 64M --disk-limit 30M --no-verify \
	--dir "$d" --results "$tmp/r.csv" </dev/null >"$tmp/out" 2>"$tmp/err" &
bg=$!
thr=""
if wait_for 60 'for c in "$ior"/lrutop-$bg-*; do [ -d "$c" ] && break; done; [ -d "$c" ]' 0.05; then
	thr=$(cat "$c/blkio.throttle.read_bps_device" "$c/io.max" 2>/dev/null | tr '\n' ' ')
fi
check "throttle in place during the run ($devnum at 31457280 B/s)" \
	'printf "%s" "$thr" | grep -Eq "^$devnum (rbps=)?31457280"' "throttle: '$thr'"
wait_for 120 "proc_gone $bg" 0.1
wait "$bg"
rc=$?
check "throttled run: exit 0" '[ "$rc" -eq 0 ]' "exit $rc; stderr: $(show "$tmp/err")"
bg_done=$bg
bg=""
# the copy phase from the run's own events: "#  12.34 run 1 rw_cp@30M copy"
t0=$(awk '$1 == "#" && $3 == "run" && $6 == "copy" { print $2; exit }' "$tmp/out")
t1=$(awk '$1 == "#" && $3 == "run" && $6 == "flush" { print $2; exit }' "$tmp/out")
rate=$(awk -v a="$t0" -v b="$t1" 'BEGIN { if (b > a) printf "%.1f", 256 / (b - a); else print "?" }')
check "rw_cp@30M reads at 30 MiB/s +-10 % over its copy phase (${rate} MiB/s)" \
	'awk -v r="$rate" "BEGIN { exit !(r >= 27 && r <= 33) }"' \
	"copy $t0 s, flush $t1 s; events: $(grep '^#' "$tmp/out" | tr '\n' '|')"
check "results: the label carries the limit" 'grep -q "^rw_cp@30M,1," "$tmp/r.csv"' \
	"$(show "$tmp/r.csv")"
check "throttled run: blkio and memory cgroups gone" \
	'! ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* >/dev/null 2>&1' \
	"left: $(ls -d "$ior"/lrutop-$bg_done-* "$cgroot"/lrutop-$bg_done-* 2>/dev/null)"
check "throttled run: scratch gone" 'lrt_empty "$d"'

# 3. Only --disk-limit -----------------------------------------------------------
lrt_newdir
lrt_fresh "$tmp/out" "$tmp/err"
"$LRUTOP" --batch -q --cmd "cat {src}" --size 8M --disk-limit 4M --dir "$d" </dev/null \
	>"$tmp/out" 2>"$tmp/err" &
bg=$!
in_io=0 in_mem=1
if wait_for 60 'for c in "$ior"/lrutop-$bg-*; do [ -d "$c" ] && break; done; [ -n "$(cat "$c/cgroup.procs" 2>/dev/null)" ]' 0.05; then
	in_io=1
	[ "$ior" = "$cgroot" ] || ls -d "$cgroot"/lrutop-$bg-* >/dev/null 2>&1 || in_mem=0
fi
wait_for 60 "proc_gone $bg" 0.1
wait "$bg"
rc=$?
check "only --disk-limit: the run is in a throttled cgroup, no memory one" \
	'[ "$rc" -eq 0 ] && [ "$in_io" -eq 1 ] && { [ "$ior" = "$cgroot" ] || [ "$in_mem" -eq 0 ]; }' \
	"exit $rc, in io cgroup $in_io, memory cgroup seen $in_mem; stderr: $(show "$tmp/err")"
check "only --disk-limit: its cgroup is gone" '! ls -d "$ior"/lrutop-$bg-* >/dev/null 2>&1'
bg=""

# 4. The TUI header shows the limit -------------------------------------------
if command -v tmux >/dev/null 2>&1; then
	trap 'tm_cleanup; [ -n "$bg" ] && lrt_stop "$bg"; rm -rf "$base" "$tmp"' EXIT
	lrt_newdir
	tm_start dl 120 30 "env TERM=xterm-256color LANG=C.UTF-8 '$LRUTOP' -s rw_cp --size 8M --disk-limit 30M --no-verify --dir '$d'"
	if tm_wait dl "disk $disk@30M/s" 30; then
		ok "TUI header: disk $disk@30M/s"
	else
		notok "TUI header: disk $disk@30M/s" "header: $(tm_cap dl | head -n 1)"
	fi
	tp=$(tm_child dl)
	tm send-keys -t dl q
	tm_wait dl EXIT= 30 >/dev/null
	check "TUI with --disk-limit: exit 0 after q, scratch and cgroup gone" \
		'tm_has dl EXIT=0 && lrt_empty "$d" && [ -n "$tp" ] && ! ls -d "$ior"/lrutop-$tp-* >/dev/null 2>&1' \
		"pid '$tp'; $(tm_cap dl | grep EXIT=)"
else
	skip "TUI header: disk@RATE/s" "tmux not installed"
fi
