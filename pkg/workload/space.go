package workload

import "slices"

// builtinAccountBytes is what one account row of pgbench's tables holds
// at the least: its filler of 84 characters (see pgbench-schema.sql).
const builtinAccountBytes = 84

// builtinAccountsPerScale is the accounts per unit of :scale.
const builtinAccountsPerScale = 100_000

// MinStoredBytes returns a lower bound on the bytes the plan's database
// holds at its fullest: the values preloaded, the values an insert phase
// that visits every key writes, and the tables a built-in sql workload
// fills (see SQL.MinBytes); what the values alone take, before any
// engine's overhead. A run whose bound exceeds the free space of its
// database's file system would fill it, so a caller refuses it before
// the run. It is a float64: a typo's --keys or --scale overflows int64.
func (p *Plan) MinStoredBytes() float64 {
	per := float64(max(p.ValueSize-p.ValueVariance, 0))
	rows := float64(p.Preload)
	for _, ph := range p.RunPhases() {
		if ph.Access == AccessEach && slices.Contains(ph.Mix.Ops(), OpInsert) && p.Records != nil {
			rows = max(rows, float64(p.Records.InsertCount)*float64(len(p.WorkerIDs()))/float64(max(p.Workers(), 1)))
		} else if ph.Access == AccessEach && slices.Contains(ph.Mix.Ops(), OpInsert) {
			share := 1.0
			if p.Procs > 0 {
				share = float64(len(p.ProcIndexes())) / float64(p.Procs)
			}
			rows = max(rows, float64(p.Keys.Count)*share)
		}
	}
	n := rows * per
	if p.SQL != nil {
		n += p.SQL.MinBytes()
	}
	return n
}

// MinBytes returns a lower bound on the bytes the workload's schema
// fills its database with: for the built-in pgbench tables, the accounts'
// fillers at :scale; for a schema of the user's, nothing known.
func (s *SQL) MinBytes() float64 {
	if s.Schema == nil || s.Schema.Text != builtinSchemaText() {
		return 0
	}
	return float64(s.Scale) * builtinAccountsPerScale * builtinAccountBytes
}

// builtinSchemaText is the text of the built-in schema, pgbench's tables.
func builtinSchemaText() string {
	src, err := builtinSource("pgbench-schema")
	if err != nil {
		return ""
	}
	return src.Text
}
