package workerbuild

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

// modulePath is gobench's module.
const modulePath = "github.com/gobench/gobench"

// SourceEnv names the environment variable that gives gobench's source
// tree, where it cannot be found otherwise.
const SourceEnv = "GOBENCH_SOURCE"

// ErrNoSource marks a gobench whose source tree cannot be found.
var ErrNoSource = errors.New("gobench's source cannot be found: a SQLite build needs it (run gobench from its checkout, as go run ./cmd/gobench does, or set " + SourceEnv + " to the checkout)")

// FindSource returns gobench's source tree: $GOBENCH_SOURCE; else the
// first directory holding gobench's go.mod above the executable or the
// working directory (a checkout's bin/gobench, go run in the checkout);
// else the module cache's copy of the version the executable was built
// at (go install …@version).
func FindSource() (string, error) {
	if dir := os.Getenv(SourceEnv); dir != "" {
		if !isSource(dir) {
			return "", fmt.Errorf("%w: $%s=%s holds no go.mod of %s", ErrBuild, SourceEnv, dir, modulePath)
		}
		return dir, nil
	}
	var starts []string
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			starts = append(starts, filepath.Dir(exe))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	for _, dir := range starts {
		for ; ; dir = filepath.Dir(dir) {
			if isSource(dir) {
				return dir, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Path == modulePath && info.Main.Version != "" && info.Main.Version != "(devel)" {
		if cache := os.Getenv("GOMODCACHE"); cache != "" {
			if dir := filepath.Join(cache, modulePath+"@"+info.Main.Version); isSource(dir) {
				return dir, nil
			}
		}
		if home, err := os.UserHomeDir(); err == nil {
			if dir := filepath.Join(home, "go", "pkg", "mod", modulePath+"@"+info.Main.Version); isSource(dir) {
				return dir, nil
			}
		}
	}
	return "", ErrNoSource
}

// isSource reports whether dir holds gobench's go.mod.
func isSource(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == modulePath
		}
	}
	return false
}

// built reports whether a file of the source tree goes into a build: Go,
// C and assembly sources, embedded SQL, go.mod and go.sum; no test.
func built(name string) bool {
	if strings.HasSuffix(name, "_test.go") {
		return false
	}
	switch filepath.Ext(name) {
	case ".go", ".c", ".h", ".s", ".sql":
		return true
	}
	return name == "go.mod" || name == "go.sum"
}

// HashSource returns a digest of the files of the source tree in dir
// that go into a build (their paths and contents), skipping .git,
// testdata and bin: gobench's revision as the build sees it, committed
// or not.
func HashSource(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || name == "bin" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && built(name) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	slices.Sort(files)
	h := sha256.New()
	for _, path := range files {
		rel, _ := filepath.Rel(dir, path)
		fmt.Fprintf(h, "%s\x00", filepath.ToSlash(rel))
		f, err := os.Open(path)
		if err != nil {
			return "", err
		}
		n, err := io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "\x00%d\x00", n)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Key names a build in the cache: a digest of its module version,
// definitions, the Go version and gobench's source digest (HashSource).
// Builds that differ in any of them have different keys; the build's
// name, which only reports read, takes no part.
func Key(b store.WorkerBuild, goVersion, sourceHash string) string {
	h := sha256.New()
	for _, part := range []string{b.Module, b.Version, strings.Join(b.Defines, "+"), goVersion, sourceHash} {
		fmt.Fprintf(h, "%d:%s\x00", len(part), part)
	}
	return hex.EncodeToString(h.Sum(nil))[:24]
}
