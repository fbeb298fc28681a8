#!/bin/sh
# --export-json and --export-markdown (issue 17 §3, docs/output.md): a real
# batch run of rw_cp and mm_sync_cp, three times each, writes hyperfine's
# JSON shape whose times are the --results CSV's elapsed cells and whose
# median, min and max are the statistics of those times, and a Markdown
# table (header, separator, one row per strategy) with the same figures.
# A replay of the run's recording gives the same results; --compare of it
# with itself gives both sides and a ratio of 1 with no significant
# difference.  An existing file is refused before anything runs (exit 2,
# one "lrutop:" line, no other output made); the options are refused where
# there are no results (--export-svg, a live run without -s, a recording
# without runs).
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-rjson.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-rjson.XXXXXX) || exit 2
trap 'rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP

run() { lrt_run 180 "$@"; }
# py 'PROGRAM' ARGS...: python3's exit status, also in $pyrc (check's
# condition cannot read $?: check's own assignments have reset it, so
# '[ "$pyrc" -eq 0 ]' always held); its message in $tmp/py
py() {
	_p=$1
	shift
	python3 -c "$_p" "$@" >"$tmp/py" 2>&1
	pyrc=$?
	return "$pyrc"
}
pyout() { tail -n 3 "$tmp/py" | tr '\n' '|' | cut -c1-300; }

if ! command -v python3 >/dev/null 2>&1; then
	skip "results json" "python3 is not installed (it checks the JSON)"
	exit 0
fi

# the batch run ---------------------------------------------------------------
lrt_newdir
J=$tmp/r.json M=$tmp/r.md C=$tmp/r.csv R=$tmp/r.jsonl
run --batch -q -s rw_cp,mm_sync_cp --repeat 3 --size 32M --dir "$d" --no-verify \
	--results "$C" --record "$R" --export-json "$J" --export-markdown "$M"
check "batch: exit 0, all four files" \
	'[ "$rc" -eq 0 ] && [ -s "$J" ] && [ -s "$M" ] && [ -s "$C" ] && [ -s "$R" ]' "exit $rc: $(errline)"

# hyperfine's keys, --repeat times per strategy, the CSV's elapsed
SHAPE='
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
res = d["results"]
assert [r["command"] for r in res] == ["rw_cp", "mm_sync_cp"], [r["command"] for r in res]
for r in res:
    for k in ("mean", "stddev", "median", "user", "system", "min", "max", "times", "exit_codes"):
        assert k in r, k
    t = r["times"]
    assert len(t) == 3 and r["exit_codes"] == [0, 0, 0], (r["command"], t, r["exit_codes"])
    csvt = [float(x["elapsed_s"]) for x in rows if x["strategy"] == r["command"]]
    assert len(csvt) == 3 and all(abs(a - b) < 6e-5 for a, b in zip(t, csvt)), (t, csvt)
    assert r["median"] == statistics.median(t), (r["median"], t)
    assert r["min"] == min(t) and r["max"] == max(t)
    assert abs(r["mean"] - statistics.mean(t)) < 1e-9
    assert abs(r["stddev"] - statistics.stdev(t)) < 1e-9
    assert len(r["runs"]) == 3 and [x["repeat"] for x in r["runs"]] == [1, 2, 3]
    for x, c in zip(r["runs"], [x for x in rows if x["strategy"] == r["command"]]):
        for k in ("bursts", "majflt", "peak_active_file_kb", "refault_file", "bytes"):
            assert x[k] == int(c[k]), (k, x[k], c[k])
    assert r["n_ok"] == 3 and isinstance(r["bursts"], float)
    assert "peak_active_file_kb" in r and "read_cv" in r and "probe" in r
assert d["machine"]["kernel"] == sys.argv[3], d["machine"]
'
py "$SHAPE" "$J" "$C" "$(uname -r)"
check "json: hyperfine's keys, 3 times each = the --results elapsed, median/min/max of them" \
	'[ "$pyrc" -eq 0 ]' "$(pyout)"

# the Markdown: header, separator, one row per strategy with the JSON's figures
MD='
import json, sys
d = json.load(open(sys.argv[1]))
lines = [l for l in open(sys.argv[2]).read().split("\n") if l.startswith("|")]
assert lines[0].startswith("| Command | Mean [s] | Min [s] | Max [s] | Relative |"), lines[0]
assert set(lines[1].replace("|", "").replace(":", "").replace("-", "")) == set(), lines[1]
assert lines[1].count("|") == lines[0].count("|")
head = [c.strip() for c in lines[0].strip("|").split("|")]
rows = lines[2:]
assert len(rows) == 2, rows
for r, line in zip(d["results"], rows):
    cells = dict(zip(head, [c.strip() for c in line.strip("|").split("|")]))
    assert cells["Command"] == "`%s`" % r["command"], cells
    assert cells["Min [s]"] == "%.3f" % r["min"] and cells["Max [s]"] == "%.3f" % r["max"], cells
    assert cells["Median [s]"] == "%.3f" % r["median"], cells
    assert cells["Mean [s]"] == "%.3f ± %.3f" % (r["mean"], r["stddev"]), cells
    assert cells["Relative"] == "%.2f" % r["relative"], cells
    assert cells["OK runs"] == "3/3", cells
'
py "$MD" "$J" "$M"
check "markdown: header, separator, a row per strategy with the JSON's figures" '[ "$pyrc" -eq 0 ]' "$(pyout)"

# an existing file: refused before anything runs -------------------------------
sum=$(file_sum "$J")
lrt_newdir
run --batch -q -s rw_cp --size 32M --dir "$d" --results "$tmp/again.csv" --export-json "$J"
check "existing --export-json: exit 2, one lrutop: line" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: --export-json .*already exists" "$tmp/err"' \
	"exit $rc: $(errline)"
check "existing --export-json: it is unchanged, --results was not made, no scratch left" \
	'[ "$(file_sum "$J")" = "$sum" ] && [ ! -e "$tmp/again.csv" ] && lrt_empty "$d"'
run --compare "$R" "$R" --export-markdown "$M"
check "existing --export-markdown with --compare: exit 2, nothing printed" \
	'[ "$rc" -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q "^lrutop: --export-markdown .*already exists" "$tmp/err"' \
	"exit $rc: $(errline)"

# the replay: the same results ---------------------------------------------------
run --batch -q --replay "$R" --export-json "$tmp/replay.json" --export-markdown "$tmp/replay.md" \
	--results "$tmp/replay.csv"
check "replay: exit 0, the files made" \
	'[ "$rc" -eq 0 ] && [ -s "$tmp/replay.json" ] && [ -s "$tmp/replay.md" ]' "exit $rc: $(errline)"
py '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["results"] == b["results"], "results differ"
assert b["machine"]["recording_file"] == sys.argv[3], b["machine"]
' "$J" "$tmp/replay.json" "$R"
check "replay: the live run's results, the recording named" '[ "$pyrc" -eq 0 ]' "$(pyout)"
check "replay: the live run's Markdown rows" \
	'[ "$(grep -c "^| \`" "$M")" -eq 2 ] && [ "$(grep "^| \`" "$M")" = "$(grep "^| \`" "$tmp/replay.md")" ]'
check "replay: --results byte-identical beside it" 'cmp -s "$C" "$tmp/replay.csv"'

# failed runs, as hyperfine -i keeps them ------------------------------------------
# a --cmd that copies and exits 3, one that copies and dies of SIGTERM:
# both took a time, so both are in times, with their exit codes (3; 128 +
# 15), and mean, median, min and max are of those times; the recording
# keeps the codes for a replay
printf 'cp "$1" "$2" && exit 3\n' >"$tmp/three.sh"
printf 'cp "$1" "$2" && kill -TERM $$\n' >"$tmp/term.sh"
F=$tmp/fail.json
run --batch -q --cmd "sh $tmp/three.sh {src} {dst}" --name three --cmd "sh $tmp/term.sh {src} {dst}" \
	--name term --repeat 2 --size 4M --dir "$d" --record "$tmp/fail.jsonl" --results "$tmp/fail.csv" \
	--export-json "$F"
check "failed runs: exit 1 (a run failed), the JSON made" '[ "$rc" -eq 1 ] && [ -s "$F" ]' \
	"exit $rc: $(errline)"
run --batch -q --replay "$tmp/fail.jsonl" --export-json "$tmp/fail-replay.json"
FAILED='
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
want = {"three": 3, "term": 143}
assert [r["command"] for r in d["results"]] == ["three", "term"], d["results"]
for r in d["results"]:
    t = r["times"]
    el = [float(x["elapsed_s"]) for x in rows if x["strategy"] == r["command"]]
    assert len(t) == 2 and all(abs(a - b) <= 0.00005 + 1e-9 for a, b in zip(t, el)), (t, el)
    assert r["exit_codes"] == [want[r["command"]]] * 2, r["exit_codes"]
    assert [x["exit_code"] for x in r["runs"]] == r["exit_codes"]
    assert r["n_ok"] == 0 and all(not x["ok"] for x in r["runs"])
    # the JSON holds 15 digits: the figures of its times to 1e-9
    assert abs(r["mean"] - statistics.mean(t)) < 1e-9 and abs(r["median"] - statistics.median(t)) < 1e-9
    assert r["min"] == min(t) and r["max"] == max(t)
    assert abs(r["stddev"] - statistics.stdev(t)) < 1e-9
    assert r["relative"] is None  # lrutop'"'"'s: no OK run to take a median of
'
py "$FAILED" "$F" "$tmp/fail.csv"
check "failed runs: in times with their exit codes (3, 128+15), mean/median/min/max of them" \
	'[ "$pyrc" -eq 0 ]' "$(pyout)"
py "$FAILED" "$tmp/fail-replay.json" "$tmp/fail.csv"
check "failed runs: a replay of the recording keeps the exit codes" '[ "$pyrc" -eq 0 ]' "$(pyout)"

# --compare: both sides and the differences -----------------------------------------
run --compare "$R" "$R" --export-json "$tmp/cmp.json" --export-markdown "$tmp/cmp.md"
check "compare: exit 0, the tables on stdout too" \
	'[ "$rc" -eq 0 ] && grep -q "^ratio of median elapsed" "$tmp/out"' "exit $rc: $(errline)"
py '
import json, sys
d = json.load(open(sys.argv[1]))
cmds = [r["command"] for r in d["results"]]
assert cmds == ["A rw_cp", "A mm_sync_cp", "B rw_cp", "B mm_sync_cp"], cmds
assert [r["recording"] for r in d["results"]] == [0, 0, 1, 1]
assert len(d["recordings"]) == 2 and d["recordings"][0]["label"].startswith("A: ")
assert d["results"][0]["times"] == d["results"][2]["times"]
df = d["differences"]
assert [x["command"] for x in df] == ["rw_cp", "mm_sync_cp"] and all(x["vs"] == "B/A" for x in df)
assert all(x["ratio"] == 1.0 and x["verdict"] == "same" for x in df), df
' "$tmp/cmp.json"
check "compare json: A and B results, ratio 1 and no significant difference" '[ "$pyrc" -eq 0 ]' "$(pyout)"
check "compare markdown: two result tables and the differences" \
	'[ "$(grep -c "^| Command | Mean \[s\]" "$tmp/cmp.md")" -eq 2 ] &&
	 grep -q "^| \`rw_cp\` | B/A | 3+3 | 1.000 | .* | no significant difference |$" "$tmp/cmp.md"' \
	"$(grep "B/A" "$tmp/cmp.md" | head -n 2 | tr '\n' '|')"

# where there are no results -------------------------------------------------------
run --export-svg "$tmp/x.svg" "$R" --export-json "$tmp/x.json"
check "--export-svg with --export-json: exit 2, nothing made" \
	'[ "$rc" -eq 2 ] && [ ! -e "$tmp/x.svg" ] && [ ! -e "$tmp/x.json" ]' "exit $rc: $(errline)"
run --batch -n 2 --export-json "$tmp/x.json"
check "no runs: --export-json is a usage error" \
	'[ "$rc" -eq 2 ] && grep -q "^lrutop: --export-json: nothing to run" "$tmp/err" && [ ! -e "$tmp/x.json" ]' \
	"exit $rc: $(errline)"
run --batch -n 3 -i 0.05 --record "$tmp/idle.jsonl"
run --batch -q --replay "$tmp/idle.jsonl" --export-markdown "$tmp/x.md" --csv "$tmp/x.csv"
check "a recording without runs: exit 2, neither file left" \
	'[ "$rc" -eq 2 ] && grep -q "^lrutop: --export-markdown: .*has no runs" "$tmp/err" && [ ! -e "$tmp/x.md" ] && [ ! -e "$tmp/x.csv" ]' \
	"exit $rc: $(errline)"
