package capture

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mattn/go-sqlite3"
	msqlite "modernc.org/sqlite"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// A time.Time argument is kept as the driver underneath binds it, so that
// a replay writes what the application wrote: mattn and modernc bind it
// as different texts, and a trace that kept mattn's for both replayed a
// modernc program's rows to other values.
func TestTimeAsTheDriverBinds(t *testing.T) {
	when := time.Date(2026, 11, 29, 7, 8, 9, 123456789, time.FixedZone("X", -(3*3600+30*60)))
	for _, tt := range []struct {
		name string
		d    driver.Driver
	}{
		{"mattn", &sqlite3.SQLiteDriver{}},
		{"modernc", &msqlite.Driver{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			tracePath, dbPath := filepath.Join(dir, "app.trace"), filepath.Join(dir, "app.db")
			c, err := Create(tracePath)
			if err != nil {
				t.Fatal(err)
			}
			db := open(t, c, tt.d, "file:"+dbPath)
			mustExec(t, db, `CREATE TABLE t (x)`)
			mustExec(t, db, `INSERT INTO t VALUES (?)`, when)
			db.Close()
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			// What SQLite stored, read on a connection of the driver's
			// own, without the capture.
			name := fmt.Sprintf("plain-%s", t.Name())
			sql.Register(name, tt.d)
			plain, err := sql.Open(name, "file:"+dbPath)
			if err != nil {
				t.Fatal(err)
			}
			defer plain.Close()
			var stored string
			if err := plain.QueryRow(`SELECT x FROM t`).Scan(&stored); err != nil {
				t.Fatal(err)
			}
			var kept []string
			for _, rec := range traceOf(t, tracePath) {
				if rec.Kind == sqltrace.KindExec && strings.HasPrefix(rec.Exec.SQL, "INSERT") {
					for _, p := range rec.Exec.Params {
						kept = append(kept, string(p.Bytes))
					}
				}
			}
			if len(kept) != 1 || kept[0] != stored {
				t.Errorf("the trace keeps %q, the database holds %q", kept, stored)
			}
		})
	}
}

// binderFor finds the layout (or the Unix count) that made the probe's
// value; a value no layout makes gives none.
func TestBinderFor(t *testing.T) {
	other := time.Date(1999, 12, 31, 23, 59, 58, 5, time.FixedZone("Q", -7*3600))
	quote := func(s string) string { return "'" + s + "'" }
	for _, tt := range []struct {
		name, quoted string
		want         sqltrace.Value // of other; Type 0 and no bytes: no binder
	}{
		{"mattn", quote(timeProbe.Format(timeFormat)), sqltrace.Keep(sqltrace.ValueText, []byte(other.Format(timeFormat)))},
		{"time.Time.String", quote(timeProbe.String()), sqltrace.Keep(sqltrace.ValueText, []byte(other.String()))},
		{"RFC 3339 in UTC", quote(timeProbe.UTC().Format(time.RFC3339Nano)), sqltrace.Keep(sqltrace.ValueText, []byte(other.UTC().Format(time.RFC3339Nano)))},
		{"Unix milliseconds", fmt.Sprint(timeProbe.UnixMilli()), sqltrace.Value{Type: sqltrace.ValueInt, Int: other.UnixMilli()}},
		{"Unix seconds", fmt.Sprint(timeProbe.Unix()), sqltrace.Value{Type: sqltrace.ValueInt, Int: other.Unix()}},
		{"a date only", quote("2001-02-03"), sqltrace.Value{}},
		{"a float", "2451943.5", sqltrace.Value{}},
		{"a quote inside", quote("it''s"), sqltrace.Value{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := binderFor(tt.quoted)
			if b == nil {
				if tt.want.Type != 0 {
					t.Fatalf("no binder for %s", tt.quoted)
				}
				return
			}
			got := b(other)
			if got.Type != tt.want.Type || got.Int != tt.want.Int || string(got.Bytes) != string(tt.want.Bytes) {
				t.Errorf("binder of %s gives %+v, want %+v", tt.quoted, got, tt.want)
			}
		})
	}
}
