package workload

import (
	"errors"
	"fmt"

	"github.com/gobench/gobench/pkg/generator"
)

// Records is a record workload: YCSB's core workload (CoreWorkload) on
// the plan's record table (Plan.Store.Table), keyed by YCSB's keynums.
// Keys.Count is the record count and Keys.Distribution the request
// distribution (uniform, zipfian, latest or hotspot); ValueSize is a
// record's size at most (fields × field length).
//
// A phase that visits each key (AccessEach, op insert) is YCSB's load:
// keynums InsertStart to InsertStart+InsertCount-1, worker w of W taking
// every W-th from InsertStart+w (a shared counter's interleaving, dealt
// in advance); its Ops, if set, says what the busiest worker inserts. A lottery phase is YCSB's run: ops dealt from the mix's
// deck, each drawing its keynum as CoreWorkload's nextKeynum does, a
// keynum above the counter's limit drawn again; an insert takes a fresh
// keynum from the run's Counter, from RecordCount up.
type Records struct {
	// RecordCount is YCSB's recordcount: the records of the table (the
	// key space), and the first keynum a run's inserts take.
	RecordCount uint64 `json:"record_count"`
	// InsertStart and InsertCount are the keynums this plan loads (all
	// of them unless split among several loaders), and those a run's
	// uniform, zipfian and hotspot draws fall on.
	InsertStart uint64 `json:"insert_start"`
	InsertCount uint64 `json:"insert_count"`
	// OperationCount is YCSB's operationcount: the ops of a run's
	// measured phase over every worker, split as evenly as can be (the
	// first workers one more); 0 when the phase runs for a duration.
	OperationCount uint64 `json:"operation_count,omitempty"`
	// FieldLength is a field's length (the most, for a varying length);
	// MinFieldLength the least; FieldLengthDistribution constant, uniform
	// or zipfian.
	FieldLength             int    `json:"field_length"`
	MinFieldLength          int    `json:"min_field_length"`
	FieldLengthDistribution string `json:"field_length_distribution"`
	// ReadAllFields reads every field (else one, at random);
	// WriteAllFields writes every field of an update (else one).
	ReadAllFields  bool `json:"read_all_fields"`
	WriteAllFields bool `json:"write_all_fields"`
	// Ordered names records by their keynum (insertorder=ordered), not
	// its hash; ZeroPadding pads the number to this many digits.
	Ordered     bool `json:"ordered,omitempty"`
	ZeroPadding int  `json:"zero_padding"`
	// HotData and HotOps are the hotspot distribution's: a share HotOps
	// of the draws falls on the first HotData of the keys.
	HotData float64 `json:"hot_data,omitempty"`
	HotOps  float64 `json:"hot_ops,omitempty"`
	// ExpectedInserts widens the zipfian distribution's range beyond the
	// loaded records, as YCSB does (operationcount × insertproportion ×
	// 2), so that records inserted during the run get drawn too.
	ExpectedInserts uint64 `json:"expected_inserts,omitempty"`
	// MinScanLength and MaxScanLength bound a scan's length, drawn
	// uniform or zipfian (ScanLengthDistribution).
	MinScanLength          int    `json:"min_scan_length"`
	MaxScanLength          int    `json:"max_scan_length"`
	ScanLengthDistribution string `json:"scan_length_distribution"`
	// Counter is the file holding the run's Counter, mapped by every
	// worker process; the coordinator sets it for the worker processes
	// of one run, and it is empty everywhere else.
	Counter string `json:"counter,omitempty"`
}

// Record workload limits.
const (
	// MaxScanLength bounds maxscanlength.
	MaxScanLength = 1_000_000
	// MaxZeroPadding bounds zeropadding: keys stay within
	// store.MaxRecordKey.
	MaxZeroPadding = 400
)

// RecordTheta is the zipfian constant of YCSB's core workload: fixed,
// since ScrambledZipfianGenerator has zeta precomputed for it alone.
const RecordTheta = generator.ScrambledTheta

// The distributions of a record workload's field and scan lengths.
const (
	LengthConstant = generator.LengthConstant
	LengthUniform  = generator.LengthUniform
	LengthZipfian  = generator.LengthZipfian
)

func (r *Records) checkCounts() error {
	switch {
	case r.RecordCount < 1 || r.RecordCount > MaxKeys:
		return fmt.Errorf("record count %d is out of range (want 1 to %d)", r.RecordCount, uint64(MaxKeys))
	case r.InsertCount < 1:
		return errors.New("insert count is 0 (want at least 1 record)")
	case r.InsertStart > r.RecordCount || r.InsertCount > r.RecordCount-r.InsertStart:
		return fmt.Errorf("insert start %d and insert count %d reach past the record count %d", r.InsertStart, r.InsertCount, r.RecordCount)
	case r.OperationCount > MaxKeys:
		return fmt.Errorf("operation count %d is out of range (want up to %d)", r.OperationCount, uint64(MaxKeys))
	case r.ZeroPadding < 0 || r.ZeroPadding > MaxZeroPadding:
		return fmt.Errorf("zero padding %d is out of range (want 0 to %d)", r.ZeroPadding, MaxZeroPadding)
	}
	return nil
}

func (r *Records) checkFields() error {
	switch r.FieldLengthDistribution {
	case LengthConstant, LengthUniform, LengthZipfian:
	default:
		return fmt.Errorf("unknown field length distribution %q (want constant, uniform or zipfian)", r.FieldLengthDistribution)
	}
	if r.FieldLength < 1 || r.FieldLength > MaxValueSize {
		return fmt.Errorf("field length %d is out of range (want 1 to %d)", r.FieldLength, MaxValueSize)
	}
	if r.FieldLengthDistribution != LengthConstant && (r.MinFieldLength < 0 || r.MinFieldLength > r.FieldLength) {
		return fmt.Errorf("minimum field length %d is out of range (want 0 to the field length, %d)", r.MinFieldLength, r.FieldLength)
	}
	return nil
}

func (r *Records) checkScans() error {
	switch r.ScanLengthDistribution {
	case LengthUniform, LengthZipfian:
	default:
		return fmt.Errorf("unknown scan length distribution %q (want uniform or zipfian)", r.ScanLengthDistribution)
	}
	if r.MinScanLength < 1 || r.MaxScanLength < r.MinScanLength || r.MaxScanLength > MaxScanLength {
		return fmt.Errorf("scan lengths %d to %d are out of range (want 1 ≤ minimum ≤ maximum ≤ %d)", r.MinScanLength, r.MaxScanLength, MaxScanLength)
	}
	return nil
}

func (r *Records) checkDistribution(k KeySpace) error {
	switch k.Distribution {
	case Zipfian:
		if k.Theta != RecordTheta {
			return fmt.Errorf("the zipfian constant of a record workload is YCSB's %v, not %v", RecordTheta, k.Theta)
		}
		if r.ExpectedInserts > MaxKeys {
			return fmt.Errorf("expected inserts %d is out of range", r.ExpectedInserts)
		}
	case Hotspot:
		if !(r.HotData >= 0 && r.HotData <= 1 && r.HotOps >= 0 && r.HotOps <= 1) {
			return fmt.Errorf("hotspot fractions %v of the data and %v of the ops are out of range (want 0 to 1)", r.HotData, r.HotOps)
		}
		hot, cold := generator.NewHotspot(int64(r.InsertStart), int64(r.InsertStart+r.InsertCount-1), r.HotData, r.HotOps).Sets()
		if hot == 0 && r.HotOps > 0 {
			return fmt.Errorf("the hot set (%v of %d records) holds no record, yet %v of the ops go to it", r.HotData, r.InsertCount, r.HotOps)
		}
		if cold == 0 && r.HotOps < 1 {
			return fmt.Errorf("the cold set (%v of %d records) holds no record, yet %v of the ops go to it", 1-r.HotData, r.InsertCount, 1-r.HotOps)
		}
	}
	return nil
}

// OpShare returns the ops worker deals in a run phase of ops (the phase's
// own count) out of OperationCount: its even share, the first workers one
// more; 0 without an operation count.
func (r *Records) OpShare(workers, worker int) int64 {
	if r.OperationCount == 0 || workers < 1 {
		return 0
	}
	w := uint64(workers)
	n := r.OperationCount / w
	if uint64(worker) < r.OperationCount%w {
		n++
	}
	return int64(n)
}

// OpsPerWorker returns the op count of a run phase's busiest worker for
// workers workers: what Phase.Ops says of a run whose OperationCount is
// split over them.
func (r *Records) OpsPerWorker(workers int) int64 {
	return r.OpShare(workers, 0)
}

// AppendKey appends the name of record keynum, as YCSB builds it.
func (r *Records) AppendKey(dst []byte, keynum uint64) []byte {
	return generator.AppendKeyName(dst, int64(keynum), r.ZeroPadding, r.Ordered)
}

// LoadShare returns the first keynum, the stride and the count of the
// keynums worker loads.
func (r *Records) LoadShare(workers, worker int) (first, stride, n uint64) {
	w := uint64(workers)
	n = r.InsertCount / w
	if uint64(worker) < r.InsertCount%w {
		n++
	}
	return r.InsertStart + uint64(worker), w, n
}
