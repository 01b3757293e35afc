package sqlite

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/gobench/gobench/pkg/store"
)

var _ store.Prechecker = (*db)(nil)

// fileMagic begins every SQLite database file.
var fileMagic = []byte("SQLite format 3\x00")

// Layout of the files Check reads (https://sqlite.org/fileformat.html).
const (
	headerSize      = 100 // the database header, at the start of page 1
	pageSizeOffset  = 16  // 2 bytes, big-endian; 1 means 65536
	appIDOffset     = 68  // 4 bytes, big-endian
	walHeaderSize   = 32
	walFrameHeader  = 24
	walMagic        = 0x377f0682 // | 1: the other checksum byte order
	maxFramesLooked = 1 << 16    // a WAL's frames Check reads the headers of
)

// Precheck refuses, reading the files only, what Init would refuse: a path
// that is not a regular file (a FIFO, a device), an existing file that is
// not gobench's database (with Reuse: that is neither a SQLite database
// nor empty), a table of the name of one the run replaces that gobench
// did not create (see checkTables), a -wal file beside the database
// that is another database's, which SQLite would replay into this one,
// and a -wal, -journal or -shm file beside a database that does not exist
// (or, with Reuse, a -wal or -journal beside an empty one), which SQLite
// would delete (see store.CheckOrphans).
func (s *db) Precheck() error {
	if s.opts.Memory {
		return nil
	}
	fi, err := os.Stat(s.path)
	switch {
	case os.IsNotExist(err):
		return store.CheckOrphans(s.path, false)
	case err != nil:
		return fmt.Errorf("%w: %s: %v", store.ErrInvalid, s.path, err)
	case fi.IsDir():
		return fmt.Errorf("%w: %s is a directory, not a database file (give a file path)", store.ErrInvalid, s.path)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%w: %s is a %v, not a database file (give a file path)", store.ErrInvalid, s.path, fi.Mode().Type())
	case !s.reuse && fi.Size() == 0:
		return fmt.Errorf("%w: %s exists and is empty: gobench did not create it; give a new path, or --reuse to let gobench take it", store.ErrForeign, s.path)
	case !s.reuse:
		if err := s.checkOwned(); err != nil {
			return err
		}
	case fi.Size() > 0:
		if head, err := readAt(s.path, 0, len(fileMagic)); err != nil || !bytes.Equal(head, fileMagic) {
			return fmt.Errorf("%w: %s is not a SQLite database: --reuse takes a SQLite database or an empty file", store.ErrForeign, s.path)
		}
	}
	if fi.Size() == 0 {
		return store.CheckOrphans(s.path, true)
	}
	if err := s.checkTablesReadOnly(); err != nil {
		return err
	}
	return s.checkWAL()
}

// checkWAL refuses a -wal file that belongs to another database. A WAL
// does not name its database, but two signs betray another's: a page
// size other than the database's, or a latest image of page 1 (which
// holds the header, rewritten by every commit that grows the file or
// changes the schema) whose application_id is neither the database's
// nor gobench's own (which Init writes). A WAL that shows neither sign
// is taken as the database's own: what a crash left, for SQLite to
// recover.
func (s *db) checkWAL() error {
	wal := s.path + "-wal"
	h, err := readAt(wal, 0, walHeaderSize)
	if err != nil || binary.BigEndian.Uint32(h)&^1 != walMagic {
		return nil // none, or no valid header: SQLite ignores it
	}
	head, err := readAt(s.path, 0, headerSize)
	if err != nil || !bytes.HasPrefix(head, fileMagic) {
		return nil // too short for a header: Precheck refused it already
	}
	dbPage := uint32(binary.BigEndian.Uint16(head[pageSizeOffset:]))
	if dbPage == 1 {
		dbPage = 65536
	}
	walPage := binary.BigEndian.Uint32(h[8:])
	if walPage != dbPage {
		return s.foreignWAL(fmt.Sprintf("its pages are of %d bytes, the database's of %d", walPage, dbPage))
	}
	dbID := int32(binary.BigEndian.Uint32(head[appIDOffset:]))
	id, found, err := lastPage1AppID(wal, h, int64(walPage))
	if err != nil || !found || id == dbID || id == applicationID {
		return nil
	}
	return s.foreignWAL(fmt.Sprintf("its header carries application_id %d, the database's is %d", id, dbID))
}

// foreignWAL is the error of a -wal file that is another database's.
func (s *db) foreignWAL(why string) error {
	return fmt.Errorf("%w: %s-wal belongs to another database (%s): SQLite would replay its writes into %s; move it away, or give another --db", store.ErrForeign, s.path, why, s.path)
}

// lastPage1AppID reads the application_id in the latest valid frame of
// page 1 of the WAL file wal (header h, pages of size page): the frames
// that carry the header's salts, up to maxFramesLooked of them.
func lastPage1AppID(wal string, h []byte, page int64) (id int32, found bool, err error) {
	f, err := os.Open(wal)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	fh := make([]byte, walFrameHeader)
	raw := make([]byte, 4)
	for i := int64(0); i < maxFramesLooked; i++ {
		off := walHeaderSize + i*(walFrameHeader+page)
		if _, err := f.ReadAt(fh, off); err != nil {
			break // the end of the WAL
		}
		if !bytes.Equal(fh[8:16], h[16:24]) {
			break // a frame of an earlier generation: not replayed
		}
		if binary.BigEndian.Uint32(fh) != 1 {
			continue
		}
		if _, err := f.ReadAt(raw, off+walFrameHeader+appIDOffset); err != nil {
			break
		}
		id, found = int32(binary.BigEndian.Uint32(raw)), true
	}
	return id, found, nil
}

// readAt reads n bytes of the regular file at path from offset off
// (anything else, a FIFO that would block the open, is an error).
func readAt(path string, off int64, n int) ([]byte, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return b, nil
}
