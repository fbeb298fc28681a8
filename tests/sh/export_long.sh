#!/bin/sh
# --export-svg of a long recording (issue 19; export_reduce.h): a recording
# of many more samples than the picture's 1720 columns, written by the
# bench's generator (bench/record_size.c: the real recorder, a demotion
# burst every 40 samples of every copy phase), plain and gzip'd, is drawn
# reduced to the columns.  The SVG stays under 1 MB and renders; the burst
# marks stand for every burst of the recording (their data-n summed) and
# each burst has a mark in its column; every phase change is a line in its
# column; the export's peak RSS is bounded; and the scales of a reduced
# picture are those of the same recording drawn at full resolution.
#
# What the picture must hold is computed here, from the JSON Lines, by
# tools of our own (python3 below: burst.h's rule on consecutive samples,
# the event lines, x_of's time axis) -- not by lrutop, so a reducer that
# drops or double-counts a burst cannot agree with itself.
. "$(dirname "$0")/lib.sh"

T="export long:"
N=${EXPORT_LONG_N:-30000} # samples: 0.83 h at 10 Hz, 17 per column
NFULL=12000               # drawn whole at 16384x9216 (14,677 columns)
GEN=$BUILD/bench/record_size
if [ ! -x "$GEN" ]; then
	notok "$T the generator" "$GEN not built (make $GEN; the tests target builds it)"
	exit 1
fi
tmp=$(mktemp -d /tmp/lrutop-export-long.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
has() { command -v "$1" >/dev/null 2>&1; }

R=$tmp/long.jsonl
"$GEN" --out "$R" -n "$N" -i 0.1 >"$tmp/gen.out" 2>&1
check "$T record_size writes $N samples" '[ -s "$R" ]' "$(head -c 300 "$tmp/gen.out")"
[ -s "$R" ] || exit 1
# the same recording gzip'd: what it must show is what the plain one must
gzip -1 -c "$R" >"$tmp/long.jsonl.gz"
"$GEN" --out "$tmp/full.jsonl" -n "$NFULL" -i 0.1 >"$tmp/gen.out" 2>&1 ||
	notok "$T record_size writes $NFULL samples" "$(head -c 300 "$tmp/gen.out")"

# check.py MODE ARGS: the checks that read the JSON Lines and the SVG.
#  expect REC OUT: what the recording holds, as KEY VALUE lines in OUT
#    (samples, the span drawn, bursts and their times, events and theirs)
#  svg NAME SVG EXPECT [merged]: TAP lines about SVG against EXPECT (merged:
#    and some mark stands for several bursts)
#  labels SVG: the y axes' tick labels, in the order drawn
#  rss OUT CMD...: runs CMD, its peak RSS (getrusage of the children, KiB)
#    into OUT; exits with CMD's status
cat >"$tmp/check.py" <<'EOF'
import bisect, gzip, json, re, resource, subprocess, sys

BURST_PER_S = 0.25  # burst.h
BURST_V1_HELD = 0.25
HAVE_MEM, HAVE_VM, HAVE_CG, HAVE_CG_DEACT, HAVE_MGLRU = 1, 2, 1 << 7, 1 << 8, 1 << 16

def delta(a, b):  # rates.c rate_delta
    if b >= a:
        return b - a
    if 0xC0000000 <= a <= 0xFFFFFFFF and b < 0x40000000:
        return 0xFFFFFFFF - a + b + 1
    return -1

def burst(a, b):  # burst.c burst_between, without MGLRU (not in these recordings)
    if b["t"] <= a["t"]:
        return False
    dt = (b["t"] - a["t"]) / 1e9
    both = a["hv"] & b["hv"]
    if both & HAVE_MGLRU:
        raise SystemExit("an MGLRU recording: this test's rule is burst.h's for the lists")
    if both & HAVE_CG and b["gli"]:
        if both & HAVE_CG_DEACT:
            d = delta(a["gpd"], b["gpd"])
            return d > 0 and d / dt >= BURST_PER_S * b["gli"] / 4096.0
        if b["gaf"] >= a["gaf"]:
            return False
        fell = a["gaf"] - b["gaf"]
        grew = b["gif"] - a["gif"]
        lim = b["gli"]
        return (fell / dt >= BURST_PER_S * lim and a["gaf"] - a["gdy"] >= BURST_V1_HELD * lim
                and grew >= fell / 2)
    if not both & HAVE_VM or not b["hv"] & HAVE_MEM:
        return False
    d = delta(a["pgd"], b["pgd"])
    watched = b["mt"] / 4.0
    return d > 0 and watched > 0 and d / dt >= BURST_PER_S * watched

def expect(rec, out):
    prev, n, t0, t1, bursts, events = None, 0, None, None, [], []
    opener = open
    if rec.endswith(".gz"):
        opener = gzip.open
    with opener(rec, "rt") as f:
        for line in f:
            d = json.loads(line)
            k = d.get("k")
            if k == "sample":
                n += 1
                t0 = d["t"] if t0 is None else t0
                t1 = d["t"]
                if prev is not None and burst(prev, d):
                    bursts.append(d["t"])
                prev = d
            elif k == "event":
                events.append((d["t"], d["phase"]))
    # what the picture can show: the events within the samples' span
    events = [e for e in events if t0 <= e[0] <= t1]
    with open(out, "w") as o:
        print("samples", n, file=o)
        print("span", t0, t1, file=o)
        print("bursts", len(bursts), *bursts, file=o)
        print("events", len(events), *["%d:%s" % e for e in events], file=o)

def load(path):
    e = {}
    for line in open(path):
        w = line.split()
        e[w[0]] = w[1:]
    return e

def tap(ok, name, why=""):
    print(("ok - " if ok else "not ok - ") + name + ("" if ok else ": " + why))

def svg(name, path, exp_path, merged=False):
    e = load(exp_path)
    s = open(path).read()
    m = re.search(r'<svg[^>]* width="(\d+)" height="(\d+)"', s)
    W, H = float(m.group(1)), float(m.group(2))
    u = min(W / 1920, H / 1080)
    L, R = 150 * u, W - 50 * u  # svg.c svg_write
    t0, t1 = int(e["span"][0]), int(e["span"][1])
    x_of = lambda t: L + (t - t0) / (t1 - t0) * (R - L)  # svg_draw.c svg_x_of
    # the bursts: ▼ paths with data-n (reduced) in the memory chart
    marks = [(int(n), float(x)) for n, x in re.findall(r'<path data-n="(\d+)" d="M([0-9.]+) ', s)]
    want = int(e["bursts"][0])
    got = sum(n for n, _ in marks)
    tap(want > 0 and got == want, name + " the burst marks stand for the recording's %d bursts" % want,
        "data-n sum %d over %d marks" % (got, len(marks)))
    if merged:  # the sum above is of counts, not of marks
        tap(max(n for n, _ in marks) > 1, name + " some marks stand for several bursts",
            "every data-n is 1: the columns are too wide for this recording")
    # each burst in its column: a mark within two px (a bucket is ~1 px; its
    # mark is at its first burst)
    xs = sorted(x for _, x in marks)
    far = []
    for t in e["bursts"][1:]:
        x = x_of(int(t))
        i = bisect.bisect_left(xs, x - 2)
        if i == len(xs) or xs[i] > x + 2:
            far.append("%.1f" % x)
    tap(not far, name + " every burst has a mark within 2 px of its time",
        "%d without: x %s" % (len(far), " ".join(far[:8])))
    # the phase changes: two paths (prepare solid, the others dashed), data-n
    # their events, a vertical line a px
    paths = re.findall(r'<path class="phase" data-n="(\d+)"[^>]*?( stroke-dasharray="[^"]*")? d="([^"]*)"', s)
    wantp = int(e["events"][0])
    gotp = sum(int(n) for n, _, _ in paths)
    tap(gotp == wantp, name + " the phase lines stand for the recording's %d phase changes" % wantp,
        "data-n sum %d over %d paths" % (gotp, len(paths)))
    lines = {False: [], True: []}
    for _, dash, d in paths:
        lines[bool(dash)] += [float(x) for x in re.findall(r"M([0-9.]+) ", d)]
    for k in lines:
        lines[k].sort()
    miss = []
    for ev in e["events"][1:]:
        t, ph = ev.split(":")
        xs2, x = lines[ph != "prepare"], x_of(int(t))
        i = bisect.bisect_left(xs2, x - 1)
        if i == len(xs2) or xs2[i] > x + 1:
            miss.append("%s@%.1f" % (ph, x))
    tap(wantp > 0 and not miss, name + " every phase change is a line in its px",
        "%d missing: %s" % (len(miss), " ".join(miss[:8])))

def labels(path):
    """The y axes' tick labels, in the order drawn (text-anchor end)."""
    s = open(path).read()
    return re.findall(r'<text [^>]*text-anchor="end"[^>]*>([^<]*)</text>', s)

def rss(out, cmd):
    """CMD (its stdout and stderr as ours), its peak RSS in KiB into OUT."""
    try:
        rc = subprocess.run(cmd, timeout=300).returncode  # killed, not left, at the limit
    except subprocess.TimeoutExpired:
        print("lrutop: timed out after 300 s", file=sys.stderr)
        rc = 124
    with open(out, "w") as o:
        print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=o)
    return rc

mode = sys.argv[1]
if mode == "expect":
    expect(sys.argv[2], sys.argv[3])
elif mode == "svg":
    svg(sys.argv[2], sys.argv[3], sys.argv[4], len(sys.argv) > 5)
elif mode == "labels":
    print(" ".join(labels(sys.argv[2])))
elif mode == "rss":
    sys.exit(rss(sys.argv[2], sys.argv[3:]))
EOF
py() { python3 "$tmp/check.py" "$@"; }

py expect "$R" "$tmp/expect"
ns=$(sed -n 's/^samples //p' "$tmp/expect")
nb=$(sed -n 's/^bursts \([0-9]*\).*/\1/p' "$tmp/expect")
check "$T $ns samples, $nb bursts (a burst every 40 samples of a copy)" \
	'[ "$ns" = "$N" ] && [ "$nb" -ge $((N / 240)) ]' "samples '$ns', bursts '$nb'"

# long_svg NAME REC: exports REC at 1920x1080 and checks the picture and
# the export's memory: bounded by the picture, not the recording (27 MiB
# under ASan, 14 without, at 30k samples)
long_svg() {
	_s=$tmp/$1.svg
	python3 "$tmp/check.py" rss "$tmp/rss" "$LRUTOP" --export-svg "$_s" "$2" \
		</dev/null >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$T $1: exit 0, nothing on stderr" '[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]' "exit $rc: $(errline)"
	[ -s "$_s" ] || return
	_b=$(wc -c <"$_s")
	check "$T $1: the SVG is $_b bytes <= 1 MB" '[ "$_b" -le 1000000 ]'
	check "$T $1: reduced (burst marks say data-n)" 'grep -q "<path data-n=" "$_s"'
	if has rsvg-convert; then
		check "$T $1: rsvg-convert renders it" \
			'rsvg-convert -w 960 "$_s" -o "$tmp/$1.png" 2>"$tmp/rsvg" && [ -s "$tmp/$1.png" ]' \
			"$(head -n 3 "$tmp/rsvg" 2>/dev/null)"
	else
		notok "$T $1: rsvg-convert renders it" "rsvg-convert not installed (make deps: librsvg2-bin)"
	fi
	py svg "$T $1:" "$_s" "$tmp/expect"
	_kib=$(cat "$tmp/rss")
	_mib=$(awk -v k="$_kib" 'BEGIN { printf "%.1f", k / 1024 }')
	check "$T $1: peak RSS $_mib MiB <= 64 MiB" '[ "$_kib" -le 65536 ]'
}
long_svg plain "$R"
long_svg gzip "$tmp/long.jsonl.gz"

# a small picture: 286 columns of 105 samples, several bursts to a column,
# so the marks' data-n must be counts (a bucket's, then a px's) to add up
T="export long: 320x240:"
lrt_run 300 --export-svg "$tmp/small.svg" --size 320x240 "$R"
check "$T exit 0" '[ "$rc" -eq 0 ] && [ -s "$tmp/small.svg" ]' "exit $rc: $(errline)"
[ -s "$tmp/small.svg" ] && py svg "$T" "$tmp/small.svg" "$tmp/expect" merged

# reduced and whole agree on the scales: a recording of NFULL samples is
# reduced at 1920x1080 (1,720 columns) and drawn whole at 16384x9216
# (14,677), the same layout in units of the picture
T="export long: $NFULL samples, reduced and whole:"
lrt_run 300 --export-svg "$tmp/red.svg" "$tmp/full.jsonl"
check "$T reduced: exit 0" '[ "$rc" -eq 0 ] && grep -q "<path data-n=" "$tmp/red.svg"' "exit $rc: $(errline)"
lrt_run 300 --export-svg "$tmp/whole.svg" --size 16384x9216 "$tmp/full.jsonl"
check "$T whole: exit 0, every sample drawn (no data-n)" \
	'[ "$rc" -eq 0 ] && [ -s "$tmp/whole.svg" ] && ! grep -q "data-n=" "$tmp/whole.svg"' "exit $rc: $(errline)"
lr=$(py labels "$tmp/red.svg")
lw=$(py labels "$tmp/whole.svg")
check "$T the axes' labels are the same ($lr)" '[ -n "$lr" ] && [ "$lr" = "$lw" ]' "whole: '$lw'"
# the line under the title: the span (the time axis) and the samples
sub() { grep -o '<text[^>]*>[^<]*</text>' "$1" | sed -n 2p | sed 's/<[^>]*>//g'; }
sr=$(sub "$tmp/red.svg")
sw=$(sub "$tmp/whole.svg")
check "$T the same span and samples ($sr)" '[ -n "$sr" ] && [ "$sr" = "$sw" ]' "whole: '$sw'"
py expect "$tmp/full.jsonl" "$tmp/expect.full"
py svg "$T reduced:" "$tmp/red.svg" "$tmp/expect.full"
