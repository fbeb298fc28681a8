#!/bin/sh
# Copy runs end to end (docs/design.md §2-§5, §8): the results CSV, the batch
# event order, a user's --src left untouched, --no-verify, --cmd, a memory
# cgroup that holds its limit and disappears, demotion bursts (mm_sync_cp
# bursts, rw_cp does not), --list-strategies, and a TUI run quit with q.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-runs.XXXXXX) || exit 2
# Scratch --dirs live on a real disk (/var/tmp), one fresh empty dir per
# test; the parent's name does not start with "lrutop-" so it cannot be
# mistaken for lrutop's own private dir.
base=$(mktemp -d /var/tmp/lrt-runs.XXXXXX) || exit 2
bg=""

cgroot=$(lrt_cgroot) || cgroot=""

_r_cleanup() {
	[ -n "$bg" ] && lrt_stop "$bg"
	tm_cleanup
	rm -rf "$tmp" "$base"
}
trap '_r_cleanup' EXIT
trap 'exit 2' INT TERM HUP

# run ARGS...: lrutop in batch mode with a bounded run time; sets $rc.
# (a hang guard only: 1G copies under 64M beside the other build's can take
# longer than 80 s on a loaded disk)
run() { lrt_run 300 "$@"; }
# _r_get CSV STRATEGY COLUMN: the column (by header name) of the first row
# of that strategy; prints "NOROW" when there is no such row.
_r_get() {
	awk -F, -v s="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
		$1 == s && !done { print (k ? $k : "NOCOL"); done = 1 }
		END { if (!done) print "NOROW" }' "$1"
}
_r_num() { printf '%s\n' "$1" | grep -Eq '^[0-9]+(\.[0-9]+)?$'; }

HDR='strategy,repeat,elapsed_s,user_s,sys_s,cpu_pct,majflt,minflt,inblock,oublock,bytes,mbs,read_cv,write_cv,peak_active_file_kb,pgdeactivate,refault_file,bursts,verified,rd_at_burst,dst_dirty_peak_kb,src_cached_end_pct,recently_evicted_end,probe_mode,probe_p50_ms,probe_p99_ms,probe_p999_ms,probe_max_ms,probe_slow,probe_idle_p99_ms,probe_rise_ms,probe_n,sweep,read_ratio'

# 1. Quiet batch, two strategies, results CSV ------------------------------
T="batch -q rw_cp,mm_sync_cp 32M:"
lrt_newdir
R=$tmp/r1.csv
run --batch -q -s rw_cp,mm_sync_cp --size 32M --dir "$d" --results "$R"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
if [ -f "$R" ]; then
	check "$T results: header + 2 rows" '[ "$(wc -l <"$R")" -eq 3 ] && [ "$(head -n 1 "$R")" = "$HDR" ]' \
		"$(wc -l <"$R") lines, header '$(head -n 1 "$R")'"
	for s in rw_cp mm_sync_cp; do
		b=$(_r_get "$R" $s bytes) e=$(_r_get "$R" $s elapsed_s) v=$(_r_get "$R" $s verified)
		check "$T $s bytes = 33554432" '[ "$b" = 33554432 ]' "bytes '$b'"
		check "$T $s elapsed_s > 0" '_r_num "$e" && awk -v e="$e" "BEGIN { exit !(e > 0) }"' "elapsed_s '$e'"
		check "$T $s verified = yes" '[ "$v" = yes ]' "verified '$v'"
	done
	mj=$(_r_get "$R" mm_sync_cp majflt) mn=$(_r_get "$R" mm_sync_cp minflt) rn=$(_r_get "$R" rw_cp minflt)
	check "$T mm_sync_cp majflt+minflt > 0 (mmap faults)" \
		'_r_num "$mj" && _r_num "$mn" && [ $((mj + mn)) -gt 0 ]' "majflt '$mj' minflt '$mn'"
	# 32 MiB mapped = 8192 pages: even with fault-around the mmap copy
	# takes >= ~500 faults; read()/write() takes a handful.
	check "$T rw_cp minflt small vs mm_sync_cp" \
		'_r_num "$rn" && _r_num "$mn" && [ $((rn * 10)) -lt "$mn" ]' "rw_cp minflt '$rn', mm_sync_cp minflt '$mn'"
else
	notok "$T results file written" "no $R; $(errline)"
fi
check "$T stdout: only the table, both names" \
	'head -n 1 "$tmp/out" | grep -q "^strategy" && ! grep -q "^#" "$tmp/out" &&
	 grep -q "^rw_cp " "$tmp/out" && grep -q "^mm_sync_cp " "$tmp/out"' \
	"$(head -n 4 "$tmp/out" | cut -c1-60 | tr '\n' '|')"
check "$T scratch --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# 2. Event order in a non-quiet batch run ------------------------------------
T="batch events:"
lrt_newdir
run --batch -s rw_cp --size 32M --dir "$d"
ev=$(awk '$1 == "#" && $3 == "run" && $4 == 1 && $5 == "rw_cp" { p = $6; sub(/:$/, "", p); printf "%s ", p }' "$tmp/out")
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T prepare copy flush done verify end, in order" '[ "$ev" = "prepare copy flush done verify end " ]' "got '$ev'"
check "$T event times non-decreasing" \
	'awk "\$1 == \"#\" && \$3 == \"run\" { if (n++ && \$2 + 0 < t) bad = 1; t = \$2 + 0 } END { exit bad || !n }" "$tmp/out"' \
	"$(grep '^#' "$tmp/out" | tr '\n' '|')"
check "$T results table at the end" 'grep -q "^strategy" "$tmp/out" && tail -n 3 "$tmp/out" | grep -q "^rw_cp "' \
	"$(tail -n 3 "$tmp/out" | tr '\n' '|')"

# 3. --src: a user's file is never modified, nothing is left behind ---------
T="--src user file:"
lrt_newdir
U=$tmp/user.bin
head -c $((5 * 1048576 + 7)) /dev/urandom >"$U"
chmod 640 "$U"
touch -d '2001-02-03 04:05:06' "$U"
sum0=$(sha256sum <"$U") st0=$(stat -c '%a %Y %s %i' "$U")
R=$tmp/r3.csv
# An odd size (not a multiple of a page or of 512) is the interesting case
# for the mmap, kernel-copy and O_DIRECT strategies.
SL=rw_cp,mm_sync_cp,mm_mun_madv_cp,mw_cp,splice_cp,direct_cp
run --batch -q -s $SL --src "$U" --dir "$d" --results "$R"
check "$T exit 0 (-s $SL)" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T sha256 unchanged" '[ "$(sha256sum <"$U")" = "$sum0" ]'
check "$T mode/mtime/size/inode unchanged" '[ "$(stat -c "%a %Y %s %i" "$U")" = "$st0" ]' "$st0 -> $(stat -c '%a %Y %s %i' "$U")"
bad=$(awk -F, 'NR > 1 && ($11 != 5242887 || $19 != "yes") { printf "%s(%s,%s) ", $1, $11, $19 }' "$R" 2>/dev/null)
rows=$(($(wc -l <"$R" 2>/dev/null || echo 1) - 1))
check "$T 6 rows, each bytes 5242887 and verified yes" '[ "$rows" -eq 6 ] && [ -z "$bad" ]' "$rows rows; bad: $bad"
check "$T --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# 4. --no-verify ---------------------------------------------------------------
T="--no-verify:"
lrt_newdir
R=$tmp/r4.csv
run --batch -s rw_cp --size 8M --no-verify --dir "$d" --results "$R"
v=$(_r_get "$R" rw_cp verified)
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T verified column empty" '[ -z "$v" ]' "verified '$v'"
check "$T no verify event" '! grep -q "^#.* rw_cp verify$" "$tmp/out" && grep -q "^#.* rw_cp done$" "$tmp/out"' \
	"$(grep '^#' "$tmp/out" | tr '\n' '|')"

# 5. --cmd -----------------------------------------------------------------------
T="--cmd:"
lrt_newdir
R=$tmp/r5.csv
run --batch -q --cmd 'cp {src} {dst}' --size 8M --dir "$d" --results "$R"
check "$T 'cp {src} {dst}' exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
check "$T 'cp {src} {dst}' one result row, 8 MiB" \
	'[ "$(wc -l <"$R")" -eq 2 ] && [ "$(sed -n 2p "$R" | cut -d, -f11)" = 8388608 ]' "$(tr '\n' '|' <"$R")"
check "$T 'cp' --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
lrt_newdir
run --batch -q --cmd 'false' --size 1M --dir "$d"
check "$T 'false' exit 1" '[ "$rc" -eq 1 ]' "exit $rc: $(errline)"
check "$T 'false' message names it" 'cat "$tmp/out" "$tmp/err" | grep -v "^strategy" | grep -v "^false  " | grep -q "false"' \
	"stdout: $(tr '\n' '|' <"$tmp/out" | cut -c1-300) stderr: $(errline)"
check "$T 'false' --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# 6. --mem-limit: the cgroup holds the limit and goes away --------------------
T="--mem-limit 128M:"
if [ "$(id -u)" -ne 0 ]; then
	skip "$T cgroup" "not root"
elif [ -z "$cgroot" ] || [ ! -w "$cgroot" ]; then
	skip "$T cgroup" "no writable memory cgroup of our own (/proc/self/cgroup: $(grep -E 'memory|^0::' /proc/self/cgroup | tr '\n' ' '))"
else
	lrt_newdir
	C=$tmp/c6.csv
	lrt_fresh "$tmp/out" "$tmp/err"
	"$LRUTOP" --batch -q -s rw_cp --size 512M --mem-limit 128M --dir "$d" --csv "$C" \
		</dev/null >"$tmp/out" 2>"$tmp/err" &
	bg=$!
	cg=$cgroot/lrutop-$bg-run1
	uf=memory.usage_in_bytes mf=memory.max_usage_in_bytes
	[ -f "$cgroot/memory.current" ] && uf=memory.current mf=memory.peak
	seen=0 max=0 polls=0
	deadline=$(($(now_cs) + 8000))
	# Poll as fast as the shell allows (no forks in the loop): the cgroup
	# exists only while the run is on.
	while ! proc_gone "$bg" && [ "$(now_cs)" -lt "$deadline" ]; do
		if [ -d "$cg" ]; then
			seen=1
			for f in $uf $mf; do
				v=0
				read -r v 2>/dev/null <"$cg/$f"
				case $v in '' | *[!0-9]*) v=0 ;; esac
				[ "$v" -gt "$max" ] && max=$v
			done
			polls=$((polls + 1))
		fi
		sleep 0.02
	done
	wait "$bg"
	rc=$?
	leftover=$(ls -d "$cgroot/lrutop-$bg-"* 2>/dev/null)
	bg=""
	check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
	check "$T cgroup lrutop-<pid>-run1 exists during the run" '[ "$seen" -eq 1 ]' "never saw $cg"
	check "$T usage never above 134217728" '[ "$seen" -eq 1 ] && [ "$max" -le 134217728 ] && [ "$max" -gt 0 ]' \
		"max usage $max over $polls polls"
	check "$T cgroup gone after exit" '[ -z "$leftover" ]' "left: $leftover"
	# cg_active_file_kb: filled in every copy/flush sample, and some exist.
	cgf=$(awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "cg_active_file_kb") k = i; if ($i == "phase") p = i }; next }
		k && p && ($p == "copy" || $p == "flush") { n++; if ($k !~ /^[0-9]+$/) bad++; else if ($k > 0) pos++ }
		END { printf "%d %d %d", n, bad, pos }' "$C" 2>/dev/null)
	cgn=${cgf%% *} cgpos=${cgf##* } cgbad=${cgf#* } cgbad=${cgbad% *}
	check "$T --csv cg_active_file_kb filled during the run" \
		'[ "${cgn:-0}" -gt 0 ] && [ "${cgbad:-1}" -eq 0 ] && [ "${cgpos:-0}" -gt 0 ]' \
		"copy/flush rows ${cgn:-?}, unfilled ${cgbad:-?}, non-zero ${cgpos:-?}"
	check "$T --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
fi

# 7. Demotion bursts: mm_sync_cp bursts, rw_cp does not ----------------------
T="bursts (64M limit, 1G):"
if [ "$(id -u)" -ne 0 ] || [ -z "$cgroot" ] || [ ! -w "$cgroot" ]; then
	skip "$T mm_sync_cp > 0, rw_cp == 0" "needs root and a writable memory cgroup"
else
	lrt_newdir
	R=$tmp/r7.csv
	run --batch -q -s rw_cp,mm_sync_cp --size 1G --mem-limit 64M --dir "$d" --results "$R"
	bm=$(_r_get "$R" mm_sync_cp bursts) br=$(_r_get "$R" rw_cp bursts)
	check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
	check "$T mm_sync_cp bursts > 0" '_r_num "$bm" && [ "$bm" -gt 0 ]' "mm_sync_cp bursts '$bm' (rw_cp '$br')"
	check "$T rw_cp bursts == 0" '[ "$br" = 0 ]' "rw_cp bursts '$br' (mm_sync_cp '$bm')"
	echo "# bursts: rw_cp=$br mm_sync_cp=$bm"
fi

# 8. --list-strategies -----------------------------------------------------------
T="--list-strategies:"
run --list-strategies
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc"
missing=""
for s in rw_cp rw_fadv_cp mm_sync_cp mm_mun_cp mm_sync_madv_cp mm_mun_madv_cp mw_cp mw_madv_cp \
	cfr_cp sendfile_cp splice_cp direct_cp stream_cp; do
	# the name first on its line, then at least three words of description
	awk -v s="$s" '$1 == s && NF >= 4 { f = 1 } END { exit !f }' "$tmp/out" || missing="$missing $s"
done
check "$T all 13 names, each with a description" '[ -z "$missing" ]' "missing or undescribed:$missing"

# 9. TUI run in tmux, q mid-run ----------------------------------------------
T="TUI run:"
if ! command -v tmux >/dev/null 2>&1; then
	skip "$T q mid-run" "tmux not installed"
else
	lrt_newdir
	s=runs$$
	# with a (roomy) memory limit when we can, so that "no cgroup left
	# behind" has something to check
	ml=""
	[ "$(id -u)" -eq 0 ] && [ -n "$cgroot" ] && [ -w "$cgroot" ] && ml="--mem-limit 512M"
	# The copy phase must be on screen until the polls below have seen it:
	# under --disk-limit 16M a 64M copy reads for 4 s whatever the machine
	# (a 256M copy at full speed took 0.33 s on a quiet fresh machine,
	# about one frame; 1G was several, yet only as long as the disk was
	# fast).  Where no io throttle can be had, 1G as before.
	sz="--size 1G"
	[ -n "$ml" ] && [ -n "$(lrt_ioroot)" ] && sz="--size 64M --disk-limit 16M"
	echo "# TUI run: rw_cp $sz"
	tm_start "$s" 120 40 "$LRUTOP -s rw_cp $sz $ml --dir '$d'"
	if tm_wait "$s" "run 1/1" 40; then ok "$T progress line 'run 1/1'"; else
		notok "$T progress line 'run 1/1'" "$(tm_cap "$s" | grep -v '^ *$' | tail -n 4 | tr '\n' '|')"
	fi
	# the copy phase: progress line with the strategy, phase and a percentage;
	# note the run's cgroup while polling (it exists from prepare to end)
	pid="" cgseen="" pl=""
	_r_tui_poll() {
		[ -z "$pid" ] && pid=$(tm_child "$s")
		[ -n "$ml" ] && [ -n "$pid" ] && [ -z "$cgseen" ] && cgseen=$(ls -d "$cgroot/lrutop-$pid-"* 2>/dev/null)
		pl=$(tm_cap "$s" | grep -E 'run 1/1 .*rw_cp(@16M)? +copy .*[0-9]+%' | head -n 1)
		[ -n "$pl" ] || tm_has "$s" EXIT= || tm_has "$s" "run done"
	}
	wait_for 45 _r_tui_poll 0.02
	# q at once, while the run is still on (flush and verify follow)
	tm send-keys -t "$s" q
	check "$T progress line: rw_cp, copy phase, percentage" '[ -n "$pl" ]' \
		"copy phase not seen: $(tm_cap "$s" | grep -E 'run|rw_cp' | head -n 3 | tr '\n' '|')"
	if tm_wait "$s" "EXIT=" 15; then
		st=$(tm_cap "$s" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p' | head -n 1)
		check "$T q mid-run: EXIT=0" '[ "$st" = 0 ]' "EXIT=$st"
		check "$T q: terminal restored (icanon, echo)" 'tm_stty_sane "$s"' \
			"$(tm_cap "$s" | grep -Eo -- '-?(icanon|echo) ' | tr '\n' ' ')"
	else
		notok "$T q mid-run: EXIT=0" "still running after q: $(tm_cap "$s" | tail -n 3 | tr '\n' '|')"
	fi
	check "$T q: no lrutop-* left in --dir" '! ls -d "$d"/lrutop-* >/dev/null 2>&1' "left: $(ls -A "$d" | tr '\n' ' ')"
	if [ -n "$ml" ]; then
		check "$T q: its cgroup existed mid-run and is gone" \
			'[ -n "$pid" ] && [ -n "$cgseen" ] && ! ls -d "$cgroot/lrutop-$pid-"* >/dev/null 2>&1' \
			"pid '$pid', seen '$cgseen', left: $(ls -d "$cgroot"/lrutop-* 2>/dev/null | tr '\n' ' ')"
	fi
	tm kill-session -t "$s" 2>/dev/null
fi
