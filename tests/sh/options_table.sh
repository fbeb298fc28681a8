#!/bin/sh
# The options table (src/app/options.c) against its three readers: every option
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
	# the entry: up to the help column, or the whole line where a long
	# name put its help on the next one
	s = length($0) > 25 && substr($0, 25, 1) != " " ? $0 : substr($0, 1, 25)
	while (match(s, /--?[a-zA-Z][a-z-]*/)) {
		print substr(s, RSTART, RLENGTH)
		s = substr(s, RSTART + RLENGTH)
	}
}' "$tmp/help" | sort -u >"$tmp/helpopts"
extra=$(comm -13 "$tmp/table.s" "$tmp/helpopts" | tr '\n' ' ')
check "--help: every entry an option of the table" \
	'[ -s "$tmp/helpopts" ] && [ -z "$extra" ]' "not in the table: $extra"

# Given twice (issue 26, 9): the table says which options repeat
# (OPTW_MULTI) and the man page must say the same -- "repeatable" in the
# entry of each that does and of no other -- and state the rule.  What the
# parser does is asked of it: OPT V OPT V beside --list-options (an action
# that runs nothing) is exit 0 for one that repeats and "OPT given twice"
# for one that does not; V is the first of a few values OPT's handler takes
# (none: a flag, though "OPT OPT" is one OPT taking "OPT" as its value if it
# takes one, so that says only "once").  An action (--help) goes alone.
awk '
/^\.SH OPTIONS/ { on = 1; next }
on && /^\.SH/ { exit }
on && /^\.(TP|SS|PP)/ { if (tag != "") print tag "\t" text; tag = ""; text = ""; if ($0 ~ /^\.TP/) want = 1; next }
on && want { want = 0; s = $0; gsub(/\\f[BIRP]/, "", s); gsub(/\\-/, "-", s); tag = s; next }
on && tag != "" { text = text " " $0 }
END { if (tag != "") print tag "\t" text }
' man/lrutop.1 >"$tmp/entries"
said="" wrong="" unknown="" n=0
while read -r o; do
	n=$((n + 1))
	kind=""
	for v in "" x 1 60 1M bs=4K,8K 'bursts>=1' cold runs ascii; do
		for with in --list-options ""; do
			if [ -z "$v" ]; then
				"$LRUTOP" $with "$o" "$o" </dev/null >/dev/null 2>"$tmp/twice"
			else
				"$LRUTOP" $with "$o" "$v" "$o" "$v" </dev/null >/dev/null 2>"$tmp/twice"
			fi
			rc=$?
			# only an action is tried without --list-options
			grep -q "^lrutop: $o: not with --list-options (one at a time)\$" "$tmp/twice" || break
		done
		if [ "$(cat "$tmp/twice")" = "lrutop: $o given twice" ] && [ "$rc" -eq 2 ]; then
			kind=once
		elif [ "$rc" -eq 0 ] && [ -n "$v" ] && [ -n "$with" ]; then
			kind=repeats
		fi
		[ -n "$kind" ] && break
	done
	[ -n "$kind" ] || { unknown="$unknown $o"; continue; }
	# the man entry whose tag names o
	entry=$(awk -F '\t' -v o="$o" '{ s = " " $1 " "; gsub(/[,|"[]/, " ", s) } index(s, " " o " ") { print $2 }' "$tmp/entries")
	case $entry in *[Rr]epeatable*) man=repeats ;; *) man=once ;; esac
	[ "$kind" = repeats ] && said="$said $o"
	[ "$kind" = "$man" ] || wrong="$wrong $o($kind, the man page: $man)"
done <"$tmp/table.s"
check "given twice: the parser tells each of the $n options (once or repeatable)" \
	'[ "$n" -ge 40 ] && [ -z "$unknown" ]' "no value found for:$unknown"
check "given twice: only --cmd and --name repeat" '[ "$said" = " --cmd --name" ]' "repeat:$said"
check "given twice: the man page says 'repeatable' of exactly those" '[ -z "$wrong" ]' "$wrong"
check "given twice: the man page's OPTIONS state the rule" \
	'sed -n "/^\.SH OPTIONS/,/^\.SS/p" man/lrutop.1 | grep -q "given twice"'
