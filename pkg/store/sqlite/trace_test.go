package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ncruces/go-sqlite3/vfs"

	"github.com/gobench/gobench/pkg/store"
)

// The tracing VFS counts what each commit makes the kernel do, per
// journal mode and sync level, as SQLite's pager and OS layer are written
// to do it: in the rollback journal at FULL, the journal is synced twice
// (its pages, then its header with the page count), the database once,
// and the directory once, at the new journal's first sync; at EXTRA the
// directory again after the journal's deletion; ncruces syncs the journal
// a third time where it means to sync the directory. In WAL at FULL, one
// sync of the log per commit; at NORMAL none.
func TestIOTraced(t *testing.T) {
	const n = 10
	type want struct {
		dbSyncs, jSyncs, jDirSyncs, jMisdirected, jDeletes, walSyncs int64
	}
	cases := []struct {
		journal, sync string
		c, nc         want // C VFS (mattn, capi); ncruces
	}{
		{"rollback", "full", want{n, 2 * n, n, 0, n, 0}, want{n, 3 * n, 0, n, n, 0}},
		{"rollback", "extra", want{n, 2 * n, 2 * n, 0, n, 0}, want{n, 3 * n, n, n, n, 0}},
		{"rollback", "normal", want{n, n, n, 0, n, 0}, want{n, 2 * n, 0, n, n, 0}},
		{"rollback", "off", want{0, 0, 0, 0, n, 0}, want{0, 0, 0, 0, n, 0}},
		{"wal", "full", want{0, 0, 0, 0, 0, n}, want{0, 0, 0, 0, 0, n}},
		{"wal", "normal", want{}, want{}},
	}
	for _, tc := range cases {
		forEachDriver(t, func(t *testing.T, d *Driver) {
			o := DefaultOptions()
			o.Journal, o.Sync = tc.journal, tc.sync
			st := openInit(t, d, cfg(t, o))
			defer st.Close()
			tr := st.(store.IOTracer)
			if _, ok := tr.IO(); !ok {
				if d.Name() != "modernc" {
					t.Fatalf("%s is not traced", d.Name())
				}
				if f := facts(t, st)["io_trace"]; !strings.HasPrefix(f, "not traced:") {
					t.Errorf("io_trace fact %q does not say why", f)
				}
				return
			}
			c, err := st.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			// The connection's first commit opens (and in WAL syncs the
			// directory of) its files once; count the commits after it.
			if err := c.Put(0, []byte("first")); err != nil {
				t.Fatal(err)
			}
			before, _ := tr.IO()
			for i := range n {
				if err := c.Put(uint64(i), []byte("a value of some sixty-four bytes, as the default mix writes....")); err != nil {
					t.Fatal(err)
				}
			}
			after, _ := tr.IO()
			io := after.Sub(before)
			w := tc.c
			if d.Name() == "ncruces" {
				w = tc.nc
			}
			got := want{io.Database.Syncs, io.Journal.Syncs, io.Journal.DirSyncs, io.Journal.MisdirectedDirSyncs, io.Journal.Deletes, io.WAL.Syncs}
			if got != w {
				t.Errorf("%s/%s: %d commits made %+v, want %+v", tc.journal, tc.sync, n, got, w)
			}
			if io.Total().Writes == 0 || io.Total().Bytes < n*64 {
				t.Errorf("%s/%s: %d commits wrote %d times, %d bytes", tc.journal, tc.sync, n, io.Total().Writes, io.Total().Bytes)
			}
		})
	}
}

// The Go tracing VFS's files claim exactly the optional interfaces of
// ncruces's OS files: ncruces acts on each one a file implements.
func TestNcTraceFileInterfaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.db")
	flags := vfs.OPEN_READWRITE | vfs.OPEN_CREATE | vfs.OPEN_MAIN_DB
	osf, _, err := vfs.Find("").Open(path, flags)
	if err != nil {
		// ncruces's OS VFS opens named files through OpenFilename only;
		// a temporary file (no name) shows the same type.
		osf, _, err = vfs.Find("").Open("", flags|vfs.OPEN_DELETEONCLOSE)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer osf.Close()
	tf := &ncTraceFile{File: osf}
	optional := map[string]func(vfs.File) bool{
		"LockState":          func(f vfs.File) bool { _, ok := f.(vfs.FileLockState); return ok },
		"PersistWAL":         func(f vfs.File) bool { _, ok := f.(vfs.FilePersistWAL); return ok },
		"PowersafeOverwrite": func(f vfs.File) bool { _, ok := f.(vfs.FilePowersafeOverwrite); return ok },
		"ChunkSize":          func(f vfs.File) bool { _, ok := f.(vfs.FileChunkSize); return ok },
		"SizeHint":           func(f vfs.File) bool { _, ok := f.(vfs.FileSizeHint); return ok },
		"HasMoved":           func(f vfs.File) bool { _, ok := f.(vfs.FileHasMoved); return ok },
		"Overwrite":          func(f vfs.File) bool { _, ok := f.(vfs.FileOverwrite); return ok },
		"Sync":               func(f vfs.File) bool { _, ok := f.(vfs.FileSync); return ok },
		"CommitPhaseTwo":     func(f vfs.File) bool { _, ok := f.(vfs.FileCommitPhaseTwo); return ok },
		"BatchAtomicWrite":   func(f vfs.File) bool { _, ok := f.(vfs.FileBatchAtomicWrite); return ok },
		"Checkpoint":         func(f vfs.File) bool { _, ok := f.(vfs.FileCheckpoint); return ok },
		"Pragma":             func(f vfs.File) bool { _, ok := f.(vfs.FilePragma); return ok },
		"BusyHandler":        func(f vfs.File) bool { _, ok := f.(vfs.FileBusyHandler); return ok },
		"SharedMemory":       func(f vfs.File) bool { _, ok := f.(vfs.FileSharedMemory); return ok },
		"MemoryMapper":       func(f vfs.File) bool { _, ok := f.(vfs.FileMemoryMapper); return ok },
	}
	for name, has := range optional {
		if has(osf) != has(tf) {
			t.Errorf("%s: the OS file has it: %v; the tracing file: %v", name, has(osf), has(tf))
		}
	}
}
