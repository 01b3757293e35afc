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
//     call: Get and Put are required; Update, Delete and batching are
//     optional capability interfaces ([Updater], [Deleter], [Batcher]),
//     each saying what happens when it is missing.
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
// Every engine should pass the conformance suite in package
// store/storetest, which a test calls in a few lines.
package store
