package history

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseFlags: --where and --since take any input without a panic;
// settings --where reads write back as they were read, and a --since it
// takes is never after now unless it is a date.
func FuzzParseFlags(f *testing.F) {
	for _, s := range []string{"journal=wal", "journal=wal,procs=4", "=x", "a=b=c", "", ",", "30d", "2w", "12h", "2026-11-01", "1e400d", "-3d", "2026-11-01T10:00:00Z"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if w, err := ParseWhere([]string{s}); err == nil {
			again, err := ParseWhere([]string{w.String()})
			if len(w) > 0 && (err != nil || again.String() != w.String()) {
				t.Errorf("%q reads as %q, which reads as %q (%v)", s, w, again, err)
			}
		}
		if since, err := ParseSince(s, now); err == nil && since.After(now) && !strings.Contains(s, "-") {
			t.Errorf("--since %q is %v, after now", s, since)
		}
	})
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"30d", now.Add(-30 * 24 * time.Hour), true},
		{"2w", now.Add(-14 * 24 * time.Hour), true},
		{"12h", now.Add(-12 * time.Hour), true},
		{"2026-11-01", time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), true},
		{"", time.Time{}, true},
		{"yesterday", time.Time{}, false},
		{"-3d", time.Time{}, false},
		{"1e300d", time.Time{}, false},
	}
	for _, c := range cases {
		got, err := ParseSince(c.in, now)
		if (err == nil) != c.ok || !got.Equal(c.want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v (ok %v)", c.in, got, err, c.want, c.ok)
		}
	}
}
