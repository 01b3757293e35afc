package choose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/store"
)

// The promises a service may need of its writes (--keep).
const (
	// KeepAcked: no acknowledged write lost at a power cut.
	KeepAcked = "acked"
	// KeepProcessCrash: no acknowledged write lost when the process
	// dies; a power cut may lose recent ones.
	KeepProcessCrash = "process-crash"
	// KeepNone: speed alone.
	KeepNone = "none"
)

// Keeps lists the promises, strongest first.
func Keeps() []string { return []string{KeepAcked, KeepProcessCrash, KeepNone} }

// Says is a promise in words.
func Says(keep string) string {
	switch keep {
	case KeepAcked:
		return "no acknowledged write lost at a power cut"
	case KeepProcessCrash:
		return "no acknowledged write lost when the process dies (a power cut may lose recent ones)"
	}
	return "none: speed alone"
}

// Flag is one engine flag's value in a candidate.
type Flag struct{ Name, Value string }

// Candidate is one engine at one setting: its driver and the values of
// its own flags.
type Candidate struct {
	Driver string
	Flags  []Flag
}

// Settings names the candidate's flags as a table does: "journal=wal
// sync=full".
func (c Candidate) Settings() string {
	parts := make([]string, len(c.Flags))
	for i, f := range c.Flags {
		parts[i] = f.Name + "=" + f.Value
	}
	return strings.Join(parts, " ")
}

// Name names the candidate as the answer's rows do: "mattn journal=wal
// sync=full".
func (c Candidate) Name() string { return strings.TrimSpace(c.Driver + " " + c.Settings()) }

// family is the candidates of engines that share their settings: each
// driver at each of sets, in order.
type family struct {
	drivers []string
	sets    [][]Flag
}

// families returns the engines' candidate settings for keep: the
// cheapest settings at which each engine says it keeps the promise
// (store.Promise, docs/engines.md). At a power cut that is every engine's
// sync full, but SQLite's rollback journal's, which may lose the last
// transaction at full (its deletion waits for a directory sync) and keeps
// it at extra; bbolt with and without its group commit (the first is its
// library's profile, the second its tool's); pebble and badger at their
// library's and their benchmark tool's profiles (--profile). A process crash
// loses nothing an engine handed the operating system: sync off keeps it,
// but pebble's, which drops its write-ahead log (its normal writes the
// log unsynced).
func families(keep string) ([]family, error) {
	sync := func(v string) []Flag { return []Flag{{"sync", v}} }
	tool := func(v string) []Flag { return []Flag{{"sync", v}, {"profile", store.ProfileTool}} }
	switch keep {
	case KeepAcked:
		return []family{
			{sqliteDrivers, [][]Flag{{{"journal", "wal"}, {"sync", store.SyncFull}}, {{"journal", "rollback"}, {"sync", "extra"}}}},
			{[]string{"bbolt"}, [][]Flag{{{"sync", store.SyncFull}, {"bbolt-batch", "false"}}, {{"sync", store.SyncFull}, {"bbolt-batch", "true"}}}},
			{[]string{"pebble", "badger"}, [][]Flag{sync(store.SyncFull), tool(store.SyncFull)}},
			{[]string{"lmdb"}, [][]Flag{sync(store.SyncFull)}},
		}, nil
	case KeepProcessCrash, KeepNone:
		pebble := store.SyncOff
		if keep == KeepProcessCrash {
			pebble = store.SyncNormal
		}
		return []family{
			{sqliteDrivers, [][]Flag{{{"journal", "wal"}, {"sync", store.SyncOff}}, {{"journal", "rollback"}, {"sync", store.SyncOff}}}},
			{[]string{"bbolt"}, [][]Flag{{{"sync", store.SyncOff}, {"bbolt-batch", "false"}}, {{"sync", store.SyncOff}, {"bbolt-batch", "true"}}}},
			{[]string{"pebble"}, [][]Flag{sync(pebble), tool(pebble)}},
			{[]string{"badger"}, [][]Flag{sync(store.SyncOff), tool(store.SyncOff)}},
			{[]string{"lmdb"}, [][]Flag{sync(store.SyncOff)}},
		}, nil
	}
	return nil, fmt.Errorf("--keep %q: want %s", keep, strings.Join(Keeps(), ", "))
}

// sqliteDrivers are the SQLite drivers, which share their settings.
var sqliteDrivers = []string{"mattn", "modernc", "ncruces", "capi"}

// Candidates returns every engine × setting that can keep the promise,
// among the drivers reg has (and of those, only the ones named in only,
// when it names any); missing lists, a line each, the candidates' drivers
// this build lacks.
func Candidates(keep string, reg *store.Registry, only []string) (cands []Candidate, missing []string, err error) {
	fams, err := families(keep)
	if err != nil {
		return nil, nil, err
	}
	known := map[string]bool{}
	for _, f := range fams {
		for _, d := range f.drivers {
			known[d] = true
			if len(only) > 0 && !slices.Contains(only, d) {
				continue
			}
			if _, err := reg.Lookup(d); err != nil {
				missing = append(missing, d+": not in this build")
				continue
			}
			cands = append(cands, f.expand(d)...)
		}
	}
	for _, d := range only {
		if !known[d] {
			return nil, nil, fmt.Errorf("--driver %s: choose knows no settings of it that keep a promise (it knows %s)", d, strings.Join(slices.Sorted(maps.Keys(known)), ", "))
		}
	}
	if len(cands) == 0 {
		return nil, missing, fmt.Errorf("no candidate engine in this build")
	}
	return cands, missing, nil
}

// expand returns driver's candidates: one per set of the family.
func (f family) expand(driver string) []Candidate {
	out := make([]Candidate, len(f.sets))
	for i, set := range f.sets {
		out[i] = Candidate{Driver: driver, Flags: slices.Clone(set)}
	}
	return out
}
