package choose

import (
	"testing"

	"github.com/gobench/gobench/pkg/workload"
)

// The p99 the table shows is the largest write's, by its op kind's name,
// or the total's where the mix writes nothing.
func TestP99Kind(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ mix, want string }{
		{"upsert=80,read=20", "upsert"},
		{"read=50,update=20,delete=30", "delete"},
		{"read=100", "total"},
	} {
		m, err := workload.ParseMix(tt.mix)
		if err != nil {
			t.Fatal(err)
		}
		if got := p99Kind(m); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.mix, got, tt.want)
		}
	}
}
