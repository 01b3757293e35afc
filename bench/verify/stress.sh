#!/usr/bin/env bash
# Runs one --verify cell RUNS times in a row, a new seed each run, and
# stops at the first run that fails, keeping its output and JSON result
# (the verifier's examples name the lost write, the surviving one and
# their times) in OUT. The default cell is the one that once lost an
# acknowledged badger write with no crash: 8 goroutine workers, batches
# of 10, half reads, half upserts. Not part of make test: it runs for
# minutes, one run at a time (the machine it was written on has 2 cores).
#
#   bash bench/verify/stress.sh                  # RUNS=500 FIRST=1 DRIVER=badger BATCH=10 OUT=/tmp/gobench-stress
#   GOBENCH=/tmp/gobench RUNS=200 bash bench/verify/stress.sh --procs 4
#
# Extra arguments are passed on to gobench mix. GOBENCH names a binary
# built already (otherwise it is built into OUT). Prints one line per
# failure and a summary; exits 1 when a run failed.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-500}
FIRST=${FIRST:-1}
DRIVER=${DRIVER:-badger}
BATCH=${BATCH:-10}
OUT=${OUT:-/tmp/gobench-stress}
mkdir -p "$OUT"
bin=${GOBENCH:-}
if [[ -z $bin ]]; then
	bin=$OUT/gobench
	go build -o "$bin" ./cmd/gobench
fi
ran=0
for ((seed = FIRST; seed < FIRST + RUNS; seed++)); do
	ran=$((ran + 1))
	log=$OUT/seed-$seed.txt
	if "$bin" mix --driver "$DRIVER" --procs 8 --queries 300 --mix read=50,upsert=50 --batch "$BATCH" \
		--verify --seed "$seed" --json "$OUT/seed-$seed.json" "$@" >"$log" 2>&1; then
		rm -f "$log" "$OUT/seed-$seed.json"
		continue
	fi
	echo "seed $seed failed after $ran runs (load $(cut -d' ' -f1-3 /proc/loadavg)): $log"
	grep -m1 'violations in' "$log" || tail -3 "$log"
	exit 1
done
echo "$ran runs passed (seeds $FIRST to $((FIRST + RUNS - 1))), load $(cut -d' ' -f1-3 /proc/loadavg)"
