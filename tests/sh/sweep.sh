#!/bin/sh
# Parameter sweeps (issue 17 item 1, docs/sweep.md): bad --sweep input is
# one "lrutop:" line and exit 2; a real small sweep (rw_cp, 64M, bs at two
# values, --repeat 2) labels each run with its value, interleaves the
# values, writes one --results row per run with its value and prints the
# sweep table; its recording replays the same table, and its exports give
# each result its own value; with 17 labels every one is a column and the
# Runs view counts them all; a bisection over --sweep size ends on a
# bracket.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-sweep.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-sweep.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP

run() { lrt_run 120 "$@"; }

# ---- 1. bad input: one line, exit 2 -----------------------------------------
for a in 'mem-limit=' 'colour=1M,2M' 'mem-limit=96M..24M:x2' 'mem-limit=24M..96M:x1' \
	'mem-limit=4M..1T:x1.01' 'bs=4K,4K'; do
	run --batch -q -s rw_cp --dir "$base" --sweep "$a"
	lines=$(wc -l <"$tmp/err")
	check "bad --sweep $a: exit 2, one lrutop: line" \
		'[ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q "^lrutop: --sweep " "$tmp/err"' \
		"rc=$rc: $(errline)"
done
run --batch -q -s rw_cp --dir "$base" --sweep-until 'bursts>=1'
check "--sweep-until without --sweep: exit 2" \
	'[ $rc -eq 2 ] && grep -q "^lrutop: --sweep-until: only with --sweep" "$tmp/err"' \
	"rc=$rc: $(errline)"
run --batch -q -s rw_cp --dir "$base" --sweep bs=4K,8K --sweep-until 'speed>1'
check "--sweep-until speed>1: exit 2" '[ $rc -eq 2 ] && grep -q "^lrutop: --sweep-until" "$tmp/err"' \
	"rc=$rc: $(errline)"
run --batch -q -s rw_cp --dir "$base" --sweep size=1M,2M --src /etc/hostname
check "--sweep size with --src: exit 2" '[ $rc -eq 2 ] && grep -q "not with --src" "$tmp/err"' \
	"rc=$rc: $(errline)"

# ---- 2. a real sweep: labels, interleaving, CSV rows, the table -------------
run --batch -q -s rw_cp --sweep bs=64K,1M --repeat 2 --size 64M --dir "$base" \
	--results "$tmp/r.csv" --record "$tmp/s.jsonl"
cp "$tmp/out" "$tmp/live"
check "sweep: exit 0" '[ $rc -eq 0 ]' "rc=$rc: $(errline)"
order=$(awk 'NF == 0 { exit } /^rw_cp@/ { printf "%s#%s ", $1, $2 }' "$tmp/live")
check "sweep: runs labelled with their value, values interleaved" \
	'[ "$order" = "rw_cp@b64K#1 rw_cp@b1M#1 rw_cp@b64K#2 rw_cp@b1M#2 " ]' "got: $order"
rows=$(grep -c '^rw_cp@b' "$tmp/r.csv")
vals=$(tail -n +2 "$tmp/r.csv" | awk -F, '{ print $1 " " $(NF - 1) }' | sort | uniq -c |
	awk '{ printf "%s:%s:%s ", $1, $2, $3 }')
check "--results: one row per run, the value in its sweep column" \
	'[ "$rows" -eq 4 ] && [ "$vals" = "2:rw_cp@b1M:bs=1048576 2:rw_cp@b64K:bs=65536 " ]' \
	"rows=$rows vals=$vals"
check "--results: the header names the sweep column (read_ratio after it)" \
	'head -n 1 "$tmp/r.csv" | grep -q ",sweep,read_ratio\$"'
sed -n '/^sweep of bs/,/^$/p' "$tmp/live" >"$tmp/table"
t64=$(awk '$1 == "64K" { print $2, $3 }' "$tmp/table")
t1m=$(awk '$1 == "1M" { print $2, $3 }' "$tmp/table")
check "sweep table: a row per value, median with a 95% CI of two runs" \
	'grep -q "^bs  *rw_cp" "$tmp/table" && echo "$t64" | grep -Eq "^[0-9.]+s \[[0-9.]+-[0-9.]+\]$" &&
	 echo "$t1m" | grep -Eq "^[0-9.]+s \["' "$(cat "$tmp/table")"
# the table's median is the median of the two CSV rows' elapsed
want=$(awk -F, '$1 == "rw_cp@b64K" { s += $3; n++ } END { printf "%.2f", s / n }' "$tmp/r.csv")
got=$(echo "$t64" | sed 's/s .*//')
check "sweep table: 64K's median is the mean of its two runs' elapsed (--results)" \
	'[ "$got" = "$want" ]' "table $got, csv $want"

# ---- 3. the recording replays the same table ---------------------------------
run --batch -q --replay "$tmp/s.jsonl"
sed -n '/^sweep of bs/,/^$/p' "$tmp/out" >"$tmp/table2"
check "replay: the same sweep table" 'cmp -s "$tmp/table" "$tmp/table2"' \
	"$(diff "$tmp/table" "$tmp/table2" | head -5 | tr '\n' '|')"
check "recording: each result line has its sweep keys" \
	'[ "$(grep "\"k\": *\"result\"" "$tmp/s.jsonl" | grep -c "\"sweep\": *\"bs\"")" -eq 4 ] && grep -q "\"sweep_value\": *65536" "$tmp/s.jsonl"'
# the header's runs' configuration (minor 4) says the sweep a replay takes
check "recording: the header's config holds the sweep" \
	'head -1 "$tmp/s.jsonl" | grep -q "\"config\":{.*\"sweep\":\"bs\",\"sweep_values\":\[65536,1048576\]"' \
	"$(head -1 "$tmp/s.jsonl" | grep -o '"config":{[^}]*}')"

# the TUI's Runs view of the replay, at its end, shows the table too
if command -v tmux >/dev/null 2>&1; then
	tm_start sw 80 24 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay '$tmp/s.jsonl'"
	tm_wait sw 'lrutop' 10
	tm send-keys -t sw End
	tm send-keys -t sw 4
	tm_until sw 10 "tm_has sw 'Sweep of bs' && tm_cap sw | grep -q '^ 1M  '"
	check "replay in the TUI: the Runs view shows the sweep table (80x24)" \
		"tm_has sw 'Sweep of bs' && tm_cap sw | grep -q '^ 64K  ' && tm_cap sw | grep -q '^ 1M  '" \
		"$(tm_cap sw | tail -8 | tr '\n' '|')"
	tm send-keys -t sw q
	tm_until sw 10 "! tm_alive sw"
	check "replay in the TUI: q ends it with status 0" "tm_has sw EXIT=0" "$(tm_cap sw | tail -3 | tr '\n' '|')"
else
	skip "replay in the TUI: the Runs view shows the sweep table (80x24)" "no tmux"
fi

# the replay's --export-json and --export-markdown: each result its own
# value (issue 26 finding 3: the sweep was not in them)
run --batch -q --replay "$tmp/s.jsonl" --export-json "$tmp/s.json" --export-markdown "$tmp/s.md"
vals=$(python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(r["name"], r["sweep"]["param"], r["sweep"]["value"])' "$tmp/s.json" 2>&1 | tr '\n' ' ')
check "replay --export-json: each result its sweep's bs" \
	'[ $rc -eq 0 ] && [ "$vals" = "rw_cp@b64K bs 65536 rw_cp@b1M bs 1048576 " ]' "rc=$rc: $vals $(errline)"
check "replay --export-markdown: a bs column, each row its own value" \
	'grep -q "^| Command | bs | Mean \[s\] |" "$tmp/s.md" && grep -qF "| \`rw_cp@b64K\` | 64K |" "$tmp/s.md" &&
	 grep -qF "| \`rw_cp@b1M\` | 1M |" "$tmp/s.md"' "$(head -n 5 "$tmp/s.md" | tr '\n' '|')"

# 17 labels (the 13 strategies and four --cmds of issue 26 finding 6: the
# 17th was dropped with no word): the recording with 16 more results at
# 64K, as --cmds c01..c16; every one a column of the batch table, and the
# TUI's Runs view at 80 columns counts them all in its title
python3 -c 'import json,sys
lines = open(sys.argv[1]).read().splitlines()
res = [l for l in lines if "\"k\":\"result\"" in l][0]
for i in range(1, 17):
    o = json.loads(res)
    o.update(name="c%02d@b64K" % i, strategy=None, cmd=0)
    lines.append(json.dumps(o))
open(sys.argv[2], "w").write("\n".join(lines) + "\n")' "$tmp/s.jsonl" "$tmp/s17.jsonl"
run --batch -q --replay "$tmp/s17.jsonl"
heads=$(sed -n '/^sweep of bs/{n;p;q}' "$tmp/out" | tr -s ' ')
check "17 labels: the batch table has a column each, c16 last" \
	'[ $rc -eq 0 ] && [ "$(echo "$heads" | wc -w)" -eq 18 ] && [ "$(echo "$heads" | awk "{ print \$NF }")" = c16 ]' \
	"rc=$rc: $heads $(errline)"
if command -v tmux >/dev/null 2>&1; then
	tm_start s17 80 24 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay '$tmp/s17.jsonl'"
	tm_wait s17 'lrutop' 10
	tm send-keys -t s17 End
	tm send-keys -t s17 4
	check "17 labels in the TUI (80x24): the title says 3 of 17" \
		"tm_until s17 10 \"tm_has s17 '(3 of 17 strategies: a wider terminal shows more)'\"" \
		"$(tm_cap s17 | grep -m 1 Sweep)"
	tm send-keys -t s17 q
	tm_until s17 10 "! tm_alive s17"
else
	skip "17 labels in the TUI (80x24): the title says 3 of 17" "no tmux"
fi

# ---- 4. a bisection that must flip ---------------------------------------------
# elapsed over --sweep size: a 1M copy takes milliseconds, a 1G one needs
# 0.5 s unless the disk writes back over 2 GiB/s (a 256M one did not, at
# 0.38 s, on this machine's ~800 MB/s virtio disk); so the ends differ
# whatever the load, and the bisection must end on two adjacent values of
# 1M 4M 16M 64M 256M 1G with the condition false at the lower.
run --batch -q -s rw_cp --sweep size=1M..1G:x4 --sweep-until 'elapsed>=0.5' --dir "$base" \
	--results "$tmp/b.csv" --record "$tmp/b.jsonl"
br=$(grep 'bracket \[' "$tmp/out")
check "bisection: exit 0 and a bracket" '[ $rc -eq 0 ] && [ -n "$br" ]' \
	"rc=$rc: $(errline) $(tail -5 "$tmp/out" | tr '\n' '|')"
pair=$(echo "$br" | sed 's/.*bracket \[\([0-9A-Z]*\), \([0-9A-Z]*\)\].*/\1 \2/')
case "$pair" in
"1M 4M" | "4M 16M" | "16M 64M" | "64M 256M" | "256M 1G") adj=1 ;;
*) adj=0 ;;
esac
check "bisection: the bracket is two adjacent values, not at the lower" '[ $adj -eq 1 ]' "$br"
n=$(tail -n +2 "$tmp/b.csv" | wc -l)
check "bisection: both ends and at most three halvings ran (5 or fewer runs)" \
	'[ "$n" -ge 3 ] && [ "$n" -le 5 ] && grep -q "^rw_cp@s1M," "$tmp/b.csv" && grep -q "^rw_cp@s1G," "$tmp/b.csv"' \
	"$n runs"
# each run copied the size its label says (the input was made again)
bad=$(awk -F, 'NR > 1 { split($1, a, "@s"); v = a[2]; m = v ~ /M$/ ? 1048576 : 1;
	if (v ~ /G$/) m = 1073741824; sub(/[GMK]$/, "", v); if ($11 != v * m) print $1 }' "$tmp/b.csv")
check "bisection: each run copied its own size" '[ -z "$bad" ]' "$bad"
# the replay takes the condition from the recorded command line: the
# same bracket, not the table alone
cp "$tmp/out" "$tmp/b.out"
run --replay "$tmp/b.jsonl" --batch -q
rbr=$(grep 'bracket \[' "$tmp/out")
check "bisection: its replay prints the same bracket" \
	'[ $rc -eq 0 ] && [ -n "$rbr" ] && [ "$rbr" = "$br" ] && grep -q "^bisection until elapsed>=0.5" "$tmp/out"' \
	"rc=$rc live: $br replay: $rbr $(errline)"

# ---- 5. --export-svg --view sweep ------------------------------------------------
run --export-svg "$tmp/s.svg" --view sweep "$tmp/s.jsonl"
dots=$(grep -c '<circle ' "$tmp/s.svg" 2>/dev/null)
check "--view sweep: a picture with a dot per value and chart (2 x 2)" \
	'[ $rc -eq 0 ] && grep -q "Sweep of bs" "$tmp/s.svg" && [ "$dots" -eq 4 ]' \
	"rc=$rc dots=$dots: $(errline)"
if command -v xmllint >/dev/null 2>&1; then
	check "--view sweep: well-formed XML" 'xmllint --noout "$tmp/s.svg" 2>/dev/null'
else
	skip "--view sweep: well-formed XML" "no xmllint"
fi
run --batch -q -s rw_cp --size 8M --dir "$base" --record "$tmp/plain.jsonl"
run --export-svg "$tmp/p.svg" --view sweep "$tmp/plain.jsonl"
check "--view sweep of a recording without a sweep: one lrutop: line, no file" \
	'[ $rc -ne 0 ] && grep -q "^lrutop: .*--view sweep: the recording has no sweep" "$tmp/err" && [ ! -e "$tmp/p.svg" ]' \
	"rc=$rc: $(errline)"
