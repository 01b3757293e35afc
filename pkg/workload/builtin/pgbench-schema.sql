-- pgbench's tables, in SQLite, filled for :scale: per unit of scale one
-- branch, 10 tellers and 100,000 accounts, every balance 0, and an empty
-- history. Fillers pad rows to pgbench's sizes (100 bytes for branches
-- and tellers' rows in all, 84 characters in an account's).
DROP TABLE IF EXISTS pgbench_accounts;
DROP TABLE IF EXISTS pgbench_branches;
DROP TABLE IF EXISTS pgbench_tellers;
DROP TABLE IF EXISTS pgbench_history;
CREATE TABLE pgbench_branches /* created by gobench */ (bid INTEGER PRIMARY KEY, bbalance INTEGER NOT NULL, filler TEXT);
CREATE TABLE pgbench_tellers /* created by gobench */ (tid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, tbalance INTEGER NOT NULL, filler TEXT);
CREATE TABLE pgbench_accounts /* created by gobench */ (aid INTEGER PRIMARY KEY, bid INTEGER NOT NULL, abalance INTEGER NOT NULL, filler TEXT);
CREATE TABLE pgbench_history /* created by gobench */ (tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TEXT, filler TEXT);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :scale)
INSERT INTO pgbench_branches (bid, bbalance, filler) SELECT i, 0, printf('%88s', '') FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10 * :scale)
INSERT INTO pgbench_tellers (tid, bid, tbalance, filler) SELECT i, (i - 1) / 10 + 1, 0, printf('%84s', '') FROM n;
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000 * :scale)
INSERT INTO pgbench_accounts (aid, bid, abalance, filler) SELECT i, (i - 1) / 100000 + 1, 0, printf('%84s', '') FROM n;
