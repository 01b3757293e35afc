package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A gate's expression stays readable in JSON written as results are
// (HTML escaping off), whether or not a cell had its figure: json.Marshal
// inside MarshalJSON wrote ">=" as "\u003e=" all the same.
func TestGateJSONReadable(t *testing.T) {
	for _, g := range []Gate{{Expression: "read p99 <= 2ms", Op: "<="}, {Expression: "upsert ops/s: wal >= 3x rollback", Op: ">=", NoFigure: true}} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(g); err != nil {
			t.Fatal(err)
		}
		if b := buf.Bytes(); !strings.Contains(string(b), `"expression":"`+g.Expression+`"`) || strings.Contains(string(b), `\u003`) {
			t.Errorf("%s", b)
		}
	}
}
