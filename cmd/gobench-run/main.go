// Command gobench-run builds gobench and runs it with the arguments given,
// saying what it does while it compiles: the README's first command,
//
//	go run ./cmd/gobench-run mix --procs 25 --queries 2000 --journal wal
//
// A first build compiles SQLite's C source and four storage engines, for
// minutes on a small machine, and `go run ./cmd/gobench` prints nothing
// until it ends; this command compiles in a second, says it is building
// before the long compile starts, and prints a line every 20 s until the
// run begins. It builds bin/gobench in the module's root (as `make run`
// does), so later runs start at once and the binary is there to reuse.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

// every is how often a line says the build still runs.
const every = 20 * time.Second

// buildNote is the line said before the build starts: what it compiles
// and how long a first build takes, measured on the project's own 2-core
// test machine.
const buildNote = "gobench-run: building bin/gobench: a first build compiles SQLite's C source and four storage engines (4 to 9 minutes on 2 quiet or moderately busy cores, 25 at load 20); later builds take seconds"

func main() {
	os.Exit(run(os.Args[1:], os.Stderr, every))
}

// run builds bin/gobench, saying so on w (a line every tick while it
// compiles), then runs it with args and returns its exit status.
func run(args []string, w io.Writer, tick time.Duration) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bin, err := build(ctx, w, tick)
	if err != nil {
		fmt.Fprintf(w, "gobench-run: %v\n", err)
		return 1
	}
	stop() // from here an interrupt is gobench's to handle
	return runBinary(bin, args)
}

// build compiles gobench into bin/gobench of the module's root, printing
// buildNote first and a line every tick while the compiler runs, and
// returns the binary's path.
func build(ctx context.Context, w io.Writer, tick time.Duration) (string, error) {
	root, err := moduleRoot(ctx)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(root, "bin", "gobench")
	fmt.Fprintln(w, buildNote)
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/gobench")
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, w, w
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting go build: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t0 := time.Now()
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	for {
		select {
		case err := <-done:
			if err != nil {
				return "", fmt.Errorf("go build ./cmd/gobench: %w", err)
			}
			fmt.Fprintf(w, "gobench-run: built in %v; running bin/gobench\n", time.Since(t0).Round(time.Second))
			return bin, nil
		case <-ticker.C:
			fmt.Fprintf(w, "gobench-run: still building (%v so far)\n", time.Since(t0).Round(time.Second))
		}
	}
}

// moduleRoot is the directory of the go.mod of the module in the current
// directory: gobench's, when run as the README says.
func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside a Go module: run it in a clone of gobench")
	}
	return filepath.Dir(mod), nil
}

// runBinary runs bin with args, its standard streams this process's, and
// returns its exit status.
func runBinary(bin string, args []string) int {
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	signal.Ignore(os.Interrupt) // the child, in the same process group, gets it
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gobench-run: %v\n", err)
		return 1
	}
	return 0
}
