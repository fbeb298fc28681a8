#!/bin/sh
# --compare of real recordings (issue 8 §5, man page COMPARE): the same
# strategy recorded with a 4 KiB and a 1 MiB buffer prints both column
# groups and a ratio with its 95 % interval; a recording compared with
# itself is "no significant difference"; recordings without a common
# strategy or with one run each get a note, not a crash; one file, a
# missing file or a file that is not a recording end with exit 2.  On a
# terminal (tmux) the Runs view shows both recordings' runs, labelled A and
# B, with the table and its ratio; q exits 0 and restores the terminal.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-compare.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-compare.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP

run() { lrt_run 120 "$@"; }
out1() { head -n 12 "$tmp/out" | cut -c1-120 | tr '\n' '|'; }

# record NAME ARGS...: a quiet batch run recorded to $tmp/NAME.jsonl
record() {
	_f=$tmp/$1.jsonl
	shift
	lrt_newdir
	run --batch -q --size 32M --dir "$d" --no-verify --record "$_f" "$@"
	check "record $(basename "$_f") ($*)" '[ "$rc" -eq 0 ] && [ -s "$_f" ]' "exit $rc: $(errline)"
}
record bs4k -s rw_cp --repeat 3 --bs 4K
record bs1m -s rw_cp --repeat 3 --bs 1M
record mm -s mm_sync_cp
record one -s rw_cp

# two recordings of the same strategy -------------------------------------
T="compare 4K vs 1M:"
run --compare "$tmp/bs4k.jsonl" "$tmp/bs1m.jsonl"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T both recordings labelled" \
	'grep -q "^A: .*(bs4k.jsonl)" "$tmp/out" && grep -q "^B: .*(bs1m.jsonl)" "$tmp/out"' "$(out1)"
check "$T a column group for each" \
	'grep -q -- "-- A: .*bs4k.jsonl) --.*-- B: .*bs1m.jsonl) --" "$tmp/out"' "$(out1)"
# the medians row: rw_cp with two elapsed figures
check "$T rw_cp's medians in both groups" \
	'grep -Eq "^rw_cp +[0-9.]+s +[0-9.]+ .* [0-9.]+s +[0-9.]+ " "$tmp/out"' "$(out1)"
# the ratio row: "rw_cp  B/A  3+3  0.718  [0.668, 0.903]  0.100  B faster"
ratio=$(grep -E '^rw_cp +B/A +3\+3 ' "$tmp/out")
check "$T a B/A ratio of 3+3 runs with a 95% interval and a verdict" \
	'printf "%s" "$ratio" | grep -Eq "B/A +3\+3 +[0-9.]+ +\[[0-9.]+, [0-9.]+\] +[0-9.]+ +(no significant difference|B faster|B slower)"' \
	"'$ratio' | $(out1)"
lo=$(printf '%s' "$ratio" | sed -n 's/.*\[\([0-9.]*\), \([0-9.]*\)\].*/\1/p')
hi=$(printf '%s' "$ratio" | sed -n 's/.*\[\([0-9.]*\), \([0-9.]*\)\].*/\2/p')
r=$(printf '%s' "$ratio" | awk '{ print $4 }')
check "$T the ratio lies in its interval" \
	'awk -v l="$lo" -v r="$r" -v h="$hi" "BEGIN { exit !(l <= r && r <= h && l < h) }"' \
	"ratio '$r' interval '$lo'..'$hi'"
check "$T nothing on stderr" '[ ! -s "$tmp/err" ]' "$(errline)"

# the same recording twice: the letters tell them apart, no difference
T="compare with itself:"
run --compare "$tmp/bs4k.jsonl" "$tmp/bs4k.jsonl"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T ratio 1.000, no significant difference" \
	'grep -Eq "^rw_cp +B/A +3\+3 +1\.000 .*no significant difference" "$tmp/out"' "$(out1)"

# three recordings: C/A too
T="compare A B C:"
run --compare "$tmp/bs4k.jsonl" "$tmp/bs1m.jsonl" "$tmp/bs4k.jsonl"
check "$T exit 0, a C/A row" '[ "$rc" -eq 0 ] && grep -Eq "^rw_cp +C/A +3\+3 +1\.000" "$tmp/out"' \
	"exit $rc: $(out1)"

# notes, not crashes ---------------------------------------------------------
T="compare no common strategy:"
run --compare "$tmp/bs4k.jsonl" "$tmp/mm.jsonl"
check "$T exit 0 with the notes" \
	'[ "$rc" -eq 0 ] && grep -q "rw_cp: only in A" "$tmp/out" && grep -q "mm_sync_cp: only in B" "$tmp/out" &&
	 grep -q "no common strategy" "$tmp/out"' "exit $rc: $(out1) $(errline)"
T="compare one run each:"
run --compare "$tmp/one.jsonl" "$tmp/one.jsonl"
check "$T exit 0, a ratio, 'no confidence interval'" \
	'[ "$rc" -eq 0 ] && grep -Eq "^rw_cp +B/A +1\+1 +1\.000" "$tmp/out" && grep -q "no confidence interval" "$tmp/out"' \
	"exit $rc: $(out1) $(errline)"

# bad inputs -----------------------------------------------------------------
T="compare bad input:"
bad() { # NAME EXPECTED-TEXT ARGS...
	_bn=$1 _bm=$2
	shift 2
	run "$@"
	check "$T $_bn: exit 2, one 'lrutop: ' line" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: .*$_bm" "$tmp/err"' \
		"exit $rc: $(errline)"
	check "$T $_bn: no table printed" '[ ! -s "$tmp/out" ]' "$(out1)"
}
printf 'not a recording\n' >"$tmp/text.jsonl"
bad "one file" "needs at least two recordings" --compare "$tmp/bs4k.jsonl"
bad "a missing file" "none.jsonl: No such file" --compare "$tmp/bs4k.jsonl" "$tmp/none.jsonl"
bad "not a recording" "text.jsonl:1: " --compare "$tmp/text.jsonl" "$tmp/bs4k.jsonl"
: >"$tmp/empty.jsonl"
bad "an empty file" "empty.jsonl: " --compare "$tmp/bs4k.jsonl" "$tmp/empty.jsonl"
bad "a directory" "is a directory" --compare "$tmp/bs4k.jsonl" "$tmp"
bad "a run option" "--compare: --repeat does not go with it" --compare "$tmp/bs4k.jsonl" "$tmp/bs1m.jsonl" --repeat 2
# a recording of the monitor alone has nothing to compare
run --batch -q -n 3 -i 0.1 --record "$tmp/mon.jsonl"
check "record mon.jsonl (-n 3, no runs)" '[ "$rc" -eq 0 ] && [ -s "$tmp/mon.jsonl" ]' "exit $rc: $(errline)"
bad "a recording without runs" "mon.jsonl: no finished run in it" --compare "$tmp/bs4k.jsonl" "$tmp/mon.jsonl"
# standard output that cannot be written: exit 1 and the reason
"$LRUTOP" --compare "$tmp/bs4k.jsonl" "$tmp/bs1m.jsonl" </dev/null >/dev/full 2>"$tmp/err"
rc=$?
check "compare to /dev/full: exit 1, 'write error'" \
	'[ "$rc" -eq 1 ] && grep -q "^lrutop: write error: No space left on device" "$tmp/err"' "exit $rc: $(errline)"

# --compare in a terminal (tmux): the Runs view with both recordings' runs
# on one scale, the comparison table under them; q exits 0 and restores the
# terminal, the table follows on stdout --------------------------------------
T="compare TUI:"
if command -v tmux >/dev/null 2>&1; then
	for r in a:4K b:1M; do
		lrt_newdir
		run --batch -q -s rw_cp --repeat 2 --size 16M --bs "${r#*:}" --dir "$d" --no-verify \
			--record "$tmp/${r%%:*}.jsonl"
		check "$T record ${r%%:*}.jsonl (--bs ${r#*:})" '[ "$rc" -eq 0 ] && [ -s "$tmp/${r%%:*}.jsonl" ]' \
			"exit $rc: $(errline)"
	done
	tm_start cmp 120 40 "TERM=xterm-256color '$LRUTOP' --compare '$tmp/a.jsonl' '$tmp/b.jsonl' 2>'$tmp/tui.err'"
	# generous deadlines: a loaded machine may be slow to start and draw
	tm_until cmp 30 "tm_has cmp 'Compare: every run' && tm_has cmp 'no significant difference' ||
		tm_has cmp ' faster' || tm_has cmp ' slower'"
	check "$T starts on the Runs view, titled Compare" "tm_has cmp 'Compare: every run'" "$(tm_cap cmp | head -n 5)"
	check "$T chart rows of both recordings, two runs each" \
		'[ "$(tm_cap cmp | grep -Ec "^A rw_cp +#[12] ")" -eq 2 ] && [ "$(tm_cap cmp | grep -Ec "^B rw_cp +#[12] ")" -eq 2 ]' \
		"$(tm_cap cmp | head -n 25)"
	check "$T the table labels both recordings" \
		"tm_has cmp 'A: ' && tm_has cmp '(a.jsonl)' && tm_has cmp 'B: ' && tm_has cmp '(b.jsonl)'" \
		"$(tm_cap cmp | tail -n 20)"
	check "$T the table has a B/A ratio with its interval" \
		'tm_cap cmp | grep -Eq "rw_cp +B/A +2\+2 +[0-9.]+ +\[[0-9.]+, [0-9.]+\]"' "$(tm_cap cmp | tail -n 20)"
	tm send-keys -t cmp r
	tm_wait cmp 'nothing to run' 15
	check "$T r says there is nothing to run" "tm_has cmp 'nothing to run'" "$(tm_cap cmp | tail -n 2)"
	tm send-keys -t cmp q
	tm_wait cmp END-OF-STTY 30
	check "$T q exits 0" "tm_has cmp EXIT=0" "$(tm_cap cmp | grep EXIT=)"
	check "$T the terminal is restored" 'tm_stty_sane cmp' "$(tm_cap cmp | grep -c icanon)"
	check "$T the table follows on exit" \
		'tm_cap cmp | grep -Eq "^rw_cp +B/A +2\+2 "' "$(tm_cap cmp | head -n 20)"
	check "$T nothing on stderr" '[ ! -s "$tmp/tui.err" ]' "$(head -n 2 "$tmp/tui.err")"
else
	skip "$T" "tmux not installed"
fi
