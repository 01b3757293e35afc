package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/result"
)

// historyOptions are the flags every history command shares.
type historyOptions struct {
	history string
}

// open opens the history --history names, or the default file; only
// where create (history add) is a SQLite file that does not exist created.
func (o *historyOptions) open(ctx context.Context, env *Env, create bool) (*history.Store, error) {
	where := o.history
	if where == "" {
		p, err := history.DefaultPath(env.Getenv)
		if err != nil {
			return nil, usage(err)
		}
		where = p
	}
	if !create {
		return history.OpenExisting(ctx, where)
	}
	return history.Open(ctx, where)
}

func newHistoryCommand(env *Env) *cobra.Command {
	o := &historyOptions{}
	cmd := &cobra.Command{
		Use:   "history",
		Short: "Keep results over time; find where a figure changed, and gate CI on it",
		Long: `history keeps every run of the result files it is given in a results
database, with the commit and branch it measured, its plan's hash (runs of
unlike plans never share a series), its cell's settings, the gobench build
and engine facts, and the machine's calibration before and after it.

  history add      adds result files (a run twice is kept once)
  history show     prints a figure's series, one point per commit, and
                   its change points (E-divisive means, permutation test)
  history gate     fails (exit 3) on a regression at the head of a branch
  history confirm  runs gobench ab of a change point's two commits and
                   records its verdict beside it

The database is one SQLite file, by default $XDG_DATA_HOME/gobench/history.db
(~/.local/share/gobench/history.db), or a PostgreSQL database that every
CI job writes to: --history postgres://user@host/db. See docs/history.md.

In a CI job, after each benchmark on the main branch:

  gobench mix --journal wal --repeat 5 --json run.json
  gobench history add --history postgres://ci@db.example/bench run.json
  gobench history gate --history postgres://ci@db.example/bench --branch main \
      --figure 'total ops/s' --figure 'read p99'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return usage(fmt.Errorf("history takes a command: add, show, gate or confirm (see 'gobench history --help')"))
		},
	}
	cmd.PersistentFlags().StringVar(&o.history, "history", "", "the results history: a SQLite file, or a postgres:// URL (default $XDG_DATA_HOME/gobench/history.db)")
	cmd.AddCommand(newHistoryAddCommand(env, o), newHistoryShowCommand(env, o, false), newHistoryShowCommand(env, o, true), newHistoryConfirmCommand(env, o))
	return cmd
}

// historyAddOptions are the flags of gobench history add.
type historyAddOptions struct {
	meta history.Meta
}

func newHistoryAddCommand(env *Env, h *historyOptions) *cobra.Command {
	o := &historyAddOptions{}
	cmd := &cobra.Command{
		Use:   "add RESULT.json...",
		Short: "Add result files to the history",
		Long: `add keeps every run of each result file (a run or a suite: every cell and
repeat) in the history, with the commit and branch it measured: --commit
and --branch, or else the CI system's (GITHUB_SHA and GITHUB_HEAD_REF or
GITHUB_REF_NAME; GitLab's CI_COMMIT_SHA, CI_COMMIT_REF_NAME), or else the
git checkout's in the current directory. A run's id is the hash of its
content: adding a result again changes nothing. All the files are added in
one transaction, or none.`,
		Example: `  gobench history add run.json
  gobench history add --commit 4f2a9c1 --branch main --machine ci-large wal.json rollback.json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error { return runHistoryAdd(cmd.Context(), h, o, args, env) },
	}
	fs := cmd.Flags()
	fs.StringVar(&o.meta.Commit, "commit", "", "the commit the results measured (default: CI's variables, or git rev-parse HEAD)")
	fs.StringVar(&o.meta.Branch, "branch", "", "the branch (default: CI's variables, or git branch --show-current)")
	fs.StringVar(&o.meta.Machine, "machine", "", "the machine's name (default: the host name each run recorded)")
	return cmd
}

func runHistoryAdd(ctx context.Context, h *historyOptions, o *historyAddOptions, paths []string, env *Env) error {
	var suites []*result.Suite
	for _, p := range paths {
		s, err := readSuite(ctx, env, p)
		if err != nil {
			return err
		}
		suites = append(suites, s)
	}
	meta := history.Revision(ctx, o.meta, "", env.Getenv)
	store, err := h.open(ctx, env, true)
	if err != nil {
		return err
	}
	defer store.Close()
	n, err := store.Add(ctx, meta, suites...)
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "added %d runs (%d figures) of commit %s, branch %s, to %s; %d already there%s%s\n",
		n.Runs, n.Figures, orNone(meta.Commit), orNone(meta.Branch), store, n.Known, elsewhere(n.Elsewhere), incomplete(n.Incomplete))
	return nil
}

// incomplete says how many runs were left out because they did not
// complete ("" for none).
func incomplete(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d left out: they did not complete (interrupted or failed), and a partial run is no point of a series", n)
}

// elsewhere says how many of the runs already there are kept under
// another commit ("" for none): adding them again does not move them.
func elsewhere(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of them under another commit, kept there: a run's id is its content)", n)
}

// orNone is s, or "(none)" when empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
