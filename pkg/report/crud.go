package report

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// crudGroups are the phase groups of a CRUD run, in order.
var crudGroups = []string{"insert", "query", "update", "scan", "delete"}

// crudCell is one phase group of one engine and size, over repeats.
type crudCell struct {
	// OpsPerSec is the mean over repeats; for query and update, the
	// median over rounds of the per-round means; for scan, rows per
	// second. Best is the best round (query, update), else OpsPerSec.
	OpsPerSec float64 `json:"ops_per_sec"`
	Best      float64 `json:"best"`
	// RelStdDev is the standard deviation over repeats as a fraction of
	// the mean (0 for one repeat).
	RelStdDev float64 `json:"rel_stddev"`
	// Latency percentiles in microseconds (the median round's, for rounds).
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	// Present is false where the engine did not run the phase (no scan).
	Present bool `json:"present"`
	// Errors sums the group's failed ops by class, over rounds and
	// repeats.
	Errors result.Errors `json:"errors"`
}

// crudRow is one engine at one size.
type crudRow struct {
	Settings result.Settings `json:"settings"`
	// Variant holds the settings that vary between rows of the same
	// driver and size (such as journal=wal), which name and match rows.
	Variant result.Settings `json:"variant,omitempty"`
	Driver  string          `json:"driver"`
	Rows    uint64          `json:"rows"`
	Repeats int             `json:"repeats"`
	Rounds  int             `json:"rounds"`
	Groups  []crudCell      `json:"groups"` // by crudGroups
	// Sizes after the insert phase and at the end (after delete).
	SizeAfterInsert *result.DiskSize `json:"size_after_insert,omitempty"`
	SizeAtEnd       *result.DiskSize `json:"size_at_end,omitempty"`
}

// crudReport is the scaling table of a CRUD suite.
type crudReport struct {
	Suite    *result.Suite
	Rows     []crudRow
	Baseline string // driver the factors are against
}

// summarizeCRUD builds the scaling table of a suite of CRUD runs: one row
// per cell (engine and size, and any other varied setting), factors
// against the baseline driver at the same size.
func summarizeCRUD(s *result.Suite, baseline string) (*crudReport, error) {
	t := &crudReport{Suite: s, Baseline: baseline}
	for _, c := range s.Cells {
		first := c.Runs[0]
		row := crudRow{Settings: c.Settings, Driver: first.Plan.Driver, Rows: first.Plan.Keys.Count, Repeats: len(c.Runs)}
		for _, g := range crudGroups {
			cell, rounds := crudGroup(c.Runs, g, row.Rows)
			row.Groups = append(row.Groups, cell)
			row.Rounds = max(row.Rounds, rounds)
		}
		row.SizeAfterInsert = phaseSize(first, "insert")
		if n := len(first.Phases); n > 0 {
			row.SizeAtEnd = first.Phases[n-1].Size
		}
		t.Rows = append(t.Rows, row)
	}
	t.setVariants()
	if t.Baseline == "" && len(t.Rows) > 0 {
		t.Baseline = t.Rows[0].Driver
	}
	if !slices.ContainsFunc(t.Rows, func(r crudRow) bool { return r.Driver == t.Baseline }) {
		return nil, fmt.Errorf("--baseline %s: no such driver in the run", t.Baseline)
	}
	return t, nil
}

func phaseSize(r *result.Result, name string) *result.DiskSize {
	for _, ph := range r.Phases {
		if ph.Name == name {
			return ph.Size
		}
	}
	return nil
}

// crudGroup summarises one phase group over a cell's repeats.
func crudGroup(runs []*result.Result, group string, rows uint64) (crudCell, int) {
	// Per round, the values over repeats.
	var rounds [][]float64
	var p50s, p99s [][]float64
	var errs result.Errors
	for _, r := range runs {
		i := 0
		for _, ph := range r.Phases {
			if ph.Name != group && !strings.HasPrefix(ph.Name, group+" ") {
				continue
			}
			if ph.Total.Count == 0 {
				continue // skipped: the engine cannot do this phase's op
			}
			if i == len(rounds) {
				rounds, p50s, p99s = append(rounds, nil), append(p50s, nil), append(p99s, nil)
			}
			v := ph.Total.OpsPerSec
			if group == "scan" && ph.WallSeconds > 0 {
				v = float64(rows) / ph.WallSeconds // rows per second
			}
			rounds[i] = append(rounds[i], v)
			errs.Add(ph.Total.Errors)
			p50s[i] = append(p50s[i], ph.Total.P50Micros)
			p99s[i] = append(p99s[i], ph.Total.P99Micros)
			i++
		}
	}
	if len(rounds) == 0 {
		return crudCell{}, 0
	}
	means := make([]float64, len(rounds))
	for i := range rounds {
		means[i] = judge.StatsOf(rounds[i]).Mean
	}
	// The median round (the lower middle one for an even count).
	order := make([]int, len(means))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case means[a] < means[b]:
			return -1
		case means[a] > means[b]:
			return 1
		}
		return 0
	})
	mid := order[(len(order)-1)/2]
	cell := crudCell{
		OpsPerSec: judge.StatsOf(means).Median,
		Best:      slices.Max(means),
		RelStdDev: judge.StatsOf(rounds[mid]).RelStdDev(),
		P50Micros: judge.StatsOf(p50s[mid]).Mean,
		P99Micros: judge.StatsOf(p99s[mid]).Mean,
		Present:   true,
		Errors:    errs,
	}
	return cell, len(rounds)
}

// setVariants finds, per row, the settings that take more than one value
// among the rows of its driver and size: what tells those rows apart.
// Settings that differ only between engines (their own options, a batch
// size an engine cannot use) do not name rows.
func (t *crudReport) setVariants() {
	for i := range t.Rows {
		r := &t.Rows[i]
		for _, st := range r.Settings {
			if st.Name == "driver" || st.Name == "keys" {
				continue
			}
			for _, o := range t.Rows {
				if o.Driver == r.Driver && o.Rows == r.Rows {
					if v, _ := o.Settings.Get(st.Name); v != st.Value {
						r.Variant = append(r.Variant, st)
						break
					}
				}
			}
		}
	}
}

// baselineRow returns the baseline driver's row at the same size (and
// with the same variant, where the baseline has one).
func (t *crudReport) baselineRow(row crudRow) *crudRow {
	var fallback *crudRow
	for i, r := range t.Rows {
		if r.Driver != t.Baseline || r.Rows != row.Rows {
			continue
		}
		if r.Variant.String() == row.Variant.String() {
			return &t.Rows[i]
		}
		if fallback == nil {
			fallback = &t.Rows[i]
		}
	}
	if fallback != nil && len(fallback.Variant) == 0 {
		return fallback
	}
	return nil
}

// label names a row: its driver and its variant.
func (row crudRow) label() string {
	if len(row.Variant) == 0 {
		return row.Driver
	}
	return row.Driver + " (" + row.Variant.String() + ")"
}

func sizeText(s *result.DiskSize, rows uint64) string {
	if s == nil {
		return "–"
	}
	per := ""
	if rows > 0 {
		per = fmt.Sprintf(", %s B/row", units.Sig3(float64(s.AllocatedBytes)/float64(rows)))
	}
	return fmt.Sprintf("%s alloc (%s apparent%s)", bytesize.Units{}.Round(s.AllocatedBytes), bytesize.Units{}.Round(s.ApparentBytes), per)
}

func opsCell(c crudCell, group string, repeats int) string {
	if !c.Present {
		return "–"
	}
	s := units.Rate(c.OpsPerSec)
	if group == "query" || group == "update" {
		s += " (best " + units.Rate(c.Best) + ")"
	}
	if repeats > 1 {
		s += fmt.Sprintf(" ±%.0f%%", 100*c.RelStdDev)
	}
	return s
}

// crudText writes the scaling table, its latency companion, and the
// factor table against the baseline engine.
func crudText(w io.Writer, t *crudReport) error {
	ew := textWriter(w)
	crudHeader(ew, t)
	tw := ew.keyedTable(0, 2)
	tw.printf("engine\trows\tinsert\tquery\tupdate\tscan (rows/s)\tdelete\tsize after insert\tsize at end\n")
	for _, r := range t.Rows {
		tw.printf("%s\t%d", r.label(), r.Rows)
		for i, g := range crudGroups {
			tw.printf("\t%s", opsCell(r.Groups[i], g, r.Repeats))
		}
		tw.printf("\t%s\t%s\n", sizeText(r.SizeAfterInsert, r.Rows), sizeText(r.SizeAtEnd, r.Rows))
	}
	tw.flush()

	for _, r := range t.Rows {
		for i, g := range crudGroups {
			if e := r.Groups[i].Errors; e.Total > 0 {
				ew.printf("errors: %s, %d rows, %s: %s\n", r.label(), r.Rows, g, errorText(result.OpStats{Errors: e}))
			}
		}
	}

	ew.printf("\nlatency per op, p50 / p99 (query and update: the median round)\n")
	tw = ew.keyedTable(0, 2)
	tw.printf("engine\trows\tinsert\tquery\tupdate\tscan (100 rows)\tdelete\n")
	for _, r := range t.Rows {
		tw.printf("%s\t%d", r.label(), r.Rows)
		for _, c := range r.Groups {
			if c.Present {
				tw.printf("\t%s / %s", units.Micros(c.P50Micros), units.Micros(c.P99Micros))
			} else {
				tw.printf("\t–")
			}
		}
		tw.printf("\n")
	}
	tw.flush()

	ew.printf("\nfactor against %s at the same size (throughput ratio, higher is better)\n", t.Baseline)
	tw = ew.keyedTable(0, 2)
	tw.printf("engine\trows\tinsert\tquery\tupdate\tscan\tdelete\n")
	for _, r := range t.Rows {
		if r.Driver == t.Baseline {
			continue
		}
		b := t.baselineRow(r)
		tw.printf("%s\t%d", r.label(), r.Rows)
		for i := range crudGroups {
			if b == nil || !r.Groups[i].Present || !b.Groups[i].Present || b.Groups[i].OpsPerSec == 0 {
				tw.printf("\t–")
				continue
			}
			tw.printf("\t×%s", units.Sig3(r.Groups[i].OpsPerSec/b.Groups[i].OpsPerSec))
		}
		tw.printf("\n")
	}
	tw.flush()
	return ew.err
}

func crudHeader(w *errWriter, t *crudReport) {
	if len(t.Rows) == 0 {
		return
	}
	first := t.Suite.Cells[0].Runs[0]
	p := first.Plan
	ins := p.Phases[0]
	batch := fmt.Sprintf("write batch %d", ins.Batch)
	var alone []string
	for _, c := range t.Suite.Cells {
		r := c.Runs[0].Plan
		if r.Phases[0].Batch == 1 && ins.Batch > 1 && !slices.Contains(alone, r.Driver) {
			alone = append(alone, r.Driver)
		}
	}
	if len(alone) > 0 {
		batch += " (" + strings.Join(alone, ", ") + ": no transactions, one op each)"
	}
	rounds := roundsText(plannedRounds(p), t.Rows[0].Rounds)
	w.printf("gobench crud · %s order · %s of query and update · %s · %d-byte values · %d %s × %d %s (%s mode)\n",
		ins.Order, rounds, batch, p.ValueSize, p.Procs, plural(p.Procs, "proc", "procs"), p.Goroutines, plural(p.Goroutines, "goroutine", "goroutines"), p.Mode)
	env := first.Environment
	var fss []string
	for _, c := range t.Suite.Cells {
		if fs := c.Runs[0].Environment.Filesystem; !slices.Contains(fss, fs) {
			fss = append(fss, fs)
		}
	}
	w.printf("%s, databases on %s · %s %s, %s\n", machineText(env), strings.Join(fss, " and "), first.Tool.Name, first.Tool.Version, first.Tool.GoVersion)
	reps := t.Rows[0].Repeats
	w.printf("ops/s, scan in rows/s; query and update: median of rounds (best in brackets)")
	if reps > 1 {
		w.printf("; mean of %d repeats ± sd", reps)
	}
	w.printf("; sizes: allocated blocks and apparent bytes\n")
	for _, c := range t.Suite.Cells {
		for i, r := range c.Runs {
			if !r.Complete {
				w.printf("INCOMPLETE: %s run %d: %s\n", c.Settings, i+1, strings.Join(r.Problems, "; "))
			}
		}
	}
	w.printf("\n")
}

// crudMarkdown writes the scaling table as markdown.
func crudMarkdown(w io.Writer, t *crudReport) error {
	ew := markdownWriter(w)
	ew.printf("| engine | rows | insert | query | update | scan (rows/s) | delete | size after insert | size at end |\n")
	ew.printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|\n")
	for _, r := range t.Rows {
		ew.printf("| %s | %d", r.label(), r.Rows)
		for i, g := range crudGroups {
			ew.printf(" | %s", opsCell(r.Groups[i], g, r.Repeats))
		}
		ew.printf(" | %s | %s |\n", sizeText(r.SizeAfterInsert, r.Rows), sizeText(r.SizeAtEnd, r.Rows))
	}
	ew.printf("\nops/s (scan: rows/s); query and update: median of %s, best in brackets\n", roundsText(plannedRounds(t.Suite.Cells[0].Runs[0].Plan), t.Rows[0].Rounds))
	return ew.err
}

// crudCSV writes one row per engine, size and phase group.
func crudCSV(w io.Writer, t *crudReport) error {
	cw := newCSVWriter(w)
	_ = cw.Write([]string{"engine", "rows", "phase", "ops_per_sec", "best", "rel_stddev", "p50_us", "p99_us", "size_after_insert_alloc", "size_after_insert_apparent", "size_at_end_alloc", "size_at_end_apparent"})
	size := func(s *result.DiskSize) (string, string) {
		if s == nil {
			return "", ""
		}
		return i64(s.AllocatedBytes), i64(s.ApparentBytes)
	}
	for _, r := range t.Rows {
		ia, ip := size(r.SizeAfterInsert)
		ea, ep := size(r.SizeAtEnd)
		for i, g := range crudGroups {
			c := r.Groups[i]
			if !c.Present {
				continue
			}
			_ = cw.Write([]string{r.label(), strconv.FormatUint(r.Rows, 10), g, csvRate(c.OpsPerSec), csvRate(c.Best), csvSig3(c.RelStdDev), csvSig3(c.P50Micros), csvSig3(c.P99Micros), ia, ip, ea, ep})
		}
	}
	cw.Flush()
	return cw.Error()
}

// plannedRounds counts the query rounds a CRUD plan asked for.
func plannedRounds(p workload.Plan) int {
	n := 0
	for _, ph := range p.Phases {
		if strings.HasPrefix(ph.Name, "query") {
			n++
		}
	}
	return n
}

// roundsText says how many rounds ran: "3 rounds", or when a run stopped
// early, "1 round (of 3 planned: the run stopped early)".
func roundsText(planned, measured int) string {
	s := fmt.Sprintf("%d %s", measured, plural(measured, "round", "rounds"))
	if planned > measured {
		s += fmt.Sprintf(" (of %d planned: the run stopped early)", planned)
	}
	return s
}
