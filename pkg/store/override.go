package store

import "encoding/json"

// Overrider is implemented by Settings that can set some of their flags'
// values in a cell's options: a replay's cell as the application ran, its
// settings read from the trace. values are by flag name ("journal":
// "wal"); a flag the Settings do not bind is an error, and so is a value
// it refuses. The options come back validated.
type Overrider interface {
	Override(options json.RawMessage, values map[string]string) (json.RawMessage, error)
}
