// Package workload describes and runs what gobench measures: a Plan of
// seeded op mixes over a key space, dealt to workers that each clock every
// op on its own connection.
//
// # Plans
//
// A [Plan] is plain, JSON-serialisable data: the store to open, the rows to
// preload, the worker layout (Procs × Goroutines) and a list of [Phase]s,
// each a [Mix] of ops ("read=95,upsert=5") run for a count of ops per
// worker or for a duration. Start from [DefaultPlan] (the classic 95/5
// mix) and change what you need; [Plan.Validate] says what is wrong in
// words a user can act on. [Mix] and [Distribution] are flag.Value types,
// so command lines bind straight into a plan.
//
// # The lottery
//
// Every worker deals its ops from a [Lottery]: a deck holding the mix's
// exact proportions, reshuffled whenever it runs out, with separate PCG
// streams for ops, keys and values, all seeded from the plan's seed, the
// worker id and the phase ([WorkerSeed]) and nothing else. The same plan
// therefore deals the same op sequence to each worker whatever the store,
// its settings or whether workers are processes or goroutines: a
// comparison of two settings is fair by construction.
//
// # Running
//
// [OpenStore] opens a plan's store, initialises it and preloads it: the
// one setup of both [Run] and the gobench coordinator. [Run] runs a plan
// in this process, every worker a goroutine, and hands
// each op's [Sample] (op, outcome class, start offset, latency) to the
// [Sink] a [Collector] gives that worker; result.Builder is the Collector
// that turns samples into percentiles. A [Host] runs some of a plan's
// workers behind a START barrier; the gobench command runs one Host per
// worker process. Ops are clocked on the monotonic clock ([Now]) around
// the store call alone: dealing, recording and shipping samples fall
// outside the measured op.
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
// # Custom stores
//
// Any engine implementing store.Driver works: see package store for the
// interfaces and package store/storetest for the conformance suite.
package workload
