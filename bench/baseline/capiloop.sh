#!/usr/bin/env bash
# gobench's capi engine with and without its loop in C, beside the bare C
# program, on the ladder's work (25 processes, 95/5 mix, WAL,
# synchronous=NORMAL, 10,000 preloaded keys, 64-byte values):
#
#   C                    bench/baseline/c/baseline.c
#   gobench capi, per op gobench mix --driver capi --capi-loop=false: one
#                        call into C per op, timed in Go
#   gobench capi, loop   gobench mix --driver capi: the worker deals 4096 ops
#                        ahead and runs them in one call into C, which
#                        times each op
#
# Rounds are interleaved (each program once per round, the order
# rotated); figures are medians over the rounds (lowest–highest). CPU is
# the whole program's (getrusage of every process of it: for gobench its
# workers and its coordinator), less the same program's run with one op per
# process (start-up, preload, spawning), over the extra ops, as in
# ladder.sh; on a loaded machine it is the figure to trust.
#
#   bash bench/baseline/capiloop.sh     # ROUNDS=5 PROCS=25 QUERIES=20000
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000}
. bench/baseline/build.sh
build_c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$ROUNDS" "$PROCS" "$QUERIES" <<'PY'
import json, os, re, resource, statistics, subprocess, sys

tmp, rounds, procs, queries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = os.path.join(tmp, "db")

def gobench(*extra):
    return lambda q: ["bin/gobench", "mix", "--driver", "capi", "--procs", str(procs), "--queries", str(q),
                      "--journal", "wal", "--sync", "normal", "--db", db, "-q", "--format", "json"] + list(extra)

progs = [
    ("C", lambda q: ["bin/baseline-c", db, str(procs), str(q), "10000", "wal", "normal"]),
    ("gobench capi, per op (--capi-loop=false)", gobench("--capi-loop=false")),
    ("gobench capi, loop in C (4096 ops a call)", gobench()),
]

def run(cmd):
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

def reads(name, out):
    if name == "C":
        return float(re.search(r"reads/s=(\S+)", out).group(1))
    return [o for o in json.loads(out)["phases"][0]["ops"] if o["kind"] == "read"][0]["ops_per_sec"]

load = lambda: open("/proc/loadavg").read().split()[0]
print("%d processes × %d ops, 95%% read / 5%% upsert, WAL, synchronous=NORMAL, %d interleaved rounds, %d cores; load %s at the start"
      % (procs, queries, rounds, os.cpu_count(), load()), flush=True)
res = {name: [] for name, _ in progs}
for r in range(rounds):
    for name, cmd in progs[r % len(progs):] + progs[:r % len(progs)]:
        out, cpu = run(cmd(queries))
        _, cpu1 = run(cmd(1))
        res[name].append(dict(reads=reads(name, out), cpu=(cpu - cpu1) * 1e6 / (procs * (queries - 1))))
    print("round %d of %d done, load %s" % (r + 1, rounds, load()), file=sys.stderr, flush=True)

med = statistics.median
def spread(v, f):
    return "%s (%s–%s)" % (f % med(v), f % min(v), f % max(v))
c = res["C"]
print("| program | reads/s | CPU µs/op | C's CPU per op over its own |")
print("|---|---:|---:|---:|")
for name, _ in progs:
    rs = res[name]
    print("| %s | %s | %s | %s |" % (name, spread([x["reads"] for x in rs], "%.0f"), spread([x["cpu"] for x in rs], "%.2f"),
                                     spread([y["cpu"] / x["cpu"] for x, y in zip(rs, c)], "%.2f")))
print("load %s at the end" % load())
PY
