package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gobench/gobench/pkg/bytesize"
	"github.com/gobench/gobench/pkg/deal"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// blobPassNames are the passes of a blob run, in order.
var blobPassNames = []string{"read", "update"}

// blobPassStats is one pass (read or update) of one target, over repeats.
type blobPassStats struct {
	Present bool `json:"present"`
	// Blobs is the number of blobs the pass visited (in one repeat).
	Blobs int64 `json:"blobs"`
	// BytesPerSec and BlobsPerSec are means over repeats; RelStdDev is
	// the standard deviation of BytesPerSec as a fraction of its mean.
	BytesPerSec float64 `json:"bytes_per_sec"`
	BlobsPerSec float64 `json:"blobs_per_sec"`
	RelStdDev   float64 `json:"rel_stddev"`
	// Latency per blob in microseconds, means over repeats.
	P50Micros float64 `json:"p50_us"`
	P99Micros float64 `json:"p99_us"`
	// Errors sums failed ops over repeats.
	Errors result.Errors `json:"errors"`
}

// blobRow is one target: the database, or a directory of one file per
// blob.
type blobRow struct {
	Target   string          `json:"target"` // "db", "flat" or "tree"
	Settings result.Settings `json:"settings"`
	Repeats  int             `json:"repeats"`
	Passes   []blobPassStats `json:"passes"` // by blobPassNames
	// Size is the space the target takes after the last pass.
	Size *result.DiskSize `json:"size,omitempty"`
}

// blobReport compares a database of blobs with directories of files.
type blobReport struct {
	Suite *result.Suite
	Rows  []blobRow
}

// summarizeBlob builds the table of a suite of blob runs: one row per
// target, bytes per second computed from the exact sizes of the blobs
// each pass visited (a function of the seed).
func summarizeBlob(s *result.Suite) (*blobReport, error) {
	t := &blobReport{Suite: s}
	for _, c := range s.Cells {
		first := c.Runs[0]
		row := blobRow{Target: first.Plan.Target, Settings: c.Settings, Repeats: len(c.Runs)}
		for _, name := range blobPassNames {
			row.Passes = append(row.Passes, blobPass(c.Runs, name))
		}
		if n := len(first.Phases); n > 0 {
			row.Size = first.Phases[n-1].Size
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		return nil, fmt.Errorf("no blob runs to summarise")
	}
	return t, nil
}

func blobPass(runs []*result.Result, name string) blobPassStats {
	var bps, blobs, p50, p99 []float64
	pass := blobPassStats{}
	for _, r := range runs {
		for i, ph := range r.Phases {
			if ph.Name != name || ph.WallSeconds <= 0 {
				continue
			}
			n, ok := deal.PhaseValueBytes(&r.Plan, i)
			o, found := ph.Op(r.Plan.Phases[i].Mix.Ops()[0].String())
			if !ok || !found {
				continue
			}
			pass.Present = true
			pass.Blobs = o.Count
			pass.Errors.Add(o.Errors)
			bps = append(bps, float64(n)/ph.WallSeconds)
			blobs = append(blobs, o.OpsPerSec)
			p50 = append(p50, o.P50Micros)
			p99 = append(p99, o.P99Micros)
		}
	}
	if !pass.Present {
		return pass
	}
	st := judge.StatsOf(bps)
	pass.BytesPerSec, pass.RelStdDev = st.Mean, st.RelStdDev()
	pass.BlobsPerSec = judge.StatsOf(blobs).Mean
	pass.P50Micros, pass.P99Micros = judge.StatsOf(p50).Mean, judge.StatsOf(p99).Mean
	return pass
}

// db returns the database row, if any.
func (t *blobReport) db() *blobRow {
	for i := range t.Rows {
		if t.Rows[i].Target == t.Suite.Reference {
			return &t.Rows[i]
		}
	}
	return nil
}

// blobFactor says how the database compares with a directory on one
// measure, in words that name the side the factor favours: "db 1.35×
// faster", "flat 1.10× faster", "db 18% smaller". It is "–" where either
// side lacks the measure.
func blobFactor(db, other *blobRow, measure string) string {
	if measure == "space" {
		if db.Size == nil || other.Size == nil || other.Size.AllocatedBytes == 0 || db.Size.AllocatedBytes == 0 {
			return "–"
		}
		r := float64(db.Size.AllocatedBytes) / float64(other.Size.AllocatedBytes)
		if r <= 1 {
			return fmt.Sprintf("db %s%% smaller", units.Sig3(100*(1-r)))
		}
		return fmt.Sprintf("db %s%% larger", units.Sig3(100*(r-1)))
	}
	i := slices.Index(blobPassNames, measure)
	a, b := db.Passes[i], other.Passes[i]
	if !a.Present || !b.Present || a.BytesPerSec <= 0 || b.BytesPerSec <= 0 {
		return "–"
	}
	if r := a.BytesPerSec / b.BytesPerSec; r >= 1 {
		return fmt.Sprintf("db %s× faster", units.Fixed(r, 2))
	}
	return fmt.Sprintf("%s %s× faster", other.Target, units.Fixed(b.BytesPerSec/a.BytesPerSec, 2))
}

// blobText writes the comparison: a header with the workload and the
// durability of each side, the table of targets, and the factors of the
// database against each directory.
func blobText(w io.Writer, t *blobReport, u bytesize.Units) error {
	ew := textWriter(w)
	blobHeader(ew, t, u, false)
	updates := t.Rows[0].Passes[1].Present
	tw := ew.aligned(tabwriter.AlignRight)
	tw.breaks = []int{1, 5, 9} // read's columns, update's, space's: a split keeps each together
	head := fmt.Sprintf("target\tread %s\tblobs/s\tp50\tp99\t", u.RateUnit())
	if updates {
		head += fmt.Sprintf("update %s\tblobs/s\tp50\tp99\t", u.RateUnit())
	}
	tw.printf("%sspace (du)\tapparent\t\n", trusted(head))
	for _, r := range t.Rows {
		tw.printf("%s\t", r.Target)
		for i, p := range r.Passes {
			if i == 1 && !updates {
				break
			}
			tw.printf("%s\t%s\t%s\t%s\t", blobRate(p, u), blobsRate(p), units.Micros(p.P50Micros), units.Micros(p.P99Micros))
		}
		alloc, app := "–", "–"
		if r.Size != nil {
			alloc, app = u.Round(r.Size.AllocatedBytes), u.Round(r.Size.ApparentBytes)
		}
		tw.printf("%s\t%s\t\n", alloc, app)
	}
	tw.flush()
	if db := t.db(); db != nil && len(t.Rows) > 1 {
		ew.printf("\ndatabase against each directory (which side the factor favours):\n")
		for i := range t.Rows {
			r := &t.Rows[i]
			if r == db {
				continue
			}
			ew.printf("  %s: read %s", r.Target, blobFactor(db, r, "read"))
			if updates {
				ew.printf(" · update %s", blobFactor(db, r, "update"))
			}
			ew.printf(" · space %s\n", blobFactor(db, r, "space"))
		}
	}
	for _, r := range t.Rows {
		for _, p := range r.Passes {
			if p.Errors.Total > 0 {
				ew.printf("%s: %d failed ops (%s)\n", r.Target, p.Errors.Total, strings.TrimPrefix(errorText(result.OpStats{Errors: p.Errors}), fmt.Sprint(p.Errors.Total)+" "))
			}
		}
	}
	return ew.err
}

func blobRate(p blobPassStats, u bytesize.Units) string {
	if !p.Present {
		return "–"
	}
	s := fmt.Sprintf("%.1f", u.PerSec(p.BytesPerSec))
	if p.RelStdDev > 0 {
		s += fmt.Sprintf(" ±%.0f%%", 100*p.RelStdDev)
	}
	return s
}

func blobsRate(p blobPassStats) string {
	if !p.Present {
		return "–"
	}
	return units.Rate(p.BlobsPerSec)
}

// blobHeader says what ran: the blobs, the passes, each side's
// durability, the units.
func blobHeader(w *errWriter, t *blobReport, u bytesize.Units, md bool) {
	first := t.Suite.Cells[0].Runs[0]
	p := first.Plan
	eol := "\n"
	if md {
		eol = "  \n" // a line break in markdown
	}
	line := func(format string, args ...any) { w.printf(format+eol, args...) }
	content := "text"
	if p.RandomValues {
		content = "random, incompressible"
	}
	size := u.Size(int64(p.ValueSize))
	if p.ValueVariance > 0 {
		size += " ± " + u.Size(int64(p.ValueVariance))
	}
	line("gobench blob · %d blobs of %s (%s) · seed %d · %d %s × %d %s (%s mode)", p.Keys.Count, size, content, p.Seed,
		p.Procs, plural(p.Procs, "proc", "procs"), p.Goroutines, plural(p.Goroutines, "goroutine", "goroutines"), p.Mode)
	line("passes: %s", blobPasses(t))
	sides, warning := blobSides(t)
	line("%s", sides)
	if warning != "" {
		line("%s", warning)
	}
	env := first.Environment
	line("%s, on %s · %s %s, %s", machineText(env), filesystemText(env), first.Tool.Name, first.Tool.Version, first.Tool.GoVersion)
	line("page cache: %s", pageCacheText(t.Suite))
	avg := ""
	if reps := t.Rows[0].Repeats; reps > 1 {
		avg = fmt.Sprintf("; means of %d repeats, ± sd of the rate", reps)
	}
	line("rates in %s, from the exact bytes of the blobs visited; latency per blob%s; space: allocated blocks (du) after the last pass", u.Header(), avg)
	for _, c := range t.Suite.Cells {
		for i, r := range c.Runs {
			if !r.Complete {
				line("INCOMPLETE: %s run %d: %s", c.Settings, i+1, strings.Join(r.Problems, "; "))
			}
		}
	}
	w.printf("\n")
}

// blobPasses says what each pass visited.
func blobPasses(t *blobReport) string {
	var passes []string
	for i, ph := range t.Suite.Cells[0].Runs[0].Plan.Phases {
		visit := "every blob"
		if ph.Ops > 0 {
			visit = fmt.Sprintf("%d random blobs per worker", ph.Ops)
		}
		if r := t.Rows[0]; len(r.Passes) > i && r.Passes[i].Present {
			visit = fmt.Sprintf("%d blobs", r.Passes[i].Blobs)
			if ph.Ops > 0 && ph.Access != workload.AccessLottery {
				visit += " (a random sample)"
			}
		}
		order := "in random order"
		if ph.Access == workload.AccessLottery {
			order = "drawn at random with replacement"
		}
		passes = append(passes, fmt.Sprintf("%s %s %s", ph.Name, visit, order))
	}
	return strings.Join(passes, "; ")
}

// blobSides describes the targets as they ran, by their engines' own
// summaries (the reference target's with its transactions, the others'
// together), and warns when the reference synced its writes and the
// others did not, or the other way round.
func blobSides(t *blobReport) (sides, warning string) {
	var ref string
	var descs []string              // the other targets' descriptions, in order
	byDesc := map[string][]string{} // the targets of each description
	var syncing, notSyncing []string
	refSyncs := ""
	for _, c := range t.Suite.Cells {
		r := c.Runs[0]
		fact := r.Environment.StoreFact
		if r.Plan.Target == t.Suite.Reference {
			tx := "one transaction per blob"
			if b := r.Plan.Phases[0].Batch; b > 1 {
				tx = "one transaction per pass"
			}
			ref = fmt.Sprintf("%s: %s (%s): %s, %s", r.Plan.Target, r.Plan.Driver, fact(store.FactEngine), fact(store.FactHeadline), tx)
			refSyncs = fact(store.FactSyncs)
			continue
		}
		d := fact(store.FactEngine) + ", " + fact(store.FactHeadline)
		if byDesc[d] == nil {
			descs = append(descs, d)
		}
		byDesc[d] = append(byDesc[d], r.Plan.Target)
		if fact(store.FactSyncs) == "true" {
			syncing = append(syncing, r.Plan.Target)
		} else {
			notSyncing = append(notSyncing, r.Plan.Target)
		}
	}
	var parts []string
	if ref != "" {
		parts = append(parts, ref)
	}
	for _, d := range descs {
		parts = append(parts, strings.Join(byDesc[d], ", ")+": "+d)
	}
	switch {
	case refSyncs == "true" && len(notSyncing) > 0:
		warning = fmt.Sprintf("WARNING: unequal durability: %s syncs its writes, %s do not", t.Suite.Reference, strings.Join(notSyncing, ", "))
	case refSyncs == "false" && len(syncing) > 0:
		warning = fmt.Sprintf("WARNING: unequal durability: %s does not sync its writes, %s do", t.Suite.Reference, strings.Join(syncing, ", "))
	}
	if warning != "" {
		warning += "; writes compare fairly only when both sync or neither does (--sync with --fsync, or neither)"
	}
	return strings.Join(parts, " · "), warning
}

// pageCacheText says where the passes read from: a warm cache, or the
// disk after the files were dropped from it (or why they could not be);
// and whether the files were written back to the disk before each pass.
func pageCacheText(s *result.Suite) string {
	p := s.Cells[0].Runs[0].Plan
	want, done := "", ""
	switch {
	case p.ColdCache:
		want, done = "dropped", "each target's files dropped from it before each pass (cold reads)"
	case p.Settle:
		want, done = "written back", "warm, each target's files written back to the disk before each pass (settled, as long-written data is)"
	default:
		return "warm (each target was just written, its latest writes perhaps not yet on disk)"
	}
	var problems []string
	for _, c := range s.Cells {
		for _, r := range c.Runs {
			for _, ph := range r.Phases {
				if ph.PageCache != want && !slices.Contains(problems, ph.PageCache) {
					problems = append(problems, ph.PageCache)
				}
			}
		}
	}
	if len(problems) == 0 {
		return done
	}
	return "asked for files " + want + " before each pass, but " + strings.Join(problems, "; ")
}

// blobMarkdown writes the comparison as markdown.
func blobMarkdown(w io.Writer, t *blobReport, u bytesize.Units) error {
	ew := markdownWriter(w)
	blobHeader(ew, t, u, true)
	ew.printf("| target | read %s | read blobs/s | read p50 | read p99 | update %s | update blobs/s | update p50 | update p99 | space (du) | apparent | vs db |\n", u.RateUnit(), u.RateUnit())
	ew.printf("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n")
	db := t.db()
	for i := range t.Rows {
		r := &t.Rows[i]
		ew.printf("| %s", r.Target)
		for _, p := range r.Passes {
			ew.printf(" | %s | %s | %s | %s", blobRate(p, u), blobsRate(p), units.Micros(p.P50Micros), units.Micros(p.P99Micros))
		}
		alloc, app := "–", "–"
		if r.Size != nil {
			alloc, app = u.Round(r.Size.AllocatedBytes), u.Round(r.Size.ApparentBytes)
		}
		vs := "–"
		if db != nil && r != db {
			vs = fmt.Sprintf("read %s; update %s; space %s", blobFactor(db, r, "read"), blobFactor(db, r, "update"), blobFactor(db, r, "space"))
		}
		ew.printf(" | %s | %s | %s |\n", alloc, app, vs)
	}
	return ew.err
}

// blobCSV writes one row per target and pass, rates in bytes per second.
func blobCSV(w io.Writer, t *blobReport, _ bytesize.Units) error {
	cw := newCSVWriter(w)
	_ = cw.Write([]string{"target", "pass", "blobs", "bytes_per_sec", "blobs_per_sec", "rel_stddev", "p50_us", "p99_us", "errors", "allocated_bytes", "apparent_bytes"})
	for _, r := range t.Rows {
		alloc, app := "", ""
		if r.Size != nil {
			alloc, app = i64(r.Size.AllocatedBytes), i64(r.Size.ApparentBytes)
		}
		for i, p := range r.Passes {
			if !p.Present {
				continue
			}
			_ = cw.Write([]string{r.Target, blobPassNames[i], i64(p.Blobs), f64(math.Round(p.BytesPerSec)), csvRate(p.BlobsPerSec), csvSig3(p.RelStdDev), csvSig3(p.P50Micros), csvSig3(p.P99Micros), i64(p.Errors.Total), alloc, app})
		}
	}
	cw.Flush()
	return cw.Error()
}
