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
# The drivers carry different SQLite versions (the SQLite column: each
# gobench run's sqlite_version fact, the C program's amalgamation).
# MATCH=v1.14.53 (a mattn module version) adds rows at the SQLite that
# version bundles, in the same rounds: capi and mattn run from gobench's
# --sqlite-version build of it, the C program is compiled from its
# amalgamation. A row's "vs C" and "cost over capi" are over the C
# program and capi of its own SQLite when they ran, else of the default
# build's; so with MATCH at modernc's SQLite, modernc's cost is over capi
# on the same SQLite.
#
#   bash bench/baseline/drivers.sh     # REPEAT=5 PROCS=25 QUERIES=20000 ONE=200000 SYNC=normal MATCH=
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-20000} ONE=${ONE:-200000} SYNC=${SYNC:-normal} MATCH=${MATCH:-}
. bench/baseline/build.sh
build_c
c_version=$(amalg_version "$amalg")
match_version=
if [ -n "$MATCH" ]; then
	match_amalg=$(go mod download -json "github.com/mattn/go-sqlite3@$MATCH" | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
	match_version=$(amalg_version "$match_amalg")
	build_c "$match_amalg" "bin/baseline-c-$MATCH"
	# Builds the worker executable once (or finds it cached), so that no
	# round's run pays for it.
	bin/gobench mix --driver mattn --sqlite-version "$MATCH" --procs 1 --queries 1 --db "$(mktemp -u)" -q >/dev/null
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" "$REPEAT" "$PROCS" "$QUERIES" "$ONE" "$SYNC" "$c_version" "$MATCH" "$match_version" <<'PY'
import json, os, re, resource, statistics, subprocess, sys

tmp, repeat, procs, queries, one, sync = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
c_version, match, match_version = sys.argv[7], sys.argv[8], sys.argv[9]
db = os.path.join(tmp, "db")
# A program is (name, mattn module version of its SQLite build; "" for
# the default build).
programs = [(n, "") for n in ("C", "capi", "mattn", "modernc", "ncruces")]
if match:
    programs += [(n, match) for n in ("C", "capi", "mattn")]

def run(cmd):
    for f in os.listdir(tmp):
        os.remove(os.path.join(tmp, f))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    csw = after.ru_nvcsw - before.ru_nvcsw + after.ru_nivcsw - before.ru_nivcsw
    return out, cpu, csw

def program(prog, p, q):
    name, build = prog
    if name == "C":
        return ["bin/baseline-c" + ("-" + build if build else ""), db, str(p), str(q), "10000", "wal", sync]
    # capi one call per op, as each Go driver's ops are (--capi-loop=false):
    # what a driver costs is its calls' cost over capi's.
    per_op = ["--capi-loop=false"] if name == "capi" else []
    on = ["--sqlite-version", build] if build else []
    return ["bin/gobench", "mix", "--driver", name] + per_op + on + ["--procs", str(p), "--queries", str(q),
            "--journal", "wal", "--sync", sync, "--db", db, "-q", "--format", "json"]

def parse(prog, out):
    """reads/s, read p50 and the SQLite version the run names."""
    name, build = prog
    if name == "C":
        return float(re.search(r"reads/s=(\S+)", out).group(1)), None, match_version if build else c_version
    res = json.loads(out)
    rd = [o for o in res["phases"][0]["ops"] if o["kind"] == "read"][0]
    version = [f["value"] for f in res["environment"]["store"] if f["name"] == "sqlite_version"][0]
    return rd["ops_per_sec"], rd["p50_us"], version

med = statistics.median
for p, q in ((procs, queries), (1, one)):
    res = {prog: [] for prog in programs}
    version = {}
    for r in range(repeat):
        for prog in programs[r % len(programs):] + programs[:r % len(programs)]:
            out, cpu, csw = run(program(prog, p, q))
            _, cpu1, csw1 = run(program(prog, p, 1))
            reads, p50, version[prog] = parse(prog, out)
            extra = p * (q - 1)
            res[prog].append((reads, p50, (cpu - cpu1) * 1e6 / extra, (csw - csw1) / extra))
        print("%d process(es): round %d of %d done" % (p, r + 1, repeat), file=sys.stderr, flush=True)
    print("\n%d process(es) × %d ops, 95%% read / 5%% upsert, WAL, synchronous=%s, %d interleaved rounds, medians; load %s\n"
          % (p, q, sync.upper(), repeat, open("/proc/loadavg").read().split()[0]))
    print("| program | SQLite | reads/s | vs C | read p50 | CPU µs/op | context switches/op | cost over capi, µs/op |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    # The C program and capi of each SQLite version measured; a version
    # without its own is compared with the default build's.
    ref = {}
    for prog in programs:
        if prog[0] in ("C", "capi"):
            ref.setdefault((prog[0], version[prog]), prog)
    # Rows by SQLite version: its C program, capi, the drivers of the MATCH
    # build, the others.
    rank = lambda prog: (tuple(int(x) for x in version[prog].split(".")), prog[0] != "C", prog[0] != "capi", not prog[1], programs.index(prog))
    for prog in sorted(programs, key=rank):
        name, v = prog[0], res[prog]
        c = ref.get(("C", version[prog]), ("C", ""))
        capi = ref.get(("capi", version[prog]), ("capi", ""))
        reads, cpu, csw = med(x[0] for x in v), med(x[2] for x in v), med(x[3] for x in v)
        p50 = "–" if name == "C" else "%.2f µs" % med(x[1] for x in v)
        cost = "–" if name in ("C", "capi") else "%+.2f" % (cpu - med(x[2] for x in res[capi]))
        label = "C, SQLite C API (bare)" if name == "C" else "gobench, " + name
        if prog[1]:
            label += " (mattn " + prog[1] + ")"
        print("| %s | %s | %s | %.2f | %s | %.2f | %.3f | %s |" % (label, version[prog], format(round(reads), ","),
              reads / med(x[0] for x in res[c]), p50, cpu, csw, cost))
PY
