package workload

import (
	"errors"
	"fmt"
)

// Op is the kind of one operation. Its numeric values travel in the wire
// format and in results; they must not change.
type Op uint8

// The operations a mix can deal, and the transaction markers recorded when
// operations are batched.
const (
	OpRead   Op = 1 // read one key (SELECT * FROM kv WHERE k=?)
	OpUpsert Op = 2 // insert or replace one key
	OpUpdate Op = 3 // update an existing key
	OpDelete Op = 4 // delete one key
	OpInsert Op = 5 // insert a key that does not exist yet
	OpScan   Op = 6 // read ScanLength consecutive keys in key order
	// OpReadModifyWrite reads a record and writes it back changed, in
	// one transaction (a record workload's, see Records).
	OpReadModifyWrite Op = 7
	// OpAppend writes a key no op wrote before: each worker's appends
	// take new keys above every key space (see AppendKeys), in
	// increasing order or, with Plan.AppendOrder random, scattered.
	OpAppend Op = 8
	// OpLatest reads one of the most recently appended records, skewed to
	// the newest as YCSB's latest distribution is: the newest appended
	// key the store holds (its highest, found by the store, so that a
	// worker reads what other workers and processes appended), then a
	// zipfian step back from it over the keys appended before it (see
	// AppendKeys and store.Latester). No appended record yet: not found.
	OpLatest Op = 9

	// OpBegin and OpCommit are recorded only with Phase.Batch > 1: the time
	// spent opening and committing each batch's transaction. They are not
	// data operations and do not count toward throughput.
	OpBegin  Op = 14
	OpCommit Op = 15

	// OpScript and OpStatement number the ops of a sql workload (see
	// SQL): script i of the plan is OpScript+i, a data op (one run of the
	// script, counted in throughput); its statements, numbered over every
	// script in order, are OpStatement+j, recorded with SQL.PerStatement
	// only and, like the transaction markers, not counted in throughput.
	OpScript    Op = 32
	OpStatement Op = OpScript + MaxScripts

	// MaxOp bounds the op values; every valid Op is below it.
	MaxOp Op = 128
)

// Limits of a sql workload, from the op values its scripts and statements
// take.
const (
	MaxScripts    = 16
	MaxStatements = int(MaxOp - OpStatement)
)

var opNames = map[Op]string{
	OpRead:   "read",
	OpUpsert: "upsert",
	OpUpdate: "update",
	OpDelete: "delete",
	OpInsert: "insert",
	OpScan:   "scan",

	OpReadModifyWrite: "read-modify-write",
	OpAppend:          "append",
	OpLatest:          "latest",
	OpBegin:           "begin",
	OpCommit:          "commit",
}

// String returns the op's name as used in mix specs and results. A
// script's op is "script#I" and a statement's "statement#J" here; results
// name them after the plan's scripts (see Plan.OpName).
func (o Op) String() string {
	if n, ok := opNames[o]; ok {
		return n
	}
	switch {
	case o.IsScript():
		return fmt.Sprintf("script#%d", o-OpScript)
	case o.IsStatement():
		return fmt.Sprintf("statement#%d", o-OpStatement)
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the data op named s, as String names it.
func ParseOp(s string) (Op, error) {
	for o := OpRead; o <= OpLatest; o++ {
		if o.String() == s {
			return o, nil
		}
	}
	var i int
	if _, err := fmt.Sscanf(s, "script#%d", &i); err == nil && i >= 0 && i < MaxScripts && ScriptOp(i).String() == s {
		return ScriptOp(i), nil
	}
	if _, err := fmt.Sscanf(s, "statement#%d", &i); err == nil && i >= 0 && i < MaxStatements && StatementOp(i).String() == s {
		return StatementOp(i), nil // a replayed trace's (a mix of scripts deals none)
	}
	return 0, fmt.Errorf("unknown op %q (want one of: read, upsert, update, delete, append, scan, latest, insert, read-modify-write)", s)
}

// ScriptOp returns the op of script i of a sql workload.
func ScriptOp(i int) Op { return OpScript + Op(i) }

// StatementOp returns the op of statement j of a sql workload.
func StatementOp(j int) Op { return OpStatement + Op(j) }

// IsScript reports whether o is the run of one of a sql workload's
// scripts.
func (o Op) IsScript() bool { return o >= OpScript && o < OpStatement }

// IsStatement reports whether o is one statement of a sql workload's
// script (recorded with SQL.PerStatement).
func (o Op) IsStatement() bool { return o >= OpStatement && o < MaxOp }

// MixOps returns the ops a lottery phase may deal, in their canonical
// order. Insert runs in "each" phases only (see Phase.Access), but for a
// record workload's (RecordOps). A scan reads ScanLength keys in key
// order from a drawn key; a latest read reads one of the newest appended
// keys (OpLatest).
func MixOps() []Op { return []Op{OpRead, OpUpsert, OpUpdate, OpDelete, OpScan, OpAppend, OpLatest} }

// MixOpNames is the list of MixOps' names that errors and help give.
const MixOpNames = "read, upsert, update, delete, scan, append or latest"

// RecordOps returns the ops a record workload's lottery deals (see
// Records): YCSB's READ, UPDATE, INSERT, SCAN and READ-MODIFY-WRITE.
func RecordOps() []Op { return []Op{OpRead, OpUpdate, OpInsert, OpScan, OpReadModifyWrite} }

// IsData reports whether o is a data operation (counted in throughput), as
// opposed to a transaction marker.
func (o Op) IsData() bool { return o >= OpRead && o <= OpLatest || o.IsScript() }

// IsWrite reports whether o changes the database.
func (o Op) IsWrite() bool {
	return o == OpUpsert || o == OpUpdate || o == OpDelete || o == OpInsert || o == OpReadModifyWrite || o == OpAppend
}

// ScanLength is how many consecutive keys one scan op reads: an each-key
// phase's always, a lottery's unless Plan.ScanLength says otherwise.
const ScanLength = 100

// ScanLen returns how many consecutive keys a lottery's scan reads.
func (p *Plan) ScanLen() int {
	if p.ScanLength > 0 {
		return p.ScanLength
	}
	return ScanLength
}

// checkScanLength checks the scan length a plan sets, and that some
// phase of the plan scans.
func (p *Plan) checkScanLength() error {
	if p.ScanLength == 0 {
		return nil
	}
	if p.ScanLength < 0 || p.ScanLength > MaxScanLength {
		return fmt.Errorf("scan length %d is out of range (want 1 to %d keys)", p.ScanLength, MaxScanLength)
	}
	for _, ph := range p.RunPhases() {
		if ph.Access == AccessLottery && ph.Mix.Share(OpScan) > 0 {
			return nil
		}
	}
	return fmt.Errorf("scan length %d: no phase of the plan scans (give scan in --mix or a --role's mix)", p.ScanLength)
}

// validOps marks the ops that have a name, for Valid.
var validOps = func() (v [256]bool) {
	for o := range opNames {
		v[o] = true
	}
	return v
}()

// Valid reports whether o is a known op. It is asked of every sample the
// coordinator receives: an array lookup, where the map of names cost two
// lookups per sample.
func (o Op) Valid() bool { return validOps[o] || o.IsScript() || o.IsStatement() }

// ErrOp wraps an operation error that stopped a worker, and an op that
// could not be dealt.
var ErrOp = errors.New("operation failed")
