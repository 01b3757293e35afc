package store

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Setting is one of an engine's options by the name of the flag that
// sets it, with its value as the flag takes it: journal=wal,
// busy-timeout=5s. The same name is the gate selector and the table
// column, so one setting has one spelling everywhere.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// NameOptions returns the named settings of options for the registered
// driver, by its declared options (Declarer): nil for a driver that
// declares none or options that are empty. Without them, reports name the
// options by their JSON keys.
func (r *Registry) NameOptions(driver string, options json.RawMessage) ([]Setting, error) {
	d, err := r.Lookup(driver)
	if err != nil {
		return nil, err
	}
	if len(options) == 0 {
		return nil, nil
	}
	n, ok := d.(Declarer)
	if !ok {
		return nil, nil
	}
	s, err := n.Options().Name(options)
	if err != nil {
		return nil, fmt.Errorf("naming the options of driver %s: %w", driver, err)
	}
	return s, nil
}

// Facts every engine's summary may give (see Summarizer), read by reports
// that name no engine.
const (
	// FactEngine is the engine's name and version: "SQLite 3.53.4".
	FactEngine = "engine"
	// FactHeadline is the settings in force that decide the engine's
	// numbers, by their flag names: "journal wal · sync full ·
	// busy-timeout 5s".
	FactHeadline = "headline"
	// FactSyncs is "true" when the engine's writes reach the disk before
	// they are acknowledged (SQLite's synchronous above off, fsync on the
	// files engine), "false" when they do not.
	FactSyncs = "syncs"
	// FactIOTrace says what counts the store's file I/O (see IOTracer),
	// or, beginning "not traced", why nothing does.
	FactIOTrace = "io_trace"
	// FactSyncPrimitive names the call the engine makes on this OS to
	// sync a file: fdatasync, fsync, msync, F_FULLFSYNC. Whether a commit
	// waits for it is the engine's sync level.
	FactSyncPrimitive = "sync_primitive"
)

// Summarizer is implemented by a Driver that sums its stores' facts
// (Describer) up for reports: FactEngine, FactHeadline and FactSyncs,
// where the engine has them.
type Summarizer interface {
	Summarize(facts []Fact) []Fact
}

// FactValue returns the value of the named fact, "" when there is none.
func FactValue(facts []Fact, name string) string {
	for _, f := range facts {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// Summarize appends the summary facts drv gives of facts (see Summarizer)
// that facts lack; facts of a driver that is no Summarizer are returned
// as they are.
func Summarize(drv Driver, facts []Fact) []Fact {
	s, ok := drv.(Summarizer)
	if !ok || FactValue(facts, FactEngine) != "" {
		return facts
	}
	return append(facts, s.Summarize(facts)...)
}

// Summarize returns facts with the summary facts of the registered
// driver added (see Summarize); facts as they are for an unknown driver.
func (r *Registry) Summarize(driver string, facts []Fact) []Fact {
	d, ok := r.drivers[driver]
	if !ok {
		return facts
	}
	return Summarize(d, facts)
}

// versionFactSuffix ends the name of the fact in which an engine gives its
// version: sqlite_version, pebble_version.
const versionFactSuffix = "_version"

// VersionFact is the name of the fact in which the engine named engine
// gives its version (Describer): "pebble_version". Comparisons warn when
// two runs' versions differ, for every engine that names its version so.
func VersionFact(engine string) string { return engine + versionFactSuffix }

// IsVersionFact reports whether a fact's name is an engine's version fact
// (VersionFact).
func IsVersionFact(name string) bool {
	return strings.HasSuffix(name, versionFactSuffix) && len(name) > len(versionFactSuffix)
}
