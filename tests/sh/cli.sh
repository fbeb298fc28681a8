#!/bin/sh
# Command-line contract (DESIGN.md §4, §5): --help, --version, usage errors
# (one "lrutop: " line on stderr, nothing on stdout, exit 2), --csv refusing
# an existing file, batch output shape, automatic batch mode off a tty.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-cli.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
out=$tmp/out err=$tmp/err

# run ARGS...: run lrutop with a bounded run time; sets $rc, fills out/err.
# stdin is /dev/null and stdout a file, so nothing here can start the TUI.
run() {
	timeout 20 "$LRUTOP" "$@" </dev/null >"$out" 2>"$err"
	rc=$?
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
[ -s "$err" ] && notok "help: stderr empty" "$(head -n 3 "$err")" || ok "help: stderr empty"

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

# -n with the timestamps: 3 samples at 0.1 s are ~0.1 s apart (measured time).
run --batch -n 3 -i 0.1
t=$(awk '$1 != "time" { print $1 }' "$out" | tr '\n' ' ')
if awk -v t="$t" 'BEGIN { n = split(t, a, " "); if (n != 3) exit 1
	for (i = 2; i <= n; i++) { d = a[i] - a[i-1]; if (d < 0.05 || d > 0.5) exit 1 } }'; then
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
	trap 'tm_cleanup; rm -rf "$tmp"' EXIT
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

exit 0
