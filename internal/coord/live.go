package coord

import "github.com/gobench/gobench/pkg/workload"

// uncountedTables says why the live data of p's database cannot be
// counted: SQL scripts and a replayed trace keep it in their own tables,
// which store.Live does not walk (it counts gobench's key-value and
// record tables, which they leave empty); "" for the others.
func uncountedTables(p *workload.Plan) string {
	switch {
	case p.SQL != nil:
		return "the live data of SQL scripts' own tables is not counted (only gobench's key-value and record tables are)"
	case p.Replay != nil:
		return "the live data of a trace's own tables is not counted (only gobench's key-value and record tables are)"
	}
	return ""
}
