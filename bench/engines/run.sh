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
#   go-ycsb: its bbolt (boltdb/bolt v1.3.1) and badger (v1) bindings
#     against gobench's bbolt and badger on YCSB A: YCSB_RECORDS records
#     of one 100-byte field, YCSB_OPS ops, zipfian, 8 workers, every
#     update synced (bolt's default; badger.sync_writes=true; gobench
#     --sync full). go-ycsb loads its records unsynced (not measured).
#
# pebble and bbolt are built from the module proxy at the versions
# gobench's go.mod requires (go install ...@version), into bin/. go-ycsb
# cannot be: its go.mod has a replace directive, which go install
# pkg@version refuses; so its command's sources are copied from the
# module download (go mod download) into a module of the script's own
# that requires go-ycsb at GOYCSB_VERSION and keeps only the bolt, badger
# and basic bindings (the others need C libraries or services), built
# there, as bin/go-ycsb-kv (bench/ycsb/run.sh builds its own bin/go-ycsb,
# with the sqlite binding).
#
#   bash bench/engines/run.sh            # ROUNDS=3 PARTS="pebble bbolt goycsb"
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
PARTS=${PARTS:-pebble bbolt goycsb}
GOYCSB_VERSION=${GOYCSB_VERSION:-v1.0.3}
YCSB_RECORDS=${YCSB_RECORDS:-2000}
YCSB_OPS=${YCSB_OPS:-4000}
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
part() { [[ " $PARTS " == *" $1 "* ]]; }
if part pebble; then
	pebble_v=$(go list -m -f '{{.Version}}' github.com/cockroachdb/pebble/v2)
	GOBIN=$PWD/bin GOFLAGS= go install "github.com/cockroachdb/pebble/v2/cmd/pebble@$pebble_v"
fi
if part bbolt; then
	bbolt_v=$(go list -m -f '{{.Version}}' go.etcd.io/bbolt)
	GOBIN=$PWD/bin GOFLAGS= go install "go.etcd.io/bbolt/cmd/bbolt@$bbolt_v"
fi
if part goycsb; then
	build=$work/go-ycsb-build
	mkdir -p "$build"
	src=$(cd "$build" && GOFLAGS= go mod download -json "github.com/pingcap/go-ycsb@$GOYCSB_VERSION" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
	for f in "$src"/cmd/go-ycsb/*.go; do
		grep -v -E '_ "github.com/pingcap/go-ycsb/db/' "$f" >"$build/$(basename "$f")"
	done
	# main.go keeps the bindings compared, in place of every other.
	awk '{ print } /^import \($/ && !done { done = 1
		print "\t_ \"github.com/pingcap/go-ycsb/db/basic\""
		print "\t_ \"github.com/pingcap/go-ycsb/db/badger\""
		print "\t_ \"github.com/pingcap/go-ycsb/db/boltdb\"" }' "$build/main.go" >"$build/main.go.new"
	mv "$build/main.go.new" "$build/main.go"
	printf 'module goycsb\n\ngo 1.21\n\nrequire github.com/pingcap/go-ycsb %s\n' "$GOYCSB_VERSION" >"$build/go.mod"
	(cd "$build" && GOFLAGS=-mod=mod go mod tidy && GOFLAGS=-mod=mod go build -o "$OLDPWD/bin/go-ycsb-kv" .)
	ycsb_workloads=$src/workloads
fi

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

# goycsb_round DB: go-ycsb's binding DB (boltdb, badger) on YCSB A, its
# records loaded unsynced, the run's updates synced; prints its ops/s
# and p99 (µs).
goycsb_round() {
	local db=$1 load run
	rm -rf "$work/ycsb-$db"
	mkdir -p "$work/ycsb-$db"
	case $db in
	boltdb)
		load=(-p bolt.path="$work/ycsb-$db/bolt.db" -p bolt.no_sync=true)
		run=(-p bolt.path="$work/ycsb-$db/bolt.db")
		;;
	badger)
		load=(-p badger.dir="$work/ycsb-$db" -p badger.valuedir="$work/ycsb-$db" -p badger.sync_writes=false)
		run=(-p badger.dir="$work/ycsb-$db" -p badger.valuedir="$work/ycsb-$db" -p badger.sync_writes=true)
		;;
	esac
	local props=(-P "$ycsb_workloads/workloada" -p recordcount="$YCSB_RECORDS" -p fieldcount=1 -p fieldlength=100 -p threadcount=8)
	bin/go-ycsb-kv load "$db" "${props[@]}" "${load[@]}" >/dev/null 2>&1
	bin/go-ycsb-kv run "$db" "${props[@]}" "${run[@]}" -p operationcount="$YCSB_OPS" -p requestdistribution=zipfian 2>&1 |
		awk -F', ' '/^TOTAL/ { for (i = 1; i <= NF; i++) { if ($i ~ /^OPS:/) o = $i; if ($i ~ /^99th/) p = $i }
			sub(/OPS: /, "", o); sub(/99th\(us\): /, "", p); t = o " " p } END { print t }'
}

# gobench_ycsb_round DRIVER: gobench's DRIVER on the same; prints its
# ops/s and p99 (µs).
gobench_ycsb_round() {
	bin/gobench ycsb run a --driver "$1" --mode goroutine --sync full \
		-p recordcount="$YCSB_RECORDS" -p operationcount="$YCSB_OPS" -p fieldcount=1 -p fieldlength=100 -p threadcount=8 \
		-p requestdistribution=zipfian --format json -q |
		python3 -c 'import json,sys; r=json.load(sys.stdin); r=r["cells"][0]["runs"][0] if "cells" in r else r; t=r["phases"][0]["total"]; print(round(t["ops_per_sec"]), round(t["p99_us"]))'
}

for round in $(seq 1 "$ROUNDS"); do
	if part pebble; then
		for w in C A; do
			echo "round $round pebble-bench-ycsb-$w $(pebble_round "$w")"
			echo "round $round gobench-pebble-ycsb-$w $(gobench_pebble_round "$w")"
		done
	fi
	if part bbolt; then
		echo "round $round bbolt-bench write,read $(bbolt_round)"
		echo "round $round gobench-bbolt write,read $(gobench_bbolt_round)"
	fi
	if part goycsb; then
		echo "round $round go-ycsb-boltdb-A ops/s,p99us $(goycsb_round boltdb)"
		echo "round $round gobench-bbolt-A ops/s,p99us $(gobench_ycsb_round bbolt)"
		echo "round $round go-ycsb-badger-A ops/s,p99us $(goycsb_round badger)"
		echo "round $round gobench-badger-A ops/s,p99us $(gobench_ycsb_round badger)"
	fi
done
