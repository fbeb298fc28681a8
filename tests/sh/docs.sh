#!/bin/sh
# tests/run: once
# The design lives in the repository (issue 28): a clone has docs/design.md,
# docs/style.md and docs/libproc2.md, and nothing in the tree may send a
# reader to the shared folder that once sat beside the checkout.  Checks:
#  (a) no file names ../shared (or /work/shared), a bare DESIGN.md or
#      STYLE.md, "DESIGN §N", "STYLE rule N" or a libproc2.md that is not
#      docs/libproc2.md (inside docs/: a link to libproc2.md) —
#      tools/unshare-refs rewrites every such reference;
#  (b) every file under src/ is named in docs/source-tree.md;
#  (c) every src/ file docs/source-tree.md names exists;
#  (d) every "design.md §N", "libproc2.md §N" and "style.md rule N" the
#      tree cites has its section (the rewrite kept the numbers).
#  (e) docs/keys.md's key tables are what the key tables say (lrutop
#      --list-keys, put there by tools/keys-doc);
#  (f) the man page's KEYS section names every key of the global, replay
#      and screen tables, and every key one of its entries names is bound.
# Each check is also run on a scratch tree with a planted fault, which it
# must name; and tools/unshare-refs is run on a scratch tree holding every
# old form: afterwards (a) passes, the numbers are kept, a second run
# changes nothing, and a form it does not know is said, exit 1.
. "$(dirname "$0")/lib.sh"

T=docs
export LC_ALL=C
tmp=$(mktemp -d /tmp/lrutop-docs.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

# files ROOT: the files looked at, NUL-separated, as tools/unshare-refs
# picks them: all but .git, the build directories and the two files that
# name the old forms on purpose
files() {
	(cd "$1" && find . \( -path ./.git -o -path ./build -o -path './build-*' \
		-o -path "./$BUILD" \) -prune -o -type f ! -path ./tools/unshare-refs \
		! -path ./tests/sh/docs.sh -print0)
}

# (a) refs ROOT: FILE:LINE:TEXT of every reference to the old places
old='\.\./shared|/work/shared|(^|[^A-Za-z0-9_/])(DESIGN|STYLE)\.md|(^|[^A-Za-z0-9_/])DESIGN §|(^|[^A-Za-z0-9_/])STYLE rule'
old="$old"'|(^|[^][(/A-Za-z0-9_.-])libproc2\.md|(^|[^]])[(]libproc2\.md'
refs() {
	files "$1" | (cd "$1" && xargs -0 -r grep -I -n -E -- "$old") | sed 's#^\./##'
	# and a file of the old names anywhere
	(cd "$1" && find . \( -path ./.git -o -path ./build -o -path './build-*' \) -prune -o \
		\( -name DESIGN.md -o -name STYLE.md \) -print) | sed 's#^\./##; s#$#: a file of the old name#'
}

# listed ROOT: the src/ paths ROOT/docs/source-tree.md names, sorted: the
# leading `names` of a "- " line under a "## `src/DIR/`" heading, and any
# src/... file path anywhere in the text
listed() {
	awk '
	/^## / {
		dir = ""
		if (match($0, /^## `src\/[^`]*`/)) {
			dir = substr($0, 5, RLENGTH - 5)
			if (dir !~ /\/$/)
				dir = dir "/"
		}
	}
	/^- `/ && dir != "" {
		rest = substr($0, 3)
		while (match(rest, /^`[^`]+`[ ,]*/)) {
			name = substr(rest, 2)
			name = substr(name, 1, index(name, "`") - 1)
			print (name ~ /^src\// ? name : dir name)
			rest = substr(rest, RLENGTH + 1)
		}
	}
	{
		line = " " $0
		while (match(line, /[^A-Za-z0-9_.\/-]src\/[A-Za-z0-9_.\/-]+\.[a-z]+/)) {
			print substr(line, RSTART + 1, RLENGTH - 1)
			line = substr(line, RSTART + RLENGTH)
		}
	}' "$1/docs/source-tree.md" | sort -u
}
srcfiles() { (cd "$1" && find src -type f | sort); }
# (b) unlisted ROOT, (c) stale ROOT
unlisted() { listed "$1" >"$tmp/l"; srcfiles "$1" >"$tmp/s"; comm -23 "$tmp/s" "$tmp/l"; }
stale() { listed "$1" >"$tmp/l"; srcfiles "$1" >"$tmp/s"; comm -13 "$tmp/s" "$tmp/l"; }

# (d) unresolved ROOT: every cited section number without its heading
unresolved() {
	files "$1" | (cd "$1" && xargs -0 -r grep -I -h -o -E \
		'(design|libproc2)\.md §[0-9]+|style\.md rule [0-9]+') |
		sed 's/ rule / /; s/ §/ /' | sort -u |
		while read -r doc n; do
			case "$doc" in
			design.md | libproc2.md) grep -q "^## $n\. " "$1/docs/$doc" 2>/dev/null ;;
			style.md) grep -q "^ *$n\. \*\*" "$1/docs/$doc" 2>/dev/null ;;
			*) ;;
			esac || echo "docs/$doc ${n}: no such section"
		done
}

oneline() { head -n 8 | tr '\n' ' '; }

# ---- the tree as it is ---------------------------------------------------
for d in design style libproc2; do
	[ -s "docs/$d.md" ] || missing="${missing:-} docs/$d.md"
done
[ -z "${missing:-}" ] && ok "$T: docs/design.md, docs/style.md and docs/libproc2.md are in the tree" ||
	notok "$T: docs/design.md, docs/style.md and docs/libproc2.md are in the tree" "missing:$missing"

refs . >"$tmp/refs"
[ ! -s "$tmp/refs" ] && ok "$T: (a) no file names the shared folder or a bare DESIGN.md / STYLE.md" ||
	notok "$T: (a) no file names the shared folder or a bare DESIGN.md / STYLE.md" \
		"$(wc -l <"$tmp/refs") references (run tools/unshare-refs): $(oneline <"$tmp/refs")"

unlisted . >"$tmp/unl"
[ ! -s "$tmp/unl" ] && [ -n "$(listed .)" ] && ok "$T: (b) docs/source-tree.md names every file of src/" ||
	notok "$T: (b) docs/source-tree.md names every file of src/" "not named: $(oneline <"$tmp/unl")"

stale . >"$tmp/st"
[ ! -s "$tmp/st" ] && ok "$T: (c) every src/ file docs/source-tree.md names exists" ||
	notok "$T: (c) every src/ file docs/source-tree.md names exists" "gone: $(oneline <"$tmp/st")"

unresolved . >"$tmp/un"
[ ! -s "$tmp/un" ] && ok "$T: (d) every cited section of docs/design.md, style.md, libproc2.md is there" ||
	notok "$T: (d) every cited section of docs/design.md, style.md, libproc2.md is there" "$(oneline <"$tmp/un")"

# ---- each check sees a planted fault ---------------------------------------
# A small clean tree: references in the new forms, the old forms where the
# check must not look (a build directory, the rewriting script itself).
clean=$tmp/clean
mkdir -p "$clean/docs" "$clean/src" "$clean/bench" "$clean/tools" "$clean/tests/sh" \
	"$clean/build" "$clean/build-asan"
cat >"$clean/docs/guide.md" <<'EOF'
# A guide
See docs/design.md §8, [libproc2.md](libproc2.md) and [the style](style.md).
(docs/libproc2.md §9) and DESIGN_NOTES and MY_STYLE.mdx are other words.
EOF
printf '/* the error convention (docs/style.md rule 3) */\n' >"$clean/src/x.c"
printf 'Measured as docs/libproc2.md §9 says.\n' >"$clean/bench/README.md"
printf '# lrutop\n' >"$clean/README.md"
printf '../shared/DESIGN.md\n' >"$clean/build/junk.c"
printf 'DESIGN.md §2\n' >"$clean/build-asan/junk.c"
printf '# ../shared/DESIGN.md, STYLE.md\n' >"$clean/tools/unshare-refs"
printf '# ../shared/DESIGN.md, STYLE.md\n' >"$clean/tests/sh/docs.sh"
refs "$clean" >"$tmp/c"
[ ! -s "$tmp/c" ] && ok "$T: (a) passes a clean tree (new forms, build directories, the script)" ||
	notok "$T: (a) passes a clean tree (new forms, build directories, the script)" "$(oneline <"$tmp/c")"

# plant FILE TEXT: the check names FILE:LINE of the planted line
n=0
for fault in "src/x.c|/* see ../shared/DESIGN.md §2 */" \
	"docs/guide.md|the house style (../../shared/STYLE.md)" \
	"README.md|/work/shared/libproc2.md" \
	"src/x.c|/* DESIGN.md §5 */" \
	"docs/guide.md|see STYLE.md rule 10" \
	"src/x.c|theme files (DESIGN §7) only fill in roles" \
	"src/x.c|kept here rather than in a global (STYLE rule 5)" \
	"src/x.c|/* (libproc2.md §4, §9) */" \
	"bench/README.md|as libproc2.md §9 measured" \
	"docs/guide.md|[the notes](../shared/)"; do
	n=$((n + 1))
	f=${fault%%|*} text=${fault#*|}
	rm -rf "$tmp/p" && cp -R "$clean" "$tmp/p" || exit 2
	printf '%s\n' "$text" >>"$tmp/p/$f"
	line=$(wc -l <"$tmp/p/$f" | tr -d ' ')
	refs "$tmp/p" >"$tmp/got"
	[ "$(cat "$tmp/got")" = "$f:$line:$text" ] && ok "$T: (a) sees a planted '$text' in $f" ||
		notok "$T: (a) sees a planted '$text' in $f" "got: $(oneline <"$tmp/got")"
done
rm -rf "$tmp/p" && cp -R "$clean" "$tmp/p" && : >"$tmp/p/src/DESIGN.md"
refs "$tmp/p" | grep -qx 'src/DESIGN.md: a file of the old name' &&
	ok "$T: (a) sees a planted file src/DESIGN.md" ||
	notok "$T: (a) sees a planted file src/DESIGN.md" "$(refs "$tmp/p" | oneline)"

# (b), (c): the real map over a copy of src/'s names
mk_src_copy() {
	rm -rf "$1" && mkdir -p "$1/docs" && cp docs/source-tree.md "$1/docs/" || exit 2
	srcfiles . >"$tmp/names"
	(cd "$1" && sed 's#/[^/]*$##' "$tmp/names" | sort -u | xargs mkdir -p &&
		xargs touch <"$tmp/names") || exit 2
}
mk_src_copy "$tmp/b"
: >"$tmp/b/src/model/planted_fault.c"
mkdir -p "$tmp/b/src/newlayer" && : >"$tmp/b/src/newlayer/thing.h"
unlisted "$tmp/b" >"$tmp/got"
grep -qx src/model/planted_fault.c "$tmp/got" && grep -qx src/newlayer/thing.h "$tmp/got" &&
	ok "$T: (b) names a planted src/model/planted_fault.c and src/newlayer/thing.h" ||
	notok "$T: (b) names a planted src/model/planted_fault.c and src/newlayer/thing.h" "got: $(oneline <"$tmp/got")"

mk_src_copy "$tmp/c2"
rm -f "$tmp/c2/src/base/util.c"
awk '{ print } /^## `src\/sampling\/`/ { print ""; print "- `gone_fault.c` `gone_fault.h` — planted" }' \
	docs/source-tree.md >"$tmp/c2/docs/source-tree.md"
printf 'And src/runs/gone_prose.c is named in passing.\n' >>"$tmp/c2/docs/source-tree.md"
stale "$tmp/c2" >"$tmp/got"
ok_c=1
for want in src/base/util.c src/sampling/gone_fault.c src/sampling/gone_fault.h src/runs/gone_prose.c; do
	grep -qx "$want" "$tmp/got" || ok_c=0
done
[ "$ok_c" = 1 ] && ok "$T: (c) names a removed src/base/util.c and planted names that do not exist" ||
	notok "$T: (c) names a removed src/base/util.c and planted names that do not exist" "got: $(oneline <"$tmp/got")"

# (d): a cited section that is not there
mkdir -p "$tmp/d/docs" "$tmp/d/src"
printf '## 8. Safety rules\n' >"$tmp/d/docs/design.md"
printf '1. **One concept**\n' >"$tmp/d/docs/style.md"
printf '## 9. Outside\n' >"$tmp/d/docs/libproc2.md"
printf '/* docs/design.md §8, docs/style.md rule 1, docs/libproc2.md §9 */\n' >"$tmp/d/src/a.c"
printf '/* docs/design.md §12, docs/style.md rule 15 */\n' >"$tmp/d/src/b.c"
unresolved "$tmp/d" >"$tmp/got"
[ "$(cat "$tmp/got")" = "docs/design.md 12: no such section
docs/style.md 15: no such section" ] && ok "$T: (d) names cited sections that are not there" ||
	notok "$T: (d) names cited sections that are not there" "got: $(oneline <"$tmp/got")"

# ---- the keys: docs/keys.md and the man page against the key tables --------
# man_keys MAN [tags]: the keys the KEYS section of MAN names, one a line:
# the words of each .TP entry's tag and (without "tags") each bold word
# (\fBX\fR) of its text, as the man page writes them
man_keys() {
	awk '/^\.SH KEYS/ { on = 1; next } on && /^\.SH/ { exit } on' "$1" >"$tmp/keys.sec"
	{
		awk '/^\.TP/ { t = 1; next }
		t { t = 0; sub(/^\.B +/, ""); n = split($0, w, " "); for (i = 1; i <= n; i++) print w[i] }' "$tmp/keys.sec"
		[ "${2:-}" = tags ] || grep -o '\\fB[^ ]*\\fR' "$tmp/keys.sec" | sed 's/^\\fB//; s/\\fR$//'
	} | sort -u
}
# table_keys [TABLE...]: the keys the tables bind (every table without
# one named), one a line, as the man page writes them (an arrow \(<-, Up
# \(ua, - \-)
table_keys() {
	"$LRUTOP" --list-keys | awk -v want=" $* " '
	/^### / { t = $0; sub(/^[^`]*`/, "", t); sub(/`.*/, "", t); on = want == "  " || index(want, " " t " ") > 0; next }
	on && /^\| `/ { k = substr($0, 4); k = substr(k, 1, index(k, "`") - 1); n = split(k, w, " "); for (i = 1; i <= n; i++) print w[i] }' |
		sed 's/^←$/\\(<-/; s/^→$/\\(->/; s/^Up$/\\(ua/; s/^Down$/\\(da/; s/^-$/\\-/' | sort -u
}
# unnamed MAN: keys of the global, replay and screen tables MAN does not
# name; unbound MAN: keys MAN's entries name that no table binds
unnamed() { table_keys global replay screen >"$tmp/tk"; man_keys "$1" >"$tmp/mk"; comm -23 "$tmp/tk" "$tmp/mk"; }
unbound() { table_keys >"$tmp/tk"; man_keys "$1" tags >"$tmp/mk"; comm -13 "$tmp/tk" "$tmp/mk"; }

LRUTOP="$LRUTOP" sh tools/keys-doc -c docs/keys.md >"$tmp/kd" 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$(grep -c '^### ' docs/keys.md)" -ge 8 ] &&
	ok "$T: (e) docs/keys.md's key tables are lrutop --list-keys's" ||
	notok "$T: (e) docs/keys.md's key tables are lrutop --list-keys's" "rc $rc (run tools/keys-doc): $(oneline <"$tmp/kd")"
unnamed man/lrutop.1 >"$tmp/un"
[ ! -s "$tmp/un" ] && [ "$(table_keys global replay screen | wc -l)" -ge 30 ] &&
	ok "$T: (f) the man page's KEYS name every key of the global, replay and screen tables" ||
	notok "$T: (f) the man page's KEYS name every key of the global, replay and screen tables" "not named: $(oneline <"$tmp/un")"
unbound man/lrutop.1 >"$tmp/ub"
[ ! -s "$tmp/ub" ] && [ "$(man_keys man/lrutop.1 tags | wc -l)" -ge 25 ] &&
	ok "$T: (f) every key the man page's KEYS entries name is bound in a table" ||
	notok "$T: (f) every key the man page's KEYS entries name is bound in a table" "bound nowhere: $(oneline <"$tmp/ub")"

# planted: a row of the tables changed, a marker gone
awk '{ if (!done && sub(/\| `n N` \| `step` \| replay: one sample on \/ back \|/, "| `t T` | `step` | replay: one sample on / back |")) done = 1; print }' \
	docs/keys.md >"$tmp/keys.md"
LRUTOP="$LRUTOP" sh tools/keys-doc -c "$tmp/keys.md" >"$tmp/kd" 2>&1
rc=$?
[ "$rc" = 1 ] && grep -qF -- '-| `t T` | `step`' "$tmp/kd" && grep -qF -- '+| `n N` | `step`' "$tmp/kd" &&
	ok "$T: (e) names a planted row of docs/keys.md the tables do not have (exit 1)" ||
	notok "$T: (e) names a planted row of docs/keys.md the tables do not have (exit 1)" "rc $rc: $(oneline <"$tmp/kd")"
LRUTOP="$LRUTOP" sh tools/keys-doc "$tmp/keys.md" && cmp -s "$tmp/keys.md" docs/keys.md &&
	ok "$T: (e) tools/keys-doc writes the tables back, the prose kept" ||
	notok "$T: (e) tools/keys-doc writes the tables back, the prose kept" "$(diff docs/keys.md "$tmp/keys.md" | oneline)"
grep -vxF '<!-- keys: end -->' docs/keys.md >"$tmp/keys.md"
cp "$tmp/keys.md" "$tmp/keys.md.was"
LRUTOP="$LRUTOP" sh tools/keys-doc "$tmp/keys.md" >"$tmp/kd" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "wants one line" "$tmp/kd" && cmp -s "$tmp/keys.md" "$tmp/keys.md.was" &&
	ok "$T: (e) a docs/keys.md without its end marker is said (exit 2), left as it was" ||
	notok "$T: (e) a docs/keys.md without its end marker is said (exit 2), left as it was" "rc $rc: $(oneline <"$tmp/kd")"
# planted: the man page's "n N" entry as the old "t T" (a replay steps with n N)
sed 's/^\.B n N$/.B t T/' man/lrutop.1 >"$tmp/man.1"
[ "$(unnamed "$tmp/man.1" | tr '\n' ' ')" = "N n " ] && [ "$(unbound "$tmp/man.1" | tr '\n' ' ')" = "T " ] &&
	ok "$T: (f) names the keys of a planted '.B t T' entry: n N not named, T bound nowhere" ||
	notok "$T: (f) names the keys of a planted '.B t T' entry: n N not named, T bound nowhere" \
		"not named: $(unnamed "$tmp/man.1" | oneline); bound nowhere: $(unbound "$tmp/man.1" | oneline)"

# ---- tools/unshare-refs on every old form ------------------------------------
u=$tmp/u
rm -rf "$u" && cp -R "$clean" "$u" && mkdir -p "$u/tools" "$u/tests/sh" || exit 2
cp tools/unshare-refs "$u/tools/unshare-refs" || exit 2
cat >>"$u/src/x.c" <<'EOF'
 * session — the protocol of one run (DESIGN.md §3): prepare, copy
 * a memory cgroup for one run (--mem-limit, DESIGN.md §3, §8).
 * Errors follow STYLE.md rule 3: -1 / NULL
 * kept here rather than in a global (STYLE rule 5):
 * theme files (DESIGN §7) only fill in roles.
/* The vmstat keys libproc2 4.0.x has no items for (libproc2.md §4, §9; its
 * reap keeps listing a device that has gone (libproc2.md §7
 * see ../shared/DESIGN.md §2 and ../../shared/STYLE.md rule 10
 * no DESIGN.md's list; /work/shared/libproc2.md
EOF
cat >>"$u/docs/guide.md" <<'EOF'
`--csv` columns (DESIGN.md §5), [the design](../shared/DESIGN.md), [style](STYLE.md)
EOF
cat >>"$u/bench/README.md" <<'EOF'
after a sleep every read costs more (libproc2.md §9 measured 2–3×); [d](../shared/DESIGN.md)
EOF
cat >>"$u/README.md" <<'EOF'
  the kernel to the screen; architecture and contracts in
  `../shared/DESIGN.md`, house style in `../shared/STYLE.md`. [d](DESIGN.md)
EOF
cat >"$u/tests/sh/strace.sh" <<'EOF'
# page (COPYBENCH SYSCALLS) must state the same sequences, and so must
# DESIGN.md §2 where it is at hand (../shared or /work/shared). Then cfr_cp
for d in ../shared/DESIGN.md /work/shared/DESIGN.md; do
EOF
printf '# ../shared/DESIGN.md, STYLE.md\n' >"$u/tests/sh/docs.sh"
cat >"$tmp/want" <<'EOF'
=== src/x.c
/* the error convention (docs/style.md rule 3) */
 * session — the protocol of one run (docs/design.md §3): prepare, copy
 * a memory cgroup for one run (--mem-limit, docs/design.md §3, §8).
 * Errors follow docs/style.md rule 3: -1 / NULL
 * kept here rather than in a global (docs/style.md rule 5):
 * theme files (docs/design.md §7) only fill in roles.
/* The vmstat keys libproc2 4.0.x has no items for (docs/libproc2.md §4, §9; its
 * reap keeps listing a device that has gone (docs/libproc2.md §7
 * see docs/design.md §2 and docs/style.md rule 10
 * no docs/design.md's list; docs/libproc2.md
=== docs/guide.md
# A guide
See docs/design.md §8, [libproc2.md](libproc2.md) and [the style](style.md).
(docs/libproc2.md §9) and DESIGN_NOTES and MY_STYLE.mdx are other words.
`--csv` columns (docs/design.md §5), [the design](design.md), [style](style.md)
=== bench/README.md
Measured as docs/libproc2.md §9 says.
after a sleep every read costs more (docs/libproc2.md §9 measured 2–3×); [d](../docs/design.md)
=== README.md
# lrutop
  the kernel to the screen; architecture and contracts in
  `docs/design.md`, house style in `docs/style.md`. [d](docs/design.md)
=== tests/sh/strace.sh
# page (COPYBENCH SYSCALLS) must state the same sequences, and so must
# docs/design.md §2. Then cfr_cp
for d in docs/design.md; do
=== tests/sh/docs.sh
# ../shared/DESIGN.md, STYLE.md
EOF
sh "$u/tools/unshare-refs" "$u" >"$tmp/u.out" 2>"$tmp/u.err"
rc=$?
for f in src/x.c docs/guide.md bench/README.md README.md tests/sh/strace.sh tests/sh/docs.sh; do
	echo "=== $f"
	cat "$u/$f"
done >"$tmp/got"
[ "$rc" = 0 ] && cmp -s "$tmp/want" "$tmp/got" &&
	ok "$T: unshare-refs rewrites every old form to docs/, keeping § and rule numbers" ||
	notok "$T: unshare-refs rewrites every old form to docs/, keeping § and rule numbers" \
		"rc $rc $(cat "$tmp/u.err") $(diff "$tmp/want" "$tmp/got" | tr '\n' ' ' | cut -c 1-600)"
[ "$(sort "$tmp/u.out" | tr '\n' ' ')" = "README.md bench/README.md docs/guide.md src/x.c tests/sh/strace.sh " ] &&
	ok "$T: unshare-refs names each file it rewrote" ||
	notok "$T: unshare-refs names each file it rewrote" "$(tr '\n' ' ' <"$tmp/u.out")"
refs "$u" >"$tmp/got"
[ ! -s "$tmp/got" ] && ok "$T: (a) passes the tree unshare-refs rewrote" ||
	notok "$T: (a) passes the tree unshare-refs rewrote" "$(oneline <"$tmp/got")"
before=$(cd "$u" && find . -type f -exec cksum {} + | sort)
sh "$u/tools/unshare-refs" "$u" >"$tmp/u2.out" 2>&1
rc=$?
after=$(cd "$u" && find . -type f -exec cksum {} + | sort)
[ "$rc" = 0 ] && [ ! -s "$tmp/u2.out" ] && [ "$before" = "$after" ] &&
	ok "$T: unshare-refs a second time changes nothing" ||
	notok "$T: unshare-refs a second time changes nothing" "rc $rc: $(oneline <"$tmp/u2.out")"
printf 'the old notes in ../shared/notes.txt\n' >>"$u/src/x.c"
sh "$u/tools/unshare-refs" "$u" >/dev/null 2>"$tmp/u3.err"
rc=$?
[ "$rc" = 1 ] && grep -q 'still names a shared folder: src/x.c:[0-9]*:the old notes' "$tmp/u3.err" &&
	ok "$T: unshare-refs says what it could not rewrite (exit 1)" ||
	notok "$T: unshare-refs says what it could not rewrite (exit 1)" "rc $rc: $(oneline <"$tmp/u3.err")"
exit 0
