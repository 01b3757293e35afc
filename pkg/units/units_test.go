package units

import "testing"

func TestMicros(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		us   float64
		want string
	}{
		{0, "0"}, {0.25, "250ns"}, {1.234, "1.23µs"}, {12.34, "12.3µs"}, {123.4, "123µs"},
		{1234, "1.23ms"}, {45678, "45.7ms"}, {1.5e6, "1.50s"}, {3.6e9, "3600s"},
	} {
		if got := Micros(tt.us); got != tt.want {
			t.Errorf("Micros(%v) = %q, want %q", tt.us, got, tt.want)
		}
	}
}

func TestRate(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		r    float64
		want string
	}{{0, "0"}, {12.345, "12.3"}, {123.4, "123"}, {56789.1, "56789"}} {
		if got := Rate(tt.r); got != tt.want {
			t.Errorf("Rate(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}

func TestSig3(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v    float64
		want string
	}{{0.5, "0.50"}, {3.14159, "3.14"}, {31.4159, "31.4"}, {314.159, "314"}, {31415.9, "31416"}} {
		if got := Sig3(tt.v); got != tt.want {
			t.Errorf("Sig3(%v) = %q, want %q", tt.v, got, tt.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		f    float64
		want string
	}{{0.1, "10"}, {10, "1000"}, {0.00001, "0.001"}, {0.125, "12.5"}, {0, "0"}} {
		if got := Percent(tt.f); got != tt.want {
			t.Errorf("Percent(%v) = %q, want %q", tt.f, got, tt.want)
		}
	}
}

// A factor below a tenth keeps two significant digits: a hundredth is not
// "0.01" for 0.0128, nor "0.00" for 0.0038.
func TestRatio(t *testing.T) {
	for v, want := range map[float64]string{3.1: "3.10", 0.35: "0.35", 0.0128: "0.013", 0.0038: "0.0038", 0.05: "0.050", 0.099: "0.10", 0: "0.00", 152.6: "153"} {
		if got := Ratio(v); got != want {
			t.Errorf("Ratio(%v) = %q, want %q", v, got, want)
		}
	}
}
