package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobench/gobench/internal/cli"
)

// findBrowser returns a headless-capable Chromium, or "".
func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// runBrowser loads a page in headless Chromium and returns what it printed.
func runBrowser(t *testing.T, browser string, args ...string) (stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, browser, append(base, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", browser, err, errb.String())
	}
	return out.String(), errb.String()
}

var updateDocs = flag.Bool("update-docs", false, "copy the browser test's screenshots to docs/")

// The HTML reports draw in a real browser: every chart is in the DOM with
// its SVG drawn, the console has no error, and a screenshot is taken
// (with -update-docs, into docs/ as the README's pictures).
func TestReportInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("headless Chromium: the full tier")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no Chromium found: install Debian's chromium package (.ci/run does) to run this test")
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		fixture string
		figures []string
		doc     string
	}{
		{"mix-contention.json", []string{"phase0-throughput", "phase0-latency", "phase0-contention", "phase0-percentiles", "phase0-workers"}, "report-run.png"},
		{"matrix.json", []string{"metric0", "metric5", "metric6"}, "report-matrix.png"},
		{"capacity.json", []string{"capacity-curve"}, "report-capacity.png"},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			page := filepath.Join(dir, strings.TrimSuffix(tt.fixture, ".json")+".html")
			var stderr bytes.Buffer
			env := cli.OSEnv()
			env.Stderr = &stderr
			if code := cli.Main([]string{"report", filepath.Join("..", "..", "testdata", tt.fixture), "--format", "html", "-o", page}, env); code != 0 {
				t.Fatalf("gobench report: exit %d: %s", code, stderr.String())
			}
			dom, log := runBrowser(t, browser, "--dump-dom", "file://"+page)
			for _, id := range tt.figures {
				fig := regexp.MustCompile(`(?s)<figure class="chart" id="` + id + `" data-points="(\d+)">(.*?)</figure>`).FindStringSubmatch(dom)
				if fig == nil {
					t.Errorf("figure %s is not in the DOM", id)
					continue
				}
				if fig[1] == "0" || !strings.Contains(fig[2], "<svg") || strings.Count(fig[2], "<path") < 10 {
					t.Errorf("figure %s drew nothing: %s points, %d paths", id, fig[1], strings.Count(fig[2], "<path"))
				}
			}
			for _, line := range strings.Split(log, "\n") {
				if strings.Contains(line, "CONSOLE") && (strings.Contains(line, "ERROR") || strings.Contains(line, "Uncaught")) {
					t.Errorf("console error: %s", line)
				}
			}
			if !strings.Contains(dom, "white-space: pre-wrap") {
				t.Error("the summary does not wrap: long lines would need a horizontal scrollbar")
			}
			// The answer leads: its table before the first chart, the whole
			// text report folded after the last.
			answer, firstChart := strings.Index(dom, `<section class="answer">`), strings.Index(dom, `<figure class="chart"`)
			text := strings.Index(dom, `<details class="text">`)
			if answer < 0 || firstChart < answer || text < strings.LastIndex(dom, "</figure>") {
				t.Errorf("the page does not lead with its answer: answer table at %d, first chart at %d, text report at %d", answer, firstChart, text)
			}
			shot := strings.TrimSuffix(page, ".html") + ".png"
			runBrowser(t, browser, "--hide-scrollbars", "--window-size=1200,3000", "--screenshot="+shot, "file://"+page)
			if fi, err := os.Stat(shot); err != nil || fi.Size() < 20_000 {
				t.Fatalf("screenshot %s: %v", shot, err)
			}
			t.Logf("screenshot: %s", shot)
			if *updateDocs {
				b, err := os.ReadFile(shot)
				if err == nil {
					err = os.WriteFile(filepath.Join("..", "..", "docs", tt.doc), b, 0o644)
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// A report's page fits a window 1280 px wide, as Chromium lays it out:
// no table cell lies past the right edge outside a box that scrolls, and
// no text of a chart leaves it or overprints another. The pages are those
// of a five-engine matrix with power cuts (--crash), a five-engine matrix
// of repeats whose factors carry intervals, a replay matrix and the pages
// of the other test; testdata/layout.js measures them (each text by its
// glyphs' extent from its baseline, not the browser's taller line box).
func TestReportLayoutInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("headless Chromium: the full tier")
	}
	browser := findBrowser()
	if browser == "" {
		t.Skip("no Chromium found: install Debian's chromium package (.ci/run does) to run this test")
	}
	probe, err := os.ReadFile(filepath.Join("testdata", "layout.js"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, fixture := range []string{"crash-engines.json", "engines-matrix.json", "replay-matrix.json", "matrix.json", "mix-contention.json", "capacity.json"} {
		t.Run(fixture, func(t *testing.T) {
			page := filepath.Join(dir, strings.TrimSuffix(fixture, ".json")+".html")
			var stderr bytes.Buffer
			env := cli.OSEnv()
			env.Stderr = &stderr
			if code := cli.Main([]string{"report", filepath.Join("..", "..", "testdata", fixture), "--format", "html", "-o", page}, env); code != 0 {
				t.Fatalf("gobench report: exit %d: %s", code, stderr.String())
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			end := bytes.LastIndex(html, []byte("</body>"))
			if end < 0 {
				t.Fatalf("%s has no </body>", page)
			}
			probed := strings.TrimSuffix(page, ".html") + "-probed.html"
			withProbe := slices.Concat(html[:end], []byte("<script>\n"), probe, []byte("</script>\n"), html[end:])
			if err := os.WriteFile(probed, withProbe, 0o644); err != nil {
				t.Fatal(err)
			}
			dom, _ := runBrowser(t, browser, "--window-size=1280,4000", "--dump-dom", "file://"+probed)
			m := regexp.MustCompile(`LAYOUT(\{.*?\})LAYOUT`).FindStringSubmatch(dom)
			if m == nil {
				t.Fatal("the page printed no measures: its script did not run")
			}
			var got struct {
				Width    int      `json:"width"`
				Problems []string `json:"problems"`
			}
			if err := json.Unmarshal([]byte(strings.ReplaceAll(m[1], "&gt;", ">")), &got); err != nil {
				t.Fatalf("the measures: %v: %s", err, m[1])
			}
			if got.Width != 1280 {
				t.Fatalf("the window is %d px wide, not 1280", got.Width)
			}
			for _, p := range got.Problems {
				t.Errorf("at 1280 px: %s", p)
			}
		})
	}
}
