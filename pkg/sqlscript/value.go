// Package sqlscript reads pgbench-style scripts for SQLite: SQL statements
// that bind :name parameters, and \set meta-commands that compute them
// with pgbench's functions (random, random_zipfian, random_exponential,
// random_gaussian, permute, hash, integer arithmetic) from a seeded
// generator, so that one seed gives every worker the same values on every
// run. It parses and evaluates; running the statements is the engine's.
package sqlscript

import (
	"fmt"
	"math"
	"strconv"
)

// Kind is the type of a Value.
type Kind uint8

// The kinds of values: pgbench's integers and doubles, and text (from
// random_text).
const (
	Int Kind = iota
	Float
	Text
)

// Value is a variable's value: an int64, a float64 or a string.
type Value struct {
	Kind Kind
	I    int64
	F    float64
	S    string
}

// IntValue makes an integer value.
func IntValue(i int64) Value { return Value{Kind: Int, I: i} }

// FloatValue makes a double value.
func FloatValue(f float64) Value { return Value{Kind: Float, F: f} }

// TextValue makes a text value.
func TextValue(s string) Value { return Value{Kind: Text, S: s} }

// Any returns the value as a Go value to bind: int64, float64 or string.
func (v Value) Any() any {
	switch v.Kind {
	case Float:
		return v.F
	case Text:
		return v.S
	}
	return v.I
}

// String formats the value as pgbench would print it.
func (v Value) String() string {
	switch v.Kind {
	case Float:
		return strconv.FormatFloat(v.F, 'g', -1, 64)
	case Text:
		return strconv.Quote(v.S)
	}
	return strconv.FormatInt(v.I, 10)
}

// float returns the value as a number; text is an error.
func (v Value) float() (float64, error) {
	switch v.Kind {
	case Int:
		return float64(v.I), nil
	case Float:
		return v.F, nil
	}
	return 0, fmt.Errorf("%s is text, not a number", v)
}

// int returns the value as an integer (a double is truncated, as
// pgbench's int() does); text, and a double that is not a number or
// beyond 64-bit integers, are errors.
func (v Value) int() (int64, error) {
	switch v.Kind {
	case Int:
		return v.I, nil
	case Float:
		// -2^63 is exact as a double; 2^63 is the first double above int64.
		if math.IsNaN(v.F) || v.F < math.MinInt64 || v.F >= -math.MinInt64 {
			return 0, fmt.Errorf("double to int overflow for %s", v)
		}
		return int64(v.F), nil
	}
	return 0, fmt.Errorf("%s is text, not a number", v)
}

// Error is a script error with the file and line it is about.
type Error struct {
	File string
	Line int
	Msg  string
}

// Error formats the error as "file:line: message".
func (e *Error) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg) }
