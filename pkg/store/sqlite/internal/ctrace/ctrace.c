//go:build cgo

/*
 * A thin VFS over the unix one: every call goes to the unix VFS as it
 * came, and each write, truncate, sync, deletion and directory sync is
 * counted with one relaxed atomic add, by the role of the file. While a
 * run records (gbt_record_start), the events on the recorded database's
 * files are also appended to the crash record, each with one writev(2) to
 * a file opened with O_APPEND (see package iorecord for the format and the
 * order).
 *
 * The unix VFS syncs, besides the files SQLite syncs, the directory of a
 * journal or WAL it created, once, at the first xSync of that handle
 * (UNIXFILE_DIRSYNC, set in unixOpen for a SQLITE_OPEN_CREATE open of a
 * main or super journal or a WAL), and the directory after a deletion
 * when xDelete's dirSync asks. Those directory syncs are counted (and
 * recorded) here by the same rules, so the counts are what the kernel
 * receives.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "ctrace.h"

#define SQLITE_OK 0
#define SQLITE_IOERR 10
#define SQLITE_IOERR_FSYNC (SQLITE_IOERR | (4 << 8))
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_MAIN_DB 0x00000100
#define SQLITE_OPEN_MAIN_JOURNAL 0x00000800
#define SQLITE_OPEN_SUPER_JOURNAL 0x00004000
#define SQLITE_OPEN_WAL 0x00080000

/* The kinds of recorded events (iorecord.Kind). */
enum { K_WRITE = 1, K_TRUNCATE, K_SYNC, K_CREATE, K_DELETE, K_DIRSYNC, K_ACK, K_START, K_END, K_FULL };

#define HEADER_LEN 32
#define CHECK_EVERY (64 << 10)

static sqlite3_vfs *base_vfs;
static sqlite3_vfs trace_vfs;
static gbt_counts counts;

typedef struct gbt_file {
	sqlite3_file base;
	sqlite3_file *real; /* the unix VFS's file, right after this struct */
	const char *name;   /* SQLite's, valid until xClose */
	int role;
	int dirsync; /* the unix VFS syncs the directory at this handle's first xSync */
} gbt_file;

#define FILE_HEAD ((int)((sizeof(gbt_file) + 7) & ~(size_t)7))

static void count(int role, int what, long long n) {
	__atomic_fetch_add(&counts.n[role][what], n, __ATOMIC_RELAXED);
}

void gbt_snapshot(gbt_counts *out) {
	for (int r = 0; r < GBT_NROLE; r++) {
		for (int c = 0; c < GBT_NCOUNT; c++) {
			out->n[r][c] = __atomic_load_n(&counts.n[r][c], __ATOMIC_RELAXED);
		}
	}
}

/* ---- the crash record ---- */

static int rec_fd = -1;
static char rec_db[4096];
static size_t rec_db_len;
static long long rec_limit;
static long long rec_since;
static int rec_full;
static int rec_errno;
static unsigned rec_pid;
/* rec_fail_sync is the sync of the recorded files (counting from 1) that
 * fails with SQLITE_IOERR_FSYNC, 0 for none; rec_syncs counts them. */
static long long rec_fail_sync;
static long long rec_syncs;
#define FLAG_FAILED 0x400 /* iorecord.FlagFailed */

static void put16(unsigned char *p, unsigned v) {
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

static void put32(unsigned char *p, unsigned long v) {
	for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, unsigned long long v) {
	for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void rec_fail(int err) {
	int zero = 0;
	__atomic_compare_exchange_n(&rec_errno, &zero, err ? err : EIO, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	__atomic_store_n(&rec_full, 1, __ATOMIC_RELAXED);
}

/* rec_write appends one event with one writev(2). */
static void rec_write(int fd, int kind, int role, int flags, long long arg, const void *data, int n) {
	unsigned char h[HEADER_LEN];
	struct iovec iov[2];
	ssize_t w;
	put32(h, (unsigned long)(HEADER_LEN + n));
	h[4] = (unsigned char)kind;
	h[5] = (unsigned char)role;
	put16(h + 6, (unsigned)flags);
	put32(h + 8, rec_pid);
	put32(h + 12, 0);
	put64(h + 16, (unsigned long long)now_ns());
	put64(h + 24, (unsigned long long)arg);
	iov[0].iov_base = h;
	iov[0].iov_len = HEADER_LEN;
	iov[1].iov_base = (void *)data;
	iov[1].iov_len = (size_t)n;
	do {
		w = writev(fd, iov, n > 0 ? 2 : 1);
	} while (w < 0 && errno == EINTR);
	if (w != HEADER_LEN + n) {
		rec_fail(w < 0 ? errno : EIO);
		return;
	}
	if (__atomic_add_fetch(&rec_since, w, __ATOMIC_RELAXED) >= CHECK_EVERY) {
		struct stat st;
		__atomic_store_n(&rec_since, 0, __ATOMIC_RELAXED);
		if (fstat(fd, &st) != 0) {
			rec_fail(errno);
		} else if (st.st_size >= rec_limit && !__atomic_exchange_n(&rec_full, 1, __ATOMIC_RELAXED)) {
			unsigned char f[HEADER_LEN];
			memset(f, 0, sizeof f);
			put32(f, HEADER_LEN);
			f[4] = K_FULL;
			put32(f + 8, rec_pid);
			put64(f + 16, (unsigned long long)now_ns());
			if (write(fd, f, sizeof f) < 0) rec_fail(errno);
		}
	}
}

/* recording returns the record's descriptor when the file named name is
 * one of the recorded database's (the database, its journal, its WAL), or
 * -1. */
static int recording(const char *name) {
	int fd = __atomic_load_n(&rec_fd, __ATOMIC_ACQUIRE);
	const char *s;
	if (fd < 0 || name == NULL || __atomic_load_n(&rec_full, __ATOMIC_RELAXED)) return -1;
	if (strncmp(name, rec_db, rec_db_len) != 0) return -1;
	s = name + rec_db_len;
	if (*s == 0 || strcmp(s, "-journal") == 0 || strcmp(s, "-wal") == 0) return fd;
	return -1;
}

int gbt_record_start(const char *record, const char *db, long long limit, long long fail_sync) {
	int fd;
	size_t n = strlen(db);
	if (n >= sizeof rec_db) return ENAMETOOLONG;
	fd = open(record, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0) return errno;
	memcpy(rec_db, db, n + 1);
	rec_db_len = n;
	rec_limit = limit;
	rec_pid = (unsigned)getpid();
	rec_fail_sync = fail_sync;
	__atomic_store_n(&rec_syncs, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rec_since, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rec_full, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rec_errno, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&rec_fd, fd, __ATOMIC_RELEASE);
	return 0;
}

void gbt_record_stop(void) {
	int fd = __atomic_exchange_n(&rec_fd, -1, __ATOMIC_ACQ_REL);
	if (fd >= 0) close(fd);
}

int gbt_record_errno(void) { return __atomic_load_n(&rec_errno, __ATOMIC_RELAXED); }

/* ---- the file methods: each calls the unix VFS's ---- */

static int role_of_flags(int flags) {
	if (flags & SQLITE_OPEN_MAIN_DB) return GBT_DB;
	if (flags & SQLITE_OPEN_MAIN_JOURNAL) return GBT_JOURNAL;
	if (flags & SQLITE_OPEN_WAL) return GBT_WAL;
	return GBT_OTHER;
}

static int role_of_name(const char *name) {
	size_t n = strlen(name);
	if (n >= 8 && strcmp(name + n - 8, "-journal") == 0) return GBT_JOURNAL;
	if (n >= 4 && strcmp(name + n - 4, "-wal") == 0) return GBT_WAL;
	return GBT_DB;
}

#define REAL(f) (((gbt_file *)(f))->real)

static int t_close(sqlite3_file *f) { return REAL(f)->pMethods->xClose(REAL(f)); }

static int t_read(sqlite3_file *f, void *p, int n, sqlite3_int64 off) {
	return REAL(f)->pMethods->xRead(REAL(f), p, n, off);
}

static int t_write(sqlite3_file *pf, const void *p, int n, sqlite3_int64 off) {
	gbt_file *f = (gbt_file *)pf;
	int rc = f->real->pMethods->xWrite(f->real, p, n, off);
	if (rc == SQLITE_OK) {
		int fd;
		count(f->role, GBT_WRITES, 1);
		count(f->role, GBT_BYTES, n);
		if ((fd = recording(f->name)) >= 0) rec_write(fd, K_WRITE, f->role, 0, off, p, n);
	}
	return rc;
}

static int t_truncate(sqlite3_file *pf, sqlite3_int64 size) {
	gbt_file *f = (gbt_file *)pf;
	int rc = f->real->pMethods->xTruncate(f->real, size);
	if (rc == SQLITE_OK) {
		int fd;
		count(f->role, GBT_TRUNCATES, 1);
		if ((fd = recording(f->name)) >= 0) rec_write(fd, K_TRUNCATE, f->role, 0, size, NULL, 0);
	}
	return rc;
}

static int t_sync(sqlite3_file *pf, int flags) {
	gbt_file *f = (gbt_file *)pf;
	int rc, fd = recording(f->name);
	if (fd >= 0 && rec_fail_sync > 0 && __atomic_add_fetch(&rec_syncs, 1, __ATOMIC_RELAXED) == rec_fail_sync) {
		/* The injected failure (--crash-model fsync-fail): nothing is
		 * synced, and the record says so; the model drops what the sync
		 * would have made durable, as Linux does after a failed writeback. */
		rec_write(fd, K_SYNC, f->role, flags | FLAG_FAILED, 0, NULL, 0);
		return SQLITE_IOERR_FSYNC;
	}
	if (fd >= 0) {
		rec_write(fd, K_SYNC, f->role, flags, 0, NULL, 0);
		if (f->dirsync) rec_write(fd, K_DIRSYNC, f->role, 0, 0, NULL, 0);
	}
	rc = f->real->pMethods->xSync(f->real, flags);
	if (rc == SQLITE_OK) {
		count(f->role, GBT_SYNCS, 1);
		if ((flags & 0x0f) == 0x03) count(f->role, GBT_FULL, 1);
		if (flags & 0x10) count(f->role, GBT_DATA, 1);
		if (f->dirsync) {
			count(f->role, GBT_DIRSYNCS, 1);
			f->dirsync = 0;
		}
	}
	return rc;
}

static int t_file_size(sqlite3_file *f, sqlite3_int64 *p) { return REAL(f)->pMethods->xFileSize(REAL(f), p); }
static int t_lock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xLock(REAL(f), l); }
static int t_unlock(sqlite3_file *f, int l) { return REAL(f)->pMethods->xUnlock(REAL(f), l); }
static int t_check_reserved(sqlite3_file *f, int *p) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), p); }
static int t_file_control(sqlite3_file *f, int op, void *p) { return REAL(f)->pMethods->xFileControl(REAL(f), op, p); }
static int t_sector_size(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int t_device(sqlite3_file *f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }

static int t_shm_map(sqlite3_file *f, int pg, int sz, int extend, void volatile **pp) {
	if (REAL(f)->pMethods->iVersion < 2) return SQLITE_IOERR;
	return REAL(f)->pMethods->xShmMap(REAL(f), pg, sz, extend, pp);
}

static int t_shm_lock(sqlite3_file *f, int off, int n, int flags) {
	if (REAL(f)->pMethods->iVersion < 2) return SQLITE_IOERR;
	return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void t_shm_barrier(sqlite3_file *f) {
	if (REAL(f)->pMethods->iVersion >= 2) REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int t_shm_unmap(sqlite3_file *f, int del) {
	if (REAL(f)->pMethods->iVersion < 2) return SQLITE_OK;
	return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int t_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp) {
	if (REAL(f)->pMethods->iVersion < 3) {
		*pp = 0;
		return SQLITE_OK;
	}
	return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp);
}

static int t_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p) {
	if (REAL(f)->pMethods->iVersion < 3) return SQLITE_OK;
	return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods methods = {
	3, t_close, t_read, t_write, t_truncate, t_sync, t_file_size, t_lock, t_unlock,
	t_check_reserved, t_file_control, t_sector_size, t_device,
	t_shm_map, t_shm_lock, t_shm_barrier, t_shm_unmap, t_fetch, t_unfetch,
};

/* ---- the VFS ---- */

static int t_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *pf, int flags, int *out) {
	gbt_file *f = (gbt_file *)pf;
	int rc, fd, existed = 1;
	(void)vfs;
	f->real = (sqlite3_file *)((char *)pf + FILE_HEAD);
	f->name = name;
	f->role = role_of_flags(flags);
	f->dirsync = (flags & SQLITE_OPEN_CREATE) && (flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL | SQLITE_OPEN_WAL));
	fd = (flags & SQLITE_OPEN_CREATE) ? recording(name) : -1;
	if (fd >= 0) existed = access(name, F_OK) == 0;
	rc = base_vfs->xOpen(base_vfs, name, f->real, flags, out);
	pf->pMethods = f->real->pMethods != NULL ? &methods : NULL;
	if (rc == SQLITE_OK && !existed) rec_write(fd, K_CREATE, f->role, 0, 0, NULL, 0);
	return rc;
}

static int t_delete(sqlite3_vfs *vfs, const char *name, int dir_sync) {
	int rc = base_vfs->xDelete(base_vfs, name, dir_sync);
	(void)vfs;
	if (rc == SQLITE_OK) {
		int role = role_of_name(name), fd = recording(name);
		count(role, GBT_DELETES, 1);
		if (dir_sync & 1) count(role, GBT_DIRSYNCS, 1);
		if (fd >= 0) {
			rec_write(fd, K_DELETE, role, 0, 0, NULL, 0);
			if (dir_sync & 1) rec_write(fd, K_DIRSYNC, role, 0, 0, NULL, 0);
		}
	}
	return rc;
}

static int t_access(sqlite3_vfs *v, const char *n, int flags, int *out) {
	(void)v;
	return base_vfs->xAccess(base_vfs, n, flags, out);
}

static int t_full_pathname(sqlite3_vfs *v, const char *n, int nout, char *out) {
	(void)v;
	return base_vfs->xFullPathname(base_vfs, n, nout, out);
}

static void *t_dlopen(sqlite3_vfs *v, const char *n) {
	(void)v;
	return base_vfs->xDlOpen(base_vfs, n);
}

static void t_dlerror(sqlite3_vfs *v, int n, char *msg) {
	(void)v;
	base_vfs->xDlError(base_vfs, n, msg);
}

static void (*t_dlsym(sqlite3_vfs *v, void *h, const char *sym))(void) {
	(void)v;
	return base_vfs->xDlSym(base_vfs, h, sym);
}

static void t_dlclose(sqlite3_vfs *v, void *h) {
	(void)v;
	base_vfs->xDlClose(base_vfs, h);
}

static int t_randomness(sqlite3_vfs *v, int n, char *out) {
	(void)v;
	return base_vfs->xRandomness(base_vfs, n, out);
}

static int t_sleep(sqlite3_vfs *v, int us) {
	(void)v;
	return base_vfs->xSleep(base_vfs, us);
}

static int t_current_time(sqlite3_vfs *v, double *out) {
	(void)v;
	return base_vfs->xCurrentTime(base_vfs, out);
}

static int t_last_error(sqlite3_vfs *v, int n, char *out) {
	(void)v;
	return base_vfs->xGetLastError(base_vfs, n, out);
}

static int t_current_time64(sqlite3_vfs *v, sqlite3_int64 *out) {
	(void)v;
	return base_vfs->xCurrentTimeInt64(base_vfs, out);
}

/* gbt_register registers the tracing VFS as name, over the default VFS;
 * 0 on success, else SQLite's result code. Call it once. */
int gbt_register(const char *name) {
	base_vfs = sqlite3_vfs_find(NULL);
	if (base_vfs == NULL) return 1; /* SQLITE_ERROR */
	memset(&trace_vfs, 0, sizeof trace_vfs);
	trace_vfs.iVersion = base_vfs->iVersion < 2 ? base_vfs->iVersion : 2;
	trace_vfs.szOsFile = FILE_HEAD + base_vfs->szOsFile;
	trace_vfs.mxPathname = base_vfs->mxPathname;
	trace_vfs.zName = name;
	trace_vfs.xOpen = t_open;
	trace_vfs.xDelete = t_delete;
	trace_vfs.xAccess = t_access;
	trace_vfs.xFullPathname = t_full_pathname;
	trace_vfs.xDlOpen = t_dlopen;
	trace_vfs.xDlError = t_dlerror;
	trace_vfs.xDlSym = t_dlsym;
	trace_vfs.xDlClose = t_dlclose;
	trace_vfs.xRandomness = t_randomness;
	trace_vfs.xSleep = t_sleep;
	trace_vfs.xCurrentTime = t_current_time;
	trace_vfs.xGetLastError = t_last_error;
	if (trace_vfs.iVersion >= 2) trace_vfs.xCurrentTimeInt64 = t_current_time64;
	return sqlite3_vfs_register(&trace_vfs, 0);
}
