# Sourced by the bench scripts, from the repository's root: builds
# bin/gobench and, with build_c, the bare C program, on the SQLite
# amalgamation mattn's driver compiles ($amalg).
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
amalg="$(go list -m -f '{{.Dir}}' github.com/mattn/go-sqlite3)"

# build_c [AMALGAMATION OUTPUT] compiles bench/baseline/c/baseline.c on the
# amalgamation in the directory AMALGAMATION ($amalg) into OUTPUT
# (bin/baseline-c) unless OUTPUT is newer.
build_c() {
	local dir=${1:-$amalg} out=${2:-bin/baseline-c}
	if [ ! -x "$out" ] || [ bench/baseline/c/baseline.c -nt "$out" ]; then
		echo "compiling SQLite's C baseline on SQLite $(amalg_version "$dir") (about a minute)..." >&2
		gcc -O2 -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 -I"$dir" -o "$out" \
			bench/baseline/c/baseline.c "$dir/sqlite3-binding.c" -lpthread -ldl -lm
	fi
}

# amalg_version prints the SQLite version of the amalgamation in the
# directory $1 (its header's SQLITE_VERSION).
amalg_version() {
	sed -n 's/^#define SQLITE_VERSION  *"\(.*\)"$/\1/p' "$1/sqlite3-binding.h"
}
