#!/bin/sh
# --record: a real run recorded as JSON Lines (plain, FILE.gz, -z), the
# file made only after every check passed and never over an existing one,
# a write error reported like --csv's, a SIGKILLed recorder's prefix
# replays, and the R key of the TUI starts and stops a recording.
. "$(dirname "$0")/lib.sh"

T=record
lrt_scratch record

err_empty() { [ -s err ] && notok "$T $1: stderr empty" "$(head -c 300 err)" || ok "$T $1: stderr empty"; }

# ---- a real run -----------------------------------------------------------
if cg=$(lrt_cgroot) && [ -n "$cg" ]; then limit="--mem-limit 64M"; else limit=""; fi
# shellcheck disable=SC2086
lrt_expect "real run" 0 --batch -s rw_cp,mm_sync_cp $limit --size 32M --record r.jsonl --results live.csv
err_empty "real run"
head -n 1 r.jsonl >hdr
for key in '"lrutop_record":1' '"version":"' '"kernel":"' '"host":"' '"page_size":' '"cpus":' \
	'"mem_total_kb":' '"device":"' '"device_how":"' '"cgroup":' '"interval_s":0.25' \
	'"argv":[' '"--record","r.jsonl"' '"start_wall":"' '"start_mono_ns":' '"notes":"'; do
	grep -qF -- "$key" hdr && ok "$T header has $key" || notok "$T header has $key" "$(head -c 300 hdr)"
done
ns=$(grep -c '"k":"sample"' r.jsonl)
ne=$(grep -c '"k":"event"' r.jsonl)
nr=$(grep -c '"k":"result"' r.jsonl)
nl=$(grep -c '^ *[0-9][0-9.]* ' out)
check "$T one sample object per sample line ($ns, $nl lines)" '[ "$ns" -gt 3 ] && [ "$ns" -eq "$nl" ]'
check "$T event objects ($ne)" '[ "$ne" -ge 6 ] && [ "$ne" -eq "$(grep -c "^# " out)" ]'
check "$T two result objects ($nr)" '[ "$nr" -eq 2 ]'
check "$T samples carry every disk's diskstats row" 'grep "\"k\":\"sample\"" r.jsonl | head -n 1 | grep -q "\"dk\":{\"[a-z]"'
if [ -n "$limit" ]; then
	check "$T samples of a run carry its cgroup figures" 'grep -q "\"run\":1,.*\"gli\":67108864" r.jsonl'
else
	skip "$T samples of a run carry its cgroup figures" "no memory cgroup to run in"
fi
check "$T every line ends with a newline" '[ "$(tail -c 1 r.jsonl | od -An -c | tr -d " ")" = "\\n" ]'
if command -v jq >/dev/null 2>&1; then
	check "$T every line is one JSON object" 'jq -e "type == \"object\"" r.jsonl >/dev/null'
else
	skip "$T every line is one JSON object" "jq not installed"
fi

# ---- compressed -------------------------------------------------------------
lrt_expect "FILE.gz" 0 --batch -n 4 --record r.jsonl.gz
check "$T FILE.gz is gzip" 'gzip -t r.jsonl.gz && [ "$(gzip -dc r.jsonl.gz | grep -c "\"k\":\"sample\"")" -eq 4 ]'
lrt_expect "-z" 0 --batch -n 3 -z --record z.jsonl
check "$T -z compresses whatever the name" 'gzip -t z.jsonl && gzip -dc z.jsonl | head -n 1 | grep -q lrutop_record'

# ---- files lrutop did not make, and usage errors ------------------------------
echo precious >keep.jsonl
lrt_expect "existing file" 2 --batch -n 2 --record keep.jsonl
err_is "existing file" "--record keep.jsonl: already exists"
check "$T an existing file is left alone" '[ "$(cat keep.jsonl)" = precious ]'
lrt_expect "usage error" 2 --batch -n 2 --record new.jsonl -d no-such-disk
err_is "usage error" "-d no-such-disk: no such disk"
check "$T no file after a usage error" '[ ! -e new.jsonl ]'
lrt_expect "results without runs" 2 --batch -n 2 --record new.jsonl --results new.csv
check "$T no file after a late check fails" '[ ! -e new.jsonl ] && [ ! -e new.csv ]'
lrt_expect "same file as --results" 2 --batch -s rw_cp --size 1M --results same.x --record same.x
err_is "same file as --results" "--results and --record same.x: the same file"
check "$T no file when --record names --results' file" '[ ! -e same.x ]'
lrt_expect "missing directory" 2 --batch -n 2 --record nodir/x.jsonl
err_is "missing directory" "--record nodir/x.jsonl: No such file or directory"
lrt_expect "empty name" 2 --batch --record ''
err_is "empty name" "--record: empty file name"

# A write error: the file size limit makes write(2) fail with EFBIG
# (SIGXFSZ ignored), as a full disk would with ENOSPC.
sh -c 'trap "" XFSZ; ulimit -f 4; exec "$0" --batch -i 0.05 -n 200 --record big.jsonl' "$LRUTOP" >out 2>err
st=$?
check "$T write error: exit 1" '[ "$st" = 1 ]' "exit $st: $(head -c 300 err)"
err_is "write error" "lrutop: --record big.jsonl: write error: File too large"

# ---- SIGKILL while recording: the prefix replays ------------------------------
for f in k.jsonl k.jsonl.gz; do
	"$LRUTOP" --batch -i 0.05 --record "$f" >/dev/null 2>&1 &
	pid=$!
	wait_for 20 "[ \"\$(gzip -dcf $f 2>/dev/null | grep -c '\"k\":\"sample\"')\" -ge 6 ]"
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	timeout 30 "$LRUTOP" --batch --replay "$f" >out 2>err
	st=$?
	n=$(grep -c '^ *[0-9][0-9.]* ' out)
	check "$T SIGKILLed $f replays (exit $st, $n lines)" '[ "$st" = 0 ] && [ "$n" -ge 6 ]' "$(head -c 300 err)"
	check "$T SIGKILLed $f: at most a warning" '[ ! -s err ] || { [ "$(wc -l <err)" -eq 1 ] && grep -q "^lrutop: warning: $f:[0-9]*: .*cut short" err; }' "$(head -c 300 err)"
done

# ---- the R key ------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "$T R key" "tmux not installed"
else
	mkdir tui && cd tui || exit 2
	s=rec
	tm_start "$s" 120 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' -i 0.1"
	tm_wait "$s" "MiB/s" 10 && tm send-keys -t "$s" R
	if tm_wait "$s" "recording to lrutop-" 5; then ok "$T R: status names the file"; else notok "$T R: status names the file" "$(tm_cap "$s" | tail -n 1)"; fi
	if tm_cap "$s" | head -n 1 | grep -q "● REC"; then ok "$T R: header shows REC"; else notok "$T R: header shows REC" "$(tm_cap "$s" | head -n 1)"; fi
	wait_for 10 "[ \"\$(cat lrutop-*.jsonl 2>/dev/null | grep -c '\"k\":\"sample\"')\" -ge 3 ]"
	tm send-keys -t "$s" R
	if tm_wait "$s" "recorded lrutop-" 5; then ok "$T R again: stopped"; else notok "$T R again: stopped" "$(tm_cap "$s" | tail -n 1)"; fi
	if tm_cap "$s" | head -n 1 | grep -q "REC"; then notok "$T R again: REC gone" "$(tm_cap "$s" | head -n 1)"; else ok "$T R again: REC gone"; fi
	set -- lrutop-*.jsonl
	nf=$# f1=$1
	check "$T R: one file, named lrutop-YYYYmmdd-HHMMSS.jsonl" '[ "$nf" -eq 1 ] && echo "$f1" | grep -Eq "^lrutop-[0-9]{8}-[0-9]{6}\.jsonl$"' "$*"
	n1=$(grep -c '"k":"sample"' "$f1")
	tm send-keys -t "$s" q
	wait_for 10 "tm_has $s EXIT="
	check "$T R: exit 0" 'tm_has "$s" EXIT=0'
	check "$T R: stopped file is not written to" '[ "$(grep -c "\"k\":\"sample\"" "$f1")" = "$n1" ]'
	timeout 30 "$LRUTOP" --batch --replay "$f1" >../out 2>../err
	check "$T R: the file replays" '[ $? = 0 ] && [ ! -s ../err ]' "$(head -c 300 ../err)"
	cd .. || exit 2
fi
