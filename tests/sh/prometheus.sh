#!/bin/sh
# --metrics-file through the real pair a fleet runs (issue 29 §4, §5):
# Debian's Prometheus scraping node_exporter's textfile collector, both on
# free loopback ports with their own config and data in a temporary
# directory, at a 1 s scrape.  A short batch session writes the file with
# --host-label; after lrutop exits, the scrapes go on until one has
# lrutop_up 0 (the file stays: it used to go at exit, and a short
# session's last runs never reached Prometheus).  Then every run's figures
# come back over the HTTP API (/api/v1/query): each run's elapsed equal to
# the session's --results within the text format's precision, with the
# session label of the file, the host label given and the limit labels;
# every run series of the file's last version is in Prometheus with its
# value, and the collector read the file without an error.  Both servers
# are stopped after; synchronisation is by polling the API.
. "$(dirname "$0")/lib.sh"

for t in prometheus prometheus-node-exporter curl python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		# tools/deps installs them (prometheus, prometheus-node-exporter, curl)
		skip "prometheus" "$t not installed (make deps)"
		exit 0
	fi
done

tmp=$(mktemp -d /tmp/lrutop-prom.XXXXXX) || exit 2
base=$(mktemp -d /var/tmp/lrt-prom.XXXXXX) || exit 2
ne_pid="" pr_pid=""
# stop_servers: TERM to the two we started (by pid), then wait for them
stop_servers() {
	for p in $ne_pid $pr_pid; do kill "$p" 2>/dev/null; done
	for p in $ne_pid $pr_pid; do wait "$p" 2>/dev/null; done
	ne_pid="" pr_pid=""
}
trap 'stop_servers; rm -rf "$tmp" "$base"' EXIT
trap 'exit 2' INT TERM HUP
cd "$tmp" || exit 2

# two free loopback ports, held open together so they differ
ports=$(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(" ".join(str(x.getsockname()[1]) for x in s))
') || exit 2
NE=127.0.0.1:${ports% *} PR=127.0.0.1:${ports#* }

mkdir textfile data
cat >prometheus.yml <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: lrutop
    static_configs:
      - targets: ['$NE']
EOF
prometheus-node-exporter --web.listen-address="$NE" --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$tmp/textfile" >ne.log 2>&1 &
ne_pid=$!
prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address="$PR" --log.level=warn >pr.log 2>&1 &
pr_pid=$!

# q PROMQL: the API's JSON answer in ./q.json (curl's status)
q() { curl -sf --max-time 5 -G "http://$PR/api/v1/query" --data-urlencode "query=$1" >q.json; }
# n_results: how many series ./q.json holds (0 for none or not an answer)
n_results() {
	python3 -c 'import json; print(len(json.load(open("q.json"))["data"]["result"]))' 2>/dev/null || echo 0
}
# has PROMQL: the query has at least one series
has() { q "$1" && [ "$(n_results)" -ge 1 ]; }

check "servers: Prometheus scrapes node_exporter (up == 1)" \
	'wait_for 30 "has \"up{job=\\\"lrutop\\\"} == 1\"" 0.2' \
	"$(tail -n 3 pr.log ne.log | tr '\n' '|')"

lrt_newdir
limit="-m 64M"
lrt_cgroot >/dev/null || limit=""
M=$tmp/textfile/lrutop.prom
# shellcheck disable=SC2086 # $limit is one option and its value, or nothing
timeout 120 "$LRUTOP" --batch -q -s rw_cp,mm_sync_cp --repeat 2 --size 16M $limit --dir "$d" \
	--metrics-file "$M" --host-label testhost --results r.csv </dev/null >out 2>err
rc=$?
check "lrutop: exit 0, the file left at exit with lrutop_up 0" \
	'[ "$rc" -eq 0 ] && grep -q "^lrutop_up{host=\"testhost\",session=\"[^\"]*\"} 0$" "$M"' \
	"exit $rc: $(head -c 300 err)"
session=$(sed -n 's/^lrutop_up{host="testhost",session="\([^"]*\)"} 0$/\1/p' "$M")

# a scrape after lrutop's exit: lrutop_up 0 reaches Prometheus
check "a scrape after the exit: lrutop_up 0 in Prometheus" \
	'wait_for 30 "has \"lrutop_up{host=\\\"testhost\\\"} == 0\"" 0.2' "$(cat q.json 2>&1 | head -c 300)"
q 'node_textfile_scrape_error'
check "node_exporter read the file without an error" \
	'python3 -c "import json, sys; r = json.load(open(\"q.json\"))[\"data\"][\"result\"]; sys.exit(not r or any(x[\"value\"][1] != \"0\" for x in r))"' \
	"$(head -c 300 q.json)"

# every run's elapsed, its labels, against --results; and every run series
# of the file's last version, with its value, in that same scrape
q "{__name__=~\"lrutop_run_.*|lrutop_runs_total|lrutop_bursts_total\",host=\"testhost\"}"
python3 - "$M" r.csv "$session" "${limit:+64M}" >py.out 2>&1 <<'EOF'
import csv, json, re, sys
path, results, session, mem = sys.argv[1:5]
got = {}
for x in json.load(open("q.json"))["data"]["result"]:
    m = dict(x["metric"])
    name = m.pop("__name__")
    m.pop("instance"), m.pop("job")  # the target's, Prometheus's own
    got[(name, tuple(sorted(m.items())))] = float(x["value"][1])
# the file: NAME{k="v",...} VALUE, a run's and a strategy's series
line = re.compile(r'^(lrutop_run_\w+|lrutop_runs_total|lrutop_bursts_total)\{(.*)\} (\S+)$')
pair = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
want = {}
for l in open(path):
    k = line.match(l.rstrip("\n"))
    if k:  # a label with an empty value is no label to Prometheus
        labels = [(a, b) for a, b in pair.findall(k.group(2)) if b]
        want[(k.group(1), tuple(sorted(labels)))] = float(k.group(3))
assert want, "no run series in the file"
missing = [k for k in want if k not in got]
assert not missing, "not in Prometheus: %s" % missing[:3]
diff = [(k, want[k], got[k]) for k in want if abs(want[k] - got[k]) > 1e-9 * max(1, abs(want[k]))]
assert not diff, "values differ: %s" % diff[:3]
# each run's elapsed = --results' (its cells have 4 decimals; the text 15 digits)
rows = list(csv.DictReader(open(results)))
assert len(rows) == 4, rows
el = {dict(k[1])["run"]: (dict(k[1]), v) for k, v in got.items() if k[0] == "lrutop_run_elapsed_seconds"}
assert sorted(el) == ["1", "2", "3", "4"], sorted(el)
for i, r in enumerate(rows, 1):
    lab, v = el[str(i)]
    assert abs(v - float(r["elapsed_s"])) <= 0.00005 + 1e-9, (i, v, r["elapsed_s"])
    assert lab["strategy"] == r["strategy"], (lab, r["strategy"])
    assert lab["session"] == session and lab["host"] == "testhost", lab
    # "" (none) is no label to Prometheus
    assert lab.get("mem_limit", "") == mem and "disk_limit" not in lab, lab
print(len(want))
EOF
prc=$? # check cannot read $? itself: its own assignments reset it
check "Prometheus has every run series of the last file ($(tail -n 1 py.out) series), each run's elapsed = --results', session/host/limit labels" \
	'[ "$prc" -eq 0 ]' "$(tail -n 3 py.out | tr '\n' '|' | cut -c1-300)"
# the last run in the newest scrape, the one with lrutop_up 0 (timestamp()
# of a selector is its newest sample's scrape time): the runs are kept,
# not only the values from before the exit
q "timestamp(lrutop_run_elapsed_seconds{host=\"testhost\",run=\"4\"}) - on() timestamp(lrutop_up{host=\"testhost\"}) >= 0"
check "the last run is in the scrape after the exit" '[ "$(n_results)" -eq 1 ]' "$(head -c 300 q.json)"

pids="$ne_pid $pr_pid"
stop_servers
check "both servers stopped" '! kill -0 ${pids% *} 2>/dev/null && ! kill -0 ${pids#* } 2>/dev/null' "$pids"
