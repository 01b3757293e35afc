/*
 * The part of SQLite's C API that gobench's reference engine calls, and its
 * shim. The sqlite3_* functions are not compiled here: they are the ones
 * github.com/mattn/go-sqlite3 compiles into the binary (one SQLite, same
 * version, same compile options). Their prototypes are copied from
 * sqlite3.h, which that package does not export to others.
 */
#ifndef GOBENCH_CAPI_H
#define GOBENCH_CAPI_H

#include <stdint.h>

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
typedef struct sqlite3_blob sqlite3_blob;
typedef long long int sqlite3_int64;

#define SQLITE_OK 0
#define SQLITE_ERROR 1
#define SQLITE_ROW 100
#define SQLITE_DONE 101
#define SQLITE_OPEN_READWRITE 0x00000002
#define SQLITE_OPEN_CREATE 0x00000004
#define SQLITE_OPEN_URI 0x00000040
#define SQLITE_OPEN_NOMUTEX 0x00008000
#define SQLITE_STATIC ((void (*)(void *))0)
#define SQLITE_INTEGER 1
#define SQLITE_FLOAT 2
#define SQLITE_TEXT 3
#define SQLITE_BLOB 4
#define SQLITE_NULL 5

int sqlite3_open_v2(const char *filename, sqlite3 **ppDb, int flags, const char *zVfs);
int sqlite3_close_v2(sqlite3 *);
int sqlite3_extended_result_codes(sqlite3 *, int onoff);
int sqlite3_setlk_timeout(sqlite3 *, int ms, int flags);
int sqlite3_compileoption_used(const char *zOptName);
int sqlite3_prepare_v2(sqlite3 *db, const char *zSql, int nByte, sqlite3_stmt **ppStmt, const char **pzTail);
int sqlite3_step(sqlite3_stmt *);
int sqlite3_reset(sqlite3_stmt *pStmt);
int sqlite3_clear_bindings(sqlite3_stmt *);
int sqlite3_finalize(sqlite3_stmt *pStmt);
int sqlite3_bind_int64(sqlite3_stmt *, int, sqlite3_int64);
int sqlite3_bind_blob(sqlite3_stmt *, int, const void *, int n, void (*)(void *));
int sqlite3_bind_zeroblob(sqlite3_stmt *, int, int n);
int sqlite3_bind_text(sqlite3_stmt *, int, const char *, int, void (*)(void *));
int sqlite3_bind_double(sqlite3_stmt *, int, double);
int sqlite3_bind_null(sqlite3_stmt *, int);
int sqlite3_bind_parameter_count(sqlite3_stmt *);
int sqlite3_bind_parameter_index(sqlite3_stmt *, const char *zName);
int sqlite3_column_count(sqlite3_stmt *pStmt);
int sqlite3_column_type(sqlite3_stmt *, int iCol);
sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *, int iCol);
double sqlite3_column_double(sqlite3_stmt *, int iCol);
const void *sqlite3_column_blob(sqlite3_stmt *, int iCol);
int sqlite3_column_bytes(sqlite3_stmt *, int iCol);
const unsigned char *sqlite3_column_text(sqlite3_stmt *, int iCol);
int sqlite3_changes(sqlite3 *);
const char *sqlite3_errmsg(sqlite3 *);
int sqlite3_extended_errcode(sqlite3 *db);
int sqlite3_get_autocommit(sqlite3 *);
sqlite3 *sqlite3_db_handle(sqlite3_stmt *);
int sqlite3_busy_handler(sqlite3 *, int (*)(void *, int), void *);
int sqlite3_sleep(int);
int sqlite3_exec(sqlite3 *, const char *sql, int (*callback)(void *, int, char **, char **), void *, char **errmsg);
int sqlite3_blob_open(sqlite3 *, const char *zDb, const char *zTable, const char *zColumn, sqlite3_int64 iRow, int flags, sqlite3_blob **ppBlob);
int sqlite3_blob_bytes(sqlite3_blob *);
int sqlite3_blob_read(sqlite3_blob *, void *Z, int N, int iOffset);
int sqlite3_blob_write(sqlite3_blob *, const void *z, int n, int iOffset);
int sqlite3_blob_close(sqlite3_blob *);
int sqlite3_blob_reopen(sqlite3_blob *, sqlite3_int64);
int sqlite3_set_authorizer(sqlite3 *, int (*)(void *, int, const char *, const char *, const char *, const char *), void *);
int sqlite3_limit(sqlite3 *, int id, int newVal);
void sqlite3_interrupt(sqlite3 *);
void sqlite3_progress_handler(sqlite3 *, int, int (*)(void *), void *);

/* The shim's own codes, outside SQLite's range. */
#define GB_GROW (-1)     /* the value is larger than the buffer: *n says how large */
#define GB_NOROW (-2)    /* no row has the key */
#define GB_RESIZE (-3)   /* blob I/O cannot change a value's size: *n is its size */

/* A connection and its busy handler's count. */
typedef struct gb_conn {
	sqlite3 *db;
	int timeout_ms;          /* the busy handler's limit */
	long long calls;         /* the busy handler's calls, ever */
	long long wait_ns;       /* time waited in finished lock events */
	long long event_start;   /* the lock event under way: its start */
	long long event_ns;      /* and the time it has waited */
	sqlite3_blob *held;      /* a blob handle kept open for sqlite3_blob_reopen */
	int held_rw;             /* and whether it was opened for writing */
	int interrupted;         /* set (atomically, from any thread) by gb_interrupt */
} gb_conn;

/*
 * A result code, the connection's autocommit state once the call is done
 * (so that asking it costs no second call into C) and a count, returned
 * by value: an out-parameter on Go's side would make Go allocate it on
 * the heap at every call.
 */
typedef struct gb_res {
	int rc;
	int ac;      /* sqlite3_get_autocommit after the call */
	long long n;
} gb_res;

/* The write statements' parameter orders. */
enum { GB_KEY_VALUE = 0, GB_VALUE_KEY = 1, GB_KEY = 2 };

int gb_open(const char *dsn, gb_conn **out);
void gb_set_busy_timeout(gb_conn *c, int ms);
void gb_interruptible(gb_conn *c, int on);
void gb_interrupt(gb_conn *c);
int gb_close(gb_conn *c);
gb_res gb_exec(sqlite3_stmt *s);
gb_res gb_get(sqlite3_stmt *s, sqlite3_int64 key, int col, void *dst, int cap);
int gb_copy_reset(sqlite3_stmt *s, int col, void *dst, int n);
gb_res gb_write(gb_conn *c, sqlite3_stmt *s, int order, sqlite3_int64 key, const void *v, int n);
gb_res gb_scan(sqlite3_stmt *s, sqlite3_int64 from, int n);
gb_res gb_run(sqlite3_stmt *s);
gb_res gb_blob_read(gb_conn *c, sqlite3_int64 key, void *dst, int cap);
gb_res gb_blob_write(gb_conn *c, sqlite3_int64 key, const void *v, int n);
gb_res gb_blob_read_held(gb_conn *c, sqlite3_int64 key, void *dst, int cap);
gb_res gb_blob_write_held(gb_conn *c, sqlite3_int64 key, const void *v, int n);
void gb_blob_release(gb_conn *c);
int gb_bind_text(sqlite3_stmt *s, int i, const char *v, int n);
uint64_t gb_row_hash(sqlite3_stmt *s);
int gb_set_authorizer(gb_conn *c, uintptr_t h);
int gb_bind_blob(sqlite3_stmt *s, int i, const void *v, int n);

/* Record tables (records.c). */
gb_res gb_rec_read(sqlite3_stmt *s, const char *key, int klen, int first, int ncols, void *dst, int cap, int *lens);
gb_res gb_rec_write(gb_conn *c, sqlite3_stmt *s, const char *key, int klen, int keyat, const void *buf, const int *lens, int n, int first);
gb_res gb_rec_scan(sqlite3_stmt *s, const char *key, int klen, int limit, int first, int ncols, void *dst, long long cap, int *lens, long long *need);

/*
 * A loop of ops run in C (gb_loop): the op, and once it ran, its result
 * code and the CLOCK_MONOTONIC instants it began and ended.
 */
typedef struct gb_op {
	sqlite3_int64 key;
	int kind;          /* GB_OP_READ or GB_OP_UPSERT */
	int rc;            /* SQLITE_OK, GB_NOROW or the failure's code */
	long long t0, t1;  /* when the op began and ended */
	long long calls;   /* the busy handler's calls during the op */
	long long wait_ns; /* and the time its lock events waited */
	int busy_begin;    /* the busy handler's calls during BEGIN */
	int busy_commit;   /* and during COMMIT */
	int step;          /* the step a failed op failed at (GB_STEP_*) */
	int pad_;
} gb_op;

enum { GB_OP_READ = 0, GB_OP_UPSERT = 1 };
enum { GB_STEP_NONE = 0, GB_STEP_BEGIN = 1, GB_STEP_WRITE = 2, GB_STEP_COMMIT = 3 };

gb_res gb_loop(gb_conn *c, sqlite3_stmt *get, sqlite3_stmt *put, sqlite3_stmt *begin, sqlite3_stmt *commit,
               sqlite3_stmt *rollback, gb_op *ops, int n, const unsigned char *values, int vlen, void *dst, int cap);

#endif
