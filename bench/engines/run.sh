#!/usr/bin/env bash
# gobench beside the engines' own benchmarks, in interleaved rounds on one
# machine (not part of make test: it builds the tools and runs minutes):
#
#   pebble: `pebble bench ycsb` against `gobench ycsb run` on workloads C
#     and A: 10,000 keys, 1,000-byte values (one field), zipfian keys,
#     8 workers, 10 s each, an 8 MiB block cache on both, a 64 MiB
#     memtable on both (pebble bench sets it; pebble's default is 4 MiB,
#     which sends the 10 MB of values to tables and reads them back), the
#     WAL synced per write on both (pebble bench's default; gobench
#     --sync full).
#   bbolt: `bbolt bench` against `gobench mix`: 10,000 random writes of
#     64-byte values in batches of 100 (one transaction each), then random
#     reads for about a second, one goroutine.
#
# Both tools are built from the module proxy at the versions gobench's
# go.mod requires (go install ...@version), into bin/.
#
#   bash bench/engines/run.sh            # ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
pebble_v=$(go list -m -f '{{.Version}}' github.com/cockroachdb/pebble/v2)
bbolt_v=$(go list -m -f '{{.Version}}' go.etcd.io/bbolt)
GOBIN=$PWD/bin GOFLAGS= go install "github.com/cockroachdb/pebble/v2/cmd/pebble@$pebble_v"
GOBIN=$PWD/bin GOFLAGS= go install "go.etcd.io/bbolt/cmd/bbolt@$bbolt_v"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# pebble_round W: pebble bench ycsb on workload W; prints its ops/s.
pebble_round() {
	rm -rf "$work/pebble"
	bin/pebble bench ycsb "$work/pebble" --workload "$1" --initial-keys 10000 --keys zipf \
		--values 1000 --concurrency 8 --duration 10s --cache $((8 << 20)) 2>&1 |
		awk '/^Benchmarkycsb/ { print $3 }'
}

# gobench_pebble_round W: gobench's pebble on the same; prints its ops/s.
gobench_pebble_round() {
	bin/gobench ycsb run "$(echo "$1" | tr A-Z a-z)" --driver pebble --sync full --pebble-cache 8 --pebble-memtable 64 \
		-p recordcount=10000 -p fieldcount=1 -p fieldlength=1000 -p threadcount=8 \
		-p requestdistribution=zipfian --duration 10s --format json -q |
		python3 -c 'import json,sys; r=json.load(sys.stdin); r=r["cells"][0]["runs"][0] if "cells" in r else r; print(round(r["phases"][0]["total"]["ops_per_sec"]))'
}

# bbolt_round: bbolt bench; prints its write and read ops/s.
bbolt_round() {
	rm -f "$work/bbolt.db"
	bin/bbolt bench --path "$work/bbolt.db" --count 10000 --batch-size 100 --write-mode rnd \
		--read-mode rnd --value-size 64 --work 2>/dev/null |
		awk '/^# Write/ { w = $0 } /^# Read/ { r = $0 } END {
			match(w, /[0-9]+ op\/sec/); ws = substr(w, RSTART, RLENGTH)
			match(r, /[0-9]+ op\/sec/); rs = substr(r, RSTART, RLENGTH)
			sub(/ op\/sec/, "", ws); sub(/ op\/sec/, "", rs); print ws, rs }'
}

# gobench_bbolt_round: gobench's bbolt on the same; prints write and read
# ops/s (writes: upserts per second in batches of 100).
gobench_bbolt_round() {
	local w r
	w=$(bin/gobench mix --driver bbolt --procs 1 --keys 10000 --value-size 64 --mix upsert=100 \
		--batch 100 --queries 10000 --format json -q | python3 -c 'import json,sys; r=json.load(sys.stdin); print(round([o for o in r["phases"][0]["ops"] if o["kind"]=="upsert"][0]["ops_per_sec"]))')
	r=$(bin/gobench mix --driver bbolt --procs 1 --keys 10000 --value-size 64 --mix read=100 \
		--duration 2s --format json -q | python3 -c 'import json,sys; r=json.load(sys.stdin); print(round(r["phases"][0]["total"]["ops_per_sec"]))')
	echo "$w $r"
}

for round in $(seq 1 "$ROUNDS"); do
	for w in C A; do
		echo "round $round pebble-bench-ycsb-$w $(pebble_round "$w")"
		echo "round $round gobench-pebble-ycsb-$w $(gobench_pebble_round "$w")"
	done
	echo "round $round bbolt-bench write,read $(bbolt_round)"
	echo "round $round gobench-bbolt write,read $(gobench_bbolt_round)"
done
