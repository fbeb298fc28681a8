#!/bin/sh
# Faults (docs/design.md §3, §4, §8): bad --src, --size, --dir, too little space,
# ENOSPC in the middle of a copy, bad strategies and memory limits, signals
# mid-copy, output files that already exist.  Each: one "lrutop: " line on
# stderr, the documented exit status, nothing left in --dir (or a cgroup),
# the user's files unchanged.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-faults.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-faults.XXXXXX) || exit 2
bg="" mnts="" loops=""

cgroot=$(lrt_cgroot) || cgroot=""
cg_ok=0
[ "$(id -u)" -eq 0 ] && [ -n "$cgroot" ] && [ -w "$cgroot" ] && cg_ok=1

# _r_stop PID: TERM, then KILL, a background lrutop of ours; remove any
# cgroup it left.
_r_stop() {
	lrt_stop "$1"
	wait "$1" 2>/dev/null
	:
}
_r_cleanup() {
	[ -n "$bg" ] && _r_stop "$bg"
	for _w in $stopped; do kill -CONT "$_w" 2>/dev/null; done
	for _m in $mnts; do umount "$_m" 2>/dev/null || umount -l "$_m" 2>/dev/null; done
	tm_cleanup
	rm -rf "$tmp" "$base"
}
stopped="" _r_pre=""
trap '_r_cleanup' EXIT
trap 'exit 2' INT TERM HUP

_r_allgone() {
	for _p in "$@"; do proc_gone "$_p" || return 1; done
}
_r_show() { tr '\n' '|' <"$1" | cut -c1-240; }

# fault NAME RC PATTERN ARGS...: run lrutop (batch, bounded time) with a fresh
# empty --dir $d appended unless ARGS give one, then check exit RC, exactly
# one stderr line "lrutop: ..." matching the extended regex PATTERN, and an
# empty $d.  $rc is left for further checks.
fault() {
	_fn=$1 _frc=$2 _fpat=$3
	shift 3
	lrt_newdir
	case " $* " in *" --dir "*) set -- "$@" ;; *) set -- "$@" --dir "$d" ;; esac
	timeout 30 $_r_pre "$LRUTOP" --batch -q "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq 124 ]; then
		notok "$_fn: exit $_frc" "timed out (hung?)"
	else
		check "$_fn: exit $_frc" '[ "$rc" -eq "$_frc" ]' "exit $rc; stderr: $(_r_show "$tmp/err")"
	fi
	check "$_fn: one 'lrutop: ' stderr line" \
		'[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq "^lrutop: .*($_fpat)" "$tmp/err"' \
		"want /$_fpat/; stderr: $(_r_show "$tmp/err")"
	check "$_fn: nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
}

# --- --src ------------------------------------------------------------------
U=$tmp/user.bin
head -c 300000 /dev/urandom >"$U"
fault "--src missing" 2 "No such file|not found|missing" -s rw_cp --src "$tmp/nope.bin"
check "--src missing: not created" '[ ! -e "$tmp/nope.bin" ]'

chmod 000 "$U"
sum0=$(file_sum "$U")
if [ "$(id -u)" -ne 0 ]; then
	fault "--src unreadable" 2 "[Pp]ermission" -s rw_cp --src "$U"
elif command -v setpriv >/dev/null && ! setpriv --bounding-set -dac_override,-dac_read_search \
	cat "$U" >/dev/null 2>&1; then
	# Root reads anything; without CAP_DAC_OVERRIDE/READ_SEARCH (dropped
	# from the bounding set, so gone after exec) mode 000 holds.
	_r_pre="setpriv --bounding-set -dac_override,-dac_read_search"
	fault "--src unreadable (root without CAP_DAC_*)" 2 "[Pp]ermission" -s rw_cp --src "$U"
	_r_pre=""
else
	skip "--src unreadable" "running as root and cannot drop CAP_DAC_OVERRIDE (no setpriv), so mode 000 is readable"
fi
chmod 644 "$U"
check "--src unreadable: file unchanged" '[ "$(file_sum "$U")" = "$sum0" ]'

mkdir "$tmp/srcdir"
echo keep >"$tmp/srcdir/f"
fault "--src directory" 2 "directory" -s rw_cp --src "$tmp/srcdir"
check "--src directory: contents unchanged" '[ "$(ls -A "$tmp/srcdir")" = f ] && [ "$(cat "$tmp/srcdir/f")" = keep ]'

mkfifo "$tmp/fifo"
fault "--src FIFO (must not hang)" 2 "FIFO|regular" -s rw_cp --src "$tmp/fifo"
check "--src FIFO: still a FIFO" '[ -p "$tmp/fifo" ]'

fault "--src /dev/zero" 2 "regular|device" -s rw_cp --src /dev/zero
check "--src /dev/zero: still a char device" '[ -c /dev/zero ]'

: >"$tmp/empty"
fault "--src empty file" 2 "empty" -s rw_cp --src "$tmp/empty"
check "--src empty file: still empty" '[ -f "$tmp/empty" ] && [ ! -s "$tmp/empty" ]'

# --- --size --------------------------------------------------------------------
for sz in 0 -5 12Q abc; do
	fault "--size $sz" 2 "size" -s rw_cp --size "$sz"
done

# --- --dir ------------------------------------------------------------------------
lrt_newdir
fault "--dir missing" 2 "No such file" -s rw_cp --size 1M --dir "$tmp/nodir"
check "--dir missing: not created" '[ ! -e "$tmp/nodir" ]'

echo keep >"$tmp/regular"
s0=$(file_sum "$tmp/regular")
fault "--dir a regular file" 2 "not a directory" -s rw_cp --size 1M --dir "$tmp/regular"
check "--dir a regular file: unchanged" '[ "$(file_sum "$tmp/regular")" = "$s0" ]'

if [ "$(id -u)" -ne 0 ]; then
	skip "--dir read-only" "needs root for a read-only bind mount"
else
	mkdir "$base/rw" "$base/ro"
	if mount --bind "$base/rw" "$base/ro" 2>/dev/null; then
		mnts="$base/ro $mnts"
		if mount -o remount,ro,bind "$base/ro" 2>/dev/null; then
			fault "--dir read-only" 2 "[Rr]ead-only" -s rw_cp --size 1M --dir "$base/ro"
			check "--dir read-only: nothing created" 'lrt_empty "$base/rw"' "left: $(ls -A "$base/rw")"
		else
			skip "--dir read-only" "remount,ro,bind refused"
		fi
		umount "$base/ro" && mnts=""
	else
		skip "--dir read-only" "bind mount refused (no CAP_SYS_ADMIN?)"
	fi
fi

if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	shm0=$(ls -d /dev/shm/lrutop-* 2>/dev/null)
	fault "--dir on tmpfs" 2 "tmpfs" -s rw_cp --size 1M --dir /dev/shm
	check "--dir on tmpfs: no lrutop-* made there" '[ "$(ls -d /dev/shm/lrutop-* 2>/dev/null)" = "$shm0" ]'
else
	skip "--dir on tmpfs" "/dev/shm is not a tmpfs here"
fi

# --- space ---------------------------------------------------------------------------
# _r_loopfs SIZE DIR: a fresh ext4 image of SIZE mounted on DIR (loop).
_r_loopfs() {
	truncate -s "$1" "$2.img" && mkfs.ext4 -q -F "$2.img" >/dev/null 2>&1 && mkdir "$2" &&
		mount -o loop "$2.img" "$2" 2>/dev/null && mnts="$2 $mnts" && mountpoint -q "$2"
}
_r_unloop() {
	umount "$1" 2>/dev/null
	mnts=$(printf '%s\n' $mnts | grep -vx "$1" | tr '\n' ' ')
	rm -f "$1.img"
}
if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null || ! command -v losetup >/dev/null; then
	skip "--dir too small" "needs root, mkfs.ext4 and losetup"
	skip "ENOSPC mid-copy" "needs root, mkfs.ext4 and losetup"
else
	M=$base/small
	if _r_loopfs 64M "$M"; then
		fault "--dir too small (48M in 64M ext4)" 2 "space|room|free" -s rw_cp --size 48M --dir "$M"
		check "--dir too small: fs left empty" '[ "$(ls -A "$M")" = lost+found ]' "left: $(ls -A "$M" | tr '\n' ' ')"
		_r_unloop "$M"
	else
		skip "--dir too small" "could not mount a loop ext4 image"
	fi

	# ENOSPC mid-copy: 128M ext4 (~105M free) passes the up-front check for
	# a 16M --src (16M + 64M headroom).  lrutop forks the worker; we stop it
	# while it is still preparing (drain/drop caches), fill the fs, let it
	# go: its write must fail with ENOSPC.
	M=$base/enospc
	S=$tmp/src16
	head -c 16M /dev/urandom >"$S"
	ssum=$(file_sum "$S")
	if _r_loopfs 128M "$M"; then
		T="ENOSPC mid-copy:"
		lrt_fresh "$tmp/out" "$tmp/err"
		"$LRUTOP" --batch -q -s rw_cp --src "$S" --dir "$M" </dev/null >"$tmp/out" 2>"$tmp/err" &
		bg=$!
		w=""
		wait_for 20 'w=$(pgrep -P $bg | head -n 1); [ -n "$w" ] || proc_gone $bg' 0.005
		if [ -n "$w" ] && kill -STOP "$w" 2>/dev/null; then
			stopped=$w
			dsz=$(stat -c %s "$M"/lrutop-*/dst 2>/dev/null || echo 0)
			if [ "$dsz" -lt 16777216 ] && mountpoint -q "$M"; then
				# bounded: never more than the image size, only on the mount
				dd if=/dev/zero of="$M/fill" bs=1M count=128 2>/dev/null
				sync -f "$M/fill" 2>/dev/null || sync
				kill -CONT "$w"
				stopped=""
				wait_for 60 "proc_gone $bg"
				wait "$bg"
				rc=$?
				bg=""
				check "$T exit 1" '[ "$rc" -eq 1 ]' "exit $rc; stdout: $(_r_show "$tmp/out")"
				check "$T reported (No space left on device)" \
					'cat "$tmp/out" "$tmp/err" | grep -q "No space left on device"' "stdout: $(_r_show "$tmp/out")"
				check "$T one 'lrutop: ' stderr line" \
					'[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: .*No space" "$tmp/err"' \
					"stderr: '$(_r_show "$tmp/err")'"
				check "$T nothing left but our fill file" '[ "$(ls -A "$M" | tr "\n" " ")" = "fill lost+found " ]' \
					"left: $(ls -A "$M" | tr '\n' ' ')"
				check "$T --src unchanged" '[ "$(file_sum "$S")" = "$ssum" ]'
			else
				kill -CONT "$w"
				stopped=""
				_r_stop "$bg"
				bg=""
				skip "$T" "the copy was already done (dst $dsz bytes) when the worker was stopped"
			fi
		else
			[ -n "$bg" ] && _r_stop "$bg"
			bg=""
			skip "$T" "did not catch the worker process (lrutop ended: $(_r_show "$tmp/err"))"
		fi
		_r_unloop "$M"
	else
		skip "ENOSPC mid-copy" "could not mount a loop ext4 image"
	fi
fi

# --- strategies, memory limits ------------------------------------------------
fault "-s nope" 2 "nope.*rw_cp.*stream_cp" -s nope
fault "--mem-limit 1M" 2 "mem-limit" -s rw_cp --size 1M --mem-limit 1M

# A workload that cannot fit: dd's 64 MiB buffer is anonymous memory, there
# is no swap, so the 16 MiB cgroup must OOM-kill it - deterministically.
# (A file-backed copy under a tiny limit thrashes instead of dying: page
# cache can always be reclaimed, so it is not a usable OOM trigger.)
T="--mem-limit 16M --cmd dd bs=64M:"
if [ "$cg_ok" -ne 1 ]; then
	skip "$T" "needs root and a writable memory cgroup"
else
	lrt_newdir
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q --cmd 'dd if=/dev/zero of=/dev/null bs=64M count=1' --size 1M \
		--mem-limit 16M --dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	if wait_for 60 "proc_gone $bg" 0.1; then
		wait "$bg"
		rc=$?
		check "$T reported as an OOM kill, exit 1" \
			'[ "$rc" -eq 1 ] && grep -Eq "SIGKILL|signal 9" "$tmp/err" && grep -Eiq "out of memory" "$tmp/err"' \
			"exit $rc; stdout: $(_r_show "$tmp/out"); stderr: $(_r_show "$tmp/err")"
		check "$T one stderr line" '[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: " "$tmp/err"' \
			"stderr: $(_r_show "$tmp/err")"
	else
		notok "$T reported as an OOM kill, exit 1" "still running after 60 s"
		_r_stop "$bg"
	fi
	check "$T no cgroup left" '! ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1' "left: $(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)"
	check "$T nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
	bg=""
fi

# --- signals mid-copy ----------------------------------------------------------------
for sig in INT TERM HUP; do
	T="SIG$sig mid-copy:"
	lrt_newdir
	ml=""
	[ "$cg_ok" -eq 1 ] && ml="--mem-limit 256M"
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -s rw_cp --size 1G $ml --dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	if ! wait_for 60 "grep -q '^#.* run 1 rw_cp copy\$' '$tmp/out' || proc_gone $bg" 0.02 ||
		proc_gone "$bg"; then
		notok "$T copy event" "no copy event; exit early? stderr: $(_r_show "$tmp/err")"
		_r_stop "$bg"
		bg=""
		continue
	fi
	workers=$(pgrep -P "$bg" | tr '\n' ' ')
	cgs=$(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)
	t0=$(now_cs)
	kill -"$sig" "$bg"
	if wait_for 10 "proc_gone $bg"; then
		ok "$T lrutop exits within 10 s"
	else
		notok "$T lrutop exits within 10 s" "still running after 10 s"
	fi
	t1=$(now_cs)
	wait "$bg"
	rc=$?
	echo "# SIG$sig: exit $rc after $(((t1 - t0) * 10)) ms"
	check "$T worker seen, and gone" '[ -n "$workers" ] && _r_allgone $workers' \
		"workers '$workers': $(ps -o pid,stat,args -p "$(echo $workers | tr ' ' ,)" 2>/dev/null | tail -n +2 | tr '\n' '|')"
	check "$T scratch dir gone" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
	if [ -n "$ml" ]; then
		check "$T cgroup existed and is gone" '[ -n "$cgs" ] && ! ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1' \
			"during: '$cgs', after: $(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)"
	fi
	# The run was cut short: it must not count as a success.
	check "$T exit status not 0 (run interrupted)" '[ "$rc" -ne 0 ]' "exit $rc; $(tail -n 2 "$tmp/out" | tr '\n' '|')"
	_r_stop "$bg"
	bg=""
done

# --- output files that exist ---------------------------------------------------------
for o in --csv --results; do
	printf 'precious\n1,2,3\n' >"$tmp/exists"
	s0=$(file_sum "$tmp/exists")
	fault "$o existing file" 2 "already exists" -s rw_cp --size 1M "$o" "$tmp/exists"
	check "$o existing file: content unchanged" '[ "$(file_sum "$tmp/exists")" = "$s0" ]'
done

# --- output files on a full filesystem ----------------------------------------------
# --csv / --results on a filesystem with no room: an error at the header is
# a usage/environment error (exit 2, the file made is removed again); one
# that fills up later ends the session with exit 1 and keeps what was
# written.  A 1 KiB-block ext4 filled to the last block, then a block freed.
_o_fill() {
	dd if=/dev/zero of="$1/fill" bs=64k 2>/dev/null
	sync
	# ext4 gives back what it held for delayed allocation only once the
	# data is written: fill again after a sync until a pass finds no room
	_i=0
	_pass=0
	while [ $_pass -lt 5 ]; do
		_n=$_i
		while [ $_i -lt 2000 ] &&
			dd if=/dev/zero of="$1/f$_i" bs=1k count=1 conv=fsync 2>/dev/null; do
			_i=$((_i + 1))
		done
		rm -f "$1/f$_i" # the one that did not fit
		sync
		[ $_i -eq $_n ] && break
		_pass=$((_pass + 1))
	done
}
_o_full_outputs() {
	if [ "$(id -u)" -ne 0 ] || ! command -v mkfs.ext4 >/dev/null; then
		skip "outputs on a full fs" "needs root and mkfs.ext4"
		return
	fi
	M=$base/outfs
	if ! _r_loopfs 8M "$M"; then
		skip "outputs on a full fs" "could not mount a loop ext4 image"
		return
	fi
	_o_fill "$M"
	if [ ! -e "$M/f0" ]; then
		skip "outputs on a full fs" "could not fill $M block by block"
		_r_unloop "$M"
		return
	fi
	E="write error: No space left on device"
	fault "--csv on a full fs" 2 "--csv $M/a.csv: $E" -n 3 -i 0.05 --csv "$M/a.csv"
	check "--csv on a full fs: the file made is removed" '[ ! -e "$M/a.csv" ]'
	fault "--results on a full fs" 2 "--results $M/r.csv: $E" -s rw_cp --size 1M --results "$M/r.csv"
	check "--results on a full fs: the file made is removed" '[ ! -e "$M/r.csv" ]'
	# one block: the header and a few rows fit
	rm -f "$M/f0"
	sync
	fault "--csv filling up" 1 "--csv $M/b.csv: $E" -n 400 -i 0.05 --csv "$M/b.csv"
	n=$(wc -l <"$M/b.csv" 2>/dev/null || echo 0)
	check "--csv filling up: the rows written are kept, and lrutop stopped there" \
		'[ "$(head -c 4 "$M/b.csv")" = t_s, ] && [ "$n" -ge 2 ] && [ "$n" -lt 100 ]' "$n lines"
	rm -f "$M/b.csv"
	sync
	fault "--results filling up" 1 "--results $M/r2.csv: $E" -s rw_cp --size 1M --no-verify \
		--repeat 40 -i 0.05 --results "$M/r2.csv"
	n=$(wc -l <"$M/r2.csv" 2>/dev/null || echo 0)
	check "--results filling up: rows kept, the queue stopped (not 40 rows)" \
		'[ "$(head -c 9 "$M/r2.csv")" = strategy, ] && [ "$n" -ge 2 ] && [ "$n" -lt 41 ]' "$n lines"
	_r_unloop "$M"
}
_o_full_outputs
# --- a stranger's file named like the destination -----------------------------
# lrutop removes only what it made.  A file under the scratch dst that it did
# not make fails the run with that reason and stays where it is.  We stop
# lrutop's first child (with --size the scratch input writer, before the
# first run: the monitor finds the file; with --src the worker in its prepare
# phase: the worker finds it), put the file there, and let it go on.
_r_foreign() {
	T="stranger's dst ($1):"
	shift
	lrt_newdir
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q -s rw_cp "$@" --dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	w=""
	# The child may end between finding and stopping it (the source writer
	# of a small file on a busy machine): then stop the next one, the worker.
	_try=0
	while [ $_try -lt 5 ]; do
		w=""
		wait_for 20 'w=$(pgrep -n -P $bg); [ -n "$w" ] || proc_gone $bg' 0.005
		if [ -n "$w" ] && kill -STOP "$w" 2>/dev/null &&
			wait_for 2 '[ "$(ps -o stat= -p "$w" 2>/dev/null | cut -c1)" = T ]' 0.005; then
			break
		fi
		proc_gone $bg && break
		_try=$((_try + 1))
	done
	sd=$(ls -d "$d"/lrutop-* 2>/dev/null | head -n 1)
	if [ -z "$w" ] || [ -z "$sd" ] || [ "$(ps -o stat= -p "$w" 2>/dev/null | cut -c1)" != T ]; then
		_r_stop "$bg"
		bg=""
		notok "$T caught lrutop's child" "child '$w', dir '$sd'; stderr: $(_r_show "$tmp/err")"
		return
	fi
	stopped=$w
	if [ -e "$sd/dst" ]; then # too late: the copy had begun
		kill -CONT "$w"
		stopped=""
		_r_stop "$bg"
		bg=""
		skip "$T" "the copy had already started when the child was stopped"
		return
	fi
	printf 'not lrutop'\''s\n' >"$sd/dst"
	kill -CONT "$w"
	stopped=""
	wait_for 60 "proc_gone $bg"
	wait "$bg"
	rc=$?
	bg=""
	want="lrutop: rw_cp: dst $sd/dst: exists and was not made by lrutop — refusing to remove it"
	check "$T exit 1" '[ "$rc" -eq 1 ]' "exit $rc; stderr: $(_r_show "$tmp/err")"
	check "$T one stderr line with the reason" \
		'[ "$(wc -l <"$tmp/err")" -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ]' \
		"want '$want'; stderr: $(_r_show "$tmp/err")"
	check "$T the run is FAIL in the table" 'grep -Eq "^rw_cp .* FAIL$" "$tmp/out"' "$(_r_show "$tmp/out")"
	# it never copied: no elapsed, CPU or MiB/s to show
	check "$T elapsed, user, sys, %cpu shown as -" 'grep -Eq "^rw_cp +1 +- +- +- +- " "$tmp/out"' \
		"$(_r_show "$tmp/out")"
	check "$T the file is still there, unchanged" \
		'[ "$(cat "$sd/dst" 2>/dev/null)" = "not lrutop'\''s" ]'
	check "$T only that file left (lrutop's own removed)" '[ "$(ls -A "$sd")" = dst ]' \
		"left in $sd: $(ls -A "$sd" | tr '\n' ' ')"
	rm -f "$sd/dst"
	rmdir "$sd"
}
_r_foreign "before the first run" --size 64M
head -c 8M /dev/urandom >"$tmp/src8"
_r_foreign "while the worker prepares" --src "$tmp/src8"

# --- a copy that makes no progress ---------------------------------------------
# A livelocked copy (mm_sync_cp under --mem-limit 4M can sit for minutes
# with bytes_done still) must fail the run, not hang lrutop.  Stand-in that
# takes seconds: rw_cp with 1-byte buffers (several seconds for 2M) is
# stopped mid-copy with SIGSTOP; with --stall-timeout 1 lrutop must give up
# on it, kill it and clean up as for any failed run.
T="no progress (worker stopped mid-copy, --stall-timeout 1):"
lrt_newdir
ml=""
[ "$cg_ok" -eq 1 ] && ml="--mem-limit 64M"
lrt_fresh "$tmp/out" "$tmp/err"
"$LRUTOP" --batch -s rw_cp --bs 1 --size 2M --stall-timeout 1 $ml --dir "$d" \
	</dev/null >"$tmp/out" 2>"$tmp/err" &
bg=$!
w=""
if wait_for 60 "grep -q '^#.* run 1 rw_cp copy\$' '$tmp/out' || proc_gone $bg" 0.01 &&
	w=$(pgrep -P "$bg" | head -n 1) && [ -n "$w" ] && kill -STOP "$w"; then
	stopped=$w
	cgs=$(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)
	t0=$(now_cs)
	wait_for 20 "proc_gone $bg"
	t1=$(now_cs)
	wait "$bg"
	rc=$?
	bg=""
	echo "# no progress: lrutop gave up $(((t1 - t0) * 10)) ms after the stop"
	check "$T exit 1" '[ "$rc" -eq 1 ]' "exit $rc; stderr: $(_r_show "$tmp/err")"
	check "$T one stderr line with the reason" \
		'[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq "^lrutop: rw_cp: no progress for 1 s \(stuck at [0-9.]+ MiB of 2 MiB\)( — memory limit too small\?)?$" "$tmp/err"' \
		"stderr: $(_r_show "$tmp/err")"
	check "$T within 1 s + a few ticks (< 5 s)" '[ $((t1 - t0)) -lt 500 ]' "$(((t1 - t0) * 10)) ms"
	check "$T the worker was killed" 'proc_gone "$w"' "$(ps -o pid,stat,args -p "$w" | tail -n +2)"
	stopped=""
	check "$T scratch dir gone" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
	if [ -n "$ml" ]; then
		check "$T cgroup existed and is gone" '[ -n "$cgs" ] && ! ls -d $cgs >/dev/null 2>&1' \
			"during: '$cgs'"
	fi
else
	notok "$T caught the worker mid-copy" "worker '$w'; stdout: $(_r_show "$tmp/out"); stderr: $(_r_show "$tmp/err")"
	[ -n "$w" ] && kill -CONT "$w" 2>/dev/null
	_r_stop "$bg"
	bg=""
fi
# The real thing, where the kernel livelocks it: mm_sync_cp in a 4M memory
# cgroup (kernel 6.18 here: stuck at 0 MiB within a second, every time).
T="mm_sync_cp under --mem-limit 4M, --stall-timeout 2:"
if [ "$cg_ok" -ne 1 ]; then
	skip "$T" "needs root and a writable memory cgroup"
else
	lrt_newdir
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q -s mm_sync_cp --mem-limit 4M --size 16M --stall-timeout 2 \
		--dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	wait_for 60 "proc_gone $bg" 0.1 || _r_stop "$bg"
	wait "$bg"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		skip "$T" "the copy did not livelock on this kernel (it finished)"
	elif [ "$rc" -eq 1 ] && grep -q "^lrutop: mm_sync_cp: killed by signal 9 (SIGKILL: Killed) - out of memory in its 4M cgroup" "$tmp/err"; then
		# on a busy machine the OOM killer may come first: also a clear end
		ok "$T exit 1: the OOM killer came before the watchdog, and lrutop says so"
	else
		check "$T exit 1, 'no progress ... memory limit too small?'" \
			'[ "$rc" -eq 1 ] && grep -Eq "^lrutop: mm_sync_cp: no progress for 2 s \(stuck at [0-9.]+ MiB of 16 MiB\) — memory limit too small\?$" "$tmp/err"' \
			"exit $rc; stderr: $(_r_show "$tmp/err")"
	fi
	check "$T nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
	check "$T no cgroup left" '! ls -d "$cgroot/lrutop-$bg-"* >/dev/null 2>&1' \
		"left: $(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)"
	bg=""
fi

# ... and copies that progress are left alone, even when they last longer
# than the timeout.  Made long by the disk, not by the CPU: under
# --disk-limit 16M a 32M copy takes 2 s whatever else runs (a copy with
# 1-byte buffers, the stand-in where no io throttle can be had, is 16 M
# syscalls for 8M: on a machine whose CPUs are busy with others it crawled
# below the 128 KiB a second that counts as progress, and was rightly
# stopped).  Not slower: mm_sync_cp's fault waits behind the read-ahead
# window queued before it (8 MiB here), 2 s of a 4M throttle ("no
# progress for 1 s (stuck at 3.3 MiB of 8 MiB)" once beside the hog).
T="--stall-timeout 1, copies that progress:"
lrt_newdir
if [ "$cg_ok" -eq 1 ] && [ -n "$(lrt_ioroot)" ]; then slow="--disk-limit 16M --size 32M"; else slow="--bs 1 --size 8M"; fi
# shellcheck disable=SC2086
timeout 120 "$LRUTOP" --batch -q -s rw_cp,mm_sync_cp $slow --stall-timeout 1 \
	--dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
echo "# copies that progress: $slow"
check "$T exit 0, both verified" \
	'[ "$rc" -eq 0 ] && [ "$(grep -Ec "^(rw_cp|mm_sync_cp)(@16M)? .* yes$" "$tmp/out")" -eq 2 ]' \
	"exit $rc; stdout: $(_r_show "$tmp/out"); stderr: $(_r_show "$tmp/err")"
el=$(awk '$1 ~ /^rw_cp(@|$)/ { sub("s", "", $3); print $3; exit }' "$tmp/out")
check "$T the rw_cp copy outlasted the timeout (${el:-?} s)" \
	'awk -v e="${el:-0}" "BEGIN { exit !(e > 1) }"'
check "$T nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# --- the figures of a failed exec and of a source that shrank ------------------
# A --cmd whose exec fails ran for a few milliseconds; its CPU time is
# measured over the same interval (the prepare phase's cache drop is not the
# command's), so %cpu cannot exceed 100.  A program lrutop cannot find is
# refused up front (cli.sh); this one exists and is executable, but its
# interpreter does not, so the execvp in the worker is what fails.
T="--cmd that fails exec:"
lrt_newdir
rm -f "$tmp/res.csv"
printf '#!/nonexistent/lrutop-interpreter\n' >"$tmp/badinterp"
chmod +x "$tmp/badinterp"
timeout 30 "$LRUTOP" --batch -q --cmd "$tmp/badinterp {src}" --size 1M \
	--results "$tmp/res.csv" --dir "$d" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
cpu=$(awk -F, 'NR == 2 { print $6 }' "$tmp/res.csv" 2>/dev/null)
check "$T exit 1, the exec error reported" \
	'[ "$rc" -eq 1 ] && grep -q "exec $tmp/badinterp: No such file or directory" "$tmp/err"' \
	"exit $rc; stderr: $(_r_show "$tmp/err")"
check "$T %cpu at most 100 (${cpu:-none})" \
	'awk -v c="$cpu" "BEGIN { exit !(c != \"\" && c + 0 <= 100) }"' "$(_r_show "$tmp/res.csv")"

# A --src that shrinks after lrutop started (it checked the size then) and
# before the copy: bytes and MiB/s are those of the bytes the run copied.
# The worker is stopped in its prepare phase while the file is cut to 3M.
_r_shrink() {
	T="--src shrank before the copy ($1):"
	shift
	lrt_newdir
	head -c 8M /dev/urandom >"$tmp/shrink"
	rm -f "$tmp/res.csv"
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q "$@" --src "$tmp/shrink" --results "$tmp/res.csv" --dir "$d" \
		</dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	w=""
	wait_for 20 'w=$(pgrep -P $bg | head -n 1); [ -n "$w" ] || proc_gone $bg' 0.005
	if [ -z "$w" ] || ! kill -STOP "$w" 2>/dev/null; then
		_r_stop "$bg"
		bg=""
		notok "$T caught the worker" "stderr: $(_r_show "$tmp/err")"
		return
	fi
	stopped=$w
	if ls "$d"/lrutop-*/dst >/dev/null 2>&1; then
		kill -CONT "$w"
		stopped=""
		_r_stop "$bg"
		bg=""
		skip "$T" "the copy had already started when the worker was stopped"
		return
	fi
	truncate -s 3M "$tmp/shrink"
	kill -CONT "$w"
	stopped=""
	wait_for 60 "proc_gone $bg"
	wait "$bg"
	rc=$?
	bg=""
	el="" by="" mb=""
	read -r el by mb <<-EOF2
	$(awk -F, 'NR == 2 { print $3, $11, $12 }' "$tmp/res.csv" 2>/dev/null)
	EOF2
	check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc; stderr: $(_r_show "$tmp/err")"
	check "$T bytes: the 3 MiB copied (${by:-none})" '[ "$by" = 3145728 ]'
	check "$T MiB/s = 3 MiB / elapsed (${mb:-?} MiB/s, ${el:-?} s)" \
		'awk -v e="${el:-0}" -v m="${mb:-0}" "BEGIN { w = 3 / e; exit !(e > 0 && m > w * 0.98 && m < w * 1.02) }"'
	check "$T nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
}
_r_shrink rw_cp -s rw_cp
_r_shrink "--cmd cp" --cmd 'cp {src} {dst}'

# --- a long path keeps the reason ------------------------------------------------
# A 3000-byte path used to push the reason out of the error buffer.  Now the
# path is shortened in the middle ("…") and the line ends with the reason.
lp=$tmp/$(awk 'BEGIN { for (i = 0; i < 298; i++) printf "d%08d/", i }')missing.bin
check "a 3000-byte path for the tests below (${#lp} bytes)" '[ "${#lp}" -ge 3000 ]'
for o in --src --dir --csv; do
	T="$o with a ${#lp}-byte path:"
	case $o in
	--src) set -- -s rw_cp --src "$lp" ;;
	--dir) set -- -s rw_cp --size 1M --dir "$lp" ;;
	--csv) set -- -n 1 --csv "$lp" ;;
	esac
	lrt_newdir
	case " $* " in *" --dir "*) ;; *) set -- "$@" --dir "$d" ;; esac
	timeout 30 "$LRUTOP" --batch -q "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$T exit 2" '[ "$rc" -eq 2 ]' "exit $rc"
	check "$T one line: '$o', the path's head and tail, the reason at the end" \
		'[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: $o $tmp/d00000000/.*…/.*/missing.bin: .*No such file or directory[^/]*$" "$tmp/err"' \
		"stderr: $(cut -c1-200 "$tmp/err")...$(tail -c 120 "$tmp/err")"
	check "$T shortened (under 1000 bytes)" '[ "$(wc -c <"$tmp/err")" -lt 1000 ]' "$(wc -c <"$tmp/err") bytes"
	[ "$o" = --dir ] || check "$T nothing left in --dir" 'lrt_empty "$d"' "left: $(ls -A "$d")"
done
