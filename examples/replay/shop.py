#!/usr/bin/env python3
"""A small shop on SQLite, for gobench capture and replay (docs/replay.md).

Users and their orders, in one database file. Writer processes sign users
up, place orders and move them along (paid, shipped); reader processes look
users up, list their orders and total what they spent. Each process runs a
few threads, each thread its own connection, as a web application's
workers would. Only Python's standard library: the sqlite3 module, linked to
the system's libsqlite3, which gobench capture watches.

    python3 shop.py --db shop.db --writers 2 --readers 2 --threads 2 --ops 200
"""

import argparse
import multiprocessing
import random
import sqlite3
import threading

SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL,
    email   TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS orders (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    item    TEXT NOT NULL,
    qty     INTEGER NOT NULL,
    price   REAL NOT NULL,
    status  TEXT NOT NULL DEFAULT 'new',
    note    BLOB
);
CREATE INDEX IF NOT EXISTS orders_user ON orders(user_id);
"""

ITEMS = ["tea", "coffee", "mug", "kettle", "filter", "grinder"]


def connect(db, timeout):
    # isolation_level=None: the program writes its own BEGIN and COMMIT.
    return sqlite3.connect(db, timeout=timeout, isolation_level=None, check_same_thread=False)


def setup(db, users, journal):
    conn = connect(db, 30)
    if journal:
        conn.execute(f"PRAGMA journal_mode={journal}")
    conn.executescript(SCHEMA)
    if conn.execute("SELECT count(*) FROM users").fetchone()[0] == 0:
        conn.execute("BEGIN IMMEDIATE")
        for i in range(users):
            conn.execute("INSERT INTO users(name, email, created) VALUES (?, ?, ?)",
                         (f"user{i}", f"user{i}@example.com", 1700000000.0 + i))
        conn.execute("COMMIT")
    conn.close()


def write_ops(db, seed, ops):
    rng = random.Random(seed)
    conn = connect(db, 30)
    for i in range(ops):
        users = conn.execute("SELECT max(id) FROM users").fetchone()[0]
        conn.execute("BEGIN IMMEDIATE")
        kind = rng.random()
        if kind < 0.2:
            conn.execute("INSERT INTO users(name, email, created) VALUES (?, ?, ?)",
                         (f"w{seed}-{i}", f"w{seed}-{i}@example.com", 1700000000.0 + i / 7))
        elif kind < 0.7:
            conn.execute("INSERT INTO orders(user_id, item, qty, price, note) VALUES (?, ?, ?, ?, ?)",
                         (rng.randint(1, users), rng.choice(ITEMS), rng.randint(1, 5),
                          round(rng.uniform(2, 80), 2), bytes([rng.randrange(256) for _ in range(8)])))
        else:
            conn.execute("UPDATE orders SET status = CASE status WHEN 'new' THEN 'paid' ELSE 'shipped' END "
                         "WHERE id IN (SELECT id FROM orders WHERE user_id = ? AND status != 'shipped' LIMIT 2)",
                         (rng.randint(1, users),))
        conn.execute("COMMIT")
    conn.close()


def read_ops(db, seed, ops):
    rng = random.Random(seed)
    conn = connect(db, 30)
    for _ in range(ops):
        users = conn.execute("SELECT max(id) FROM users").fetchone()[0]
        uid = rng.randint(1, users)
        kind = rng.random()
        if kind < 0.4:
            conn.execute("SELECT name, email FROM users WHERE id = ?", (uid,)).fetchall()
        elif kind < 0.8:
            conn.execute("SELECT id, item, qty, price, status FROM orders WHERE user_id = ? ORDER BY id",
                         (uid,)).fetchall()
        else:
            conn.execute("SELECT u.name, count(o.id), coalesce(round(sum(o.qty * o.price), 2), 0) FROM users u "
                         "LEFT JOIN orders o ON o.user_id = u.id WHERE u.id = :uid GROUP BY u.id",
                         {"uid": uid}).fetchall()
    conn.close()


def process(db, role, seed, threads, ops):
    work = write_ops if role == "writer" else read_ops
    ts = [threading.Thread(target=work, args=(db, seed * 100 + t, ops)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", default="shop.db")
    p.add_argument("--writers", type=int, default=2, help="writer processes")
    p.add_argument("--readers", type=int, default=2, help="reader processes")
    p.add_argument("--threads", type=int, default=2, help="threads per process, a connection each")
    p.add_argument("--ops", type=int, default=100, help="operations per thread")
    p.add_argument("--users", type=int, default=50, help="users the database starts with")
    p.add_argument("--journal", default="", help="PRAGMA journal_mode to set first (default: leave it)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    setup(a.db, a.users, a.journal)
    roles = ["writer"] * a.writers + ["reader"] * a.readers
    procs = [multiprocessing.Process(target=process, args=(a.db, r, a.seed * 1000 + i, a.threads, a.ops))
             for i, r in enumerate(roles)]
    for pr in procs:
        pr.start()
    for pr in procs:
        pr.join()
        if pr.exitcode != 0:
            raise SystemExit(f"a {roles[procs.index(pr)]} process failed: exit {pr.exitcode}")
    conn = connect(a.db, 30)
    users, orders = conn.execute("SELECT (SELECT count(*) FROM users), (SELECT count(*) FROM orders)").fetchone()
    conn.close()
    print(f"{users} users, {orders} orders")


if __name__ == "__main__":
    main()
