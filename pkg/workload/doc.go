// Package workload describes what gobench measures, as plain data: a Plan
// of phases of ops over a key space, where their ops come from and how
// each source describes itself. Package deal deals a plan's ops to its
// workers; package runner runs them.
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
// kinds a phase can deal ([Plan.Kinds], the share that may write) and
// describes itself for reports ([Plan.Describe], [Plan.Brief]); whether
// its ops have due times is [Plan.Timed]. What deals them, one at a time,
// with the pacers that say when each runs, is package deal's. A library
// user can hand a plan a source of its own (Plan.Custom) for runs in one
// process. A source whose dealing reads what plan data cannot hold (a
// replayed trace's: package replay's) registers itself
// ([RegisterSource]) and is the source of the plans whose data it owns
// ([Owned]: a field of the plan, its checks, its op names); the work it
// does around a run ([Around]: the database the run starts from, what
// worker processes share, the source a host's workers deal from, the
// check after the run) the coordinator calls, naming no source. Its plan
// data ([Replay]) is here; nothing here reads it.
//
// Every random stream a worker draws from is seeded from the plan's
// seed, the worker id and the phase ([WorkerSeed]) and nothing else.
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
