//go:build cgo

/*
 * The shim: each op in one call from Go. Every function returns SQLite's
 * (extended) result code, SQLITE_OK when all went well, or one of the
 * shim's own negative codes (capi.h).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "capi.h"
#include "_cgo_export.h"

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * busy waits for a lock as SQLite's own busy_timeout handler does on Unix
 * (sqliteDefaultBusyCallback: sleeps of 1, 2, 5 … 100 ms until the timeout
 * is used up), and counts its calls and the time the lock event waited.
 */
static int busy(void *arg, int count) {
	static const unsigned char delays[] = {1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100};
	static const unsigned char totals[] = {0, 1, 3, 8, 18, 33, 53, 78, 103, 128, 178, 228};
	enum { NDELAY = sizeof delays / sizeof delays[0] };
	gb_conn *c = arg;
	long long t = now_ns();
	int delay, prior;
	if (count == 0) {
		c->wait_ns += c->event_ns;
		c->event_start = t;
		c->event_ns = 0;
	}
	c->calls++;
	if (__atomic_load_n(&c->interrupted, __ATOMIC_RELAXED)) {
		c->event_ns = t - c->event_start;
		return 0; /* interrupted: the wait ends, the step fails busy */
	}
	if (count < NDELAY) {
		delay = delays[count];
		prior = totals[count];
	} else {
		delay = delays[NDELAY - 1];
		prior = totals[NDELAY - 1] + delay * (count - (NDELAY - 1));
	}
	if (prior + delay > c->timeout_ms) {
		delay = c->timeout_ms - prior;
		if (delay <= 0) {
			c->event_ns = t - c->event_start;
			return 0;
		}
	}
	sqlite3_sleep(delay);
	c->event_ns = now_ns() - c->event_start;
	return 1;
}

int gb_open(const char *dsn, gb_conn **out) {
	gb_conn *c = calloc(1, sizeof *c);
	int rc;
	if (c == NULL) return 7; /* SQLITE_NOMEM */
	rc = sqlite3_open_v2(dsn, &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
	if (c->db != NULL) sqlite3_extended_result_codes(c->db, 1);
	*out = c;
	return rc;
}

void gb_set_busy_timeout(gb_conn *c, int ms) {
	c->timeout_ms = ms;
	sqlite3_busy_handler(c->db, ms > 0 ? busy : NULL, c);
}

/*
 * authorize is the connection's authorizer: it hands SQLite's action and
 * its first two arguments to the Go function behind the handle in arg
 * (Conn.SetAuthorizer).
 */
static int authorize(void *arg, int action, const char *a1, const char *a2, const char *db, const char *inner) {
	(void)db;
	(void)inner;
	return gbAuthorize((uintptr_t)arg, action, (char *)a1, (char *)a2);
}

/* gb_set_authorizer installs authorize with handle h; 0 removes it. */
int gb_set_authorizer(gb_conn *c, uintptr_t h) {
	return sqlite3_set_authorizer(c->db, h != 0 ? authorize : NULL, (void *)h);
}

/* progress fails the statement under way once the connection is interrupted. */
static int progress(void *arg) {
	gb_conn *c = arg;
	return __atomic_load_n(&c->interrupted, __ATOMIC_RELAXED);
}

/*
 * gb_interruptible clears the interrupt and, on, installs the progress
 * handler that makes it stop a statement (every 1000 VM steps: it catches
 * a statement that began after sqlite3_interrupt, which SQLite forgets
 * when no statement runs); off removes it.
 */
void gb_interruptible(gb_conn *c, int on) {
	__atomic_store_n(&c->interrupted, 0, __ATOMIC_RELAXED);
	sqlite3_progress_handler(c->db, on ? 1000 : 0, on ? progress : NULL, c);
}

/* gb_interrupt interrupts the connection; it may run on any thread. */
void gb_interrupt(gb_conn *c) {
	__atomic_store_n(&c->interrupted, 1, __ATOMIC_RELAXED);
	sqlite3_interrupt(c->db);
}

int gb_close(gb_conn *c) {
	int rc;
	gb_blob_release(c);
	rc = sqlite3_close_v2(c->db);
	free(c);
	return rc;
}

/* gb_exec steps a statement that returns no row (BEGIN, COMMIT …) and resets it. */
static gb_res exec_(sqlite3_stmt *s) {
	gb_res r = {sqlite3_step(s), 0, 0};
	int rrc = sqlite3_reset(s);
	if (r.rc == SQLITE_DONE || r.rc == SQLITE_ROW) r.rc = rrc;
	return r;
}

/*
 * gb_get binds key, steps, and copies column col of the row into dst; n is
 * the value's size. With no row the result is GB_NOROW. When the value is
 * larger than cap, the statement is left on its row and GB_GROW returned:
 * gb_copy_reset finishes.
 */
static gb_res get_(sqlite3_stmt *s, sqlite3_int64 key, int col, void *dst, int cap) {
	gb_res r = {sqlite3_bind_int64(s, 1, key), 0, 0};
	int rc;
	if (r.rc != SQLITE_OK) return r;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const void *p = sqlite3_column_blob(s, col);
		r.n = sqlite3_column_bytes(s, col);
		if (r.n > cap) {
			r.rc = GB_GROW;
			return r;
		}
		if (r.n > 0) memcpy(dst, p, r.n);
		r.rc = sqlite3_reset(s);
		return r;
	}
	r.rc = sqlite3_reset(s);
	if (rc != SQLITE_DONE) r.rc = rc;
	else if (r.rc == SQLITE_OK) r.rc = GB_NOROW;
	return r;
}

int gb_copy_reset(sqlite3_stmt *s, int col, void *dst, int n) {
	const void *p = sqlite3_column_blob(s, col);
	if (n > 0 && p != NULL) memcpy(dst, p, n);
	return sqlite3_reset(s);
}

/*
 * gb_write binds key and value in the statement's order, steps it to the
 * end, resets it and clears its bindings (the value is the caller's
 * memory, bound without a copy); n is sqlite3_changes.
 */
static gb_res write_(gb_conn *c, sqlite3_stmt *s, int order, sqlite3_int64 key, const void *v, int n) {
	int kat = order == GB_VALUE_KEY ? 2 : 1, vat = order == GB_VALUE_KEY ? 1 : 2, rrc;
	gb_res r = {sqlite3_bind_int64(s, kat, key), 0, 0};
	if (r.rc == SQLITE_OK && order != GB_KEY) {
		r.rc = n > 0 ? sqlite3_bind_blob(s, vat, v, n, SQLITE_STATIC) : sqlite3_bind_zeroblob(s, vat, 0);
	}
	if (r.rc == SQLITE_OK) {
		r.rc = sqlite3_step(s);
		if (r.rc == SQLITE_DONE || r.rc == SQLITE_ROW) r.rc = SQLITE_OK;
	}
	rrc = sqlite3_reset(s);
	if (r.rc == SQLITE_OK) r.rc = rrc;
	sqlite3_clear_bindings(s);
	r.n = sqlite3_changes(c->db);
	return r;
}

/* gb_scan reads up to n rows from the first key at or above from; n is the rows read. */
static gb_res scan_(sqlite3_stmt *s, sqlite3_int64 from, int n) {
	gb_res r = {sqlite3_bind_int64(s, 1, from), 0, 0};
	int rc, rrc;
	if (r.rc == SQLITE_OK) r.rc = sqlite3_bind_int64(s, 2, n);
	if (r.rc != SQLITE_OK) return r;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		(void)sqlite3_column_blob(s, 1);
		r.n++;
	}
	rrc = sqlite3_reset(s);
	r.rc = rc == SQLITE_DONE ? rrc : rc;
	return r;
}

/* gb_run steps a bound statement to its end, counting rows, resets it and clears its bindings. */
static gb_res run_(sqlite3_stmt *s) {
	gb_res r = {SQLITE_OK, 0, 0};
	int rc, rrc;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) r.n++;
	rrc = sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	r.rc = rc == SQLITE_DONE ? rrc : rc;
	return r;
}

/* open_blob opens kv.v of key; SQLite says a missing row with a plain SQLITE_ERROR. */
static int open_blob(gb_conn *c, sqlite3_int64 key, int write, sqlite3_blob **b) {
	int rc = sqlite3_blob_open(c->db, "main", "kv", "v", key, write, b);
	if (rc == SQLITE_ERROR && strstr(sqlite3_errmsg(c->db), "no such rowid") != NULL) return GB_NOROW;
	return rc;
}

/* gb_blob_read reads key's value with incremental blob I/O; n is its size (GB_GROW as gb_get). */
static gb_res blob_read_(gb_conn *c, sqlite3_int64 key, void *dst, int cap) {
	sqlite3_blob *b;
	gb_res r = {open_blob(c, key, 0, &b), 0, 0};
	int crc;
	if (r.rc != SQLITE_OK) return r;
	r.n = sqlite3_blob_bytes(b);
	r.rc = r.n > cap ? GB_GROW : (r.n > 0 ? sqlite3_blob_read(b, dst, (int)r.n, 0) : SQLITE_OK);
	crc = sqlite3_blob_close(b);
	if (r.rc == SQLITE_OK) r.rc = crc;
	return r;
}

/* gb_blob_write overwrites key's value in place; it must keep its size, n. */
static gb_res blob_write_(gb_conn *c, sqlite3_int64 key, const void *v, int n) {
	sqlite3_blob *b;
	gb_res r = {open_blob(c, key, 1, &b), 0, 0};
	int crc;
	if (r.rc != SQLITE_OK) return r;
	r.n = sqlite3_blob_bytes(b);
	r.rc = r.n != n ? GB_RESIZE : (n > 0 ? sqlite3_blob_write(b, v, n, 0) : SQLITE_OK);
	crc = sqlite3_blob_close(b);
	if (r.rc == SQLITE_OK) r.rc = crc;
	return r;
}

/*
 * The held handle: kvtest's way through a pass in one transaction, one
 * sqlite3_blob_open and then sqlite3_blob_reopen for each further key. The
 * caller releases it before the transaction ends.
 */
void gb_blob_release(gb_conn *c) {
	if (c->held != NULL) sqlite3_blob_close(c->held);
	c->held = NULL;
}

/* hold points *b at a handle on key's value, reopened when one is held. */
static int hold(gb_conn *c, sqlite3_int64 key, int write, sqlite3_blob **b) {
	int rc;
	if (c->held != NULL && c->held_rw == write) {
		rc = sqlite3_blob_reopen(c->held, key);
		if (rc == SQLITE_OK) {
			*b = c->held;
			return rc;
		}
		gb_blob_release(c); /* an error leaves the handle aborted */
		if (rc == SQLITE_ERROR && strstr(sqlite3_errmsg(c->db), "no such rowid") != NULL) return GB_NOROW;
		return rc;
	}
	gb_blob_release(c);
	rc = open_blob(c, key, write, b);
	if (rc == SQLITE_OK) {
		c->held = *b;
		c->held_rw = write;
	}
	return rc;
}

static gb_res blob_read_held_(gb_conn *c, sqlite3_int64 key, void *dst, int cap) {
	sqlite3_blob *b;
	gb_res r = {hold(c, key, 0, &b), 0, 0};
	if (r.rc != SQLITE_OK) return r;
	r.n = sqlite3_blob_bytes(b);
	r.rc = r.n > cap ? GB_GROW : (r.n > 0 ? sqlite3_blob_read(b, dst, (int)r.n, 0) : SQLITE_OK);
	return r;
}

static gb_res blob_write_held_(gb_conn *c, sqlite3_int64 key, const void *v, int n) {
	sqlite3_blob *b;
	gb_res r = {hold(c, key, 1, &b), 0, 0};
	if (r.rc != SQLITE_OK) return r;
	r.n = sqlite3_blob_bytes(b);
	r.rc = r.n != n ? GB_RESIZE : (n > 0 ? sqlite3_blob_write(b, v, n, 0) : SQLITE_OK);
	return r;
}

#define SQLITE_TRANSIENT ((void (*)(void *))-1)

/* gb_bind_text and gb_bind_blob bind a copy of the caller's bytes. */
int gb_bind_text(sqlite3_stmt *s, int i, const char *v, int n) {
	return sqlite3_bind_text(s, i, n > 0 ? v : "", n, SQLITE_TRANSIENT);
}

int gb_bind_blob(sqlite3_stmt *s, int i, const void *v, int n) {
	return n > 0 ? sqlite3_bind_blob(s, i, v, n, SQLITE_TRANSIENT) : sqlite3_bind_zeroblob(s, i, 0);
}

/* gb_row_hash hashes the row a step returned, as package sqltrace's
 * RowHash does (and gobench capture's library): FNV-1a over each column's
 * type and value, as SQLite holds it, mixed by splitmix64's finaliser. */
#define GB_FNV_PRIME 1099511628211ULL
static uint64_t fnv_byte(uint64_t h, unsigned char c) { return (h ^ c) * GB_FNV_PRIME; }
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

uint64_t gb_row_hash(sqlite3_stmt *s) {
	uint64_t h = 14695981039346656037ULL;
	int n = sqlite3_column_count(s);
	for (int i = 0; i < n; i++) {
		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			h = fnv_u64(fnv_byte(h, 1), (uint64_t)sqlite3_column_int64(s, i));
			break;
		case SQLITE_FLOAT: {
			double d = sqlite3_column_double(s, i);
			uint64_t u;
			memcpy(&u, &d, 8);
			h = fnv_u64(fnv_byte(h, 2), u);
			break;
		}
		case SQLITE_TEXT: {
			const unsigned char *p = sqlite3_column_text(s, i);
			h = fnv_bytes(h, 3, p, p ? sqlite3_column_bytes(s, i) : 0);
			break;
		}
		case SQLITE_BLOB: {
			const unsigned char *p = sqlite3_column_blob(s, i);
			h = fnv_bytes(h, 4, p, p ? sqlite3_column_bytes(s, i) : 0);
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

/* The exported calls: each op, and the autocommit state it left. */
static gb_res done(sqlite3 *db, gb_res r) {
	r.ac = sqlite3_get_autocommit(db);
	return r;
}

gb_res gb_exec(sqlite3_stmt *s) { return done(sqlite3_db_handle(s), exec_(s)); }

gb_res gb_get(sqlite3_stmt *s, sqlite3_int64 key, int col, void *dst, int cap) {
	return done(sqlite3_db_handle(s), get_(s, key, col, dst, cap));
}

gb_res gb_write(gb_conn *c, sqlite3_stmt *s, int order, sqlite3_int64 key, const void *v, int n) {
	return done(c->db, write_(c, s, order, key, v, n));
}

gb_res gb_scan(sqlite3_stmt *s, sqlite3_int64 from, int n) { return done(sqlite3_db_handle(s), scan_(s, from, n)); }

gb_res gb_run(sqlite3_stmt *s) { return done(sqlite3_db_handle(s), run_(s)); }

gb_res gb_blob_read(gb_conn *c, sqlite3_int64 key, void *dst, int cap) { return done(c->db, blob_read_(c, key, dst, cap)); }

gb_res gb_blob_write(gb_conn *c, sqlite3_int64 key, const void *v, int n) { return done(c->db, blob_write_(c, key, v, n)); }

gb_res gb_blob_read_held(gb_conn *c, sqlite3_int64 key, void *dst, int cap) { return done(c->db, blob_read_held_(c, key, dst, cap)); }

gb_res gb_blob_write_held(gb_conn *c, sqlite3_int64 key, const void *v, int n) { return done(c->db, blob_write_held_(c, key, v, n)); }

/*
 * gb_loop runs n ops in one call: a read as gb_get does (into dst), an
 * upsert of values[i*vlen ...] as its own BEGIN IMMEDIATE … COMMIT, rolled
 * back if any step failed, each timed on CLOCK_MONOTONIC around the op
 * alone, with the busy handler's calls and waits during it (and during its
 * BEGIN and COMMIT) and the step a failed upsert failed at. It stops after
 * the first op that failed other than with no row; n is the ops run, rc
 * the failed op's code.
 */
gb_res gb_loop(gb_conn *c, sqlite3_stmt *get, sqlite3_stmt *put, sqlite3_stmt *begin, sqlite3_stmt *commit,
               sqlite3_stmt *rollback, gb_op *ops, int n, const unsigned char *values, int vlen, void *dst, int cap) {
	gb_res r = {SQLITE_OK, 0, 0};
	for (int i = 0; i < n; i++) {
		gb_op *o = &ops[i];
		long long calls = c->calls, wait = c->wait_ns + c->event_ns, before;
		int rc;
		o->busy_begin = o->busy_commit = 0;
		o->step = GB_STEP_NONE;
		o->t0 = now_ns();
		if (o->kind == GB_OP_READ) {
			rc = get_(get, o->key, 1, dst, cap).rc;
			if (rc == GB_GROW) rc = gb_copy_reset(get, 1, dst, 0) == SQLITE_OK ? GB_GROW : SQLITE_ERROR;
		} else {
			before = c->calls;
			rc = exec_(begin).rc;
			o->busy_begin = (int)(c->calls - before);
			if (rc != SQLITE_OK) {
				o->step = GB_STEP_BEGIN;
			} else if ((rc = write_(c, put, GB_KEY_VALUE, o->key, values + (size_t)i * vlen, vlen).rc) != SQLITE_OK) {
				o->step = GB_STEP_WRITE;
			} else {
				before = c->calls;
				rc = exec_(commit).rc;
				o->busy_commit = (int)(c->calls - before);
				if (rc != SQLITE_OK) o->step = GB_STEP_COMMIT;
			}
			if (rc != SQLITE_OK && !sqlite3_get_autocommit(c->db)) exec_(rollback);
		}
		o->t1 = now_ns();
		o->rc = rc;
		o->calls = c->calls - calls;
		o->wait_ns = c->wait_ns + c->event_ns - wait;
		r.n = i + 1;
		if (rc != SQLITE_OK && rc != GB_NOROW) {
			r.rc = rc;
			break;
		}
	}
	return done(c->db, r);
}
