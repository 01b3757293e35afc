// Package workload describes what gobench measures, as plain data: a Plan
// of phases of ops over a key space, and the sources that deal each
// worker its ops. Package runner runs it.
//
// # Plans
//
// A [Plan] is plain, JSON-serialisable data: the store to open, the rows to
// preload, the worker layout (Procs × Goroutines) and a list of [Phase]s,
// each a [Mix] of ops ("read=95,upsert=5") run for a count of ops per
// worker or for a duration. Start from [DefaultPlan] (the classic 95/5
// mix) and change what you need; [Plan.Validate] says what is wrong in
// words a user can act on. [Mix] and [Distribution] are flag.Value types,
// so command lines bind straight into a plan. A [Matrix] spans the plans
// of comma-list settings.
//
// # Sources
//
// Where a phase's ops come from is its [Source] (Plan.Source): the seeded
// lottery of a mix, every key of a worker's share once, YCSB's record ops
// ([Records]), the user's SQL scripts ([SQL]). A source says which op
// kinds a phase can deal and describes itself for reports, and gives each
// worker a [Dealer], which deals one [Deal] at a time: the op, its key or
// record, the value it writes, the values a script binds, or an [Action]
// the source runs itself. A library user can hand a plan a source of its
// own (Plan.Custom) for runs in one process. A source whose dealing reads
// what plan data cannot hold (a replayed trace's: package replay's)
// registers itself ([RegisterSource]) and is the source of the plans whose
// data it owns ([Owned]: a field of the plan, its checks, its op names);
// the work it does around a run ([Around]: the database the run starts
// from, what worker processes share, the source a host's workers deal
// from, the check after the run) the coordinator calls, naming no source.
// Its plan data ([Replay]) is here; nothing here reads it.
//
// # Pacing
//
// When each op runs is its [Pacer], beside the source: none is the closed
// loop (each op as soon as the last ended), a rate is an open loop of due
// times ([Schedule]), and a [Paced] source brings its own (a trace's
// recorded times, its order of commits); [Pacers] chains several.
//
// # The lottery
//
// Every key-value worker deals its ops from a [Lottery]: a deck holding the
// mix's exact proportions, reshuffled whenever it runs out, with separate
// PCG streams for ops, keys and values, all seeded from the plan's seed,
// the worker id and the phase ([WorkerSeed]) and nothing else. The same
// plan therefore deals the same op sequence to each worker whatever the
// store, its settings or whether workers are processes or goroutines: a
// comparison of two settings is fair by construction.
//
// # Samples
//
// A worker hands each op's [Sample] (op, outcome class, start offset,
// latency) to the [Sink] a [Collector] gives it; result.Builder is the
// Collector that turns samples into percentiles.
//
// # Custom stores
//
// Any engine implementing store.Driver works: see package store for the
// interfaces and package store/storetest for the conformance suite.
package workload
