package sqltrace

import (
	"encoding/binary"
	"errors"
	"math"
)

// Appending a record's fields.

func putU(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }
func putI(b []byte, v int64) []byte  { return binary.AppendVarint(b, v) }

func putBytes(b, s []byte) []byte { return append(putU(b, uint64(len(s))), s...) }
func putStr(b []byte, s string) []byte {
	return append(putU(b, uint64(len(s))), s...)
}

func putState(b []byte, s State, base int64) []byte {
	b = append(b, byte(s.Kind))
	if s.Kind == StateNone {
		return b
	}
	return putI(putU(b, s.Value), s.At-base)
}

func putValue(b []byte, v Value) []byte {
	b = append(b, byte(v.Type))
	switch v.Type {
	case ValueInt:
		b = putI(b, v.Int)
	case ValueFloat:
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float))
	case ValueText, ValueBlob:
		b = putBytes(b, v.Bytes)
	case ValueZeroBlob:
		b = putU(b, uint64(v.Int))
	case ValueOmitted:
		b = putU(append(b, byte(v.Of)), uint64(v.Int))
	}
	return b
}

// errShort is a field that runs past the end of its chunk.
var errShort = errors.New("a record runs past the end of its chunk")

// decoder reads the fields of the records of one chunk; the first error
// sticks, and every later read returns zero.
type decoder struct {
	b   []byte
	pos int
	err error
}

func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

func (d *decoder) u() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b[d.pos:])
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) i() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b[d.pos:])
	if n <= 0 {
		d.fail(errShort)
		return 0
	}
	d.pos += n
	return v
}

// bounded reads a uvarint that must not exceed max.
func (d *decoder) bounded(max uint64, what string) uint64 {
	v := d.u()
	if v > max {
		d.fail(errors.New(what + " is out of range"))
		return 0
	}
	return v
}

func (d *decoder) byte1() byte {
	if d.err != nil {
		return 0
	}
	if d.pos >= len(d.b) {
		d.fail(errShort)
		return 0
	}
	c := d.b[d.pos]
	d.pos++
	return c
}

// bytes returns the next length-prefixed bytes, at most max long, as a
// slice of the chunk.
func (d *decoder) bytes(max int, what string) []byte {
	n := d.u()
	if d.err != nil {
		return nil
	}
	if n > uint64(max) {
		d.fail(errors.New(what + " is longer than the format allows"))
		return nil
	}
	if n > uint64(len(d.b)-d.pos) {
		d.fail(errShort)
		return nil
	}
	s := d.b[d.pos : d.pos+int(n)]
	d.pos += int(n)
	return s
}

func (d *decoder) str(max int, what string) string { return string(d.bytes(max, what)) }

func (d *decoder) state(base int64) State {
	k := StateKind(d.byte1())
	switch k {
	case StateNone:
		return State{}
	case StateFile, StateWAL, StateSeq:
	default:
		d.fail(errors.New("unknown state kind"))
		return State{}
	}
	v := d.u()
	return State{Kind: k, Value: v, At: base + d.i()}
}

// u64 reads 8 bytes, little-endian.
func (d *decoder) u64() uint64 {
	if d.err != nil {
		return 0
	}
	if len(d.b)-d.pos < 8 {
		d.fail(errShort)
		return 0
	}
	v := binary.LittleEndian.Uint64(d.b[d.pos:])
	d.pos += 8
	return v
}

// value reads a parameter into v, its bytes a slice of the chunk.
func (d *decoder) value(v *Value) {
	*v = Value{Type: ValueType(d.byte1())}
	switch v.Type {
	case ValueNull:
	case ValueInt:
		v.Int = d.i()
	case ValueFloat:
		if len(d.b)-d.pos < 8 {
			d.fail(errShort)
			return
		}
		v.Float = math.Float64frombits(binary.LittleEndian.Uint64(d.b[d.pos:]))
		d.pos += 8
	case ValueText, ValueBlob:
		v.Bytes = d.bytes(MaxValue, "a parameter")
	case ValueZeroBlob:
		v.Int = int64(d.bounded(math.MaxInt32, "a zero blob's length"))
	case ValueOmitted:
		v.Of = ValueType(d.byte1())
		if v.Of != ValueText && v.Of != ValueBlob {
			d.fail(errors.New("an omitted parameter of no known type"))
		}
		v.Int = int64(d.bounded(math.MaxInt32, "an omitted parameter's length"))
	default:
		d.fail(errors.New("a parameter of unknown type"))
	}
}
