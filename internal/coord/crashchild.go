package coord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/gobench/gobench/pkg/crashstate"
	"github.com/gobench/gobench/pkg/runner"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// crashCheck checks one crash state (runner.CheckCrashState's shape).
type crashCheck func(ctx context.Context, drv store.Driver, p *workload.Plan, st store.CrashState, x *runner.CrashIndex) (workload.CrashResult, error)

// crashCheckRequest is what a crash check's child process reads on its
// stdin (gobench crashcheck): the run's plan, its record (whose
// acknowledgements the child reads again; "" for none) and the state.
type crashCheckRequest struct {
	Plan   *workload.Plan   `json:"plan"`
	Record string           `json:"record,omitempty"`
	State  store.CrashState `json:"state"`
}

// crashCheckAnswer is what the child writes on its stdout: the verdict,
// or the error that kept it from one (the run's, not the state's).
type crashCheckAnswer struct {
	Result workload.CrashResult `json:"result"`
	Error  string               `json:"error,omitempty"`
}

// isolatesCrashChecks says whether p's crash states are checked in child
// processes: its engine's C code can abort a process on a broken state
// (store.CrashCheckIsolator). A sql workload's states, judged by their
// content against sums this process keeps, are checked here.
func isolatesCrashChecks(drv store.Driver, p *workload.Plan) bool {
	iso, ok := drv.(store.CrashCheckIsolator)
	return ok && iso.CrashCheckAborts() && p.SQL == nil && p.Replay == nil && p.Crash.Model != store.CrashRecovery
}

// checkInChild returns a crashCheck that checks each state in a child
// process started by command (gobench crashcheck), which reads record's
// acknowledgements itself. A child that ends without its answer (the
// engine aborted it: an assertion, a signal) makes the state corrupt,
// "the engine aborted opening it", with the last thing it said; the run
// goes on.
func checkInChild(command func() (*exec.Cmd, error), record string) crashCheck {
	return func(ctx context.Context, _ store.Driver, p *workload.Plan, st store.CrashState, x *runner.CrashIndex) (workload.CrashResult, error) {
		req, err := json.Marshal(crashCheckRequest{Plan: p, Record: record, State: st})
		if err != nil {
			return workload.CrashResult{}, fmt.Errorf("checking crash state %d: %w", st.Index, err)
		}
		cmd, err := command()
		if err != nil {
			return workload.CrashResult{}, err
		}
		var out bytes.Buffer
		stderr := &headBuffer{max: 64 << 10}
		cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(req), &out, stderr
		if err := cmd.Start(); err != nil {
			return workload.CrashResult{}, fmt.Errorf("checking crash state %d: starting its child process: %w", st.Index, err)
		}
		runErr := waitOrKill(ctx, cmd)
		if ctx.Err() != nil {
			return workload.CrashResult{}, fmt.Errorf("checking crash state %d: %w", st.Index, ctx.Err())
		}
		var ans crashCheckAnswer
		if err := json.Unmarshal(out.Bytes(), &ans); err != nil {
			return runner.AbortedCrashState(p, st, x, abortLine(stderr.String(), runErr)), nil
		}
		if ans.Error != "" {
			return ans.Result, fmt.Errorf("checking crash state %d in a child process: %s", st.Index, ans.Error)
		}
		return ans.Result, nil
	}
}

// waitOrKill waits for cmd, killing it if ctx is cancelled first.
func waitOrKill(ctx context.Context, cmd *exec.Cmd) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		_ = cmd.Process.Kill()
		return <-done
	}
}

// ServeCrashCheck is the body of `gobench crashcheck`: it reads a
// crashCheckRequest as JSON from in, checks its state as
// runner.CheckCrashState does, and writes the crashCheckAnswer to out.
// An engine that aborts the process leaves no answer: the coordinator
// reads that as the state's verdict.
func ServeCrashCheck(ctx context.Context, in io.Reader, out io.Writer, reg *store.Registry) error {
	var ans crashCheckAnswer
	res, err := serveCrashCheck(ctx, in, reg)
	ans.Result = res
	if err != nil {
		ans.Error = err.Error()
	}
	return json.NewEncoder(out).Encode(ans)
}

func serveCrashCheck(ctx context.Context, in io.Reader, reg *store.Registry) (workload.CrashResult, error) {
	var req crashCheckRequest
	if err := json.NewDecoder(in).Decode(&req); err != nil {
		return workload.CrashResult{}, fmt.Errorf("reading the request: %w", err)
	}
	if req.Plan == nil || req.Plan.Crash == nil {
		return workload.CrashResult{}, errors.New("reading the request: no --crash plan")
	}
	drv, err := reg.Lookup(req.Plan.Driver)
	if err != nil {
		return workload.CrashResult{}, err
	}
	x := runner.NewCrashIndex(req.Plan)
	if req.Record != "" {
		if err := crashstate.ReadAcks(req.Record, x.Add); err != nil {
			return workload.CrashResult{}, err
		}
	}
	return runner.CheckCrashState(ctx, drv, req.Plan, req.State, x)
}

// crashCheckCommand re-executes this program as a crash state's check.
func crashCheckCommand() (*exec.Cmd, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding the gobench executable to check crash states: %w", err)
	}
	return exec.Command(exe, "crashcheck"), nil
}

// abortLine is what an aborted child said last of its own: the line
// before the Go runtime's report of the signal ("SIGABRT: abort", which
// follows the C library's assertion message), or its last line, or how
// it ended.
func abortLine(stderr string, runErr error) string {
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "SIG") || strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			if i > 0 && strings.TrimSpace(lines[i-1]) != "" {
				return strings.TrimSpace(lines[i-1])
			}
			return strings.TrimSpace(l)
		}
	}
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return last
	}
	if runErr != nil {
		return runErr.Error()
	}
	return "it ended without an answer"
}

// headBuffer keeps the first max bytes written to it: an aborted Go
// process's stderr ends in a dump of every goroutine, and what matters
// comes first.
type headBuffer struct {
	bytes.Buffer
	max int
}

func (b *headBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}
