package report

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/gobench/gobench/pkg/sqltrace"
	"github.com/gobench/gobench/pkg/units"
)

// TraceInfo returns the renderer of a trace's summary (gobench replay
// --info) in the named format: text or json.
func TraceInfo(format string, in *sqltrace.Info, o Options) (func(io.Writer) error, error) {
	switch format {
	case "text":
		return func(w io.Writer) error { return traceInfoText(w, in, o) }, nil
	case "json":
		return func(w io.Writer) error {
			e := json.NewEncoder(w)
			e.SetIndent("", "  ")
			return e.Encode(in)
		}, nil
	}
	return nil, fmt.Errorf("a trace's summary renders as text or json, not %s", format)
}

func traceInfoText(w io.Writer, in *sqltrace.Info, o Options) error {
	state := "complete"
	if !in.Complete {
		state = "incomplete"
	}
	if in.TailMissing != "" {
		state += ", but its end may be missing: " + textEscape(in.TailMissing)
	}
	if in.Cut.Statements > 0 || in.Omitted.Statements > 0 {
		state += fmt.Sprintf(" but not whole (%d statements cut, %d with a value omitted)", in.Cut.Statements, in.Omitted.Statements)
	}
	fmt.Fprintf(w, "trace: format version %d, %s, %s\n", in.Version, o.Units.Size(in.Bytes), state)
	fmt.Fprintf(w, "processes:    %d (%d connections, %d threads)\n", len(in.Processes), in.Connections, in.Threads)
	fmt.Fprintf(w, "statements:   %d (%d distinct fingerprints), %d failed (%d busy or locked)\n", in.Statements, in.Fingerprints, in.Errors, in.Busy)
	fmt.Fprintf(w, "commits:      %d\n", in.Commits)
	fmt.Fprintf(w, "duration:     %s\n", duration(in.Duration))
	if in.Masked != "" {
		fmt.Fprintf(w, "masked:       %s: their values are keyed substitutes, in the snapshots and the statements\n", textEscape(in.Masked))
	}
	if in.Cut.Statements > 0 {
		fmt.Fprintf(w, "cut:          %d statements longer than %d MiB, kept as their first MiB: a replay does not run them (%s)\n", in.Cut.Statements, sqltrace.MaxText>>20, in.Cut.Names())
	}
	if in.Omitted.Statements > 0 {
		fmt.Fprintf(w, "omitted:      %d statements with a parameter longer than %d MiB, kept as its type and length: a replay binds filler, and its database cannot end as the capture's (%s)\n", in.Omitted.Statements, sqltrace.MaxValue>>20, in.Omitted.Names())
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\ndatabase\tstatements\tcommits\torder of commits\tsnapshot\n")
	for _, d := range in.Databases {
		order := d.Order
		if !d.Exact {
			order += " (inexact: " + d.Inexact + ")"
		}
		snap := o.Units.Size(int64(d.Snapshot))
		if d.SnapshotError != "" {
			snap = "none: " + d.SnapshotError
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\n", textEscape(d.Path), d.Statements, d.Commits, textEscape(order), textEscape(snap))
	}
	fmt.Fprintf(tw, "\nprocess\tpid\tconnections\tthreads\tstatements\tcommand\n")
	for _, p := range in.Processes {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%s\n", p.Stream, p.PID, p.Connections, p.Threads, p.Statements, textEscape(shorten(p.Command, 60)))
	}
	fmt.Fprintf(tw, "\nstatement\tcount\ttotal\tfingerprint\n")
	for _, f := range in.Top {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", f.ID, f.Count, duration(f.Total), textEscape(shorten(f.Text, 100)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(in.Notes) > 0 {
		fmt.Fprintf(w, "\nnotes:\n")
		for _, n := range in.Notes {
			fmt.Fprintf(w, "  %s\n", textEscape(n))
		}
	}
	return nil
}

// duration prints a duration with three significant digits.
func duration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return units.Sig3(d.Seconds()) + " s"
	case d >= time.Millisecond:
		return units.Sig3(float64(d)/1e6) + " ms"
	}
	return units.Sig3(float64(d)/1e3) + " µs"
}
