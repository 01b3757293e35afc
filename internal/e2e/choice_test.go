package e2e

import (
	"encoding/json"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gobench/gobench/pkg/result"
)

// choicecheck FILE check... asserts facts about gobench choose's answer
// (its --json):
//
//	drivers=a,b        the rows' drivers, each once, sorted
//	rows=N             N rows
//	ranked=N           N of them ranked
//	workload=REGEXP    the workload's name matches
//	notmeasured=REGEXP a line of what was not measured matches
//	kept               every row was cut the answer's cuts times (at least
//	                   one), lost nothing, was left corrupt by none, and
//	                   counted its syncs per commit
//	rankby=ROLE        the rows are ranked by ROLE's ops/s: each ranked
//	                   row has it, in the ranked order
//	roles=a,b          every measured row has these roles, in this order,
//	                   each with ops/s and a p99 above 0, its ops/s
//	                   summing to the row's
//	space=REGEXP       every measured row states its size on disk, and
//	                   its space note matches (no space amplification)
func choiceCheck(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: choicecheck FILE check...")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var c result.Choice
	ts.Check(json.Unmarshal(data, &c))
	if c.Kind != result.ChoiceKind {
		ts.Fatalf("%s: kind %q, want %q", args[0], c.Kind, result.ChoiceKind)
	}
	for _, a := range args[1:] {
		name, want, _ := strings.Cut(a, "=")
		switch name {
		case "drivers":
			var got []string
			for _, r := range c.Rows {
				if !slices.Contains(got, r.Driver) {
					got = append(got, r.Driver)
				}
			}
			slices.Sort(got)
			if strings.Join(got, ",") != want {
				ts.Fatalf("drivers %q, want %s", got, want)
			}
		case "rows", "ranked":
			n := len(c.Rows)
			if name == "ranked" {
				n = slices.IndexFunc(c.Rows, func(r result.ChoiceRow) bool { return r.Rank == 0 })
				if n < 0 {
					n = len(c.Rows)
				}
			}
			if strconv.Itoa(n) != want {
				ts.Fatalf("%d %s, want %s: %+v", n, name, want, c.Rows)
			}
		case "workload":
			if !regexp.MustCompile(want).MatchString(c.Workload) {
				ts.Fatalf("workload %q does not match %q", c.Workload, want)
			}
		case "notmeasured":
			re := regexp.MustCompile(want)
			if !slices.ContainsFunc(c.NotMeasured, re.MatchString) {
				ts.Fatalf("no line of not measured %q matches %q", c.NotMeasured, want)
			}
		case "kept":
			checkKept(ts, &c)
		case "rankby":
			checkRankBy(ts, &c, want)
		case "roles":
			checkRoles(ts, &c, strings.Split(want, ","))
		case "space":
			checkSpace(ts, &c, regexp.MustCompile(want))
		default:
			ts.Fatalf("unknown check %q", a)
		}
	}
}

// checkKept asserts every row of c was cut as often as c says, and kept
// every acknowledged write.
func checkKept(ts *testscript.TestScript, c *result.Choice) {
	if c.Cuts < 1 {
		ts.Fatalf("%d cuts", c.Cuts)
	}
	for _, r := range c.Rows {
		if r.Cuts != c.Cuts || r.Lossy != 0 || r.Corrupt != 0 || r.SyncsPerCommit <= 0 {
			ts.Fatalf("%s: %d cuts (want %d), %d lossy, %d corrupt, %v syncs/commit: %s", r.Name(), r.Cuts, c.Cuts, r.Lossy, r.Corrupt, r.SyncsPerCommit, r.CutNote)
		}
	}
}

// checkRankBy asserts c is ranked by role's ops/s: it says so, and its
// ranked rows' figures of role fall from the first.
func checkRankBy(ts *testscript.TestScript, c *result.Choice, role string) {
	if c.RankBy != role || c.RankWhy == "" {
		ts.Fatalf("ranked by %q (%s), want %q", c.RankBy, c.RankWhy, role)
	}
	prev := math.Inf(1)
	for _, r := range c.Rows {
		if r.Rank == 0 {
			continue
		}
		ro, ok := r.Role(role)
		if !ok || ro.OpsPerSec > prev {
			ts.Fatalf("%s: rank %d with %s %+v after %v ops/s", r.Name(), r.Rank, role, ro, prev)
		}
		prev = ro.OpsPerSec
	}
}

// checkRoles asserts each measured row of c has the roles named, in
// order, each measured.
func checkRoles(ts *testscript.TestScript, c *result.Choice, names []string) {
	for _, r := range c.Rows {
		if r.Runs == 0 {
			continue
		}
		var got []string
		sum := 0.0
		for _, ro := range r.Roles {
			got = append(got, ro.Name)
			sum += ro.OpsPerSec
			if ro.OpsPerSec <= 0 || ro.P99 <= 0 || ro.Low > ro.OpsPerSec || ro.High < ro.OpsPerSec {
				ts.Fatalf("%s: role %+v not measured", r.Name(), ro)
			}
		}
		// Each median is of its own runs: their sum is near the
		// total's median, not equal to it.
		if !slices.Equal(got, names) || sum < r.OpsPerSec/2 || sum > r.OpsPerSec*2 {
			ts.Fatalf("%s: roles %+v (ops/s summing to %v), want %q summing to about %v", r.Name(), r.Roles, sum, names, r.OpsPerSec)
		}
	}
}

// checkSpace asserts each measured row of c states its size on disk and
// no space amplification, its note matching re.
func checkSpace(ts *testscript.TestScript, c *result.Choice, re *regexp.Regexp) {
	for _, r := range c.Rows {
		if r.Runs > 0 && (r.DiskBytes <= 0 || r.SpaceAmplification != 0 || !re.MatchString(r.SpaceNote)) {
			ts.Fatalf("%s: on disk %d, space amp %v, note %q (want it to match %q)", r.Name(), r.DiskBytes, r.SpaceAmplification, r.SpaceNote, re)
		}
	}
}

// choicerss FILE asserts that the memory of every measured row of
// choose's answer FILE is its own worker process's: a peak recorded, and
// below the coordinating process's peak over the runs (which hosted every
// power-cut run and holds every result: a row reading it would be
// gobench's, not the engine's); and that each row's engine memory is
// that peak less the null driver's baseline, which was measured.
func choiceRSS(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: choicerss FILE")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var c result.Choice
	ts.Check(json.Unmarshal(data, &c))
	mib := func(b int64) float64 { return float64(b) / (1 << 20) }
	ts.Logf("coordinator peak %.1f MiB, baseline worker %.1f MiB", mib(c.CoordinatorMaxRSSBytes), mib(c.BaselineRSSBytes))
	if c.CoordinatorMaxRSSBytes <= 0 || c.BaselineRSSBytes <= 0 {
		ts.Fatalf("coordinator peak %d, baseline %d: want both measured", c.CoordinatorMaxRSSBytes, c.BaselineRSSBytes)
	}
	measured := 0
	for _, r := range c.Rows {
		if r.Runs == 0 {
			continue
		}
		measured++
		ts.Logf("%s: worker peak %.1f MiB, engine %.1f MiB", r.Name(), mib(r.PeakRSSBytes), mib(r.EngineRSSBytes))
		switch {
		case r.PeakRSSBytes <= 0:
			ts.Fatalf("%s: no worker peak (%s)", r.Name(), r.MemoryNote)
		case r.PeakRSSBytes >= c.CoordinatorMaxRSSBytes:
			ts.Fatalf("%s: peak %d, no less than the coordinator's %d: not its own worker's", r.Name(), r.PeakRSSBytes, c.CoordinatorMaxRSSBytes)
		case r.EngineRSSBytes != r.PeakRSSBytes-c.BaselineRSSBytes:
			ts.Fatalf("%s: engine %d, want its peak %d less the baseline %d", r.Name(), r.EngineRSSBytes, r.PeakRSSBytes, c.BaselineRSSBytes)
		}
	}
	if measured < 2 {
		ts.Fatalf("%d measured rows: want 2 or more", measured)
	}
}
