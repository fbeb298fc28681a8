#!/bin/sh
# The page-cache map of a real run: the recording's pcmap lines follow
# their samples, each column holds n counts (decoded here by python, not
# by lrutop), and the source's cached ranges add up to the sample's count
# (the tick's figure is the ranges' sum); the mincore reader, forced,
# records its own maps (method 2, cached only); the TUI's replay at 100x30
# draws the map rows.
. "$(dirname "$0")/lib.sh"

T=cachemap
tmp=$(mktemp -d /tmp/lrutop-cachemap.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrutop-test-mapdir.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP
cd "$tmp" || exit 2

if cg=$(lrt_cgroot) && [ -n "$cg" ]; then limit="--mem-limit 32M"; else limit=""; fi

# check_maps FILE METHOD: every pcmap line well formed, after its sample,
# its source's ranges summing to the sample's pcsc.  Prints what is wrong.
check_maps() {
	python3 - "$1" "$2" <<'PY'
import json, sys
def decode(s, n):
    out = []
    for tok in s.split(","):
        v, _, k = tok.partition("*")
        out += [int(v, 16)] * (int(k) if k else 1)
    assert len(out) == n, (s, n)
    return out
prev, maps, bad = None, 0, []
for no, line in enumerate(open(sys.argv[1]), 1):
    o = json.loads(line)
    if o.get("k") == "sample":
        prev = o
    if o.get("k") != "pcmap":
        continue
    maps += 1
    if prev is None or prev["t"] != o["t"]:
        bad.append("line %d: not after its sample" % no)
        continue
    for f, key in (("src", "pcsc"), ("dst", "pcdc")):
        m = o.get(f)
        if not m:
            continue
        if m["m"] != int(sys.argv[2]) or not 1 <= m["n"] <= min(256, m["p"]):
            bad.append("line %d: %s m=%s n=%s" % (no, f, m["m"], m["n"]))
        cols = {c: decode(m[c], m["n"]) if c in m else [0] * m["n"] for c in "cdwer"}
        if sum(cols["c"]) != prev.get(key):
            bad.append("line %d: %s ranges sum to %d, the sample says %s" % (no, f, sum(cols["c"]), prev.get(key)))
if not maps:
    bad.append("no pcmap line")
print("\n".join(bad[:5]))
PY
}

d=$base/d1
mkdir "$d"
# shellcheck disable=SC2086
timeout 120 "$LRUTOP" --batch -q -i 0.05 -s mm_sync_cp $limit --size 64M --dir "$d" \
	--record r.jsonl >out 2>err
rc=$?
check "$T live run: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(head -c 300 err)"
n=$(grep -c '"k":"pcmap"' r.jsonl)
check "$T recording: pcmap lines ($n)" '[ "$n" -ge 2 ]' "$(grep -c '"k":"sample"' r.jsonl) samples"
why=$(check_maps r.jsonl "$(grep -m 1 -o '"pcsm":[12]' r.jsonl | cut -d: -f2)" 2>&1)
check "$T recording: maps well formed, after their samples, ranges summing to the sample" \
	'[ -z "$why" ]' "$why"
check "$T recording: some source range cached" \
	'grep "\"k\":\"pcmap\"" r.jsonl | grep -q "\"src\":{[^}]*\"c\":\"[^\"]*[1-9a-f]"' \
	"$(grep -m 1 '"k":"pcmap"' r.jsonl | head -c 300)"

d=$base/d2
mkdir "$d"
# shellcheck disable=SC2086
LRUTOP_RESIDENCY=mincore timeout 120 "$LRUTOP" --batch -q -i 0.05 -s rw_cp $limit --size 32M \
	--dir "$d" --record mc.jsonl >out 2>err
rc=$?
check "$T mincore: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(head -c 300 err)"
why=$(check_maps mc.jsonl 2 2>&1)
check "$T mincore: maps of method 2, ranges summing to the sample" '[ -z "$why" ]' "$why"
check "$T mincore: no dirty column (the reader cannot see it)" \
	'! grep "\"k\":\"pcmap\"" mc.jsonl | grep -q "\"d\":"' "a pcmap line with \"d\""
check "$T no scratch left behind" 'lrt_empty "$base/d1" && lrt_empty "$base/d2"' \
	"$(ls -A "$base"/d1 "$base"/d2)"

if ! command -v tmux >/dev/null 2>&1; then
	skip "$T TUI replay" "tmux not installed"
	exit 0
fi
# at a quarter of its pace: the map is there while the run is (none after
# it), and a 64M run can be over in 0.2 s, which polls under load can miss
tm_start rp 100 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay '$tmp/r.jsonl' --speed 0.25"
tm_wait rp "REPLAY" 10 >/dev/null
check "$T TUI replay at 100x30: the map's rows, cached cells in the source's" \
	"tm_until rp 15 \"tm_cap rp | grep -Eq '^ +src│.*[█▄]'\"" "$(tm_cap rp | tail -n 8)"
check "$T TUI replay at 100x30: and the destination's row" \
	"tm_cap rp | grep -Eq '^ +dst│[^ ]'" "$(tm_cap rp | tail -n 8)"
tm send-keys -t rp q
# the maps of the second half of the samples taken out: at the end the
# strip has none (a sample clears the map until its own comes), not the
# last one the replay saw
python3 - r.jsonl >half.jsonl <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
n = sum('"k":"sample"' in l for l in lines)
seen = 0
for l in lines:
    seen += '"k":"sample"' in l
    if '"k":"pcmap"' in l and seen > n // 2:
        continue
    print(l)
PY
tm_start hf 100 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay '$tmp/half.jsonl'"
tm_wait hf "REPLAY" 10 >/dev/null
tm send-keys -t hf End
check "$T TUI replay: past the last map, none (not the last one seen)" \
	"tm_until hf 15 \"tm_has hf 'no map yet'\"" "$(tm_cap hf | tail -n 8)"
tm send-keys -t hf q
tm send-keys -t rp q
