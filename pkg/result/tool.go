package result

import (
	"runtime"
	"runtime/debug"
)

// ToolInfo describes this gobench build, from its build information.
func ToolInfo() Tool {
	t := Tool{Name: "gobench", Version: "(devel)", GoVersion: runtime.Version()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if v := bi.Main.Version; v != "" {
			t.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				t.Revision = s.Value
			case "vcs.time":
				t.RevisionTime = s.Value
			case "vcs.modified":
				t.Modified = s.Value == "true"
			}
		}
		if t.Version == "(devel)" && t.Revision != "" {
			t.Version = "(devel) " + t.Revision
		}
	}
	return t
}
