// Package store defines how gobench talks to an embedded database: the
// interfaces an engine implements, the classes its errors fall into, and a
// registry to find engines by name.
//
// # Writing a store
//
// An engine provides three types:
//
//   - a [Driver], which opens a database from a [Config] (a path and the
//     engine's own options as JSON);
//   - a [Store], the open database a process shares: [Store.Init] creates
//     the schema once (and refuses a database gobench did not create, with
//     [ErrForeign]); [Store.Conn] hands each worker its own connection;
//   - a [Conn], one worker's connection, with the operations workloads
//     call: Get and Put are required.
//
// Everything else is optional, an interface an engine implements where it
// can, each saying what happens when it is missing:
//
//   - on a Conn, more operations: [Updater], [Deleter], [Inserter],
//     [Scanner]; records of a [Table] (YCSB's usertable): [Recorder],
//     [RecordScanner]; transactions: [Batcher], [TxProber] (is one still
//     open?), [BusyRetrier] (retry a busy step in place); and what the
//     engine saw of lock contention: [LockWaitCounter], [BusyStepCounter];
//   - on a Store, what it can say about itself: [Describer] (facts for
//     the results), [Checker] (an integrity check), [WALObserver] (the
//     write-ahead log's size);
//   - on a Driver, what a plan needs to know before opening anything:
//     [Declarer] (its options declared once, see [Declare]: flags, cells
//     of a matrix, names, the one way an engine takes options);
//     [Transactional] (its Conns batch), [Tabular] (its stores keep record
//     tables, ordered or not), [Sharer] (fewer than many processes may
//     share a database: [Sharing], checked by [CheckShare]).
//
// Put every piece of per-connection preparation (pragmas, prepared
// statements) in Store.Conn: the harness starts its clock only after every
// worker has its Conn, and clocks each Conn call on its own.
//
// # Errors
//
// Conn methods return errors wrapped with [Wrap] and a [Class] (Busy,
// Locked, Constraint, IO, Full, Other; NotFound for a missing key), so that
// [Classify] sorts them without knowing the engine. Results count every
// error by class.
//
// # Registering
//
// Build a [Registry] and [Registry.Register] each driver; package
// store/all builds the registry of every engine gobench ships. A
// third-party store plugs into the library in the same way:
//
//	reg := store.NewRegistry()
//	reg.Register(mystore.Driver{})
//
// Every engine should pass the conformance checks of package
// store/conformance: from a test, through store/storetest in a few lines;
// from the command line, with gobench verify.
package store
