package sqlite

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

// mattnModule is the module whose cgo package compiles SQLite into the
// mattn and capi drivers.
const mattnModule = "github.com/mattn/go-sqlite3"

// mattnBundles are the SQLite versions mattn's module versions bundle
// (SQLITE_VERSION in their sqlite3-binding.c, read from the module proxy),
// oldest first: --sqlite-version takes either column.
var mattnBundles = []struct{ mattn, sqlite string }{
	{"v1.14.46", "3.53.2"},
	{"v1.14.47", "3.53.2"},
	{"v1.14.48", "3.53.3"},
	{"v1.14.49", "3.53.4"},
	{"v1.14.50", "3.53.4"},
	{"v1.14.51", "3.53.4"},
	{"v1.14.52", "3.53.4"},
	{"v1.14.53", "3.54.1"},
}

// SQLiteVersions lists the SQLite versions --sqlite-version maps to a
// mattn module version, oldest first.
func SQLiteVersions() []string {
	var out []string
	for _, b := range mattnBundles {
		if len(out) == 0 || out[len(out)-1] != b.sqlite {
			out = append(out, b.sqlite)
		}
	}
	return out
}

var (
	moduleVersion = regexp.MustCompile(`^v1\.[0-9]+\.[0-9]+$`)
	sqliteVersion = regexp.MustCompile(`^3\.[0-9]+\.[0-9]+$`)
)

// resolveVersion returns the mattn module version a --sqlite-version
// names and the SQLite it bundles ("" where not known): a module version
// as given, a SQLite version as the newest mattn version bundling it.
func resolveVersion(v string) (mattn, bundled string, err error) {
	switch {
	case moduleVersion.MatchString(v):
		for _, b := range mattnBundles {
			if b.mattn == v {
				return v, b.sqlite, nil
			}
		}
		return v, "", nil
	case sqliteVersion.MatchString(v):
		for i := len(mattnBundles) - 1; i >= 0; i-- {
			if mattnBundles[i].sqlite == v {
				return mattnBundles[i].mattn, v, nil
			}
		}
		return "", "", fmt.Errorf("--sqlite-version %s: no mattn version known to bundle it (known: %s; or give a mattn module version, v1.14.53)", v, strings.Join(SQLiteVersions(), ", "))
	}
	return "", "", fmt.Errorf("--sqlite-version %q: want a mattn module version (v1.14.53) or a SQLite version (3.54.1)", v)
}

// linkedMattn returns the mattn module version linked into this
// executable, "" where not known (a test binary reads it too).
func linkedMattn() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, dep := range info.Deps {
		if dep.Path == mattnModule {
			if dep.Replace != nil {
				return dep.Replace.Version
			}
			return dep.Version
		}
	}
	return ""
}

var _ store.WorkerBuilder = (*Driver)(nil)

// WorkerBuild returns the worker executable cfg's --sqlite-version and
// --sqlite-define ask for: mattn's module at that version, SQLite
// compiled with those definitions; nil where they ask for none, or for
// the SQLite this executable runs. Only the cgo drivers, which compile
// mattn's SQLite, are built; the others take only the --sqlite-version
// of the SQLite they carry (carries).
func (d *Driver) WorkerBuild(cfg store.Config) (*store.WorkerBuild, error) {
	o, err := DecodeOptions(cfg.Options)
	if err != nil {
		return nil, err
	}
	cgo := d.name == "mattn" || d.name == "capi"
	switch {
	case o.SQLiteVersion == "" && o.Defines == "" && o.LockWait != LockWaitBlocking:
		return nil, nil
	case !cgo && o.LockWait == LockWaitBlocking:
		return nil, fmt.Errorf("%w: --lock-wait blocking calls sqlite3_setlk_timeout, which the mattn and capi drivers can and %s cannot", store.ErrInvalid, d.name)
	case !cgo && o.Defines == "":
		return nil, d.carries(o.SQLiteVersion)
	case !cgo:
		return nil, fmt.Errorf("%w: --sqlite-version and --sqlite-define build the SQLite of the mattn and capi drivers, not %s's", store.ErrInvalid, d.name)
	}
	linked := linkedMattn()
	version := linked
	if o.SQLiteVersion != "" {
		if version, _, err = resolveVersion(o.SQLiteVersion); err != nil {
			return nil, fmt.Errorf("%w: %w", store.ErrInvalid, err)
		}
	}
	var b *store.WorkerBuild
	if version != linked || o.Defines != "" {
		b = buildOf(version, o.Defines.List())
	}
	if o.LockWait == LockWaitBlocking && !slices.Contains(o.Defines.List(), setlkDefine) && (b != nil || !setlkBuilt()) {
		return nil, fmt.Errorf("%w: --lock-wait blocking needs a SQLite compiled with %s: add --sqlite-define %s (process mode)", store.ErrInvalid, setlkDefine, setlkDefine)
	}
	return b, nil
}

// carries accepts a --sqlite-version v of a driver that compiles no
// SQLite of mattn's (modernc, ncruces) where v is the SQLite it carries,
// and refuses any other: such a driver runs as it is, so that
// `--driver mattn,modernc --sqlite-version 3.54.1` compares the drivers on
// one SQLite, the cgo drivers built at modernc's.
func (d *Driver) carries(v string) error {
	_, bundled, err := resolveVersion(v)
	if err != nil {
		return fmt.Errorf("%w: %w", store.ErrInvalid, err)
	}
	own, err := d.EngineVersion()
	if err != nil {
		return err
	}
	own = strings.TrimPrefix(own, "SQLite ")
	if bundled != own {
		if bundled == "" {
			bundled = "a version not known here"
		}
		return fmt.Errorf("%w: --sqlite-version %s is SQLite %s, and %s carries SQLite %s and runs no other: --sqlite-version builds the SQLite of the mattn and capi drivers (give %s to run the others at %s's)", store.ErrInvalid, v, bundled, d.name, own, own, d.name)
	}
	return nil
}

// setlkDefine is the compile option that gives SQLite blocking locks.
const setlkDefine = "SQLITE_ENABLE_SETLK_TIMEOUT"

// buildOf describes the build of mattn version with defines.
func buildOf(version string, defines []string) *store.WorkerBuild {
	name := buildPrefix + "mattn " + version
	if version == "" {
		name = buildPrefix + "mattn as go.mod requires it"
	}
	for _, def := range defines {
		name += " +" + def
	}
	return &store.WorkerBuild{Module: mattnModule, Version: version, Defines: defines, Name: name}
}

// buildPrefix starts the name of every SQLite build.
const buildPrefix = "SQLite build "

// Local returns cfg without the lock wait, which only a build with
// blocking locks applies: the coordinator sets the store up and checks
// it with its own SQLite.
func (d *Driver) Local(cfg store.Config) store.Config {
	o, err := DecodeOptions(cfg.Options)
	if err != nil || o.LockWait == "" {
		return cfg
	}
	o.LockWait = ""
	cfg.Options = o.Encode()
	return cfg
}
