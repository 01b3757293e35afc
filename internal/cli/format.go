package cli

import (
	"strings"

	"github.com/gobench/gobench/pkg/disk"
	"github.com/gobench/gobench/pkg/history"
	"github.com/gobench/gobench/pkg/judge"
	"github.com/gobench/gobench/pkg/report"
	"github.com/gobench/gobench/pkg/result"
)

// formatsOf are the formats that render each kind a command may annotate
// (rendersKind); results are the default.
var formatsOf = map[string]any{"comparison": (*judge.Comparison)(nil), "disk": (*disk.Report)(nil), "choice": (*result.Choice)(nil), "history": (*history.Report)(nil), "": (*result.Suite)(nil)}

// formatUsage is the usage of a --format flag that writes what, for a
// command whose output is kind (rendersKind): the formats that render
// it, as pkg/report declares them.
func formatUsage(what, kind string) string {
	return what + ": " + strings.Join(report.FormatsFor(formatsOf[kind]), ", ")
}

// formatOf is the format an output file's extension names (as pkg/report
// declares its formats' extensions), or def for any other.
func formatOf(path, def string) string {
	if f, ok := report.FormatOfPath(path); ok {
		return f
	}
	return def
}
