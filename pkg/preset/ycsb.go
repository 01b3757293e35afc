package preset

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gobench/gobench/pkg/result"
	"github.com/gobench/gobench/pkg/store"
	"github.com/gobench/gobench/pkg/workload"
)

// YCSBSpec is YCSB's core workload (site.ycsb.workloads.CoreWorkload) as
// its property files describe it: a canonical workload (a to f) or a file
// of the user's, with -p overrides, loaded (Load: the inserts measured)
// or run (the transactions measured, the records loaded first, outside
// the measurement). Every core property is honoured; one that would
// change the workload and is not implemented is refused, naming it; one
// that cannot change it (a zero share of an op gobench lacks, a setting
// of YCSB's measurements or bindings) is named in a note (Notes).
//
// threadcount is the number of workers; the matrix's procs spread them
// over processes (threadcount ÷ procs goroutines each). target is
// gobench's open loop (ops due at that rate over all workers, latency
// from each op's due time).
type YCSBSpec struct {
	// Plan is the template of every cell: seed, error policy, open loop
	// (the rate, unless target gives it), busy policy.
	Plan workload.Plan
	Loop Loop
	// Load measures the load: every worker inserts its share of the
	// records. Otherwise the run is measured, after the records are
	// loaded.
	Load bool
	// Properties are the workload's properties in the order given (a
	// file's, then the -p overrides): a later one replaces an earlier
	// one of the same name.
	Properties []Property
	// RateGiven says the template's rate came from the command line (it
	// and target both given is refused).
	RateGiven bool
	// read holds Properties as SetProperties read them, so that Plans and
	// Notes read them once; nil reads Properties on each call.
	read *ycsbConfig
}

// SetProperties sets the workload's properties (see Properties) and
// reads them, refusing what YCSB would refuse, once for Plans and Notes.
func (s *YCSBSpec) SetProperties(props []Property) error {
	s.Properties, s.read = props, nil
	c, err := s.config()
	s.read = c
	return err
}

// Property is one property of a workload and where it came from
// ("workloada:19", "-p"), for messages.
type Property struct {
	Name, Value, Origin string
}

// DefaultYCSBSpec returns a run of no properties yet: YCSB's defaults.
func DefaultYCSBSpec() YCSBSpec {
	p := workload.DefaultPlan()
	p.Preload = 0
	return YCSBSpec{Plan: p}
}

// Shape is a matrix of settings.
func (YCSBSpec) Shape() result.Shape { return result.ShapeMatrix }

// Reference is none: a matrix compares against a baseline cell.
func (YCSBSpec) Reference() string { return "" }

// CanonicalYCSB returns the properties of YCSB's canonical workload name
// (a to f, or workloada to workloadf, as workloads/workloada … in YCSB's
// repository set them), and false for another name.
func CanonicalYCSB(name string) ([]Property, bool) {
	letter := strings.TrimPrefix(strings.ToLower(name), "workload")
	text, ok := canonicalYCSB[letter]
	if !ok {
		return nil, false
	}
	props, err := ParseProperties("workload"+letter, text)
	if err != nil {
		panic(err) // the canonical texts parse
	}
	return props, true
}

// canonicalYCSB holds what upstream YCSB's workloads/workloada …
// workloadf set (their comments left out).
var canonicalYCSB = map[string]string{
	"a": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=0.5\nupdateproportion=0.5\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
	"b": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=0.95\nupdateproportion=0.05\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
	"c": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=1\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\nrequestdistribution=zipfian\n",
	"d": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=0.95\nupdateproportion=0\nscanproportion=0\ninsertproportion=0.05\nrequestdistribution=latest\n",
	"e": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=0\nupdateproportion=0\nscanproportion=0.95\ninsertproportion=0.05\nrequestdistribution=zipfian\nmaxscanlength=100\nscanlengthdistribution=uniform\n",
	"f": "recordcount=1000\noperationcount=1000\nworkload=site.ycsb.workloads.CoreWorkload\nreadallfields=true\nreadproportion=0.5\nupdateproportion=0\nscanproportion=0\ninsertproportion=0\nreadmodifywriteproportion=0.5\nrequestdistribution=zipfian\n",
}

// ParseProperties reads a property file as Java's Properties.load does
// (YCSB reads its files so): a property per logical line, NAME=VALUE,
// NAME:VALUE or NAME VALUE; # and ! start comments; a backslash at a
// line's end continues it; \t, \n, \r, \f and \uXXXX escapes. What
// Java's reader accepts and no property file means (bytes that are not
// text, a malformed \u escape, a continuation at the end of the file, a
// line that names no property) is an error with the file and the line.
func ParseProperties(file, text string) ([]Property, error) {
	if strings.ContainsRune(text, 0) || !utf8.ValidString(text) {
		return nil, fmt.Errorf("%s: not a property file (it holds bytes that are not text)", file)
	}
	text = strings.TrimPrefix(text, "\uFEFF")
	lines := strings.Split(strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n"), "\n")
	var out []Property
	for i := 0; i < len(lines); i++ {
		start := i + 1
		line := strings.TrimLeft(lines[i], " \t\f")
		if line == "" || line[0] == '#' || line[0] == '!' {
			continue
		}
		for continued(line) {
			if i+1 >= len(lines) || (i+2 == len(lines) && lines[i+1] == "") {
				return nil, fmt.Errorf("%s:%d: the line ends with a backslash, continued by no line", file, start)
			}
			i++
			line = line[:len(line)-1] + strings.TrimLeft(lines[i], " \t\f")
		}
		name, value, err := splitProperty(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, start, err)
		}
		out = append(out, Property{Name: name, Value: value, Origin: fmt.Sprintf("%s:%d", file, start)})
	}
	return out, nil
}

// continued reports whether a line ends with an odd number of
// backslashes: an escaped line end.
func continued(line string) bool {
	n := 0
	for i := len(line) - 1; i >= 0 && line[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

// splitProperty splits a logical line into its name and value, both
// unescaped: the name ends at the first unescaped =, : or blank; blanks
// and one = or : follow it.
func splitProperty(line string) (name, value string, err error) {
	end := len(line)
	for i := 0; i < len(line); i++ {
		if line[i] == '\\' {
			i++
			continue
		}
		if strings.IndexByte("=: \t\f", line[i]) >= 0 {
			end = i
			break
		}
	}
	rest := strings.TrimLeft(line[end:], " \t\f")
	if rest != "" && (rest[0] == '=' || rest[0] == ':') {
		rest = strings.TrimLeft(rest[1:], " \t\f")
	}
	if name, err = unescape(line[:end]); err != nil {
		return "", "", err
	}
	if value, err = unescape(rest); err != nil {
		return "", "", err
	}
	if name == "" {
		return "", "", fmt.Errorf("%q names no property (want NAME=VALUE)", line)
	}
	return name, strings.TrimRight(value, " \t\f"), nil
}

// unescape resolves Java's property escapes.
func unescape(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'u':
			if i+5 > len(s) {
				return "", fmt.Errorf("malformed \\uxxxx escape in %q", s)
			}
			r, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", fmt.Errorf("malformed \\uxxxx escape in %q", s)
			}
			i += 4
			// Java's properties are UTF-16: a character beyond the
			// Basic Multilingual Plane is written as a surrogate pair,
			// \uD8xx\uDCxx, which is one character, not two.
			if utf16.IsSurrogate(rune(r)) && i+7 <= len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if lo, err := strconv.ParseUint(s[i+3:i+7], 16, 32); err == nil {
					if pair := utf16.DecodeRune(rune(r), rune(lo)); pair != utf8.RuneError {
						b.WriteRune(pair)
						i += 6
						continue
					}
				}
			}
			b.WriteRune(rune(r))
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), nil
}

// ycsbConfig is a workload's properties read into their settings, with
// YCSB's defaults for those not given.
type ycsbConfig struct {
	recordCount, operationCount, insertStart, insertCount uint64
	insertCountSet, operationCountSet                     bool
	proportions                                           map[workload.Op]float64
	dist                                                  workload.Distribution
	hotData, hotOps                                       float64
	fieldCount, fieldLength, minFieldLength               int
	fieldLengthDist                                       string
	readAll, writeAll, ordered                            bool
	minScan, maxScan                                      int
	scanDist                                              string
	zeroPadding, threads                                  int
	target                                                float64
	table, fieldPrefix                                    string
	origins                                               map[string]string // where each property given came from
	notes                                                 []string
}

// defaultYCSBConfig returns CoreWorkload's and the client's defaults.
func defaultYCSBConfig() *ycsbConfig {
	return &ycsbConfig{
		proportions:     map[workload.Op]float64{workload.OpRead: 0.95, workload.OpUpdate: 0.05},
		dist:            workload.Uniform,
		hotData:         0.2,
		hotOps:          0.8,
		fieldCount:      10,
		fieldLength:     100,
		minFieldLength:  1,
		fieldLengthDist: workload.LengthConstant,
		readAll:         true,
		minScan:         1,
		maxScan:         1000,
		scanDist:        workload.LengthUniform,
		zeroPadding:     1,
		threads:         1,
		table:           "usertable",
		fieldPrefix:     "FIELD",
		origins:         map[string]string{},
	}
}

// ycsbOps are the proportion properties of the ops gobench deals.
var ycsbOps = map[string]workload.Op{
	"readproportion":            workload.OpRead,
	"updateproportion":          workload.OpUpdate,
	"insertproportion":          workload.OpInsert,
	"scanproportion":            workload.OpScan,
	"readmodifywriteproportion": workload.OpReadModifyWrite,
}

// ycsbSetters read the properties gobench implements.
var ycsbSetters = map[string]func(c *ycsbConfig, v string) error{
	"workload": func(_ *ycsbConfig, v string) error {
		switch v {
		case "site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload", "core":
			return nil
		}
		return fmt.Errorf("%q is not YCSB's core workload (want site.ycsb.workloads.CoreWorkload or com.yahoo.ycsb.workloads.CoreWorkload)", v)
	},
	"recordcount": func(c *ycsbConfig, v string) error { return parseCount(v, &c.recordCount) },
	"operationcount": func(c *ycsbConfig, v string) error {
		c.operationCountSet = true
		return parseCount(v, &c.operationCount)
	},
	"insertstart": func(c *ycsbConfig, v string) error { return parseCount(v, &c.insertStart) },
	"insertcount": func(c *ycsbConfig, v string) error { c.insertCountSet = true; return parseCount(v, &c.insertCount) },
	"requestdistribution": func(c *ycsbConfig, v string) error {
		switch d := workload.Distribution(v); d {
		case workload.Uniform, workload.Zipfian, workload.Latest, workload.Hotspot:
			c.dist = d
			return nil
		case "sequential", "exponential":
			return fmt.Errorf("%q is not implemented by gobench (it has uniform, zipfian, latest and hotspot)", v)
		}
		return fmt.Errorf("unknown request distribution %q (want uniform, zipfian, latest or hotspot)", v)
	},
	"hotspotdatafraction": func(c *ycsbConfig, v string) error { return parseFraction(v, &c.hotData) },
	"hotspotopnfraction":  func(c *ycsbConfig, v string) error { return parseFraction(v, &c.hotOps) },
	"fieldcount":          func(c *ycsbConfig, v string) error { return parseInt(v, 1, store.MaxFields, &c.fieldCount) },
	"fieldlength":         func(c *ycsbConfig, v string) error { return parseInt(v, 1, workload.MaxValueSize, &c.fieldLength) },
	"minfieldlength":      func(c *ycsbConfig, v string) error { return parseInt(v, 0, workload.MaxValueSize, &c.minFieldLength) },
	"fieldlengthdistribution": func(c *ycsbConfig, v string) error {
		switch v {
		case workload.LengthConstant, workload.LengthUniform, workload.LengthZipfian:
			c.fieldLengthDist = v
			return nil
		case "histogram":
			return errors.New("\"histogram\" is not implemented by gobench (it has constant, uniform and zipfian)")
		}
		return fmt.Errorf("unknown field length distribution %q (want constant, uniform or zipfian)", v)
	},
	"readallfields":  func(c *ycsbConfig, v string) error { return parseBool(v, &c.readAll) },
	"writeallfields": func(c *ycsbConfig, v string) error { return parseBool(v, &c.writeAll) },
	"minscanlength":  func(c *ycsbConfig, v string) error { return parseInt(v, 1, workload.MaxScanLength, &c.minScan) },
	"maxscanlength":  func(c *ycsbConfig, v string) error { return parseInt(v, 1, workload.MaxScanLength, &c.maxScan) },
	"scanlengthdistribution": func(c *ycsbConfig, v string) error {
		switch v {
		case workload.LengthUniform, workload.LengthZipfian:
			c.scanDist = v
			return nil
		}
		return fmt.Errorf("unknown scan length distribution %q (want uniform or zipfian)", v)
	},
	"insertorder": func(c *ycsbConfig, v string) error {
		switch v {
		case "hashed", "ordered":
			c.ordered = v == "ordered"
			return nil
		}
		return fmt.Errorf("unknown insert order %q (want hashed or ordered)", v)
	},
	"zeropadding":     func(c *ycsbConfig, v string) error { return parseInt(v, 0, workload.MaxZeroPadding, &c.zeroPadding) },
	"threadcount":     func(c *ycsbConfig, v string) error { return parseInt(v, 1, workload.MaxWorkers, &c.threads) },
	"target":          func(c *ycsbConfig, v string) error { return parseRate(v, &c.target) },
	"table":           func(c *ycsbConfig, v string) error { c.table = v; return nil },
	"fieldnameprefix": func(c *ycsbConfig, v string) error { c.fieldPrefix = v; return nil },
}

// ycsbFixed are properties of YCSB's that gobench does not implement,
// each with the values that leave the workload as gobench runs it (a
// note) and why any other is refused.
var ycsbFixed = map[string]struct {
	ok  func(v string) bool
	why string
}{
	"dataintegrity":                               {isFalse, "checking every read's values is not implemented"},
	"core_workload_insertion_retry_limit":         {isZero, "retrying failed inserts is not implemented (give --busy retry for busy ones)"},
	"core_workload_insertion_keep_going_on_error": {isFalse, "is not implemented: give --on-error continue"},
	"maxexecutiontime":                            {isZero, "is not implemented: give --duration (without operationcount)"},
	"maxscanrate":                                 {isZero, "a scan rate limit is not implemented"},
	"scanoptimelimit":                             {isZero, "a scan time limit is not implemented"},
	"discardscannedrecord":                        {isFalse, "is not implemented"},
	"keylength":                                   {never, "keys are YCSB core's, user and a number (zeropadding pads them)"},
	"keylengthdistribution":                       {never, "keys are YCSB core's, user and a number (zeropadding pads them)"},
}

func isFalse(v string) bool { return strings.EqualFold(v, "false") }
func isZero(v string) bool  { f, err := strconv.ParseFloat(v, 64); return err == nil && f == 0 }
func never(string) bool     { return false }

// ycsbNoted are settings of YCSB's client, measurements and bindings:
// they cannot change the workload gobench runs.
var ycsbNoted = map[string]string{
	"db":                                     "gobench's --driver picks the engine",
	"dotransactions":                         "gobench's load or run argument decides",
	"exporter":                               "gobench's --format picks the output (--format ycsb prints YCSB's summary)",
	"exportfile":                             "gobench's --json writes the full result",
	"measurementtype":                        "gobench keeps an HdrHistogram per op kind",
	"measurement.interval":                   "gobench measures each op from its due time in open loop, from its start otherwise",
	"measurement.trackjvm":                   "no JVM here",
	"histogram.buckets":                      "gobench keeps an HdrHistogram per op kind",
	"hdrhistogram.percentiles":               "gobench reports fixed percentiles",
	"hdrhistogram.fileoutput":                "gobench's --hlog writes histogram logs",
	"hdrhistogram.output.path":               "gobench's --hlog writes histogram logs",
	"timeseries.granularity":                 "gobench keeps a per-second timeline",
	"status":                                 "gobench's --progress prints progress",
	"status.interval":                        "gobench's --progress sets its interval",
	"label":                                  "a label of YCSB's status lines",
	"reportlatencyforeacherror":              "gobench counts errors by class",
	"latencytrackederrors":                   "gobench counts errors by class",
	"readallfieldsbyname":                    "the SQLite drivers select every column, the others read the whole record, as YCSB's JDBC binding does",
	"core_workload_insertion_retry_interval": "only retries use it (core_workload_insertion_retry_limit)",
	"fieldlengthhistogram":                   "only fieldlengthdistribution=histogram reads it",
	"exponential.percentile":                 "only requestdistribution=exponential reads it",
	"exponential.frac":                       "only requestdistribution=exponential reads it",
}

// parseCount reads a whole number of records or ops.
func parseCount(v string, dst *uint64) error {
	n, err := strconv.ParseInt(v, 10, 64)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a whole number", v)
	case n < 0:
		return fmt.Errorf("%d is negative", n)
	case uint64(n) > workload.MaxKeys:
		return fmt.Errorf("%d is above the limit of %d", n, uint64(workload.MaxKeys))
	}
	*dst = uint64(n)
	return nil
}

// parseInt reads a whole number from lo to hi.
func parseInt(v string, lo, hi int, dst *int) error {
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", v)
	}
	if n < lo || n > hi {
		return fmt.Errorf("%d is out of range (want %d to %d)", n, lo, hi)
	}
	*dst = n
	return nil
}

// parseFraction reads a number from 0 to 1.
func parseFraction(v string, dst *float64) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= 1) {
		return fmt.Errorf("%q is not a number from 0 to 1", v)
	}
	*dst = f
	return nil
}

// parseRate reads target: ops per second, 0 for none.
func parseRate(v string, dst *float64) error {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !(f >= 0 && f <= workload.MaxRate) {
		return fmt.Errorf("%q is not a rate from 0 (none) to %g ops/s", v, workload.MaxRate)
	}
	*dst = f
	return nil
}

// parseBool reads true or false, in any case (YCSB takes any other word
// for false; gobench refuses it).
func parseBool(v string, dst *bool) error {
	switch strings.ToLower(v) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return fmt.Errorf("%q is neither true nor false", v)
	}
	return nil
}

// config reads the properties, the last of each name winning, into the
// workload's settings; every error names the property and where it came
// from.
func (s YCSBSpec) config() (*ycsbConfig, error) {
	if s.read != nil {
		return s.read, nil
	}
	c := defaultYCSBConfig()
	last := map[string]Property{}
	var order []string
	for _, p := range s.Properties {
		if _, seen := last[p.Name]; !seen {
			order = append(order, p.Name)
		}
		last[p.Name] = p
	}
	for _, name := range order {
		p := last[name]
		c.origins[name] = p.Origin
		if err := c.set(p); err != nil {
			return nil, fmt.Errorf("%s (%s): %w", cut(p.Name), p.Origin, err)
		}
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// set applies one property, or notes it, or refuses it.
func (c *ycsbConfig) set(p Property) error {
	if set, ok := ycsbSetters[p.Name]; ok {
		return set(c, p.Value)
	}
	name, value := cut(p.Name), cut(p.Value) // as messages show them
	if op, ok := ycsbOps[p.Name]; ok {
		f, err := strconv.ParseFloat(p.Value, 64)
		if err != nil || !(f >= 0 && f <= 1) {
			return fmt.Errorf("%q is not a proportion from 0 to 1", value)
		}
		c.proportions[op] = f
		return nil
	}
	if f, ok := ycsbFixed[p.Name]; ok {
		if !f.ok(p.Value) {
			return fmt.Errorf("%s: %s", value, f.why)
		}
		c.notes = append(c.notes, fmt.Sprintf("%s=%s (%s) leaves the workload as it is", name, value, p.Origin))
		return nil
	}
	if why, ok := ycsbNoted[p.Name]; ok {
		c.notes = append(c.notes, fmt.Sprintf("%s (%s) is not used: %s", name, p.Origin, why))
		return nil
	}
	if strings.HasSuffix(p.Name, "proportion") {
		if isZero(p.Value) {
			c.notes = append(c.notes, fmt.Sprintf("%s=%s (%s): a zero share of an op gobench does not have", name, value, p.Origin))
			return nil
		}
		return fmt.Errorf("%s is a share of an op gobench does not have (it has read, update, insert, scan and read-modify-write)", value)
	}
	if strings.Contains(p.Name, ".") {
		c.notes = append(c.notes, fmt.Sprintf("%s (%s) is not used: a setting of a YCSB binding or of its measurements", name, p.Origin))
		return nil
	}
	return errors.New("unknown property: gobench cannot tell whether it changes the workload (a binding's setting has a prefix, such as jdbc.)")
}

// check refuses settings that do not go together.
func (c *ycsbConfig) check() error {
	at := func(name string) string {
		if o, ok := c.origins[name]; ok {
			return " (" + o + ")"
		}
		return " (YCSB's default)"
	}
	sum := 0.0
	for _, f := range c.proportions {
		sum += f
	}
	if math.Abs(sum-1) > 1e-9 {
		return fmt.Errorf("the proportions of read, update, insert, scan and read-modify-write sum to %v, not 1 (YCSB would scale them; gobench deals them as given)", sum)
	}
	switch {
	case c.recordCount == 0:
		return fmt.Errorf("recordcount%s is 0 or not given (YCSB then takes 2147483647 records): give -p recordcount=N", at("recordcount"))
	case c.insertStart >= c.recordCount:
		return fmt.Errorf("insertstart=%d%s is not below recordcount=%d", c.insertStart, at("insertstart"), c.recordCount)
	}
	if !c.insertCountSet {
		c.insertCount = c.recordCount - c.insertStart
	}
	if c.insertCount == 0 || c.insertCount > c.recordCount-c.insertStart {
		return fmt.Errorf("insertcount=%d%s: want 1 to recordcount − insertstart (%d)", c.insertCount, at("insertcount"), c.recordCount-c.insertStart)
	}
	if c.fieldLengthDist != workload.LengthConstant && c.minFieldLength > c.fieldLength {
		return fmt.Errorf("minfieldlength=%d%s is above fieldlength=%d", c.minFieldLength, at("minfieldlength"), c.fieldLength)
	}
	if c.minScan > c.maxScan {
		return fmt.Errorf("minscanlength=%d%s is above maxscanlength=%d", c.minScan, at("minscanlength"), c.maxScan)
	}
	if c.fieldCount*c.fieldLength > workload.MaxValueSize {
		return fmt.Errorf("records of %d fields of %d bytes are above the limit of %d bytes", c.fieldCount, c.fieldLength, workload.MaxValueSize)
	}
	t := store.Table{Name: c.table, Key: "YCSB_KEY", Field: c.fieldPrefix, Fields: c.fieldCount}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("table%s or fieldnameprefix%s: %w", at("table"), at("fieldnameprefix"), err)
	}
	return nil
}

// mix returns the proportions as a mix, in percent; each must be a whole
// number of the deck's steps.
func (c *ycsbConfig) mix() (workload.Mix, error) {
	var m workload.Mix
	for _, name := range []string{"readproportion", "updateproportion", "insertproportion", "scanproportion", "readmodifywriteproportion"} {
		op := ycsbOps[name]
		f := c.proportions[op]
		if f == 0 {
			continue
		}
		pct := math.Round(f*100/workload.MixResolution) * workload.MixResolution
		if pct == 0 || math.Abs(pct-f*100) > 1e-9 { // a share too small to deal is refused, not dealt as none
			return nil, fmt.Errorf("%s=%v%s: gobench deals ops from an exact deck, in steps of %g of them", name, f, " ("+c.origins[name]+")", workload.MixResolution/100)
		}
		m = append(m, workload.Weight{Op: op, Percent: pct})
	}
	return m, m.Validate()
}

// Notes returns what the properties say that gobench does not use, one
// line each: settings of YCSB's client, measurements and bindings, zero
// shares of ops gobench lacks.
func (s YCSBSpec) Notes() ([]string, error) {
	c, err := s.config()
	if err != nil {
		return nil, err
	}
	notes := slices.Clone(c.notes)
	if s.Loop.Duration > 0 && c.operationCountSet && !s.Load {
		notes = append(notes, fmt.Sprintf("operationcount%s is not used: --duration bounds the run", originOf(c, "operationcount")))
	}
	if len(notes) > maxNotes {
		notes = append(notes[:maxNotes-1], fmt.Sprintf("and %d more properties gobench does not use", len(notes)-maxNotes+1))
	}
	return notes, nil
}

// maxNotes bounds the notes on a workload's properties: a property file
// of a million unused settings gets a screenful, not a million lines.
const maxNotes = 20

// cut shortens a property's name or value as a message shows it.
func cut(s string) string {
	if r := []rune(s); len(r) > 60 {
		return fmt.Sprintf("%s… (%d bytes)", string(r[:60]), len(s))
	}
	return s
}

// template returns the plan every cell copies.
func (s YCSBSpec) template(c *ycsbConfig) (workload.Plan, error) {
	p := s.Plan
	p.Store.Path = temporary
	p.Store.Table = &store.Table{Name: c.table, Key: "YCSB_KEY", Field: c.fieldPrefix, Fields: c.fieldCount}
	p.Keys = workload.KeySpace{Count: c.recordCount, Distribution: c.dist, Theta: workload.DefaultTheta}
	p.ValueSize, p.ValueVariance = c.fieldCount*c.fieldLength, 0
	r := &workload.Records{
		RecordCount: c.recordCount, InsertStart: c.insertStart, InsertCount: c.insertCount,
		FieldLength: c.fieldLength, MinFieldLength: c.minFieldLength, FieldLengthDistribution: c.fieldLengthDist,
		ReadAllFields: c.readAll, WriteAllFields: c.writeAll, Ordered: c.ordered, ZeroPadding: c.zeroPadding,
		MinScanLength: c.minScan, MaxScanLength: c.maxScan, ScanLengthDistribution: c.scanDist,
	}
	if c.dist == workload.Hotspot {
		r.HotData, r.HotOps = c.hotData, c.hotOps
	}
	p.Records = r
	if c.target > 0 {
		if s.RateGiven {
			return p, errors.New("target (" + c.origins["target"] + ") and --rate both set the open loop's rate (want one of them)")
		}
		p.Rate = c.target
	}
	if s.Load {
		return s.loadTemplate(p, c)
	}
	return s.runTemplate(p, c)
}

// loadTemplate makes p YCSB's load: every record of the range inserted,
// worker w of W taking every W-th keynum from insertstart+w.
func (s YCSBSpec) loadTemplate(p workload.Plan, c *ycsbConfig) (workload.Plan, error) {
	if s.Loop.Duration > 0 || s.Loop.Warmup != "" {
		return p, errors.New("ycsb load inserts its records once: it takes no --duration or --warmup")
	}
	if p.Rate > 0 {
		return p, errors.New("ycsb load inserts each worker's records in turn: it has no open loop (target, --rate)")
	}
	p.Preload = 0
	ops := int64(c.insertCount/uint64(c.threads)) + min(int64(c.insertCount%uint64(c.threads)), 1)
	p.Phases = []workload.Phase{{Name: "load", Mix: workload.Mix{{Op: workload.OpInsert, Percent: 100}},
		Access: workload.AccessEach, Order: workload.OrderSequential, Ops: ops, Batch: 1}}
	return p, nil
}

// runTemplate makes p YCSB's run: the records loaded first, then
// operationcount ops over the workers (or each worker for the loop's
// duration).
func (s YCSBSpec) runTemplate(p workload.Plan, c *ycsbConfig) (workload.Plan, error) {
	m, err := c.mix()
	if err != nil {
		return p, err
	}
	r := p.Records
	if c.dist == workload.Zipfian {
		// CoreWorkload's expectednewkeys: operationcount × insertproportion × 2.
		r.ExpectedInserts = uint64(float64(c.operationCount) * c.proportions[workload.OpInsert] * 2)
	}
	p.Preload = c.insertCount
	ph := workload.Phase{Name: "run", Mix: m, Batch: 1}
	switch {
	case s.Loop.Duration > 0:
		ph.Ops = 1 // replaced by the loop's duration
	case c.operationCount == 0:
		return p, fmt.Errorf("operationcount%s is 0 or not given (YCSB then runs until maxexecutiontime): give -p operationcount=N or --duration", originOf(c, "operationcount"))
	case c.operationCount < uint64(c.threads):
		return p, fmt.Errorf("operationcount=%d is less than threadcount=%d: every worker needs an op", c.operationCount, c.threads)
	default:
		r.OperationCount = c.operationCount
		ph.Ops = r.OpsPerWorker(c.threads)
	}
	p.Phases = []workload.Phase{ph}
	return p, nil
}

// originOf says where a property came from, for a message.
func originOf(c *ycsbConfig, name string) string {
	if o, ok := c.origins[name]; ok {
		return " (" + o + ")"
	}
	return ""
}

// Plans returns one plan per cell of m: threadcount workers in each, over
// as many processes as each procs value says.
func (s YCSBSpec) Plans(m Matrix) ([]*workload.Plan, error) {
	c, err := s.config()
	if err != nil {
		return nil, err
	}
	tmpl, err := s.template(c)
	if err != nil {
		return nil, err
	}
	if err := checkDrivers(&tmpl, m); err != nil {
		return nil, err
	}
	if m.Given != nil && m.Given("goroutines") {
		return nil, fmt.Errorf("threadcount=%d sets the workers (-p threadcount=N); --procs spreads them over processes: give no --goroutines", c.threads)
	}
	procs := m.Procs
	if m.Given == nil || !m.Given("procs") {
		procs = store.List{strconv.Itoa(c.threads)}
	}
	var cells []*workload.Plan
	for _, v := range procs {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || c.threads%n != 0 {
			return nil, fmt.Errorf("--procs %s does not divide threadcount=%d workers evenly among processes", v, c.threads)
		}
		sub := m
		sub.Procs, sub.Goroutines = store.List{v}, store.List{strconv.Itoa(c.threads / n)}
		cs, err := s.Loop.plans(tmpl, sub)
		if err != nil {
			return nil, err
		}
		cells = append(cells, cs...)
	}
	return cells, nil
}

// checkDrivers refuses, before anything runs, a driver that keeps no
// record tables, or none in key order for a workload that scans.
func checkDrivers(p *workload.Plan, m Matrix) error {
	for _, name := range m.Drivers {
		drv, err := m.Registry.Lookup(name)
		if err != nil {
			return fmt.Errorf("--driver: %w", err)
		}
		if err := workload.CheckTables(p, drv); err != nil {
			return fmt.Errorf("--driver %s: %w", name, err)
		}
	}
	return nil
}
