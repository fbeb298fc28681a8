#!/bin/sh
# tests/run: once
# The fresh machine (README's two set-up commands): the libraries appear only
# when the deps step has run, in the same `make` invocation.  A copy of the
# tree gets a pkg-config first on PATH that fails (as pkg-config does for a
# package that is not installed) until a marker exists, and a deps step that
# creates the marker instead of calling apt-get.  Then:
#   make          stops with the name of what is missing, before compiling;
#   make demo     runs deps, then builds and links and starts DEMO_CMD, all
#                 in one invocation (the bug: pkg-config was asked before
#                 deps had run, so the link failed with undefined references);
#   make install  of that build into a DESTDIR.
# MAKEFILE=FILE tests another Makefile (e.g. `git show main~5:Makefile`).
. "$(dirname "$0")/lib.sh"

T=build
root=$PWD
real_pc=$(command -v pkg-config) || {
	skip "$T: fresh machine" "pkg-config not installed (make deps)"
	exit 0
}
tmp=$(mktemp -d /tmp/lrutop-build.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

tree=$tmp/tree marker=$tmp/deps-installed
mkdir "$tree" "$tmp/bin"
cp -R "$root/src" "$root/tools" "$root/themes" "$root/man" "$tree/" &&
	cp "${MAKEFILE:-$root/Makefile}" "$tree/Makefile" || exit 2

cat >"$tmp/bin/pkg-config" <<EOF
#!/bin/sh
[ -e "$marker" ] || exit 1
exec "$real_pc" "\$@"
EOF
cat >"$tmp/deps" <<EOF
#!/bin/sh
echo "fake deps: installing"
: >"$marker"
EOF
chmod +x "$tmp/bin/pkg-config" "$tmp/deps"
# a Makefile that ignores DEPS still runs the tree's tools/deps
cp "$tmp/deps" "$tree/tools/deps"

# mk LOG ARGS...: one make in the copy with the fake pkg-config, as a user
# would type it (not a sub-make of a make check, not tests/run's BUILD);
# sets $rc.
mk() {
	_log=$1
	shift
	(
		unset MAKEFLAGS MFLAGS MAKELEVEL BUILD SAN
		PATH="$tmp/bin:$PATH" exec timeout 120 make -C "$tree" -j2 CFLAGS=-O0 \
			DEPS="$tmp/deps" "$@"
	) >"$_log" 2>&1
	rc=$?
}
tail_of() { tail -n 4 "$1" | tr '\n' ' ' | cut -c 1-400; }

# -- make (all) without the packages: a clear message, nothing compiled -----
mk "$tmp/all.log"
if [ "$rc" -ne 0 ] && grep -q "^lrutop: pkg-config cannot find .*libproc2.* — run 'make deps'" "$tmp/all.log"; then
	ok "$T: make without libproc2 names it and 'make deps'"
else
	notok "$T: make without libproc2 names it and 'make deps'" "exit $rc: $(tail_of "$tmp/all.log")"
fi
if grep -q 'undefined reference\|\.o\b' "$tmp/all.log" || [ -n "$(find "$tree/build" -name '*.o' 2>/dev/null)" ]; then
	notok "$T: make without the packages compiles nothing" "$(tail_of "$tmp/all.log")"
else
	ok "$T: make without the packages compiles nothing"
fi
[ -e "$marker" ] && notok "$T: make alone installs nothing" "the deps step ran" ||
	ok "$T: make alone installs nothing"

# -- make demo: deps, build, link, run — one invocation ----------------------
mk "$tmp/demo.log" demo DEMO_CMD='./lrutop --version'
if [ "$rc" -eq 0 ] && [ -e "$marker" ] && grep -q '^lrutop [0-9]' "$tmp/demo.log"; then
	ok "$T: one make demo installs deps, links and runs lrutop"
else
	notok "$T: one make demo installs deps, links and runs lrutop" \
		"exit $rc, deps $([ -e "$marker" ] && echo ran || echo 'did not run'), $(grep -c 'undefined reference' "$tmp/demo.log") undefined references: $(tail_of "$tmp/demo.log")"
fi

# -- make install of that build ----------------------------------------------
mk "$tmp/install.log" install DESTDIR="$tmp/root" PREFIX=/usr
if [ "$rc" -eq 0 ] && [ -x "$tmp/root/usr/bin/lrutop" ] && [ -f "$tmp/root/usr/share/man/man1/lrutop.1" ] &&
	"$tmp/root/usr/bin/lrutop" --version >/dev/null 2>&1; then
	ok "$T: make install into DESTDIR"
else
	notok "$T: make install into DESTDIR" "exit $rc: $(tail_of "$tmp/install.log")"
fi
