#!/usr/bin/env bash
# What gobench's harness costs per op at 25 worker processes, this tree
# against an earlier commit, in one interleaved run: the null engine
# (whose ops cost nothing: all of it is harness, workers and coordinator)
# and capi (WAL, synchronous=NORMAL), beside the bare Go program running
# the same engine without the harness (bench/baseline -api store), so
# that the harness's share of a capi op is gobench's CPU per op less the
# bare program's, paired round by round.
#
# CPU is the whole program's (getrusage of every process of it, the
# coordinator included), less the same program's run with one op per
# process (start-up, preload, spawning), over the extra ops. Medians over
# the rounds, with the lowest and highest.
#
#   bash bench/baseline/harness.sh [REV]   # REV defaults to HEAD; ROUNDS=7 PROCS=25 NULLOPS=200000 CAPIOPS=20000
set -euo pipefail
cd "$(dirname "$0")/../.."
REV=${1:-HEAD} ROUNDS=${ROUNDS:-7} PROCS=${PROCS:-25} NULLOPS=${NULLOPS:-200000} CAPIOPS=${CAPIOPS:-20000}
. bench/baseline/build.sh
go build -o bin/baseline ./bench/baseline
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rev=$(git rev-parse --short "$REV")
mkdir "$tmp/src"
git archive "$rev" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/gobench-$rev" ./cmd/gobench)
mkdir "$tmp/db"

python3 - "$tmp" "$rev" "$ROUNDS" "$PROCS" "$NULLOPS" "$CAPIOPS" <<'PY'
import json, os, resource, statistics, subprocess, sys, time

tmp, rev, rounds, procs, nullops, capiops = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
db = os.path.join(tmp, "db", "db")
old, new = os.path.join(tmp, "gobench-" + rev), "bin/gobench"

def per_op(exe):
    """--capi-loop=false where exe has it: the harness measured is the per-op path's."""
    out = subprocess.run([exe, "mix", "--help"], capture_output=True, text=True).stdout
    return ["--capi-loop=false"] if "--capi-loop" in out else []

def gobench(exe, driver):
    extra = per_op(exe) if driver == "capi" else []
    def cmd(q):
        c = [exe, "mix", "--driver", driver, "--procs", str(procs), "--queries", str(q), "-q", "--format", "json"]
        return c + (["--journal", "wal", "--sync", "normal", "--db", db] + extra if driver == "capi" else [])
    return cmd

def bare(q):
    return ["bin/baseline", "-driver", "capi", "-api", "store", "-procs", str(procs), "-queries", str(q),
            "-journal", "wal", "-sync", "normal", "-db", db]

runs = [
    ("null", rev, gobench(old, "null"), nullops), ("null", "this tree", gobench(new, "null"), nullops),
    ("capi", rev, gobench(old, "capi"), capiops), ("capi", "this tree", gobench(new, "capi"), capiops),
    ("capi", "bare engine", bare, capiops),
]

def busy():
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(f[:8]) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")

def run(cmd):
    for f in os.listdir(os.path.join(tmp, "db")):
        os.remove(os.path.join(tmp, "db", f))
    before, b0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after, b1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), time.monotonic()
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return out, cpu, max(b1 - b0 - cpu, 0) / (t1 - t0)

res, outside = {}, []
print("%d processes, %d interleaved rounds, %d cores; load %s at the start" % (procs, rounds, os.cpu_count(), open("/proc/loadavg").read().split()[0]), flush=True)
for r in range(rounds):
    order = runs[r % len(runs):] + runs[:r % len(runs)]
    for driver, who, cmd, q in order:
        out, cpu, other = run(cmd(q))
        _, cpu1, _ = run(cmd(1))
        outside.append(other)
        whole = (cpu - cpu1) * 1e6 / (procs * (q - 1))
        workers = json.loads(out)["phases"][0]["cpu"]["us_per_op"] if who != "bare engine" else None
        res.setdefault((driver, who), []).append((whole, workers))
    print("round %d of %d done" % (r + 1, rounds), file=sys.stderr, flush=True)

med = statistics.median
def s(v):
    return "%.3f (%.3f–%.3f)" % (med(v), min(v), max(v))
print("| engine | gobench | CPU µs/op, whole program | workers' own, START to last op | the rest (coordinator) | harness, µs/op |")
print("|---|---|---:|---:|---:|---:|")
for driver, who, _, q in runs:
    v = res[(driver, who)]
    whole = [w for w, _ in v]
    if who == "bare engine":
        print("| %s | %s | %s | – | – | – |" % (driver, who, s(whole)))
        continue
    workers = [k for _, k in v]
    harness = whole if driver == "null" else [w - b for w, (b, _) in zip(whole, res[("capi", "bare engine")])]
    print("| %s | %s | %s | %s | %s | %s |" % (driver, who, s(whole), s(workers), s([w - k for w, k in v]), s(harness)))
for driver in ("null", "capi"):
    d = [a[0] - b[0] for a, b in zip(res[(driver, "this tree")], res[(driver, rev)])]
    print("%s: this tree less %s, paired by round: %s µs/op" % (driver, rev, s(d)))
print("other programs kept %.2f of the %d cores busy during the runs (median; lowest %.2f, highest %.2f)"
      % (med(outside), os.cpu_count(), min(outside), max(outside)))
PY
