package mask

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"math"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// Key makes the substitutes: an HMAC-SHA256 key.
type Key []byte

// minLen is the shortest text or blob a substitute is: shorter ones would
// collide (two names of two letters made one), and break a UNIQUE column.
const minLen = 12

const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"

// stream returns n bytes of the keyed hash of v's type and bytes.
func (k Key) stream(typ byte, b []byte, n int) []byte {
	out := make([]byte, 0, n+sha256.Size)
	for ctr := uint32(0); len(out) < n; ctr++ {
		h := hmac.New(sha256.New, k)
		h.Write([]byte{typ})
		h.Write(binary.LittleEndian.AppendUint32(nil, ctr))
		h.Write(b)
		out = h.Sum(out)
	}
	return out[:n]
}

// Value returns v's substitute: of the same type, the same for equal
// values. A text becomes as many letters and digits (at least minLen), a
// blob as many bytes, an integer another of the same sign, a float another
// float; NULL and values the trace did not keep stay as they are.
func (k Key) Value(v sqltrace.Value) sqltrace.Value {
	switch v.Type {
	case sqltrace.ValueText:
		s := k.stream('t', v.Bytes, max(len(v.Bytes), minLen))
		for i := range s {
			s[i] = alphabet[int(s[i])%len(alphabet)]
		}
		return sqltrace.Value{Type: v.Type, Bytes: s}
	case sqltrace.ValueBlob:
		return sqltrace.Value{Type: v.Type, Bytes: k.stream('b', v.Bytes, max(len(v.Bytes), minLen))}
	case sqltrace.ValueInt:
		n := int64(binary.LittleEndian.Uint64(k.stream('i', binary.LittleEndian.AppendUint64(nil, uint64(v.Int)), 8)) >> 2)
		if v.Int < 0 {
			n = -n - 1
		}
		return sqltrace.Value{Type: v.Type, Int: n}
	case sqltrace.ValueFloat:
		u := binary.LittleEndian.Uint64(k.stream('f', binary.LittleEndian.AppendUint64(nil, math.Float64bits(v.Float)), 8))
		return sqltrace.Value{Type: v.Type, Float: float64(u>>11) / (1 << 53) * 1e6}
	}
	return v
}

// valueKey is a value as a map key: its type and bytes.
func valueKey(v sqltrace.Value) (string, bool) {
	switch v.Type {
	case sqltrace.ValueText, sqltrace.ValueBlob:
		return string(append([]byte{byte(v.Type)}, v.Bytes...)), true
	case sqltrace.ValueInt:
		return string(binary.LittleEndian.AppendUint64([]byte{byte(v.Type)}, uint64(v.Int))), true
	case sqltrace.ValueFloat:
		return string(binary.LittleEndian.AppendUint64([]byte{byte(v.Type)}, math.Float64bits(v.Float))), true
	}
	return "", false
}
