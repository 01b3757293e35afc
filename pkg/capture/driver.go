package capture

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/gobench/gobench/pkg/sqltrace"
)

// capDriver is a driver whose connections are recorded.
type capDriver struct {
	c *Capture
	d driver.Driver

	mu    sync.Mutex
	byDSN map[string]*connector
}

var (
	_ driver.Driver        = (*capDriver)(nil)
	_ driver.DriverContext = (*capDriver)(nil)
	_ driver.Connector     = (*connector)(nil)
)

// Open opens a connection through the driver's connector for dsn.
func (d *capDriver) Open(dsn string) (driver.Conn, error) {
	k, err := d.connector(dsn)
	if err != nil {
		return nil, err
	}
	return k.Connect(context.Background())
}

// OpenConnector returns the connector of dsn, which database/sql keeps.
func (d *capDriver) OpenConnector(dsn string) (driver.Connector, error) { return d.connector(dsn) }

// connector returns dsn's connector, one per dsn: the under driver's own
// if it has connectors, else one that calls its Open.
func (d *capDriver) connector(dsn string) (*connector, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if k, ok := d.byDSN[dsn]; ok {
		return k, nil
	}
	var k driver.Connector = dsnConnector{dsn: dsn, d: d.d}
	if dc, ok := d.d.(driver.DriverContext); ok {
		var err error
		if k, err = dc.OpenConnector(dsn); err != nil {
			return nil, err
		}
	}
	if d.byDSN == nil {
		d.byDSN = map[string]*connector{}
	}
	c := &connector{c: d.c, k: k, d: d, begin: beginOf(dsn)}
	d.byDSN[dsn] = c
	return c, nil
}

// beginOf is the BEGIN a connection of dsn runs for a transaction:
// mattn's and modernc's _txlock picks IMMEDIATE or EXCLUSIVE.
func beginOf(dsn string) string {
	_, q, _ := strings.Cut(dsn, "?")
	for _, kv := range strings.Split(q, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k == "_txlock" {
			switch strings.ToLower(v) {
			case "immediate":
				return "BEGIN IMMEDIATE"
			case "exclusive":
				return "BEGIN EXCLUSIVE"
			}
		}
	}
	return "BEGIN"
}

// dsnConnector is database/sql's own connector of a driver without
// connectors.
type dsnConnector struct {
	dsn string
	d   driver.Driver
}

func (k dsnConnector) Connect(context.Context) (driver.Conn, error) { return k.d.Open(k.dsn) }
func (k dsnConnector) Driver() driver.Driver                        { return k.d }

// connector opens recorded connections through k.
type connector struct {
	c     *Capture
	k     driver.Connector
	d     *capDriver
	begin string

	mu   sync.Mutex
	path *string // the database's path, once found
	// settings are the statements that would set what the connector's
	// connections run with (see connSettings), until noted in the trace.
	settings string
	// version is the SQLite library the connector's driver carries
	// (sqlite_version()), until noted in the trace.
	version string
	// bindTime converts a time.Time as the connector's driver binds it
	// (probeTimeBinder; nil when unknown).
	bindTime timeBinder
}

// Driver returns the recording driver.
func (k *connector) Driver() driver.Driver { return k.d }

// Connect opens a connection and records it. The first connection of a
// connector is preceded by one of the capture's own, which finds the
// database's path and, if the capture has not seen the database yet,
// copies it as it is before the application runs anything on it.
func (k *connector) Connect(ctx context.Context) (driver.Conn, error) {
	path := k.database(ctx)
	id, db := k.c.opened(ctx, path, func(dest string) error { return k.copy(ctx, dest) }, k.digest)
	settings, version := k.takeSettings()
	if settings != "" {
		k.c.write(&sqltrace.Record{Kind: sqltrace.KindNote, Note: sqltrace.SettingsNote(path, settings)})
	}
	k.c.noteVersion(version)
	t := k.c.now()
	under, err := k.k.Connect(ctx)
	rec := sqltrace.Open{Conn: id, DB: db, Time: t}
	if err != nil {
		rec.Code = codeOf(err)
	}
	k.c.write(&sqltrace.Record{Kind: sqltrace.KindOpen, Open: rec})
	if err != nil {
		return nil, err
	}
	return &conn{c: k.c, id: id, under: under, begin: k.begin, params: map[string]paramMap{}, bindTime: k.bindTime}, nil
}

// database returns the path of the connector's database, asking a
// connection of its own the first time: "" for an in-memory or temporary
// database, or when the connection fails.
func (k *connector) database(ctx context.Context) string {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.path != nil {
		return *k.path
	}
	path := ""
	if cn, err := k.k.Connect(ctx); err == nil {
		rows, err := query(ctx, cn, "PRAGMA database_list")
		for _, r := range rows {
			if err == nil && len(r) >= 3 && r[1] == "main" {
				path = r[2]
			}
		}
		if path != "" {
			k.settings = connSettings(ctx, cn)
		}
		if rows, err := query(ctx, cn, "SELECT sqlite_version()"); err == nil && len(rows) == 1 && len(rows[0]) == 1 {
			k.version = rows[0][0]
		}
		k.bindTime = probeTimeBinder(ctx, cn)
		cn.Close()
	}
	k.path = &path
	return path
}

// takeSettings returns the connector's settings and SQLite version the
// first time, "" after.
func (k *connector) takeSettings() (settings, version string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	settings, version = k.settings, k.version
	k.settings, k.version = "", ""
	return settings, version
}

// connSettings reads what a connection runs with, whatever set it (the
// connection string, the driver's defaults, the database's own journal
// mode): the statements that would set it.
func connSettings(ctx context.Context, cn driver.Conn) string {
	var stmts []string
	for _, p := range []string{"journal_mode", "synchronous", "busy_timeout"} {
		if rows, err := query(ctx, cn, "PRAGMA "+p); err == nil && len(rows) == 1 && len(rows[0]) == 1 {
			stmts = append(stmts, "PRAGMA "+p+"="+rows[0][0])
		}
	}
	return strings.Join(stmts, "; ")
}

// copy writes a copy of the database, as it is, to dest (VACUUM INTO, on
// a connection of the capture's own).
func (k *connector) copy(ctx context.Context, dest string) error {
	if k.path == nil || *k.path == "" {
		return errors.New("an in-memory or temporary database has no file to copy")
	}
	cn, err := k.k.Connect(ctx)
	if err != nil {
		return fmt.Errorf("opening a connection to copy the database: %w", err)
	}
	defer cn.Close()
	_, err = query(ctx, cn, "VACUUM INTO '"+strings.ReplaceAll(dest, "'", "''")+"'")
	return err
}

// digest reads the database's content on a connection of the capture's
// own, in one read transaction.
func (k *connector) digest() ([]sqltrace.TableDigest, error) {
	ctx := context.Background()
	cn, err := k.k.Connect(ctx)
	if err != nil {
		return nil, err
	}
	defer cn.Close()
	if _, err := query(ctx, cn, "BEGIN"); err != nil {
		return nil, err
	}
	defer query(ctx, cn, "ROLLBACK")
	return sqltrace.DigestTables(func(q string) ([]string, error) {
		rows, err := query(ctx, cn, q)
		out := make([]string, len(rows))
		for i, r := range rows {
			if len(r) > 0 {
				out[i] = r[0]
			}
		}
		return out, err
	})
}

// query runs a statement of the capture's own on cn and returns its rows
// as text.
func query(ctx context.Context, cn driver.Conn, q string) ([][]string, error) {
	return queryArgs(ctx, cn, q, nil)
}

// queryArgs is query with arguments bound to the statement's parameters.
func queryArgs(ctx context.Context, cn driver.Conn, q string, args []driver.NamedValue) ([][]string, error) {
	var rows driver.Rows
	var err error
	if qc, ok := cn.(driver.QueryerContext); ok {
		rows, err = qc.QueryContext(ctx, q, args)
	}
	if rows == nil && (err == nil || errors.Is(err, driver.ErrSkip)) {
		var st driver.Stmt
		if st, err = cn.Prepare(q); err != nil {
			return nil, err
		}
		defer st.Close()
		var values []driver.Value
		for _, a := range args {
			values = append(values, a.Value)
		}
		//lint:ignore SA1019 the fallback database/sql uses too
		rows, err = st.Query(values)
	}
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out [][]string
	dest := make([]driver.Value, len(rows.Columns()))
	for {
		if err := rows.Next(dest); err == io.EOF {
			return out, nil
		} else if err != nil {
			return out, err
		}
		row := make([]string, len(dest))
		for i, v := range dest {
			switch v := v.(type) {
			case []byte:
				row[i] = string(v)
			case nil:
			default:
				row[i] = fmt.Sprint(v)
			}
		}
		out = append(out, row)
	}
}
