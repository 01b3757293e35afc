package result

import (
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// ChoiceKind is the kind of gobench choose's result file.
const ChoiceKind = "choice"

// Choice is gobench choose's answer: every engine and setting that can
// keep the promise asked for, measured on one workload, those that kept
// it ranked by speed, the others listed with what they lost.
type Choice struct {
	SchemaVersion int    `json:"schema_version"`
	Kind          string `json:"kind"` // always ChoiceKind
	Tool          Tool   `json:"tool"`
	// Workload describes the ops every row ran.
	Workload string `json:"workload"`
	// Keep is the promise asked for (acked, process-crash, none); Says it
	// in words.
	Keep string `json:"keep"`
	Says string `json:"says"`
	// Budget is the time asked for; Elapsed the time the runs took.
	Budget  time.Duration `json:"budget_ns"`
	Elapsed time.Duration `json:"elapsed_ns"`
	// Repeats is the speed runs of each row, interleaved, each Duration
	// long; Cuts the power cuts simulated on each row that promises to
	// keep acknowledged writes (0: none were).
	Repeats  int           `json:"repeats"`
	Duration time.Duration `json:"run_ns"`
	Cuts     int           `json:"cuts"`
	// Machine describes where it ran (the first speed run's environment).
	Machine string `json:"machine"`
	// RankBy is the role whose ops/s ranks the rows, for a workload of
	// roles ("" ranks by the total ops/s: a workload without roles);
	// RankWhy says why it was chosen ("--rank-by", "the first role that
	// writes").
	RankBy  string `json:"rank_by,omitempty"`
	RankWhy string `json:"rank_why,omitempty"`
	// BaselineRSSBytes is the median over the memory baseline's runs (the
	// null driver, an engine that does nothing, run with the speed runs in
	// their shape) of its worker process's peak resident memory: what a
	// worker costs with no engine, subtracted from each row's
	// (ChoiceRow.EngineRSSBytes). 0 where not measured.
	BaselineRSSBytes int64 `json:"baseline_rss_bytes,omitempty"`
	// CoordinatorMaxRSSBytes is the largest peak resident memory of
	// gobench's own coordinating process over the speed runs (its
	// histograms and results, and the power-cut runs it hosted before):
	// in no row, which are their worker processes'.
	CoordinatorMaxRSSBytes int64 `json:"coordinator_max_rss_bytes,omitempty"`
	// Rows are ranked first (Rank from 1, fastest first), then those that
	// are not (Rank 0), each saying why.
	Rows []ChoiceRow `json:"rows"`
	// Winner names the fastest row that kept the promise and Margin its
	// lead over the runner-up ("" where fewer than two were ranked), both
	// by RankBy's ops/s where it is set.
	Winner string  `json:"winner,omitempty"`
	Margin *Margin `json:"margin,omitempty"`
	// Gates are the gates on the margin (choose --expect), judged.
	Gates []Gate `json:"gates,omitempty"`
	// NotMeasured says, a line each, what the answer leaves out and why.
	NotMeasured []string `json:"not_measured,omitempty"`
	// Notes are further lines the answer must carry (drivers of different
	// versions of one engine).
	Notes []string `json:"notes,omitempty"`
}

// ChoiceRow is one engine at one setting.
type ChoiceRow struct {
	// Rank is the row's place among those that kept the promise, 1
	// fastest; 0 for a row not ranked (Why says why).
	Rank int `json:"rank"`
	// Driver and Settings name the row ("journal=wal sync=full").
	Driver   string `json:"driver"`
	Settings string `json:"settings"`
	// Version is the engine's version, as the engine names it.
	Version string `json:"version,omitempty"`
	// OpsPerSec is the median of the speed runs' total ops/s; Low and
	// High bound it: the interval of the median at Confidence where the
	// repeats allow one, else (Confidence 0) the runs' range.
	OpsPerSec  float64 `json:"ops_per_sec"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence,omitempty"`
	Runs       int     `json:"runs"`
	// P99 is the median over the speed runs of P99Kind's p99, in µs.
	P99     float64 `json:"p99_us"`
	P99Kind string  `json:"p99_kind"`
	// SyncsPerCommit is what the traced power-cut run counted, -1 where
	// none was traced.
	SyncsPerCommit float64 `json:"syncs_per_commit"`
	// DiskBytes is the median over the complete speed runs of the
	// database's size on disk after the run: its files' allocated blocks,
	// as du counts them (main file, WAL or journal, LSM directory:
	// Space.AllocatedBytes); LiveBytes the median of the live data it held
	// (keys and values as an application counts them). 0: not measured.
	DiskBytes int64 `json:"disk_bytes"`
	LiveBytes int64 `json:"live_bytes"`
	// SpaceAmplification is the median of the runs' space amplification
	// (allocated bytes per live byte), stated only from 64 MiB of live
	// data on, as the "space amplification" figure is; 0 elsewhere, and
	// SpaceNote says why.
	SpaceAmplification float64 `json:"space_amplification,omitempty"`
	SpaceNote          string  `json:"space_note,omitempty"`
	// PeakRSSBytes is the median over the complete speed runs of the peak
	// resident memory of the run's worker process (Result.WorkerMaxRSSBytes:
	// every speed run is one worker process of its own, started for it,
	// its workers its goroutines), gobench's worker and the engine
	// together; EngineRSSBytes is that less the memory baseline's
	// (Choice.BaselineRSSBytes): what the engine costs, its caches,
	// memtables and maps on this workload. 0 where not measured, and
	// MemoryNote says why.
	PeakRSSBytes   int64  `json:"peak_rss_bytes"`
	EngineRSSBytes int64  `json:"engine_rss_bytes"`
	MemoryNote     string `json:"memory_note,omitempty"`
	// Cuts is the power cuts simulated on the row's own run, Lossy how
	// many of them lost acknowledged writes, Lost the most one lost,
	// Corrupt how many left a store that would not open or failed its
	// check; CutNote says why there were none.
	Cuts    int    `json:"cuts"`
	Lossy   int    `json:"lossy"`
	Lost    int64  `json:"lost"`
	Corrupt int    `json:"corrupt"`
	CutNote string `json:"cut_note,omitempty"`
	// Roles are, for a workload of roles, each role's figures, in the
	// workload's order.
	Roles []ChoiceRole `json:"roles,omitempty"`
	// Errors is the failed ops over the speed runs, by class.
	Errors Errors `json:"errors"`
	// Why says why a row is not ranked: what it lost, or what failed.
	Why string `json:"why,omitempty"`
}

// ChoiceRole is one role's figures in a row: the median over the
// complete speed runs of the role's ops/s (all its data ops), with Low
// and High bounding it as ChoiceRow's do, and the median of its p99 over
// all its data ops, in µs.
type ChoiceRole struct {
	Name       string  `json:"name"`
	Workers    int     `json:"workers"`
	OpsPerSec  float64 `json:"ops_per_sec"`
	Low        float64 `json:"low"`
	High       float64 `json:"high"`
	Confidence float64 `json:"confidence,omitempty"`
	P99        float64 `json:"p99_us"`
}

// Role returns the row's figures of the role named name, or false.
func (r ChoiceRow) Role(name string) (ChoiceRole, bool) {
	for _, ro := range r.Roles {
		if ro.Name == name {
			return ro, true
		}
	}
	return ChoiceRole{}, false
}

// Margin is the winner's lead over the runner-up: the ratio of their
// median ops/s and, where the repeats allow, the interval of the ratio at
// Confidence; Significant when it lies wholly above ×1.
type Margin struct {
	RunnerUp    string  `json:"runner_up"`
	Ratio       float64 `json:"ratio"`
	Low         float64 `json:"low,omitempty"`
	High        float64 `json:"high,omitempty"`
	Confidence  float64 `json:"confidence,omitempty"`
	Significant bool    `json:"significant"`
}

// Name is the row as a table names it: "mattn journal=wal sync=full".
func (r ChoiceRow) Name() string {
	if r.Settings == "" {
		return r.Driver
	}
	return r.Driver + " " + r.Settings
}

// Write writes the choice as indented JSON.
func (c *Choice) Write(w io.Writer) error { return writeIndented(w, c) }

// decodeChoice decodes a choice file (ReadAny's branch for ChoiceKind).
func decodeChoice(data []byte) (*Choice, error) {
	var c Choice
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("decoding choice: %w", err)
	}
	if c.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("choice schema version %d is not supported (this gobench reads version %d)", c.SchemaVersion, SchemaVersion)
	}
	return &c, nil
}
