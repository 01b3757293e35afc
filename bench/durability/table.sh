#!/usr/bin/env bash
# The cross-engine durability table (README, docs/durability.md): every
# engine gobench ships that keeps files (SQLite through mattn in its
# rollback journal and in WAL mode, SQLite through modernc in WAL mode,
# LMDB, bbolt, pebble, badger, one file per key) at --sync off, normal
# and full, its WORKERS workers as goroutines of one process (the mode
# every engine allows), half their ops upserts of 64-byte values into
# KEYS preloaded keys, OPS ops per worker. Two runs of each cell:
#
#   untraced: writes/s, nothing recorded (the median of REPEAT
#     interleaved runs);
#   traced:   --crash CUTS: every write, sync and acknowledgement
#     recorded (SQLite through mattn by its VFS, every other engine
#     through gobench's FUSE file system), CUTS power cuts simulated
#     (the lose model: what POSIX promises) and each state opened by the
#     engine and checked; syncs per commit come from the same record.
#
# Prints the README's durability table, in markdown: writes/s, syncs
# per commit and the sync primitive, the cuts that lost acknowledged
# writes, the most lost in one, the corrupt states (and how many of them
# did not open), the level of what the engine promises at that setting
# and whether the cuts kept it. MODELS, a comma list of crash models
# (--crash-model: lose, torn, torn-4k, names-durable, fsync-fail, …),
# spans them: a model column, a row per engine, setting and model. Needs
# FUSE (Debian's fuse3) and python3. Not part of make test: it runs for
# minutes.
#
#   bash bench/durability/table.sh        # KEYS=2000 OPS=250 WORKERS=4 CUTS=25 REPEAT=3 MODELS=lose
#   OPS=100 REPEAT=1 bash bench/durability/table.sh                 # the README's table
#   OPS=100 REPEAT=1 MODELS=lose,torn-4k bash bench/durability/table.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
KEYS=${KEYS:-2000}
OPS=${OPS:-250}
WORKERS=${WORKERS:-4}
CUTS=${CUTS:-25}
REPEAT=${REPEAT:-3}
MODELS=${MODELS:-lose}
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# cells RUN ARGS…: the whole matrix, as RUN (untraced or traced), into
# $work/RUN-sqlite.json and $work/RUN-kv.json (SQLite's journal modes
# are a matrix of their own: the key-value engines have none).
cells() {
	local run=$1
	shift
	local common=(--mode goroutine --procs 1 --goroutines "$WORKERS" --keys "$KEYS" --queries "$OPS"
		--write-pct 50 --sync off,normal,full --calibrate=false -q "$@")
	# SQLite's workers wait for its write lock as long as it takes: the
	# table is about durability, not contention.
	bin/gobench mix --driver mattn --journal rollback,wal --busy-timeout 2m "${common[@]}" --json "$work/$run-mattn.json" >/dev/null
	bin/gobench mix --driver modernc --journal wal --busy-timeout 2m "${common[@]}" --json "$work/$run-modernc.json" >/dev/null
	bin/gobench mix --driver lmdb,bbolt,pebble,badger,files "${common[@]}" --json "$work/$run-kv.json" >/dev/null
}
cells untraced --repeat "$REPEAT"
cells traced --crash "$CUTS" --crash-model "$MODELS"

python3 - "$work" <<'PY'
import json, os, statistics, sys
work = sys.argv[1]

def runs(kind):
    for name in sorted(os.listdir(work)):
        if not name.startswith(kind + "-"):
            continue
        for c in json.load(open(os.path.join(work, name)))["cells"]:
            for r in c["runs"]:
                yield r

def key(r):
    s = {x["name"]: x["value"] for x in r["plan"]["store"].get("settings", [])}
    engine = r["plan"]["driver"]
    if "journal" in s:
        engine += " " + s["journal"]
    return engine, s.get("sync", "?")

def writes(r):
    ph = r["phases"][0]
    return sum(o["ops_per_sec"] for o in ph["ops"] if o["kind"] == "upsert")

speed = {}
for r in runs("untraced"):
    speed.setdefault(key(r), []).append(writes(r))

order = ["mattn rollback", "mattn wal", "modernc wal", "lmdb", "bbolt", "pebble", "badger", "files"]
rows = {}
models = []
for r in runs("traced"):
    model = r["plan"]["crash"]["model"]
    if model not in models:
        models.append(model)
    rows[key(r) + (model,)] = r
spanned = len(models) > 1

def rank(k):
    engine, sync, model = k
    return (order.index(engine) if engine in order else 99, ["off", "normal", "full"].index(sync), models.index(model))

head = ["engine", "sync"] + (["model"] if spanned else []) + ["writes/s", "syncs/commit (by)",
    "power cuts that lost acknowledged writes", "most lost in one", "corrupt", "promise (kept?)"]
print("| " + " | ".join(head) + " |")
print("|" + "|".join("--:" if h in ("writes/s", "syncs/commit (by)", "power cuts that lost acknowledged writes", "most lost in one", "corrupt") else "---" for h in head) + "|")
for k in sorted(rows, key=rank):
    r, (engine, sync, model) = rows[k], k
    d = r.get("durability") or {}
    io = r["phases"][0].get("io") or {}
    spc = "%.2f" % io["syncs_per_commit"] if io.get("commits") else "–"
    prim = r["environment"].get("sync_primitive", "")
    w = speed.get((engine, sync))
    ws = "{:,}".format(round(statistics.median(w))) if w else "–"
    p = d.get("promise") or {}
    agrees = d.get("agrees")
    kept = "–" if agrees is None else ("kept" if agrees else "**BROKEN**")
    most = str(d.get("max_lost", 0)) if d.get("lossy") else "–"
    corrupt = str(d.get("corrupt", 0))
    if d.get("did_not_open"):
        corrupt += " (%d unopened)" % d["did_not_open"]
    cells = [engine, sync] + ([model] if spanned else []) + [ws, "%s (%s)" % (spc, prim),
        "%d of %d" % (d.get("lossy", 0), d.get("states", 0)), most, corrupt, "%s (%s)" % (p.get("level", "?"), kept)]
    print("| " + " | ".join(cells) + " |")
PY
