-- The hot path: a request authenticates its session and reads its user.
\set uid random(1, 10000 * :scale)
SELECT u.id, u.name, s.token
  FROM users u JOIN sessions s ON s.user_id = u.id
 WHERE u.id = :uid;
