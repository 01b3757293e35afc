package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

// Journal modes, by the names gobench accepts. Rollback is SQLite's default
// mode, DELETE.
var journalModes = map[string]string{
	"rollback": "delete",
	"delete":   "delete",
	"truncate": "truncate",
	"persist":  "persist",
	"wal":      "wal",
	"memory":   "memory",
	"off":      "off",
}

// JournalModes lists the journal mode names users may pass.
func JournalModes() []string {
	return []string{"rollback", "truncate", "persist", "wal", "memory", "off"}
}

// SyncLevels lists the synchronous levels, weakest first.
func SyncLevels() []string { return []string{"off", "normal", "full", "extra"} }

// Options are the SQLite settings of a run, declared once for the four
// drivers (store.Declare): each field's flag, help and values. Every one
// is applied explicitly on every connection, whatever the driver's own
// default, so that drivers are comparable: mattn/go-sqlite3 builds SQLite
// with SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (NORMAL in WAL mode) and a 5 s
// busy timeout; modernc.org/sqlite keeps stock FULL and a 0 s busy
// timeout.
type Options struct {
	// Journal is one of JournalModes; "rollback" is SQLite's DELETE mode
	// (which "delete" names too).
	Journal string `json:"journal" flag:"journal" complete:"rollback,truncate,persist,wal,memory,off" help:"SQLite journal mode: rollback (DELETE), truncate, persist, wal, memory, off"`
	// Sync is one of SyncLevels (PRAGMA synchronous): the common --sync.
	Sync string `json:"sync" flag:"sync" values:"off,normal,full,extra"`
	// BusyTimeoutMS is PRAGMA busy_timeout in milliseconds: how long a
	// connection waits for a lock before an op fails with busy.
	BusyTimeoutMS Millis `json:"busy_timeout_ms" flag:"busy-timeout" help:"how long SQLite's busy handler waits for each lock before a statement fails with busy: an op that needs several locks (BEGIN, then COMMIT) may wait that long for each; under --busy retry, how long gobench retries an op"`
	// SetupBusyTimeoutMS, when longer than BusyTimeoutMS, is how long
	// opening a connection and setting the store up (Init, and Check) wait
	// for a lock: under the retry busy policy BusyTimeoutMS is 0 (ops fail
	// busy at once and the worker retries them), and this is the worker's
	// retry budget, which setup honours too. Op connections go back to
	// BusyTimeoutMS once open.
	SetupBusyTimeoutMS Millis `json:"setup_busy_timeout_ms,omitempty"`
	// Memory keeps the database in memory (SQLite's memdb VFS), shared by
	// the connections of one process only, with the journal in memory too
	// (Journal "memory" or "off"): the run sets it (store.Want.Memory).
	Memory bool `json:"memory,omitempty" name:"memory" named:"omitzero"`
	// API is how reads and updates reach the values: "" or APISQL for SQL
	// statements, APIBlob for SQLite's incremental blob I/O
	// (sqlite3_blob_open, _read, _write), which the ncruces and capi
	// drivers expose. Blob I/O cannot create a row or change a value's size, so
	// upserts and inserts stay SQL and an update must keep the size. The
	// blob workload sets it.
	API string `json:"api,omitempty" name:"api" named:"omitzero"`
	// Checkpoint sets PRAGMA wal_autocheckpoint: after a commit leaves the
	// WAL at least that many pages long, the committing connection
	// checkpoints it. "auto" is SQLite's default threshold (1000 pages),
	// "off" turns automatic checkpoints off (the WAL only grows), a number
	// is a threshold in pages; "" (the flag's auto when not given) leaves
	// the pragma alone. It applies to WAL cells only.
	Checkpoint Checkpoint `json:"checkpoint,omitempty" flag:"checkpoint" complete:"auto,off" named:"omitzero" help:"WAL auto-checkpoint: auto (SQLite's default, 1000 pages), off (the WAL only grows), or a threshold in pages"`
	// NoCLoop turns off the capi driver's loops in C (store.LoopRunner):
	// every op is then its own call into C, where by default a worker runs
	// the closed-loop reads and upserts it can many to a call. The other
	// drivers make one call per op anyway.
	NoCLoop Off `json:"no_c_loop,omitempty" flag:"capi-loop" named:"omitzero" help:"capi driver: run closed-loop reads and upserts up to 4096 to a call into C, each timed in C (false: one call into C per op)"`
	// SQLiteVersion is the SQLite the cgo drivers (mattn, capi) run: a
	// version of mattn's module ("v1.14.53") or a SQLite version one of
	// them bundles ("3.54.1", see SQLiteVersions), compiled into a
	// worker executable of its own (store.WorkerBuild, process mode);
	// "" is the SQLite compiled into gobench.
	SQLiteVersion string `json:"sqlite_version,omitempty" flag:"sqlite-version" named:"omitzero" help:"mattn, capi drivers, process mode: run the workers on another SQLite, built once into a cached worker executable: a mattn module version (v1.14.53) or the SQLite it bundles (3.54.1); modernc and ncruces take only the SQLite they carry, to be compared with the others on it"`
	// Defines are C definitions SQLite is compiled with in the cgo
	// drivers' worker executable (CGO_CFLAGS), joined by "+":
	// "SQLITE_ENABLE_SETLK_TIMEOUT+SQLITE_DEFAULT_CACHE_SIZE=-4000".
	Defines Defines `json:"sqlite_define,omitempty" flag:"sqlite-define" named:"omitzero" help:"mattn, capi drivers, process mode: compile SQLite with these definitions (NAME or NAME=VALUE, several joined by +) into a cached worker executable"`
	// LockWait is how a connection waits for a lock another holds:
	// LockWaitBusyHandler ("" too), the busy handler's sleeps and
	// retries, or LockWaitBlocking, sqlite3_setlk_timeout with the busy
	// timeout: SQLite asks its VFS to block on WAL locks for that long.
	// It needs a build with SQLITE_ENABLE_SETLK_TIMEOUT (--sqlite-define)
	// and the mattn or capi driver. SQLite 3.53's unix VFS does not block
	// in the kernel: outside SQLite's own test builds its
	// osSetPosixAdvisoryLock tries F_SETLK once (a placeholder), so on
	// Linux and macOS the busy handler still does the waiting.
	LockWait string `json:"lock_wait,omitempty" flag:"lock-wait" complete:"busy-handler,blocking" named:"omitzero" help:"how a lock is waited for: busy-handler (sleep and retry) or blocking (sqlite3_setlk_timeout with --busy-timeout, for WAL locks; needs --sqlite-define SQLITE_ENABLE_SETLK_TIMEOUT, mattn or capi; SQLite 3.53's unix VFS does not block in the kernel yet: docs/scenarios.md#blocking-locks)"`
}

// The lock waits of Options.LockWait.
const (
	LockWaitBusyHandler = "busy-handler"
	LockWaitBlocking    = "blocking"
)

// Defines are C definitions joined by "+" (store.ParseDefines), as
// their flag takes them; the text is kept sorted.
type Defines string

// MarshalText gives the definitions as their flag takes them.
func (d Defines) MarshalText() ([]byte, error) { return []byte(d), nil }

// UnmarshalText reads definitions joined by "+", refusing a bad one.
func (d *Defines) UnmarshalText(b []byte) error {
	list, err := store.ParseDefines(string(b))
	if err != nil {
		return err
	}
	*d = Defines(strings.Join(list, "+"))
	return nil
}

// List returns the definitions, sorted.
func (d Defines) List() []string {
	list, _ := store.ParseDefines(string(d))
	return list
}

// declared is the declaration of Options, shared by the four drivers.
var declared = store.Declare("the SQLite drivers", DefaultOptions).OnCell(fit)

// Options returns the SQLite drivers' declared options: --journal,
// --sync, --busy-timeout and --checkpoint, each a comma list spanning a
// matrix, and the capi driver's --capi-loop.
func (d *Driver) Options() store.Declaration { return declared }

var _ store.Declarer = (*Driver)(nil)

// fit fits one cell's options to the run. Checkpoints apply to WAL cells
// only (the other journals run once: their cells are then equal); one
// the command line did not give is the pragma left alone (the default),
// and one a cell takes otherwise (store.Overrider: the application's)
// applies where its journal is WAL, as the flag's cells do. In
// memory, the journal is in memory too unless --journal says otherwise.
// Under the retry policy SQLite fails at once (busy_timeout 0), opening
// and setup wait up to the busy timeout, and the busy timeout is how long
// the worker retries.
func fit(o *Options, w store.Want, given store.Given) (retry time.Duration, err error) {
	switch {
	case given("checkpoint") != nil && !slices.Contains(given("journal"), "wal"):
		return 0, errors.New("--checkpoint applies to --journal wal")
	case o.Journal != "wal":
		o.Checkpoint = "" // the pragma left alone
	}
	if w.Memory {
		o.Memory = true
		if given("journal") == nil {
			o.Journal = "memory"
		}
	}
	if w.BusyRetry {
		if o.BusyTimeoutMS <= 0 {
			return 0, errors.New("--busy retry retries for up to --busy-timeout: give it a positive duration")
		}
		retry = time.Duration(o.BusyTimeoutMS) * time.Millisecond
		// Ops fail at once, and the worker retries and counts; opening a
		// connection and setting the store up wait up to the same budget.
		o.BusyTimeoutMS, o.SetupBusyTimeoutMS = 0, o.BusyTimeoutMS
	}
	return retry, nil
}

// Millis is a duration in whole milliseconds, as SQLite's busy_timeout
// takes it: a number in JSON, a duration ("5s") on the command line.
type Millis int64

// MarshalText gives the duration as its flag takes it: "5s".
func (m Millis) MarshalText() ([]byte, error) {
	return []byte((time.Duration(m) * time.Millisecond).String()), nil
}

// UnmarshalText reads a duration ("1.5s"), to the millisecond below.
func (m *Millis) UnmarshalText(b []byte) error {
	d, err := time.ParseDuration(string(b))
	*m = Millis(d.Milliseconds())
	return err
}

// MarshalJSON gives the milliseconds as a number.
func (m Millis) MarshalJSON() ([]byte, error) { return json.Marshal(int64(m)) }

// UnmarshalJSON reads the milliseconds as a number.
func (m *Millis) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, (*int64)(m)) }

// Checkpoint is an Options.Checkpoint setting: "auto", "off", a number
// of pages, or "" for the pragma left alone, which is SQLite's auto and
// reads so as the flag's default.
type Checkpoint string

// MarshalText gives the setting as its flag takes it: "" is auto.
func (c Checkpoint) MarshalText() ([]byte, error) {
	if c == "" {
		return []byte("auto"), nil
	}
	return []byte(c), nil
}

// UnmarshalText reads the setting as given.
func (c *Checkpoint) UnmarshalText(b []byte) error {
	*c = Checkpoint(b)
	return nil
}

// Off is a switch that is on unless set: its flag says on (true) or off
// (false), its JSON whether it is off.
type Off bool

// MarshalText gives the switch as its flag takes it: "true" for on.
func (o Off) MarshalText() ([]byte, error) { return []byte(strconv.FormatBool(!bool(o))), nil }

// UnmarshalText reads the flag's true (on) or false (off).
func (o *Off) UnmarshalText(b []byte) error {
	on, err := strconv.ParseBool(string(b))
	if err != nil {
		return errors.New("want true or false")
	}
	*o = Off(!on)
	return nil
}

// MarshalJSON gives whether the switch is off.
func (o Off) MarshalJSON() ([]byte, error) { return json.Marshal(bool(o)) }

// UnmarshalJSON reads whether the switch is off.
func (o *Off) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, (*bool)(o)) }

// checkpointPages returns the wal_autocheckpoint value of a Checkpoint
// setting.
func checkpointPages(c Checkpoint) (int, error) {
	switch c {
	case "auto":
		return 1000, nil
	case "off":
		return 0, nil
	}
	n, err := strconv.Atoi(string(c))
	if err != nil || n < 1 {
		return 0, fmt.Errorf("checkpoint %q: want auto, off or a positive number of pages", c)
	}
	return n, nil
}

// The APIs of Options.API.
const (
	APISQL  = "sql"
	APIBlob = "blob"
)

// DefaultOptions returns stock SQLite's settings: rollback journal,
// synchronous=FULL, and a 5 s busy timeout so that many writers wait for
// each other rather than fail at once.
func DefaultOptions() Options {
	return Options{Journal: "rollback", Sync: "full", BusyTimeoutMS: 5000}
}

// Validate checks the options.
func (o Options) Validate() error {
	if _, ok := journalModes[o.Journal]; !ok {
		return fmt.Errorf("unknown journal mode %q (want one of %s)", o.Journal, strings.Join(JournalModes(), ", "))
	}
	if !slices.Contains(SyncLevels(), o.Sync) {
		return fmt.Errorf("unknown sync level %q (want one of %s)", o.Sync, strings.Join(SyncLevels(), ", "))
	}
	if o.Memory && o.Journal != "memory" && o.Journal != "off" {
		return fmt.Errorf("journal mode %s needs files: an in-memory database keeps its journal in memory (want memory or off)", o.Journal)
	}
	if o.Checkpoint != "" {
		if _, err := checkpointPages(o.Checkpoint); err != nil {
			return err
		}
		if o.Journal != "wal" {
			return fmt.Errorf("checkpoint %s applies to the WAL journal, not %s", o.Checkpoint, o.Journal)
		}
	}
	if o.LockWait != "" && o.LockWait != LockWaitBusyHandler && o.LockWait != LockWaitBlocking {
		return fmt.Errorf("unknown lock wait %q (want busy-handler or blocking)", o.LockWait)
	}
	if o.LockWait == LockWaitBlocking && o.BusyTimeoutMS <= 0 {
		return errors.New("--lock-wait blocking blocks for up to --busy-timeout: give it a positive duration (and not --busy retry)")
	}
	if _, err := store.ParseDefines(string(o.Defines)); err != nil {
		return fmt.Errorf("--sqlite-define: %w", err)
	}
	if o.SQLiteVersion != "" {
		if _, _, err := resolveVersion(o.SQLiteVersion); err != nil {
			return err
		}
	}
	if o.API != "" && o.API != APISQL && o.API != APIBlob {
		return fmt.Errorf("unknown API %q (want sql or blob)", o.API)
	}
	for _, ms := range []Millis{o.BusyTimeoutMS, o.SetupBusyTimeoutMS} {
		if ms < 0 || ms > Millis(time.Hour/time.Millisecond) {
			return fmt.Errorf("busy timeout of %d ms is out of range (want 0 to 1h)", ms)
		}
	}
	return nil
}

// openBusyTimeoutMS is how long opening a connection and setting the
// store up wait for a lock (see SetupBusyTimeoutMS).
func (o Options) openBusyTimeoutMS() Millis { return max(o.BusyTimeoutMS, o.SetupBusyTimeoutMS) }

// Encode returns the options as the raw JSON a store.Config carries.
func (o Options) Encode() json.RawMessage { return declared.Encode(o) }

// DecodeOptions reads options as a store.Config carries them: defaults for nil,
// refusing unknown fields and invalid values.
func DecodeOptions(raw json.RawMessage) (Options, error) { return declared.Decode(raw) }
