#!/bin/sh
# Page-cache residency of a real run: --results has the trailing
# dst_dirty_peak_kb, src_cached_end_pct and recently_evicted_end columns,
# filled (a run copies: its destination had dirty pages, some of its
# source was cached at the end); the recording stores the raw counts in
# its samples and replays to the same --results; forcing the mincore
# reader (LRUTOP_RESIDENCY=mincore) still fills the source's share; the
# TUI's replay of the recording draws the strip with the recorded values.
. "$(dirname "$0")/lib.sh"

T=residency
tmp=$(mktemp -d /tmp/lrutop-residency.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrutop-test-$$-resdir.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP
cd "$tmp" || exit 2

# col FILE ROW COLUMN: the cell of the ROW-th data row (1-based) under the
# header name COLUMN, "NOCOL" when there is no such column.
col() {
	awk -F, -v r="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		NR == r + 1 { print (k ? $k : "NOCOL"); exit }' "$1"
}

if cg=$(lrt_cgroot) && [ -n "$cg" ]; then limit="--mem-limit 32M"; else limit=""; fi
d=$base/d1
mkdir "$d"
# a short interval: several samples fall into even a fast copy
# shellcheck disable=SC2086
timeout 120 "$LRUTOP" --batch -q -i 0.05 -s rw_cp,mm_sync_cp $limit --size 64M --dir "$d" \
	--results live.csv --record r.jsonl >out 2>err
rc=$?
check "$T live run: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(head -c 300 err)"
check "$T --results: the residency columns trail the old ones" \
	'head -n 1 live.csv | grep -q ",verified,rd_at_burst,dst_dirty_peak_kb,src_cached_end_pct,recently_evicted_end"' \
	"$(head -n 1 live.csv)"
dirty=0 cached=0 filled=1
for row in 1 2; do
	dk=$(col live.csv $row dst_dirty_peak_kb) sc=$(col live.csv $row src_cached_end_pct)
	re=$(col live.csv $row recently_evicted_end)
	printf '%s\n' "$dk" | grep -Eq '^[0-9]+$' || filled=0
	printf '%s\n' "$sc" | grep -Eq '^[0-9]+(\.[0-9]+)?$' || filled=0
	printf '%s\n' "$re" | grep -Eq '^[0-9]+$' || filled=0
	[ "$filled" = 1 ] || break
	dirty=$((dirty + dk))
	awk -v s="$sc" 'BEGIN { exit !(s > 0 && s <= 100) }' && cached=$((cached + 1))
done
check "$T both runs have the three figures" '[ "$filled" = 1 ]' "$(cat live.csv)"
check "$T the destination had dirty pages (peak dirty > 0)" '[ "$dirty" -gt 0 ]' "$(cat live.csv)"
check "$T some of the source was cached at the copy's end (0 < % <= 100)" '[ "$cached" -ge 1 ]' \
	"$(cat live.csv)"
check "$T the table shows the columns" 'grep -q " dstDirty  *srcC%  *recEvict  *ok$" out' \
	"$(head -n 2 out)"

# the recording: raw counts per file in the samples of the runs
n=$(grep -c '"pcsc":' r.jsonl)
check "$T recording: samples carry the source's counts ($n)" '[ "$n" -ge 2 ]' \
	"$(grep -m 1 '"k":"sample"' r.jsonl | head -c 300)"
check "$T recording: and the destination's, dirty included" \
	'grep -q "\"pcdd\":[1-9]" r.jsonl' "no sample with pcdd > 0"
check "$T recording: samples between runs have none" \
	'grep -q "\"run\":-1" r.jsonl && ! grep "\"run\":-1" r.jsonl | grep -q "\"pcsc\""' \
	"$(grep '"run":-1' r.jsonl | grep -m 1 '"pcsc"' | head -c 300)"
check "$T recording: results carry the figures" \
	'[ "$(grep -c "\"k\":\"result\".*\"res\":{" r.jsonl)" -eq 2 ]' "$(grep '"k":"result"' r.jsonl | head -c 400)"
timeout 60 "$LRUTOP" --batch -q --replay r.jsonl --results replay.csv >/dev/null 2>err
rc=$?
check "$T replay: --results byte-identical" '[ "$rc" -eq 0 ] && cmp -s live.csv replay.csv' \
	"exit $rc $(head -c 200 err) $(diff live.csv replay.csv | head -c 300)"

# the mincore reader, forced: the source's share still comes, dirty cannot
d=$base/d2
mkdir "$d"
# shellcheck disable=SC2086
LRUTOP_RESIDENCY=mincore timeout 120 "$LRUTOP" --batch -q -i 0.05 -s rw_cp $limit --size 32M \
	--dir "$d" --results mc.csv --record mc.jsonl >out 2>err
rc=$?
check "$T mincore: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(head -c 300 err)"
sc=$(col mc.csv 1 src_cached_end_pct)
check "$T mincore: the source's share is there" \
	'printf "%s\n" "$sc" | grep -Eq "^[0-9]+(\.[0-9]+)?$"' "src_cached_end_pct '$sc'"
check "$T mincore: the samples say which reader (method 2)" 'grep -q "\"pcsm\":2" mc.jsonl' \
	"$(grep -m 1 '"pcsm"' mc.jsonl | head -c 300)"
check "$T mincore: no dirty count (the reader cannot see it)" '! grep -q "\"pcdd\":[1-9]" mc.jsonl' \
	"a sample with pcdd > 0"
check "$T no scratch left behind" 'lrt_empty "$base/d1" && lrt_empty "$base/d2"' "$(ls -A "$base"/d1 "$base"/d2)"

# the replay in the TUI: the Overview's strip with the recorded figures
if ! command -v tmux >/dev/null 2>&1; then
	skip "$T TUI replay" "tmux not installed"
	exit 0
fi
tm_start rp 130 40 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay '$tmp/r.jsonl' --speed 16"
tm_wait rp "REPLAY" 10 >/dev/null
tm send-keys -t rp End
check "$T TUI replay: the strip names its reader" \
	"tm_until rp 15 \"tm_has rp 'Page cache (% of each file, cachestat)'\"" "$(tm_cap rp | tail -n 12)"
check "$T TUI replay: the legend has the source's share" \
	"tm_until rp 5 \"tm_cap rp | grep -Eq 'src cached [0-9.]+%'\"" "$(tm_cap rp | grep 'Page cache')"
tm send-keys -t rp q
