# gobench — build, test, lint, fuzz and benchmark.
# `make test` is what CI runs (through .ci/run); every target works on a
# fresh machine with Go and gcc: tools come through the Go module proxy.

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
	./pkg/sqlscript:FuzzParse:200000x \
	./pkg/sqlscript:FuzzExpr:200000x \
	./pkg/sqlscript:FuzzParseText:100000x \
	./pkg/sysinfo:FuzzParseMountinfo:200000x \
	./pkg/store/sqlite/internal/iotrace:FuzzReader:100000x

.PHONY: all build test race bench fuzz lint cover soak clean

all: lint test build

build:
	$(GO) build -o bin/gobench ./cmd/gobench

# The end-to-end scripts run hundreds of real processes; on a loaded
# machine they take longer than go test's default 10 minutes per package.
test:
	$(GO) test -timeout 30m ./...

race:
	$(GO) test -race ./...

# Benchmarks: harness cost per op (null store, full worker → pipe →
# coordinator path), wire and recorder costs, and the SQLite mix per driver.
bench:
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) ./internal/coord ./internal/wire ./pkg/workload ./pkg/result ./pkg/store/sqlite ./pkg/sqlscript

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
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) vet ./...

# Many short runs back to back, checking that nothing leaks (CI runs 25).
soak:
	GOBENCH_SOAK_RUNS=500 $(GO) test -count=1 -run '^TestSoak$$' -v ./internal/coord

cover:
	$(GO) test -coverprofile=coverage.out ./...
	$(GO) tool cover -func=coverage.out | tail -1

clean:
	rm -rf bin coverage.out
