package sqlite

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gobench/gobench/pkg/store"
)

// SQL of the user's (a schema, a script, the text of a plan file; every
// statement that reaches store.Scripter.Prepare) runs only inside the
// run's own database. Plans and results are things to share and run in
// CI, so their SQL must not reach another program's files. Three layers,
// on every driver:
//
//   - Before a driver sees the text, Prepare refuses a NUL byte (mattn's
//     driver crashes on the statement SQLite stops reading at it) and,
//     from the statement's first keyword, ATTACH, DETACH and VACUUM INTO:
//     VACUUM INTO names a file, yet SQLite asks no authorizer when it
//     compiles one.
//   - An authorizer (sqlite3_set_authorizer) on every op connection,
//     installed before any statement is prepared on it, decides what
//     SQLite may compile, whenever it compiles: at Prepare, when a
//     statement is prepared again after a schema change, for a trigger's
//     or a view's body inside the statement that uses it, for the
//     statements SQLite runs inside a VACUUM or a pragma table. It refuses
//     ATTACH of any file, DETACH, functions that reach files or native
//     code, pragmas that move SQLite's files or change settings for the
//     whole process, and virtual table modules that read files; and, for
//     statements of the user's, ATTACH of anything and pragmas that set
//     what gobench sets and reports (journal mode, sync, busy timeout,
//     checkpoints, locking mode, its application id).
//   - SQLITE_LIMIT_ATTACHED is 1: the one database a plain VACUUM attaches
//     for itself (a temporary one, named by no one), and no more. With 0,
//     which the authorizer would make unnecessary, VACUUM itself fails
//     ("too many attached databases - max 0"; TestVacuumNeedsOneAttached).
//
// gobench's own statements on those connections (the kv statements,
// BEGIN, COMMIT, ROLLBACK) need none of what is refused. Its connections
// that never run SQL of the user's (Init, Check, Describe) have no guard.

// ErrRefused marks a statement of the user's that the guard refused; the
// error is store.ErrInvalid too, bad input.
var ErrRefused = errors.New("refused")

// Authorizer action codes and answers, and the limit category, as
// sqlite3.h numbers them: the same for every driver.
const (
	authPragma       = 19
	authAttach       = 24
	authDetach       = 25
	authCreateVTable = 29
	authFunction     = 31

	authOK   = 0
	authDeny = 1

	limitAttached = 7
	// maxAttached is SQLITE_LIMIT_ATTACHED on op connections: VACUUM's
	// own temporary database.
	maxAttached = 1
)

// guardMode says whose statement SQLite is compiling.
type guardMode uint8

const (
	ownSQL      guardMode = iota // gobench's own statements
	userPrepare                  // a statement of the user's, being prepared
	userRun                      // a statement of the user's, running (SQLite may compile more meanwhile)
)

// guard is one connection's authorizer state: whose SQL is compiling,
// and why it last refused something, for the error Prepare returns in
// place of SQLite's "not authorized". A connection has one user at a
// time, and so has its guard.
type guard struct {
	mode   guardMode
	vacuum bool   // the user's statement running is a plain VACUUM, which attaches a temporary database
	denied string // why the authorizer refused, since the statement began
}

// authorize is the authorizer: SQLite's action code and its first two
// arguments (NULL read as ""), the answer authOK or authDeny.
func (g *guard) authorize(action int, arg1, arg2 string) int {
	why := g.refuse(action, arg1, arg2)
	if why == "" {
		return authOK
	}
	if g.denied == "" {
		g.denied = why
	}
	return authDeny
}

// refuse returns why an action may not be compiled, or "".
func (g *guard) refuse(action int, arg1, arg2 string) string {
	switch action {
	case authAttach:
		// arg1 is the file name when it is written as a string.
		switch {
		case arg1 != "":
			return fmt.Sprintf("it would attach another database (%s), and SQL of schemas, scripts and plan files runs only inside the run's own database", quoteShort(arg1))
		case g.mode == userPrepare || g.mode == userRun && !g.vacuum:
			return "it would attach another database, and SQL of schemas, scripts and plan files runs only inside the run's own database"
		}
	case authDetach:
		return "it would detach a database, and the run's own is the only one open"
	case authFunction:
		if why := refusedFunctions[strings.ToLower(arg2)]; why != "" {
			return arg2 + "() " + why
		}
	case authPragma:
		name := strings.ToLower(arg1)
		if arg2 == "" { // read, not set
			return ""
		}
		if why := refusedPragmas[name]; why != "" {
			return "PRAGMA " + name + " " + why
		}
		if why := gobenchPragmas[name]; why != "" && g.mode != ownSQL {
			return "PRAGMA " + name + " is set by gobench on every connection and reported with the result: " + why
		}
	case authCreateVTable:
		if why := refusedModules[strings.ToLower(arg2)]; why != "" {
			return "the " + arg2 + " module " + why
		}
	}
	return ""
}

// refusedFunctions are SQL functions that reach files or native code.
// None of them is registered by any driver gobench links
// (TestNoFileFunctions checks), except load_extension, which their
// SQLite refuses anyway while extension loading is off; they are refused
// by name should a driver start to register one.
var refusedFunctions = map[string]string{
	"load_extension": "loads a shared library from a file",
	"readfile":       "reads a file",
	"writefile":      "writes a file",
	"edit":           "runs an editor on a temporary file",
	"fts3_tokenizer": "can install a tokenizer by its address in memory",
}

// refusedPragmas are pragmas whose setting reaches outside the database:
// where SQLite writes files, limits of the whole process.
var refusedPragmas = map[string]string{
	"temp_store_directory": "would move where SQLite writes its temporary files, for the whole process",
	"data_store_directory": "would move where SQLite finds relative file names, for the whole process",
	"soft_heap_limit":      "would set a memory limit for the whole process, every connection of the run",
	"hard_heap_limit":      "would set a memory limit for the whole process, every connection of the run",
}

// gobenchPragmas are the settings gobench makes on every connection and
// reports: a statement of the user's that changed them would make the
// result describe a run that did not happen.
var gobenchPragmas = map[string]string{
	"journal_mode":       "use --journal",
	"synchronous":        "use --sync",
	"busy_timeout":       "use --busy-timeout",
	"wal_autocheckpoint": "use --checkpoint",
	"locking_mode":       "the workers share the database in SQLite's normal locking mode",
	"application_id":     "it is gobench's mark on the databases it created",
}

// refusedModules are virtual table modules that read or write files.
// None is compiled into the drivers gobench links (TestNoFileFunctions).
var refusedModules = map[string]string{
	"csv":     "reads a file",
	"fsdir":   "lists and reads files",
	"zipfile": "reads and writes zip files",
}

// begin checks a statement of the user's before any driver sees it and
// sets the authorizer for its compilation. It reports whether the
// statement is a plain VACUUM.
func (g *guard) begin(sql string) (vacuum bool, err error) {
	g.mode, g.denied = ownSQL, ""
	first, into, err := scanStatement(sql)
	if err != nil {
		return false, &refusal{stmt: sql, why: err.Error()}
	}
	switch {
	case first == "ATTACH":
		return false, &refusal{stmt: sql, why: "it would attach another database, and SQL of schemas, scripts and plan files runs only inside the run's own database"}
	case first == "DETACH":
		return false, &refusal{stmt: sql, why: "it would detach a database, and the run's own is the only one open"}
	case first == "VACUUM" && into:
		return false, &refusal{stmt: sql, why: "VACUUM INTO would write a copy of the database to another file, and SQL of schemas, scripts and plan files runs only inside the run's own database"}
	}
	g.mode = userPrepare
	return first == "VACUUM", nil
}

// end ends a statement of the user's, prepared or run: the authorizer is
// back to gobench's own SQL, and an error the authorizer caused becomes
// the refusal, naming what was refused.
func (g *guard) end(sql string, err error) error {
	g.mode, g.vacuum = ownSQL, false
	if err != nil && g.denied != "" {
		err = &refusal{stmt: sql, why: g.denied}
	}
	g.denied = ""
	return err
}

// run sets the authorizer for a run of a statement of the user's (end
// ends it).
func (g *guard) run(vacuum bool) {
	g.mode, g.vacuum, g.denied = userRun, vacuum, ""
}

// refusal is a statement of the user's that the guard refused.
type refusal struct{ stmt, why string }

// Error names the statement (its beginning, on one line) and why.
func (r *refusal) Error() string { return stmtName(r.stmt) + ": refused: " + r.why }

// Is makes a refusal ErrRefused and store.ErrInvalid.
func (r *refusal) Is(target error) bool { return target == ErrRefused || target == store.ErrInvalid }

// stmtName is a statement as messages name it: its white space collapsed,
// cut to 60 bytes, quoted if it holds anything unprintable.
func stmtName(sql string) string {
	s := strings.Join(strings.Fields(sql), " ")
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if !utf8.ValidString(s) || strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return strconv.Quote(s)
	}
	return s
}

// quoteShort quotes a name from SQL for a message, cut to 60 bytes.
func quoteShort(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:60]) + "…"
	}
	return strconv.Quote(s)
}

// maxToken bounds a word, a quoted name or a string in a statement of the
// user's. The authorizer is handed names and pragma values whole, and
// ncruces's driver panics on one of 1,000,000 bytes or more (it reads the
// callback's strings with that limit); half of it leaves room for what
// SQLite builds from one token (a pragma value with its sign).
const maxToken = 500_000

// scanStatement reads a statement's tokens as SQLite's tokenizer does
// (white space, -- and /* */ comments, quoted strings and names, words):
// it returns the statement's first keyword (after EXPLAIN [QUERY PLAN]),
// in upper case, and whether the word INTO comes later. A NUL byte is an
// error, and so is a token longer than maxToken.
func scanStatement(sql string) (first string, into bool, err error) {
	if i := strings.IndexByte(sql, 0); i >= 0 {
		return "", false, fmt.Errorf("the statement holds a NUL byte (at byte %d); SQL text cannot", i)
	}
	long := func(start, end int) error {
		if end-start <= maxToken {
			return nil
		}
		return fmt.Errorf("a name or string of %d bytes (at byte %d), more than the %d a statement's token may have", end-start, start, maxToken)
	}
	explain := 0 // words of EXPLAIN QUERY PLAN skipped
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return first, into, nil
			}
			i += end + 4
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end, closed := quotedEnd(sql, i)
			if !closed {
				return first, into, long(i, len(sql))
			}
			if err := long(i, end); err != nil {
				return "", false, err
			}
			i = end
		case isIdentStart(c):
			j := i
			for j < len(sql) && isIdentByte(sql[j]) {
				j++
			}
			if err := long(i, j); err != nil {
				return "", false, err
			}
			word := sql[i:j]
			if len(word) <= len("EXPLAIN") {
				word = strings.ToUpper(word)
			}
			i = j
			switch {
			case first == "" && (word == "EXPLAIN" && explain == 0 || word == "QUERY" && explain == 1 || word == "PLAN" && explain == 2):
				explain++
			case first == "":
				first = word
			case word == "INTO":
				into = true
			}
		case c >= '0' && c <= '9' || c == '.':
			j := i
			for j < len(sql) && (isIdentByte(sql[j]) || sql[j] == '.') {
				j++
			}
			if err := long(i, j); err != nil {
				return "", false, err
			}
			i = j
		default:
			i++
		}
	}
	return first, into, nil
}

// quotedEnd returns the end of the quoted string or name that begins at
// sql[i] (past its closing quote; a doubled quote is inside it), and
// whether it is closed at all.
func quotedEnd(sql string, i int) (end int, closed bool) {
	close := sql[i]
	if close == '[' {
		close = ']'
	}
	end = i + 1
	for {
		j := strings.IndexByte(sql[end:], close)
		if j < 0 {
			return len(sql), false
		}
		end += j + 1
		if close == ']' || end >= len(sql) || sql[end] != close {
			return end, true
		}
		end++
	}
}

// isIdentStart and isIdentByte are SQLite's identifier characters: ASCII
// letters, _, digits and $ after the first, and every byte of a UTF-8
// sequence.
func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isIdentByte(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' || c == '$' }
