package units

import "testing"

func TestParseCount(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"1000", 1000, true}, {"10k", 10_000, true}, {"10K", 10_000, true}, {"1.5M", 1_500_000, true},
		{"1m", 1_000_000, true}, {"2G", 2_000_000_000, true}, {"4Ki", 4096, true}, {"1Mi", 1 << 20, true},
		{"0", 0, true}, {" 7 ", 7, true},
		{"1.5", 0, false}, {"-1", 0, false}, {"1e3", 1000, true}, {"0x10", 0, false}, {"k", 0, false},
		{"", 0, false}, {"NaN", 0, false}, {"1_000", 0, false}, {"1.0001k", 0, false}, {"99999999999G", 0, false},
	} {
		got, err := ParseCount(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseCount(%q) = %d, %v; want %d, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestParseRate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"500", 500, true}, {"2k", 2000, true}, {"1.5M", 1.5e6, true}, {"0.5", 0.5, true}, {"0", 0, true},
		{"-1", 0, false}, {"Inf", 0, false}, {"NaN", 0, false}, {"1e309", 0, false}, {"fast", 0, false},
	} {
		got, err := ParseRate(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func FuzzParseCount(f *testing.F) {
	for _, s := range []string{"10k", "1.5M", "4Ki", "-1", "1e3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := ParseCount(s)
		if err != nil {
			return
		}
		if n >= 1<<63 {
			t.Fatalf("ParseCount(%q) = %d, beyond 63 bits", s, n)
		}
	})
}

func TestParseShare(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"5%", 0.05, true}, {"0.05", 0.05, true}, {"100%", 1, true}, {"0", 0, true}, {" 20% ", 0.2, true}, {"0.5%", 0.005, true},
		{"120%", 0, false}, {"1.5", 0, false}, {"-1%", 0, false}, {"NaN", 0, false}, {"%", 0, false}, {"", 0, false}, {"0x1p-2", 0, false}, {"1_0%", 0, false},
	} {
		got, err := ParseShare(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseShare(%q) = %v, %v; want %v (ok %v)", tt.in, got, err, tt.want, tt.ok)
		}
	}
}
