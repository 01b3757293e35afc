//go:build cgo

package lmdb

import (
	"encoding/json"
	"strconv"

	"github.com/gobench/gobench/pkg/store"
)

var (
	_ store.Namer      = Driver{}
	_ store.Summarizer = Driver{}
)

// NameOptions names the options by their flags: lmdb-map-size (MiB) and
// lmdb-nosync.
func (Driver) NameOptions(raw json.RawMessage) ([]store.Setting, error) {
	o, err := decodeOptions(raw)
	if err != nil {
		return nil, err
	}
	return []store.Setting{
		{Name: "lmdb-map-size", Value: strconv.FormatInt(o.MapSizeMiB, 10)},
		{Name: "lmdb-nosync", Value: strconv.FormatBool(o.NoSync)},
	}, nil
}

// Summarize gives LMDB's version as the engine, the map size and whether
// commits sync as the headline.
func (Driver) Summarize(facts []store.Fact) []store.Fact {
	v := store.FactValue(facts, "lmdb_version")
	if v == "" {
		return nil
	}
	nosync := store.FactValue(facts, "nosync") == "true"
	return []store.Fact{
		{Name: store.FactEngine, Value: v},
		{Name: store.FactHeadline, Value: "lmdb-map-size " + store.FactValue(facts, "map_size_mib") + " MiB · lmdb-nosync " + strconv.FormatBool(nosync)},
		{Name: store.FactSyncs, Value: strconv.FormatBool(!nosync)},
	}
}
