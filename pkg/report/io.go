package report

import (
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// ioText says what phase i's commits made the kernel do: syncs and bytes
// per acknowledged commit, by file; or why the I/O was not traced; ""
// for a store that says nothing of it (an engine of no files).
func ioText(r *result.Result, i int) string {
	ph := r.Phases[i]
	if ph.IO == nil {
		if why := r.Environment.StoreFact(store.FactIOTrace); strings.HasPrefix(why, "not traced") {
			return "io: " + why
		}
		return ""
	}
	io := ph.IO
	if io.Commits == 0 {
		t := io.Files.Total()
		return fmt.Sprintf("io: no commit acknowledged; %d syncs, %s written", io.Files.Syncs(), bytesize.Units{}.Round(t.Bytes))
	}
	per := func(n int64) string { return units.Fixed(float64(n)/float64(io.Commits), 2) }
	var parts []string
	var dirs, misdirected int64
	for role := range store.NumRoles {
		f := io.Files.Role(role)
		dirs += f.DirSyncs
		misdirected += f.MisdirectedDirSyncs
		if f.Syncs == 0 {
			continue
		}
		p := store.RoleName(role) + " " + per(f.Syncs)
		if f.MisdirectedDirSyncs > 0 {
			p += fmt.Sprintf(" of which %s in place of a sync of its directory", per(f.MisdirectedDirSyncs))
		}
		parts = append(parts, p)
	}
	if dirs > 0 {
		parts = append(parts, "directory "+per(dirs))
	}
	s := fmt.Sprintf("io: %s syncs/commit", units.Fixed(io.SyncsPerCommit, 2))
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if r.Plan.IOTrace == workload.IOTraceFS && io.Files.Syncs() > 0 {
		s += " · " + primitives(io.Files, per)
	}
	s += fmt.Sprintf(" · %s written/commit", bytesize.Units{}.Round(int64(io.BytesPerCommit+0.5)))
	if io.Amplification > 0 {
		s += fmt.Sprintf(", %s× the values written", units.Sig3(io.Amplification))
	}
	s += fmt.Sprintf(" · %d commits", io.Commits)
	if misdirected > 0 {
		s += " · the directory entries of the files it created were never synced"
	}
	return s
}

// tracedSyncNote is a line for a run traced through gobench's recording
// file system on an engine whose syncs the recorder changes, "" for any
// other. An msync of a shared mapping reaches a FUSE file system as the
// kernel's writes of the dirty pages and a sync request, which the
// recorder serves with pwrite and fdatasync of the real file: not what
// the engine's msync costs on the disk's own file system (badger at
// --sync full ran about 3× faster traced, docs/durability.md), so its
// speeds are not the untraced engine's. Engines that call fsync,
// fdatasync or write through O_DSYNC get the same call through the
// recorder, only slower by its overhead.
func tracedSyncNote(r *result.Result) string {
	if r.Plan.IOTrace != workload.IOTraceFS || r.Environment.SyncPrimitive != "msync" {
		return ""
	}
	return "traced speeds: this engine syncs by msync, which gobench's recording file system serves as its own writes and fdatasyncs of the file, a cost unlike the engine's msync on the disk (badger ran about 3× faster traced): compare these speeds only with runs traced the same way"
}

// primitives says which calls the syncs a file system saw were, per
// commit: fsync, fdatasync (msync reaches a file system as one), a write
// through a descriptor opened with O_DSYNC (or O_SYNC, counted with them:
// no engine here uses it), and the fsync of a directory.
func primitives(io store.IOCounts, per func(int64) string) string {
	t := io.Total()
	var parts []string
	for _, p := range []struct {
		name string
		n    int64
	}{{"fsync", t.Syncs - t.DataSyncs - t.SyncWrites}, {"fdatasync or msync", t.DataSyncs}, {"write through O_DSYNC", t.SyncWrites}, {"directory fsync", t.DirSyncs}} {
		if p.n > 0 {
			parts = append(parts, p.name+" "+per(p.n))
		}
	}
	return "by call: " + strings.Join(parts, ", ")
}

// ioOutsideText says what the run's I/O outside its phases was: the
// store's setup, and the workers opening and closing their connections.
func ioOutsideText(r *result.Result) string {
	var parts []string
	u := bytesize.Units{}
	if io := r.IOSetup; io != nil {
		parts = append(parts, fmt.Sprintf("setup %d syncs, %s written", io.Syncs(), u.Round(io.Total().Bytes)))
	}
	if io := r.IOOutside; io != nil && !io.IsZero() {
		parts = append(parts, fmt.Sprintf("connections opening and closing %d syncs, %s written", io.Syncs(), u.Round(io.Total().Bytes)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "io outside the phases: " + strings.Join(parts, "; ")
}
