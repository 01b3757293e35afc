package sqlite

import (
	"fmt"

	"github.com/gobench/gobench/pkg/store"
)

// lockTimer is a raw connection whose binding may call
// sqlite3_setlk_timeout (the cgo drivers': mattn's and capi's).
type lockTimer interface {
	canSetLock() bool
	setLockTimeout(ms int) error
}

// lockWait applies Options.LockWait to an op connection. Blocking sets
// sqlite3_setlk_timeout to the busy timeout: SQLite then asks its VFS to
// block on a WAL database's locks for that long (SQLITE_FCNTL_LOCK_TIMEOUT;
// whether the VFS does is its own: see Options.LockWait). Otherwise, in a SQLite that has blocking locks,
// they are turned off: its busy_timeout (mattn's PRAGMA) turns them on
// too, and busy-handler is to mean the handler alone.
func (s *db) lockWait(c rawConn) error {
	blocking := s.opts.LockWait == LockWaitBlocking
	lt, ok := c.(lockTimer)
	if !ok || !lt.canSetLock() {
		if blocking {
			return fmt.Errorf("%w: --lock-wait blocking: the %s driver cannot call sqlite3_setlk_timeout (mattn and capi can)", store.ErrInvalid, s.d.name)
		}
		return nil
	}
	built := setlkBuilt()
	if blocking && !built {
		return fmt.Errorf("%w: --lock-wait blocking needs a SQLite compiled with SQLITE_ENABLE_SETLK_TIMEOUT, and this one was not: add --sqlite-define SQLITE_ENABLE_SETLK_TIMEOUT (process mode)", store.ErrInvalid)
	}
	if !built {
		return nil
	}
	ms := 0
	if blocking {
		ms = int(s.opts.BusyTimeoutMS)
	}
	if err := lt.setLockTimeout(ms); err != nil {
		return fmt.Errorf("opening %s: %w", s.path, err)
	}
	return nil
}
