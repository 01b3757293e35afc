package store

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// WorkerBuild is a worker executable other than the running one that a
// cell's options ask for: gobench's own source built with one module at
// another version and with C preprocessor definitions (CGO_CFLAGS), as a
// cgo engine's library is compiled into the binary (a SQLite version, a
// compile option). The coordinator builds it once (cached) and starts the
// cell's worker processes from it.
type WorkerBuild struct {
	// Module is the module whose version the build sets:
	// "github.com/mattn/go-sqlite3".
	Module string `json:"module"`
	// Version is Module's version in the build ("v1.14.53"); "" keeps
	// the one gobench's go.mod requires.
	Version string `json:"version,omitempty"`
	// Defines are the C definitions, "NAME" or "NAME=VALUE", sorted
	// (ParseDefines).
	Defines []string `json:"defines,omitempty"`
	// Name is how notes and reports name the build: "SQLite build
	// mattn v1.14.53 +SQLITE_ENABLE_SETLK_TIMEOUT".
	Name string `json:"name"`
}

// CFlags returns the build's definitions as compiler flags: -DNAME=VALUE.
func (b WorkerBuild) CFlags() []string {
	flags := make([]string, len(b.Defines))
	for i, d := range b.Defines {
		flags[i] = "-D" + d
	}
	return flags
}

// WorkerBuilder is implemented by a Driver whose options may ask for a
// worker build (see WorkerBuild).
type WorkerBuilder interface {
	// WorkerBuild returns the build cfg's options ask for, nil for the
	// running executable; an error where the driver cannot run one.
	WorkerBuild(cfg Config) (*WorkerBuild, error)
	// Local returns cfg as this executable opens the store to set it up,
	// describe and check it for workers of another build: without the
	// options only that build can apply.
	Local(cfg Config) Config
}

var (
	defineName  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	defineValue = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)
)

// ParseDefines reads C definitions joined by "+" ("SQLITE_ENABLE_X+
// SQLITE_DEFAULT_CACHE_SIZE=-4000"), each NAME or NAME=VALUE, a NAME a C
// identifier and a VALUE letters, digits, '_', '.' or '-' (nothing a
// shell or the compiler's command line would read otherwise). It returns
// them sorted, each once; "" is none. A NAME given twice with different
// values is refused.
func ParseDefines(text string) ([]string, error) {
	if text == "" {
		return nil, nil
	}
	values := map[string]string{}
	var out []string
	for item := range strings.SplitSeq(text, "+") {
		name, value, hasValue := strings.Cut(item, "=")
		switch {
		case !defineName.MatchString(name):
			return nil, fmt.Errorf("%q: a definition is NAME or NAME=VALUE, NAME a C identifier", item)
		case hasValue && !defineValue.MatchString(value):
			return nil, fmt.Errorf("%q: a definition's VALUE is letters, digits, '_', '.' or '-'", item)
		}
		if old, ok := values[name]; ok {
			if old != item {
				return nil, fmt.Errorf("%s is defined twice, as %q and %q", name, old, item)
			}
			continue
		}
		values[name] = item
		out = append(out, item)
	}
	slices.Sort(out)
	return out, nil
}

// FactWorkerBuild is the fact naming the worker build a run's workers ran
// (WorkerBuild.Name), where they ran one: the coordinator adds it to the
// facts the build's own worker described.
const FactWorkerBuild = "worker_build"
