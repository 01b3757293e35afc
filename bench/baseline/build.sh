# Sourced by the bench scripts, from the repository's root: builds
# bin/gobench and, with build_c, the bare C program, on the SQLite
# amalgamation mattn's driver compiles ($amalg).
mkdir -p bin
go build -o bin/gobench ./cmd/gobench
amalg="$(go list -m -f '{{.Dir}}' github.com/mattn/go-sqlite3)"

# build_c compiles bench/baseline/c/baseline.c unless bin/baseline-c is newer.
build_c() {
	if [ ! -x bin/baseline-c ] || [ bench/baseline/c/baseline.c -nt bin/baseline-c ]; then
		echo "compiling SQLite's C baseline (about a minute)..." >&2
		gcc -O2 -DSQLITE_THREADSAFE=1 -DHAVE_USLEEP=1 -I"$amalg" -o bin/baseline-c \
			bench/baseline/c/baseline.c "$amalg/sqlite3-binding.c" -lpthread -ldl -lm
	fi
}
