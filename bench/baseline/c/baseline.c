/*
 * baseline.c: the classic SQLite concurrency test in C, straight on
 * SQLite's C API, with nothing else: N forked processes each run Q ops,
 * 95% reads (SELECT * FROM kv WHERE k=?) and 5% upserts in BEGIN IMMEDIATE
 * ... COMMIT, on uniformly random keys. Every upsert writes a new random
 * value, as gobench's do: SQLite skips a write that leaves a cell's bytes
 * as they were, and such a commit adds nothing to the WAL, so the other
 * connections keep their page caches (an earlier version wrote one fixed
 * value everywhere and measured reads that never lost their cache). Children start together once all
 * have opened and prepared; reads/s is all reads over the span from the
 * release (the parent's CLOCK_MONOTONIC) to the last child's finish (the
 * same clock). It is the ceiling the Go drivers are compared with.
 *
 * Each child also reports its own CPU time and context switches
 * (getrusage) from the release to its finish, summed as loop_cpu_us/op and
 * loop_csw/op. With a last argument "threads", each child first starts one thread
 * that does nothing but wait: the same program as a multi-threaded
 * process, as every Go process is (the kernel then takes a reference on
 * the file for every call on a descriptor, glibc's malloc locks its arena).
 *
 * Build against the SQLite amalgamation github.com/mattn/go-sqlite3
 * compiles (same version, same -O2): see run.sh.
 *
 * usage: baseline DB PROCS QUERIES KEYS JOURNAL SYNC [threads]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include "sqlite3-binding.h"

static void die(sqlite3 *db, const char *what) {
	fprintf(stderr, "baseline.c: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
	exit(1);
}

static uint64_t next(uint64_t *s) { /* splitmix64 */
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static sqlite3 *open_db(const char *path, const char *journal, const char *sync) {
	sqlite3 *db;
	char q[128];
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) die(db, "open");
	snprintf(q, sizeof q, "PRAGMA busy_timeout=5000; PRAGMA journal_mode=%s; PRAGMA synchronous=%s;", journal, sync);
	if (sqlite3_exec(db, q, NULL, NULL, NULL) != SQLITE_OK) die(db, "pragmas");
	return db;
}

static void step_done(sqlite3 *db, sqlite3_stmt *s, const char *what) {
	int rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) die(db, what);
	sqlite3_reset(s);
}

/* idle is the thread a multi-threaded child starts: it waits forever. */
static void *idle(void *arg) {
	int fd = *(int *)arg;
	char b;
	while (read(fd, &b, 1) < 0) {}
	return NULL;
}

static long long usec(struct timeval t) { return (long long)t.tv_sec * 1000000LL + t.tv_usec; }

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/* fill writes 64 random characters of the alphabet into value. */
static void fill(char *value, uint64_t *s) {
	for (int i = 0; i < 64; i += 8) {
		uint64_t r = next(s);
		for (int j = 0; j < 8; j++, r >>= 8) value[i + j] = alphabet[r & 63];
	}
}

int main(int argc, char **argv) {
	if (argc != 7 && !(argc == 8 && strcmp(argv[7], "threads") == 0)) {
		fprintf(stderr, "usage: baseline DB PROCS QUERIES KEYS JOURNAL SYNC [threads]\n");
		return 2;
	}
	int threads = argc == 8;
	const char *path = argv[1], *journal = argv[5], *sync = argv[6];
	int procs = atoi(argv[2]), queries = atoi(argv[3]), keys = atoi(argv[4]);
	char value[64];
	uint64_t seed = 42;

	sqlite3 *db = open_db(path, journal, sync);
	if (sqlite3_exec(db, "CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB NOT NULL); BEGIN", NULL, NULL, NULL) != SQLITE_OK) die(db, "schema");
	sqlite3_stmt *ins;
	if (sqlite3_prepare_v2(db, "INSERT INTO kv(k,v) VALUES(?,?)", -1, &ins, NULL) != SQLITE_OK) die(db, "prepare");
	for (int k = 0; k < keys; k++) {
		fill(value, &seed);
		sqlite3_bind_int64(ins, 1, k);
		sqlite3_bind_blob(ins, 2, value, 64, SQLITE_STATIC);
		step_done(db, ins, "preload");
	}
	sqlite3_finalize(ins);
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) die(db, "commit");
	sqlite3_close(db);

	int ready[2], go[2], results[2];
	if (pipe(ready) || pipe(go) || pipe(results)) return 1;
	for (int p = 0; p < procs; p++) {
		if (fork() != 0) continue;
		if (threads) {
			static int never[2];
			pthread_t t;
			if (pipe(never) || pthread_create(&t, NULL, idle, &never[0])) return 1;
		}
		sqlite3 *c = open_db(path, journal, sync);
		sqlite3_stmt *get, *put, *begin, *commit;
		if (sqlite3_prepare_v2(c, "SELECT * FROM kv WHERE k=?", -1, &get, NULL) ||
		    sqlite3_prepare_v2(c, "INSERT INTO kv(k,v) VALUES(?,?) ON CONFLICT(k) DO UPDATE SET v=excluded.v", -1, &put, NULL) ||
		    sqlite3_prepare_v2(c, "BEGIN IMMEDIATE", -1, &begin, NULL) ||
		    sqlite3_prepare_v2(c, "COMMIT", -1, &commit, NULL))
			die(c, "prepare");
		char b = 'r';
		if (write(ready[1], &b, 1) != 1 || read(go[0], &b, 1) != 1) return 1;
		struct rusage u0, u1;
		getrusage(RUSAGE_SELF, &u0);
		uint64_t s = (uint64_t)p * 7919 + 1;
		int reads = 0, writes = 0;
		struct timespec t1;
		for (int i = 0; i < queries; i++) {
			int64_t k = (int64_t)(next(&s) % (uint64_t)keys);
			if (next(&s) % 100 < 5) {
				fill(value, &s);
				step_done(c, begin, "begin");
				sqlite3_bind_int64(put, 1, k);
				sqlite3_bind_blob(put, 2, value, 64, SQLITE_STATIC);
				step_done(c, put, "upsert");
				step_done(c, commit, "commit");
				writes++;
			} else {
				sqlite3_bind_int64(get, 1, k);
				if (sqlite3_step(get) != SQLITE_ROW) die(c, "read");
				(void)sqlite3_column_blob(get, 1);
				sqlite3_reset(get);
				reads++;
			}
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		getrusage(RUSAGE_SELF, &u1);
		char line[160];
		int n = snprintf(line, sizeof line, "%d %d %lld %lld %ld\n", reads, writes,
		                 (long long)t1.tv_sec * 1000000000LL + t1.tv_nsec,
		                 usec(u1.ru_utime) - usec(u0.ru_utime) + usec(u1.ru_stime) - usec(u0.ru_stime),
		                 u1.ru_nvcsw - u0.ru_nvcsw + u1.ru_nivcsw - u0.ru_nivcsw);
		if (write(results[1], line, n) != n) return 1;
		_exit(0);
	}
	char b;
	for (int p = 0; p < procs; p++)
		if (read(ready[0], &b, 1) != 1) return 1;
	char start[4096];
	memset(start, 'g', sizeof start);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (write(go[1], start, procs) != procs) return 1;
	long long reads = 0, writes = 0, last = 0, cpu = 0, csw = 0;
	FILE *rf = fdopen(results[0], "r");
	for (int p = 0; p < procs; p++) {
		long long r, w, end, u, x;
		if (fscanf(rf, "%lld %lld %lld %lld %lld", &r, &w, &end, &u, &x) != 5) return 1;
		reads += r;
		writes += w;
		cpu += u;
		csw += x;
		if (end > last) last = end;
	}
	double wall = (last - ((long long)t0.tv_sec * 1000000000LL + t0.tv_nsec)) / 1e9;
	while (wait(NULL) > 0) {}
	printf("driver=C api=%s journal=%s sync=%s procs=%d queries=%d reads/s=%.0f writes/s=%.0f wall=%.3fs loop_cpu_us/op=%.3f loop_csw/op=%.4f\n",
	       threads ? "sqlite3+thread" : "sqlite3", journal, sync, procs, queries, reads / wall, writes / wall, wall,
	       (double)cpu / (reads + writes), (double)csw / (reads + writes));
	return 0;
}
