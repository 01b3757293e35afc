package workload

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobench/gobench/pkg/sqlscript"
)

// SQL is a sql workload: the user's scripts, dealt by weight to every
// worker (a phase's Mix names them as ScriptOp(i), with their weights),
// and a schema run once before the workers start. A plan with SQL set has
// no key-value ops and no preload.
type SQL struct {
	// Scripts are the scripts' sources; script i runs as op ScriptOp(i)
	// and is reported under its name (its file's base name).
	Scripts []SQLFile `json:"scripts"`
	// Schema, if set, runs once on the database after the store's Init
	// and before any worker starts, outside every measurement: tables,
	// indexes, data.
	Schema *SQLFile `json:"schema,omitempty"`
	// Scale is :scale in the scripts and the schema (at least 1).
	Scale int64 `json:"scale"`
	// PerStatement records every statement's latency too, as op
	// StatementOp(j), named SCRIPT#LINE (pgbench's -r).
	PerStatement bool `json:"per_statement,omitempty"`
	// Check names a check of the database after the run: CheckTPCB, or
	// none.
	Check string `json:"check,omitempty"`
	// From, if set, is an existing database the run copies (with its -wal
	// or -journal file) to its own path before the store is set up; the
	// copy is benchmarked, the original only read. Worker processes never
	// look at it.
	From string `json:"from,omitempty"`
}

// SQLFile is a script or schema as read from its file.
type SQLFile struct {
	// File is where the text came from, for names and messages: a path,
	// or builtin:NAME.
	File string `json:"file"`
	Text string `json:"text"`
	// Weight is a script's share of the deck (pgbench's FILE@WEIGHT).
	Weight int `json:"weight,omitempty"`
	// ReadOnly records, when the plan is built (see NewSQLFile), that the
	// script cannot write (sqlscript.Script.Writes): it commits nothing
	// to sync. A plan that says so of a script that may write is refused.
	// False, as in plans written before it, counts the script as one
	// that may write.
	ReadOnly bool `json:"read_only,omitempty"`
	// Variant, where a run compares alternatives of this file (gobench
	// sql --schema a.sql,b.sql, or --file a.sql,b.sql), names this one
	// among them: the value of the matrix setting schema or file, which
	// gates select cells by. "" for a file without alternatives.
	Variant string `json:"variant,omitempty"`
	// Name, if set, names a script in place of its file's base name: the
	// alternatives of one script share the first's name, so that their
	// figures are of one op kind.
	Name string `json:"name,omitempty"`
}

// NewSQLFile returns the script (or schema) text read from file, with
// its weight and whether it is read-only; a script that does not parse
// is returned as one that may write, for Plan.Validate to refuse.
func NewSQLFile(file, text string, weight int) SQLFile {
	f := SQLFile{File: file, Text: text, Weight: weight}
	if sc, err := sqlscript.Parse(file, text, max(weight, 1)); err == nil {
		f.ReadOnly = !sc.Writes()
	}
	return f
}

// mayWrite reports whether the script may write: all but those the plan
// records as read-only.
func (f SQLFile) mayWrite() bool { return !f.ReadOnly }

// Checks of a sql workload's database after the run (SQL.Check).
const (
	// CheckTPCB checks TPC-B's invariant on pgbench's tables: account,
	// teller and branch balances and history deltas all sum to the same
	// total, and the history holds one row per acknowledged transaction.
	CheckTPCB = "tpcb"
)

// Parse parses every script, in order. Errors are *sqlscript.Error,
// with the file and line.
func (s *SQL) Parse() ([]*sqlscript.Script, error) {
	out := make([]*sqlscript.Script, len(s.Scripts))
	for i, src := range s.Scripts {
		sc, err := sqlscript.Parse(src.File, src.Text, src.Weight)
		if err != nil {
			return nil, err
		}
		if src.Name != "" {
			sc.Name = src.Name
		}
		out[i] = sc
	}
	return out, nil
}

// ParseSchema parses the schema as a script (statements and \set lines),
// or returns nil when there is none.
func (s *SQL) ParseSchema() (*sqlscript.Script, error) {
	if s.Schema == nil {
		return nil, nil
	}
	return sqlscript.Parse(s.Schema.File, s.Schema.Text, 1)
}

// Mix returns the deck of the scripts: each ScriptOp with its weight.
func (s *SQL) Mix() Mix {
	m := make(Mix, len(s.Scripts))
	for i, src := range s.Scripts {
		m[i] = Weight{ScriptOp(i), float64(src.Weight)}
	}
	return m
}

// checkScripts checks the scripts parse, their number and weights, and
// that their names tell them apart.
func (s *SQL) checkScripts() error {
	if len(s.Scripts) == 0 {
		return errors.New("a sql workload needs at least one script")
	}
	if len(s.Scripts) > MaxScripts {
		return fmt.Errorf("%d scripts are more than the %d a run can have", len(s.Scripts), MaxScripts)
	}
	scripts, err := s.Parse()
	if err != nil {
		return err
	}
	seen := map[string]string{}
	statements := 0
	for i, sc := range scripts {
		if sc.Weight < 1 || sc.Weight > MaxScriptWeight {
			return fmt.Errorf("%s: weight %d is out of range (want 1 to %d)", sc.File, sc.Weight, MaxScriptWeight)
		}
		if s.Scripts[i].ReadOnly && sc.Writes() {
			return fmt.Errorf("%s: the plan says the script is read-only, but it may write", sc.File)
		}
		if err := CheckScriptName(sc.Name); err != nil {
			return fmt.Errorf("%s: %w", sc.File, err)
		}
		if other, ok := seen[sc.Name]; ok {
			return fmt.Errorf("%s and %s have the same name, %s: results name scripts after their files (rename one)", other, sc.File, sc.Name)
		}
		seen[sc.Name] = sc.File
		for _, c := range sc.Commands {
			if c.SQL != nil {
				statements++
			}
		}
	}
	if statements > MaxStatements {
		return fmt.Errorf("the scripts have %d statements in all, more than the %d a run can have", statements, MaxStatements)
	}
	return nil
}

// CheckScriptName refuses a script name that results and gates could not
// use as an op kind.
func CheckScriptName(name string) error {
	switch {
	case name == "" || strings.ContainsAny(name, "#: \t\n"):
		return fmt.Errorf("the script name %q cannot name an op kind (want a file name without spaces, '#' or ':')", name)
	case name == "total" || name == kindCommits || name == OpBegin.String() || name == OpCommit.String():
		return fmt.Errorf("the script name %q names a figure of gobench's own (rename the file)", name)
	}
	return nil
}

// kindCommits is the pseudo op kind reports give durable commits.
const kindCommits = "commits"

// IsMarkerKind reports whether an op kind a result names is not counted
// in throughput: a batch's begin or commit, or one statement of a script
// (SCRIPT#LINE, recorded with SQL.PerStatement). Every other kind is a
// data op: a key-value op or a script.
func IsMarkerKind(kind string) bool {
	return kind == OpBegin.String() || kind == OpCommit.String() || strings.Contains(kind, "#")
}
