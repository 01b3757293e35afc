package replay

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

// A replay's selection (workload.ReplaySelect, gobench replay
// --read-only and --filter) keeps or cuts whole transactions: whether a
// transaction wrote, or ran a statement of a fingerprint, is known only
// at its end, so a selection reads the trace twice, a reading ahead
// (selAhead) finding each transaction's verdict before the statements
// are dealt or counted.

// maxTerms bounds the terms of a --filter.
const maxTerms = 64

// ParseFilter reads a --filter value: fingerprints, by id (q9c0651b9) or
// a prefix of their text, separated by commas; a term with a leading
// minus excludes. Build checks each matches a statement of the trace.
func ParseFilter(s string) (*workload.ReplaySelect, error) {
	sel := &workload.ReplaySelect{}
	for _, t := range strings.Split(s, ",") {
		t = strings.TrimSpace(t)
		out := &sel.Include
		if rest, ok := strings.CutPrefix(t, "-"); ok {
			t, out = strings.TrimSpace(rest), &sel.Exclude
		}
		if t == "" {
			return nil, fmt.Errorf("--filter %q: want fingerprints separated by commas, by id (q9c0651b9) or the start of their text, each to exclude with a leading minus", s)
		}
		*out = append(*out, strings.ToLower(t))
	}
	if len(sel.Include)+len(sel.Exclude) > maxTerms {
		return nil, fmt.Errorf("--filter %q: at most %d fingerprints", s, maxTerms)
	}
	return sel, nil
}

// matchTerm reports whether a fingerprint matches a --filter term: its
// id, or a prefix of its text.
func matchTerm(fp, term string) bool {
	return sqltrace.FingerprintID(fp) == term || strings.HasPrefix(fp, term)
}

// checkTerms checks that each term of sel matches a fingerprint of fps
// (a tally's, fingerprint → statements); an unknown term is refused
// with a few of the most run fingerprints.
func checkTerms(sel *workload.ReplaySelect, fps map[string]int64) error {
	for _, t := range append(append([]string(nil), sel.Include...), sel.Exclude...) {
		found := false
		for fp := range fps {
			if found = matchTerm(fp, t); found {
				break
			}
		}
		if !found {
			return fmt.Errorf("--filter: %q matches no statement's fingerprint (an id such as q9c0651b9, or the start of its text); the trace's most run are %s", t, knownFingerprints(fps, 4))
		}
	}
	return nil
}

// knownFingerprints names the n most run fingerprints of fps, each by id
// and shortened text.
func knownFingerprints(fps map[string]int64, n int) string {
	all := make([]string, 0, len(fps))
	for fp := range fps {
		all = append(all, fp)
	}
	sort.Slice(all, func(i, j int) bool {
		if fps[all[i]] != fps[all[j]] {
			return fps[all[i]] > fps[all[j]]
		}
		return all[i] < all[j]
	})
	var out []string
	for _, fp := range all[:min(n, len(all))] {
		out = append(out, fmt.Sprintf("%s (%.40q)", sqltrace.FingerprintID(fp), fp))
	}
	return strings.Join(out, ", ")
}

// writeVerbs begin the statements that write whatever the capture
// recorded of them.
var writeVerbs = []string{"insert", "update", "delete", "replace", "vacuum", "reindex", "analyze"}

// writes reports whether captured statement e wrote, or may write when
// replayed on the snapshot: it changed rows or made a commit when
// captured (the trace's own record), is an INSERT, UPDATE or DELETE
// (the capture counted its changes, even none: on the snapshot it may
// find rows), writes the schema, or begins with a writing verb or sets
// a pragma.
func writes(e *sqltrace.Exec) bool {
	if e.MadeCommit() || e.Flags&sqltrace.FlagChanges != 0 {
		return true
	}
	for _, s := range sqltrace.SplitStatements(e.SQL) {
		words := strings.Fields(strings.ToLower(prefix(strings.TrimSpace(s), 40)))
		switch {
		case len(words) == 0:
		case isSchema(s):
			return true
		case words[0] == "pragma" && strings.ContainsAny(s, "=("):
			if OverriddenPragma(sqltrace.Fingerprint(s)) == "" { // the overridden run as reads
				return true
			}
		default:
			for _, v := range writeVerbs {
				if words[0] == v {
					return true
				}
			}
		}
	}
	return false
}

// txnVerdict is what a selection learns of one transaction.
type txnVerdict struct{ wrote, included, excluded bool }

// keep reports whether sel keeps the transaction.
func (v txnVerdict) keep(sel *workload.ReplaySelect) bool {
	return !(sel.ReadOnly && v.wrote) && (len(sel.Include) == 0 || v.included) && !v.excluded
}

// selAhead reads a trace ahead of a reading that deals or counts its
// statements, and queues the verdict of each transaction of the
// connections it follows as it ends. Its memory holds the transactions
// that ended between the two readings: those that ended while one
// stayed open.
type selAhead struct {
	sel    *workload.ReplaySelect
	tr     *sqltrace.Reader
	c      io.Closer
	follow func(*sqltrace.Record) bool // an Exec of a connection followed
	open   map[[2]uint64]*txnVerdict
	queue  map[[2]uint64][]txnVerdict
	fps    map[string]string // text → fingerprint
	done   bool
	err    error
}

// selReader is the reading of a selection that deals or counts: each
// connection's transaction, and whether the selection keeps it.
type selReader struct {
	ahead *selAhead
	open  map[[2]uint64]bool
	keeps map[[2]uint64]bool
	// first says the statement last asked about began its transaction.
	first bool
}

// newSelReader returns the selection sel of a trace (open reads it
// again, stream, if not nil, the streams to read), following the
// statements follow says are of the connections kept or cut; nil if sel
// is nil.
func newSelReader(sel *workload.ReplaySelect, open func() (io.ReadCloser, error), stream func(uint64) bool, follow func(*sqltrace.Record) bool) (*selReader, error) {
	if sel == nil {
		return nil, nil
	}
	rc, err := open()
	if err != nil {
		return nil, fmt.Errorf("opening the trace: %w", err)
	}
	tr := sqltrace.NewReader(rc)
	tr.Filter(stream, false)
	a := &selAhead{sel: sel, tr: tr, c: rc, follow: follow, open: map[[2]uint64]*txnVerdict{}, queue: map[[2]uint64][]txnVerdict{}, fps: map[string]string{}}
	return &selReader{ahead: a, open: map[[2]uint64]bool{}, keeps: map[[2]uint64]bool{}}, nil
}

// Close closes the reading ahead.
func (s *selReader) Close() error {
	if s == nil {
		return nil
	}
	return s.ahead.c.Close()
}

// Err returns what stopped the reading ahead, nil at the trace's end.
func (s *selReader) Err() error {
	if s == nil {
		return nil
	}
	return s.ahead.err
}

// keep reports whether the selection keeps statement e of stream, the
// connection's next (true with no selection): every statement of each
// connection followed must be asked about, in order.
func (s *selReader) keep(stream uint64, e *sqltrace.Exec) bool {
	if s == nil {
		return true
	}
	key := [2]uint64{stream, e.Conn}
	s.first = !s.open[key] || e.Flags&sqltrace.FlagAutocommitBefore != 0
	if s.first {
		s.keeps[key] = s.ahead.next(key).keep(s.ahead.sel)
	}
	s.open[key] = e.Flags&sqltrace.FlagAutocommitAfter == 0
	return s.keeps[key]
}

// next returns the verdict of connection key's next transaction, reading
// ahead to its end.
func (a *selAhead) next(key [2]uint64) txnVerdict {
	for len(a.queue[key]) == 0 && !a.done {
		a.step()
	}
	if q := a.queue[key]; len(q) > 0 {
		v := q[0]
		if len(q) == 1 {
			delete(a.queue, key)
		} else {
			a.queue[key] = q[1:]
		}
		return v
	}
	if v := a.open[key]; v != nil { // the trace ends inside it
		delete(a.open, key)
		return *v
	}
	return txnVerdict{wrote: true} // the reading ahead failed: cut it (Err says why)
}

// step reads one record ahead.
func (a *selAhead) step() {
	if !a.tr.Next() {
		a.done, a.err = true, a.tr.Err()
		return
	}
	rec := a.tr.Record()
	if !a.follow(rec) {
		return
	}
	e := &rec.Exec
	key := [2]uint64{rec.Stream, e.Conn}
	v := a.open[key]
	if v != nil && e.Flags&sqltrace.FlagAutocommitBefore != 0 {
		a.queue[key] = append(a.queue[key], *v)
		v = nil
	}
	if v == nil {
		v = &txnVerdict{}
		a.open[key] = v
	}
	a.learn(v, e)
	if e.Flags&sqltrace.FlagAutocommitAfter != 0 {
		a.queue[key] = append(a.queue[key], *v)
		delete(a.open, key)
	}
}

// learn adds statement e to its transaction's verdict.
func (a *selAhead) learn(v *txnVerdict, e *sqltrace.Exec) {
	if a.sel.ReadOnly && !v.wrote {
		v.wrote = writes(e)
	}
	if len(a.sel.Include) == 0 && len(a.sel.Exclude) == 0 {
		return
	}
	fp, ok := a.fps[e.SQL]
	if !ok {
		fp = sqltrace.Fingerprint(e.SQL)
		if len(a.fps) < sqltrace.MaxTexts {
			a.fps[e.SQL] = fp
		}
	}
	for _, t := range a.sel.Include {
		v.included = v.included || matchTerm(fp, t)
	}
	for _, t := range a.sel.Exclude {
		v.excluded = v.excluded || matchTerm(fp, t)
	}
}

// newDealerSel returns the selection of worker w's connection in r (nil
// when r has none): a reading ahead of its stream, following its
// connection.
func newDealerSel(r *workload.Replay, w workload.ReplayWorker) (*selReader, error) {
	open := func() (io.ReadCloser, error) { return os.Open(r.Trace) }
	follow := func(rec *sqltrace.Record) bool { return rec.Kind == sqltrace.KindExec && rec.Exec.Conn == w.Conn }
	return newSelReader(r.Select, open, func(s uint64) bool { return s == w.Stream }, follow)
}

// selectTally counts again, under selection s, what all (the tally of the
// capture, or of window w) counted: the statements of the transactions s
// keeps. The selection returned has its counts; a term of s that matches
// no statement of all, or a selection that keeps none, is refused.
func selectTally(open func() (io.ReadCloser, error), path string, w *workload.ReplayWindow, s *workload.ReplaySelect, all *replayTally) (*workload.ReplaySelect, *replayTally, error) {
	sel := &workload.ReplaySelect{ReadOnly: s.ReadOnly, Include: s.Include, Exclude: s.Exclude}
	if err := checkTerms(sel, all.fps); err != nil {
		return nil, nil, err
	}
	t, err := tallyReplay(open, path, w, sel)
	if err != nil {
		return nil, nil, err
	}
	sel.Of, sel.Transactions, sel.Schema = all.statements, t.txns, t.cutSchema
	if t.statements == 0 {
		return nil, nil, fmt.Errorf("%s: no transaction of the %d statements replayed on %s is kept", selectFlags(sel), all.statements, path)
	}
	return sel, t, nil
}

// selectFlags names the flags that made selection s.
func selectFlags(s *workload.ReplaySelect) string {
	var flags []string
	if s.ReadOnly {
		flags = append(flags, "--read-only")
	}
	if t := s.Terms(); t != "" {
		flags = append(flags, "--filter "+t)
	}
	return strings.Join(flags, " ")
}

// addSelected counts statement e where it stands in the window (where,
// see windowSel.where) and in selection cut: a statement of the window
// that cut does not keep is not counted, but its schema statements are
// (they run first).
func (t *replayTally) addSelected(cut *selReader, where int, stream uint64, e *sqltrace.Exec) {
	if cut == nil {
		t.addIn(where, stream, e)
		return
	}
	kept := cut.keep(stream, e)
	switch {
	case where == 0 && !kept:
		if e.Code == 0 && e.Flags&sqltrace.FlagCut == 0 {
			temps := t.temps.of([2]uint64{stream, e.Conn})
			for _, s := range sqltrace.SplitStatements(e.SQL) {
				if hoisted(s, temps) {
					t.cutSchema++
				}
			}
		}
	case where == 0 && cut.first:
		t.txns++
		fallthrough
	default:
		t.addIn(where, stream, e)
	}
}
