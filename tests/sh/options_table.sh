#!/bin/sh
# The options table (src/options.c) against its three readers: every option
# getopt knows (lrutop --list-options, made from the table) has a .TP entry
# in man/lrutop.1's OPTIONS and an entry in --help, and every option those
# name is one the table has.  So adding a table row without its man entry,
# or a man entry for an option that is gone, fails here.
. tests/sh/lib.sh
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

check() {
	if eval "$2"; then ok "$1"; else notok "$1" "$3"; fi
}

"$LRUTOP" --list-options >"$tmp/table" 2>"$tmp/err"
rc=$?
n=$(wc -l <"$tmp/table")
check "--list-options: exit 0, one option a line, nothing on stderr" \
	'[ "$rc" -eq 0 ] && [ "$n" -ge 40 ] && ! [ -s "$tmp/err" ] && ! grep -qvE "^(-[a-zA-Z]|--[a-z][a-z-]*)\$" "$tmp/table"' \
	"exit $rc, $n lines: $(head -c 200 "$tmp/err")"
sort -u "$tmp/table" >"$tmp/table.s"
check "--list-options: no option twice" '[ "$(wc -l <"$tmp/table.s")" -eq "$n" ]' \
	"$(sort "$tmp/table" | uniq -d | tr '\n' ' ')"

# the options of the tags (the line after each .TP) of the OPTIONS section
awk '
/^\.SH OPTIONS/ { on = 1; next }
on && /^\.SH/ { exit }
on && /^\.TP/ { tag = 1; next }
on && tag {
	tag = 0
	s = $0
	gsub(/\\f[BIRP]/, "", s)
	gsub(/\\-/, "-", s)
	while (match(s, /(^|[ ,|"[])--?[a-zA-Z][a-zA-Z-]*/)) {
		t = substr(s, RSTART, RLENGTH)
		sub(/^[ ,|"[]/, "", t)
		sub(/^\.[A-Z]+$/, "", t)
		print t
		s = substr(s, RSTART + RLENGTH)
	}
}' man/lrutop.1 | grep -E '^--?[a-zA-Z]' | sort -u >"$tmp/man"
missing=$(comm -23 "$tmp/table.s" "$tmp/man" | tr '\n' ' ')
extra=$(comm -13 "$tmp/table.s" "$tmp/man" | tr '\n' ' ')
check "man page OPTIONS: a .TP entry for each of the table's $n options" \
	'[ -s "$tmp/man" ] && [ -z "$missing" ]' "no entry for: $missing"
check "man page OPTIONS: every entry an option of the table" \
	'[ -s "$tmp/man" ] && [ -z "$extra" ]' "not in the table: $extra"

# --help: each option in an entry's option column, or the synopsis
"$LRUTOP" --help >"$tmp/help" 2>/dev/null
missing=""
while read -r o; do
	grep -qE -- "(^|[^a-zA-Z-])$o([^a-zA-Z-]|\$)" "$tmp/help" || missing="$missing $o"
done <"$tmp/table.s"
check "--help: names each of the table's options" '[ -z "$missing" ]' "missing:$missing"
awk '/^  (-[a-zA-Z]|    --[a-z])/ {
	s = substr($0, 1, 25)
	while (match(s, /--?[a-zA-Z][a-z-]*/)) {
		print substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
	}
}' "$tmp/help" | sort -u >"$tmp/helpopts"
extra=$(comm -13 "$tmp/table.s" "$tmp/helpopts" | tr '\n' ' ')
check "--help: every entry an option of the table" \
	'[ -s "$tmp/helpopts" ] && [ -z "$extra" ]' "not in the table: $extra"
