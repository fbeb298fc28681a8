#!/bin/sh
# --export-openmetrics and --metrics-file against the real promtool
# (Debian's prometheus package; docs/metrics.md).  A short real batch run
# with --probe writes --metrics-file while it runs: the file appears,
# promtool check metrics passes on it, it has no timestamps and, once the
# first run has ended, that run's figures; at exit it stays with both runs
# and lrutop_up 0 and no values of the moment (--metrics-file-remove: it
# is gone), and no temporary file is left beside it.  The recording of
# that run, whose export has the live file's session label, and
# examples/demo-2008.jsonl.gz, exported: promtool check metrics passes, the
# text ends in "# EOF", and promtool tsdb create-blocks-from openmetrics
# makes blocks holding every sample line of it; the probe's figures are a
# summary family.  An existing PATH or OUT is refused and untouched.
. "$(dirname "$0")/lib.sh"

root=$(pwd)
tmp=$(mktemp -d /tmp/lrutop-om.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-om.XXXXXX) || exit 2
trap 'umount "$tmp/small" 2>/dev/null; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP
cd "$tmp" || exit 2

if ! command -v promtool >/dev/null 2>&1; then
	# tools/deps installs it (prometheus); only a machine where it could not
	skip "openmetrics: promtool" "promtool not installed (Debian package prometheus; make deps)"
	exit 0
fi

# om_check NAME FILE: promtool check metrics passes on FILE
om_check() {
	if promtool check metrics <"$2" >"$tmp/lint" 2>&1; then
		ok "$1: promtool check metrics"
	else
		notok "$1: promtool check metrics" "$(head -n 3 "$tmp/lint")"
	fi
}
# om_blocks NAME FILE: promtool tsdb create-blocks-from openmetrics makes
# blocks in a directory of its own (removed after), with as many samples
# as FILE has sample lines
om_blocks() {
	db=$tmp/tsdb
	rm -rf "$db"
	if ! promtool tsdb create-blocks-from openmetrics "$2" "$db" >"$tmp/blocks" 2>&1; then
		notok "$1: promtool tsdb create-blocks-from openmetrics" "$(head -n 3 "$tmp/blocks")"
		return
	fi
	nb=$(find "$db" -name meta.json | wc -l)
	got=$(awk 'NR > 1 && $1 ~ /^[0-9A-Z]+$/ { s += $5 } END { print s + 0 }' "$tmp/blocks")
	want=$(grep -vc '^#' "$2")
	check "$1: create-blocks-from openmetrics: $nb block(s), $got samples = $want lines" \
		'[ "$nb" -ge 1 ] && [ "$got" -eq "$want" ]' "$(cat "$tmp/blocks")"
	rm -rf "$db"
}

# ---- --metrics-file during a real batch run --------------------------------
T="metrics-file:"
lrt_newdir
limit="-m 64M"
lrt_cgroot >/dev/null || limit=""
M=$tmp/lrutop.prom
R=$tmp/r.jsonl
# the second run: a copy that takes 3 s (--cmd has no shell: a script)
printf 'sleep 3 && cp "$1" "$2"\n' >"$tmp/nap.sh"
# shellcheck disable=SC2086 # $limit is one option and its value, or nothing
# --probe beside them: its figures are a summary family in both files
timeout 120 "$LRUTOP" --batch -q -s rw_cp --cmd "sh $tmp/nap.sh {src} {dst}" --name nap $limit --size 32M \
	--probe cold --dir "$d" --record "$R" --metrics-file "$M" </dev/null >out 2>err &
pid=$!
check "$T PATH appears while lrutop runs" 'wait_for 60 "[ -s \"$M\" ]"' "no $M"
# the first run's end reaches the file while the second (3 s) runs
if wait_for 60 'grep -q "^lrutop_run_info{host=\"[^\"]*\",session=\"[^\"]*\",run=\"1\"" "$M" 2>/dev/null'; then
	cp "$M" snap.prom
	ok "$T the first run's figures appear after it ends"
else
	notok "$T the first run's figures appear after it ends" "$(head -c 300 err)"
	cp "$M" snap.prom 2>/dev/null
fi
wait "$pid"
rc=$?
check "$T exit 0" '[ "$rc" -eq 0 ]' "exit $rc: $(head -c 300 err)"
[ -s snap.prom ] && om_check "${T%:} the live file" snap.prom
check "$T no timestamps: every sample line is NAME{...} VALUE" \
	'! grep -v "^#" snap.prom | grep -Ev "^[a-z_0-9]+(\{[^}]*\})? [-0-9.e+]+$" | grep -q .' \
	"$(grep -v '^#' snap.prom | grep -Ev '^[a-z_0-9]+(\{[^}]*\})? [-0-9.e+]+$' | head -n 2)"
check "$T rw_cp's elapsed time in it, with its labels" \
	'grep -q "^lrutop_run_elapsed_seconds{host=\"$(uname -n)\",session=\"[-0-9T:.]*Z\",run=\"1\",strategy=\"rw_cp\",mem_limit=\"${limit:+64M}\",disk_limit=\"\"} [0-9.]*$" snap.prom' \
	"$(grep run_elapsed snap.prom)"
check "$T lrutop_up 1 while it runs" 'grep -q "^lrutop_up{[^}]*} 1$" snap.prom' "$(grep lrutop_up snap.prom)"
check "$T no # EOF and no # UNIT (the Prometheus text format)" \
	'! grep -q "^# EOF\|^# UNIT" snap.prom'
check "$T PATH stays at exit: lrutop_up 0, both runs, no values of the moment" \
	'grep -q "^lrutop_up{[^}]*} 0$" "$M" && [ "$(grep -c "^lrutop_run_elapsed_seconds{" "$M")" -eq 2 ] &&
	 ! grep -q "^lrutop_memory_\|^lrutop_run_current" "$M"' "$(grep -c . "$M" 2>&1)"
[ -s "$M" ] && om_check "${T%:} the file left at exit" "$M"
check "$T no temporary file left" '! ls -A "$tmp" | grep -q "^\.lrutop\.prom\."' "$(ls -A "$tmp")"
# the recording of the session: its export's session label is the live file's
session=$(sed -n 's/^lrutop_up{host="[^"]*",session="\([^"]*\)"} 0$/\1/p' "$M")
M2=$tmp/removed.prom
lrt_newdir
timeout 60 "$LRUTOP" --batch -q -s rw_cp --size 4M --dir "$d" --metrics-file "$M2" --metrics-file-remove \
	</dev/null >out 2>err
rc=$?
check "$T --metrics-file-remove: exit 0, PATH gone at exit" '[ "$rc" -eq 0 ] && [ ! -e "$M2" ]' \
	"exit $rc: $(head -c 300 err)"
lrt_expect "--metrics-file-remove without --metrics-file" 2 --batch -n 2 --metrics-file-remove
err_is "--metrics-file-remove without --metrics-file" "--metrics-file-remove: no --metrics-file to remove"

T="metrics-file refused:"
printf 'theirs 1\n' >theirs.prom
before=$(file_sum theirs.prom)
lrt_expect "an existing PATH" 2 --batch -n 2 --metrics-file theirs.prom
err_is "an existing PATH" "--metrics-file theirs.prom: already exists"
check "$T the existing PATH is untouched" '[ "$(file_sum theirs.prom)" = "$before" ]'
lrt_expect "a directory that is not there" 2 --batch -n 2 --metrics-file "$tmp/no/such.prom"
err_is "a directory that is not there" "--metrics-file $tmp/no/such.prom: "
lrt_expect "with --replay (a live session's)" 2 --replay "$R" --batch --metrics-file x.prom
check "$T nothing made" '[ ! -e x.prom ] && [ ! -e "$tmp/no" ]'

# a full disk: one warning (batch has no status line), the session goes on
T="metrics-file full disk:"
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/small" && mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2>/dev/null; then
	F=$tmp/small/m.prom
	timeout 60 "$LRUTOP" --batch -n 100 -i 0.1 --metrics-file "$F" </dev/null >out 2>err &
	pid=$!
	wait_for 20 '[ -s "$F" ]'
	# filled up again at each poll: a rename frees the old file's pages
	check "$T says so on stderr" 'wait_for 20 "head -c 64k /dev/zero >>\"$tmp/small/fill\" 2>/dev/null; grep -q \"^lrutop: warning: --metrics-file $F: write error: No space left on device\$\" err"' \
		"$(head -c 300 err)"
	rm -f "$tmp/small/fill"
	wait "$pid"
	rc=$?
	check "$T exit 0, said once" '[ "$rc" -eq 0 ] && [ "$(wc -l <err)" -eq 1 ]' "exit $rc: $(head -c 300 err)"
	# room again before the end (or not: then the last write fails and
	# PATH goes, with a warning)
	check "$T no temporary left; PATH the last file (lrutop_up 0) or gone" \
		'! ls -A "$tmp/small" | grep -v "^m\.prom\$" | grep -q . && { [ ! -e "$F" ] || grep -q "^lrutop_up{[^}]*} 0$" "$F"; }' \
		"$(ls -A "$tmp/small")"
	umount "$tmp/small"
else
	skip "$T a write error" "not root, or no tmpfs to fill here"
fi

# ---- --export-openmetrics ------------------------------------------------------
for rec in "$R" "$root/examples/demo-2008.jsonl.gz"; do
	T="export"
	O=$tmp/$(basename "$rec").om
	lrt_expect "$(basename "$rec")" 0 --export-openmetrics "$O" "$rec"
	T="export $(basename "$rec"):"
	check "$T nothing on stderr" '[ ! -s err ]' "$(head -c 300 err)"
	om_check "${T%:}" "$O"
	check "$T ends in # EOF" '[ "$(tail -n 1 "$O")" = "# EOF" ]' "$(tail -n 1 "$O")"
	check "$T a run's elapsed time and its strategy" \
		'grep -q "^lrutop_run_elapsed_seconds{host=\"[^\"]*\",session=\"[-0-9T:.]*Z\",run=\"1\",strategy=\"[a-z_]*[^\"]*\",mem_limit=\"[0-9KMGT]*\",disk_limit=\"[0-9KMGT]*\"} [0-9.]* [0-9]*$" "$O"' \
		"$(grep -m 2 run_elapsed "$O")"
	check "$T the machine's series: disk bytes, pgscan, PSI" \
		'grep -q "^lrutop_disk_read_bytes_total{" "$O" && grep -q "^lrutop_vmstat_pgscan_total{" "$O" && grep -q "^# TYPE lrutop_pressure_stalled_seconds_total counter" "$O"'
	om_blocks "${T%:}" "$O"
done
# the nap run's 3 s of probe reads (issue 26 finding 4: a gauge with a
# quantile label, which promtool check metrics refused)
O=$tmp/$(basename "$R").om
check "export: the session label is the live file's (a backfill and a scrape agree)" \
	'[ -n "$session" ] && grep -q "^lrutop_run_elapsed_seconds{host=\"$(uname -n)\",session=\"$session\",run=\"2\",strategy=\"nap\"" "$O"' \
	"live '$session'; $(grep -m 1 run_elapsed "$O")"
check "export: the probe's latency a summary: nap's p50 and its reads (_count)" \
	'grep -q "^# TYPE lrutop_run_probe_latency_seconds summary$" "$O" &&
	 grep -q "^lrutop_run_probe_latency_seconds{host=\"[^\"]*\",session=\"$session\",run=\"2\",strategy=\"nap\",mem_limit=\"[^\"]*\",disk_limit=\"\",quantile=\"0.5\"} [0-9.e-]* [0-9]*$" "$O" &&
	 grep -q "^lrutop_run_probe_latency_seconds_count{host=\"[^\"]*\",session=\"$session\",run=\"2\",strategy=\"nap\",mem_limit=\"[^\"]*\",disk_limit=\"\"} [1-9][0-9]* [0-9]*$" "$O"' \
	"$(grep run_probe "$O" | head -n 5 | tr '\n' '|')"
check "export: the demo's bursts are counted" \
	'grep -q "^lrutop_bursts_total{host=\"[^\"]*\",session=\"[^\"]*\",strategy=\"mm_sync_cp@32M\"} [1-9]" "$tmp/demo-2008.jsonl.gz.om"' \
	"$(grep bursts_total "$tmp/demo-2008.jsonl.gz.om")"

T="export refused:"
before=$(file_sum theirs.prom)
lrt_expect "an existing OUT" 2 --export-openmetrics theirs.prom "$R"
err_is "an existing OUT" "--export-openmetrics theirs.prom: already exists"
check "$T the existing OUT is untouched" '[ "$(file_sum theirs.prom)" = "$before" ]'
lrt_expect "a file that is not a recording" 2 --export-openmetrics new.om theirs.prom
check "$T nothing made, no temporary" '[ ! -e new.om ] && ! ls -A | grep -q "^\.new\.om"'
