package workload

import (
	"errors"
	"fmt"
	"slices"
)

// checkRecords checks a record workload: its table, counts and
// distributions, and that its phases deal record ops; a plan without one
// deals no read-modify-write.
func (p *Plan) checkRecords() error {
	r := p.Records
	if r == nil {
		for _, ph := range p.RunPhases() {
			for _, op := range ph.Mix.Ops() {
				if ph.Access == AccessLottery && !slices.Contains(MixOps(), op) && !op.IsScript() && !op.IsStatement() {
					return fmt.Errorf("phase %s: %v cannot be dealt by a lottery mix (want %s; a record workload's lottery deals insert and read-modify-write too)", ph.Name, op, MixOpNames)
				}
			}
		}
		return nil
	}
	t := p.Store.Table
	if t == nil {
		return errors.New("records: the store has no record table")
	}
	if err := t.Validate(); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	for _, check := range []func() error{r.checkCounts, r.checkFields, r.checkScans} {
		if err := check(); err != nil {
			return fmt.Errorf("records: %w", err)
		}
	}
	if p.Keys.Count != r.RecordCount {
		return fmt.Errorf("records: the key space of %d keys is not the record count %d", p.Keys.Count, r.RecordCount)
	}
	if want := uint64(t.Fields) * uint64(r.FieldLength); uint64(p.ValueSize) != want || p.ValueVariance != 0 {
		return fmt.Errorf("records: value size %d±%d is not the record's %d bytes (%d fields of %d)", p.ValueSize, p.ValueVariance, want, t.Fields, r.FieldLength)
	}
	if p.Preload != 0 && p.Preload != r.InsertCount {
		return fmt.Errorf("records: a preload of %d rows is not the %d records loaded", p.Preload, r.InsertCount)
	}
	if p.Verify {
		return errors.New("records: verify checks key-value writes, not records")
	}
	if err := r.checkDistribution(p.Keys); err != nil {
		return fmt.Errorf("records: %w", err)
	}
	for _, ph := range p.RunPhases() {
		if err := r.checkPhase(p, ph); err != nil {
			return fmt.Errorf("records: phase %s: %w", ph.Name, err)
		}
	}
	return nil
}

// checkPhase checks that a phase is a load or a run of records.
func (r *Records) checkPhase(p *Plan, ph Phase) error {
	if ph.Access == AccessEach {
		if ops := ph.Mix.Ops(); len(ops) != 1 || ops[0] != OpInsert {
			return fmt.Errorf("a record workload's each-key phase is its load, of inserts, not %s", ph.Mix)
		}
		if ph.Order != OrderSequential {
			return errors.New("a record load inserts every record of its range in order")
		}
		return nil
	}
	for _, op := range ph.Mix.Ops() {
		if !slices.Contains(RecordOps(), op) {
			return fmt.Errorf("%v is not an op of a record workload (want read, update, insert, scan, read-modify-write)", op)
		}
	}
	// A run of ops deals each worker its share of OperationCount; the
	// phase's own count, which reports show, must be the busiest's share.
	if want := r.OpsPerWorker(p.Workers()); ph.Ops > 0 && r.OperationCount > 0 && ph.Ops != want {
		return fmt.Errorf("%d ops a worker, but the operation count %d over %d workers is %d a worker (the busiest): the two must agree", ph.Ops, r.OperationCount, p.Workers(), want)
	}
	return nil
}

// InsertsDuringRun reports whether a record workload's lottery phases insert:
// their keynums come from the run's counter.
func (p *Plan) InsertsDuringRun() bool {
	if p.Records == nil {
		return false
	}
	for _, ph := range p.RunPhases() {
		if ph.Access == AccessLottery && slices.Contains(ph.Mix.Ops(), OpInsert) {
			return true
		}
	}
	return false
}

// checkCrash checks that a --crash run can name the write behind every
// field a crash state holds: each value written is at least
// MinVerifyValueSize bytes, to hold its Tag, and each write is
// acknowledged on its own (batch 1), naming its record; the record
// starts at the run's START (the loaded records are not checked).
func (r *Records) checkCrash(p *Plan) error {
	least := r.FieldLength
	if r.FieldLengthDistribution != LengthConstant {
		least = r.MinFieldLength
	}
	if least < MinVerifyValueSize {
		return fmt.Errorf("crash tags every field written with its write, in %d bytes: fields as short as %d bytes are too small (fieldlength, minfieldlength)", MinVerifyValueSize, least)
	}
	if p.Crash.FromSetup() {
		return fmt.Errorf("crash from %s: a record workload's states are checked for the writes of its run, not yet for the records its setup loaded: cut from start", p.Crash.From)
	}
	for _, ph := range p.RunPhases() {
		if ph.Batch > 1 {
			return fmt.Errorf("crash acknowledges a record workload's writes one by one: phase %s batches %d ops into a transaction (want 1)", ph.Name, ph.Batch)
		}
	}
	return nil
}
