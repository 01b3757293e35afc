package files

import (
	"encoding/json"
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Namer      = Driver{}
	_ store.Summarizer = Driver{}
)

// NameOptions names the options by their flags: layout and fsync.
func (Driver) NameOptions(raw json.RawMessage) ([]store.Setting, error) {
	o := DefaultOptions()
	if err := store.DecodeOptions(raw, &o, "files"); err != nil {
		return nil, err
	}
	return []store.Setting{{Name: "layout", Value: o.Layout}, {Name: "fsync", Value: strconv.FormatBool(o.Fsync)}}, nil
}

// Summarize gives the files engine as the engine, its layout and fsync as
// the headline, and whether each written file is synced.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	layout := store.FactValue(facts, "layout")
	if layout == "" {
		return nil
	}
	fsync := store.FactValue(facts, "fsync") == "true"
	return []store.Fact{
		{Name: store.FactEngine, Value: "one file per key"},
		{Name: store.FactHeadline, Value: "layout " + layout + " · fsync " + strconv.FormatBool(fsync)},
		{Name: store.FactSyncs, Value: strconv.FormatBool(fsync)},
	}
}
