package workload

import "fmt"

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

	// OpBegin and OpCommit are recorded only with Phase.Batch > 1: the time
	// spent opening and committing each batch's transaction. They are not
	// data operations and do not count toward throughput.
	OpBegin  Op = 14
	OpCommit Op = 15

	// MaxOp bounds the op values; every valid Op is below it.
	MaxOp Op = 16
)

var opNames = map[Op]string{
	OpRead:   "read",
	OpUpsert: "upsert",
	OpUpdate: "update",
	OpDelete: "delete",
	OpInsert: "insert",
	OpScan:   "scan",
	OpBegin:  "begin",
	OpCommit: "commit",
}

// String returns the op's name as used in mix specs and results.
func (o Op) String() string {
	if n, ok := opNames[o]; ok {
		return n
	}
	return fmt.Sprintf("op(%d)", uint8(o))
}

// ParseOp returns the data op named s.
func ParseOp(s string) (Op, error) {
	for o := OpRead; o <= OpScan; o++ {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown op %q (want one of: read, upsert, update, delete, insert, scan)", s)
}

// MixOps returns the ops a lottery phase may deal, in their canonical
// order. Insert and scan run in "each" phases only (see Phase.Access).
func MixOps() []Op { return []Op{OpRead, OpUpsert, OpUpdate, OpDelete} }

// IsData reports whether o is a data operation (counted in throughput), as
// opposed to a transaction marker.
func (o Op) IsData() bool { return o >= OpRead && o <= OpScan }

// IsWrite reports whether o changes the database.
func (o Op) IsWrite() bool {
	return o == OpUpsert || o == OpUpdate || o == OpDelete || o == OpInsert
}

// ScanLength is how many consecutive keys one scan op reads.
const ScanLength = 100

// Valid reports whether o is a known op.
func (o Op) Valid() bool { _, ok := opNames[o]; return ok }
