package workload

import (
	"errors"
	"fmt"
	"strconv"
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

// MaxScriptWeight bounds a script's weight, and so the deck's size.
const MaxScriptWeight = 1000

// Parse parses every script, in order. Errors are *sqlscript.Error,
// with the file and line.
func (s *SQL) Parse() ([]*sqlscript.Script, error) {
	out := make([]*sqlscript.Script, len(s.Scripts))
	for i, src := range s.Scripts {
		sc, err := sqlscript.Parse(src.File, src.Text, src.Weight)
		if err != nil {
			return nil, err
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

// checkSQL checks a sql workload: its scripts parse, fit the op space,
// have names of their own, and are the only ops the phases deal; a plan
// without one deals no script.
func (p *Plan) checkSQL() error {
	s := p.SQL
	if s == nil {
		for _, ph := range p.RunPhases() {
			for _, op := range ph.Mix.Ops() {
				if op.IsScript() {
					return fmt.Errorf("phase %s deals %v, but the plan has no scripts", ph.Name, op)
				}
			}
		}
		return nil
	}
	if err := s.checkScripts(); err != nil {
		return err
	}
	if _, err := s.ParseSchema(); err != nil {
		return err
	}
	if s.Scale < 1 {
		return fmt.Errorf("scale %d is out of range (want 1 or more)", s.Scale)
	}
	switch s.Check {
	case "", CheckTPCB:
	default:
		return fmt.Errorf("unknown check %q (want %s, or none)", s.Check, CheckTPCB)
	}
	if s.Check != "" && p.SkipLate {
		return errors.New("the check counts every transaction acknowledged: it cannot run with ops skipped (--skip-late)")
	}
	if p.Preload != 0 || p.Verify {
		return errors.New("a sql workload preloads nothing and checks with its own check, not --verify")
	}
	for _, ph := range p.RunPhases() {
		if ph.Access != AccessLottery || ph.Batch != 1 {
			return fmt.Errorf("phase %s: scripts are dealt by weight, one script per transaction (no each-key phases, no batches)", ph.Name)
		}
		for _, op := range ph.Mix.Ops() {
			if !op.IsScript() || int(op-OpScript) >= len(s.Scripts) {
				return fmt.Errorf("phase %s deals %v, which is not one of the plan's %d scripts", ph.Name, op, len(s.Scripts))
			}
		}
	}
	return nil
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

// OpNames returns every op's name in this plan's results: the scripts'
// names and SCRIPT#LINE for their statements in a sql workload, and
// Op.String otherwise.
func (p *Plan) OpNames() [MaxOp]string {
	var names [MaxOp]string
	for o := range MaxOp {
		names[o] = o.String()
	}
	if p.Replay != nil {
		for _, k := range p.Replay.Kinds {
			names[k.Op] = k.ID
		}
		return names
	}
	if p.SQL == nil {
		return names
	}
	scripts, err := p.SQL.Parse()
	if err != nil {
		return names
	}
	j := 0
	for i, sc := range scripts {
		names[ScriptOp(i)] = sc.Name
		for _, c := range sc.Commands {
			if c.SQL != nil && j < MaxStatements {
				names[StatementOp(j)] = sc.Name + "#" + strconv.Itoa(c.Line)
				j++
			}
		}
	}
	return names
}

// IsDataKind reports whether the op kind a result names is a data op,
// counted in throughput: a key-value op, one of a sql workload's scripts
// (not its statements, not the transaction markers), or a replayed
// trace's statements.
func (p *Plan) IsDataKind(kind string) bool {
	if op, err := ParseOp(kind); err == nil && op.IsData() {
		return true
	}
	if p.Replay != nil {
		for _, k := range p.Replay.Kinds {
			if k.ID == kind {
				return true
			}
		}
		return false
	}
	if p.SQL == nil {
		return false
	}
	names := p.OpNames()
	for i := range p.SQL.Scripts {
		if names[ScriptOp(i)] == kind {
			return true
		}
	}
	return false
}

// IsMarkerKind reports whether an op kind a result names is not counted
// in throughput: a batch's begin or commit, or one statement of a script
// (SCRIPT#LINE, recorded with SQL.PerStatement). Every other kind is a
// data op: a key-value op or a script.
func IsMarkerKind(kind string) bool {
	return kind == OpBegin.String() || kind == OpCommit.String() || strings.Contains(kind, "#")
}
