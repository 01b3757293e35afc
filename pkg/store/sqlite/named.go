package sqlite

import (
	"strconv"
	"strings"
	"time"

	"github.com/gobench/gobench/pkg/store"
)

var _ store.Summarizer = (*Driver)(nil)

// Summarize gives SQLite's version as the engine, the journal mode,
// synchronous level and busy timeout read back from the database as the
// headline (blob I/O too, where it ran, and capi's loop in C, on or off),
// and whether commits sync.
func (d *Driver) Summarize(facts []store.Fact) []store.Fact {
	fact := func(name string) string { return store.FactValue(facts, name) }
	v := fact("sqlite_version")
	if v == "" {
		return nil
	}
	parts := []string{"journal " + journalName(fact("journal_mode")), "sync " + fact("synchronous")}
	if ms, err := strconv.ParseInt(fact("busy_timeout_ms"), 10, 64); err == nil {
		parts = append(parts, "busy-timeout "+(time.Duration(ms)*time.Millisecond).String())
	}
	if strings.HasPrefix(fact("lock_wait"), LockWaitBlocking) {
		parts = append(parts, "lock-wait blocking")
	}
	if fact("api") != "" {
		parts = append(parts, "api blob")
	}
	if on, _, ok := strings.Cut(fact("c_loop"), ":"); ok { // capi: how ops went into C
		parts = append(parts, "capi-loop "+on)
	}
	return []store.Fact{
		{Name: store.FactEngine, Value: engineName(v, fact(store.FactWorkerBuild), fact("sqlite_source_id"))},
		{Name: store.FactHeadline, Value: strings.Join(parts, " · ")},
		{Name: store.FactSyncs, Value: strconv.FormatBool(fact("synchronous") != "off")},
	}
}

// journalName turns SQLite's name for a journal mode back into gobench's:
// "delete" is the rollback journal.
func journalName(mode string) string {
	if mode == "delete" {
		return "rollback (delete)"
	}
	return mode
}

var _ store.Promiser = (*Driver)(nil)

// Promise says what SQLite promises at a power cut, by its journal mode
// and synchronous level as read back from the database, after SQLite's
// documentation of PRAGMA synchronous.
func (d *Driver) Promise(facts []store.Fact) (store.Promise, bool) {
	journal, sync := store.FactValue(facts, "journal_mode"), store.FactValue(facts, "synchronous")
	none := func(why string) (store.Promise, bool) {
		return store.Promise{Level: store.PromiseNone, Says: why}, true
	}
	switch {
	case journal == "" || sync == "":
		return store.Promise{}, false
	case sync == "off":
		return none("synchronous=OFF: a power cut may corrupt the database")
	case journal == "memory" || journal == "off":
		return none("journal_mode=" + strings.ToUpper(journal) + ": a power cut mid-commit may corrupt the database")
	case journal == "wal" && sync == "normal":
		return store.Promise{Level: store.PromiseMayLose, Says: "WAL at NORMAL: consistent, but the commits since the last checkpoint may roll back"}, true
	case journal == "wal":
		return store.Promise{Level: store.PromiseKeeps, Says: "WAL at " + strings.ToUpper(sync) + ": durable, the log synced at every commit"}, true
	case sync == "normal":
		return none("a rollback journal at NORMAL: may lose the last transaction, and in rare cases corrupt the database")
	case journal == "delete" && sync == "full":
		return store.Promise{Level: store.PromiseMayLose, Says: "the rollback journal at FULL: may lose the last transaction (its journal's deletion waits for a sync of the directory, which EXTRA makes)"}, true
	}
	return store.Promise{Level: store.PromiseKeeps, Says: "the " + journalName(journal) + " journal at " + strings.ToUpper(sync) + ": durable"}, true
}

// engineName names SQLite by its version and, where the workers ran a
// build of their own (store.FactWorkerBuild), that build and the source
// its worker reported (the date and the check-in's first 12 digits).
func engineName(version, build, source string) string {
	if build == "" {
		return "SQLite " + version
	}
	name := "SQLite " + version + " (" + strings.TrimPrefix(build, buildPrefix)
	if f := strings.Fields(source); len(f) >= 3 {
		name += ", source " + f[0] + " " + f[2][:min(12, len(f[2]))]
	}
	return name + ")"
}
