package workload

import (
	"fmt"
)

// Distribution names how keys are drawn from a key space.
type Distribution string

// The key distributions.
const (
	// Uniform draws every key with the same probability.
	Uniform Distribution = "uniform"
	// Zipfian draws key i (from 0) with probability proportional to
	// 1/(i+1)^theta: key 0 is the hottest. It follows the generator of
	// Gray et al., "Quickly generating billion-record synthetic databases"
	// (SIGMOD 1994), as YCSB does.
	Zipfian Distribution = "zipfian"
	// Latest draws, in a record workload, from the newest records: YCSB's
	// SkewedLatestGenerator, zipfian from the newest acknowledged insert
	// back (see Records).
	Latest Distribution = "latest"
	// Hotspot draws, in a record workload, a hot share of the records for
	// a share of the ops (see Records.HotData and HotOps): YCSB's
	// HotspotIntegerGenerator.
	Hotspot Distribution = "hotspot"
)

// MaxKeys bounds the key space (a trillion keys).
const MaxKeys = 1 << 40

// DefaultTheta is the zipfian skew YCSB uses.
const DefaultTheta = 0.99

// KeySpace is the set of keys ops draw from: 0 to Count-1.
type KeySpace struct {
	Count        uint64       `json:"count"`
	Distribution Distribution `json:"distribution"`
	// Theta is the zipfian skew, in (0, 1); ignored for uniform.
	Theta float64 `json:"theta,omitempty"`
}

// DefaultKeySpace returns 10,000 uniformly drawn keys.
func DefaultKeySpace() KeySpace {
	return KeySpace{Count: 10_000, Distribution: Uniform, Theta: DefaultTheta}
}

// Validate checks the key space.
func (k KeySpace) Validate() error {
	if k.Count == 0 {
		return fmt.Errorf("key count is 0 (want at least 1)")
	}
	if k.Count > MaxKeys {
		return fmt.Errorf("key count %d is above the limit of %d", k.Count, uint64(MaxKeys))
	}
	switch k.Distribution {
	case Uniform, Latest, Hotspot:
	case Zipfian:
		if !(k.Theta > 0 && k.Theta < 1) {
			return fmt.Errorf("zipfian theta %v is out of range (want a value between 0 and 1, exclusive, such as %v)", k.Theta, DefaultTheta)
		}
	default:
		return fmt.Errorf("unknown key distribution %q (want uniform, zipfian, latest or hotspot)", k.Distribution)
	}
	return nil
}

// Set parses a distribution name. It implements flag.Value.
func (d *Distribution) Set(s string) error {
	switch Distribution(s) {
	case Uniform, Zipfian:
		*d = Distribution(s)
		return nil
	}
	return fmt.Errorf("unknown key distribution %q (want uniform or zipfian)", s)
}

// String returns the distribution's name.
func (d *Distribution) String() string { return string(*d) }

// Type names the flag's value type in help output.
func (d *Distribution) Type() string { return "dist" }
