// Package runner runs a workload.Plan on a store: it opens and sets the
// store up (OpenStore: the engine's Init, a sql workload's schema, the
// preload), runs some of a plan's workers behind a START barrier (Host),
// and checks the database afterwards (Verify, CheckSQL, and
// CheckCrashState for each simulated power cut).
//
// # Workers
//
// Each worker runs one loop: it deals its ops from its phase's source
// (deal.Dealer), asks its pacer (deal.Pacer; none: the closed
// loop) when each runs, and clocks every op on its own connection, on the monotonic clock ([Now])
// around the store call alone: dealing, recording and shipping samples
// fall outside the measured op. A closed-loop phase of reads and upserts
// on a connection that runs loops (store.LoopRunner) hands it the ops
// dealt a batch at a time, where that is exactly as faithful.
//
// # Acknowledgement
//
// An op is acknowledged (its sample's class is OK) only when the engine
// says it is durable by its own rules. Outside a batch the worker then
// asks the engine, where it can tell (store.TxProber), that no
// transaction is left open: an op that left one fails with class OpenTx
// and the transaction is rolled back. The ops of a batch are recorded
// once its COMMIT decided their outcome; a batch whose BEGIN, COMMIT or
// any op failed fails as a whole. Under the retry busy policy a
// connection that retries the busy step itself (store.BusyRetrier) is
// handed the worker's backoff; others have the whole op run again.
//
// The gobench command runs one Host per worker process; bench.Run runs a
// plan whole in this process.
package runner
