// Package report renders results: one file per format, selected by name
// through Formats and Lookup. Renderers only read a result and write to an
// io.Writer; they never run anything.
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gobench/gobench/pkg/result"
)

// Renderer writes a result in one format.
type Renderer func(w io.Writer, r *result.Result) error

var renderers = map[string]Renderer{
	"text": Text,
	"json": JSON,
}

// Formats returns the names of the formats, sorted.
func Formats() []string {
	names := make([]string, 0, len(renderers))
	for n := range renderers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup returns the renderer of the named format.
func Lookup(format string) (Renderer, error) {
	if r, ok := renderers[format]; ok {
		return r, nil
	}
	return nil, fmt.Errorf("unknown format %q (want one of %s)", format, strings.Join(Formats(), ", "))
}

// JSON writes the result as indented JSON, every field included.
func JSON(w io.Writer, r *result.Result) error { return r.Write(w) }
