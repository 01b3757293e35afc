package store

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Settings is an engine's options as a command line sets them: the flags
// it binds and the options each cell of a run gets from their values. A
// flag whose usage says "comma list" takes several values, and every value
// is a cell of the run's matrix. The drivers of one engine share one
// Settings (see EngineSettings): the SQLite drivers bind --journal once.
type Settings interface {
	// Engine names the engine, for messages: "the SQLite drivers".
	Engine() string
	// AddFlags binds the engine's flags to fs.
	AddFlags(fs *pflag.FlagSet)
	// Flags names the flags AddFlags binds.
	Flags() []string
	// Cells returns the options of every cell the flag values span, each
	// validated, for a run that wants w.
	Cells(w Want) ([]Cell, error)
}

// Want is what a run asks of every engine, whatever the engine's own
// flags say.
type Want struct {
	// BusyRetry: the worker retries busy ops itself, so an engine that
	// waits for locks on its own (SQLite's busy timeout) must fail at
	// once; its cells say how long the worker may retry.
	BusyRetry bool
	// Memory keeps the database in the memory of one process (crud
	// --storage memory); an engine without such a mode refuses it.
	Memory bool
}

// Cell is the options of one cell of a run.
type Cell struct {
	// Options is what Config.Options carries to the engine.
	Options json.RawMessage
	// RetryBudget, under Want.BusyRetry, is how long the worker may retry
	// an op, from the engine's own lock-wait setting; zero when the engine
	// has none.
	RetryBudget time.Duration
}

// Completer is implemented by Settings that can list the values one of
// their flags takes, for shell completion; nil for a flag of free values.
type Completer interface {
	Values(flag string) []string
}

// Values lists the values an engine's flag takes, for shell completion:
// nil when no engine binds it or its values are free. A common flag
// (--sync) lists the values of every engine that declares it.
func (e *EngineSettings) Values(flag string) []string {
	var out []string
	for _, s := range e.all {
		if c, ok := s.(Completer); ok {
			for _, v := range c.Values(flag) {
				if !slices.Contains(out, v) {
					out = append(out, v)
				}
			}
		}
	}
	return out
}

// EngineSettings holds one bound Settings per engine of a registry,
// shared by that engine's drivers.
type EngineSettings struct {
	all []Settings
	of  map[string]Settings // by driver name
}

// Settings returns a Settings for each engine of the registry's drivers.
func (r *Registry) Settings() *EngineSettings {
	e := &EngineSettings{of: map[string]Settings{}}
	byEngine := map[string]Settings{}
	for _, name := range r.Names() {
		s := settingsOf(r.drivers[name])
		if s == nil {
			continue
		}
		if shared, ok := byEngine[s.Engine()]; ok {
			s = shared
		} else {
			byEngine[s.Engine()] = s
			e.all = append(e.all, s)
		}
		e.of[name] = s
	}
	return e
}

// settingsOf returns a new Settings of d's engine, from its declared
// options (Declarer); nil for a driver without options.
func settingsOf(d Driver) Settings {
	if c, ok := d.(Declarer); ok {
		return c.Options().Settings()
	}
	return nil
}

// AddFlags binds every engine's flags to fs. A flag fs has already (the
// command's own, or another engine's) is a programming error, and panics
// naming the engine: an engine outside the default family prefixes its
// flags with its name (--lmdb-map-size). A common flag (CommonFlags) is
// bound once and shared.
func (e *EngineSettings) AddFlags(fs *pflag.FlagSet) {
	for _, s := range e.all {
		for _, name := range s.Flags() {
			if _, common := CommonFlags[name]; common {
				BindCommon(fs, name)
				continue
			}
			if fs.Lookup(name) != nil {
				panic(fmt.Sprintf("store: %s binds --%s, which is bound already: name the engine's flags with its own prefix", s.Engine(), name))
			}
		}
		s.AddFlags(fs)
	}
}

// Of returns the Settings of driver's engine, nil for a driver without
// options.
func (e *EngineSettings) Of(driver string) Settings { return e.of[driver] }

// Cells returns the option cells of driver for a run that wants w: its
// engine's cells, or one cell of no options.
func (e *EngineSettings) Cells(driver string, w Want) ([]Cell, error) {
	if s := e.of[driver]; s != nil {
		return s.Cells(w)
	}
	return []Cell{{}}, nil
}

// Check refuses a flag an engine binds, given (changed reports which
// were) though none of drivers is of an engine that binds it.
func (e *EngineSettings) Check(changed func(flag string) bool, drivers []string) error {
	var used []Settings
	for _, d := range drivers {
		if s := e.of[d]; s != nil && !slices.Contains(used, s) {
			used = append(used, s)
		}
	}
	for _, s := range e.all {
		for _, f := range s.Flags() {
			if !changed(f) || slices.ContainsFunc(used, func(u Settings) bool { return slices.Contains(u.Flags(), f) }) {
				continue
			}
			return fmt.Errorf("--%s applies to %s, not to %s", f, e.bindersOf(f), strings.Join(drivers, ", "))
		}
	}
	return nil
}

// bindersOf names the engines that bind flag: "the SQLite drivers, the
// lmdb engine".
func (e *EngineSettings) bindersOf(flag string) string {
	var names []string
	for _, s := range e.all {
		if slices.Contains(s.Flags(), flag) {
			names = append(names, s.Engine())
		}
	}
	return strings.Join(names, ", ")
}

// Transactional is implemented by a Driver whose connections group ops
// into transactions (their Conns are Batchers), so that a plan can be
// fitted to it before any store is opened. Without it, a driver's
// connections are taken to run each op alone.
type Transactional interface {
	Transactional() bool
}

// IsTransactional reports whether d's connections batch ops.
func IsTransactional(d Driver) bool {
	t, ok := d.(Transactional)
	return ok && t.Transactional()
}

// List is a comma list flag value ("wal,rollback"): every value is a cell
// of a matrix. Set refuses an empty item and a value given twice.
type List []string

// Set parses a comma list, replacing the default.
func (l *List) Set(s string) error {
	var out List
	for v := range strings.SplitSeq(s, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return fmt.Errorf("%q has an empty item", s)
		}
		for _, seen := range out {
			if seen == v {
				return fmt.Errorf("%s is listed twice", v)
			}
		}
		out = append(out, v)
	}
	*l = out
	return nil
}

// String returns the list as it would be given.
func (l *List) String() string { return strings.Join(*l, ",") }

// Type names the flag's kind in help.
func (l *List) Type() string { return "string" }
