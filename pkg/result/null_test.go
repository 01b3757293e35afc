package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// Not measured is never zero in JSON: a --crash run whose acknowledged
// writes were not checked has null lossy states and lost writes, a gate
// whose cell had no figure a null value; both read back.
func TestNotMeasuredIsNull(t *testing.T) {
	d := Durability{Model: "lose", Requested: 3, States: 3, NotChecked: "these scripts have no check of their data"}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"lossy":null`, `"max_lost":null`, `"max_lost_age_us":null`, `"corrupt":0`, `"not_checked":"these scripts`} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("unchecked durability %s lacks %s", b, want)
		}
	}
	var back Durability
	if err := json.Unmarshal(b, &back); err != nil || back.NotChecked != d.NotChecked || back.States != 3 {
		t.Errorf("read back %+v, %v", back, err)
	}
	checked := Durability{Model: "lose", States: 3, Lossy: 2, MaxLost: 7}
	if b, _ := json.Marshal(checked); !bytes.Contains(b, []byte(`"lossy":2`)) || !bytes.Contains(b, []byte(`"max_lost":7`)) {
		t.Errorf("checked durability: %s", b)
	}

	g := Gate{Expression: "scan p99 <= 2ms", Cell: "the run", Outcome: OutcomeInconclusive, NoFigure: true, Unit: "µs", Op: "<=", Threshold: 2000}
	b, err = json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"value":null`) || strings.Contains(string(b), `"value":0`) {
		t.Errorf("a gate with no figure: %s", b)
	}
	var gb Gate
	if err := json.Unmarshal(b, &gb); err != nil || !gb.NoFigure || gb.Threshold != 2000 {
		t.Errorf("gate read back %+v, %v", gb, err)
	}
}
