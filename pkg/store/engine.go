package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Engine describes an engine that keeps its database in a file or a
// directory of its own, in Go, opened by one process at a time, with
// transactions (batches) and its keys in order (bbolt, pebble, badger):
// what Base makes of it is the scaffolding such engines share (name,
// declared options, sharing, Open and its preconditions, version, facts,
// summary, promise), so an engine's package holds its connection and
// what is truly its own, as restic's genericBackendFactory does for its
// backends. Its connections' operations are OrderedConn's, in a Txn.
type Engine[O Validator] struct {
	// Name is the driver's name: "pebble".
	Name string
	// Keeps is what the engine keeps at Config.Path: "a file" or "a
	// directory".
	Keeps string
	// Module and ModuleVersion are the engine's Go module compiled in, as
	// go.mod requires it (a test of the engine holds the two together:
	// test binaries carry no module versions to read back).
	Module, ModuleVersion string
	// Declared is the declaration of the engine's options (Declare).
	Declared *Decl[O]
	// New returns a store of the engine at site, once Open has checked
	// its Config; it must not touch the database's files (see
	// Driver.Open).
	New func(site Site[O]) Store
	// SyncPrimitive is what it calls to sync on this OS
	// (FactSyncPrimitive).
	SyncPrimitive string
	// Lock names what keeps a second process out: one process at a time
	// opens a database (ShareProcess).
	Lock string
	// IOTrace says what counts its file I/O, or why nothing does
	// (FactIOTrace).
	IOTrace string
	// Off, Normal and Full are what it promises at a power cut at each
	// --sync level (Promiser); its commits reach the disk before they are
	// acknowledged (FactSyncs) where the promise is PromiseKeeps.
	Off, Normal, Full Promise
}

// Site is where a store of an Engine keeps its database, and how: what
// Open read and checked of its Config.
type Site[O Validator] struct {
	// Path is the database's file or directory.
	Path string
	// Options are the engine's options, decoded and valid.
	Options O
	// Table is the record table the store keeps, if any.
	Table *Table

	engine *Engine[O]
}

var _ Describer = Site[nullOptions]{}

// Describe gives the store's facts: the engine's version, its options,
// and how its commits reach the disk (Engine.Describe).
func (s Site[O]) Describe(context.Context) ([]Fact, error) { return s.engine.Describe(s.Options), nil }

// DirMarker is the file that marks a directory as gobench's, in a
// directory-keeping engine's database (see PrecheckDir); it says what
// keeps the directory (Engine.MarkText).
const DirMarker = "gobench.marker"

// MarkText is what the engine's DirMarker says: "a gobench pebble
// database".
func (e *Engine[O]) MarkText() string { return "a gobench " + e.Name + " database" }

// PrecheckDir refuses, reading only, a directory the engine would not
// claim (see PrecheckDir): a file, or a non-empty directory its marker
// does not name the engine's.
func (e *Engine[O]) PrecheckDir(dir string) error { return PrecheckDir(dir, DirMarker, e.MarkText()) }

// Marked checks, before the engine opens dir, that it holds the engine's
// marker: Reset made it the engine's.
func (e *Engine[O]) Marked(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, DirMarker)); err != nil {
		return fmt.Errorf("opening %s: not an initialised %s: %w", dir, strings.TrimPrefix(e.MarkText(), "a "), err)
	}
	return nil
}

// Reset makes dir the engine's for a new run: it refuses a directory the
// engine would not claim (PrecheckDir) before anything else, closes the
// process's handle on the database (closeHandle), claims dir (ClaimDir),
// takes the engine's lock (lock, whose Close releases it; an error is
// the engine's, naming who holds it), and removes everything but the
// marker and the files keep names, holding the lock: a database another
// process has open is refused, not emptied under it.
func (e *Engine[O]) Reset(dir string, closeHandle func() error, lock func() (io.Closer, error), keep ...string) error {
	if err := e.PrecheckDir(dir); err != nil {
		return err
	}
	if err := closeHandle(); err != nil {
		return err
	}
	entries, err := ClaimDir(dir, DirMarker, e.MarkText())
	if err != nil {
		return err
	}
	l, err := lock()
	if err != nil {
		return err
	}
	for _, en := range entries {
		if en.Name() == DirMarker || slices.Contains(keep, en.Name()) {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dir, en.Name())); err != nil {
			l.Close()
			return fmt.Errorf("emptying %s: %w", dir, err)
		}
	}
	return l.Close()
}

// Version names the engine's module compiled in: "pebble v2.1.7".
func (e *Engine[O]) Version() string { return e.Name + " " + e.ModuleVersion }

// options decodes cfg's options and checks what every such engine
// requires of a Config (see OpenOptions).
func (e *Engine[O]) options(cfg Config) (O, error) {
	return OpenOptions(e.Declared, cfg, e.Keeps, "a database it did not create")
}

// OpenOptions decodes cfg's options with d, and checks what an engine
// that keeps its database at a path of its own (keeps: "a directory")
// requires of a Config: a path, no --reuse (it cannot take what it did not
// create without destroying other data; reuse says what: "a directory
// it did not create: it would delete the files there"), a valid record
// table. Errors are of class ErrInvalid and name the engine.
func OpenOptions[O Validator](d *Decl[O], cfg Config, keeps, reuse string) (O, error) {
	o, err := d.Decode(cfg.Options)
	if err != nil {
		return o, err
	}
	if cfg.Path == "" {
		return o, fmt.Errorf("%w: %s keeps %s: give it a path", ErrInvalid, d.Engine(), keeps)
	}
	if cfg.Reuse {
		return o, fmt.Errorf("%w: %s cannot reuse %s", ErrInvalid, d.Engine(), reuse)
	}
	return o, cfg.CheckTable()
}

// Describe returns the facts of a store of the engine opened with o (as
// a Describer gives them): the driver, its version (VersionFact), how it
// syncs, what counts its I/O, and its options.
func (e *Engine[O]) Describe(o O) []Fact {
	return append([]Fact{
		{Name: "driver", Value: e.Name},
		{Name: VersionFact(e.Name), Value: e.Version()},
		{Name: FactSyncPrimitive, Value: e.SyncPrimitive},
		{Name: FactIOTrace, Value: e.IOTrace},
	}, e.Declared.Facts(o)...)
}

// Spec is implemented by an engine's Driver, a type of no size whose
// Engine returns the engine's description, so that the Driver, and the
// Base it embeds, work as zero values (bbolt.Driver{}).
type Spec[O Validator] interface {
	Engine() *Engine[O]
}

// Base is the Driver methods an Engine's description answers: embed it
// in the engine's Driver (S), which gives Engine and what else is its
// own: type Driver struct{ store.Base[Driver, Options] }.
type Base[S Spec[O], O Validator] struct{}

var (
	_ Driver        = Base[nullSpec, nullOptions]{}
	_ Declarer      = Base[nullSpec, nullOptions]{}
	_ Sharer        = Base[nullSpec, nullOptions]{}
	_ Transactional = Base[nullSpec, nullOptions]{}
	_ Tabular       = Base[nullSpec, nullOptions]{}
	_ Versioned     = Base[nullSpec, nullOptions]{}
	_ Summarizer    = Base[nullSpec, nullOptions]{}
	_ Promiser      = Base[nullSpec, nullOptions]{}
)

// nullSpec and nullOptions instantiate Base for the assertions above.
type (
	nullSpec    struct{}
	nullOptions struct{}
)

func (nullSpec) Engine() *Engine[nullOptions] { return nil }
func (nullOptions) Validate() error           { return nil }

func (Base[S, O]) engine() *Engine[O] {
	var s S
	return s.Engine()
}

// Name returns the engine's name.
func (b Base[S, O]) Name() string { return b.engine().Name }

// Options declares the engine's options.
func (b Base[S, O]) Options() Declaration { return b.engine().Declared }

// Open checks cfg and returns a store of the engine, whose database is
// opened on first use.
func (b Base[S, O]) Open(_ context.Context, cfg Config) (Store, error) {
	e := b.engine()
	o, err := e.options(cfg)
	if err != nil {
		return nil, err
	}
	return e.New(Site[O]{Path: cfg.Path, Options: o, Table: cfg.Table, engine: e}), nil
}

// Share reports that one process at a time may open one of the engine's
// databases, and what keeps the others out.
func (b Base[S, O]) Share() Share { return Share{Sharing: ShareProcess, Lock: b.engine().Lock} }

// Transactional reports that the engine's connections batch ops.
func (Base[S, O]) Transactional() bool { return true }

// Tables reports record tables in key order: scans walk the keys.
func (Base[S, O]) Tables() TableSupport { return TableSupport{Ordered: true} }

// EngineVersion names the engine's module compiled in.
func (b Base[S, O]) EngineVersion() (string, error) { return b.engine().Version(), nil }

// Summarize gives the engine's version as the engine, its options as the
// headline, and whether commits reach the disk before they are
// acknowledged (its promise at the run's --sync keeps them).
func (b Base[S, O]) Summarize(facts []Fact) []Fact {
	e := b.engine()
	v := FactValue(facts, VersionFact(e.Name))
	if v == "" {
		return nil
	}
	p, _ := b.Promise(facts)
	return []Fact{
		{Name: FactEngine, Value: v},
		{Name: FactHeadline, Value: e.Declared.Headline(facts)},
		{Name: FactSyncs, Value: strconv.FormatBool(p.Level == PromiseKeeps)},
	}
}

// Promise says what the engine promises at a power cut, by its sync
// level.
func (b Base[S, O]) Promise(facts []Fact) (Promise, bool) {
	e := b.engine()
	return PromiseBySync(facts, e.Off, e.Normal, e.Full)
}

// Handle is one process's handle on an engine's database: opened on
// first use (by one goroutine while the others wait), shared by every
// connection, and closed by Close, after which the next use opens it
// anew.
type Handle[T io.Closer] struct {
	mu sync.Mutex
	h  T
	ok bool
}

// Get returns the open handle, opening it with open if it is not.
func (h *Handle[T]) Get(open func() (T, error)) (T, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ok {
		return h.h, nil
	}
	v, err := open()
	if err != nil {
		var zero T
		return zero, err
	}
	h.h, h.ok = v, true
	return v, nil
}

// Close closes the handle if it is open.
func (h *Handle[T]) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.ok {
		return nil
	}
	err := h.h.Close()
	var zero T
	h.h, h.ok = zero, false
	return err
}

// Txn is a connection's open batch, a transaction T of the engine's, and
// the one owner of whether one is open: Begin opens one, and Commit and
// Rollback end it whatever the engine answers. Embedded in a connection
// it gives its Batcher and TxProber methods, and a Close that rolls back.
type Txn[T any] struct {
	name     string
	begin    func() (T, error)
	commit   func(T) error
	rollback func(T) error

	tx   T
	open bool
}

var (
	_ Batcher  = (*Txn[int])(nil)
	_ TxProber = (*Txn[int])(nil)
)

// NewTxn returns a Txn of the engine named name whose transactions begin,
// commit and roll back by the functions given; commit and rollback also
// release what the transaction holds.
func NewTxn[T any](name string, begin func() (T, error), commit, rollback func(T) error) Txn[T] {
	return Txn[T]{name: name, begin: begin, commit: commit, rollback: rollback}
}

// Current returns the open transaction, if any.
func (t *Txn[T]) Current() (T, bool) { return t.tx, t.open }

// InTx reports whether a transaction is open.
func (t *Txn[T]) InTx() bool { return t.open }

// Begin opens a transaction; one open already is an error.
func (t *Txn[T]) Begin() error {
	if t.open {
		return errors.New(t.name + ": a transaction is open already")
	}
	tx, err := t.begin()
	if err != nil {
		return err
	}
	t.tx, t.open = tx, true
	return nil
}

// Commit commits the open transaction: acknowledged when it returns nil.
// The transaction is over whatever the commit returned.
func (t *Txn[T]) Commit() error {
	if !t.open {
		return errors.New(t.name + ": commit without a transaction")
	}
	return t.commit(t.end())
}

// Rollback ends the open transaction, if any, writing none of it.
func (t *Txn[T]) Rollback() error {
	if !t.open {
		return nil
	}
	return t.rollback(t.end())
}

// Close rolls back the open transaction, if any.
func (t *Txn[T]) Close() error { return t.Rollback() }

// end returns the open transaction, which is no longer open.
func (t *Txn[T]) end() T {
	tx := t.tx
	var zero T
	t.tx, t.open = zero, false
	return tx
}

// CheckMiB refuses a size of v MiB outside lo to hi, naming what it sizes
// ("a block cache"): an engine's Validate of its memory options.
func CheckMiB(what string, v, lo, hi int64) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s of %d MiB is out of range (want %s to %s)", what, v, mib(lo), mib(hi))
	}
	return nil
}

// mib writes a size of v MiB in the largest unit it is a whole number
// of: "0", "1 MiB", "4 GiB", "1 TiB".
func mib(v int64) string {
	switch {
	case v == 0:
		return "0"
	case v%(1<<20) == 0:
		return strconv.FormatInt(v>>20, 10) + " TiB"
	case v%(1<<10) == 0:
		return strconv.FormatInt(v>>10, 10) + " GiB"
	}
	return strconv.FormatInt(v, 10) + " MiB"
}
