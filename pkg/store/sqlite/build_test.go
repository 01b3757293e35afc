package sqlite

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// --sqlite-version takes a mattn module version as given, or a SQLite
// version as the newest mattn version bundling it; anything else, and a
// SQLite version no known mattn version bundles, is refused.
func TestResolveVersion(t *testing.T) {
	for _, tc := range []struct {
		in, mattn, bundled, err string
	}{
		{in: "v1.14.53", mattn: "v1.14.53", bundled: "3.54.1"},
		{in: "v1.14.47", mattn: "v1.14.47", bundled: "3.53.2"},
		{in: "3.53.2", mattn: "v1.14.47", bundled: "3.53.2"},
		{in: "3.53.4", mattn: "v1.14.52", bundled: "3.53.4"},
		{in: "v1.14.99", mattn: "v1.14.99"},
		{in: "3.1.1", err: "no mattn version known to bundle it"},
		{in: "latest", err: "want a mattn module version"},
		{in: "v1.14.53; rm", err: "want a mattn module version"},
		{in: "1.14.53", err: "want a mattn module version"},
	} {
		mattn, bundled, err := resolveVersion(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("resolveVersion(%q) = %s, %s, %v; want an error containing %q", tc.in, mattn, bundled, err, tc.err)
		case tc.err == "" && (err != nil || mattn != tc.mattn || bundled != tc.bundled):
			t.Errorf("resolveVersion(%q) = %s, %s, %v; want %s, %s", tc.in, mattn, bundled, err, tc.mattn, tc.bundled)
		}
	}
}

// A cell's options ask for a worker build only for the cgo drivers, and
// blocking locks only where the build compiles them in; a driver that
// carries its own SQLite takes that version (and runs as it is), no other.
func TestWorkerBuild(t *testing.T) {
	own, other := moderncVersions(t)
	cfg := func(o Options) store.Config { return store.Config{Options: o.Encode()} }
	opts := func(version string, defines Defines, wait string) Options {
		o := DefaultOptions()
		o.SQLiteVersion, o.Defines, o.LockWait = version, defines, wait
		return o
	}
	for _, tc := range []struct {
		name   string
		driver *Driver
		o      Options
		want   *store.WorkerBuild // nil: none
		err    string
	}{
		{"none", &Driver{name: "mattn"}, DefaultOptions(), nil, ""},
		{"define", &Driver{name: "capi"}, opts("", "SQLITE_ENABLE_SETLK_TIMEOUT", ""), &store.WorkerBuild{Module: mattnModule, Version: linkedMattn(), Defines: []string{"SQLITE_ENABLE_SETLK_TIMEOUT"}}, ""},
		{"version", &Driver{name: "mattn"}, opts("3.54.1", "", ""), &store.WorkerBuild{Module: mattnModule, Version: "v1.14.53"}, ""},
		{"blocking built", &Driver{name: "mattn"}, opts("v1.14.53", "SQLITE_ENABLE_SETLK_TIMEOUT", LockWaitBlocking), &store.WorkerBuild{Module: mattnModule, Version: "v1.14.53", Defines: []string{"SQLITE_ENABLE_SETLK_TIMEOUT"}}, ""},
		{"blocking unbuilt", &Driver{name: "mattn"}, opts("v1.14.53", "", LockWaitBlocking), nil, "needs a SQLite compiled with SQLITE_ENABLE_SETLK_TIMEOUT"},
		{"modernc its own version", Modernc(), opts(own, "", ""), nil, ""},
		{"modernc another version", Modernc(), opts(other, "", ""), nil, "modernc carries SQLite " + own + " and runs no other"},
		{"modernc an unknown version", Modernc(), opts("v1.14.99", "", ""), nil, "modernc carries SQLite " + own},
		{"modernc define", Modernc(), opts(own, "SQLITE_ENABLE_SETLK_TIMEOUT", ""), nil, "mattn and capi"},
		{"ncruces blocking", &Driver{name: "ncruces"}, opts("", "", LockWaitBlocking), nil, "ncruces cannot"},
	} {
		got, err := tc.driver.WorkerBuild(cfg(tc.o))
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.Is(err, store.ErrInvalid) {
				t.Errorf("%s: %v, %v; want an invalid-input error containing %q", tc.name, got, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case (got == nil) != (tc.want == nil):
			t.Errorf("%s: build %+v, want %+v", tc.name, got, tc.want)
		case got != nil && (got.Module != tc.want.Module || got.Version != tc.want.Version || !slices.Equal(got.Defines, tc.want.Defines) || !strings.HasPrefix(got.Name, buildPrefix+"mattn")):
			t.Errorf("%s: build %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// moderncVersions returns the SQLite modernc carries and another that
// --sqlite-version knows.
func moderncVersions(t *testing.T) (own, other string) {
	t.Helper()
	v, err := Modernc().EngineVersion()
	if err != nil {
		t.Fatal(err)
	}
	own = strings.TrimPrefix(v, "SQLite ")
	for _, o := range SQLiteVersions() {
		if o != own {
			return own, o
		}
	}
	t.Fatalf("no SQLite version known besides modernc's %s", own)
	return "", ""
}

// Definitions are kept sorted and refused when bad; the lock wait takes
// its two names and needs a busy timeout to block for; Local drops it.
func TestBuildOptions(t *testing.T) {
	var d Defines
	if err := d.UnmarshalText([]byte("B=1+A")); err != nil || d != "A+B=1" || !slices.Equal(d.List(), []string{"A", "B=1"}) {
		t.Errorf("Defines of B=1+A = %q, %v", d, err)
	}
	if err := d.UnmarshalText([]byte("A=$(x)")); err == nil {
		t.Errorf("Defines took A=$(x)")
	}
	for _, tc := range []struct {
		wait string
		busy Millis
		err  string
	}{
		{"", 5000, ""},
		{LockWaitBusyHandler, 0, ""},
		{LockWaitBlocking, 5000, ""},
		{LockWaitBlocking, 0, "give it a positive duration"},
		{"spin", 5000, "unknown lock wait"},
	} {
		o := DefaultOptions()
		o.LockWait, o.BusyTimeoutMS = tc.wait, tc.busy
		err := o.Validate()
		if (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("lock wait %q, busy %d ms: %v, want %q", tc.wait, tc.busy, err, tc.err)
		}
	}
	o := DefaultOptions()
	o.LockWait = LockWaitBlocking
	local := (&Driver{name: "mattn"}).Local(store.Config{Options: o.Encode()})
	var back Options
	if err := json.Unmarshal(local.Options, &back); err != nil || back.LockWait != "" {
		t.Errorf("Local kept lock wait %q (%v)", back.LockWait, err)
	}
}
