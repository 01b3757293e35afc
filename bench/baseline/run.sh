#!/usr/bin/env bash
# Compares gobench with bare programs doing the same work: the classic
# 25-process 95/5 mix in WAL mode with synchronous=NORMAL. Prints one line
# per program and driver path, each the median of RUNS runs, and its
# ratio to the bare C program's. Per driver: the bare Go programs a user
# would write (database/sql, and its driver interface), gobench's own
# engine without the harness (-api store: store.Conn, no samples, no
# pipes), and gobench itself. capi is SQLite's C API through one cgo call
# per op: the reference each Go driver is measured against.
#
#   bash bench/baseline/run.sh            # RUNS=5 PROCS=25 QUERIES=2000
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5} PROCS=${PROCS:-25} QUERIES=${QUERIES:-2000} JOURNAL=${JOURNAL:-wal} SYNC=${SYNC:-normal}
. bench/baseline/build.sh
build_c
go build -o bin/baseline ./bench/baseline
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
reads() { sed -n 's/.*reads\/s=\([0-9]*\).*/\1/p'; }

cref=""
row() { # name command...
	local name=$1; shift
	local vals=() med
	for i in $(seq "$RUNS"); do
		rm -f "$tmp"/db*
		vals+=("$("$@" | reads)")
	done
	med=$(printf '%s\n' "${vals[@]}" | median)
	[ -n "$cref" ] || cref=$med
	printf '%-34s %8s reads/s (median of %d) %5.2f× C\n' "$name" "$med" "$RUNS" "$(awk -v a="$med" -v b="$cref" 'BEGIN{print a/b}')"
}

gobench_reads() {
	bin/gobench mix --driver "$1" --procs "$PROCS" --queries "$QUERIES" --journal "$JOURNAL" --sync "$SYNC" --db "$tmp/db" -q --format json |
		python3 -c 'import json,sys; r=json.load(sys.stdin); print("reads/s=%d" % [o for o in r["phases"][0]["ops"] if o["kind"]=="read"][0]["ops_per_sec"])'
}

echo "$PROCS processes × $QUERIES ops, 95% read / 5% upsert, journal $JOURNAL, synchronous $SYNC"
row "C, SQLite C API"                  bin/baseline-c "$tmp/db" "$PROCS" "$QUERIES" 10000 "$JOURNAL" "$SYNC"
for d in capi mattn modernc ncruces; do
	if [ "$d" = mattn ] || [ "$d" = modernc ]; then # database/sql drivers: the bare programs a user writes
		row "Go $d, database/sql (bare)"     bin/baseline -driver "$d" -api sql -procs "$PROCS" -queries "$QUERIES" -journal "$JOURNAL" -sync "$SYNC" -db "$tmp/db"
		row "Go $d, driver interface (bare)" bin/baseline -driver "$d" -api driver -procs "$PROCS" -queries "$QUERIES" -journal "$JOURNAL" -sync "$SYNC" -db "$tmp/db"
	fi
	row "Go $d, gobench's engine (bare)" bin/baseline -driver "$d" -api store -procs "$PROCS" -queries "$QUERIES" -journal "$JOURNAL" -sync "$SYNC" -db "$tmp/db"
	row "gobench mix --driver $d"        gobench_reads "$d"
done
