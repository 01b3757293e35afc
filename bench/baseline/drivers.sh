#!/usr/bin/env bash
# The driver-cost table: one interleaved gobench matrix over the SQLite
# drivers (capi, the reference on SQLite's C API, and the Go drivers),
# REPEAT repeats, WAL at synchronous=NORMAL, for PROCS processes and for
# one process alone, beside the bare C program on the same work. Per
# driver: reads/s, read p50 and CPU µs per op (medians over the repeats),
# and its cost over capi in CPU µs per op. For C, CPU is the whole
# program's (setup included) from getrusage of its processes.
#
#   bash bench/baseline/drivers.sh     # REPEAT=5 PROCS=25 QUERIES=20000 ONE=200000
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000} ONE=${ONE:-200000}
. bench/baseline/build.sh
build_c
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
drivers=capi,mattn,modernc,ncruces

for procs in "$PROCS" 1; do
	q=$QUERIES
	[ "$procs" = 1 ] && q=$ONE
	echo "== $procs process(es) × $q ops, 95% read / 5% upsert, WAL, synchronous=NORMAL, $REPEAT interleaved repeats"
	for _ in $(seq "$REPEAT"); do
		rm -f "$tmp"/c.db*
		/usr/bin/time -f "%U %S" -o "$tmp/time" bin/baseline-c "$tmp/c.db" "$procs" "$q" 10000 wal normal >"$tmp/out"
		echo "$(sed -n 's/.*reads\/s=\([0-9]*\).*/\1/p' "$tmp/out") $(cat "$tmp/time")"
	done >"$tmp/c.txt"
	bin/gobench mix --driver "$drivers" --procs "$procs" --queries "$q" --journal wal --sync normal \
		--repeat "$REPEAT" --db "$tmp/g.db" -q --format json >"$tmp/g.json"
	python3 - "$tmp/c.txt" "$tmp/g.json" "$procs" "$q" <<'PY'
import json, statistics, sys
ctxt, gjson, procs, q = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ops = procs * q
c = [l.split() for l in open(ctxt) if l.strip()]
c_reads = statistics.median(float(x[0]) for x in c)
c_cpu = statistics.median((float(x[1]) + float(x[2])) * 1e6 / ops for x in c)
rows = []
suite = json.load(open(gjson))
for cell in suite["cells"]:
    runs = cell["runs"]
    drv = runs[0]["plan"]["driver"]
    reads, p50, cpu = [], [], []
    for r in runs:
        ph = r["phases"][0]
        rd = [o for o in ph["ops"] if o["kind"] == "read"][0]
        reads.append(rd["ops_per_sec"]); p50.append(rd["p50_us"]); cpu.append(ph["cpu"]["us_per_op"])
    rows.append((drv, statistics.median(reads), statistics.median(p50), statistics.median(cpu)))
ref = {d: cpu for d, _, _, cpu in rows}.get("capi")
print("| program | reads/s | vs C | read p50 | CPU µs/op | cost over capi, µs/op |")
print("|---|---:|---:|---:|---:|---:|")
print("| C, SQLite C API (bare, whole program) | %s | 1.00 | – | %.2f | – |" % (format(round(c_reads), ","), c_cpu))
for d, r, p, cpu in rows:
    cost = "–" if ref is None or d == "capi" else "%+.2f" % (cpu - ref)
    print("| gobench, %s | %s | %.2f | %.2f µs | %.2f | %s |" % (d, format(round(r), ","), r / c_reads, p, cpu, cost))
PY
done
