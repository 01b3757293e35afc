package sqlite

import (
	"encoding/json"
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

// Options are the SQLite settings of a run. Every one is applied
// explicitly on every connection, whatever the driver's own default, so
// that drivers are comparable: mattn/go-sqlite3 builds SQLite with
// SQLITE_DEFAULT_WAL_SYNCHRONOUS=1 (NORMAL in WAL mode) and a 5 s busy
// timeout; modernc.org/sqlite keeps stock FULL and a 0 s busy timeout.
type Options struct {
	// Journal is one of JournalModes; "rollback" is SQLite's DELETE mode.
	Journal string `json:"journal"`
	// Sync is one of SyncLevels (PRAGMA synchronous).
	Sync string `json:"sync"`
	// BusyTimeoutMS is PRAGMA busy_timeout in milliseconds: how long a
	// connection waits for a lock before an op fails with busy.
	BusyTimeoutMS int64 `json:"busy_timeout_ms"`
	// SetupBusyTimeoutMS, when longer than BusyTimeoutMS, is how long
	// opening a connection and setting the store up (Init, and Check) wait
	// for a lock: under the retry busy policy BusyTimeoutMS is 0 (ops fail
	// busy at once and the worker retries them), and this is the worker's
	// retry budget, which setup honours too. Op connections go back to
	// BusyTimeoutMS once open.
	SetupBusyTimeoutMS int64 `json:"setup_busy_timeout_ms,omitempty"`
	// Memory keeps the database in memory (SQLite's memdb VFS), shared by
	// the connections of one process only, with the journal in memory too
	// (Journal "memory" or "off").
	Memory bool `json:"memory,omitempty"`
	// API is how reads and updates reach the values: "" or APISQL for SQL
	// statements, APIBlob for SQLite's incremental blob I/O
	// (sqlite3_blob_open, _read, _write), which the ncruces and capi
	// drivers expose. Blob I/O cannot create a row or change a value's size, so
	// upserts and inserts stay SQL and an update must keep the size.
	API string `json:"api,omitempty"`
	// Checkpoint sets PRAGMA wal_autocheckpoint: after a commit leaves the
	// WAL at least that many pages long, the committing connection
	// checkpoints it. "auto" is SQLite's default threshold (1000 pages),
	// "off" turns automatic checkpoints off (the WAL only grows), a number
	// is a threshold in pages; "" leaves the pragma alone.
	Checkpoint string `json:"checkpoint,omitempty"`
	// NoCLoop turns off the capi driver's loops in C (store.LoopRunner):
	// every op is then its own call into C, where by default a worker runs
	// the closed-loop reads and upserts it can many to a call. The other
	// drivers make one call per op anyway.
	NoCLoop bool `json:"no_c_loop,omitempty"`
}

// checkpointPages returns the wal_autocheckpoint value of a Checkpoint
// setting.
func checkpointPages(c string) (int, error) {
	switch c {
	case "auto":
		return 1000, nil
	case "off":
		return 0, nil
	}
	n, err := strconv.Atoi(c)
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
	if o.API != "" && o.API != APISQL && o.API != APIBlob {
		return fmt.Errorf("unknown API %q (want sql or blob)", o.API)
	}
	for _, ms := range []int64{o.BusyTimeoutMS, o.SetupBusyTimeoutMS} {
		if ms < 0 || ms > int64(time.Hour/time.Millisecond) {
			return fmt.Errorf("busy timeout of %d ms is out of range (want 0 to 1h)", ms)
		}
	}
	return nil
}

// openBusyTimeoutMS is how long opening a connection and setting the
// store up wait for a lock (see SetupBusyTimeoutMS).
func (o Options) openBusyTimeoutMS() int64 { return max(o.BusyTimeoutMS, o.SetupBusyTimeoutMS) }

// Encode returns the options as the raw JSON a store.Config carries.
func (o Options) Encode() json.RawMessage {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // cannot happen: plain struct of strings and ints
	}
	return b
}

// DecodeOptions reads options as a store.Config carries them: defaults for nil,
// refusing unknown fields and invalid values.
func DecodeOptions(raw json.RawMessage) (Options, error) {
	o := DefaultOptions()
	return o, store.DecodeOptions(raw, &o, "sqlite")
}
