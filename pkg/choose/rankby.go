package choose

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/workload"
)

// The reasons a ranking key is what it is, as the answer states them.
const (
	rankGiven       = "as --rank-by asked"
	rankFirstWriter = "the first closed-loop role that writes"
	rankFirstClosed = "the first closed-loop role (none writes in closed loop)"
	rankFirstRole   = "the first role (every role runs at a fixed rate)"
)

// rankKey chooses the role whose ops/s ranks the rows of a workload of
// roles (p, any of its plans): given, where the user named one; else the
// first role that writes in closed loop (a role at a fixed @RATE does
// what it is told, whatever the engine), since the promise is about
// writes; else the first closed-loop role (for the same reason); else the
// first role. Without roles the total ops/s ranks ("").
// A given role the workload lacks, or one given without roles, is an
// error naming the roles.
func rankKey(p *workload.Plan, given string) (role, why string, err error) {
	names := p.RoleNames()
	switch {
	case given != "" && len(names) == 0:
		return "", "", fmt.Errorf("--rank-by %s: the workload has no roles (--role NAME:COUNT:MIX ranks by a role's ops/s; without roles the total ops/s ranks)", given)
	case given != "" && !slices.Contains(names, given):
		return "", "", fmt.Errorf("--rank-by %s: no such role (the roles: %s)", given, strings.Join(names, ", "))
	case given != "":
		return given, rankGiven, nil
	case len(names) == 0:
		return "", "", nil
	}
	for _, r := range p.Roles {
		if r.Rate == 0 && writes(r.Mix) {
			return r.Name, rankFirstWriter, nil
		}
	}
	for _, r := range p.Roles {
		if r.Rate == 0 {
			return r.Name, rankFirstClosed, nil
		}
	}
	return names[0], rankFirstRole, nil
}

// writes reports whether m deals any write.
func writes(m workload.Mix) bool {
	return slices.ContainsFunc(m, func(w workload.Weight) bool { return w.Op.IsWrite() && w.Percent > 0 })
}
