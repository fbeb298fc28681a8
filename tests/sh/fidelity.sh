#!/bin/sh
# Fidelity: what lrutop reports equals what the kernel counted.
#
# lrutop samples (`--batch -i 0.1 --csv F --record R --dir D`, D on the
# disk holding /var/tmp, so its default disk choice is under test too)
# while dd writes 256 MiB with O_DIRECT there, and a poller of ours
# (python3, below) reads /proc/meminfo and /proc/diskstats every
# millisecond or so, each reading stamped with CLOCK_MONOTONIC before and
# after it.  The recording holds the raw values lrutop read and the
# CLOCK_MONOTONIC time `t` its sampler stamped after reading them, so
# each tick's reads happened inside (t of the tick before, t): like is
# compared with like, whatever the machine does meanwhile.
#
#  * Disk: every tick's sectors written (the recording's `wse`) lies
#    between our diskstats readings just before and just after its tick
#    (the counter only grows: no tolerance); the CSV's write_mbs integrated
#    over the rows spanning dd, times the recording's own time deltas, is
#    the recording's sector delta (to the printed decimals: a rate is the
#    delta over the measured time), and both are at least the 256 MiB dd
#    wrote.
#  * Memory: the CSV's meminfo columns are the recording's raw values, row
#    for sample; and each tick's raw values lie within the meminfo readings
#    we took inside its tick (their min..max, widened by max(1 %, 4 MiB)
#    and by the largest step between two of them).  A tick during which
#    our poller was held up for over 50 ms (a busy machine) is not judged;
#    fewer than 4 ticks judged runs it all once more, saying why.
#  * Shape: every CSV row has the header's column count.
#  * SIGINT ends lrutop with status 130 and it leaves nothing behind in --dir.
#
# Other I/O on the disk (concurrent builds, journal commits, the files
# themselves) and other memory use are fine: lrutop measures the whole
# machine, and so do our readings, at the same moments.
. "$(dirname "$0")/lib.sh"

T=fidelity
DD_MIB=256
NAMES="disk: every tick's sectors within diskstats read around it|disk: write integral matches the recorded sectors|disk: at least ${DD_MIB} MiB|memory: the CSV's columns are the recording's values|memory: each tick matches /proc/meminfo read within it|csv: column count|SIGINT: exit 130|--dir: nothing left behind"

each_name() { # COMMAND REASON: COMMAND "$T NAME" REASON for every check
	printf '%s\n' "$NAMES" | tr '|' '\n' | while read -r _c; do "$1" "$T $_c" "$2"; done
}

work="" aux="" pid="" ppid=""
cleanup() {
	if [ -n "$pid" ] && ! proc_gone "$pid"; then kill -TERM "$pid" 2>/dev/null; fi
	if [ -n "$ppid" ] && ! proc_gone "$ppid"; then kill -TERM "$ppid" 2>/dev/null; fi
	[ -n "$work" ] && rm -rf "$work"
	[ -n "$aux" ] && rm -rf "$aux"
}
trap cleanup EXIT
trap 'exit 2' INT TERM HUP

# ---- which disk holds /var/tmp (lrutop's default for --dir there)? --------
disk=$(find_disk /var/tmp)
if [ -z "$disk" ] || ! grep -q " $disk " /proc/diskstats; then
	each_name skip "/var/tmp is not on a single block device"
	exit 0
fi
if ! command -v python3 >/dev/null 2>&1; then
	each_name skip "python3 not installed (make deps)"
	exit 0
fi

aux=$(mktemp -d /tmp/lrutop-fid.XXXXXX) || exit 2

# ---- the poller: readings of meminfo and of the disk's diskstats row -------
# poll.py DISK STOP OUT: until STOP exists (or 300 s), "ta tb MemFree Active
# Inactive Active(file) Inactive(file) Active(anon) Inactive(anon) Dirty
# Writeback sectors-written" a line into OUT, ta/tb CLOCK_MONOTONIC ns just
# before and after the two reads; OUT.ready once the first is taken.  The
# 1 ms sleep is its poll period.
cat >"$aux/poll.py" <<'PY'
import os, sys, time
disk, stop, out = sys.argv[1:4]
keys = [b"MemFree:", b"Active:", b"Inactive:", b"Active(file):", b"Inactive(file):",
        b"Active(anon):", b"Inactive(anon):", b"Dirty:", b"Writeback:"]
fm = os.open("/proc/meminfo", os.O_RDONLY)
fd = os.open("/proc/diskstats", os.O_RDONLY)
name = (" %s " % disk).encode()
rows, end = [], time.monotonic() + 300
while True:
    ta = time.monotonic_ns()
    m = os.pread(fm, 65536, 0)
    d = os.pread(fd, 1 << 20, 0)
    tb = time.monotonic_ns()
    kv = {}
    for line in m.split(b"\n"):
        f = line.split()
        if len(f) >= 2:
            kv[f[0]] = f[1]
    i = d.find(name)
    sect = d[i:].split(None, 10)[7] if i >= 0 else b"-1"
    rows.append(b"%d %d %s %s\n" % (ta, tb, b" ".join(kv.get(k, b"-1") for k in keys), sect))
    if len(rows) == 1:
        open(out + ".ready", "w").close()
    if os.path.exists(stop) or time.monotonic() > end:
        break
    time.sleep(0.001)
with open(out, "wb") as o:
    o.writelines(rows)
PY

# ---- the comparison ----------------------------------------------------------
# judge.py CSV RECORDING READINGS DD0 DD1 DD_MIB: TAP lines for the disk and
# memory checks ("# retry: WHY" and exit 3 when too few ticks could be
# judged for memory); DD0/DD1 CLOCK_MONOTONIC ns around dd.
cat >"$aux/judge.py" <<'PY'
import json, sys
csv, rec, rdg, dd0, dd1, ddmib = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
T = "fidelity"
MIB = 1048576
out, retry = [], None
def tap(ok, name, detail):
    out.append(("ok - %s %s" % (T, name)) if ok else ("not ok - %s %s: %s" % (T, name, detail)))

samples = [o for o in map(json.loads, open(rec)) if o.get("k") == "sample"]
lines = [l.rstrip("\n").split(",") for l in open(csv)]
hdr, rows = lines[0], lines[1:]
col = {n: i for i, n in enumerate(hdr)}
reads = []
for l in open(rdg):
    f = l.split()
    reads.append((int(f[0]), int(f[1]), [int(x) for x in f[2:11]], int(f[11])))
MEM = [("mem_free_kb", "mf", 0), ("active_kb", "ac", 1), ("inactive_kb", "in", 2),
       ("active_file_kb", "af", 3), ("inactive_file_kb", "if", 4), ("active_anon_kb", "aa", 5),
       ("inactive_anon_kb", "ia", 6), ("dirty_kb", "dy", 7), ("writeback_kb", "wb", 8)]

# the readings around a tick (lo, hi): the last one wholly before lo, every
# one between, the first one wholly after hi; None if ours do not reach
def around(lo, hi):
    first = last = None
    for j, r in enumerate(reads):
        if r[1] <= lo:
            first = j
        if r[0] >= hi:
            last = j
            break
    if first is None or last is None:
        return None
    return reads[first:last + 1]

n = min(len(samples), len(rows))
t0 = samples[0]["t"] if samples else 0
# ---- memory: the CSV's columns are the recording's values ----
bad = []
if len(samples) != len(rows):
    bad.append("%d samples recorded, %d CSV rows" % (len(samples), len(rows)))
for k in range(n):
    s, r = samples[k], rows[k]
    if abs(float(r[col["t_s"]]) - (s["t"] - t0) / 1e9) > 2e-6:
        bad.append("row %d: t_s %s, recorded t %.6f" % (k + 1, r[col["t_s"]], (s["t"] - t0) / 1e9))
    for c, key, _ in MEM:
        if c not in col or r[col[c]] != str(s.get(key)):
            bad.append("row %d: %s=%s, recorded %s=%s" % (k + 1, c, r[col[c]] if c in col else "missing", key, s.get(key)))
tap(n > 0 and not bad, "memory: the CSV's columns are the recording's values", "; ".join(bad[:4]) or "no rows")

# ---- disk: every tick's sectors between the readings around it ----
bad, judged = [], 0
for k in range(len(samples)):
    lo = samples[k - 1]["t"] if k else reads[0][1]
    w = around(lo, samples[k]["t"])
    if w is None:
        continue
    judged += 1
    a, b = w[0][3], w[-1][3]
    if not a <= samples[k]["wse"] <= b:
        bad.append("tick %d: wse %d, diskstats %d..%d" % (k, samples[k]["wse"], a, b))
tap(judged >= 4 and not bad, "disk: every tick's sectors within diskstats read around it",
    "; ".join(bad[:4]) or "%d ticks judged" % judged)

# ---- disk: the rows spanning dd, A (the last before it) + 1 .. B ----
A = max([k for k in range(n) if samples[k]["t"] < dd0], default=None)
B = min([k for k in range(1, n) if samples[k - 1]["t"] > dd1], default=None)
if A is None or B is None:
    for c in ("disk: write integral matches the recorded sectors", "disk: at least %d MiB" % ddmib):
        tap(False, c, "no sample before dd (%s) or after it (%s) in %d" % (A, B, n))
else:
    integ = err = 0.0
    for k in range(A + 1, B + 1):
        w = rows[k][col["write_mbs"]]
        dt = (samples[k]["t"] - samples[k - 1]["t"]) / 1e9
        d = w.partition(".")[2]
        integ += float(w) * dt
        err += 10 ** -len(d) / 2 * dt
    rec_mib = (samples[B]["wse"] - samples[A]["wse"]) * 512 / MIB
    err += rec_mib * 1e-9
    det = "CSV %.4f MiB (+-%.4f), recorded %.4f MiB, rows %d..%d" % (integ, err, rec_mib, A + 2, B + 1)
    out.append("# " + det)
    tap(abs(integ - rec_mib) <= err, "disk: write integral matches the recorded sectors", det)
    tap(rec_mib >= ddmib and integ >= ddmib - err, "disk: at least %d MiB" % ddmib, det)

# ---- memory: each tick within the meminfo readings of its tick ----
bad, judged, holes, note = [], 0, 0, ""
for k in range(len(samples)):
    lo = samples[k - 1]["t"] if k else reads[0][1]
    w = around(lo, samples[k]["t"])
    if w is None:
        continue
    gap = max(w[j + 1][0] - w[j][1] for j in range(len(w) - 1))
    if gap > 50e6:
        holes += 1
        continue
    judged += 1
    for c, key, i in MEM:
        v = [r[2][i] for r in w]
        mn, mx = min(v), max(v)
        step = max(abs(v[j + 1] - v[j]) for j in range(len(v) - 1))
        tol = max(4096, mx * 0.01, step)
        x = samples[k].get(key)
        if x is None or x < mn - tol or x > mx + tol:
            bad.append("tick %d: %s %s, meminfo %d..%d (tol %d)" % (k, c, x, mn, mx, tol))
        if not note and k == len(samples) - 1:
            note = "last tick: " + " ".join("%s=%s[%d..%d]" % (c, samples[k].get(key),
                min(r[2][i] for r in w), max(r[2][i] for r in w)) for c, key, i in MEM)
if note:
    out.append("# " + note)
out.append("# memory: %d ticks judged, %d with our poller held up > 50 ms" % (judged, holes))
if judged < 4 and not bad:
    retry = "only %d ticks without a hole > 50 ms in our readings (%d with one): the poller was held up" % (judged, holes)
else:
    tap(judged >= 4 and not bad, "memory: each tick matches /proc/meminfo read within it",
        "; ".join(bad[:4]) or "%d ticks judged" % judged)
print("\n".join(out))
if retry:
    print("# retry: " + retry)
    sys.exit(3)
PY

mono() { python3 -c 'import time; print(time.monotonic_ns())'; }
rows() { # data rows in the CSV (complete lines only)
	_l=$( { wc -l <"$csv"; } 2>/dev/null) || _l=0
	ROWS=$((${_l:-0} > 0 ? _l - 1 : 0))
}
# An asynchronous command in sh starts with SIGINT ignored; reset it so the
# SIGINT check tests lrutop rather than the shell's job rules.
E=""
env --default-signal=INT true 2>/dev/null && E="env --default-signal=INT"

# one_run LAST: the whole run and its checks; 3 when the memory check asks
# for another run and LAST is 0 (its reason said, nothing counted), 1 when a
# step failed (every check said)
one_run() {
	[ -n "$work" ] && rm -rf "$work"
	work=$(mktemp -d /var/tmp/lrutop-fid.XXXXXX) || exit 2
	csv=$work/samples.csv
	rec=$aux/rec.jsonl
	rm -f "$rec" "$aux/stop" "$aux/readings" "$aux/readings.ready"
	python3 "$aux/poll.py" "$disk" "$aux/stop" "$aux/readings" 2>"$aux/poll.err" &
	ppid=$!
	if ! wait_for 10 "[ -e '$aux/readings.ready' ]" 0.01; then
		each_name notok "the poller took no reading in 10 s: $(head -n 2 "$aux/poll.err")"
		return 1
	fi
	$E "$LRUTOP" --batch -i 0.1 --csv "$csv" --record "$rec" --dir "$work" \
		</dev/null >"$aux/stdout" 2>"$aux/stderr" &
	pid=$!
	if ! wait_for 10 'rows; [ "$ROWS" -ge 2 ]' 0.02; then
		each_name notok "no 2 CSV rows within 10 s; stderr: $(head -n 3 "$aux/stderr")"
		return 1
	fi
	dd0=$(mono)
	if ! timeout 120 dd if=/dev/zero of="$work/dd.bin" bs=1M count=$DD_MIB oflag=direct 2>"$aux/dd.err"; then
		each_name notok "dd failed: $(tail -n 1 "$aux/dd.err")"
		return 1
	fi
	# O_DIRECT: every byte has reached the disk (and its counter) when dd returns
	dd1=$(mono)
	rm -f "$work/dd.bin"
	rows
	# ticks after dd, for the integral's last row and more memory ticks
	_want=$((ROWS + 10))
	if ! wait_for 10 'rows; [ "$ROWS" -ge "$_want" ]' 0.05; then
		each_name notok "no 10 further CSV rows after dd within 10 s"
		return 1
	fi
	kill -INT "$pid"
	if wait_for 10 "proc_gone $pid" 0.02; then
		wait "$pid"
		rc=$?
		pid=""
		sigint=$rc
	else
		sigint="still running 10 s after SIGINT"
	fi
	: >"$aux/stop"
	wait_for 10 "proc_gone $ppid" 0.02
	wait "$ppid"
	ppid=""
	[ -s "$aux/readings" ] || {
		each_name notok "the poller wrote nothing: $(head -n 2 "$aux/poll.err")"
		return 1
	}
	python3 "$aux/judge.py" "$csv" "$rec" "$aux/readings" "$dd0" "$dd1" "$DD_MIB" >"$aux/judge" 2>&1
	jrc=$?
	if [ "$jrc" -eq 3 ] && [ "$1" -eq 0 ]; then
		grep '^#' "$aux/judge"
		return 3
	fi
	cat "$aux/judge"
	[ "$jrc" -eq 3 ] && notok "$T memory: each tick matches /proc/meminfo read within it" \
		"in two runs too few ticks could be judged (see the retry lines)"
	[ "$jrc" -eq 0 ] || [ "$jrc" -eq 3 ] ||
		notok "$T the comparison ran" "exit $jrc: $(tail -n 2 "$aux/judge" | tr '\n' '|')"
	return 0
}

one_run 0
r=$?
[ "$r" -eq 3 ] && { one_run 1; r=$?; }
[ "$r" -eq 1 ] && exit 1

[ "$sigint" = 130 ] && ok "$T SIGINT: exit 130" ||
	notok "$T SIGINT: exit 130" "exit $sigint; stderr: $(head -n 5 "$aux/stderr" | tr '\n' '|')"

# ---- shape ---------------------------------------------------------------
shape=$(awk -F, 'NR == 1 { h = NF; next } NF != h { bad++; if (!first) first = NR ": " NF }
	END { if (NR < 2) print "no rows"; else if (bad) printf "%d rows differ from the header (%d cols), first line %s\n", bad, h, first }' "$csv")
[ -z "$shape" ] && ok "$T csv: column count" || notok "$T csv: column count" "$shape"

# ---- nothing left behind -------------------------------------------------
left=$(cd "$work" && ls -A | grep -vx samples.csv | tr '\n' ' ')
[ -z "$left" ] && ok "$T --dir: nothing left behind" || notok "$T --dir: nothing left behind" "$left"

exit 0
