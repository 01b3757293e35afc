// Package sqltrace is the format of a captured SQLite workload: every
// statement an application ran, per connection and per process, with its
// typed parameters, its timing, its outcome and where it stood in the
// database's order of commits, and a snapshot of each database as it was
// when the capture began. gobench capture writes it (through a preloaded C
// library, or the Go wrapper in package capture), gobench replay reads it.
//
// # File
//
// A trace opens with a 16-byte header: the magic "GBTRACE\n", the format
// version as a little-endian uint32 (Version; a reader refuses a newer
// one, saying so, see ErrNewer) and four zero bytes. Chunks follow, each
//
//	type      1 byte: 'R' records, 'S' snapshot bytes, 'E' end
//	stream    uvarint: the process a chunk of records belongs to, or the
//	          snapshot a chunk of bytes belongs to
//	length    uvarint, at most MaxChunk
//	payload   length bytes
//	crc       little-endian uint32, CRC-32C of the bytes above
//
// A complete trace ends with one 'E' chunk (its payload counts the streams
// and records written); a file that ends anywhere else is truncated, and the
// reader says at which offset, as it does for a chunk whose CRC does not
// match. A capture's processes each write a file of their own (stream 0
// throughout); Merge joins them, numbering their streams from 1, and
// embeds the snapshots.
//
// # Records
//
// An 'R' payload is whole records, one after another: a kind byte and its
// fields, integers as (zig-zag for signed) varints, strings and byte
// values as a uvarint length and the bytes.
//
//	Process  pid, ppid, wall-clock start (Unix ns), monotonic start, command
//	DB       db id, path: the database file a connection opens
//	Open     conn, db, time, flags, result code, thread
//	Close    conn, time, result code
//	SQL      sql id, text: the text of later Exec records that name the id
//	Exec     one execution of one statement (see Exec); from format
//	         version 2, with FlagDigest, it ends with the 8-byte
//	         (little-endian) digest of the rows it returned (see RowHash)
//	Segment  db, time, reason: the database's state counters restart
//	Note     level, text: what the capture could not do (level 3,
//	         NoteTail: the trace's last statements may be missing)
//	Snapshot db, snapshot number, size, time, error: the database's
//	         content when the capture began, in the 'S' chunks of that
//	         snapshot number
//	SnapFile db, file, time, error: a snapshot a capture's process left in
//	         a file of the capture's directory (Merge embeds it)
//
// Times are CLOCK_MONOTONIC nanoseconds, the same clock in every process
// of one machine; an Exec's start is written as the difference from the
// previous Exec's of its stream.
//
// # Bounds
//
// Writing keeps one chunk per stream in memory. Reading keeps one chunk
// and, per stream, the SQL texts defined so far, within MaxTexts texts and
// MaxTextBytes bytes; a writer whose table is full defines further texts
// as id 0, which stands for the next Exec only. A parameter longer than
// MaxValue is kept as its type and length (ValueOmitted); a statement
// longer than MaxText as its first MaxText bytes, marked FlagCut. Info and
// MergeStats count both (Loss), so that a summary says what a replay
// cannot run as it ran.
package sqltrace
