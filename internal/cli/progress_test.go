package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	hdr "github.com/HdrHistogram/hdrhistogram-go"

	"github.com/gobench/gobench/pkg/result"
)

// Progress: one line per interval in a log; a redrawn line on a terminal;
// nothing with --quiet.
func TestProgress(t *testing.T) {
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--duration", "2200ms", "--progress", "1s"}
	env, _, stderr := testEnv(t)
	if code := Main(args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := regexp.MustCompile(`(?m)^gobench: (\d)s · (\d+)% · ETA \d+s · read \d+/s p99 [0-9.]+[nµm]?s · upsert \d+/s p99 [0-9.]+[nµm]?s · errors 0$`).FindAllStringSubmatch(stderr.String(), -1)
	if len(lines) < 2 || lines[0][1] != "1" || lines[1][1] != "2" {
		t.Fatalf("want a progress line at 1s and 2s; stderr:\n%s", stderr)
	}

	env, _, stderr = testEnv(t)
	env.StderrIsTerminal = true
	if code := Main(args, env); code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(stderr.String(), "\r\033[Kgobench: 1s · ") || !strings.Contains(stderr.String(), "errors 0\n") {
		t.Errorf("no redrawn line on a terminal:\n%q", stderr)
	}

	env, stdout, stderr := testEnv(t)
	if code := Main(append(args, "-q"), env); code != ExitOK || stderr.Len() != 0 || !strings.Contains(stdout.String(), "total") {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// The --hlog file reads back with hdrhistogram-go's log reader to the same
// counts per op kind as the result.
func TestHistogramLog(t *testing.T) {
	dir := t.TempDir()
	hlog, out := filepath.Join(dir, "run.hlog"), filepath.Join(dir, "run.json")
	env, _, stderr := testEnv(t)
	args := []string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "2", "--duration", "2200ms", "--hlog", hlog, "--json", out, "-q"}
	if code := Main(args, env); code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(hlog)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
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
	}
	rf, _ := os.Open(out)
	defer rf.Close()
	res, err := result.Read(rf)
	if err != nil {
		t.Fatal(err)
	}
	if intervals < 3*2 { // seconds 0, 1 and 2, two kinds each
		t.Errorf("%d interval histograms, want one per second and kind over 2.5 s", intervals)
	}
	for _, o := range res.Phases[0].Ops {
		if counts[o.Kind] != o.Count {
			t.Errorf("%s: the log holds %d ops, the result %d", o.Kind, counts[o.Kind], o.Count)
		}
	}
	// A matrix cannot share one log.
	env, _, stderr = testEnv(t)
	if code := Main([]string{"mix", "--driver", "null", "--mode", "goroutine", "--procs", "1,2", "--hlog", hlog}, env); code != ExitUsage || !strings.Contains(stderr.String(), "--hlog records one run") {
		t.Errorf("--hlog with a matrix: exit %d, %s", code, stderr)
	}
}
