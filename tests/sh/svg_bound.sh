#!/bin/sh
# --export-svg of a dense signal (issue 30, part 18): the picture is bounded
# by its width, not by the signal.  Two recordings of 200,000 samples,
# written here as JSON Lines: a short recording repeated (a period of 4
# samples whose counters start over, so one interval in 4 has no rate:
# 400, 0, 100 MiB/s, none), with a stretch without the disk in the middle
# (a gap); and a long sawtooth (the read rate climbs from 0 to 400 MiB/s
# over 600 samples and falls back, the active list with it).  Each is
# exported at 1920x1080 and 320x240: the SVG is at most 1 MB, rsvg-convert
# renders it, it has a handful of <path> elements (a series is one, its
# gaps are subpaths: before, a NAN in nearly every px made a path a px,
# 7,069 paths and 1.19 MB for the first at 1920x1080), the read line has
# one subpath a stretch between gaps, and it
# still reaches the recording's highest and lowest read rate: its extreme
# y are where the disk axis puts them (from the axis' own tick labels).
#
# What the picture must reach is computed here from the JSON Lines
# (python3 below: rates.c's rule, a counter delta over the measured time),
# not by lrutop.
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d /tmp/lrutop-svgbound.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' INT TERM HUP
has() { command -v "$1" >/dev/null 2>&1; }
N=${SVG_BOUND_N:-200000}

# check.py gen KIND N OUT: a recording (KIND alt or saw) of N samples
# check.py expect REC OUT: the read rate's highest and lowest, MiB/s
# check.py svg SVG EXPECT GAPS: TAP lines about the picture's read line
cat >"$tmp/check.py" <<'EOF'
import json, re, sys

HAVE_MEM, HAVE_VM, HAVE_DISK = 1, 2, 8
TICK = 250000000  # 0.25 s
MIB = 1 << 20
SECT = 512

def gen(kind, n, out):
    head = {"lrutop_record": 1, "minor": 1, "version": "test", "kernel": "6.18.0",
            "host": "test", "page_size": 4096, "cpus": 2, "mem_total_kb": 4 << 20,
            "device": "vda", "device_how": "test", "cgroup": 2, "interval_s": 0.25,
            "argv": ["lrutop"], "start_wall": "2026-12-01T10:00:00.000Z",
            "start_mono_ns": 1000000000, "notes": ""}
    per_tick = lambda mibs: int(mibs * MIB * TICK / 1e9 / SECT)  # sectors
    rd = wr = pgd = sck = 0
    gap = range(n // 2, n // 2 + n // 40) if kind == "alt" else range(0)
    with open(out, "w") as f:
        print(json.dumps(head, separators=(",", ":")), file=f)
        for i in range(n):
            if kind == "alt":
                # 4 samples repeated as they are: the counters start over
                k = i % 4
                rd = per_tick((0, 400, 400, 500)[k])
                wr = per_tick((0, 50, 250, 250)[k])
                pgd = (0, 1000, 1100, 3100)[k]
                sck = (0, 4000, 4400, 12400)[k]
                act = (1, 3, 2, 1)[k] << 20  # KiB
            else:
                k = i % 600
                rd += per_tick(400 * k / 599)
                wr += per_tick(100 + 300 * k / 599)
                pgd += 10 * k
                sck += 40 * k + 1000
                act = (1 << 20) + k * 2000
            s = {"k": "sample", "t": 1000000000 + i * TICK, "run": -1, "ph": 0, "st": 0,
                 "hv": HAVE_MEM | HAVE_VM | (0 if i in gap else HAVE_DISK),
                 "mt": 4 << 20, "mf": (3 << 20) - act, "ma": 3 << 20, "ac": act, "in": 1 << 19,
                 "af": act, "if": 1 << 19, "aa": 0, "ia": 0, "ca": act + (1 << 19), "dy": 0,
                 "wb": 0, "swt": 0, "swf": 0, "pga": 0, "pgd": pgd, "sck": sck, "scd": 0,
                 "stk": sck, "std": 0, "mjf": 0, "pgi": 0, "pgo": 0, "swi": 0, "swo": 0}
            if i not in gap:
                s.update({"rio": rd // 8, "rse": rd, "wio": wr // 8, "wse": wr, "iom": 0,
                          "ifl": 0, "did": 1})
            print(json.dumps(s, separators=(",", ":")), file=f)

def expect(rec, out):
    prev, hi, lo = None, None, None
    for line in open(rec):
        d = json.loads(line)
        if d.get("k") != "sample":
            continue
        if prev and prev["hv"] & d["hv"] & HAVE_DISK and d["rse"] >= prev["rse"]:
            r = (d["rse"] - prev["rse"]) * SECT / MIB / ((d["t"] - prev["t"]) / 1e9)
            hi = r if hi is None else max(hi, r)
            lo = r if lo is None else min(lo, r)
        prev = d
    with open(out, "w") as o:
        print(hi, lo, file=o)

def tap(ok, name, why=""):
    print(("ok - " if ok else "not ok - ") + name + ("" if ok else ": " + why))

def points(d):
    """The vertices of path data made of M, L, H, V (absolute) and z."""
    x = y = 0.0
    pts, subpaths = [], 0
    for cmd, args in re.findall(r"([MLHVz])([^MLHVz]*)", d):
        v = [float(a) for a in args.replace(",", " ").split()]
        if cmd == "M":
            subpaths += 1
            x, y = v
        elif cmd == "L":
            x, y = v
        elif cmd == "H":
            x = v[0]
        elif cmd == "V":
            y = v[0]
        else:
            continue
        pts.append((x, y))
    return pts, subpaths

def num(s):
    return float(s[:-1]) * 1000 if s.endswith("k") else float(s)

def svg(name, path, exp_path, gaps):
    hi, lo = [float(w) for w in open(exp_path).read().split()]
    s = open(path).read()
    # the disk axis: its tick labels (text-anchor end) up to the memory
    # axis' "0"; a label's baseline is its tick's y + 0.35 font size
    # (svg_draw.c svg_y_ticks)
    ticks = []
    for y, fs, label in re.findall(r'<text x="[^"]*" y="([^"]*)" font-size="([^"]*)" '
                                   r'text-anchor="end"[^>]*>([^<]*)</text>', s):
        if ticks and label == "0":
            break
        ticks.append((num(label), float(y) - 0.35 * float(fs)))
    (v0, y0), (v1, y1) = ticks[0], ticks[-1]
    y_of = lambda v: y0 + (v - v0) / (v1 - v0) * (y1 - y0)
    reads = re.findall(r'<path fill="none" stroke="#0072b2"[^>]* d="([^"]*)"', s)
    tap(len(reads) == 1, name + " the read rate is one path", "%d paths" % len(reads))
    if not reads:
        return
    pts, subpaths = points(reads[0])
    tap(subpaths == gaps + 1, name + " its subpaths: one a stretch between %d gap(s)" % gaps,
        "%d subpaths" % subpaths)
    top = min(y for _, y in pts)
    bot = max(y for _, y in pts)
    tap(abs(top - y_of(hi)) <= 0.25,
        name + " it reaches the highest read rate, %.1f MiB/s (y %.1f)" % (hi, y_of(hi)),
        "its top is y %.1f" % top)
    tap(abs(bot - y_of(lo)) <= 0.25,
        name + " it reaches the lowest, %.1f MiB/s (y %.1f)" % (lo, y_of(lo)),
        "its bottom is y %.1f" % bot)

mode = sys.argv[1]
if mode == "gen":
    gen(sys.argv[2], int(sys.argv[3]), sys.argv[4])
elif mode == "expect":
    expect(sys.argv[2], sys.argv[3])
elif mode == "svg":
    svg(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
EOF
py() { python3 "$tmp/check.py" "$@"; }

# bound KIND GAPS: the recording KIND's pictures at both sizes
bound() {
	T="svg bound: $1:"
	R=$tmp/$1.jsonl
	py gen "$1" "$N" "$R"
	check "$T $N samples written" '[ "$(grep -c "\"k\":\"sample\"" "$R")" -eq "$N" ]'
	py expect "$R" "$tmp/$1.expect"
	for size in 1920x1080 320x240; do
		S=$tmp/$1-$size.svg
		lrt_run 300 --export-svg "$S" --size "$size" "$R"
		check "$T $size: exit 0, nothing on stderr" '[ "$rc" -eq 0 ] && [ ! -s "$tmp/err" ]' \
			"exit $rc: $(errline)"
		[ -s "$S" ] || continue
		b=$(wc -c <"$S")
		check "$T $size: the SVG is $b bytes <= 1 MB" '[ "$b" -le 1000000 ]'
		# the series (read, write, scan, deactivate, three memory bands),
		# the legend's ▼ and the clip marks of two series: no more
		np=$(grep -o '<path' "$S" | wc -l)
		check "$T $size: $np <path> elements <= 12 (a series is one)" '[ "$np" -le 12 ]'
		if has rsvg-convert; then
			check "$T $size: rsvg-convert renders it" \
				'rsvg-convert -w "${size%x*}" "$S" -o "$tmp/p.png" 2>"$tmp/rsvg" &&
				[ -s "$tmp/p.png" ] && [ ! -s "$tmp/rsvg" ]' "$(head -n 3 "$tmp/rsvg" 2>/dev/null)"
		else
			skip "$T $size: rsvg-convert renders it" "rsvg-convert not installed (librsvg2-bin)"
		fi
		py svg "$T $size:" "$S" "$tmp/$1.expect" "$2"
	done
}
bound alt 1
bound saw 0
