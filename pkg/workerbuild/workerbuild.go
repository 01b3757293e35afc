// Package workerbuild builds gobench worker executables other than the
// running one (store.WorkerBuild): gobench's own source, with one module
// required at another version and C definitions in its cgo package, built with
// the go command into the user's cache directory once and reused while
// the module version, the definitions, the Go version and gobench's
// source stay the same. A SQLite version or compile option is such a
// build: mattn's package compiles SQLite's amalgamation into the binary.
//
// It needs gobench's source and the go command: a checkout (go run
// ./cmd/gobench, bin/gobench of `make build`) or the module cache of a go
// install. Modules come through the Go module proxy, as any go build's.
package workerbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// ErrBuild marks a build that failed: its message ends with the last
// lines of the go command's output.
var ErrBuild = errors.New("cannot build the worker executable")

// Options are where a build's source, cache and notes go.
type Options struct {
	// Source is gobench's source tree (the directory of its go.mod); ""
	// finds it (FindSource).
	Source string
	// CacheDir holds the builds, one directory per key; "" is
	// os.UserCacheDir()/gobench/builds.
	CacheDir string
	// Notes receives a line before a build starts; nil discards it.
	Notes io.Writer
}

// defaultEstimate is how long a build is said to take before any was
// timed on this machine: mattn's SQLite compiled by cgo, on a loaded
// two-core machine.
const defaultEstimate = 2 * time.Minute

// Build returns the path of the executable b names, building it first
// unless the cache has it. A build runs `go build -trimpath` of
// ./cmd/gobench in the source tree with a copy of its go.mod (-modfile)
// that requires b's module at b's version, and b's definitions in a cgo
// directive added to the package at the root of a copy of b's module
// (defineCopy); nothing in the source tree changes.
func Build(ctx context.Context, b store.WorkerBuild, o Options) (string, error) {
	src, err := o.source()
	if err != nil {
		return "", err
	}
	base, err := o.cacheDir()
	if err != nil {
		return "", err
	}
	goVersion, err := goEnv(ctx, "GOVERSION")
	if err != nil {
		return "", err
	}
	sum, err := HashSource(src)
	if err != nil {
		return "", fmt.Errorf("reading gobench's source in %s: %w", src, err)
	}
	dir := filepath.Join(base, Key(b, goVersion, sum))
	exe := filepath.Join(dir, "gobench")
	if fi, err := os.Stat(exe); err == nil && fi.Mode().IsRegular() {
		return exe, nil
	}
	if o.Notes != nil {
		fmt.Fprintf(o.Notes, "building %s (the first build takes about %v)\n", b.Name, estimate(base))
	}
	start := time.Now()
	if err := build(ctx, b, src, base, dir); err != nil {
		return "", err
	}
	took := time.Since(start).Round(time.Second)
	_ = os.WriteFile(filepath.Join(base, "last-build-seconds"), []byte(strconv.Itoa(int(took.Seconds()))), 0o644)
	return exe, nil
}

// build makes dir/gobench through a temporary directory beside it,
// renamed into place once built: a build interrupted leaves no entry.
func build(ctx context.Context, b store.WorkerBuild, src, base, dir string) error {
	if err := os.MkdirAll(base, 0o755); err != nil {
		return fmt.Errorf("the build cache: %w", err)
	}
	tmp, err := os.MkdirTemp(base, filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("the build cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	modfile := filepath.Join(tmp, "go.mod")
	for _, name := range []string{"go.mod", "go.sum"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return fmt.Errorf("reading gobench's %s: %w", name, err)
		}
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return err
		}
	}
	if b.Version != "" {
		if _, err := goRun(ctx, src, "mod", "edit", "-require="+b.Module+"@"+b.Version, modfile); err != nil {
			return fmt.Errorf("%w %s: %w", ErrBuild, b.Name, err)
		}
	}
	args := []string{"build", "-modfile=" + modfile, "-mod=mod", "-trimpath", "-buildvcs=false", "-o", filepath.Join(tmp, "gobench")}
	if len(b.Defines) > 0 {
		if err := defineCopy(ctx, b, src, tmp); err != nil {
			return fmt.Errorf("%w %s: %w", ErrBuild, b.Name, err)
		}
	}
	if _, err := goRun(ctx, src, append(args, "./cmd/gobench")...); err != nil {
		return fmt.Errorf("%w %s: %w", ErrBuild, b.Name, err)
	}
	return install(tmp, dir)
}

// defineCopy copies b's module to tmp and adds to the package at its
// root a file of one cgo directive, CFLAGS with b's definitions, and
// has the build's go.mod replace the module with the copy: the
// definitions reach that package's C code alone, and every other cgo
// package of the build stays as the Go build cache has it (CGO_CFLAGS
// would recompile them all). The module cache's own files cannot be
// overlaid.
func defineCopy(ctx context.Context, b store.WorkerBuild, src, tmp string) error {
	modfile := filepath.Join(tmp, "go.mod")
	if _, err := goRun(ctx, src, "mod", "download", "-modfile="+modfile, b.Module); err != nil {
		return err
	}
	out, err := goRun(ctx, src, "list", "-modfile="+modfile, "-mod=mod", "-m", "-f", "{{if .Replace}}{{.Replace.Dir}}{{else}}{{.Dir}}{{end}}", b.Module)
	if err != nil {
		return err
	}
	from, to := strings.TrimSpace(out), filepath.Join(tmp, "module")
	if !filepath.IsAbs(from) {
		from = filepath.Join(src, from)
	}
	if err := copyTree(from, to); err != nil {
		return fmt.Errorf("copying %s: %w", b.Module, err)
	}
	var def strings.Builder
	def.WriteString("// Code generated by gobench for a worker build; DO NOT EDIT.\n\n")
	fmt.Fprintf(&def, "package %s\n\n", packageName(ctx, src, modfile, b.Module))
	fmt.Fprintf(&def, "// #cgo CFLAGS: %s\nimport \"C\"\n", strings.Join(b.CFlags(), " "))
	if err := os.WriteFile(filepath.Join(to, "zz_gobench_defines.go"), []byte(def.String()), 0o644); err != nil {
		return err
	}
	_, err = goRun(ctx, src, "mod", "edit", "-replace="+b.Module+"="+to, modfile)
	return err
}

// copyTree copies the regular files of the directory tree from into to,
// writable, leaving out hidden directories and those Go ignores.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		target := filepath.Join(to, rel)
		switch name := d.Name(); {
		case d.IsDir() && path != from && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata"):
			return filepath.SkipDir
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case !d.Type().IsRegular():
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// packageName is the name of the package at path.
func packageName(ctx context.Context, src, modfile, path string) string {
	out, err := goRun(ctx, src, "list", "-modfile="+modfile, "-mod=mod", "-f", "{{.Name}}", path)
	if err != nil {
		return "main"
	}
	return strings.TrimSpace(out)
}

// install moves the executable built in tmp to dir/gobench.
func install(tmp, dir string) error {
	if err := os.MkdirAll(filepath.Join(tmp, "entry"), 0o755); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(tmp, "gobench"), filepath.Join(tmp, "entry", "gobench")); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(tmp, "entry"), dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "gobench")); serr == nil {
			return nil // another gobench built it meanwhile
		}
		return fmt.Errorf("the build cache: %w", err)
	}
	return nil
}

// goRun runs the go command in dir and returns its output; its error
// ends with the last lines of its output. The definitions need no flag
// check: ParseDefines allows none a shell or compiler would read
// otherwise, and a VALUE may start with '-', which cgo's check refuses.
func goRun(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	var stdout, output bytes.Buffer
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, io.MultiWriter(&stdout, &output), &output
	cmd.Env = append(os.Environ(), "GOFLAGS=", "CGO_ENABLED=1", "CGO_CFLAGS_ALLOW=-D.*")
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", errors.New("the go command is not on PATH")
		}
		return "", fmt.Errorf("go %s: %w: %s", args[0], err, LastLines(output.String(), 3))
	}
	return stdout.String(), nil
}

// goEnv returns one of go env's values.
func goEnv(ctx context.Context, name string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", name)
	out, err := cmd.Output()
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return "", fmt.Errorf("%w: the go command is not on PATH", ErrBuild)
		}
		return "", fmt.Errorf("%w: go env %s: %w", ErrBuild, name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// LastLines returns the last n non-blank lines of s on one line, joined
// by " | ".
func LastLines(s string, n int) string {
	var lines []string
	for l := range strings.SplitSeq(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// estimate is how long the last build on this machine took, or
// defaultEstimate.
func estimate(base string) time.Duration {
	data, err := os.ReadFile(filepath.Join(base, "last-build-seconds"))
	if n, perr := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && perr == nil && n > 0 {
		return time.Duration(n) * time.Second
	}
	return defaultEstimate
}

func (o Options) cacheDir() (string, error) {
	if o.CacheDir != "" {
		return o.CacheDir, nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no cache directory to keep builds in: %w", ErrBuild, err)
	}
	return filepath.Join(dir, "gobench", "builds"), nil
}

func (o Options) source() (string, error) {
	if o.Source != "" {
		return o.Source, nil
	}
	return FindSource()
}
