#!/usr/bin/env bash
# The verdict experiments (docs/ci.md: "How the verdicts were checked"). On
# this machine, with one plan:
#
#   aa-compare   TRIES pairs of invocations of the same binary, compared
#   aa-ab        TRIES runs of gobench ab, the same binary on both sides
#   slow-compare TRIES pairs: the binary, then a build 30% slower per op
#                (-tags gobench_slowdown), compared
#   slow-ab      TRIES runs of gobench ab, the binary against the slow build
#   slow-ab-hogs the same with two CPU hogs running through both sides
#   hog-compare  TRIES pairs of the same binary, two CPU hogs beside the
#                second invocation only
#
# Each try records gobench's exit code (0 pass, 3 regression, 4
# inconclusive or a changed machine) and its verdict line; the table at
# the end counts them. It takes minutes. The result files stay in OUT.
#
#   bash bench/verdicts/run.sh [OUT]    # TRIES=5 ROUNDS=3 REPEAT=5
#   PLAN='mix --journal wal --sync normal --procs 2 --queries 20000' bash bench/verdicts/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
TRIES=${TRIES:-5} ROUNDS=${ROUNDS:-3} REPEAT=${REPEAT:-5}
PLAN=${PLAN:-mix --journal wal --sync normal --procs 2 --queries 20000}
OUT=${1:-$(mktemp -d /tmp/gobench-verdicts-XXXXXX)}
mkdir -p "$OUT"
echo "results in $OUT; plan: $PLAN"
go build -o "$OUT/gobench" ./cmd/gobench
go build -tags gobench_slowdown -o "$OUT/gobench-slow" ./cmd/gobench
G=$OUT/gobench

hogs=()
start_hogs() { # two busy loops, one a core on a 2-core machine
	for _ in 1 2; do
		sh -c 'while :; do :; done' &
		hogs+=($!)
	done
}
stop_hogs() {
	for pid in "${hogs[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${hogs[@]}"; do wait "$pid" 2>/dev/null || true; done
	hogs=()
}
trap stop_hogs EXIT

# record EXPERIMENT TRY EXIT REPORT: one line of the table.
record() {
	local verdict machine
	verdict=$(grep -m1 '^verdict: ' "$4" | sed 's/^verdict: //' || true)
	machine=$(grep -m1 '^machine: ' "$4" | sed 's/^machine: //' || true)
	printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$verdict" "$machine" | tee -a "$OUT/table.tsv"
}

invocation() { # BINARY FILE [hogs]: one invocation of the plan, REPEAT repeats
	[ "${3:-}" = hogs ] && start_hogs
	# shellcheck disable=SC2086
	"$1" $PLAN --repeat "$REPEAT" --json "$2" -q >/dev/null
	[ "${3:-}" = hogs ] && stop_hogs
	return 0
}

compare_pair() { # NAME TRY OLD-BINARY NEW-BINARY [hogs]
	local dir=$OUT/$1-$2 code=0
	mkdir -p "$dir"
	invocation "$3" "$dir/old.json"
	invocation "$4" "$dir/new.json" "${5:-}"
	"$G" compare "$dir/old.json" "$dir/new.json" >"$dir/report.txt" 2>"$dir/stderr.txt" || code=$?
	record "$1" "$2" "$code" "$dir/report.txt"
}

ab_run() { # NAME TRY OLD-BINARY NEW-BINARY [hogs]
	local dir=$OUT/$1-$2 code=0
	mkdir -p "$dir"
	[ "${5:-}" = hogs ] && start_hogs
	# shellcheck disable=SC2086
	"$G" ab --old "$3" --new "$4" --rounds "$ROUNDS" --dir "$dir/runs" -q -- $PLAN >"$dir/report.txt" 2>"$dir/stderr.txt" || code=$?
	[ "${5:-}" = hogs ] && stop_hogs
	record "$1" "$2" "$code" "$dir/report.txt"
}

: >"$OUT/table.tsv"
for i in $(seq "$TRIES"); do compare_pair aa-compare "$i" "$G" "$G"; done
for i in $(seq "$TRIES"); do ab_run aa-ab "$i" "$G" "$G"; done
for i in $(seq "$TRIES"); do compare_pair slow-compare "$i" "$G" "$OUT/gobench-slow"; done
for i in $(seq "$TRIES"); do ab_run slow-ab "$i" "$G" "$OUT/gobench-slow"; done
for i in $(seq "$TRIES"); do ab_run slow-ab-hogs "$i" "$G" "$OUT/gobench-slow" hogs; done
for i in $(seq "$TRIES"); do compare_pair hog-compare "$i" "$G" "$G" hogs; done

echo
echo "experiment      exit 0 (pass)  exit 3 (regression)  exit 4 (inconclusive)  of which: machine changed"
for e in aa-compare aa-ab slow-compare slow-ab slow-ab-hogs hog-compare; do
	awk -F'\t' -v e="$e" '$1 == e { n[$3]++; if ($4 ~ /machine changed/) m++ }
		END { printf "%-15s %13d  %19d  %21d  %25d\n", e, n[0], n[3], n[4], m }' "$OUT/table.tsv"
done | tee "$OUT/summary.txt"
