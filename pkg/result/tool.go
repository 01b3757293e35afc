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
			if s.Key == "vcs.revision" && t.Version == "(devel)" {
				t.Version = "(devel) " + s.Value
			}
		}
	}
	return t
}
