//go:build cgo

/*
 * The shim's record calls: the operations of a record table (text keys,
 * text fields, as YCSB's JDBC binding has them), each in one call from Go.
 * Keys and values are the caller's memory, bound without a copy and
 * unbound before the call returns.
 */
#include <string.h>

#include "capi.h"

/* bind_text binds n bytes at v (the caller's memory) to parameter i. */
static int bind_text(sqlite3_stmt *s, int i, const char *v, int n) {
	return sqlite3_bind_text(s, i, n > 0 ? v : "", n, SQLITE_STATIC);
}

/*
 * copy_row copies columns first to first+ncols-1 of the current row, end to
 * end, into dst when they fit in cap bytes, and each one's size into lens;
 * it returns their total size.
 */
static long long copy_row(sqlite3_stmt *s, int first, int ncols, char *dst, long long cap, int *lens) {
	long long total = 0;
	int i, n;
	const unsigned char *p;
	for (i = 0; i < ncols; i++) {
		p = sqlite3_column_text(s, first + i);
		n = sqlite3_column_bytes(s, first + i);
		lens[i] = n;
		if (dst != NULL && total + n <= cap && n > 0) memcpy(dst + total, p, n);
		total += n;
	}
	return total;
}

/*
 * rec_read binds the key to ?1, steps, and copies the row's columns first
 * to first+ncols-1 into dst; n is their total size. No row is GB_NOROW; a
 * row larger than cap is GB_GROW (n says how large), the statement reset.
 */
static gb_res rec_read_(sqlite3_stmt *s, const char *key, int klen, int first, int ncols, char *dst, int cap, int *lens) {
	gb_res r = {bind_text(s, 1, key, klen), 0, 0};
	int rc;
	if (r.rc == SQLITE_OK) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW) {
			r.n = copy_row(s, first, ncols, dst, cap, lens);
			r.rc = sqlite3_reset(s);
			if (r.rc == SQLITE_OK && r.n > cap) r.rc = GB_GROW;
		} else {
			r.rc = sqlite3_reset(s);
			if (rc != SQLITE_DONE) r.rc = rc;
			else if (r.rc == SQLITE_OK) r.rc = GB_NOROW;
		}
	}
	sqlite3_clear_bindings(s);
	return r;
}

/*
 * rec_write binds the key to ?keyat and n values (laid end to end in buf,
 * their sizes in lens) to ?first onwards, steps the statement to its end
 * and resets it; n is sqlite3_changes.
 */
static gb_res rec_write_(gb_conn *c, sqlite3_stmt *s, const char *key, int klen, int keyat, const char *buf, const int *lens, int n, int first) {
	gb_res r = {bind_text(s, keyat, key, klen), 0, 0};
	int i, rrc;
	long long off = 0;
	for (i = 0; i < n && r.rc == SQLITE_OK; i++) {
		r.rc = bind_text(s, first + i, buf + off, lens[i]);
		off += lens[i];
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

/*
 * rec_scan binds the key to ?1 and limit to ?2 and steps through the rows,
 * reading columns first to first+ncols-1 of each: copied end to end into
 * dst (sizes into lens, ncols per row) when dst is not NULL and all fits in
 * cap, else only read. n is the rows; with dst, GB_GROW when the rows did
 * not fit (lens[0] then holds nothing useful; the caller grows dst to at
 * least the size in *need and scans again).
 */
static gb_res rec_scan_(sqlite3_stmt *s, const char *key, int klen, int limit, int first, int ncols, char *dst, long long cap, int *lens, long long *need) {
	gb_res r = {bind_text(s, 1, key, klen), 0, 0};
	int rc, rrc, i;
	long long total = 0;
	if (r.rc == SQLITE_OK) r.rc = sqlite3_bind_int64(s, 2, limit);
	if (r.rc == SQLITE_OK) {
		while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
			if (dst != NULL) {
				total += copy_row(s, first, ncols, total <= cap ? dst + total : NULL, cap - total, lens + r.n * ncols);
			} else {
				for (i = 0; i < ncols; i++) {
					(void)sqlite3_column_text(s, first + i);
					(void)sqlite3_column_bytes(s, first + i);
				}
			}
			r.n++;
		}
		rrc = sqlite3_reset(s);
		r.rc = rc == SQLITE_DONE ? rrc : rc;
		if (r.rc == SQLITE_OK && dst != NULL && total > cap) r.rc = GB_GROW;
	}
	if (need != NULL) *need = total;
	sqlite3_clear_bindings(s);
	return r;
}

static gb_res done_(sqlite3 *db, gb_res r) {
	r.ac = sqlite3_get_autocommit(db);
	return r;
}

gb_res gb_rec_read(sqlite3_stmt *s, const char *key, int klen, int first, int ncols, void *dst, int cap, int *lens) {
	return done_(sqlite3_db_handle(s), rec_read_(s, key, klen, first, ncols, dst, cap, lens));
}

gb_res gb_rec_write(gb_conn *c, sqlite3_stmt *s, const char *key, int klen, int keyat, const void *buf, const int *lens, int n, int first) {
	return done_(c->db, rec_write_(c, s, key, klen, keyat, buf, lens, n, first));
}

gb_res gb_rec_scan(sqlite3_stmt *s, const char *key, int klen, int limit, int first, int ncols, void *dst, long long cap, int *lens, long long *need) {
	return done_(sqlite3_db_handle(s), rec_scan_(s, key, klen, limit, first, ncols, dst, cap, lens, need));
}
