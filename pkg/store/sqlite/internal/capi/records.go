//go:build cgo

package capi

/*
#include "capi.h"
*/
import "C"

import "unsafe"

// Row is a reusable buffer for the columns a record call copies out:
// their bytes end to end in Data and each one's size in Lens.
type Row struct {
	Data []byte
	Lens []C.int
}

// lens returns room for n sizes.
func (r *Row) lens(n int) []C.int {
	if cap(r.Lens) < n {
		r.Lens = make([]C.int, n)
	}
	r.Lens = r.Lens[:n]
	return r.Lens
}

// cptr returns a C pointer to b's first byte, or nil for an empty slice.
func cptr(b []byte) *C.char { return (*C.char)(ptr(b)) }

// ReadRow binds key (as text) to ?1, steps, and copies columns first to
// first+n-1 of the row into row, in one call. No row is ErrNoRow.
func (s *Stmt) ReadRow(key []byte, first, n int, row *Row) error {
	lens := row.lens(n)
	for {
		r := s.c.note(C.gb_rec_read(s.s, cptr(key), C.int(len(key)), C.int(first), C.int(n), ptr(row.Data[:cap(row.Data)]), C.int(cap(row.Data)), unsafe.SliceData(lens)))
		if r.rc == C.GB_GROW {
			row.Data = make([]byte, 0, int(r.n))
			continue
		}
		if r.rc != C.SQLITE_OK {
			return s.c.err(r.rc)
		}
		row.Data = row.Data[:r.n]
		return nil
	}
}

// WriteRow binds key (as text) to ?keyAt and the values (the bytes of
// row.Data, laid end to end, their sizes in row.Lens) to ?first onwards,
// runs the statement to its end and resets it, in one call, and returns
// sqlite3_changes.
func (s *Stmt) WriteRow(key []byte, keyAt int, row *Row, first int) (changes int, err error) {
	r := s.c.note(C.gb_rec_write(s.c.c, s.s, cptr(key), C.int(len(key)), C.int(keyAt), ptr(row.Data), unsafe.SliceData(row.Lens), C.int(len(row.Lens)), C.int(first)))
	return int(r.n), s.c.err(r.rc)
}

// ScanRows binds from (as text) to ?1 and limit to ?2 and reads columns
// first to first+n-1 of every row, in one call, and returns the rows.
// With row not nil the columns are copied into it, n sizes per row.
func (s *Stmt) ScanRows(from []byte, limit, first, n int, row *Row) (int, error) {
	if row == nil {
		r := s.c.note(C.gb_rec_scan(s.s, cptr(from), C.int(len(from)), C.int(limit), C.int(first), C.int(n), nil, 0, nil, nil))
		return int(r.n), s.c.err(r.rc)
	}
	lens := row.lens(n * max(limit, 1))
	if cap(row.Data) == 0 {
		row.Data = make([]byte, 0, 4096) // a nil buffer would mean "read only"
	}
	for {
		var need C.longlong
		r := s.c.note(C.gb_rec_scan(s.s, cptr(from), C.int(len(from)), C.int(limit), C.int(first), C.int(n), ptr(row.Data[:cap(row.Data)]), C.longlong(cap(row.Data)), unsafe.SliceData(lens), &need))
		if r.rc == C.GB_GROW {
			row.Data = make([]byte, 0, int(need))
			continue
		}
		if r.rc != C.SQLITE_OK {
			return 0, s.c.err(r.rc)
		}
		row.Data = row.Data[:need]
		row.Lens = lens[:int(r.n)*n]
		return int(r.n), nil
	}
}

// AppendLen appends a value's size to a row's sizes.
func AppendLen(lens []C.int, n int) []C.int { return append(lens, C.int(n)) }

// Columns returns the row's columns as slices of Data (valid until the
// row is reused), appended to dst[:0].
func (r *Row) Columns(dst [][]byte) [][]byte {
	dst = dst[:0]
	off := 0
	for _, l := range r.Lens {
		dst = append(dst, r.Data[off:off+int(l)])
		off += int(l)
	}
	return dst
}
