package cli

import (
	"fmt"
	"math"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// finiteFloats refuses NaN and infinite values of every float flag given
// to cmd, whatever else is set: a flag's own check may not look at its
// value (a zipfian theta under the uniform distribution, --rate-max
// without --find-rate) and the run would meet it later, or never.
// Values beyond float64 (1e309) do not parse (pflag refuses them).
func finiteFloats(cmd *cobra.Command) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if err != nil || !isFloatFlag(f) {
			return
		}
		v, perr := strconv.ParseFloat(f.Value.String(), 64)
		if perr == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = usage(fmt.Errorf("--%s %s: want a finite number", f.Name, f.Value))
		}
	})
	return err
}

// isFloatFlag reports whether f takes one floating-point number (a share,
// 5% or 0.05, among them).
func isFloatFlag(f *pflag.Flag) bool {
	t := f.Value.Type()
	return t == "float64" || t == "float32" || t == "share"
}
