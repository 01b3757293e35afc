package report

import (
	"encoding/json"
	"io"
)

// writeJSON writes v as indented JSON, its expressions (">=") as they
// are: the JSON format of the reports that have one.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // expressions such as ">=" stay readable
	return enc.Encode(v)
}
