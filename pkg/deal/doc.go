// Package deal deals a plan's ops to its workers: what each worker runs
// next, one op at a time, and when. It is the machinery under the plan
// data of package workload, which says what to run; package runner runs
// what is dealt.
//
// # Sources and dealers
//
// A [Source] is a workload.Source that deals: for each worker of a phase
// it gives a [Dealer], which deals one [Deal] at a time: the op, its key
// or record, the value it writes, the values a script binds, or an
// [Action] the source runs itself. The sources plan data names (the
// lottery, each key, YCSB's records, scripts) deal here; a source of
// another package's (a replayed trace's) or a library user's own
// (workload.Plan.Custom) deals itself. The workers of one host share a
// [Shared] (NewShared): the key chooser's tables, a record workload's
// generators and insert counter, and the source that deals in place of
// the plan's ([Shared.Use]); [Shared.Dealer] gives each worker its dealer.
//
// # Pacing
//
// When each op runs is its [Pacer], beside the source ([Shared.Pacer]):
// none is the closed loop (each op as soon as the last ended), a rate is
// an open loop of due times ([Schedule]), and a [Paced] source brings its
// own (a trace's recorded times, its order of commits); [Pacers] chains
// several.
//
// # The lottery
//
// Every key-value worker deals its ops from a [Lottery]: a deck holding
// the mix's exact proportions, reshuffled whenever it runs out, with
// separate PCG streams for ops, keys and values, all seeded from the
// plan's seed, the worker id and the phase (workload.WorkerSeed) and
// nothing else. The same plan therefore deals the same op sequence to
// each worker whatever the store, its settings or whether workers are
// processes or goroutines: a comparison of two settings is fair by
// construction. The rows a plan preloads are a [Preloader]'s; a verified
// run's values carry a [Tag] naming their write.
package deal
