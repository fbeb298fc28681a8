#!/bin/sh
# Talk mode (docs/talk.md): a bad script line is reported FILE:LINE
# before anything runs; the real TUI in tmux steps through a script with
# space and goes back with the left arrow; --rehearse records a run step's
# fallback; cancelling the live run (c) plays that fallback, and the
# header says so.  Tiny files, no memory or disk limits: a few seconds.
. "$(dirname "$0")/lib.sh"

T=talk
tmp=$(mktemp -d /tmp/lrt-talk.XXXXXX) || exit 2
# the scratch --dir on a real disk, so nothing lands in /var/tmp itself
scratch=$(mktemp -d /var/tmp/lrt-talk.XXXXXX) || exit 2
trap 'tm_cleanup; rm -rf "$tmp" "$scratch"' EXIT
trap 'exit 2' INT TERM HUP

run_env="env TERM=xterm-256color LANG=C.UTF-8"
LR="'$LRUTOP' --dir '$scratch'"
# the pane's lrutop has ended with status $1 (EXIT= shown)
ended() { tm_wait "$1" EXIT= 20 && tm_has "$1" "EXIT=$2"; }
show() { tm_cap "$1" | sed 's/ *$//' | grep -v '^$' | head -n "${2:-4}" | cut -c1-120 | tr '\n' '|'; }
scratch_empty() { [ -z "$(ls -A "$scratch")" ]; }

# ---- a bad line: FILE:LINE, exit 2, nothing ran --------------------------
printf 'caption fine\nrun rw_cp --size 1M\n# a comment\nview 9\n' >"$tmp/bad.talk"
"$LRUTOP" --dir "$scratch" --talk "$tmp/bad.talk" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
line=$(head -n 1 "$tmp/err")
check "$T bad line: exit 2" '[ $rc -eq 2 ]' "exit $rc: $line"
check "$T bad line: reported as FILE:LINE" \
	'[ "$line" = "lrutop: $tmp/bad.talk:4: view 9: not a view (1-4, overview, iostat, vmstat, runs)" ]' "$line"
check "$T bad line: nothing ran (no scratch directory)" scratch_empty "$(ls "$scratch")"
printf 'run rw_cp --size 1M --bogus\n' >"$tmp/bad2.talk"
"$LRUTOP" --dir "$scratch" --talk "$tmp/bad2.talk" </dev/null 2>"$tmp/err"
rc=$?
check "$T bad run option: FILE:LINE, exit 2" \
	'[ $rc -eq 2 ] && grep -qF "bad2.talk:1: run: --bogus: unknown option" "$tmp/err"' "exit $rc: $(head -n 1 "$tmp/err")"

# the shipped example is a good script (only the terminal is missing here),
# and its fallback a rehearsal's, which a new rehearsal may replace
ex=$(pwd)/examples/2008.talk
for mode in "" --rehearse; do
	(cd "$tmp" && "$LRUTOP" --dir "$scratch" --talk "$ex" $mode </dev/null >/dev/null 2>"$tmp/err")
	rc=$?
	check "$T examples/2008.talk ${mode:-(talk)}: checks out" \
		'[ $rc -eq 2 ] && grep -qF "2008.talk: needs a terminal" "$tmp/err"' "exit $rc: $(head -n 1 "$tmp/err")"
done

if ! command -v tmux >/dev/null 2>&1; then
	skip "$T tui" "tmux not installed"
	exit 0
fi

# ---- space goes on, left goes back -----------------------------------------
cat >"$tmp/short.talk" <<S
caption Alpha caption
pause
caption Bravo: a tiny copy
run rw_cp --size 4M --no-verify
wait
view 4
export-svg $tmp/runs.svg
caption Charlie on the Runs view
pause
caption Delta
S
s=short
tm_start $s 120 40 "$run_env $LR --talk '$tmp/short.talk'"
if tm_wait $s "Alpha caption" 15; then ok "$T short: the first caption"; else notok "$T short: the first caption" "$(show $s 6)"; fi
check "$T short: the pause says which key goes on" 'tm_has $s "space → on"' "$(show $s 3)"
# a pause holds: for two seconds nothing after it happens
if wait_for 2 "tm_has $s Bravo || tm_has $s rw_cp"; then notok "$T short: the pause waits for a key" "$(show $s 3)"; else ok "$T short: the pause waits for a key"; fi
tm send-keys -t $s Space
if tm_wait $s "Charlie on the Runs view" 30; then ok "$T short: space goes on (run, wait, view 4)"; else notok "$T short: space goes on (run, wait, view 4)" "$(show $s 6)"; fi
check "$T short: the Runs view with the finished run" 'tm_has $s "Runs: " && tm_has $s "all 1 run done"' "$(show $s 4)"
check "$T short: export-svg wrote the Runs view" 'grep -q "<svg" "$tmp/runs.svg" && grep -q "rw_cp" "$tmp/runs.svg"' "$(ls "$tmp")"
svgsum=$(file_sum "$tmp/runs.svg")
tm send-keys -t $s Left
if tm_wait $s "Alpha caption" 10; then ok "$T short: left goes back to the previous pause"; else notok "$T short: left goes back to the previous pause" "$(show $s 6)"; fi
check "$T short: back on the Overview it showed then" 'tm_has $s "Disk " && ! tm_has $s "Charlie"' "$(show $s 4)"
tm send-keys -t $s Right
if tm_wait $s "Charlie on the Runs view" 10; then ok "$T short: right goes on again"; else notok "$T short: right goes on again" "$(show $s 6)"; fi
check "$T short: passing the run step again does not run it again" 'tm_has $s "all 1 run done"' "$(show $s 4)"
check "$T short: nor export again" '[ "$(file_sum "$tmp/runs.svg")" = "$svgsum" ] && ! tm_has $s "already exists"' "$(tm_cap $s | tail -n 1)"
tm send-keys -t $s Space
if tm_wait $s "Delta" 10 && tm_wait $s "the end" 5; then ok "$T short: the last step"; else notok "$T short: the last step" "$(show $s 6)"; fi
tm send-keys -t $s q
if ended $s 0; then ok "$T short: q, exit 0"; else notok "$T short: q, exit 0" "$(show $s 4)"; fi
check "$T short: the scratch directory is gone" scratch_empty "$(ls "$scratch")"

# ---- a clicker's keys: PageDown / PageUp step, Home restarts, b blanks ----
cat >"$tmp/click.talk" <<S
caption Kilo caption
pause
caption Lima caption
pause
caption Mike caption
pause
S
k=click
blank() { [ -z "$(tm_cap $k | tr -d ' \n')" ]; }
# TERM=screen, tmux's default: 8 colours, and Home is \e[1~ there
tm_start $k 100 30 "env TERM=screen LANG=C.UTF-8 $LR --talk '$tmp/click.talk'"
tm_wait $k "Kilo caption" 15 || notok "$T click: the first caption" "$(show $k 6)"
tm send-keys -t $k NPage
if tm_wait $k "Lima caption" 10; then ok "$T click: PageDown goes on"; else notok "$T click: PageDown goes on" "$(show $k 6)"; fi
tm send-keys -t $k NPage
tm_wait $k "Mike caption" 10 || notok "$T click: PageDown again" "$(show $k 6)"
tm send-keys -t $k PPage
if tm_wait $k "Lima caption" 10; then ok "$T click: PageUp goes back"; else notok "$T click: PageUp goes back" "$(show $k 6)"; fi
tm send-keys -t $k Home
if tm_wait $k "Kilo caption" 10; then ok "$T click: Home goes back to the first pause"; else notok "$T click: Home goes back to the first pause" "$(show $k 6)"; fi
tm send-keys -t $k b
if tm_until $k 10 blank; then ok "$T click: b blanks the screen (header too)"; else notok "$T click: b blanks the screen (header too)" "$(show $k 3)"; fi
# the next key only shows the screen again: PageDown does not also go on
tm send-keys -t $k NPage
if tm_wait $k "Kilo caption" 10 && tm_has $k "Disk "; then ok "$T click: a key after b shows the screen again, where it was"; else notok "$T click: a key after b shows the screen again, where it was" "$(show $k 6)"; fi
tm send-keys -t $k b
tm_until $k 10 blank || notok "$T click: b blanks again" "$(show $k 3)"
tm send-keys -t $k b
if tm_wait $k "Kilo caption" 10; then ok "$T click: b restores"; else notok "$T click: b restores" "$(show $k 6)"; fi
tm send-keys -t $k h
if tm_wait $k "PgDn PgUp" 10 && tm_has $k "talk: blank the screen"; then ok "$T click: the help lists the talk keys"; else notok "$T click: the help lists the talk keys" "$(tm_cap $k | grep -i talk | head -n 3 | tr '\n' '|')"; fi
tm send-keys -t $k Space
tm_wait_gone $k "PgDn PgUp" 10 || notok "$T click: a key closes the help" "$(show $k 6)"
tm send-keys -t $k NPage
tm_wait $k "Lima caption" 10 || notok "$T click: on after the help" "$(show $k 6)"
tm send-keys -t $k NPage NPage
tm_wait $k "the end" 10 || notok "$T click: the end" "$(show $k 6)"
tm send-keys -t $k PPage
if tm_wait $k "Mike caption" 10; then ok "$T click: PageUp works after the end"; else notok "$T click: PageUp works after the end" "$(show $k 6)"; fi
tm send-keys -t $k q
if ended $k 0; then ok "$T click: q, exit 0"; else notok "$T click: q, exit 0" "$(show $k 4)"; fi

# ---- --rehearse records the fallback --------------------------------------
cat >"$tmp/fb.talk" <<'S'
caption Rehearsed caption
run rw_cp --size 4M --no-verify fallback fb.jsonl.gz
wait
caption Echo after the run
pause
S
r=rehearse
tm_start $r 120 40 "$run_env $LR --talk '$tmp/fb.talk' --rehearse"
# the pause of a rehearsal goes on by itself
if tm_wait $r "the end" 40; then ok "$T rehearse: every step done without a key"; else notok "$T rehearse: every step done without a key" "$(show $r 6)"; fi
check "$T rehearse: the fallback was recorded" '[ -s "$tmp/fb.jsonl.gz" ] && [ ! -e "$tmp/fb.jsonl.gz.part.gz" ]' "$(ls "$tmp")"
hdr=$(gzip -dc "$tmp/fb.jsonl.gz" 2>/dev/null | head -n 1)
check "$T rehearse: its header carries the rehearsal's command line" \
	'case $hdr in *\"--rehearse\"*) true ;; *) false ;; esac' "$(printf %s "$hdr" | cut -c1-200)"
check "$T rehearse: its runs' configuration says a rehearsal made it" \
	'case $hdr in *\"config\":*\"rehearsal\":1*) true ;; *) false ;; esac' \
	"$(printf %s "$hdr" | grep -o '"config":{[^}]*}')"
check "$T rehearse: it holds the run's result" \
	'gzip -dc "$tmp/fb.jsonl.gz" | grep -q "\"k\":\"result\".*\"name\":\"rw_cp\""' "no result line"
tm send-keys -t $r q
if ended $r 0; then ok "$T rehearse: exit 0"; else notok "$T rehearse: exit 0" "$(show $r 4)"; fi
sum0=$(file_sum "$tmp/fb.jsonl.gz")
# a second rehearsal replaces what the first one wrote
r2=rehearse2
tm_start $r2 120 40 "$run_env $LR --talk '$tmp/fb.talk' --rehearse"
if tm_wait $r2 "the end" 40 && tm_wait $r2 "recorded" 5; then ok "$T rehearse again: done"; else notok "$T rehearse again: done" "$(show $r2 6)"; fi
tm send-keys -t $r2 q
ended $r2 0 || notok "$T rehearse again: exit 0" "$(show $r2 4)"
sum1=$(file_sum "$tmp/fb.jsonl.gz")
check "$T rehearse again: a rehearsal's fallback is replaced" '[ "$sum1" != "$sum0" ] && [ "$sum1" != missing ]' "$sum0 -> $sum1"
# ... but a recording that a rehearsal did not write is refused up front
# (what says so is the header's runs' configuration, not its argv)
gzip -dc "$tmp/fb.jsonl.gz" | sed '1s/"rehearsal":1/"rehearsal":0/' | gzip >"$tmp/plain.jsonl.gz"
sed 's/fb.jsonl.gz/plain.jsonl.gz/' "$tmp/fb.talk" >"$tmp/plain.talk"
psum=$(file_sum "$tmp/plain.jsonl.gz")
"$LRUTOP" --dir "$scratch" --talk "$tmp/plain.talk" --rehearse </dev/null 2>"$tmp/err"
rc=$?
check "$T rehearse: a fallback it did not write is refused (exit 2, FILE:LINE)" \
	'[ $rc -eq 2 ] && grep -qF "plain.talk:2: run: fallback" "$tmp/err" && grep -qF "not made by a rehearsal" "$tmp/err"' "exit $rc: $(head -n 1 "$tmp/err")"
check "$T rehearse: ... and left as it was" '[ "$(file_sum "$tmp/plain.jsonl.gz")" = "$psum" ]' changed

# ---- c during the live run: the fallback plays -----------------------------
# the sleeper's length is this suite's own (the other build's talk.sh may
# have its sleeper running beside it)
zz=987.$$
cat >"$tmp/cancel.talk" <<S
caption Foxtrot live
run rw_cp --size 4M --no-verify --cmd 'sleep $zz' --name sleeper fallback fb.jsonl.gz
wait
caption Golf after the fallback
pause
S
c=cancel
tm_start $c 120 40 "$run_env $LR --talk '$tmp/cancel.talk'"
if tm_wait $c "sleeper" 30; then ok "$T fallback: the live run is going"; else notok "$T fallback: the live run is going" "$(show $c 6)"; fi
check "$T fallback: live, no replay yet" '! tm_has $c REPLAY' "$(show $c 2)"
tm send-keys -t $c c
if tm_wait $c "REPLAY (fallback)" 15; then ok "$T fallback: the header says REPLAY (fallback)"; else notok "$T fallback: the header says REPLAY (fallback)" "$(show $c 4)"; fi
check "$T fallback: the status line says why" 'tm_has $c "was cancelled"' "$(tm_cap $c | tail -n 2 | tr '\n' '|')"
if tm_wait $c "Golf after the fallback" 30; then ok "$T fallback: the wait ends with the recorded run"; else notok "$T fallback: the wait ends with the recorded run" "$(show $c 6)"; fi
check "$T fallback: the recording was only read" '[ "$(file_sum "$tmp/fb.jsonl.gz")" = "$sum1" ]' "changed"
tm send-keys -t $c q
if ended $c 0; then ok "$T fallback: exit 0"; else notok "$T fallback: exit 0" "$(show $c 4)"; fi
check "$T fallback: the live run's scratch directory is gone" scratch_empty "$(ls "$scratch")"
check "$T fallback: no sleeper left" '! pgrep -fx "sleep $zz" >/dev/null' "$(pgrep -afx "sleep $zz")"

# ---- q during a rehearsal: exit 1, the old fallback stays, no .part -------
q=quitrehearsal
tm_start $q 120 40 "$run_env $LR --talk '$tmp/cancel.talk' --rehearse"
if tm_wait $q "sleeper" 30; then ok "$T rehearse, q: the run is going"; else notok "$T rehearse, q: the run is going" "$(show $q 6)"; fi
tm send-keys -t $q q
if ended $q 1; then ok "$T rehearse, q: exit 1"; else notok "$T rehearse, q: exit 1" "$(show $q 4)"; fi
check "$T rehearse, q: says the fallback was not written" 'tm_has $q "cancel.talk:2: rehearsal cut short; fallback"' "$(tm_cap $q | grep lrutop: | head -n 2)"
check "$T rehearse, q: the old fallback is as it was, no .part" \
	'[ "$(file_sum "$tmp/fb.jsonl.gz")" = "$sum1" ] && [ ! -e "$tmp/fb.jsonl.gz.part.gz" ]' "$(ls "$tmp")"

# ---- a run that cannot start (no room for 100 TiB): the fallback plays ------
printf 'run rw_cp --size 100T fallback fb.jsonl.gz\nwait\ncaption Hotel after it\npause\n' >"$tmp/nospace.talk"
n=nospace
tm_start $n 120 40 "$run_env $LR --talk '$tmp/nospace.talk'"
if tm_wait $n "REPLAY (fallback)" 15; then ok "$T no room: the fallback plays"; else notok "$T no room: the fallback plays" "$(show $n 4)"; fi
check "$T no room: the status line says why" 'tm_has $n "the recorded run plays"' "$(tm_cap $n | tail -n 2 | tr '\n' '|')"
if tm_wait $n "Hotel after it" 30; then ok "$T no room: the talk goes on"; else notok "$T no room: the talk goes on" "$(show $n 6)"; fi
tm send-keys -t $n q
if ended $n 0; then ok "$T no room: exit 0"; else notok "$T no room: exit 0" "$(show $n 4)"; fi
check "$T no room: nothing left in the scratch directory" scratch_empty "$(ls "$scratch")"
