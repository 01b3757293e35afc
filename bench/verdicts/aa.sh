#!/usr/bin/env bash
# The A/A experiment of compare (docs/ci.md: "How often compare cries
# wolf"): PAIRS pairs of separate invocations of the same binary and plan,
# each pair compared, count the false alarms (compare exits 3, and the
# rows it called a regression); then PLANTED pairs of the binary against
# a build 30% slower per op (-tags gobench_slowdown), which compare must
# still call a regression. Every comparison holds its rows to a
# family-wise false-alarm rate with Holm's procedure ("holm:" line of the
# report), and judges CPU per op only when the machine's calibration held.
#
#   bash bench/verdicts/aa.sh [OUT]     # PAIRS=20 PLANTED=5 REPEAT=7
#   PLAN='mix --procs 8 --queries 2000 --journal wal' bash bench/verdicts/aa.sh
#
# Exit codes of compare: 0 pass, 3 regression, 4 inconclusive (or the
# machine changed). The result files and reports stay in OUT.
set -euo pipefail
cd "$(dirname "$0")/../.."
PAIRS=${PAIRS:-20} PLANTED=${PLANTED:-5} REPEAT=${REPEAT:-7}
PLAN=${PLAN:-mix --procs 4 --queries 2000 --journal wal --sync normal}
OUT=${1:-$(mktemp -d /tmp/gobench-aa-XXXXXX)}
mkdir -p "$OUT"
echo "results in $OUT; plan: $PLAN, $REPEAT repeats an invocation"
go build -o "$OUT/gobench" ./cmd/gobench
go build -tags gobench_slowdown -o "$OUT/gobench-slow" ./cmd/gobench
G=$OUT/gobench

# pair NAME TRY OLD-BINARY NEW-BINARY: two invocations, compared; one line
# of the table: experiment, try, exit code, rows called a regression, the
# verdict, the Holm line and the machine line.
pair() {
	local dir=$OUT/$1-$2 code=0 called
	mkdir -p "$dir"
	# shellcheck disable=SC2086
	"$3" $PLAN --repeat "$REPEAT" --json "$dir/old.json" -q >/dev/null
	# shellcheck disable=SC2086
	"$4" $PLAN --repeat "$REPEAT" --json "$dir/new.json" -q >/dev/null
	"$G" compare "$dir/old.json" "$dir/new.json" >"$dir/report.txt" 2>"$dir/stderr.txt" || code=$?
	called=$(grep -c ' REGRESSION' "$dir/report.txt" || true)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$code" "$called" \
		"$(grep -m1 '^verdict: ' "$dir/report.txt" | sed 's/^verdict: //' || true)" \
		"$(grep -m1 '^holm: ' "$dir/report.txt" | sed 's/^holm: //' || true)" \
		"$(grep -m1 '^machine: ' "$dir/report.txt" | sed 's/^machine: //' || true)" | tee -a "$OUT/table.tsv"
}

: >"$OUT/table.tsv"
for i in $(seq "$PAIRS"); do pair aa "$i" "$G" "$G"; done
for i in $(seq "$PLANTED"); do pair planted "$i" "$G" "$OUT/gobench-slow"; done

echo
echo "experiment  pairs  exit 0 (pass)  exit 3 (regression)  exit 4 (inconclusive)  rows called a regression"
for e in aa planted; do
	awk -F'\t' -v e="$e" '$1 == e { t++; n[$3]++; r += $4 }
		END { printf "%-10s %6d  %13d  %19d  %21d  %24d\n", e, t, n[0], n[3], n[4], r }' "$OUT/table.tsv"
done | tee "$OUT/summary.txt"
