package e2e

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"
)

// workflow is a GitHub Actions workflow file, as far as running one of
// its jobs on this machine needs it.
type workflow struct {
	Env  map[string]string `yaml:"env"`
	Jobs map[string]struct {
		Env   map[string]string `yaml:"env"`
		Steps []struct {
			Name string            `yaml:"name"`
			Uses string            `yaml:"uses"`
			If   string            `yaml:"if"`
			Env  map[string]string `yaml:"env"`
			Run  string            `yaml:"run"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// installStep is the one run step a job of an example workflow may have
// that this machine does not repeat: it builds gobench from the checkout,
// and the gobench under test is on the scripts' PATH already.
const installStep = "go install ./cmd/gobench"

// expression is a GitHub Actions expression, ${{ … }}.
var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// workflowScript writes one job of a GitHub Actions workflow as a shell
// script that runs its steps here as a runner would, so a script can
// check that an example workflow works as written:
//
//	workflow FILE JOB OUT.sh [EXPR=VALUE | NAME=VALUE]...
//
// EXPR=VALUE (a name with a dot, such as strategy.job-index=0) is the
// value of ${{ EXPR }} wherever the job's env or steps use it; any other
// expression fails the command. NAME=VALUE sets an environment variable,
// replacing the workflow's own of that name (how a test shrinks the
// runs' size). Steps that use an action (checkout, setup-go, artifacts)
// are left out, the job's files staying in the working directory as an
// artifact's download puts them; so is the step that installs gobench,
// which must read exactly "go install ./cmd/gobench". Each run step is a
// file of its own, run as GitHub runs it (bash -e -o pipefail); after a
// step fails, only the steps marked if: always() run, and the script
// exits with the first failure's status.
func workflowScript(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: workflow FILE JOB OUT.sh [EXPR=VALUE|NAME=VALUE]...")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var wf workflow
	ts.Check(yaml.Unmarshal(data, &wf))
	job, ok := wf.Jobs[args[1]]
	if !ok {
		ts.Fatalf("%s has no job %s", args[0], args[1])
	}
	exprs, env := map[string]string{}, map[string]string{}
	for _, a := range args[3:] {
		k, v, _ := strings.Cut(a, "=")
		if strings.Contains(k, ".") {
			exprs[k] = v
		} else {
			env[k] = v
		}
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(m string) string {
			e := expression.FindStringSubmatch(m)[1]
			v, ok := exprs[e]
			if !ok {
				ts.Fatalf("%s: job %s uses ${{ %s }}: give its value as %s=VALUE", args[0], args[1], e, e)
			}
			return v
		})
	}
	var b strings.Builder
	b.WriteString("#!/bin/bash\n# Job " + args[1] + " of " + args[0] + ", its steps run here.\nstatus=0\n")
	exports := func(vars map[string]string) {
		names := make([]string, 0, len(vars))
		for k := range vars {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			v, over := env[k]
			if !over {
				v = expand(vars[k])
			}
			fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
		}
	}
	exports(wf.Env)
	exports(job.Env)
	for k, v := range env {
		if _, inWorkflow := wf.Env[k]; !inWorkflow {
			if _, inJob := job.Env[k]; !inJob {
				fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
			}
		}
	}
	out := ts.MkAbs(args[2])
	n := 0
	for _, st := range job.Steps {
		run := strings.TrimSpace(st.Run)
		switch {
		case st.Uses != "" || run == "":
			continue
		case run == installStep:
			continue
		case strings.Contains(run, "go install"):
			ts.Fatalf("%s: job %s installs gobench with %q: want %q, which builds the checkout", args[0], args[1], run, installStep)
		}
		n++
		step := fmt.Sprintf("%s.step%d", out, n)
		ts.Check(os.WriteFile(step, []byte(expand(st.Run)), 0o644))
		cond := "[ $status -eq 0 ]"
		if st.If == "always()" {
			cond = "true"
		}
		fmt.Fprintf(&b, "# %s\nif %s; then\n  (", st.Name, cond)
		exports(st.Env)
		fmt.Fprintf(&b, "  bash --noprofile --norc -e -o pipefail %s); s=$?\n  if [ $status -eq 0 ]; then status=$s; fi\nfi\n", shellQuote(step))
	}
	if n == 0 {
		ts.Fatalf("%s: job %s runs nothing here", args[0], args[1])
	}
	b.WriteString("exit $status\n")
	ts.Check(os.WriteFile(out, []byte(b.String()), 0o755))
}

// shellQuote quotes s for a POSIX shell, in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
