package replay

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/workload"
)

func TestParsePragma(t *testing.T) {
	for _, tt := range []struct {
		stmt string
		want Pragma
		ok   bool
	}{
		{"PRAGMA journal_mode=WAL", Pragma{Name: "journal_mode", Value: "wal"}, true},
		{"pragma journal_mode = wal;", Pragma{Name: "journal_mode", Value: "wal"}, true},
		{"PRAGMA main.journal_mode = 'wal'", Pragma{Schema: "main", Name: "journal_mode", Value: "wal"}, true},
		{"PRAGMA MAIN . JOURNAL_MODE = \"WAL\" ;", Pragma{Schema: "main", Name: "journal_mode", Value: "wal"}, true},
		{"  Pragma\tsynchronous(NORMAL)  ", Pragma{Name: "synchronous", Value: "normal"}, true},
		{"PRAGMA synchronous = 1", Pragma{Name: "synchronous", Value: "1"}, true},
		{"PRAGMA busy_timeout=5000", Pragma{Name: "busy_timeout", Value: "5000"}, true},
		{"PRAGMA cache_size = -4000", Pragma{Name: "cache_size", Value: "-4000"}, true},
		{"PRAGMA cache_size(+2000)", Pragma{Name: "cache_size", Value: "2000"}, true},
		{"PRAGMA temp.cache_size = 100", Pragma{Schema: "temp", Name: "cache_size", Value: "100"}, true},
		{"PRAGMA \"journal_mode\" = 'it''s'", Pragma{Name: "journal_mode", Value: "it's"}, true},
		{"PRAGMA [main].locking_mode=EXCLUSIVE", Pragma{Schema: "main", Name: "locking_mode", Value: "exclusive"}, true},
		{"PRAGMA mmap_size=268435456", Pragma{Name: "mmap_size", Value: "268435456"}, true},
		{"PRAGMA journal_mode", Pragma{}, false},        // a read
		{"PRAGMA table_info", Pragma{}, false},          // a read
		{"PRAGMA journal_mode = ", Pragma{}, false},     // no value
		{"PRAGMA journal_mode = 'wal", Pragma{}, false}, // an open quote
		{"PRAGMA synchronous(NORMAL", Pragma{}, false},  // an open parenthesis
		{"PRAGMA journal_mode = wal garbage", Pragma{}, false},
		{"PRAGMA journal_mode = wal; PRAGMA synchronous = off", Pragma{}, false}, // two statements: split first
		{"PRAGMAjournal_mode=wal", Pragma{}, false},
		{"SELECT * FROM pragma_journal_mode", Pragma{}, false},
		{"", Pragma{}, false},
	} {
		got, ok := ParsePragma(tt.stmt)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParsePragma(%q) = %+v, %v; want %+v, %v", tt.stmt, got, ok, tt.want, tt.ok)
		}
	}
}

// FuzzParsePragma: a statement from a trace never panics the parser, and
// a pragma it reads has a name and the value it was written with.
func FuzzParsePragma(f *testing.F) {
	for _, s := range []string{"PRAGMA journal_mode=WAL", "PRAGMA main.synchronous(1)", "pragma x = 'a''b'", "PRAGMA [a].\"b\" = -1", "PRAGMA x = \""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := ParsePragma(s)
		if !ok {
			return
		}
		if p.Name == "" {
			t.Fatalf("ParsePragma(%q) = %+v: no name", s, p)
		}
		again, ok := ParsePragma("PRAGMA " + p.Name + " = '" + strings.ReplaceAll(p.Value, "'", "''") + "'")
		if p.Name != strings.ToLower(p.Name) || !ok || again.Value != p.Value {
			t.Fatalf("ParsePragma(%q) = %+v; written again it reads %+v, %v", s, p, again, ok)
		}
	})
}

// The settings a cell as captured takes: each pragma's value set most
// often (the first of equals), mapped onto the run's settings; a
// checkpoint outside WAL, a locking mode and another schema's pragma are
// not taken.
func TestCapturedSettings(t *testing.T) {
	for _, tt := range []struct {
		name  string
		sqls  []string
		want  map[string]string // flag → the cell's value
		check func(t *testing.T, s []workload.CapturedSetting)
	}{
		{
			name: "wal and normal",
			sqls: []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA busy_timeout = 2500", "PRAGMA wal_autocheckpoint=500"},
			want: map[string]string{"journal": "wal", "sync": "normal", "busy-timeout": "2.5s", "checkpoint": "500"},
		},
		{
			name: "numbers, quoted, one text of several statements",
			sqls: []string{"PRAGMA main.journal_mode = 'delete'; PRAGMA synchronous = 3;", "PRAGMA busy_timeout(0)"},
			want: map[string]string{"journal": "rollback", "sync": "extra", "busy-timeout": "0s"},
		},
		{
			name: "the value set most often, the first of equals",
			sqls: []string{"PRAGMA synchronous=FULL", "PRAGMA synchronous=NORMAL", "PRAGMA synchronous=NORMAL", "PRAGMA journal_mode=wal", "PRAGMA journal_mode=truncate"},
			want: map[string]string{"sync": "normal", "journal": "wal"},
			check: func(t *testing.T, s []workload.CapturedSetting) {
				if s[0].Count != 2 || s[0].Others != 1 || s[0].SQL != "PRAGMA synchronous=NORMAL" {
					t.Errorf("synchronous: %+v", s[0])
				}
			},
		},
		{
			name: "not applied",
			sqls: []string{"PRAGMA wal_autocheckpoint=0", "PRAGMA locking_mode=EXCLUSIVE", "PRAGMA temp.journal_mode=memory", "PRAGMA journal_mode=bogus", "PRAGMA busy_timeout=-1"},
			want: map[string]string{},
			check: func(t *testing.T, s []workload.CapturedSetting) {
				if len(s) != 4 {
					t.Fatalf("settings %+v: want checkpoint, locking mode, journal and busy timeout (temp's journal is not the database's)", s)
				}
				for _, x := range s {
					if x.NotApplied == "" {
						t.Errorf("%s %s applied", x.Pragma, x.Value)
					}
				}
			},
		},
		{
			name: "set again by the statements in every cell",
			sqls: []string{"PRAGMA cache_size=-4000", "PRAGMA mmap_size = 268435456", "PRAGMA user_version = 3", "PRAGMA wal_checkpoint(TRUNCATE)"},
			want: map[string]string{},
			check: func(t *testing.T, s []workload.CapturedSetting) {
				if len(s) != 2 || s[0].Pragma != "cache_size" || s[0].Value != "-4000" || s[1].Pragma != "mmap_size" || s[0].Flag != "" || s[0].NotApplied != "" {
					t.Errorf("settings %+v: want cache_size and mmap_size, as the statements set them", s)
				}
			},
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var st settingsTally
			for _, q := range tt.sqls {
				st.add(q)
			}
			s := st.settings()
			got := (&workload.ReplayCaptured{Settings: s}).CellValues()
			if len(got) != len(tt.want) {
				t.Errorf("cell values %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if got[k] != v {
					t.Errorf("cell values %v, want %v", got, tt.want)
				}
			}
			if tt.check != nil {
				tt.check(t, s)
			}
		})
	}
}

// Build reads the application's settings and timings: the PRAGMAs that
// ran on the database replayed (not one that failed, not another
// database's) over what its connections began with, and each kind's
// captured times from the statements' spans.
func TestBuildCaptured(t *testing.T) {
	var buf bytes.Buffer
	w := snapshotTrace(&buf)
	s := w.Stream(1)
	s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 2, Path: "/other.db"}})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: 1, DB: 1}})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: sqltrace.Open{Conn: 2, DB: 2}})
	exec := func(conn uint64, sql string, span int64, code int) {
		s.Write(&sqltrace.Record{Kind: sqltrace.KindExec, Exec: sqltrace.Exec{Conn: conn, SQL: sql, Start: 1, Span: span, Code: code}})
	}
	// What the connections began with (a Go driver's connection string):
	// a statement's setting wins over it, another database's is not this
	// one's.
	s.Write(&sqltrace.Record{Kind: sqltrace.KindNote, Note: sqltrace.SettingsNote("/a.db", "PRAGMA journal_mode=delete; PRAGMA synchronous=2; PRAGMA busy_timeout=10000")})
	s.Write(&sqltrace.Record{Kind: sqltrace.KindNote, Note: sqltrace.SettingsNote("/other.db", "PRAGMA wal_autocheckpoint=5")})
	exec(1, "PRAGMA journal_mode=WAL", 1000, 0)
	exec(1, "PRAGMA synchronous=OFF", 1000, 1) // failed: not a setting
	exec(2, "PRAGMA synchronous=EXTRA", 1000, 0)
	exec(1, "PRAGMA synchronous=NORMAL", 1000, 0)
	for i := range 100 {
		exec(1, "SELECT 1", int64(i+1)*1000, 0)
	}
	w.Close()
	open := func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(buf.Bytes())), nil }
	r, _, err := Build(open, Options{Trace: "/t.trace", Order: workload.ReplayRace})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Captured
	if got := c.CellValues(); len(got) != 3 || got["journal"] != "wal" || got["sync"] != "normal" || got["busy-timeout"] != "10s" {
		t.Errorf("cell values %v, want journal wal and sync normal (the statements'), busy-timeout 10s (the connections')", got)
	}
	if c.Total.Count != 103 || c.Total.Errors != 1 || c.Total.Kind != "total" {
		t.Errorf("total %+v: want the 103 statements on /a.db, 1 failed", c.Total)
	}
	sel, ok := c.Timing(sqltrace.FingerprintID(sqltrace.Fingerprint("SELECT 1")))
	if !ok || sel.Count != 100 || sel.MaxMicros < 99.5 || sel.MaxMicros > 100.5 || sel.P50Micros < 49.5 || sel.P50Micros > 50.5 || sel.TotalMicros != 5050 {
		t.Errorf("SELECT 1: %+v, want 100 from 1 to 100 µs, p50 50 µs, total 5050 µs", sel)
	}
}

// snapshotTrace starts a trace in buf with a snapshot of /a.db (database
// 1 of the capture's own stream).
func snapshotTrace(buf *bytes.Buffer) *sqltrace.Writer {
	w, _ := sqltrace.NewWriter(buf)
	own := w.Stream(0)
	own.Write(&sqltrace.Record{Kind: sqltrace.KindDB, DB: sqltrace.DB{ID: 1, Path: "/a.db"}})
	w.WriteSnapshot(1, bytes.NewReader([]byte("x")))
	own.Write(&sqltrace.Record{Kind: sqltrace.KindSnapshot, Snapshot: sqltrace.Snapshot{DB: 1, Number: 1, Size: 1}})
	return w
}
