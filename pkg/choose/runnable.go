package choose

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// runnable returns the candidates that can run spec's workload, and a
// line for each reason others cannot: one line for the engines its
// Drivers leave out ("bbolt, pebble, badger, lmdb: SQL scripts run on
// the SQLite drivers only"), one per reason the workload's own checks
// refuse a driver for (a YCSB workload on an engine that keeps no record
// tables, its scans on one that keeps them in no key order), as the
// commands refuse them before anything runs. A workload no candidate can
// run is an error; so is one its plans refuse whatever the driver.
func runnable(spec Spec, reg *store.Registry, cands []Candidate) ([]Candidate, []string, error) {
	only, why := spec.Workload.Drivers()
	var ok []Candidate
	var left, lines []string
	for _, c := range cands {
		if only != nil && !slices.Contains(only, c.Driver) {
			if !slices.Contains(left, c.Driver) {
				left = append(left, c.Driver)
			}
			continue
		}
		ok = append(ok, c)
	}
	if len(left) > 0 {
		lines = append(lines, strings.Join(left, ", ")+": "+why)
	}
	var refused []refusal
	var can []Candidate
	for _, c := range ok {
		why, err := probe(spec, reg, c)
		switch {
		case err != nil:
			return nil, nil, err
		case why != "":
			refused = append(refused, refusal{c, why})
		default:
			can = append(can, c)
		}
	}
	lines = append(lines, refusalLines(refused, cands)...)
	if len(can) == 0 {
		return nil, lines, fmt.Errorf("no candidate can run the workload: %s", strings.Join(lines, "; "))
	}
	return can, lines, nil
}

// refusal is a candidate the workload's checks refused, and why.
type refusal struct {
	cand Candidate
	why  string
}

// probe builds c's plan (its power-cut plan, under KeepAcked, which
// checks more) and checks it against its driver, as a run would before
// anything opens: why c cannot run the workload, "" where it can. A plan
// the workload refuses whatever the driver is an error (a driver's own
// refusals are store.ErrInvalid's).
func probe(spec Spec, reg *store.Registry, c Candidate) (string, error) {
	loop := crashLoop(minRun, 3)
	if spec.Keep != KeepAcked {
		loop.Crash = nil
	}
	drv, err := reg.Lookup(c.Driver)
	if err != nil {
		return "", err
	}
	// The speed runs run in a worker process of their own, the power-cut
	// run in gobench's: each plan is checked in its own mode.
	for _, mode := range []string{workload.ModeProcess, workload.ModeGoroutine} {
		if mode == workload.ModeGoroutine && loop.Crash == nil {
			continue
		}
		l := loop
		if mode == workload.ModeProcess {
			l.Crash = nil
		}
		plan, err := cellPlan(spec, reg, c, mode, l)
		switch {
		case errors.Is(err, store.ErrInvalid):
			return reason(err), nil
		case err != nil:
			return "", err
		}
		if err := workload.CheckDriver(plan, drv); err != nil {
			return reason(err), nil
		}
	}
	return "", nil
}

// reason is a driver's refusal as a line says it, after the candidate:
// what follows store.ErrInvalid's words, where they are in it.
func reason(err error) string {
	msg := err.Error()
	marker := store.ErrInvalid.Error() + ": "
	if i := strings.LastIndex(msg, marker); i >= 0 {
		msg = msg[i+len(marker):]
	}
	return msg
}

// refusalLines says, a line per reason, which candidates were refused:
// by driver where each of a driver's candidates was refused for it, else
// by name.
func refusalLines(refused []refusal, cands []Candidate) []string {
	var reasons []string
	who := map[string][]string{}
	for _, r := range refused {
		if _, seen := who[r.why]; !seen {
			reasons = append(reasons, r.why)
		}
		who[r.why] = append(who[r.why], r.cand.Name())
	}
	var out []string
	for _, why := range reasons {
		out = append(out, strings.Join(byDriver(who[why], cands), ", ")+": "+why)
	}
	return out
}

// byDriver names a driver for names that are all of its candidates,
// else the names themselves.
func byDriver(names []string, cands []Candidate) []string {
	var out []string
	for _, c := range cands {
		if !slices.Contains(names, c.Name()) {
			continue
		}
		all := true
		for _, d := range cands {
			if d.Driver == c.Driver && !slices.Contains(names, d.Name()) {
				all = false
			}
		}
		switch {
		case !all:
			out = append(out, c.Name())
		case !slices.Contains(out, c.Driver):
			out = append(out, c.Driver)
		}
	}
	return out
}
