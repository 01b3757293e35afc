// Package result holds what a gobench run measured, and builds it.
//
// # The result
//
// A [Result] is versioned JSON ([SchemaVersion]): the plan that ran, the
// environment (OS, CPUs, filesystem, and the store's own facts read back
// from the database), and per [Phase] the wall time, per op kind an
// [OpStats] (count, errors by class, ops/s, latency percentiles in
// microseconds, and the full latency histogram in HdrHistogram's lossless
// encoding), per-worker totals and a per-second timeline. [Read] loads and
// checks a result file; [Result.Write] writes one.
//
// # Building one
//
// A [Builder] is a workload.Collector: it gives each worker a [Recorder]
// (a workload.Sink) that keeps one HdrHistogram per op kind and the
// worker's current second of timeline. Seconds are merged across workers
// once every worker has moved past them and then reduced to a summary, so
// memory follows the number of workers and op kinds, never the number of
// ops. Latencies above [HistogramMax] are recorded at the ceiling and
// counted (Phase.ClampedSamples), never dropped.
package result
