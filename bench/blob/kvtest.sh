#!/usr/bin/env bash
# Runs SQLite's own blob benchmark, kvtest (test/kvtest.c of SQLite's
# source, shipped in modernc.org/sqlite's testdata), beside gobench blob,
# on the same machine, disk and SQLite amalgamation (the one mattn's
# driver compiles), so that gobench's db-against-files factors can be
# checked against SQLite's. Neither side syncs (kvtest --nosync, no
# --fsync; gobench's default). Files are settled (sync) before each run,
# as gobench --settle does; the configurations take turns, round after
# round. Prints, per target, kvtest's µs per blob read and written (median
# of ROUNDS) and space, its factors as measured and with the time
# sqlite3_randomness takes per blob taken out of its updates (kvtest makes
# each new value inside its timed loop, on both sides; gobench makes it
# before the clock starts), then gobench's table for capi through SQL and
# through the blob API.
#
#   bash bench/blob/kvtest.sh          # COUNT=20000 SIZE=10000 VARIANCE=2000 ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT=${COUNT:-20000} SIZE=${SIZE:-10000} VARIANCE=${VARIANCE:-2000} ROUNDS=${ROUNDS:-3}
. bench/baseline/build.sh
src="$(go list -m -f '{{.Dir}}' modernc.org/sqlite)/testdata/tcl/kvtest.c"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
if [ ! -x bin/kvtest ] || [ "$src" -nt bin/kvtest ]; then
	echo "compiling kvtest (about a minute)..." >&2
	mkdir -p "$tmp/inc"
	echo '#include "sqlite3-binding.h"' > "$tmp/inc/sqlite3.h"
	gcc -O2 -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 -I"$tmp/inc" -I"$amalg" -o bin/kvtest "$src" "$amalg/sqlite3-binding.c" -lpthread -ldl -lm
	gcc -O2 -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 -I"$tmp/inc" -I"$amalg" -o bin/randomness bench/blob/randomness.c "$amalg/sqlite3-binding.c" -lpthread -ldl -lm
fi
rnd=$(bin/randomness "$SIZE")
kv=$PWD/bin/kvtest
cd "$tmp"
"$kv" init kv.db --count "$COUNT" --size "$SIZE" --variance "$VARIANCE" --pagesize 4096 >/dev/null
"$kv" export kv.db flat >/dev/null
"$kv" export kv.db tree --tree >/dev/null
sync

median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
declare -A conf=(
	[db_read]="kv.db --nosync" [blob_read]="kv.db --nosync --blob-api" [flat_read]="flat" [tree_read]="tree"
	[db_update]="kv.db --nosync --update" [blob_update]="kv.db --nosync --blob-api --update" [flat_update]="flat --update" [tree_update]="tree --update"
)
declare -A all r
for _ in $(seq "$ROUNDS"); do
	for c in "${!conf[@]}"; do
		sync
		# shellcheck disable=SC2086 # the options are words
		all[$c]+=" $("$kv" run ${conf[$c]} --count "$COUNT" --max-id "$COUNT" --random | sed -n 's/^Microseconds per BLOB [a-z]*: //p')"
	done
done
for c in "${!conf[@]}"; do r[$c]=$(echo "${all[$c]}" | median); done
db_kb=$(du -k kv.db | cut -f1) flat_kb=$(du -sk flat | cut -f1) tree_kb=$(du -sk tree | cut -f1)
echo "kvtest: $COUNT blobs of $SIZE ± $VARIANCE bytes, random order (with replacement), nothing synced, median of $ROUNDS"
printf '%-10s %12s %12s %10s\n' target "read µs" "update µs" "space KiB"
printf '%-10s %12s %12s %10s\n' db "${r[db_read]}" "${r[db_update]}" "$db_kb"
printf '%-10s %12s %12s %10s\n' db-blobapi "${r[blob_read]}" "${r[blob_update]}" "$db_kb"
printf '%-10s %12s %12s %10s\n' flat "${r[flat_read]}" "${r[flat_update]}" "$flat_kb"
printf '%-10s %12s %12s %10s\n' tree "${r[tree_read]}" "${r[tree_update]}" "$tree_kb"
awk -v rnd="$rnd" -v dr="${r[db_read]}" -v br="${r[blob_read]}" -v fr="${r[flat_read]}" -v tr="${r[tree_read]}" \
	-v du="${r[db_update]}" -v bu="${r[blob_update]}" -v fu="${r[flat_update]}" -v tu="${r[tree_update]}" \
	-v d="$db_kb" -v f="$flat_kb" -v t="$tree_kb" 'BEGIN {
	printf "kvtest factors (db faster when > 1): read db/flat %.2f× db/tree %.2f×, blob API db/flat %.2f× db/tree %.2f×\n", fr/dr, tr/dr, fr/br, tr/br
	printf "                                    update db/flat %.2f× db/tree %.2f×, blob API db/flat %.2f× db/tree %.2f×\n", fu/du, tu/du, fu/bu, tu/bu
	printf "kvtest space: flat %+.1f%%, tree %+.1f%% against the database\n", (f/d-1)*100, (t/d-1)*100
	printf "without the %.1f µs per blob its updates spend making the new value (sqlite3_randomness):\n", rnd
	printf "                                    update db/flat %.2f× db/tree %.2f×, blob API db/flat %.2f× db/tree %.2f×\n", (fu-rnd)/(du-rnd), (tu-rnd)/(du-rnd), (fu-rnd)/(bu-rnd), (tu-rnd)/(bu-rnd)
}'
cd - >/dev/null
for api in sql blob; do
	echo
	echo "gobench blob --driver capi --api $api:"
	bin/gobench blob --driver capi --api "$api" --count "$COUNT" --size "${SIZE}B" --variance "${VARIANCE}B" --replace --update --repeat "$ROUNDS" -q
done
