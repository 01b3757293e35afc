package judge

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
)

// VersionsNote says, in one line, that runs compare drivers of one
// engine carrying different versions of it ("note: drivers carry
// different SQLite versions: mattn 3.53.4, modernc 3.54.1 — a driver
// difference is partly a version difference"); "" when no two drivers of
// one engine differ. Engines are told apart by the name their version fact
// gives them (store.VersionFact), and named as their engine fact names
// them. runs are one of each cell (a suite's first runs:
// SuiteVersionsNote).
func VersionsNote(runs []*result.Result) string {
	type driverVersion struct{ driver, version string }
	byEngine := map[string][]driverVersion{}
	var engines []string
	for _, r := range runs {
		for _, f := range r.Environment.Store {
			if !store.IsVersionFact(f.Name) || f.Value == "" {
				continue
			}
			name := engineName(r.Environment.StoreFact(store.FactEngine), f)
			dv := driverVersion{r.Plan.Driver, f.Value}
			if !slices.Contains(engines, name) {
				engines = append(engines, name)
			}
			if !slices.Contains(byEngine[name], dv) {
				byEngine[name] = append(byEngine[name], dv)
			}
		}
	}
	var notes []string
	for _, e := range engines {
		dvs := byEngine[e]
		if !slices.ContainsFunc(dvs, func(dv driverVersion) bool { return dv.version != dvs[0].version }) {
			continue
		}
		parts := make([]string, len(dvs))
		for i, dv := range dvs {
			parts[i] = dv.driver + " " + dv.version
		}
		notes = append(notes, fmt.Sprintf("note: drivers carry different %s versions: %s — a driver difference is partly a version difference", e, strings.Join(parts, ", ")))
	}
	return strings.Join(notes, "\n")
}

// engineName names the engine whose version fact is v: its engine fact
// without the version ("SQLite" of "SQLite 3.53.4"), else the fact's name
// without its suffix ("pebble" of pebble_version).
func engineName(engineFact string, v store.Fact) string {
	if name, ok := strings.CutSuffix(engineFact, " "+v.Value); ok && name != "" {
		return name
	}
	return strings.TrimSuffix(v.Name, "_version")
}

// SuiteVersionsNote is VersionsNote of the first run of each of the
// suite's cells.
func SuiteVersionsNote(s *result.Suite) string {
	runs := make([]*result.Result, len(s.Cells))
	for i, c := range s.Cells {
		runs[i] = c.Runs[0]
	}
	return VersionsNote(runs)
}
