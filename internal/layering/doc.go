// Package layering holds a test that enforces the project's package rules
// (see ARCHITECTURE.md): which packages may import which, and
// that library code never prints or exits. It has no code of its own.
package layering
