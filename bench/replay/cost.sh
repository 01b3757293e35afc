#!/usr/bin/env bash
# The costs of capture and replay, per statement, in processor time
# (getrusage of every process of the program, user and system):
#
#   capture: a Python program (stdlib sqlite3, the system's libsqlite3)
#   running N lookups of one prepared SELECT, with and without gobench
#   capture's preloaded library;
#   replay: gobench replay of that trace back to back (--speed max, one
#   connection, goroutine mode, mattn), against gobench sql running the
#   same lookup as a script of one statement N times on the same table.
#
# Each program runs with N and with N0 statements, and its cost per
# statement is the difference over N-N0 (start-up, the table's load and
# the snapshot fall out); medians over REPEAT interleaved rounds.
#
#   bash bench/replay/cost.sh          # REPEAT=5 N=200000 N0=20000
set -euo pipefail
cd "$(dirname "$0")/../.."
REPEAT=${REPEAT:-5} N=${N:-200000} N0=${N0:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gobench" ./cmd/gobench
export GOBENCH_CACHE_DIR="$tmp/cache"

python3 - "$tmp" "$REPEAT" "$N" "$N0" <<'PY'
import os, resource, statistics, subprocess, sys

tmp, repeat, n, n0 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
gobench = os.path.join(tmp, "gobench")
app = os.path.join(tmp, "lookups.py")
open(app, "w").write('''
import random, sqlite3, sys
db, n = sys.argv[1], int(sys.argv[2])
c = sqlite3.connect(db, isolation_level=None)
c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
c.execute("BEGIN")
for k in range(1000):
    c.execute("INSERT INTO t VALUES (?, ?)", (k, "value %d" % k))
c.execute("COMMIT")
rng = random.Random(1)
for _ in range(n):
    c.execute("SELECT v FROM t WHERE k = ?", (rng.randrange(1000),)).fetchall()
c.close()
''')
schema = os.path.join(tmp, "schema.sql")
open(schema, "w").write("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);\n"
    "WITH RECURSIVE s(v) AS (SELECT 0 UNION ALL SELECT v + 1 FROM s WHERE v < 999) INSERT INTO t SELECT v, 'value ' || v FROM s;\n")
script = os.path.join(tmp, "lookup.sql")
open(script, "w").write("\\set k random(0, 999)\nSELECT v FROM t WHERE k = :k;\n")

def cpu(cmd):
    # a fresh database and trace for each capture timed (the kept ones stay)
    for f in os.listdir(tmp):
        if f.startswith(("app", "t.")):
            os.remove(os.path.join(tmp, f))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if res.returncode != 0:
        sys.exit("%s: exit %d: %s" % (" ".join(cmd), res.returncode, res.stderr.strip()))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

def py(k, captured):
    db = os.path.join(tmp, "app.db")
    cmd = ["python3", app, db, str(k)]
    if captured:
        cmd = [gobench, "capture", "--force", "--out", os.path.join(tmp, "t.%d" % k), "--"] + cmd
    return cpu(cmd)

def replay(k):
    return cpu([gobench, "replay", os.path.join(tmp, "kept.%d.trace" % k), "--mode", "goroutine", "--driver", "mattn", "--journal", "rollback", "--calibrate=false", "-q"])

def sql(k):
    return cpu([gobench, "sql", "--schema", schema, "--file", script, "--procs", "1", "--mode", "goroutine", "--driver", "mattn",
                "--journal", "rollback", "--queries", str(k), "--calibrate=false", "-q"])

for k in (n, n0):  # the traces the replays run, kept apart from the captures timed
    subprocess.run([gobench, "capture", "--out", os.path.join(tmp, "kept.%d.trace" % k), "--", "python3", app, os.path.join(tmp, "kept.%d.db" % k), str(k)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

per = {"python": [], "python captured": [], "gobench replay": [], "gobench sql": []}
for r in range(repeat):
    rounds = [("python", lambda k: py(k, False)), ("python captured", lambda k: py(k, True)), ("gobench replay", replay), ("gobench sql", sql)]
    rounds = rounds[r % len(rounds):] + rounds[:r % len(rounds)]
    for name, f in rounds:
        per[name].append((f(n) - f(n0)) / (n - n0) * 1e6)

med = {k: statistics.median(v) for k, v in per.items()}
print("CPU µs per statement (median of %d rounds, N=%d, N0=%d):" % (repeat, n, n0))
for k, v in med.items():
    print("  %-16s %6.2f   (rounds: %s)" % (k, v, ", ".join("%.2f" % x for x in per[k])))
print("capture's cost:  %.2f µs per statement (%.0f%% of the program's own)" % (med["python captured"] - med["python"], 100 * (med["python captured"] - med["python"]) / med["python"]))
print("replayer's cost: %.2f µs per statement over gobench sql's" % (med["gobench replay"] - med["gobench sql"]))
PY
