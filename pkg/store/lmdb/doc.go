// Package lmdb is gobench's LMDB engine, through
// github.com/PowerDNS/lmdb-go (LMDB 0.9.35), registered as "lmdb". It needs
// cgo; CGO_ENABLED=0 builds leave it out.
//
// Each process opens the environment (a directory holding data.mdb and
// lock.mdb) once; worker processes share it, LMDB's normal multi-process
// mode. Reads run in a read transaction that each connection keeps and
// renews per read; writes run in a write transaction each (committed with
// LMDB's fdatasync as --sync says, Options.Sync), or in the batch's open one. A
// directory is gobench's when it holds the marker file; Init refuses any
// other non-empty directory.
package lmdb
