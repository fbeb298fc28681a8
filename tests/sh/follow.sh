#!/bin/sh
# --record - and --follow (issue 29, part 17 §1): a recording written to a
# pipe and drawn live at its other end.  --record -: standard output holds
# the recording and nothing else, the TUI refuses it, a reader that goes
# away ends the session (141, cleaned up).  --follow: a batch follow of a
# pipe prints what the replay prints; the TUI follows a growing file step
# by step (the new samples and runs as they come, how far behind, a stall,
# the writer closing it), a pipe on standard input (the keys from the
# terminal), a real sshd on 127.0.0.1 running the copies; a writer killed
# mid-line ends it with one warning and everything before kept.
# Synchronisation is polling the screen or the files, never a sleep.
. "$(dirname "$0")/lib.sh"

T=follow
examples=$(pwd)/examples
lrt_scratch follow
base=$(mktemp -d /var/tmp/lrt-follow.XXXXXX) || exit 2
sshd_pid="" wpid=""
trap 'tm_cleanup; for p in $sshd_pid $wpid; do kill -9 "$p" 2>/dev/null; done; rm -rf "$tmp" "$base"' EXIT

zcat "$examples/copy-64M.jsonl.gz" >rec.jsonl || exit 2
show() { tr '\n' '|' <"$1" | cut -c1-300; }
# is_exec PID NAME: the process runs NAME now (a writer's exec has happened)
is_exec() { [ "$(cat "/proc/$1/comm" 2>/dev/null)" = "$2" ]; }

# ---- --record -: the recording and nothing else on stdout ------------------------
lrt_newdir
timeout 120 "$LRUTOP" --batch -s rw_cp --size 16M --dir "$d" --record - >rec-out.jsonl 2>err
rc=$?
check "$T --record -: exit 0, nothing on stderr" '[ "$rc" -eq 0 ] && [ ! -s err ]' "exit $rc: $(show err)"
check "$T --record -: stdout holds only the recording's lines" \
	'python3 -c "import json,sys
ls=open(sys.argv[1]).read().split(chr(10))
assert ls[-1]==\"\" and json.loads(ls[0])[\"lrutop_record\"]==1
assert all(json.loads(l)[\"k\"] in (\"sample\",\"event\",\"result\",\"pcmap\") for l in ls[1:-1])" rec-out.jsonl' \
	"$(head -c 200 rec-out.jsonl)"
lrt_expect "--record -: its recording replays" 0 --batch -q --replay rec-out.jsonl
check "$T --record -: the replay has its run" 'grep -q "^rw_cp " out' "$(show out)"

# the reader goes away mid-session (after the header and one line: a
# whole fast run's recording can be shorter than any byte count): the run
# stopped and cleaned up, nothing said, 141
lrt_newdir
{
	timeout 120 "$LRUTOP" --batch -i 0.1 -s rw_cp --size 256M --dir "$d" --record - 2>err
	echo $? >rc
} | head -n 2 >/dev/null
check "$T --record -, the reader gone: exit 141, nothing said" '[ "$(cat rc)" = 141 ] && [ ! -s err ]' \
	"exit $(cat rc): $(show err)"
check "$T --record -, the reader gone: the scratch directory removed" 'lrt_empty "$d"' "$(ls -A "$d")"

# ---- --follow in batch: what a replay prints ----------------------------------
lrt_expect "replay" 0 --batch --replay rec.jsonl
mv out replay.out
cat rec.jsonl | timeout 60 "$LRUTOP" --batch --follow - >out 2>err
rc=$?
check "$T batch --follow - of a pipe: exit 0, quiet" '[ "$rc" -eq 0 ] && [ ! -s err ]' "exit $rc: $(show err)"
check "$T batch --follow -: the replay's lines, events and tables" 'cmp -s out replay.out' \
	"$(diff out replay.out | head -c 300)"
gzip -c rec.jsonl | timeout 60 "$LRUTOP" --batch --follow - >out 2>err
check "$T batch --follow - of gzip: the same" 'cmp -s out replay.out' "$(diff out replay.out | head -c 300)"
timeout 60 "$LRUTOP" --batch --follow - </dev/null >out 2>err
rc=$?
check "$T batch --follow - of nothing: exit 2, one line" \
	'[ "$rc" -eq 2 ] && [ "$(wc -l <err)" -eq 1 ] && grep -q "^lrutop: -: the writer ended before the header" err' \
	"exit $rc: $(show err)"

# a writer killed in the middle of a line (pipe): one warning, what came before kept
head -n 40 rec.jsonl >part.jsonl
sed -n 41p rec.jsonl | head -c 300 >half
mkfifo pipe
timeout 60 "$LRUTOP" --batch --follow - <pipe >out 2>err &
fpid=$!
sh -c 'cat part.jsonl half; exec sleep 300' >pipe &
wpid=$!
wait_for 10 "is_exec $wpid sleep && grep -q 'run 2 mm_sync_cp prepare' out"
kill -9 "$wpid"
wait "$fpid"
rc=$?
wpid=""
check "$T a writer killed mid-line (pipe): exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(show err)"
check "$T ... one warning naming line 41" \
	'[ "$(wc -l <err)" -eq 1 ] && grep -q "^lrutop: warning: -:41: truncated last line" err' "$(show err)"
check "$T ... everything before it kept: rw_cp's result" 'grep -q "^rw_cp " out' "$(show out)"

# ---- the TUI ----------------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "$T TUI" "tmux not installed"
	exit 0
fi
run_env="env TERM=tmux-256color LANG=C.UTF-8"
hdr() { tm_cap "$1" | head -n 1; }
stat_line() { tm_cap "$1" | sed '/^$/d' | tail -n 1; }
# behind SESSION: the header's "behind N s" figure, empty when none
behind() { hdr "$1" | sed -n 's/.*behind \(-\{0,1\}[0-9.]*\) s.*/\1/p'; }

tm_start ref 100 30 "$run_env '$LRUTOP' --record -"
tm_wait ref EXIT= 10
check "$T TUI --record -: exit 2, one line" \
	'tm_has ref EXIT=2 && tm_has ref "lrutop: --record -: standard output is the TUI" && tm_stty_sane ref' \
	"$(tm_cap ref | sed '/^$/d' | head -n 3 | tr '\n' '|')"

# a growing file: the header says when the recording was, 30 s before its
# last sample's time, so the newest sample is ~30 s behind once all is in
python3 - rec.jsonl >grow-src.jsonl <<'EOF' || exit 2
import json, sys, time
ls = open(sys.argv[1]).read().split("\n")
h = json.loads(ls[0])
last = max(json.loads(l)["t"] for l in ls[1:] if '"k":"sample"' in l)
w = time.time() - (last - h["start_mono_ns"]) / 1e9 - 30
h["start_wall"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(w)) + ".%03dZ" % (w % 1 * 1000)
print(json.dumps(h, separators=(",", ":")))
print("\n".join(ls[1:]), end="")
EOF
host=$(sed -n '1s/.*"host":"\([^"]*\)".*/\1/p' rec.jsonl)
kern=$(sed -n '1s/.*"kernel":"\([^"]*\)".*/\1/p' rec.jsonl)
exec 3>grow.jsonl
head -n 12 grow-src.jsonl >&3
s=gf
# (tmux's server must not hold the writer's descriptor: the close is the end)
tm_start $s 130 30 "$run_env '$LRUTOP' --follow '$tmp/grow.jsonl'" 3>&-
if tm_wait $s FOLLOW 10; then ok "$T TUI file: the header says FOLLOW"; else notok "$T TUI file: the header says FOLLOW" "$(hdr $s)"; fi
case $(hdr $s) in *"$host"*"$kern"*) ok "$T TUI file: the writer's host and kernel" ;; *) notok "$T TUI file: the writer's host and kernel" "$(hdr $s)" ;; esac
tm_until $s 5 '[ -n "$(behind $s)" ]'
b1=$(behind $s)
check "$T TUI file: behind its newest sample ($b1 s)" 'awk -v b="$b1" "BEGIN { exit !(b > 35 && b < 80) }"' "$(hdr $s)"
check "$T TUI file: no run yet, no run line" '! tm_has $s "▶ run"' "$(tm_cap $s | tail -n 2)"
if tm_wait $s "no data for" 10; then ok "$T TUI file: a stall is said"; else notok "$T TUI file: a stall is said" "$(stat_line $s)"; fi
sed -n 13,20p grow-src.jsonl >&3
if tm_wait $s "▶ run 1/2" 10 && tm_has $s rw_cp; then ok "$T TUI file: the first run as it starts"; else notok "$T TUI file: the first run as it starts" "$(tm_cap $s | tail -n 2 | tr '\n' '|')"; fi
check "$T TUI file: the stall is over" '! tm_has $s "no data for"' "$(stat_line $s)"
sed -n 21,50p grow-src.jsonl >&3
if tm_wait $s "run 2/2" 10 && tm_has $s mm_sync_cp; then ok "$T TUI file: the second run"; else notok "$T TUI file: the second run" "$(tm_cap $s | tail -n 2 | tr '\n' '|')"; fi
sed -n '51,$p' grow-src.jsonl >&3
tm_until $s 10 'b2=$(behind '$s'); [ -n "$b2" ] && awk -v b="$b2" "BEGIN { exit !(b < 45) }"'
b2=$(behind $s)
check "$T TUI file: the newest samples drawn, 30 s behind ($b1 s, then $b2 s)" \
	'awk -v a="$b1" -v b="$b2" "BEGIN { exit !(b >= 30 && b < 45 && b < a) }"' "$(hdr $s)"
tm send-keys -t $s 4
if tm_wait $s "mm_sync_cp #1" 10; then ok "$T TUI file: the Runs view has both runs"; else notok "$T TUI file: the Runs view has both runs" "$(tm_cap $s | head -n 8 | tr '\n' '|')"; fi
exec 3>&-
if tm_until $s 10 'hdr '$s' | grep -q " ended"' && tm_wait $s "the writer closed the file" 10; then
	ok "$T TUI file: the writer's close ends it, the screen stays"
else
	notok "$T TUI file: the writer's close ends it, the screen stays" "$(hdr $s)|$(stat_line $s)"
fi
tm send-keys -t $s q
tm_wait $s EXIT= 10
check "$T TUI file: q exits 0, the tables after" 'tm_has $s EXIT=0 && tm_has $s "mm_sync_cp          1"' \
	"$(tm_cap $s | sed '/^$/d' | tail -n 3 | tr '\n' '|')"

# a pipe on standard input: the keys come from the terminal
s=pf
rm -f pipe
mkfifo pipe
tm_start $s 130 30 "$run_env '$LRUTOP' --follow - <'$tmp/pipe'"
exec 4>pipe
head -n 30 rec.jsonl >&4
if tm_wait $s "▶ run 1/2" 10; then ok "$T TUI pipe: the run as it comes"; else notok "$T TUI pipe: the run as it comes" "$(tm_cap $s | tail -n 2 | tr '\n' '|')"; fi
tm send-keys -t $s 2
if tm_wait $s "wMB/s" 10; then ok "$T TUI pipe: keys from the terminal (2: iostat)"; else notok "$T TUI pipe: keys from the terminal (2: iostat)" "$(tm_cap $s | head -n 3 | tr '\n' '|')"; fi
sed -n '31,$p' rec.jsonl >&4
exec 4>&-
if tm_until $s 10 'hdr '$s' | grep -q " ended"' && tm_wait $s "the writer closed the stream" 10; then
	ok "$T TUI pipe: its end ends the follow"
else
	notok "$T TUI pipe: its end ends the follow" "$(hdr $s)|$(stat_line $s)"
fi
tm send-keys -t $s q
tm_wait $s EXIT= 10
check "$T TUI pipe: q exits 0" 'tm_has $s EXIT=0 && tm_stty_sane $s' "$(tm_cap $s | sed '/^$/d' | tail -n 3 | tr '\n' '|')"

# a writer (a file's) killed mid-line: one warning on the status line, the data stays
s=kf
head -n 12 rec.jsonl >kill.jsonl
tm_start $s 130 30 "$run_env '$LRUTOP' --follow '$tmp/kill.jsonl'"
tm_wait $s FOLLOW 10
sh -c 'sed -n 13,40p rec.jsonl; cat half; exec sleep 300' >>kill.jsonl &
wpid=$!
wait_for 10 "is_exec $wpid sleep"
tm_wait $s "run 2/2" 10
kill -9 "$wpid"
wpid=""
if tm_wait $s "kill.jsonl:41: truncated last line" 10; then ok "$T TUI file, writer killed: the warning on the status line"; else notok "$T TUI file, writer killed: the warning on the status line" "$(stat_line $s)"; fi
check "$T TUI file, writer killed: the data stays" 'tm_has $s "mm_sync_cp" && hdr $s | grep -q " ended"' "$(hdr $s)"
tm send-keys -t $s q
tm_wait $s EXIT= 10
check "$T TUI file, writer killed: exit 0, one warning after" \
	'tm_has $s EXIT=0 && [ "$(tm_cap $s | grep -c "^lrutop: warning: .*kill.jsonl:41: truncated")" -eq 1 ]' \
	"$(tm_cap $s | sed '/^$/d' | tail -n 4 | tr '\n' '|')"

# ---- over ssh: a real sshd on 127.0.0.1, its own keys and port ----------------------
sshd=$(command -v sshd || echo /usr/sbin/sshd)
if [ ! -x "$sshd" ] || ! command -v ssh >/dev/null 2>&1 || [ "$(id -u)" -ne 0 ]; then
	skip "$T ssh" "needs sshd and ssh (openssh-server, tools/deps) and root"
	exit 0
fi
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/user_key" || exit 2
cp "$tmp/user_key.pub" "$tmp/authorized_keys"
cat >"$tmp/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $tmp/host_key
AuthorizedKeysFile $tmp/authorized_keys
PidFile $tmp/sshd.pid
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
EOF
mkdir -p /run/sshd # the privilege separation directory, as its service makes it
"$sshd" -D -e -f "$tmp/sshd_config" 2>"$tmp/sshd.log" &
sshd_pid=$!
SSH="ssh -p $port -i '$tmp/user_key' -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile='$tmp/known_hosts' -o LogLevel=ERROR root@127.0.0.1"
if ! wait_for 10 "eval \"$SSH true\" </dev/null 2>/dev/null"; then
	notok "$T ssh: sshd on 127.0.0.1:$port answers" "$(show "$tmp/sshd.log")"
	exit 0
fi
lrt_newdir
s=ssh
tm_start $s 130 30 "$SSH '$LRUTOP' --batch -s rw_cp,mm_sync_cp --size 64M --dir '$d' --record - | $run_env '$LRUTOP' --follow -"
if tm_wait $s FOLLOW 20; then ok "$T ssh: the header came over ssh"; else notok "$T ssh: the header came over ssh" "$(tm_cap $s | head -n 2 | tr '\n' '|')"; fi
if tm_wait $s "rw_cp" 60; then ok "$T ssh: the first run live"; else notok "$T ssh: the first run live" "$(tm_cap $s | tail -n 2 | tr '\n' '|')"; fi
if tm_wait $s "run 2/2" 60 && tm_has $s mm_sync_cp; then ok "$T ssh: the second run live"; else notok "$T ssh: the second run live" "$(tm_cap $s | tail -n 2 | tr '\n' '|')"; fi
b=$(behind $s)
check "$T ssh: behind by less than 5 s ($b)" 'awk -v b="$b" "BEGIN { exit !(b != \"\" && b > -1 && b < 5) }"' "$(hdr $s)"
if tm_until $s 120 'hdr '$s' | grep -q " ended"' && tm_wait $s "the writer closed the stream" 10; then
	ok "$T ssh: the writer's end ends it cleanly"
else
	notok "$T ssh: the writer's end ends it cleanly" "$(hdr $s)|$(stat_line $s)"
fi
tm send-keys -t $s q
tm_wait $s EXIT= 10
check "$T ssh: q exits 0, both runs in the tables" \
	'tm_has $s EXIT=0 && tm_has $s "rw_cp               1" && tm_has $s "mm_sync_cp          1"' \
	"$(tm_cap $s | sed '/^$/d' | tail -n 4 | tr '\n' '|')"
check "$T ssh: the writer cleaned up" 'lrt_empty "$d"' "$(ls -A "$d")"
kill "$sshd_pid"
wait "$sshd_pid" 2>/dev/null
sshd_pid=""
exit 0
