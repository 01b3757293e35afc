package sysinfo

import "testing"

func TestParseMemAvailable(t *testing.T) {
	for _, tt := range []struct {
		text string
		want int64
		ok   bool
	}{
		{"MemTotal:       24641536 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n", 20000000 << 10, true},
		{"MemTotal:       24641536 kB\n", 0, false}, // a kernel before 3.14
		{"MemAvailable:   lots kB\n", 0, false},
		{"MemAvailable:   12 MB\n", 0, false},
		{"", 0, false},
	} {
		got, ok := parseMemAvailable([]byte(tt.text))
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q: %d, %v; want %d, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}
