// Package judge turns results into verdicts: metrics read by name from a
// run ("read p99", "total ops/s"), statistics over a cell's repeats and
// each cell's factor against the baseline (a rank test from x/perf's
// benchmath), the headline a matrix gives per varied setting, gates
// (--expect) judged on a suite or on a capacity search, and the
// comparison of two result files with its regression rule.
//
// It computes and never renders: package report prints what it returns,
// and the command line decides exit codes from its errors (ErrThreshold).
package judge
