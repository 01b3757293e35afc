package choose

import (
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// roleFigures is, for a plan of roles, each role's figures over the
// complete speed runs: the median of its ops/s with the interval of the
// median (or the runs' range), and the median of its p99 over all its
// data ops; nil without roles.
func roleFigures(plan *workload.Plan, runs []*result.Result) []result.ChoiceRole {
	if plan == nil || len(plan.Roles) == 0 {
		return nil
	}
	out := make([]result.ChoiceRole, len(plan.Roles))
	for i, r := range plan.Roles {
		out[i] = result.ChoiceRole{Name: r.Name, Workers: r.Workers}
		vals := keyValues(runs, r.Name)
		if len(vals) == 0 {
			continue
		}
		out[i].OpsPerSec, out[i].Low, out[i].High, out[i].Confidence = medianInterval(vals)
		out[i].P99 = medianP99(runs, r.Name+" total")
	}
	return out
}
