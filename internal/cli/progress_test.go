package cli

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// second is one finished second of a phase's timeline, as the run hands
// it to the watcher: second n, lasting span (under one for the phase's
// partial last second), with count ops of each kind taking lat each.
func second(n int64, span float64, reads, upserts int64) result.Interval {
	iv := result.Interval{Second: result.Second{Second: n}, Histograms: map[string]*hdr.Histogram{}}
	if span < 1 {
		iv.Second.Length = span
	}
	for _, k := range []struct {
		kind  string
		count int64
		lat   time.Duration
	}{{"read", reads, 40 * time.Microsecond}, {"upsert", upserts, 2 * time.Millisecond}} {
		h := hdr.New(result.HistogramMin, result.HistogramMax, 2)
		if err := h.RecordValues(int64(k.lat), k.count); err != nil {
			panic(err)
		}
		iv.Histograms[k.kind] = h
		iv.Second.Ops = append(iv.Second.Ops, result.SecondOps{Kind: k.kind, Count: k.count})
	}
	return iv
}

// watch feeds a watcher the seconds of a 2.2 s phase (two whole seconds,
// then the partial third), with a line every second, and returns what it
// wrote. The seconds are data: what the watcher prints follows from them
// alone, not from how long anything took.
func watch(t *testing.T, tty bool, width int) string {
	t.Helper()
	p := workload.DefaultPlan()
	p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(2200*time.Millisecond)
	var out strings.Builder
	w := newWatcher(&out, tty, func() int { return width }, time.Second, nil, &p, nil, time.Time{})
	w.observe(second(0, 1, 1000, 50))
	w.observe(second(1, 1, 3000, 150))
	w.observe(second(2, 0.2, 200, 10))
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// Progress in a log: one line per interval with that interval's rates and
// p99s, then, for the partial last second, the phase's own averages (its
// few ops are no fall in throughput).
func TestProgressLines(t *testing.T) {
	t.Parallel()
	want := "" +
		"gobench: 1s · 45% · ETA 1s · read 1000/s p99 40.2µs · upsert 50.0/s p99 2.01ms · errors 0\n" +
		"gobench: 2s · 91% · ETA 0s · read 3000/s p99 40.2µs · upsert 150/s p99 2.01ms · errors 0\n" +
		"gobench: 2.2s · 100% · ETA 0s · read 1909/s p99 40.2µs · upsert 95.5/s p99 2.01ms · errors 0 · phase average\n"
	if got := watch(t, false, 0); got != want {
		t.Errorf("progress lines:\n%s\nwant:\n%s", got, want)
	}
}

// On a terminal the line is redrawn in place, and ends with a newline
// once the run is over; on a narrow one every line fits, short of its
// last column, and keeps the time, the share done and the errors.
func TestProgressTerminal(t *testing.T) {
	t.Parallel()
	got := watch(t, true, 200)
	redrawn := strings.Split(got, "\r\033[K")
	if len(redrawn) != 4 || redrawn[0] != "" || !strings.HasPrefix(redrawn[1], "gobench: 1s · ") || !strings.HasSuffix(got, "errors 0 · phase average\n") {
		t.Errorf("want three lines redrawn in place, the last ended:\n%q", got)
	}
	redrawn = strings.Split(watch(t, true, 50), "\r\033[K")[1:]
	if len(redrawn) != 3 {
		t.Fatalf("%d redrawn lines, want 3: %q", len(redrawn), redrawn)
	}
	for _, l := range redrawn {
		l = strings.TrimSuffix(l, "\n")
		if n := utf8.RuneCountInString(l); n > 49 || !regexp.MustCompile(`^gobench: [0-9.]+s · \d+% · .*errors 0`).MatchString(l) {
			t.Errorf("line of %d columns on a 50-column terminal: %q", n, l)
		}
	}
}

// Through the command: a run's progress goes to stderr, its last line
// the phase's averages as the result has them; --quiet prints none.
// (Which other lines a run prints depends on how long it takes; the lines
// themselves are TestProgressLines'.)
func TestProgress(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run.json")
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--queries", "20000", "--progress", "1s"}
	env, _, stderr := testEnv(t)
	if code := Main(append(args, "--json", out), env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := regexp.MustCompile(`(?m)^gobench: ([0-9.]+[mµn]?s) · (\d+)% · ETA \d+s · read ([0-9.]+)/s p99 [0-9.]+[nµm]?s · upsert [0-9.]+/s p99 [0-9.]+[nµm]?s · errors 0( · phase average)?$`).FindAllStringSubmatch(stderr.String(), -1)
	if len(lines) == 0 || strings.Count(stderr.String(), "gobench: ") != len(lines)+2 { // + the preload and the run notes
		t.Fatalf("want progress lines, every one whole; stderr:\n%s", stderr)
	}
	res := readResult(t, out)
	last, wall := lines[len(lines)-1], res.Phases[0].WallSeconds
	if at, err := time.ParseDuration(last[1]); last[4] == "" || err != nil || at != time.Duration(math.Round(wall*1000))*time.Millisecond || last[2] != "100" {
		t.Errorf("last line %q: want the phase average at %.3f s, 100%%", last[0], wall)
	}
	read, _ := res.Phases[0].Op("read")
	if got, _ := strconv.ParseFloat(last[3], 64); math.Abs(got-read.OpsPerSec) > 0.001*read.OpsPerSec {
		t.Errorf("last line's read rate %v/s, the result's %v/s", got, read.OpsPerSec)
	}

	env, stdout, stderr := testEnv(t)
	if code := Main(append(args, "-q"), env); code != ExitOK || stderr.Len() != 0 || !strings.Contains(stdout.String(), "total") {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// readResult reads a result file.
func readResult(t *testing.T, path string) *result.Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := result.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// The --hlog file reads back with hdrhistogram-go's log reader to the same
// counts per op kind as the result. Its intervals are the result's
// timeline: each starts a whole number of seconds after the phase's START
// (to the millisecond), holds that second's ops, and the last lasts as
// long as the partial second did; the warm-up is not in it.
func TestHistogramLog(t *testing.T) {
	dir := t.TempDir()
	hlog, out := filepath.Join(dir, "run.hlog"), filepath.Join(dir, "run.json")
	env, _, stderr := testEnv(t)
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--warmup", "300ms", "--duration", "1200ms", "--hlog", hlog, "--json", out, "-q"}
	if code := Main(args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(hlog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := readResult(t, out)
	ph := res.Phases[0]
	start := ph.StartedAt.UnixMilli()
	if ph.StartedAt.IsZero() || res.Warmup == nil || res.Warmup.Ops == 0 {
		t.Fatalf("want a phase START and a warm-up in the result: %v, %+v", ph.StartedAt, res.Warmup)
	}
	r := hdr.NewHistogramLogReader(f)
	counts := map[string]int64{}
	intervals := 0
	for {
		h, err := r.NextIntervalHistogram()
		if err != nil {
			t.Fatal(err)
		}
		if h == nil {
			break
		}
		counts[h.Tag()] += h.TotalCount()
		intervals++
		// The reader turns seconds into milliseconds by truncation: 1 ms.
		off := h.StartTimeMs() - start
		sec := (off + 500) / 1000
		if d := off - sec*1000; d < -1 || d > 1 || sec < 0 || sec >= int64(len(ph.Timeline)) {
			t.Fatalf("%s interval starts %d ms after START: not on a second of the timeline", h.Tag(), off)
		}
		s := ph.Timeline[sec]
		for _, o := range s.Ops {
			if o.Kind == h.Tag() && o.Count != h.TotalCount() {
				t.Errorf("second %d, %s: the log holds %d ops, the timeline %d", sec, o.Kind, h.TotalCount(), o.Count)
			}
		}
		if length, want := h.EndTimeMs()-h.StartTimeMs(), int64(math.Round(s.Span()*1000)); length < want-1 || length > want+1 {
			t.Errorf("second %d lasts %d ms in the log, %v s in the timeline", sec, length, s.Span())
		}
	}
	if intervals < 2*2 { // seconds 0 and 1, two kinds each
		t.Errorf("%d interval histograms, want one per second and kind over 1.2 s", intervals)
	}
	if last := ph.Timeline[len(ph.Timeline)-1]; !last.Partial() {
		t.Errorf("the last second of a %v s phase is not partial: %+v", ph.WallSeconds, last)
	}
	for _, o := range ph.Ops {
		if counts[o.Kind] != o.Count {
			t.Errorf("%s: the log holds %d ops, the result %d (a warm-up's ops would add)", o.Kind, counts[o.Kind], o.Count)
		}
	}
	// A matrix cannot share one log.
	env, _, stderr = testEnv(t)
	if code := Main([]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2", "--hlog", hlog}, env); code != ExitUsage || !strings.Contains(stderr.String(), "--hlog records one run") {
		t.Errorf("--hlog with a matrix: exit %d, %s", code, stderr)
	}
}

// fitLine drops the least important fields first (the last of a rank
// first), never makes a line wider than asked, and cuts what still does
// not fit.
func TestFitLine(t *testing.T) {
	t.Parallel()
	fs := []field{
		{text: "cell 3/8", rank: rankWhere}, {text: "4.2s", rank: rankRun}, {text: "50%", rank: rankRun},
		{text: "ETA 4s", rank: rankETA},
		{text: "read 12k/s", rank: rankRate}, {text: "p99 40µs", rank: rankLatency, glued: true},
		{text: "upsert 600/s", rank: rankRate}, {text: "p99 2.1ms", rank: rankLatency, glued: true},
		{text: "errors 0", rank: rankRun}, {text: "phase average", rank: rankNote},
	}
	whole := "gobench: cell 3/8 · 4.2s · 50% · ETA 4s · read 12k/s p99 40µs · upsert 600/s p99 2.1ms · errors 0 · phase average"
	for _, tt := range []struct {
		width int
		want  string
	}{
		{0, whole},
		{200, whole},
		{utf8.RuneCountInString(whole), whole},
		{100, "gobench: cell 3/8 · 4.2s · 50% · ETA 4s · read 12k/s p99 40µs · upsert 600/s p99 2.1ms · errors 0"},
		{90, "gobench: cell 3/8 · 4.2s · 50% · ETA 4s · read 12k/s p99 40µs · upsert 600/s · errors 0"},
		{79, "gobench: cell 3/8 · 4.2s · 50% · ETA 4s · read 12k/s · upsert 600/s · errors 0"},
		{60, "gobench: cell 3/8 · 4.2s · 50% · ETA 4s · errors 0"},
		{45, "gobench: cell 3/8 · 4.2s · 50% · errors 0"},
		{20, "gobench: cell 3/8"},
		{12, "gobench: ce…"},
	} {
		got := fitLine(fs, tt.width)
		if got != tt.want {
			t.Errorf("width %d:\n got %q\nwant %q", tt.width, got, tt.want)
		}
		if tt.width > 0 && utf8.RuneCountInString(got) > tt.width {
			t.Errorf("width %d: %d columns", tt.width, utf8.RuneCountInString(got))
		}
	}
}

// A matrix's position: the cell and repeat of run n of an interleaved
// matrix, and the ETA of the whole from the time since its start.
func TestMatrixPos(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	text := func(fs []field) string { return strings.TrimPrefix(joinFields(fs), progressPrefix) }
	for _, tt := range []struct {
		pos  *matrixPos
		frac float64
		want string
	}{
		// Run 7 of 4 cells × 2: cell 3, second repeat; half done at 60 s,
		// so 6.5 of 8 runs took 60 s and 1.5 more take about 14 s.
		{&matrixPos{n: 7, total: 8, cells: 4, repeat: 2, started: t0}, 0.5, "cell 3/4 · run 2/2 · ETA 14s"},
		{&matrixPos{n: 2, total: 3, cells: 1, repeat: 3, started: t0}, 0, "run 2/3 · ETA 2m0s"},
		{&matrixPos{n: 1, total: 4, cells: 4, repeat: 1, started: t0}, 0, "cell 1/4"},
		{&matrixPos{n: 1, total: 1, cells: 1, repeat: 1, started: t0}, 0.5, ""},
		{nil, 0.5, ""},
	} {
		if got := text(tt.pos.fields(tt.frac, t0.Add(time.Minute))); got != tt.want {
			t.Errorf("%+v at %.1f: %q, want %q", tt.pos, tt.frac, got, tt.want)
		}
	}
}

// A kind's name (a script's, the user's) reaches the progress line with
// its control characters shown as %q would; the line's own redrawing is
// the only control sequence on it.
func TestProgressShowsControlCharacters(t *testing.T) {
	t.Parallel()
	p := workload.DefaultPlan()
	p.Phases[0].Ops, p.Phases[0].Duration = 0, workload.Duration(2*time.Second)
	var out strings.Builder
	w := newWatcher(&out, true, func() int { return 300 }, time.Second, nil, &p, nil, time.Time{})
	iv := second(0, 1, 10, 10)
	evil := "x\x1b]0;pwned\a\x1b[2J"
	iv.Histograms[evil] = iv.Histograms["read"]
	iv.Second.Ops[0].Kind = evil
	w.observe(iv)
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	got := strings.TrimPrefix(strings.TrimSuffix(out.String(), "\n"), "\r\033[K")
	if !strings.Contains(got, `x\x1b]0;pwned\a\x1b[2J 10.0/s`) || strings.ContainsAny(got, "\x1b\a\r") {
		t.Errorf("progress line %q: want the kind shown escaped, no control character", got)
	}
}

// A message that comes while a terminal's progress line is open (no line
// break after its last redraw) ends that line first; the run's end then
// adds no empty line, and a message after a closed line adds nothing.
func TestMessageEndsProgressLine(t *testing.T) {
	var out bytes.Buffer
	line := &stderrLine{w: &out}
	progress, msg := progressWriter{line}, messages{line}
	fmt.Fprint(progress, "\r\033[Kgobench: 1s · errors 0")
	fmt.Fprint(msg, "gobench: interrupted (SIGINT): stopping\n")
	fmt.Fprint(progress, "\r\033[Kgobench: 2s · errors 0")
	if err := progress.endLine(); err != nil {
		t.Fatal(err)
	}
	if err := progress.endLine(); err != nil { // ended already: nothing more
		t.Fatal(err)
	}
	fmt.Fprint(msg, "gobench: the result is partial\n")
	want := "\r\033[Kgobench: 1s · errors 0\ngobench: interrupted (SIGINT): stopping\n\r\033[Kgobench: 2s · errors 0\ngobench: the result is partial\n"
	if got := out.String(); got != want {
		t.Errorf("stderr\n%q\nwant\n%q", got, want)
	}
}

// A text report written to a terminal fits its width: 80 columns, the
// journal × sync matrix with failed ops and a comparison of two suites
// as much as a run; to a file or a pipe its lines stay whole.
func TestReportFitsTerminal(t *testing.T) {
	fixtures := filepath.Join("..", "..", "testdata")
	for _, args := range [][]string{
		{"report", filepath.Join(fixtures, "matrix-errors.json")},
		{"report", filepath.Join(fixtures, "mix-contention.json")},
		{"compare", filepath.Join(fixtures, "compare-old.json"), filepath.Join(fixtures, "compare-new.json")},
	} {
		widest := func(width func() int) int {
			env, stdout, stderr := testEnv(t)
			env.StdoutWidth = width
			if code := Main(args, env); code != 0 && code != ExitThreshold && code != ExitUndecided {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			w := 0
			for _, line := range strings.Split(stdout.String(), "\n") {
				w = max(w, utf8.RuneCountInString(line))
			}
			return w
		}
		if w := widest(func() int { return 80 }); w > 80 {
			t.Errorf("%v on a terminal of 80 columns: a line of %d", args, w)
		}
		if w := widest(nil); w <= 80 {
			t.Errorf("%v to a pipe: the widest line is %d columns: cut to fit no terminal", args, w)
		}
	}
}

// A replay's progress line gives its busiest statements and counts the
// rest, not every fingerprint of the trace.
func TestProgressKindsCapped(t *testing.T) {
	t.Parallel()
	c := result.NewWindow()
	iv := result.Interval{Second: result.Second{Second: 0}}
	for i := range maxProgressKinds + 12 {
		iv.Second.Ops = append(iv.Second.Ops, result.SecondOps{Kind: fmt.Sprintf("q%02d", i), Count: int64(i + 1)})
	}
	c.Add(iv)
	kinds, more := progressKinds(c)
	if more != 12 || len(kinds) != maxProgressKinds || kinds[0] != fmt.Sprintf("q%02d", maxProgressKinds+11) || kinds[maxProgressKinds-1] != "q12" {
		t.Errorf("kinds %v and %d more, want the %d busiest (q19 first) and 12 more", kinds, more, maxProgressKinds)
	}
	var line string
	for _, f := range (&watcher{plan: &workload.Plan{Phases: []workload.Phase{{Name: "replay"}}}}).fields(c, "") {
		line += f.text + " "
	}
	if !strings.Contains(line, "+12 more") || strings.Contains(line, "q00") {
		t.Errorf("progress line %q, want +12 more and not the least busy", line)
	}
}
