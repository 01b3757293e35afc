#!/usr/bin/env bash
# The ladder: the same work (the classic 25-process 95/5 mix, WAL,
# synchronous=NORMAL, 10,000 preloaded keys, 64-byte values) from the bare
# C program up to gobench, one rung at a time, so that each rung's cost
# shows against the one below it:
#
#   C                     bench/baseline/c/baseline.c, single-threaded processes
#   C, multi-threaded     the same, each process with one idle thread, as a
#                         Go process always is
#   Go, loop in C (all)   gobench's capi engine; the child deals its ops in Go
#                         and runs all of them in one call into C, which
#                         times each op (sqlite.RunInC)
#   Go, loop in C (256)   the same, one call into C per 256 ops
#   Go, engine (bare)     gobench's engine driven op by op from Go (store.Conn),
#                         no samples, no pipes, no coordinator
#   gobench, capi loop    gobench mix --driver capi: its loop in C, up to
#                         4096 ops a call, each op timed in C and sampled
#   gobench, capi         gobench mix --driver capi --capi-loop=false: a
#                         cgo call per op
#
# Rounds are interleaved (every rung once per round, the order rotated);
# figures are medians over the rounds, and "vs C" is the median of each
# round's ratio to C's reads/s in that round. CPU and context switches are
# the whole program's (getrusage of this script's children: every process
# of the program, the coordinator included), less the same program's run
# with one op per process (start-up, preload, spawning), divided by the
# extra ops; "loop" CPU and context switches are the worker processes' own
# from release to finish (the bare programs' children report theirs,
# gobench's workers phases[].cpu; gobench records no context switches).
#
#   bash bench/baseline/ladder.sh     # ROUNDS=5 PROCS=25 QUERIES=20000
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000}
. bench/baseline/build.sh
build_c
go build -o bin/baseline ./bench/baseline
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$ROUNDS" "$PROCS" "$QUERIES" <<'PY'
import json, os, re, resource, statistics, subprocess, sys, time

tmp, rounds, procs, queries = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
db = os.path.join(tmp, "db")

def c_prog(extra):
    return lambda q: ["bin/baseline-c", db, str(procs), str(q), "10000", "wal", "normal"] + extra

def go_prog(*args):
    return lambda q: ["bin/baseline", "-driver", "capi", "-procs", str(procs), "-queries", str(q),
                      "-journal", "wal", "-sync", "normal", "-db", db] + list(args)

def gobench(*extra):
    return lambda q: ["bin/gobench", "mix", "--driver", "capi", "--procs", str(procs), "--queries", str(q),
                      "--journal", "wal", "--sync", "normal", "--db", db, "-q", "--format", "json"] + list(extra)

rungs = [
    ("C", c_prog([])),
    ("C, multi-threaded", c_prog(["threads"])),
    ("Go, loop in C (all ops, 1 call)", go_prog("-api", "cloop", "-batch", "0")),
    ("Go, loop in C (256 ops a call)", go_prog("-api", "cloop", "-batch", "256")),
    ("Go, gobench's engine (bare)", go_prog("-api", "store")),
    ("gobench, capi loop in C", gobench()),
    ("gobench, capi", gobench("--capi-loop=false")),
]

def busy():
    """The machine's busy CPU seconds so far (/proc/stat), all programs'."""
    f = [int(x) for x in open("/proc/stat").readline().split()[1:]]
    return (sum(f[:8]) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")  # all but idle and iowait

def run(cmd):
    """Runs cmd on a fresh database; returns its output, the user and
    system CPU seconds and context switches of all its processes, and the
    cores other programs kept busy meanwhile."""
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    before, b0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), time.monotonic()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after, b1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), busy(), time.monotonic()
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    csw = after.ru_nvcsw - before.ru_nvcsw + after.ru_nivcsw - before.ru_nivcsw
    return out, user, system, csw, max(b1 - b0 - user - system, 0) / (t1 - t0)

def parse(name, out):
    """reads/s, and the workers' loop CPU (µs/op) and context switches per op."""
    if name.startswith("gobench"):
        ph = json.loads(out)["phases"][0]
        reads = [o for o in ph["ops"] if o["kind"] == "read"][0]["ops_per_sec"]
        return reads, ph["cpu"]["us_per_op"], None
    f = dict(re.findall(r"(\S+)=(\S+)", out))
    return float(f["reads/s"]), float(f["loop_cpu_us/op"]), float(f["loop_csw/op"])

def load():
    return open("/proc/loadavg").read().split()[0]

print("%d processes × %d ops, 95%% read / 5%% upsert, WAL, synchronous=NORMAL, %d interleaved rounds, %d cores; load %s at the start"
      % (procs, queries, rounds, os.cpu_count(), load()), flush=True)
res = {name: [] for name, _ in rungs}
outside = []
for r in range(rounds):
    order = rungs[r % len(rungs):] + rungs[:r % len(rungs)]
    for name, cmd in order:
        out, user, system, csw, other = run(cmd(queries))
        _, user1, system1, csw1, _ = run(cmd(1))
        reads, loop_cpu, loop_csw = parse(name, out)
        extra = procs * (queries - 1)
        outside.append(other)
        res[name].append(dict(reads=reads, cpu=(user + system - user1 - system1) * 1e6 / extra,
                              sys=(system - system1) * 1e6 / extra, csw=(csw - csw1) / extra,
                              loop_cpu=loop_cpu, loop_csw=loop_csw))
    print("round %d of %d done, load %s" % (r + 1, rounds, load()), file=sys.stderr, flush=True)

med = statistics.median
def spread(v, f):
    return "%s (%s–%s)" % (f % med(v), f % min(v), f % max(v))
print("| rung | reads/s | vs C | CPU µs/op | of which system | context switches/op | workers' loop CPU µs/op |")
print("|---|---:|---:|---:|---:|---:|---:|")
c = res["C"]
for name, _ in rungs:
    rs = res[name]
    print("| %s | %s | %s | %s | %.2f | %.3f | %.2f |" % (
        name, format(round(med(x["reads"] for x in rs)), ","),
        spread([x["reads"] / y["reads"] for x, y in zip(rs, c)], "%.2f"),
        spread([x["cpu"] for x in rs], "%.2f"), med(x["sys"] for x in rs),
        med(x["csw"] for x in rs), med(x["loop_cpu"] for x in rs)))
print("medians over the rounds (lowest–highest); CPU µs/op as a ratio to C's, the reads/s a CPU-bound machine would give: " +
      ", ".join("%s %.2f" % (name, med(y["cpu"] for y in c) / med(x["cpu"] for x in res[name])) for name, _ in rungs[1:]))
print("other programs kept %.2f of the %d cores busy during the runs (median; lowest %.2f, highest %.2f); load %s at the end"
      % (med(outside), os.cpu_count(), min(outside), max(outside), load()))
PY
