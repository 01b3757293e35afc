package result

import (
	"testing"

	"github.com/gobench/gobench/pkg/store"
)

// A promise is judged only as far as the states can tell: writes not
// checked cannot show a promise to keep them kept.
func TestPromiseKept(t *testing.T) {
	keeps := &store.Promise{Level: store.PromiseKeeps}
	mayLose := &store.Promise{Level: store.PromiseMayLose}
	for _, tc := range []struct {
		name        string
		d           Durability
		kept, known bool
	}{
		{"no promise", Durability{}, false, false},
		{"keeps, none lost", Durability{Promise: keeps, States: 5}, true, true},
		{"keeps, some lost", Durability{Promise: keeps, States: 5, Lossy: 1}, false, true},
		{"keeps, not checked", Durability{Promise: keeps, States: 5, NotChecked: "scripts"}, false, false},
		{"keeps, not checked, corrupt", Durability{Promise: keeps, States: 5, Corrupt: 1, NotChecked: "scripts"}, false, true},
		{"may lose, not checked", Durability{Promise: mayLose, States: 5, NotChecked: "scripts"}, true, true},
		{"may lose, corrupt", Durability{Promise: mayLose, States: 5, Corrupt: 2}, false, true},
	} {
		if kept, known := tc.d.PromiseKept(); kept != tc.kept || known != tc.known {
			t.Errorf("%s: kept %v known %v, want %v %v", tc.name, kept, known, tc.kept, tc.known)
		}
	}
}
