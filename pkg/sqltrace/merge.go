package sqltrace

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Part is one process's file of a capture: its records, in stream 0.
type Part struct {
	// Name names the part in notes (its file's name).
	Name string
	R    io.Reader
	// Tail, if not empty, is whole records the process recorded but had
	// not written to R when it ended (a process killed between two
	// flushes): they follow R's records, which must end at a chunk's
	// boundary.
	Tail []byte
}

// MergeStats is what Merge wrote.
type MergeStats struct {
	Streams   int
	Records   uint64
	Snapshots int
	// Cut and Omitted count the statements the trace does not hold whole:
	// cut to MaxText bytes, or with a parameter longer than MaxValue.
	Cut, Omitted Loss
	// Notes are what the merge noted in the trace: parts cut short,
	// databases without a snapshot, and the marks it was given.
	Notes []string
	// TailMissing says why the trace's last statements may be missing
	// (see NoteTail), if they may.
	TailMissing string
}

// Merge writes one trace to out from the files a capture's processes
// wrote: part i becomes stream i+1, record for record, and stream 0 holds
// the capture's own records: each database once (its path), its snapshot
// (the bytes of the file a SnapFile record names, read through open), its
// content at the end (digest, if not nil, reads it: the capture is over),
// and notes. A part cut short (a process killed before it finished
// writing) keeps the records of its whole chunks, and the merge notes what
// it lost. marks are notes the caller adds to stream 0: a NoteTail one
// says the trace's end may be missing (the program died of a signal), as
// a part cut short does too.
func Merge(out io.Writer, parts []Part, open func(file string) (io.ReadCloser, error), digest func(path string) ([]TableDigest, error), marks ...Note) (MergeStats, error) {
	var st MergeStats
	w, err := NewWriter(out)
	if err != nil {
		return st, err
	}
	m := &merger{w: w, open: open, digest: digest, snapFile: map[string]SnapFile{}, stats: &st, marks: marks}
	for i, p := range parts {
		if err := m.part(uint64(i+1), p); err != nil {
			return st, err
		}
	}
	if err := m.own(); err != nil {
		return st, err
	}
	if err := w.Close(); err != nil {
		return st, err
	}
	st.Streams = len(parts)
	return st, nil
}

// merger is Merge's state: the databases in the order first named, and the
// snapshot file of each.
type merger struct {
	w        *Writer
	open     func(string) (io.ReadCloser, error)
	digest   func(string) ([]TableDigest, error)
	dbs      []string
	snapFile map[string]SnapFile // by database path
	stats    *MergeStats
	marks    []Note
}

func (m *merger) note(format string, args ...any) {
	m.stats.Notes = append(m.stats.Notes, fmt.Sprintf(format, args...))
}

// part copies one part's records into stream id.
func (m *merger) part(id uint64, p Part) error {
	s := m.w.Stream(id)
	in := p.R
	if len(p.Tail) > 0 {
		in = io.MultiReader(p.R, bytes.NewReader(appendChunk(nil, chunkRecords, 0, p.Tail)))
	}
	r := NewReader(in)
	paths := map[uint64]string{}
	for r.Next() {
		rec := r.Record()
		if rec.Kind == KindData {
			continue
		}
		switch rec.Kind {
		case KindDB:
			paths[rec.DB.ID] = rec.DB.Path
			m.seen(rec.DB.Path)
		case KindExec:
			if cut, omits := rec.Exec.Flags&FlagCut != 0, rec.Exec.Omits(); cut || omits {
				id := FingerprintID(Fingerprint(rec.Exec.SQL))
				if cut {
					m.stats.Cut.Add(id)
				}
				if omits {
					m.stats.Omitted.Add(id)
				}
			}
		case KindSnapFile:
			path, ok := paths[rec.SnapFile.DB]
			if old, had := m.snapFile[path]; ok && (!had || old.Error != "" && rec.SnapFile.Error == "") {
				m.snapFile[path] = rec.SnapFile
			}
		}
		if err := s.Write(rec); err != nil {
			return fmt.Errorf("%s: %w", p.Name, err)
		}
		m.stats.Records++
	}
	err := r.Err()
	switch {
	case errors.Is(err, ErrNewer):
		return fmt.Errorf("%s: %w", p.Name, err)
	case err != nil:
		if r.unended {
			// Whole chunks, then the end of the file: a process's file
			// has no end marker.
			break
		}
		m.note("%s (stream %d): %v; the records before it are kept", p.Name, id, err)
		m.marks = append(m.marks, Note{Level: NoteTail, Text: fmt.Sprintf("%s (stream %d) is cut short: the process's last statements may be missing", p.Name, id)})
	}
	return s.Flush()
}

// seen notes a database's path, the first time.
func (m *merger) seen(path string) {
	for _, p := range m.dbs {
		if p == path {
			return
		}
	}
	m.dbs = append(m.dbs, path)
}

// own writes stream 0: the databases and their snapshots, and the notes.
func (m *merger) own() error {
	s := m.w.Stream(0)
	for i, path := range m.dbs {
		id := uint64(i + 1)
		if err := s.Write(&Record{Kind: KindDB, DB: DB{ID: id, Path: path}}); err != nil {
			return err
		}
		snap := Snapshot{DB: id, Number: id}
		sf, ok := m.snapFile[path]
		switch {
		case !ok:
			snap.Error = "no process took a snapshot of it"
		case sf.Error != "":
			snap.Error = sf.Error
		default:
			snap.Time = sf.Time
			snap.Size, snap.Error = m.embed(id, sf.File)
		}
		if snap.Error != "" {
			m.note("%s: no snapshot: %s", path, snap.Error)
		} else {
			m.stats.Snapshots++
		}
		if err := s.Write(&Record{Kind: KindSnapshot, Snapshot: snap}); err != nil {
			return err
		}
		if m.digest == nil || path == "" {
			continue
		}
		d := Digest{DB: id}
		tables, err := m.digest(path)
		if err != nil {
			d.Error = truncate(err.Error(), 1000)
			m.note("%s: its content at the end could not be read: %s", path, d.Error)
		}
		d.Tables = tables
		if err := s.Write(&Record{Kind: KindDigest, Digest: d}); err != nil {
			return err
		}
	}
	for _, n := range m.stats.Notes {
		if err := s.Write(&Record{Kind: KindNote, Note: Note{Level: NoteWarning, Text: truncate(n, MaxString)}}); err != nil {
			return err
		}
	}
	for _, n := range m.marks {
		n.Text = truncate(n.Text, MaxString)
		if err := s.Write(&Record{Kind: KindNote, Note: n}); err != nil {
			return err
		}
		m.stats.Notes = append(m.stats.Notes, n.Text)
		if n.Level == NoteTail && m.stats.TailMissing == "" {
			m.stats.TailMissing = n.Text
		}
	}
	return s.Flush()
}

// embed writes the snapshot in file as snapshot number, returning its size
// or why it could not.
func (m *merger) embed(number uint64, file string) (uint64, string) {
	f, err := m.open(file)
	if err != nil {
		return 0, err.Error()
	}
	defer f.Close()
	n, err := m.w.WriteSnapshot(number, f)
	if err != nil {
		return 0, fmt.Sprintf("copying %s: %v", file, err)
	}
	return uint64(n), ""
}

// truncate cuts s to at most n bytes.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
