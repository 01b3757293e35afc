package cli

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gobench/gobench/internal/coord"
	"github.com/gobench/gobench/pkg/capacity"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/preset"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/units"
	"github.com/gobench/gobench/pkg/workload"
)

// scaleSearchFlags are the flags of a replay's scale search.
type scaleSearchFlags struct {
	objectives string
	max        int
	by         string
}

// AddFlags binds the flags.
func (f *scaleSearchFlags) AddFlags(fs *pflag.FlagSet) {
	f.max = capacity.DefaultMaxScale
	inGroup(fs, groupScale, func() {
		fs.StringVar(&f.objectives, "find-scale", "", "find the largest --scale whose replay meets these latency objectives, such as 'total p99 <= 50ms' (several joined with commas, all must hold): scale 1, 2, 4, 8 … while met, then bisected; each step a whole replay; prints each cell's largest scale and every step (scale, ops/s, p99, errors)")
		fs.IntVar(&f.max, "max-scale", f.max, "--find-scale: the highest scale to try")
		fs.StringVar(&f.by, "by", "scale", "--find-scale: what the steps grow: scale (copies of each captured connection, as --scale N) or fold (time slices of the capture at once, as --fold K: the capture's own statements, each once, at K times its rate)")
	})
}

// runFindScale runs the scale search on every cell of the replay and
// writes its report; exit 3 when a cell met the objectives at no scale.
func runFindScale(cmd *cobra.Command, env *Env, o *replayOptions) error {
	obj, err := o.scaleSearch(cmd.Flags())
	if err != nil {
		return usage(err)
	}
	j, err := o.resolve(cmd, env)
	if err != nil {
		return usage(err)
	}
	if err := j.CheckCells(cmd.Context(), env.registry()); err != nil {
		return usage(err)
	}
	if o.run.dryRun {
		return dryRun(env, j)
	}
	cfg, err := o.run.coordCells(env, j, 1)
	if err != nil {
		return err
	}
	cfg.Base.Notes = nil // each step's setup notes would drown the steps' own
	steps := 0
	at, by := preset.ScaleReplay, result.ScaleByCopies
	if o.scaling.by == "fold" {
		at, by = preset.FoldReplay, result.ScaleByFold
	}
	curves, runErr := coord.FindScales(cmd.Context(), coord.ScaleRun{Cells: cfg, At: at,
		Search: capacity.ScaleSearch{Objectives: obj, Max: o.scaling.max},
		Observe: func(_ int, st result.ScaleStep) {
			steps++
			o.run.notef(env, "step %d: %s %d: %d statements, %s statements/s, p99 %s, %d errors: %s", steps, o.scaling.by, st.Scale, st.Statements,
				units.Rate(st.OpsPerSec), units.Micros(st.P99Micros), st.Errors, map[bool]string{true: "met", false: "NOT met"}[st.Met])
		}})
	if len(curves) == 0 {
		return runErr
	}
	for i := range curves {
		curves[i].By = by
	}
	s := &result.Scale{Kind: result.KindScale, SchemaVersion: result.SchemaVersion, Command: j.Command, Args: env.Args,
		Tool: result.ToolInfo(), Objectives: objectiveTexts(obj), MaxScale: o.scaling.max, By: by, Cells: curves}
	if err := o.writeScale(env, s); err != nil || runErr != nil {
		return errors.Join(runErr, err)
	}
	for _, cv := range curves {
		if !cv.Found {
			return fmt.Errorf("%w: %s: %s", judge.ErrThreshold, cv.Settings, report.ScaleHeadline(cv))
		}
	}
	return nil
}

// scaleSearch reads --find-scale's objectives, refusing what a scale
// search sets itself.
func (o *replayOptions) scaleSearch(fs *pflag.FlagSet) ([]judge.Expectation, error) {
	switch {
	case o.scaling.by != "scale" && o.scaling.by != "fold":
		return nil, fmt.Errorf("--by %q: want scale (copies of each captured connection) or fold (time slices of the capture at once)", o.scaling.by)
	case o.scaling.by == "scale" && fs.Changed("scale"):
		return nil, errors.New("--find-scale runs the scales itself: it takes no --scale")
	case o.scaling.by == "fold" && fs.Changed("fold"):
		return nil, errors.New("--find-scale --by fold runs the folds itself: it takes no --fold")
	case o.scaling.by == "fold" && o.scaling.max > workload.MaxFold:
		return nil, fmt.Errorf("--max-scale %d: --by fold cuts the capture into at most %d time slices", o.scaling.max, workload.MaxFold)
	case o.scaling.by == "scale" && o.scaling.max > workload.MaxWorkers:
		return nil, fmt.Errorf("--max-scale %d: --scale runs at most %d copies of each captured connection", o.scaling.max, workload.MaxWorkers)
	case len(o.expects) > 0:
		return nil, errors.New("--find-scale judges every step by its own objectives: give them to --find-scale, not --expect")
	case o.run.repeat != 1:
		return nil, errors.New("--find-scale runs each scale once: it takes no --repeat")
	case o.run.db != "":
		return nil, errors.New("--find-scale runs a whole replay a step, each on a fresh copy of the snapshot: it keeps no database (give no --db)")
	case o.scaling.max < 1:
		return nil, fmt.Errorf("--max-scale %d: want 1 or more", o.scaling.max)
	case o.run.format != "text" && o.run.format != "json":
		return nil, fmt.Errorf("--format %s: --find-scale prints text or json", o.run.format)
	}
	obj, err := capacity.ParseObjectives(o.scaling.objectives)
	if err != nil {
		return nil, fmt.Errorf("--find-scale: %w", err)
	}
	return obj, nil
}

// writeScale writes the scale search: --json's file, and the report on
// stdout.
func (o *replayOptions) writeScale(env *Env, s *result.Scale) error {
	if o.run.jsonOut != "" {
		if err := env.FS.WriteOutput(o.run.jsonOut, s.Write); err != nil {
			return fmt.Errorf("writing --json %s: %w", o.run.jsonOut, err)
		}
	}
	if o.run.format == "json" {
		return s.Write(env.Stdout)
	}
	return report.ScaleText(env.Stdout, s)
}
