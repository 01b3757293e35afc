package cli

import (
	"fmt"
	"os"
	"testing"

	"github.com/gobench/gobench/pkg/capture/preload"
)

// TestMain lets this package's test binary stand in for gobench where a
// command starts gobench's own executable again: capture starts its
// watchdog as `EXECUTABLE watchdog`, which in a test is this binary, and
// would otherwise run every test of the package again while the capture
// waited for it (the help examples' capture did, and each run started
// another).
func TestMain(m *testing.M) {
	if len(os.Args) == 2 && os.Args[1] == captureWatchdogArg {
		if err := preload.Watchdog(os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
