// Package iotrace holds what gobench's tracing VFSes share: the counters
// of the I/O SQLite's files receive, by file role, and SQLite's sync
// flags. The events they record go to the crash record (package
// iorecord).
package iotrace
