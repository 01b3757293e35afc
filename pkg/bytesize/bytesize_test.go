package bytesize

import (
	"fmt"
	"strconv"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want int64
	}{
		{"4096", 4096}, {"4k", 4096}, {"4K", 4096}, {"4KiB", 4096}, {"4kB", 4000}, {"4KB", 4000},
		{"100k", 102400}, {"100kB", 100000}, {"1m", 1 << 20}, {"1M", 1 << 20}, {"1MiB", 1 << 20}, {"1MB", 1000000},
		{"10m", 10 << 20}, {"256M", 256 << 20}, {"1G", 1 << 30}, {"1GB", 1e9}, {"512B", 512},
	} {
		if got, err := Parse(tt.in); err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "0", "-4k", "4x", "k", "1.5M", "9999999999G"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) succeeded", bad)
		}
	}
}

func TestUnits(t *testing.T) {
	t.Parallel()
	bin, si := Units{}, Units{SI: true}
	// 100 MiB in one second.
	if got := fmt.Sprintf("%.1f %s", bin.PerSec(100<<20), bin.RateUnit()); got != "100.0 MiB/s" {
		t.Errorf("binary rate = %q", got)
	}
	if got := fmt.Sprintf("%.1f %s", si.PerSec(100<<20), si.RateUnit()); got != "104.9 MB/s" {
		t.Errorf("SI rate = %q", got)
	}
	for _, tt := range []struct {
		u    Units
		n    int64
		want string
	}{
		{bin, 4096, "4 KiB"}, {si, 4096, "4.096 kB"}, {bin, 100000, "97.656 KiB"}, {si, 100000, "100 kB"},
		{bin, 10 << 20, "10 MiB"}, {si, 10 << 20, "10.486 MB"}, {bin, 512, "512 B"}, {bin, 1536 << 10, "1.5 MiB"},
	} {
		if got := tt.u.Size(tt.n); got != tt.want {
			t.Errorf("Size(%d, SI=%v) = %q, want %q", tt.n, tt.u.SI, got, tt.want)
		}
	}
}

func TestRound(t *testing.T) {
	t.Parallel()
	bin, si := Units{}, Units{SI: true}
	for _, tt := range []struct {
		u    Units
		n    int64
		want string
	}{
		{bin, 512, "512 B"}, {bin, 4096, "4 KiB"}, {bin, 21880832, "20.9 MiB"}, {si, 21880832, "21.9 MB"},
		{bin, 1023, "1023 B"}, {bin, 150 << 20, "150 MiB"}, {bin, 1536 << 10, "1.5 MiB"}, {si, 999999, "1000 kB"},
	} {
		if got := tt.u.Round(tt.n); got != tt.want {
			t.Errorf("Round(%d, SI=%v) = %q, want %q", tt.n, tt.u.SI, got, tt.want)
		}
	}
}

func TestParseList(t *testing.T) {
	t.Parallel()
	got, err := ParseList("4k, 100kB,1m,10M")
	if err != nil || len(got) != 4 || got[0] != 4096 || got[1] != 100000 || got[2] != 1<<20 || got[3] != 10<<20 {
		t.Errorf("ParseList = %v, %v", got, err)
	}
	for _, bad := range []string{"", "4k,", ",4k", "4k,,1m", "4k,x"} {
		if _, err := ParseList(bad); err == nil {
			t.Errorf("ParseList(%q) succeeded", bad)
		}
	}
}

// FuzzParse: Parse never panics, accepts only positive counts, and reads
// its own plain-byte output back.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"4k", "100kB", "1MiB", "10m", "512B", "0", "-1", "9999999999999G", " 4 K "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := Parse(s)
		if err != nil {
			return
		}
		if n <= 0 {
			t.Fatalf("Parse(%q) = %d", s, n)
		}
		if m, err := Parse(strconv.FormatInt(n, 10)); err != nil || m != n {
			t.Fatalf("Parse(%d) = %d, %v", n, m, err)
		}
	})
}
