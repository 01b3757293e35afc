-- schema.sql without the index of sessions by user: lookup.sql's join
-- then scans every session. Compare the two as a matrix:
--   gobench sql --schema examples/sql/no-index.sql,examples/sql/schema.sql --file examples/sql/lookup.sql
CREATE TABLE users (
    id         INTEGER PRIMARY KEY,
    email      TEXT NOT NULL UNIQUE,
    name       TEXT NOT NULL,
    last_login INTEGER,
    logins     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE sessions (
    token      TEXT PRIMARY KEY,
    user_id    INTEGER NOT NULL REFERENCES users(id),
    created_at INTEGER NOT NULL
);

WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000 * :scale)
INSERT INTO users (id, email, name) SELECT i, 'user' || i || '@example.com', 'User ' || i FROM n;
INSERT INTO sessions (token, user_id, created_at) SELECT hex(randomblob(16)), id, unixepoch() FROM users;
