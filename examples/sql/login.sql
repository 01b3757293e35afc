-- A login: a new session and the user's counters, in one transaction.
-- BEGIN IMMEDIATE takes the write lock before the first statement, so the
-- transaction waits for it (busy timeout) instead of failing half-way.
\set uid random(1, 10000 * :scale)
\set token random_text(32)
BEGIN IMMEDIATE;
SELECT id FROM users WHERE id = :uid;
INSERT INTO sessions (token, user_id, created_at) VALUES (:token, :uid, unixepoch());
UPDATE users SET logins = logins + 1, last_login = unixepoch() WHERE id = :uid;
COMMIT;
