#!/usr/bin/env bash
# Per-op counters that a loaded machine leaves alone (or nearly): CPU time,
# context switches and system calls by name, over each program's whole
# process tree, for the bare C program, gobench capi at an earlier commit
# and this tree's, on the ladder's work (25 processes, 95/5 mix, WAL,
# synchronous=NORMAL, 10,000 preloaded keys, 64-byte values). Each count
# is the run's less the same program's run of one op per process (start-up,
# preload, spawning), over the extra ops, as in capiloop.sh; rounds are
# interleaved, the order rotated; figures are medians (lowest–highest).
# perf stat counts the software events and system call tracepoints (this
# machine has no hardware counters: callgrind counts instructions).
#
#   bash bench/baseline/counters.sh [REV]   # REV defaults to HEAD; ROUNDS=5 PROCS=25 QUERIES=20000
set -euo pipefail
cd "$(dirname "$0")/../.."
REV=${1:-HEAD} ROUNDS=${ROUNDS:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000}
. bench/baseline/build.sh
build_c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rev=$(git rev-parse --short "$REV")
mkdir "$tmp/src" "$tmp/db"
git archive "$rev" | tar -x -C "$tmp/src"
(cd "$tmp/src" && go build -o "$tmp/gobench-$rev" ./cmd/gobench)

python3 - "$tmp" "$rev" "$ROUNDS" "$PROCS" "$QUERIES" <<'PY'
import os, resource, statistics, subprocess, sys

tmp, rev, rounds, procs, queries = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
db = os.path.join(tmp, "db", "db")
calls = ["pread64", "pwrite64", "fcntl", "fsync", "futex", "nanosleep", "clock_nanosleep", "epoll_pwait", "read", "write", "madvise"]
events = ["context-switches", "page-faults", "raw_syscalls:sys_enter"] + ["syscalls:sys_enter_" + c for c in calls]

def gobench(exe):
    return lambda q: [exe, "mix", "--driver", "capi", "--procs", str(procs), "--queries", str(q), "--journal", "wal",
                      "--sync", "normal", "--db", db, "-q", "--format", "json"]

progs = [
    ("C", lambda q: ["bin/baseline-c", db, str(procs), str(q), "10000", "wal", "normal"]),
    ("gobench " + rev, gobench(os.path.join(tmp, "gobench-" + rev))),
    ("gobench, this tree", gobench("bin/gobench")),
]

def run(cmd):
    for f in os.listdir(os.path.join(tmp, "db")):
        os.remove(os.path.join(tmp, "db", f))
    out = os.path.join(tmp, "perf.out")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["perf", "stat", "-x", ",", "-o", out, "-e", ",".join(events), "--"] + cmd, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = {"CPU µs": (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1e6}
    for line in open(out):
        f = line.strip().split(",")
        if len(f) > 2 and f[0].replace(".", "", 1).isdigit():
            got[f[2]] = float(f[0])
    return got

load = lambda: open("/proc/loadavg").read().split()[0]
print("%d processes × %d ops, 95%% read / 5%% upsert, WAL, synchronous=NORMAL, %d interleaved rounds, %d cores; load %s at the start"
      % (procs, queries, rounds, os.cpu_count(), load()), flush=True)
res = {name: [] for name, _ in progs}
for r in range(rounds):
    for name, cmd in progs[r % len(progs):] + progs[:r % len(progs)]:
        big, one = run(cmd(queries)), run(cmd(1))
        res[name].append({k: (big[k] - one.get(k, 0)) / (procs * (queries - 1)) for k in big})
    print("round %d of %d done, load %s" % (r + 1, rounds, load()), file=sys.stderr, flush=True)

print("| per op | " + " | ".join(n for n, _ in progs) + " |")
print("|---|" + "---:|" * len(progs))
for k in ["CPU µs"] + events:
    name = k.replace("syscalls:sys_enter_", "").replace("raw_syscalls:sys_enter", "system calls")
    cells = []
    for n, _ in progs:
        v = [x.get(k, 0) for x in res[n]]
        cells.append("%.3f (%.3f–%.3f)" % (statistics.median(v), min(v), max(v)))
    print("| %s | %s |" % (name, " | ".join(cells)))
print("load %s at the end" % load())
PY
