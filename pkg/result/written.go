package result

import (
	"bytes"
	"regexp"
	"unicode/utf8"
)

// HeadBytes is how much of a file's beginning Written looks at.
const HeadBytes = 8 << 10

// traceMagic begins every trace gobench capture writes (package
// sqltrace).
var traceMagic = []byte("GBTRACE\n")

// sqliteMagic begins every SQLite database file.
var sqliteMagic = []byte("SQLite format 3\x00")

// IsSQLite reports whether a file beginning with head is a SQLite
// database.
func IsSQLite(head []byte) bool { return bytes.HasPrefix(head, sqliteMagic) }

// The shapes of the files gobench writes, by their first bytes.
var (
	// schemaKey is in every JSON document gobench writes: results, suites
	// and capacity searches ("schema_version"), disk reports ("schema"),
	// comparisons ("max_regression").
	schemaKey = regexp.MustCompile(`"(schema|schema_version|max_regression)"\s*:\s*[0-9]`)
	// htmlMark is in the head of every HTML report.
	htmlMark = []byte(`<meta name="generator" content="gobench">`)
	// csvHeader is the first line of every CSV table: snake_case names.
	csvHeader = regexp.MustCompile(`^[a-z][a-z0-9_]*(,[a-z][a-z0-9_]*)+\r?$`)
	// mdTable is the first line of a markdown table.
	mdTable = regexp.MustCompile(`^\|( [^|]+ \|)+$`)
	// benchConfig is the first line of the Go benchmark format as gobench
	// writes it: the goos configuration line, or a benchmark line.
	benchConfig = regexp.MustCompile(`^(goos: |Benchmark[A-Z])`)
)

// Written reports whether a file beginning with head (its first
// HeadBytes bytes, or all of a shorter file) is one gobench writes, which
// a new output may replace: an empty file, a JSON result, suite or
// report, an HTML report, a report as text, markdown, CSV, the Go
// benchmark format or an HdrHistogram interval log, or a trace of gobench
// capture's. Anything else (a
// SQLite database, a binary file, another program's JSON, HTML or text)
// is not, and an output is not written over it unless asked to.
func Written(head []byte) bool {
	if bytes.HasPrefix(head, traceMagic) {
		return true // a trace gobench capture wrote
	}
	if bytes.IndexByte(head, 0) >= 0 || !validText(head) {
		return false // binary: a database, an executable, an image
	}
	t := bytes.TrimLeft(head, " \t\r\n")
	if len(t) == 0 {
		return true // empty, or blank
	}
	switch t[0] {
	case '{':
		return schemaKey.Match(t)
	case '<':
		return bytes.Contains(t, htmlMark)
	case '#':
		return bytes.HasPrefix(t, []byte("#[Histogram log format version"))
	}
	first, _, _ := bytes.Cut(t, []byte("\n"))
	return bytes.Contains(first, []byte("gobench")) || csvHeader.Match(first) ||
		mdTable.Match(first) || benchConfig.Match(first)
}

// validText reports whether head is UTF-8 text, but for a character
// cut in two at its end.
func validText(head []byte) bool {
	for k := 0; k < utf8.UTFMax && k <= len(head); k++ {
		if utf8.Valid(head[:len(head)-k]) {
			return true
		}
	}
	return false
}
