#!/usr/bin/env bash
# gobench and go-ycsb side by side on one YCSB workload: go-ycsb's sqlite
# binding as it ships (one database/sql connection, cache=shared, its
# defaults), 25 threads, workload B with records of one 64-byte field,
# 10,000 records, 100,000 ops, WAL (examples/ycsb/b-one-field, the same
# property file for both). Each round loads and runs go-ycsb, then runs
# gobench with 25 worker processes and with 25 goroutines of one
# process; the rounds interleave the three. Prints each round's ops/s,
# p99 of reads and updates and errors, then the medians.
#
# go-ycsb does not `go install` cleanly (its go.mod has a replace
# directive, and its sqlite binding is behind the libsqlite3 build tag,
# which also makes mattn's driver link the system's SQLite). The script
# fetches go-ycsb's source through the Go module proxy (the latest
# tagged version; the proxy serves no untagged commit), removes the build
# tag from the sqlite binding only, builds a go-ycsb main with the basic
# and sqlite bindings alone, and replaces mattn/go-sqlite3 with the
# version gobench's go.mod requires: both tools run the same SQLite,
# compiled from the same amalgamation. synchronous is left to mattn's
# default in WAL, NORMAL (it compiles SQLITE_DEFAULT_WAL_SYNCHRONOUS=1),
# and gobench runs with --sync normal to match; both have a 5 s busy
# timeout (mattn's default, gobench's).
#
# Not part of make test: it downloads go-ycsb's dependencies and runs
# for a minute or two.
#
#   bash bench/ycsb/run.sh                 # ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-3}
GOYCSB_VERSION=${GOYCSB_VERSION:-v1.0.3}
WORKLOAD=examples/ycsb/b-one-field
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
mattn=$(go list -m -f '{{.Version}}' github.com/mattn/go-sqlite3)
work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# build_goycsb builds bin/go-ycsb from go-ycsb's source, unless it was
# built already for this go-ycsb and this mattn/go-sqlite3.
build_goycsb() {
	local stamp="go-ycsb $GOYCSB_VERSION, mattn/go-sqlite3 $mattn"
	if [ -x bin/go-ycsb ] && [ "$(cat bin/go-ycsb.stamp 2>/dev/null)" = "$stamp" ]; then
		return
	fi
	echo "building $stamp..." >&2
	local src
	src=$(cd "$work" && GOFLAGS= go mod download -json "github.com/pingcap/go-ycsb@$GOYCSB_VERSION" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
	cp -r "$src" "$work/go-ycsb"
	chmod -R u+w "$work/go-ycsb"
	(
		cd "$work/go-ycsb"
		sed -i '/^\/\/go:build libsqlite3$/d; /^\/\/ +build libsqlite3$/d' db/sqlite/*.go
		mkdir -p cmd/ycsb-sqlite
		for f in cmd/go-ycsb/*.go; do
			grep -v '_ "github.com/pingcap/go-ycsb/db/' "$f" >"cmd/ycsb-sqlite/$(basename "$f")"
		done
		sed -i 's|^import (|import (\n\t_ "github.com/pingcap/go-ycsb/db/basic"\n\t_ "github.com/pingcap/go-ycsb/db/sqlite"|' cmd/ycsb-sqlite/main.go
		go mod edit -replace "github.com/mattn/go-sqlite3=github.com/mattn/go-sqlite3@$mattn"
		GOFLAGS=-mod=mod go build -o "$OLDPWD/bin/go-ycsb" ./cmd/ycsb-sqlite
	)
	go version -m bin/go-ycsb | grep -q "github.com/mattn/go-sqlite3[[:space:]]*$mattn" || {
		echo "bin/go-ycsb does not carry mattn/go-sqlite3 $mattn" >&2
		exit 1
	}
	echo "$stamp" >bin/go-ycsb.stamp
}

# goycsb_round loads and runs go-ycsb; prints ops/s, read p99 (µs),
# update p99 (µs) and errors of the run.
goycsb_round() {
	local db="$work/goycsb.db"
	rm -f "$db" "$db"-*
	bin/go-ycsb load sqlite -P "$WORKLOAD" -p sqlite.db="$db" -p dropdata=true >/dev/null
	bin/go-ycsb run sqlite -P "$WORKLOAD" -p sqlite.db="$db" | awk '
		function field(line, name,   m) { if (match(line, name ": [0-9.]+")) { m = substr(line, RSTART, RLENGTH); sub(/.*: /, "", m); return m } }
		/^TOTAL / { ops = field($0, "OPS") }
		/^READ / { rp99 = field($0, "99th\\(us\\)") }
		/^UPDATE / { up99 = field($0, "99th\\(us\\)") }
		/_ERROR / { errors += field($0, "Count") }
		END { printf "%.0f %d %d %d\n", ops, rp99, up99, errors }'
}

# gobench_round runs gobench (--procs as given); prints as goycsb_round.
gobench_round() {
	bin/gobench ycsb run "$WORKLOAD" --procs "$1" --journal wal --sync normal --format ycsb -q | awk -F', ' '
		$1 == "[OVERALL]" && $2 == "Throughput(ops/sec)" { ops = $3 }
		$1 == "[READ]" && $2 == "99thPercentileLatency(us)" { rp99 = $3 }
		$1 == "[UPDATE]" && $2 == "99thPercentileLatency(us)" { up99 = $3 }
		$2 == "Return=ERROR" { errors += $3 }
		END { printf "%.0f %d %d %d\n", ops, rp99, up99, errors }'
}

build_goycsb
echo "workload B, 1 field of 64 bytes, 10,000 records, 100,000 ops, 25 threads, WAL, synchronous NORMAL; mattn/go-sqlite3 $mattn in both"
printf '%-5s %-34s %8s %12s %14s %7s\n' round tool ops/s "read p99" "update p99" errors
names=("go-ycsb $GOYCSB_VERSION (sqlite binding)" "gobench, 25 processes" "gobench, 1 process × 25 goroutines")
declare -A all
for r in $(seq "$ROUNDS"); do
	for i in 0 1 2; do
		case $i in
		0) line=$(goycsb_round) ;;
		1) line=$(gobench_round 25) ;;
		2) line=$(gobench_round 1) ;;
		esac
		all[$i]+="$line"$'\n'
		read -r ops rp up err <<<"$line"
		printf '%-5s %-34s %8s %10sµs %12sµs %7s\n' "$r" "${names[$i]}" "$ops" "$rp" "$up" "$err"
	done
done
echo
echo "medians of $ROUNDS rounds:"
for i in 0 1 2; do
	med() { printf '%s' "${all[$i]}" | awk -v c="$1" 'NF {print $c}' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
	printf '%-40s %8s ops/s  read p99 %6sµs  update p99 %7sµs  errors %s\n' "${names[$i]}" "$(med 1)" "$(med 2)" "$(med 3)" "$(med 4)"
done
