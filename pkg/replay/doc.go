// Package replay runs a captured trace again (gobench replay): the source
// of a replay's ops and when they run, beside the plan data that names
// them (workload.Replay), which only this package, the preset that builds
// it and the report's block of it read.
//
// Build reads a trace into a replay's plan: each captured connection of
// the database replayed placed on a worker, its statements' kinds, and
// the order of its commits. The replay's source registers itself with
// package workload when this package is linked (workload.RegisterSource;
// package result links it, so every reader of results has it): a plan
// that holds a replay has it as its source, which checks the plan, names
// its statement kinds and describes it, and does its work around the run
// (workload.Around), which the coordinator calls without naming it.
// A host's workers share one Source (the Around's Host, or NewSource,
// handed to runner.Host.Source), which deals each worker its
// connection's statements (Statement, an action the worker's one loop
// runs on its connection and clocks like any op) and paces them
// (deal.Pacer): at their recorded due times at a speed, and in the
// order of commits, a gate (Order, shared by every worker process through
// a file the Around's Share makes) that lets a statement run when its
// turn comes. Around the run: InstallSnapshot writes the database the
// replay starts from, CheckSQL refuses a trace whose SQL would reach
// outside the run's database, and Check compares the database the replay
// ended with with the capture's.
package replay
