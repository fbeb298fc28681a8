#!/bin/sh
# Command-line contract (docs/design.md §4, §5): --help, --version, usage errors
# (one "lrutop: " line on stderr, nothing on stdout, exit 2), --csv refusing
# an existing file, batch output shape, automatic batch mode off a tty;
# the options tables of the README, docs/options.md and the man page held
# to the parser and to --help's figures.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-cli.XXXXXX) || exit 2
# scratch --dirs of the few copy runs below: on a disk, fresh and empty
base=$(mktemp -d /var/tmp/lrt-cli.XXXXXX) || exit 2
trap 'rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP
out=$tmp/out err=$tmp/err

# run ARGS...: run lrutop with a bounded run time; sets $rc, fills out/err.
# stdin is /dev/null and stdout a file, so nothing here can start the TUI.
run() {
	timeout 20 "$LRUTOP" "$@" </dev/null >"$out" 2>"$err"
	rc=$?
	lrt_unreap "$err"
}

# --help ----------------------------------------------------------------
run --help
[ "$rc" -eq 0 ] && ok "help: exit 0" || notok "help: exit 0" "exit $rc"
missing=""
for o in '-i, --interval' '-n, --count' '-d, --device' '--batch' '--csv' '--ascii' \
	'--dir' '--results' '-s, --strategies' '--help' '--version'; do
	grep -qF -- "$o" "$out" || missing="$missing '$o'"
done
[ -z "$missing" ] && ok "help: lists the options" || notok "help: lists the options" "missing:$missing"
# every long option of the parser's table (src/app/options.c, as --list-options
# gives it), not a list here
missing="" n=0
for o in $("$LRUTOP" --list-options | sed -n 's/^--//p'); do
	n=$((n + 1))
	grep -qE -- "--$o([^a-z-]|\$)" "$out" || missing="$missing --$o"
done
check "help: every one of the parser's $n long options" '[ "$n" -ge 40 ] && [ -z "$missing" ]' \
	"missing:$missing"
[ -s "$err" ] && notok "help: stderr empty" "$(head -n 3 "$err")" || ok "help: stderr empty"

# The options tables, held to the parser and to --help ------------------
# Three tables list options: the README's short one ("### Options", the
# main options), docs/options.md's ("## Options", one line each) and the
# man page's OPTIONS section (each .TP entry a row).  Every option a row
# names (the first word of each `...` in its first cell; in the man page
# the options of the entry's tag) must be one getopt knows: a long one in
# the table of src/app/options.c, a short one in its optstring.  And every
# figure the --help entries of a row's options give (numbers, with K/M/G/T
# and /s; the --export-svg section's own --size and --theme aside) must be
# in the row, so they cannot drift apart, as the demo's 30M/s against
# 32M/s did.  "4 KiB" in the prose counts as --help's 4K.  The man page
# must also have an entry for every option the parser has.
readme_opts() {
	awk '
function figures(s, out,    n, t) {
	# "4 KiB" and "30 MiB/s" are how prose writes 4K and 30M/s
	while (match(s, /[0-9] [KMGT]iB/))
		s = substr(s, 1, RSTART) substr(s, RSTART + 2, 1) substr(s, RSTART + 5)
	n = 0
	while (match(s, /[0-9]+(\.[0-9]+)?([KMGT](\/s)?)?/)) {
		t = substr(s, RSTART, RLENGTH)
		# a digit inside a word (x86_64, rw_cp2) is no figure
		if (RSTART == 1 || substr(s, RSTART - 1, 1) !~ /[A-Za-z_]/)
			out[++n] = t
		s = substr(s, RSTART + RLENGTH)
	}
	return n
}
FNR == NR {
	# --help: an entry starts "  -x, --name" or "      --name" and goes on
	# in lines indented past the option column; a section line ends it
	if ($0 ~ /^[A-Z]/) { sect = $0; cur = 0; next }
	if (sect ~ /^Export/) next   # the --size and --theme of --export-svg
	if ($0 ~ /^  (-[a-zA-Z]|    --[a-z])/) {
		cur = ++nent
		help[cur] = $0
		s = substr($0, 1, 25)
		while (match(s, /--?[a-zA-Z][a-z-]*/)) {
			entry[substr(s, RSTART, RLENGTH)] = entry[substr(s, RSTART, RLENGTH)] " " cur
			s = substr(s, RSTART + RLENGTH)
		}
	} else if (cur && $0 ~ /^                    +[^ ]/)
		help[cur] = help[cur] " " $0
	else
		cur = 0
	next
}
/^#+ Options$/ { intable = 1; next }
intable && /^#/ { intable = 0 }
intable && /^\| `/ {
	i = index(substr($0, 3), " | ")
	cell = substr($0, 3, i - 1)
	desc = substr($0, i + 5)
	nf = figures(desc, have)
	delete seen
	for (k = 1; k <= nf; k++)
		seen[have[k]] = 1
	name = ""
	s = cell
	delete done
	while (match(s, /`--?[a-zA-Z][a-zA-Z-]*/)) {
		o = substr(s, RSTART + 1, RLENGTH - 1)
		s = substr(s, RSTART + RLENGTH)
		name = name (name == "" ? "" : ",") o
		print "opt " o
		nh = split(entry[o], ids, " ")
		for (j = 1; j <= nh; j++) {
			if (done[ids[j]]++)
				continue
			nw = figures(help[ids[j]], want)
			for (k = 1; k <= nw; k++)
				if (!(want[k] in seen))
					print "figure " o ": " want[k]
		}
	}
	rows++
}
END { print "rows " rows + 0 }
' "$@"
}
# man_opts MANPAGE: the OPTIONS section of a man page as the rows
# readme_opts reads: one "| `-x` `--name` | text |" row per .TP entry, the
# tag's options in the first cell, the tag and its paragraph in plain text
# (font escapes dropped, \- as -) in the second.
man_opts() {
	awk '
function plain(s) {
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\-/, "-", s)
	gsub(/\\\(mu/, "x", s)
	gsub(/\\\(en/, "-", s)
	gsub(/\\\|/, "", s)
	sub(/^\.(B|I|BI|BR|IR|RI) /, "", s)
	gsub(/"/, "", s)
	return s
}
function flush(    s, opts, t) {
	if (tag != "") {
		s = tag
		opts = ""
		while (match(s, /(^|[ ,|[])--?[a-zA-Z][a-zA-Z-]*/)) {
			t = substr(s, RSTART, RLENGTH)
			sub(/^[ ,|[]/, "", t)
			opts = opts " `" t "`"
			s = substr(s, RSTART + RLENGTH)
		}
		print "|" opts " | " tag " " desc " |"
	}
	tag = ""
	desc = ""
}
/^\.SH OPTIONS/ { on = 1; print "### Options"; next }
!on { next }
/^\.SH/ { flush(); exit }
/^\.TP/ { flush(); wanttag = 1; next }
/^\.(SS|PP)/ { flush(); next }
wanttag { tag = plain($0); wanttag = 0; next }
tag != "" { desc = desc " " plain($0) }
END { flush() }
' "$1"
}
cp "$out" "$tmp/help"
longs=$("$LRUTOP" --list-options | sed -n 's/^--//p')
shorts=$("$LRUTOP" --list-options | sed -n 's/^-\([^-]\)$/\1/p' | tr -d '\n')
# opts_table NAME TABLE MINROWS: the two checks above for one table (in
# readme_opts's format); leaves the options it names in $tmp/named.
opts_table() {
	min=$3
	readme_opts "$tmp/help" "$2" >"$tmp/table"
	rows=$(sed -n 's/^rows //p' "$tmp/table")
	sed -n 's/^opt //p' "$tmp/table" >"$tmp/named"
	bad=""
	for o in $(cat "$tmp/named"); do
		case $o in
		--*) printf '%s\n' "$longs" | grep -qx -- "${o#--}" || bad="$bad $o" ;;
		-?) case $shorts in *"${o#-}"*) ;; *) bad="$bad $o" ;; esac ;;
		*) bad="$bad $o" ;;
		esac
	done
	check "$1 options: the $rows rows name only options the parser has" \
		'[ "${rows:-0}" -ge "$min" ] && [ -n "$shorts" ] && [ -z "$bad" ]' "not in src/app/options.c:$bad"
	figs=$(sed -n 's/^figure //p' "$tmp/table" | tr '\n' ';')
	check "$1 options: each row gives the figures --help gives (demo 40M, 32M/s, 64M, ...)" \
		'[ "${rows:-0}" -ge "$min" ] && [ -z "$figs" ]' "--help says, the row does not: $figs"
}
opts_table README README.md 15
opts_table docs/options.md docs/options.md 25
man_opts man/lrutop.1 >"$tmp/man.md"
opts_table "man page" "$tmp/man.md" 40
missing=""
for o in $longs; do
	grep -qx -- "--$o" "$tmp/named" || missing="$missing --$o"
done
for o in $(printf '%s' "$shorts" | sed 's/./& /g'); do
	grep -qx -- "-$o" "$tmp/named" || missing="$missing -$o"
done
check "man page options: an entry for each of the parser's options" \
	'[ -n "$longs" ] && [ -z "$missing" ]' "no .TP entry in OPTIONS:$missing"

# --version -------------------------------------------------------------
run --version
v=$(cat "$out")
if [ "$rc" -eq 0 ] && [ "$(wc -l <"$out")" -eq 1 ] &&
	printf '%s\n' "$v" | grep -Eq '^lrutop [0-9]+\.[0-9]+(\.[0-9]+)?([-+~.][0-9A-Za-z.+~-]*)?$'; then
	ok "version: 'lrutop <version>'"
else
	notok "version: 'lrutop <version>'" "exit $rc, stdout '$v'"
fi

# Usage errors ----------------------------------------------------------
# usage_err NAME ARGS...: exit 2, stdout empty, exactly one stderr line that
# starts "lrutop: ".  Leaves the stderr line in $msg for further checks.
usage_err() {
	n=$1
	shift
	run "$@"
	msg=$(head -n 1 "$err")
	lines=$(wc -l <"$err")
	if [ "$rc" -ne 2 ]; then
		notok "usage: $n" "exit $rc (want 2); stderr: $msg"
	elif [ -s "$out" ]; then
		notok "usage: $n" "stdout not empty: $(head -n 2 "$out")"
	elif [ "$lines" -ne 1 ]; then
		notok "usage: $n" "$lines stderr lines (want 1): $(head -n 3 "$err" | tr '\n' '|')"
	else
		case $msg in
		'lrutop: '?*) ok "usage: $n" ;;
		*) notok "usage: $n" "stderr does not start 'lrutop: ': $msg" ;;
		esac
	fi
}
usage_err "-i 0" -i 0
usage_err "-i abc" -i abc
usage_err "-i 100" -i 100
usage_err "-n 0" -n 0
usage_err "-n x" -n x
usage_err "--bogus" --bogus
usage_err "-i without argument" -i
usage_err "stray positional argument" --batch -n 1 stray
usage_err "-d nosuchdisk" -n 1 -d nosuchdisk

# The -d message must help: it lists the disks there are.  A "real" disk is
# one in /sys/block backed by hardware (not under /sys/devices/virtual: loop,
# zram, ram, dm and md are virtual) — those are what a user would pick.
real=""
for b in /sys/block/*; do
	[ -e "$b" ] || continue
	case $(readlink -f "$b") in /sys/devices/virtual/*) continue ;; esac
	real="$real ${b##*/}"
done
if [ -z "$real" ]; then
	skip "usage: -d lists the available disks" "no non-virtual disk in /sys/block"
else
	found=""
	for d in $real; do
		printf '%s\n' "$msg" | grep -Eq "(^|[^[:alnum:]])$d([^[:alnum:]]|$)" && found=$d
	done
	case $msg in *nosuchdisk*) named=1 ;; *) named=0 ;; esac
	if [ -n "$found" ] && [ $named -eq 1 ]; then
		ok "usage: -d lists the available disks"
	else
		notok "usage: -d lists the available disks" "no disk of ($real ) or the bad name in: $msg"
	fi
fi

# --csv never overwrites ------------------------------------------------
f=$tmp/exists.csv
printf 'precious,data\n1,2\n' >"$f"
before=$(file_sum "$f")
usage_err "--csv EXISTING" --batch -n 2 -i 0.05 --csv "$f"
case $msg in
*"already exists"*) ok "csv: refusal says 'already exists'" ;;
*) notok "csv: refusal says 'already exists'" "$msg" ;;
esac
after=$(file_sum "$f")
[ "$before" = "$after" ] && ok "csv: existing file unchanged" ||
	notok "csv: existing file unchanged" "cksum '$before' -> '$after'"
# ... also when the existing path is a symlink to a file (O_EXCL|O_NOFOLLOW).
ln -s "$f" "$tmp/link.csv"
run --batch -n 2 -i 0.05 --csv "$tmp/link.csv"
after=$(file_sum "$f")
[ "$rc" -eq 2 ] && [ "$before" = "$after" ] && ok "csv: symlink not followed" ||
	notok "csv: symlink not followed" "exit $rc, cksum '$before' -> '$after'"

# Run options without anything to run -----------------------------------
# batch mode: a usage error naming the option, and nothing is created
for o in "--src /nonexistent" "--size 8M" "--mem-limit 64M" "--bs 4K" "--repeat 2" \
	"--baseline rw_cp" "--no-verify" "--no-drop-caches" "--results $tmp/nr.csv"; do
	set -- $o
	on=$1
	usage_err "$on without -s/--cmd" --batch -n 1 $o --csv "$tmp/nr2.csv"
	check "usage: $on without -s/--cmd: says 'nothing to run'" \
		'[ "$msg" = "lrutop: $on: nothing to run (add -s STRATEGIES or --cmd)" ]' "$msg"
	check "usage: $on without -s/--cmd: no output file made" '[ ! -e "$tmp/nr.csv" ] && [ ! -e "$tmp/nr2.csv" ]'
done
usage_err "--name without --cmd" --batch -n 1 --name x
check "usage: --name without --cmd: names it" 'printf "%s\n" "$msg" | grep -q "^lrutop: --name x: no --cmd"' "$msg"

# Options given twice, numbers, pairs (issue 26, 9) -------------------------
# One rule from the table (src/app/options.c): an option is given once unless
# its row adds (--cmd, --name); a second is "OPT given twice", named as
# given, and nothing is made.  The last one was taken silently before.
for o in --results --csv --export-json --export-markdown --metrics-file --record; do
	usage_err "$o twice" --batch -s rw_cp --size 1M --dir "$base" $o "$tmp/tw1" $o "$tmp/tw2"
	check "usage: $o twice: 'lrutop: $o given twice', neither file made" \
		'[ "$msg" = "lrutop: $o given twice" ] && [ ! -e "$tmp/tw1" ] && [ ! -e "$tmp/tw2" ]' "$msg"
	rm -f "$tmp/tw1" "$tmp/tw2" # what a build that took them made
done
usage_err "--sweep-until twice" --batch -s rw_cp --sweep bs=4K,8K --sweep-until 'bursts>=1' \
	--sweep-until 'bursts>=2' --dir "$base"
check "usage: --sweep-until twice: says so" '[ "$msg" = "lrutop: --sweep-until given twice" ]' "$msg"
usage_err "-i then --interval" --batch -n 1 -i 1 --interval 0.5
check "usage: -i then --interval: named as given the second time" \
	'[ "$msg" = "lrutop: --interval given twice" ]' "$msg"
usage_err "-q -q" --batch -n 1 -q -q
check "usage: -q -q: a flag too" '[ "$msg" = "lrutop: -q given twice" ]' "$msg"
usage_err "--help --version" --help --version
check "usage: --help --version: one action at a time" \
	'[ "$msg" = "lrutop: --version: not with --help (one at a time)" ]' "$msg"
# the preset's values are not given: --demo --mem-limit overrides it
run --demo --mem-limit 32M --disk-limit 8M --list-options
check "--demo --mem-limit 32M --disk-limit 8M: not 'given twice' (exit 0)" \
	'[ "$rc" -eq 0 ] && [ ! -s "$err" ]' "exit $rc: $(head -n 2 "$err" | tr '\n' '|')"
# numbers by one rule: what -i refuses, every option refuses
for a in "--sweep-until bursts>=0x10" "--sweep-until bursts>=1e1" "--sweep mem-limit=8M..64M:x0x2" \
	"--replay-at 0x10" "--replay-at 1e2" "--speed 1e0"; do
	set -- $a
	case $1 in
	--sweep-until) set -- -s rw_cp --sweep bs=4K,8K "$@" --dir "$base" ;;
	--sweep) set -- -s rw_cp "$@" --dir "$base" ;;
	--replay-at | --speed) set -- --replay "$tmp/none.jsonl" "$@" ;;
	esac
	usage_err "$a" --batch "$@"
	check "usage: $a: refused naming it" 'printf "%s\n" "$msg" | grep -q "^lrutop: ${a%% *}"' "$msg"
done
usage_err "--export-svg --from 0x10" --export-svg "$tmp/f.svg" --from 0x10 "$tmp/none.jsonl"
check "usage: --from 0x10: not a time" \
	'[ "$msg" = "lrutop: --from 0x10: not a time (seconds from the start: 90, 12.5 or 1:30)" ]' "$msg"
usage_err "--export-svg --view sweep --run 2" --export-svg "$tmp/s.svg" --view sweep --run 2 "$tmp/none.jsonl"
check "usage: --view sweep --run 2: refused, not ignored; no SVG" \
	'[ "$msg" = "lrutop: --run 2: not with --view sweep (the sweep picture draws every run)" ] && [ ! -e "$tmp/s.svg" ]' "$msg"
# options that the other makes moot: refused, not one of them ignored
usage_err "--src with --size" --batch -s rw_cp --src /etc/hostname --size 8M --dir "$base"
check "usage: --src with --size: says why" \
	'[ "$msg" = "lrutop: --size 8M: not with --src (the copy is of FILE, at its own size)" ]' "$msg"
usage_err "--ascii --glyphs braille" --batch -n 1 --ascii --glyphs braille
check "usage: --ascii --glyphs braille: says why" \
	'[ "$msg" = "lrutop: --glyphs braille: not with --ascii (its charts are ASCII)" ]' "$msg"
usage_err "--export-csv -t" --export-csv "$tmp/t.csv" -t light "$tmp/none.jsonl"
check "usage: --export-csv -t: no colours to take" \
	'[ "$msg" = "lrutop: --export-csv: -t does not go with it (no colours)" ]' "$msg"

# stdout that cannot be written -------------------------------------------
# out_err NAME WANT ARGS...: exit 1, stderr exactly "lrutop: write error: WANT"
# ($redir is how stdout is broken: full or closed)
out_err() {
	_on=$1 _ow=$2
	shift 2
	case $redir in
	full) timeout 20 "$LRUTOP" "$@" </dev/null >/dev/full 2>"$err" ;;
	closed) timeout 20 "$LRUTOP" "$@" </dev/null >&- 2>"$err" ;;
	esac
	rc=$?
	check "stdout $redir: $_on: exit 1, 'lrutop: write error: $_ow'" \
		'[ "$rc" -eq 1 ] && [ "$(cat "$err")" = "lrutop: write error: $_ow" ]' \
		"exit $rc; stderr: $(head -n 3 "$err" | tr '\n' '|')"
}
if [ -c /dev/full ]; then
	redir=full
	for a in --help --version --list-strategies; do
		out_err "$a" "No space left on device" "$a"
	done
	out_err "--batch -n 3" "No space left on device" --batch -n 3 -i 0.05
else
	skip "stdout full" "no /dev/full"
fi
redir=closed
out_err "--help" "Bad file descriptor" --help
out_err "--batch -n 3" "Bad file descriptor" --batch -n 3 -i 0.05 --csv "$tmp/closed.csv"
# the CSV opened with stdout closed must not have become fd 1
hdr=$(head -n 1 "$tmp/closed.csv" 2>/dev/null | cut -c1-12)
nl=$(wc -l <"$tmp/closed.csv" 2>/dev/null)
bad=$(grep -vc '^[0-9t]' "$tmp/closed.csv" 2>/dev/null)
# (the first failed write to stdout ends the loop: at least one row)
check "stdout closed: --csv holds only CSV (header + rows, no batch lines)" \
	'[ "$hdr" = "t_s,read_mbs" ] && [ "$nl" -ge 2 ] && [ "$bad" = 0 ]' \
	"first '$hdr', $nl lines, $bad other: $(head -n 3 "$tmp/closed.csv" 2>/dev/null | cut -c1-50 | tr '\n' '|')"
# a pipe whose reader went away: quiet, 141 as a SIGPIPE death would be
timeout 20 sh -c '{ "$1" --batch -i 0.05 </dev/null 2>"$2"; echo $? >"$3"; } | head -n 1 >/dev/null' \
	sh "$LRUTOP" "$err" "$tmp/rc"
rc=$(cat "$tmp/rc" 2>/dev/null || echo none)
check "stdout a pipe closed by its reader: exit 141, nothing on stderr" \
	'[ "$rc" = 141 ] && [ ! -s "$err" ]' "exit $rc; stderr: $(head -n 2 "$err" | tr '\n' '|')"

# Output files: validated first, removed after a usage error --------------
_cli_n=0
newdir() {
	_cli_n=$((_cli_n + 1))
	d=$base/d$_cli_n
	mkdir "$d"
}
N=$tmp/new.csv
newdir
usage_err "--csv NEW then -s nope" --batch -n 2 --csv "$N" -s nope --dir "$d"
check "usage: --csv NEW then -s nope: NEW not left behind" '[ ! -e "$N" ] && [ -z "$(ls -A "$d")" ]' \
	"$(ls -l "$N" 2>&1)"
newdir
usage_err "--csv NEW --results NEW2 then --baseline nope" --batch -n 2 --csv "$N" --results "$N.r" \
	-s rw_cp --size 1M --baseline nope --dir "$d"
check "usage: ... --baseline nope: neither file left, --dir empty" \
	'[ ! -e "$N" ] && [ ! -e "$N.r" ] && [ -z "$(ls -A "$d")" ]' "$(ls -A "$tmp" "$d" | tr '\n' ' ')"
# --results refused as it exists: the --csv made just before goes again
echo precious >"$tmp/keep.csv"
newdir
usage_err "--csv NEW --results EXISTING" --batch -n 2 --csv "$N" --results "$tmp/keep.csv" -s rw_cp \
	--size 1M --dir "$d"
check "usage: --csv NEW --results EXISTING: NEW removed, EXISTING kept" \
	'[ ! -e "$N" ] && [ "$(cat "$tmp/keep.csv")" = precious ] && [ -z "$(ls -A "$d")" ]' "$msg"
# one file under two names
mkdir "$tmp/sub"
ln -s "$tmp/sub" "$tmp/link"
for pair in "$tmp/sub/x.csv $tmp/sub/x.csv" "$tmp/sub/x.csv $tmp/sub/../sub/./x.csv" \
	"$tmp/sub/x.csv $tmp/link/x.csv"; do
	set -- $pair
	newdir
	usage_err "--csv $1 --results ${2#$tmp/}" --batch -n 2 --csv "$1" --results "$2" -s rw_cp \
		--size 1M --dir "$d"
	check "usage: --csv/--results one file (${2#$tmp/}): 'the same file', nothing made" \
		'printf "%s\n" "$msg" | grep -q "the same file" && [ -z "$(ls -A "$tmp/sub")" ] && [ -z "$(ls -A "$d")" ]' \
		"$msg; $(ls -A "$tmp/sub" | tr '\n' ' ')"
done
run --batch -n 2 -i 0.05 --csv "$N"
check "the corrected rerun works: --csv NEW, exit 0, header + 2 rows" \
	'[ "$rc" -eq 0 ] && [ "$(wc -l <"$N")" -eq 3 ]' "exit $rc: $(head -n 2 "$err" | tr '\n' '|')"

# -n reached with runs still queued ---------------------------------------
cgroot=$(lrt_cgroot) || cgroot=""
ml=""
[ "$(id -u)" -eq 0 ] && [ -n "$cgroot" ] && [ -w "$cgroot" ] && ml="--mem-limit 256M"
newdir
run --batch -q -n 3 -i 0.05 -s rw_cp,mw_cp --size 256M --dir "$d"
check "-n 3 with 2 runs queued: exit 1, 'lrutop: -n 3 samples reached with 2 runs not done'" \
	'[ "$rc" -eq 1 ] && [ "$(cat "$err")" = "lrutop: -n 3 samples reached with 2 runs not done" ]' \
	"exit $rc; stderr: $(head -n 3 "$err" | tr '\n' '|')"
check "-n 3 with 2 runs queued: --dir empty" '[ -z "$(ls -A "$d")" ]' "left: $(ls -A "$d")"
# the same with the first run under way (a --src: no scratch input to
# write first), in a memory cgroup where there is one
head -c 64M /dev/zero >"$base/src"
newdir
timeout 20 "$LRUTOP" --batch -q -n 4 -i 0.05 -s rw_cp,mw_cp --src "$base/src" $ml --dir "$d" \
	</dev/null >"$out" 2>"$err" &
bg=$!
wait "$bg"
rc=$?
check "-n 4 during a run: exit 1, '... with 2 runs not done'" \
	'[ "$rc" -eq 1 ] && [ "$(cat "$err")" = "lrutop: -n 4 samples reached with 2 runs not done" ]' \
	"exit $rc; stderr: $(head -n 3 "$err" | tr '\n' '|')"
check "-n 4 during a run: --dir empty, no lrutop-$bg-* cgroup" \
	'[ -z "$(ls -A "$d")" ] && ! ls -d "${cgroot:-/nonexistent}/lrutop-$bg-"* >/dev/null 2>&1' \
	"left: $(ls -A "$d") $(ls -d "${cgroot:-/nonexistent}/lrutop-$bg-"* 2>/dev/null)"
rm -f "$base/src"

# Signals in batch mode: 128 + N and one line -------------------------------
for sig in INT:130 TERM:143 HUP:129; do
	n=${sig%:*} want=${sig#*:}
	# emptied first: the wait below must not see the previous run's lines
	# and signal the child before it has exec'd lrutop
	: >"$out"
	"$LRUTOP" --batch -i 0.05 </dev/null >"$out" 2>"$err" &
	bg=$!
	wait_for 10 '[ "$(wc -l <"$out")" -ge 2 ]'
	kill -"$n" "$bg"
	wait "$bg"
	rc=$?
	check "batch SIG$n: exit $want, 'lrutop: interrupted (SIG$n)'" \
		'[ "$rc" -eq "$want" ] && [ "$(cat "$err")" = "lrutop: interrupted (SIG$n)" ]' \
		"exit $rc; stderr: $(head -n 3 "$err" | tr '\n' '|')"
done

# Batch output shape --------------------------------------------------
# is_header / is_data classify a batch line: the header names the columns
# (starts with "time"), a data line starts with the elapsed seconds.
shape() { # FILE -> "H D H D ..." pattern letters, one per line
	awk '$1 == "time" { printf "H"; next } $1 ~ /^[0-9]+(\.[0-9]+)?$/ { printf "D"; next } { printf "?" }' "$1"
}
run --batch -n 3 -i 0.1
s=$(shape "$out")
[ "$rc" -eq 0 ] && [ "$s" = HDDD ] && ok "batch: -n 3 prints a header and 3 lines" ||
	notok "batch: -n 3 prints a header and 3 lines" "exit $rc, shape '$s': $(head -n 5 "$out" | cut -c1-60 | tr '\n' '|')"
[ -s "$err" ] && notok "batch: stderr empty" "$(head -n 3 "$err")" || ok "batch: stderr empty"
# Header columns line up with data columns (same field count).
nf=$(awk '{ print NF }' "$out" | sort -u | tr '\n' ' ')
[ "$nf" = "$(awk 'NR == 1 { print NF }' "$out") " ] && ok "batch: every line has the header's field count" ||
	notok "batch: every line has the header's field count" "field counts: $nf"

run --batch -n 25 -i 0.05
s=$(shape "$out")
want=HDDDDDDDDDDDDDDDDDDDDHDDDDD
[ "$rc" -eq 0 ] && [ "$s" = "$want" ] && ok "batch: header repeated every 20 lines" ||
	notok "batch: header repeated every 20 lines" "exit $rc, shape '$s' (want '$want')"

# -n with the timestamps: 3 samples at 0.1 s are ~0.1 s apart (measured
# time).  The ticks keep a fixed phase (an absolute timer): a sample taken
# late makes the next gap shorter by as much, so each gap is only bounded
# loosely and the span of the two is held to the interval.
run --batch -n 3 -i 0.1
t=$(awk '$1 != "time" { print $1 }' "$out" | tr '\n' ' ')
if awk -v t="$t" 'BEGIN { n = split(t, a, " "); if (n != 3) exit 1
	for (i = 2; i <= n; i++) { d = a[i] - a[i-1]; if (d < 0.005 || d > 0.5) exit 1 }
	s = a[n] - a[1]; if (s < 0.15 || s > 0.6) exit 1 }'; then
	ok "batch: time column advances by the interval"
else
	notok "batch: time column advances by the interval" "times: $t"
fi

# Not a tty -> batch: pipe through cat (stdin stays a file so a TUI would
# fail loudly rather than hang; timeout bounds it anyway).
timeout 20 sh -c '{ "$1" -n 2 </dev/null 2>"$2"; echo $? >"$4"; } | cat >"$3"' \
	sh "$LRUTOP" "$err" "$out" "$tmp/rc"
rc=$(cat "$tmp/rc" 2>/dev/null || echo none)
s=$(shape "$out")
if [ "$rc" = 0 ] && [ "$s" = HDD ] && ! grep -q "$(printf '\033')" "$out"; then
	ok "batch: automatic when stdout is not a tty"
else
	notok "batch: automatic when stdout is not a tty" "exit $rc, shape '$s', escapes: $(grep -c "$(printf '\033')" "$out")"
fi

# The same with stdin and stderr on a terminal (tmux pane) and only stdout
# a pipe: stdout alone decides.
if command -v tmux >/dev/null 2>&1; then
	trap 'tm_cleanup; rm -rf "$tmp" "$base"' EXIT
	tm_start cli 200 30 "TERM=xterm-256color '$LRUTOP' -n 2 -i 0.1 | cat"
	if wait_for 10 "tm_has cli END-OF-STTY"; then
		tm_cap cli | sed -n '1,/^EXIT=/p' | grep -v '^EXIT=' | grep -v '^ *$' >"$out"
		s=$(shape "$out")
		[ "$s" = HDD ] && ok "batch: stdout a pipe, stdin a tty" ||
			notok "batch: stdout a pipe, stdin a tty" "shape '$s': $(head -n 4 "$out" | cut -c1-60 | tr '\n' '|')"
	else
		notok "batch: stdout a pipe, stdin a tty" "did not end within 10 s: $(tm_cap cli | head -n 3 | tr '\n' '|')"
	fi
else
	skip "batch: stdout a pipe, stdin a tty" "tmux not installed"
fi

# The TUI's failure paths (a real terminal: tmux) ---------------------------
if command -v tmux >/dev/null 2>&1; then
	# TERM unset, unknown or dumb: exit 2 and one line before anything is
	# made (not ncurses' own "Error opening terminal" and exit 1)
	for t in unset nosuchterm dumb; do
		newdir
		case $t in
		unset) e="env -u TERM" want="lrutop: TERM is not set" ;;
		dumb) e="env TERM=dumb" want="lrutop: TERM=dumb: .*(use --batch)" ;;
		*) e="env TERM=$t" want="lrutop: TERM=$t: unknown terminal type" ;;
		esac
		s=term$_cli_n
		tm_start "$s" 150 20 "$e '$LRUTOP' -s rw_cp --size 8M --dir '$d' 2>'$tmp/tuierr'"
		if wait_for 10 "tm_has $s END-OF-STTY"; then
			st=$(tm_cap "$s" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p')
			check "TUI TERM=$t: EXIT=2, one line /$want/, nothing made" \
				'[ "$st" = 2 ] && [ "$(wc -l <"$tmp/tuierr")" -eq 1 ] && grep -Eq "^$want" "$tmp/tuierr" && [ -z "$(ls -A "$d")" ]' \
				"EXIT=$st; stderr: $(tr '\n' '|' <"$tmp/tuierr"); left: $(ls -A "$d")"
		else
			notok "TUI TERM=$t: EXIT=2" "did not end: $(tm_cap "$s" | grep -v '^$' | head -n 3 | tr '\n' '|')"
		fi
		tm kill-session -t "$s" 2>/dev/null
	done
	# -q in the TUI was ignored (the tables are printed whole at its end)
	tm_start tq 120 20 "TERM=xterm-256color '$LRUTOP' -q -n 2 2>'$tmp/tqerr'"
	if wait_for 10 "tm_has tq END-OF-STTY"; then
		st=$(tm_cap tq | sed -n 's/^EXIT=\([0-9]*\).*/\1/p')
		check "TUI -q: EXIT=2, 'lrutop: -q: only in batch mode ...'" \
			'[ "$st" = 2 ] && [ "$(cat "$tmp/tqerr")" = "lrutop: -q: only in batch mode (--batch, or stdout not a terminal)" ]' \
			"EXIT=$st; stderr: $(tr '\n' '|' <"$tmp/tqerr")"
	else
		notok "TUI -q: EXIT=2" "did not end: $(tm_cap tq | grep -v '^$' | head -n 3 | tr '\n' '|')"
	fi
	tm kill-session -t tq 2>/dev/null
	# a signal: 128 + N and one line, as in batch mode; terminal restored;
	# SIGTERM during a run also removes its scratch directory
	for sig in INT:130 TERM:143 HUP:129; do
		n=${sig%:*} want=${sig#*:}
		newdir
		extra=""
		[ "$n" = TERM ] && extra="-s rw_cp --size 1G $ml --dir $d"
		s=sig$n
		tm_start "$s" 120 40 "TERM=xterm-256color '$LRUTOP' -i 0.1 $extra 2>'$tmp/sigerr'"
		pid=""
		wait_for 5 '[ -n "$(tm_child "$s")" ]' && pid=$(tm_child "$s")
		if [ -n "$pid" ] && tm_wait "$s" "q quit" 10 &&
			{ [ -z "$extra" ] || wait_for 10 '[ -n "$(ls -A "$d")" ]'; }; then
			kill -"$n" "$pid"
			if wait_for 10 "tm_has $s END-OF-STTY"; then
				st=$(tm_cap "$s" | sed -n 's/^EXIT=\([0-9]*\).*/\1/p')
				check "TUI SIG$n: EXIT=$want, 'lrutop: interrupted (SIG$n)'" \
					'[ "$st" = "$want" ] && [ "$(cat "$tmp/sigerr")" = "lrutop: interrupted (SIG$n)" ]' \
					"EXIT=$st; stderr: $(tr '\n' '|' <"$tmp/sigerr")"
				check "TUI SIG$n: terminal restored${extra:+, --dir empty, no cgroup left}" \
					'tm_stty_sane "$s" && [ -z "$(ls -A "$d")" ] && ! ls -d "${cgroot:-/nonexistent}/lrutop-$pid-"* >/dev/null 2>&1' \
					"left: $(ls -A "$d") $(ls -d "${cgroot:-/nonexistent}/lrutop-$pid-"* 2>/dev/null)"
			else
				notok "TUI SIG$n: EXIT=$want" "still running 10 s after SIG$n"
				kill -9 "$pid" 2>/dev/null
			fi
		else
			notok "TUI SIG$n: EXIT=$want" "did not start: $(tm_cap "$s" | grep -v '^$' | head -n 3 | tr '\n' '|')"
			[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
		fi
		tm kill-session -t "$s" 2>/dev/null
	done
else
	skip "TUI failure paths" "tmux not installed"
fi

exit 0
