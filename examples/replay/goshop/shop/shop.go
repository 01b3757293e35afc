// Package shop is the Go version of docs/replay.md's shop: users and
// their orders in one SQLite database, written and read by goroutines
// through database/sql's pool, as a Go service's handlers would. The
// program in the directory above runs it, captured (package capture).
package shop

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"sync"
)

const schema = `
CREATE TABLE IF NOT EXISTS users (
    id      INTEGER PRIMARY KEY,
    name    TEXT NOT NULL,
    email   TEXT NOT NULL UNIQUE
);
CREATE TABLE IF NOT EXISTS orders (
    id      INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    item    TEXT NOT NULL,
    qty     INTEGER NOT NULL,
    price   REAL NOT NULL,
    status  TEXT NOT NULL DEFAULT 'new'
);
CREATE INDEX IF NOT EXISTS orders_user ON orders(user_id);`

var items = []string{"tea", "coffee", "mug", "kettle", "filter", "grinder"}

// Options say how much the shop does.
type Options struct {
	Users, Writers, Readers, Ops int
	Seed                         uint64
}

// Run sets the shop up and runs its writers and readers, each Ops
// operations, on db.
func Run(ctx context.Context, db *sql.DB, o Options) error {
	if _, err := db.ExecContext(ctx, schema); err != nil {
		return fmt.Errorf("schema: %w", err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for i := range o.Users {
		if _, err := tx.ExecContext(ctx, `INSERT INTO users (name, email) VALUES (?, ?)`, fmt.Sprintf("user%d", i), fmt.Sprintf("user%d@example.com", i)); err != nil {
			tx.Rollback()
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make(chan error, o.Writers+o.Readers)
	for w := range o.Writers + o.Readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(o.Seed, uint64(w)))
			work := read
			if w < o.Writers {
				work = write
			}
			for range o.Ops {
				if err := work(ctx, db, rng, o.Users); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	return <-errs
}

// write places an order, or moves one along, in a transaction.
func write(ctx context.Context, db *sql.DB, rng *rand.Rand, users int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	user := 1 + rng.IntN(users)
	if rng.IntN(3) > 0 {
		_, err = tx.ExecContext(ctx, `INSERT INTO orders (user_id, item, qty, price) VALUES (?, ?, ?, ?)`,
			user, items[rng.IntN(len(items))], 1+rng.IntN(5), float64(200+rng.IntN(7800))/100)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE orders SET status = 'paid' WHERE user_id = :u AND status = 'new'`, sql.Named("u", user))
	}
	if err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// read looks a user's orders up, or totals what they spent.
func read(ctx context.Context, db *sql.DB, rng *rand.Rand, users int) error {
	user := 1 + rng.IntN(users)
	if rng.IntN(2) == 0 {
		rows, err := db.QueryContext(ctx, `SELECT id, item, qty, price, status FROM orders WHERE user_id = ? ORDER BY id`, user)
		if err != nil {
			return err
		}
		for rows.Next() {
		}
		return rows.Close()
	}
	var n int
	var total float64
	return db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(qty * price), 0) FROM orders WHERE user_id = ?`, user).Scan(&n, &total)
}
