package cli

// The CLI reference (docs/reference, markdown), the man pages (docs/man)
// and the shell completion scripts (docs/completion) are generated from
// the command tree; TestReference fails when they are stale.
//go:generate go test -run ^TestReference$ -update-reference .
