package store

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
)

// CommonFlag is a flag that means one thing for every engine that
// declares it (see Decl): it is bound once, and each engine maps its
// values onto its own knobs.
type CommonFlag struct {
	Help    string
	Values  []string
	Default string
}

// The sync levels of --sync: one durability vocabulary for every engine,
// each mapping it onto its own knobs (docs/engines.md has the table).
const (
	// SyncOff never waits for the disk: an OS crash or power cut can
	// lose acknowledged commits (and, for some engines, corrupt the
	// store).
	SyncOff = "off"
	// SyncNormal is the engine's cheaper sync: a power cut may lose the
	// last acknowledged commits, never corrupt what is kept.
	SyncNormal = "normal"
	// SyncFull makes every commit durable before it is acknowledged.
	SyncFull = "full"
)

// SyncLevels lists the sync levels every engine takes, weakest first.
func SyncLevels() []string { return []string{SyncOff, SyncNormal, SyncFull} }

// The profiles of --profile: whose tuning an engine runs at.
const (
	// ProfileLibrary is the engine's library defaults (gobench's bounds
	// where the library's would not fit a small machine).
	ProfileLibrary = "library"
	// ProfileTool is the tuning the engine's own benchmark tool opens it
	// with (pebble bench, badger benchmark, bbolt bench): each engine
	// says what it sets (docs/engines.md).
	ProfileTool = "tool"
)

// CommonFlags are the flags every engine may declare: --sync, --profile.
var CommonFlags = map[string]CommonFlag{
	"profile": {
		Help: "whose tuning each engine that has one runs at (docs/engines.md): library (its library's defaults) " +
			"or tool (the options its own benchmark tool opens it with: pebble's 64 MiB memtables, badger's tables, bbolt's batched writes); " +
			"an engine flag given explicitly wins over the profile",
		Values:  []string{ProfileLibrary, ProfileTool},
		Default: ProfileLibrary,
	},
	"sync": {
		Help: "durability of a commit, for every engine, mapped onto its own knobs (docs/engines.md): " +
			"off (never waits for the disk), normal (the engine's cheaper sync: a power cut may lose the last commits), " +
			"full (a commit is on disk when acknowledged); SQLite also takes extra",
		Values:  SyncLevels(),
		Default: SyncFull,
	},
}

// BindCommon binds the common flag name to fs, or returns its list if fs
// has it already: every engine that declares the flag reads one list.
func BindCommon(fs *pflag.FlagSet, name string) *List {
	c, ok := CommonFlags[name]
	if !ok {
		panic("store: --" + name + " is no common flag")
	}
	if f := fs.Lookup(name); f != nil {
		l, ok := f.Value.(foldCase)
		if !ok {
			panic(fmt.Sprintf("store: --%s is bound already, and not as the common flag", name))
		}
		return l.List
	}
	l := &List{c.Default}
	fs.Var(FoldCase(l), name, c.Help+" (a comma list spans a matrix)")
	return l
}

// FoldCase is the flag value of a list of keywords, which it takes in any
// case, as SQLite does its pragmas' ("--journal WAL" is wal).
func FoldCase(l *List) pflag.Value { return foldCase{l} }

type foldCase struct{ *List }

func (f foldCase) Set(s string) error { return f.List.Set(strings.ToLower(s)) }
