package sqlite

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/spf13/pflag"

	"github.com/gobench/gobench/pkg/store"
)

// Settings returns the SQLite drivers' command-line settings: --journal,
// --sync, --busy-timeout and --checkpoint, each a comma list spanning a
// matrix, and the capi driver's --capi-loop.
func (d *Driver) Settings() store.Settings {
	o := DefaultOptions()
	return &settings{
		journals: store.List{o.Journal},
		syncs:    &store.List{o.Sync},
		busys:    store.List{(time.Duration(o.BusyTimeoutMS) * time.Millisecond).String()},
		ckpts:    store.List{"auto"},
		cloop:    true,
	}
}

var _ store.Configurable = (*Driver)(nil)

// settings are the SQLite options as flags bind them.
type settings struct {
	fs                     *pflag.FlagSet
	journals, busys, ckpts store.List
	syncs                  *store.List // the common --sync, every engine's
	cloop                  bool        // --capi-loop
}

func (s *settings) Engine() string { return "the SQLite drivers" }

func (s *settings) Flags() []string {
	return []string{"journal", "sync", "busy-timeout", "checkpoint", "capi-loop"}
}

func (s *settings) AddFlags(fs *pflag.FlagSet) {
	s.fs = fs
	list := " (a comma list spans a matrix)"
	fs.Var(store.FoldCase(&s.journals), "journal", "SQLite journal mode: rollback (DELETE), truncate, persist, wal, memory, off"+list)
	s.syncs = store.BindCommon(fs, "sync") // SQLite's synchronous, always set explicitly
	fs.Var(&s.busys, "busy-timeout", "how long SQLite's busy handler waits for each lock before a statement fails with busy: an op that needs several locks (BEGIN, then COMMIT) may wait that long for each; under --busy retry, how long gobench retries an op"+list)
	fs.Var(store.FoldCase(&s.ckpts), "checkpoint", "WAL auto-checkpoint: auto (SQLite's default, 1000 pages), off (the WAL only grows), or a threshold in pages"+list)
	fs.BoolVar(&s.cloop, "capi-loop", s.cloop, "capi driver: run closed-loop reads and upserts up to 4096 to a call into C, each timed in C (false: one call into C per op)")
}

// changed reports whether the flag was given.
func (s *settings) changed(flag string) bool { return s.fs != nil && s.fs.Changed(flag) }

// Cells spans journal × sync × busy timeout × checkpoint; checkpoints
// apply to WAL cells only (the other journals run once). In memory, the
// journal is in memory too unless --journal says otherwise. Under the
// retry policy SQLite fails at once (busy_timeout 0) and the busy timeout
// is how long the worker retries.
func (s *settings) Cells(w store.Want) ([]store.Cell, error) {
	journals := s.journals
	if w.Memory && !s.changed("journal") {
		journals = store.List{"memory"}
	}
	ckpts := store.List{""} // the pragma left alone
	if s.changed("checkpoint") {
		if !slices.Contains(journals, "wal") {
			return nil, errors.New("--checkpoint applies to --journal wal")
		}
		ckpts = s.ckpts
	}
	busys, err := durations(s.busys)
	if err != nil {
		return nil, err
	}
	var cells []store.Cell
	for _, j := range journals {
		for _, sy := range *s.syncs {
			for _, bt := range busys {
				cks := ckpts
				if j != "wal" {
					cks = store.List{""}
				}
				for _, ck := range cks {
					c, err := cell(Options{Journal: j, Sync: sy, BusyTimeoutMS: bt.Milliseconds(), Memory: w.Memory, Checkpoint: ck, NoCLoop: !s.cloop}, w)
					if err != nil {
						return nil, err
					}
					cells = append(cells, c)
				}
			}
		}
	}
	return cells, nil
}

// cell validates and encodes the options of one cell.
func cell(o Options, w store.Want) (store.Cell, error) {
	var c store.Cell
	if w.BusyRetry {
		if o.BusyTimeoutMS <= 0 {
			return c, errors.New("--busy retry retries for up to --busy-timeout: give it a positive duration")
		}
		c.RetryBudget = time.Duration(o.BusyTimeoutMS) * time.Millisecond
		// Ops fail at once, and the worker retries and counts; opening a
		// connection and setting the store up wait up to the same budget.
		o.BusyTimeoutMS, o.SetupBusyTimeoutMS = 0, o.BusyTimeoutMS
	}
	if err := o.Validate(); err != nil {
		return c, err
	}
	c.Options = o.Encode()
	return c, nil
}

// durations parses a list of durations.
func durations(l store.List) ([]time.Duration, error) {
	out := make([]time.Duration, len(l))
	for i, v := range l {
		d, err := time.ParseDuration(v)
		if err != nil {
			return nil, fmt.Errorf("--busy-timeout %q: %w", v, err)
		}
		out[i] = d
	}
	return out, nil
}

// Transactional reports that SQLite connections batch ops.
func (d *Driver) Transactional() bool { return true }

var _ store.Transactional = (*Driver)(nil)

var _ store.Completer = (*settings)(nil)

// Values lists the values of --journal, --sync and --checkpoint.
func (s *settings) Values(flag string) []string {
	switch flag {
	case "journal":
		return JournalModes()
	case "sync":
		return SyncLevels()
	case "checkpoint":
		return []string{"auto", "off"}
	}
	return nil
}

var _ store.Overrider = (*settings)(nil)

// Override sets journal, sync, busy-timeout (SQLite's busy handler's
// wait: a replay's policy) and checkpoint, as values give them, in a
// cell's options. A checkpoint applies to the WAL journal only: a cell of
// another journal leaves the pragma alone, as the flags' cells do.
func (s *settings) Override(raw json.RawMessage, values map[string]string) (json.RawMessage, error) {
	o, err := DecodeOptions(raw)
	if err != nil {
		return nil, err
	}
	for flag, v := range values {
		switch flag {
		case "journal":
			o.Journal = v
		case "sync":
			o.Sync = v
		case "busy-timeout":
			d, err := time.ParseDuration(v)
			if err != nil {
				return nil, fmt.Errorf("busy-timeout %q: %w", v, err)
			}
			o.BusyTimeoutMS = d.Milliseconds()
		case "checkpoint":
			o.Checkpoint = v
		default:
			return nil, fmt.Errorf("the SQLite drivers have no setting %q", flag)
		}
	}
	if o.Journal != "wal" {
		o.Checkpoint = ""
	}
	if err := o.Validate(); err != nil {
		return nil, err
	}
	return o.Encode(), nil
}
