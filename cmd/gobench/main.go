// Command gobench is a load generator for embedded databases. See the
// README or run "gobench --help".
package main

import (
	"os"

	"github.com/gobench/gobench/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], cli.OSEnv()))
}
