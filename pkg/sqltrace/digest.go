package sqltrace

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// TableDigest is one table's content, hashed: its name, its rows and the
// SHA-256 (its first 16 bytes, in hex) of its CREATE statement and its
// rows, each row's values quoted as SQL quotes them (quote()), in rowid
// order (or, without rowid, in the order of their text).
type TableDigest struct {
	Name string `json:"name"`
	Rows int64  `json:"rows"`
	Hash string `json:"hash"`
}

// Digest is a database's content at the capture's end (a KindDigest
// record of stream 0), or, with Error, why it could not be read.
type Digest struct {
	DB     uint64
	Time   int64
	Error  string
	Tables []TableDigest
}

// DigestTables reads a database's tables through query, which runs a
// statement whose rows are one text column each and returns them. Every
// table is read (sqlite_sequence too) but SQLite's statistics and virtual
// tables (their shadow tables are read).
func DigestTables(query func(sql string) ([]string, error)) ([]TableDigest, error) {
	names, err := query(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\_stat%' ESCAPE '\' AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL%' ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("listing the tables: %w", err)
	}
	out := make([]TableDigest, 0, len(names))
	for _, name := range names {
		d, err := digestTable(query, name)
		if err != nil {
			return nil, fmt.Errorf("reading table %s: %w", name, err)
		}
		out = append(out, d)
	}
	return out, nil
}

func digestTable(query func(string) ([]string, error), name string) (TableDigest, error) {
	lit := "'" + strings.ReplaceAll(name, "'", "''") + "'"
	ident := `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
	schema, err := query("SELECT coalesce(sql, '') FROM sqlite_schema WHERE type = 'table' AND name = " + lit)
	if err != nil {
		return TableDigest{}, err
	}
	cols, err := query("SELECT name FROM pragma_table_info(" + lit + ")")
	if err != nil {
		return TableDigest{}, err
	}
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = `quote("` + strings.ReplaceAll(c, `"`, `""`) + `")`
	}
	row := strings.Join(exprs, " || ',' || ")
	if row == "" {
		row = "''"
	}
	rows, err := query("SELECT quote(rowid) || ':' || " + row + " FROM " + ident + " ORDER BY rowid")
	if err != nil { // a table without rowid
		rows, err = query("SELECT " + row + " FROM " + ident + " ORDER BY 1")
	}
	if err != nil {
		return TableDigest{}, err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n", name, strings.Join(schema, ""))
	for _, r := range rows {
		h.Write([]byte(r))
		h.Write([]byte{'\n'})
	}
	return TableDigest{Name: name, Rows: int64(len(rows)), Hash: hex.EncodeToString(h.Sum(nil)[:16])}, nil
}

// CompareDigests compares a database's tables with the capture's: it
// returns what differs (a table only one side has, other rows), each in
// a few words, leaving out the tables ignore says are the run's own.
func CompareDigests(captured, replayed []TableDigest, ignore func(name string) bool) []string {
	var diffs []string
	byName := map[string]TableDigest{}
	for _, t := range replayed {
		byName[t.Name] = t
	}
	for _, c := range captured {
		r, ok := byName[c.Name]
		delete(byName, c.Name)
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("table %s is missing", c.Name))
		case r.Hash != c.Hash:
			diffs = append(diffs, fmt.Sprintf("table %s differs (%d rows, %d captured)", c.Name, r.Rows, c.Rows))
		}
	}
	for _, r := range replayed {
		if _, extra := byName[r.Name]; extra && (ignore == nil || !ignore(r.Name)) {
			diffs = append(diffs, fmt.Sprintf("table %s is not the capture's", r.Name))
		}
	}
	return diffs
}
