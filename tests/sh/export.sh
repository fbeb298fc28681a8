#!/bin/sh
# --export-svg and --export-csv of a real recording (docs/design.md §4, §5): a
# small recorded run under a memory cgroup is drawn as an SVG that xmllint
# accepts, rsvg-convert renders and that is not a blank picture, whose
# title says what ran (strategies, limit, kernel, disk); the CSV exported
# from the recording is the live --csv byte for byte.  Inputs that do not
# do end with one "lrutop: " line, exit 2 and nothing created; an OUT that
# cannot be written is removed again.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-export.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-export.XXXXXX) || exit 2
trap 'rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP

# run ARGS...: lrutop with a bounded run time, stdout/stderr kept; sets $rc.
run() { lrt_run 120 "$@"; }
has() { command -v "$1" >/dev/null 2>&1; }

# The recording: two strategies, 128 MiB each, under a 64 MiB limit (the
# same run docs/recording.md's picture comes from, at a size a test can afford).
T="record:"
lrt_newdir
limit="--mem-limit 64M"
lrt_cgroot >/dev/null || limit=""
R=$tmp/r.jsonl
# shellcheck disable=SC2086 # $limit is one option and its value, or nothing
run --batch -q -s rw_cp,mm_sync_cp $limit --size 128M --dir "$d" --record "$R" \
	--csv "$tmp/live.csv"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
if [ "$rc" -ne 0 ] || [ ! -s "$R" ]; then
	notok "$T a recording was made" "no $R"
	exit 1
fi
[ -n "$limit" ] || skip "$T under a memory cgroup" "no memory cgroup here: the title's limit is not checked"

# --export-svg, the Overview ----------------------------------------------
T="svg overview:"
S=$tmp/o.svg
run --export-svg "$S" "$R"
check "$T exit 0, nothing on stderr" '[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]' "exit $rc: $(errline)"
check "$T an SVG of 1920x1080" 'grep -q "<svg[^>]* width=\"1920\" height=\"1080\"" "$S"' \
	"$(head -c 300 "$S")"
if has xmllint; then
	check "$T xmllint --noout" 'xmllint --noout "$S" 2>"$tmp/xml"' "$(head -n 3 "$tmp/xml" 2>/dev/null)"
else
	skip "$T xmllint --noout" "xmllint not installed (libxml2-utils)"
fi
# the title and the line under it: the first two <text> elements
title=$(grep -o '<text[^>]*>[^<]*</text>' "$S" | head -n 2 | sed 's/<[^>]*>//g' | tr '\n' ' ')
kernel=$(uname -r)
disk=$(find_disk "$d")
check "$T title names both strategies" \
	'printf "%s" "$title" | grep -q "rw_cp" && printf "%s" "$title" | grep -q "mm_sync_cp"' "'$title'"
[ -n "$limit" ] && check "$T title names the 64 MiB limit" \
	'printf "%s" "$title" | grep -q "64 MiB memory limit"' "'$title'"
check "$T title names the kernel" 'printf "%s" "$title" | grep -qF "kernel $kernel"' "'$title'"
if [ -n "$disk" ]; then
	check "$T title names the disk" 'printf "%s" "$title" | grep -qF "disk $disk"' "'$title' (disk $disk)"
else
	skip "$T title names the disk" "$d is not on one disk"
fi
# rendered, the picture is not one flat colour: a white page has a
# standard deviation of 0, this one has axes, areas and lines
if has rsvg-convert && has identify; then
	P=$tmp/o.png
	check "$T rsvg-convert renders it" 'rsvg-convert -w 960 "$S" -o "$P" 2>"$tmp/rsvg" && [ -s "$P" ]' \
		"$(head -n 3 "$tmp/rsvg" 2>/dev/null)"
	sd=$(identify -format '%[fx:standard_deviation]' "$P" 2>/dev/null)
	check "$T the PNG is not blank (pixel sd $sd > 0.05)" \
		'awk -v s="$sd" "BEGIN { exit !(s + 0 > 0.05) }"' "sd '$sd'"
	# the check itself can fail: a white picture of the same size has 0
	convert -size 960x540 xc:white "$tmp/white.png" 2>/dev/null
	wsd=$(identify -format '%[fx:standard_deviation]' "$tmp/white.png" 2>/dev/null)
	check "$T (a blank PNG measures sd 0)" '[ "$wsd" = 0 ]' "sd '$wsd'"
else
	skip "$T rsvg-convert renders it" "rsvg-convert or ImageMagick not installed"
fi

# the Runs view of one run, a size, a time range ---------------------------
T="svg runs --run 2 --size 1280x720:"
S2=$tmp/runs.svg
run --export-svg "$S2" --view runs --run 2 --size 1280x720 -t light "$R"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T 1280 wide" 'grep -q "<svg[^>]* width=\"1280\" height=\"720\"" "$S2"' "$(head -c 300 "$S2")"
title2=$(grep -o '<text[^>]*>[^<]*</text>' "$S2" | head -n 1 | sed 's/<[^>]*>//g')
check "$T title: only mm_sync_cp" \
	'printf "%s" "$title2" | grep -q mm_sync_cp && ! printf "%s" "$title2" | grep -q rw_cp' "'$title2'"
has xmllint && check "$T xmllint --noout" 'xmllint --noout "$S2" 2>/dev/null'
T="svg --from 0.5 --to 1.5:"
S3=$tmp/range.svg
run --export-svg "$S3" --from 0.5 --to 1.5 "$R"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
sub=$(grep -o '<text[^>]*>[^<]*</text>' "$S3" | sed -n 2p | sed 's/<[^>]*>//g')
check "$T the picture says it is about a second" \
	'printf "%s" "$sub" | grep -Eq "^(0\.[5-9]|1\.[0-2]) s,"' "'$sub'"

# bad inputs: "lrutop: ..." on one line, exit 2, nothing created -----------
T="svg bad input:"
bad() { # NAME EXPECTED-TEXT ARGS...: OUT is $tmp/bad.svg
	_bn=$1 _bm=$2
	shift 2
	rm -f "$tmp/bad.svg"
	run "$@"
	check "$T $_bn: exit 2, 'lrutop: $_bm'" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: .*$_bm" "$tmp/err"' \
		"exit $rc: $(errline)"
	check "$T $_bn: nothing created" '[ ! -e "$tmp/bad.svg" ]'
}
bad "missing recording" "No such file" --export-svg "$tmp/bad.svg" "$tmp/none.jsonl"
bad "not a recording" "not a recording" --export-svg "$tmp/bad.svg" "$tmp/live.csv"
bad "a directory" "is a directory" --export-svg "$tmp/bad.svg" "$tmp"
bad "--size 1920" "not WIDTHxHEIGHT" --export-svg "$tmp/bad.svg" --size 1920 "$R"
bad "--size 100x100" "out of range" --export-svg "$tmp/bad.svg" --size 100x100 "$R"
bad "--run 3 of 2" "--run 3: .* has 2 runs" --export-svg "$tmp/bad.svg" --run 3 "$R"
bad "--from past the end" "past the end" --export-svg "$tmp/bad.svg" --from 999 "$R"
bad "-t unknown" "no such theme" --export-svg "$tmp/bad.svg" -t dark "$R"
bad "a run option" "-s does not go with it" --export-svg "$tmp/bad.svg" -s rw_cp "$R"
bad "no FILE" "needs the recording" --export-svg "$tmp/bad.svg"

T="svg OUT exists:"
sum=$(file_sum "$S")
run --export-svg "$S" "$R"
check "$T exit 2, 'already exists'" '[ "$rc" -eq 2 ] && grep -q "^lrutop: --export-svg .*: already exists" "$tmp/err"' \
	"exit $rc: $(errline)"
check "$T the file is untouched" '[ "$(file_sum "$S")" = "$sum" ]'
ln -s "$tmp/elsewhere.svg" "$tmp/link.svg"
run --export-svg "$tmp/link.svg" "$R"
check "$T a symlink is not followed" '[ "$rc" -eq 2 ] && [ ! -e "$tmp/elsewhere.svg" ]' "exit $rc: $(errline)"

# a write that fails (the file size limit) removes OUT again: exit 1
T="svg write error:"
(
	trap '' XFSZ
	ulimit -f 8
	exec "$LRUTOP" --export-svg "$tmp/big.svg" "$R"
) </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
check "$T exit 1, 'write error'" '[ "$rc" -eq 1 ] && grep -q "^lrutop: --export-svg .*: write error" "$tmp/err"' \
	"exit $rc: $(errline)"
check "$T OUT removed" '[ ! -e "$tmp/big.svg" ]'

# a recording cut short (a crash while recording): a warning, the prefix drawn
T="svg of a cut recording:"
size=$(stat -c %s "$R")
head -c $((size - 10)) "$R" >"$tmp/cut.jsonl"
run --export-svg "$tmp/cut.svg" "$tmp/cut.jsonl"
check "$T exit 0 with the reader's warning" \
	'[ "$rc" -eq 0 ] && grep -q "^lrutop: .*cut.jsonl:[0-9]*: truncated last line" "$tmp/err" && [ -s "$tmp/cut.svg" ]' \
	"exit $rc: $(errline)"

# --export-csv: the bytes --csv wrote live ----------------------------------
T="csv:"
C=$tmp/e.csv
run --export-csv "$C" "$R"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T identical to the live --csv (cmp)" 'cmp -s "$tmp/live.csv" "$C"' \
	"$(cmp "$tmp/live.csv" "$C" 2>&1 | head -n 1)"
check "$T rows for both strategies" \
	'grep -q ",rw_cp," "$C" && grep -q ",mm_sync_cp," "$C"' "$(head -n 3 "$C")"
gzip -c "$R" >"$tmp/r.jsonl.gz"
run --export-csv "$tmp/gz.csv" "$tmp/r.jsonl.gz"
check "$T from the gzip'd recording: the same bytes" '[ "$rc" -eq 0 ] && cmp -s "$tmp/live.csv" "$tmp/gz.csv"' \
	"exit $rc: $(errline)"
sum=$(file_sum "$C")
run --export-csv "$C" "$R"
check "$T OUT exists: exit 2, untouched" '[ "$rc" -eq 2 ] && [ "$(file_sum "$C")" = "$sum" ]' \
	"exit $rc: $(errline)"
run --export-csv "$tmp/bad.csv" "$tmp/none.jsonl"
check "$T missing recording: exit 2, nothing created" \
	'[ "$rc" -eq 2 ] && grep -q "^lrutop: " "$tmp/err" && [ ! -e "$tmp/bad.csv" ]' "exit $rc: $(errline)"
run --export-csv "$tmp/bad.csv" --view runs "$R"
check "$T an svg option: exit 2" '[ "$rc" -eq 2 ] && grep -q "^lrutop: --view: only with --export-svg" "$tmp/err"' \
	"exit $rc: $(errline)"
check "scratch --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
