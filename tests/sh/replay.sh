#!/bin/sh
# --replay: a real run recorded and replayed in batch gives the same sample
# lines, event lines, results and statistics, and a byte-identical
# --results; --replay-at; bad recordings (wrong version, a bad line, a cut
# last line, not JSON, empty, a directory, /dev/zero) and options a replay
# cannot take; the recording's notes and device; the TUI: header, speed,
# pause, End, j.
. "$(dirname "$0")/lib.sh"

T=replay
# the bench's generator for the long gzip recording below (before the
# scratch directory: BUILD is relative to the tree)
GEN=$(cd "${BUILD:-build}" 2>/dev/null && pwd)/bench/record_size
lrt_scratch replay

# ---- the same run, live and replayed ------------------------------------------
if cg=$(lrt_cgroot) && [ -n "$cg" ]; then limit="--mem-limit 64M"; else limit=""; fi
# shellcheck disable=SC2086
lrt_expect "live run" 0 --batch -s rw_cp,mm_sync_cp $limit --size 128M --record r.jsonl --results live.csv
mv out live.out
lrt_expect "batch replay" 0 --batch --replay r.jsonl --results replay.csv
check "$T stderr empty" '[ ! -s err ]' "$(head -c 300 err)"
check "$T --results byte-identical" 'cmp -s live.csv replay.csv' "$(diff live.csv replay.csv | head -c 300)"
check "$T same sample lines, events, results and statistics" 'cmp -s live.out out' "$(diff live.out out | head -c 400)"
gzip -c r.jsonl >r.jsonl.gz
lrt_expect "a gzipped recording" 0 --batch --replay r.jsonl.gz --results gz.csv
check "$T a gzipped recording gives the same results" 'cmp -s live.csv gz.csv'
check "$T -q prints only the tables" 'timeout 60 "$LRUTOP" --batch -q --replay r.jsonl | head -n 1 | grep -q "^strategy "'

# --replay-at: the first line is at (or just after) that time
lrt_expect "--replay-at 1.5" 0 --batch --replay r.jsonl --replay-at 1.5
first=$(grep -m 1 '^ *[0-9][0-9.]* ' out | awk '{ print $1 }')
check "$T --replay-at starts there ($first)" 'awk -v t="$first" "BEGIN { exit !(t >= 1.5 && t < 2.5) }"'
check "$T --replay-at keeps the whole run log" 'grep -q "^rw_cp " out && grep -q "^mm_sync_cp " out'
lrt_expect "--replay-at 0:01" 0 --batch -q --replay r.jsonl --replay-at 0:01

# --speed 4 paces the batch replay: a quarter of the recorded time, roughly
len=$(grep '^ *[0-9][0-9.]* ' live.out | tail -n 1 | awk '{ print $1 }')
t0=$(now_cs)
lrt_expect "--speed 4" 0 --batch -q --replay r.jsonl --speed 4
dt=$(($(now_cs) - t0))
check "$T --speed 4 takes about a quarter of ${len}s (${dt}cs)" 'awk -v l="$len" -v d="$dt" "BEGIN { exit !(d / 100 >= l / 4 * 0.8 && d / 100 < l) }"'

# ---- options a replay cannot take ----------------------------------------------
for o in "-s rw_cp" "--cmd true" "--mem-limit 64M" "-d vda" "-i 1" "--dir /tmp" "--record x.jsonl" "--demo"; do
	# shellcheck disable=SC2086
	lrt_expect "--replay with $o" 2 --batch --replay r.jsonl $o
	err_is "--replay with $o" "${o%% *}: not with --replay"
done
check "$T nothing made by a refused --record" '[ ! -e x.jsonl ]'
lrt_expect "--speed 32" 2 --batch --replay r.jsonl --speed 32
err_is "--speed 32" "--speed 32: a factor from 0.25 to 16"
lrt_expect "--replay-at x" 2 --batch --replay r.jsonl --replay-at x
err_is "--replay-at x" "--replay-at x: not a time"
lrt_expect "--speed without --replay" 2 --batch --speed 2
err_is "--speed without --replay" "--speed: only with --replay FILE"

# ---- bad recordings ----------------------------------------------------------------
bad() { # bad NAME FILE TEXT: exit 2, one line naming TEXT, no --results made
	lrt_expect "$1" 2 --batch --replay "$2" --results made.csv
	err_is "$1" "$3"
	check "$T $1: no --results left" '[ ! -e made.csv ]'
}
sed '1s/"lrutop_record":1/"lrutop_record":99/' r.jsonl >v99.jsonl
bad "unknown major version" v99.jsonl "v99.jsonl:1: "
sed '5s/.*/{"k":"sample","t":/' r.jsonl >badline.jsonl
bad "a bad line" badline.jsonl "badline.jsonl:5: "
sed '6s/"t":[0-9]*/"t":"soon"/' r.jsonl >badfield.jsonl
bad "a bad field" badfield.jsonl "badfield.jsonl:6: "
printf 'hello world\n' >text.jsonl
bad "not JSON" text.jsonl "text.jsonl:1: "
: >empty.jsonl
bad "empty" empty.jsonl "empty.jsonl"
mkdir dir.jsonl
bad "a directory" dir.jsonl "dir.jsonl"
bad "/dev/zero" /dev/zero "/dev/zero"
bad "missing" nosuch.jsonl "nosuch.jsonl"
head -n 1 r.jsonl >hdronly.jsonl
bad "header only" hdronly.jsonl "hdronly.jsonl: no samples"

# a cut last line (a crash): a warning, the rest replays
size=$(wc -c <r.jsonl)
head -c $((size - 40)) r.jsonl >cut.jsonl
lines=$(wc -l <cut.jsonl)
lrt_expect "cut last line" 0 --batch --replay cut.jsonl
check "$T cut last line: one warning naming the line" '[ "$(wc -l <err)" -eq 1 ] && grep -q "^lrutop: warning: cut.jsonl:$((lines + 1)): " err' "$(head -c 300 err)"
check "$T cut last line: the rest replays" 'grep -q "^rw_cp " out'

# the recording's machine: its device and notes, not this one's
sed '1s/"device":"[^"]*"/"device":"sdz"/; 1s/"notes":"[^"]*"/"notes":"no PSI (test note)"/' r.jsonl >other.jsonl

# ---- the TUI ---------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "$T TUI" "tmux not installed"
	exit 0
fi
hdr() { tm_cap "$1" | head -n 1; }
s=rp
tm_start "$s" 130 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay r.jsonl --speed 0.25"
if tm_wait "$s" "REPLAY" 10; then ok "$T TUI: header says REPLAY"; else notok "$T TUI: header says REPLAY" "$(hdr $s)"; fi
h=$(hdr $s)
host=$(sed -n '1s/.*"host":"\([^"]*\)".*/\1/p' r.jsonl)
kern=$(sed -n '1s/.*"kernel":"\([^"]*\)".*/\1/p' r.jsonl)
day=$(sed -n '1s/.*"start_wall":"\([0-9-]*\)T.*/\1/p' r.jsonl)
case $h in *"$host"*"$kern"*"$day"*) ok "$T TUI: header names host, kernel, date" ;; *) notok "$T TUI: header names host, kernel, date" "$h" ;; esac
case $h in *"t = "*" s / "*" s  0.25×"*) ok "$T TUI: header shows t = and the speed" ;; *) notok "$T TUI: header shows t = and the speed" "$h" ;; esac
tm send-keys -t "$s" '>'
if tm_wait "$s" "0.5×" 5; then ok "$T TUI: > doubles the speed"; else notok "$T TUI: > doubles the speed" "$(hdr $s)"; fi
tm send-keys -t "$s" ' '
if tm_wait "$s" "paused" 5; then ok "$T TUI: space pauses"; else notok "$T TUI: space pauses" "$(hdr $s)"; fi
p1=$(hdr $s | sed -n 's/.*t = \([0-9.]*\) s.*/\1/p')
sleep 0.5 # the poll period: a paused replay must not move in it
p2=$(hdr $s | sed -n 's/.*t = \([0-9.]*\) s.*/\1/p')
check "$T TUI: paused stays put ($p1, $p2)" '[ -n "$p1" ] && [ "$p1" = "$p2" ]'
tm send-keys -t "$s" End
if tm_until "$s" 5 "hdr $s | grep -Eq 't = ([0-9.]+) s / \\1 s'"; then ok "$T TUI: End jumps to the end"; else notok "$T TUI: End jumps to the end" "$(hdr $s)"; fi
tm send-keys -t "$s" j
if tm_wait "$s" "jump to" 5; then ok "$T TUI: j opens the prompt"; else notok "$T TUI: j opens the prompt" "$(tm_cap $s | tail -n 1)"; fi
tm send-keys -t "$s" 1 Enter
if tm_until "$s" 5 "hdr $s | grep -Eq 't = 1\\.[0-9] s / '"; then ok "$T TUI: j 1 jumps to 1 s"; else notok "$T TUI: j 1 jumps to 1 s" "$(hdr $s)"; fi
tm send-keys -t "$s" Home
if tm_until "$s" 5 "hdr $s | grep -q 't = 0.0 s / '"; then ok "$T TUI: Home goes to the start"; else notok "$T TUI: Home goes to the start" "$(hdr $s)"; fi
tm send-keys -t "$s" ']'
if tm_until "$s" 5 "! hdr $s | grep -q 't = 0.0 s / '"; then ok "$T TUI: ] goes to the next run event"; else notok "$T TUI: ] goes to the next run event" "$(hdr $s)"; fi
tm send-keys -t "$s" q
wait_for 10 "tm_has $s EXIT="
check "$T TUI: q exits 0" 'tm_has "$s" EXIT=0' "$(tm_cap $s | tail -n 3)"

s=ot
tm_start "$s" 130 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay other.jsonl"
if tm_wait "$s" "no PSI (test note)" 10; then ok "$T TUI: the recording's notes"; else notok "$T TUI: the recording's notes" "$(tm_cap $s | tail -n 1)"; fi
if tm_wait "$s" "Disk sdz" 5; then ok "$T TUI: the recording's device"; else notok "$T TUI: the recording's device" "$(tm_cap $s | sed -n 2p)"; fi
tm send-keys -t "$s" q
wait_for 10 "tm_has $s EXIT="
check "$T TUI (other machine): q exits 0" 'tm_has "$s" EXIT=0'

s=cv
tm_start "$s" 130 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay r.jsonl --csv no.csv"
wait_for 10 "tm_has $s EXIT="
check "$T TUI --replay with --csv: exit 2" 'tm_has "$s" EXIT=2 && tm_has "$s" "lrutop: --csv: with --replay only in --batch"' "$(tm_cap $s | head -n 3)"
check "$T TUI --replay with --csv: no file" '[ ! -e no.csv ]'

# ---- a long gzip recording: its jumps land where the plain one's do ---------
# 30k samples from the bench's generator (~40 MB of text: its access points
# are 4 MiB apart, record.h), gzip as the recorder writes it and the same
# text plain, replayed side by side; the same keys to both (End, j 2000,
# Home), and after each the screen below the header is the plain one's,
# whole: y labels and chart titles too.  The plain one is paused at once,
# the gzip one only after 40 s of recording at 16x: a paused frame after a
# jump is a new plot's of its window, whatever was played before.  (The
# plot used to keep the played frames' scales across a jump: Home drew the
# start under them, 500 for 1.5, and how much had been played before a
# pause was timing, so it showed now and then.)
if [ ! -x "$GEN" ]; then
	skip "$T TUI gzip jumps" "no $GEN (make tests builds it)"
	exit 0
fi
"$GEN" --out long.jsonl.gz -n 30000 >gen.out 2>&1 && gzip -dc long.jsonl.gz >long.jsonl
check "$T TUI gzip jumps: the recordings" '[ -s long.jsonl ]' "$(head -c 300 gen.out)"
# body NAME: the screen without its header row (it names the file)
body() { tm_cap "$1" | sed 1d; }
# both KEY: once both headers say KEY has landed, the two screens below
# them into long.jsonl.KEY and long.jsonl.gz.KEY, taken again until they
# are the same (a frame reaches tmux in several writes), 10 s at most: a
# screen that differs stays different, paused
both() {
	wait_for 10 "body lp >long.jsonl.$1; body lz >long.jsonl.gz.$1; cmp -s long.jsonl.$1 long.jsonl.gz.$1" 0.1
}
# keys KEY...: the same keys to both
keys() { for _s in lp lz; do tm send-keys -t "$_s" "$@"; done; }
# landed SECONDS 'condition on $s': both headers
landed() { for s in lp lz; do tm_until "$s" "$1" "$2" >/dev/null; done; }
tm_start lz 130 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay long.jsonl.gz --speed 16"
tm pipe-pane -o -t lz "cat >>'$PWD/long.jsonl.gz.tty'"
tm_start lp 130 30 "env TERM=tmux-256color LANG=C.UTF-8 '$LRUTOP' --replay long.jsonl"
tm_wait lp "REPLAY" 60 >/dev/null
tm send-keys -t lp ' '
tm_wait lp "paused" 10 >/dev/null
tm_wait lz "REPLAY" 60 >/dev/null
tm_until lz 30 "hdr lz | grep -Eq 't = ([4-9][0-9]|[0-9]{3,})\\.[0-9] s / '" >/dev/null
tm send-keys -t lz ' '
tm_wait lz "paused" 10 >/dev/null
played=$(hdr lz | sed -n 's/.*t = \([0-9.]*\) s.*/\1/p')
check "$T TUI gzip jumps: one played 40 s before its pause ($played s)" \
	'awk -v t="$played" "BEGIN { exit !(t >= 40) }"' "$(hdr lz)"
keys End
landed 10 "hdr \$s | grep -Eq 't = ([0-9.]+) s / \\1 s'"
both end
keys j
landed 5 "tm_has \$s 'jump to'"
keys 2000 Enter
landed 10 "hdr \$s | grep -Eq 't = 2000\\.[0-9] s / '"
both j
hdr lz >long.jsonl.gz.jh
keys Home
landed 10 "hdr \$s | grep -q 't = 0.0 s / '"
both home
keys q
for s in lp lz; do
	wait_for 10 "tm_has $s EXIT="
	tm kill-session -t "$s" 2>/dev/null
done
# the first read of 30k lines takes a second or so (~25 µs a line): long
# enough for the line that says how far it is (every 0.2 s), taken away
# before the first frame
check "$T TUI: a long first read says how far it is" \
	'grep -aq "lrutop: reading long.jsonl.gz: *[0-9]* % ([0-9]* samples)" long.jsonl.gz.tty' \
	"$(head -c 200 long.jsonl.gz.tty | od -c | head -n 4 | tr '\n' '|')"
check "$T TUI: ... and the first frame does not show it" '! grep -q "lrutop: reading" long.jsonl.gz.end' \
	"$(head -n 2 long.jsonl.gz.end)"
check "$T TUI gzip jumps: j 2000 lands at 2000 s" 'grep -q "t = 2000\.[0-9] s / " long.jsonl.gz.jh' "$(cat long.jsonl.gz.jh)"
for k in end j home; do
	check "$T TUI gzip jumps: the screen after $k is the plain recording's" \
		'[ -s long.jsonl.$k ] && cmp -s long.jsonl.$k long.jsonl.gz.$k' \
		"$(diff long.jsonl.$k long.jsonl.gz.$k | head -n 6 | cut -c1-120 | tr '\n' '|')"
done
