#!/bin/sh
# The copybench strategies make copybench's syscalls (docs/design.md §2): each
# one's copy() runs alone in tests/strace/driver under
# `strace -e trace=memory,file,desc` on a small file, the trace is
# normalised (tests/strace/normalise.awk) and compared line for line with
# its block in tests/strace/copybench.seq. A changed flag (MAP_SHARED ->
# MAP_PRIVATE, ftruncate -> fallocate, a dropped fadvise) fails here; the
# test also proves on a mutated trace that such a change is seen. The man
# page (COPYBENCH SYSCALLS) must state the same sequences, and so must
# docs/design.md §2. Then cfr_cp with --src on tmpfs is refused up front.
. "$(dirname "$0")/lib.sh"

seq=tests/strace/copybench.seq
if ! command -v strace >/dev/null 2>&1; then
	skip "strace: syscall sequences" "strace is not installed (tools/deps installs it)"
	exit 0
fi
tmp=$(mktemp -d /var/tmp/lrutop-strace.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

# The driver is built from the strategy sources alone (no sanitizer: its
# allocator would add mmap calls to the trace).
if ! ${CC:-cc} -D_GNU_SOURCE -std=c11 -O2 -Isrc -o "$tmp/driver" tests/strace/driver.c \
	src/runs/strategy.c src/model/phase.c src/base/util.c src/base/text.c 2>"$tmp/cc.err"; then
	notok "strace: build the driver" "$(head -n 5 "$tmp/cc.err")"
	exit 1
fi
size=24699
head -c "$size" /dev/urandom >"$tmp/src"

# block NAME: the expected lines of NAME in the .seq file.
block() {
	awk -v n="== $1" '$0 == n { on = 1; next } on && (/^== / || /^$/) { exit } on' "$seq"
}
# trace NAME: runs the driver under strace; the raw trace in $tmp/NAME.tr.
trace() {
	_s=${1%+prealloc} _p=
	[ "$_s" != "$1" ] && _p=--prealloc
	rm -f "$tmp/dst"
	strace -o "$tmp/$1.tr" -e trace=memory,file,desc "$tmp/driver" $_p "$_s" \
		"$tmp/src" "$tmp/dst" 2>"$tmp/$1.err"
}
norm() { awk -v src="$tmp/src" -v dst="$tmp/dst" -v size="$size" -f tests/strace/normalise.awk "$1"; }
oneline() { awk 'NR > 1 { printf " → " } { printf "%s", $0 } END { print "" }'; }

names=$(awk '/^== / { print $2 }' "$seq")
# every copybench strategy has a block (the first eight of --list-strategies)
want=$("$LRUTOP" --list-strategies | awk '$1 != "STRATEGY" && ++n <= 8 { print $1 }')
missing=""
for s in $want; do
	echo "$names" | grep -qx "$s" || missing="$missing $s"
done
[ -n "$want" ] && [ -z "$missing" ] && ok "strace: every copybench strategy has a sequence" ||
	notok "strace: every copybench strategy has a sequence" "missing:$missing"

design=""
for d in docs/design.md; do
	[ -f "$d" ] && design=$d && break
done
# A docs/design.md from before §2 listed the syscalls has nothing to compare.
if [ -n "$design" ] && ! grep -q 'tests/strace/copybench.seq' "$design"; then
	echo "# strace: $design predates §2's syscall lines; compared with $seq only"
	design=""
	nodesign=1
fi
for s in $names; do
	block "$s" >"$tmp/want"
	if ! trace "$s"; then
		notok "strace: $s" "driver failed: $(cat "$tmp/$s.err" | tail -n 2)"
		continue
	fi
	norm "$tmp/$s.tr" >"$tmp/got"
	if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "strace: $s makes the documented syscalls"
	else
		notok "strace: $s makes the documented syscalls" \
			"$(diff "$tmp/want" "$tmp/got" | tr '\n' ' ')"
	fi
	# the man page's COPYBENCH SYSCALLS: the line after ".B NAME"
	mline=$(sed 's/\\-/-/g; s/\\(->/→/g' man/lrutop.1 | awk -v n=".B $s" 'on { print; exit } $0 == n { on = 1 }')
	want1=$(oneline <"$tmp/want")
	[ -n "$mline" ] && [ "$mline" = "$want1" ] && ok "strace: the man page states $s's sequence" ||
		notok "strace: the man page states $s's sequence" "man: '$mline' want: '$want1'"
	if [ -n "$design" ]; then
		line="- \`$s\`: $(oneline <"$tmp/want")"
		grep -qxF -- "$line" "$design" && ok "strace: docs/design.md §2 states $s's sequence" ||
			notok "strace: docs/design.md §2 states $s's sequence" "no line: $line"
	fi
done
[ -z "$design" ] && [ -z "${nodesign:-}" ] &&
	echo "# strace: no docs/design.md beside the checkout; compared with $seq only"

# The comparison sees a changed flag or call: mutate a real trace.
if [ -f "$tmp/mm_sync_cp.tr" ]; then
	block mm_sync_cp >"$tmp/want"
	# label|sed expression
	for m in "MAP_SHARED->MAP_PRIVATE|s/PROT_WRITE, MAP_SHARED/PROT_WRITE, MAP_PRIVATE/" \
		"ftruncate->fallocate|s/^ftruncate(\\([0-9]*\\), \\([0-9]*\\))/fallocate(\\1, 0, 0, \\2)/" \
		"sparse last int->ftruncate|s/^lseek(\\([0-9]*\\), [0-9]*, SEEK_SET)/ftruncate(\\1, $size)/" \
		"msync dropped|/^msync(/d"; do
		label=${m%%|*}
		sed "${m#*|}" "$tmp/mm_sync_cp.tr" >"$tmp/mut.tr"
		norm "$tmp/mut.tr" >"$tmp/got"
		if cmp -s "$tmp/mut.tr" "$tmp/mm_sync_cp.tr"; then
			notok "strace: a mutated trace fails ($label)" "the mutation changed nothing"
		elif cmp -s "$tmp/want" "$tmp/got"; then
			notok "strace: a mutated trace fails ($label)" "still matches"
		else
			ok "strace: a mutated trace fails ($label)"
		fi
	done
fi

# §5.11: copy_file_range cannot cross from tmpfs to the disk: refused up
# front, before any file or cgroup is made, with the reason.
shm=$(mktemp -d /dev/shm/lrutop-strace.XXXXXX) || exit 2
trap 'rm -rf "$tmp" "$shm"' EXIT
head -c 65536 /dev/urandom >"$shm/src"
mkdir "$tmp/d"
timeout 30 "$LRUTOP" --batch -q -s rw_cp,cfr_cp --src "$shm/src" --dir "$tmp/d" \
	--no-drop-caches --no-verify </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
if grep -q 'EXDEV' "$tmp/err"; then
	check "cfr_cp: --src on tmpfs refused up front (exit 2)" '[ "$rc" -eq 2 ]' "exit $rc"
	check "cfr_cp: the refusal names --src" \
		'grep -q "^lrutop: cfr_cp: --src $shm/src is on another filesystem" "$tmp/err"' \
		"$(cat "$tmp/err")"
	check "cfr_cp: the refusal leaves nothing in --dir" '[ -z "$(ls -A "$tmp/d")" ]' \
		"$(ls -A "$tmp/d")"
else
	check "cfr_cp: --src on tmpfs copies where the kernel can (exit 0)" '[ "$rc" -eq 0 ]' \
		"exit $rc: $(cat "$tmp/err")"
fi
timeout 60 "$LRUTOP" --batch -q -s cfr_cp --src "$tmp/src" --dir "$tmp/d" --no-drop-caches \
	</dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
check "cfr_cp: --src on the --dir filesystem runs (exit 0)" '[ "$rc" -eq 0 ]' \
	"exit $rc: $(cat "$tmp/err")"

# --prealloc is visible: mm_* runs are labelled +prealloc in the table and
# the results CSV (same columns), other strategies keep their name.
rm -f "$tmp/res.csv"
timeout 60 "$LRUTOP" --batch -q -s mm_sync_cp,rw_cp --prealloc --src "$tmp/src" --dir "$tmp/d" \
	--no-drop-caches --results "$tmp/res.csv" </dev/null >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--prealloc: runs (exit 0)" '[ "$rc" -eq 0 ]' "exit $rc: $(cat "$tmp/err")"
check "--prealloc: results CSV labels mm_sync_cp+prealloc, verified" \
	'grep -q "^mm_sync_cp+prealloc,1,.*,yes,[0-9.]*,[0-9]*,[0-9.]*,[0-9]*,,,,,,,,,,,[0-9.]*\$" "$tmp/res.csv"' "$(cat "$tmp/res.csv")"
check "--prealloc: rw_cp keeps its name" 'grep -q "^rw_cp,1," "$tmp/res.csv"' "$(cat "$tmp/res.csv")"
check "--prealloc: the table shows the label" 'grep -q "^mm_sync_cp+prealloc " "$tmp/out"' \
	"$(cat "$tmp/out")"
check "--prealloc: CSV header unchanged" \
	'head -n 1 "$tmp/res.csv" | grep -qx "strategy,repeat,elapsed_s,user_s,sys_s,cpu_pct,majflt,minflt,inblock,oublock,bytes,mbs,read_cv,write_cv,peak_active_file_kb,pgdeactivate,refault_file,bursts,verified,rd_at_burst,dst_dirty_peak_kb,src_cached_end_pct,recently_evicted_end,probe_mode,probe_p50_ms,probe_p99_ms,probe_p999_ms,probe_max_ms,probe_slow,probe_idle_p99_ms,probe_rise_ms,probe_n,sweep,read_ratio"' \
	"$(head -n 1 "$tmp/res.csv")"
