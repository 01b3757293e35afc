/*
 * randomness.c: the time sqlite3_randomness takes to fill a blob of SIZE
 * bytes, which kvtest spends inside its timed loop on every update, on
 * both sides (randomblob() in its UPDATE, sqlite3_randomness before each
 * file write). gobench prepares a value before the op is clocked, so
 * kvtest.sh subtracts this time from kvtest's updates to compare factors.
 *
 * usage: randomness SIZE
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "sqlite3.h"

int main(int argc, char **argv) {
	int size = argc > 1 ? atoi(argv[1]) : 10000, n = 20000;
	unsigned char *b = malloc(size > 0 ? size : 1);
	struct timespec t0, t1;
	sqlite3_initialize();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int i = 0; i < n; i++) sqlite3_randomness(size, b);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.3f\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / n);
	free(b);
	return 0;
}
