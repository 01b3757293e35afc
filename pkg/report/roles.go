package report

import (
	"slices"
	"strconv"

	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// roleTable is the table of a phase's roles (workload.Plan.Roles): per
// role, its workers, then per op kind it ran (and its total, when it ran
// several) the columns of opTable, and the fairness among its workers
// (Jain's index over their ops/s); nil without roles. Every row names its
// role, as a gate names it ("reader read p99").
func roleTable(ph result.Phase, stats []*judge.Figure, errCell func(result.OpStats) string) *table {
	if len(ph.Roles) == 0 {
		return nil
	}
	base := opTable(nil, stats, errCell)
	t := &table{Caption: "Throughput and latency per role", Keys: 1,
		Head: append(append([]string{"role", "workers"}, base.Head...), "fairness"),
		Num:  append(append([]bool{false, true}, base.Num...), true)}
	for _, r := range ph.Roles {
		rows := slices.DeleteFunc(slices.Clone(r.Ops), func(o result.OpStats) bool { return workload.IsMarkerKind(o.Kind) })
		if len(rows) != 1 {
			rows = append(rows, r.Total)
		}
		for i, row := range opTable(rows, stats, errCell).Rows {
			workers, fair := "", ""
			if i == 0 {
				workers, fair = strconv.Itoa(len(r.Workers)), roleFairness(ph, r)
			}
			t.Rows = append(t.Rows, append(append([]string{r.Name, workers}, row...), fair))
		}
	}
	return t
}

// roleFairness is Jain's index over the ops/s of role r's workers that
// finished, "–" with fewer than two.
func roleFairness(ph result.Phase, r result.Role) string {
	var rates []float64
	for _, w := range ph.Workers {
		if w.Finished && slices.Contains(r.Workers, w.ID) {
			rates = append(rates, w.OpsPerSec)
		}
	}
	if len(rates) < 2 {
		return "–"
	}
	return units.Fixed(judge.JainIndex(rates), 2)
}

// runRolesTable is a run's roles at a glance, every phase's (HTML's
// answer beside the op kinds'); nil without roles.
func runRolesTable(r *result.Result, stats []*judge.Figure) *table {
	var a *table
	for _, ph := range r.Phases {
		t := roleTable(ph, stats, func(o result.OpStats) string { return errorsShort(o.Errors) })
		if t == nil {
			continue
		}
		if a == nil {
			a = &table{Caption: t.Caption, Head: t.Head, Num: t.Num, Keys: t.Keys}
		}
		for _, row := range t.Rows {
			if len(r.Phases) > 1 {
				row[0] = ph.Name + ": " + row[0]
			}
			a.Rows = append(a.Rows, row)
		}
	}
	return a
}
