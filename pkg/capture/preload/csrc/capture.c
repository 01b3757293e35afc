/*
 * gobench's capture library: preloaded (LD_PRELOAD) into a program that
 * uses the system's libsqlite3, it records every statement the program
 * runs into the capture's directory, in gobench's trace format (see the
 * Go package sqltrace, whose encoding this file writes byte for byte).
 *
 * It defines the SQLite functions it wraps (open, prepare, bind, step,
 * reset, finalize, exec, close); each calls the real one, found in the
 * library that defines it, and records what it did. Nothing the program
 * sees changes: arguments, results and errors pass through. Databases are
 * opened through a VFS of its own that wraps the default one, only to read
 * the database's own counters of commits while SQLite holds its locks: the
 * file change counter in a rollback journal mode, the WAL index's
 * transaction counter in WAL mode. They place every transaction exactly in
 * the database's order of commits.
 *
 * Every process writes its own part, part-PID-N.trace; the first process
 * to open a database copies it (the backup API) to snap-HASH.db before any
 * statement runs on it, and the others wait for snap-HASH.done. gobench
 * capture merges the parts and the snapshots into one trace.
 *
 * Built by gobench from this file alone: cc -shared -fPIC -O2 capture.c
 * -ldl -lpthread. No header of SQLite's is needed: the few declarations it
 * uses are below.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---- SQLite's declarations (from sqlite3.h) ---- */

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_value sqlite3_value;
typedef struct sqlite3_backup sqlite3_backup;
typedef long long sqlite3_int64;
typedef unsigned long long sqlite3_uint64;
typedef struct sqlite3_file sqlite3_file;
typedef struct sqlite3_io_methods sqlite3_io_methods;
typedef struct sqlite3_vfs sqlite3_vfs;
typedef void (*sqlite3_syscall_ptr)(void);
struct sqlite3_file {
	const sqlite3_io_methods *pMethods;
};
struct sqlite3_io_methods {
	int iVersion;
	int (*xClose)(sqlite3_file *);
	int (*xRead)(sqlite3_file *, void *, int, sqlite3_int64);
	int (*xWrite)(sqlite3_file *, const void *, int, sqlite3_int64);
	int (*xTruncate)(sqlite3_file *, sqlite3_int64);
	int (*xSync)(sqlite3_file *, int);
	int (*xFileSize)(sqlite3_file *, sqlite3_int64 *);
	int (*xLock)(sqlite3_file *, int);
	int (*xUnlock)(sqlite3_file *, int);
	int (*xCheckReservedLock)(sqlite3_file *, int *);
	int (*xFileControl)(sqlite3_file *, int, void *);
	int (*xSectorSize)(sqlite3_file *);
	int (*xDeviceCharacteristics)(sqlite3_file *);
	int (*xShmMap)(sqlite3_file *, int, int, int, void volatile **);
	int (*xShmLock)(sqlite3_file *, int, int, int);
	void (*xShmBarrier)(sqlite3_file *);
	int (*xShmUnmap)(sqlite3_file *, int);
	int (*xFetch)(sqlite3_file *, sqlite3_int64, int, void **);
	int (*xUnfetch)(sqlite3_file *, sqlite3_int64, void *);
};
struct sqlite3_vfs {
	int iVersion;
	int szOsFile;
	int mxPathname;
	sqlite3_vfs *pNext;
	const char *zName;
	void *pAppData;
	int (*xOpen)(sqlite3_vfs *, const char *, sqlite3_file *, int, int *);
	int (*xDelete)(sqlite3_vfs *, const char *, int);
	int (*xAccess)(sqlite3_vfs *, const char *, int, int *);
	int (*xFullPathname)(sqlite3_vfs *, const char *, int, char *);
	void *(*xDlOpen)(sqlite3_vfs *, const char *);
	void (*xDlError)(sqlite3_vfs *, int, char *);
	void (*(*xDlSym)(sqlite3_vfs *, void *, const char *))(void);
	void (*xDlClose)(sqlite3_vfs *, void *);
	int (*xRandomness)(sqlite3_vfs *, int, char *);
	int (*xSleep)(sqlite3_vfs *, int);
	int (*xCurrentTime)(sqlite3_vfs *, double *);
	int (*xGetLastError)(sqlite3_vfs *, int, char *);
	int (*xCurrentTimeInt64)(sqlite3_vfs *, sqlite3_int64 *);
	int (*xSetSystemCall)(sqlite3_vfs *, const char *, sqlite3_syscall_ptr);
	sqlite3_syscall_ptr (*xGetSystemCall)(sqlite3_vfs *, const char *);
	const char *(*xNextSystemCall)(sqlite3_vfs *, const char *);
};

#define SQLITE_OK 0
#define SQLITE_BUSY 5
#define SQLITE_LOCKED 6
#define SQLITE_CANTOPEN 14
#define SQLITE_ROW 100
#define SQLITE_DONE 101
#define SQLITE_IOERR_SHORT_READ (10 | (2 << 8))
#define SQLITE_OPEN_READONLY 0x1
#define SQLITE_OPEN_READWRITE 0x2
#define SQLITE_OPEN_CREATE 0x4
#define SQLITE_OPEN_URI 0x40
#define SQLITE_OPEN_MAIN_DB 0x100
#define SQLITE_LOCK_NONE 0
#define SQLITE_LOCK_SHARED 1
#define SQLITE_LOCK_EXCLUSIVE 4
#define SQLITE_SHM_UNLOCK 1
#define SQLITE_SHM_LOCK 2
#define SQLITE_SHM_SHARED 4
#define SQLITE_SHM_EXCLUSIVE 8
#define SQLITE_FCNTL_FILE_POINTER 7
#define SQLITE_INTEGER 1
#define SQLITE_FLOAT 2
#define SQLITE_TEXT 3
#define SQLITE_BLOB 4
#define SQLITE_NULL 5
#define SQLITE_UTF8 1
#define SQLITE_UTF16LE 2
#define SQLITE_UTF16BE 3
#define SQLITE_UTF16 4
#define WAL_WRITE_LOCK 0
#define WAL_RECOVER_LOCK 2
#define WAL_READ_LOCK0 3

/* ---- the real functions ---- */

#define REAL_FUNCS(X)                                                                                        \
	X(int, sqlite3_open_v2, (const char *, sqlite3 **, int, const char *))                                   \
	X(int, sqlite3_open16, (const void *, sqlite3 **))                                                       \
	X(int, sqlite3_close, (sqlite3 *))                                                                       \
	X(int, sqlite3_close_v2, (sqlite3 *))                                                                    \
	X(int, sqlite3_prepare, (sqlite3 *, const char *, int, sqlite3_stmt **, const char **))                  \
	X(int, sqlite3_prepare_v2, (sqlite3 *, const char *, int, sqlite3_stmt **, const char **))               \
	X(int, sqlite3_prepare_v3, (sqlite3 *, const char *, int, unsigned, sqlite3_stmt **, const char **))     \
	X(int, sqlite3_prepare16, (sqlite3 *, const void *, int, sqlite3_stmt **, const void **))                \
	X(int, sqlite3_prepare16_v2, (sqlite3 *, const void *, int, sqlite3_stmt **, const void **))             \
	X(int, sqlite3_prepare16_v3, (sqlite3 *, const void *, int, unsigned, sqlite3_stmt **, const void **))   \
	X(int, sqlite3_bind_blob, (sqlite3_stmt *, int, const void *, int, void (*)(void *)))                    \
	X(int, sqlite3_bind_blob64, (sqlite3_stmt *, int, const void *, sqlite3_uint64, void (*)(void *)))       \
	X(int, sqlite3_bind_double, (sqlite3_stmt *, int, double))                                               \
	X(int, sqlite3_bind_int, (sqlite3_stmt *, int, int))                                                     \
	X(int, sqlite3_bind_int64, (sqlite3_stmt *, int, sqlite3_int64))                                         \
	X(int, sqlite3_bind_null, (sqlite3_stmt *, int))                                                         \
	X(int, sqlite3_bind_text, (sqlite3_stmt *, int, const char *, int, void (*)(void *)))                    \
	X(int, sqlite3_bind_text16, (sqlite3_stmt *, int, const void *, int, void (*)(void *)))                  \
	X(int, sqlite3_bind_text64, (sqlite3_stmt *, int, const char *, sqlite3_uint64, void (*)(void *), unsigned char)) \
	X(int, sqlite3_bind_value, (sqlite3_stmt *, int, const sqlite3_value *))                                 \
	X(int, sqlite3_bind_pointer, (sqlite3_stmt *, int, void *, const char *, void (*)(void *)))              \
	X(int, sqlite3_bind_zeroblob, (sqlite3_stmt *, int, int))                                                \
	X(int, sqlite3_bind_zeroblob64, (sqlite3_stmt *, int, sqlite3_uint64))                                   \
	X(int, sqlite3_clear_bindings, (sqlite3_stmt *))                                                         \
	X(int, sqlite3_step, (sqlite3_stmt *))                                                                   \
	X(int, sqlite3_reset, (sqlite3_stmt *))                                                                  \
	X(int, sqlite3_finalize, (sqlite3_stmt *))                                                               \
	X(int, sqlite3_exec, (sqlite3 *, const char *, int (*)(void *, int, char **, char **), void *, char **)) \
	X(int, sqlite3_bind_parameter_count, (sqlite3_stmt *))                                                   \
	X(const char *, sqlite3_sql, (sqlite3_stmt *))                                                           \
	X(sqlite3 *, sqlite3_db_handle, (sqlite3_stmt *))                                                        \
	X(int, sqlite3_stmt_readonly, (sqlite3_stmt *))                                                          \
	X(int, sqlite3_get_autocommit, (sqlite3 *))                                                              \
	X(int, sqlite3_extended_errcode, (sqlite3 *))                                                            \
	X(int, sqlite3_changes, (sqlite3 *))                                                                     \
	X(const char *, sqlite3_db_filename, (sqlite3 *, const char *))                                          \
	X(int, sqlite3_file_control, (sqlite3 *, const char *, int, void *))                                     \
	X(sqlite3_vfs *, sqlite3_vfs_find, (const char *))                                                       \
	X(int, sqlite3_vfs_register, (sqlite3_vfs *, int))                                                       \
	X(sqlite3_backup *, sqlite3_backup_init, (sqlite3 *, const char *, sqlite3 *, const char *))              \
	X(int, sqlite3_backup_step, (sqlite3_backup *, int))                                                     \
	X(int, sqlite3_backup_finish, (sqlite3_backup *))                                                        \
	X(const char *, sqlite3_errmsg, (sqlite3 *))                                                             \
	X(int, sqlite3_value_type, (sqlite3_value *))                                                            \
	X(sqlite3_int64, sqlite3_value_int64, (sqlite3_value *))                                                 \
	X(double, sqlite3_value_double, (sqlite3_value *))                                                       \
	X(const unsigned char *, sqlite3_value_text, (sqlite3_value *))                                          \
	X(const void *, sqlite3_value_blob, (sqlite3_value *))                                                   \
	X(int, sqlite3_value_bytes, (sqlite3_value *))                                                           \
	X(int, sqlite3_column_count, (sqlite3_stmt *))                                                           \
	X(int, sqlite3_column_type, (sqlite3_stmt *, int))                                                       \
	X(sqlite3_int64, sqlite3_column_int64, (sqlite3_stmt *, int))                                            \
	X(double, sqlite3_column_double, (sqlite3_stmt *, int))                                                  \
	X(const unsigned char *, sqlite3_column_text, (sqlite3_stmt *, int))                                     \
	X(const char *, sqlite3_libversion, (void))                                                              \
	X(const void *, sqlite3_column_blob, (sqlite3_stmt *, int))                                              \
	X(int, sqlite3_column_bytes, (sqlite3_stmt *, int))

#define DECLARE(ret, name, args) static ret(*real_##name) args;
REAL_FUNCS(DECLARE)
#undef DECLARE

/* The process's state, behind one mutex. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int resolved;       /* the real functions are found */
static int disabled;       /* no capture directory, or something failed for good */
static const char *capdir; /* GOBENCH_CAPTURE_DIR */

/* Calls made by SQLite itself, inside a call of the program's (sqlite3_exec
 * excepted, whose statements are the program's), are not recorded. */
static __thread int depth;
static __thread int in_exec;
static __thread unsigned long exec_seen;

static int64_t now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static uint64_t thread_id(void) { return (uint64_t)syscall(SYS_gettid); }

/* find_sqlite finds the library that defines SQLite's functions: the next
 * object after this one, or, where the program loaded SQLite into a scope of
 * its own (Python's extension modules are dlopened RTLD_LOCAL), the loaded
 * object that defines sqlite3_libversion. */
static void *lib;
static int find_lib(struct dl_phdr_info *info, size_t size, void *data) {
	(void)size;
	(void)data;
	if (lib || !info->dlpi_name || !info->dlpi_name[0])
		return 0;
	void *h = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
	if (!h)
		return 0;
	void *f = dlsym(h, "sqlite3_libversion");
	Dl_info di;
	if (f && dladdr(f, &di) && di.dli_fbase == (void *)info->dlpi_addr) {
		lib = h;
		return 1;
	}
	dlclose(h);
	return 0;
}

static void *real(const char *name) {
	void *f = dlsym(RTLD_NEXT, name);
	if (f)
		return f;
	if (!lib)
		dl_iterate_phdr(find_lib, NULL);
	return lib ? dlsym(lib, name) : NULL;
}

static void do_resolve(void) {
#define RESOLVE(ret, name, args) real_##name = (ret(*) args)real(#name);
	REAL_FUNCS(RESOLVE)
#undef RESOLVE
	resolved = 1;
}

static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;
static void resolve(void) { pthread_once(&resolve_once, do_resolve); }

/* ---- the trace's encoding ---- */

#define VERSION 2 /* 2: an exec's digest of its rows (F_DIGEST) */
#define MAX_CHUNK (4 << 20)
#define FLUSH_AT (64 << 10)
#define MAX_VALUE (1 << 20)
#define MAX_TEXT (1 << 20)
#define MAX_STRING (64 << 10)
#define MAX_TEXTS (1 << 16)
#define MAX_TEXT_BYTES (16 << 20)
#define FLUSH_EVERY 100000000 /* ns */

enum { K_PROCESS = 1, K_DB = 2, K_OPEN = 3, K_CLOSE = 4, K_SQL = 5, K_EXEC = 6, K_SEGMENT = 7, K_NOTE = 8, K_SNAPFILE = 10 };
enum { S_NONE = 0, S_FILE = 1, S_WAL = 2 };
enum { V_NULL = 0, V_INT = 1, V_FLOAT = 2, V_TEXT = 3, V_BLOB = 4, V_ZEROBLOB = 5, V_OMITTED = 6 };
enum {
	F_DONE = 1,
	F_AC_BEFORE = 2,
	F_AC_AFTER = 4,
	F_EXEC = 8,
	F_MULTI = 16,
	F_READONLY = 32,
	F_CHANGES = 64,
	F_CUT = 256, /* the text was longer than MAX_TEXT: its first MAX_TEXT bytes are kept */
	F_DIGEST = 512,  /* the exec ends with the 8-byte digest of its rows */
	F_ORDERED = 1024 /* the statement orders its rows (ORDER BY): the digest folds them in order */
};

typedef struct {
	unsigned char *b;
	size_t n, cap;
} buf;

static int grow(buf *b, size_t more) {
	if (b->n + more <= b->cap)
		return 1;
	size_t cap = b->cap ? b->cap : 4096;
	while (cap < b->n + more)
		cap *= 2;
	unsigned char *p = realloc(b->b, cap);
	if (!p)
		return 0;
	b->b = p;
	b->cap = cap;
	return 1;
}

static void put_byte(buf *b, unsigned char c) {
	if (grow(b, 1))
		b->b[b->n++] = c;
}

static void put_u(buf *b, uint64_t v) {
	if (!grow(b, 10))
		return;
	while (v >= 0x80) {
		b->b[b->n++] = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	b->b[b->n++] = (unsigned char)v;
}

static void put_i(buf *b, int64_t v) {
	uint64_t u = (uint64_t)v << 1;
	if (v < 0)
		u = ~u;
	put_u(b, u);
}

static void put_bytes(buf *b, const void *p, size_t n) {
	put_u(b, n);
	if (n && grow(b, n)) {
		memcpy(b->b + b->n, p, n);
		b->n += n;
	}
}

static void put_str(buf *b, const char *s, size_t max) {
	size_t n = s ? strlen(s) : 0;
	put_bytes(b, s, n < max ? n : max);
}

static uint32_t crc_table[256];
static void crc_init(void) {
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0x82f63b78 ^ (c >> 1) : c >> 1;
		crc_table[i] = c;
	}
}
static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t n) {
	crc = ~crc;
	while (n--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* ---- this process's part ---- */

static int part_fd = -1;
static pid_t part_pid;
static buf records;         /* the records not yet written, one chunk's worth */
static int64_t last_flush;
static int64_t last_start; /* the previous Exec's start */
static uint64_t part_size; /* bytes written to the part */

/* The tail: the records not yet written to the part, mirrored whole into a
 * file of the capture's directory that this process maps shared
 * (part-PID-N.tail), so that a process killed (SIGKILL, a fatal signal,
 * abort, _exit) before its last flush loses none of its whole records:
 * gobench reads them from the file after the program ended. Its header,
 * little-endian 64-bit words: magic "GBTAIL\n\0", the part's offset where
 * the tail's records begin, their length, and the state (1 running, 2
 * ended through exit, every record written to the part). The records
 * follow. */
#define TAIL_HEADER 32
#define TAIL_CAP FLUSH_AT
static unsigned char *tail;
static size_t tail_n; /* bytes of records mirrored */

static void tail_word(int i, uint64_t v) {
	if (tail)
		__atomic_store_n((uint64_t *)(tail + 8 * i), v, __ATOMIC_RELEASE);
}

/* tail_open maps the tail file beside the part at path; mu is held. */
static void tail_open(const char *path) {
	char tp[4200];
	snprintf(tp, sizeof tp, "%.*s.tail", (int)(strlen(path) - strlen(".trace")), path);
	int fd = open(tp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (ftruncate(fd, TAIL_HEADER + TAIL_CAP) == 0) {
		void *m = mmap(NULL, TAIL_HEADER + TAIL_CAP, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (m != MAP_FAILED) {
			tail = m;
			memcpy(tail, "GBTAIL\n", 8);
			tail_word(1, part_size);
			tail_word(2, 0);
			tail_word(3, 1);
		}
	}
	close(fd);
}

/* tail_mirror copies the records not yet mirrored into the tail, whole
 * records only: it runs between records. */
static void tail_mirror(void) {
	if (!tail || records.n <= tail_n)
		return;
	if (records.n > TAIL_CAP)
		return; /* flushed at once: records_done writes a full chunk */
	memcpy(tail + TAIL_HEADER + tail_n, records.b + tail_n, records.n - tail_n);
	tail_n = records.n;
	tail_word(2, tail_n);
}

/* tail_flushed: the records are in the part now. The length goes to 0
 * before the offset moves, so that a reader never takes records written
 * for ones that were not. */
static void tail_flushed(void) {
	tail_n = 0;
	tail_word(2, 0);
	tail_word(1, part_size);
}

/* write_all writes n bytes to the part; an error stops the capture. */
static void write_all(const unsigned char *p, size_t n) {
	while (n > 0 && part_fd >= 0) {
		ssize_t w = write(part_fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			disabled = 1;
			return;
		}
		p += w;
		n -= (size_t)w;
		part_size += (uint64_t)w;
	}
}

static void flush_locked(void) {
	if (records.n == 0 || part_fd < 0)
		return;
	buf c = {0};
	put_byte(&c, 'R');
	put_u(&c, 0);
	put_u(&c, records.n);
	if (grow(&c, records.n + 4)) {
		memcpy(c.b + c.n, records.b, records.n);
		c.n += records.n;
		uint32_t sum = crc32c(0, c.b, c.n);
		for (int i = 0; i < 4; i++)
			c.b[c.n++] = (unsigned char)(sum >> (8 * i));
		write_all(c.b, c.n);
	}
	free(c.b);
	records.n = 0;
	tail_flushed();
	last_flush = now();
}

static void note_locked(int level, const char *fmt, ...);

/* The interned texts of statements: a hash table of text to id. */
typedef struct {
	char *text;
	uint64_t id;
} text_entry;
static text_entry *texts;
static size_t texts_cap, texts_n, texts_bytes;

static uint64_t hash_str(const char *s, size_t n) {
	uint64_t h = 1469598103934665603ULL;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

/* define_text returns the id of a statement's text, writing its definition
 * first if it is new (id 0, for the next Exec alone, once the table is
 * full). */
static uint64_t define_text(const char *s, size_t n) {
	if (texts_cap == 0) {
		texts_cap = 1024;
		texts = calloc(texts_cap, sizeof *texts);
		if (!texts)
			texts_cap = 0;
	}
	if (texts_cap) {
		size_t i = hash_str(s, n) & (texts_cap - 1);
		for (; texts[i].text; i = (i + 1) & (texts_cap - 1))
			if (strlen(texts[i].text) == n && memcmp(texts[i].text, s, n) == 0)
				return texts[i].id;
	}
	uint64_t id = 0;
	if (texts_cap && texts_n < MAX_TEXTS && texts_bytes + n <= MAX_TEXT_BYTES) {
		if ((texts_n + 1) * 2 > texts_cap) {
			size_t cap = texts_cap * 2;
			text_entry *t = calloc(cap, sizeof *t);
			if (t) {
				for (size_t j = 0; j < texts_cap; j++)
					if (texts[j].text) {
						size_t k = hash_str(texts[j].text, strlen(texts[j].text)) & (cap - 1);
						while (t[k].text)
							k = (k + 1) & (cap - 1);
						t[k] = texts[j];
					}
				free(texts);
				texts = t;
				texts_cap = cap;
			}
		}
		if ((texts_n + 1) * 2 <= texts_cap) {
			char *copy = malloc(n + 1);
			if (copy) {
				memcpy(copy, s, n);
				copy[n] = 0;
				size_t i = hash_str(s, n) & (texts_cap - 1);
				while (texts[i].text)
					i = (i + 1) & (texts_cap - 1);
				id = ++texts_n;
				texts[i].text = copy;
				texts[i].id = id;
				texts_bytes += n;
			}
		}
	}
	put_byte(&records, K_SQL);
	put_u(&records, id);
	put_bytes(&records, s, n);
	return id;
}

static void forget_texts(void) {
	for (size_t i = 0; i < texts_cap; i++)
		free(texts[i].text);
	free(texts);
	texts = NULL;
	texts_cap = texts_n = texts_bytes = 0;
}

static void command_line(buf *b) {
	char raw[MAX_STRING];
	size_t n = 0;
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t r;
		while (n < sizeof raw - 1 && (r = read(fd, raw + n, sizeof raw - 1 - n)) > 0)
			n += (size_t)r;
		close(fd);
	}
	while (n > 0 && raw[n - 1] == 0)
		n--;
	for (size_t i = 0; i < n; i++)
		if (raw[i] == 0)
			raw[i] = ' ';
	put_bytes(b, raw, n);
}

/* open_part opens this process's part, on its first record; mu is held. */
static int open_part(void) {
	if (part_fd >= 0 && part_pid == getpid())
		return 1;
	if (disabled || !capdir)
		return 0;
	char path[4096];
	for (int n = 0; n < 1000 && part_fd < 0; n++) {
		snprintf(path, sizeof path, "%s/part-%d-%d.trace", capdir, (int)getpid(), n);
		part_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (part_fd < 0 && errno != EEXIST)
			break;
	}
	if (part_fd < 0) {
		disabled = 1;
		return 0;
	}
	part_pid = getpid();
	part_size = 0;
	unsigned char h[16] = {'G', 'B', 'T', 'R', 'A', 'C', 'E', '\n', VERSION, 0, 0, 0, 0, 0, 0, 0};
	write_all(h, sizeof h);
	tail_open(path); /* its records begin after the header */
	struct timespec wall;
	clock_gettime(CLOCK_REALTIME, &wall);
	put_byte(&records, K_PROCESS);
	put_u(&records, (uint64_t)getpid());
	put_u(&records, (uint64_t)getppid());
	put_i(&records, (int64_t)wall.tv_sec * 1000000000 + wall.tv_nsec);
	put_i(&records, now());
	command_line(&records);
	/* the SQLite library the process runs: a replay on another version can
	 * return other results for the same statements (sqltrace.VersionNote) */
	if (real_sqlite3_libversion) {
		const char *v = real_sqlite3_libversion();
		char msg[128];
		snprintf(msg, sizeof msg, "SQLite library of this process: %s", v ? v : "");
		put_byte(&records, K_NOTE);
		put_byte(&records, 1);
		put_str(&records, msg, MAX_STRING);
	}
	last_flush = now();
	return 1;
}

/* record_done ends a record: the chunk goes out when it is full or old. */
static void record_done(void) {
	if (records.n >= FLUSH_AT || now() - last_flush > FLUSH_EVERY)
		flush_locked();
	else
		tail_mirror();
}

static void note_locked(int level, const char *fmt, ...) {
	if (!open_part())
		return;
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	put_byte(&records, K_NOTE);
	put_byte(&records, (unsigned char)level);
	put_str(&records, msg, MAX_STRING);
	record_done();
}

/* ---- the VFS that watches the database's counters ---- */

typedef struct capfile {
	sqlite3_file base;
	sqlite3_file *real; /* the wrapped VFS's file, right after this struct */
	int main_db;
	int lock;
	volatile void *shm0; /* the WAL index's first region, once mapped */
	int wal_write;       /* holds the WAL write lock */
	uint64_t wal_locked; /* the WAL index's counter when it took it */
	int recovering;      /* holds the WAL recovery lock */
	int recovered;       /* recovered the WAL index under the write lock held */
	uint64_t db;         /* the database's id in this process's part, once known */
	/* What the connection's transactions saw and made, each with a sequence
	 * number so that a statement can tell whether it happened during it. */
	uint64_t snap_seq, commit_seq, seg_seq, busy;
	int seg_reason;
	int64_t seg_at;
	int snap_kind, commit_kind;
	uint64_t snap_value, commit_value;
	int64_t snap_at, commit_at;
	/* The state the connection last knew of: its snapshot's or its
	 * commit's. */
	int state_kind;
	uint64_t state_value;
} capfile;

static sqlite3_vfs capvfs;
static sqlite3_vfs *basevfs;
static const char capvfs_name[] = "gobench-capture";

#define REALF(f) (((capfile *)(f))->real)

static void segment(capfile *f, int reason);

/* file_counter reads the database file's change counter (bytes 24-27). */
static uint64_t file_counter(capfile *f) {
	unsigned char b[4] = {0};
	int rc = f->real->pMethods->xRead(f->real, b, 4, 24);
	if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ)
		return 0;
	return (uint64_t)b[0] << 24 | (uint64_t)b[1] << 16 | (uint64_t)b[2] << 8 | b[3];
}

/* wal_counter reads the WAL index header's transaction counter (iChange,
 * the first copy's, which readers check their snapshot against). */
static uint64_t wal_counter(capfile *f) {
	if (!f->shm0)
		return 0;
	return *(volatile uint32_t *)((volatile char *)f->shm0 + 8);
}

static void saw(capfile *f, int kind, uint64_t v) {
	f->snap_kind = f->state_kind = kind;
	f->snap_value = f->state_value = v;
	f->snap_at = now();
	f->snap_seq++;
}

static void made(capfile *f, int kind, uint64_t v) {
	f->commit_kind = kind;
	f->commit_value = v;
	f->commit_at = now();
	f->commit_seq++;
	f->state_kind = kind;
	f->state_value = v;
}

static int c_close(sqlite3_file *f) {
	int rc = REALF(f)->pMethods ? REALF(f)->pMethods->xClose(REALF(f)) : SQLITE_OK;
	return rc;
}
static int c_read(sqlite3_file *f, void *p, int n, sqlite3_int64 o) { return REALF(f)->pMethods->xRead(REALF(f), p, n, o); }
static int c_write(sqlite3_file *f, const void *p, int n, sqlite3_int64 o) { return REALF(f)->pMethods->xWrite(REALF(f), p, n, o); }
static int c_truncate(sqlite3_file *f, sqlite3_int64 n) { return REALF(f)->pMethods->xTruncate(REALF(f), n); }
static int c_sync(sqlite3_file *f, int flags) { return REALF(f)->pMethods->xSync(REALF(f), flags); }
static int c_filesize(sqlite3_file *f, sqlite3_int64 *n) { return REALF(f)->pMethods->xFileSize(REALF(f), n); }
static int c_checkreserved(sqlite3_file *f, int *out) { return REALF(f)->pMethods->xCheckReservedLock(REALF(f), out); }
static int c_filecontrol(sqlite3_file *f, int op, void *arg) { return REALF(f)->pMethods->xFileControl(REALF(f), op, arg); }
static int c_sectorsize(sqlite3_file *f) { return REALF(f)->pMethods->xSectorSize(REALF(f)); }
static int c_devchar(sqlite3_file *f) { return REALF(f)->pMethods->xDeviceCharacteristics(REALF(f)); }
static void c_shmbarrier(sqlite3_file *f) { REALF(f)->pMethods->xShmBarrier(REALF(f)); }
static int c_fetch(sqlite3_file *f, sqlite3_int64 o, int n, void **pp) { return REALF(f)->pMethods->xFetch(REALF(f), o, n, pp); }
static int c_unfetch(sqlite3_file *f, sqlite3_int64 o, void *p) { return REALF(f)->pMethods->xUnfetch(REALF(f), o, p); }

/* c_lock: a transaction's snapshot, in a rollback journal mode, is the
 * state the shared lock finds (a commit needs the exclusive lock, which no
 * shared lock allows). In WAL mode the read lock on the WAL index says it
 * later. */
static int c_lock(sqlite3_file *file, int level) {
	capfile *f = (capfile *)file;
	int rc = f->real->pMethods->xLock(f->real, level);
	if (rc == SQLITE_OK) {
		if (f->main_db && level == SQLITE_LOCK_SHARED && f->lock == SQLITE_LOCK_NONE)
			saw(f, S_FILE, file_counter(f));
		f->lock = level;
	} else if ((rc & 0xff) == SQLITE_BUSY) {
		f->busy++;
	}
	return rc;
}

/* c_unlock: a commit in a rollback journal mode is visible once the
 * exclusive lock goes; the change counter it wrote is read before. */
static int c_unlock(sqlite3_file *file, int level) {
	capfile *f = (capfile *)file;
	if (f->main_db && f->lock >= SQLITE_LOCK_EXCLUSIVE && level < SQLITE_LOCK_EXCLUSIVE) {
		if (f->shm0) {
			segment(f, 2); /* the database leaves WAL mode */
		} else {
			uint64_t v = file_counter(f);
			if (v != f->state_value || f->state_kind != S_FILE)
				made(f, S_FILE, v);
		}
	}
	int rc = f->real->pMethods->xUnlock(f->real, level);
	if (rc == SQLITE_OK)
		f->lock = level;
	return rc;
}

static int c_shmmap(sqlite3_file *file, int region, int size, int extend, void volatile **pp) {
	capfile *f = (capfile *)file;
	int rc = f->real->pMethods->xShmMap(f->real, region, size, extend, pp);
	if (rc == SQLITE_OK && region == 0 && pp && *pp)
		f->shm0 = *pp;
	return rc;
}

static int c_shmunmap(sqlite3_file *file, int del) {
	capfile *f = (capfile *)file;
	f->shm0 = NULL;
	return f->real->pMethods->xShmUnmap(f->real, del);
}

/* c_shmlock: in WAL mode a reader's snapshot is the header it checks again
 * after taking its read lock, so the counter read just after the lock is
 * the snapshot's whenever the reader keeps it; a commit's counter is
 * written before the write lock goes. A recovery, which rebuilds the
 * index and restarts the counter, holds the recovery lock. */
static int c_shmlock(sqlite3_file *file, int ofst, int n, int flags) {
	capfile *f = (capfile *)file;
	if (flags == (SQLITE_SHM_UNLOCK | SQLITE_SHM_EXCLUSIVE)) {
		if (ofst <= WAL_RECOVER_LOCK && ofst + n > WAL_RECOVER_LOCK && f->recovering) {
			f->recovering = 0;
			f->recovered = 1;
			f->state_kind = S_NONE;
			segment(f, 1);
		}
		if (ofst == WAL_WRITE_LOCK && f->wal_write) {
			/* Only a commit under the lock moves the counter: a BEGIN
			 * whose snapshot was stale takes the lock, finds the index
			 * changed and lets it go, and the counter then is another
			 * connection's commit, not this one's. */
			uint64_t v = wal_counter(f);
			if (!f->recovered && f->shm0 && v != f->wal_locked && (f->state_kind != S_WAL || v != f->state_value))
				made(f, S_WAL, v);
			f->wal_write = 0;
			f->recovered = 0;
		}
	}
	int rc = f->real->pMethods->xShmLock(f->real, ofst, n, flags);
	if (rc == SQLITE_OK && (flags & SQLITE_SHM_LOCK)) {
		if ((flags & SQLITE_SHM_SHARED) && ofst >= WAL_READ_LOCK0 && ofst < WAL_READ_LOCK0 + 5 && f->shm0)
			saw(f, S_WAL, wal_counter(f));
		if ((flags & SQLITE_SHM_EXCLUSIVE) && ofst == WAL_WRITE_LOCK) {
			f->wal_write = 1;
			f->wal_locked = wal_counter(f);
		}
		if ((flags & SQLITE_SHM_EXCLUSIVE) && ofst <= WAL_RECOVER_LOCK && ofst + n > WAL_RECOVER_LOCK)
			f->recovering = 1;
	} else if ((rc & 0xff) == SQLITE_BUSY) {
		f->busy++;
	}
	return rc;
}

static const sqlite3_io_methods cap_methods[3] = {
    {1, c_close, c_read, c_write, c_truncate, c_sync, c_filesize, c_lock, c_unlock, c_checkreserved, c_filecontrol, c_sectorsize, c_devchar},
    {2, c_close, c_read, c_write, c_truncate, c_sync, c_filesize, c_lock, c_unlock, c_checkreserved, c_filecontrol, c_sectorsize, c_devchar,
     c_shmmap, c_shmlock, c_shmbarrier, c_shmunmap},
    {3, c_close, c_read, c_write, c_truncate, c_sync, c_filesize, c_lock, c_unlock, c_checkreserved, c_filecontrol, c_sectorsize, c_devchar,
     c_shmmap, c_shmlock, c_shmbarrier, c_shmunmap, c_fetch, c_unfetch},
};

static int v_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out) {
	(void)vfs;
	capfile *f = (capfile *)file;
	memset(f, 0, sizeof *f);
	f->real = (sqlite3_file *)(f + 1);
	f->main_db = (flags & SQLITE_OPEN_MAIN_DB) != 0;
	int rc = basevfs->xOpen(basevfs, name, f->real, flags, out);
	if (f->real->pMethods) {
		int v = f->real->pMethods->iVersion;
		f->base.pMethods = &cap_methods[(v < 1 ? 1 : v > 3 ? 3 : v) - 1];
	}
	return rc;
}
static int v_delete(sqlite3_vfs *v, const char *n, int s) { (void)v; return basevfs->xDelete(basevfs, n, s); }
static int v_access(sqlite3_vfs *v, const char *n, int fl, int *o) { (void)v; return basevfs->xAccess(basevfs, n, fl, o); }
static int v_fullpath(sqlite3_vfs *v, const char *n, int k, char *o) { (void)v; return basevfs->xFullPathname(basevfs, n, k, o); }
static void *v_dlopen(sqlite3_vfs *v, const char *n) { (void)v; return basevfs->xDlOpen(basevfs, n); }
static void v_dlerror(sqlite3_vfs *v, int k, char *o) { (void)v; basevfs->xDlError(basevfs, k, o); }
static void (*v_dlsym(sqlite3_vfs *v, void *h, const char *s))(void) { (void)v; return basevfs->xDlSym(basevfs, h, s); }
static void v_dlclose(sqlite3_vfs *v, void *h) { (void)v; basevfs->xDlClose(basevfs, h); }
static int v_random(sqlite3_vfs *v, int k, char *o) { (void)v; return basevfs->xRandomness(basevfs, k, o); }
static int v_sleep(sqlite3_vfs *v, int us) { (void)v; return basevfs->xSleep(basevfs, us); }
static int v_time(sqlite3_vfs *v, double *t) { (void)v; return basevfs->xCurrentTime(basevfs, t); }
static int v_lasterr(sqlite3_vfs *v, int k, char *o) { (void)v; return basevfs->xGetLastError(basevfs, k, o); }
static int v_time64(sqlite3_vfs *v, sqlite3_int64 *t) { (void)v; return basevfs->xCurrentTimeInt64(basevfs, t); }
static int v_setsys(sqlite3_vfs *v, const char *n, sqlite3_syscall_ptr p) { (void)v; return basevfs->xSetSystemCall(basevfs, n, p); }
static sqlite3_syscall_ptr v_getsys(sqlite3_vfs *v, const char *n) { (void)v; return basevfs->xGetSystemCall(basevfs, n); }
static const char *v_nextsys(sqlite3_vfs *v, const char *n) { (void)v; return basevfs->xNextSystemCall(basevfs, n); }

/* register_vfs registers the capture's VFS around the default one (not
 * as the default: opens name it). mu is held. */
static const char *register_vfs(void) {
	static int done;
	if (done)
		return done > 0 ? capvfs_name : NULL;
	done = -1;
	basevfs = real_sqlite3_vfs_find ? real_sqlite3_vfs_find(NULL) : NULL;
	if (!basevfs || !real_sqlite3_vfs_register)
		return NULL;
	capvfs.iVersion = basevfs->iVersion < 3 ? basevfs->iVersion : 3;
	capvfs.szOsFile = (int)sizeof(capfile) + basevfs->szOsFile;
	capvfs.mxPathname = basevfs->mxPathname;
	capvfs.zName = capvfs_name;
	capvfs.xOpen = v_open;
	capvfs.xDelete = v_delete;
	capvfs.xAccess = v_access;
	capvfs.xFullPathname = v_fullpath;
	capvfs.xDlOpen = basevfs->xDlOpen ? v_dlopen : NULL;
	capvfs.xDlError = basevfs->xDlError ? v_dlerror : NULL;
	capvfs.xDlSym = basevfs->xDlSym ? v_dlsym : NULL;
	capvfs.xDlClose = basevfs->xDlClose ? v_dlclose : NULL;
	capvfs.xRandomness = v_random;
	capvfs.xSleep = v_sleep;
	capvfs.xCurrentTime = v_time;
	capvfs.xGetLastError = basevfs->xGetLastError ? v_lasterr : NULL;
	if (capvfs.iVersion >= 2)
		capvfs.xCurrentTimeInt64 = basevfs->xCurrentTimeInt64 ? v_time64 : NULL;
	if (capvfs.iVersion >= 3) {
		capvfs.xSetSystemCall = basevfs->xSetSystemCall ? v_setsys : NULL;
		capvfs.xGetSystemCall = basevfs->xGetSystemCall ? v_getsys : NULL;
		capvfs.xNextSystemCall = basevfs->xNextSystemCall ? v_nextsys : NULL;
	}
	if (real_sqlite3_vfs_register(&capvfs, 0) != SQLITE_OK)
		return NULL;
	done = 1;
	return capvfs_name;
}

/* ---- connections, databases and statements ---- */

typedef struct conn {
	sqlite3 *db;
	uint64_t id;
	uint64_t dbid;
	capfile *f;
	int opened_here;      /* its Open record is in this process's part */
	uint64_t seg_written; /* the last restart of its file's counters recorded */
	struct conn *next;
} conn;

typedef struct dbinfo {
	char *path;
	uint64_t id;
	int written; /* its DB record is in this process's part */
	struct dbinfo *next;
} dbinfo;

typedef struct value {
	int type;
	int of;
	int64_t i;
	double f;
	unsigned char *bytes;
	size_t n;
} value;

typedef struct stmt {
	sqlite3_stmt *s;
	conn *c;
	value *params;
	int nparams;
	int running;
	int in_exec;
	int64_t start, end, insql, rows;
	uint64_t dig_u, dig_o; /* its rows' digest, in any order and in order (see row_hash) */
	uint64_t snap_seq0, commit_seq0, busy0;
	int ac_before;
	struct stmt *next;
} stmt;

#define NBUCKETS 4096
static conn *conns[NBUCKETS];
static stmt *stmts[NBUCKETS];
static dbinfo *dbs;
static uint64_t next_conn, next_db;

static size_t bucket(const void *p) { return ((uintptr_t)p >> 4) * 11400714819323198485ULL >> 52; }

static conn *conn_of(sqlite3 *db) {
	for (conn *c = conns[bucket(db)]; c; c = c->next)
		if (c->db == db)
			return c;
	return NULL;
}

static void put_db(dbinfo *d) {
	if (d->written)
		return;
	put_byte(&records, K_DB);
	put_u(&records, d->id);
	put_str(&records, d->path, MAX_STRING);
	d->written = 1;
}

static dbinfo *db_of(uint64_t id) {
	for (dbinfo *d = dbs; d; d = d->next)
		if (d->id == id)
			return d;
	return NULL;
}

/* conn_here makes sure a connection's records can refer to it in this
 * process's part: a connection opened before a fork gets an Open record
 * in the child's. */
static void conn_here(conn *c) {
	if (c->opened_here)
		return;
	dbinfo *d = db_of(c->dbid);
	if (d)
		put_db(d);
	put_byte(&records, K_OPEN);
	put_u(&records, c->id);
	put_u(&records, c->dbid);
	put_i(&records, now());
	put_u(&records, 0);
	put_u(&records, 0);
	put_u(&records, thread_id());
	c->opened_here = 1;
}

/* segment notes that the database's counters restart; the statement
 * during which it happened records it (the VFS takes no lock of the
 * capture's, as it runs under SQLite's own). */
static void segment(capfile *f, int reason) {
	f->seg_reason = reason;
	f->seg_at = now();
	f->seg_seq++;
}

static stmt *stmt_of(sqlite3_stmt *s, int create) {
	size_t b = bucket(s);
	for (stmt *st = stmts[b]; st; st = st->next)
		if (st->s == s)
			return st;
	if (!create)
		return NULL;
	stmt *st = calloc(1, sizeof *st);
	if (!st)
		return NULL;
	st->s = s;
	st->c = conn_of(real_sqlite3_db_handle(s));
	st->next = stmts[b];
	stmts[b] = st;
	return st;
}

static void free_value(value *v) {
	free(v->bytes);
	memset(v, 0, sizeof *v);
}

static void drop_stmt(sqlite3_stmt *s) {
	for (stmt **p = &stmts[bucket(s)]; *p; p = &(*p)->next)
		if ((*p)->s == s) {
			stmt *st = *p;
			*p = st->next;
			for (int i = 0; i < st->nparams; i++)
				free_value(&st->params[i]);
			free(st->params);
			free(st);
			return;
		}
}

/* param returns where parameter i of st is kept, growing the array. */
static value *param(stmt *st, int i) {
	if (i < 1 || i > 32766)
		return NULL;
	if (i > st->nparams) {
		int n = real_sqlite3_bind_parameter_count(st->s);
		if (n < i)
			n = i;
		value *p = realloc(st->params, (size_t)n * sizeof *p);
		if (!p)
			return NULL;
		memset(p + st->nparams, 0, (size_t)(n - st->nparams) * sizeof *p);
		st->params = p;
		st->nparams = n;
	}
	free_value(&st->params[i - 1]);
	return &st->params[i - 1];
}

static void keep_bytes(value *v, int type, const void *p, size_t n) {
	v->type = type;
	if (n > MAX_VALUE) {
		v->type = V_OMITTED;
		v->of = type;
		v->i = (int64_t)n;
		return;
	}
	v->bytes = malloc(n ? n : 1);
	if (!v->bytes) {
		v->type = V_NULL;
		return;
	}
	if (n)
		memcpy(v->bytes, p, n);
	v->n = n;
}

/* utf16 converts n bytes of UTF-16 (native order, or the order enc names)
 * to UTF-8 into v. */
static void keep_utf16(value *v, const unsigned char *p, size_t n, int enc) {
	int be = enc == SQLITE_UTF16BE;
	if (enc == SQLITE_UTF16) {
		uint16_t probe = 1;
		be = *(unsigned char *)&probe == 0;
	}
	buf out = {0};
	for (size_t i = 0; i + 1 < n;) {
		uint32_t c = be ? (uint32_t)p[i] << 8 | p[i + 1] : (uint32_t)p[i + 1] << 8 | p[i];
		i += 2;
		if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
			uint32_t d = be ? (uint32_t)p[i] << 8 | p[i + 1] : (uint32_t)p[i + 1] << 8 | p[i];
			if (d >= 0xdc00 && d < 0xe000) {
				c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
				i += 2;
			}
		}
		if (c < 0x80) {
			put_byte(&out, (unsigned char)c);
		} else if (c < 0x800) {
			put_byte(&out, (unsigned char)(0xc0 | c >> 6));
			put_byte(&out, (unsigned char)(0x80 | (c & 0x3f)));
		} else if (c < 0x10000) {
			put_byte(&out, (unsigned char)(0xe0 | c >> 12));
			put_byte(&out, (unsigned char)(0x80 | (c >> 6 & 0x3f)));
			put_byte(&out, (unsigned char)(0x80 | (c & 0x3f)));
		} else {
			put_byte(&out, (unsigned char)(0xf0 | c >> 18));
			put_byte(&out, (unsigned char)(0x80 | (c >> 12 & 0x3f)));
			put_byte(&out, (unsigned char)(0x80 | (c >> 6 & 0x3f)));
			put_byte(&out, (unsigned char)(0x80 | (c & 0x3f)));
		}
	}
	keep_bytes(v, V_TEXT, out.b, out.n);
	free(out.b);
}

/* ---- recording an execution ---- */

static int capturing(void) {
	if (disabled || depth > 0)
		return 0;
	resolve();
	return !disabled && real_sqlite3_step != NULL;
}

/* first_word returns a statement's first keyword's length and start. */
static const char *first_word(const char *s, size_t *n) {
	while (s && *s) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '(') {
			s++;
		} else if (s[0] == '-' && s[1] == '-') {
			while (*s && *s != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");
			s = e ? e + 2 : s + strlen(s);
		} else {
			break;
		}
	}
	const char *e = s;
	while (e && ((*e >= 'a' && *e <= 'z') || (*e >= 'A' && *e <= 'Z')))
		e++;
	*n = s ? (size_t)(e - s) : 0;
	return s;
}

static int is_word(const char *w, size_t n, const char *kw) { return strlen(kw) == n && strncasecmp(w, kw, n) == 0; }

/* is_dml reports whether a statement inserts, updates or deletes rows, so
 * that sqlite3_changes counts its rows. */
static int is_dml(const char *sql) {
	size_t n;
	const char *w = first_word(sql, &n);
	return is_word(w, n, "INSERT") || is_word(w, n, "UPDATE") || is_word(w, n, "DELETE") || is_word(w, n, "REPLACE") ||
	       is_word(w, n, "WITH");
}

static void put_state(int kind, uint64_t value, int64_t at, int64_t base) {
	put_byte(&records, (unsigned char)kind);
	if (kind == S_NONE)
		return;
	put_u(&records, value);
	put_i(&records, at - base);
}

static void put_value(const value *v) {
	put_byte(&records, (unsigned char)v->type);
	switch (v->type) {
	case V_INT:
		put_i(&records, v->i);
		break;
	case V_FLOAT: {
		uint64_t u;
		memcpy(&u, &v->f, 8);
		if (grow(&records, 8))
			for (int i = 0; i < 8; i++)
				records.b[records.n++] = (unsigned char)(u >> (8 * i));
		break;
	}
	case V_TEXT:
	case V_BLOB:
		put_bytes(&records, v->bytes, v->n);
		break;
	case V_ZEROBLOB:
		put_u(&records, (uint64_t)v->i);
		break;
	case V_OMITTED:
		put_byte(&records, (unsigned char)v->of);
		put_u(&records, (uint64_t)v->i);
		break;
	}
}

/* ---- the digest of a statement's rows (sqltrace's RowHash and RowsDigest) ---- */

#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv_byte(uint64_t h, unsigned char c) { return (h ^ c) * FNV_PRIME; }

static uint64_t fnv_u64(uint64_t h, uint64_t v) {
	for (int i = 0; i < 8; i++)
		h = fnv_byte(h, (unsigned char)(v >> (8 * i)));
	return h;
}

static uint64_t fnv_bytes(uint64_t h, int type, const unsigned char *p, int n) {
	h = fnv_u64(fnv_byte(h, (unsigned char)type), (uint64_t)(n > 0 ? n : 0));
	for (int i = 0; i < n; i++)
		h = fnv_byte(h, p[i]);
	return h;
}

/* row_hash hashes the row a step returned: each column's type and value,
 * read as SQLite holds it (no conversion the program would see), mixed. */
static uint64_t row_hash(sqlite3_stmt *s) {
	uint64_t h = FNV_OFFSET;
	int n = real_sqlite3_column_count(s);
	for (int i = 0; i < n; i++) {
		int t = real_sqlite3_column_type(s, i);
		switch (t) {
		case SQLITE_INTEGER:
			h = fnv_u64(fnv_byte(h, 1), (uint64_t)real_sqlite3_column_int64(s, i));
			break;
		case SQLITE_FLOAT: {
			double d = real_sqlite3_column_double(s, i);
			uint64_t u;
			memcpy(&u, &d, 8);
			h = fnv_u64(fnv_byte(h, 2), u);
			break;
		}
		case SQLITE_TEXT: {
			const unsigned char *p = real_sqlite3_column_text(s, i);
			h = fnv_bytes(h, 3, p, p ? real_sqlite3_column_bytes(s, i) : 0);
			break;
		}
		case SQLITE_BLOB: {
			const unsigned char *p = real_sqlite3_column_blob(s, i);
			h = fnv_bytes(h, 4, p, p ? real_sqlite3_column_bytes(s, i) : 0);
			break;
		}
		default:
			h = fnv_byte(h, 5);
		}
	}
	h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
	h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static int word_byte(unsigned char c) {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* ordered reports whether a statement orders its rows: its text holds the
 * words ORDER BY, in any case, separated by white space only (sqltrace's
 * Ordered). */
static int ordered(const char *sql, size_t n) {
	int prev_order = 0;
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)sql[i];
		if (!word_byte(c)) {
			if (!(c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'))
				prev_order = 0;
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && word_byte((unsigned char)sql[j]))
			j++;
		if (prev_order && j - i == 2 && strncasecmp(sql + i, "by", 2) == 0)
			return 1;
		prev_order = j - i == 5 && strncasecmp(sql + i, "order", 5) == 0;
		i = j;
	}
	return 0;
}

/* begin_exec notes a statement's first step; mu is held. */
static void begin_exec(stmt *st) {
	st->running = 1;
	st->in_exec = in_exec > 0;
	st->start = now();
	st->insql = st->rows = 0;
	st->dig_u = 0;
	st->dig_o = FNV_OFFSET;
	if (st->c && st->c->f) {
		st->snap_seq0 = st->c->f->snap_seq;
		st->commit_seq0 = st->c->f->commit_seq;
		st->busy0 = st->c->f->busy;
	}
	st->ac_before = st->c ? real_sqlite3_get_autocommit(st->c->db) : 1;
}

/* end_exec records a statement's execution; mu is held. rc is its last
 * step's result. */
static void end_exec(stmt *st, int rc) {
	st->running = 0;
	if (!st->c || !open_part())
		return;
	conn *c = st->c;
	conn_here(c);
	const char *sql = real_sqlite3_sql(st->s);
	size_t sqln = sql ? strlen(sql) : 0;
	int flags = 0, code = 0;
	if (sqln > MAX_TEXT) {
		sqln = MAX_TEXT;
		flags |= F_CUT;
	}
	uint64_t id = define_text(sql ? sql : "", sqln);
	int64_t changes = 0;
	if (rc == SQLITE_DONE)
		flags |= F_DONE;
	else if (rc != SQLITE_ROW)
		code = real_sqlite3_extended_errcode(c->db);
	if (st->ac_before)
		flags |= F_AC_BEFORE;
	if (real_sqlite3_get_autocommit(c->db))
		flags |= F_AC_AFTER;
	if (st->in_exec)
		flags |= F_EXEC;
	flags |= F_DIGEST;
	if (sql && ordered(sql, sqln))
		flags |= F_ORDERED;
	int ro = real_sqlite3_stmt_readonly(st->s);
	if (ro)
		flags |= F_READONLY;
	if (!ro && sql && is_dml(sql)) {
		flags |= F_CHANGES;
		changes = real_sqlite3_changes(c->db);
	}
	capfile *f = c->f;
	if (f && f->seg_seq != c->seg_written) {
		/* a restart of the counters, during this statement or before it
		 * (while it was prepared: SQLite reads the schema then) */
		c->seg_written = f->seg_seq;
		put_byte(&records, K_SEGMENT);
		put_u(&records, c->dbid);
		put_i(&records, f->seg_at);
		put_byte(&records, (unsigned char)f->seg_reason);
	}
	put_byte(&records, K_EXEC);
	put_u(&records, c->id);
	put_u(&records, thread_id());
	put_u(&records, id);
	put_i(&records, st->start - last_start);
	last_start = st->start;
	put_u(&records, (uint64_t)(st->end - st->start));
	put_u(&records, (uint64_t)st->insql);
	put_u(&records, (uint64_t)code);
	put_u(&records, (uint64_t)flags);
	put_u(&records, (uint64_t)st->rows);
	put_u(&records, (uint64_t)changes);
	put_u(&records, f ? f->busy - st->busy0 : 0);
	if (f && f->snap_seq != st->snap_seq0)
		put_state(f->snap_kind, f->snap_value, f->snap_at, st->start);
	else
		put_state(S_NONE, 0, 0, 0);
	if (f && f->commit_seq != st->commit_seq0)
		put_state(f->commit_kind, f->commit_value, f->commit_at, st->start);
	else
		put_state(S_NONE, 0, 0, 0);
	put_u(&records, (uint64_t)st->nparams);
	for (int i = 0; i < st->nparams; i++)
		put_value(&st->params[i]);
	uint64_t dig = flags & F_ORDERED ? st->dig_o : st->dig_u;
	if (grow(&records, 8))
		for (int i = 0; i < 8; i++)
			records.b[records.n++] = (unsigned char)(dig >> (8 * i));
	record_done();
}

/* ---- snapshots ---- */

static uint64_t fnv(const char *s) {
	uint64_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int exists(const char *p) {
	struct stat sb;
	return stat(p, &sb) == 0;
}

static void write_file(const char *path, const char *text) {
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	size_t n = strlen(text);
	while (n > 0) {
		ssize_t w = write(fd, text, n);
		if (w <= 0)
			break;
		text += w;
		n -= (size_t)w;
	}
	close(fd);
}

/* copy_db copies the database at path to dest with the backup API, on
 * connections of the capture's own, through the default VFS. */
static int copy_db(const char *path, const char *dest, char *why, size_t whyn) {
	sqlite3 *src = NULL, *dst = NULL;
	int rc = real_sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL);
	if (rc != SQLITE_OK) {
		if (!exists(path)) { /* not created yet: the database is empty */
			real_sqlite3_close(src);
			write_file(dest, "");
			return SQLITE_OK;
		}
		snprintf(why, whyn, "opening %s: %s", path, src ? real_sqlite3_errmsg(src) : "out of memory");
		real_sqlite3_close(src);
		return rc;
	}
	rc = real_sqlite3_open_v2(dest, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_backup *b = real_sqlite3_backup_init(dst, "main", src, "main");
		if (!b) {
			rc = real_sqlite3_extended_errcode(dst);
			snprintf(why, whyn, "backup: %s", real_sqlite3_errmsg(dst));
		} else {
			for (int tries = 0; tries < 100000; tries++) {
				rc = real_sqlite3_backup_step(b, -1);
				if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
					break;
				usleep(1000);
			}
			int frc = real_sqlite3_backup_finish(b);
			if (rc == SQLITE_DONE)
				rc = frc;
			if (rc != SQLITE_OK)
				snprintf(why, whyn, "backup: %s", real_sqlite3_errmsg(dst));
		}
	} else {
		snprintf(why, whyn, "creating %s: %s", dest, dst ? real_sqlite3_errmsg(dst) : "out of memory");
	}
	real_sqlite3_close(dst);
	real_sqlite3_close(src);
	return rc;
}

/* snapshot takes the database's snapshot, or waits for the process that
 * takes it; mu is not held (it may take long), the record is written
 * after. */
static void snapshot(const char *path, uint64_t dbid) {
	char base[4096], p[4200], why[1200] = "";
	snprintf(base, sizeof base, "%s/snap-%016llx", capdir, (unsigned long long)fnv(path));
	snprintf(p, sizeof p, "%s.lock", base);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		char done[4200], err[4200];
		snprintf(done, sizeof done, "%s.done", base);
		snprintf(err, sizeof err, "%s.err", base);
		for (int i = 0; i < 300000 && !exists(done) && !exists(err); i++)
			usleep(2000);
		return;
	}
	close(fd);
	int64_t t = now();
	snprintf(p, sizeof p, "%s.db", base);
	depth++;
	int rc = copy_db(path, p, why, sizeof why);
	depth--;
	snprintf(p, sizeof p, rc == SQLITE_OK ? "%s.done" : "%s.err", base);
	write_file(p, why);
	pthread_mutex_lock(&mu);
	if (open_part()) {
		put_byte(&records, K_SNAPFILE);
		put_u(&records, dbid);
		char name[300];
		snprintf(name, sizeof name, "snap-%016llx.db", (unsigned long long)fnv(path));
		put_str(&records, name, MAX_STRING);
		put_i(&records, t);
		put_str(&records, why, MAX_STRING);
		record_done();
	}
	pthread_mutex_unlock(&mu);
}

/* opened records a connection opened; mu is not held. */
static void opened(sqlite3 *db, int flags, int rc, int64_t t, int shim) {
	if (!db)
		return;
	const char *fn = rc == SQLITE_OK ? real_sqlite3_db_filename(db, "main") : NULL;
	char *path = strdup(fn ? fn : "");
	int first = 0;
	pthread_mutex_lock(&mu);
	dbinfo *d = NULL;
	for (d = dbs; d && strcmp(d->path, path ? path : "") != 0; d = d->next)
		;
	if (!d && (d = calloc(1, sizeof *d))) {
		d->path = path;
		path = NULL;
		d->id = ++next_db;
		d->next = dbs;
		dbs = d;
		first = 1;
	}
	conn *c = calloc(1, sizeof *c);
	if (c && d) {
		c->db = db;
		c->id = ++next_conn;
		c->dbid = d->id;
		if (shim && rc == SQLITE_OK) {
			sqlite3_file *pf = NULL;
			if (real_sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &pf) == SQLITE_OK && pf &&
			    pf->pMethods >= &cap_methods[0] && pf->pMethods <= &cap_methods[2]) {
				c->f = (capfile *)pf;
				c->f->db = d->id;
			}
		}
		c->next = conns[bucket(db)];
		conns[bucket(db)] = c;
		if (open_part()) {
			put_db(d);
			c->opened_here = 1;
			put_byte(&records, K_OPEN);
			put_u(&records, c->id);
			put_u(&records, d->id);
			put_i(&records, t);
			put_u(&records, (uint64_t)flags);
			put_u(&records, (uint64_t)rc);
			put_u(&records, thread_id());
			if (rc == SQLITE_OK && !c->f && d->path[0])
				note_locked(2, "connection %llu to %s: its VFS is not the capture's, so its transactions' order is not recorded",
				            (unsigned long long)c->id, d->path);
			record_done();
		}
	} else {
		free(c);
	}
	char *snap = first && d && d->path[0] && rc == SQLITE_OK ? strdup(d->path) : NULL;
	uint64_t dbid = d ? d->id : 0;
	pthread_mutex_unlock(&mu);
	free(path);
	if (snap) {
		snapshot(snap, dbid);
		free(snap);
	} else if (d && rc == SQLITE_OK && d->path[0]) {
		/* not the first: wait, if another process is taking the snapshot */
		char base[4200], done[4300], err[4300], lock[4300];
		snprintf(base, sizeof base, "%s/snap-%016llx", capdir, (unsigned long long)fnv(d->path));
		snprintf(done, sizeof done, "%s.done", base);
		snprintf(err, sizeof err, "%s.err", base);
		snprintf(lock, sizeof lock, "%s.lock", base);
		for (int i = 0; i < 300000 && exists(lock) && !exists(done) && !exists(err); i++)
			usleep(2000);
	}
}

static void closed(sqlite3 *db, int rc) {
	pthread_mutex_lock(&mu);
	for (conn **p = &conns[bucket(db)]; *p; p = &(*p)->next)
		if ((*p)->db == db) {
			conn *c = *p;
			if (rc == SQLITE_OK)
				*p = c->next;
			if (open_part()) {
				conn_here(c);
				put_byte(&records, K_CLOSE);
				put_u(&records, c->id);
				put_i(&records, now());
				put_u(&records, (uint64_t)rc);
				flush_locked();
			}
			if (rc == SQLITE_OK)
				free(c);
			break;
		}
	pthread_mutex_unlock(&mu);
}

/* ---- the wrapped functions ---- */

static const char *vfs_for(const char *zvfs) {
	if (zvfs)
		return zvfs; /* a VFS the program names is left to it */
	pthread_mutex_lock(&mu);
	const char *v = register_vfs();
	pthread_mutex_unlock(&mu);
	return v;
}

int sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs) {
	if (!capturing())
		return real_sqlite3_open_v2 ? real_sqlite3_open_v2(filename, ppDb, flags, zVfs) : 21 /* SQLITE_MISUSE */;
	const char *v = vfs_for(zVfs);
	int64_t t = now();
	depth++;
	int rc = real_sqlite3_open_v2(filename, ppDb, flags, v);
	depth--;
	opened(*ppDb, flags, rc, t, v != zVfs);
	return rc;
}

int sqlite3_open(const char *filename, sqlite3 **ppDb) {
	return sqlite3_open_v2(filename, ppDb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
}

int sqlite3_open16(const void *filename, sqlite3 **ppDb) {
	if (!capturing())
		return real_sqlite3_open16 ? real_sqlite3_open16(filename, ppDb) : 21;
	int64_t t = now();
	depth++;
	int rc = real_sqlite3_open16(filename, ppDb);
	depth--;
	opened(*ppDb, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, rc, t, 0);
	return rc;
}

int sqlite3_close(sqlite3 *db) {
	resolve();
	int rc = real_sqlite3_close(db);
	if (db && !disabled && depth == 0)
		closed(db, rc);
	return rc;
}

int sqlite3_close_v2(sqlite3 *db) {
	resolve();
	int rc = real_sqlite3_close_v2(db);
	if (db && !disabled && depth == 0)
		closed(db, rc);
	return rc;
}

/* prepared notes a statement prepared (a handle may be a freed one's). */
static void prepared(int rc, sqlite3_stmt **pp) {
	if (rc != SQLITE_OK || !pp || !*pp || depth > 0 || disabled)
		return;
	pthread_mutex_lock(&mu);
	drop_stmt(*pp);
	stmt *st = stmt_of(*pp, 1);
	if (st && in_exec > 0)
		exec_seen++;
	pthread_mutex_unlock(&mu);
}

#define PREPARE(name, chr, extra_decl, extra_arg)                                                               \
	int name(sqlite3 *db, const chr *sql, int n, extra_decl sqlite3_stmt **pp, const chr **tail) {             \
		resolve();                                                                                          \
		depth++; /* SQLite reads the schema with statements of its own */                                  \
		int rc = real_##name(db, sql, n, extra_arg pp, tail);                                               \
		depth--;                                                                                            \
		prepared(rc, pp);                                                                                   \
		return rc;                                                                                          \
	}
#define NONE
#define COMMA ,
PREPARE(sqlite3_prepare, char, NONE, NONE)
PREPARE(sqlite3_prepare_v2, char, NONE, NONE)
PREPARE(sqlite3_prepare_v3, char, unsigned f COMMA, f COMMA)
PREPARE(sqlite3_prepare16, void, NONE, NONE)
PREPARE(sqlite3_prepare16_v2, void, NONE, NONE)
PREPARE(sqlite3_prepare16_v3, void, unsigned f COMMA, f COMMA)

/* bound keeps a parameter's value once SQLite took it. */
#define BIND_BEGIN(call)                                                   \
	resolve();                                                         \
	int rc = call;                                                     \
	if (rc != SQLITE_OK || depth > 0 || disabled || !s)                \
		return rc;                                                 \
	pthread_mutex_lock(&mu);                                           \
	stmt *st = stmt_of(s, 1);                                          \
	value *v = st ? param(st, i) : NULL;                               \
	if (v) {
#define BIND_END                                                           \
	}                                                                  \
	pthread_mutex_unlock(&mu);                                         \
	return rc;

int sqlite3_bind_int(sqlite3_stmt *s, int i, int x) {
	BIND_BEGIN(real_sqlite3_bind_int(s, i, x))
	v->type = V_INT;
	v->i = x;
	BIND_END
}
int sqlite3_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 x) {
	BIND_BEGIN(real_sqlite3_bind_int64(s, i, x))
	v->type = V_INT;
	v->i = x;
	BIND_END
}
int sqlite3_bind_double(sqlite3_stmt *s, int i, double x) {
	BIND_BEGIN(real_sqlite3_bind_double(s, i, x))
	v->type = V_FLOAT;
	v->f = x;
	BIND_END
}
int sqlite3_bind_null(sqlite3_stmt *s, int i) {
	BIND_BEGIN(real_sqlite3_bind_null(s, i))
	v->type = V_NULL;
	BIND_END
}
int sqlite3_bind_text(sqlite3_stmt *s, int i, const char *p, int n, void (*d)(void *)) {
	BIND_BEGIN(real_sqlite3_bind_text(s, i, p, n, d))
	if (p)
		keep_bytes(v, V_TEXT, p, n < 0 ? strlen(p) : (size_t)n);
	BIND_END
}
int sqlite3_bind_text64(sqlite3_stmt *s, int i, const char *p, sqlite3_uint64 n, void (*d)(void *), unsigned char enc) {
	BIND_BEGIN(real_sqlite3_bind_text64(s, i, p, n, d, enc))
	if (p && enc == SQLITE_UTF8)
		keep_bytes(v, V_TEXT, p, (size_t)n);
	else if (p)
		keep_utf16(v, (const unsigned char *)p, (size_t)n, enc);
	BIND_END
}
int sqlite3_bind_text16(sqlite3_stmt *s, int i, const void *p, int n, void (*d)(void *)) {
	BIND_BEGIN(real_sqlite3_bind_text16(s, i, p, n, d))
	if (p) {
		size_t len = 0;
		if (n < 0)
			while (((const unsigned char *)p)[len] || ((const unsigned char *)p)[len + 1])
				len += 2;
		keep_utf16(v, p, n < 0 ? len : (size_t)n, SQLITE_UTF16);
	}
	BIND_END
}
int sqlite3_bind_blob(sqlite3_stmt *s, int i, const void *p, int n, void (*d)(void *)) {
	BIND_BEGIN(real_sqlite3_bind_blob(s, i, p, n, d))
	if (p)
		keep_bytes(v, V_BLOB, p, n < 0 ? 0 : (size_t)n);
	BIND_END
}
int sqlite3_bind_blob64(sqlite3_stmt *s, int i, const void *p, sqlite3_uint64 n, void (*d)(void *)) {
	BIND_BEGIN(real_sqlite3_bind_blob64(s, i, p, n, d))
	if (p)
		keep_bytes(v, V_BLOB, p, (size_t)n);
	BIND_END
}
int sqlite3_bind_zeroblob(sqlite3_stmt *s, int i, int n) {
	BIND_BEGIN(real_sqlite3_bind_zeroblob(s, i, n))
	v->type = V_ZEROBLOB;
	v->i = n < 0 ? 0 : n;
	BIND_END
}
int sqlite3_bind_zeroblob64(sqlite3_stmt *s, int i, sqlite3_uint64 n) {
	BIND_BEGIN(real_sqlite3_bind_zeroblob64(s, i, n))
	v->type = V_ZEROBLOB;
	v->i = n > 0x7fffffff ? 0x7fffffff : (int64_t)n;
	BIND_END
}
int sqlite3_bind_pointer(sqlite3_stmt *s, int i, void *p, const char *t, void (*d)(void *)) {
	BIND_BEGIN(real_sqlite3_bind_pointer(s, i, p, t, d))
	v->type = V_NULL; /* a pointer cannot be replayed: SQL sees it as NULL */
	BIND_END
}
int sqlite3_bind_value(sqlite3_stmt *s, int i, const sqlite3_value *x) {
	BIND_BEGIN(real_sqlite3_bind_value(s, i, x))
	sqlite3_value *y = (sqlite3_value *)x;
	switch (real_sqlite3_value_type(y)) {
	case SQLITE_INTEGER:
		v->type = V_INT;
		v->i = real_sqlite3_value_int64(y);
		break;
	case SQLITE_FLOAT:
		v->type = V_FLOAT;
		v->f = real_sqlite3_value_double(y);
		break;
	case SQLITE_TEXT: {
		const unsigned char *p = real_sqlite3_value_text(y);
		keep_bytes(v, V_TEXT, p, (size_t)real_sqlite3_value_bytes(y));
		break;
	}
	case SQLITE_BLOB: {
		const void *p = real_sqlite3_value_blob(y);
		keep_bytes(v, V_BLOB, p, (size_t)real_sqlite3_value_bytes(y));
		break;
	}
	}
	BIND_END
}

int sqlite3_clear_bindings(sqlite3_stmt *s) {
	resolve();
	int rc = real_sqlite3_clear_bindings(s);
	if (depth > 0 || disabled)
		return rc;
	pthread_mutex_lock(&mu);
	stmt *st = stmt_of(s, 0);
	if (st)
		for (int i = 0; i < st->nparams; i++)
			free_value(&st->params[i]);
	pthread_mutex_unlock(&mu);
	return rc;
}

int sqlite3_step(sqlite3_stmt *s) {
	if (!capturing() || !s)
		return real_sqlite3_step ? real_sqlite3_step(s) : 21;
	pthread_mutex_lock(&mu);
	stmt *st = stmt_of(s, 1);
	if (st && !st->running)
		begin_exec(st);
	pthread_mutex_unlock(&mu);
	int64_t t0 = now();
	depth++;
	int rc = real_sqlite3_step(s);
	depth--;
	int64_t t1 = now();
	if (!st)
		return rc;
	uint64_t row = rc == SQLITE_ROW ? row_hash(s) : 0;
	pthread_mutex_lock(&mu);
	st->insql += t1 - t0;
	st->end = t1;
	if (rc == SQLITE_ROW) {
		st->rows++;
		st->dig_u += row;
		st->dig_o = (st->dig_o ^ row) * FNV_PRIME;
	} else
		end_exec(st, rc);
	pthread_mutex_unlock(&mu);
	return rc;
}

int sqlite3_reset(sqlite3_stmt *s) {
	resolve();
	if (s && depth == 0 && !disabled) {
		pthread_mutex_lock(&mu);
		stmt *st = stmt_of(s, 0);
		if (st && st->running)
			end_exec(st, SQLITE_ROW); /* stopped before its end */
		pthread_mutex_unlock(&mu);
	}
	return real_sqlite3_reset(s);
}

int sqlite3_finalize(sqlite3_stmt *s) {
	resolve();
	if (s && depth == 0 && !disabled) {
		pthread_mutex_lock(&mu);
		stmt *st = stmt_of(s, 0);
		if (st && st->running)
			end_exec(st, SQLITE_ROW);
		drop_stmt(s);
		pthread_mutex_unlock(&mu);
	}
	return real_sqlite3_finalize(s);
}

/* sqlite3_exec: where SQLite's own calls come through this library (its
 * library binds them to the first definition, this one), its statements
 * are recorded one by one, as the program's; otherwise the whole text is
 * recorded as one execution that may hold several statements. */
int sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg, char **errmsg) {
	if (!capturing())
		return real_sqlite3_exec ? real_sqlite3_exec(db, sql, cb, arg, errmsg) : 21;
	unsigned long seen = exec_seen;
	int64_t t0 = now();
	int ac = real_sqlite3_get_autocommit(db);
	in_exec++;
	int rc = real_sqlite3_exec(db, sql, cb, arg, errmsg);
	in_exec--;
	int64_t t1 = now();
	if (exec_seen != seen || !sql)
		return rc;
	pthread_mutex_lock(&mu);
	conn *c = conn_of(db);
	if (c && open_part()) {
		conn_here(c);
		size_t n = strlen(sql);
		uint64_t id = define_text(sql, n > MAX_TEXT ? MAX_TEXT : n);
		int flags = F_EXEC | F_MULTI | (ac ? F_AC_BEFORE : 0) | (real_sqlite3_get_autocommit(db) ? F_AC_AFTER : 0) |
		            (rc == SQLITE_OK ? F_DONE : 0) | (n > MAX_TEXT ? F_CUT : 0);
		put_byte(&records, K_EXEC);
		put_u(&records, c->id);
		put_u(&records, thread_id());
		put_u(&records, id);
		put_i(&records, t0 - last_start);
		last_start = t0;
		put_u(&records, (uint64_t)(t1 - t0));
		put_u(&records, (uint64_t)(t1 - t0));
		put_u(&records, rc == SQLITE_OK ? 0 : (uint64_t)real_sqlite3_extended_errcode(db));
		put_u(&records, (uint64_t)flags);
		put_u(&records, 0);
		put_u(&records, 0);
		put_u(&records, 0);
		put_state(S_NONE, 0, 0, 0);
		put_state(S_NONE, 0, 0, 0);
		put_u(&records, 0);
		record_done();
	}
	pthread_mutex_unlock(&mu);
	return rc;
}

/* ---- the process's life ---- */

static void before_fork(void) { pthread_mutex_lock(&mu); }
static void after_fork_parent(void) { pthread_mutex_unlock(&mu); }

/* after_fork_child: the child writes a part of its own; the parent's
 * pending records stay the parent's, and the texts, databases and
 * connections the child's part refers to are written to it anew. */
static void after_fork_child(void) {
	if (part_fd >= 0)
		close(part_fd);
	part_fd = -1;
	if (tail)
		munmap(tail, TAIL_HEADER + TAIL_CAP); /* the parent's */
	tail = NULL;
	tail_n = 0;
	records.n = 0;
	last_start = 0;
	forget_texts();
	for (dbinfo *d = dbs; d; d = d->next)
		d->written = 0;
	for (int b = 0; b < NBUCKETS; b++)
		for (conn *c = conns[b]; c; c = c->next)
			c->opened_here = 0;
	pthread_mutex_unlock(&mu);
}

__attribute__((constructor)) static void init(void) {
	crc_init();
	capdir = getenv("GOBENCH_CAPTURE_DIR");
	if (!capdir || !capdir[0])
		disabled = 1;
	pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

__attribute__((destructor)) static void fini(void) {
	pthread_mutex_lock(&mu);
	if (part_pid == getpid()) {
		flush_locked();
		if (part_fd >= 0 && !disabled)
			tail_word(3, 2);
	}
	pthread_mutex_unlock(&mu);
}
