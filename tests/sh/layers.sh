#!/bin/sh
# tests/run: once
# The layers of src/ (tools/layers, docs/design.md §10): every include
# points down the table, is written with its folder, and no two folders
# include each other.  The check runs on the tree, then on scratch copies
# of src/ with a planted fault each, which it must name: an include that
# points up, one without its folder, a folder in no layer — and it must
# pass a copy where a file includes a header of its own folder and of the
# layer below.
. "$(dirname "$0")/lib.sh"

T=layers
tmp=$(mktemp -d /tmp/lrutop-layers.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP

tools/layers >"$tmp/out" 2>&1
rc=$?
check "$T: the tree's includes all point down (tools/layers exit 0)" \
	'[ "$rc" = 0 ] && [ ! -s "$tmp/out" ]' "exit $rc: $(head -n 5 "$tmp/out" | tr '\n' '|')"

# no circle between folders: the folder graph, each edge from a higher
# layer to a lower one, has no pair A -> B and B -> A (and tools/layers
# draws it)
tools/layers -g >"$tmp/graph" 2>&1
awk '{ e[$1 " " $3] = 1 } END { for (k in e) { split(k, p, " "); if ((p[2] " " p[1]) in e) { print k; bad = 1 } } exit bad }' \
	"$tmp/graph" >"$tmp/cyc"
rc=$?
check "$T: no two folders include each other ($(wc -l <"$tmp/graph" | tr -d ' ') folder edges)" \
	'[ "$rc" = 0 ] && [ -s "$tmp/graph" ]' "$(tr '\n' '|' <"$tmp/cyc")"

# plant NAME FILE LINE: a copy of the tree with LINE added to FILE (made
# if new); the check must fail and name FILE
plant() {
	rm -rf "$tmp/t" && mkdir -p "$tmp/t/tools" && cp -R src "$tmp/t/" && cp tools/layers "$tmp/t/tools/" || exit 2
	mkdir -p "$tmp/t/$(dirname "$2")"
	printf '%s\n' "$3" >>"$tmp/t/$2"
	"$tmp/t/tools/layers" "$tmp/t" >"$tmp/p" 2>&1
}
plant up src/model/series.c '#include "screen/grid.h"'
rc=$?
check "$T: a planted upward include (model -> screen) fails, named" \
	'[ "$rc" = 1 ] && grep -q "^src/model/series.c:[0-9]*: includes screen/grid.h: model may not include screen" "$tmp/p"' \
	"exit $rc: $(tr '\n' '|' <"$tmp/p")"
plant base src/base/util.c '#include "sampling/sample.h"'
rc=$?
check "$T: base/ including any layer fails" \
	'[ "$rc" = 1 ] && grep -q "^src/base/util.c:.*base may not include sampling" "$tmp/p"' "exit $rc: $(tr '\n' '|' <"$tmp/p")"
plant bare src/screen/grid.c '#include "series.h"'
rc=$?
check "$T: an include without its folder fails" \
	'[ "$rc" = 1 ] && grep -q "^src/screen/grid.c:.*without its folder" "$tmp/p"' "exit $rc: $(tr '\n' '|' <"$tmp/p")"
plant newfolder src/extra/thing.c '#include "base/util.h"'
rc=$?
check "$T: a folder in no layer fails" \
	'[ "$rc" = 1 ] && grep -q "^src/extra/thing.c:.*extra is in no layer" "$tmp/p"' "exit $rc: $(tr '\n' '|' <"$tmp/p")"
plant down src/screen/grid.c '#include "model/series.h"
#include "screen/chart.h"
#include "base/util.h"'
rc=$?
check "$T: includes of its own folder and of lower layers pass" '[ "$rc" = 0 ]' "exit $rc: $(tr '\n' '|' <"$tmp/p")"

# a file a newcomer can read through: no .c under src/ over 1,000 lines
# (docs/style.md rule 1)
long=$(find src -name '*.c' -exec wc -l {} + | awk '$2 != "total" && $1 > 1000 { printf "%s (%d) ", $2, $1 }')
check "$T: no .c under src/ over 1,000 lines" '[ -z "$long" ]' "$long"
exit 0
