package coord

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockOffset is the byte the run lock covers in a database file: far past
// the bytes SQLite locks (around 1 GiB) and past any file's end. An
// open-file-description lock there is independent of SQLite's own locks
// and, unlike a POSIX lock, survives SQLite closing other descriptors of
// the file in this process.
const lockOffset = 1 << 62

// lockFile takes an exclusive OFD lock on lockOffset of f, without
// waiting.
func lockFile(f *os.File) error {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: lockOffset, Len: 1}
	err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
	if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return errLocked
	}
	return err
}

// lockDir takes an exclusive flock on a directory, waiting for it when
// wait is set.
func lockDir(d *os.File, wait bool) error {
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	err := unix.Flock(int(d.Fd()), how)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return errLocked
	}
	return err
}
