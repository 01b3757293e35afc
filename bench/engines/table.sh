#!/usr/bin/env bash
# The README's cross-engine table: YCSB's workloads A to F on every engine
# gobench ships that keeps its data on disk (SQLite through mattn in WAL
# mode, LMDB, bbolt, pebble, badger) at --sync full and normal, each
# engine's workers as goroutines of one process (the mode every engine
# allows), RECORDS records of one FIELDLENGTH-byte field, OPS operations,
# THREADS workers. Prints a markdown table: ops/s and p99 per workload,
# syncs per commit (workload A; "not counted" where the engine hides
# them), the sync primitive, space amplification and peak RSS (workload
# A). Not part of make test.
#
#   bash bench/engines/table.sh          # RECORDS=10000 OPS=20000 THREADS=8
set -euo pipefail
cd "$(dirname "$0")/../.."
RECORDS=${RECORDS:-10000}
OPS=${OPS:-20000}
THREADS=${THREADS:-8}
FIELDLENGTH=${FIELDLENGTH:-100}
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for w in a b c d e f; do
	bin/gobench ycsb run "$w" --driver mattn,lmdb,bbolt,pebble,badger --mode goroutine \
		--journal wal --sync full,normal --busy retry \
		-p recordcount="$RECORDS" -p operationcount="$OPS" -p threadcount="$THREADS" \
		-p fieldcount=1 -p fieldlength="$FIELDLENGTH" --json "$work/$w.json" -q >/dev/null
done
python3 - "$work" <<'PY'
import json, sys, os
work = sys.argv[1]
rows = {}
def cell_runs(path):
    s = json.load(open(path))
    for c in s.get("cells", []):
        for r in c["runs"]:
            yield r
for w in "abcdef":
    for r in cell_runs(os.path.join(work, w + ".json")):
        sync = next((s["value"] for s in r["plan"]["store"].get("settings", []) if s["name"] == "sync"), "?")
        key = (r["plan"]["driver"], sync)
        row = rows.setdefault(key, {})
        t = r["phases"][0]["total"]
        row[w] = "{:,} / {}".format(round(t["ops_per_sec"]), ("%.2fms" % (t["p99_us"] / 1000)) if t["p99_us"] >= 1000 else ("%.0fµs" % t["p99_us"]))
        if w == "a":
            io = r["phases"][0].get("io")
            row["syncs"] = "%.2f" % io["syncs_per_commit"] if io and io.get("commits") else "not counted"
            row["prim"] = r["environment"].get("sync_primitive", "")
            sp = r.get("space") or {}
            # below 64 MiB live the engines' fixed files make the figure
            # (judge.MinSpaceLiveBytes: pebble's empty store is 4.4 MiB)
            row["amp"] = "%.2f×" % sp["amplification"] if sp.get("amplification") and sp.get("live_bytes", 0) >= 64 << 20 else "–"
            rss = r.get("worker_max_rss_bytes", 0)
            row["rss"] = "%d MiB" % (rss >> 20) if rss > 0 else "–"  # 0: not measured
print("| engine | sync | A | B | C | D | E | F | syncs/commit (A) | sync primitive | space amp. (A) | peak RSS (A) |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for (drv, sync), row in rows.items():
    print("| %s | %s | %s | %s | %s | %s |" % (drv, sync, " | ".join(row.get(w, "") for w in "abcdef"), row.get("syncs", ""), row.get("prim", ""), row.get("amp", "") + " | " + row.get("rss", "")))
PY
