#!/usr/bin/env bash
# Where a capi op's user CPU goes at 25 worker processes, this tree against
# an earlier commit: perf samples (cpu-clock, user space: what perf allows
# an unprivileged user) of whole `gobench mix --driver capi` runs, WAL,
# synchronous=NORMAL, ROUNDS of each interleaved, each sample put in one
# bin by its call chain (leaf first, the first frame that says decides):
#
#   engine      SQLite's C, and the Go side of the calls into it (pkg/store)
#   harness     gobench's own code: pkg/workload, internal/wire, pkg/result,
#               internal/coord (the lottery, clocks, samples, frames,
#               decoding, histograms)
#   sysmon, scheduler, gc   the Go runtime's
#   other       start-up and the rest
#
# and printed as user µs per op (samples / frequency / ops), for the worker
# processes and the coordinator, with the median over the rounds. Kernel
# time is not sampled: compare it with CPU time per op (harness.sh).
#
#   bash bench/baseline/profile.sh [REV]   # REV defaults to HEAD; ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v perf >/dev/null || { echo "profile.sh needs perf" >&2; exit 1; }
REV=${1:-HEAD} ROUNDS=${ROUNDS:-3} PROCS=25 QUERIES=20000 HZ=4000
. bench/baseline/build.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rev=$(git rev-parse --short "$REV")
mkdir "$tmp/src" "$tmp/db"
git archive "$rev" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/gobench-$rev" ./cmd/gobench)

for r in $(seq "$ROUNDS"); do
	for exe in "$tmp/gobench-$rev" bin/gobench; do
		rm -f "$tmp"/db/*
		perf record -q -e cpu-clock:u -F "$HZ" -g -o "$tmp/perf.data" -- "$exe" mix --driver capi --procs "$PROCS" \
			--queries "$QUERIES" --journal wal --sync normal --db "$tmp/db/db" -q >/dev/null 2>&1
		name=$rev
		[ "$exe" = bin/gobench ] && name="this tree"
		echo "# $name"
		perf script -i "$tmp/perf.data" -F pid,ip,sym 2>/dev/null
	done
done | python3 -c '
import collections, re, statistics, sys
ops, hz = '"$PROCS"' * '"$QUERIES"', '"$HZ"'
G = "github.com/gobench/gobench/"
HARNESS = tuple(G + p for p in ("pkg/workload", "internal/wire", "pkg/result", "internal/coord"))
def bin_of(chain):
    for f in chain:
        if f.startswith(G + "pkg/store"): return "engine"
        if f.startswith(HARNESS): return "harness"
        if f.startswith("runtime.sysmon"): return "sysmon"
        if f.startswith("runtime.gcBgMarkWorker") or "gcDrain" in f or f.startswith("runtime.gcStart"): return "gc"
        if f in ("runtime.schedule", "runtime.findRunnable", "runtime.park_m", "runtime.mstart1", "runtime.goexit0"): return "scheduler"
        if f.startswith("runtime.main") or "doInit" in f: return "other"
    leaf = chain[0] if chain else ""
    if "." not in leaf or "[unknown]" in leaf or re.match(r"(sqlite3|gb_|pcache|wal|unix|btree|vdbe|__|pthread|mem|malloc|free|_int_|cfree|clock_)", leaf):
        return "engine"  # C code called from the engine
    return "other"
runs = collections.defaultdict(list)   # name -> [Counter]
name, coord, cur, chain = None, None, None, []
def close():
    if chain and cur is not None:
        cur[("coordinator" if pid == coord else "workers", bin_of(chain))] += 1
for line in sys.stdin:
    if line.startswith("# "):
        close(); chain = []
        name, coord, cur = line[2:].strip(), None, collections.Counter()
        runs[name].append(cur)
        continue
    m = re.match(r"\s*(\d+)\s*$", line)
    if m:
        close(); chain = []
        pid = int(m.group(1))
        if coord is None: coord = pid
        continue
    parts = line.split(None, 1)
    if len(parts) == 2: chain.append(parts[1].strip())
close()
bins = ["engine", "harness", "sysmon", "scheduler", "gc", "other"]
print("user µs per op, %d processes × %d ops, capi, WAL, synchronous=NORMAL; median of %d interleaved profiles each" % ('"$PROCS"', '"$QUERIES"', len(next(iter(runs.values())))))
print("| gobench | process | " + " | ".join(bins) + " | all |")
print("|---|---|" + "---:|" * (len(bins) + 1))
for name, cs in runs.items():
    for who in ("workers", "coordinator"):
        v = [statistics.median(c[(who, b)] for c in cs) / hz * 1e6 / ops for b in bins]
        print("| %s | %s | %s | %.3f |" % (name, who, " | ".join("%.3f" % x for x in v), sum(v)))
'
