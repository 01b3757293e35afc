// Package judge turns results into verdicts: metrics read by name from a
// run ("read p99", "total ops/s"), statistics over a cell's repeats and
// each cell's factor against the baseline (a rank test from x/perf's
// benchmath), the headline a matrix gives per varied setting, gates
// (--expect) judged on a suite or on a capacity search, and the
// comparison of two result files with its regression rule.
//
// # Verdicts
//
// A gate or a comparison has one of three verdicts: pass, fail (a
// regression) or inconclusive, never rounding "cannot tell" to either.
// Gates read an interval at Confidence: the ratio's (RatioInterval, the
// Mann-Whitney U test inverted) for a relative gate, the median's
// (MedianInterval, benchmath's) for an absolute one, and pass or fail
// only when the whole interval is on one side of the threshold; a
// percentile needs 10/(1-q) ops of its kind a run. Two result files of
// separate invocations are compared on medians and ranges, and their
// throughput and latency are not judged when the machine's calibration
// moved between them (MachineShift); interleaved files (gobench ab) are
// judged on the interval of the ratio. Every inconclusive verdict says
// what would decide it.
//
// It computes and never renders: package report prints what it returns,
// and the command line decides exit codes from its errors (ErrThreshold,
// ErrInconclusive).
package judge
