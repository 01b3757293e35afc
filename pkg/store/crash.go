package store

// Record is where a store that simulates power cuts (PowerCutStore)
// records a run: every write with its bytes, truncate, sync, creation,
// deletion and directory sync of the database's files, and every
// acknowledgement, in one order across all the run's processes.
type Record struct {
	// Path is the record file, appended to by every process.
	Path string `json:"path"`
	// Limit is the most bytes the record may hold: past it, recording
	// stops, and the states come from the part recorded.
	Limit int64 `json:"limit"`
	// FailSync, when not 0, makes the recorder fail a sync (under
	// CrashFsyncFail): the FailSync-th sync of the store's files that
	// the recording process sees (counting from 1) returns EIO, and is
	// recorded with iorecord.FlagFailed.
	FailSync int64 `json:"fail_sync,omitempty"`
}

// Crash models: what survives of the writes and directory changes no
// sync covered.
const (
	// CrashLose loses every write after its file's last sync and every
	// creation, deletion and rename after its directory's last sync:
	// what POSIX promises, no more.
	CrashLose = "lose"
	// CrashTorn is CrashLose with a seeded random subset of the lost
	// writes surviving, in whole 512-byte sectors (SQLite's src/test6.c
	// with SQLITE_IOCAP_ATOMIC512).
	CrashTorn = "torn"
	// CrashNamesDurable makes creations, deletions and renames durable at
	// once and loses only file data and sizes after their file's last
	// sync: LazyFS's clear-cache.
	CrashNamesDurable = "names-durable"
	// CrashTorn4K is CrashTorn at the granularity of a 4 KiB page: each
	// lost write survives in whole page-aligned parts (LazyFS's torn
	// writes, a page cache written back page by page).
	CrashTorn4K = "torn-4k"
	// CrashRecovery cuts twice: a state is built as under CrashLose,
	// reopened with its I/O recorded (the engine's recovery: a hot
	// journal rolled back, a WAL replayed), and cut again at a seeded
	// point inside what that reopen wrote; the state judged is the
	// second cut's. SQLite's own harness crashes during recovery so.
	CrashRecovery = "recovery-crash"
	// CrashFsyncFail is CrashLose on a run in which one sync fails: the
	// recorder makes the Nth sync of the store's files (Record.FailSync)
	// return EIO, and the pages it would have made durable are dropped,
	// marked clean as Linux marks them after a failed writeback, so that
	// a later sync does not write them either (Rebello et al., ATC 2020).
	CrashFsyncFail = "fsync-fail"
)

// CrashModels lists the crash models.
func CrashModels() []string {
	return []string{CrashLose, CrashTorn, CrashNamesDurable, CrashTorn4K, CrashRecovery, CrashFsyncFail}
}

// TornUnit returns the unit in which a lost write survives under a torn
// model (512 bytes under CrashTorn, 4096 under CrashTorn4K), 0 under a
// model that tears nothing.
func TornUnit(model string) int64 {
	switch model {
	case CrashTorn:
		return 512
	case CrashTorn4K:
		return 4096
	}
	return 0
}

// PowerCutter is implemented by a Driver whose stores can record a run,
// so that what a power cut at any point of it would have left on disk
// can be rebuilt (gobench's --crash). Package crashstate builds those
// states from the record and the files the driver names (DiskFiler),
// for every engine alike. Without it, --crash is refused for the driver
// unless the file system recorder records the run.
type PowerCutter interface {
	// PowerCutSupport returns nil when a run of cfg with its workers in
	// mode (workload.ModeProcess or ModeGoroutine) can be recorded, or
	// why not.
	PowerCutSupport(cfg Config, mode string) error
}

// CrashCheckIsolator is implemented by a Driver whose engine, in C, can
// abort its process on a broken file, with an assertion no Go recover
// catches (LMDB's "mdb.c: Assertion 'IS_LEAF(mp)' failed"): gobench opens
// and checks each power-cut state of such an engine in a child process of
// its own, so that an abort makes that state corrupt instead of ending
// the run. Other engines' states are checked in gobench's own process.
type CrashCheckIsolator interface {
	// CrashCheckAborts reports whether opening or checking a broken
	// state can abort the process that does it.
	CrashCheckAborts() bool
}

// CrashSpec says which crash states to build.
type CrashSpec struct {
	// States is how many states, at seeded points spread over the run,
	// half of them just after an acknowledgement.
	States int
	// Model is one of CrashModels.
	Model string
	Seed  uint64
	// Exhaustive builds a state after every persistence point of the
	// record (every sync of a file or directory), each labelled with it,
	// in place of States seeded ones; a record with more than MaxPoints
	// of them is refused (ErrTooManyPoints).
	Exhaustive bool
	MaxPoints  int
}

// AckPreload is the Phase of the acknowledgement of a preload, recorded
// once its last commit returned when the record starts before it: every
// preloaded row is acknowledged from then on.
const AckPreload = -1

// Ack is an acknowledgement as recorded: writes First to First+N-1 of
// Worker in run phase Phase were committed (in a sql workload: scripts
// First to First+N-1). Start is when the first of them began and At
// when the COMMIT had returned (monotonic clock readings); Event is the
// acknowledgement's place in the record. A record workload's write is
// acknowledged on its own: Record is set, Key is its record's keynum
// and Field the field it wrote (-1: every field). Commit is the event of
// the first write, sync or other change its process recorded after its
// previous acknowledgement: where the transaction's writes began, which
// orders the run's commits (processes write in turn, under the write
// lock, but a COMMIT that checkpoints after it returns late, so their
// acknowledgements may be recorded out of that order); Event where there
// is none (a transaction that wrote nothing).
type Ack struct {
	Worker, Phase int
	First         uint64
	N             int
	Start, At     int64
	Event         int64
	Record        bool
	Key           uint64
	Field         int
	Commit        int64
}

// AckRecorder is implemented by a Conn of a store that records the run:
// a worker records each acknowledgement right after its COMMIT returned.
// On a connection whose process records nothing it does nothing.
type AckRecorder interface {
	RecordAck(a Ack)
}

// CrashState is one state a power cut would have left.
type CrashState struct {
	// Index counts the states from 0.
	Index int
	// Path is the state's database, in a directory of its own: open it
	// with the run's driver and options, as after a reboot.
	Path string
	// Event is the crash point: the state holds what was durable after
	// the record's event number Event (counting the run's events from
	// 0); At is that event's time (a monotonic clock reading). An
	// acknowledgement with Event at most this one came before the crash.
	Event, At int64
	// Label names the persistence point an exhaustive state follows:
	// "after fdatasync #12 of data.mdb"; "" for a seeded state.
	Label string
	// SurvivingSectors counts, under CrashTorn, the sectors of writes no
	// sync covered that the state kept (under CrashTorn4K, the pages).
	SurvivingSectors int64
	// Events is how many events the run recorded, RunStart the time of
	// its first (a monotonic clock reading).
	Events, RunStart int64
	// FailedSyncs counts the syncs that failed before the crash point
	// (CrashFsyncFail); FailedAt is the event number of the first.
	FailedSyncs int
	FailedAt    int64
}

// RecordSummary is what the record of a run held.
type RecordSummary struct {
	// Events is the run's events from its start to its end (or to where
	// the record filled); Acks and Bytes are of that part.
	Events, Acks, Bytes int64
	// Start and End are the times of the run's first and last recorded
	// events (monotonic clock readings).
	Start, End int64
	// Full says the record reached its limit before the run ended: the
	// states come from the part before.
	Full bool
	// FailedSyncs counts the syncs of the run that failed
	// (CrashFsyncFail).
	FailedSyncs int
}

// PowerCutStore is implemented by the Store of a PowerCutter.
type PowerCutStore interface {
	// StartRecording makes the database's files durable, copies them
	// into dir/base under their names, appends the run's start to rec, and from then on records
	// this process's I/O on them (worker processes record theirs from
	// their first connection on, when their Config has a Record). Call
	// it with no connection writing: at the START barrier.
	StartRecording(dir string, rec Record) error
	// StopRecording appends the run's end and stops this process's
	// recording. It returns the first error an append of this process
	// met.
	StopRecording() error
}
