#!/bin/sh
# Side-by-side strategy runs (part 3; docs/design.md §3-§6): the interleaved
# queue of --repeat, the statistics table checked against medians computed
# here from --results, --baseline, cancelling one run (c) and the whole
# queue (C) in the TUI, the Runs view (4, a) and the run picker (r).
. "$(dirname "$0")/lib.sh"

Q=queue
tmp=$(mktemp -d /tmp/lrutop-queue.XXXXXX) || exit 2
# scratch --dirs on a real disk, one fresh empty dir per test; the parent's
# name does not start with "lrutop-"
base=$(mktemp -d /var/tmp/lrt-queue.XXXXXX) || exit 2
pids="" # lrutop processes started in tmux panes

cgroot=$(lrt_cgroot) || cgroot=""

_q_cleanup() {
	for _p in $pids; do lrt_stop "$_p"; done
	tm_cleanup
	rm -rf "$tmp" "$base"
}
trap '_q_cleanup' EXIT
trap 'exit 2' INT TERM HUP

# run ARGS...: batch lrutop with a bounded run time; sets $rc.
run() { lrt_run 80 "$@"; }
oneline() { tr '\n' '|' | cut -c1-"${1:-300}"; }
# near A B TOL: |A - B| <= TOL (A may carry a unit suffix: s, x, %)
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN {
		sub(/[sx%]$/, "", a)
		if (a !~ /^[-+]?[0-9]+(\.[0-9]+)?$/ || b !~ /^[-+]?[0-9.]+$/) exit 1
		d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# ---- 1. --batch -q --repeat 3: per-run rows, statistics table -------------
T="$Q batch --repeat 3:"
lrt_newdir
F=$tmp/r1.csv
run --batch -q -s rw_cp,mw_cp --repeat 3 --size 64M --dir "$d" --results "$F"
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
cp "$tmp/out" "$tmp/out1"
# the per-run table: first line its header (with "rep"), rows up to the
# first blank line
order=$(awk 'NR == 1 { next } /^$/ { exit } { printf "%s:%s ", $1, $2 }' "$tmp/out1")
check "$T per-run table header" 'head -n 1 "$tmp/out1" | grep -Eq "^strategy +rep "' \
	"$(head -n 1 "$tmp/out1" | cut -c1-80)"
check "$T per-run rows interleaved rw_cp mw_cp x3 (repeat 1,1,2,2,3,3)" \
	'[ "$order" = "rw_cp:1 mw_cp:1 rw_cp:2 mw_cp:2 rw_cp:3 mw_cp:3 " ]' "got '$order'"
# the statistics table: a later header starting "strategy" with "runs"
lastrow=$(awk 'NR > 1 && /^$/ { print NR - 1; exit }' "$tmp/out1")
shdr=$(grep -nE '^strategy .* runs ' "$tmp/out1" | head -n 1 | cut -d: -f1)
check "$T statistics table follows the per-run rows" \
	'[ -n "$shdr" ] && [ -n "$lastrow" ] && [ "$shdr" -gt "$lastrow" ]' \
	"header line '${shdr:-none}', last per-run row '${lastrow:-?}': $(oneline <"$tmp/out1")"
srow() { [ -n "$shdr" ] && awk -v h="$shdr" -v s="$1" 'NR > h && $1 == s { print; exit }' "$tmp/out1"; }
srw=$(srow rw_cp) smw=$(srow mw_cp)
check "$T statistics rows rw_cp then mw_cp" \
	'[ -n "$srw" ] && [ -n "$smw" ] && [ "$(awk -v h="${shdr:-0}" "NR > h && \$2 ~ /^[0-9]+(\\/[0-9]+)?\$/ { printf \"%s \", \$1 }" "$tmp/out1")" = "rw_cp mw_cp " ]' \
	"$(sed -n "${shdr:-1},\$p" "$tmp/out1" | oneline)"
rows=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $2 }' "$F" 2>/dev/null)
check "$T --results: 6 rows in the same order" \
	'[ "$rows" = "rw_cp:1 mw_cp:1 rw_cp:2 mw_cp:2 rw_cp:3 mw_cp:3 " ]' "got '$rows'"

# Reference statistics from the CSV, computed here: median (middle of the
# sorted values), min, max of elapsed_s ($3) and mbs ($12) per strategy;
# only rows with verified=yes count (all of them in a clean run).
ref() {
	awk -F, -v s="$1" '
		NR > 1 && $1 == s && $19 == "yes" { n++; e[n] = $3 + 0; m[n] = $12 + 0 }
		function med(a, k,   i, j, t) {
			for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
			return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
		}
		END {
			if (!n) { print "none"; exit }
			me = med(e, n); mm = med(m, n)
			printf "%d %.6f %.6f %.6f %.6f %.6f %.6f\n", n, me, e[1], e[n], mm, m[1], m[n]
		}' "$F"
}
# stats columns: 1 name 2 runs 3 elapsed 4 min 5 max 6 MiB/s 7 min 8 max
# 9 ratio (/base) 10 vs-base; the CSV carries elapsed with 4 decimals and MiB/s with
# 3, the table 3 and 1: tolerances are half the table's last digit plus the
# CSV's rounding.
for s in rw_cp mw_cp; do
	r=$(ref $s)
	row=$(srow $s)
	set -- $r
	if [ "$#" -ne 7 ] || [ -z "$row" ]; then
		notok "$T $s statistics vs --results" "ref '$r', row '$row'"
		continue
	fi
	n=$1 me=$2 emin=$3 emax=$4 mm=$5 mmin=$6 mmax=$7
	set -- $row
	nruns=$2
	check "$T $s runs = 3" '[ "$nruns" = 3 ] && [ "$n" = 3 ]' "runs column '$nruns', CSV OK rows $n"
	bad=""
	near "$3" "$me" 0.00056 || bad="$bad elapsed '$3' (median $me)"
	near "$4" "$emin" 0.00056 || bad="$bad min '$4' ($emin)"
	near "$5" "$emax" 0.00056 || bad="$bad max '$5' ($emax)"
	case $3$4$5 in *s*s*s) ;; *) bad="$bad elapsed columns without 's'" ;; esac
	near "$6" "$mm" 0.0506 || bad="$bad MiB/s '$6' (median $mm)"
	near "$7" "$mmin" 0.0506 || bad="$bad min '$7' ($mmin)"
	near "$8" "$mmax" 0.0506 || bad="$bad max '$8' ($mmax)"
	check "$T $s median/min/max of elapsed and MiB/s match --results" '[ -z "$bad" ]' "$bad; row: $row"
	eval "med_$s=$me vs_$s='${10}' ratio_$s='$9'"
done
if [ -n "${med_rw_cp:-}" ] && [ -n "${med_mw_cp:-}" ]; then
	# the faster median gets 1.00x and "fastest", the other median/median
	fast=$(awk -v a="$med_rw_cp" -v b="$med_mw_cp" 'BEGIN { print (a <= b ? "rw_cp mw_cp" : "mw_cp rw_cp") }')
	set -- $fast
	f=$1 o=$2
	eval "rf=\$ratio_$f ro=\$ratio_$o mf=\$med_$f mo=\$med_$o"
	close=$(awk -v a="$mo" -v b="$mf" 'BEGIN { print (a - b < 0.0002) }')
	# the ratio is to the base (rw_cp, the first): its own 1.00x, headed /base
	check "$T ratio: the base rw_cp 1.00x" '[ "${ratio_rw_cp:-}" = 1.00x ]' "ratio '${ratio_rw_cp:-}'"
	wantb=$(awk -v a="$med_mw_cp" -v b="$med_rw_cp" 'BEGIN { printf "%.6f", a / b }')
	# the CSV's 4-decimal rounding, relative to sub-second medians
	tolb=$(awk -v a="$med_mw_cp" -v b="$med_rw_cp" 'BEGIN { printf "%.6f", 0.0051 + 0.00006 * (1 / a + 1 / b) * a / b }')
	check "$T ratio: mw_cp = median/base median ($wantb)" 'near "${ratio_mw_cp%x}" "$wantb" "$tolb"' "ratio '${ratio_mw_cp:-}'"
	check "$T ratio column headed /base" 'grep -qE "^strategy .* /base +vs base" "$tmp/out1"' "$(grep -E '^strategy .* runs ' "$tmp/out1" | head -n 1)"
	check "$T 'fastest' marks $f only" \
		'srow $f | grep -q " fastest" && ! srow $o | grep -q " fastest" || [ "$close" = 1 ]' \
		"$(srow rw_cp | cut -c100-) / $(srow mw_cp | cut -c100-)"
	check "$T vs base: rw_cp (first) is base" '[ "${vs_rw_cp:-}" = base ]' "'${vs_rw_cp:-}'"
	wantp=$(awk -v a="$med_mw_cp" -v b="$med_rw_cp" 'BEGIN { printf "%.4f", (a / b - 1) * 100 }')
	check "$T vs base: mw_cp = (median/base - 1) * 100 ($wantp)" 'near "${vs_mw_cp:-}" "$wantp" 0.12' "'${vs_mw_cp:-}'"
fi
check "$T --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# ---- 2. --baseline ------------------------------------------------------------
T="$Q --baseline:"
lrt_newdir
F=$tmp/r2.csv
run --batch -q -s rw_cp,mw_cp --size 32M --baseline mw_cp --dir "$d" --results "$F"
check "$T mw_cp: exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(errline)"
shdr=$(grep -nE '^strategy .* runs ' "$tmp/out" | head -n 1 | cut -d: -f1)
cp "$tmp/out" "$tmp/out1"
set -- $(srow mw_cp) x x x x x x x x x x
vmw=${10}
set -- $(srow rw_cp) x x x x x x x x x x
vrw=${10}
erw=$(awk -F, '$1 == "rw_cp" { print $3 }' "$F" 2>/dev/null)
emw=$(awk -F, '$1 == "mw_cp" { print $3 }' "$F" 2>/dev/null)
check "$T mw_cp is the base row" '[ "$vmw" = base ]' "mw_cp vs base '$vmw': $(sed -n "${shdr:-1},\$p" "$tmp/out" | oneline)"
if [ -n "$erw" ] && [ -n "$emw" ]; then
	wantp=$(awk -v a="$erw" -v b="$emw" 'BEGIN { printf "%.4f", (a / b - 1) * 100 }')
	tol=$(awk -v a="$erw" -v b="$emw" 'BEGIN { printf "%.4f", 0.06 + 100 * 0.00006 * (1 / a + 1 / b) * a / b }')
	check "$T rw_cp vs base = (rw/mw - 1) * 100 ($wantp)" 'near "$vrw" "$wantp" "$tol"' "'$vrw'"
else
	notok "$T rw_cp vs base" "no rows in --results: $(oneline <"$F")"
fi
lrt_newdir
run --batch -q -s rw_cp,mw_cp --size 8M --baseline nope --dir "$d"
check "$T nope: exit 2" '[ "$rc" -eq 2 ]' "exit $rc"
check "$T nope: one 'lrutop: ' line naming it" \
	'[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: .*nope" "$tmp/err"' "stderr: $(oneline <"$tmp/err")"
check "$T nope: nothing on stdout, --dir empty" '[ ! -s "$tmp/out" ] && lrt_empty "$d"' \
	"stdout: $(oneline 100 <"$tmp/out"); left: $(ls -A "$d" | tr '\n' ' ')"

# ---- 2b. --cmd entries of the queue ------------------------------------------------
# every --cmd is one more entry: interleaved with -s, the same statistics,
# labelled by --name (or its program), --baseline takes a label
T="$Q --cmd beside -s:"
lrt_newdir
F=$tmp/r2b.csv
run --batch -q -s rw_cp --cmd 'cp {src} {dst}' --name cp --repeat 2 --size 8M --dir "$d" --results "$F"
check "$T exit 0" '[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]' "exit $rc: $(errline)"
rows=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $2 }' "$F" 2>/dev/null)
check "$T 4 runs interleaved rw_cp cp rw_cp cp" '[ "$rows" = "rw_cp:1 cp:1 rw_cp:2 cp:2 " ]' "got '$rows'"
order=$(awk 'NR == 1 { next } /^$/ { exit } { printf "%s:%s ", $1, $2 }' "$tmp/out")
check "$T the per-run table in that order" '[ "$order" = "rw_cp:1 cp:1 rw_cp:2 cp:2 " ]' "got '$order'"
shdr=$(grep -nE '^strategy .* runs ' "$tmp/out" | head -n 1 | cut -d: -f1)
srows=$(awk -v h="${shdr:-9999}" 'NR > h && $2 ~ /^[0-9]/ { printf "%s:%s:%s ", $1, $2, $10 }' "$tmp/out")
check "$T statistics: rw_cp and cp, 2 runs each, rw_cp (first) the base" \
	'printf "%s\n" "$srows" | grep -Eq "^rw_cp:2:base cp:2:[-+][0-9.]+% $"' "rows '$srows'"
cp_bytes=$(awk -F, '$1 == "cp" { printf "%s ", $11 }' "$F")
check "$T the cp runs copied 8 MiB" '[ "$cp_bytes" = "8388608 8388608 " ]' "bytes '$cp_bytes'"
check "$T --dir empty afterwards" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

lrt_newdir
run --batch -q -s rw_cp --cmd 'cp {src} {dst}' --name cp --size 8M --baseline cp --dir "$d"
shdr=$(grep -nE '^strategy .* runs ' "$tmp/out" | head -n 1 | cut -d: -f1)
srows=$(awk -v h="${shdr:-9999}" 'NR > h && $2 ~ /^[0-9]/ { printf "%s:%s ", $1, $10 }' "$tmp/out")
check "$Q --baseline cp (a --cmd label): exit 0, cp is the base" \
	'[ "$rc" -eq 0 ] && printf "%s\n" "$srows" | grep -Eq "^rw_cp:[-+][0-9.]+% cp:base $"' \
	"exit $rc: $(errline); rows '$srows'"

# default labels: the program, plus its first argument unless that is
# {src}/{dst}; duplicates get #2; a --cmd before -s runs first
lrt_newdir
F=$tmp/r2c.csv
run --batch -q --cmd 'cp {src} {dst}' -s rw_cp --cmd 'cp {src} {dst}' --cmd 'cp -p {src} {dst}' \
	--size 4M --no-verify --dir "$d" --results "$F" --baseline 'cp#2'
rows=$(awk -F, 'NR > 1 { printf "%s|", $1 }' "$F" 2>/dev/null)
check "$Q default labels: cp, rw_cp, cp#2, 'cp -p' in command-line order" \
	'[ "$rc" -eq 0 ] && [ "$rows" = "cp|rw_cp|cp#2|cp -p|" ]' "exit $rc: $(errline); rows '$rows'"
shdr=$(grep -nE '^strategy .* runs ' "$tmp/out" | head -n 1 | cut -d: -f1)
b=$(awk -v h="${shdr:-9999}" 'NR > h && $1 == "cp#2" { print $10 }' "$tmp/out")
check "$Q --baseline cp#2 (a default label) is the base" '[ "$b" = base ]' "cp#2 vs base '$b'"

# label and queue errors: exit 2, one line, nothing left
qerr() {
	_qn=$1 _qp=$2
	shift 2
	lrt_newdir
	run --batch -q --size 1M --dir "$d" "$@"
	check "$Q $_qn: exit 2, one 'lrutop: ' line /$_qp/, --dir empty" \
		'[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -Eq "^lrutop: .*($_qp)" "$tmp/err" && [ ! -s "$tmp/out" ] && lrt_empty "$d"' \
		"exit $rc; stderr: $(oneline <"$tmp/err"); left: $(ls -A "$d" | tr '\n' ' ')"
}
qerr "--name rw_cp (a strategy's name)" "--name rw_cp: is a strategy" --cmd true --name rw_cp
qerr "--name twice" "--name x: given twice" --cmd true --name x --cmd false --name x
qerr "more --name than --cmd" "--name y: no --cmd" --cmd true --name x --name y
qerr "--name with a comma" "--name a,b: no commas" --cmd true --name a,b
qerr "--baseline nope lists the labels" "--baseline nope: not one of the runs \(rw_cp, cp\)" \
	-s rw_cp --cmd 'cp {src} {dst}' --baseline nope
qerr "--cmd nosuchprog" "--cmd nosuchprog: No such file or directory" --cmd 'nosuchprog {src}'
qerr "--cmd /no/such/prog" "--cmd /no/such/prog: No such file or directory" --cmd /no/such/prog -s rw_cp
: >"$tmp/notexec"
chmod 644 "$tmp/notexec"
qerr "--cmd a file without x bit" "--cmd $tmp/notexec: Permission denied" --cmd "$tmp/notexec"

# a failing --cmd says why, in its own words (its stderr)
lrt_newdir
run --batch -q --cmd 'ls /nonexistent' --size 1M --dir "$d"
check "$Q --cmd 'ls /nonexistent': exit 1, its stderr in the message" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: ls: exited with status 2: ls: cannot access .*/nonexistent.*: No such file or directory$" "$tmp/err"' \
	"exit $rc; stderr: $(oneline <"$tmp/err")"
check "$Q --cmd 'ls /nonexistent': the message under the table too" \
	'grep -q "^  ls /nonexistent #1: .*No such file or directory" "$tmp/out"' "$(oneline <"$tmp/out")"
# many lines: the last 4 only, one line
printf '#!/bin/sh\nfor i in 1 2 3 4 5 6; do echo "line $i" >&2; done\nexit 3\n' >"$tmp/chatty"
chmod 755 "$tmp/chatty"
lrt_newdir
run --batch -q --cmd "$tmp/chatty" --size 1M --dir "$d"
check "$Q --cmd writing 6 stderr lines: exit 1, the last 4 in one line" \
	'[ "$rc" -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^lrutop: chatty: exited with status 3: line 3 | line 4 | line 5 | line 6$" "$tmp/err"' \
	"exit $rc; stderr: $(oneline <"$tmp/err")"
check "$Q --cmd failures: --dir empty" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"

# ---- TUI helpers ---------------------------------------------------------------
if ! command -v tmux >/dev/null 2>&1; then
	skip "$Q TUI" "tmux not installed"
	exit 0
fi
run_env="env TERM=xterm-256color LANG=C.UTF-8"
# whole scrollback, wrapped lines joined
tm_all() { tm capture-pane -p -J -S -300 -t "$1" 2>/dev/null; }
show() { tm_cap "$1" | sed 's/ *$//' | grep -v '^$' | tail -n "${2:-4}" | cut -c1-120 | tr '\n' '|'; }
progress() { tm_cap "$1" | grep -E '(run [0-9]+/[0-9]+|runs? done|writing the scratch|starting the next|no runs queued)' | head -n 1 | sed 's/ *$//'; }
# live (not zombie) children of a pid
live_children() {
	for _c in $(pgrep -P "$1" 2>/dev/null); do
		proc_gone "$_c" || printf '%s ' "$_c"
	done
}
exit_status() { tm_all "$1" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p' | head -n 1; }
# Byte patterns (LC_ALL=C): braille with at least one dot = U+2801-28FF.
dots=$(printf '\342\240[\201-\277]')
dots2=$(printf '\342[\241-\243]')

ml=""
[ "$(id -u)" -eq 0 ] && [ -n "$cgroot" ] && [ -w "$cgroot" ] && ml="--mem-limit 512M"

# ---- 3. c cancels one run, C the queue --------------------------------------
T="$Q TUI cancel:"
lrt_newdir
s=cancel$$
tm_start "$s" 120 40 "$run_env '$LRUTOP' -s rw_cp,mw_cp --size 1G $ml --dir '$d'"
pid=""
wait_for 5 '[ -n "$(tm_child "$s")" ]' && pid=$(tm_child "$s") && pids="$pids $pid"
# rw_cp copying (writing the 1 GiB source comes first)
if tm_until "$s" 90 'progress "$s" | grep -Eq "run 1/2 \(0 done, 1 left\) rw_cp +copy "' 0.1; then
	ok "$T progress line: run 1/2 rw_cp copy"
	tm send-keys -t "$s" c
	if tm_until "$s" 30 'progress "$s" | grep -Eq "run 2/2 .*mw_cp"' 0.05; then
		ok "$T after c the queue moves on: run 2/2 mw_cp"
		# C while mw_cp copies (its prepare/drain come first)
		tm_until "$s" 30 'progress "$s" | grep -Eq "run 2/2 .*mw_cp +(copy|flush) "' 0.05
		p2=$(progress "$s")
		tm send-keys -t "$s" C
		echo "# C pressed at: $p2"
		if tm_until "$s" 20 'progress "$s" | grep -q "all 2 runs done"'; then
			ok "$T after C: 'all 2 runs done'"
			pl=$(progress "$s")
			# cancelling is the user's choice, not a failure (exit 0 below)
			check "$T after C: progress line does not say FAILED" \
				'! printf "%s\n" "$pl" | grep -qi fail' "progress '$pl'"
		else
			notok "$T after C: 'all 2 runs done'" "progress '$(progress "$s")': $(show "$s")"
		fi
		# the live scratch dir is the only thing in --dir
		left=$(ls -A "$d")
		check "$T after C: only lrutop's scratch dir in --dir" \
			'[ "$(printf "%s\n" "$left" | grep -c .)" -eq 1 ] && case $left in lrutop-*) true ;; *) false ;; esac' \
			"left: $(printf '%s ' $left)"
		[ -n "$left" ] && echo "# scratch dir after C: $(ls -A "$d"/lrutop-* 2>/dev/null | tr '\n' ' ')"
		check "$T after C: no worker left (no live child of lrutop)" \
			'[ -n "$pid" ] && wait_for 5 "[ -z \"\$(live_children $pid)\" ]"' \
			"pid '$pid' children: $(live_children "${pid:-0}")"
		if [ -n "$ml" ]; then
			check "$T after C: no lrutop-$pid-* cgroup" \
				'! ls -d "$cgroot/lrutop-$pid-"* >/dev/null 2>&1' "left: $(ls -d "$cgroot"/lrutop-* 2>/dev/null | tr '\n' ' ')"
		else
			skip "$T after C: no cgroup left" "needs root and a writable memory cgroup"
		fi
	else
		notok "$T after c the queue moves on: run 2/2 mw_cp" "progress '$(progress "$s")': $(show "$s")"
	fi
else
	notok "$T progress line: run 1/2 rw_cp copy" "progress '$(progress "$s")': $(show "$s")"
fi
if tm_alive "$s"; then
	tm send-keys -t "$s" q
	if wait_for 15 "tm_has '$s' END-OF-STTY"; then
		st=$(exit_status "$s")
		check "$T q: EXIT=0" '[ "$st" = 0 ]' "EXIT=$st"
		check "$T q: terminal restored" 'tm_stty_sane "$s"'
		check "$T q: --dir empty" 'lrt_empty "$d"' "left: $(ls -A "$d" | tr '\n' ' ')"
		tm_all "$s" >"$tmp/cap3"
		check "$T results table: rw_cp #1 and mw_cp #1 cancelled (cncl)" \
			'grep -Eq "^rw_cp +1 .* cncl *$" "$tmp/cap3" && grep -Eq "^mw_cp +1 .* cncl *$" "$tmp/cap3"' \
			"$(grep -E '^(rw_cp|mw_cp|strategy) ' "$tmp/cap3" | cut -c1-30,100- | oneline 400)"
		[ -n "$ml" ] && check "$T q: no lrutop-$pid-* cgroup" '! ls -d "$cgroot/lrutop-$pid-"* >/dev/null 2>&1'
	else
		notok "$T q: EXIT=0" "still running after q: $(show "$s")"
	fi
else
	notok "$T q: EXIT=0" "lrutop had ended: $(show "$s" 8)"
fi
tm kill-session -t "$s" 2>/dev/null

# ---- 4. the Runs view after three strategies -----------------------------------
T="$Q TUI Runs view:"
lrt_newdir
s=runs$$
# 512M at 0.05 s: each copy spans several samples (128M at 0.1 s took one
# interval, and cfr_cp, from the page cache, sometimes none: an empty chart)
tm_start "$s" 120 40 "$run_env '$LRUTOP' -s rw_cp,mw_cp,cfr_cp --size 512M -i 0.05 --dir '$d'"
wait_for 5 '[ -n "$(tm_child "$s")" ]' && pids="$pids $(tm_child "$s")"
if tm_until "$s" 90 'progress "$s" | grep -q "all 3 runs done"' 0.1; then
	ok "$T all 3 runs done"
	tm send-keys -t "$s" 4
	if tm_wait "$s" "Runs:" 5; then
		# the title comes first: the capture waits for the table's last row
		tm_until "$s" 10 "[ \$(tm_cap '$s' | grep -Ec '^ (rw_cp|mw_cp|cfr_cp) +[0-9]+ ') -ge 3 ]" >/dev/null
		tm_cap "$s" >"$tmp/cap4"
		cp "$tmp/cap4" "$BUILD/runs-120x40.txt" 2>/dev/null || echo "# could not save $BUILD/runs-120x40.txt"
		check "$T title 'Runs'" 'grep -q "^ *Runs" "$tmp/cap4"' "$(head -n 3 "$tmp/cap4" | oneline)"
		# chart blocks: a labelled row and the unlabelled rows under it, up
		# to the next label or the axis line
		axis=$(grep -n ' 0s .*[0-9]s *$' "$tmp/cap4" | head -n 1 | cut -d: -f1)
		check "$T shared axis line (0s), the legend under it (read, active(file))" \
			'[ -n "$axis" ] && sed -n "$((axis + 1))p" "$tmp/cap4" | grep -q "read.*active(file)"' \
			"$(oneline 600 <"$tmp/cap4")"
		prev=0 bad="" order=""
		for n in rw_cp mw_cp cfr_cp; do
			l=$(grep -nE "^$n +#1" "$tmp/cap4" | head -n 1 | cut -d: -f1)
			if [ -z "$l" ]; then
				bad="$bad $n:no-row"
				continue
			fi
			[ "$l" -gt "$prev" ] || bad="$bad $n:out-of-order"
			prev=$l
			order="$order $n@$l"
			# its block: from the label row to the next label row / axis
			end=$(awk -v l="$l" -v a="${axis:-9999}" 'NR > l && (/^[a-z_]+ +#[0-9]/ || NR >= a) { print NR - 1; exit }' "$tmp/cap4")
			sed -n "${l},${end:-$l}p" "$tmp/cap4" | LC_ALL=C grep -q -e "$dots" -e "$dots2" || bad="$bad $n:no-braille-dots"
			[ -n "$axis" ] && [ "$l" -ge "$axis" ] && bad="$bad $n:below-axis"
		done
		check "$T chart rows 'rw_cp #1', 'mw_cp #1', 'cfr_cp #1' with braille dots" '[ -z "$bad" ]' \
			"$bad ($order): $(cut -c1-40 "$tmp/cap4" | oneline 600)"
		# "axes carry units": the label's elapsed time keeps its "s"
		lab=$(grep -E '^(rw_cp|mw_cp|cfr_cp) +#1' "$tmp/cap4" | sed 's/\(#1[^│|]*\).*/\1/')
		check "$T chart labels show the elapsed time with its unit (s)" \
			'[ "$(printf "%s\n" "$lab" | grep -Ec "#1 +[0-9]+\.[0-9]+ ?s")" -eq 3 ]' \
			"labels: $(printf '%s\n' "$lab" | oneline)"
		hdr=$(grep -nE '^ *strategy +runs +median' "$tmp/cap4" | head -n 1 | cut -d: -f1)
		check "$T statistics header (strategy runs median) below the charts" \
			'[ -n "$hdr" ] && [ -n "$axis" ] && [ "$hdr" -gt "$axis" ]' "header line '${hdr:-none}', axis '${axis:-none}'"
		trows=$(awk -v h="${hdr:-9999}" 'NR > h && $1 ~ /^(rw_cp|mw_cp|cfr_cp)$/ && $2 ~ /^[0-9]+$/ { printf "%s ", $1 }' "$tmp/cap4")
		check "$T statistics rows rw_cp mw_cp cfr_cp" '[ "$trows" = "rw_cp mw_cp cfr_cp " ]' "got '$trows'"
		tm send-keys -t "$s" a
		if tm_wait "$s" "median run of each strategy" 5; then
			ok "$T a: 'median run of each strategy'"
		else
			notok "$T a: 'median run of each strategy'" "$(tm_cap "$s" | sed -n 2p)"
		fi
	else
		notok "$T title 'Runs'" "4 did not switch: $(show "$s")"
	fi
else
	notok "$T all 3 runs done" "progress '$(progress "$s")': $(show "$s")"
fi
if tm_alive "$s"; then
	tm send-keys -t "$s" q
	wait_for 15 "tm_has '$s' END-OF-STTY"
	st=$(exit_status "$s")
	check "$T q: EXIT=0, --dir empty" '[ "$st" = 0 ] && lrt_empty "$d"' "EXIT=$st; left: $(ls -A "$d" | tr '\n' ' ')"
fi
tm kill-session -t "$s" 2>/dev/null

# ---- 4b. a --cmd in the TUI: progress line, Runs view, r adds to its queue -------
T="$Q TUI --cmd:"
lrt_newdir
s=tcmd$$
tm_start "$s" 120 40 "$run_env '$LRUTOP' -s rw_cp --cmd 'cp {src} {dst}' --name cp --size 32M -i 0.1 --dir '$d'"
wait_for 5 '[ -n "$(tm_child "$s")" ]' && pids="$pids $(tm_child "$s")"
if tm_until "$s" 60 'progress "$s" | grep -q "all 2 runs done"' 0.1; then
	ok "$T all 2 runs done (rw_cp, cp)"
	# r: the picker queues a strategy after the command line's runs
	tm send-keys -t "$s" r
	tm_wait "$s" "Pick runs" 5 >/dev/null
	tm send-keys -t "$s" Enter # rw_cp is checked: -s picked it
	if tm_until "$s" 60 'progress "$s" | grep -q "all 3 runs done"' 0.1; then
		ok "$T r queues rw_cp after them: all 3 runs done"
	else
		notok "$T r queues rw_cp after them: all 3 runs done" "progress '$(progress "$s")': $(show "$s")"
	fi
	tm send-keys -t "$s" 4
	if tm_wait "$s" "Runs:" 5; then
		tm_until "$s" 10 "[ \$(tm_cap '$s' | grep -Ec '^ (rw_cp|cp) +[0-9]+ ') -ge 2 ]" >/dev/null
		tm_cap "$s" >"$tmp/cap4b"
		# (the picker's rw_cp is the second run of rw_cp: #2)
		check "$T Runs view: chart rows 'rw_cp #1', 'cp #1', 'rw_cp #2'" \
			'grep -Eq "^rw_cp +#1 " "$tmp/cap4b" && grep -Eq "^cp +#1 " "$tmp/cap4b" && grep -Eq "^rw_cp +#2 " "$tmp/cap4b"' \
			"$(cut -c1-40 "$tmp/cap4b" | oneline 600)"
		hdr=$(grep -nE '^ *strategy +runs +median' "$tmp/cap4b" | head -n 1 | cut -d: -f1)
		trows=$(awk -v h="${hdr:-9999}" 'NR > h && $1 ~ /^(rw_cp|cp)$/ && $2 ~ /^[0-9]+$/ { printf "%s:%s ", $1, $2 }' "$tmp/cap4b")
		check "$T Runs view statistics: rw_cp (2 runs) and cp (1)" '[ "$trows" = "rw_cp:2 cp:1 " ]' "got '$trows'"
	else
		notok "$T Runs view" "4 did not switch: $(show "$s")"
	fi
else
	notok "$T all 2 runs done (rw_cp, cp)" "progress '$(progress "$s")': $(show "$s")"
fi
if tm_alive "$s"; then
	tm send-keys -t "$s" q
	wait_for 15 "tm_has '$s' END-OF-STTY"
	st=$(exit_status "$s")
	tm_all "$s" >"$tmp/cap4c"
	# the per-run table: from its header ("strategy rep") to the blank line
	order=$(awk '/^strategy +rep / { p = 1; next } p && /^ *$/ { exit } p && /^(rw_cp|cp) / { printf "%s:%s ", $1, $2 }' "$tmp/cap4c")
	check "$T q: EXIT=0, results rw_cp:1 cp:1 rw_cp:2, --dir empty" \
		'[ "$st" = 0 ] && [ "$order" = "rw_cp:1 cp:1 rw_cp:2 " ] && lrt_empty "$d"' \
		"EXIT=$st, rows '$order'; left: $(ls -A "$d" | tr '\n' ' ')"
fi
tm kill-session -t "$s" 2>/dev/null

# ---- 5. the r picker ------------------------------------------------------------
T="$Q TUI picker:"
lrt_newdir
s=pick$$
tm_start "$s" 100 30 "$run_env '$LRUTOP' --size 64M --dir '$d'"
wait_for 5 '[ -n "$(tm_child "$s")" ]' && pids="$pids $(tm_child "$s")"
tm_wait "$s" "lrutop" 10 >/dev/null
tm send-keys -t "$s" r
if tm_wait "$s" "Pick runs" 5; then
	ok "$T r opens 'Pick runs'"
	tm_cap "$s" >"$tmp/cap5"
	missing=""
	for n in rw_cp rw_fadv_cp mm_sync_cp mm_mun_cp mm_sync_madv_cp mm_mun_madv_cp mw_cp mw_madv_cp \
		cfr_cp sendfile_cp splice_cp direct_cp stream_cp; do
		grep -Eq "\[ \] $n " "$tmp/cap5" || missing="$missing $n"
	done
	check "$T all 13 strategies, unchecked" '[ -z "$missing" ]' "missing:$missing: $(oneline 800 <"$tmp/cap5")"
	check "$T fields repeat / size / mem limit" \
		'grep -q " repeat " "$tmp/cap5" && grep -q " size .*64" "$tmp/cap5" && grep -q " mem limit " "$tmp/cap5"' \
		"$(grep -E 'repeat|size|limit' "$tmp/cap5" | oneline)"
	first=$(grep -E '\[.\] [a-z_]+ ' "$tmp/cap5" | head -n 1 | sed 's/.*\[.\] \([a-z_]*\).*/\1/')
	check "$T rw_cp is the first row" '[ "$first" = rw_cp ]' "first '$first'"
	tm send-keys -t "$s" Space
	if tm_wait "$s" "[x] rw_cp" 5; then
		ok "$T space checks rw_cp"
	else
		notok "$T space checks rw_cp" "$(tm_cap "$s" | grep -E 'rw_cp' | head -n 2 | oneline)"
	fi
	check "$T only rw_cp checked" '[ "$(tm_cap "$s" | grep -c "\[x\]")" -eq 1 ]' "$(tm_cap "$s" | grep '\[x\]' | oneline)"
	tm send-keys -t "$s" Enter
	if tm_until "$s" 5 '! tm_has "$s" "Pick runs" && [ -n "$(progress "$s")" ]'; then
		ok "$T Enter: picker closes, progress line appears"
	else
		notok "$T Enter: picker closes, progress line appears" "$(show "$s")"
	fi
	if tm_until "$s" 60 'progress "$s" | grep -q "all 1 run done"' 0.1; then
		ok "$T the run finishes: 'all 1 run done'"
	else
		notok "$T the run finishes: 'all 1 run done'" "progress '$(progress "$s")': $(show "$s")"
	fi
	# a second open, closed with Esc: nothing is queued
	tm send-keys -t "$s" r
	if tm_wait "$s" "Pick runs" 5; then
		echo "# reopened picker: $(tm_cap "$s" | grep -cF '[x]') checked"
		tm send-keys -t "$s" Escape
		if tm_wait_gone "$s" "Pick runs" 5; then
			ok "$T Esc closes the picker"
		else
			notok "$T Esc closes the picker" "$(show "$s")"
		fi
		# an observation window, not synchronisation: a queued run would
		# show on the progress line within a sample or two (0.25 s)
		if wait_for 2 '! progress "$s" | grep -q "all 1 run done"' 0.1; then
			notok "$T Esc queues nothing" "progress '$(progress "$s")'"
		else
			ok "$T Esc queues nothing"
		fi
	else
		notok "$T Esc closes the picker" "r did not reopen it: $(show "$s")"
	fi
	if tm_alive "$s"; then
		tm send-keys -t "$s" q
		wait_for 15 "tm_has '$s' END-OF-STTY"
		st=$(exit_status "$s")
		tm_all "$s" >"$tmp/cap5b"
		nrows=$(grep -Ec '^[a-z_]+ +[0-9]+ +[0-9.]+s ' "$tmp/cap5b")
		check "$T q: EXIT=0, one rw_cp row, --dir empty" \
			'[ "$st" = 0 ] && [ "$nrows" -eq 1 ] && grep -Eq "^rw_cp +1 .* yes *$" "$tmp/cap5b" && lrt_empty "$d"' \
			"EXIT=$st, $nrows rows: $(grep -E '^[a-z_]+ +[0-9]' "$tmp/cap5b" | oneline); left: $(ls -A "$d" | tr '\n' ' ')"
	fi
else
	notok "$T r opens 'Pick runs'" "$(show "$s")"
fi
tm kill-session -t "$s" 2>/dev/null
exit 0
