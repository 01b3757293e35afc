#!/usr/bin/env bash
# The driver-cost table: gobench on each SQLite driver (capi, the
# reference on SQLite's C API, one call into C per op with
# --capi-loop=false as the Go drivers' ops are, and the Go drivers) beside the bare C
# program on the same work, WAL at synchronous=$SYNC (NORMAL unless set),
# for PROCS processes and for one process alone, in REPEAT interleaved
# rounds (every program once per round, the order rotated). Per program:
# reads/s, read p50 (gobench's), CPU µs and context switches per op, and
# each driver's cost over capi in CPU µs per op; medians over the rounds.
#
# CPU and context switches are the whole program's (getrusage of every
# process of it: for gobench its workers and its coordinator), less the
# same program's run with one op per process (start-up, preload,
# spawning), over the extra ops.
#
#   bash bench/baseline/drivers.sh     # REPEAT=5 PROCS=25 QUERIES=20000 ONE=200000 SYNC=normal
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000} ONE=${ONE:-200000} SYNC=${SYNC:-normal}
. bench/baseline/build.sh
build_c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$REPEAT" "$PROCS" "$QUERIES" "$ONE" "$SYNC" <<'PY'
import json, os, re, resource, statistics, subprocess, sys

tmp, repeat, procs, queries, one, sync = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
db = os.path.join(tmp, "db")
drivers = ["capi", "mattn", "modernc", "ncruces"]

def run(cmd):
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    csw = after.ru_nvcsw - before.ru_nvcsw + after.ru_nivcsw - before.ru_nivcsw
    return out, cpu, csw

def program(name, p, q):
    if name == "C":
        return ["bin/baseline-c", db, str(p), str(q), "10000", "wal", sync]
    # capi one call per op, as each Go driver's ops are (--capi-loop=false):
    # what a driver costs is its calls' cost over capi's.
    per_op = ["--capi-loop=false"] if name == "capi" else []
    return ["bin/gobench", "mix", "--driver", name] + per_op + ["--procs", str(p), "--queries", str(q),
            "--journal", "wal", "--sync", sync, "--db", db, "-q", "--format", "json"]

def parse(name, out):
    if name == "C":
        return float(re.search(r"reads/s=(\S+)", out).group(1)), None
    rd = [o for o in json.loads(out)["phases"][0]["ops"] if o["kind"] == "read"][0]
    return rd["ops_per_sec"], rd["p50_us"]

med = statistics.median
for p, q in ((procs, queries), (1, one)):
    names = ["C"] + drivers
    res = {n: [] for n in names}
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            out, cpu, csw = run(program(name, p, q))
            _, cpu1, csw1 = run(program(name, p, 1))
            reads, p50 = parse(name, out)
            extra = p * (q - 1)
            res[name].append((reads, p50, (cpu - cpu1) * 1e6 / extra, (csw - csw1) / extra))
        print("%d process(es): round %d of %d done" % (p, r + 1, repeat), file=sys.stderr, flush=True)
    print("\n%d process(es) × %d ops, 95%% read / 5%% upsert, WAL, synchronous=%s, %d interleaved rounds, medians; load %s\n"
          % (p, q, sync.upper(), repeat, open("/proc/loadavg").read().split()[0]))
    print("| program | reads/s | vs C | read p50 | CPU µs/op | context switches/op | cost over capi, µs/op |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    c_reads = med(x[0] for x in res["C"])
    capi_cpu = med(x[2] for x in res["capi"])
    for name in names:
        v = res[name]
        reads, cpu, csw = med(x[0] for x in v), med(x[2] for x in v), med(x[3] for x in v)
        p50 = "–" if name == "C" else "%.2f µs" % med(x[1] for x in v)
        cost = "–" if name in ("C", "capi") else "%+.2f" % (cpu - capi_cpu)
        label = "C, SQLite C API (bare)" if name == "C" else "gobench, " + name
        print("| %s | %s | %.2f | %s | %.2f | %.3f | %s |" % (label, format(round(reads), ","), reads / c_reads, p50, cpu, csw, cost))
PY
