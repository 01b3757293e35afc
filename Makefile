# gobench — build, test, lint, fuzz and benchmark.
# Two test tiers: `make short` after every change, `make test` (the whole
# suite, what CI runs through .ci/run) before a merge. Every target works
# on a fresh machine with Go and gcc: tools come through the Go module proxy.

GO          ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2
BENCHTIME   ?= 1s

# Every fuzz target, as package:Name:executions. `make fuzz` runs each for
# its count, a few seconds' worth on a quiet 2-core machine. A count,
# not a duration: with a -fuzztime duration Go 1.26's fuzz coordinator can
# fail a clean run with "context deadline exceeded" when the deadline meets
# a busy worker (golang/go#75804, fixed in Go 1.27), which a loaded CI
# machine hits. FUZZTIME=30s (or 100000x) runs every target for that instead.
FUZZ_TARGETS = \
	./internal/wire:FuzzReader:100000x \
	./internal/wire:FuzzSampleRoundTrip:100000x \
	./pkg/workload:FuzzDecodePlan:20000x \
	./pkg/workload:FuzzParseMix:20000x \
	./pkg/result:FuzzRead:50000x \
	./pkg/result:FuzzReadSuite:50000x \
	./pkg/bytesize:FuzzParse:200000x \
	./pkg/judge:FuzzParseExpectation:50000x \
	./pkg/job:FuzzRead:10000x \
	./pkg/preset:FuzzParseProperties:50000x \
	./pkg/sqlscript:FuzzParse:200000x \
	./pkg/sqlscript:FuzzExpr:200000x \
	./pkg/sqlscript:FuzzParseText:100000x \
	./pkg/sysinfo:FuzzParseMountinfo:200000x \
	./pkg/units:FuzzParseCount:200000x \
	./pkg/iorecord:FuzzReader:100000x \
	./pkg/sqltrace:FuzzReader:50000x \
	./pkg/sqltrace:FuzzRecords:100000x \
	./pkg/history:FuzzParseFlags:100000x

# The targets CI fuzzes (.ci/run: make fuzz-ci, 10,000 executions each):
# the decoders whose test binaries do not link the storage engines (the
# worker stream, result files, SQL scripts and traces, I/O recordings,
# gates, sizes and counts, mountinfo). The
# other four (workload's plan and mix, job files, YCSB property files)
# link pebble, badger, LMDB and three SQLite drivers (one of them SQLite's
# C source), and the history's flags link mattn's SQLite and pgx, which
# -fuzz compiles again, instrumented: with an empty build
# cache that took 8 CPU-minutes more, where pkg/result's first target, the
# standard library's instrumented build included, took 2.2. Their seed
# corpora run in make test on every change, and make fuzz explores them.
FUZZ_CI_TARGETS = $(filter-out ./pkg/workload:% ./pkg/job:% ./pkg/preset:% ./pkg/history:%,$(FUZZ_TARGETS))

.PHONY: all build short test race race-short bench fuzz fuzz-ci lint cover soak clean

all: lint test build

build:
	$(GO) build -o bin/gobench ./cmd/gobench

# The main job on its embedded default (a temporary SQLite file), as the
# README's first command runs it: cmd/gobench-run says it is building,
# builds bin/gobench with a line every 20 s (a first build takes 4 to 9
# minutes on a quiet or moderately busy 2-core machine: SQLite's C source
# and four engines), then runs it. ARGS overrides the run.
ARGS ?= mix --procs 25 --queries 2000 --journal wal
run:
	$(GO) run ./cmd/gobench-run $(ARGS)

# The tier to run after every change: every package's logic, and the
# cheap end-to-end scripts on real worker processes; the long end-to-end
# runs, the soak and the real capacity search skip (testing.Short).
short:
	$(GO) test -short ./...

# The whole suite: every end-to-end script (hundreds of real processes),
# the soak, the real capacity search. The end-to-end scripts take most of
# it and run beside the other packages, from their own directory so that
# go test streams what they print: a line as each script ends (a silent
# stretch of minutes reads as a hang). On a quiet 2-core machine with an
# empty build cache it took 638 s, the end-to-end package 516 s of it; with
# a warm cache at a load average of 12 to 17 (three other engineers'
# builds and tests) 1,277 s, the end-to-end package past 15 minutes. The
# timeout is a guard against a hang, not a speed target: 30 minutes a
# package.
test:
	@echo "go test ./... (internal/e2e apart, beside it, a line per script as it ends)"
	@$(GO) test -timeout 30m $$($(GO) list ./... | grep -v '/internal/e2e$$') & others=$$!; \
	(cd internal/e2e && GOBENCH_E2E_PROGRESS=1 $(GO) test -timeout 30m); e2e=$$?; \
	wait $$others; others=$$?; \
	[ $$e2e = 0 ] && [ $$others = 0 ]

race:
	$(GO) test -race ./...

# The race detector on the short tier of the packages whose code runs
# concurrently (goroutines, errgroups, shared counters), as CI runs it: the
# full tier's extra runs (dozens of power cuts through FUSE) take the same
# code paths, several times slower under -race. A layering test fails when
# a package that starts goroutines is neither here nor exempted there.
RACE_PACKAGES = ./cmd/gobench-run ./internal/coord ./internal/wire ./pkg/runner ./pkg/replay ./pkg/bench ./pkg/workload ./pkg/deal ./pkg/generator ./pkg/result ./pkg/store/conformance
race-short:
	$(GO) test -race -short $(RACE_PACKAGES)

# Benchmarks: harness cost per op (null store, full worker → pipe →
# coordinator path), the worker loop and its wake-up, the lottery, wire
# and recorder costs, and the SQLite mix per driver. BENCH_PACKAGES is
# every package that holds a benchmark (a layering test keeps the list
# whole).
BENCH_PACKAGES = ./internal/coord ./internal/wire ./pkg/runner ./pkg/deal ./pkg/result ./pkg/store/sqlite ./pkg/sqlscript ./pkg/history
bench:
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) $(BENCH_PACKAGES)

fuzz-ci:
	@$(MAKE) --no-print-directory fuzz FUZZ_TARGETS='$(FUZZ_CI_TARGETS)' FUZZTIME=$(or $(FUZZTIME),10000x)

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; name=$${rest%%:*}; budget=$${FUZZTIME:-$${rest#*:}}; \
		echo "fuzz $$pkg $$name ($$budget)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $$budget -fuzzminimizetime 1000x $$pkg; \
	done

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	CGO_ENABLED=0 $(GO) build ./...
	CGO_ENABLED=0 GOOS=darwin $(GO) build ./...
	CGO_ENABLED=0 GOOS=darwin $(GO) vet ./...

# Many short runs back to back, checking that nothing leaks (CI runs 25).
soak:
	GOBENCH_SOAK_RUNS=500 $(GO) test -count=1 -run '^TestSoak$$' -v ./internal/coord

cover:
	$(GO) test -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

clean:
	rm -rf bin coverage.out
