package report

import (
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/workload"
)

// A run traced through the recording file system says its speeds are not
// the untraced engine's where the recorder changes the engine's syncs
// (msync becomes the recorder's writes and fdatasyncs), and only there.
func TestTracedSyncNote(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, trace, prim string
		want              bool
	}{
		{"msync traced through the file system", workload.IOTraceFS, "msync", true},
		{"msync untraced", "", "msync", false},
		{"fdatasync traced through the file system", workload.IOTraceFS, "fdatasync", false},
		{"O_DSYNC write traced through the file system", workload.IOTraceFS, "fdatasync + O_DSYNC write", false},
		{"msync traced through a VFS", workload.IOTraceVFS, "msync", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := &result.Result{}
			r.Plan.IOTrace = tc.trace
			r.Environment.SyncPrimitive = tc.prim
			var text, md strings.Builder
			if err := runText(&text, r, nil); err != nil {
				t.Fatal(err)
			}
			if err := runMarkdown(&md, r, nil); err != nil {
				t.Fatal(err)
			}
			for name, out := range map[string]string{"text": text.String(), "markdown": md.String()} {
				if got := strings.Contains(out, "traced speeds: this engine syncs by msync"); got != tc.want {
					t.Errorf("%s report states the recorder's effect: %v, want %v\n%s", name, got, tc.want, out)
				}
			}
		})
	}
}
