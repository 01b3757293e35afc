package replay

import (
	"io"
	"slices"
	"strings"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/percentile"
	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// readCaptured reads what the trace says of the application's own run on
// the database replayed: the settings its PRAGMAs set, and the timing of
// its statements by r's kinds, over r's connections (the statements of
// its window, if it has one; the settings of all: those before it too; a
// pass of its own over the trace, once the kinds are known).
func readCaptured(open func() (io.ReadCloser, error), r *workload.Replay) (*workload.ReplayCaptured, error) {
	replayed := map[[2]uint64]bool{}
	for _, w := range r.Workers {
		replayed[[2]uint64{w.Stream, w.Conn}] = w.Stream != 0
	}
	f, err := open()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tr := sqltrace.NewReader(f)
	tr.Filter(nil, false)
	c := newCapturedTally(r.Kinds)
	sel := newWindowSel(r.Window)
	on := newDBConns(r.Database)
	cut, err := newSelReader(r.Select, open, nil, newDBConns(r.Database).note)
	if err != nil {
		return nil, err
	}
	defer cut.Close()
	for tr.Next() {
		rec := tr.Record()
		switch {
		case on.note(rec):
			// the settings every connection of the database set (in a
			// window, before it too, or cut); the timing of the
			// statements replayed
			kept := cut.keep(rec.Stream, &rec.Exec)
			c.add(rec.Stream, &rec.Exec, replayed[[2]uint64{rec.Stream, rec.Exec.Conn}] && sel.where(rec.Stream, &rec.Exec) == 0 && kept)
		case rec.Kind == sqltrace.KindNote:
			if path, stmts, ok := sqltrace.ParseSettingsNote(rec.Note); ok && path == r.Database {
				c.conns.add(stmts)
			}
			if v, ok := sqltrace.ParseVersionNote(rec.Note); ok && !slices.Contains(c.versions, v) {
				c.versions = append(c.versions, v)
			}
		}
	}
	if err := tr.Err(); err != nil {
		return nil, err
	}
	if err := cut.Err(); err != nil {
		return nil, err
	}
	return c.captured(r.Kinds), nil
}

// capturedTally is what readCaptured counts.
type capturedTally struct {
	kindOf   map[string]string // fingerprint → kind id
	other    string            // the kind of the rest ("" when none)
	fpOf     map[[2]uint64]string
	hist     map[string]*hdr.Histogram // by kind id; "" the total
	errors   map[string]int64
	sums     map[string]int64 // ns
	settings settingsTally    // set by the application's statements
	conns    settingsTally    // what its connections began with (sqltrace.SettingsNote)
	versions []string         // the SQLite libraries it ran on (sqltrace.VersionNote)
}

func newCapturedTally(kinds []workload.ReplayKind) *capturedTally {
	c := &capturedTally{kindOf: map[string]string{}, fpOf: map[[2]uint64]string{}, hist: map[string]*hdr.Histogram{}, errors: map[string]int64{}, sums: map[string]int64{}}
	for _, k := range kinds {
		c.kindOf[k.Fingerprint] = k.ID
		if k.ID == workload.OtherKindID {
			c.other = k.ID
		}
	}
	return c
}

// add counts one captured statement: the setting it set, and if timed
// (in the replay's window) its timing.
func (c *capturedTally) add(stream uint64, e *sqltrace.Exec, timed bool) {
	key := [2]uint64{stream, e.SQLID}
	fp, ok := c.fpOf[key]
	if !ok || e.SQLID == 0 {
		fp = sqltrace.Fingerprint(e.SQL)
		if e.SQLID != 0 {
			c.fpOf[key] = fp
		}
	}
	if e.Code == 0 && strings.Contains(fp, "pragma") {
		c.settings.add(e.SQL)
	}
	if !timed {
		return
	}
	kind, ok := c.kindOf[fp]
	if !ok {
		kind = c.other
	}
	span := min(max(e.Span, 1), int64(time.Hour))
	for _, k := range []string{"", kind} {
		h := c.hist[k]
		if h == nil {
			h = hdr.New(1, int64(time.Hour), 2)
			c.hist[k] = h
		}
		_ = h.RecordValue(span)
		c.sums[k] += e.Span
		if e.Code != 0 {
			c.errors[k]++
		}
	}
}

// captured returns the settings and the timings, the kinds in their
// order.
func (c *capturedTally) captured(kinds []workload.ReplayKind) *workload.ReplayCaptured {
	out := &workload.ReplayCaptured{Settings: c.settings.over(&c.conns), Total: c.timing(""), SQLiteVersions: c.versions}
	out.Total.Kind = "total"
	for _, k := range kinds {
		if c.hist[k.ID] != nil {
			out.Kinds = append(out.Kinds, c.timing(k.ID))
		}
	}
	return out
}

// timing summarises a kind's histogram ("" the total's).
func (c *capturedTally) timing(kind string) workload.CapturedTiming {
	t := workload.CapturedTiming{Kind: kind, Errors: c.errors[kind]}
	h := c.hist[kind]
	if h == nil || h.TotalCount() == 0 {
		return t
	}
	us := func(ns int64) float64 { return float64(ns) / 1e3 }
	t.Count = h.TotalCount()
	t.MeanMicros = h.Mean() / 1e3
	t.TotalMicros = us(c.sums[kind])
	t.P50Micros, t.P90Micros, t.P99Micros = us(percentile.Value(h, 50)), us(percentile.Value(h, 90)), us(percentile.Value(h, 99))
	t.MaxMicros = us(h.Max())
	return t
}
